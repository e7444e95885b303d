// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one test harness for the GPU providers: it brings up a driver of each
// kind (Level Zero, CUDA) once per process, as an application does, and
// makes providers on it. Every suite that needs a driver or a provider uses
// it: the providers' suites, the contract suite, the reliability suites, the
// fuzz targets. C API, so that the fuzz targets (C) use it too; the
// GoogleTest layer is gpu_test.h.
//
//   const umf_test_gpu_t *g = umf_test_gpu(UMF_TEST_GPU_CUDA);
//   if (g->why != NULL) { ... unusable: skip or fail, saying g->why ... }
//   umf_memory_provider_handle_t h;
//   umf_test_gpu_provider(g, NULL, &h);          // DEVICE memory, device 0
//   void *p;
//   umfMemoryProviderAlloc(h, 4096, 0, &p);
//   umf_test_gpu_fill(g, NULL, p, 4096, 7);      // driver copies, never a
//   umf_test_gpu_check(g, NULL, p, 4096, 7);     // host dereference
//
// The drivers are those the environment names, as for the library:
// ZE_ENABLE_ALT_DRIVERS (the loader's alternative driver) and
// UMF_GPU_ZE_LOADER for Level Zero, UMF_GPU_CUDA_LIB for CUDA. ctest sets
// them to the build's emulated drivers; pointed at real drivers, the same
// tests run on a GPU. What only the emulated drivers have (fault injection,
// call and live counts, the leak report) is `mock`, all NULL on a real
// driver: suites that need it skip there (g->emulated).
//
// Data moves only with the drivers' copy calls (Level Zero: an immediate
// command list; CUDA: cuMemcpy between a push and a pop of the context),
// none of which the providers call, so that a fault rule on a provider's
// entry point never hits the test's own copies.

#ifndef UMF_GPU_TEST_GPU_HARNESS_H
#define UMF_GPU_TEST_GPU_HARNESS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/gpu_mock.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum umf_test_gpu_kind_t {
    UMF_TEST_GPU_LEVEL_ZERO = 0,
    UMF_TEST_GPU_CUDA = 1,
} umf_test_gpu_kind_t;

#define UMF_TEST_GPU_KIND_COUNT 2
#define UMF_TEST_GPU_MAX_DEVICES 16

// The emulated driver's control API (include/umf/gpu_mock.h).
typedef struct umf_test_gpu_mock_t {
    umf_gpu_mock_inject_faults_fn inject;
    umf_gpu_mock_clear_faults_fn clear;
    umf_gpu_mock_get_call_count_fn calls;
    umf_gpu_mock_reset_call_counts_fn reset_calls;
    umf_gpu_mock_get_live_count_fn live;
    umf_gpu_mock_get_object_count_fn object_count;
    umf_gpu_mock_write_leak_report_fn leak_report;
} umf_test_gpu_mock_t;

typedef struct umf_test_gpu_t {
    umf_test_gpu_kind_t kind;
    const char *name;  // "level_zero" or "cuda": for test names and messages
    const char *title; // "Level Zero" or "CUDA"
    // NULL when the driver is usable; else why not ("not in this build", a
    // missing library, no device, ...).
    const char *why;
    // The emulated driver: `mock` is complete. False on a real driver.
    bool emulated;
    const umf_memory_provider_ops_t *ops; // the provider's ops table

    // The harness's own context: Level Zero, one made with zeContextCreate;
    // CUDA, device 0's primary context (retained). Neither is ever current
    // on a thread because of the harness.
    void *context;
    int device_count;
    // Level Zero: the driver and its devices' handles (the first
    // UMF_TEST_GPU_MAX_DEVICES). CUDA: NULL; devices are ordinals.
    void *driver;
    void *devices[UMF_TEST_GPU_MAX_DEVICES];

    umf_test_gpu_mock_t mock; // all NULL unless `emulated`

    // Every driver entry point the provider calls (the fault suites' rows),
    // the driver's initialisation call ("zeInit", "cuInit") apart.
    const char *const *provider_calls;
    size_t provider_call_count;
    const char *init_call;
    // A result that a fault injects and the provider maps to
    // UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, its name, and the driver's
    // "out of device memory".
    int32_t fault_code;
    const char *fault_name;
    int32_t oom_code;
} umf_test_gpu_t;

// The kind's driver, brought up on first use (thread-safe). Never NULL;
// check ->why. Level Zero: zeInit, the first driver, its devices, a
// context. CUDA: cuInit, the device count, device 0's primary context.
const umf_test_gpu_t *umf_test_gpu(umf_test_gpu_kind_t kind);

// The kinds this build has, in order; returns how many (at most
// UMF_TEST_GPU_KIND_COUNT). A kind of the build may still be unusable.
int umf_test_gpu_kinds(umf_test_gpu_kind_t kinds[UMF_TEST_GPU_KIND_COUNT]);

// "level_zero" or "cuda" (also for kinds not in the build).
const char *umf_test_gpu_kind_name(umf_test_gpu_kind_t kind);

// Releases the harness's contexts of every kind brought up, for processes
// that end under the emulated drivers' strict leak check. The kinds are
// unusable afterwards (why: "released").
void umf_test_gpu_release_all(void);

// ---------------------------------------------------------------- contexts

// A new context on device `device` (an index; Level Zero contexts span the
// driver, so the index only has to be valid), or NULL. The calling thread's
// current CUDA context is left as it was. Destroy it with
// umf_test_gpu_context_destroy(), which returns true on success.
void *umf_test_gpu_context_create(const umf_test_gpu_t *g, int device);
bool umf_test_gpu_context_destroy(const umf_test_gpu_t *g, void *context);

// --------------------------------------------------------------- providers

// How a provider is made. All zero is a DEVICE provider on device 0 of the
// harness's context; each field changes one thing.
typedef struct umf_test_provider_opts_t {
    umf_usm_memory_type_t type; // UMF_MEMORY_TYPE_UNKNOWN (0) means DEVICE
    void *context;              // NULL: g->context
    int device;                 // index; Level Zero HOST providers get none
    const char *name;           // NULL: the provider's default name
    // Level Zero: bit i makes devices[i] resident; the BLOCKING_FREE policy.
    uint32_t resident_mask;
    bool blocking_free;
    // CUDA: umfCUDAMemoryProviderParamsSetAllocFlags(alloc_flags).
    bool set_alloc_flags;
    unsigned alloc_flags;
    // CUDA: a umf_cuda_allocation_mode_t (0: the default mode); with a VMM
    // mode, bit i of resident_mask makes device i resident.
    int cuda_mode;
} umf_test_provider_opts_t;

// umfMemoryProviderCreate's result with the kind's ops and parameters made
// from `opts` (NULL: all zero); the provider in *out (NULL on failure).
umf_result_t umf_test_gpu_provider(const umf_test_gpu_t *g,
                                   const umf_test_provider_opts_t *opts,
                                   umf_memory_provider_handle_t *out);

// The same parameters handed to `create` instead of umfMemoryProviderCreate:
// for a provider made through another ops table (the UMF 1.0 layout's
// initialize takes the same parameters). `params` is the kind's parameters
// handle (umf_level_zero_memory_provider_params_handle_t,
// umf_cuda_memory_provider_params_handle_t), valid during the call only.
// Returns the first failed setter's result or create's.
typedef umf_result_t (*umf_test_gpu_create_fn)(const umf_test_gpu_t *g,
                                               const void *params, void *arg);
umf_result_t umf_test_gpu_provider_with(const umf_test_gpu_t *g,
                                        const umf_test_provider_opts_t *opts,
                                        umf_test_gpu_create_fn create,
                                        void *arg);

// The calling thread's last native error of the kind, read through its ops
// table (as after a failed create: no provider handle needed). A failed
// read gives NULL and 0.
void umf_test_gpu_native_error(const umf_test_gpu_t *g, const char **message,
                               int32_t *code);

// ------------------------------------------------------------------- data

// A driver copy of `size` bytes in `context` (NULL: g->context), host or
// device memory on either side; true on success.
bool umf_test_gpu_copy(const umf_test_gpu_t *g, void *context, void *dst,
                       const void *src, size_t size);

// The test pattern: `size` bytes that depend on `seed` and the position.
void umf_test_pattern(void *dst, size_t size, unsigned seed);

// Writes umf_test_pattern(size, seed) to `dst` with a driver copy, or checks
// that `src` holds it; true on success.
bool umf_test_gpu_fill(const umf_test_gpu_t *g, void *context, void *dst,
                       size_t size, unsigned seed);
bool umf_test_gpu_check(const umf_test_gpu_t *g, void *context, const void *src,
                        size_t size, unsigned seed);

// Device memory on device 0 straight from the driver (zeMemAllocDevice,
// cuMemAlloc_v2), no provider involved, in `context` (NULL: g->context); and
// its release (zeMemFree, cuMemFree_v2). True on success.
bool umf_test_gpu_driver_alloc(const umf_test_gpu_t *g, void *context,
                               size_t size, void **ptr);
bool umf_test_gpu_driver_free(const umf_test_gpu_t *g, void *context,
                              void *ptr);

// The emulated driver's counts; -1 on a real driver.
int64_t umf_test_gpu_live(const umf_test_gpu_t *g, umf_gpu_mock_live_t what);
int64_t umf_test_gpu_calls(const umf_test_gpu_t *g, const char *entry);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_TEST_GPU_HARNESS_H
