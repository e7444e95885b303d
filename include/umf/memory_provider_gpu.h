// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the GPU providers (Level Zero, CUDA) have in common beyond the ops
// table: the kinds of memory they allocate, and extensions that work on a
// provider handle of either kind.

#ifndef UMF_MEMORY_PROVIDER_GPU_H
#define UMF_MEMORY_PROVIDER_GPU_H 1

#include <umf/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief The kind of memory a GPU provider allocates (unified shared memory
/// terms, as in SYCL and Level Zero).
typedef enum umf_usm_memory_type_t {
    /// Not set, or not known; a provider rejects it.
    UMF_MEMORY_TYPE_UNKNOWN = 0,
    /// Host memory that the device can reach (pinned).
    UMF_MEMORY_TYPE_HOST,
    /// Memory on the device.
    UMF_MEMORY_TYPE_DEVICE,
    /// Memory that migrates between host and device (managed).
    UMF_MEMORY_TYPE_SHARED,
} umf_usm_memory_type_t;

#ifdef __cplusplus
}
#endif

#endif // UMF_MEMORY_PROVIDER_GPU_H
