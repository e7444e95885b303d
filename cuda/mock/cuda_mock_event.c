// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Events. A record is an operation of its stream (cuda_mock_queue.c): it
// runs when it is enqueued, unless work is queued before it on that stream
// (behind a host function), and then the event is pending until the
// record ran: cuEventQuery says CUDA_ERROR_NOT_READY, cuEventSynchronize
// waits, cuStreamWaitEvent makes later work of its stream wait. Before the
// first record an event is complete (an empty set of work, as documented).
// A record takes the host's monotonic clock when it runs;
// cuEventElapsedTime gives the time between two records, which includes
// the work run between them, with the resolution of CLOCK_MONOTONIC
// (nanoseconds, reported in float milliseconds). An event lives in a table slot
// (cuda_mock_handles.c) and goes with cuEventDestroy_v2 or with its context; a
// destroyed event is CUDA_ERROR_INVALID_HANDLE, never a crash.
//
// Interprocess events (CU_EVENT_INTERPROCESS) keep their state in a
// shareable pool of one slot of the core (mock_events.h), which a record
// signals: cuIpcGetEventHandle packs that pool's 64-byte handle (with the
// exporter's identity) and serves the pool's memfd over the driver's fd
// server, and cuIpcOpenEventHandle in another process takes the exporter's
// descriptor as cuIpcOpenMemHandle does (pidfd_getfd, else the fd server;
// umf_mock_fd_take), maps the pool and makes an event of the current
// context on it, which behaves like one made with CU_EVENT_DISABLE_TIMING.

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"
#include "cuda_mock_stream.h"

#include <time.h>
#include <unistd.h>

#define KNOWN_FLAGS                                                            \
    ((unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING |             \
                CU_EVENT_INTERPROCESS))

struct CUevent_st {
    cuda_mock_slot_t slot;
    cuda_mock_ctx_ref_t ctx;
    unsigned flags;
    // CLOCK_MONOTONIC of the last record in ns; 0 before the first.
    _Atomic uint64_t recorded_ns;
    // Interprocess and opened events: their shared state; else NULL.
    umf_mock_events_t *shared;
    bool imported;                 // opened with cuIpcOpenEventHandle
    cuda_mock_event_order_t order; // under the order lock
};

static cuda_mock_table_t events = CUDA_MOCK_TABLE(
    "event", struct CUevent_st, CUDA_MOCK_MAX_EVENTS, CUDA_MOCK_OBJECT_EVENT);

static struct CUevent_st *event_of(CUevent ev, const char *call) {
    struct CUevent_st *e = cuda_mock_table_get(&events, ev);
    if (e == NULL || !cuda_mock_ctx_ref_alive(e->ctx)) {
        UMF_MOCK_LOG_ERROR("%s: event %p is not an event of this driver, or "
                           "was destroyed (with its context?)",
                           call, (void *)ev);
        return NULL;
    }
    return e;
}

CUresult cuda_mock_event_check(CUevent ev, const char *call) {
    return event_of(ev, call) != NULL ? CUDA_SUCCESS
                                      : CUDA_ERROR_INVALID_HANDLE;
}

cuda_mock_event_order_t *cuda_mock_event_order_of(CUevent ev, const char *call,
                                                  cuda_mock_ctx_t **ctx,
                                                  uint32_t *gen) {
    struct CUevent_st *e = event_of(ev, call);
    if (e == NULL) {
        return NULL;
    }
    *ctx = e->ctx.ctx;
    *gen = atomic_load_explicit(&e->slot.gen, memory_order_acquire);
    return &e->order;
}

// The event of generation `gen`, if `ev` still is it.
static struct CUevent_st *event_at(CUevent ev, uint32_t gen) {
    struct CUevent_st *e = cuda_mock_table_get(&events, ev);
    if (e == NULL || !cuda_mock_ctx_ref_alive(e->ctx) ||
        atomic_load_explicit(&e->slot.gen, memory_order_acquire) != gen) {
        return NULL;
    }
    return e;
}

cuda_mock_event_order_t *cuda_mock_event_order_at(CUevent ev, uint32_t gen) {
    struct CUevent_st *e = event_at(ev, gen);
    return e != NULL ? &e->order : NULL;
}

// A new event of `ctx`; on failure `shared` is released.
static CUresult make_event(cuda_mock_ctx_t *ctx, unsigned flags,
                           umf_mock_events_t *shared, bool imported,
                           CUevent *out) {
    struct CUevent_st *e;
    CUresult res = cuda_mock_table_alloc(&events, (void **)&e);
    if (res != CUDA_SUCCESS) {
        umf_mock_events_release(shared);
        return res;
    }
    e->ctx = cuda_mock_ctx_ref(ctx);
    e->flags = flags;
    e->shared = shared;
    e->imported = imported;
    *out = e;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
    CUDA_MOCK_ENTER(cuEventCreate);
    if (phEvent == NULL || (Flags & ~KNOWN_FLAGS) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ((Flags & CU_EVENT_INTERPROCESS) != 0 &&
        (Flags & CU_EVENT_DISABLE_TIMING) == 0) {
        UMF_MOCK_LOG_ERROR("cuEventCreate: CU_EVENT_INTERPROCESS must be "
                           "specified along with CU_EVENT_DISABLE_TIMING");
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    umf_mock_events_t *shared = NULL;
    if ((Flags & CU_EVENT_INTERPROCESS) != 0) {
        umf_mock_status_t status = umf_mock_events_create(1, true, &shared);
        if (status != UMF_MOCK_OK) {
            return cuda_mock_result_of(status);
        }
    }
    return make_event(ctx, Flags, shared, false, phEvent);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return ns != 0 ? ns : 1; // 0 means "never recorded"
}

void cuda_mock_event_record_now(CUevent ev, uint32_t gen) {
    struct CUevent_st *e = event_at(ev, gen);
    if (e == NULL) {
        return; // destroyed after the record was queued
    }
    atomic_store_explicit(&e->recorded_ns, now_ns(), memory_order_release);
    if (e->shared != NULL) {
        // What the record captured is complete: so in every process.
        umf_mock_event_signal(e->shared, 0);
    }
}

static CUresult record(CUevent ev, CUstream stream, unsigned flags,
                       const char *call) {
    struct CUevent_st *e = event_of(ev, call);
    if (e == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // A green context's events and its primary context's are of one
    // context ("hEvent and hCtx must be from the same primary context").
    if (cuda_mock_ctx_base(s.ctx) != cuda_mock_ctx_base(e->ctx.ctx)) {
        UMF_MOCK_LOG_ERROR("%s: event %p and stream %p are of different "
                           "contexts",
                           call, (void *)ev, (void *)stream);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // CU_EVENT_RECORD_EXTERNAL makes an event record node in a capture;
    // outside one it is a plain record.
    if ((flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_RECORD, .call = call};
    op.u.event.event = ev;
    op.u.event.gen = atomic_load_explicit(&e->slot.gen, memory_order_acquire);
    op.u.event.flags = flags;
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
    CUDA_MOCK_ENTER(cuEventRecord);
    return record(hEvent, hStream, CU_EVENT_RECORD_DEFAULT, "cuEventRecord");
}

CUDA_MOCK_API CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) {
    CUDA_MOCK_ENTER(cuEventRecord_ptsz);
    return record(hEvent, hStream, CU_EVENT_RECORD_DEFAULT,
                  "cuEventRecord_ptsz");
}

CUDA_MOCK_API CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
                                              unsigned int flags) {
    CUDA_MOCK_ENTER(cuEventRecordWithFlags);
    return record(hEvent, hStream, flags, "cuEventRecordWithFlags");
}

CUDA_MOCK_API CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent,
                                                   CUstream hStream,
                                                   unsigned int flags) {
    CUDA_MOCK_ENTER(cuEventRecordWithFlags_ptsz);
    return record(hEvent, hStream, flags, "cuEventRecordWithFlags_ptsz");
}

// The whole context's work (CUDA 12.5): the event and the context must be
// the same context's (a green context's and its primary context's are one).
// The record waits for the context's queued work (as cuCtxSynchronize does:
// a primary context's green contexts' too) and then marks the event, so
// that what it captured is complete when it reads as recorded.
CUresult cuda_mock_event_record_ctx(cuda_mock_ctx_t *ctx, CUevent hEvent,
                                    const char *call) {
    struct CUevent_st *e = event_of(hEvent, call);
    if (e == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (cuda_mock_ctx_base(e->ctx.ctx) != cuda_mock_ctx_base(ctx)) {
        UMF_MOCK_LOG_ERROR("%s: event %p is not of context %p", call,
                           (void *)hEvent, (void *)ctx);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    CUresult res = cuda_mock_order_ctx_sync(ctx, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    cuda_mock_event_record_now(
        hEvent, atomic_load_explicit(&e->slot.gen, memory_order_acquire));
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuCtxRecordEvent);
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_live(hCtx, "cuCtxRecordEvent", &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return cuda_mock_event_record_ctx(ctx, hEvent, "cuCtxRecordEvent");
}

// The context's later work waits for what the event captured (the event may
// be of another context, as for cuStreamWaitEvent): the call waits for the
// event's last record to have run.
CUDA_MOCK_API CUresult cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuCtxWaitEvent);
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_live(hCtx, "cuCtxWaitEvent", &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return cuda_mock_order_event_sync(hEvent, true, "cuCtxWaitEvent");
}

// What an event captured is complete once its last record ran.
CUDA_MOCK_API CUresult cuEventQuery(CUevent hEvent) {
    CUDA_MOCK_ENTER(cuEventQuery);
    return cuda_mock_order_event_sync(hEvent, false, "cuEventQuery");
}

CUDA_MOCK_API CUresult cuEventSynchronize(CUevent hEvent) {
    CUDA_MOCK_ENTER(cuEventSynchronize);
    return cuda_mock_order_event_sync(hEvent, true, "cuEventSynchronize");
}

static CUresult elapsed(float *ms, CUevent start, CUevent end,
                        const char *call) {
    if (ms == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const struct CUevent_st *a = event_of(start, call),
                            *b = event_of(end, call);
    if (a == NULL || b == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) != 0) {
        UMF_MOCK_LOG_ERROR("%s: an event made with CU_EVENT_DISABLE_TIMING "
                           "has no time",
                           call);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (cuda_mock_ctx_device(a->ctx.ctx) != cuda_mock_ctx_device(b->ctx.ctx)) {
        UMF_MOCK_LOG_ERROR("%s: the events are of different devices", call);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // "If cuEventRecord() has been called on both events but one or both of
    // them has not yet been completed": CUDA_ERROR_NOT_READY.
    CUresult res = cuda_mock_order_event_done(start, call);
    if (res == CUDA_SUCCESS) {
        res = cuda_mock_order_event_done(end, call);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    uint64_t t0 = atomic_load_explicit(&a->recorded_ns, memory_order_acquire);
    uint64_t t1 = atomic_load_explicit(&b->recorded_ns, memory_order_acquire);
    if (t0 == 0 || t1 == 0) {
        UMF_MOCK_LOG_ERROR("%s: cuEventRecord was not called on %s", call,
                           t0 == 0 && t1 == 0 ? "either event"
                           : t0 == 0          ? "the start event"
                                              : "the end event");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    double diff = t1 >= t0 ? (double)(t1 - t0) : -(double)(t0 - t1);
    *ms = (float)(diff / 1e6);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                                          CUevent hEnd) {
    CUDA_MOCK_ENTER(cuEventElapsedTime);
    return elapsed(pMilliseconds, hStart, hEnd, "cuEventElapsedTime");
}

CUDA_MOCK_API CUresult cuEventElapsedTime_v2(float *pMilliseconds,
                                             CUevent hStart, CUevent hEnd) {
    CUDA_MOCK_ENTER(cuEventElapsedTime_v2);
    return elapsed(pMilliseconds, hStart, hEnd, "cuEventElapsedTime_v2");
}

// Ends an event's life (the winner of racing destroys releases its shared
// state).
static bool destroy(struct CUevent_st *e) {
    umf_mock_events_t *shared = e->shared;
    // A queued record of it runs on, and finds it gone.
    cuda_mock_order_event_gone(&e->order);
    if (!cuda_mock_table_free(&events, e)) {
        return false;
    }
    umf_mock_events_release(shared);
    return true;
}

static CUresult event_destroy(CUevent hEvent, const char *call) {
    struct CUevent_st *e = event_of(hEvent, call);
    if (e == NULL || !destroy(e)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuEventDestroy_v2(CUevent hEvent) {
    CUDA_MOCK_ENTER(cuEventDestroy_v2);
    return event_destroy(hEvent, "cuEventDestroy_v2");
}

// CUDA 2's name (the same arguments), which LLVM's OpenMP offload runtime
// resolves.
CUDA_MOCK_API CUresult cuEventDestroy(CUevent hEvent) {
    CUDA_MOCK_ENTER(cuEventDestroy);
    return event_destroy(hEvent, "cuEventDestroy");
}

// ---------------------------------------------------------------------------
// Interprocess events

// Where the fd of an exported pool comes from (mock_ipc.h).
static umf_mock_fd_origin_t origin_of(const umf_mock_events_desc_t *d) {
    umf_mock_fd_origin_t o = {d->pid,        d->fd,        d->id,
                              d->start_time, d->pidfs_ino, d->file_ino,
                              d->served};
    return o;
}

CUDA_MOCK_API CUresult cuIpcGetEventHandle(CUipcEventHandle *pHandle,
                                           CUevent event) {
    CUDA_MOCK_ENTER(cuIpcGetEventHandle);
    if (pHandle == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUevent_st *e = event_of(event, "cuIpcGetEventHandle");
    if (e == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    const unsigned need = CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
    if ((e->flags & need) != need || e->imported) {
        UMF_MOCK_LOG_ERROR("cuIpcGetEventHandle(%p): the event was not "
                           "created with CU_EVENT_INTERPROCESS and "
                           "CU_EVENT_DISABLE_TIMING",
                           (void *)event);
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_events_desc_t desc;
    umf_mock_status_t status = umf_mock_events_export(e->shared, &desc);
    if (status != UMF_MOCK_OK) {
        return cuda_mock_result_of(status);
    }
    // For importers whose pidfd_getfd the OS refuses: the fd server, until
    // the pool goes (umf_mock_events_release revokes it).
    umf_mock_fd_origin_t origin = origin_of(&desc);
    umf_mock_fd_serve(&origin, (uint64_t)(uintptr_t)e->shared);
    desc.served = origin.served;
    _Static_assert(sizeof(pHandle->reserved) == UMF_MOCK_EVENTS_HANDLE_BYTES,
                   "CUipcEventHandle is not 64 bytes");
    umf_mock_events_pack(&desc, (unsigned char *)pHandle->reserved);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuIpcOpenEventHandle(CUevent *phEvent,
                                            CUipcEventHandle handle) {
    CUDA_MOCK_ENTER(cuIpcOpenEventHandle);
    if (phEvent == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    umf_mock_events_desc_t desc;
    if (umf_mock_events_unpack((const unsigned char *)handle.reserved, &desc) !=
            UMF_MOCK_OK ||
        desc.count != 1) {
        UMF_MOCK_LOG_ERROR("cuIpcOpenEventHandle: not an IPC event handle of "
                           "this driver (malformed or truncated)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    int fd;
    // As for memory: the exporter's identity proven, the socket as the
    // fallback (version 1 handles name neither: pidfd_getfd, unchecked).
    umf_mock_fd_origin_t origin = origin_of(&desc);
    umf_mock_status_t status = umf_mock_fd_take(&origin, &fd);
    if (status != UMF_MOCK_OK) {
        // The core logged why (the exporter is gone, ptrace rules ...).
        return cuda_mock_result_of(status);
    }
    desc.fd = fd;
    umf_mock_events_t *shared;
    status = umf_mock_events_import(&desc, &shared);
    close(fd); // the import maps the file and keeps no reference to the fd
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuIpcOpenEventHandle: the handle names no event "
                           "of process %d (%s)",
                           desc.pid, umf_mock_status_name(status));
        return status == UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
                   ? CUDA_ERROR_OUT_OF_MEMORY
                   : CUDA_ERROR_INVALID_HANDLE;
    }
    // "behaves like a locally created event with the CU_EVENT_DISABLE_TIMING
    // flag specified"
    return make_event(ctx, CU_EVENT_DISABLE_TIMING, shared, true, phEvent);
}

// ---------------------------------------------------------------------------
// Context teardown: a context's events go with it.

static void drop_if_of(void *slot, void *arg) {
    struct CUevent_st *e = slot;
    if (e->ctx.ctx == arg) {
        (void)destroy(e);
    }
}

static void event_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    cuda_mock_table_foreach(&events, drop_if_of, (void *)ctx);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_EVENTS, event_ctx_teardown);
