// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Interoperability with other APIs' memory and synchronisation (refused;
// cuda_mock_refuse.c): external memory and semaphores (Vulkan, Direct3D,
// NvSciBuf/NvSciSync, opaque file descriptors of other drivers), NvSciSync
// attributes, and the Windows LUID that interop matches devices by. The
// emulated device memory is host memory of this driver's own; another
// API's objects cannot be imported into it, so importing answers
// CUDA_ERROR_NOT_SUPPORTED after the argument checks, and no external
// memory or semaphore handle can exist (CUDA_ERROR_INVALID_HANDLE). Sharing
// between processes of this driver works through its own IPC and VMM file
// descriptors.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated driver cannot import other APIs' objects"

static CUresult no_memory(const char *call, CUexternalMemory m) {
    return cuda_mock_refuse_handle(call, "external memory", (uintptr_t)m, WHY);
}

static CUresult no_semaphore(const char *call, CUexternalSemaphore s) {
    return cuda_mock_refuse_handle(call, "external semaphore", (uintptr_t)s,
                                   WHY);
}

CUDA_MOCK_API CUresult
cuImportExternalMemory(CUexternalMemory *extMem_out,
                       const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc) {
    CUDA_MOCK_ENTER(cuImportExternalMemory);
    if (extMem_out == NULL || memHandleDesc == NULL ||
        memHandleDesc->size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuExternalMemoryGetMappedBuffer(
    CUdeviceptr *devPtr, CUexternalMemory extMem,
    const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc) {
    CUDA_MOCK_ENTER(cuExternalMemoryGetMappedBuffer);
    if (devPtr == NULL || bufferDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_memory(__func__, extMem);
}

CUDA_MOCK_API CUresult cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray *mipmap, CUexternalMemory extMem,
    const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc) {
    CUDA_MOCK_ENTER(cuExternalMemoryGetMappedMipmappedArray);
    if (mipmap == NULL || mipmapDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_memory(__func__, extMem);
}

CUDA_MOCK_API CUresult cuDestroyExternalMemory(CUexternalMemory extMem) {
    CUDA_MOCK_ENTER(cuDestroyExternalMemory);
    return no_memory(__func__, extMem);
}

CUDA_MOCK_API CUresult cuImportExternalSemaphore(
    CUexternalSemaphore *extSem_out,
    const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc) {
    CUDA_MOCK_ENTER(cuImportExternalSemaphore);
    if (extSem_out == NULL || semHandleDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

// A list of semaphores and as many parameters: at least one, none can
// exist.
static CUresult semaphores(const CUexternalSemaphore *sems, const void *params,
                           unsigned count, const char *call) {
    if (sems == NULL || params == NULL || count == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_semaphore(call, sems[0]);
}

CUDA_MOCK_API CUresult cuSignalExternalSemaphoresAsync(
    const CUexternalSemaphore *extSemArray,
    const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
    unsigned int numExtSems, CUstream stream) {
    CUDA_MOCK_ENTER(cuSignalExternalSemaphoresAsync);
    return semaphores(extSemArray, paramsArray, numExtSems, __func__);
}

CUDA_MOCK_API CUresult cuSignalExternalSemaphoresAsync_ptsz(
    const CUexternalSemaphore *extSemArray,
    const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
    unsigned int numExtSems, CUstream stream) {
    CUDA_MOCK_ENTER(cuSignalExternalSemaphoresAsync_ptsz);
    return semaphores(extSemArray, paramsArray, numExtSems, __func__);
}

CUDA_MOCK_API CUresult cuWaitExternalSemaphoresAsync(
    const CUexternalSemaphore *extSemArray,
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
    unsigned int numExtSems, CUstream stream) {
    CUDA_MOCK_ENTER(cuWaitExternalSemaphoresAsync);
    return semaphores(extSemArray, paramsArray, numExtSems, __func__);
}

CUDA_MOCK_API CUresult cuWaitExternalSemaphoresAsync_ptsz(
    const CUexternalSemaphore *extSemArray,
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
    unsigned int numExtSems, CUstream stream) {
    CUDA_MOCK_ENTER(cuWaitExternalSemaphoresAsync_ptsz);
    return semaphores(extSemArray, paramsArray, numExtSems, __func__);
}

CUDA_MOCK_API CUresult cuDestroyExternalSemaphore(CUexternalSemaphore extSem) {
    CUDA_MOCK_ENTER(cuDestroyExternalSemaphore);
    return no_semaphore(__func__, extSem);
}

CUDA_MOCK_API CUresult cuDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList,
                                                      CUdevice dev, int flags) {
    CUDA_MOCK_ENTER(cuDeviceGetNvSciSyncAttributes);
    if (nvSciSyncAttrList == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    return cuda_mock_refuse(__func__, "no NvSciSync");
}

// A LUID exists on Windows only ("only supported on Windows", cuda.h).
CUDA_MOCK_API CUresult cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask,
                                       CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetLuid);
    if (luid == NULL || deviceNodeMask == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    return cuda_mock_refuse(__func__, "a device LUID exists on Windows only");
}
