// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA memory provider. This header needs no CUDA header: contexts are
// passed as void * (a CUcontext) and devices as int (a CUdevice ordinal).

#ifndef UMF_PROVIDER_CUDA_H
#define UMF_PROVIDER_CUDA_H 1

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief Parameters of a CUDA provider, made by
/// umfCUDAMemoryProviderParamsCreate().
typedef struct umf_cuda_memory_provider_params_t
    *umf_cuda_memory_provider_params_handle_t;

umf_result_t umfCUDAMemoryProviderParamsCreate(
    umf_cuda_memory_provider_params_handle_t *hParams);

umf_result_t umfCUDAMemoryProviderParamsDestroy(
    umf_cuda_memory_provider_params_handle_t hParams);

umf_result_t umfCUDAMemoryProviderParamsSetContext(
    umf_cuda_memory_provider_params_handle_t hParams, void *hContext);

umf_result_t umfCUDAMemoryProviderParamsSetDevice(
    umf_cuda_memory_provider_params_handle_t hParams, int hDevice);

umf_result_t umfCUDAMemoryProviderParamsSetMemoryType(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType);

umf_result_t umfCUDAMemoryProviderParamsSetAllocFlags(
    umf_cuda_memory_provider_params_handle_t hParams, unsigned int flags);

umf_result_t umfCUDAMemoryProviderParamsSetName(
    umf_cuda_memory_provider_params_handle_t hParams, const char *name);

/// @brief The CUDA provider's ops table, or NULL in a build without CUDA.
const umf_memory_provider_ops_t *umfCUDAMemoryProviderOps(void);

#ifdef __cplusplus
}
#endif

#endif // UMF_PROVIDER_CUDA_H
