// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Commands (what one holds while it is recorded or waits, and its events
// checked), streams of commands and the driver's thread that runs those
// that wait (ze_mock_engine.h). A stream's lock guards its pending
// commands and its counters; a command runs with it held, in the
// submitting thread or in the driver's thread, so that a stream never runs
// two commands at once and a synchronizer (waiting on the stream's
// condition variable) sees each completion.
//
// The driver's thread keeps the streams it serves in an array of its own,
// fed through the engine's inbox. It looks at the first command of each:
// runs it when its events are signalled, loses the stream when one can
// never be, and else sleeps on the engine's bell (rung by every signal in
// this process while it has something to watch, by new work, by an event
// that became dead) together with the slots of shared pools that the
// heads wait for (signalled by other processes).

#include "ze_mock_engine.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ze_mock_stream_t {
    pthread_mutex_t lock;
    pthread_cond_t cond; // (CLOCK_MONOTONIC) a command ran or was dropped
    _Atomic unsigned refs;
    int device;
    bool sync;
    struct pending_t *head, *tail;
    uint64_t submitted, finished; // commands; finished: ran or dropped
    bool lost;                    // commands were dropped: sticky
    bool closed;                  // destroyed: takes nothing more
    unsigned served;              // the engine generation that serves it, or 0
};

typedef struct pending_t {
    struct pending_t *next;
    ze_mock_cmd_t cmd; // owned
} pending_t;

// ---- The engine -------------------------------------------------------------

static struct {
    pthread_mutex_t lock; // the rest of this struct
    ze_mock_stream_t **inbox;
    size_t inbox_count, inbox_cap;
    bool started, stop;
    pthread_t thread;
} eng = {.lock = PTHREAD_MUTEX_INITIALIZER};

// The generation of the engine: 1, and one more in each fork child (whose
// streams the parent's thread served, and whose thread is gone).
static _Atomic unsigned generation = 1;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void before_fork(void) {
    pthread_mutex_lock(&eng.lock);
}

static void after_fork_parent(void) {
    pthread_mutex_unlock(&eng.lock);
}

// The child has no driver's thread: the next command that waits starts
// one, and the streams of the parent's are served again when used.
static void after_fork_child(void) {
    pthread_mutex_init(&eng.lock, NULL);
    eng.inbox_count = 0; // their references stay with the parent's thread
    eng.started = false;
    eng.stop = false;
    ze_mock_bell_unwatch();
    atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed);
}

static void register_atfork(void) {
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0) {
        UMF_MOCK_LOG_WARN("pthread_atfork failed: a fork child cannot run "
                          "commands that wait for events");
    }
}

static void *engine_main(void *arg);

// Starts the driver's thread (under eng.lock), with every signal blocked:
// a program's handlers never run on it.
static bool start_thread(void) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&eng.thread, NULL, engine_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        UMF_MOCK_LOG_ERROR("cannot start the driver's thread, which runs "
                           "commands that wait for events: %s",
                           strerror(err));
        return false;
    }
    pthread_setname_np(eng.thread, "ze-mock-engine");
    eng.started = true;
    return true;
}

// Hands `s` (locked, with pending commands) to the driver's thread unless
// this generation's thread serves it already.
static void serve(ze_mock_stream_t *s) {
    unsigned gen = atomic_load_explicit(&generation, memory_order_relaxed);
    if (s->served == gen) {
        ze_mock_bell_ring();
        return;
    }
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&eng.lock);
    bool ok = eng.started || start_thread();
    if (ok && eng.inbox_count == eng.inbox_cap) {
        size_t cap = eng.inbox_cap ? 2 * eng.inbox_cap : 16;
        ze_mock_stream_t **n = realloc(eng.inbox, cap * sizeof(*n));
        ok = n != NULL;
        if (ok) {
            eng.inbox = n;
            eng.inbox_cap = cap;
        }
    }
    if (ok) {
        ze_mock_stream_ref(s);
        eng.inbox[eng.inbox_count++] = s;
        s->served = gen;
    }
    pthread_mutex_unlock(&eng.lock);
    if (ok) {
        ze_mock_bell_ring();
    } else {
        // Tried again at the next submission or synchronization.
        UMF_MOCK_LOG_ERROR("out of host memory: commands that wait for "
                           "events are not served yet");
    }
}

void ze_mock_engine_unload(void) {
    pthread_mutex_lock(&eng.lock);
    bool started = eng.started;
    eng.stop = true;
    pthread_mutex_unlock(&eng.lock);
    if (started) {
        ze_mock_bell_ring();
        pthread_join(eng.thread, NULL);
    }
    free(eng.inbox);
    eng.inbox = NULL;
    eng.inbox_count = eng.inbox_cap = 0;
}

// ---- Commands ---------------------------------------------------------------

static void *copy_array(const void *from, size_t count, size_t size, bool *ok) {
    if (count == 0 || from == NULL) {
        return NULL;
    }
    void *to = malloc(count * size);
    if (to == NULL) {
        *ok = false;
        return NULL;
    }
    memcpy(to, from, count * size);
    return to;
}

// Holds or lets go of the events of an owned command.
static void hold_events(const ze_mock_cmd_t *c, bool hold, bool abandoned) {
    unsigned queued = c->queued ? ZE_MOCK_HOLD_QUEUED : 0u;
    for (uint32_t i = 0; i < c->waits; i++) {
        hold ? ze_mock_event_hold(c->wait[i], queued)
             : ze_mock_event_unhold(c->wait[i], queued, false);
    }
    if (c->signal != NULL) {
        unsigned how = queued | ZE_MOCK_HOLD_SIGNALS;
        hold ? ze_mock_event_hold(c->signal, how)
             : ze_mock_event_unhold(c->signal, how, abandoned);
    }
    if (c->event != NULL) {
        hold ? ze_mock_event_hold(c->event, queued)
             : ze_mock_event_unhold(c->event, queued, false);
    }
    if (c->kind == ZE_MOCK_CMD_QUERY_TIMESTAMPS) {
        for (uint32_t i = 0; i < c->u.query.count; i++) {
            hold ? ze_mock_event_hold(c->u.query.events[i], queued)
                 : ze_mock_event_unhold(c->u.query.events[i], queued, false);
        }
    }
}

bool ze_mock_cmd_keep(const ze_mock_cmd_t *c, ze_mock_cmd_t *out, bool queued) {
    bool ok = true;
    *out = *c;
    out->owned = true;
    out->queued = queued;
    out->wait = copy_array(c->wait, c->waits, sizeof(*c->wait), &ok);
    if (c->kind == ZE_MOCK_CMD_QUERY_TIMESTAMPS) {
        out->u.query.events = copy_array(c->u.query.events, c->u.query.count,
                                         sizeof(*c->u.query.events), &ok);
        out->u.query.offsets = copy_array(c->u.query.offsets, c->u.query.count,
                                          sizeof(*c->u.query.offsets), &ok);
    }
    if (!ok) {
        free(out->wait);
        if (c->kind == ZE_MOCK_CMD_QUERY_TIMESTAMPS) {
            free(out->u.query.events);
            free(out->u.query.offsets);
        }
        return false;
    }
    if (c->kind == ZE_MOCK_CMD_CALL) {
        c->u.call.ops->hold(c->u.call.arg);
    }
    hold_events(out, true, false);
    return true;
}

void ze_mock_cmd_drop(ze_mock_cmd_t *c, bool abandoned) {
    if (!c->owned) {
        return;
    }
    hold_events(c, false, abandoned);
    free(c->wait);
    if (c->kind == ZE_MOCK_CMD_CALL) {
        c->u.call.ops->release(c->u.call.arg);
    }
    if (c->kind == ZE_MOCK_CMD_QUERY_TIMESTAMPS) {
        free(c->u.query.events);
        free(c->u.query.offsets);
    }
    c->owned = false;
}

ze_result_t ze_mock_cmd_set_events(ze_mock_cmd_t *c, ze_event_handle_t hSignal,
                                   uint32_t numWait,
                                   ze_event_handle_t *phWait) {
    if (hSignal != NULL && (c->signal = ze_mock_event(hSignal)) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (numWait > 0 && phWait == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    for (uint32_t i = 0; i < numWait; i++) {
        if (ze_mock_event(phWait[i]) == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
    }
    c->waits = numWait;
    c->wait = (ze_mock_event_t **)phWait; // handles are the events
    return ZE_RESULT_SUCCESS;
}

// ---- Running commands -------------------------------------------------------

// The memory an owned command was given is still there: the same
// allocations, in bounds, with the access it needs.
static bool ranges_valid(const ze_mock_cmd_t *c) {
    for (size_t i = 0; i < 2; i++) {
        const ze_mock_range_t *r = &c->ranges[i];
        umf_mock_alloc_info_t info;
        if (r->known &&
            (umf_mock_range_check(r->ptr, r->size, c->device, r->use, c->call,
                                  i == 0 ? "destination" : "source",
                                  &info) != UMF_MOCK_OK ||
             info.id != r->id)) {
            return false;
        }
    }
    return true;
}

static void copy_region(const ze_mock_cmd_t *c) {
    for (size_t z = 0; z < c->u.region.depth; z++) {
        for (size_t y = 0; y < c->u.region.height; y++) {
            memmove(c->u.region.dst + z * c->u.region.dst_slice +
                        y * c->u.region.dst_pitch,
                    c->u.region.src + z * c->u.region.src_slice +
                        y * c->u.region.src_pitch,
                    c->u.region.width);
        }
    }
}

static void query_timestamps(const ze_mock_cmd_t *c) {
    for (uint32_t i = 0; i < c->u.query.count; i++) {
        ze_kernel_timestamp_result_t r;
        memset(&r, 0, sizeof(r));
        uint64_t start, end;
        // Undefined for an event not signalled: zeros here.
        if (ze_mock_event_timestamps(c->u.query.events[i], &start, &end)) {
            r.global.kernelStart = r.context.kernelStart = start;
            r.global.kernelEnd = r.context.kernelEnd = end;
        }
        size_t at =
            c->u.query.offsets != NULL ? c->u.query.offsets[i] : i * sizeof(r);
        memcpy(c->u.query.dst + at, &r, sizeof(r));
    }
}

// Runs a ready command (under the stream's lock). False when an owned
// command finds the memory it was given gone.
static bool run(ze_mock_stream_t *s, const ze_mock_cmd_t *c) {
    if (c->owned && !ranges_valid(c)) {
        UMF_MOCK_LOG_ERROR("%s: the memory the command was given is gone "
                           "when it runs: it is not run",
                           c->call);
        return false;
    }
    bool timed = c->signal != NULL && ze_mock_event_timestamped(c->signal);
    uint64_t start = timed ? ze_mock_timer_now() : 0;
    switch (c->kind) {
    case ZE_MOCK_CMD_COPY:
        memmove(c->u.copy.dst, c->u.copy.src, c->u.copy.size);
        break;
    case ZE_MOCK_CMD_COPY_REGION:
        copy_region(c);
        break;
    case ZE_MOCK_CMD_FILL:
        umf_mock_fill(c->u.fill.dst, c->u.fill.size, c->u.fill.pattern,
                      c->u.fill.pattern_size);
        break;
    case ZE_MOCK_CMD_RESET:
        ze_mock_event_reset(c->event);
        break;
    case ZE_MOCK_CMD_WRITE_TIMESTAMP: {
        uint64_t now = ze_mock_timer_now();
        memcpy(c->u.timestamp.dst, &now, sizeof(now));
        break;
    }
    case ZE_MOCK_CMD_QUERY_TIMESTAMPS:
        query_timestamps(c);
        break;
    case ZE_MOCK_CMD_FENCE:
        if (c->u.fence.fence != NULL) {
            c->u.fence.fence->signaled = true;
        }
        break;
    case ZE_MOCK_CMD_CALL:
        c->u.call.ops->run(c->u.call.arg, c->call);
        break;
    case ZE_MOCK_CMD_BARRIER:
        break;
    }
    (void)s;
    if (c->signal != NULL) {
        ze_mock_event_signal(c->signal, c->signal_gen, start,
                             timed ? ze_mock_timer_now() : 0);
    }
    return true;
}

// The first event the command waits for that is not signalled, or NULL.
static ze_mock_event_t *blocker_of(const ze_mock_cmd_t *c) {
    for (uint32_t i = 0; i < c->waits; i++) {
        if (!ze_mock_event_signaled(c->wait[i])) {
            return c->wait[i];
        }
    }
    return NULL;
}

// Drops every pending command of `s` unrun (under its lock); returns how
// many.
static size_t drop_pending(ze_mock_stream_t *s) {
    size_t n = 0;
    while (s->head != NULL) {
        pending_t *p = s->head;
        s->head = p->next;
        if (p->cmd.kind == ZE_MOCK_CMD_FENCE && p->cmd.u.fence.fence != NULL) {
            p->cmd.u.fence.fence->abandoned = true;
        }
        ze_mock_cmd_drop(&p->cmd, true);
        free(p);
        n++;
    }
    s->tail = NULL;
    s->finished += n;
    return n;
}

// The stream's work cannot go on: what waits is dropped, and the stream
// refuses more (under its lock).
static void lose(ze_mock_stream_t *s, const char *why) {
    const char *call = s->head != NULL ? s->head->cmd.call : "a command";
    size_t n = drop_pending(s);
    UMF_MOCK_LOG_ERROR("%s on a command queue or immediate command list %s: "
                       "it and what was submitted after it (%zu commands) "
                       "never run, and the queue or list answers "
                       "ZE_RESULT_ERROR_DEVICE_LOST from now on",
                       call, why, n);
    s->lost = true;
    pthread_cond_broadcast(&s->cond);
}

typedef enum advance_t {
    ADVANCE_DONE,    // nothing pending
    ADVANCE_BLOCKED, // the head waits for an event of this process
    ADVANCE_SLOT,    // ... of a shared pool: *slot
} advance_t;

// Runs the stream's pending commands while they are ready (under its
// lock); *progress when one ran or was dropped.
static advance_t advance(ze_mock_stream_t *s, bool *progress,
                         umf_mock_event_ref_t *slot) {
    while (!s->closed && s->head != NULL) {
        pending_t *p = s->head;
        ze_mock_event_t *blocker = blocker_of(&p->cmd);
        if (blocker != NULL) {
            if (ze_mock_event_dead(blocker)) {
                lose(s, "waits for an event that was destroyed, or that "
                        "nothing can signal any more");
                *progress = true;
                continue;
            }
            return ze_mock_event_slot(blocker, slot) ? ADVANCE_SLOT
                                                     : ADVANCE_BLOCKED;
        }
        s->head = p->next;
        if (s->head == NULL) {
            s->tail = NULL;
        }
        bool ok = run(s, &p->cmd);
        ze_mock_cmd_drop(&p->cmd, !ok);
        free(p);
        s->finished++;
        *progress = true;
        pthread_cond_broadcast(&s->cond);
        if (!ok) {
            lose(s, "found its memory freed");
        }
    }
    return ADVANCE_DONE;
}

// Grows an array of `*cap` elements of `size` bytes to hold `need`.
static bool grow(void **array, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) {
        return true;
    }
    size_t n = *cap ? 2 * *cap : 16;
    while (n < need) {
        n *= 2;
    }
    void *a = realloc(*array, n * size);
    if (a == NULL) {
        return false;
    }
    *array = a;
    *cap = n;
    return true;
}

static void *engine_main(void *arg) {
    (void)arg;
    ze_mock_stream_t **mine = NULL;
    size_t count = 0, cap = 0;
    umf_mock_event_ref_t *slots = NULL;
    size_t slot_cap = 0;
    for (;;) {
        uint32_t seen = ze_mock_bell_watch();
        pthread_mutex_lock(&eng.lock);
        bool stop = eng.stop;
        if (!stop && grow((void **)&mine, &cap, count + eng.inbox_count,
                          sizeof(*mine))) {
            memcpy(mine + count, eng.inbox, eng.inbox_count * sizeof(*mine));
            count += eng.inbox_count;
            eng.inbox_count = 0;
        }
        pthread_mutex_unlock(&eng.lock);
        if (stop) {
            break;
        }
        bool progress = false;
        size_t watched = 0;
        for (size_t i = 0; i < count;) {
            ze_mock_stream_t *s = mine[i];
            umf_mock_event_ref_t slot;
            pthread_mutex_lock(&s->lock);
            advance_t a = advance(s, &progress, &slot);
            if (a == ADVANCE_DONE) {
                s->served = 0;
            }
            pthread_mutex_unlock(&s->lock);
            if (a == ADVANCE_DONE) {
                mine[i] = mine[--count];
                ze_mock_stream_unref(s);
                continue;
            }
            if (a == ADVANCE_SLOT &&
                grow((void **)&slots, &slot_cap, watched + 1, sizeof(*slots))) {
                slots[watched++] = slot;
            }
            i++;
        }
        if (progress) {
            continue;
        }
        if (count == 0) {
            ze_mock_bell_unwatch();
        }
        ze_mock_bell_sleep(seen, slots, watched);
    }
    for (size_t i = 0; i < count; i++) {
        pthread_mutex_lock(&mine[i]->lock);
        mine[i]->served = 0;
        pthread_mutex_unlock(&mine[i]->lock);
        ze_mock_stream_unref(mine[i]);
    }
    free(mine);
    free(slots);
    return NULL;
}

// ---- Streams ----------------------------------------------------------------

ze_mock_stream_t *ze_mock_stream_new(int device, bool sync) {
    ze_mock_stream_t *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->refs, 1);
    s->device = device;
    s->sync = sync;
    return s;
}

void ze_mock_stream_ref(ze_mock_stream_t *s) {
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

int ze_mock_stream_device(const ze_mock_stream_t *s) {
    return s->device;
}

void ze_mock_stream_unref(ze_mock_stream_t *s) {
    if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    drop_pending(s);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

// In a fork child: a stream with pending commands that the parent's
// thread served goes to the child's (under its lock).
static void kick(ze_mock_stream_t *s) {
    if (s->head != NULL &&
        s->served != atomic_load_explicit(&generation, memory_order_relaxed)) {
        serve(s);
    }
}

static struct timespec deadline_after(uint64_t ns) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t sec = ns / 1000000000u;
    ts.tv_sec += sec > (uint64_t)INT32_MAX ? INT32_MAX : (time_t)sec;
    ts.tv_nsec += (long)(ns % 1000000000u);
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    return ts;
}

// What a synchronizer waits for, asked under the stream's lock.
typedef bool (*done_fn)(const ze_mock_stream_t *s, const void *arg);

static bool all_finished(const ze_mock_stream_t *s, const void *target) {
    return s->finished >= *(const uint64_t *)target;
}

static bool fence_signaled(const ze_mock_stream_t *s, const void *fence) {
    (void)s;
    return ((const ze_mock_fence_t *)fence)->signaled;
}

// Waits (under the lock) until done(s, arg), at most `timeout_ns`
// (UINT64_MAX: without limit), or until what it waits for can never come:
// SUCCESS, NOT_READY (the timeout; a loss with a finite one), DEVICE_LOST
// (a loss without limit). `never`: it can never come already. A fence that
// was signalled is, whatever happened to the stream after; the stream's
// own work is complete only if none of it was lost.
static ze_result_t synchronize(ze_mock_stream_t *s, done_fn done,
                               const void *arg, bool never,
                               uint64_t timeout_ns) {
    bool whole = done == all_finished;
    kick(s);
    bool limited = timeout_ns != UINT64_MAX;
    struct timespec deadline = deadline_after(limited ? timeout_ns : 0);
    bool ended = never || timeout_ns == 0;
    while (!done(s, arg) && !s->lost && !s->closed && !ended) {
        ended = (limited ? pthread_cond_timedwait(&s->cond, &s->lock, &deadline)
                         : pthread_cond_wait(&s->cond, &s->lock)) == ETIMEDOUT;
    }
    if (done(s, arg) && !(whole && s->lost)) {
        return ZE_RESULT_SUCCESS;
    }
    if (s->lost || s->closed || never) {
        umf_mock_failure_explain("the work waited for was dropped: a command "
                                 "of this queue or list waited for an event "
                                 "nothing can signal any more, or found its "
                                 "memory freed");
        return limited ? ZE_RESULT_NOT_READY
                       : ZE_MOCK_FAIL(ZE_RESULT_ERROR_DEVICE_LOST);
    }
    return ZE_RESULT_NOT_READY;
}

// Queues an owned copy of `c` (under the lock).
static bool enqueue(ze_mock_stream_t *s, const ze_mock_cmd_t *c) {
    pending_t *p = malloc(sizeof(*p));
    if (p == NULL || !ze_mock_cmd_keep(c, &p->cmd, true)) {
        free(p);
        return false;
    }
    p->next = NULL;
    if (s->tail != NULL) {
        s->tail->next = p;
    } else {
        s->head = p;
    }
    s->tail = p;
    return true;
}

// Runs `c` now if it can, else queues it (under the lock).
static ze_result_t submit_one(ze_mock_stream_t *s, const ze_mock_cmd_t *cmd) {
    ze_mock_cmd_t armed = *cmd; // this submission of it
    const ze_mock_cmd_t *c = &armed;
    if (armed.signal != NULL) {
        armed.signal_gen = ze_mock_event_arm(armed.signal);
    }
    if (s->head == NULL && blocker_of(c) == NULL) {
        s->submitted++;
        s->finished++;
        if (!run(s, c)) {
            lose(s, "found its memory freed");
            umf_mock_failure_explain("%s: the memory of a recorded command "
                                     "was freed",
                                     c->call);
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_DEVICE_LOST);
        }
        return ZE_RESULT_SUCCESS;
    }
    if (!enqueue(s, c)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    s->submitted++;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ze_mock_stream_submit(ze_mock_stream_t *s,
                                  const ze_mock_cmd_t *const *groups,
                                  const size_t *counts, size_t ngroups,
                                  ze_mock_fence_t *fence) {
    pthread_mutex_lock(&s->lock);
    if (s->lost) {
        pthread_mutex_unlock(&s->lock);
        umf_mock_failure_explain("commands of this queue or list were lost "
                                 "before: it takes no more");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_DEVICE_LOST);
    }
    ze_result_t r = ZE_RESULT_SUCCESS;
    uint64_t finished = s->finished;
    for (size_t g = 0; g < ngroups && r == ZE_RESULT_SUCCESS; g++) {
        for (size_t i = 0; i < counts[g] && r == ZE_RESULT_SUCCESS; i++) {
            r = submit_one(s, &groups[g][i]);
        }
    }
    if (r == ZE_RESULT_SUCCESS && fence != NULL) {
        ze_mock_cmd_t c = {.kind = ZE_MOCK_CMD_FENCE,
                           .call = "zeCommandQueueExecuteCommandLists",
                           .u.fence.fence = fence};
        r = submit_one(s, &c);
    }
    if (s->finished != finished) {
        pthread_cond_broadcast(&s->cond);
    }
    if (s->head != NULL) {
        serve(s);
    }
    if (r == ZE_RESULT_SUCCESS && s->sync) {
        // Synchronous mode: the caller waits for its work, as on a GPU.
        uint64_t target = s->submitted;
        r = synchronize(s, all_finished, &target, false, UINT64_MAX);
    }
    pthread_mutex_unlock(&s->lock);
    return r;
}

ze_result_t ze_mock_stream_synchronize(ze_mock_stream_t *s,
                                       uint64_t timeout_ns) {
    pthread_mutex_lock(&s->lock);
    uint64_t target = s->submitted;
    ze_result_t r = synchronize(s, all_finished, &target, false, timeout_ns);
    pthread_mutex_unlock(&s->lock);
    return r;
}

size_t ze_mock_stream_clear(ze_mock_stream_t *s, bool close) {
    pthread_mutex_lock(&s->lock);
    size_t n = drop_pending(s);
    s->lost = false;
    s->closed = s->closed || close;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    if (n > 0) {
        ze_mock_bell_ring(); // the driver's thread lets go of the stream
    }
    return n;
}

// ---- Fences -----------------------------------------------------------------

void ze_mock_fence_set(ze_mock_fence_t *f, bool signaled) {
    pthread_mutex_lock(&f->stream->lock);
    f->signaled = signaled;
    f->abandoned = false;
    pthread_mutex_unlock(&f->stream->lock);
}

ze_result_t ze_mock_fence_wait(ze_mock_fence_t *f, uint64_t timeout_ns) {
    ze_mock_stream_t *s = f->stream;
    pthread_mutex_lock(&s->lock);
    ze_result_t r = synchronize(s, fence_signaled, f, f->abandoned, timeout_ns);
    pthread_mutex_unlock(&s->lock);
    return r;
}

void ze_mock_fence_forget(ze_mock_fence_t *f) {
    pthread_mutex_lock(&f->stream->lock);
    for (pending_t *p = f->stream->head; p != NULL; p = p->next) {
        if (p->cmd.kind == ZE_MOCK_CMD_FENCE && p->cmd.u.fence.fence == f) {
            p->cmd.u.fence.fence = NULL;
        }
    }
    pthread_mutex_unlock(&f->stream->lock);
}
