// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Both GPU providers behind one face, for the reliability suites (bad input,
// fault matrix, process faults, stress): a context on the emulated driver,
// providers of each memory type, copies through the driver (never by
// dereferencing device memory), the driver's control API, the entry points
// the provider calls and the result a fault injects.
//
// The copies use no entry point the provider calls (Level Zero: immediate
// command lists; CUDA: push/pop of the context around cuMemcpy), so that a
// fault rule on a provider entry point never hits the test's own copies.

#ifndef UMF_GPU_TEST_REL_GPU_H
#define UMF_GPU_TEST_REL_GPU_H 1

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <umf/gpu_mock.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

enum class RelKind { LevelZero = 0, Cuda = 1 };

// How a provider is made beyond its memory type.
struct RelOptions {
    bool resident = false;   // Level Zero: device 1 resident
    bool policy = false;     // Level Zero: BLOCKING_FREE (zeMemFreeExt)
    bool host_flags = false; // CUDA HOST: cuMemHostAlloc(PORTABLE)
    int device = 0;          // CUDA: the device ordinal given in the params
};

struct RelGpu {
    RelKind kind;
    const char *name; // "level_zero" or "cuda"
    std::string why;  // why it is unusable; empty when usable
    bool real_driver; // unusable because the driver is a real one
    void *context;    // ze_context_handle_t or CUcontext
    void *devices[2]; // Level Zero devices 0 and 1; NULL for CUDA
    int device_count;

    // The emulated driver's control API.
    umf_gpu_mock_inject_faults_fn inject;
    umf_gpu_mock_clear_faults_fn clear;
    umf_gpu_mock_get_call_count_fn calls;
    umf_gpu_mock_reset_call_counts_fn reset_calls;
    umf_gpu_mock_get_live_count_fn live;
    umf_gpu_mock_get_object_count_fn object_count;
    umf_gpu_mock_write_leak_report_fn leak_report;

    // Every driver entry point the provider calls (the fault matrix's rows).
    std::vector<const char *> entries;
    // A result that a fault injects, which the provider maps to
    // UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, and its name.
    int32_t fault_code;
    const char *fault_name;
    // The driver's "out of device memory".
    int32_t oom_code;

    // A provider of this kind on the context (device 0 unless told).
    umf_result_t make(umf_usm_memory_type_t type,
                      umf_memory_provider_handle_t *out,
                      const RelOptions &opt = RelOptions()) const;
    umf_memory_provider_handle_t
    make_or_null(umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE,
                 const RelOptions &opt = RelOptions()) const;

    // Driver copies of `size` bytes; false on failure.
    bool copy(void *dst, const void *src, size_t size) const;
    bool fill(void *dst, size_t size, unsigned seed) const;
    bool check(const void *src, size_t size, unsigned seed) const;

    // This thread's native error of the provider kind.
    int32_t native_code() const;
    std::string native_message() const;
};

// The kind's environment, made once per process on first use (call it from
// the main thread first). Never NULL; check ->why.
RelGpu *rel_gpu(RelKind kind);

// In a GoogleTest body: skips on a real driver (the suites need the emulated
// one's control API), fails when the environment is broken.
#define REL_REQUIRE(g)                                                         \
    do {                                                                       \
        if ((g)->real_driver) {                                                \
            GTEST_SKIP() << (g)->why;                                          \
        }                                                                      \
        ASSERT_TRUE((g)->why.empty()) << (g)->name << ": " << (g)->why;        \
    } while (0)

// Releases what rel_gpu() made (the context): for child processes that end
// under the emulated driver's strict leak check.
void rel_gpu_release_all();

// The kinds this build has.
std::vector<RelKind> rel_kinds();

// A byte pattern of `size` bytes for `seed`.
std::vector<unsigned char> rel_pattern(size_t size, unsigned seed);

// The seed of the random choices of a run: UMF_GPU_REL_SEED if set, else
// drawn from the clock; printed once so that a failure can be replayed.
uint64_t rel_seed();

#endif // UMF_GPU_TEST_REL_GPU_H
