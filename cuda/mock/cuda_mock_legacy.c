// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The legacy unversioned entry points that have a versioned twin (cuMemAlloc
// next to cuMemAlloc_v2 ...). Most are the 32-bit ABIs of CUDA 2 and 3; a
// program built with a current cuda.h never calls them, because the header
// maps each name to its versioned twin. A caller that resolves them by name
// (dlsym "cuMemAlloc") is almost always a bug, so the emulated driver says
// so and refuses: CUDA_ERROR_NOT_SUPPORTED, and a log line naming the twin.

#include "cuda_mock_internal.h"

#include "mock_log.h"

static CUresult legacy(const char *name, const char *twin) {
    UMF_MOCK_LOG_ERROR("%s is a legacy entry point, not supported by the "
                       "emulated driver: call %s",
                       name, twin);
    return CUDA_ERROR_NOT_SUPPORTED;
}

#define LEGACY(name, twin)                                                     \
    do {                                                                       \
        CUDA_MOCK_ENTER_ANYTIME(name);                                         \
        return legacy(#name, #twin);                                           \
    } while (0)

CUDA_MOCK_API CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev) {
    (void)bytes;
    (void)dev;
    LEGACY(cuDeviceTotalMem, cuDeviceTotalMem_v2);
}

CUDA_MOCK_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
    (void)uuid;
    (void)dev;
    LEGACY(cuDeviceGetUuid, cuDeviceGetUuid_v2);
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
    (void)dev;
    LEGACY(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2);
}

CUDA_MOCK_API CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags,
                                   CUdevice dev) {
    (void)pctx;
    (void)flags;
    (void)dev;
    LEGACY(cuCtxCreate, cuCtxCreate_v2);
}

CUDA_MOCK_API CUresult cuCtxDestroy(CUcontext ctx) {
    (void)ctx;
    LEGACY(cuCtxDestroy, cuCtxDestroy_v2);
}

CUDA_MOCK_API CUresult cuCtxPushCurrent(CUcontext ctx) {
    (void)ctx;
    LEGACY(cuCtxPushCurrent, cuCtxPushCurrent_v2);
}

CUDA_MOCK_API CUresult cuCtxPopCurrent(CUcontext *pctx) {
    (void)pctx;
    LEGACY(cuCtxPopCurrent, cuCtxPopCurrent_v2);
}

CUDA_MOCK_API CUresult cuMemGetInfo(unsigned int *free, unsigned int *total) {
    (void)free;
    (void)total;
    LEGACY(cuMemGetInfo, cuMemGetInfo_v2);
}

CUDA_MOCK_API CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize) {
    (void)dptr;
    (void)bytesize;
    LEGACY(cuMemAlloc, cuMemAlloc_v2);
}

CUDA_MOCK_API CUresult cuMemFree(CUdeviceptr_v1 dptr) {
    (void)dptr;
    LEGACY(cuMemFree, cuMemFree_v2);
}

CUDA_MOCK_API CUresult cuMemGetAddressRange(CUdeviceptr_v1 *pbase,
                                            unsigned int *psize,
                                            CUdeviceptr_v1 dptr) {
    (void)pbase;
    (void)psize;
    (void)dptr;
    LEGACY(cuMemGetAddressRange, cuMemGetAddressRange_v2);
}

CUDA_MOCK_API CUresult cuMemAllocHost(void **pp, unsigned int bytesize) {
    (void)pp;
    (void)bytesize;
    LEGACY(cuMemAllocHost, cuMemAllocHost_v2);
}

CUDA_MOCK_API CUresult cuMemcpyHtoD(CUdeviceptr_v1 dstDevice,
                                    const void *srcHost,
                                    unsigned int ByteCount) {
    (void)dstDevice;
    (void)srcHost;
    (void)ByteCount;
    LEGACY(cuMemcpyHtoD, cuMemcpyHtoD_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice,
                                    unsigned int ByteCount) {
    (void)dstHost;
    (void)srcDevice;
    (void)ByteCount;
    LEGACY(cuMemcpyDtoH, cuMemcpyDtoH_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoD(CUdeviceptr_v1 dstDevice,
                                    CUdeviceptr_v1 srcDevice,
                                    unsigned int ByteCount) {
    (void)dstDevice;
    (void)srcDevice;
    (void)ByteCount;
    LEGACY(cuMemcpyDtoD, cuMemcpyDtoD_v2);
}

CUDA_MOCK_API CUresult cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc,
                                  unsigned int N) {
    (void)dstDevice;
    (void)uc;
    (void)N;
    LEGACY(cuMemsetD8, cuMemsetD8_v2);
}

CUDA_MOCK_API CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr,
                                          CUipcMemHandle handle,
                                          unsigned int Flags) {
    (void)pdptr;
    (void)handle;
    (void)Flags;
    LEGACY(cuIpcOpenMemHandle, cuIpcOpenMemHandle_v2);
}

CUDA_MOCK_API CUresult cuGetProcAddress(const char *symbol, void **pfn,
                                        int cudaVersion, cuuint64_t flags) {
    (void)symbol;
    (void)pfn;
    (void)cudaVersion;
    (void)flags;
    LEGACY(cuGetProcAddress, cuGetProcAddress_v2);
}
