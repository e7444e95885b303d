// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC of the Level Zero provider: the 64-byte ze_ipc_mem_handle_t travels
// inside the IPC data shared with the CUDA provider (ipc_data.h), and opened
// handles live in the shared cache (ipc_cache.h), keyed by (this provider's
// context, producer instance, allocation id).
//
// The native handle carries a file descriptor in its first bytes, valid only
// in the producer, where the driver owns it: repeated gets of an allocation
// return the same fd, which zeMemPutIpcHandle releases where the loader has
// it, and the driver otherwise closes with the allocation; so put never
// closes it. A consumer in another process duplicates it with pidfd_getfd
// (util_umf_fd.h, which explains a refused ptrace permission), opens the handle
// with its own fd, and closes that fd again: the driver keeps what it needs.
// An open in the producer itself returns the producer's own memory, once it
// checked that the allocation is still the one exported. On every path the
// range handed out is what the driver reports (zeMemGetAddressRange), never
// what the IPC data claims.

#include <string.h>
#include <unistd.h>

#include "gpu_ipc.h"
#include "provider_kind.h"
#include "provider_level_zero_internal.h"
#include "util_umf_fd.h"
#include "util_umf_log.h"

_Static_assert(sizeof(ze_ipc_mem_handle_t) <= UMF_IPC_NATIVE_HANDLE_MAX,
               "a ze_ipc_mem_handle_t fits the IPC data");

// Where the fd lies in ze_ipc_mem_handle_t::data.
#define HANDLE_FD_OFFSET 0

static int handle_fd(const ze_ipc_mem_handle_t *h) {
    int fd;
    memcpy(&fd, h->data + HANDLE_FD_OFFSET, sizeof(fd));
    return fd;
}

static void set_handle_fd(ze_ipc_mem_handle_t *h, int fd) {
    memcpy(h->data + HANDLE_FD_OFFSET, &fd, sizeof(fd));
}

umf_result_t umf_ze_ipc_get_handle_size(void *provider, size_t *size) {
    (void)provider;
    return umf_gpu_ipc_handle_size(size);
}

umf_result_t umf_ze_ipc_get_handle(void *provider, const void *ptr, size_t size,
                                   void *providerIpcData) {
    ze_provider_t *p = provider;
    if (ptr == NULL || providerIpcData == NULL) {
        UMF_LOG_ERROR("Level Zero provider get_ipc_handle: NULL %s",
                      ptr == NULL ? "ptr" : "providerIpcData");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    void *base = NULL;
    size_t range = 0;
    umf_alloc_piece_info_t held;
    ze_memory_allocation_properties_t props;
    umf_result_t ret =
        umf_ze_find_allocation(p, ptr, &held, &base, &range, &props, NULL);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    // The range shared must be memory the caller holds: inside the piece
    // or allocation the provider handed out (the whole driver allocation is
    // what the handle maps).
    size_t offset = (size_t)((const char *)ptr - (const char *)base);
    if (size >
        held.size - (size_t)((const char *)ptr - (const char *)held.ptr)) {
        UMF_LOG_ERROR("Level Zero provider get_ipc_handle: %zu bytes at %p "
                      "run past the end of its allocation (%p, %zu bytes)",
                      size, ptr, held.ptr, held.size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    ze_ipc_mem_handle_t handle;
    memset(&handle, 0, sizeof(handle));
    ze_result_t res = p->ze->zeMemGetIpcHandle(p->context, base, &handle);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemGetIpcHandle(ptr=%p)", base);
    }
    ret =
        umf_ipc_data_init(providerIpcData, UMF_GPU_PROVIDER_KIND_LEVEL_ZERO,
                          p->memory_type, props.id, (uintptr_t)base, range,
                          offset, &handle, sizeof(handle), handle_fd(&handle));
    if (ret != UMF_RESULT_SUCCESS) {
        if (p->ze->zeMemPutIpcHandle != NULL) {
            (void)p->ze->zeMemPutIpcHandle(p->context, handle);
        }
        return ret;
    }
    // For consumers whose pidfd_getfd the OS refuses: the fd server.
    umf_gpu_ipc_fd_export(&p->ipc_fd, p->who, handle_fd(&handle),
                          providerIpcData);
    UMF_GPU_STATS_EVENT(&p->stats, ipc_exported, 1);
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_ze_ipc_put_handle(void *provider, void *providerIpcData) {
    ze_provider_t *p = provider;
    umf_ipc_data_t data;
    umf_result_t ret = umf_gpu_ipc_check_put(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO,
                                             providerIpcData, &data);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    umf_gpu_ipc_fd_put(&p->ipc_fd, &data, handle_fd((const void *)data.handle));
    if (p->ze->zeMemPutIpcHandle != NULL) {
        ze_ipc_mem_handle_t handle;
        memcpy(&handle, data.handle, sizeof(handle));
        ze_result_t res = p->ze->zeMemPutIpcHandle(p->context, handle);
        if (res != ZE_RESULT_SUCCESS) {
            return umf_ze_call_failed(res, "zeMemPutIpcHandle(fd=%d)",
                                      handle_fd(&handle));
        }
    }
    // Without zeMemPutIpcHandle the driver owns the fd until the allocation
    // is freed: nothing to release here.
    UMF_GPU_STATS_EVENT(&p->stats, ipc_exported, -1);
    return UMF_RESULT_SUCCESS;
}

typedef struct open_arg_t {
    ze_provider_t *provider;
    const umf_ipc_data_t *data;
} open_arg_t;

// The driver's account of the allocation or mapping at `base`: it must
// start there; its size goes to *size.
static umf_result_t range_at(const ze_provider_t *p, void *base,
                             const char *what, size_t *size) {
    void *start = NULL;
    ze_result_t res =
        p->ze->zeMemGetAddressRange(p->context, base, &start, size);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemGetAddressRange(ptr=%p)", base);
    }
    if (start != base) {
        UMF_LOG_ERROR("Level Zero provider open_ipc_handle: %s at %p lies "
                      "inside another range (from %p)",
                      what, base, start);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

// An open in the producer itself: its own allocation, if it is still the
// one that was exported (at every open: it may have been freed since).
static umf_result_t check_local(void *arg, umf_ipc_cache_mapping_t *mapping) {
    const open_arg_t *a = arg;
    ze_provider_t *p = a->provider;
    void *base = (void *)(uintptr_t)a->data->base;
    ze_memory_allocation_properties_t props = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
        .pNext = NULL,
    };
    ze_result_t res =
        p->ze->zeMemGetAllocProperties(p->context, base, &props, NULL);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemGetAllocProperties(ptr=%p)", base);
    }
    if (props.type == ZE_MEMORY_TYPE_UNKNOWN || props.id != a->data->alloc_id) {
        UMF_LOG_ERROR("Level Zero provider open_ipc_handle: the allocation "
                      "exported at %p (id %llu) was freed",
                      base, (unsigned long long)a->data->alloc_id);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret =
        range_at(p, base, "the exported allocation", &mapping->size);
    if (ret == UMF_RESULT_SUCCESS) {
        mapping->base = base;
    }
    return ret;
}

// The ze_result_t that names a failed fd transfer, for the native error.
static ze_result_t fd_failure_code(umf_fd_status_t status) {
    switch (status) {
    case UMF_FD_PERMISSION:
    case UMF_FD_UID_REFUSED:
    case UMF_FD_NOT_SERVED:
        return ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;
    case UMF_FD_NOT_SUPPORTED:
    case UMF_FD_UNVERIFIED:
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    case UMF_FD_NO_FDS:
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    case UMF_FD_BUSY: // "resource in use": the emulated driver's answer too
        return ZE_RESULT_ERROR_NOT_AVAILABLE;
    case UMF_FD_OS_ERROR:
        return ZE_RESULT_ERROR_UNKNOWN;
    default: // gone, stale or malformed
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
}

// A miss in another process: take the producer's fd and open the handle,
// then ask the driver what it mapped.
static umf_result_t map_remote(void *arg, umf_ipc_cache_mapping_t *mapping) {
    const open_arg_t *a = arg;
    ze_provider_t *p = a->provider;
    ze_ipc_mem_handle_t handle;
    memcpy(&handle, a->data->handle, sizeof(handle));
    int local_fd = -1;
    // The process behind the pid must be the producer, and the fd the file
    // it exported: pids and fd numbers are reused. pidfd_getfd, or the
    // producer's fd server.
    umf_fd_identity_t identity;
    umf_fd_socket_name_t socket;
    umf_fd_source_t src;
    umf_gpu_ipc_fd_source(&p->ipc_fd, a->data, handle_fd(&handle), &identity,
                          &socket, &src);
    umf_fd_failure_t why;
    umf_result_t ret = umf_fd_take_from(&src, &local_fd, &why);
    if (ret != UMF_RESULT_SUCCESS) {
        return umf_gpu_ipc_fd_failed(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, ret,
                                     &why,
                                     (int32_t)fd_failure_code(why.status));
    }
    set_handle_fd(&handle, local_fd);
    void *base = NULL;
    ze_result_t res =
        p->ze->zeMemOpenIpcHandle(p->context, p->device, handle, 0, &base);
    close(local_fd);
    if (res != ZE_RESULT_SUCCESS) {
        ret = umf_ze_call_failed(res,
                                 "zeMemOpenIpcHandle(device=%p, allocation "
                                 "%llu of process %d)",
                                 (void *)p->device,
                                 (unsigned long long)a->data->alloc_id,
                                 (int)a->data->producer_pid);
        return umf_gpu_ipc_open_failed(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, ret);
    }
    ret = range_at(p, base, "the mapping zeMemOpenIpcHandle returned",
                   &mapping->size);
    if (ret != UMF_RESULT_SUCCESS) {
        res = p->ze->zeMemCloseIpcHandle(p->context, base);
        if (res != ZE_RESULT_SUCCESS) {
            UMF_LOG_ERROR("Level Zero provider: undoing an IPC open, "
                          "zeMemCloseIpcHandle(%p) failed (0x%x)",
                          base, (unsigned)res);
        }
        return ret;
    }
    mapping->base = base;
    return UMF_RESULT_SUCCESS;
}

// The last close of a mapping made by map_remote. Needs no provider: the
// one that opened it may be gone.
static umf_result_t unmap_remote(const umf_ipc_cache_key_t *key,
                                 const umf_ipc_cache_mapping_t *mapping) {
    const umf_ze_loader_t *ze = NULL;
    umf_result_t ret = umf_ze_loader_get(&ze);
    if (ret != UMF_RESULT_SUCCESS) { // cannot be: something was mapped
        return ret;
    }
    ze_context_handle_t context = (ze_context_handle_t)key->context;
    ze_result_t res = ze->zeMemCloseIpcHandle(context, mapping->base);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemCloseIpcHandle(ptr=%p)",
                                  mapping->base);
    }
    return UMF_RESULT_SUCCESS;
}

static const umf_gpu_ipc_mappers_t mappers = {
    .check_local = check_local,
    .map_remote = map_remote,
    .unmap_remote = unmap_remote,
};

umf_result_t umf_ze_ipc_open_handle(void *provider, void *providerIpcData,
                                    void **ptr) {
    ze_provider_t *p = provider;
    umf_ipc_data_t data;
    umf_result_t ret = umf_gpu_ipc_check_open(
        UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, providerIpcData, ptr,
        sizeof(ze_ipc_mem_handle_t), &data);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (p->device == NULL && !umf_ipc_data_is_local(&data)) {
        UMF_LOG_ERROR("Level Zero provider '%s' open_ipc_handle: opening a "
                      "handle of another process needs a device; this "
                      "provider (HOST memory) has none",
                      p->name);
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    open_arg_t arg = {p, &data};
    return umf_gpu_ipc_open(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, &p->stats,
                            (const void *)p->context, &data, &mappers, &arg,
                            ptr);
}

umf_result_t umf_ze_ipc_close_handle(void *provider, void *ptr, size_t size) {
    ze_provider_t *p = provider;
    (void)size; // the cache knows the mapping
    return umf_gpu_ipc_close(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, &p->stats,
                             (const void *)p->context, ptr);
}
