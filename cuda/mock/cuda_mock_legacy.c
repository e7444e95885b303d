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

CUDA_MOCK_API CUresult cuStreamDestroy(CUstream hStream) {
    (void)hStream;
    LEGACY(cuStreamDestroy, cuStreamDestroy_v2);
}

CUDA_MOCK_API CUresult cuEventDestroy(CUevent hEvent) {
    (void)hEvent;
    LEGACY(cuEventDestroy, cuEventDestroy_v2);
}

CUDA_MOCK_API CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice,
                                         const void *srcHost,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    (void)dstDevice;
    (void)srcHost;
    (void)ByteCount;
    (void)hStream;
    LEGACY(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoHAsync(void *dstHost,
                                         CUdeviceptr_v1 srcDevice,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    (void)dstHost;
    (void)srcDevice;
    (void)ByteCount;
    (void)hStream;
    LEGACY(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice,
                                         CUdeviceptr_v1 srcDevice,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    (void)dstDevice;
    (void)srcDevice;
    (void)ByteCount;
    (void)hStream;
    LEGACY(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy) {
    (void)pCopy;
    LEGACY(cuMemcpy2D, cuMemcpy2D_v2);
}

CUDA_MOCK_API CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy) {
    (void)pCopy;
    LEGACY(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2);
}

CUDA_MOCK_API CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy,
                                       CUstream hStream) {
    (void)pCopy;
    (void)hStream;
    LEGACY(cuMemcpy2DAsync, cuMemcpy2DAsync_v2);
}

// CUDA arrays and the copies with them (cuda_mock_array.c,
// cuda_mock_copy3d.c), in their 32-bit forms.

CUDA_MOCK_API CUresult cuArrayCreate(CUarray *pHandle,
                                     const CUDA_ARRAY_DESCRIPTOR_v1 *desc) {
    (void)pHandle;
    (void)desc;
    LEGACY(cuArrayCreate, cuArrayCreate_v2);
}

CUDA_MOCK_API CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *desc,
                                            CUarray hArray) {
    (void)desc;
    (void)hArray;
    LEGACY(cuArrayGetDescriptor, cuArrayGetDescriptor_v2);
}

CUDA_MOCK_API CUresult cuArray3DCreate(CUarray *pHandle,
                                       const CUDA_ARRAY3D_DESCRIPTOR_v1 *desc) {
    (void)pHandle;
    (void)desc;
    LEGACY(cuArray3DCreate, cuArray3DCreate_v2);
}

CUDA_MOCK_API CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *desc,
                                              CUarray hArray) {
    (void)desc;
    (void)hArray;
    LEGACY(cuArray3DGetDescriptor, cuArray3DGetDescriptor_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoA(CUarray dstArray, unsigned int dstOffset,
                                    CUdeviceptr_v1 srcDevice,
                                    unsigned int ByteCount) {
    (void)dstArray, (void)dstOffset, (void)srcDevice, (void)ByteCount;
    LEGACY(cuMemcpyDtoA, cuMemcpyDtoA_v2);
}

CUDA_MOCK_API CUresult cuMemcpyAtoD(CUdeviceptr_v1 dstDevice, CUarray srcArray,
                                    unsigned int srcOffset,
                                    unsigned int ByteCount) {
    (void)dstDevice, (void)srcArray, (void)srcOffset, (void)ByteCount;
    LEGACY(cuMemcpyAtoD, cuMemcpyAtoD_v2);
}

CUDA_MOCK_API CUresult cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset,
                                    const void *srcHost,
                                    unsigned int ByteCount) {
    (void)dstArray, (void)dstOffset, (void)srcHost, (void)ByteCount;
    LEGACY(cuMemcpyHtoA, cuMemcpyHtoA_v2);
}

CUDA_MOCK_API CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray,
                                    unsigned int srcOffset,
                                    unsigned int ByteCount) {
    (void)dstHost, (void)srcArray, (void)srcOffset, (void)ByteCount;
    LEGACY(cuMemcpyAtoH, cuMemcpyAtoH_v2);
}

CUDA_MOCK_API CUresult cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset,
                                    CUarray srcArray, unsigned int srcOffset,
                                    unsigned int ByteCount) {
    (void)dstArray, (void)dstOffset, (void)srcArray, (void)srcOffset;
    (void)ByteCount;
    LEGACY(cuMemcpyAtoA, cuMemcpyAtoA_v2);
}

CUDA_MOCK_API CUresult cuMemcpyHtoAAsync(CUarray dstArray,
                                         unsigned int dstOffset,
                                         const void *srcHost,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    (void)dstArray, (void)dstOffset, (void)srcHost, (void)ByteCount;
    (void)hStream;
    LEGACY(cuMemcpyHtoAAsync, cuMemcpyHtoAAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray,
                                         unsigned int srcOffset,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    (void)dstHost, (void)srcArray, (void)srcOffset, (void)ByteCount;
    (void)hStream;
    LEGACY(cuMemcpyAtoHAsync, cuMemcpyAtoHAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *pCopy) {
    (void)pCopy;
    LEGACY(cuMemcpy3D, cuMemcpy3D_v2);
}

CUDA_MOCK_API CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *pCopy,
                                       CUstream hStream) {
    (void)pCopy;
    (void)hStream;
    LEGACY(cuMemcpy3DAsync, cuMemcpy3DAsync_v2);
}

CUDA_MOCK_API CUresult cuMemsetD16(CUdeviceptr_v1 dstDevice, unsigned short us,
                                   unsigned int N) {
    (void)dstDevice;
    (void)us;
    (void)N;
    LEGACY(cuMemsetD16, cuMemsetD16_v2);
}

CUDA_MOCK_API CUresult cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui,
                                   unsigned int N) {
    (void)dstDevice;
    (void)ui;
    (void)N;
    LEGACY(cuMemsetD32, cuMemsetD32_v2);
}

CUDA_MOCK_API CUresult cuMemsetD2D8(CUdeviceptr_v1 dstDevice,
                                    unsigned int dstPitch, unsigned char uc,
                                    unsigned int Width, unsigned int Height) {
    (void)dstDevice;
    (void)dstPitch;
    (void)uc;
    (void)Width;
    (void)Height;
    LEGACY(cuMemsetD2D8, cuMemsetD2D8_v2);
}

CUDA_MOCK_API CUresult cuMemsetD2D16(CUdeviceptr_v1 dstDevice,
                                     unsigned int dstPitch, unsigned short us,
                                     unsigned int Width, unsigned int Height) {
    (void)dstDevice;
    (void)dstPitch;
    (void)us;
    (void)Width;
    (void)Height;
    LEGACY(cuMemsetD2D16, cuMemsetD2D16_v2);
}

CUDA_MOCK_API CUresult cuMemsetD2D32(CUdeviceptr_v1 dstDevice,
                                     unsigned int dstPitch, unsigned int ui,
                                     unsigned int Width, unsigned int Height) {
    (void)dstDevice;
    (void)dstPitch;
    (void)ui;
    (void)Width;
    (void)Height;
    LEGACY(cuMemsetD2D32, cuMemsetD2D32_v2);
}

CUDA_MOCK_API CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p,
                                                 unsigned int Flags) {
    (void)pdptr;
    (void)p;
    (void)Flags;
    LEGACY(cuMemHostGetDevicePointer, cuMemHostGetDevicePointer_v2);
}

CUDA_MOCK_API CUresult cuMemHostRegister(void *p, size_t bytesize,
                                         unsigned int Flags) {
    (void)p;
    (void)bytesize;
    (void)Flags;
    LEGACY(cuMemHostRegister, cuMemHostRegister_v2);
}

CUDA_MOCK_API CUresult cuMemAllocPitch(CUdeviceptr_v1 *dptr,
                                       unsigned int *pPitch,
                                       unsigned int WidthInBytes,
                                       unsigned int Height,
                                       unsigned int ElementSizeBytes) {
    (void)dptr;
    (void)pPitch;
    (void)WidthInBytes;
    (void)Height;
    (void)ElementSizeBytes;
    LEGACY(cuMemAllocPitch, cuMemAllocPitch_v2);
}

CUDA_MOCK_API CUresult cuModuleGetGlobal(CUdeviceptr_v1 *dptr,
                                         unsigned int *bytes, CUmodule hmod,
                                         const char *name) {
    (void)dptr;
    (void)bytes;
    (void)hmod;
    (void)name;
    LEGACY(cuModuleGetGlobal, cuModuleGetGlobal_v2);
}
