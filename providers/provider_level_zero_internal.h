// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the Level Zero provider's files share: the provider's state and the
// one way a failed driver call is reported.

#ifndef UMF_GPU_PROVIDER_LEVEL_ZERO_INTERNAL_H
#define UMF_GPU_PROVIDER_LEVEL_ZERO_INTERNAL_H 1

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/providers/provider_level_zero.h>

#include "gpu_ipc_fd.h"
#include "gpu_stats.h"
#include "ownership.h"
#include "ze/ze_loader.h"

// Names kept, including the terminating NUL; longer ones are cut.
#define UMF_ZE_NAME_MAX 64

typedef struct umf_ze_resident_list_t {
    ze_device_handle_t *devices;
    uint32_t count, capacity;
} umf_ze_resident_list_t;

typedef struct ze_provider_t {
    // Read on every alloc and free.
    const umf_ze_loader_t *ze;
    ze_context_handle_t context;
    ze_device_handle_t device; // NULL for HOST memory
    umf_usm_memory_type_t memory_type;
    uint32_t ordinal;
    ze_driver_memory_free_policy_ext_flags_t free_policy; // 0: zeMemFree
    size_t max_alloc_size; // above it, relaxed limits are chained
    ze_device_mem_alloc_desc_t device_desc; // what every allocation passes
    ze_host_mem_alloc_desc_t host_desc;
    umf_ownership_t own; // what the provider handed out
    umf_gpu_stats_t stats;
    umf_gpu_ipc_fd_exporter_t ipc_fd; // the fd server's side of its exports

    // Resident devices, one list per residency generation's parity
    // (ownership.h): the current one is res[res_gen & 1]; a change writes
    // the other and starts the next generation. Changes are serialised by
    // res_lock; allocations read the list of the generation their record
    // was made under, which no change rewrites while they use it.
    pthread_mutex_t res_lock;
    uint64_t res_gen;
    umf_ze_resident_list_t res[2];

    size_t min_page_size;
    void *probe; // a probe allocation whose free failed, or NULL
    umf_level_zero_memory_provider_free_policy_t free_policy_param;
    char name[UMF_ZE_NAME_MAX];
    char who[UMF_ZE_NAME_MAX + 32]; // "Level Zero provider 'name'"
} ze_provider_t;

// Stores the native error of a failed driver call for the calling thread
// ("<call> failed: NAME (description)", the call formatted from fmt), logs
// it, and returns the call's umf_result_t.
umf_result_t umf_ze_call_failed(ze_result_t res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// What the provider handed out that holds ptr (a split piece, or a whole
// allocation with the size asked for), and its driver allocation: the base
// and size the driver tells (zeMemGetAddressRange) and its properties
// (zeMemGetAllocProperties; props may be NULL). An address the driver knows
// but the provider did not hand out is UMF_RESULT_ERROR_INVALID_ARGUMENT.
umf_result_t umf_ze_find_allocation(ze_provider_t *p, const void *ptr,
                                    umf_alloc_piece_info_t *held, void **base,
                                    size_t *size,
                                    ze_memory_allocation_properties_t *props,
                                    ze_device_handle_t *device);

// The IPC ops (provider_level_zero_ipc.c).
umf_result_t umf_ze_ipc_get_handle_size(void *provider, size_t *size);
umf_result_t umf_ze_ipc_get_handle(void *provider, const void *ptr, size_t size,
                                   void *providerIpcData);
umf_result_t umf_ze_ipc_put_handle(void *provider, void *providerIpcData);
umf_result_t umf_ze_ipc_open_handle(void *provider, void *providerIpcData,
                                    void **ptr);
umf_result_t umf_ze_ipc_close_handle(void *provider, void *ptr, size_t size);

#endif // UMF_GPU_PROVIDER_LEVEL_ZERO_INTERNAL_H
