// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The devices and their queries. What an emulated device cannot do is
// reported as the structures document it: SPIR-V and kernels only where
// the CPU backend runs them (zeDeviceGetModuleProperties and the compute
// properties say what it runs), no images (zeDeviceGetImageProperties), no
// external memory types (zeDeviceGetExternalMemoryProperties). Its timer
// counts nanoseconds of CLOCK_MONOTONIC_RAW, the clock of its host
// timestamps.

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mock_kernel.h"
#include "ze_mock_internal.h"

// One tick per nanosecond.
#define TIMER_HZ 1000000000u

static ze_result_t ZE_APICALL mock_DeviceGet(ze_driver_handle_t hDriver,
                                             uint32_t *pCount,
                                             ze_device_handle_t *phDevices) {
    ZE_MOCK_ENTER(zeDeviceGet);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    return ze_mock_device_list(pCount, phDevices);
}

static ze_result_t ZE_APICALL
mock_DeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t *pCount,
                         ze_device_handle_t *phSubdevices) {
    ZE_MOCK_ENTER(zeDeviceGetSubDevices);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, dev->sub_count, &n);
    for (uint32_t i = 0;
         r == ZE_RESULT_SUCCESS && phSubdevices != NULL && i < n; i++) {
        phSubdevices[i] = (ze_device_handle_t)dev->subs[i];
    }
    return r;
}

// Level Zero 1.7: the device a sub-device belongs to; NULL for a device.
static ze_result_t ZE_APICALL mock_DeviceGetRootDevice(
    ze_device_handle_t hDevice, ze_device_handle_t *phRootDevice) {
    ZE_MOCK_ENTER(zeDeviceGetRootDevice);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    if (phRootDevice == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *phRootDevice = (ze_device_handle_t)dev->root;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ze_mock_device_properties(const ze_mock_device_t *dev,
                                      ze_device_properties_t *p) {
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    p->type = ZE_DEVICE_TYPE_GPU;
    p->vendorId = 0x8086;
    p->deviceId = 0xffff;
    p->flags = dev->root != NULL ? ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE : 0;
    p->subdeviceId = dev->root != NULL ? (uint32_t)dev->sub : 0;
    p->coreClockRate = 1000;
    p->maxMemAllocSize = ze_mock_device_max_alloc(dev);
    p->maxHardwareContexts = 64;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 8;
    p->physicalEUSimdWidth = 8;
    p->numEUsPerSubslice = 8;
    p->numSubslicesPerSlice = 4;
    p->numSlices = 1;
    // One timer tick is a nanosecond: the unit of timerResolution is the
    // nanosecond for the 1.0 structure, cycles per second for the 1.2 one.
    p->timerResolution =
        p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? TIMER_HZ : 1;
    p->timestampValidBits = 64;
    p->kernelTimestampValidBits = 64;
    // The same in every process: devices are told apart by their index,
    // sub-devices by theirs too.
    memset(p->uuid.id, 0, sizeof(p->uuid.id));
    memcpy(p->uuid.id, "umf-gpu-mock", 12);
    p->uuid.id[ZE_MAX_DEVICE_UUID_SIZE - 2] = (uint8_t)(dev->sub + 1);
    p->uuid.id[ZE_MAX_DEVICE_UUID_SIZE - 1] = (uint8_t)dev->index;
    if (dev->sub >= 0) {
        snprintf(p->name, sizeof(p->name), "umf-gpu emulated device %u.%d",
                 dev->index, dev->sub);
    } else {
        snprintf(p->name, sizeof(p->name), "umf-gpu emulated device %u",
                 dev->index);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetProperties(
    ze_device_handle_t hDevice, ze_device_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    return ze_mock_device_properties(dev, p);
}

static ze_result_t ZE_APICALL mock_DeviceGetComputeProperties(
    ze_device_handle_t hDevice, ze_device_compute_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetComputeProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // Where kernels run, what the CPU backend runs; else a GPU's shape,
    // which no kernel can use.
    umf_mock_kernel_limits_t lim;
    bool kernels = umf_mock_kernel_backend(&lim, NULL, 0);
    p->maxTotalGroupSize = kernels ? lim.max_group_size : 1024;
    p->maxGroupSizeX = kernels ? lim.max_group_dims[0] : 1024;
    p->maxGroupSizeY = kernels ? lim.max_group_dims[1] : 1024;
    p->maxGroupSizeZ = kernels ? lim.max_group_dims[2] : 64;
    p->maxGroupCountX = UINT32_MAX;
    p->maxGroupCountY = UINT32_MAX;
    p->maxGroupCountZ = UINT32_MAX;
    p->maxSharedLocalMemory =
        kernels
            ? (uint32_t)(lim.local_mem_size > UINT32_MAX ? UINT32_MAX
                                                         : lim.local_mem_size)
            : 64 * 1024;
    // No subgroups on the CPU backend: each work-item is its own.
    p->numSubGroupSizes = 1;
    p->subGroupSizes[0] = kernels ? 1 : 16;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t *pCount,
    ze_command_queue_group_properties_t *props) {
    ZE_MOCK_ENTER(zeDeviceGetCommandQueueGroupProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, 1, &n);
    if (r == ZE_RESULT_SUCCESS && props != NULL && n > 0) {
        props[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                         ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
        props[0].maxMemoryFillPatternSize = 128;
        props[0].numQueues = 1;
    }
    return r;
}

static ze_result_t ZE_APICALL
mock_DeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                               ze_device_memory_properties_t *props) {
    ZE_MOCK_ENTER(zeDeviceGetMemoryProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, 1, &n);
    if (r != ZE_RESULT_SUCCESS || props == NULL || n == 0) {
        return r;
    }
    uint64_t total = ze_mock_device_memory(dev);
    props[0].flags = 0;
    props[0].maxClockRate = 1000;
    props[0].maxBusWidth = 64;
    props[0].totalSize = total;
    snprintf(props[0].name, sizeof(props[0].name), "emulated (host memory)");
    ze_base_properties_t *ext = props[0].pNext;
    for (int i = 0; ext != NULL && i < 32; i++, ext = ext->pNext) {
        if (ext->stype == ZE_STRUCTURE_TYPE_DEVICE_MEMORY_EXT_PROPERTIES) {
            ze_device_memory_ext_properties_t *m = (void *)ext;
            m->type = ZE_DEVICE_MEMORY_EXT_TYPE_DDR4;
            m->physicalSize = total;
            m->readBandwidth = 10;
            m->writeBandwidth = 10;
            m->bandwidthUnit = ZE_BANDWIDTH_UNIT_BYTES_PER_NANOSEC;
        }
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetMemoryAccessProperties(
    ze_device_handle_t hDevice, ze_device_memory_access_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetMemoryAccessProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // What the device does is copies and fills, and they read and write
    // any of these, system memory (malloc) included, while host threads use
    // it; no kernel runs, so the device makes no atomic access.
    ze_memory_access_cap_flags_t caps =
        ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT;
    p->hostAllocCapabilities = caps;
    p->deviceAllocCapabilities = caps;
    p->sharedSingleDeviceAllocCapabilities = caps;
    p->sharedCrossDeviceAllocCapabilities = caps;
    p->sharedSystemAllocCapabilities = caps;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetP2PProperties(
    ze_device_handle_t hDevice, ze_device_handle_t hPeer,
    ze_device_p2p_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetP2PProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    ZE_MOCK_DEVICE_OR_FAIL(peer, hPeer);
    (void)dev;
    (void)peer;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // All emulated devices share the host's memory.
    p->flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS |
               ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceCanAccessPeer(
    ze_device_handle_t hDevice, ze_device_handle_t hPeer, ze_bool_t *value) {
    ZE_MOCK_ENTER(zeDeviceCanAccessPeer);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    ZE_MOCK_DEVICE_OR_FAIL(peer, hPeer);
    (void)dev;
    (void)peer;
    if (value == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *value = 1;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetStatus(ze_device_handle_t hDevice) {
    ZE_MOCK_ENTER(zeDeviceGetStatus);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetModuleProperties(
    ze_device_handle_t hDevice, ze_device_module_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetModuleProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // What the CPU backend builds and runs (ze_mock_kernel.c); without it
    // no module can be built: no SPIR-V version, nothing a kernel could
    // use. No fp16 (refused at build). The native format is the
    // emulated driver's own (zeModuleGetNativeBinary).
    umf_mock_kernel_limits_t lim;
    bool kernels = umf_mock_kernel_backend(&lim, NULL, 0);
    p->spirvVersionSupported =
        kernels ? ZE_MAKE_VERSION(lim.spirv_version >> 16,
                                  (lim.spirv_version >> 8) & 0xff)
                : 0;
    p->flags =
        !kernels
            ? 0
            : (lim.fp64 ? ZE_DEVICE_MODULE_FLAG_FP64 : 0) |
                  (lim.int64_atomics ? ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS : 0);
    p->fp16flags = 0;
    p->fp32flags = kernels ? lim.fp32_flags : 0;
    p->fp64flags = kernels ? lim.fp64_flags : 0;
    p->maxArgumentsSize = kernels ? lim.max_args_size : 0;
    p->printfBufferSize = 0;
    memset(&p->nativeKernelSupported, 0, sizeof(p->nativeKernelSupported));
    if (kernels) {
        memcpy(&p->nativeKernelSupported, UMF_MOCK_NATIVE_FORMAT,
               sizeof(p->nativeKernelSupported));
    }
    return ZE_RESULT_SUCCESS;
}

// The host's last-level cache, which the emulated device works through;
// 0 when the system does not say.
static size_t host_cache_size(void) {
    long n = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (n <= 0) {
        n = sysconf(_SC_LEVEL2_CACHE_SIZE);
    }
    return n > 0 ? (size_t)n : 0;
}

static ze_result_t ZE_APICALL
mock_DeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                              ze_device_cache_properties_t *props) {
    ZE_MOCK_ENTER(zeDeviceGetCacheProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    size_t size = host_cache_size();
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, size > 0 ? 1 : 0, &n);
    if (r == ZE_RESULT_SUCCESS && props != NULL && n > 0) {
        props[0].flags = 0; // no user control of the cache
        props[0].cacheSize = size;
    }
    return r;
}

static ze_result_t ZE_APICALL mock_DeviceGetImageProperties(
    ze_device_handle_t hDevice, ze_device_image_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetImageProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // 0 everywhere: "images are unsupported", as each field documents.
    p->maxImageDims1D = 0;
    p->maxImageDims2D = 0;
    p->maxImageDims3D = 0;
    p->maxImageBufferSize = 0;
    p->maxImageArraySlices = 0;
    p->maxSamplers = 0;
    p->maxReadImageArgs = 0;
    p->maxWriteImageArgs = 0;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetExternalMemoryProperties(
    ze_device_handle_t hDevice, ze_device_external_memory_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetExternalMemoryProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // Memory is shared between processes through IPC handles only: no
    // allocation imports or exports an opaque fd or a dma-buf.
    p->memoryAllocationImportTypes = 0;
    p->memoryAllocationExportTypes = 0;
    p->imageImportTypes = 0;
    p->imageExportTypes = 0;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetGlobalTimestamps(
    ze_device_handle_t hDevice, uint64_t *hostTimestamp,
    uint64_t *deviceTimestamp) {
    ZE_MOCK_ENTER(zeDeviceGetGlobalTimestamps);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (hostTimestamp == NULL || deviceTimestamp == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // One reading for both: the device's timer is the host's clock.
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    uint64_t ns = (uint64_t)ts.tv_sec * TIMER_HZ + (uint64_t)ts.tv_nsec;
    *hostTimestamp = ns;
    *deviceTimestamp = ns;
    return ZE_RESULT_SUCCESS;
}

// ---- Extensions -------------------------------------------------------------

// The PCI address of a device (zeDevicePciGetPropertiesExt and
// zesDevicePciGetProperties agree): domain 0, bus 0x80 + its index, device
// and function 0; sub-devices are functions of their device, so they have
// its address. There is no link, so its speed is unknown (-1, as the
// structures document).
void ze_mock_device_pci_address(const ze_mock_device_t *dev, uint32_t *domain,
                                uint32_t *bus, uint32_t *device,
                                uint32_t *function) {
    *domain = 0;
    *bus = 0x80 + dev->index;
    *device = 0;
    *function = 0;
}

static ze_result_t ZE_APICALL mock_DevicePciGetPropertiesExt(
    ze_device_handle_t hDevice, ze_pci_ext_properties_t *p) {
    ZE_MOCK_ENTER(zeDevicePciGetPropertiesExt);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_device_pci_address(dev, &p->address.domain, &p->address.bus,
                               &p->address.device, &p->address.function);
    p->maxSpeed.genVersion = -1;
    p->maxSpeed.width = -1;
    p->maxSpeed.maxBandwidth = -1;
    return ZE_RESULT_SUCCESS;
}

// The one cache (zeDeviceGetCacheProperties) has no user control: nothing
// can be reserved in it. Removing a reservation (size 0) has nothing to
// remove and succeeds.
static ze_result_t ZE_APICALL
mock_DeviceReserveCacheExt(ze_device_handle_t hDevice, size_t cacheLevel,
                           size_t cacheReservationSize) {
    ZE_MOCK_ENTER(zeDeviceReserveCacheExt);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)cacheLevel;
    if (cacheReservationSize == 0) {
        return ZE_RESULT_SUCCESS;
    }
    ZE_MOCK_EXPLAIN("the emulated device's cache (the host's) has no user "
                    "control (ZE_DEVICE_CACHE_PROPERTY_FLAG_USER_CONTROL is "
                    "not set): nothing can be reserved");
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// With no reservation, every range is in the default, non-reserved
// region; a range cannot go to a reserved region there is none of.
static ze_result_t ZE_APICALL mock_DeviceSetCacheAdviceExt(
    ze_device_handle_t hDevice, void *ptr, size_t regionSize,
    ze_cache_ext_region_t cacheRegion) {
    ZE_MOCK_ENTER(zeDeviceSetCacheAdviceExt);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)regionSize;
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if ((unsigned)cacheRegion >
        (unsigned)ZE_CACHE_EXT_REGION_ZE_CACHE_NON_RESERVED_REGION) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (cacheRegion == ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION) {
        ZE_MOCK_EXPLAIN("no cache is reserved (zeDeviceReserveCacheExt): "
                        "there is no reserved region");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    return ZE_RESULT_SUCCESS;
}

// Level Zero 1.13: the vector widths kernels may use. No kernel runs, so
// there are none to report.
static ze_result_t ZE_APICALL mock_DeviceGetVectorWidthPropertiesExt(
    ze_device_handle_t hDevice, uint32_t *pCount, void *pProperties) {
    ZE_MOCK_ENTER(zeDeviceGetVectorWidthPropertiesExt);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)pProperties;
    uint32_t n;
    return ze_mock_count(pCount, 0, &n);
}

void ze_mock_fill_device(ze_mock_device_dditable_t *t) {
    t->v1_4.pfnGet = mock_DeviceGet;
    t->v1_4.pfnGetSubDevices = mock_DeviceGetSubDevices;
    t->v1_4.pfnGetProperties = mock_DeviceGetProperties;
    t->v1_4.pfnGetComputeProperties = mock_DeviceGetComputeProperties;
    t->v1_4.pfnGetCommandQueueGroupProperties =
        mock_DeviceGetCommandQueueGroupProperties;
    t->v1_4.pfnGetMemoryProperties = mock_DeviceGetMemoryProperties;
    t->v1_4.pfnGetMemoryAccessProperties = mock_DeviceGetMemoryAccessProperties;
    t->v1_4.pfnGetP2PProperties = mock_DeviceGetP2PProperties;
    t->v1_4.pfnCanAccessPeer = mock_DeviceCanAccessPeer;
    t->v1_4.pfnGetStatus = mock_DeviceGetStatus;
    t->v1_4.pfnGetModuleProperties = mock_DeviceGetModuleProperties;
    t->v1_4.pfnGetCacheProperties = mock_DeviceGetCacheProperties;
    t->v1_4.pfnGetImageProperties = mock_DeviceGetImageProperties;
    t->v1_4.pfnGetExternalMemoryProperties =
        mock_DeviceGetExternalMemoryProperties;
    t->v1_4.pfnGetGlobalTimestamps = mock_DeviceGetGlobalTimestamps;
    t->v1_4.pfnReserveCacheExt = mock_DeviceReserveCacheExt;
    t->v1_4.pfnSetCacheAdviceExt = mock_DeviceSetCacheAdviceExt;
    t->v1_4.pfnPciGetPropertiesExt = mock_DevicePciGetPropertiesExt;
    t->pfnGetRootDevice = mock_DeviceGetRootDevice;
    t->pfnGetVectorWidthPropertiesExt = mock_DeviceGetVectorWidthPropertiesExt;
}
