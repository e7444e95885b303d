// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver entry points each provider calls, in one place for every suite
// that injects a fault at each of them (the providers' fault tests and the
// reliability fault matrix). A provider that starts calling another entry
// point adds it here, and every suite covers it.

#ifndef UMF_GPU_TEST_PROVIDER_DRIVER_CALLS_H
#define UMF_GPU_TEST_PROVIDER_DRIVER_CALLS_H 1

// zeInit, called once per process, is tested on its own.
inline constexpr const char *kZeProviderDriverCalls[] = {
    "zeDeviceGetProperties",
    "zeMemAllocDevice",
    "zeMemAllocHost",
    "zeMemAllocShared",
    "zeMemFree",
    "zeMemFreeExt",
    "zeMemGetAllocProperties",
    "zeMemGetAddressRange",
    "zeMemGetIpcHandle",
    "zeMemOpenIpcHandle",
    "zeMemCloseIpcHandle",
    "zeContextMakeMemoryResident",
    "zeContextEvictMemory",
};

// cuInit, called once per process, is tested on its own. cuGetErrorName and
// cuGetErrorString run only on error paths, to describe a failure.
inline constexpr const char *kCudaProviderDriverCalls[] = {
    "cuCtxGetCurrent",
    "cuCtxSetCurrent",
    "cuCtxGetDevice",
    "cuDeviceGetCount",
    "cuMemGetAllocationGranularity",
    "cuMemAlloc_v2",
    "cuMemFree_v2",
    "cuMemAllocHost_v2",
    "cuMemHostAlloc",
    "cuMemFreeHost",
    "cuMemAllocManaged",
    "cuPointerGetAttribute",
    "cuIpcGetMemHandle",
    "cuIpcOpenMemHandle_v2",
    "cuIpcCloseMemHandle",
    "cuGetErrorName",
    "cuGetErrorString",
    // The VMM modes.
    "cuDeviceGetAttribute",
    "cuMemCreate",
    "cuMemRelease",
    "cuMemAddressReserve",
    "cuMemAddressFree",
    "cuMemMap",
    "cuMemUnmap",
    "cuMemSetAccess",
    "cuMemRetainAllocationHandle",
    "cuMemExportToShareableHandle",
    "cuMemImportFromShareableHandle",
};

#endif // UMF_GPU_TEST_PROVIDER_DRIVER_CALLS_H
