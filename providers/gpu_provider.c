// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU extensions of <umf/memory_provider_gpu.h>, for any GPU provider.

#include "gpu_provider.h"

#include "memory_provider_internal.h"
#include "native_error.h"
#include "util_common.h"
#include "util_umf_log.h"

const umf_gpu_provider_class_t *
umf_gpu_provider_class_of_ops(const umf_memory_provider_ops_t *ops) {
    if (ops == NULL) {
        return NULL;
    }
    const umf_gpu_provider_class_t *classes[] = {
        &umf_gpu_provider_class_level_zero,
        &umf_gpu_provider_class_cuda,
    };
    for (size_t i = 0; i < UMF_ARRAY_SIZE(classes); i++) {
        if (classes[i] != NULL && classes[i]->initialize == ops->initialize) {
            return classes[i];
        }
    }
    return NULL;
}

const umf_gpu_provider_class_t *
umf_gpu_provider_class_of(umf_memory_provider_handle_t hProvider) {
    return umf_gpu_provider_class_of_ops(
        umf_memory_provider_get_ops(hProvider));
}

static umf_result_t failed(umf_memory_provider_handle_t hProvider,
                           umf_result_t result) {
    if (hProvider != NULL) {
        umf_memory_provider_set_last_failed(hProvider);
    }
    return result;
}

// The class of hProvider, or NULL after logging why it is not usable.
static const umf_gpu_provider_class_t *
class_or_log(umf_memory_provider_handle_t hProvider, const char *function) {
    const umf_gpu_provider_class_t *cls = umf_gpu_provider_class_of(hProvider);
    if (cls == NULL) {
        UMF_LOG_ERROR("%s: %s", function,
                      hProvider == NULL ? "NULL provider handle"
                      : !umf_memory_provider_is_ours(hProvider)
                          ? "not a provider handle of umf-gpu's core (one "
                            "that another UMF core made, or destroyed)"
                          : "the provider is not a GPU provider of umf-gpu");
    }
    return cls;
}

UMF_EXPORT umf_result_t umfGpuMemoryProviderGetStats(
    umf_memory_provider_handle_t hProvider, umf_gpu_provider_stats_t *stats) {
    const umf_gpu_provider_class_t *cls = class_or_log(hProvider, __func__);
    if (cls == NULL) {
        return failed(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (stats == NULL) {
        UMF_LOG_ERROR("%s: NULL stats", __func__);
        return failed(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    umf_gpu_stats_read(cls->stats(umf_memory_provider_get_priv(hProvider)),
                       stats);
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfGpuMemoryProviderGetAllocationProperties(
    umf_memory_provider_handle_t hProvider, const void *ptr,
    umf_gpu_allocation_properties_t *props) {
    const umf_gpu_provider_class_t *cls = class_or_log(hProvider, __func__);
    if (cls == NULL) {
        return failed(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (ptr == NULL || props == NULL) {
        UMF_LOG_ERROR("%s: NULL %s", __func__, ptr == NULL ? "ptr" : "props");
        return failed(hProvider, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    umf_result_t ret = cls->get_allocation_properties(
        umf_memory_provider_get_priv(hProvider), ptr, props);
    return ret == UMF_RESULT_SUCCESS ? ret : failed(hProvider, ret);
}

UMF_EXPORT umf_result_t umfGpuMemoryProviderOpsGetLastNativeError(
    const umf_memory_provider_ops_t *ops, const char **ppMessage,
    int32_t *pError) {
    const umf_gpu_provider_class_t *cls = umf_gpu_provider_class_of_ops(ops);
    if (cls == NULL || ppMessage == NULL || pError == NULL) {
        UMF_LOG_ERROR("%s: %s", __func__,
                      cls == NULL ? "not the ops table of a GPU provider of "
                                    "umf-gpu"
                                  : "NULL out-pointer");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_native_error_get(cls->kind, ppMessage, pError);
    return UMF_RESULT_SUCCESS;
}
