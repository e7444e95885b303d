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
    const char *md_path;   // --markdown FILE, or NULL
    unsigned live_count;   // live allocation levels for the scale runs
    size_t live[BENCH_MAX_LIVE_LEVELS];
    size_t residency_live; // live allocations during residency changes
    unsigned ipc_handles;  // allocations shared per IPC repetition
    unsigned ipc_cached;   // cached re-opens of each handle per repetition
    size_t ipc_size;       // size of the shared allocations
    unsigned ipc_reps;     // repetitions of the IPC measurements
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
    double p99_ns;     // NAN unless the measurement keeps a tail
    double max_ns;     // NAN unless the measurement keeps a tail
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
// The same, plus p99 and the maximum: for latencies of single operations.
void bench_summarize_tail(bench_result_t *r, double *samples, size_t n);

// ---- Results on the wire: run child -> main process ----------------------

// Writes r as one line to stdout ("M ..."), flushed.
void bench_write_result(const bench_result_t *r);
// Parses such a line; false if it is not one.
bool bench_parse_result(const char *line, bench_result_t *r);

// Fills the identifying fields of r and NAN for every figure.
void bench_result_init(bench_result_t *r, const char *name,
                       const char *provider, const char *mode, long long size,
                       unsigned threads, long long live);

// ---- Drivers (bench_ze.c, bench_cuda.c) ----------------------------------

typedef struct bench_driver_t bench_driver_t;

// ---- The random pattern (bench_random.c) ----------------------------------
//
// `live` allocations stay alive; each step frees a random one and allocates
// one of a random size in [BENCH_RANDOM_MIN, BENCH_RANDOM_MAX] in its
// place, as RMM's random_allocations benchmark does. The provider and the
// raw driver each hold a set of their own, stepped by the same code.

#define BENCH_RANDOM_MIN 64
#define BENCH_RANDOM_MAX 4096

// One live allocation: its pointer and size on one cache line, so that a
// step of the benchmark itself touches one random line.
typedef struct bench_random_slot_t {
    void *ptr;
    size_t size;
} bench_random_slot_t;

typedef struct bench_random_t {
    bench_random_slot_t *slots; // huge pages where the system has them
    size_t live;
    uint64_t rng; // xorshift64 state, never 0
} bench_random_t;

static inline uint64_t bench_random_u64(bench_random_t *r) {
    uint64_t x = r->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    r->rng = x;
    return x;
}

// One step's choice: the slot to free and reuse, and the new size.
static inline size_t bench_random_step(bench_random_t *r, size_t *size) {
    uint64_t x = bench_random_u64(r);
    // The high bits pick the slot (a multiply, no division), the low bits
    // the size.
    size_t slot = (size_t)(((unsigned __int128)(x >> 16) * r->live) >> 48);
    *size = BENCH_RANDOM_MIN +
            (size_t)(x & 0xffff) % (BENCH_RANDOM_MAX - BENCH_RANDOM_MIN + 1);
    return slot;
}

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
    // One raw allocation of `size` device bytes, and one raw free.
    bool (*raw_alloc)(bench_driver_t *d, size_t size, void **ptr);
    bool (*raw_free)(bench_driver_t *d, void *ptr);
    // n steps of the random pattern (bench_random_step) on raw driver calls.
    bool (*raw_random)(bench_driver_t *d, bench_random_t *r, long n);
    // Adds (or removes) a resident device of a provider made by
    // provider_create, on the driver's second device (or its only one);
    // NULL where the provider has no resident devices.
    umf_result_t (*resident_change)(bench_driver_t *d,
                                    umf_memory_provider_handle_t provider,
                                    bool adding);
} bench_backend_t;

extern const bench_backend_t bench_backend_ze;
extern const bench_backend_t bench_backend_cuda;

// The device the run uses (bench_cuda.c), for the measurements of the CUDA
// driver's own calls (bench_cuda_driver.c, bench_cuda_vmm.c).
int bench_cuda_device(const bench_driver_t *d);
// A DEVICE provider on the driver's context and device in allocation mode
// `mode` (a umf_cuda_allocation_mode_t; 0 is provider_create's).
umf_result_t bench_cuda_provider_create_mode(bench_driver_t *d, int mode,
                                             umf_memory_provider_handle_t *out);

// ---- Run child (bench_run.c) and IPC (bench_ipc.c) ------------------------

// What a measurement runs on: one provider of one driver in one mode.
// The slowest over the fastest run of machine_reference above which the
// machine's own speed changed during a run (bench_run.c warns).
#define BENCH_MACHINE_SPREAD 1.25

typedef struct bench_run_t {
    const bench_options_t *o;
    const bench_backend_t *backend;
    bench_driver_t *driver;
    umf_memory_provider_handle_t provider;
    const char *mode; // "arena", "memfd" or "real"
} bench_run_t;

// Measures `backend` in the memory mode of the environment; writes results
// to stdout. Returns the process exit status.
int bench_run_child(const bench_options_t *o, const bench_backend_t *backend,
                    const char *mode);

// ---- Measurements: the registration point (bench_measures.c) --------------
//
// A measurement runs in a run child on one provider in one memory mode and
// writes its results with bench_write_result (a name of at most
// BENCH_NAME_MAX - 1 characters; the table lists results it does not know
// under "other operations", and the JSON carries them all). To add one:
// define a bench_measure_t in a bench/ file of your own, declare it below and
// list it in bench_measures.c, and name its results in bench_smoke.cmake.

// The modes a measurement runs in.
#define BENCH_MODE_FULL 1u  // the arena mode of the emulated drivers, or real
#define BENCH_MODE_MEMFD 2u // the memfd mode of the emulated drivers

typedef struct bench_measure_t {
    const char *name; // for failure messages
    unsigned modes;   // BENCH_MODE_*
    // False after reporting why (bench_fail): the run child fails.
    bool (*run)(const bench_run_t *run);
} bench_measure_t;

extern const bench_measure_t bench_measure_pairs;       // bench_run.c
extern const bench_measure_t bench_measure_threads;     // bench_run.c
extern const bench_measure_t bench_measure_random;      // bench_random.c
extern const bench_measure_t bench_measure_error;       // bench_run.c
extern const bench_measure_t bench_measure_residency;   // bench_residency.c
extern const bench_measure_t bench_measure_ipc;         // bench_measures.c
extern const bench_measure_t bench_measure_cuda_driver; // bench_cuda_driver.c
extern const bench_measure_t bench_measure_cuda_vmm;    // bench_cuda_vmm.c
extern const bench_measure_t bench_measure_ze_driver;   // bench_ze_driver.c
extern const bench_measure_t bench_measure_ze_commands; // bench_ze_commands.c
extern const bench_measure_t bench_measure_ze_kernels;  // bench_ze_kernels.c
extern const bench_measure_t bench_measure_trust;       // bench_trust.c
extern const bench_measure_t bench_measure_fd_server;   // bench_fd_server.c

// The Level Zero loader bench_ze.c opened, its context and device, for
// measurements of the driver's own calls (builds with Level Zero only).
bool bench_ze_driver_handles(bench_driver_t *d, void **loader, void **context,
                             void **device);

// The measurements in the order they run, NULL-terminated.
extern const bench_measure_t *const bench_measures[];

// A paired measurement: `provider` and `raw` batches (n operations each,
// one arg per thread) alternate repetition by repetition on `threads`
// threads; writes <name>_provider, <name>_raw (ns per operation, ratio and
// throughput) and <name>_added (provider minus raw, per repetition).
typedef bool (*bench_batch_fn)(void *arg, long n);

// An alloc+free batch's argument, and the batch that makes `n` pairs of
// `size` bytes through `provider` (bench_run.c); its first failure goes to
// `error`.
typedef struct bench_pair_arg_t {
    const bench_backend_t *backend;
    bench_driver_t *driver;
    umf_memory_provider_handle_t provider;
    size_t size;
    umf_result_t error;
} bench_pair_arg_t;
bool bench_provider_pairs(void *arg, long n);

typedef struct bench_paired_t {
    const char *name; // the results' prefix, e.g. "alloc_free"
    long long size;
    unsigned threads;
    long long live;
    bench_batch_fn provider, raw;
    void *provider_arg[BENCH_MAX_THREADS];
    void *raw_arg[BENCH_MAX_THREADS];
} bench_paired_t;

// False if a batch failed or a thread could not start (nothing written).
bool bench_measure_paired(const bench_run_t *run, const bench_paired_t *m);

// A measurement of one path: batches of n operations on `threads` threads
// (one arg each); writes `name` (ns per operation, throughput). False, with
// nothing written, as bench_measure_paired.
typedef struct bench_single_t {
    const char *name;
    long long size;
    unsigned threads;
    long long live;
    bench_batch_fn fn;
    void *arg[BENCH_MAX_THREADS];
} bench_single_t;

bool bench_measure_single(const bench_run_t *run, const bench_single_t *m);

// The line of a record that the emulated drivers' free reads
// (mock/mock_registry.h: an arena record's first line).
#define BENCH_DRIVER_RECORD_LINE 64

// The bytes random_miss chases through at `live` allocations per set: the
// provider's ownership table and the drivers' record lines of both sets.
size_t bench_miss_bytes(size_t live);

// Reports a failed provider call with the provider's native error.
void bench_provider_error(const bench_run_t *run, const char *what,
                          umf_result_t ret);

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

// A driver function a measurement calls directly, and where it goes.
typedef struct bench_symbol_t {
    const char *name;
    void **fn;
} bench_symbol_t;
// Looks up the `n` symbols in `lib`: false, reported for `provider`, at
// the first one missing.
bool bench_resolve(void *lib, const bench_symbol_t *syms, size_t n,
                   const char *provider);
// The same in the CUDA driver a run loaded (bench_cuda.c).
bool bench_cuda_resolve(bench_driver_t *d, const bench_symbol_t *syms,
                        size_t n);

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
// The table of targets of docs/performance.md (a Markdown table).
bool bench_report_write_markdown(const bench_report_t *rep,
                                 const bench_options_t *o, const char *path);

#endif // UMF_GPU_BENCH_H
