// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The results of a run: the table, the summary lines of the headline ratios
// against their targets, and the JSON document.

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

bool bench_report_add(bench_report_t *rep, const bench_result_t *r) {
    if (rep->count == rep->capacity) {
        size_t cap = rep->capacity ? rep->capacity * 2 : 64;
        bench_result_t *grown = realloc(rep->results, cap * sizeof(*grown));
        if (grown == NULL) {
            return false;
        }
        rep->results = grown;
        rep->capacity = cap;
    }
    rep->results[rep->count++] = *r;
    return true;
}

static const bench_result_t *find(const bench_report_t *rep, const char *name,
                                  const char *provider, const char *mode,
                                  long long size, unsigned threads,
                                  long long live) {
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *r = &rep->results[i];
        if (strcmp(r->name, name) == 0 && strcmp(r->provider, provider) == 0 &&
            (mode == NULL || strcmp(r->mode, mode) == 0) && r->size == size &&
            r->threads == threads && r->live == live) {
            return r;
        }
    }
    return NULL;
}

static const char *provider_title(const char *provider) {
    return strcmp(provider, "ze") == 0 ? "Level Zero DEVICE" : "CUDA DEVICE";
}

static void format_size(long long size, char *out, size_t len) {
    if (size < 0) {
        snprintf(out, len, "-");
    } else if (size >= (1 << 20) && size % (1 << 20) == 0) {
        snprintf(out, len, "%lld MiB", size >> 20);
    } else if (size >= 1024 && size % 1024 == 0) {
        snprintf(out, len, "%lld KiB", size >> 10);
    } else {
        snprintf(out, len, "%lld B", size);
    }
}

// "median (p10..p90)" with a precision that suits the magnitude.
static void format_dist(const bench_result_t *r, char *out, size_t len) {
    if (r->median_ns < 100) {
        snprintf(out, len, "%.1f (%.1f..%.1f)", r->median_ns, r->p10_ns,
                 r->p90_ns);
    } else {
        snprintf(out, len, "%.0f (%.0f..%.0f)", r->median_ns, r->p10_ns,
                 r->p90_ns);
    }
}

// ---- Headline ratios -------------------------------------------------------

typedef struct summary_t {
    char provider[8];
    const char *name; // JSON name
    char text[240];   // what was compared, for the table
    double value;
    double target; // NAN: a figure reported without a target (FIGURE)
    bool at_most;  // met when value <= target (else value >= target)
} summary_t;

#define FIGURE NAN

#define MAX_SUMMARIES 48

static size_t add_summary(summary_t *s, size_t n, const char *provider,
                          const char *name, double value, double target,
                          bool at_most, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

static size_t add_summary(summary_t *s, size_t n, const char *provider,
                          const char *name, double value, double target,
                          bool at_most, const char *fmt, ...) {
    if (n == MAX_SUMMARIES || isnan(value)) {
        return n;
    }
    summary_t *e = &s[n];
    snprintf(e->provider, sizeof(e->provider), "%s", provider);
    e->name = name;
    e->value = value;
    e->target = target;
    e->at_most = at_most;
    va_list args;
    va_start(args, fmt);
    vsnprintf(e->text, sizeof(e->text), fmt, args);
    va_end(args);
    return n + 1;
}

static bool summary_has_target(const summary_t *s) {
    return !isnan(s->target);
}

static bool summary_met(const summary_t *s) {
    return !summary_has_target(s) ||
           (s->at_most ? s->value <= s->target : s->value >= s->target);
}

// The mode that holds the full set of measurements: arena, or real.
static const char *main_mode(const bench_report_t *rep, const char *provider) {
    return find(rep, "alloc_free_added", provider, "real", 64, 1, 0) ? "real"
                                                                     : "arena";
}

// The first result of `name` for a provider in a mode, whatever its size
// (and, unless live is negative, with that many live allocations).
static const bench_result_t *find_name_live(const bench_report_t *rep,
                                            const char *name,
                                            const char *provider,
                                            const char *mode, long long live) {
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *r = &rep->results[i];
        if (strcmp(r->name, name) == 0 && strcmp(r->provider, provider) == 0 &&
            strcmp(r->mode, mode) == 0 && (live < 0 || r->live == live)) {
            return r;
        }
    }
    return NULL;
}

static const bench_result_t *find_name(const bench_report_t *rep,
                                       const char *name, const char *provider,
                                       const char *mode) {
    return find_name_live(rep, name, provider, mode, -1);
}

// What a random step may add over the raw driver at 100 000 live and more:
// the one cache miss of the provider's check (random_miss, measured in the
// same run) and this many ns.
#define MISS_SLACK_NS 15

// The random pattern: the added cost per step at each level with a target
// (at 1 000: 15 ns; from 100 000 on: the miss measured at that scale plus
// MISS_SLACK_NS), that miss, and how the raw driver's own step grows from
// the fewest live allocations measured to the most (the emulated driver's
// scaling, a figure).
static size_t summarize_random(const bench_report_t *rep, const char *pr,
                               const char *mode, summary_t *s, size_t n) {
    static const struct {
        long long live;
        bool per_miss; // target: random_miss + MISS_SLACK_NS, else 15 ns
        const char *name, *miss_name;
    } levels[] = {{1000, false, "random_added_ns_1k", "random_miss_ns_1k"},
                  {100000, true, "random_added_ns_100k", "random_miss_ns_100k"},
                  {1000000, true, "random_added_ns_1M", "random_miss_ns_1M"}};
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        const bench_result_t *d =
            find(rep, "random_added", pr, mode, -1, 1, levels[i].live);
        const bench_result_t *p =
            find(rep, "random_provider", pr, mode, -1, 1, levels[i].live);
        const bench_result_t *miss =
            find_name_live(rep, "random_miss", pr, mode, levels[i].live);
        if (d == NULL || p == NULL) {
            continue;
        }
        double miss_ns = miss != NULL ? miss->median_ns : NAN;
        double target = levels[i].per_miss ? miss_ns + MISS_SLACK_NS : 15;
        n = add_summary(s, n, pr, levels[i].name, d->median_ns, target, true,
                        "provider's added cost per random step with %lld "
                        "live allocations: %.1f ns (%.1f vs %.1f ns, ratio "
                        "%.3f)%s",
                        levels[i].live, d->median_ns, p->median_ns,
                        p->median_ns / p->ratio, p->ratio,
                        levels[i].per_miss ? "; target: one miss + 15 ns" : "");
        if (miss != NULL) {
            n = add_summary(
                s, n, pr, levels[i].miss_name, miss_ns, FIGURE, true,
                "one cache miss at %lld live allocations: a dependent load "
                "over %.1f MiB, the ownership table and the driver's records "
                "(where they fit a cache, a hit of it): %.1f ns",
                levels[i].live, (double)miss->size / (1 << 20), miss_ns);
        }
    }
    const bench_result_t *lo = NULL, *hi = NULL;
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *r = &rep->results[i];
        if (strcmp(r->name, "random_raw") != 0 ||
            strcmp(r->provider, pr) != 0 || strcmp(r->mode, mode) != 0) {
            continue;
        }
        lo = lo == NULL || r->live < lo->live ? r : lo;
        hi = hi == NULL || r->live > hi->live ? r : hi;
    }
    if (lo != NULL && hi != NULL && lo != hi) {
        double v = hi->median_ns / lo->median_ns;
        n = add_summary(s, n, pr, "driver_random_growth", v, FIGURE, true,
                        "the %s driver's own random step with %lld vs %lld "
                        "live allocations: %.2fx (%.1f vs %.1f ns)",
                        strcmp(mode, "real") == 0 ? "real" : "emulated",
                        hi->live, lo->live, v, hi->median_ns, lo->median_ns);
    }
    return n;
}

static size_t summarize(const bench_report_t *rep, summary_t *s) {
    size_t n = 0;
    static const char *const providers[] = {"ze", "cuda"};
    for (size_t p = 0; p < 2; p++) {
        const char *pr = providers[p];
        const char *mode = main_mode(rep, pr);
        const bench_result_t *added =
            find(rep, "alloc_free_added", pr, mode, 64, 1, 0);
        if (added != NULL) {
            n = add_summary(s, n, pr, "added_ns_64B", added->median_ns, FIGURE,
                            true,
                            "provider's added cost per 64 B alloc+free pair "
                            "(%s, 1 thread): %.1f ns",
                            mode, added->median_ns);
        }
        // CUDA's pair against Level Zero's, in the same run.
        const bench_result_t *ze_added =
            p == 1 ? find(rep, "alloc_free_added", "ze", main_mode(rep, "ze"),
                          64, 1, 0)
                   : NULL;
        if (added != NULL && ze_added != NULL) {
            double v = added->median_ns - ze_added->median_ns;
            n = add_summary(s, n, pr, "added_ns_64B_over_ze", v, 3, true,
                            "CUDA's added cost per 64 B pair over Level "
                            "Zero's: %.1f ns (%.1f vs %.1f ns)",
                            v, added->median_ns, ze_added->median_ns);
        }
        // memfd mode: the 64-byte ratio, and every size's for the record.
        const bench_result_t *m64 =
            find(rep, "alloc_free_provider", pr, "memfd", 64, 1, 0);
        if (m64 != NULL) {
            char sizes[128] = "";
            size_t used = 0;
            for (size_t i = 0; i < rep->count; i++) {
                const bench_result_t *r = &rep->results[i];
                if (strcmp(r->name, "alloc_free_provider") == 0 &&
                    strcmp(r->provider, pr) == 0 &&
                    strcmp(r->mode, "memfd") == 0 && r->threads == 1 &&
                    r->live == 0 && r->size != 64 && used < sizeof(sizes)) {
                    char size[32];
                    format_size(r->size, size, sizeof(size));
                    used += (size_t)snprintf(sizes + used, sizeof(sizes) - used,
                                             "; %s: %.3f", size, r->ratio);
                }
            }
            n = add_summary(s, n, pr, "memfd_ratio_64B", m64->ratio, 1.02, true,
                            "provider/raw ratio in memfd mode, 64 B: %.3f "
                            "(%.0f vs %.0f ns%s)",
                            m64->ratio, m64->median_ns,
                            m64->median_ns / m64->ratio, sizes);
        }
        n = summarize_random(rep, pr, mode, s, n);
        const bench_result_t *stall =
            find_name(rep, "residency_stall", pr, mode);
        if (stall != NULL) {
            n = add_summary(
                s, n, pr, "residency_stall_max_ns", stall->max_ns, 1e6, true,
                "alloc+free during a resident device change over "
                "%lld live allocations: p50 %.0f ns, p99 %.0f ns, "
                "max %.0f ns",
                stall->live, stall->median_ns, stall->p99_ns, stall->max_ns);
        }
        const bench_result_t *t1 =
            find(rep, "alloc_free_provider", pr, mode, 64, 1, 0);
        const bench_result_t *t2 =
            find(rep, "alloc_free_provider", pr, mode, 64, 2, 0);
        if (t1 != NULL && t2 != NULL) {
            double v = t2->ratio / t1->ratio;
            n = add_summary(s, n, pr, "threads_ratio_growth", v, 1.1, true,
                            "2-thread provider/raw ratio over the 1-thread "
                            "one: %.3f / %.3f = %.3f",
                            t2->ratio, t1->ratio, v);
        }
        static const char *const ipc_modes[] = {"arena", "memfd", "real"};
        static const char *const ipc_names[] = {"ipc_first_over_cached_arena",
                                                "ipc_first_over_cached_memfd",
                                                "ipc_first_over_cached_real"};
        for (size_t m = 0; m < 3; m++) {
            const bench_result_t *first = NULL;
            for (size_t i = 0; i < rep->count && first == NULL; i++) {
                const bench_result_t *r = &rep->results[i];
                if (strcmp(r->name, "ipc_open_first") == 0 &&
                    strcmp(r->provider, pr) == 0 &&
                    strcmp(r->mode, ipc_modes[m]) == 0) {
                    first = r;
                }
            }
            if (first != NULL) {
                n = add_summary(s, n, pr, ipc_names[m], first->ratio, 50, false,
                                "IPC first open / cached open (%s): %.0fx "
                                "(%.0f ns / %.1f ns)",
                                ipc_modes[m], first->ratio, first->median_ns,
                                first->median_ns / first->ratio);
            }
        }
        const bench_result_t *ref =
            find_name(rep, "machine_reference", pr, mode);
        if (ref != NULL) {
            n = add_summary(s, n, pr, "machine_speed_spread", ref->ratio,
                            BENCH_MACHINE_SPREAD, true,
                            "a fixed CPU loop before each measurement took "
                            "%.2f to %.2f ms (%.2fx): above %.2fx the "
                            "machine's own speed changed during the run, "
                            "and every figure moves with it",
                            ref->max_ns / ref->ratio / 1e6, ref->max_ns / 1e6,
                            ref->ratio, BENCH_MACHINE_SPREAD);
        }
        const bench_result_t *fresh =
            find_name(rep, "fresh_alloc_fill_free", pr, mode);
        if (fresh != NULL) {
            n = add_summary(s, n, pr, "fresh_fill_ratio", fresh->ratio, 3, true,
                            "fresh %.0f MiB alloc + 1-byte fill + free / the "
                            "fill alone on an existing allocation: %.2fx "
                            "(%.2f / %.2f ms)",
                            (double)fresh->size / (1 << 20), fresh->ratio,
                            fresh->median_ns / 1e6,
                            fresh->median_ns / fresh->ratio / 1e6);
        }
        double worst_err = NAN;
        unsigned worst_threads = 0;
        for (unsigned t = 1; t <= BENCH_MAX_THREADS; t++) {
            const bench_result_t *r =
                find(rep, "native_error", pr, mode, -1, t, 0);
            if (r != NULL && (isnan(worst_err) || r->median_ns > worst_err)) {
                worst_err = r->median_ns;
                worst_threads = t;
            }
        }
        n = add_summary(s, n, pr, "native_error_ns", worst_err, 20, true,
                        "get_last_native_error per call (slowest of 1..%d "
                        "threads: %u): %.1f ns",
                        BENCH_MAX_THREADS, worst_threads, worst_err);
    }
    return n;
}

// ---- Table -----------------------------------------------------------------

static void print_pairs(const bench_report_t *rep, const char *pr) {
    printf("  alloc+free pairs          provider ns/pair       raw ns/pair"
           "            added ns   ratio  Mpairs/s\n"
           "  mode   size    thr  live  median (p10..p90)      median "
           "(p10..p90)      median   p/raw  prov/raw\n");
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *p = &rep->results[i];
        if (strcmp(p->name, "alloc_free_provider") != 0 ||
            strcmp(p->provider, pr) != 0) {
            continue;
        }
        const bench_result_t *r = find(rep, "alloc_free_raw", pr, p->mode,
                                       p->size, p->threads, p->live);
        const bench_result_t *d = find(rep, "alloc_free_added", pr, p->mode,
                                       p->size, p->threads, p->live);
        char size[32], pd[64], rd[64] = "-";
        format_size(p->size, size, sizeof(size));
        format_dist(p, pd, sizeof(pd));
        if (r != NULL) {
            format_dist(r, rd, sizeof(rd));
        }
        printf("  %-6s %-7s %3u %5lld%s  %-21s  %-21s  %7.1f  %6.3f  "
               "%.2f/%.2f\n",
               p->mode, size, p->threads,
               p->live >= 1000000 ? p->live / 1000000
               : p->live >= 1000  ? p->live / 1000
                                  : p->live,
               p->live >= 1000000 ? "M"
               : p->live >= 1000  ? "k"
                                  : " ",
               pd, rd, d != NULL ? d->median_ns : NAN, p->ratio,
               p->throughput / 1e6, r != NULL ? r->throughput / 1e6 : NAN);
    }
}

static void format_live(long long live, char *out, size_t len) {
    if (live >= 1000000 && live % 1000000 == 0) {
        snprintf(out, len, "%lldM", live / 1000000);
    } else if (live >= 1000 && live % 1000 == 0) {
        snprintf(out, len, "%lldk", live / 1000);
    } else {
        snprintf(out, len, "%lld", live);
    }
}

static void print_random(const bench_report_t *rep, const char *pr) {
    bool header = false;
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *p = &rep->results[i];
        if (strcmp(p->name, "random_provider") != 0 ||
            strcmp(p->provider, pr) != 0) {
            continue;
        }
        if (!header) {
            printf("\n  random pattern: free a random one of L live, "
                   "allocate %d B..%d KiB in its place; one miss: a\n"
                   "  dependent load over the ownership table and the "
                   "driver's records at that scale\n"
                   "                            provider ns/step       raw "
                   "ns/step            added ns   ratio   one miss\n"
                   "  mode          thr  live   median (p10..p90)      "
                   "median (p10..p90)      median   p/raw   ns (MiB)\n",
                   BENCH_RANDOM_MIN, BENCH_RANDOM_MAX / 1024);
            header = true;
        }
        const bench_result_t *r =
            find(rep, "random_raw", pr, p->mode, p->size, p->threads, p->live);
        const bench_result_t *d = find(rep, "random_added", pr, p->mode,
                                       p->size, p->threads, p->live);
        const bench_result_t *m =
            find_name_live(rep, "random_miss", pr, p->mode, p->live);
        char live[32], pd[64], rd[64] = "-", miss[48] = "-";
        format_live(p->live, live, sizeof(live));
        format_dist(p, pd, sizeof(pd));
        if (r != NULL) {
            format_dist(r, rd, sizeof(rd));
        }
        if (m != NULL) {
            snprintf(miss, sizeof(miss), "%.1f (%.1f)", m->median_ns,
                     (double)m->size / (1 << 20));
        }
        printf("  %-6s        %3u  %-5s  %-21s  %-21s  %7.1f  %6.3f  %s\n",
               p->mode, p->threads, live, pd, rd,
               d != NULL ? d->median_ns : NAN, p->ratio, miss);
    }
}

static void print_others(const bench_report_t *rep, const char *pr) {
    bool header = false;
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *r = &rep->results[i];
        if (strcmp(r->provider, pr) != 0 ||
            strncmp(r->name, "alloc_free", 10) == 0 ||
            strncmp(r->name, "random_", 7) == 0) {
            continue;
        }
        if (!header) {
            printf("\n  other operations              mode   size    thr  "
                   "live  ns/op median (p10..p90)  ratio, or p99 / max\n");
            header = true;
        }
        char size[32], dist[64], live[32], extra[64] = "";
        format_size(r->size, size, sizeof(size));
        format_dist(r, dist, sizeof(dist));
        format_live(r->live, live, sizeof(live));
        if (!isnan(r->ratio)) {
            snprintf(extra, sizeof(extra), "%.1fx", r->ratio);
        } else if (!isnan(r->max_ns)) {
            snprintf(extra, sizeof(extra), "p99 %.0f / max %.0f", r->p99_ns,
                     r->max_ns);
        }
        printf("  %-29s %-6s %-7s %3u  %4s  %-25s  %s\n", r->name, r->mode,
               size, r->threads, live, dist, extra);
    }
}

void bench_report_print(const bench_report_t *rep, const bench_options_t *o) {
    printf("umf-gpu-bench%s: %u repetitions (+%u warm-up) of ~%.2g ms, %s "
           "time; median and p10..p90 of the repetitions\n",
           o->quick ? " --quick" : "", o->reps, o->warmup, o->rep_ns / 1e6,
           o->clock == BENCH_CLOCK_CPU ? "thread CPU" : "wall");
    for (size_t i = 0; i < rep->driver_count; i++) {
        printf("  driver: %s\n", rep->drivers[i]);
    }
    static const char *const providers[] = {"ze", "cuda"};
    for (size_t p = 0; p < 2; p++) {
        bool any = false;
        for (size_t i = 0; i < rep->count && !any; i++) {
            any = strcmp(rep->results[i].provider, providers[p]) == 0;
        }
        if (!any) {
            continue;
        }
        printf("\n%s\n", provider_title(providers[p]));
        print_pairs(rep, providers[p]);
        print_random(rep, providers[p]);
        print_others(rep, providers[p]);
    }
    summary_t s[MAX_SUMMARIES];
    size_t n = summarize(rep, s);
    printf("\n");
    for (size_t i = 0; i < n; i++) {
        if (!summary_has_target(&s[i])) {
            printf("summary %-4s %s (a figure, no target)\n", s[i].provider,
                   s[i].text);
            continue;
        }
        printf("summary %-4s %s (target %s %.4g%s): %s\n", s[i].provider,
               s[i].text, s[i].at_most ? "<=" : ">=", s[i].target,
               strstr(s[i].name, "_ns") != NULL ? " ns" : "",
               summary_met(&s[i]) ? "met" : "MISSED");
    }
    fflush(stdout);
}

// Closes a report file; false (said on stderr) if anything was not written.
static bool close_report(FILE *f, const char *path) {
    bool ok = !ferror(f);
    if (fclose(f) != 0) {
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "umf-gpu-bench: writing %s failed\n", path);
    }
    return ok;
}

// ---- Markdown --------------------------------------------------------------
//
// The table of targets of docs/performance.md (and the README's headline
// figures): one row per headline figure, a column per
// provider, each cell the figure and whether it met its target.

typedef struct md_row_t {
    const char *name;  // summary name
    const char *label; // what it measures, with its target
    int decimals;      // of the value; -1: p50 / p99 / max of a stall
    const char *unit;  // after the value
} md_row_t;

static const md_row_t md_rows[] = {
    {"added_ns_64B",
     "64 B alloc+free pair, arena: added by the provider (a figure)", 1, " ns"},
    {"added_ns_64B_over_ze",
     "CUDA's added cost per 64 B pair over Level Zero's, same run (≤ 3 ns)", 1,
     " ns"},
    {"memfd_ratio_64B", "same, memfd mode: provider / raw (≤ 1.02)", 3, ""},
    {"random_added_ns_1k",
     "random pattern, 1 000 live: added per step (≤ 15 ns)", 1, " ns"},
    {"random_miss_ns_100k",
     "one cache miss at 100 000 live: a dependent load over the ownership "
     "table and the driver's records (a figure)",
     1, " ns"},
    {"random_added_ns_100k",
     "random pattern, 100 000 live: added per step (≤ one miss + 15 ns)", 1,
     " ns"},
    {"random_miss_ns_1M", "one cache miss at 1 000 000 live (a figure)", 1,
     " ns"},
    {"random_added_ns_1M",
     "random pattern, 1 000 000 live: added per step (≤ one miss + 15 ns)", 1,
     " ns"},
    {"driver_random_growth",
     "the emulated driver's own random step, most vs fewest live (1 000 000 "
     "vs 1 000 by default; a figure)",
     2, "×"},
    {"residency_stall_max_ns",
     "another thread's alloc+free during a resident device change "
     "(over --residency-live, 400 000 by default), p50 / p99 / max (max ≤ 1 "
     "ms)",
     -1, ""},
    {"threads_ratio_growth",
     "2-thread provider/raw ratio over 1-thread (≤ 1.1)", 3, ""},
    {"ipc_first_over_cached_arena",
     "IPC first open / cached open, arena (≥ 50×)", 0, "×"},
    {"ipc_first_over_cached_memfd",
     "IPC first open / cached open, memfd (≥ 50×)", 0, "×"},
    {"native_error_ns", "`get_last_native_error` (≤ 20 ns)", 1, " ns"},
    {"fresh_fill_ratio",
     "fresh 100 MiB alloc + 1-byte fill + free vs the fill alone on an "
     "existing allocation (≤ 3×)",
     2, "×"},
    {"machine_speed_spread",
     "the machine's own speed: a fixed CPU loop before each measurement, "
     "slowest / fastest in the run (≤ 1.25×; above it every figure moves "
     "with the machine)",
     2, "×"},
};

static void md_cell(FILE *f, const bench_report_t *rep, const md_row_t *row,
                    const summary_t *s, size_t n, const char *pr) {
    const summary_t *e = NULL;
    for (size_t i = 0; i < n && e == NULL; i++) {
        if (strcmp(s[i].name, row->name) == 0 &&
            strcmp(s[i].provider, pr) == 0) {
            e = &s[i];
        }
    }
    if (e == NULL) {
        fprintf(f, " — |");
        return;
    }
    char value[160];
    const bench_result_t *stall =
        row->decimals < 0
            ? find_name(rep, "residency_stall", pr, main_mode(rep, pr))
            : NULL;
    const bench_result_t *idle =
        stall != NULL ? find_name(rep, "residency_idle", pr, stall->mode)
                      : NULL;
    if (stall != NULL) {
        // With the max of pairs for as long with no change: on a shared
        // machine a max in wall time is often a preemption, not a wait.
        snprintf(
            value, sizeof(value),
            "%.0f ns / %.0f ns / %.2f ms (no change, as long: max %.2f ms)",
            stall->median_ns, stall->p99_ns, stall->max_ns / 1e6,
            idle != NULL ? idle->max_ns / 1e6 : NAN);
    } else {
        snprintf(value, sizeof(value), "%.*f%s",
                 row->decimals < 0 ? 0 : row->decimals, e->value, row->unit);
    }
    char target[64] = "";
    if (summary_has_target(e) && strstr(row->label, "one miss") != NULL) {
        snprintf(target, sizeof(target), " (≤ %.1f)", e->target);
    }
    fprintf(f, " %s%s%s |", value, target, summary_met(e) ? "" : " (missed)");
}

// The random pattern at every scale: the miss and, per provider, the step
// through the provider and raw, and what the provider adds.
static void md_random(FILE *f, const bench_report_t *rep) {
    fprintf(f, "\n| random pattern, live | one miss | Level Zero: provider / "
               "raw, added | CUDA: provider / raw, added |\n"
               "| --- | --- | --- | --- |\n");
    static const char *const providers[] = {"ze", "cuda"};
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *m = &rep->results[i];
        // One row per level, at the first provider that measured it.
        if (strcmp(m->name, "random_miss") != 0 ||
            (strcmp(m->provider, "cuda") == 0 &&
             find_name_live(rep, "random_miss", "ze", m->mode, m->live))) {
            continue;
        }
        char live[32];
        format_live(m->live, live, sizeof(live));
        fprintf(f, "| %s | %.1f ns (%.1f MiB) |", live, m->median_ns,
                (double)m->size / (1 << 20));
        for (size_t p = 0; p < 2; p++) {
            const char *pr = providers[p];
            const bench_result_t *pv =
                find(rep, "random_provider", pr, m->mode, -1, 1, m->live);
            const bench_result_t *rw =
                find(rep, "random_raw", pr, m->mode, -1, 1, m->live);
            const bench_result_t *ad =
                find(rep, "random_added", pr, m->mode, -1, 1, m->live);
            if (pv == NULL || rw == NULL || ad == NULL) {
                fprintf(f, " — |");
                continue;
            }
            fprintf(f, " %.1f / %.1f ns, %.1f ns |", pv->median_ns,
                    rw->median_ns, ad->median_ns);
        }
        fputc('\n', f);
    }
}

bool bench_report_write_markdown(const bench_report_t *rep,
                                 const bench_options_t *o, const char *path) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return false;
    }
    summary_t s[MAX_SUMMARIES];
    size_t n = summarize(rep, s);
    fprintf(f,
            "<!-- umf-gpu-bench%s --markdown: %u repetitions of ~%.2g ms, "
            "%s time, medians -->\n",
            o->quick ? " --quick" : "", o->reps, o->rep_ns / 1e6,
            o->clock == BENCH_CLOCK_CPU ? "thread CPU" : "wall");
    fprintf(f, "| measurement (target) | Level Zero | CUDA |\n"
               "| --- | --- | --- |\n");
    for (size_t r = 0; r < sizeof(md_rows) / sizeof(md_rows[0]); r++) {
        fprintf(f, "| %s |", md_rows[r].label);
        md_cell(f, rep, &md_rows[r], s, n, "ze");
        md_cell(f, rep, &md_rows[r], s, n, "cuda");
        fputc('\n', f);
    }
    md_random(f, rep);
    return close_report(f, path);
}

// ---- JSON ------------------------------------------------------------------

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

// A number, or null for NAN (JSON has no NaN).
static void json_number(FILE *f, double v) {
    if (isnan(v) || isinf(v)) {
        fputs("null", f);
    } else {
        fprintf(f, "%.6g", v);
    }
}

bool bench_report_write_json(const bench_report_t *rep,
                             const bench_options_t *o, const char *path) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return false;
    }
    char host[256] = "";
    if (gethostname(host, sizeof(host) - 1) != 0) {
        host[0] = '\0';
    }
    fprintf(f, "{\n  \"benchmark\": \"umf-gpu-bench\",\n  \"parameters\": {\n");
    fprintf(f, "    \"quick\": %s,\n", o->quick ? "true" : "false");
    fprintf(f, "    \"clock\": \"%s\",\n",
            o->clock == BENCH_CLOCK_CPU ? "thread_cpu" : "wall");
    fprintf(f, "    \"repetitions\": %u,\n    \"warmup\": %u,\n", o->reps,
            o->warmup);
    fprintf(f, "    \"repetition_target_ns\": %.0f,\n", o->rep_ns);
    fprintf(f, "    \"providers\": [%s%s%s],\n",
            o->providers & BENCH_PROVIDER_ZE ? "\"ze\"" : "",
            (o->providers & BENCH_PROVIDER_ZE) &&
                    (o->providers & BENCH_PROVIDER_CUDA)
                ? ", "
                : "",
            o->providers & BENCH_PROVIDER_CUDA ? "\"cuda\"" : "");
    fprintf(f, "    \"pair_sizes\": [64, 4096, 2097152],\n");
    fprintf(f, "    \"random_sizes\": [%d, %d],\n", BENCH_RANDOM_MIN,
            BENCH_RANDOM_MAX);
    fprintf(f, "    \"live\": [");
    for (unsigned i = 0; i < o->live_count; i++) {
        fprintf(f, "%s%zu", i ? ", " : "", o->live[i]);
    }
    fprintf(f, "],\n    \"residency_live\": %zu,\n", o->residency_live);
    fprintf(f, "    \"threads\": [1, %d],\n", BENCH_MAX_THREADS);
    fprintf(f,
            "    \"ipc_size\": %zu,\n    \"ipc_handles\": %u,\n"
            "    \"ipc_cached_opens\": %u,\n    \"ipc_repetitions\": %u,\n",
            o->ipc_size, o->ipc_handles, o->ipc_cached, o->ipc_reps);
    fprintf(
        f, "    \"cpus\": %ld,\n    \"host\": ", sysconf(_SC_NPROCESSORS_ONLN));
    json_string(f, host);
    fprintf(f, ",\n    \"drivers\": [");
    for (size_t i = 0; i < rep->driver_count; i++) {
        fprintf(f, "%s\n      ", i ? "," : "");
        json_string(f, rep->drivers[i]);
    }
    fprintf(f, "]\n  },\n  \"measurements\": [");
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result_t *r = &rep->results[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, r->name);
        fprintf(f, ", \"provider\": ");
        json_string(f, r->provider);
        fprintf(f, ", \"mode\": ");
        json_string(f, r->mode);
        if (r->size < 0) {
            fprintf(f, ", \"size\": null");
        } else {
            fprintf(f, ", \"size\": %lld", r->size);
        }
        fprintf(f, ", \"threads\": %u, \"live\": %lld, \"median_ns\": ",
                r->threads, r->live);
        json_number(f, r->median_ns);
        fprintf(f, ", \"p10_ns\": ");
        json_number(f, r->p10_ns);
        fprintf(f, ", \"p90_ns\": ");
        json_number(f, r->p90_ns);
        if (!isnan(r->ratio)) {
            fprintf(f, ", \"ratio\": ");
            json_number(f, r->ratio);
        }
        if (!isnan(r->throughput)) {
            fprintf(f, ", \"throughput_per_s\": ");
            json_number(f, r->throughput);
        }
        if (!isnan(r->p99_ns)) {
            fprintf(f, ", \"p99_ns\": ");
            json_number(f, r->p99_ns);
        }
        if (!isnan(r->max_ns)) {
            fprintf(f, ", \"max_ns\": ");
            json_number(f, r->max_ns);
        }
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"summary\": [");
    summary_t s[MAX_SUMMARIES];
    size_t n = summarize(rep, s);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, s[i].name);
        fprintf(f, ", \"provider\": ");
        json_string(f, s[i].provider);
        fprintf(f, ", \"text\": ");
        json_string(f, s[i].text);
        fprintf(f, ", \"value\": ");
        json_number(f, s[i].value);
        fprintf(f, ", \"target\": ");
        json_number(f, s[i].target);
        if (!summary_has_target(&s[i])) {
            fprintf(f, ", \"comparison\": null, \"met\": null}");
            continue;
        }
        fprintf(
            f, ", \"comparison\": \"%s\", \"met\": %s}",
            s[i].at_most ? "<=" : ">=", summary_met(&s[i]) ? "true" : "false");
    }
    fprintf(f, "\n  ]\n}\n");
    return close_report(f, path);
}
