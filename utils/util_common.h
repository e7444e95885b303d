// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Small helpers used all over the library: branch hints, power-of-two
// arithmetic and once-initialisation.

#ifndef UMF_GPU_UTIL_COMMON_H
#define UMF_GPU_UTIL_COMMON_H 1

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Marks a definition of the public API; everything else in the library is
// hidden (CMAKE_C_VISIBILITY_PRESET), and cmake/umf_gpu.map lets only umf*
// names out of the shared library.
#define UMF_EXPORT __attribute__((visibility("default")))

#define UMF_LIKELY(x) __builtin_expect(!!(x), 1)
#define UMF_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define UMF_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

// For the few helpers of the alloc/free paths that the compiler would keep
// out of line (they also serve cold paths): a call there costs more than
// its body, in spilled registers.
#define UMF_HOT_INLINE static inline __attribute__((always_inline))

static inline bool umf_is_pow2(size_t x) {
    return x != 0 && (x & (x - 1)) == 0;
}

// Rounds x up to a multiple of the power of two a. The caller makes sure the
// result does not overflow (see umf_align_up_checked).
static inline size_t umf_align_up(size_t x, size_t a) {
    return (x + a - 1) & ~(a - 1);
}

// Rounds x up to a multiple of the power of two a; false if that overflows.
static inline bool umf_align_up_checked(size_t x, size_t a, size_t *out) {
    if (x > SIZE_MAX - (a - 1)) {
        return false;
    }
    *out = umf_align_up(x, a);
    return true;
}

static inline bool umf_is_aligned(uintptr_t x, size_t a) {
    return (x & (a - 1)) == 0;
}

// Once-initialisation: pthread_once, named for the codebase. The function
// runs exactly once per flag, and every caller returns after it finished.
typedef pthread_once_t umf_once_t;
#define UMF_ONCE_INIT PTHREAD_ONCE_INIT

static inline void umf_once(umf_once_t *flag, void (*fn)(void)) {
    (void)pthread_once(flag, fn);
}

#endif // UMF_GPU_UTIL_COMMON_H
