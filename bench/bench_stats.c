// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Clocks, quantiles, and the one-line form in which a run child hands a
// result to the main process.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double bench_now(bench_clock_t clock) {
    struct timespec ts;
    clock_gettime(clock == BENCH_CLOCK_CPU ? CLOCK_THREAD_CPUTIME_ID
                                           : CLOCK_MONOTONIC,
                  &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_quantile(double *samples, size_t n, double q) {
    if (n == 0) {
        return NAN;
    }
    qsort(samples, n, sizeof(*samples), compare_double);
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    if (lo + 1 >= n) {
        return samples[n - 1];
    }
    double frac = pos - (double)lo;
    return samples[lo] + (samples[lo + 1] - samples[lo]) * frac;
}

void bench_summarize(bench_result_t *r, double *samples, size_t n) {
    r->median_ns = bench_quantile(samples, n, 0.5);
    r->p10_ns = bench_quantile(samples, n, 0.1);
    r->p90_ns = bench_quantile(samples, n, 0.9);
}

void bench_summarize_tail(bench_result_t *r, double *samples, size_t n) {
    bench_summarize(r, samples, n);
    r->p99_ns = bench_quantile(samples, n, 0.99);
    r->max_ns = n > 0 ? samples[n - 1] : NAN; // sorted by the quantiles
}

void bench_result_init(bench_result_t *r, const char *name,
                       const char *provider, const char *mode, long long size,
                       unsigned threads, long long live) {
    memset(r, 0, sizeof(*r));
    snprintf(r->name, sizeof(r->name), "%s", name);
    snprintf(r->provider, sizeof(r->provider), "%s", provider);
    snprintf(r->mode, sizeof(r->mode), "%s", mode);
    r->size = size;
    r->threads = threads;
    r->live = live;
    r->median_ns = r->p10_ns = r->p90_ns = NAN;
    r->ratio = NAN;
    r->throughput = NAN;
    r->p99_ns = r->max_ns = NAN;
}

// "M name provider mode size threads live median p10 p90 ratio throughput
// p99 max"; %a keeps every bit of the doubles, and NAN reads back as nan.
void bench_write_result(const bench_result_t *r) {
    printf("M %s %s %s %lld %u %lld %a %a %a %a %a %a %a\n", r->name,
           r->provider, r->mode, r->size, r->threads, r->live, r->median_ns,
           r->p10_ns, r->p90_ns, r->ratio, r->throughput, r->p99_ns, r->max_ns);
    fflush(stdout);
}

bool bench_parse_result(const char *line, bench_result_t *r) {
    char name[BENCH_NAME_MAX], provider[8], mode[8];
    char num[7][64];
    long long size, live;
    unsigned threads;
    if (sscanf(line,
               "M %31s %7s %7s %lld %u %lld %63s %63s %63s %63s %63s %63s "
               "%63s",
               name, provider, mode, &size, &threads, &live, num[0], num[1],
               num[2], num[3], num[4], num[5], num[6]) != 13) {
        return false;
    }
    bench_result_init(r, name, provider, mode, size, threads, live);
    double *fields[7] = {&r->median_ns,  &r->p10_ns, &r->p90_ns, &r->ratio,
                         &r->throughput, &r->p99_ns, &r->max_ns};
    for (int i = 0; i < 7; i++) {
        char *end = NULL;
        *fields[i] = strtod(num[i], &end);
        if (end == num[i] || *end != '\0') {
            return false;
        }
    }
    return true;
}
