// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA driver as the library reaches it: a table of libcuda entry points
// resolved at run time, so that the library links to no driver. The library
// named by UMF_GPU_CUDA_LIB is opened, else libcuda.so.1, at the first call
// of umf_cuda_driver_get(); the library is never closed again.
//
// Only versioned entry points are resolved (cuMemAlloc_v2, not the legacy
// 32-bit cuMemAlloc). cuda.h #defines the unversioned names to the versioned
// ones, so the fields here have names without the "cu" prefix (MemAlloc),
// which no macro rewrites; each field's comment names the symbol behind it.
//
// This header and cuda_result.h are the only places (with the provider,
// for the types) where the library includes cuda.h.

#ifndef UMF_GPU_CUDA_DRIVER_H
#define UMF_GPU_CUDA_DRIVER_H 1

#include <cuda.h>
#include <stdbool.h>

#include <umf/base.h>

#include "util_dl.h"

// Names the environment variable that overrides the driver library's path.
#define UMF_CUDA_LIB_ENV "UMF_GPU_CUDA_LIB"
#define UMF_CUDA_LIB_DEFAULT "libcuda.so.1"

typedef struct umf_cuda_driver_t {
    // cuInit
    CUresult (*Init)(unsigned int flags);
    // cuGetErrorName, cuGetErrorString
    CUresult (*GetErrorName)(CUresult error, const char **str);
    CUresult (*GetErrorString)(CUresult error, const char **str);
    // cuDeviceGetCount
    CUresult (*DeviceGetCount)(int *count);
    // cuCtxGetCurrent, cuCtxSetCurrent, cuCtxGetDevice
    CUresult (*CtxGetCurrent)(CUcontext *ctx);
    CUresult (*CtxSetCurrent)(CUcontext ctx);
    CUresult (*CtxGetDevice)(CUdevice *device);
    // cuMemAlloc_v2, cuMemFree_v2
    CUresult (*MemAlloc)(CUdeviceptr *dptr, size_t bytesize);
    CUresult (*MemFree)(CUdeviceptr dptr);
    // cuMemAllocHost_v2, cuMemHostAlloc, cuMemFreeHost
    CUresult (*MemAllocHost)(void **pp, size_t bytesize);
    CUresult (*MemHostAlloc)(void **pp, size_t bytesize, unsigned int flags);
    CUresult (*MemFreeHost)(void *p);
    // cuMemAllocManaged
    CUresult (*MemAllocManaged)(CUdeviceptr *dptr, size_t bytesize,
                                unsigned int flags);
    // cuMemGetAllocationGranularity
    CUresult (*MemGetAllocationGranularity)(
        size_t *granularity, const CUmemAllocationProp *prop,
        CUmemAllocationGranularity_flags option);
    // cuPointerGetAttribute
    CUresult (*PointerGetAttribute)(void *data, CUpointer_attribute attribute,
                                    CUdeviceptr ptr);
    // cuIpcGetMemHandle, cuIpcOpenMemHandle_v2, cuIpcCloseMemHandle
    CUresult (*IpcGetMemHandle)(CUipcMemHandle *handle, CUdeviceptr dptr);
    CUresult (*IpcOpenMemHandle)(CUdeviceptr *dptr, CUipcMemHandle handle,
                                 unsigned int flags);
    CUresult (*IpcCloseMemHandle)(CUdeviceptr dptr);
    // cuDeviceGetAttribute
    CUresult (*DeviceGetAttribute)(int *pi, CUdevice_attribute attrib,
                                   CUdevice dev);

    // Virtual memory management (the VMM modes), optional: NULL where the
    // driver lacks them (umf_cuda_driver_has_vmm). cuMemCreate, cuMemRelease,
    // cuMemAddressReserve, cuMemAddressFree, cuMemMap, cuMemUnmap,
    // cuMemSetAccess, cuMemRetainAllocationHandle,
    // cuMemExportToShareableHandle, cuMemImportFromShareableHandle.
    CUresult (*MemCreate)(CUmemGenericAllocationHandle *handle, size_t size,
                          const CUmemAllocationProp *prop,
                          unsigned long long flags);
    CUresult (*MemRelease)(CUmemGenericAllocationHandle handle);
    CUresult (*MemAddressReserve)(CUdeviceptr *ptr, size_t size,
                                  size_t alignment, CUdeviceptr addr,
                                  unsigned long long flags);
    CUresult (*MemAddressFree)(CUdeviceptr ptr, size_t size);
    CUresult (*MemMap)(CUdeviceptr ptr, size_t size, size_t offset,
                       CUmemGenericAllocationHandle handle,
                       unsigned long long flags);
    CUresult (*MemUnmap)(CUdeviceptr ptr, size_t size);
    CUresult (*MemSetAccess)(CUdeviceptr ptr, size_t size,
                             const CUmemAccessDesc *desc, size_t count);
    CUresult (*MemRetainAllocationHandle)(CUmemGenericAllocationHandle *handle,
                                          void *addr);
    CUresult (*MemExportToShareableHandle)(void *shareableHandle,
                                           CUmemGenericAllocationHandle handle,
                                           CUmemAllocationHandleType type,
                                           unsigned long long flags);
    CUresult (*MemImportFromShareableHandle)(
        CUmemGenericAllocationHandle *handle, void *osHandle,
        CUmemAllocationHandleType type);
} umf_cuda_driver_t;

// After umf_cuda_driver_get() succeeded: true if every VMM entry point
// resolved; else *missing names the first that did not.
bool umf_cuda_driver_has_vmm(const char **missing);

// Stores the resolved table in *driver. The first call loads the library,
// resolves the entry points and calls cuInit(0); every later call returns
// that outcome. Returns UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE (after one
// error log line naming the library, the missing entry points or cuInit's
// result) when the driver cannot be used, and then leaves *driver NULL.
umf_result_t umf_cuda_driver_get(const umf_cuda_driver_t **driver);

// After umf_cuda_driver_get() failed: why, in the words of that log line
// (the library's path, the entry points, dlerror's text or cuInit's
// result), and the native code (cuInit's result, or
// CUDA_ERROR_NOT_INITIALIZED when the library or an entry point is
// missing). NULL when the driver loaded.
const umf_dl_load_error_t *umf_cuda_driver_error(void);

// The table if umf_cuda_driver_get() already succeeded, else NULL. Never
// loads anything: for code that must not start the driver (error messages
// written while the process exits).
const umf_cuda_driver_t *umf_cuda_driver_loaded(void);

#endif // UMF_GPU_CUDA_DRIVER_H
