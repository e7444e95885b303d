// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Provider handles: validation of the ops table at create time, argument
// checks in every wrapper, dispatch, the thread-local last failed provider,
// and the set of handles this core made.

#include <pthread.h>
#include <stdlib.h>

#include <umf/memory_provider.h>

#include "memory_provider_internal.h"
#include "provider_args.h"
#include "util_common.h"
#include "util_hash_map.h"
#include "util_thread.h"
#include "util_umf_log.h"

struct umf_memory_provider_t {
    umf_memory_provider_ops_t ops; // a copy, with defaults for NULL options
    void *priv;
};

// 8 of the 64 bytes of static TLS the library may keep (util_thread.h):
// every failing call writes it.
static _Thread_local umf_memory_provider_handle_t last_failed UMF_TLS_HOT;

void umf_memory_provider_set_last_failed(
    umf_memory_provider_handle_t hProvider) {
    last_failed = hProvider;
}

UMF_EXPORT umf_memory_provider_handle_t umfGetLastFailedMemoryProvider(void) {
    return last_failed;
}

// Every live handle this core made. A process may hold another UMF core
// (UMF's own libumf) whose handles have another layout; the extensions
// (umfGpuMemoryProviderGetStats, ...) look a handle up here before they read
// it as ours. Create and destroy take the lock; the wrappers of the core API
// do not look (a handle passed to them is theirs by contract).
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static umf_hash_map_t handles = UMF_HASH_MAP_INIT;

static umf_result_t handle_add(umf_memory_provider_handle_t h) {
    pthread_mutex_lock(&handles_lock);
    umf_result_t ret = umf_hash_map_put_new(&handles, (uintptr_t)h, h);
    pthread_mutex_unlock(&handles_lock);
    return ret;
}

static void handle_remove(umf_memory_provider_handle_t h) {
    pthread_mutex_lock(&handles_lock);
    (void)umf_hash_map_remove(&handles, (uintptr_t)h);
    pthread_mutex_unlock(&handles_lock);
}

bool umf_memory_provider_is_ours(umf_memory_provider_handle_t hProvider) {
    if (hProvider == NULL) {
        return false;
    }
    pthread_mutex_lock(&handles_lock);
    bool ours = umf_hash_map_get(&handles, (uintptr_t)hProvider) != NULL;
    pthread_mutex_unlock(&handles_lock);
    return ours;
}

const umf_memory_provider_ops_t *
umf_memory_provider_get_ops(umf_memory_provider_handle_t hProvider) {
    return umf_memory_provider_is_ours(hProvider) ? &hProvider->ops : NULL;
}

void *umf_memory_provider_get_priv(umf_memory_provider_handle_t hProvider) {
    return umf_memory_provider_is_ours(hProvider) ? hProvider->priv : NULL;
}

// Returns `result`, recording the provider as failed if it is an error.
static inline umf_result_t checked(umf_memory_provider_handle_t hProvider,
                                   umf_result_t result) {
    if (UMF_UNLIKELY(result != UMF_RESULT_SUCCESS)) {
        last_failed = hProvider;
    }
    return result;
}

// Defaults for optional ops that a provider leaves NULL.

static umf_result_t default_purge(void *provider, void *ptr, size_t size) {
    (void)provider, (void)ptr, (void)size;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_merge(void *provider, void *lowPtr, void *highPtr,
                                  size_t totalSize) {
    (void)provider, (void)lowPtr, (void)highPtr, (void)totalSize;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_split(void *provider, void *ptr, size_t totalSize,
                                  size_t firstSize) {
    (void)provider, (void)ptr, (void)totalSize, (void)firstSize;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_ipc_size(void *provider, size_t *size) {
    (void)provider, (void)size;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_ipc_get(void *provider, const void *ptr,
                                    size_t size, void *data) {
    (void)provider, (void)ptr, (void)size, (void)data;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_ipc_put(void *provider, void *data) {
    (void)provider, (void)data;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_ipc_open(void *provider, void *data, void **ptr) {
    (void)provider, (void)data, (void)ptr;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t default_ipc_close(void *provider, void *ptr, size_t size) {
    (void)provider, (void)ptr, (void)size;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

// Checks the table and fills `out` with it plus defaults. Logs why not.
static umf_result_t validate_ops(const umf_memory_provider_ops_t *ops,
                                 umf_memory_provider_ops_t *out) {
    if (ops->version != UMF_VERSION_CURRENT) {
        UMF_LOG_ERROR("ops table version %u.%u is not the supported %u.%u",
                      UMF_MAJOR_VERSION(ops->version),
                      UMF_MINOR_VERSION(ops->version),
                      UMF_MAJOR_VERSION(UMF_VERSION_CURRENT),
                      UMF_MINOR_VERSION(UMF_VERSION_CURRENT));
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }

    static const char *const mandatory_names[] = {
        "initialize",
        "finalize",
        "alloc",
        "free",
        "get_last_native_error",
        "get_recommended_page_size",
        "get_min_page_size",
        "get_name",
    };
    const bool mandatory_set[] = {
        ops->initialize != NULL,
        ops->finalize != NULL,
        ops->alloc != NULL,
        ops->free != NULL,
        ops->get_last_native_error != NULL,
        ops->get_recommended_page_size != NULL,
        ops->get_min_page_size != NULL,
        ops->get_name != NULL,
    };
    _Static_assert(UMF_ARRAY_SIZE(mandatory_names) ==
                       UMF_ARRAY_SIZE(mandatory_set),
                   "one name per mandatory op");
    for (size_t i = 0; i < UMF_ARRAY_SIZE(mandatory_set); i++) {
        if (!mandatory_set[i]) {
            UMF_LOG_ERROR("ops table lacks the mandatory op '%s'",
                          mandatory_names[i]);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
    }

    if ((ops->ext.allocation_split == NULL) !=
        (ops->ext.allocation_merge == NULL)) {
        UMF_LOG_ERROR("ops table sets only one of allocation_split and "
                      "allocation_merge; set both or neither");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }

    const umf_memory_provider_ipc_ops_t *ipc = &ops->ipc;
    int ipc_set =
        (ipc->get_ipc_handle_size != NULL) + (ipc->get_ipc_handle != NULL) +
        (ipc->put_ipc_handle != NULL) + (ipc->open_ipc_handle != NULL) +
        (ipc->close_ipc_handle != NULL);
    if (ipc_set != 0 && ipc_set != 5) {
        UMF_LOG_ERROR("ops table sets %d of the 5 IPC ops; set all or none",
                      ipc_set);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }

    *out = *ops;
    umf_memory_provider_ext_ops_t *ext = &out->ext;
    if (ext->purge_lazy == NULL) {
        ext->purge_lazy = default_purge;
    }
    if (ext->purge_force == NULL) {
        ext->purge_force = default_purge;
    }
    if (ext->allocation_split == NULL) {
        ext->allocation_split = default_split;
        ext->allocation_merge = default_merge;
    }
    if (ipc_set == 0) {
        out->ipc.get_ipc_handle_size = default_ipc_size;
        out->ipc.get_ipc_handle = default_ipc_get;
        out->ipc.put_ipc_handle = default_ipc_put;
        out->ipc.open_ipc_handle = default_ipc_open;
        out->ipc.close_ipc_handle = default_ipc_close;
    }
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t
umfMemoryProviderCreate(const umf_memory_provider_ops_t *ops, void *params,
                        umf_memory_provider_handle_t *hProvider) {
    if (ops == NULL || hProvider == NULL) {
        UMF_LOG_ERROR("umfMemoryProviderCreate: %s is NULL",
                      ops == NULL ? "ops" : "hProvider");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }

    umf_memory_provider_handle_t provider = calloc(1, sizeof(*provider));
    if (provider == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    umf_result_t ret = validate_ops(ops, &provider->ops);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }
    ret = provider->ops.initialize(params, &provider->priv);
    if (ret != UMF_RESULT_SUCCESS) {
        UMF_LOG_DEBUG("provider initialize failed with %d", (int)ret);
        goto err_free;
    }
    ret = handle_add(provider);
    if (ret != UMF_RESULT_SUCCESS) {
        UMF_LOG_ERROR("umfMemoryProviderCreate: out of host memory");
        goto err_finalize;
    }
    *hProvider = provider;
    return UMF_RESULT_SUCCESS;

err_finalize:
    provider->ops.finalize(provider->priv);
err_free:
    free(provider);
    return ret;
}

UMF_EXPORT void
umfMemoryProviderDestroy(umf_memory_provider_handle_t hProvider) {
    if (hProvider == NULL) {
        return;
    }
    handle_remove(hProvider);
    hProvider->ops.finalize(hProvider->priv);
    // A destroyed provider must not stay reachable as "last failed" in this
    // thread; other threads' records are theirs to overwrite.
    if (last_failed == hProvider) {
        last_failed = NULL;
    }
    free(hProvider);
}

UMF_EXPORT umf_result_t
umfMemoryProviderAlloc(umf_memory_provider_handle_t hProvider, size_t size,
                       size_t alignment, void **ptr) {
    if (UMF_UNLIKELY(hProvider == NULL)) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    umf_result_t ret = umf_args_alloc(ptr, alignment);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return checked(hProvider, ret);
    }
    return checked(hProvider,
                   hProvider->ops.alloc(hProvider->priv, size, alignment, ptr));
}

UMF_EXPORT umf_result_t umfMemoryProviderFree(
    umf_memory_provider_handle_t hProvider, void *ptr, size_t size) {
    if (UMF_UNLIKELY(hProvider == NULL || ptr == NULL)) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.free(hProvider->priv, ptr, size));
}

UMF_EXPORT void
umfMemoryProviderGetLastNativeError(umf_memory_provider_handle_t hProvider,
                                    const char **ppMessage, int32_t *pError) {
    if (hProvider == NULL || ppMessage == NULL || pError == NULL) {
        if (ppMessage != NULL) {
            *ppMessage = NULL;
        }
        if (pError != NULL) {
            *pError = 0;
        }
        return;
    }
    hProvider->ops.get_last_native_error(hProvider->priv, ppMessage, pError);
}

UMF_EXPORT umf_result_t umfMemoryProviderGetRecommendedPageSize(
    umf_memory_provider_handle_t hProvider, size_t size, size_t *pageSize) {
    if (hProvider == NULL || pageSize == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.get_recommended_page_size(
                                  hProvider->priv, size, pageSize));
}

UMF_EXPORT umf_result_t umfMemoryProviderGetMinPageSize(
    umf_memory_provider_handle_t hProvider, void *ptr, size_t *pageSize) {
    if (hProvider == NULL || pageSize == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.get_min_page_size(hProvider->priv,
                                                               ptr, pageSize));
}

UMF_EXPORT const char *
umfMemoryProviderGetName(umf_memory_provider_handle_t hProvider) {
    if (hProvider == NULL) {
        last_failed = NULL;
        return NULL;
    }
    return hProvider->ops.get_name(hProvider->priv);
}

UMF_EXPORT umf_result_t umfMemoryProviderPurgeLazy(
    umf_memory_provider_handle_t hProvider, void *ptr, size_t size) {
    if (hProvider == NULL || ptr == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider,
                   hProvider->ops.ext.purge_lazy(hProvider->priv, ptr, size));
}

UMF_EXPORT umf_result_t umfMemoryProviderPurgeForce(
    umf_memory_provider_handle_t hProvider, void *ptr, size_t size) {
    if (hProvider == NULL || ptr == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider,
                   hProvider->ops.ext.purge_force(hProvider->priv, ptr, size));
}

UMF_EXPORT umf_result_t umfMemoryProviderAllocationSplit(
    umf_memory_provider_handle_t hProvider, void *ptr, size_t totalSize,
    size_t firstSize) {
    if (hProvider == NULL || !umf_args_split_ok(ptr, totalSize, firstSize)) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ext.allocation_split(
                                  hProvider->priv, ptr, totalSize, firstSize));
}

UMF_EXPORT umf_result_t umfMemoryProviderAllocationMerge(
    umf_memory_provider_handle_t hProvider, void *lowPtr, void *highPtr,
    size_t totalSize) {
    if (hProvider == NULL || !umf_args_merge_ok(lowPtr, highPtr, totalSize)) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ext.allocation_merge(
                                  hProvider->priv, lowPtr, highPtr, totalSize));
}

UMF_EXPORT umf_result_t umfMemoryProviderGetIPCHandleSize(
    umf_memory_provider_handle_t hProvider, size_t *size) {
    if (hProvider == NULL || size == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ipc.get_ipc_handle_size(
                                  hProvider->priv, size));
}

UMF_EXPORT umf_result_t umfMemoryProviderGetIPCHandle(
    umf_memory_provider_handle_t hProvider, const void *ptr, size_t size,
    void *providerIpcData) {
    if (hProvider == NULL || ptr == NULL || providerIpcData == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ipc.get_ipc_handle(
                                  hProvider->priv, ptr, size, providerIpcData));
}

UMF_EXPORT umf_result_t umfMemoryProviderPutIPCHandle(
    umf_memory_provider_handle_t hProvider, void *providerIpcData) {
    if (hProvider == NULL || providerIpcData == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ipc.put_ipc_handle(
                                  hProvider->priv, providerIpcData));
}

UMF_EXPORT umf_result_t umfMemoryProviderOpenIPCHandle(
    umf_memory_provider_handle_t hProvider, void *providerIpcData, void **ptr) {
    if (hProvider == NULL || providerIpcData == NULL || ptr == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ipc.open_ipc_handle(
                                  hProvider->priv, providerIpcData, ptr));
}

UMF_EXPORT umf_result_t umfMemoryProviderCloseIPCHandle(
    umf_memory_provider_handle_t hProvider, void *ptr, size_t size) {
    if (hProvider == NULL || ptr == NULL) {
        return checked(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(hProvider, hProvider->ops.ipc.close_ipc_handle(
                                  hProvider->priv, ptr, size));
}
