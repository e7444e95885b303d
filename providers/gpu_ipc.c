// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "gpu_ipc.h"

#include <stdbool.h>

#include "native_error.h"
#include "util_umf_log.h"

umf_result_t umf_gpu_ipc_handle_size(size_t *size) {
    if (size == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    *size = sizeof(umf_ipc_data_t);
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_gpu_ipc_check_put(umf_gpu_provider_kind_t kind,
                                   const void *providerIpcData,
                                   umf_ipc_data_t *data) {
    if (providerIpcData == NULL) {
        UMF_LOG_ERROR("%s provider put_ipc_handle: NULL providerIpcData",
                      umf_gpu_provider_kind_name(kind));
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret =
        umf_ipc_data_validate(providerIpcData, sizeof(*data), kind, data);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (!umf_ipc_data_is_local(data)) {
        UMF_LOG_ERROR("%s provider put_ipc_handle: the data was made by "
                      "process %d, not by this one",
                      umf_gpu_provider_kind_name(kind),
                      (int)data->producer_pid);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_gpu_ipc_check_open(umf_gpu_provider_kind_t kind,
                                    const void *providerIpcData, void **ptr,
                                    size_t handle_size, umf_ipc_data_t *data) {
    if (providerIpcData == NULL || ptr == NULL) {
        UMF_LOG_ERROR("%s provider open_ipc_handle: NULL %s",
                      umf_gpu_provider_kind_name(kind),
                      ptr == NULL ? "ptr" : "providerIpcData");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret =
        umf_ipc_data_validate(providerIpcData, sizeof(*data), kind, data);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    // The VMM handle types' sizes are fixed by umf_ipc_data_validate.
    if (data->handle_type == UMF_IPC_HANDLE_DRIVER &&
        data->handle_size != handle_size) {
        UMF_LOG_ERROR("%s provider open_ipc_handle: the native handle has %u "
                      "bytes, not %zu",
                      umf_gpu_provider_kind_name(kind),
                      (unsigned)data->handle_size, handle_size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // This process's pid with another instance id: the producer was an
    // earlier process with this pid, and it is gone. Its handle names an fd
    // of that process, a number that here would name one of our own fds.
    if (data->producer_pid == umf_ipc_process_id() &&
        !umf_ipc_data_is_local(data)) {
        UMF_LOG_ERROR("%s provider open_ipc_handle: the data was made by an "
                      "earlier process with this process's pid (%d), which "
                      "has exited",
                      umf_gpu_provider_kind_name(kind),
                      (int)data->producer_pid);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

static umf_result_t unmap_nothing(const umf_ipc_cache_key_t *key,
                                  const umf_ipc_cache_mapping_t *mapping) {
    (void)key, (void)mapping; // the producer's memory stays the producer's
    return UMF_RESULT_SUCCESS;
}

// The map callback of a local open: what check_local found.
static umf_result_t map_checked(void *arg, umf_ipc_cache_mapping_t *mapping) {
    *mapping = *(const umf_ipc_cache_mapping_t *)arg;
    return UMF_RESULT_SUCCESS;
}

// Everything that tells two exports apart, on the consumer's context.
static umf_ipc_cache_key_t key_of(const void *context,
                                  const umf_ipc_data_t *data) {
    umf_ipc_cache_key_t key = {
        .context = context,
        .producer_pid = (uint64_t)(uint32_t)data->producer_pid,
        .instance_id = data->instance_id,
        .start_time = data->producer_start_time,
        .pidfs_ino = data->producer_pidfs_ino,
        .alloc_id = data->alloc_id,
        .base = data->base,
        .size = data->size,
        .fd_dev = data->fd_dev,
        .fd_ino = data->fd_ino,
    };
    return key;
}

umf_result_t umf_gpu_ipc_open(umf_gpu_provider_kind_t kind,
                              umf_gpu_stats_t *stats, const void *context,
                              const umf_ipc_data_t *data,
                              const umf_gpu_ipc_mappers_t *mappers, void *arg,
                              void **ptr) {
    umf_ipc_cache_key_t key = key_of(context, data);
    bool hit = false;
    umf_result_t ret;
    if (umf_ipc_data_is_local(data)) {
        // The allocation may have been freed (and its address reused)
        // since an earlier open: checked at every open, hits included.
        umf_ipc_cache_mapping_t own = {NULL, 0, 0};
        ret = mappers->check_local(arg, &own);
        if (ret == UMF_RESULT_SUCCESS) {
            ret =
                umf_ipc_cache_open(kind, &key, data->offset, true, map_checked,
                                   &own, unmap_nothing, ptr, &hit);
        }
    } else {
        ret = umf_ipc_cache_open(kind, &key, data->offset, false,
                                 mappers->map_remote, arg,
                                 mappers->unmap_remote, ptr, &hit);
    }
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    UMF_GPU_STATS_EVENT(stats, ipc_open, 1);
    if (hit) {
        UMF_GPU_STATS_EVENT(stats, cache_hits, 1);
    } else {
        UMF_GPU_STATS_EVENT(stats, cache_misses, 1);
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_gpu_ipc_fd_failed(umf_gpu_provider_kind_t kind,
                                   umf_result_t ret,
                                   const umf_fd_failure_t *why,
                                   int32_t native_code) {
    char message[UMF_NATIVE_ERROR_MESSAGE_MAX];
    umf_fd_failure_describe(why, message, sizeof(message));
    umf_native_error_set(kind, native_code, "%s", message);
    return ret;
}

umf_result_t umf_gpu_ipc_open_failed(umf_gpu_provider_kind_t kind,
                                     umf_result_t ret) {
    if ((ret == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC ||
         ret == UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY) &&
        umf_fd_limit_reached()) {
        UMF_LOG_ERROR("%s provider open_ipc_handle: this process has no file "
                      "descriptor left (raise RLIMIT_NOFILE, or close IPC "
                      "handles)",
                      umf_gpu_provider_kind_name(kind));
        return UMF_RESULT_ERROR_OUT_OF_RESOURCES;
    }
    return ret;
}

umf_result_t umf_gpu_ipc_close(umf_gpu_provider_kind_t kind,
                               umf_gpu_stats_t *stats, const void *context,
                               void *ptr) {
    if (ptr == NULL) {
        UMF_LOG_ERROR("%s provider close_ipc_handle: NULL ptr",
                      umf_gpu_provider_kind_name(kind));
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret = umf_ipc_cache_close(kind, context, ptr);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    UMF_GPU_STATS_EVENT(stats, ipc_open, -1);
    return UMF_RESULT_SUCCESS;
}
