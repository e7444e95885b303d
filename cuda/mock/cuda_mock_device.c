// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Devices: count, name, UUID, PCI bus id, memory size, attributes and peer
// capability.
//
// The device model: every emulated device answers cuDeviceGetAttribute as
// an NVIDIA H100 SXM5 80GB (compute capability 9.0, 132 SMs, driver of the
// CUDA 13 era) for what describes the hardware (limits of blocks, grids,
// textures and surfaces, clocks, caches, warp size, compute features), and
// says what the emulation does for everything about memory: unified
// addressing, managed memory, mapped and registered host memory, virtual
// memory management with POSIX file descriptors, memory pools (without
// IPC), IPC of memory and events, no compression, no GPUDirect RDMA, no
// stream memory operations, no dma-buf, no multicast, no host-located VMM
// or pools. Every CUdevice_attribute below CU_DEVICE_ATTRIBUTE_MAX has a
// value (the table of docs/emulated-cuda.md). The device memory's size is
// UMF_GPU_MOCK_DEVICE_MEM (cuDeviceTotalMem_v2), not the H100's.
//
// PCI: physical device p (cuda_mock_visible.c) is on bus p + 1 of domain 0
// ("0000:01:00.0" for device 0 when CUDA_VISIBLE_DEVICES is unset), with the
// H100 SXM5's PCI ids; the UUID and the name follow the physical device too.

#include "cuda_mock_array.h"
#include "cuda_mock_core.h"

#include <umf/gpu_mock.h>

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    snprintf(name, (size_t)len, "UMF GPU emulated CUDA device %u",
             cuda_mock_device_physical(dev));
    return CUDA_SUCCESS;
}

// cuDeviceGetUuid_v2 differs from cuDeviceGetUuid for MIG instances only,
// which the emulation has none of.
static CUresult get_uuid(CUuuid *uuid, CUdevice dev) {
    if (uuid == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    cuda_mock_device_uuid(cuda_mock_device_physical(dev), uuid);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetUuid);
    return get_uuid(uuid, dev);
}

CUDA_MOCK_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetUuid_v2);
    return get_uuid(uuid, dev);
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

// CUDA 2's ABI: a 32-bit size, so at most 4 GiB - 1 (clamped).
CUDA_MOCK_API CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceTotalMem);
    if (bytes == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    uint64_t total = umf_mock_device_total((unsigned)dev);
    *bytes = total > UINT32_MAX ? UINT32_MAX : (unsigned int)total;
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Attributes

// Those that name the device (PCI bus, board group) depend on the ordinal;
// the table holds every other one.
#define ORDINAL_DEPENDENT INT32_MIN

#define A(name, value) [CU_DEVICE_ATTRIBUTE_##name] = (value)

// An H100 SXM5 where the attribute describes hardware; the emulation's own
// answer where it describes memory (see the top of the file). Index: the
// attribute; aliases (SHARED_MEMORY_PER_BLOCK ...) share their slot.
static const int attributes[CU_DEVICE_ATTRIBUTE_MAX] = {
    A(MAX_THREADS_PER_BLOCK, 1024),
    A(MAX_BLOCK_DIM_X, 1024),
    A(MAX_BLOCK_DIM_Y, 1024),
    A(MAX_BLOCK_DIM_Z, 64),
    A(MAX_GRID_DIM_X, 2147483647),
    A(MAX_GRID_DIM_Y, 65535),
    A(MAX_GRID_DIM_Z, 65535),
    A(MAX_SHARED_MEMORY_PER_BLOCK, 49152),
    A(TOTAL_CONSTANT_MEMORY, 65536),
    A(WARP_SIZE, 32),
    A(MAX_PITCH, 2147483647),
    A(MAX_REGISTERS_PER_BLOCK, 65536),
    A(CLOCK_RATE, 1980000),
    A(TEXTURE_ALIGNMENT, 512),
    A(GPU_OVERLAP, 1),
    A(MULTIPROCESSOR_COUNT, 132),
    A(KERNEL_EXEC_TIMEOUT, 0),
    A(INTEGRATED, 0),
    A(CAN_MAP_HOST_MEMORY, 1),
    A(COMPUTE_MODE, CU_COMPUTEMODE_DEFAULT),
    A(MAXIMUM_TEXTURE1D_WIDTH, 131072),
    A(MAXIMUM_TEXTURE2D_WIDTH, 131072),
    A(MAXIMUM_TEXTURE2D_HEIGHT, 65536),
    A(MAXIMUM_TEXTURE3D_WIDTH, 16384),
    A(MAXIMUM_TEXTURE3D_HEIGHT, 16384),
    A(MAXIMUM_TEXTURE3D_DEPTH, 16384),
    A(MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 32768),
    A(MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 32768),
    A(MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048),
    A(SURFACE_ALIGNMENT, 512),
    A(CONCURRENT_KERNELS, 1),
    A(ECC_ENABLED, 1),
    A(PCI_BUS_ID, ORDINAL_DEPENDENT),
    A(PCI_DEVICE_ID, 0),
    A(TCC_DRIVER, 0),
    A(MEMORY_CLOCK_RATE, 2619000),
    A(GLOBAL_MEMORY_BUS_WIDTH, 5120),
    A(L2_CACHE_SIZE, 52428800),
    A(MAX_THREADS_PER_MULTIPROCESSOR, 2048),
    A(ASYNC_ENGINE_COUNT, 3),
    A(UNIFIED_ADDRESSING, 1),
    A(MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 32768),
    A(MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 2048),
    A(CAN_TEX2D_GATHER, 1),
    A(MAXIMUM_TEXTURE2D_GATHER_WIDTH, 32768),
    A(MAXIMUM_TEXTURE2D_GATHER_HEIGHT, 32768),
    A(MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, 8192),
    A(MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, 8192),
    A(MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 32768),
    A(PCI_DOMAIN_ID, 0),
    A(TEXTURE_PITCH_ALIGNMENT, 32),
    A(MAXIMUM_TEXTURECUBEMAP_WIDTH, 32768),
    A(MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, 32768),
    A(MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 2046),
    A(MAXIMUM_SURFACE1D_WIDTH, 32768),
    A(MAXIMUM_SURFACE2D_WIDTH, 131072),
    A(MAXIMUM_SURFACE2D_HEIGHT, 65536),
    A(MAXIMUM_SURFACE3D_WIDTH, 16384),
    A(MAXIMUM_SURFACE3D_HEIGHT, 16384),
    A(MAXIMUM_SURFACE3D_DEPTH, 16384),
    A(MAXIMUM_SURFACE1D_LAYERED_WIDTH, 32768),
    A(MAXIMUM_SURFACE1D_LAYERED_LAYERS, 2048),
    A(MAXIMUM_SURFACE2D_LAYERED_WIDTH, 32768),
    A(MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 32768),
    A(MAXIMUM_SURFACE2D_LAYERED_LAYERS, 2048),
    A(MAXIMUM_SURFACECUBEMAP_WIDTH, 32768),
    A(MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, 32768),
    A(MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, 2046),
    A(MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 268435456),
    A(MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 131072),
    A(MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 65000),
    A(MAXIMUM_TEXTURE2D_LINEAR_PITCH, 2097120),
    A(MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 32768),
    A(MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, 32768),
    A(COMPUTE_CAPABILITY_MAJOR, 9),
    A(COMPUTE_CAPABILITY_MINOR, 0),
    A(MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, 32768),
    A(STREAM_PRIORITIES_SUPPORTED, 1),
    A(GLOBAL_L1_CACHE_SUPPORTED, 1),
    A(LOCAL_L1_CACHE_SUPPORTED, 1),
    A(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472),
    A(MAX_REGISTERS_PER_MULTIPROCESSOR, 65536),
    A(MANAGED_MEMORY, 1),
    A(MULTI_GPU_BOARD, 0),
    A(MULTI_GPU_BOARD_GROUP_ID, ORDINAL_DEPENDENT),
    A(HOST_NATIVE_ATOMIC_SUPPORTED, 0),
    A(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 2),
    A(PAGEABLE_MEMORY_ACCESS, 0),
    A(CONCURRENT_MANAGED_ACCESS, 1),
    A(COMPUTE_PREEMPTION_SUPPORTED, 1),
    A(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 1),
    A(CAN_USE_STREAM_MEM_OPS_V1, 0),
    A(CAN_USE_64_BIT_STREAM_MEM_OPS_V1, 0),
    A(CAN_USE_STREAM_WAIT_VALUE_NOR_V1, 0),
    A(COOPERATIVE_LAUNCH, 1),
    A(COOPERATIVE_MULTI_DEVICE_LAUNCH, 0),
    A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448),
    A(CAN_FLUSH_REMOTE_WRITES, 0),
    A(HOST_REGISTER_SUPPORTED, 1),
    A(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, 0),
    A(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 0),
    A(VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1),
    A(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 1),
    A(HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, 0),
    A(HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED, 0),
    A(MAX_BLOCKS_PER_MULTIPROCESSOR, 32),
    A(GENERIC_COMPRESSION_SUPPORTED, 0),
    A(MAX_PERSISTING_L2_CACHE_SIZE, 34078720),
    A(MAX_ACCESS_POLICY_WINDOW_SIZE, 134213632),
    A(GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, 0),
    A(RESERVED_SHARED_MEMORY_PER_BLOCK, 1024),
    A(SPARSE_CUDA_ARRAY_SUPPORTED, 0),
    A(READ_ONLY_HOST_REGISTER_SUPPORTED, 1),
    A(TIMELINE_SEMAPHORE_INTEROP_SUPPORTED, 0),
    A(MEMORY_POOLS_SUPPORTED, 1),
    A(GPU_DIRECT_RDMA_SUPPORTED, 0),
    A(GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, 0),
    A(GPU_DIRECT_RDMA_WRITES_ORDERING, CU_GPU_DIRECT_RDMA_WRITES_ORDERING_NONE),
    A(MEMPOOL_SUPPORTED_HANDLE_TYPES, CU_MEM_HANDLE_TYPE_NONE),
    A(CLUSTER_LAUNCH, 1),
    A(DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, 0),
    A(CAN_USE_64_BIT_STREAM_MEM_OPS, 0),
    A(CAN_USE_STREAM_WAIT_VALUE_NOR, 0),
    A(DMA_BUF_SUPPORTED, 0),
    // The driver documents this attribute as the test for IPC support.
    A(IPC_EVENT_SUPPORTED, 1),
    A(MEM_SYNC_DOMAIN_COUNT, 4),
    A(TENSOR_MAP_ACCESS_SUPPORTED, 1),
    A(HANDLE_TYPE_FABRIC_SUPPORTED, 1),
    A(UNIFIED_FUNCTION_POINTERS, 1),
    A(NUMA_CONFIG, CU_DEVICE_NUMA_CONFIG_NONE),
    A(NUMA_ID, -1),
    A(MULTICAST_SUPPORTED, 0),
    A(MPS_ENABLED, 0),
    A(HOST_NUMA_ID, -1),
    A(D3D12_CIG_SUPPORTED, 0),
    A(MEM_DECOMPRESS_ALGORITHM_MASK, 0),
    A(MEM_DECOMPRESS_MAXIMUM_LENGTH, 0),
    A(VULKAN_CIG_SUPPORTED, 0),
    // NVIDIA (0x10de), H100 SXM5 (0x2330), subsystem 0x16c1.
    A(GPU_PCI_DEVICE_ID, (int)0x233010deu),
    A(GPU_PCI_SUBSYSTEM_ID, (int)0x16c110deu),
    A(HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0),
    A(HOST_NUMA_MEMORY_POOLS_SUPPORTED, 0),
    A(HOST_NUMA_MULTINODE_IPC_SUPPORTED, 0),
    A(HOST_MEMORY_POOLS_SUPPORTED, 0),
    A(HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0),
    A(HOST_ALLOC_DMA_BUF_SUPPORTED, 0),
    A(ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED, 0),
};

#undef A

// umfCudaMockSetDeviceAttribute's overrides: value + 1 per device and
// attribute (0: none), and how many are set, so that a process that never
// sets one reads nothing more than the count.
static atomic_int overrides[UMF_MOCK_MAX_DEVICES][CU_DEVICE_ATTRIBUTE_MAX];
static atomic_int override_count;

CUDA_MOCK_API int umfCudaMockSetDeviceAttribute(int device, int attribute,
                                                int value) {
    if (device < 0 || device >= UMF_MOCK_MAX_DEVICES || attribute < 1 ||
        attribute >= (int)CU_DEVICE_ATTRIBUTE_MAX || value == INT32_MAX) {
        return -1;
    }
    if (atomic_exchange(&overrides[device][attribute], value + 1) == 0) {
        atomic_fetch_add(&override_count, 1);
    }
    return 0;
}

CUDA_MOCK_API void umfCudaMockResetDeviceAttributes(void) {
    for (int d = 0; d < UMF_MOCK_MAX_DEVICES; d++) {
        for (int a = 0; a < (int)CU_DEVICE_ATTRIBUTE_MAX; a++) {
            if (atomic_exchange(&overrides[d][a], 0) != 0) {
                atomic_fetch_sub(&override_count, 1);
            }
        }
    }
}

// The override of `attrib` on `dev`, if one is set.
static bool attribute_override(CUdevice dev, CUdevice_attribute attrib,
                               int *value) {
    if (atomic_load_explicit(&override_count, memory_order_relaxed) == 0) {
        return false;
    }
    int v = atomic_load(&overrides[dev][attrib]);
    *value = v - 1;
    return v != 0;
}

int cuda_mock_device_limit(CUdevice_attribute attrib) {
    return (int)attrib >= 1 && (int)attrib < (int)CU_DEVICE_ATTRIBUTE_MAX
               ? attributes[attrib]
               : 0;
}

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
    if (attribute_override(dev, attrib, pi)) {
        return CUDA_SUCCESS;
    }
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
        *pi = (int)cuda_mock_device_physical(dev) + 1;
        return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID:
        *pi = (int)cuda_mock_device_physical(dev);
        return CUDA_SUCCESS;
    default:
        *pi = attributes[attrib];
        return CUDA_SUCCESS;
    }
}

// ---------------------------------------------------------------------------
// PCI bus ids

CUDA_MOCK_API CUresult cuDeviceGetPCIBusId(char *pciBusId, int len,
                                           CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetPCIBusId);
    if (pciBusId == NULL || len <= 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    // Truncated to len - 1 characters, as cuDeviceGetName.
    snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.%x", 0,
             cuda_mock_device_physical(dev) + 1, 0, 0);
    return CUDA_SUCCESS;
}

// One hexadecimal field of a bus id followed by `sep` (or the end when sep
// is 0). False for anything else.
static bool hex_field(const char **s, char sep, unsigned long max,
                      unsigned long *out) {
    const char *p = *s;
    if (!isxdigit((unsigned char)*p)) {
        return false;
    }
    char *end;
    unsigned long v = strtoul(p, &end, 16);
    if (v > max || *end != sep) {
        return false;
    }
    *out = v;
    *s = sep != '\0' ? end + 1 : end;
    return true;
}

// "[domain]:[bus]:[device].[function]", "[domain]:[bus]:[device]" or
// "[bus]:[device].[function]", all hexadecimal.
static bool parse_bus_id(const char *s, unsigned long *bus,
                         unsigned long *device, unsigned long *function) {
    unsigned long domain = 0;
    int colons = 0;
    for (const char *p = s; *p != '\0'; p++) {
        colons += *p == ':';
    }
    const char *p = s;
    *function = 0;
    if (colons == 2) {
        if (!hex_field(&p, ':', 0xffff, &domain) ||
            !hex_field(&p, ':', 0xff, bus)) {
            return false;
        }
        if (strchr(p, '.') == NULL) {
            return hex_field(&p, '\0', 0x1f, device) && domain == 0;
        }
    } else if (colons == 1) {
        if (!hex_field(&p, ':', 0xff, bus)) {
            return false;
        }
    } else {
        return false;
    }
    return hex_field(&p, '.', 0x1f, device) &&
           hex_field(&p, '\0', 0x7, function) && domain == 0;
}

CUDA_MOCK_API CUresult cuDeviceGetByPCIBusId(CUdevice *dev,
                                             const char *pciBusId) {
    CUDA_MOCK_ENTER(cuDeviceGetByPCIBusId);
    if (dev == NULL || pciBusId == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    unsigned long bus, device, function;
    if (!parse_bus_id(pciBusId, &bus, &device, &function)) {
        UMF_MOCK_LOG_ERROR("cuDeviceGetByPCIBusId(\"%s\"): not a PCI bus id",
                           pciBusId);
        return CUDA_ERROR_INVALID_VALUE;
    }
    // Bus b holds physical device b - 1, which may be invisible.
    int d =
        bus == 0 || bus > UMF_MOCK_MAX_DEVICES || device != 0 || function != 0
            ? -1
            : cuda_mock_device_of_physical((unsigned)(bus - 1));
    if (d < 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    *dev = (CUdevice)d;
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Peers

// Every emulated device can reach every other one (they share the host's
// memory); a device is not its own peer.
CUDA_MOCK_API CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
                                             CUdevice peerDev) {
    CUDA_MOCK_ENTER(cuDeviceCanAccessPeer);
    if (canAccessPeer == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    CUDA_MOCK_CHECK_DEVICE(peerDev);
    *canAccessPeer = dev != peerDev;
    return CUDA_SUCCESS;
}

// CU_DEVICE_P2P_ATTRIBUTE_*: as cuDeviceCanAccessPeer, any two different
// devices reach each other's memory (all at one rank); kernels' atomics
// over the link and their reads of CUDA arrays do not exist.
CUDA_MOCK_API CUresult cuDeviceGetP2PAttribute(int *value,
                                               CUdevice_P2PAttribute attrib,
                                               CUdevice srcDevice,
                                               CUdevice dstDevice) {
    CUDA_MOCK_ENTER(cuDeviceGetP2PAttribute);
    if (value == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(srcDevice);
    CUDA_MOCK_CHECK_DEVICE(dstDevice);
    if (srcDevice == dstDevice) {
        return CUDA_ERROR_INVALID_DEVICE; // "represent the same device"
    }
    switch (attrib) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
        *value = 0;
        return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
        *value = 1;
        return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
        *value = 0;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

// The atomic operations kernels could do on memory of the device (of the
// host, of a peer): none, since no kernel runs. Every operation must be a
// CUatomicOperation.
static CUresult atomic_caps(unsigned *caps, const CUatomicOperation *ops,
                            unsigned count) {
    if (caps == NULL || ops == NULL || count == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (unsigned i = 0; i < count; i++) {
        if ((unsigned)ops[i] >= CU_ATOMIC_OPERATION_MAX) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (unsigned i = 0; i < count; i++) {
        caps[i] = 0;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGetHostAtomicCapabilities(
    unsigned int *capabilities, const CUatomicOperation *operations,
    unsigned int count, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetHostAtomicCapabilities);
    CUDA_MOCK_CHECK_DEVICE(dev);
    return atomic_caps(capabilities, operations, count);
}

CUDA_MOCK_API CUresult cuDeviceGetP2PAtomicCapabilities(
    unsigned int *capabilities, const CUatomicOperation *operations,
    unsigned int count, CUdevice srcDevice, CUdevice dstDevice) {
    CUDA_MOCK_ENTER(cuDeviceGetP2PAtomicCapabilities);
    CUDA_MOCK_CHECK_DEVICE(srcDevice);
    CUDA_MOCK_CHECK_DEVICE(dstDevice);
    if (srcDevice == dstDevice) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    return atomic_caps(capabilities, operations, count);
}

// ---------------------------------------------------------------------------
// Queries of older and rarer kinds, answered from the attributes above

// CUDA 2's query (deprecated): the attributes' compute capability.
CUDA_MOCK_API CUresult cuDeviceComputeCapability(int *major, int *minor,
                                                 CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceComputeCapability);
    if (major == NULL || minor == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    *major = attributes[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR];
    *minor = attributes[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR];
    return CUDA_SUCCESS;
}

// CUDA 2's properties (deprecated), each the attribute of its name.
CUDA_MOCK_API CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetProperties);
    if (prop == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    prop->maxThreadsPerBlock =
        attributes[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK];
    prop->maxThreadsDim[0] = attributes[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X];
    prop->maxThreadsDim[1] = attributes[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y];
    prop->maxThreadsDim[2] = attributes[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z];
    prop->maxGridSize[0] = attributes[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X];
    prop->maxGridSize[1] = attributes[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y];
    prop->maxGridSize[2] = attributes[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z];
    prop->sharedMemPerBlock =
        attributes[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK];
    prop->totalConstantMemory =
        attributes[CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY];
    prop->SIMDWidth = attributes[CU_DEVICE_ATTRIBUTE_WARP_SIZE];
    prop->memPitch = attributes[CU_DEVICE_ATTRIBUTE_MAX_PITCH];
    prop->regsPerBlock =
        attributes[CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK];
    prop->clockRate = attributes[CU_DEVICE_ATTRIBUTE_CLOCK_RATE];
    prop->textureAlign = attributes[CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT];
    return CUDA_SUCCESS;
}

// No execution affinity type is supported (contexts refuse them too).
CUDA_MOCK_API CUresult cuDeviceGetExecAffinitySupport(int *pi,
                                                      CUexecAffinityType type,
                                                      CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetExecAffinitySupport);
    if (pi == NULL || (unsigned)type >= CU_EXEC_AFFINITY_TYPE_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    *pi = 0;
    return CUDA_SUCCESS;
}

// An H100's limit for textures bound to linear memory (the deprecated
// attribute MAXIMUM_TEXTURE1D_LINEAR_WIDTH), for the elementary formats.
CUDA_MOCK_API CUresult cuDeviceGetTexture1DLinearMaxWidth(
    size_t *maxWidthInElements, CUarray_format format, unsigned numChannels,
    CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetTexture1DLinearMaxWidth);
    bool elementary = format == CU_AD_FORMAT_UNSIGNED_INT8 ||
                      format == CU_AD_FORMAT_UNSIGNED_INT16 ||
                      format == CU_AD_FORMAT_UNSIGNED_INT32 ||
                      format == CU_AD_FORMAT_SIGNED_INT8 ||
                      format == CU_AD_FORMAT_SIGNED_INT16 ||
                      format == CU_AD_FORMAT_SIGNED_INT32 ||
                      format == CU_AD_FORMAT_HALF ||
                      format == CU_AD_FORMAT_FLOAT;
    if (maxWidthInElements == NULL || !elementary ||
        (numChannels != 1 && numChannels != 2 && numChannels != 4)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    *maxWidthInElements =
        (size_t)attributes[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH];
    return CUDA_SUCCESS;
}
