// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Devices: count, name, UUID, memory size and attributes. The emulated
// devices describe themselves as a recent data-centre GPU (compute
// capability 9.0) with unified addressing, managed memory and legacy IPC,
// and without the features the driver does not emulate (virtual memory
// management, memory pools, host registration, exported handles).

#include "cuda_mock_internal.h"

#include <stdio.h>
#include <string.h>

#include "mock_log.h"

CUDA_MOCK_API CUresult cuDeviceGetCount(int *count) {
    CUDA_MOCK_ENTER(cuDeviceGetCount);
    if (count == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *count = (int)umf_mock_device_count();
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    CUDA_MOCK_ENTER(cuDeviceGet);
    if (device == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(ordinal);
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetName);
    if (name == NULL || len <= 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    // Truncated to len - 1 characters and terminated, as the driver does.
    snprintf(name, (size_t)len, "UMF GPU emulated CUDA device %d", dev);
    return CUDA_SUCCESS;
}

// The same in every process, so that processes agree on which device is
// which: "umf-gpu-cuda" followed by the ordinal in the last four bytes.
static void device_uuid(CUdevice dev, CUuuid *uuid) {
    static const char tag[12] = {'u', 'm', 'f', '-', 'g', 'p',
                                 'u', '-', 'c', 'u', 'd', 'a'};
    memcpy(uuid->bytes, tag, sizeof(tag));
    uint32_t d = (uint32_t)dev;
    for (int i = 0; i < 4; i++) {
        uuid->bytes[12 + i] = (char)(unsigned char)(d >> (8 * (3 - i)));
    }
}

CUDA_MOCK_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetUuid_v2);
    if (uuid == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    device_uuid(dev, uuid);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceTotalMem_v2);
    if (bytes == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    *bytes = (size_t)umf_mock_device_total((unsigned)dev);
    return CUDA_SUCCESS;
}

// Attributes that are the same for every device; the rest are 0 (not
// supported, or none). The ordinal-dependent ones are set in
// cuDeviceGetAttribute.
static const struct {
    CUdevice_attribute attr;
    int value;
} attributes[] = {
    {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
    {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536},
    {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
    {CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647},
    {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
    {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000},
    {CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512},
    {CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, 1},
    {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
    {CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, CU_COMPUTEMODE_DEFAULT},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT, 16384},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, 16384},
    {CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT, 512},
    {CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1},
    {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 2619000},
    {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 5120},
    {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 52428800},
    {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048},
    {CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 3},
    {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1},
    {CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
    {CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, 1},
    {CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, 1},
    {CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED, 1},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472},
    {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536},
    {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1},
    {CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 2},
    {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED, 1},
    {CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 1},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448},
    {CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 1},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32},
    {CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 34078720},
    {CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, 134213632},
    {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, 1024},
    // The driver documents this attribute as the test for IPC support.
    {CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, 1},
    {CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, 4},
    {CU_DEVICE_ATTRIBUTE_NUMA_ID, -1},
    {CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, -1},
};

CUDA_MOCK_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                                            CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetAttribute);
    if (pi == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    if ((int)attrib < 1 || (int)attrib >= (int)CU_DEVICE_ATTRIBUTE_MAX) {
        UMF_MOCK_LOG_ERROR("cuDeviceGetAttribute: unknown attribute %d",
                           (int)attrib);
        return CUDA_ERROR_INVALID_VALUE;
    }
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
        *pi = dev + 1;
        return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID:
        *pi = dev;
        return CUDA_SUCCESS;
    default:
        break;
    }
    *pi = 0;
    for (size_t i = 0; i < sizeof(attributes) / sizeof(attributes[0]); i++) {
        if (attributes[i].attr == attrib) {
            *pi = attributes[i].value;
            break;
        }
    }
    return CUDA_SUCCESS;
}
