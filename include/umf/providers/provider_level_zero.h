// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero memory provider. This header needs no Level Zero header: it
// declares the two handle types it uses the way ze_api.h does, so either may
// be included first.

#ifndef UMF_PROVIDER_LEVEL_ZERO_H
#define UMF_PROVIDER_LEVEL_ZERO_H 1

#include <stdbool.h>
#include <stdint.h>

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _ze_context_handle_t *ze_context_handle_t;
typedef struct _ze_device_handle_t *ze_device_handle_t;

/// @brief Parameters of a Level Zero provider, made by
/// umfLevelZeroMemoryProviderParamsCreate().
typedef struct umf_level_zero_memory_provider_params_t
    *umf_level_zero_memory_provider_params_handle_t;

/// @brief How the provider frees memory that the device may still use.
typedef enum umf_level_zero_memory_provider_free_policy_t {
    /// zeMemFree: the driver decides.
    UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT = 0,
    /// zeMemFreeExt, blocking until the device no longer uses the memory.
    UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE,
    /// zeMemFreeExt, deferring the release until the device is done.
    UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE,
} umf_level_zero_memory_provider_free_policy_t;

umf_result_t umfLevelZeroMemoryProviderParamsCreate(
    umf_level_zero_memory_provider_params_handle_t *hParams);

umf_result_t umfLevelZeroMemoryProviderParamsDestroy(
    umf_level_zero_memory_provider_params_handle_t hParams);

umf_result_t umfLevelZeroMemoryProviderParamsSetContext(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_context_handle_t hContext);

umf_result_t umfLevelZeroMemoryProviderParamsSetDevice(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t hDevice);

umf_result_t umfLevelZeroMemoryProviderParamsSetMemoryType(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType);

umf_result_t umfLevelZeroMemoryProviderParamsSetResidentDevices(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t *hDevices, uint32_t deviceCount);

umf_result_t umfLevelZeroMemoryProviderParamsSetFreePolicy(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_level_zero_memory_provider_free_policy_t policy);

umf_result_t umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(
    umf_level_zero_memory_provider_params_handle_t hParams,
    uint32_t deviceOrdinal);

umf_result_t umfLevelZeroMemoryProviderParamsSetName(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *name);

/// @brief The Level Zero provider's ops table, or NULL in a build without
/// Level Zero.
const umf_memory_provider_ops_t *umfLevelZeroMemoryProviderOps(void);

umf_result_t umfLevelZeroMemoryProviderResidentDeviceChange(
    umf_memory_provider_handle_t hProvider, ze_device_handle_t hDevice,
    bool isAdding);

#ifdef __cplusplus
}
#endif

#endif // UMF_PROVIDER_LEVEL_ZERO_H
