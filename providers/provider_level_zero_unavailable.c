// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero provider's API in a build without the Level Zero headers:
// every function says so and returns UMF_RESULT_ERROR_NOT_SUPPORTED.

#include <umf/providers/provider_level_zero.h>

#include "provider_unavailable.h"
#include "util_common.h"

#define UNAVAILABLE()                                                          \
    umf_provider_unavailable(__func__, "Level Zero", "libze-dev")

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsCreate(
    umf_level_zero_memory_provider_params_handle_t *hParams) {
    if (hParams != NULL) {
        *hParams = NULL;
    }
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsDestroy(
    umf_level_zero_memory_provider_params_handle_t hParams) {
    (void)hParams;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetContext(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_context_handle_t hContext) {
    (void)hParams, (void)hContext;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetDevice(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t hDevice) {
    (void)hParams, (void)hDevice;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetMemoryType(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType) {
    (void)hParams, (void)memoryType;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetResidentDevices(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t *hDevices, uint32_t deviceCount) {
    (void)hParams, (void)hDevices, (void)deviceCount;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetFreePolicy(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_level_zero_memory_provider_free_policy_t policy) {
    (void)hParams, (void)policy;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(
    umf_level_zero_memory_provider_params_handle_t hParams,
    uint32_t deviceOrdinal) {
    (void)hParams, (void)deviceOrdinal;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetName(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *name) {
    (void)hParams, (void)name;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetIpcFdTransfer(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_gpu_ipc_fd_transfer_t transfer) {
    (void)hParams, (void)transfer;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetIpcAllowedUids(
    umf_level_zero_memory_provider_params_handle_t hParams,
    const uint32_t *uids, size_t count) {
    (void)hParams, (void)uids, (void)count;
    return UNAVAILABLE();
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetIpcSocketDirectory(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *dir) {
    (void)hParams, (void)dir;
    return UNAVAILABLE();
}

UMF_EXPORT const umf_memory_provider_ops_t *
umfLevelZeroMemoryProviderOps(void) {
    (void)UNAVAILABLE();
    return NULL;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderResidentDeviceChange(
    umf_memory_provider_handle_t hProvider, ze_device_handle_t hDevice,
    bool isAdding) {
    (void)hProvider, (void)hDevice, (void)isAdding;
    return UNAVAILABLE();
}
