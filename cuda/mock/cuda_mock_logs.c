// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver's own notifications (refused; cuda_mock_refuse.c): its error
// log (cuLogs*, CUDA 12.9) and the asynchronous notifications of a device
// (cuDeviceRegisterAsyncNotification, resource budgets). The emulated
// driver logs to its own logger instead (UMF_GPU_MOCK_LOG, stderr), and has
// no budget to notify about: registering and reading answer
// CUDA_ERROR_NOT_SUPPORTED after the argument checks, and no callback or
// notification handle can exist (CUDA_ERROR_INVALID_HANDLE).

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY_LOGS "the emulated driver logs to stderr (UMF_GPU_MOCK_LOG)"
#define WHY_NOTIFY "the emulated devices send no notifications"

// callback_out is optional.
CUDA_MOCK_API CUresult
cuLogsRegisterCallback(CUlogsCallback callbackFunc, void *userData,
                       CUlogsCallbackHandle *callback_out) {
    CUDA_MOCK_ENTER(cuLogsRegisterCallback);
    if (callbackFunc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY_LOGS);
}

CUDA_MOCK_API CUresult cuLogsUnregisterCallback(CUlogsCallbackHandle callback) {
    CUDA_MOCK_ENTER(cuLogsUnregisterCallback);
    return cuda_mock_refuse_handle(__func__, "log callback",
                                   (uintptr_t)callback, WHY_LOGS);
}

CUDA_MOCK_API CUresult cuLogsCurrent(CUlogIterator *iterator_out,
                                     unsigned int flags) {
    CUDA_MOCK_ENTER(cuLogsCurrent);
    if (iterator_out == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY_LOGS);
}

// iterator is optional.
CUDA_MOCK_API CUresult cuLogsDumpToFile(CUlogIterator *iterator,
                                        const char *pathToFile,
                                        unsigned int flags) {
    CUDA_MOCK_ENTER(cuLogsDumpToFile);
    if (pathToFile == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY_LOGS);
}

CUDA_MOCK_API CUresult cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer,
                                          size_t *size, unsigned int flags) {
    CUDA_MOCK_ENTER(cuLogsDumpToMemory);
    if (buffer == NULL || size == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY_LOGS);
}

CUDA_MOCK_API CUresult cuDeviceRegisterAsyncNotification(
    CUdevice device, CUasyncCallback callbackFunc, void *userData,
    CUasyncCallbackHandle *callback) {
    CUDA_MOCK_ENTER(cuDeviceRegisterAsyncNotification);
    if (callbackFunc == NULL || callback == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    return cuda_mock_refuse(__func__, WHY_NOTIFY);
}

CUDA_MOCK_API CUresult cuDeviceUnregisterAsyncNotification(
    CUdevice device, CUasyncCallbackHandle callback) {
    CUDA_MOCK_ENTER(cuDeviceUnregisterAsyncNotification);
    CUDA_MOCK_CHECK_DEVICE(device);
    return cuda_mock_refuse_handle(__func__, "notification callback",
                                   (uintptr_t)callback, WHY_NOTIFY);
}
