// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the provider fuzz targets share: one provider of a kind on the
// emulated driver, made through the public API, plus the driver copies and
// counts the targets check their invariants with. A target that finds a
// broken invariant calls fuzz_fail(), which aborts: libFuzzer then saves
// the input as a crash.
//
// The drivers are the build's emulated ones unless the environment names
// others (ZE_ENABLE_ALT_DRIVERS, UMF_GPU_CUDA_LIB); the library's and the
// drivers' logs are off unless UMF_GPU_LOG / UMF_GPU_MOCK_LOG say otherwise
// (every malformed input would log a line).

#ifndef UMF_GPU_TEST_FUZZ_ENV_H
#define UMF_GPU_TEST_FUZZ_ENV_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/gpu_mock.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

typedef enum fuzz_kind_t {
    FUZZ_LEVEL_ZERO = 0,
    FUZZ_CUDA = 1,
} fuzz_kind_t;

typedef struct fuzz_env_t {
    fuzz_kind_t kind;
    const char *name;
    umf_memory_provider_handle_t provider; // DEVICE memory, device 0
    void *context;                         // its driver context
    umf_gpu_mock_get_live_count_fn live;   // the driver's live counts
    int32_t oom_code;                      // the driver's out of memory
} fuzz_env_t;

// The environment of `kind`, made on first use; aborts (with the reason on
// stderr) when it cannot be made.
const fuzz_env_t *fuzz_env(fuzz_kind_t kind);

// Driver copy of `size` bytes (host or device memory either side).
bool fuzz_copy(const fuzz_env_t *env, void *dst, const void *src, size_t size);

// Prints "fuzz invariant broken: <what>" and aborts.
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)))
__attribute__((noreturn));

#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fuzz_fail(__VA_ARGS__);                                            \
        }                                                                      \
    } while (0)

// Open fds of this process (from /proc/self/fd).
int fuzz_count_fds(void);

#endif // UMF_GPU_TEST_FUZZ_ENV_H
