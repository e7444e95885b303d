// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA provider's API in a build without the CUDA driver API headers:
// every function says so and returns UMF_RESULT_ERROR_NOT_SUPPORTED.

#include <umf/providers/provider_cuda.h>

#include "provider_unavailable.h"
#include "util_common.h"

#define UNAVAILABLE()                                                          \
    umf_provider_unavailable(__func__, "CUDA",                                 \
                             "the CUDA toolkit (CUDAToolkit_ROOT)")

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsCreate(
    umf_cuda_memory_provider_params_handle_t *hParams) {
    if (hParams != NULL) {
        *hParams = NULL;
    }
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsDestroy(
    umf_cuda_memory_provider_params_handle_t hParams) {
    (void)hParams;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetContext(
    umf_cuda_memory_provider_params_handle_t hParams, void *hContext) {
    (void)hParams, (void)hContext;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetDevice(
    umf_cuda_memory_provider_params_handle_t hParams, int hDevice) {
    (void)hParams, (void)hDevice;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetMemoryType(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType) {
    (void)hParams, (void)memoryType;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetAllocFlags(
    umf_cuda_memory_provider_params_handle_t hParams, unsigned int flags) {
    (void)hParams, (void)flags;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetName(
    umf_cuda_memory_provider_params_handle_t hParams, const char *name) {
    (void)hParams, (void)name;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetAllocationMode(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_cuda_allocation_mode_t mode) {
    (void)hParams, (void)mode;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetResidentDevices(
    umf_cuda_memory_provider_params_handle_t hParams, const int *devices,
    uint32_t count) {
    (void)hParams, (void)devices, (void)count;
    return UNAVAILABLE();
}

UMF_EXPORT const umf_memory_provider_ops_t *umfCUDAMemoryProviderOps(void) {
    (void)UNAVAILABLE();
    return NULL;
}
