// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the provider fuzz targets share on top of the harness
// (test/common/gpu_harness.h, which brings up the driver): one DEVICE
// provider of a kind, made once, and the way a target reports a broken
// invariant: fuzz_fail() aborts, and libFuzzer saves the input as a crash.
//
// The drivers are the build's emulated ones unless the environment names
// others (ZE_ENABLE_ALT_DRIVERS, UMF_GPU_CUDA_LIB); the library's and the
// drivers' logs are off unless UMF_GPU_LOG / UMF_GPU_MOCK_LOG say otherwise
// (every malformed input would log a line).

#ifndef UMF_GPU_TEST_FUZZ_TARGET_H
#define UMF_GPU_TEST_FUZZ_TARGET_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_harness.h"

typedef struct fuzz_target_t {
    const umf_test_gpu_t *gpu;             // the emulated driver of the kind
    umf_test_gpu_kind_t kind;              // gpu->kind
    const char *name;                      // gpu->name
    umf_memory_provider_handle_t provider; // DEVICE memory, device 0
} fuzz_target_t;

// The target's provider of `kind`, made on first use; aborts (with the reason
// on stderr) when it cannot be made or the driver is not the emulated one.
const fuzz_target_t *fuzz_target(umf_test_gpu_kind_t kind);

// Driver copy of `size` bytes (host or device memory either side).
static inline bool fuzz_copy(const fuzz_target_t *target, void *dst,
                             const void *src, size_t size) {
    return umf_test_gpu_copy(target->gpu, NULL, dst, src, size);
}

// The emulated driver's live count of `what`.
static inline int64_t fuzz_live(const fuzz_target_t *target,
                                umf_gpu_mock_live_t what) {
    return target->gpu->mock.live(what);
}

// Prints "fuzz invariant broken: <what>" and aborts.
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)))
__attribute__((noreturn));

#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fuzz_fail(__VA_ARGS__);                                            \
        }                                                                      \
    } while (0)

#endif // UMF_GPU_TEST_FUZZ_TARGET_H
