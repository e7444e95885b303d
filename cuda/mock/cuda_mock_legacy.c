// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ABIs of CUDA 2 and 3 that pass 32-bit device pointers (CUdeviceptr_v1)
// and sizes, under the unversioned names that cuda.h maps to their _v2
// twins (cuMemAlloc next to cuMemAlloc_v2 ...). No address of the emulated
// device memory fits in 32 bits, so they cannot work: each refuses
// (cuda_mock_refuse.c) with CUDA_ERROR_NOT_SUPPORTED and a log line naming
// the twin to call. A program built with a current cuda.h never calls them.
//
// The old names whose ABI still works on a 64-bit process are emulated next
// to their twins, because loaders resolve them by name (LLVM's OpenMP
// offload runtime calls cuMemAllocHost, cuEventDestroy and
// cuDeviceTotalMem): cuCtxCreate, cuCtxDestroy, cuCtxPushCurrent,
// cuCtxPopCurrent, cuStreamDestroy, cuEventDestroy, cuMemHostRegister,
// cuDevicePrimaryCtxRelease/Reset/SetFlags, cuGetProcAddress, and with
// 32-bit sizes cuMemAllocHost, cuMemGetInfo, cuDeviceTotalMem;
// cuIpcOpenMemHandle is at the end of this file.

#include "cuda_mock_core.h"

// Refusals check nothing: no argument can make them work.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define LEGACY(name, twin)                                                     \
    do {                                                                       \
        CUDA_MOCK_ENTER_ANYTIME(name);                                         \
        return cuda_mock_refuse(#name, "its 32-bit device pointers cannot "    \
                                       "address the emulated device memory; "  \
                                       "call " #twin);                         \
    } while (0)

CUDA_MOCK_API CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize) {
    LEGACY(cuMemAlloc, cuMemAlloc_v2);
}

CUDA_MOCK_API CUresult cuMemFree(CUdeviceptr_v1 dptr) {
    LEGACY(cuMemFree, cuMemFree_v2);
}

CUDA_MOCK_API CUresult cuMemGetAddressRange(CUdeviceptr_v1 *pbase,
                                            unsigned int *psize,
                                            CUdeviceptr_v1 dptr) {
    LEGACY(cuMemGetAddressRange, cuMemGetAddressRange_v2);
}

CUDA_MOCK_API CUresult cuMemcpyHtoD(CUdeviceptr_v1 dstDevice,
                                    const void *srcHost,
                                    unsigned int ByteCount) {
    LEGACY(cuMemcpyHtoD, cuMemcpyHtoD_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice,
                                    unsigned int ByteCount) {
    LEGACY(cuMemcpyDtoH, cuMemcpyDtoH_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoD(CUdeviceptr_v1 dstDevice,
                                    CUdeviceptr_v1 srcDevice,
                                    unsigned int ByteCount) {
    LEGACY(cuMemcpyDtoD, cuMemcpyDtoD_v2);
}

CUDA_MOCK_API CUresult cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc,
                                  unsigned int N) {
    LEGACY(cuMemsetD8, cuMemsetD8_v2);
}

CUDA_MOCK_API CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice,
                                         const void *srcHost,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    LEGACY(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoHAsync(void *dstHost,
                                         CUdeviceptr_v1 srcDevice,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    LEGACY(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice,
                                         CUdeviceptr_v1 srcDevice,
                                         unsigned int ByteCount,
                                         CUstream hStream) {
    LEGACY(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2);
}

CUDA_MOCK_API CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy) {
    LEGACY(cuMemcpy2D, cuMemcpy2D_v2);
}

CUDA_MOCK_API CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy) {
    LEGACY(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2);
}

CUDA_MOCK_API CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy,
                                       CUstream hStream) {
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
    LEGACY(cuMemsetD16, cuMemsetD16_v2);
}

CUDA_MOCK_API CUresult cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui,
                                   unsigned int N) {
    LEGACY(cuMemsetD32, cuMemsetD32_v2);
}

CUDA_MOCK_API CUresult cuMemsetD2D8(CUdeviceptr_v1 dstDevice,
                                    unsigned int dstPitch, unsigned char uc,
                                    unsigned int Width, unsigned int Height) {
    LEGACY(cuMemsetD2D8, cuMemsetD2D8_v2);
}

CUDA_MOCK_API CUresult cuMemsetD2D16(CUdeviceptr_v1 dstDevice,
                                     unsigned int dstPitch, unsigned short us,
                                     unsigned int Width, unsigned int Height) {
    LEGACY(cuMemsetD2D16, cuMemsetD2D16_v2);
}

CUDA_MOCK_API CUresult cuMemsetD2D32(CUdeviceptr_v1 dstDevice,
                                     unsigned int dstPitch, unsigned int ui,
                                     unsigned int Width, unsigned int Height) {
    LEGACY(cuMemsetD2D32, cuMemsetD2D32_v2);
}

CUDA_MOCK_API CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p,
                                                 unsigned int Flags) {
    LEGACY(cuMemHostGetDevicePointer, cuMemHostGetDevicePointer_v2);
}

CUDA_MOCK_API CUresult cuMemAllocPitch(CUdeviceptr_v1 *dptr,
                                       unsigned int *pPitch,
                                       unsigned int WidthInBytes,
                                       unsigned int Height,
                                       unsigned int ElementSizeBytes) {
    LEGACY(cuMemAllocPitch, cuMemAllocPitch_v2);
}

CUDA_MOCK_API CUresult cuModuleGetGlobal(CUdeviceptr_v1 *dptr,
                                         unsigned int *bytes, CUmodule hmod,
                                         const char *name) {
    LEGACY(cuModuleGetGlobal, cuModuleGetGlobal_v2);
}

// CUDA 4.1's name of cuIpcOpenMemHandle_v2 (the same arguments): that call,
// so it is counted, and takes fault rules, under both names.
CUDA_MOCK_API CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr,
                                          CUipcMemHandle handle,
                                          unsigned int Flags) {
    CUDA_MOCK_ENTER(cuIpcOpenMemHandle);
    return cuIpcOpenMemHandle_v2(pdptr, handle, Flags);
}

// The usage counts of CUDA 2's contexts, deprecated since CUDA 4.0: not
// emulated (retain the primary context, or create and destroy one).
#define NO_ATTACH                                                              \
    "context usage counts are gone since CUDA 4.0: use "                       \
    "cuDevicePrimaryCtxRetain, or cuCtxCreate and cuCtxDestroy"

CUDA_MOCK_API CUresult cuCtxAttach(CUcontext *pctx, unsigned int flags) {
    CUDA_MOCK_ENTER(cuCtxAttach);
    if (pctx == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, NO_ATTACH);
}

CUDA_MOCK_API CUresult cuCtxDetach(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxDetach);
    return cuda_mock_refuse(__func__, NO_ATTACH);
}
