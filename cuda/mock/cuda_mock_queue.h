// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Work in stream order (cuda_mock_queue.c)
//
// Work on a stream runs when it is enqueued, in the calling thread, while
// nothing is pending anywhere (one atomic read says so). A host function
// (cuLaunchHostFunc, cuStreamAddCallback, a graph's host node) runs on the
// driver thread instead, and its stream then has a queue: later work on
// that stream joins the queue and runs on the driver thread after it, in
// order, and so does work that must wait for it (the legacy default
// stream's implicit synchronisation, cuStreamWaitEvent on a queued record,
// a graph launched again). Synchronising waits for the queue; a call that
// would have to wait from the driver thread itself (a host function that
// calls CUDA) gets CUDA_ERROR_NOT_PERMITTED instead of a deadlock.
// Everything below that names the order lock is under it.

#ifndef UMF_GPU_CUDA_MOCK_QUEUE_H
#define UMF_GPU_CUDA_MOCK_QUEUE_H 1

#include "cuda_mock_core.h"

struct cuda_mock_queue_t;
struct cuda_mock_capture_t;

// A point in one stream's work: passed once the queue's item `seq` ran.
typedef struct cuda_mock_mark_t {
    struct cuda_mock_queue_t *queue; // NULL: nothing pending
    uint64_t seq;
} cuda_mock_mark_t;

// What a created stream keeps for its order and its capture, in its slot.
typedef struct cuda_mock_stream_order_t {
    struct cuda_mock_queue_t *queue;     // made at its first queued work
    struct cuda_mock_capture_t *capture; // while it captures
    // The nodes the next node captured in this stream depends on, and
    // their edge data (always the default: zeroed).
    CUgraphNode *deps;
    CUgraphEdgeData *dep_data;
    size_t ndeps, deps_cap;
} cuda_mock_stream_order_t;

// What an event keeps for the order of its records, in its slot.
typedef struct cuda_mock_event_order_t {
    cuda_mock_mark_t record;       // its last record, while queued
    unsigned long long capture_id; // its last record was in that capture
    CUgraphNode *nodes;            // ... after these nodes
    size_t nnodes;
} cuda_mock_event_order_t;

// A stream as an entry point names it, resolved.
typedef struct cuda_mock_stream_ref_t {
    CUstream handle;
    cuda_mock_ctx_t *ctx;
    cuda_mock_stream_order_t *order; // NULL: a default stream of ctx
    bool blocking; // synchronizes with the legacy default stream
} cuda_mock_stream_ref_t;

// One operation of a stream (or of a graph's node).
typedef enum cuda_mock_op_kind_t {
    CUDA_MOCK_OP_EMPTY,    // nothing (an empty node, a disabled one)
    CUDA_MOCK_OP_COPY,     // rows between two sides (1D copies)
    CUDA_MOCK_OP_COPY3D,   // 2D and 3D copies, arrays (cuda_mock_copy3d.c)
    CUDA_MOCK_OP_FILL,     // a 1D or 2D fill
    CUDA_MOCK_OP_HOST,     // a host function, on the driver thread
    CUDA_MOCK_OP_CALLBACK, // a stream callback, on the driver thread
    CUDA_MOCK_OP_RECORD,   // an event record
    CUDA_MOCK_OP_WAIT,     // a wait for an event's last record
    CUDA_MOCK_OP_FREE,     // cuMemFreeAsync
    CUDA_MOCK_OP_PREFETCH, // cuMemPrefetchAsync (moves nothing)
    CUDA_MOCK_OP_GRAPH,    // cuGraphLaunch: the nodes' operations
    CUDA_MOCK_OP_GMEM,     // a graph allocation begins or ends (fn(mem, what))
} cuda_mock_op_kind_t;

typedef struct cuda_mock_op_t {
    cuda_mock_op_kind_t kind;
    const char *call; // the entry point, for log lines
    union {
        struct {
            uintptr_t dst, src;
            size_t dst_pitch, src_pitch, width, height;
            int dst_device, src_device;      // that write and read
            CUmemorytype dst_type, src_type; // HOST, DEVICE or UNIFIED
        } copy;
        struct {
            CUDA_MEMCPY3D_PEER p;
            int dst_device, src_device; // of the contexts (arrays: theirs)
        } copy3d;
        struct {
            uintptr_t dst;
            size_t pitch; // of rows, when height > 1
            uint32_t value;
            unsigned elem; // 1, 2 or 4 bytes
            size_t width, height;
            int device;
        } fill;
        struct {
            CUhostFn fn;
            void *data;
        } host;
        struct {
            CUstreamCallback fn;
            void *data;
        } callback;
        struct {
            CUevent event;
            uint32_t gen;   // the event's slot generation
            unsigned flags; // CU_EVENT_RECORD_* or CU_EVENT_WAIT_*
        } event;
        struct {
            CUdeviceptr ptr;
        } free;
        struct {
            CUdeviceptr ptr;
            size_t count;
            CUmemLocation loc;
        } prefetch;
        struct {
            CUgraphExec exec;
        } graph;
        struct {
            void (*fn)(void *mem, unsigned what);
            void *mem;
            unsigned what;
        } gmem;
    } u;
} cuda_mock_op_t;

// Streams with queued work or an unreported error of it, and captures (0:
// every stream is idle, and none captures).
extern _Atomic unsigned cuda_mock_order_busy;

static inline bool cuda_mock_order_idle(void) {
    return atomic_load_explicit(&cuda_mock_order_busy, memory_order_acquire) ==
           0;
}

// The lock of every queue, capture and mark.
extern pthread_mutex_t cuda_mock_order_lock;

// `h` resolved: a created stream (CUDA_ERROR_INVALID_HANDLE when it is
// not live), or a default stream of the current context
// (cuda_mock_stream.c).
CUresult cuda_mock_stream_get(CUstream h, const char *call,
                              cuda_mock_stream_ref_t *out);
// The order state of a live event, its context and its slot's generation;
// NULL (logged) if the handle is no live event (cuda_mock_event.c).
cuda_mock_event_order_t *cuda_mock_event_order_of(CUevent ev, const char *call,
                                                  cuda_mock_ctx_t **ctx,
                                                  uint32_t *gen);
// The same for the event of generation `gen`; NULL, silently, once it is
// gone (destroyed after work naming it was queued).
cuda_mock_event_order_t *cuda_mock_event_order_at(CUevent ev, uint32_t gen);
// Records the event of generation `gen` now: its time, and its state in
// every process for IPC events; nothing once it is gone.
void cuda_mock_event_record_now(CUevent ev, uint32_t gen);

// Runs `op` in the calling thread; complete when it returns.
CUresult cuda_mock_op_run(const cuda_mock_op_t *op);

// Enqueues `op` on stream `s`: captured while the stream captures, run at
// once while nothing is pending before it (and it needs no driver thread),
// else queued.
CUresult cuda_mock_order_submit(const cuda_mock_stream_ref_t *s,
                                const cuda_mock_op_t *op);
// A synchronous call (cuMemcpyHtoD_v2 ...): `op` on the default stream of
// `ctx`, complete when this returns (its result is the operation's).
CUresult cuda_mock_order_sync(cuda_mock_ctx_t *ctx, const cuda_mock_op_t *op);

// cuStreamSynchronize (`wait`) and cuStreamQuery: the first error of
// queued work not reported yet, CUDA_ERROR_NOT_READY for a query of
// pending work.
CUresult cuda_mock_order_stream_sync(const cuda_mock_stream_ref_t *s, bool wait,
                                     const char *call);
// cuCtxSynchronize: every stream of `ctx`.
CUresult cuda_mock_order_ctx_sync(cuda_mock_ctx_t *ctx, const char *call);
// cuEventSynchronize (`wait`) and cuEventQuery of event `ev`.
CUresult cuda_mock_order_event_sync(CUevent ev, bool wait, const char *call);
// CUDA_ERROR_NOT_READY while the last record of `ev` is queued
// (cuEventElapsedTime).
CUresult cuda_mock_order_event_done(CUevent ev, const char *call);
// An event's or stream's slot ends: what it held of the order goes.
void cuda_mock_order_event_gone(cuda_mock_event_order_t *e);
// The stream's queue runs on without it. A capturing stream is
// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (not destroyed, its capture
// invalidated) unless `force` (its context goes: it leaves the capture).
CUresult cuda_mock_order_stream_gone(cuda_mock_stream_order_t *o, bool force,
                                     const char *call);
// cuMemFree_v2 and cuMemFreeHost synchronize: waits for the queued work
// of the device that `p` belongs to.
CUresult cuda_mock_order_before_free_slow(const void *p, const char *call);
static inline CUresult cuda_mock_order_before_free(const void *p,
                                                   const char *call) {
    return cuda_mock_order_idle() ? CUDA_SUCCESS
                                  : cuda_mock_order_before_free_slow(p, call);
}
// A call that stream capture calls potentially unsafe (allocations ...):
// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED while the capture modes prohibit
// it in this thread.
CUresult cuda_mock_order_unsafe_slow(const char *call);
static inline CUresult cuda_mock_order_unsafe(const char *call) {
    return cuda_mock_order_idle() ? CUDA_SUCCESS
                                  : cuda_mock_order_unsafe_slow(call);
}
// Work on stream `s` that cannot be captured here (stream-ordered
// allocation ...): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, the capture
// invalidated, while the stream captures.
CUresult cuda_mock_order_refuse_in_capture(const cuda_mock_stream_ref_t *s,
                                           const char *call);
// A stream-ordered allocation or free on `s`, taken by stream capture when
// the stream captures (*captured; cuda_mock_capture_mem_locked).
CUresult cuda_mock_order_capture_mem(const cuda_mock_stream_ref_t *s,
                                     int device, size_t size, CUdeviceptr *dptr,
                                     bool *captured, const char *call);
// Runs fn(data) on the driver thread, in no stream (user object
// destructors).
CUresult cuda_mock_order_internal(CUhostFn fn, void *data, const char *call);
// Queues fn(data) after the work of mark `m` when that is still queued
// (true), and releases the mark.
bool cuda_mock_order_after(cuda_mock_mark_t *m, CUhostFn fn, void *data,
                           const char *call);

#endif // UMF_GPU_CUDA_MOCK_QUEUE_H
