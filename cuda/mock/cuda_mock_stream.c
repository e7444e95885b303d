// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Streams: their identity (the context a stream belongs to, its flags and
// priority, being valid or not), synchronisation and cuStreamWaitEvent.
// The emulated devices run an operation when it is enqueued unless work is
// queued before it (behind a host function: cuda_mock_queue.c, which
// keeps a created stream's queue in its slot), so synchronizing and
// querying ask the queue. A stream lives in a table slot
// (cuda_mock_handles.c) and goes with cuStreamDestroy or with its context;
// a destroyed stream is CUDA_ERROR_INVALID_HANDLE, never a crash, and its
// queued work still runs.
//
// The special handles NULL (the default stream: legacy, or per-thread in
// the _ptsz variants), CU_STREAM_LEGACY and CU_STREAM_PER_THREAD name the
// current context's default stream, which has one queue per context (the
// per-thread default streams are ordered as the legacy one).

#include "cuda_mock_stream.h"
#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

// Priorities of an H100: 0 (least) to -5 (greatest).
#define PRIORITY_LEAST 0
#define PRIORITY_GREATEST (-5)

// The attributes cuda.h calls valid for streams besides the priority, by
// index (cuStreamSetAttribute; under attrs_lock).
enum {
    ATTR_ACCESS_POLICY_WINDOW,
    ATTR_SYNCHRONIZATION_POLICY,
    ATTR_MEM_SYNC_DOMAIN_MAP,
    ATTR_MEM_SYNC_DOMAIN,
    ATTR_COUNT
};

struct CUstream_st {
    cuda_mock_slot_t slot;
    cuda_mock_ctx_ref_t ctx;
    bool green; // made in a green context: outlives it, detached
    unsigned flags;
    _Atomic int priority;
    unsigned long long id;
    CUstreamAttrValue attrs[ATTR_COUNT];
    cuda_mock_stream_order_t order; // under the order lock
};

static cuda_mock_table_t streams =
    CUDA_MOCK_TABLE("stream", struct CUstream_st, CUDA_MOCK_MAX_STREAMS,
                    CUDA_MOCK_OBJECT_STREAM);

static _Atomic unsigned long long next_id = 1;

static bool is_special(CUstream h) {
    return h == NULL || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD;
}

// The stream `h` names, alive and of a live context (*s NULL for the
// default streams, which name the current context's).
static CUresult resolve(CUstream h, const char *call, cuda_mock_ctx_t **ctx,
                        const struct CUstream_st **out) {
    *out = NULL;
    if (is_special(h)) {
        return cuda_mock_ctx_current(ctx);
    }
    const struct CUstream_st *s = cuda_mock_table_get(&streams, h);
    if (s != NULL && s->green && !cuda_mock_ctx_ref_alive(s->ctx)) {
        // cuGreenCtxDestroy: "any subsequent API calls involving these
        // streams (including cuStreamDestroy) will return
        // CUDA_ERROR_CONTEXT_IS_DESTROYED" (cuStreamDestroy frees it here).
        UMF_MOCK_LOG_ERROR("%s: stream %p is of a destroyed green context",
                           call, (void *)h);
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    if (s == NULL || !cuda_mock_ctx_ref_alive(s->ctx)) {
        UMF_MOCK_LOG_ERROR("%s: stream %p is not a stream of this driver, or "
                           "was destroyed (with its context?)",
                           call, (void *)h);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    *ctx = s->ctx.ctx;
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cuda_mock_stream_resolve(CUstream h, const char *call,
                                  cuda_mock_ctx_t **ctx) {
    const struct CUstream_st *s;
    return resolve(h, call, ctx, &s);
}

// Out of the range: clamped, as documented.
static int clamp_priority(int priority) {
    return priority > PRIORITY_LEAST      ? PRIORITY_LEAST
           : priority < PRIORITY_GREATEST ? PRIORITY_GREATEST
                                          : priority;
}

CUresult cuda_mock_stream_get(CUstream h, const char *call,
                              cuda_mock_stream_ref_t *out) {
    const struct CUstream_st *s;
    CUresult res = resolve(h, call, &out->ctx, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    out->handle = h;
    // The slot is the table's memory for good: its order state is only
    // read and written under the order lock.
    out->order = s != NULL ? (cuda_mock_stream_order_t *)&s->order : NULL;
    out->blocking = s == NULL || (s->flags & CU_STREAM_NON_BLOCKING) == 0;
    return CUDA_SUCCESS;
}

CUresult cuda_mock_stream_create_in(cuda_mock_ctx_t *ctx, CUstream *phStream,
                                    unsigned flags, int priority,
                                    const char *call) {
    if (phStream == NULL || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUstream_st *s;
    CUresult res = cuda_mock_table_alloc(&streams, (void **)&s);
    if (res != CUDA_SUCCESS) {
        UMF_MOCK_LOG_INFO("%s failed", call);
        return res;
    }
    s->ctx = cuda_mock_ctx_ref(ctx);
    s->green = cuda_mock_ctx_green(ctx) != NULL;
    s->flags = flags;
    atomic_store_explicit(&s->priority, clamp_priority(priority),
                          memory_order_relaxed);
    s->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
    *phStream = s;
    return CUDA_SUCCESS;
}

static CUresult create(CUstream *phStream, unsigned flags, int priority,
                       const char *call) {
    if (phStream == NULL || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return cuda_mock_stream_create_in(ctx, phStream, flags, priority, call);
}

CUDA_MOCK_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
    CUDA_MOCK_ENTER(cuStreamCreate);
    return create(phStream, Flags, 0, "cuStreamCreate");
}

CUDA_MOCK_API CUresult cuStreamCreateWithPriority(CUstream *phStream,
                                                  unsigned int flags,
                                                  int priority) {
    CUDA_MOCK_ENTER(cuStreamCreateWithPriority);
    return create(phStream, flags, priority, "cuStreamCreateWithPriority");
}

static CUresult stream_destroy(CUstream hStream, const char *call) {
    if (is_special(hStream)) {
        UMF_MOCK_LOG_ERROR("%s(%p): a default stream cannot be destroyed", call,
                           (void *)hStream);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    struct CUstream_st *detached = cuda_mock_table_get(&streams, hStream);
    if (detached != NULL && detached->green &&
        !cuda_mock_ctx_ref_alive(detached->ctx)) {
        // Of a destroyed green context: cuda.h 13.0 calls it leaked, newer
        // drivers let cuStreamDestroy free it, as here. Its work was
        // cancelled with the context.
        (void)cuda_mock_order_stream_gone(&detached->order, true, call);
        return cuda_mock_table_free(&streams, detached)
                   ? CUDA_SUCCESS
                   : CUDA_ERROR_INVALID_HANDLE;
    }
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(hStream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // Queued work runs on, after the call ("the resources associated with
    // hStream will be released automatically once the device has
    // completed all work"). Of two racing destroys, one wins.
    res = cuda_mock_order_stream_gone(s.order, false, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return cuda_mock_table_free(&streams, hStream) ? CUDA_SUCCESS
                                                   : CUDA_ERROR_INVALID_HANDLE;
}

CUDA_MOCK_API CUresult cuStreamDestroy_v2(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamDestroy_v2);
    return stream_destroy(hStream, "cuStreamDestroy_v2");
}

// CUDA 2's name (the same arguments).
CUDA_MOCK_API CUresult cuStreamDestroy(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamDestroy);
    return stream_destroy(hStream, "cuStreamDestroy");
}

// Synchronize (`wait`) and query: the stream's queue, if it has one (and
// for the legacy stream, the work it would wait for); the first error of
// its queued work.
static CUresult sync(CUstream h, bool wait, const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(h, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return cuda_mock_order_stream_sync(&s, wait, call);
}

CUDA_MOCK_API CUresult cuStreamSynchronize(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamSynchronize);
    return sync(hStream, true, "cuStreamSynchronize");
}

CUDA_MOCK_API CUresult cuStreamSynchronize_ptsz(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamSynchronize_ptsz);
    return sync(hStream, true, "cuStreamSynchronize_ptsz");
}

CUDA_MOCK_API CUresult cuStreamQuery(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamQuery);
    return sync(hStream, false, "cuStreamQuery");
}

CUDA_MOCK_API CUresult cuStreamQuery_ptsz(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamQuery_ptsz);
    return sync(hStream, false, "cuStreamQuery_ptsz");
}

// Later work on the stream waits for the event's last record while that
// is queued (else there is nothing to wait for: it ran).
static CUresult wait_event(CUstream h, CUevent ev, unsigned flags,
                           const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(h, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // "hEvent may be from a different context or device than hStream."
    cuda_mock_ctx_t *ectx;
    uint32_t gen;
    if (cuda_mock_event_order_of(ev, call, &ectx, &gen) == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // CU_EVENT_WAIT_EXTERNAL makes an event wait node in a capture; outside
    // one it is a plain wait.
    if ((flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL) != 0) {
        UMF_MOCK_LOG_ERROR("%s: flags 0x%x", call, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_WAIT, .call = call};
    op.u.event.event = ev;
    op.u.event.gen = gen;
    op.u.event.flags = flags;
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                                         unsigned int Flags) {
    CUDA_MOCK_ENTER(cuStreamWaitEvent);
    return wait_event(hStream, hEvent, Flags, "cuStreamWaitEvent");
}

CUDA_MOCK_API CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent,
                                              unsigned int Flags) {
    CUDA_MOCK_ENTER(cuStreamWaitEvent_ptsz);
    return wait_event(hStream, hEvent, Flags, "cuStreamWaitEvent_ptsz");
}

static CUresult get_ctx(CUstream h, CUcontext *pctx, const char *call) {
    if (pctx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(h, call, &ctx);
    if (res == CUDA_SUCCESS) {
        *pctx = ctx;
    }
    return res;
}

CUDA_MOCK_API CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx) {
    CUDA_MOCK_ENTER(cuStreamGetCtx);
    return get_ctx(hStream, pctx, "cuStreamGetCtx");
}

CUDA_MOCK_API CUresult cuStreamGetCtx_ptsz(CUstream hStream, CUcontext *pctx) {
    CUDA_MOCK_ENTER(cuStreamGetCtx_ptsz);
    return get_ctx(hStream, pctx, "cuStreamGetCtx_ptsz");
}

// CUDA 12.5's form: for a stream of a green context (or a default stream
// while one is current), the primary context and the green context; else
// the context and NULL.
static CUresult get_ctx_v2(CUstream h, CUcontext *pctx, CUgreenCtx *pgreen,
                           const char *call) {
    if (pctx == NULL && pgreen == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(h, call, &ctx);
    if (res == CUDA_SUCCESS) {
        if (pctx != NULL) {
            *pctx = cuda_mock_ctx_base(ctx);
        }
        if (pgreen != NULL) {
            *pgreen = cuda_mock_ctx_green(ctx);
        }
    }
    return res;
}

CUDA_MOCK_API CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx,
                                         CUgreenCtx *pGreenCtx) {
    CUDA_MOCK_ENTER(cuStreamGetCtx_v2);
    return get_ctx_v2(hStream, pCtx, pGreenCtx, "cuStreamGetCtx_v2");
}

CUDA_MOCK_API CUresult cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx,
                                              CUgreenCtx *pGreenCtx) {
    CUDA_MOCK_ENTER(cuStreamGetCtx_v2_ptsz);
    return get_ctx_v2(hStream, pCtx, pGreenCtx, "cuStreamGetCtx_v2_ptsz");
}

// Flags, priority and id of a stream; the default streams have flags 0,
// the default priority 0, and ids of their own.
typedef enum what_t { FLAGS, PRIORITY, ID } what_t;

static CUresult get(CUstream h, what_t what, void *out, const char *call) {
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    const struct CUstream_st *s;
    CUresult res = resolve(h, call, &ctx, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    switch (what) {
    case FLAGS:
        *(unsigned *)out = s != NULL ? s->flags : 0u;
        break;
    case PRIORITY:
        *(int *)out =
            s != NULL ? atomic_load_explicit(&s->priority, memory_order_relaxed)
                      : 0;
        break;
    case ID:
        *(unsigned long long *)out = s != NULL ? s->id
                                     : h == CU_STREAM_PER_THREAD
                                         ? UINT64_MAX - 1
                                         : UINT64_MAX;
        break;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags) {
    CUDA_MOCK_ENTER(cuStreamGetFlags);
    return get(hStream, FLAGS, flags, "cuStreamGetFlags");
}

CUDA_MOCK_API CUresult cuStreamGetFlags_ptsz(CUstream hStream,
                                             unsigned int *flags) {
    CUDA_MOCK_ENTER(cuStreamGetFlags_ptsz);
    return get(hStream, FLAGS, flags, "cuStreamGetFlags_ptsz");
}

CUDA_MOCK_API CUresult cuStreamGetPriority(CUstream hStream, int *priority) {
    CUDA_MOCK_ENTER(cuStreamGetPriority);
    return get(hStream, PRIORITY, priority, "cuStreamGetPriority");
}

CUDA_MOCK_API CUresult cuStreamGetPriority_ptsz(CUstream hStream,
                                                int *priority) {
    CUDA_MOCK_ENTER(cuStreamGetPriority_ptsz);
    return get(hStream, PRIORITY, priority, "cuStreamGetPriority_ptsz");
}

CUDA_MOCK_API CUresult cuStreamGetId(CUstream hStream,
                                     unsigned long long *streamId) {
    CUDA_MOCK_ENTER(cuStreamGetId);
    return get(hStream, ID, streamId, "cuStreamGetId");
}

CUDA_MOCK_API CUresult cuStreamGetId_ptsz(CUstream hStream,
                                          unsigned long long *streamId) {
    CUDA_MOCK_ENTER(cuStreamGetId_ptsz);
    return get(hStream, ID, streamId, "cuStreamGetId_ptsz");
}

CUDA_MOCK_API CUresult cuCtxGetStreamPriorityRange(int *leastPriority,
                                                   int *greatestPriority) {
    CUDA_MOCK_ENTER(cuCtxGetStreamPriorityRange);
    // Both are optional; every emulated device has the same range.
    if (leastPriority != NULL) {
        *leastPriority = PRIORITY_LEAST;
    }
    if (greatestPriority != NULL) {
        *greatestPriority = PRIORITY_GREATEST;
    }
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Context teardown: a context's streams go with it.

// A green context's streams stay, detached (cuGreenCtxDestroy "does not
// destroy streams"): their work is cancelled, and calls on them but
// cuStreamDestroy are refused.
static void drop_if_of(void *slot, void *arg) {
    struct CUstream_st *s = slot;
    if (s->ctx.ctx == arg && !s->green) {
        (void)cuda_mock_order_stream_gone(&s->order, true, "context destroy");
        (void)cuda_mock_table_free(&streams, s);
    }
}

static void stream_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    cuda_mock_table_foreach(&streams, drop_if_of, (void *)ctx);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_STREAMS, stream_ctx_teardown);

// ---------------------------------------------------------------------------
// The device of a stream, and its attributes

static CUresult stream_device(CUstream h, CUdevice *device, const char *call) {
    if (device == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(h, call, &ctx);
    if (res == CUDA_SUCCESS) {
        *device = cuda_mock_ctx_device(ctx);
    }
    return res;
}

CUDA_MOCK_API CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device) {
    CUDA_MOCK_ENTER(cuStreamGetDevice);
    return stream_device(hStream, device, "cuStreamGetDevice");
}

CUDA_MOCK_API CUresult cuStreamGetDevice_ptsz(CUstream hStream,
                                              CUdevice *device) {
    CUDA_MOCK_ENTER(cuStreamGetDevice_ptsz);
    return stream_device(hStream, device, "cuStreamGetDevice_ptsz");
}

// A created stream keeps the attributes cuda.h calls valid for streams
// (access policy window, synchronization policy, memory synchronization
// domain and map, priority), checked as documented and reported back; no
// kernel runs that they could steer. The default streams have the defaults
// (all zero, priority 0), and setting theirs is refused
// (CUDA_ERROR_INVALID_HANDLE): the emulated driver keeps no state for them.
static pthread_mutex_t attrs_lock = PTHREAD_MUTEX_INITIALIZER;

// The index of a kept attribute; -1 for the priority, -2 for anything that
// is not valid for streams.
static int attr_index(CUstreamAttrID attr) {
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        return ATTR_ACCESS_POLICY_WINDOW;
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        return ATTR_SYNCHRONIZATION_POLICY;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        return ATTR_MEM_SYNC_DOMAIN_MAP;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        return ATTR_MEM_SYNC_DOMAIN;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        return -1;
    default:
        return -2;
    }
}

// The largest window of an H100 (MAX_ACCESS_POLICY_WINDOW_SIZE) and its
// synchronization domains (MEM_SYNC_DOMAIN_COUNT).
#define MAX_WINDOW 134213632u
#define SYNC_DOMAINS 4u

static bool attr_value_ok(int index, const CUstreamAttrValue *v) {
    switch (index) {
    case ATTR_ACCESS_POLICY_WINDOW: {
        const CUaccessPolicyWindow *w = &v->accessPolicyWindow;
        return w->num_bytes <= MAX_WINDOW && w->hitRatio >= 0.0f &&
               w->hitRatio <= 1.0f &&
               (unsigned)w->hitProp <= CU_ACCESS_PROPERTY_PERSISTING &&
               (unsigned)w->missProp <= CU_ACCESS_PROPERTY_PERSISTING;
    }
    case ATTR_SYNCHRONIZATION_POLICY:
        return v->syncPolicy >= CU_SYNC_POLICY_AUTO &&
               v->syncPolicy <= CU_SYNC_POLICY_BLOCKING_SYNC;
    case ATTR_MEM_SYNC_DOMAIN_MAP:
        return v->memSyncDomainMap.default_ < SYNC_DOMAINS &&
               v->memSyncDomainMap.remote < SYNC_DOMAINS;
    case ATTR_MEM_SYNC_DOMAIN:
        return (unsigned)v->memSyncDomain <= CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
    default:
        return true; // the priority is clamped
    }
}

// The created stream `h` names (NULL for the default streams).
static CUresult attr_stream(CUstream h, const char *call,
                            struct CUstream_st **out) {
    cuda_mock_ctx_t *ctx;
    const struct CUstream_st *s;
    CUresult res = resolve(h, call, &ctx, &s);
    *out = (struct CUstream_st *)s;
    return res;
}

static CUresult get_attr(CUstream h, CUstreamAttrID attr,
                         CUstreamAttrValue *value, const char *call) {
    int index = attr_index(attr);
    if (value == NULL || index == -2) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUstream_st *s;
    CUresult res = attr_stream(h, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    memset(value, 0, sizeof(*value));
    if (index == -1) {
        value->priority =
            s != NULL ? atomic_load_explicit(&s->priority, memory_order_relaxed)
                      : 0;
    } else if (s != NULL) {
        pthread_mutex_lock(&attrs_lock);
        *value = s->attrs[index];
        pthread_mutex_unlock(&attrs_lock);
    }
    return CUDA_SUCCESS;
}

static CUresult set_attr(CUstream h, CUstreamAttrID attr,
                         const CUstreamAttrValue *value, const char *call) {
    int index = attr_index(attr);
    if (value == NULL || index == -2 || !attr_value_ok(index, value)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUstream_st *s;
    CUresult res = attr_stream(h, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (s == NULL) {
        UMF_MOCK_LOG_ERROR("%s(%p): the emulated driver keeps no attributes "
                           "for the default streams",
                           call, (void *)h);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (index == -1) {
        atomic_store_explicit(&s->priority, clamp_priority(value->priority),
                              memory_order_relaxed);
    } else {
        pthread_mutex_lock(&attrs_lock);
        s->attrs[index] = *value;
        pthread_mutex_unlock(&attrs_lock);
    }
    return CUDA_SUCCESS;
}

static CUresult copy_attrs(CUstream dst, CUstream src, const char *call) {
    struct CUstream_st *d, *s;
    CUresult res = attr_stream(dst, call, &d);
    if (res == CUDA_SUCCESS) {
        res = attr_stream(src, call, &s);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (d == NULL) {
        UMF_MOCK_LOG_ERROR("%s(%p): the emulated driver keeps no attributes "
                           "for the default streams",
                           call, (void *)dst);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    int priority =
        s != NULL ? atomic_load_explicit(&s->priority, memory_order_relaxed)
                  : 0;
    atomic_store_explicit(&d->priority, priority, memory_order_relaxed);
    pthread_mutex_lock(&attrs_lock);
    if (s != NULL) {
        memcpy(d->attrs, s->attrs, sizeof(d->attrs));
    } else {
        memset(d->attrs, 0, sizeof(d->attrs));
    }
    pthread_mutex_unlock(&attrs_lock);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuStreamGetAttribute(CUstream hStream,
                                            CUstreamAttrID attr,
                                            CUstreamAttrValue *value) {
    CUDA_MOCK_ENTER(cuStreamGetAttribute);
    return get_attr(hStream, attr, value, "cuStreamGetAttribute");
}

CUDA_MOCK_API CUresult cuStreamGetAttribute_ptsz(CUstream hStream,
                                                 CUstreamAttrID attr,
                                                 CUstreamAttrValue *value_out) {
    CUDA_MOCK_ENTER(cuStreamGetAttribute_ptsz);
    return get_attr(hStream, attr, value_out, "cuStreamGetAttribute_ptsz");
}

CUDA_MOCK_API CUresult cuStreamSetAttribute(CUstream hStream,
                                            CUstreamAttrID attr,
                                            const CUstreamAttrValue *param) {
    CUDA_MOCK_ENTER(cuStreamSetAttribute);
    return set_attr(hStream, attr, param, "cuStreamSetAttribute");
}

CUDA_MOCK_API CUresult cuStreamSetAttribute_ptsz(
    CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value) {
    CUDA_MOCK_ENTER(cuStreamSetAttribute_ptsz);
    return set_attr(hStream, attr, value, "cuStreamSetAttribute_ptsz");
}

CUDA_MOCK_API CUresult cuStreamCopyAttributes(CUstream dstStream,
                                              CUstream srcStream) {
    CUDA_MOCK_ENTER(cuStreamCopyAttributes);
    return copy_attrs(dstStream, srcStream, "cuStreamCopyAttributes");
}

CUDA_MOCK_API CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src) {
    CUDA_MOCK_ENTER(cuStreamCopyAttributes_ptsz);
    return copy_attrs(dst, src, "cuStreamCopyAttributes_ptsz");
}
