// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The argument rules that a core checks before it calls a provider's op, in
// one place: our core's wrappers (memory_provider.c) and the UMF 1.0-layout
// adapter (providers/ops_1_0.c), whose consumer may check less, apply the
// same ones.

#ifndef UMF_GPU_PROVIDER_ARGS_H
#define UMF_GPU_PROVIDER_ARGS_H 1

#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#include "util_common.h"

// alloc: an out-pointer, and an alignment of 0 or a power of two.
static inline umf_result_t umf_args_alloc(void **ptr, size_t alignment) {
    if (UMF_UNLIKELY(ptr == NULL)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (UMF_UNLIKELY(alignment != 0 && !umf_is_pow2(alignment))) {
        return UMF_RESULT_ERROR_INVALID_ALIGNMENT;
    }
    return UMF_RESULT_SUCCESS;
}

// allocation_split: 0 < firstSize < totalSize.
static inline bool umf_args_split_ok(const void *ptr, size_t totalSize,
                                     size_t firstSize) {
    return ptr != NULL && firstSize != 0 && firstSize < totalSize;
}

// allocation_merge: lowPtr below highPtr, both inside totalSize.
static inline bool umf_args_merge_ok(const void *lowPtr, const void *highPtr,
                                     size_t totalSize) {
    return lowPtr != NULL && highPtr != NULL &&
           (uintptr_t)lowPtr < (uintptr_t)highPtr &&
           (uintptr_t)highPtr - (uintptr_t)lowPtr < totalSize;
}

#endif // UMF_GPU_PROVIDER_ARGS_H
