// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a residency change costs the other threads. With `live` allocations
// held by the provider (--residency-live: 400 000; --quick 5 000), a changer
// thread adds a resident device and removes it again
// (umfLevelZeroMemoryProviderResident DeviceChange: every live allocation is
// made resident, then evicted), while this thread times every 64-byte
// alloc+free pair it makes through the same provider, in wall-clock time (a
// pair that waits for the change waits in real time, spinning or not). Results:
//   residency_stall   the pairs while the changes run: p50, p99, max
//   residency_idle    pairs for as long again after them: p50, p99, max
//   residency_change  one change (add or remove), wall ns
// Only for providers with resident devices (bench_backend_t.resident_change).

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define PAIR_SIZE 64
#define MAX_SAMPLES (4u << 20)
#define MAX_CHANGES 16

typedef struct changer_t {
    const bench_run_t *run;
    unsigned changes; // add, remove, add, ...
    atomic_int started, measuring, done;
    umf_result_t error;
    double took[MAX_CHANGES];
} changer_t;

static void *changer_main(void *arg) {
    changer_t *c = arg;
    const bench_run_t *run = c->run;
    if (!run->backend->thread_enter(run->driver)) {
        c->error = UMF_RESULT_ERROR_UNKNOWN;
    }
    atomic_store(&c->started, 1);
    while (!atomic_load(&c->measuring)) {
        sched_yield();
    }
    for (unsigned i = 0; i < c->changes && c->error == UMF_RESULT_SUCCESS;
         i++) {
        double t0 = bench_now(BENCH_CLOCK_WALL);
        umf_result_t ret = run->backend->resident_change(
            run->driver, run->provider, (i & 1) == 0);
        c->took[i] = bench_now(BENCH_CLOCK_WALL) - t0;
        if (ret != UMF_RESULT_SUCCESS) {
            c->error = ret;
        }
    }
    atomic_store(&c->done, 1);
    return NULL;
}

// One timed pair; false (and *ret set) if the provider failed.
static bool timed_pair(const bench_run_t *run, double *ns, umf_result_t *ret) {
    void *ptr = NULL;
    double t0 = bench_now(BENCH_CLOCK_WALL);
    *ret = umfMemoryProviderAlloc(run->provider, PAIR_SIZE, 0, &ptr);
    if (*ret == UMF_RESULT_SUCCESS) {
        *ret = umfMemoryProviderFree(run->provider, ptr, PAIR_SIZE);
    }
    *ns = bench_now(BENCH_CLOCK_WALL) - t0;
    return *ret == UMF_RESULT_SUCCESS;
}

static void write_tail(const bench_run_t *run, const char *name, size_t live,
                       double *samples, size_t n) {
    bench_result_t r;
    bench_result_init(&r, name, run->backend->name, run->mode, PAIR_SIZE, 1,
                      (long long)live);
    bench_summarize_tail(&r, samples, n);
    bench_write_result(&r);
}

static bool run_residency(const bench_run_t *run) {
    if (run->backend->resident_change == NULL) {
        return true;
    }
    size_t live = run->o->residency_live;
    void **held = calloc(live, sizeof(*held));
    double *samples = malloc(MAX_SAMPLES * sizeof(*samples));
    size_t count = 0, n = 0;
    bool ok = false;
    umf_result_t ret = UMF_RESULT_SUCCESS;
    if (held == NULL || samples == NULL) {
        bench_fail(run->backend->name, "out of host memory");
        goto out;
    }
    for (; count < live; count++) {
        ret = umfMemoryProviderAlloc(run->provider, PAIR_SIZE, 0, &held[count]);
        if (ret != UMF_RESULT_SUCCESS) {
            bench_provider_error(run, "holding live allocations", ret);
            goto out;
        }
    }
    static changer_t c; // large
    c = (changer_t){.run = run, .changes = run->o->reps < 10 ? 2 : 6};
    pthread_t tid;
    if (pthread_create(&tid, NULL, changer_main, &c) != 0) {
        bench_fail(run->backend->name, "cannot start a thread");
        goto out;
    }
    while (!atomic_load(&c.started)) {
        sched_yield();
    }
    atomic_store(&c.measuring, 1);
    n = 0;
    bool pairs_ok = true;
    double began = bench_now(BENCH_CLOCK_WALL);
    while (!atomic_load(&c.done) && pairs_ok) {
        pairs_ok = timed_pair(run, &samples[n], &ret);
        n += n + 1 < MAX_SAMPLES;
    }
    pthread_join(tid, NULL);
    if (!pairs_ok) {
        bench_provider_error(run, "alloc+free during a residency change", ret);
        goto out;
    }
    if (c.error != UMF_RESULT_SUCCESS) {
        bench_provider_error(run, "a resident device change", c.error);
        goto out;
    }
    write_tail(run, "residency_stall", live, samples, n);
    // Then pairs for as long again with no change running: on a shared
    // machine the max of either is mostly how long the thread was
    // preempted, which this shows.
    double lasted = bench_now(BENCH_CLOCK_WALL) - began;
    double until = bench_now(BENCH_CLOCK_WALL) + lasted;
    n = 0;
    while (bench_now(BENCH_CLOCK_WALL) < until && n < MAX_SAMPLES) {
        if (!timed_pair(run, &samples[n++], &ret)) {
            bench_provider_error(run, "alloc+free", ret);
            goto out;
        }
    }
    write_tail(run, "residency_idle", live, samples, n);
    bench_result_t r;
    bench_result_init(&r, "residency_change", run->backend->name, run->mode, -1,
                      1, (long long)live);
    bench_summarize_tail(&r, c.took, c.changes);
    bench_write_result(&r);
    ok = true;
out:
    for (size_t i = count; i > 0; i--) {
        ret = umfMemoryProviderFree(run->provider, held[i - 1], PAIR_SIZE);
        if (ret != UMF_RESULT_SUCCESS && ok) {
            bench_provider_error(run, "freeing the live allocations", ret);
            ok = false;
        }
    }
    free(samples);
    free(held);
    return ok;
}

const bench_measure_t bench_measure_residency = {
    .name = "resident device changes",
    .modes = BENCH_MODE_FULL,
    .run = run_residency,
};
