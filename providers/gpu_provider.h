// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What makes a provider a GPU provider of this library, for the extensions
// in <umf/memory_provider_gpu.h> (stats, allocation properties).
//
// A GPU provider is recognised by its ops table: the handle's `initialize`
// is compared with each known provider's. Only then is its private state
// handed to that provider's own functions; the state of a provider that is
// not ours is never read. Each provider defines its class; the references
// here are weak, so this file builds and works whichever providers are in
// the build (a missing one is simply never recognised).

#ifndef UMF_GPU_GPU_PROVIDER_H
#define UMF_GPU_GPU_PROVIDER_H 1

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

#include "gpu_stats.h"
#include "provider_kind.h"

typedef struct umf_gpu_provider_class_t {
    umf_gpu_provider_kind_t kind;
    // The provider's ops->initialize: how its handles are recognised.
    umf_result_t (*initialize)(void *params, void **provider);
    // The counters inside the provider's private state.
    umf_gpu_stats_t *(*stats)(void *provider);
    // Fills *props for ptr, any address inside one of its allocations;
    // UMF_RESULT_ERROR_INVALID_ARGUMENT if it did not allocate ptr.
    umf_result_t (*get_allocation_properties)(
        void *provider, const void *ptr,
        umf_gpu_allocation_properties_t *props);
    // The allocation mode (umf_cuda_allocation_mode_t), for the 1.x control
    // query params.allocation_mode; NULL for a provider without modes.
    int (*allocation_mode)(void *provider);
} umf_gpu_provider_class_t;

// Defined by provider_level_zero.c and provider_cuda.c when they are built.
// Hidden, so that a provider left out of the build resolves to NULL at link
// time and never to a symbol of another library.
extern const umf_gpu_provider_class_t umf_gpu_provider_class_level_zero
    __attribute__((weak, visibility("hidden")));
extern const umf_gpu_provider_class_t umf_gpu_provider_class_cuda
    __attribute__((weak, visibility("hidden")));

// "HOST", "DEVICE", "SHARED" or "UNKNOWN", for messages.
static inline const char *umf_gpu_memory_type_name(umf_usm_memory_type_t t) {
    switch (t) {
    case UMF_MEMORY_TYPE_HOST:
        return "HOST";
    case UMF_MEMORY_TYPE_DEVICE:
        return "DEVICE";
    case UMF_MEMORY_TYPE_SHARED:
        return "SHARED";
    default:
        return "UNKNOWN";
    }
}

// The class whose ops table `ops` is (compared by its initialize), or NULL.
const umf_gpu_provider_class_t *
umf_gpu_provider_class_of_ops(const umf_memory_provider_ops_t *ops);

// The class of a handle, or NULL if it is not a GPU provider of this library
// (or NULL).
const umf_gpu_provider_class_t *
umf_gpu_provider_class_of(umf_memory_provider_handle_t hProvider);

#endif // UMF_GPU_GPU_PROVIDER_H
