// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The order of work on streams: per-stream queues and the driver thread
// that runs them (cuda_mock_queue.h).
//
// While nothing is queued or captured anywhere (cuda_mock_order_busy is 0,
// one atomic read), every stream operation runs in the calling thread when
// it is enqueued, as it always did here. A host function (cuLaunchHostFunc,
// cuStreamAddCallback, a graph's host node) runs on the driver thread, so
// its stream gets a queue: it and everything enqueued behind it, on that
// stream or waiting for it, run there, in order. What must wait for queued
// work joins the queue behind a wait item, a mark (queue, seq) that passes
// when that queue's item `seq` ran:
//
//   - an operation on the legacy default stream waits for the work queued
//     on every blocking stream of its context, and an operation on a
//     blocking stream for the work queued on the legacy stream (the
//     per-thread default streams are ordered as the legacy one: one default
//     queue per context, stricter than a GPU, never looser);
//   - cuStreamWaitEvent and event wait nodes wait for the event's last
//     record while that record is queued;
//   - a graph launch waits for the previous launch of the same executable
//     graph.
//
// The driver thread is started at the first queued work (never at load),
// runs one item per queue per round (so that one blocked stream does not
// stall the others' copies, though host functions are serialized: "may be
// serialized", as cuda.h allows), and sleeps when no item can run. It runs
// items without the order lock; a queue whose item runs is still pending
// until that item is done, so nothing overtakes it.
//
// Callbacks must not call CUDA. One that does gets CUDA_ERROR_NOT_PERMITTED
// from any call that would have to wait for queued work (synchronizing, a
// synchronous copy behind queued work, a free that synchronizes): never a
// deadlock; calls that need not wait work as from any other thread.
//
// Contexts: destroying one (or releasing its primary context for the last
// time) first waits for its streams' work, outside the context lock
// (ctx_drain, a quiesce hook); work enqueued after that, or when the
// driver thread itself destroys the context, is cancelled by the teardown
// hook: its copies, fills, prefetches and records are skipped, frees and
// host functions still run (callbacks with CUDA_ERROR_CONTEXT_IS_DESTROYED
// as their status), and the hook waits for a copy or fill of the context
// that is running, so that no memory goes from under it.
//
// fork(): the child has no driver thread; the work queued in the parent
// does not run there (it is dropped, and the child's streams are idle);
// work the child queues starts the child's own driver thread. Unloading
// the driver stops the thread after the item it runs (a host function that
// never returns keeps it, and must not outlive the library).

#include "cuda_mock_queue.h"
#include "cuda_mock_capture.h"
#include "cuda_mock_copy.h"
#include "cuda_mock_core.h"
#include "cuda_mock_graph_exec.h"
#include "cuda_mock_memory.h"
#include "cuda_mock_stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mock_log.h"

_Atomic unsigned cuda_mock_order_busy;
pthread_mutex_t cuda_mock_order_lock = PTHREAD_MUTEX_INITIALIZER;

// Everything below is under cuda_mock_order_lock.

typedef struct item_t {
    struct item_t *next;
    cuda_mock_op_t op;
    cuda_mock_mark_t wait; // a wait item: passes when this mark passes
    bool is_wait;
    CUresult *result; // the synchronous caller's, or NULL
} item_t;

struct cuda_mock_queue_t {
    cuda_mock_ctx_ref_t ctx; // NULL ctx: the driver's own queue
    int device;
    CUstream handle; // what callbacks are given; NULL for default streams
    bool blocking;
    bool is_default;
    unsigned refs;           // its stream, marks on it, waiters
    uint64_t enqueued, done; // items ever queued, items run
    item_t *head, *tail;
    bool active; // in the active list (it has items)
    struct cuda_mock_queue_t *prev_active, *next_active;
    struct cuda_mock_queue_t *next_default; // the default queues
    CUresult error;     // first failure of queued work, not reported yet
    CUresult cancelled; // its context went
};

typedef struct cuda_mock_queue_t queue_t;

static queue_t *active_head, *active_tail;
static queue_t *defaults; // one per context that queued default-stream work

static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER; // the driver waits
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER; // an item ran
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static bool started, stopping, exited;
static pthread_t driver;
static const queue_t *running_q; // the queue whose item runs
static cuda_mock_op_kind_t running_kind;
static bool in_user_fn; // the running item is a host function

static bool on_driver_thread(void) {
    return started && pthread_equal(pthread_self(), driver);
}

// ---------------------------------------------------------------------------
// Queues and marks

static void busy_add(int delta) {
    if (delta > 0) {
        atomic_fetch_add_explicit(&cuda_mock_order_busy, (unsigned)delta,
                                  memory_order_release);
    } else {
        atomic_fetch_sub_explicit(&cuda_mock_order_busy, (unsigned)-delta,
                                  memory_order_release);
    }
}

static bool ctx_is(cuda_mock_ctx_ref_t ref, const cuda_mock_ctx_t *ctx) {
    return ref.ctx == ctx &&
           ref.gen == cuda_mock_ctx_ref((cuda_mock_ctx_t *)ctx).gen;
}

static queue_t *queue_new(cuda_mock_ctx_t *ctx, CUstream handle, bool blocking,
                          bool is_default) {
    queue_t *q = calloc(1, sizeof(*q));
    if (q == NULL) {
        UMF_MOCK_LOG_ERROR("out of host memory for a stream's queue");
        return NULL;
    }
    if (ctx != NULL) {
        q->ctx = cuda_mock_ctx_ref(ctx);
        q->device = cuda_mock_ctx_device(ctx);
    } else {
        q->device = -1;
    }
    q->handle = handle;
    q->blocking = blocking;
    q->is_default = is_default;
    q->refs = 1;
    return q;
}

// An unreported error keeps the driver off its fast paths (the next
// synchronize must see it): it counts as busy.
static void set_error(queue_t *q, CUresult e) {
    if (q->error == CUDA_SUCCESS && e != CUDA_SUCCESS) {
        q->error = e;
        busy_add(1);
    }
}

static CUresult take_error(queue_t *q) {
    if (q == NULL || q->error == CUDA_SUCCESS) {
        return CUDA_SUCCESS;
    }
    CUresult e = q->error;
    q->error = CUDA_SUCCESS;
    busy_add(-1);
    return e;
}

static void queue_free(queue_t *q) {
    (void)take_error(q);
    free(q);
}

static void queue_unref(queue_t *q) {
    if (--q->refs == 0 && !q->active) {
        queue_free(q);
    }
}

static bool pending(const queue_t *q) {
    return q != NULL && q->done < q->enqueued;
}

static bool mark_passed(const cuda_mock_mark_t *m) {
    return m->queue == NULL || m->queue->done >= m->seq;
}

static void mark_release(cuda_mock_mark_t *m) {
    if (m->queue != NULL) {
        queue_unref(m->queue);
        m->queue = NULL;
    }
}

static void mark_set(cuda_mock_mark_t *m, queue_t *q, uint64_t seq) {
    q->refs++;
    mark_release(m);
    m->queue = q;
    m->seq = seq;
}

static void *driver_main(void *arg);
static void register_fork(void);

// Starts the driver thread if it is not running. False (logged) if it
// cannot be.
static bool driver_start(void) {
    if (started) {
        return true;
    }
    (void)pthread_once(&fork_once, register_fork);
    stopping = exited = false;
    int rc = pthread_create(&driver, NULL, driver_main, NULL);
    if (rc != 0) {
        UMF_MOCK_LOG_ERROR("cannot start the driver thread that runs host "
                           "functions: %s",
                           strerror(rc));
        return false;
    }
    started = true;
    return true;
}

static void activate(queue_t *q) {
    if (!q->active) {
        q->active = true;
        q->prev_active = active_tail;
        q->next_active = NULL;
        if (active_tail != NULL) {
            active_tail->next_active = q;
        } else {
            active_head = q;
        }
        active_tail = q;
        busy_add(1);
    }
    pthread_cond_signal(&work_cv);
}

static void deactivate(queue_t *q) {
    if (q->prev_active != NULL) {
        q->prev_active->next_active = q->next_active;
    } else {
        active_head = q->next_active;
    }
    if (q->next_active != NULL) {
        q->next_active->prev_active = q->prev_active;
    } else {
        active_tail = q->prev_active;
    }
    q->active = false;
    q->prev_active = q->next_active = NULL;
    busy_add(-1);
    if (q->refs == 0) {
        queue_free(q);
    }
}

static void item_free(item_t *it) {
    mark_release(&it->wait);
    free(it);
}

// The default queue of `ctx`, made if `make` (NULL if none, or no memory).
static queue_t *default_queue(cuda_mock_ctx_t *ctx, bool make) {
    for (queue_t *q = defaults; q != NULL; q = q->next_default) {
        if (ctx_is(q->ctx, ctx)) {
            return q;
        }
    }
    if (!make) {
        return NULL;
    }
    queue_t *q = queue_new(ctx, NULL, true, true);
    if (q != NULL) {
        q->next_default = defaults;
        defaults = q;
    }
    return q;
}

// The queue of stream `s`, made if `make`.
static queue_t *queue_of(const cuda_mock_stream_ref_t *s, bool make) {
    if (s->order == NULL) {
        return default_queue(s->ctx, make);
    }
    if (s->order->queue == NULL && make) {
        s->order->queue = queue_new(s->ctx, s->handle, s->blocking, false);
    }
    return s->order->queue;
}

// ---------------------------------------------------------------------------
// Chains of items: everything one submission queues, built before any of
// it is queued (all or nothing).

typedef struct chain_t {
    item_t *head, *tail;
    size_t count;
    queue_t *target;   // the queue it goes to
    bool needs_thread; // it holds a host function
    bool failed;       // out of memory
} chain_t;

static item_t *chain_add(chain_t *c) {
    item_t *it = calloc(1, sizeof(*it));
    if (it == NULL) {
        c->failed = true;
        return NULL;
    }
    if (c->tail != NULL) {
        c->tail->next = it;
    } else {
        c->head = it;
    }
    c->tail = it;
    c->count++;
    return it;
}

static void chain_wait(chain_t *c, queue_t *q, uint64_t seq) {
    if (q == c->target || q->done >= seq) {
        return; // in order anyway, or passed
    }
    item_t *it = chain_add(c);
    if (it != NULL) {
        it->is_wait = true;
        mark_set(&it->wait, q, seq);
    }
}

static void chain_discard(chain_t *c) {
    for (item_t *it = c->head, *next; it != NULL; it = next) {
        next = it->next;
        item_free(it);
    }
    c->head = c->tail = NULL;
    c->count = 0;
}

// The waits of the legacy default stream's implicit synchronisation, for
// work on stream `s` of `ctx`.
static void chain_implicit(chain_t *c, const cuda_mock_stream_ref_t *s) {
    if (s->order != NULL) {
        if (s->blocking) {
            queue_t *l = default_queue(s->ctx, false);
            if (pending(l)) {
                chain_wait(c, l, l->enqueued);
            }
        }
        return;
    }
    for (queue_t *q = active_head; q != NULL; q = q->next_active) {
        if (!q->is_default && q->blocking && ctx_is(q->ctx, s->ctx) &&
            pending(q)) {
            chain_wait(c, q, q->enqueued);
        }
    }
}

// The waits of an event wait: its last record, while queued elsewhere.
static void chain_event_wait(chain_t *c, CUevent ev, uint32_t gen) {
    cuda_mock_event_order_t *e = cuda_mock_event_order_at(ev, gen);
    if (e != NULL && !mark_passed(&e->record)) {
        chain_wait(c, e->record.queue, e->record.seq);
    }
}

// Adds `op` (a WAIT becomes the wait for the event's record).
static CUresult chain_op(const cuda_mock_op_t *op, void *arg) {
    chain_t *c = arg;
    if (op->kind == CUDA_MOCK_OP_WAIT) {
        chain_event_wait(c, op->u.event.event, op->u.event.gen);
        return CUDA_SUCCESS;
    }
    if (op->kind == CUDA_MOCK_OP_EMPTY) {
        return CUDA_SUCCESS;
    }
    item_t *it = chain_add(c);
    if (it == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    it->op = *op;
    if (op->kind == CUDA_MOCK_OP_HOST || op->kind == CUDA_MOCK_OP_CALLBACK) {
        c->needs_thread = true;
    }
    return CUDA_SUCCESS;
}

// Whether an operation about to run at once must wait after all: a WAIT
// for a queued record.
static CUresult check_op(const cuda_mock_op_t *op, void *arg) {
    bool *must_queue = arg;
    if (op->kind == CUDA_MOCK_OP_HOST || op->kind == CUDA_MOCK_OP_CALLBACK) {
        *must_queue = true;
    } else if (op->kind == CUDA_MOCK_OP_WAIT) {
        cuda_mock_event_order_t *e =
            cuda_mock_event_order_at(op->u.event.event, op->u.event.gen);
        if (e != NULL && !mark_passed(&e->record)) {
            *must_queue = true;
        }
    }
    return CUDA_SUCCESS;
}

// Queues the chain on its target: each RECORD item becomes its event's
// last record.
static void chain_commit(chain_t *c) {
    queue_t *q = c->target;
    for (item_t *it = c->head; it != NULL; it = it->next) {
        q->enqueued++;
        if (!it->is_wait && it->op.kind == CUDA_MOCK_OP_RECORD) {
            cuda_mock_event_order_t *e = cuda_mock_event_order_at(
                it->op.u.event.event, it->op.u.event.gen);
            if (e != NULL) {
                mark_set(&e->record, q, q->enqueued);
                e->capture_id = 0;
            }
        }
    }
    if (q->tail != NULL) {
        q->tail->next = c->head;
    } else {
        q->head = c->head;
    }
    q->tail = c->tail;
    c->head = c->tail = NULL;
    activate(q);
}

// ---------------------------------------------------------------------------
// Running operations

// The context of a queue is gone: what it would touch is gone with it.
static bool skipped_when_cancelled(cuda_mock_op_kind_t kind) {
    return kind == CUDA_MOCK_OP_COPY || kind == CUDA_MOCK_OP_COPY3D ||
           kind == CUDA_MOCK_OP_FILL || kind == CUDA_MOCK_OP_RECORD;
}

static bool touches_memory(cuda_mock_op_kind_t kind) {
    return kind == CUDA_MOCK_OP_COPY || kind == CUDA_MOCK_OP_COPY3D ||
           kind == CUDA_MOCK_OP_FILL || kind == CUDA_MOCK_OP_FREE;
}

static CUresult run_graph_op(const cuda_mock_op_t *op, void *arg) {
    (void)arg;
    return cuda_mock_op_run(op);
}

// The sides of a copy that must be the driver's memory.
static inline unsigned copy_sides(const cuda_mock_op_t *op) {
    return (op->u.copy.dst_type == CU_MEMORYTYPE_DEVICE ? CUDA_MOCK_DST_DEVICE
                                                        : 0u) |
           (op->u.copy.src_type == CU_MEMORYTYPE_DEVICE ? CUDA_MOCK_SRC_DEVICE
                                                        : 0u);
}

CUresult cuda_mock_op_run(const cuda_mock_op_t *op) {
    switch (op->kind) {
    case CUDA_MOCK_OP_EMPTY:
    case CUDA_MOCK_OP_WAIT: // what it waits for ran: nothing is pending
        return CUDA_SUCCESS;
    case CUDA_MOCK_OP_COPY:
        return cuda_mock_copy_rows(
            op->u.copy.dst_device, op->u.copy.src_device, op->u.copy.dst,
            op->u.copy.dst_pitch, op->u.copy.src, op->u.copy.src_pitch,
            op->u.copy.width, op->u.copy.height, copy_sides(op), op->call);
    case CUDA_MOCK_OP_COPY3D:
        return cuda_mock_copy3d_run(&op->u.copy3d.p, op->u.copy3d.dst_device,
                                    op->u.copy3d.src_device, op->call);
    case CUDA_MOCK_OP_FILL:
        return cuda_mock_fill(op->u.fill.device, op->u.fill.dst,
                              op->u.fill.pitch, op->u.fill.value,
                              op->u.fill.elem, op->u.fill.width,
                              op->u.fill.height, op->call);
    case CUDA_MOCK_OP_HOST:
        op->u.host.fn(op->u.host.data);
        return CUDA_SUCCESS;
    case CUDA_MOCK_OP_CALLBACK:
        // Run by the driver thread only (run_item), with its status.
        return CUDA_ERROR_NOT_SUPPORTED;
    case CUDA_MOCK_OP_RECORD:
        if (!cuda_mock_order_idle()) {
            // Recorded now: no queued record of it is its last one.
            pthread_mutex_lock(&cuda_mock_order_lock);
            cuda_mock_event_order_t *e =
                cuda_mock_event_order_at(op->u.event.event, op->u.event.gen);
            if (e != NULL) {
                mark_release(&e->record);
                e->capture_id = 0;
            }
            pthread_mutex_unlock(&cuda_mock_order_lock);
        }
        cuda_mock_event_record_now(op->u.event.event, op->u.event.gen);
        return CUDA_SUCCESS;
    case CUDA_MOCK_OP_FREE:
        return cuda_mock_mem_free_device(
            (const void *)(uintptr_t)op->u.free.ptr, op->call);
    case CUDA_MOCK_OP_PREFETCH:
        // The devices share the host's memory: nothing moves (the range's
        // last prefetch location is what was asked, when it was asked).
        return CUDA_SUCCESS;
    case CUDA_MOCK_OP_GRAPH:
        return cuda_mock_exec_walk(op->u.graph.exec, run_graph_op, NULL);
    case CUDA_MOCK_OP_GMEM:
        // The graph memory's own bookkeeping (its function, so that this
        // file knows nothing of it).
        op->u.gmem.fn(op->u.gmem.mem, op->u.gmem.what);
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

// Runs a queued item (the driver thread, without the lock).
static CUresult run_item(const queue_t *q, const item_t *it, CUresult status,
                         CUresult cancelled) {
    if (cancelled != CUDA_SUCCESS && skipped_when_cancelled(it->op.kind)) {
        return CUDA_SUCCESS;
    }
    if (it->op.kind == CUDA_MOCK_OP_CALLBACK) {
        it->op.u.callback.fn(q->handle, status, it->op.u.callback.data);
        return CUDA_SUCCESS;
    }
    return cuda_mock_op_run(&it->op);
}

static void *driver_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&cuda_mock_order_lock);
    while (!stopping) {
        bool progress = false;
        for (queue_t *q = active_head, *next; q != NULL && !stopping;
             q = next) {
            // Only this thread unlinks active queues: `next` stays valid
            // while the lock is released below.
            next = q->next_active;
            item_t *it = q->head;
            if (it == NULL || (it->is_wait && q->cancelled == CUDA_SUCCESS &&
                               !mark_passed(&it->wait))) {
                continue;
            }
            q->head = it->next;
            if (q->head == NULL) {
                q->tail = NULL;
            }
            CUresult result = CUDA_SUCCESS;
            if (!it->is_wait) {
                running_q = q;
                running_kind = it->op.kind;
                in_user_fn = it->op.kind == CUDA_MOCK_OP_HOST ||
                             it->op.kind == CUDA_MOCK_OP_CALLBACK;
                CUresult status =
                    q->cancelled != CUDA_SUCCESS ? q->cancelled : q->error;
                CUresult cancelled = q->cancelled;
                pthread_mutex_unlock(&cuda_mock_order_lock);
                result = run_item(q, it, status, cancelled);
                pthread_mutex_lock(&cuda_mock_order_lock);
                running_q = NULL;
                in_user_fn = false;
            }
            if (it->result != NULL) {
                *it->result = result;
            } else if (result != CUDA_SUCCESS && q->error == CUDA_SUCCESS) {
                UMF_MOCK_LOG_ERROR("%s, queued on stream %p, failed: %s",
                                   it->op.call, (void *)q->handle,
                                   cuda_mock_result_name(result));
                set_error(q, result);
            }
            q->done++;
            item_free(it);
            progress = true;
            if (q->head == NULL) {
                deactivate(q);
            }
            pthread_cond_broadcast(&done_cv);
        }
        if (!progress && !stopping) {
            pthread_cond_wait(&work_cv, &cuda_mock_order_lock);
        }
    }
    exited = true;
    pthread_cond_broadcast(&done_cv);
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return NULL;
}

// ---------------------------------------------------------------------------
// Submitting

// Builds and commits the chain of `op` on `s`, or says it may run at once
// (*now). Under the lock.
static CUresult enqueue_locked(const cuda_mock_stream_ref_t *s,
                               const cuda_mock_op_t *op, CUresult *result,
                               bool *now, queue_t **target) {
    *now = false;
    queue_t *q = queue_of(s, false);
    bool must_queue = pending(q);
    if (op->kind == CUDA_MOCK_OP_GRAPH) {
        must_queue =
            must_queue || !mark_passed(cuda_mock_exec_mark(op->u.graph.exec));
        if (!must_queue) {
            (void)cuda_mock_exec_walk(op->u.graph.exec, check_op, &must_queue);
        }
    } else {
        (void)check_op(op, &must_queue);
    }
    chain_t c = {0};
    c.target = q;
    chain_implicit(&c, s);
    if (!must_queue && c.count == 0) {
        *now = true;
        return CUDA_SUCCESS;
    }
    chain_discard(&c);
    q = queue_of(s, true);
    if (q == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (!driver_start()) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    c.target = q;
    chain_implicit(&c, s);
    CUresult res;
    if (op->kind == CUDA_MOCK_OP_GRAPH) {
        // After the previous launch of the same executable graph.
        cuda_mock_mark_t *last = cuda_mock_exec_mark(op->u.graph.exec);
        if (!mark_passed(last)) {
            chain_wait(&c, last->queue, last->seq);
        }
        res = cuda_mock_exec_walk(op->u.graph.exec, chain_op, &c);
    } else {
        res = chain_op(op, &c);
    }
    if (res == CUDA_SUCCESS && c.failed) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (res != CUDA_SUCCESS) {
        chain_discard(&c);
        UMF_MOCK_LOG_ERROR("%s: out of host memory to queue it", op->call);
        return res;
    }
    if (c.head == NULL) {
        // Empty nodes and passed waits only: nothing to queue.
        *now = true;
        return CUDA_SUCCESS;
    }
    c.tail->result = result;
    chain_commit(&c);
    if (op->kind == CUDA_MOCK_OP_GRAPH) {
        mark_set(cuda_mock_exec_mark(op->u.graph.exec), q, q->enqueued);
    }
    *target = q;
    return CUDA_SUCCESS;
}

// The checks of an operation that may run later: its errors are the
// enqueuing call's, as on a GPU (ranges of memory, arrays, structure).
static CUresult op_check(const cuda_mock_op_t *op) {
    switch (op->kind) {
    case CUDA_MOCK_OP_COPY:
        return cuda_mock_copy_rows_check(
            op->u.copy.dst_device, op->u.copy.src_device, op->u.copy.dst,
            op->u.copy.dst_pitch, op->u.copy.src, op->u.copy.src_pitch,
            op->u.copy.width, op->u.copy.height, copy_sides(op), op->call);
    case CUDA_MOCK_OP_COPY3D:
        return cuda_mock_copy3d_check(&op->u.copy3d.p, op->u.copy3d.dst_device,
                                      op->u.copy3d.src_device, op->call);
    case CUDA_MOCK_OP_FILL:
        return cuda_mock_fill_check(
            op->u.fill.device, op->u.fill.dst, op->u.fill.pitch,
            op->u.fill.elem, op->u.fill.width, op->u.fill.height, op->call);
    default:
        return CUDA_SUCCESS;
    }
}

// Whether `op` must run on the driver thread (a host function in it).
static inline bool needs_thread(const cuda_mock_op_t *op) {
    return op->kind == CUDA_MOCK_OP_HOST || op->kind == CUDA_MOCK_OP_CALLBACK ||
           (op->kind == CUDA_MOCK_OP_GRAPH &&
            cuda_mock_exec_needs_thread(op->u.graph.exec));
}

CUresult cuda_mock_order_submit(const cuda_mock_stream_ref_t *s,
                                const cuda_mock_op_t *op) {
    if (cuda_mock_order_idle() && !needs_thread(op)) {
        return cuda_mock_op_run(op);
    }
    CUresult checked = op_check(op);
    if (checked != CUDA_SUCCESS) {
        return checked;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res;
    if (cuda_mock_capture_submit_locked(s, op, &res)) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        return res;
    }
    bool now;
    queue_t *q = NULL;
    res = enqueue_locked(s, op, NULL, &now, &q);
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return now ? cuda_mock_op_run(op) : res;
}

CUresult cuda_mock_order_sync(cuda_mock_ctx_t *ctx, const cuda_mock_op_t *op) {
    if (cuda_mock_order_idle()) {
        return cuda_mock_op_run(op);
    }
    CUresult checked = op_check(op);
    if (checked != CUDA_SUCCESS) {
        return checked;
    }
    cuda_mock_stream_ref_t s = {CU_STREAM_LEGACY, ctx, NULL, true};
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = cuda_mock_capture_sync_locked(ctx, op->call);
    if (res != CUDA_SUCCESS) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        return res;
    }
    bool now;
    queue_t *q = NULL;
    CUresult result = CUDA_ERROR_UNKNOWN;
    // From the driver thread, only what need not wait may run.
    chain_t probe = {0};
    probe.target = default_queue(ctx, false);
    chain_implicit(&probe, &s);
    bool would_wait = pending(probe.target) || probe.count > 0;
    chain_discard(&probe);
    if (would_wait && on_driver_thread()) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        UMF_MOCK_LOG_ERROR("%s from a host function or stream callback would "
                           "wait for queued work: not permitted",
                           op->call);
        return CUDA_ERROR_NOT_PERMITTED;
    }
    res = enqueue_locked(&s, op, &result, &now, &q);
    if (res == CUDA_SUCCESS && !now) {
        q->refs++;
        uint64_t seq = q->enqueued;
        while (q->done < seq) {
            pthread_cond_wait(&done_cv, &cuda_mock_order_lock);
        }
        queue_unref(q);
        res = result;
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return now ? cuda_mock_op_run(op) : res;
}

// ---------------------------------------------------------------------------
// Waiting

// Queues to wait for, each with the mark it must pass (refs held).
typedef struct waitset_t {
    cuda_mock_mark_t *marks;
    size_t count, cap;
    bool failed;
} waitset_t;

static void waitset_add(waitset_t *w, queue_t *q) {
    if (!pending(q)) {
        return;
    }
    if (w->count == w->cap) {
        size_t cap = w->cap != 0 ? 2 * w->cap : 8;
        cuda_mock_mark_t *m = realloc(w->marks, cap * sizeof(*m));
        if (m == NULL) {
            w->failed = true;
            return;
        }
        w->marks = m;
        w->cap = cap;
    }
    cuda_mock_mark_t *m = &w->marks[w->count++];
    m->queue = NULL;
    mark_set(m, q, q->enqueued);
}

static bool waitset_passed(const waitset_t *w) {
    for (size_t i = 0; i < w->count; i++) {
        if (!mark_passed(&w->marks[i])) {
            return false;
        }
    }
    return true;
}

// Waits for every mark (NOT_PERMITTED from the driver thread while one is
// pending), then takes the first error of their queues; releases the set.
static CUresult waitset_wait(waitset_t *w, bool wait, const char *call) {
    CUresult res = CUDA_SUCCESS;
    if (w->failed) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    } else if (!waitset_passed(w)) {
        if (!wait) {
            res = CUDA_ERROR_NOT_READY;
        } else if (on_driver_thread()) {
            UMF_MOCK_LOG_ERROR("%s from a host function or stream callback "
                               "would wait for queued work: not permitted",
                               call);
            res = CUDA_ERROR_NOT_PERMITTED;
        } else {
            while (!waitset_passed(w)) {
                pthread_cond_wait(&done_cv, &cuda_mock_order_lock);
            }
        }
    }
    for (size_t i = 0; i < w->count; i++) {
        mark_release(&w->marks[i]);
    }
    free(w->marks);
    w->marks = NULL;
    w->count = w->cap = 0;
    return res;
}

CUresult cuda_mock_order_stream_sync(const cuda_mock_stream_ref_t *s, bool wait,
                                     const char *call) {
    if (cuda_mock_order_idle()) {
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = cuda_mock_capture_stream_sync_locked(s, call);
    if (res != CUDA_SUCCESS) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        return res;
    }
    waitset_t w = {0};
    queue_t *own = queue_of(s, false);
    waitset_add(&w, own);
    if (s->order == NULL) {
        // The legacy stream: what it would wait for, too.
        for (queue_t *q = active_head; q != NULL; q = q->next_active) {
            if (!q->is_default && q->blocking && ctx_is(q->ctx, s->ctx)) {
                waitset_add(&w, q);
            }
        }
    }
    if (own != NULL) {
        own->refs++;
    }
    res = waitset_wait(&w, wait, call);
    if (res == CUDA_SUCCESS) {
        res = take_error(own);
    }
    if (own != NULL) {
        queue_unref(own);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUresult cuda_mock_order_ctx_sync(cuda_mock_ctx_t *ctx, const char *call) {
    if (cuda_mock_order_idle()) {
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = cuda_mock_capture_ctx_sync_locked(ctx, call);
    if (res != CUDA_SUCCESS) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        return res;
    }
    waitset_t w = {0};
    // A primary context's green contexts too ("green contexts that have
    // been created will also be synchronized").
    for (queue_t *q = active_head; q != NULL; q = q->next_active) {
        if (cuda_mock_ctx_ref_within(q->ctx, ctx)) {
            waitset_add(&w, q);
        }
    }
    // The queues' errors: each queue waited for holds a reference.
    size_t n = w.count;
    queue_t **qs = n > 0 ? malloc(n * sizeof(*qs)) : NULL;
    for (size_t i = 0; qs != NULL && i < n; i++) {
        qs[i] = w.marks[i].queue;
        qs[i]->refs++;
    }
    res = waitset_wait(&w, true, call);
    for (size_t i = 0; qs != NULL && i < n; i++) {
        CUresult e = take_error(qs[i]);
        if (res == CUDA_SUCCESS) {
            res = e;
        }
        queue_unref(qs[i]);
    }
    free(qs);
    queue_t *d = default_queue(ctx, false);
    if (res == CUDA_SUCCESS) {
        res = take_error(d);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUresult cuda_mock_order_event_sync(CUevent ev, bool wait, const char *call) {
    if (cuda_mock_order_idle()) {
        return cuda_mock_event_check(ev, call);
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    cuda_mock_ctx_t *ectx;
    uint32_t gen;
    cuda_mock_event_order_t *e =
        cuda_mock_event_order_of(ev, call, &ectx, &gen);
    CUresult res = CUDA_SUCCESS;
    if (e == NULL) {
        res = CUDA_ERROR_INVALID_HANDLE;
    } else if (cuda_mock_capture_live(e->capture_id)) {
        UMF_MOCK_LOG_ERROR("%s: event %p was last recorded in a stream "
                           "capture",
                           call, (void *)ev);
        res = CUDA_ERROR_CAPTURED_EVENT;
    } else if (!mark_passed(&e->record)) {
        waitset_t w = {0};
        waitset_add(&w, e->record.queue);
        // Only up to the event's record, not the queue's end.
        if (w.count == 1) {
            w.marks[0].seq = e->record.seq;
        }
        res = waitset_wait(&w, wait, call);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUresult cuda_mock_order_event_done(CUevent ev, const char *call) {
    if (cuda_mock_order_idle()) {
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    cuda_mock_ctx_t *ectx;
    uint32_t gen;
    cuda_mock_event_order_t *e =
        cuda_mock_event_order_of(ev, call, &ectx, &gen);
    CUresult res = CUDA_SUCCESS;
    if (e != NULL && cuda_mock_capture_live(e->capture_id)) {
        res = CUDA_ERROR_CAPTURED_EVENT;
    } else if (e != NULL && !mark_passed(&e->record)) {
        res = CUDA_ERROR_NOT_READY;
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

void cuda_mock_order_event_gone(cuda_mock_event_order_t *e) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    mark_release(&e->record);
    free(e->nodes);
    e->nodes = NULL;
    e->nnodes = 0;
    e->capture_id = 0;
    pthread_mutex_unlock(&cuda_mock_order_lock);
}

CUresult cuda_mock_order_stream_gone(cuda_mock_stream_order_t *o, bool force,
                                     const char *call) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    if (o->capture != NULL && !force) {
        cuda_mock_capture_invalidate_locked(o->capture);
        pthread_mutex_unlock(&cuda_mock_order_lock);
        UMF_MOCK_LOG_ERROR("%s: the stream is capturing (the capture is "
                           "invalidated; end it first)",
                           call);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    cuda_mock_capture_leave_locked(o);
    if (o->queue != NULL) {
        // Its work runs on ("released once the device completed all work
        // in hStream"); callbacks still get the handle.
        queue_unref(o->queue);
        o->queue = NULL;
    }
    free(o->deps);
    free(o->dep_data);
    memset(o, 0, sizeof(*o));
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return CUDA_SUCCESS;
}

// Before a context is destroyed, outside the context lock: waits for its
// streams' work (not from the driver thread).
static void ctx_drain(const cuda_mock_ctx_t *ctx) {
    if (cuda_mock_order_idle()) {
        return;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    if (!on_driver_thread()) {
        waitset_t w = {0};
        for (queue_t *q = active_head; q != NULL; q = q->next_active) {
            if (ctx_is(q->ctx, ctx)) {
                waitset_add(&w, q);
            }
        }
        (void)waitset_wait(&w, true, "context destroy");
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
}
CUDA_MOCK_CTX_QUIESCE(ctx_drain);

CUresult cuda_mock_order_before_free_slow(const void *p, const char *call) {
    umf_mock_alloc_info_t info;
    int device = -1;
    if (umf_mock_lookup(p, &info) == UMF_MOCK_OK) {
        device =
            info.device >= 0 || info.kind != UMF_MOCK_KIND_HOST
                ? info.device
                : cuda_mock_ctx_device((const cuda_mock_ctx_t *)info.owner);
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = cuda_mock_capture_unsafe_locked(call);
    if (res == CUDA_SUCCESS) {
        waitset_t w = {0};
        for (queue_t *q = active_head; q != NULL; q = q->next_active) {
            if (q->ctx.ctx != NULL && (device < 0 || q->device == device)) {
                waitset_add(&w, q);
            }
        }
        res = waitset_wait(&w, true, call);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUresult cuda_mock_order_unsafe_slow(const char *call) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = cuda_mock_capture_unsafe_locked(call);
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUresult cuda_mock_order_refuse_in_capture(const cuda_mock_stream_ref_t *s,
                                           const char *call) {
    if (cuda_mock_order_idle()) {
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = cuda_mock_capture_refuse_locked(s, call);
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUresult cuda_mock_order_capture_mem(const cuda_mock_stream_ref_t *s,
                                     int device, size_t size, CUdeviceptr *dptr,
                                     bool *captured, const char *call) {
    *captured = false;
    if (cuda_mock_order_idle()) {
        return CUDA_SUCCESS; // no capture goes on
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res =
        cuda_mock_capture_mem_locked(s, device, size, dptr, captured, call);
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

// ---------------------------------------------------------------------------
// The driver's own work: calls that cuda.h makes "from an internal thread"
// (user object destructors), and work after a mark.

static queue_t *internal; // of no stream and no context

CUresult cuda_mock_order_internal(CUhostFn fn, void *data, const char *call) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    CUresult res = CUDA_ERROR_OUT_OF_MEMORY;
    if (internal == NULL) {
        internal = queue_new(NULL, NULL, false, false);
    }
    if (internal != NULL && driver_start()) {
        chain_t c = {0};
        c.target = internal;
        cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_HOST, .call = call};
        op.u.host.fn = fn;
        op.u.host.data = data;
        res = chain_op(&op, &c);
        if (res == CUDA_SUCCESS && !c.failed) {
            chain_commit(&c);
        } else {
            chain_discard(&c);
            res = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

bool cuda_mock_order_after(cuda_mock_mark_t *m, CUhostFn fn, void *data,
                           const char *call) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    bool queued = false;
    if (!mark_passed(m) && driver_start()) {
        chain_t c = {0};
        c.target = m->queue;
        cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_HOST, .call = call};
        op.u.host.fn = fn;
        op.u.host.data = data;
        if (chain_op(&op, &c) == CUDA_SUCCESS && !c.failed) {
            chain_commit(&c);
            queued = true;
        } else {
            chain_discard(&c);
        }
    }
    mark_release(m);
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return queued;
}

// ---------------------------------------------------------------------------
// Context teardown: cancels what is still queued for the context (runs
// first of all hooks: queued copies touch the memory that goes later).

static void order_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    for (queue_t *q = active_head; q != NULL; q = q->next_active) {
        if (q->ctx.ctx == ctx) {
            q->cancelled = CUDA_ERROR_CONTEXT_IS_DESTROYED;
        }
    }
    // The context's generation changed: its default queue is found no
    // more; it runs on while it has items.
    for (queue_t **p = &defaults; *p != NULL;) {
        queue_t *q = *p;
        if (q->ctx.ctx == ctx) {
            *p = q->next_default;
            q->cancelled = CUDA_ERROR_CONTEXT_IS_DESTROYED;
            queue_unref(q);
        } else {
            p = &q->next_default;
        }
    }
    pthread_cond_signal(&work_cv);
    if (!on_driver_thread()) {
        while (running_q != NULL && running_q->ctx.ctx == ctx &&
               touches_memory(running_kind)) {
            pthread_cond_wait(&done_cv, &cuda_mock_order_lock);
        }
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_QUEUES, order_ctx_teardown);

// ---------------------------------------------------------------------------
// fork() and unloading

static void fork_prepare(void) {
    pthread_mutex_lock(&cuda_mock_order_lock);
}

static void fork_parent(void) {
    pthread_mutex_unlock(&cuda_mock_order_lock);
}

// The child: no driver thread, and the parent's queued work is not the
// child's to run.
static void fork_child(void) {
    pthread_cond_init(&work_cv, NULL);
    pthread_cond_init(&done_cv, NULL);
    started = stopping = exited = false;
    running_q = NULL;
    in_user_fn = false;
    while (active_head != NULL) {
        queue_t *q = active_head;
        for (item_t *it = q->head, *next; it != NULL; it = next) {
            next = it->next;
            item_free(it);
        }
        q->head = q->tail = NULL;
        q->done = q->enqueued;
        deactivate(q);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
}

static void register_fork(void) {
    (void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

__attribute__((destructor)) static void order_unload(void) {
    pthread_mutex_lock(&cuda_mock_order_lock);
    if (!started) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        return;
    }
    stopping = true;
    pthread_cond_signal(&work_cv);
    while (!exited && !in_user_fn) {
        pthread_cond_wait(&done_cv, &cuda_mock_order_lock);
    }
    bool joinable = exited;
    started = false;
    pthread_mutex_unlock(&cuda_mock_order_lock);
    if (joinable) {
        (void)pthread_join(driver, NULL);
    } else {
        (void)pthread_detach(driver);
    }
}

// cuCtxSynchronize: waits for the work queued on the context's streams.
CUDA_MOCK_API CUresult cuCtxSynchronize(void) {
    CUDA_MOCK_ENTER(cuCtxSynchronize);
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    return res == CUDA_SUCCESS ? cuda_mock_order_ctx_sync(c, "cuCtxSynchronize")
                               : res;
}

CUDA_MOCK_API CUresult cuCtxSynchronize_v2(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxSynchronize_v2);
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_or_current(ctx, "cuCtxSynchronize_v2", &c);
    return res == CUDA_SUCCESS
               ? cuda_mock_order_ctx_sync(c, "cuCtxSynchronize_v2")
               : res;
}
