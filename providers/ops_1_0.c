// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The UMF 1.0-layout ops tables (<umf/providers/provider_ops_1_0.h>): one
// thin adapter onto each provider's 0.9 table, shared by both providers.
//
// A 1.0 op gets only the provider pointer that initialize returned, so
// initialize returns a small adapter_t that names the 0.9 table and holds
// the provider's own state; every op forwards to the 0.9 op with that
// state, adapting the signature (const params and ptr, umf_result_t from
// finalize, get_last_native_error and get_name). No provider logic lives
// here: a provider made from either table behaves the same. Only ext_ctl is
// new, and it serves what the provider already keeps (its name, its stats,
// whose peak it can reset). docs/umf-1x.md says what a UMF 1.x core makes
// of each answer.

#include <stdlib.h>
#include <string.h>

#include <umf/memory_provider_ops.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>
#include <umf/providers/provider_ops_1_0.h>

#include "gpu_provider.h"
#include "ops_1_0.h"
#include "provider_args.h"
#include "util_common.h"
#include "util_umf_log.h"

typedef struct adapter_t {
    const umf_memory_provider_ops_t *ops; // the provider's 0.9 table
    void *priv;                           // what its initialize returned
} adapter_t;

static umf_result_t adapt_initialize(const umf_memory_provider_ops_t *ops,
                                     const void *params, void **provider) {
    if (ops == NULL || provider == NULL) {
        UMF_LOG_ERROR("1.0 ops table: initialize: NULL %s",
                      ops == NULL ? "provider table" : "provider");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    adapter_t *a = malloc(sizeof(*a));
    if (a == NULL) {
        UMF_LOG_ERROR("1.0 ops table: initialize: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    a->ops = ops;
    // The 0.9 initialize takes params as void *; ours only read them.
    umf_result_t ret = ops->initialize((void *)(uintptr_t)params, &a->priv);
    if (ret != UMF_RESULT_SUCCESS) {
        free(a);
        return ret;
    }
    *provider = a;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t adapt_get_name(const umf_memory_provider_ops_t *ops,
                                   void *provider, const char **name) {
    if (name == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (ops == NULL) {
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    // NULL: the default name, which the 0.9 get_name gives for NULL too.
    const adapter_t *a = provider;
    *name = ops->get_name(a != NULL ? a->priv : NULL);
    return UMF_RESULT_SUCCESS;
}

static umf_result_t adapt_finalize(void *provider) {
    adapter_t *a = provider;
    if (a == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    a->ops->finalize(a->priv);
    free(a);
    return UMF_RESULT_SUCCESS;
}

static umf_result_t adapt_alloc(void *provider, size_t size, size_t alignment,
                                void **ptr) {
    const adapter_t *a = provider;
    if (UMF_UNLIKELY(a == NULL)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret = umf_args_alloc(ptr, alignment);
    return UMF_LIKELY(ret == UMF_RESULT_SUCCESS)
               ? a->ops->alloc(a->priv, size, alignment, ptr)
               : ret;
}

static umf_result_t adapt_free(void *provider, void *ptr, size_t size) {
    const adapter_t *a = provider;
    if (UMF_UNLIKELY(a == NULL || ptr == NULL)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return a->ops->free(a->priv, ptr, size);
}

static umf_result_t adapt_get_last_native_error(void *provider,
                                                const char **ppMessage,
                                                int32_t *pError) {
    const adapter_t *a = provider;
    if (a == NULL || ppMessage == NULL || pError == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    a->ops->get_last_native_error(a->priv, ppMessage, pError);
    return UMF_RESULT_SUCCESS;
}

static umf_result_t adapt_get_recommended_page_size(void *provider, size_t size,
                                                    size_t *pageSize) {
    const adapter_t *a = provider;
    if (a == NULL || pageSize == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return a->ops->get_recommended_page_size(a->priv, size, pageSize);
}

static umf_result_t adapt_get_min_page_size(void *provider, const void *ptr,
                                            size_t *pageSize) {
    const adapter_t *a = provider;
    if (a == NULL || pageSize == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // The 0.9 op takes ptr as void *; it only looks the address up.
    return a->ops->get_min_page_size(a->priv, (void *)(uintptr_t)ptr, pageSize);
}

// The optional ops: the 0.9 table's, or NOT_SUPPORTED where it has none
// (as a core fills in for a NULL op); INVALID_ARGUMENT, before either, when
// the arguments break the rule a core checks (`ok`).
#define FORWARD(ok, op, ...)                                                   \
    (a == NULL || !(ok)   ? UMF_RESULT_ERROR_INVALID_ARGUMENT                  \
     : a->ops->op != NULL ? a->ops->op(a->priv, __VA_ARGS__)                   \
                          : UMF_RESULT_ERROR_NOT_SUPPORTED)

static umf_result_t adapt_purge_lazy(void *provider, void *ptr, size_t size) {
    const adapter_t *a = provider;
    return FORWARD(ptr != NULL, ext.purge_lazy, ptr, size);
}

static umf_result_t adapt_purge_force(void *provider, void *ptr, size_t size) {
    const adapter_t *a = provider;
    return FORWARD(ptr != NULL, ext.purge_force, ptr, size);
}

static umf_result_t adapt_allocation_merge(void *provider, void *lowPtr,
                                           void *highPtr, size_t totalSize) {
    const adapter_t *a = provider;
    return FORWARD(umf_args_merge_ok(lowPtr, highPtr, totalSize),
                   ext.allocation_merge, lowPtr, highPtr, totalSize);
}

static umf_result_t adapt_allocation_split(void *provider, void *ptr,
                                           size_t totalSize, size_t firstSize) {
    const adapter_t *a = provider;
    return FORWARD(umf_args_split_ok(ptr, totalSize, firstSize),
                   ext.allocation_split, ptr, totalSize, firstSize);
}

static umf_result_t adapt_get_ipc_handle_size(void *provider, size_t *size) {
    const adapter_t *a = provider;
    return FORWARD(size != NULL, ipc.get_ipc_handle_size, size);
}

static umf_result_t adapt_get_ipc_handle(void *provider, const void *ptr,
                                         size_t size, void *providerIpcData) {
    const adapter_t *a = provider;
    return FORWARD(ptr != NULL && providerIpcData != NULL, ipc.get_ipc_handle,
                   ptr, size, providerIpcData);
}

static umf_result_t adapt_put_ipc_handle(void *provider,
                                         void *providerIpcData) {
    const adapter_t *a = provider;
    return FORWARD(providerIpcData != NULL, ipc.put_ipc_handle,
                   providerIpcData);
}

static umf_result_t adapt_open_ipc_handle(void *provider, void *providerIpcData,
                                          void **ptr) {
    const adapter_t *a = provider;
    return FORWARD(providerIpcData != NULL && ptr != NULL, ipc.open_ipc_handle,
                   providerIpcData, ptr);
}

static umf_result_t adapt_close_ipc_handle(void *provider, void *ptr,
                                           size_t size) {
    const adapter_t *a = provider;
    return FORWARD(ptr != NULL, ipc.close_ipc_handle, ptr, size);
}

// A size_t answer into arg (size 0: the caller did not say, as UMF's own
// providers accept).
static umf_result_t ctl_size(void *arg, size_t size, uint64_t value) {
    if (arg == NULL || (size != 0 && size < sizeof(size_t))) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    size_t v = (size_t)value;
    memcpy(arg, &v, sizeof(v));
    return UMF_RESULT_SUCCESS;
}

// The control queries served (the name after "umf.provider.by_handle.<h>."
// and the query type), as UMF's own providers name them.
typedef enum ctl_query_t {
    CTL_NAME,       // read: the provider's name
    CTL_ALLOCATED,  // read: stats.allocated_memory
    CTL_PEAK,       // read: stats.peak_memory
    CTL_PEAK_RESET, // runnable: the peak becomes what is allocated now
    CTL_MODE,       // read: the CUDA allocation mode, an int
    CTL_NONE,
} ctl_query_t;

static ctl_query_t ctl_query_of(const char *name,
                                umf_gpu_ctl_query_type_t type) {
    static const struct {
        const char *name;
        umf_gpu_ctl_query_type_t type;
    } served[] = {
        [CTL_NAME] = {"name", UMF_GPU_CTL_QUERY_READ},
        [CTL_ALLOCATED] = {"stats.allocated_memory", UMF_GPU_CTL_QUERY_READ},
        [CTL_PEAK] = {"stats.peak_memory", UMF_GPU_CTL_QUERY_READ},
        [CTL_PEAK_RESET] = {"stats.peak_memory.reset",
                            UMF_GPU_CTL_QUERY_RUNNABLE},
        [CTL_MODE] = {"params.allocation_mode", UMF_GPU_CTL_QUERY_READ},
    };
    for (unsigned i = 0; i < CTL_NONE; i++) {
        if (strcmp(name, served[i].name) == 0 && type == served[i].type) {
            return (ctl_query_t)i;
        }
    }
    return CTL_NONE;
}

static umf_result_t adapt_ctl(void *provider, umf_gpu_ctl_query_source_t source,
                              const char *name, void *arg, size_t size,
                              umf_gpu_ctl_query_type_t queryType,
                              va_list args) {
    (void)source, (void)args;
    const adapter_t *a = provider;
    if (a == NULL || name == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    ctl_query_t q = ctl_query_of(name, queryType);
    if (q == CTL_NONE) {
        UMF_LOG_DEBUG("1.0 ops table: ctl '%s' (query type %d) is not served",
                      name, (int)queryType);
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    if (q == CTL_NAME) {
        const char *own = a->ops->get_name(a->priv);
        size_t len = own != NULL ? strlen(own) : 0;
        if (arg == NULL || size <= len) {
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        memcpy(arg, own != NULL ? own : "", len + 1);
        return UMF_RESULT_SUCCESS;
    }
    const umf_gpu_provider_class_t *cls = umf_gpu_provider_class_of_ops(a->ops);
    if (cls == NULL) {
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    if (q == CTL_MODE) {
        if (cls->allocation_mode == NULL) {
            return UMF_RESULT_ERROR_NOT_SUPPORTED; // Level Zero has none
        }
        int mode = cls->allocation_mode(a->priv);
        if (arg == NULL || (size != 0 && size < sizeof(mode))) {
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        memcpy(arg, &mode, sizeof(mode));
        return UMF_RESULT_SUCCESS;
    }
    if (q == CTL_PEAK_RESET) {
        // Takes no argument (umfCtlExec(name, NULL, 0) as UMF's own
        // providers are reset); one given is ignored, as they ignore it.
        umf_gpu_stats_reset_peak(cls->stats(a->priv));
        return UMF_RESULT_SUCCESS;
    }
    umf_gpu_provider_stats_t stats;
    umf_gpu_stats_read(cls->stats(a->priv), &stats);
    return ctl_size(arg, size,
                    q == CTL_ALLOCATED ? stats.allocated_bytes
                                       : stats.peak_bytes);
}

umf_result_t umf_gpu_ops_1_0_provider_state(
    void *provider, const umf_memory_provider_ops_t **ops, void **state) {
    const adapter_t *a = provider;
    if (a == NULL || ops == NULL || state == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    *ops = a->ops;
    *state = a->priv;
    return UMF_RESULT_SUCCESS;
}

// Each provider's table: its own initialize and get_name (which must answer
// without a provider), the shared adapter for the rest.
#define OPS_1_0_TABLE(initialize_fn, get_name_fn)                              \
    {                                                                          \
        .version = UMF_GPU_OPS_VERSION_1_0, .initialize = initialize_fn,       \
        .finalize = adapt_finalize, .alloc = adapt_alloc, .free = adapt_free,  \
        .get_last_native_error = adapt_get_last_native_error,                  \
        .get_recommended_page_size = adapt_get_recommended_page_size,          \
        .get_min_page_size = adapt_get_min_page_size, .get_name = get_name_fn, \
        .ext_purge_lazy = adapt_purge_lazy,                                    \
        .ext_purge_force = adapt_purge_force,                                  \
        .ext_allocation_merge = adapt_allocation_merge,                        \
        .ext_allocation_split = adapt_allocation_split,                        \
        .ext_get_ipc_handle_size = adapt_get_ipc_handle_size,                  \
        .ext_get_ipc_handle = adapt_get_ipc_handle,                            \
        .ext_put_ipc_handle = adapt_put_ipc_handle,                            \
        .ext_open_ipc_handle = adapt_open_ipc_handle,                          \
        .ext_close_ipc_handle = adapt_close_ipc_handle, .ext_ctl = adapt_ctl,  \
    }

static umf_result_t ze_initialize_1_0(const void *params, void **provider) {
    return adapt_initialize(umfLevelZeroMemoryProviderOps(), params, provider);
}

static umf_result_t ze_get_name_1_0(void *provider, const char **name) {
    return adapt_get_name(umfLevelZeroMemoryProviderOps(), provider, name);
}

static umf_result_t cu_initialize_1_0(const void *params, void **provider) {
    return adapt_initialize(umfCUDAMemoryProviderOps(), params, provider);
}

static umf_result_t cu_get_name_1_0(void *provider, const char **name) {
    return adapt_get_name(umfCUDAMemoryProviderOps(), provider, name);
}

static const umf_gpu_memory_provider_ops_1_0_t ze_ops_1_0 =
    OPS_1_0_TABLE(ze_initialize_1_0, ze_get_name_1_0);
static const umf_gpu_memory_provider_ops_1_0_t cu_ops_1_0 =
    OPS_1_0_TABLE(cu_initialize_1_0, cu_get_name_1_0);

// NULL, as the 0.9 getter, for a provider left out of the build.
UMF_EXPORT const umf_gpu_memory_provider_ops_1_0_t *
umfLevelZeroMemoryProviderOps_1_0(void) {
    return umfLevelZeroMemoryProviderOps() != NULL ? &ze_ops_1_0 : NULL;
}

UMF_EXPORT const umf_gpu_memory_provider_ops_1_0_t *
umfCUDAMemoryProviderOps_1_0(void) {
    return umfCUDAMemoryProviderOps() != NULL ? &cu_ops_1_0 : NULL;
}
