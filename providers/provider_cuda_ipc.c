// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC of the CUDA provider: the 64-byte CUipcMemHandle travels inside the
// IPC data shared with the Level Zero provider (ipc_data.h), and the steps
// both providers take alike (checks, the shared cache of opened handles
// keyed by (this provider's context, producer instance, allocation id),
// stats) are gpu_ipc.h's; here are the driver calls.
//
// What the real driver does not allow, the provider hides:
// - cuIpcOpenMemHandle fails in the process that made the handle: an open
//   there returns the producer's own pointer, after checking that its
//   allocation is still the one exported;
// - an allocation may be opened once per context and process: repeated
//   opens share the cached mapping and count references.
// On every path the range handed out is what the driver reports
// (RANGE_START_ADDR and RANGE_SIZE of the mapping), never what the IPC data
// claims.
// Handles exist for DEVICE memory only (cuMemAlloc); HOST and SHARED
// providers answer UMF_RESULT_ERROR_NOT_SUPPORTED. put_ipc_handle calls
// nothing (the driver has no such call) but balances the stats.

#include <stdio.h>
#include <string.h>

#include "gpu_ipc.h"
#include "provider_cuda_internal.h"
#include "provider_kind.h"
#include "util_umf_log.h"

_Static_assert(sizeof(CUipcMemHandle) <= UMF_IPC_NATIVE_HANDLE_MAX,
               "a CUipcMemHandle fits the IPC data");

umf_result_t umf_cuda_ipc_get_handle_size(void *provider, size_t *size) {
    (void)provider;
    return umf_gpu_ipc_handle_size(size);
}

// What get_ipc_handle asks the driver, with the context current.
static umf_result_t export_in_ctx(const cu_provider_t *p, const void *ptr,
                                  uintptr_t *base, size_t *range,
                                  unsigned long long *id, CUipcMemHandle *h) {
    umf_result_t ret = umf_cuda_query_range_in_ctx(p, ptr, base, range);
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umf_cuda_pointer_attribute(
            p->cu, id, CU_POINTER_ATTRIBUTE_BUFFER_ID, ptr, "BUFFER_ID");
    }
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    CUresult res = p->cu->IpcGetMemHandle(h, (CUdeviceptr)*base);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(res, NULL, "cuIpcGetMemHandle(ptr=%p)",
                                    (void *)*base);
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_cuda_ipc_get_handle(void *provider, const void *ptr,
                                     size_t size, void *providerIpcData) {
    cu_provider_t *p = provider;
    if (ptr == NULL || providerIpcData == NULL) {
        UMF_LOG_ERROR("CUDA provider get_ipc_handle: NULL %s",
                      ptr == NULL ? "ptr" : "providerIpcData");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (p->memory_type != UMF_MEMORY_TYPE_DEVICE) {
        UMF_LOG_ERROR("CUDA provider '%s': CUDA IPC handles exist for DEVICE "
                      "memory only (cuIpcGetMemHandle)",
                      p->name);
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    uintptr_t base = 0;
    size_t range = 0;
    unsigned long long id = 0;
    CUipcMemHandle handle;
    memset(&handle, 0, sizeof(handle));
    CUcontext saved;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ret = export_in_ctx(p, ptr, &base, &range, &id, &handle);
    // Nothing to undo on failure: the driver owns the handle.
    umf_result_t left = cuda_ctx_leave(p->cu, p->context, saved);
    ret = ret != UMF_RESULT_SUCCESS ? ret : left;
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    // The range shared must be memory the caller holds: inside the piece
    // or allocation the provider handed out (the whole driver allocation is
    // what the handle maps).
    umf_alloc_piece_info_t held;
    ret = umf_ownership_find(&p->own, (void *)base, ptr, &held);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    uintptr_t offset = (uintptr_t)ptr - base;
    if (size >
        held.size - (size_t)((const char *)ptr - (const char *)held.ptr)) {
        UMF_LOG_ERROR("CUDA provider get_ipc_handle: %zu bytes at %p run past "
                      "the end of its allocation (%p, %zu bytes)",
                      size, ptr, held.ptr, held.size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // The driver moves whatever the handle needs itself: no fd here.
    ret = umf_ipc_data_init(providerIpcData, UMF_GPU_PROVIDER_KIND_CUDA,
                            p->memory_type, id, base, range, offset, &handle,
                            sizeof(handle), -1);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    UMF_GPU_STATS_EVENT(&p->stats, ipc_exported, 1);
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_cuda_ipc_put_handle(void *provider, void *providerIpcData) {
    cu_provider_t *p = provider;
    umf_ipc_data_t data;
    umf_result_t ret = umf_gpu_ipc_check_put(UMF_GPU_PROVIDER_KIND_CUDA,
                                             providerIpcData, &data);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    // Nothing to give back: the driver has no call for it.
    UMF_GPU_STATS_EVENT(&p->stats, ipc_exported, -1);
    return UMF_RESULT_SUCCESS;
}

typedef struct open_arg_t {
    const cu_provider_t *provider;
    const umf_ipc_data_t *data;
} open_arg_t;

// Closes a mapping cuIpcOpenMemHandle_v2 made, with the context current,
// after a later step failed.
static void undo_open(const cu_provider_t *p, CUdeviceptr dptr) {
    CUresult res = p->cu->IpcCloseMemHandle(dptr);
    if (res != CUDA_SUCCESS) {
        UMF_LOG_ERROR("CUDA provider: undoing an IPC open, "
                      "cuIpcCloseMemHandle(%p) failed (%d)",
                      (void *)dptr, (int)res);
    }
}

// The driver's account of the allocation or mapping at `base`, with the
// provider's context current: it must start there; its size goes to *size.
static umf_result_t range_at_in_ctx(const cu_provider_t *p, const void *base,
                                    const char *what, size_t *size) {
    uintptr_t start = 0;
    umf_result_t ret = umf_cuda_query_range_in_ctx(p, base, &start, size);
    if (ret == UMF_RESULT_SUCCESS && start != (uintptr_t)base) {
        UMF_LOG_ERROR("CUDA provider open_ipc_handle: %s at %p lies inside "
                      "another range (from 0x%zx)",
                      what, base, (size_t)start);
        ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return ret;
}

// What an open in the producer asks the driver, with the context current.
static umf_result_t check_local_in_ctx(const cu_provider_t *p,
                                       const umf_ipc_data_t *data,
                                       umf_ipc_cache_mapping_t *mapping) {
    const void *base = (const void *)(uintptr_t)data->base;
    unsigned long long id = 0;
    umf_result_t ret = umf_cuda_pointer_attribute(
        p->cu, &id, CU_POINTER_ATTRIBUTE_BUFFER_ID, base, "BUFFER_ID");
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (id != data->alloc_id) {
        UMF_LOG_ERROR("CUDA provider open_ipc_handle: the allocation exported "
                      "at %p (id %llu) was freed; the address now holds "
                      "allocation %llu",
                      base, (unsigned long long)data->alloc_id, id);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    ret = range_at_in_ctx(p, base, "the exported allocation", &mapping->size);
    if (ret == UMF_RESULT_SUCCESS) {
        mapping->base = (void *)base;
    }
    return ret;
}

// What a miss in another process asks the driver, with the context current:
// the mapping, and the driver's account of its range.
static umf_result_t map_remote_in_ctx(const cu_provider_t *p,
                                      const umf_ipc_data_t *data,
                                      umf_ipc_cache_mapping_t *mapping) {
    CUipcMemHandle handle;
    memcpy(&handle, data->handle, sizeof(handle));
    CUdeviceptr dptr = 0;
    CUresult res = p->cu->IpcOpenMemHandle(&dptr, handle,
                                           CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    if (res != CUDA_SUCCESS) {
        // The driver takes the exporter's memory itself: a refusal by the
        // OS (ptrace rules, seccomp) comes back as NOT_PERMITTED.
        // The emulated libcuda falls back to the exporter's fd server
        // first; its log says which of the server's refusals it was.
        char advice[400], hint_text[640];
        const char *hint = NULL;
        if (res == CUDA_ERROR_NOT_PERMITTED) {
            snprintf(hint_text, sizeof(hint_text),
                     "neither pidfd_getfd nor the exporter's fd server served "
                     "the fd "
                     "(the server: a uid it does not allow, serving disabled, "
                     "or UMF_GPU_IPC_FD_TRANSFER=pidfd here; the driver's log "
                     "says which); %s",
                     umf_fd_permission_advice(advice, sizeof(advice)));
            hint = hint_text;
        } else if (res == CUDA_ERROR_TIMEOUT) {
            hint = "the exporter's fd server dropped the request or did not "
                   "answer in time, also after retries (too many clients at "
                   "once, or a stopped exporter): try again later";
        }
        umf_result_t ret = umf_cuda_call_failed(
            res, hint,
            "cuIpcOpenMemHandle_v2(allocation %llu of process %d, "
            "LAZY_ENABLE_PEER_ACCESS)",
            (unsigned long long)data->alloc_id, (int)data->producer_pid);
        return umf_gpu_ipc_open_failed(UMF_GPU_PROVIDER_KIND_CUDA, ret);
    }
    umf_result_t ret = range_at_in_ctx(
        p, (const void *)dptr, "the mapping cuIpcOpenMemHandle_v2 returned",
        &mapping->size);
    if (ret != UMF_RESULT_SUCCESS) {
        undo_open(p, dptr);
        return ret;
    }
    mapping->base = (void *)dptr;
    return UMF_RESULT_SUCCESS;
}

typedef umf_result_t (*in_ctx_fn)(const cu_provider_t *p,
                                  const umf_ipc_data_t *data,
                                  umf_ipc_cache_mapping_t *mapping);

// Runs `fn` with the provider's context current. Its result, or, if the
// caller's context could not be made current again, that failure (after
// undoing a mapping fn made: our context is still current).
static umf_result_t run_in_ctx(void *arg, in_ctx_fn fn,
                               umf_ipc_cache_mapping_t *mapping) {
    const open_arg_t *a = arg;
    const cu_provider_t *p = a->provider;
    CUcontext saved;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ret = fn(p, a->data, mapping);
    umf_result_t left = cuda_ctx_leave(p->cu, p->context, saved);
    if (left != UMF_RESULT_SUCCESS && ret == UMF_RESULT_SUCCESS) {
        if (fn == map_remote_in_ctx) {
            undo_open(p, (CUdeviceptr)mapping->base);
        }
        mapping->base = NULL;
        return left;
    }
    return ret;
}

// An open in the producer itself: its own allocation, if it is still the
// one that was exported (at every open: it may have been freed since).
static umf_result_t check_local(void *arg, umf_ipc_cache_mapping_t *mapping) {
    return run_in_ctx(arg, check_local_in_ctx, mapping);
}

// A miss in another process: map the producer's allocation.
static umf_result_t map_remote(void *arg, umf_ipc_cache_mapping_t *mapping) {
    return run_in_ctx(arg, map_remote_in_ctx, mapping);
}

// The last close of a mapping made by map_remote. Needs no provider: the
// one that opened it may be gone.
static umf_result_t unmap_remote(const umf_ipc_cache_key_t *key,
                                 const umf_ipc_cache_mapping_t *mapping) {
    const umf_cuda_driver_t *cu = umf_cuda_driver_loaded();
    CUcontext ctx = (CUcontext)key->context, saved;
    if (cu == NULL) { // cannot be: something was mapped with it
        return UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
    }
    umf_result_t ret = cuda_ctx_enter(cu, ctx, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    CUresult res = cu->IpcCloseMemHandle((CUdeviceptr)mapping->base);
    if (res != CUDA_SUCCESS) {
        ret = umf_cuda_call_failed(res, NULL, "cuIpcCloseMemHandle(ptr=%p)",
                                   mapping->base);
    }
    // A close cannot be undone: once the driver closed, it succeeded, even
    // if the caller's context could not be restored (which is logged); the
    // cache must not keep a mapping that is gone.
    (void)cuda_ctx_leave(cu, ctx, saved);
    return ret;
}

static const umf_gpu_ipc_mappers_t mappers = {
    .check_local = check_local,
    .map_remote = map_remote,
    .unmap_remote = unmap_remote,
};

umf_result_t umf_cuda_ipc_open_handle(void *provider, void *providerIpcData,
                                      void **ptr) {
    cu_provider_t *p = provider;
    umf_ipc_data_t data;
    umf_result_t ret =
        umf_gpu_ipc_check_open(UMF_GPU_PROVIDER_KIND_CUDA, providerIpcData, ptr,
                               sizeof(CUipcMemHandle), &data);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (data.memory_type != UMF_MEMORY_TYPE_DEVICE) {
        UMF_LOG_ERROR("CUDA provider open_ipc_handle: the data describes "
                      "memory type %u; CUDA shares DEVICE memory only",
                      (unsigned)data.memory_type);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    open_arg_t arg = {p, &data};
    return umf_gpu_ipc_open(UMF_GPU_PROVIDER_KIND_CUDA, &p->stats,
                            (const void *)p->context, &data, &mappers, &arg,
                            ptr);
}

umf_result_t umf_cuda_ipc_close_handle(void *provider, void *ptr, size_t size) {
    cu_provider_t *p = provider;
    (void)size; // the cache knows the mapping's size
    return umf_gpu_ipc_close(UMF_GPU_PROVIDER_KIND_CUDA, &p->stats,
                             (const void *)p->context, ptr);
}
