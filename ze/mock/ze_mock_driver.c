// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// zeInit, the driver's queries, and the devices zeDeviceGet returns
// (those ZE_AFFINITY_MASK exposes, ze_mock_affinity.c).

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

typedef struct ze_mock_driver_t {
    uint32_t magic;
} ze_mock_driver_t;

static ze_mock_driver_t the_driver = {ZE_MOCK_MAGIC_DRIVER};
// The devices zeDeviceGet returns, in order; each knows its core device.
static ze_mock_device_t devices[UMF_MOCK_MAX_DEVICES];
static unsigned device_count;
// Their sub-devices, in one array: a handle is checked without reading it.
static ze_mock_device_t
    subdevices[UMF_MOCK_MAX_DEVICES * ZE_MOCK_MAX_SUBDEVICES];
static unsigned subdevice_count;
// The position in devices[] of each core device, or -1 when it is hidden.
static int exposed_as[UMF_MOCK_MAX_DEVICES];
static _Atomic int initialized;

bool ze_mock_initialized(void) {
    return atomic_load_explicit(&initialized, memory_order_acquire) != 0;
}

// The element of `array` (`count` used) that `handle` is, or NULL.
static ze_mock_device_t *device_in(ze_mock_device_t *array, unsigned count,
                                   ze_device_handle_t handle) {
    uintptr_t h = (uintptr_t)handle, first = (uintptr_t)array;
    if (h < first || (h - first) % sizeof(array[0]) != 0 ||
        (h - first) / sizeof(array[0]) >= count) {
        return NULL;
    }
    return &array[(h - first) / sizeof(array[0])];
}

ze_mock_device_t *ze_mock_device(ze_device_handle_t handle) {
    ze_mock_device_t *d = device_in(devices, device_count, handle);
    return d != NULL ? d : device_in(subdevices, subdevice_count, handle);
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

ze_device_handle_t ze_mock_device_handle_sub(int core_device, int sub) {
    ze_mock_device_t *d =
        (ze_mock_device_t *)ze_mock_device_handle(core_device);
    if (d == NULL || sub < 0) {
        return (ze_device_handle_t)d;
    }
    for (unsigned i = 0; i < d->sub_count; i++) {
        if (d->subs[i]->sub == sub) {
            return (ze_device_handle_t)d->subs[i];
        }
    }
    return (ze_device_handle_t)d; // the device, or the sub-device exposed
}

uint64_t ze_mock_device_memory(const ze_mock_device_t *dev) {
    uint64_t total = umf_mock_device_total(dev->index);
    unsigned subs = umf_mock_subdevice_count();
    return dev->sub >= 0 && subs > 0 ? total / subs : total;
}

uint64_t ze_mock_device_max_alloc(const ze_mock_device_t *dev) {
    return (ze_mock_device_memory(dev) / 2) &
           ~((uint64_t)umf_mock_page_size - 1);
}

bool ze_mock_is_driver(ze_driver_handle_t h) {
    return (ze_mock_driver_t *)h == &the_driver;
}

// ---- Global ---------------------------------------------------------------

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static ze_mock_device_t *add_subdevice(ze_mock_device_t *root, unsigned sub) {
    ze_mock_device_t *s = &subdevices[subdevice_count++];
    s->magic = ZE_MOCK_MAGIC_DEVICE;
    s->index = root->index;
    s->sub = (int)sub;
    s->root = root;
    root->subs[root->sub_count++] = s;
    return s;
}

// The devices ZE_AFFINITY_MASK exposes: a device named whole has all its
// sub-devices, one named by several sub-devices those; one named by one
// sub-device alone is that sub-device, as a device of its own.
static void make_devices(void) {
    const char *mask = getenv("ZE_AFFINITY_MASK");
    unsigned subs = umf_mock_subdevice_count();
    ze_mock_affinity_t picked[UMF_MOCK_MAX_DEVICES];
    unsigned n =
        ze_mock_affinity_devices(mask, umf_mock_device_count(), subs, picked);
    for (unsigned i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        exposed_as[i] = -1;
    }
    for (unsigned i = 0; i < n; i++) {
        ze_mock_device_t *d = &devices[i];
        d->magic = ZE_MOCK_MAGIC_DEVICE;
        d->index = picked[i].device;
        d->sub = -1;
        uint32_t set = picked[i].whole
                           ? (subs > 0 ? (uint32_t)((1ull << subs) - 1) : 0)
                           : picked[i].subs;
        if (!picked[i].whole && (set & (set - 1)) == 0) {
            d->sub = __builtin_ctz(set); // one sub-device alone
            set = 0;
        }
        for (unsigned m = 0; m < subs; m++) {
            if (set & ((uint32_t)1 << m)) {
                add_subdevice(d, m);
            }
        }
        exposed_as[picked[i].device] = (int)i;
    }
    device_count = n;
    if (mask != NULL && mask[0] != '\0') {
        UMF_MOCK_LOG_INFO("ZE_AFFINITY_MASK=%s: %u of %u devices, %u "
                          "sub-devices",
                          mask, n, umf_mock_device_count(), subdevice_count);
    }
}

// Reads the configuration, once (rules of UMF_GPU_MOCK_FAULTS apply to the
// very call that does), and counts the call of `entry`, which a rule may
// fail: its result.
ze_result_t ze_mock_initialize(ze_mock_entry_t entry) {
    if (umf_mock_init(&ze_mock_desc) != UMF_MOCK_OK) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED);
    }
    int64_t fault;
    if (umf_mock_enter(entry, &fault)) {
        return (ze_result_t)fault;
    }
    return ZE_RESULT_SUCCESS;
}

void ze_mock_make_devices(void) {
    pthread_once(&devices_once, make_devices);
}

// zeInit or zeInitDrivers succeeded: the core API is ready.
static void core_ready(void) {
    ze_mock_make_devices();
    ze_mock_sysman_core_init();
    atomic_store_explicit(&initialized, 1, memory_order_release);
}

static ze_result_t ZE_APICALL mock_Init(ze_init_flags_t flags) {
    ze_result_t r = ze_mock_initialize(ZE_MOCK_E_zeInit);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    if (flags &
        ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (flags == ZE_INIT_FLAG_VPU_ONLY) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED); // no VPU here
    }
    core_ready();
    return ZE_RESULT_SUCCESS;
}

// Level Zero 1.10: initializes the drivers of the kinds asked for and
// returns them; this one is a GPU driver.
static ze_result_t ZE_APICALL
mock_InitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
                 ze_mock_init_driver_type_desc_t *desc) {
    ze_result_t r = ze_mock_initialize(ZE_MOCK_E_zeInitDrivers);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    if (pCount == NULL || desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags == 0) {
        ZE_MOCK_EXPLAIN("desc->flags is 0: no kind of driver asked for");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (!(desc->flags & ZE_MOCK_INIT_DRIVER_TYPE_FLAG_GPU)) {
        *pCount = 0; // no NPU here
        ZE_MOCK_EXPLAIN("not a GPU driver asked for: this driver is one");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED);
    }
    core_ready();
    return ze_mock_driver_list(pCount, phDrivers);
}

void ze_mock_fill_global(ze_mock_global_dditable_t *t) {
    t->v1_4.pfnInit = mock_Init;
    t->pfnInitDrivers = mock_InitDrivers;
}

// ---- Driver ---------------------------------------------------------------

ze_result_t ze_mock_driver_list(uint32_t *pCount,
                                ze_driver_handle_t *phDrivers) {
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, 1, &n);
    if (r == ZE_RESULT_SUCCESS && n > 0 && phDrivers != NULL) {
        phDrivers[0] = (ze_driver_handle_t)&the_driver;
    }
    return r;
}

ze_result_t ze_mock_device_list(uint32_t *pCount,
                                ze_device_handle_t *phDevices) {
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, device_count, &n);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && phDevices != NULL && i < n;
         i++) {
        phDevices[i] = ze_mock_device_at(i);
    }
    return r;
}

static ze_result_t ZE_APICALL mock_DriverGet(uint32_t *pCount,
                                             ze_driver_handle_t *phDrivers) {
    ZE_MOCK_ENTER(zeDriverGet);
    return ze_mock_driver_list(pCount, phDrivers);
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
    props->driverVersion = ZE_MOCK_DRIVER_VERSION;
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
        // Kernel timestamps of copies and fills (ze_mock_events.c).
        {ZE_EVENT_QUERY_TIMESTAMPS_EXP_NAME,
         ZE_EVENT_QUERY_TIMESTAMPS_EXP_VERSION_CURRENT},
        {"ZE_extension_event_query_kernel_timestamps", ZE_MAKE_VERSION(1, 0)},
        // zeCommandListImmediateAppendCommandListsExp (ze_mock_commands.c);
        // the Unified Runtime's v2 adapter makes batched queues only where
        // this name is listed. 1.9's, so not in Debian's headers.
        {"ZE_experimental_immediate_command_list_append",
         ZE_MAKE_VERSION(1, 0)},
        // zeCommandListCreateCloneExp (ze_mock_commands.c), 1.9's.
        {"ZE_experimental_command_list_clone", ZE_MAKE_VERSION(1, 0)},
        // zeDevicePciGetPropertiesExt, the chained memory properties
        // (ze_mock_device.c).
        {ZE_PCI_PROPERTIES_EXT_NAME, ZE_PCI_PROPERTIES_EXT_VERSION_CURRENT},
        {ZE_DEVICE_MEMORY_PROPERTIES_EXT_NAME,
         ZE_DEVICE_MEMORY_PROPERTIES_EXT_VERSION_CURRENT},
        // The fabric queries answer as the extension defines for devices
        // that no fabric connects (ze_mock_fabric.c).
        {ZE_FABRIC_EXP_NAME, ZE_MAKE_VERSION(1, 0)},
        // zeKernelSetGlobalOffsetExp (ze_mock_kernel.c): it works on every
        // kernel, where kernels can be built.
        {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
        // zexCounterBasedEventCreate2 (ze_mock_events.c), by name.
        {"ZEX_counter_based_event", ZE_MAKE_VERSION(1, 0)},
        // What ze_conf_extensions_test.c finds refused is not listed: the
        // list and the functions agree both ways there.
    };
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    uint32_t n;
    ze_result_t r = ze_mock_count(
        pCount, (uint32_t)(sizeof(extensions) / sizeof(extensions[0])), &n);
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
    *ppFunctionAddress = ze_mock_extension_function(name);
    if (*ppFunctionAddress == NULL) {
        ZE_MOCK_EXPLAIN("no extension function named \"%.64s\" "
                        "(ze_mock_extensions.c lists those there are)",
                        name);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ZE_RESULT_SUCCESS;
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
