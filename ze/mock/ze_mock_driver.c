// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// zeInit, the driver's queries, and the devices zeDeviceGet returns
// (those ZE_AFFINITY_MASK exposes, ze_mock_affinity.c).

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

#define DRIVER_VERSION 0x00010000u

typedef struct ze_mock_driver_t {
    uint32_t magic;
} ze_mock_driver_t;

static ze_mock_driver_t the_driver = {ZE_MOCK_MAGIC_DRIVER};
// The devices zeDeviceGet returns, in order; each knows its core device.
static ze_mock_device_t devices[UMF_MOCK_MAX_DEVICES];
static unsigned device_count;
// The position in devices[] of each core device, or -1 when it is hidden.
static int exposed_as[UMF_MOCK_MAX_DEVICES];
static _Atomic int initialized;

bool ze_mock_initialized(void) {
    return atomic_load_explicit(&initialized, memory_order_acquire) != 0;
}

ze_mock_device_t *ze_mock_device(ze_device_handle_t handle) {
    // Devices live in one array: a handle is checked without reading it.
    uintptr_t h = (uintptr_t)handle, first = (uintptr_t)devices;
    if (h < first || (h - first) % sizeof(devices[0]) != 0 ||
        (h - first) / sizeof(devices[0]) >= device_count) {
        return NULL;
    }
    return &devices[(h - first) / sizeof(devices[0])];
}

unsigned ze_mock_device_count(void) {
    return device_count;
}

ze_device_handle_t ze_mock_device_at(unsigned position) {
    return (ze_device_handle_t)&devices[position];
}

ze_device_handle_t ze_mock_device_handle(int core_device) {
    if (core_device < 0 || core_device >= UMF_MOCK_MAX_DEVICES ||
        (unsigned)core_device >= umf_mock_device_count() ||
        exposed_as[core_device] < 0) {
        return NULL;
    }
    return ze_mock_device_at((unsigned)exposed_as[core_device]);
}

uint64_t ze_mock_max_alloc_size(unsigned device) {
    return (umf_mock_device_total(device) / 2) &
           ~((uint64_t)umf_mock_page_size - 1);
}

bool ze_mock_is_driver(ze_driver_handle_t h) {
    return (ze_mock_driver_t *)h == &the_driver;
}

// ---- Global ---------------------------------------------------------------

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static void make_devices(void) {
    const char *mask = getenv("ZE_AFFINITY_MASK");
    unsigned core[UMF_MOCK_MAX_DEVICES];
    unsigned n = ze_mock_affinity_devices(mask, umf_mock_device_count(), core);
    for (unsigned i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        exposed_as[i] = -1;
    }
    for (unsigned i = 0; i < n; i++) {
        devices[i].magic = ZE_MOCK_MAGIC_DEVICE;
        devices[i].index = core[i];
        exposed_as[core[i]] = (int)i;
    }
    device_count = n;
    if (mask != NULL && mask[0] != '\0') {
        UMF_MOCK_LOG_INFO("ZE_AFFINITY_MASK=%s: %u of %u devices", mask, n,
                          umf_mock_device_count());
    }
    atomic_store_explicit(&initialized, 1, memory_order_release);
}

static ze_result_t ZE_APICALL mock_Init(ze_init_flags_t flags) {
    // The configuration first: rules of UMF_GPU_MOCK_FAULTS apply to this
    // very call.
    if (umf_mock_init(&ze_mock_desc) != UMF_MOCK_OK) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED);
    }
    int64_t fault;
    if (umf_mock_enter(ZE_MOCK_E_zeInit, &fault)) {
        return (ze_result_t)fault;
    }
    if (flags &
        ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (flags == ZE_INIT_FLAG_VPU_ONLY) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED); // no VPU here
    }
    pthread_once(&devices_once, make_devices);
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_global(ze_mock_global_dditable_t *t) {
    t->v1_4.pfnInit = mock_Init;
}

// ---- Driver ---------------------------------------------------------------

static ze_result_t ZE_APICALL mock_DriverGet(uint32_t *pCount,
                                             ze_driver_handle_t *phDrivers) {
    ZE_MOCK_ENTER(zeDriverGet);
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, 1, &n);
    if (r == ZE_RESULT_SUCCESS && n > 0 && phDrivers != NULL) {
        phDrivers[0] = (ze_driver_handle_t)&the_driver;
    }
    return r;
}

static ze_result_t ZE_APICALL mock_DriverGetApiVersion(
    ze_driver_handle_t hDriver, ze_api_version_t *version) {
    ZE_MOCK_ENTER(zeDriverGetApiVersion);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (version == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *version = ZE_MOCK_API_VERSION_NEWEST; // the tables it answers
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
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (props == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
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
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (props == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // Event pools cross processes in every memory mode (their events live
    // in a memfd of their own, mock/mock_events.h); memory does not in the
    // malloc mode.
    props->flags = ZE_IPC_PROPERTY_FLAG_EVENT_POOL;
    if (umf_mock_memory_mode() != UMF_MOCK_MEMORY_MALLOC) {
        props->flags |= ZE_IPC_PROPERTY_FLAG_MEMORY;
    }
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
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, 2, &n);
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
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (name == NULL || ppFunctionAddress == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    return ZE_MOCK_FAIL(
        ZE_RESULT_ERROR_INVALID_ARGUMENT); // no extension functions
}

// Level Zero 1.6: the description of the calling thread's last failure.
static ze_result_t ZE_APICALL mock_DriverGetLastErrorDescription(
    ze_driver_handle_t hDriver, const char **ppString) {
    ZE_MOCK_ENTER(zeDriverGetLastErrorDescription);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ppString == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *ppString = umf_mock_failure_text();
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_driver(ze_mock_driver_dditable_t *t) {
    t->v1_4.pfnGet = mock_DriverGet;
    t->v1_4.pfnGetApiVersion = mock_DriverGetApiVersion;
    t->v1_4.pfnGetProperties = mock_DriverGetProperties;
    t->v1_4.pfnGetIpcProperties = mock_DriverGetIpcProperties;
    t->v1_4.pfnGetExtensionProperties = mock_DriverGetExtensionProperties;
    t->v1_4.pfnGetExtensionFunctionAddress =
        mock_DriverGetExtensionFunctionAddress;
    t->pfnGetLastErrorDescription = mock_DriverGetLastErrorDescription;
}
