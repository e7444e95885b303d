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
//
// At each level the same run measures one cache miss of this machine at that
// scale (random_miss): a chase of dependent loads through the lines of a
// buffer as large as the provider's ownership table and the driver's records
// of both sets together, in huge pages as those are. A provider that checks
// every free reads its own record of the allocation first, so one such miss
// is the price of the check; random_added is measured against it.
//
// The tables behind both sides sit in transparent huge pages where the
// kernel grants them. Where it refuses some (fragmented memory: its
// thp_fault_fallback count grows), every step pays TLB misses on top, and
// the figures of one run differ from another's: each level then prints how
// many huge-page faults fell back and how much of the process's anonymous
// memory is in huge pages, so that a slow run says why.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"
#include "ownership_table.h"
#include "util_huge.h"

#define RANDOM_SEED 0x9e3779b97f4a7c15ull

typedef struct random_side_t {
    const bench_run_t *run;
    bench_random_t state;
    umf_result_t error; // the provider's first failure
} random_side_t;

// The slots of a side: zeroed, in transparent huge pages where possible
// (the steps read them at random: with 4 KiB pages the benchmark's own TLB
// misses would count as the driver's and the provider's cost).
static bench_random_slot_t *slots_map(size_t n) {
    void *p = mmap(NULL, n * sizeof(bench_random_slot_t),
                   PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        return NULL;
    }
    (void)madvise(p, n * sizeof(bench_random_slot_t), MADV_HUGEPAGE);
    return p;
}

static void slots_unmap(bench_random_slot_t *slots, size_t n) {
    if (slots != NULL) {
        munmap(slots, n * sizeof(bench_random_slot_t));
    }
}

// ---- One cache miss at the scale of `live` ---------------------------------

#define LINE 64

size_t bench_miss_bytes(size_t live) {
    // The provider's table, and the line of each record that the emulated
    // drivers' free reads, for the provider's set and the raw one.
    return umf_own_table_bytes(live) + 2 * live * BENCH_DRIVER_RECORD_LINE;
}

typedef struct chase_t {
    void **start;
    void **at; // where the chase goes on from
} chase_t;

static bool chase(void *arg, long n) {
    chase_t *c = arg;
    void **p = c->at;
    for (long i = 0; i < n; i++) {
        p = (void **)*p;
    }
    // Kept, so that the loads are not dropped.
    c->at = p;
    return p != NULL;
}

// The lines of buf (lines of LINE bytes) linked in one random cycle
// (Sattolo's algorithm), so that every load waits for the one before and
// the prefetchers cannot guess the next.
static bool link_lines(char *buf, size_t lines) {
    uint32_t *order = malloc(lines * sizeof(*order));
    if (order == NULL) {
        return false;
    }
    for (size_t i = 0; i < lines; i++) {
        order[i] = (uint32_t)i;
    }
    bench_random_t r = {NULL, 0, 0x2545f4914f6cdd1dull};
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j =
            (size_t)(((unsigned __int128)bench_random_u64(&r) * i) >> 64);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++) {
        size_t next = order[(i + 1) % lines];
        *(void **)(buf + (size_t)order[i] * LINE) = buf + next * LINE;
    }
    free(order);
    return true;
}

// Writes random_miss for `live`: ns per dependent load over
// bench_miss_bytes(live) (its size).
static bool measure_miss(const bench_run_t *run, size_t live) {
    size_t bytes = bench_miss_bytes(live);
    size_t lines = bytes / LINE;
    // Mapped as the table's large arrays and the drivers' records are.
    char *buf =
        lines >= 2 && lines <= UINT32_MAX ? umf_huge_map(bytes, 1) : NULL;
    if (buf == NULL) {
        bench_fail(run->backend->name,
                   "cannot map %zu bytes for the cache-miss measurement",
                   bytes);
        return false;
    }
    bool ok = link_lines(buf, lines);
    if (ok) {
        chase_t c = {(void **)buf, (void **)buf};
        // A lap first: every page faulted in, the lines as far from the
        // core as the run leaves them.
        (void)chase(&c, (long)lines);
        bench_single_t m = {
            "random_miss", (long long)bytes, 1, (long long)live, chase, {&c}};
        ok = bench_measure_single(run, &m);
    } else {
        bench_fail(run->backend->name, "out of host memory");
    }
    munmap(buf, umf_huge_size(bytes));
    return ok;
}

// ---- Huge pages: did the kernel grant them? --------------------------------

// The value of `key` (a line "key value" or "key: value kB") in `path`; -1
// where the file or the line is missing.
static long long proc_value(const char *path, const char *key) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    char line[256];
    size_t n = strlen(key);
    long long v = -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, n) == 0 && (line[n] == ' ' || line[n] == ':')) {
            v = strtoll(line + n + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

static long long thp_fallbacks(void) {
    return proc_value("/proc/vmstat", "thp_fault_fallback");
}

// After a level: says so where huge-page faults fell back since `before`.
static void report_huge_pages(const bench_run_t *run, size_t live,
                              long long before) {
    long long after = thp_fallbacks();
    if (before < 0 || after <= before) {
        return;
    }
    long long huge = proc_value("/proc/self/smaps_rollup", "AnonHugePages");
    long long anon = proc_value("/proc/self/smaps_rollup", "Anonymous");
    // Not an "M" or "I" line: the main process passes it on to stderr.
    printf("umf-gpu-bench: %s %s: at %zu live allocations, %lld huge-page "
           "faults fell back to 4 KiB pages (thp_fault_fallback, "
           "system-wide); %lld of %lld MiB of this process's anonymous "
           "memory is in huge pages: the random figures of this level "
           "include TLB misses that a run with huge pages does not pay\n",
           run->backend->name, run->mode, live, after - before, huge / 1024,
           anon / 1024);
    fflush(stdout);
}

static bool provider_random(void *arg, long n) {
    random_side_t *s = arg;
    bench_random_t *r = &s->state;
    umf_memory_provider_handle_t h = s->run->provider;
    for (long i = 0; i < n; i++) {
        size_t size;
        size_t k = bench_random_step(r, &size);
        umf_result_t ret =
            umfMemoryProviderFree(h, r->slots[k].ptr, r->slots[k].size);
        r->slots[k].ptr = NULL;
        if (ret == UMF_RESULT_SUCCESS) {
            ret = umfMemoryProviderAlloc(h, size, 0, &r->slots[k].ptr);
        }
        if (ret != UMF_RESULT_SUCCESS) {
            r->slots[k].ptr = NULL;
            s->error = ret;
            return false;
        }
        r->slots[k].size = size;
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
        r->slots[k].ptr = NULL;
        if (provider) {
            umf_result_t ret = umfMemoryProviderAlloc(run->provider, size, 0,
                                                      &r->slots[k].ptr);
            if (ret != UMF_RESULT_SUCCESS) {
                r->slots[k].ptr = NULL;
                bench_provider_error(run, "holding live allocations", ret);
                return false;
            }
        } else if (!run->backend->raw_alloc(run->driver, size,
                                            &r->slots[k].ptr)) {
            r->slots[k].ptr = NULL;
            bench_fail(run->backend->name,
                       "the raw driver's allocation %zu of %zu bytes failed", k,
                       size);
            return false;
        }
        r->slots[k].size = size;
    }
    return true;
}

// Frees what a side holds; false if a free failed.
static bool drain(random_side_t *s, bool provider, size_t count) {
    bench_random_t *r = &s->state;
    const bench_run_t *run = s->run;
    bool ok = true;
    for (size_t k = 0; k < count; k++) {
        if (r->slots[k].ptr == NULL) {
            continue;
        }
        if (provider) {
            umf_result_t ret = umfMemoryProviderFree(
                run->provider, r->slots[k].ptr, r->slots[k].size);
            if (ret != UMF_RESULT_SUCCESS && ok) {
                bench_provider_error(run, "freeing the live allocations", ret);
                ok = false;
            }
        } else if (!run->backend->raw_free(run->driver, r->slots[k].ptr) &&
                   ok) {
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
        sides[i] = (random_side_t){
            run, {slots_map(most), 0, RANDOM_SEED}, UMF_RESULT_SUCCESS};
        ok &= sides[i].state.slots != NULL;
    }
    size_t count = 0;
    if (!ok) {
        bench_fail(run->backend->name, "out of host memory");
        goto out;
    }
    for (unsigned i = 0; i < o->live_count && ok; i++) {
        size_t live = o->live[i];
        long long fallbacks = thp_fallbacks();
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
        } else {
            ok = measure_miss(run, live);
            report_huge_pages(run, live, fallbacks);
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
        slots_unmap(sides[i].state.slots, most);
    }
    return ok;
}

const bench_measure_t bench_measure_random = {
    .name = "random pattern",
    .modes = BENCH_MODE_FULL,
    .run = run_random,
};
