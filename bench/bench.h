// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-bench: what the benchmark's files share.
//
// One run has three kinds of process, all the same binary:
// - the main process (bench_main.c) reads the options and, for each
//   provider and each memory mode of the emulated driver, starts a "run"
//   child with UMF_GPU_MOCK_MEMORY set (the driver reads it once, when it is
//   loaded), collects the results the child writes to its stdout, and
//   prints the table and the JSON document (bench_report.c);
// - a run child (bench_run.c) loads one driver, measures, and writes one
//   line per measurement (bench_write_result);
// - an IPC consumer (bench_ipc.c), started by a run child, opens the IPC
//   handles that the run child sends over a socket.
// The drivers are reached through bench_backend_t (bench_ze.c,
// bench_cuda.c): the provider, and the same driver call made directly.

#ifndef UMF_GPU_BENCH_H
#define UMF_GPU_BENCH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/memory_provider.h>

// Limits of the arrays the options size.
#define BENCH_MAX_REPS 201
#define BENCH_MAX_THREADS 2
#define BENCH_MAX_LIVE_LEVELS 3
#define BENCH_NAME_MAX 32

typedef enum bench_clock_t {
    BENCH_CLOCK_CPU = 0, // the thread's CPU time (user + system)
    BENCH_CLOCK_WALL,    // CLOCK_MONOTONIC
} bench_clock_t;

typedef struct bench_options_t {
    bool quick;
    bench_clock_t clock;
    unsigned reps;         // measured repetitions of every measurement
    unsigned warmup;       // repetitions run first and thrown away
    double rep_ns;         // the target duration of one repetition
    unsigned providers;    // mask of BENCH_PROVIDER_* to measure
    bool system_drivers;   // do not point the drivers at the emulated ones
    const char *json_path; // --json FILE, or NULL
    unsigned live_count;   // live allocation levels for the scale runs
    size_t live[BENCH_MAX_LIVE_LEVELS];
    unsigned ipc_handles; // allocations shared per IPC repetition
    unsigned ipc_cached;  // cached re-opens of each handle per repetition
    size_t ipc_size;      // size of the shared allocations
    unsigned ipc_reps;    // repetitions of the IPC measurements
} bench_options_t;

#define BENCH_PROVIDER_ZE 1u
#define BENCH_PROVIDER_CUDA 2u

// One measurement: a distribution of ns per operation.
typedef struct bench_result_t {
    char name[BENCH_NAME_MAX];
    char provider[8]; // "ze" or "cuda"
    char mode[8];     // "arena", "memfd", or "real" (not an emulated driver)
    long long size;   // bytes per allocation; -1 where none applies
    unsigned threads;
    long long live;   // allocations held while measuring
    double median_ns; // per operation
    double p10_ns;
    double p90_ns;
    double ratio;      // NAN where none applies
    double throughput; // operations per second of all threads; NAN: none
} bench_result_t;

// ---- Options (bench_main.c) -----------------------------------------------

// Sets the defaults of a normal (or --quick) run.
void bench_options_defaults(bench_options_t *o, bool quick);

// ---- Time and statistics (bench_stats.c) ----------------------------------

// Now, in ns, on `clock`.
double bench_now(bench_clock_t clock);

// The q-quantile (0..1) of n samples, which it sorts; linear interpolation.
double bench_quantile(double *samples, size_t n, double q);

// Fills median, p10 and p90 of r from n samples (sorted in place).
void bench_summarize(bench_result_t *r, double *samples, size_t n);

// ---- Results on the wire: run child -> main process ----------------------

// Writes r as one line to stdout ("M ..."), flushed.
void bench_write_result(const bench_result_t *r);
// Parses such a line; false if it is not one.
bool bench_parse_result(const char *line, bench_result_t *r);

// Fills the identifying fields of r and NAN for ratio and throughput.
void bench_result_init(bench_result_t *r, const char *name,
                       const char *provider, const char *mode, long long size,
                       unsigned threads, long long live);

// ---- Drivers (bench_ze.c, bench_cuda.c) ----------------------------------

typedef struct bench_driver_t bench_driver_t;

typedef struct bench_backend_t {
    const char *name;  // "ze", "cuda": --provider, JSON "provider"
    const char *title; // "Level Zero DEVICE"
    unsigned bit;      // BENCH_PROVIDER_*
    // The provider's ops table; NULL when the build left the provider out.
    const umf_memory_provider_ops_t *(*ops)(void);
    // Loads the driver the way the provider does, makes (or takes) a
    // context on the first device and makes it current in the calling
    // thread. False with the reason in why.
    bool (*open)(bench_driver_t **out, char *why, size_t why_len);
    void (*close)(bench_driver_t *d);
    // Whether the driver is the emulated one of this project; and what was
    // loaded (a path), for the report.
    bool (*emulated)(const bench_driver_t *d);
    const char *(*describe)(const bench_driver_t *d);
    // Prepares a thread other than the one that opened (CUDA: makes the
    // context current).
    bool (*thread_enter)(bench_driver_t *d);
    // A DEVICE memory provider on the driver's context and device.
    umf_result_t (*provider_create)(bench_driver_t *d,
                                    umf_memory_provider_handle_t *out);
    // n pairs of the raw driver calls: allocate `size` device bytes, free.
    bool (*raw_pairs)(bench_driver_t *d, size_t size, long n);
} bench_backend_t;

extern const bench_backend_t bench_backend_ze;
extern const bench_backend_t bench_backend_cuda;

// ---- Run child (bench_run.c) and IPC (bench_ipc.c) ------------------------

// Measures `backend` in the memory mode of the environment; writes results
// to stdout. Returns the process exit status.
int bench_run_child(const bench_options_t *o, const bench_backend_t *backend,
                    const char *mode);

// The IPC measurements: a producer here, a consumer in a child process
// (this binary again). `mode` names the results.
bool bench_ipc_producer(const bench_options_t *o,
                        const bench_backend_t *backend, bench_driver_t *d,
                        umf_memory_provider_handle_t provider,
                        const char *mode);
// The consumer's main: `sock` is its end of the producer's socket.
int bench_ipc_consumer(const bench_options_t *o, const bench_backend_t *backend,
                       const char *mode, int sock);

// Reports a failure of the run child on stderr, with the provider's native
// error where there is one.
void bench_fail(const char *provider, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// ---- Report (bench_report.c) ----------------------------------------------

typedef struct bench_report_t {
    bench_result_t *results;
    size_t count;
    size_t capacity;
    // One line per provider and mode run: which driver it ran on.
    char drivers[8][256];
    size_t driver_count;
    int failures; // run children that failed
} bench_report_t;

bool bench_report_add(bench_report_t *rep, const bench_result_t *r);
void bench_report_print(const bench_report_t *rep, const bench_options_t *o);
bool bench_report_write_json(const bench_report_t *rep,
                             const bench_options_t *o, const char *path);

#endif // UMF_GPU_BENCH_H
