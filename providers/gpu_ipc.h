// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The steps of the IPC ops that every GPU provider takes the same way around
// its own driver calls: checking IPC data for put and open, opening through
// the shared cache of opened handles (with the producer's own memory when
// the data comes from this process), closing, and counting it all in the
// provider's stats.

#ifndef UMF_GPU_GPU_IPC_H
#define UMF_GPU_GPU_IPC_H 1

#include <stddef.h>

#include <umf/base.h>

#include "gpu_stats.h"
#include "ipc_cache.h"
#include "ipc_data.h"
#include "provider_kind.h"
#include "util_fd.h"

// How a provider maps IPC data. `arg` of each callback is the one given to
// umf_gpu_ipc_open().
typedef struct umf_gpu_ipc_mappers_t {
    // Data of this very process, at every open of it (hit or miss): checks
    // with the driver that the allocation at data->base is still the one
    // exported (its id) and starts there, and fills mapping->base (that
    // base) and mapping->size (the allocation's size, as the driver says).
    // Its unmap releases nothing.
    umf_ipc_cache_map_fn check_local;
    // Data of another process, on a miss: maps it through the driver, and
    // fills mapping->size from the driver's own account of the range it
    // mapped at mapping->base (never from the data).
    umf_ipc_cache_map_fn map_remote;
    umf_ipc_cache_unmap_fn unmap_remote;
} umf_gpu_ipc_mappers_t;

// get_ipc_handle_size: every provider's IPC data is one umf_ipc_data_t.
umf_result_t umf_gpu_ipc_handle_size(size_t *size);

// put_ipc_handle's checks: valid data of `kind` that this process made.
// UMF_RESULT_ERROR_INVALID_ARGUMENT otherwise (logged).
umf_result_t umf_gpu_ipc_check_put(umf_gpu_provider_kind_t kind,
                                   const void *providerIpcData,
                                   umf_ipc_data_t *data);

// open_ipc_handle's checks: non-NULL arguments, valid data of `kind` whose
// native handle, if the driver's (UMF_IPC_HANDLE_DRIVER), has `handle_size`
// bytes. UMF_RESULT_ERROR_INVALID_ARGUMENT
// otherwise (logged).
umf_result_t umf_gpu_ipc_check_open(umf_gpu_provider_kind_t kind,
                                    const void *providerIpcData, void **ptr,
                                    size_t handle_size, umf_ipc_data_t *data);

// Opens `data` on `context` through the cache of `kind`, with the mapper
// that fits where the data comes from, and counts the open and the hit or
// miss in `stats`. The pointer returned and the allocation's range lie
// inside what the driver mapped (see ipc_cache.h).
umf_result_t umf_gpu_ipc_open(umf_gpu_provider_kind_t kind,
                              umf_gpu_stats_t *stats, const void *context,
                              const umf_ipc_data_t *data,
                              const umf_gpu_ipc_mappers_t *mappers, void *arg,
                              void **ptr);

// An open's fd transfer failed with `ret` (umf_fd_duplicate_from logged
// why): stores that message, which says what allows a refused transfer, as
// the native error of `kind` with `native_code` (the driver's result that
// names the condition), and returns `ret`.
umf_result_t umf_gpu_ipc_fd_failed(umf_gpu_provider_kind_t kind,
                                   umf_result_t ret,
                                   const umf_fd_failure_t *why,
                                   int32_t native_code);

// A driver's IPC open failed with `ret` (its native error stored): when this
// process has no fd left, that is the reason, and the result is
// UMF_RESULT_ERROR_OUT_OF_RESOURCES for both providers; else `ret`.
umf_result_t umf_gpu_ipc_open_failed(umf_gpu_provider_kind_t kind,
                                     umf_result_t ret);

// close_ipc_handle: drops one open of `ptr` on `context` and counts it.
umf_result_t umf_gpu_ipc_close(umf_gpu_provider_kind_t kind,
                               umf_gpu_stats_t *stats, const void *context,
                               void *ptr);

#endif // UMF_GPU_GPU_IPC_H
