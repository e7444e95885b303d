// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// zeInit, the driver's and the devices' queries.

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ze_mock_internal.h"

#define DRIVER_VERSION 0x00010000u

typedef struct ze_mock_driver_t {
    uint32_t magic;
} ze_mock_driver_t;

static ze_mock_driver_t the_driver = {ZE_MOCK_MAGIC_DRIVER};
static ze_mock_device_t devices[UMF_MOCK_MAX_DEVICES];
static _Atomic int initialized;

bool ze_mock_initialized(void) {
    return atomic_load_explicit(&initialized, memory_order_acquire) != 0;
}

ze_mock_device_t *ze_mock_device(ze_device_handle_t handle) {
    // Devices live in one array: a handle is checked without reading it.
    uintptr_t h = (uintptr_t)handle, first = (uintptr_t)devices;
    if (h < first || (h - first) % sizeof(devices[0]) != 0 ||
        (h - first) / sizeof(devices[0]) >= umf_mock_device_count()) {
        return NULL;
    }
    return &devices[(h - first) / sizeof(devices[0])];
}

ze_device_handle_t ze_mock_device_handle(unsigned index) {
    return (ze_device_handle_t)&devices[index];
}

uint64_t ze_mock_max_alloc_size(unsigned device) {
    return (umf_mock_device_total(device) / 2) &
           ~((uint64_t)umf_mock_page_size - 1);
}

bool ze_mock_is_driver(ze_driver_handle_t h) {
    return (ze_mock_driver_t *)h == &the_driver;
}

// Fills the *pCount elements a caller asked for (or says how many there
// are), as every Level Zero "get" does.
static ze_result_t count_only(uint32_t *pCount, uint32_t available,
                              uint32_t *filled) {
    if (pCount == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    *filled = *pCount == 0 || *pCount > available ? available : *pCount;
    *pCount = *filled;
    return ZE_RESULT_SUCCESS;
}

// ---- Global ---------------------------------------------------------------

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static void make_devices(void) {
    unsigned n = umf_mock_device_count();
    for (unsigned i = 0; i < n; i++) {
        devices[i].magic = ZE_MOCK_MAGIC_DEVICE;
        devices[i].index = i;
    }
    atomic_store_explicit(&initialized, 1, memory_order_release);
}

static ze_result_t ZE_APICALL mock_Init(ze_init_flags_t flags) {
    // The configuration first: rules of UMF_GPU_MOCK_FAULTS apply to this
    // very call.
    if (umf_mock_init(&ze_mock_desc) != UMF_MOCK_OK) {
        return ZE_RESULT_ERROR_UNINITIALIZED;
    }
    int64_t fault;
    if (umf_mock_enter(ZE_MOCK_E_zeInit, &fault)) {
        return (ze_result_t)fault;
    }
    if (flags &
        ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY)) {
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    }
    if (flags == ZE_INIT_FLAG_VPU_ONLY) {
        return ZE_RESULT_ERROR_UNINITIALIZED; // no VPU here
    }
    pthread_once(&devices_once, make_devices);
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_global(ze_global_dditable_t *t) {
    t->pfnInit = mock_Init;
}

// ---- Driver ---------------------------------------------------------------

static ze_result_t ZE_APICALL mock_DriverGet(uint32_t *pCount,
                                             ze_driver_handle_t *phDrivers) {
    ZE_MOCK_ENTER(zeDriverGet);
    uint32_t n;
    ze_result_t r = count_only(pCount, 1, &n);
    if (r == ZE_RESULT_SUCCESS && n > 0 && phDrivers != NULL) {
        phDrivers[0] = (ze_driver_handle_t)&the_driver;
    }
    return r;
}

static ze_result_t ZE_APICALL mock_DriverGetApiVersion(
    ze_driver_handle_t hDriver, ze_api_version_t *version) {
    ZE_MOCK_ENTER(zeDriverGetApiVersion);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    if (version == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    *version = ZE_API_VERSION_CURRENT;
    return ZE_RESULT_SUCCESS;
}

// Walks an output structure's pNext chain (bounded against cycles).
static void fill_driver_extensions(void *pNext) {
    ze_base_properties_t *p = pNext;
    for (int i = 0; p != NULL && i < 32; i++, p = p->pNext) {
        if (p->stype == ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES) {
            ((ze_driver_memory_free_ext_properties_t *)p)->freePolicies =
                ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
                ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
        }
    }
}

static ze_result_t ZE_APICALL mock_DriverGetProperties(
    ze_driver_handle_t hDriver, ze_driver_properties_t *props) {
    ZE_MOCK_ENTER(zeDriverGetProperties);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    if (props == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    static const uint8_t uuid[ZE_MAX_DRIVER_UUID_SIZE] = "umf-gpu-ze-mock";
    memcpy(props->uuid.id, uuid, sizeof(uuid));
    props->driverVersion = DRIVER_VERSION;
    fill_driver_extensions(props->pNext);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DriverGetIpcProperties(
    ze_driver_handle_t hDriver, ze_driver_ipc_properties_t *props) {
    ZE_MOCK_ENTER(zeDriverGetIpcProperties);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    if (props == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    props->flags = umf_mock_memory_mode() == UMF_MOCK_MEMORY_MALLOC
                       ? 0
                       : ZE_IPC_PROPERTY_FLAG_MEMORY;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_DriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t *pCount,
                                  ze_driver_extension_properties_t *props) {
    ZE_MOCK_ENTER(zeDriverGetExtensionProperties);
    static const struct {
        const char *name;
        uint32_t version;
    } extensions[] = {
        {ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME,
         ZE_RELAXED_ALLOCATION_LIMITS_EXP_VERSION_CURRENT},
        {ZE_MEMORY_FREE_POLICIES_EXT_NAME,
         ZE_MEMORY_FREE_POLICIES_EXT_VERSION_CURRENT},
    };
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    uint32_t n;
    ze_result_t r = count_only(pCount, 2, &n);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && props != NULL && i < n;
         i++) {
        snprintf(props[i].name, sizeof(props[i].name), "%s",
                 extensions[i].name);
        props[i].version = extensions[i].version;
    }
    return r;
}

static ze_result_t ZE_APICALL mock_DriverGetExtensionFunctionAddress(
    ze_driver_handle_t hDriver, const char *name, void **ppFunctionAddress) {
    ZE_MOCK_ENTER(zeDriverGetExtensionFunctionAddress);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    if (name == NULL || ppFunctionAddress == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    return ZE_RESULT_ERROR_INVALID_ARGUMENT; // no extension functions
}

void ze_mock_fill_driver(ze_driver_dditable_t *t) {
    t->pfnGet = mock_DriverGet;
    t->pfnGetApiVersion = mock_DriverGetApiVersion;
    t->pfnGetProperties = mock_DriverGetProperties;
    t->pfnGetIpcProperties = mock_DriverGetIpcProperties;
    t->pfnGetExtensionProperties = mock_DriverGetExtensionProperties;
    t->pfnGetExtensionFunctionAddress = mock_DriverGetExtensionFunctionAddress;
}

// ---- Devices --------------------------------------------------------------

#define DEVICE_OR_FAIL(var, handle)                                            \
    ze_mock_device_t *var = ze_mock_device(handle);                            \
    if (var == NULL) {                                                         \
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;                            \
    }

static ze_result_t ZE_APICALL mock_DeviceGet(ze_driver_handle_t hDriver,
                                             uint32_t *pCount,
                                             ze_device_handle_t *phDevices) {
    ZE_MOCK_ENTER(zeDeviceGet);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    uint32_t n;
    ze_result_t r = count_only(pCount, umf_mock_device_count(), &n);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && phDevices != NULL && i < n;
         i++) {
        phDevices[i] = ze_mock_device_handle(i);
    }
    return r;
}

static ze_result_t ZE_APICALL
mock_DeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t *pCount,
                         ze_device_handle_t *phSubdevices) {
    ZE_MOCK_ENTER(zeDeviceGetSubDevices);
    DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)phSubdevices;
    uint32_t n;
    return count_only(pCount, 0, &n);
}

static ze_result_t ZE_APICALL mock_DeviceGetProperties(
    ze_device_handle_t hDevice, ze_device_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetProperties);
    DEVICE_OR_FAIL(dev, hDevice);
    if (p == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    p->type = ZE_DEVICE_TYPE_GPU;
    p->vendorId = 0x8086;
    p->deviceId = 0xffff;
    p->flags = 0;
    p->subdeviceId = 0;
    p->coreClockRate = 1000;
    p->maxMemAllocSize = ze_mock_max_alloc_size(dev->index);
    p->maxHardwareContexts = 64;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 8;
    p->physicalEUSimdWidth = 8;
    p->numEUsPerSubslice = 8;
    p->numSubslicesPerSlice = 4;
    p->numSlices = 1;
    p->timerResolution = 1;
    p->timestampValidBits = 64;
    p->kernelTimestampValidBits = 64;
    // The same in every process: devices are told apart by their index.
    memset(p->uuid.id, 0, sizeof(p->uuid.id));
    memcpy(p->uuid.id, "umf-gpu-mock", 12);
    p->uuid.id[ZE_MAX_DEVICE_UUID_SIZE - 1] = (uint8_t)dev->index;
    snprintf(p->name, sizeof(p->name), "umf-gpu emulated device %u",
             dev->index);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetComputeProperties(
    ze_device_handle_t hDevice, ze_device_compute_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetComputeProperties);
    DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    p->maxTotalGroupSize = 1024;
    p->maxGroupSizeX = 1024;
    p->maxGroupSizeY = 1024;
    p->maxGroupSizeZ = 64;
    p->maxGroupCountX = UINT32_MAX;
    p->maxGroupCountY = UINT32_MAX;
    p->maxGroupCountZ = UINT32_MAX;
    p->maxSharedLocalMemory = 64 * 1024;
    p->numSubGroupSizes = 1;
    p->subGroupSizes[0] = 16;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t *pCount,
    ze_command_queue_group_properties_t *props) {
    ZE_MOCK_ENTER(zeDeviceGetCommandQueueGroupProperties);
    DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    uint32_t n;
    ze_result_t r = count_only(pCount, 1, &n);
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
    DEVICE_OR_FAIL(dev, hDevice);
    uint32_t n;
    ze_result_t r = count_only(pCount, 1, &n);
    if (r != ZE_RESULT_SUCCESS || props == NULL || n == 0) {
        return r;
    }
    uint64_t total = umf_mock_device_total(dev->index);
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
    DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (p == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    ze_memory_access_cap_flags_t all =
        ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
        ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT |
        ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
    p->hostAllocCapabilities = all;
    p->deviceAllocCapabilities = all;
    p->sharedSingleDeviceAllocCapabilities = all;
    p->sharedCrossDeviceAllocCapabilities = all;
    p->sharedSystemAllocCapabilities = 0;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetP2PProperties(
    ze_device_handle_t hDevice, ze_device_handle_t hPeer,
    ze_device_p2p_properties_t *p) {
    ZE_MOCK_ENTER(zeDeviceGetP2PProperties);
    DEVICE_OR_FAIL(dev, hDevice);
    DEVICE_OR_FAIL(peer, hPeer);
    (void)dev;
    (void)peer;
    if (p == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    // All emulated devices share the host's memory.
    p->flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS |
               ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceCanAccessPeer(
    ze_device_handle_t hDevice, ze_device_handle_t hPeer, ze_bool_t *value) {
    ZE_MOCK_ENTER(zeDeviceCanAccessPeer);
    DEVICE_OR_FAIL(dev, hDevice);
    DEVICE_OR_FAIL(peer, hPeer);
    (void)dev;
    (void)peer;
    if (value == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    *value = 1;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_DeviceGetStatus(ze_device_handle_t hDevice) {
    ZE_MOCK_ENTER(zeDeviceGetStatus);
    DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_device(ze_device_dditable_t *t) {
    t->pfnGet = mock_DeviceGet;
    t->pfnGetSubDevices = mock_DeviceGetSubDevices;
    t->pfnGetProperties = mock_DeviceGetProperties;
    t->pfnGetComputeProperties = mock_DeviceGetComputeProperties;
    t->pfnGetCommandQueueGroupProperties =
        mock_DeviceGetCommandQueueGroupProperties;
    t->pfnGetMemoryProperties = mock_DeviceGetMemoryProperties;
    t->pfnGetMemoryAccessProperties = mock_DeviceGetMemoryAccessProperties;
    t->pfnGetP2PProperties = mock_DeviceGetP2PProperties;
    t->pfnCanAccessPeer = mock_DeviceCanAccessPeer;
    t->pfnGetStatus = mock_DeviceGetStatus;
}
