// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The checks that every GPU provider's parameter functions make the same
// way: a NULL handle, a memory type, a name. Each logs once, naming the
// public function that refused.

#ifndef UMF_GPU_GPU_PARAMS_H
#define UMF_GPU_GPU_PARAMS_H 1

#include <stddef.h>
#include <stdio.h>

#include <umf/base.h>
#include <umf/memory_provider_gpu.h>

#include "util_umf_log.h"

// Returns UMF_RESULT_ERROR_INVALID_ARGUMENT from the calling function for a
// NULL parameters handle.
#define UMF_GPU_CHECK_PARAMS(h)                                                \
    do {                                                                       \
        if ((h) == NULL) {                                                     \
            UMF_LOG_ERROR("%s: NULL params handle", __func__);                 \
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;                          \
        }                                                                      \
    } while (0)

// A memory type a parameters handle may hold: HOST, DEVICE, SHARED, or
// UNKNOWN (kept, so that initialize can say why it refuses it).
static inline umf_result_t
umf_gpu_params_check_memory_type(const char *function,
                                 umf_usm_memory_type_t type) {
    if ((int)type < (int)UMF_MEMORY_TYPE_UNKNOWN ||
        (int)type > (int)UMF_MEMORY_TYPE_SHARED) {
        UMF_LOG_ERROR("%s: %d is not a umf_usm_memory_type_t", function,
                      (int)type);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

// Copies as much of `name` (not NULL) as fits into dst[cap].
static inline umf_result_t umf_gpu_params_set_name(const char *function,
                                                   char *dst, size_t cap,
                                                   const char *name) {
    if (name == NULL) {
        UMF_LOG_ERROR("%s: NULL name", function);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    snprintf(dst, cap, "%s", name);
    return UMF_RESULT_SUCCESS;
}

#endif // UMF_GPU_GPU_PARAMS_H
