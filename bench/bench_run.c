// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A run child: every measurement of one provider in one memory mode.
//
// Paired measurements (provider against raw driver) alternate the two sides
// repetition by repetition, swapping which goes first, so that a slow spell
// of the machine hits both alike; each repetition is a batch of alloc+free
// pairs sized to take about the target time. With several threads, every
// thread runs the same side at once between two barriers, and a repetition's
// sample is the mean of the threads' per-pair times. Allocations are made
// and freed in the measuring loop itself: nothing of ours sits between the
// caller and the provider.

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

// An allocation no device has: every driver refuses it with its
// out-of-memory error, which the provider keeps as the native error.
#define IMPOSSIBLE_SIZE ((size_t)1 << 44)

static const size_t pair_sizes[] = {64, 4096, 2u << 20};
#define SCALE_SIZE 64

void bench_fail(const char *provider, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "umf-gpu-bench: %s: ", provider);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

bool bench_resolve(void *lib, const bench_symbol_t *syms, size_t n,
                   const char *provider) {
    for (size_t i = 0; i < n; i++) {
        if ((*syms[i].fn = dlsym(lib, syms[i].name)) == NULL) {
            bench_fail(provider, "the driver has no %s", syms[i].name);
            return false;
        }
    }
    return true;
}

// ---- Batches: what one thread runs n times in a repetition ---------------

bool bench_provider_pairs(void *arg, long n) {
    bench_pair_arg_t *a = arg;
    for (long i = 0; i < n; i++) {
        void *ptr = NULL;
        umf_result_t ret =
            umfMemoryProviderAlloc(a->provider, a->size, 0, &ptr);
        if (ret == UMF_RESULT_SUCCESS) {
            ret = umfMemoryProviderFree(a->provider, ptr, a->size);
        }
        if (ret != UMF_RESULT_SUCCESS) {
            a->error = ret;
            return false;
        }
    }
    return true;
}

static bool raw_pairs(void *arg, long n) {
    bench_pair_arg_t *a = arg;
    return a->backend->raw_pairs(a->driver, a->size, n);
}

typedef struct native_error_arg_t {
    umf_memory_provider_handle_t provider;
    bool primed;      // this thread has its failure
    int32_t expected; // the native code of that failure
    umf_result_t error;
} native_error_arg_t;

// The first call makes an allocation fail in the calling thread; every call
// then reads the native error n times.
static bool native_error_reads(void *arg, long n) {
    native_error_arg_t *a = arg;
    const char *message = NULL;
    int32_t code = 0;
    if (!a->primed) {
        void *ptr = NULL;
        umf_result_t ret =
            umfMemoryProviderAlloc(a->provider, IMPOSSIBLE_SIZE, 0, &ptr);
        if (ret == UMF_RESULT_SUCCESS) {
            (void)umfMemoryProviderFree(a->provider, ptr, IMPOSSIBLE_SIZE);
            return false;
        }
        umfMemoryProviderGetLastNativeError(a->provider, &message, &code);
        // Out of device memory is MEMORY_PROVIDER_SPECIFIC on the emulated
        // drivers; a real driver may refuse the size otherwise, and the
        // native error is kept for every failure.
        if (code == 0 || message == NULL || message[0] == '\0') {
            a->error = ret;
            return false;
        }
        a->expected = code;
        a->primed = true;
    }
    bool same = true;
    for (long i = 0; i < n; i++) {
        umfMemoryProviderGetLastNativeError(a->provider, &message, &code);
        same &= code == a->expected;
    }
    return same;
}

// ---- The team: threads that run batches in lockstep ----------------------

typedef struct team_side_t {
    bench_batch_fn fn;
    void *arg[BENCH_MAX_THREADS];
} team_side_t;

typedef struct team_t {
    const bench_options_t *o;
    const bench_backend_t *backend;
    bench_driver_t *driver;
    unsigned threads;
    unsigned sides; // 1, or 2 for a paired measurement
    team_side_t side[2];
    long n; // batch size
    pthread_barrier_t barrier;
    // The start gate: threads wait here until every thread exists (go = 1)
    // or one could not be made (go = -1), so that none waits forever at a
    // barrier that counts a thread that is missing.
    pthread_mutex_t gate_lock;
    pthread_cond_t gate;
    int go;
    atomic_bool failed;
    double cpu[2][BENCH_MAX_THREADS][BENCH_MAX_REPS];
    double wall[2][BENCH_MAX_REPS];
} team_t;

typedef struct team_member_t {
    team_t *team;
    unsigned index;
} team_member_t;

static void team_body(team_t *t, unsigned i) {
    unsigned total = t->o->warmup + t->o->reps;
    for (unsigned r = 0; r < total; r++) {
        for (unsigned s = 0; s < t->sides; s++) {
            unsigned k = t->sides == 2 ? s ^ (r & 1u) : 0;
            pthread_barrier_wait(&t->barrier);
            // Set only inside a batch, so every thread reads the same here.
            if (atomic_load_explicit(&t->failed, memory_order_relaxed)) {
                return;
            }
            double w0 = i == 0 ? bench_now(BENCH_CLOCK_WALL) : 0;
            double c0 = bench_now(t->o->clock);
            bool ok = t->side[k].fn(t->side[k].arg[i], t->n);
            double c1 = bench_now(t->o->clock);
            if (!ok) {
                atomic_store_explicit(&t->failed, true, memory_order_relaxed);
            }
            pthread_barrier_wait(&t->barrier);
            if (i == 0) {
                t->wall[k][r] = bench_now(BENCH_CLOCK_WALL) - w0;
            }
            t->cpu[k][i][r] = c1 - c0;
        }
    }
}

static void *team_thread(void *arg) {
    team_member_t *m = arg;
    team_t *t = m->team;
    pthread_mutex_lock(&t->gate_lock);
    while (t->go == 0) {
        pthread_cond_wait(&t->gate, &t->gate_lock);
    }
    int go = t->go;
    pthread_mutex_unlock(&t->gate_lock);
    if (go < 0) {
        return NULL;
    }
    if (!t->backend->thread_enter(t->driver)) {
        atomic_store_explicit(&t->failed, true, memory_order_relaxed);
    }
    team_body(t, m->index);
    return NULL;
}

static void team_open_gate(team_t *t, int go) {
    pthread_mutex_lock(&t->gate_lock);
    t->go = go;
    pthread_cond_broadcast(&t->gate);
    pthread_mutex_unlock(&t->gate_lock);
}

// Chooses the batch size: the slower side's time per operation, from
// batches that grow until one takes a tenth of a repetition.
static bool team_calibrate(team_t *t) {
    double per_op = 0;
    for (unsigned k = 0; k < t->sides; k++) {
        long n = 1;
        for (;;) {
            double c0 = bench_now(t->o->clock);
            if (!t->side[k].fn(t->side[k].arg[0], n)) {
                return false;
            }
            double elapsed = bench_now(t->o->clock) - c0;
            if (elapsed >= t->o->rep_ns / 10 || n >= (1L << 24)) {
                double op = elapsed / (double)n;
                per_op = op > per_op ? op : per_op;
                break;
            }
            n *= 2;
        }
    }
    double n = per_op > 0 ? t->o->rep_ns / per_op : 1;
    t->n = n < 1 ? 1 : n > (double)(1L << 26) ? (1L << 26) : (long)n;
    return true;
}

// Runs the team: warm-up and measured repetitions on `threads` threads.
static bool team_run(team_t *t) {
    if (!team_calibrate(t)) {
        return false;
    }
    atomic_init(&t->failed, false);
    t->go = 0;
    if (pthread_barrier_init(&t->barrier, NULL, t->threads) != 0) {
        return false;
    }
    pthread_mutex_init(&t->gate_lock, NULL);
    pthread_cond_init(&t->gate, NULL);
    pthread_t tids[BENCH_MAX_THREADS];
    team_member_t members[BENCH_MAX_THREADS];
    unsigned started = 1;
    for (; started < t->threads; started++) {
        members[started] = (team_member_t){t, started};
        if (pthread_create(&tids[started], NULL, team_thread,
                           &members[started]) != 0) {
            fprintf(stderr, "umf-gpu-bench: cannot start a thread\n");
            break;
        }
    }
    bool all = started == t->threads;
    team_open_gate(t, all ? 1 : -1);
    if (all) {
        team_body(t, 0);
    }
    for (unsigned i = 1; i < started; i++) {
        pthread_join(tids[i], NULL);
    }
    pthread_cond_destroy(&t->gate);
    pthread_mutex_destroy(&t->gate_lock);
    pthread_barrier_destroy(&t->barrier);
    return all && !atomic_load_explicit(&t->failed, memory_order_relaxed);
}

// Per-operation samples of side k: the mean over threads, per repetition.
static void team_samples(const team_t *t, unsigned k, double *out) {
    for (unsigned r = 0; r < t->o->reps; r++) {
        unsigned rep = t->o->warmup + r;
        double sum = 0;
        for (unsigned i = 0; i < t->threads; i++) {
            sum += t->cpu[k][i][rep];
        }
        out[r] = sum / t->threads / (double)t->n;
    }
}

// Operations per second of all threads together, median over repetitions.
static double team_throughput(const team_t *t, unsigned k) {
    double v[BENCH_MAX_REPS];
    for (unsigned r = 0; r < t->o->reps; r++) {
        double wall = t->wall[k][t->o->warmup + r];
        v[r] = wall > 0 ? (double)t->n * t->threads * 1e9 / wall : NAN;
    }
    return bench_quantile(v, t->o->reps, 0.5);
}

// ---- Measurements ---------------------------------------------------------

void bench_provider_error(const bench_run_t *run, const char *what,
                          umf_result_t ret) {
    const char *message = NULL;
    int32_t code = 0;
    umfMemoryProviderGetLastNativeError(run->provider, &message, &code);
    bench_fail(run->backend->name, "%s failed: umf_result_t %d%s%s", what,
               (int)ret, code != 0 && message != NULL ? "; native error: " : "",
               code != 0 && message != NULL ? message : "");
}

bool bench_measure_paired(const bench_run_t *run, const bench_paired_t *m) {
    static team_t team; // large; one measurement at a time
    team_t *t = &team;
    memset(t, 0, sizeof(*t));
    t->o = run->o;
    t->backend = run->backend;
    t->driver = run->driver;
    t->threads = m->threads;
    t->sides = 2;
    t->side[0].fn = m->provider;
    t->side[1].fn = m->raw;
    for (unsigned i = 0; i < m->threads; i++) {
        t->side[0].arg[i] = m->provider_arg[i];
        t->side[1].arg[i] = m->raw_arg[i];
    }
    if (!team_run(t)) {
        return false;
    }
    double prov[BENCH_MAX_REPS], raw[BENCH_MAX_REPS], diff[BENCH_MAX_REPS];
    team_samples(t, 0, prov);
    team_samples(t, 1, raw);
    for (unsigned r = 0; r < run->o->reps; r++) {
        diff[r] = prov[r] - raw[r];
    }
    char names[3][BENCH_NAME_MAX];
    snprintf(names[0], sizeof(names[0]), "%s_provider", m->name);
    snprintf(names[1], sizeof(names[1]), "%s_raw", m->name);
    snprintf(names[2], sizeof(names[2]), "%s_added", m->name);
    bench_result_t rp, rr, rd;
    const char *pr = run->backend->name;
    bench_result_init(&rp, names[0], pr, run->mode, m->size, m->threads,
                      m->live);
    bench_result_init(&rr, names[1], pr, run->mode, m->size, m->threads,
                      m->live);
    bench_result_init(&rd, names[2], pr, run->mode, m->size, m->threads,
                      m->live);
    bench_summarize(&rp, prov, run->o->reps);
    bench_summarize(&rr, raw, run->o->reps);
    bench_summarize(&rd, diff, run->o->reps);
    rp.ratio = rp.median_ns / rr.median_ns;
    rp.throughput = team_throughput(t, 0);
    rr.throughput = team_throughput(t, 1);
    bench_write_result(&rp);
    bench_write_result(&rr);
    bench_write_result(&rd);
    return true;
}

// alloc+free pairs of `size` bytes through the provider and the raw driver
// on `threads` threads: three results.
static bool measure_pairs(const bench_run_t *run, size_t size,
                          unsigned threads) {
    bench_pair_arg_t args[BENCH_MAX_THREADS];
    bench_paired_t m = {"alloc_free",         (long long)size, threads, 0,
                        bench_provider_pairs, raw_pairs,       {NULL},  {NULL}};
    for (unsigned i = 0; i < threads; i++) {
        args[i] = (bench_pair_arg_t){run->backend, run->driver, run->provider,
                                     size, UMF_RESULT_SUCCESS};
        m.provider_arg[i] = &args[i];
        m.raw_arg[i] = &args[i];
    }
    if (bench_measure_paired(run, &m)) {
        return true;
    }
    for (unsigned i = 0; i < threads; i++) {
        if (args[i].error != UMF_RESULT_SUCCESS) {
            bench_provider_error(run, "alloc+free", args[i].error);
            return false;
        }
    }
    bench_fail(run->backend->name,
               "alloc+free of %zu bytes failed (the raw driver call, or a "
               "thread could not use the context)",
               size);
    return false;
}

// Every size on one thread (every mode).
static bool run_pairs(const bench_run_t *run) {
    for (size_t i = 0; i < sizeof(pair_sizes) / sizeof(pair_sizes[0]); i++) {
        if (!measure_pairs(run, pair_sizes[i], 1)) {
            return false;
        }
    }
    return true;
}

const bench_measure_t bench_measure_pairs = {
    .name = "alloc+free pairs",
    .modes = BENCH_MODE_FULL | BENCH_MODE_MEMFD,
    .run = run_pairs,
};

// 64 bytes on 2 .. BENCH_MAX_THREADS threads.
static bool run_threads(const bench_run_t *run) {
    for (unsigned threads = 2; threads <= BENCH_MAX_THREADS; threads++) {
        if (!measure_pairs(run, SCALE_SIZE, threads)) {
            return false;
        }
    }
    return true;
}

const bench_measure_t bench_measure_threads = {
    .name = "alloc+free pairs on threads",
    .modes = BENCH_MODE_FULL,
    .run = run_threads,
};

bool bench_measure_single(const bench_run_t *run, const bench_single_t *m) {
    static team_t team; // large; one measurement at a time
    team_t *t = &team;
    memset(t, 0, sizeof(*t));
    t->o = run->o;
    t->backend = run->backend;
    t->driver = run->driver;
    t->threads = m->threads;
    t->sides = 1;
    for (unsigned i = 0; i < m->threads; i++) {
        t->side[0].arg[i] = m->arg[i];
    }
    t->side[0].fn = m->fn;
    if (!team_run(t)) {
        return false;
    }
    double samples[BENCH_MAX_REPS];
    team_samples(t, 0, samples);
    bench_result_t r;
    bench_result_init(&r, m->name, run->backend->name, run->mode, m->size,
                      m->threads, m->live);
    bench_summarize(&r, samples, run->o->reps);
    r.throughput = team_throughput(t, 0);
    bench_write_result(&r);
    return true;
}

static bool measure_native_error(const bench_run_t *run, unsigned threads) {
    native_error_arg_t args[BENCH_MAX_THREADS];
    bench_single_t m = {"native_error",     -1,    threads, 0,
                        native_error_reads, {NULL}};
    for (unsigned i = 0; i < threads; i++) {
        args[i] =
            (native_error_arg_t){run->provider, false, 0, UMF_RESULT_SUCCESS};
        m.arg[i] = &args[i];
    }
    if (!bench_measure_single(run, &m)) {
        bench_fail(run->backend->name,
                   "the error path failed: an allocation of %zu bytes gave "
                   "umf_result_t %d, or the native error was missing or "
                   "changed",
                   IMPOSSIBLE_SIZE, (int)args[0].error);
        return false;
    }
    return true;
}

static bool run_native_error(const bench_run_t *run) {
    for (unsigned threads = 1; threads <= BENCH_MAX_THREADS; threads++) {
        if (!measure_native_error(run, threads)) {
            return false;
        }
    }
    return true;
}

const bench_measure_t bench_measure_error = {
    .name = "get_last_native_error",
    .modes = BENCH_MODE_FULL,
    .run = run_native_error,
};

// ---- The machine's own speed ---------------------------------------------
//
// A fixed chain of dependent multiplications (about 1 ms), timed on the
// run's clock before every measurement: its slowest over its fastest says
// whether the machine itself changed speed during the run (a core shared
// with another machine, a lower clock), which moves every figure, the raw
// driver's as much as the provider's. Written as machine_reference.

#define REFERENCE_STEPS 1000000
#define REFERENCE_MAX 32

static double reference_loop(const bench_options_t *o) {
    volatile uint64_t seed = 0x9e3779b97f4a7c15ull;
    uint64_t x = seed;
    double t0 = bench_now(o->clock);
    for (long i = 0; i < REFERENCE_STEPS; i++) {
        x = x * 0xff51afd7ed558ccdull + (uint64_t)i;
    }
    double t1 = bench_now(o->clock);
    seed = x; // keeps the chain
    return t1 - t0;
}

// The reference's samples as one result, and a warning on stderr when the
// machine's speed moved by more than BENCH_MACHINE_SPREAD.
static void write_reference(const bench_run_t *run, double *samples, size_t n) {
    double lo = samples[0], hi = samples[0];
    for (size_t i = 1; i < n; i++) {
        lo = samples[i] < lo ? samples[i] : lo;
        hi = samples[i] > hi ? samples[i] : hi;
    }
    bench_result_t r;
    bench_result_init(&r, "machine_reference", run->backend->name, run->mode,
                      -1, 1, 0);
    bench_summarize(&r, samples, n);
    r.max_ns = hi;
    r.ratio = hi / lo;
    bench_write_result(&r);
    if (r.ratio > BENCH_MACHINE_SPREAD) {
        fprintf(stderr,
                "umf-gpu-bench: %s (%s): the machine's own speed changed "
                "during the run: a fixed loop took %.2f to %.2f ms (%.2fx); "
                "every figure of this run moves with it\n",
                run->backend->name, run->mode, lo / 1e6, hi / 1e6, r.ratio);
    }
}

// Before the first measurement: both paths at every size for a while, so
// that the driver's first-use costs (its caches, the pages of its own
// bookkeeping) fall on no measurement.
static bool warm_up(const bench_run_t *run) {
    for (size_t i = 0; i < sizeof(pair_sizes) / sizeof(pair_sizes[0]); i++) {
        bench_pair_arg_t arg = {run->backend, run->driver, run->provider,
                                pair_sizes[i], UMF_RESULT_SUCCESS};
        for (int side = 0; side < 2; side++) {
            double end = bench_now(BENCH_CLOCK_WALL) + 5 * run->o->rep_ns;
            long n = 16;
            while (bench_now(BENCH_CLOCK_WALL) < end) {
                if (!(side == 0 ? bench_provider_pairs : raw_pairs)(&arg, n)) {
                    if (arg.error != UMF_RESULT_SUCCESS) {
                        bench_provider_error(run, "alloc+free", arg.error);
                    } else {
                        bench_fail(run->backend->name,
                                   "the raw driver's alloc+free of %zu "
                                   "bytes failed",
                                   pair_sizes[i]);
                    }
                    return false;
                }
                n = n < 4096 ? n * 2 : n;
            }
        }
    }
    return true;
}

int bench_run_child(const bench_options_t *o, const bench_backend_t *backend,
                    const char *mode) {
    char why[512];
    bench_driver_t *driver = NULL;
    if (!backend->open(&driver, why, sizeof(why))) {
        bench_fail(backend->name, "%s", why);
        return 1;
    }
    bench_run_t run = {o, backend, driver, NULL, mode};
    if (!backend->emulated(driver)) {
        run.mode = "real";
    }
    // Which driver this child measured, for the report.
    printf("I %s %s %s %s\n", backend->name, run.mode,
           backend->emulated(driver) ? "emulated" : "real",
           backend->describe(driver));
    fflush(stdout);

    int status = 1;
    umf_result_t ret = backend->provider_create(driver, &run.provider);
    if (ret != UMF_RESULT_SUCCESS) {
        bench_fail(backend->name, "cannot create the provider: %d", (int)ret);
        goto out;
    }
    if (!warm_up(&run)) {
        goto out;
    }
    // Everything in the arena mode (the default) and on a real driver; what
    // depends on the memory mode (the pairs, IPC) in the others.
    unsigned mode_bit =
        strcmp(run.mode, "memfd") == 0 ? BENCH_MODE_MEMFD : BENCH_MODE_FULL;
    double reference[REFERENCE_MAX];
    size_t references = 0;
    for (size_t i = 0; bench_measures[i] != NULL; i++) {
        const bench_measure_t *m = bench_measures[i];
        if ((m->modes & mode_bit) == 0) {
            continue;
        }
        if (references < REFERENCE_MAX) {
            reference[references++] = reference_loop(o);
        }
        if (!m->run(&run)) {
            bench_fail(backend->name, "%s: the measurement failed", m->name);
            goto out;
        }
    }
    if (references < REFERENCE_MAX) {
        reference[references++] = reference_loop(o);
    }
    write_reference(&run, reference, references);
    status = 0;
out:
    umfMemoryProviderDestroy(run.provider);
    backend->close(driver);
    return status;
}
