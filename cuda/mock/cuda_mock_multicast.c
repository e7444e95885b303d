// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Multicast objects (refused; cuda_mock_refuse.c): memory that NVLink
// switches replicate to several devices. The emulated devices report
// CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED as 0, and cuda.h answers
// CUDA_ERROR_NOT_SUPPORTED for such devices: every call does, after its
// argument checks. (Devices share memory here anyway: any device reaches
// any allocation.)

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "no multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED is 0)"

CUDA_MOCK_API CUresult cuMulticastCreate(CUmemGenericAllocationHandle *mcHandle,
                                         const CUmulticastObjectProp *prop) {
    CUDA_MOCK_ENTER(cuMulticastCreate);
    if (mcHandle == NULL || prop == NULL || prop->numDevices == 0 ||
        prop->size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuMulticastGetGranularity(
    size_t *granularity, const CUmulticastObjectProp *prop,
    CUmulticastGranularity_flags option) {
    CUDA_MOCK_ENTER(cuMulticastGetGranularity);
    if (granularity == NULL || prop == NULL ||
        (option != CU_MULTICAST_GRANULARITY_MINIMUM &&
         option != CU_MULTICAST_GRANULARITY_RECOMMENDED)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult
cuMulticastAddDevice(CUmemGenericAllocationHandle mcHandle, CUdevice dev) {
    CUDA_MOCK_ENTER(cuMulticastAddDevice);
    CUDA_MOCK_CHECK_DEVICE(dev);
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult
cuMulticastBindMem(CUmemGenericAllocationHandle mcHandle, size_t mcOffset,
                   CUmemGenericAllocationHandle memHandle, size_t memOffset,
                   size_t size, unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMulticastBindMem);
    if (size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult
cuMulticastBindAddr(CUmemGenericAllocationHandle mcHandle, size_t mcOffset,
                    CUdeviceptr memptr, size_t size, unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMulticastBindAddr);
    if (memptr == 0 || size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuMulticastUnbind(CUmemGenericAllocationHandle mcHandle,
                                         CUdevice dev, size_t mcOffset,
                                         size_t size) {
    CUDA_MOCK_ENTER(cuMulticastUnbind);
    CUDA_MOCK_CHECK_DEVICE(dev);
    return cuda_mock_refuse(__func__, WHY);
}
