// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The random pattern at scale: with L allocations alive (1 000, 100 000 and
// 1 000 000 by default), each step frees a random one and allocates one of a
// random size in its place (bench.h, bench_random_step), through the
// provider and through the raw driver calls, each on a set of its own, in
// alternating repetitions. So the provider's bookkeeping is measured cold
// and churning, as a pool that holds many allocations uses it: every free
// looks up an arbitrary entry among L.
//
// The sets grow from one level to the next (an allocation made for 1 000 is
// still alive at 1 000 000) and are freed at the end. Both sides draw the
// same sequence of slots and sizes.

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define RANDOM_SEED 0x9e3779b97f4a7c15ull

typedef struct random_side_t {
    const bench_run_t *run;
    bench_random_t state;
    umf_result_t error; // the provider's first failure
} random_side_t;

static bool provider_random(void *arg, long n) {
    random_side_t *s = arg;
    bench_random_t *r = &s->state;
    umf_memory_provider_handle_t h = s->run->provider;
    for (long i = 0; i < n; i++) {
        size_t size;
        size_t k = bench_random_step(r, &size);
        umf_result_t ret = umfMemoryProviderFree(h, r->ptrs[k], r->sizes[k]);
        r->ptrs[k] = NULL;
        if (ret == UMF_RESULT_SUCCESS) {
            ret = umfMemoryProviderAlloc(h, size, 0, &r->ptrs[k]);
        }
        if (ret != UMF_RESULT_SUCCESS) {
            r->ptrs[k] = NULL;
            s->error = ret;
            return false;
        }
        r->sizes[k] = size;
    }
    return true;
}

static bool raw_random(void *arg, long n) {
    random_side_t *s = arg;
    return s->run->backend->raw_random(s->run->driver, &s->state, n);
}

// Allocates slots [from, to) of a side: random sizes, as the steps use.
static bool fill(random_side_t *s, bool provider, size_t from, size_t to) {
    bench_random_t *r = &s->state;
    const bench_run_t *run = s->run;
    for (size_t k = from; k < to; k++) {
        size_t size = BENCH_RANDOM_MIN +
                      (size_t)(bench_random_u64(r) %
                               (BENCH_RANDOM_MAX - BENCH_RANDOM_MIN + 1));
        r->ptrs[k] = NULL;
        if (provider) {
            umf_result_t ret =
                umfMemoryProviderAlloc(run->provider, size, 0, &r->ptrs[k]);
            if (ret != UMF_RESULT_SUCCESS) {
                r->ptrs[k] = NULL;
                bench_provider_error(run, "holding live allocations", ret);
                return false;
            }
        } else if (!run->backend->raw_alloc(run->driver, size, &r->ptrs[k])) {
            r->ptrs[k] = NULL;
            bench_fail(run->backend->name,
                       "the raw driver's allocation %zu of %zu bytes failed", k,
                       size);
            return false;
        }
        r->sizes[k] = size;
    }
    return true;
}

// Frees what a side holds; false if a free failed.
static bool drain(random_side_t *s, bool provider, size_t count) {
    bench_random_t *r = &s->state;
    const bench_run_t *run = s->run;
    bool ok = true;
    for (size_t k = 0; k < count; k++) {
        if (r->ptrs[k] == NULL) {
            continue;
        }
        if (provider) {
            umf_result_t ret =
                umfMemoryProviderFree(run->provider, r->ptrs[k], r->sizes[k]);
            if (ret != UMF_RESULT_SUCCESS && ok) {
                bench_provider_error(run, "freeing the live allocations", ret);
                ok = false;
            }
        } else if (!run->backend->raw_free(run->driver, r->ptrs[k]) && ok) {
            bench_fail(run->backend->name, "a raw driver free failed");
            ok = false;
        }
    }
    return ok;
}

static bool run_random(const bench_run_t *run) {
    const bench_options_t *o = run->o;
    size_t most = 0;
    for (unsigned i = 0; i < o->live_count; i++) {
        most = o->live[i] > most ? o->live[i] : most;
    }
    if (most == 0) {
        return true;
    }
    random_side_t sides[2];
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        sides[i] =
            (random_side_t){run,
                            {calloc(most, sizeof(void *)),
                             calloc(most, sizeof(size_t)), 0, RANDOM_SEED},
                            UMF_RESULT_SUCCESS};
        ok &= sides[i].state.ptrs != NULL && sides[i].state.sizes != NULL;
    }
    size_t count = 0;
    if (!ok) {
        bench_fail(run->backend->name, "out of host memory");
        goto out;
    }
    for (unsigned i = 0; i < o->live_count && ok; i++) {
        size_t live = o->live[i];
        if (live > count) {
            ok = fill(&sides[0], true, count, live) &&
                 fill(&sides[1], false, count, live);
            count = live; // what fill could not make is NULL
            if (!ok) {
                break;
            }
        }
        for (int s = 0; s < 2; s++) {
            sides[s].state.live = live;
        }
        bench_paired_t m = {
            "random",        -1,         1,           (long long)live,
            provider_random, raw_random, {&sides[0]}, {&sides[1]}};
        ok = bench_measure_paired(run, &m);
        if (!ok) {
            if (sides[0].error != UMF_RESULT_SUCCESS) {
                bench_provider_error(run, "a random step", sides[0].error);
            } else {
                bench_fail(run->backend->name,
                           "a random step of the raw driver failed at %zu "
                           "live allocations",
                           live);
            }
        }
    }
out:
    if (!drain(&sides[0], true, count)) {
        ok = false;
    }
    if (!drain(&sides[1], false, count)) {
        ok = false;
    }
    for (int i = 0; i < 2; i++) {
        free(sides[i].state.ptrs);
        free(sides[i].state.sizes);
    }
    return ok;
}

const bench_measure_t bench_measure_random = {
    .name = "random pattern",
    .modes = BENCH_MODE_FULL,
    .run = run_random,
};
