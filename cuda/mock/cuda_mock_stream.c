// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Streams. The emulated devices run every operation when it is enqueued
// (copies, fills, event records, frees), so work in a stream is always in
// order and always complete: cuStreamQuery says CUDA_SUCCESS and
// cuStreamSynchronize returns at once. What a stream still has to be
// right about is its identity: the context it belongs to, its flags and
// priority, and being valid or not. A stream lives in a table slot
// (cuda_mock_handles.c) and goes with cuStreamDestroy or with its context;
// a destroyed stream is CUDA_ERROR_INVALID_HANDLE, never a crash.
//
// The special handles NULL (the default stream: legacy, or per-thread in
// the _ptsz variants), CU_STREAM_LEGACY and CU_STREAM_PER_THREAD name the
// current context's default streams; nothing needs to be kept per thread
// for them, since nothing is ever pending.

#include "cuda_mock_internal.h"

#include <stdint.h>

// Priorities of an H100: 0 (least) to -5 (greatest).
#define PRIORITY_LEAST 0
#define PRIORITY_GREATEST (-5)

struct CUstream_st {
    cuda_mock_slot_t slot;
    cuda_mock_ctx_ref_t ctx;
    unsigned flags;
    int priority;
    unsigned long long id;
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
    struct CUstream_st *s;
    res = cuda_mock_table_alloc(&streams, (void **)&s);
    if (res != CUDA_SUCCESS) {
        UMF_MOCK_LOG_INFO("%s failed", call);
        return res;
    }
    s->ctx = cuda_mock_ctx_ref(ctx);
    s->flags = flags;
    // Out of the range: clamped, as documented.
    s->priority = priority > PRIORITY_LEAST      ? PRIORITY_LEAST
                  : priority < PRIORITY_GREATEST ? PRIORITY_GREATEST
                                                 : priority;
    s->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
    *phStream = s;
    return CUDA_SUCCESS;
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

CUDA_MOCK_API CUresult cuStreamDestroy_v2(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamDestroy_v2);
    if (is_special(hStream)) {
        UMF_MOCK_LOG_ERROR("cuStreamDestroy_v2(%p): a default stream cannot "
                           "be destroyed",
                           (void *)hStream);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res =
        cuda_mock_stream_resolve(hStream, "cuStreamDestroy_v2", &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // Nothing is pending, so nothing outlives the call. Of two racing
    // destroys, one wins.
    return cuda_mock_table_free(&streams, hStream) ? CUDA_SUCCESS
                                                   : CUDA_ERROR_INVALID_HANDLE;
}

// Synchronize and query: the stream's work is complete; only the handle
// (and, for the default streams, a current context) is checked.
static CUresult check(CUstream h, const char *call) {
    cuda_mock_ctx_t *ctx;
    return cuda_mock_stream_resolve(h, call, &ctx);
}

CUDA_MOCK_API CUresult cuStreamSynchronize(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamSynchronize);
    return check(hStream, "cuStreamSynchronize");
}

CUDA_MOCK_API CUresult cuStreamSynchronize_ptsz(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamSynchronize_ptsz);
    return check(hStream, "cuStreamSynchronize_ptsz");
}

CUDA_MOCK_API CUresult cuStreamQuery(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamQuery);
    return check(hStream, "cuStreamQuery");
}

CUDA_MOCK_API CUresult cuStreamQuery_ptsz(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamQuery_ptsz);
    return check(hStream, "cuStreamQuery_ptsz");
}

static CUresult wait_event(CUstream h, CUevent ev, unsigned flags,
                           const char *call) {
    CUresult res = check(h, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // "hEvent may be from a different context or device than hStream."
    res = cuda_mock_event_check(ev, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // CU_EVENT_WAIT_EXTERNAL is for stream capture, which is not emulated.
    if (flags != CU_EVENT_WAIT_DEFAULT) {
        UMF_MOCK_LOG_ERROR("%s: flags 0x%x (only CU_EVENT_WAIT_DEFAULT outside "
                           "stream capture)",
                           call, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    // What the event captured is complete: nothing to wait for.
    return CUDA_SUCCESS;
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

// CUDA 12.5's form: the context, and the green context the stream was made
// in (the emulation has no green contexts: NULL).
static CUresult get_ctx_v2(CUstream h, CUcontext *pctx, CUgreenCtx *pgreen,
                           const char *call) {
    if (pctx == NULL && pgreen == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(h, call, &ctx);
    if (res == CUDA_SUCCESS) {
        if (pctx != NULL) {
            *pctx = ctx;
        }
        if (pgreen != NULL) {
            *pgreen = NULL;
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
        *(int *)out = s != NULL ? s->priority : 0;
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

static void drop_if_of(void *slot, void *arg) {
    struct CUstream_st *s = slot;
    if (s->ctx.ctx == arg) {
        (void)cuda_mock_table_free(&streams, s);
    }
}

static void stream_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    cuda_mock_table_foreach(&streams, drop_if_of, (void *)ctx);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_STREAMS, stream_ctx_teardown);
