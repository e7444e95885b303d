// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero side of the harness (gpu_harness.h): the loader's entry
// points the tests call, resolved from the loader the library uses
// (UMF_GPU_ZE_LOADER, else libze_loader.so.1: one instance per process, so
// the tests and the provider drive the same loader), and copies through an
// immediate command list. Only in builds with the Level Zero provider.

#ifndef UMF_GPU_TEST_GPU_HARNESS_ZE_H
#define UMF_GPU_TEST_GPU_HARNESS_ZE_H 1

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include "gpu_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UMF_TEST_ZE_ENTRY_POINTS(X)                                            \
    X(Init, zeInit)                                                            \
    X(DriverGet, zeDriverGet)                                                  \
    X(DeviceGet, zeDeviceGet)                                                  \
    X(DeviceGetSubDevices, zeDeviceGetSubDevices)                              \
    X(DeviceGetProperties, zeDeviceGetProperties)                              \
    X(DeviceGetMemoryProperties, zeDeviceGetMemoryProperties)                  \
    X(ContextCreate, zeContextCreate)                                          \
    X(ContextDestroy, zeContextDestroy)                                        \
    X(ContextMakeMemoryResident, zeContextMakeMemoryResident)                  \
    X(ContextEvictMemory, zeContextEvictMemory)                                \
    X(CommandListCreateImmediate, zeCommandListCreateImmediate)                \
    X(CommandListAppendMemoryCopy, zeCommandListAppendMemoryCopy)              \
    X(CommandListAppendMemoryFill, zeCommandListAppendMemoryFill)              \
    X(CommandListDestroy, zeCommandListDestroy)                                \
    X(MemAllocDevice, zeMemAllocDevice)                                        \
    X(MemAllocHost, zeMemAllocHost)                                            \
    X(MemAllocShared, zeMemAllocShared)                                        \
    X(MemFree, zeMemFree)                                                      \
    X(MemGetAllocProperties, zeMemGetAllocProperties)                          \
    X(MemGetAddressRange, zeMemGetAddressRange)                                \
    X(MemGetIpcHandle, zeMemGetIpcHandle)                                      \
    X(MemOpenIpcHandle, zeMemOpenIpcHandle)                                    \
    X(MemCloseIpcHandle, zeMemCloseIpcHandle)

typedef struct umf_test_ze_t {
#define UMF_TEST_ZE_MEMBER(type, name) ze_pfn##type##_t name;
    UMF_TEST_ZE_ENTRY_POINTS(UMF_TEST_ZE_MEMBER)
#undef UMF_TEST_ZE_MEMBER
} umf_test_ze_t;

// The loader's entry points, once umf_test_gpu(UMF_TEST_GPU_LEVEL_ZERO)
// found it usable; NULL otherwise.
const umf_test_ze_t *umf_test_ze(void);

// A copy through an immediate command list of `device` in `context`; true
// on success.
bool umf_test_ze_copy(ze_context_handle_t context, ze_device_handle_t device,
                      void *dst, const void *src, size_t size);

#ifdef __cplusplus
}

#include <vector>

#include <umf/providers/provider_level_zero.h>

// Every parameter of a Level Zero provider, for the suites that set them one
// by one (raw handles, bogus ones included).
struct ZeProviderConfig {
    ze_context_handle_t context = nullptr; // nullptr: not set
    ze_device_handle_t device = nullptr;   // nullptr for HOST
    umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE;
    std::vector<ze_device_handle_t> resident;
    umf_level_zero_memory_provider_free_policy_t policy =
        UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT;
    uint32_t ordinal = 0;
    const char *name = nullptr;
};

// umfMemoryProviderCreate's result (or the first failed setter's), the
// provider in *out.
umf_result_t ze_test_try_provider(const ZeProviderConfig &cfg,
                                  umf_memory_provider_handle_t *out);
#endif

#endif // UMF_GPU_TEST_GPU_HARNESS_ZE_H
