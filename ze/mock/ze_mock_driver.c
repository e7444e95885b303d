// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// zeInit and the driver's queries (the driver and its devices are the
// core's: ze_mock_core.c).

#include <stdio.h>
#include <string.h>

#include "ze_mock_internal.h"

// ---- Global ---------------------------------------------------------------

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
    ze_mock_core_ready();
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
    ze_mock_core_ready();
    return ze_mock_driver_list(pCount, phDrivers);
}

void ze_mock_fill_global(ze_mock_global_dditable_t *t) {
    t->v1_4.pfnInit = mock_Init;
    t->pfnInitDrivers = mock_InitDrivers;
}

// ---- Driver ---------------------------------------------------------------

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
