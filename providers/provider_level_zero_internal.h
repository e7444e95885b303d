// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the Level Zero provider's files share: the provider's state and the
// one way a failed driver call is reported.

#ifndef UMF_GPU_PROVIDER_LEVEL_ZERO_INTERNAL_H
#define UMF_GPU_PROVIDER_LEVEL_ZERO_INTERNAL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/providers/provider_level_zero.h>

#include "alloc_registry.h"
#include "alloc_tracker.h"
#include "gpu_stats.h"
#include "ze/ze_loader.h"

// Names kept, including the terminating NUL; longer ones are cut.
#define UMF_ZE_NAME_MAX 64

typedef struct ze_provider_t {
    // Read on every alloc and free.
    const umf_ze_loader_t *ze;
    ze_context_handle_t context;
    ze_device_handle_t device; // NULL for HOST memory
    umf_usm_memory_type_t memory_type;
    uint32_t ordinal;
    ze_driver_memory_free_policy_ext_flags_t free_policy; // 0: zeMemFree
    size_t max_alloc_size; // above it, relaxed limits are chained
    umf_alloc_tracker_t tracker;
    umf_alloc_registry_t registry; // live driver allocations
    umf_gpu_stats_t stats;

    // Devices every allocation is resident on. Guarded by the registry:
    // written with all its locks held, read with one (see alloc_registry.h).
    ze_device_handle_t *resident;
    uint32_t resident_count;
    uint32_t resident_capacity;

    size_t min_page_size;
    void *probe; // a probe allocation whose free failed, or NULL
    umf_level_zero_memory_provider_free_policy_t free_policy_param;
    char name[UMF_ZE_NAME_MAX];
} ze_provider_t;

// Stores the native error of a failed driver call for the calling thread
// ("<call> failed: NAME (description)", the call formatted from fmt), logs
// it, and returns the call's umf_result_t.
umf_result_t umf_ze_call_failed(ze_result_t res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// The driver allocation holding ptr in the provider's context, if the
// provider made it: its base and size (zeMemGetAddressRange) and its
// properties (zeMemGetAllocProperties, may be NULL). A pointer the driver
// knows but the provider did not allocate is
// UMF_RESULT_ERROR_INVALID_ARGUMENT.
umf_result_t umf_ze_find_allocation(ze_provider_t *p, const void *ptr,
                                    void **base, size_t *size,
                                    ze_memory_allocation_properties_t *props,
                                    ze_device_handle_t *device);

// What the provider handed out that holds ptr, in the driver allocation at
// `base` (from umf_ze_find_allocation): a split piece, or the whole
// allocation with the size asked for. UMF_RESULT_ERROR_INVALID_ARGUMENT
// (logged) for an address in neither: a freed piece, past the size.
umf_result_t umf_ze_handed_out(ze_provider_t *p, void *base, const void *ptr,
                               void **out_base, size_t *out_size);

// The IPC ops (provider_level_zero_ipc.c).
umf_result_t umf_ze_ipc_get_handle_size(void *provider, size_t *size);
umf_result_t umf_ze_ipc_get_handle(void *provider, const void *ptr, size_t size,
                                   void *providerIpcData);
umf_result_t umf_ze_ipc_put_handle(void *provider, void *providerIpcData);
umf_result_t umf_ze_ipc_open_handle(void *provider, void *providerIpcData,
                                    void **ptr);
umf_result_t umf_ze_ipc_close_handle(void *provider, void *ptr, size_t size);

#endif // UMF_GPU_PROVIDER_LEVEL_ZERO_INTERNAL_H
