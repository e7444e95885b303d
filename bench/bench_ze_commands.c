// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Measurements of the Level Zero driver's commands, no provider involved:
// - fill_<P>B: zeCommandListAppendMemoryFill of 4 MiB of device memory
//   with a pattern of P = 1, 4 and 16 bytes, on a synchronous in-order
//   immediate list (the call returns when the fill is done), per fill
//   (bytes per second = 4 MiB / the time);
// - copy_immediate_<S>: zeCommandListAppendMemoryCopy of S = 64 B and
//   4 MiB (device to device) on that list, per copy;
// - copy_queue_<S>: the same copy recorded once in a regular list, then
//   zeCommandQueueExecuteCommandLists and zeCommandQueueSynchronize, per
//   copy;
// - fill_alone / fresh_alloc_fill_free: a 1-byte fill of 100 MiB of an
//   existing allocation on that list, against zeMemAllocDevice +
//   the same fill + zeMemFree of 100 MiB; ratio: fresh / alone;
// - deferred_signal_to_run: a command that waits for an event, appended
//   first; the time from just before zeEventHostSignal to when the driver
//   runs it (it writes the global timestamp: the device's clock, which
//   zeDeviceGetGlobalTimestamps also reads), on an asynchronous in-order
//   immediate list; wall time, per signal;
// - deferred_round_trip: the same, to when zeEventHostSynchronize of the
//   event the command signals returns in the signalling thread.
// A driver without the entry points skips the measurement, saying so.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef UMF_GPU_BENCH_HAVE_LEVEL_ZERO

#include <level_zero/ze_api.h>

#define BIG (4u << 20)
#define SMALL 64u
// Operations per repetition (4 MiB ones: a tenth).
#define CALLS_QUICK 64
#define CALLS_FULL 512
#define IN_ORDER (1u << 1) // ZE_COMMAND_QUEUE_FLAG_IN_ORDER (1.7)

typedef struct fns_t {
    __typeof__(zeMemAllocDevice) *alloc;
    __typeof__(zeMemFree) *mem_free;
    __typeof__(zeCommandListCreateImmediate) *create_immediate;
    __typeof__(zeCommandListCreate) *create_list;
    __typeof__(zeCommandListClose) *close;
    __typeof__(zeCommandListDestroy) *destroy_list;
    __typeof__(zeCommandQueueCreate) *create_queue;
    __typeof__(zeCommandQueueDestroy) *destroy_queue;
    __typeof__(zeCommandQueueExecuteCommandLists) *execute;
    __typeof__(zeCommandQueueSynchronize) *queue_sync;
    __typeof__(zeCommandListAppendMemoryCopy) *copy;
    __typeof__(zeCommandListAppendMemoryFill) *fill;
    __typeof__(zeCommandListAppendWriteGlobalTimestamp) *write_ts;
    __typeof__(zeDeviceGetGlobalTimestamps) *global_ts;
    __typeof__(zeEventPoolCreate) *pool_create;
    __typeof__(zeEventPoolDestroy) *pool_destroy;
    __typeof__(zeEventCreate) *event_create;
    __typeof__(zeEventDestroy) *event_destroy;
    __typeof__(zeEventHostSignal) *signal;
    __typeof__(zeEventHostReset) *reset;
    __typeof__(zeEventHostSynchronize) *event_sync;
} fns_t;

typedef struct ctx_t {
    const bench_options_t *o;
    const fns_t *f;
    ze_context_handle_t ctx;
    ze_device_handle_t dev;
    const char *mode;
    unsigned calls;
    ze_command_list_handle_t imm;   // immediate, in order, synchronous
    ze_command_list_handle_t async; // immediate, in order, asynchronous
    void *a, *b;                    // BIG bytes of device memory each
} ctx_t;

static bool resolve(void *lib, fns_t *f) {
    const bench_symbol_t syms[] = {
        {"zeMemAllocDevice", (void **)&f->alloc},
        {"zeMemFree", (void **)&f->mem_free},
        {"zeCommandListCreateImmediate", (void **)&f->create_immediate},
        {"zeCommandListCreate", (void **)&f->create_list},
        {"zeCommandListClose", (void **)&f->close},
        {"zeCommandListDestroy", (void **)&f->destroy_list},
        {"zeCommandQueueCreate", (void **)&f->create_queue},
        {"zeCommandQueueDestroy", (void **)&f->destroy_queue},
        {"zeCommandQueueExecuteCommandLists", (void **)&f->execute},
        {"zeCommandQueueSynchronize", (void **)&f->queue_sync},
        {"zeCommandListAppendMemoryCopy", (void **)&f->copy},
        {"zeCommandListAppendMemoryFill", (void **)&f->fill},
        {"zeCommandListAppendWriteGlobalTimestamp", (void **)&f->write_ts},
        {"zeDeviceGetGlobalTimestamps", (void **)&f->global_ts},
        {"zeEventPoolCreate", (void **)&f->pool_create},
        {"zeEventPoolDestroy", (void **)&f->pool_destroy},
        {"zeEventCreate", (void **)&f->event_create},
        {"zeEventDestroy", (void **)&f->event_destroy},
        {"zeEventHostSignal", (void **)&f->signal},
        {"zeEventHostReset", (void **)&f->reset},
        {"zeEventHostSynchronize", (void **)&f->event_sync},
    };
    return bench_resolve(lib, syms, sizeof(syms) / sizeof(syms[0]), "ze");
}

static ze_command_queue_desc_t queue_desc(uint32_t flags,
                                          ze_command_queue_mode_t mode) {
    ze_command_queue_desc_t d = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, flags, mode,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    return d;
}

// An in-order immediate list where the driver knows the flag (1.7 and
// later), else one without it.
static ze_result_t immediate(const ctx_t *c, ze_command_queue_mode_t mode,
                             ze_command_list_handle_t *l) {
    ze_command_queue_desc_t qd = queue_desc(IN_ORDER, mode);
    ze_result_t r = c->f->create_immediate(c->ctx, c->dev, &qd, l);
    if (r == ZE_RESULT_ERROR_INVALID_ENUMERATION) {
        qd = queue_desc(0, mode);
        r = c->f->create_immediate(c->ctx, c->dev, &qd, l);
    }
    return r;
}

static void report(const ctx_t *c, const char *name, long long size,
                   double *samples, bool tail) {
    bench_result_t r;
    bench_result_init(&r, name, "ze", c->mode, size, 1, 0);
    if (tail) {
        bench_summarize_tail(&r, samples, c->o->reps);
    } else {
        bench_summarize(&r, samples, c->o->reps);
    }
    if (size > 0 && r.median_ns > 0) {
        r.throughput = 1e9 / r.median_ns; // operations per second
    }
    bench_write_result(&r);
}

// An operation measured `calls` times per repetition.
typedef ze_result_t (*op_fn)(const ctx_t *c, void *arg);

static bool measure(const ctx_t *c, const char *name, long long size,
                    unsigned calls, op_fn op, void *arg) {
    double samples[BENCH_MAX_REPS];
    for (unsigned rep = 0; rep < c->o->warmup + c->o->reps; rep++) {
        double t0 = bench_now(c->o->clock);
        for (unsigned i = 0; i < calls; i++) {
            ze_result_t r = op(c, arg);
            if (r != ZE_RESULT_SUCCESS) {
                bench_fail("ze", "%s: 0x%x", name, (unsigned)r);
                return false;
            }
        }
        if (rep >= c->o->warmup) {
            samples[rep - c->o->warmup] = (bench_now(c->o->clock) - t0) / calls;
        }
    }
    report(c, name, size, samples, false);
    return true;
}

// ---- Fills and copies ------------------------------------------------------

static ze_result_t fill_op(const ctx_t *c, void *arg) {
    size_t pattern_size = *(const size_t *)arg;
    static const unsigned char pattern[16] = {1, 2,  3,  4,  5,  6,  7,  8,
                                              9, 10, 11, 12, 13, 14, 15, 16};
    return c->f->fill(c->imm, c->a, pattern, pattern_size, BIG, NULL, 0, NULL);
}

static ze_result_t copy_immediate_op(const ctx_t *c, void *arg) {
    return c->f->copy(c->imm, c->b, c->a, *(const size_t *)arg, NULL, 0, NULL);
}

typedef struct queued_t {
    ze_command_queue_handle_t q;
    ze_command_list_handle_t l;
} queued_t;

static ze_result_t copy_queue_op(const ctx_t *c, void *arg) {
    queued_t *qd = arg;
    ze_result_t r = c->f->execute(qd->q, 1, &qd->l, NULL);
    return r != ZE_RESULT_SUCCESS ? r : c->f->queue_sync(qd->q, UINT64_MAX);
}

static bool measure_copies(const ctx_t *c) {
    static const size_t patterns[] = {1, 4, 16};
    static const char *const fill_names[] = {"fill_1B", "fill_4B", "fill_16B"};
    unsigned big_calls = c->calls / 10 ? c->calls / 10 : 1;
    for (size_t i = 0; i < 3; i++) {
        size_t p = patterns[i];
        if (!measure(c, fill_names[i], BIG, big_calls, fill_op, &p)) {
            return false;
        }
    }
    static const size_t sizes[] = {SMALL, BIG};
    static const char *const imm_names[] = {"copy_immediate_64B",
                                            "copy_immediate_4MiB"};
    static const char *const queue_names[] = {"copy_queue_64B",
                                              "copy_queue_4MiB"};
    for (size_t i = 0; i < 2; i++) {
        size_t size = sizes[i];
        unsigned calls = size == BIG ? big_calls : c->calls;
        if (!measure(c, imm_names[i], (long long)size, calls, copy_immediate_op,
                     &size)) {
            return false;
        }
        ze_command_queue_desc_t qd =
            queue_desc(0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
        ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL,
                                     0, 0};
        queued_t q = {NULL, NULL};
        ze_result_t r = c->f->create_queue(c->ctx, c->dev, &qd, &q.q);
        if (r == ZE_RESULT_SUCCESS) {
            r = c->f->create_list(c->ctx, c->dev, &ld, &q.l);
        }
        if (r == ZE_RESULT_SUCCESS) {
            r = c->f->copy(q.l, c->b, c->a, size, NULL, 0, NULL);
        }
        if (r == ZE_RESULT_SUCCESS) {
            r = c->f->close(q.l);
        }
        bool ok = r == ZE_RESULT_SUCCESS &&
                  measure(c, queue_names[i], (long long)size, calls,
                          copy_queue_op, &q);
        if (r != ZE_RESULT_SUCCESS) {
            bench_fail("ze", "a queue and a list for %s: 0x%x", queue_names[i],
                       (unsigned)r);
        }
        if (q.l != NULL) {
            c->f->destroy_list(q.l);
        }
        if (q.q != NULL) {
            c->f->destroy_queue(q.q);
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

// ---- Fresh allocations ----------------------------------------------------

#define FRESH_SIZE ((size_t)100 << 20)

static ze_result_t fill_alone_op(const ctx_t *c, void *arg) {
    static const unsigned char pattern = 0x5a;
    return c->f->fill(c->imm, arg, &pattern, 1, FRESH_SIZE, NULL, 0, NULL);
}

static ze_result_t fresh_op(const ctx_t *c, void *arg) {
    (void)arg;
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *p = NULL;
    ze_result_t r = c->f->alloc(c->ctx, &dd, FRESH_SIZE, 0, c->dev, &p);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    r = fill_alone_op(c, p);
    ze_result_t freed = c->f->mem_free(c->ctx, p);
    return r != ZE_RESULT_SUCCESS ? r : freed;
}

// One result of `name` (one operation per repetition), with its ratio
// against `base` where given.
static bool measure_one(const ctx_t *c, const char *name, op_fn op, void *arg,
                        const bench_result_t *base, bench_result_t *out) {
    double samples[BENCH_MAX_REPS];
    for (unsigned rep = 0; rep < c->o->warmup + c->o->reps; rep++) {
        double t0 = bench_now(c->o->clock);
        ze_result_t r = op(c, arg);
        if (r != ZE_RESULT_SUCCESS) {
            bench_fail("ze", "%s: 0x%x", name, (unsigned)r);
            return false;
        }
        if (rep >= c->o->warmup) {
            samples[rep - c->o->warmup] = bench_now(c->o->clock) - t0;
        }
    }
    bench_result_init(out, name, "ze", c->mode, (long long)FRESH_SIZE, 1, 0);
    bench_summarize(out, samples, c->o->reps);
    if (base != NULL) {
        out->ratio = out->median_ns / base->median_ns;
    }
    bench_write_result(out);
    return true;
}

// The fill alone on an allocation of its own, freed before the fresh ones
// (which can then take its place).
static bool measure_fresh(const ctx_t *c) {
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *p = NULL;
    ze_result_t r = c->f->alloc(c->ctx, &dd, FRESH_SIZE, 0, c->dev, &p);
    if (r != ZE_RESULT_SUCCESS) {
        bench_fail("ze", "%zu bytes of device memory for fill_alone: 0x%x",
                   FRESH_SIZE, (unsigned)r);
        return false;
    }
    bench_result_t base, fresh;
    bool ok = measure_one(c, "fill_alone", fill_alone_op, p, NULL, &base);
    ok = c->f->mem_free(c->ctx, p) == ZE_RESULT_SUCCESS && ok;
    return ok && measure_one(c, "fresh_alloc_fill_free", fresh_op, NULL, &base,
                             &fresh);
}

// ---- Deferred commands -----------------------------------------------------

// One signal: appends a timestamp write that waits for `go` and signals
// `done`, signals `go`, waits for `done`; the two latencies, in ns.
static bool one_signal(const ctx_t *c, ze_event_handle_t go,
                       ze_event_handle_t done, uint64_t *stamp, double *run_ns,
                       double *round_ns) {
    const fns_t *f = c->f;
    if (f->reset(go) != ZE_RESULT_SUCCESS ||
        f->reset(done) != ZE_RESULT_SUCCESS ||
        f->write_ts(c->async, stamp, done, 1, &go) != ZE_RESULT_SUCCESS) {
        return false;
    }
    uint64_t host = 0, before = 0, written = 0;
    double t0 = bench_now(BENCH_CLOCK_WALL);
    if (f->global_ts(c->dev, &host, &before) != ZE_RESULT_SUCCESS ||
        f->signal(go) != ZE_RESULT_SUCCESS ||
        f->event_sync(done, UINT64_MAX) != ZE_RESULT_SUCCESS) {
        return false;
    }
    *round_ns = bench_now(BENCH_CLOCK_WALL) - t0;
    // The timestamp went to device memory: read it with a copy.
    if (f->copy(c->imm, &written, stamp, sizeof(written), NULL, 0, NULL) !=
        ZE_RESULT_SUCCESS) {
        return false;
    }
    *run_ns = written >= before ? (double)(written - before) : 0.0;
    return true;
}

static bool measure_deferred(const ctx_t *c) {
    const fns_t *f = c->f;
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_event_pool_handle_t pool = NULL;
    ze_event_handle_t ev[2] = {NULL, NULL};
    ze_result_t r = f->pool_create(c->ctx, &pd, 0, NULL, &pool);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && i < 2; i++) {
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i,
                              ZE_EVENT_SCOPE_FLAG_HOST,
                              ZE_EVENT_SCOPE_FLAG_HOST};
        r = f->event_create(pool, &ed, &ev[i]);
    }
    bool ok = r == ZE_RESULT_SUCCESS;
    double run[BENCH_MAX_REPS], round[BENCH_MAX_REPS];
    for (unsigned rep = 0; ok && rep < c->o->warmup + c->o->reps; rep++) {
        double run_ns, round_ns;
        ok = one_signal(c, ev[0], ev[1], (uint64_t *)c->b, &run_ns, &round_ns);
        if (ok && rep >= c->o->warmup) {
            run[rep - c->o->warmup] = run_ns;
            round[rep - c->o->warmup] = round_ns;
        }
    }
    if (!ok) {
        bench_fail("ze", "a command that waits for a host signal failed");
    }
    for (int i = 0; i < 2; i++) {
        if (ev[i] != NULL) {
            f->event_destroy(ev[i]);
        }
    }
    if (pool != NULL) {
        f->pool_destroy(pool);
    }
    if (ok) {
        report(c, "deferred_signal_to_run", -1, run, true);
        report(c, "deferred_round_trip", -1, round, true);
    }
    return ok;
}

static bool run_ze_commands(const bench_run_t *run) {
    void *lib, *context, *device;
    if (run->backend != &bench_backend_ze ||
        !bench_ze_driver_handles(run->driver, &lib, &context, &device)) {
        return true; // not a Level Zero run
    }
    fns_t f;
    if (!resolve(lib, &f)) {
        return false;
    }
    const bench_options_t *o = run->o;
    ctx_t c = {o,
               &f,
               (ze_context_handle_t)context,
               (ze_device_handle_t)device,
               run->mode,
               o->quick ? CALLS_QUICK : CALLS_FULL,
               NULL,
               NULL,
               NULL,
               NULL};
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    ze_result_t r = immediate(&c, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, &c.imm);
    if (r == ZE_RESULT_SUCCESS) {
        r = immediate(&c, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, &c.async);
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = f.alloc(c.ctx, &dd, BIG, 0, c.dev, &c.a);
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = f.alloc(c.ctx, &dd, BIG, 0, c.dev, &c.b);
    }
    bool ok = r == ZE_RESULT_SUCCESS;
    if (!ok) {
        bench_fail("ze", "an immediate list and device memory: 0x%x",
                   (unsigned)r);
    }
    ok = ok && measure_copies(&c) && measure_fresh(&c) && measure_deferred(&c);
    if (c.a != NULL) {
        f.mem_free(c.ctx, c.a);
    }
    if (c.b != NULL) {
        f.mem_free(c.ctx, c.b);
    }
    if (c.imm != NULL) {
        f.destroy_list(c.imm);
    }
    if (c.async != NULL) {
        f.destroy_list(c.async);
    }
    return ok;
}

#else // a build without the Level Zero headers

static bool run_ze_commands(const bench_run_t *run) {
    (void)run;
    return true;
}

#endif

const bench_measure_t bench_measure_ze_commands = {
    .name = "Level Zero commands",
    .modes = BENCH_MODE_FULL,
    .run = run_ze_commands,
};
