// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Level Zero as the library reaches it: a table of loader entry points
// resolved at run time, so that the library links to no driver. At the first
// call of umf_ze_loader_get(), the library named by UMF_GPU_ZE_LOADER (else
// libze_loader.so.1) is opened, reusing the instance the process already
// loaded, its entry points are resolved and zeInit(0) is called (a no-op if
// the application called it already); the library is never closed again.
//
// This header and ze_result.h are the only places (with the provider, for
// the types) where the library includes ze_api.h; nothing else in the
// library calls dlsym for Level Zero.

#ifndef UMF_GPU_ZE_LOADER_H
#define UMF_GPU_ZE_LOADER_H 1

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include <umf/base.h>

#include "util_dl.h"

// The environment variable that overrides the loader's path.
#define UMF_ZE_LOADER_ENV "UMF_GPU_ZE_LOADER"
#define UMF_ZE_LOADER_DEFAULT "libze_loader.so.1"

// zeMemPutIpcHandle (Level Zero 1.6) is newer than the installed headers.
typedef ze_result_t (*umf_ze_pfn_mem_put_ipc_handle_t)(
    ze_context_handle_t hContext, ze_ipc_mem_handle_t handle);
// zeDriverGetLastErrorDescription (Level Zero 1.6) likewise.
typedef ze_result_t (*umf_ze_pfn_driver_get_last_error_description_t)(
    ze_driver_handle_t hDriver, const char **ppString);

typedef struct umf_ze_loader_t {
    // Required: what the provider calls.
    ze_pfnInit_t zeInit;
    ze_pfnDeviceGetProperties_t zeDeviceGetProperties;
    ze_pfnMemAllocDevice_t zeMemAllocDevice;
    ze_pfnMemAllocHost_t zeMemAllocHost;
    ze_pfnMemAllocShared_t zeMemAllocShared;
    ze_pfnMemFree_t zeMemFree;
    ze_pfnMemGetAllocProperties_t zeMemGetAllocProperties;
    ze_pfnMemGetAddressRange_t zeMemGetAddressRange;
    ze_pfnMemGetIpcHandle_t zeMemGetIpcHandle;
    ze_pfnMemOpenIpcHandle_t zeMemOpenIpcHandle;
    ze_pfnMemCloseIpcHandle_t zeMemCloseIpcHandle;
    ze_pfnContextMakeMemoryResident_t zeContextMakeMemoryResident;
    ze_pfnContextEvictMemory_t zeContextEvictMemory;

    // Optional: newer than some loaders. NULL when missing.
    ze_pfnMemFreeExt_t zeMemFreeExt;                   // 1.3
    umf_ze_pfn_mem_put_ipc_handle_t zeMemPutIpcHandle; // 1.6
    umf_ze_pfn_driver_get_last_error_description_t
        zeDriverGetLastErrorDescription; // 1.6

    // Optional: not used by the provider, resolved here so that the tests
    // and the benchmark drive the very same loader.
    ze_pfnDriverGet_t zeDriverGet;
    ze_pfnDeviceGet_t zeDeviceGet;
    ze_pfnDeviceGetSubDevices_t zeDeviceGetSubDevices;
    ze_pfnDeviceGetMemoryProperties_t zeDeviceGetMemoryProperties;
    ze_pfnContextCreate_t zeContextCreate;
    ze_pfnContextDestroy_t zeContextDestroy;
    ze_pfnCommandListCreateImmediate_t zeCommandListCreateImmediate;
    ze_pfnCommandListAppendMemoryCopy_t zeCommandListAppendMemoryCopy;
    ze_pfnCommandListAppendMemoryFill_t zeCommandListAppendMemoryFill;
    ze_pfnCommandListDestroy_t zeCommandListDestroy;

    // The driver asked for its own description of a failure
    // (zeDriverGetLastErrorDescription); NULL when the loader lacks that.
    ze_driver_handle_t error_driver;
} umf_ze_loader_t;

// Stores the resolved table in *loader. The first call loads the library,
// resolves the entry points and calls zeInit(0); every later call returns
// that outcome. Returns UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE (after one
// error log line naming the library, the missing entry points or zeInit's
// result) when Level Zero cannot be used, and then leaves *loader NULL.
umf_result_t umf_ze_loader_get(const umf_ze_loader_t **loader);

// After umf_ze_loader_get() failed: why, in the words of that log line (the
// library's path, the entry points, dlerror's text or zeInit's result), and
// the native code (zeInit's result, or ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE
// when the loader or an entry point is missing). NULL when Level Zero loaded.
const umf_dl_load_error_t *umf_ze_loader_error(void);

#endif // UMF_GPU_ZE_LOADER_H
