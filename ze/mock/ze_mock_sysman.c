// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Sysman, what runtimes read of it (ze_mock_sysman.h): zesInit and the
// 1.5 way to the devices (zesDriverGet, zesDeviceGet), or the 1.4 way
// (ZES_ENABLE_SYSMAN=1 at zeInit, then sysman calls on core handles); the
// devices' properties, state, PCI address and link, and their memory: one
// module per device, or one per sub-device, whose free memory follows the
// allocations. A device has no fans, temperature sensors, frequency or
// power domains, engine groups, schedulers, firmware, LEDs, power supplies,
// RAS error sets, diagnostics, fabric ports, standby or performance factor
// domains, or overclocking: their enumerations answer 0.

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ze_mock_sysman.h"

static _Atomic int sysman_ready;

bool ze_mock_sysman_initialized(void) {
    return atomic_load_explicit(&sysman_ready, memory_order_acquire) != 0;
}

void ze_mock_sysman_core_init(void) {
    const char *v = getenv("ZES_ENABLE_SYSMAN");
    if (v != NULL && strcmp(v, "1") == 0) {
        atomic_store_explicit(&sysman_ready, 1, memory_order_release);
    }
}

// Level Zero 1.5: initializes sysman (and reads the configuration), not
// the core API, which still needs zeInit.
static ze_result_t ZE_APICALL zes_mock_Init(uint32_t flags) {
    ze_result_t r = ze_mock_initialize(ZE_MOCK_E_zesInit);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    if (flags & ~(uint32_t)1) { // ZES_INIT_FLAG_PLACEHOLDER
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    ze_mock_make_devices();
    atomic_store_explicit(&sysman_ready, 1, memory_order_release);
    return ZE_RESULT_SUCCESS;
}

void zes_mock_fill_global(zes_mock_global_dditable_t *t) {
    t->pfnInit = zes_mock_Init;
}

// ---- Driver
// -------------------------------------------------------------------

static ze_result_t ZE_APICALL
zes_mock_DriverGet(uint32_t *pCount, zes_driver_handle_t *phDrivers) {
    ZES_MOCK_ENTER(zesDriverGet);
    return ze_mock_driver_list(pCount, phDrivers); // the core one
}

static ze_result_t ZE_APICALL zes_mock_DriverGetExtensionProperties(
    zes_driver_handle_t hDriver, uint32_t *pCount, void *pExtensionProperties) {
    ZES_MOCK_ENTER(zesDriverGetExtensionProperties);
    (void)pExtensionProperties;
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    uint32_t n;
    return ze_mock_count(pCount, 0, &n); // no sysman extensions
}

static ze_result_t ZE_APICALL zes_mock_DriverGetExtensionFunctionAddress(
    zes_driver_handle_t hDriver, const char *name, void **ppFunctionAddress) {
    ZES_MOCK_ENTER(zesDriverGetExtensionFunctionAddress);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (name == NULL || ppFunctionAddress == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *ppFunctionAddress = NULL;
    ZE_MOCK_EXPLAIN("no sysman extension function named \"%.64s\"", name);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

// Devices registered for events (zesDeviceEventRegister); none of the
// events ever happens on an emulated device.
static _Atomic uint32_t registered_events;

// No event happens: with none registered the answer is at once, else after
// the timeout (milliseconds; UINT64_MAX: never, as a device that raises no
// event would make it).
static ze_result_t listen(ze_driver_handle_t hDriver, uint64_t timeout,
                          uint32_t count, zes_device_handle_t *phDevices,
                          uint32_t *pNumDeviceEvents,
                          zes_event_type_flags_t *pEvents) {
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ZE_MOCK_CHECK_POINTER(phDevices);
    ZE_MOCK_CHECK_POINTER(pNumDeviceEvents);
    ZE_MOCK_CHECK_POINTER(pEvents);
    for (uint32_t i = 0; i < count; i++) {
        if (ze_mock_device(phDevices[i]) == NULL) {
            ZE_MOCK_EXPLAIN("device %u is not one of this driver", i);
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
    }
    bool any =
        atomic_load_explicit(&registered_events, memory_order_relaxed) != 0;
    for (uint64_t waited = 0; any && count > 0 && waited < timeout;
         waited += 10) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    *pNumDeviceEvents = 0;
    for (uint32_t i = 0; i < count; i++) {
        pEvents[i] = 0;
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DriverEventListen(
    ze_driver_handle_t hDriver, uint32_t timeout, uint32_t count,
    zes_device_handle_t *phDevices, uint32_t *pNumDeviceEvents,
    zes_event_type_flags_t *pEvents) {
    ZES_MOCK_ENTER(zesDriverEventListen);
    return listen(hDriver, timeout == UINT32_MAX ? UINT64_MAX : timeout, count,
                  phDevices, pNumDeviceEvents, pEvents);
}

static ze_result_t ZE_APICALL zes_mock_DriverEventListenEx(
    ze_driver_handle_t hDriver, uint64_t timeout, uint32_t count,
    zes_device_handle_t *phDevices, uint32_t *pNumDeviceEvents,
    zes_event_type_flags_t *pEvents) {
    ZES_MOCK_ENTER(zesDriverEventListenEx);
    return listen(hDriver, timeout, count, phDevices, pNumDeviceEvents,
                  pEvents);
}

void zes_mock_fill_driver(zes_mock_driver_dditable_t *t) {
    t->v1_4.pfnEventListen = zes_mock_DriverEventListen;
    t->v1_4.pfnEventListenEx = zes_mock_DriverEventListenEx;
    t->pfnGet = zes_mock_DriverGet;
    t->pfnGetExtensionProperties = zes_mock_DriverGetExtensionProperties;
    t->pfnGetExtensionFunctionAddress =
        zes_mock_DriverGetExtensionFunctionAddress;
}

// ---- Devices
// ------------------------------------------------------------------

static ze_result_t ZE_APICALL
zes_mock_DeviceGet(zes_driver_handle_t hDriver, uint32_t *pCount,
                   zes_device_handle_t *phDevices) {
    ZES_MOCK_ENTER(zesDeviceGet);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    return ze_mock_device_list(pCount, phDevices); // the core ones
}

static void copy_string(char *dst, const char *src) {
    snprintf(dst, ZES_STRING_PROPERTY_SIZE, "%s", src);
}

static ze_result_t ZE_APICALL zes_mock_DeviceGetProperties(
    zes_device_handle_t hDevice, zes_device_properties_t *pProperties) {
    ZES_MOCK_ENTER(zesDeviceGetProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    ZE_MOCK_CHECK_POINTER(pProperties);
    ze_result_t r = ze_mock_device_properties(dev, &pProperties->core);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    pProperties->numSubdevices = dev->sub_count;
    char serial[ZES_STRING_PROPERTY_SIZE];
    snprintf(serial, sizeof(serial), "umf-gpu-mock-%u", dev->index);
    copy_string(pProperties->serialNumber, serial);
    copy_string(pProperties->boardNumber, "unknown");
    copy_string(pProperties->brandName, "umf-gpu");
    copy_string(pProperties->modelName, "umf-gpu emulated device");
    copy_string(pProperties->vendorName, "umf-gpu");
    char version[ZES_STRING_PROPERTY_SIZE];
    snprintf(version, sizeof(version), "%u", ZE_MOCK_DRIVER_VERSION);
    copy_string(pProperties->driverVersion, version);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DeviceGetState(
    zes_device_handle_t hDevice, zes_device_state_t *pState) {
    ZES_MOCK_ENTER(zesDeviceGetState);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pState);
    pState->reset = 0; // no reset needed
    pState->repaired = ZES_REPAIR_STATUS_NOT_PERFORMED;
    return ZE_RESULT_SUCCESS;
}

// The processes using the device, as far as this process knows: itself,
// with the device memory it allocated.
static ze_result_t ZE_APICALL
zes_mock_DeviceProcessesGetState(zes_device_handle_t hDevice, uint32_t *pCount,
                                 zes_process_state_t *pProcesses) {
    ZES_MOCK_ENTER(zesDeviceProcessesGetState);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    ZE_MOCK_CHECK_POINTER(pCount);
    if (*pCount == 0 || pProcesses == NULL) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    pProcesses[0].processId = (uint32_t)getpid();
    pProcesses[0].memSize = umf_mock_device_used(dev->index);
    pProcesses[0].sharedSize = 0;
    pProcesses[0].engines = 0;
    return ZE_RESULT_SUCCESS;
}

static void unknown_speed(zes_pci_speed_t *s) {
    s->gen = -1;
    s->width = -1;
    s->maxBandwidth = -1;
}

// The address zeDevicePciGetPropertiesExt gives; no counters.
static ze_result_t ZE_APICALL zes_mock_DevicePciGetProperties(
    zes_device_handle_t hDevice, zes_pci_properties_t *pProperties) {
    ZES_MOCK_ENTER(zesDevicePciGetProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    ZE_MOCK_CHECK_POINTER(pProperties);
    ze_mock_device_pci_address(
        dev, &pProperties->address.domain, &pProperties->address.bus,
        &pProperties->address.device, &pProperties->address.function);
    unknown_speed(&pProperties->maxSpeed);
    pProperties->haveBandwidthCounters = 0;
    pProperties->havePacketCounters = 0;
    pProperties->haveReplayCounters = 0;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DevicePciGetState(
    zes_device_handle_t hDevice, zes_pci_state_t *pState) {
    ZES_MOCK_ENTER(zesDevicePciGetState);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pState);
    pState->status = ZES_PCI_LINK_STATUS_UNKNOWN; // no link
    pState->qualityIssues = 0;
    pState->stabilityIssues = 0;
    unknown_speed(&pState->speed);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
zes_mock_DevicePciGetBars(zes_device_handle_t hDevice, uint32_t *pCount,
                          zes_pci_bar_properties_t *pProperties) {
    ZES_MOCK_ENTER(zesDevicePciGetBars);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)pProperties;
    uint32_t n;
    return ze_mock_count(pCount, 0, &n);
}

// No counters (zesDevicePciGetProperties says so): zeros, at a timestamp.
static ze_result_t ZE_APICALL zes_mock_DevicePciGetStats(
    zes_device_handle_t hDevice, zes_pci_stats_t *pStats) {
    ZES_MOCK_ENTER(zesDevicePciGetStats);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pStats);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    pStats->timestamp =
        (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    pStats->replayCounter = 0;
    pStats->packetCounter = 0;
    pStats->rxCounter = 0;
    pStats->txCounter = 0;
    unknown_speed(&pStats->speed);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DeviceReset(zes_device_handle_t hDevice,
                                                   ze_bool_t force) {
    ZES_MOCK_ENTER(zesDeviceReset);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)force;
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// The events of zes_event_type_flag_t: 15 bits.
#define EVENT_FLAGS 0x7fffu

static ze_result_t ZE_APICALL zes_mock_DeviceEventRegister(
    zes_device_handle_t hDevice, zes_event_type_flags_t events) {
    ZES_MOCK_ENTER(zesDeviceEventRegister);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (events & ~EVENT_FLAGS) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    atomic_fetch_or_explicit(&registered_events, events, memory_order_relaxed);
    return ZE_RESULT_SUCCESS;
}

// An enumeration of what the devices have none of.
#define ZES_MOCK_ENUM_NONE(name, handle_t)                                     \
    static ze_result_t ZE_APICALL zes_mock_##name(                             \
        zes_device_handle_t hDevice, uint32_t *pCount, handle_t *phandles) {   \
        ZES_MOCK_ENTER(zes##name);                                             \
        ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);                                  \
        (void)dev;                                                             \
        (void)phandles;                                                        \
        uint32_t n;                                                            \
        return ze_mock_count(pCount, 0, &n);                                   \
    }

ZES_MOCK_ENUM_NONE(DeviceEnumDiagnosticTestSuites, zes_diag_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumEngineGroups, zes_engine_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumFabricPorts, zes_fabric_port_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumFans, zes_fan_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumFirmwares, zes_firmware_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumFrequencyDomains, zes_freq_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumLeds, zes_led_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumPerformanceFactorDomains, zes_perf_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumPowerDomains, zes_pwr_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumPsus, zes_psu_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumRasErrorSets, zes_ras_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumSchedulers, zes_sched_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumStandbyDomains, zes_standby_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumTemperatureSensors, zes_temp_handle_t)
ZES_MOCK_ENUM_NONE(DeviceEnumOverclockDomains, void *)

static ze_result_t ZE_APICALL zes_mock_DeviceGetCardPowerDomain(
    zes_device_handle_t hDevice, zes_pwr_handle_t *phPower) {
    ZES_MOCK_ENTER(zesDeviceGetCardPowerDomain);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(phPower);
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// No ECC: not available, not configurable, no state to read or set.
static ze_result_t ecc_query(zes_device_handle_t hDevice, ze_bool_t *p) {
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(p);
    *p = 0;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DeviceEccAvailable(
    zes_device_handle_t hDevice, ze_bool_t *pAvailable) {
    ZES_MOCK_ENTER(zesDeviceEccAvailable);
    return ecc_query(hDevice, pAvailable);
}

static ze_result_t ZE_APICALL zes_mock_DeviceEccConfigurable(
    zes_device_handle_t hDevice, ze_bool_t *pConfigurable) {
    ZES_MOCK_ENTER(zesDeviceEccConfigurable);
    return ecc_query(hDevice, pConfigurable);
}

static ze_result_t ZE_APICALL zes_mock_DeviceGetEccState(
    zes_device_handle_t hDevice, zes_device_ecc_properties_t *pState) {
    ZES_MOCK_ENTER(zesDeviceGetEccState);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pState);
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL zes_mock_DeviceSetEccState(
    zes_device_handle_t hDevice, const zes_device_ecc_desc_t *newState,
    zes_device_ecc_properties_t *pState) {
    ZES_MOCK_ENTER(zesDeviceSetEccState);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(newState);
    ZE_MOCK_CHECK_POINTER(pState);
    if ((unsigned)newState->state > (unsigned)ZES_DEVICE_ECC_STATE_DISABLED) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// Overclocking (1.5) and the extended reset (1.7): none.
static ze_result_t ZE_APICALL
zes_mock_DeviceSetOverclockWaiver(zes_device_handle_t hDevice) {
    ZES_MOCK_ENTER(zesDeviceSetOverclockWaiver);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL zes_mock_DeviceGetOverclockDomains(
    zes_device_handle_t hDevice, uint32_t *pOverclockDomains) {
    ZES_MOCK_ENTER(zesDeviceGetOverclockDomains);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pOverclockDomains);
    *pOverclockDomains = 0; // no domain
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DeviceGetOverclockControls(
    zes_device_handle_t hDevice, uint32_t domainType,
    uint32_t *pAvailableControls) {
    ZES_MOCK_ENTER(zesDeviceGetOverclockControls);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)domainType;
    ZE_MOCK_CHECK_POINTER(pAvailableControls);
    *pAvailableControls = 0; // no control
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_DeviceResetOverclockSettings(
    zes_device_handle_t hDevice, ze_bool_t onShippedState) {
    ZES_MOCK_ENTER(zesDeviceResetOverclockSettings);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    (void)onShippedState;
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL zes_mock_DeviceReadOverclockState(
    zes_device_handle_t hDevice, uint32_t *pOverclockMode,
    ze_bool_t *pWaiverSetting, ze_bool_t *pOverclockState,
    uint32_t *pPendingAction, ze_bool_t *pPendingReset) {
    ZES_MOCK_ENTER(zesDeviceReadOverclockState);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pOverclockMode);
    ZE_MOCK_CHECK_POINTER(pWaiverSetting);
    ZE_MOCK_CHECK_POINTER(pOverclockState);
    ZE_MOCK_CHECK_POINTER(pPendingAction);
    ZE_MOCK_CHECK_POINTER(pPendingReset);
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL
zes_mock_DeviceResetExt(zes_device_handle_t hDevice, void *pProperties) {
    ZES_MOCK_ENTER(zesDeviceResetExt);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(pProperties);
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// ---- Memory modules
// -------------------------------------------------------------
//
// One per device without sub-devices, else one per sub-device: modules[i]
// of device position p is modules[p * MAX + i]. A module reports its
// device's memory (a sub-device's share); its free memory is the share of
// what allocations leave free on the core device.

#define ZES_MOCK_MAGIC_MEMORY 0x7a65d101u

typedef struct mem_module_t {
    uint32_t magic;
    const ze_mock_device_t *dev;
} mem_module_t;

static mem_module_t modules[UMF_MOCK_MAX_DEVICES * ZE_MOCK_MAX_SUBDEVICES];
static pthread_once_t modules_once = PTHREAD_ONCE_INIT;

static void make_modules(void) {
    for (unsigned p = 0; p < ze_mock_device_count(); p++) {
        const ze_mock_device_t *d = ze_mock_device(ze_mock_device_at(p));
        mem_module_t *m = &modules[p * ZE_MOCK_MAX_SUBDEVICES];
        if (d->sub_count == 0) {
            m[0] = (mem_module_t){ZES_MOCK_MAGIC_MEMORY, d};
        }
        for (unsigned i = 0; i < d->sub_count; i++) {
            m[i] = (mem_module_t){ZES_MOCK_MAGIC_MEMORY, d->subs[i]};
        }
    }
}

static mem_module_t *module_of(zes_mem_handle_t h) {
    uintptr_t a = (uintptr_t)h, first = (uintptr_t)modules;
    if (a < first || (a - first) % sizeof(modules[0]) != 0 ||
        (a - first) / sizeof(modules[0]) >=
            sizeof(modules) / sizeof(modules[0])) {
        return NULL;
    }
    mem_module_t *m = &modules[(a - first) / sizeof(modules[0])];
    return m->magic == ZES_MOCK_MAGIC_MEMORY ? m : NULL;
}

static ze_result_t ZE_APICALL zes_mock_DeviceEnumMemoryModules(
    zes_device_handle_t hDevice, uint32_t *pCount, zes_mem_handle_t *phMemory) {
    ZES_MOCK_ENTER(zesDeviceEnumMemoryModules);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    pthread_once(&modules_once, make_modules);
    // The modules of a device, or the one of a sub-device.
    mem_module_t *found[ZE_MOCK_MAX_SUBDEVICES];
    uint32_t available = 0;
    for (size_t i = 0; i < sizeof(modules) / sizeof(modules[0]); i++) {
        if (modules[i].magic == ZES_MOCK_MAGIC_MEMORY &&
            (modules[i].dev == dev || modules[i].dev->root == dev) &&
            available < ZE_MOCK_MAX_SUBDEVICES) {
            found[available++] = &modules[i];
        }
    }
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, available, &n);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && phMemory != NULL && i < n;
         i++) {
        phMemory[i] = (zes_mem_handle_t)found[i];
    }
    return r;
}

#define MODULE_OR_FAIL(var, handle)                                            \
    mem_module_t *var = module_of(handle);                                     \
    if (var == NULL) {                                                         \
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);              \
    }

static ze_result_t ZE_APICALL zes_mock_MemoryGetProperties(
    zes_mem_handle_t hMemory, zes_mem_properties_t *pProperties) {
    ZES_MOCK_ENTER(zesMemoryGetProperties);
    MODULE_OR_FAIL(m, hMemory);
    ZE_MOCK_CHECK_POINTER(pProperties);
    pProperties->type = ZES_MEM_TYPE_DDR; // the host's
    pProperties->onSubdevice = m->dev->root != NULL;
    pProperties->subdeviceId = m->dev->root != NULL ? (uint32_t)m->dev->sub : 0;
    pProperties->location = ZES_MEM_LOC_DEVICE;
    pProperties->physicalSize = ze_mock_device_memory(m->dev);
    pProperties->busWidth = -1;
    pProperties->numChannels = -1;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL zes_mock_MemoryGetState(zes_mem_handle_t hMemory,
                                                      zes_mem_state_t *pState) {
    ZES_MOCK_ENTER(zesMemoryGetState);
    MODULE_OR_FAIL(m, hMemory);
    ZE_MOCK_CHECK_POINTER(pState);
    uint64_t total = umf_mock_device_total(m->dev->index);
    uint64_t used = umf_mock_device_used(m->dev->index);
    uint64_t free = used < total ? total - used : 0;
    uint64_t size = ze_mock_device_memory(m->dev);
    pState->health = ZES_MEM_HEALTH_OK;
    pState->size = size;
    pState->free = size == total
                       ? free
                       : (uint64_t)((unsigned __int128)free * size / total);
    return ZE_RESULT_SUCCESS;
}

// No bandwidth counters: the devices' copies are the host's.
static ze_result_t ZE_APICALL zes_mock_MemoryGetBandwidth(
    zes_mem_handle_t hMemory, zes_mem_bandwidth_t *pBandwidth) {
    ZES_MOCK_ENTER(zesMemoryGetBandwidth);
    MODULE_OR_FAIL(m, hMemory);
    (void)m;
    ZE_MOCK_CHECK_POINTER(pBandwidth);
    return ze_mock_refuse(ZE_MOCK_FAMILY_SYSMAN,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

void zes_mock_fill_memory(zes_memory_dditable_t *t) {
    t->pfnGetProperties = zes_mock_MemoryGetProperties;
    t->pfnGetState = zes_mock_MemoryGetState;
    t->pfnGetBandwidth = zes_mock_MemoryGetBandwidth;
}

void zes_mock_fill_device(zes_mock_device_dditable_t *t) {
    zes_device_dditable_t *d = &t->v1_4;
    d->pfnGetProperties = zes_mock_DeviceGetProperties;
    d->pfnGetState = zes_mock_DeviceGetState;
    d->pfnReset = zes_mock_DeviceReset;
    d->pfnProcessesGetState = zes_mock_DeviceProcessesGetState;
    d->pfnPciGetProperties = zes_mock_DevicePciGetProperties;
    d->pfnPciGetState = zes_mock_DevicePciGetState;
    d->pfnPciGetBars = zes_mock_DevicePciGetBars;
    d->pfnPciGetStats = zes_mock_DevicePciGetStats;
    d->pfnEnumDiagnosticTestSuites = zes_mock_DeviceEnumDiagnosticTestSuites;
    d->pfnEnumEngineGroups = zes_mock_DeviceEnumEngineGroups;
    d->pfnEventRegister = zes_mock_DeviceEventRegister;
    d->pfnEnumFabricPorts = zes_mock_DeviceEnumFabricPorts;
    d->pfnEnumFans = zes_mock_DeviceEnumFans;
    d->pfnEnumFirmwares = zes_mock_DeviceEnumFirmwares;
    d->pfnEnumFrequencyDomains = zes_mock_DeviceEnumFrequencyDomains;
    d->pfnEnumLeds = zes_mock_DeviceEnumLeds;
    d->pfnEnumMemoryModules = zes_mock_DeviceEnumMemoryModules;
    d->pfnEnumPerformanceFactorDomains =
        zes_mock_DeviceEnumPerformanceFactorDomains;
    d->pfnEnumPowerDomains = zes_mock_DeviceEnumPowerDomains;
    d->pfnGetCardPowerDomain = zes_mock_DeviceGetCardPowerDomain;
    d->pfnEnumPsus = zes_mock_DeviceEnumPsus;
    d->pfnEnumRasErrorSets = zes_mock_DeviceEnumRasErrorSets;
    d->pfnEnumSchedulers = zes_mock_DeviceEnumSchedulers;
    d->pfnEnumStandbyDomains = zes_mock_DeviceEnumStandbyDomains;
    d->pfnEnumTemperatureSensors = zes_mock_DeviceEnumTemperatureSensors;
    d->pfnEccAvailable = zes_mock_DeviceEccAvailable;
    d->pfnEccConfigurable = zes_mock_DeviceEccConfigurable;
    d->pfnGetEccState = zes_mock_DeviceGetEccState;
    d->pfnSetEccState = zes_mock_DeviceSetEccState;
    t->pfnGet = zes_mock_DeviceGet;
    t->pfnSetOverclockWaiver = zes_mock_DeviceSetOverclockWaiver;
    t->pfnGetOverclockDomains = zes_mock_DeviceGetOverclockDomains;
    t->pfnGetOverclockControls = zes_mock_DeviceGetOverclockControls;
    t->pfnResetOverclockSettings = zes_mock_DeviceResetOverclockSettings;
    t->pfnReadOverclockState = zes_mock_DeviceReadOverclockState;
    t->pfnEnumOverclockDomains = zes_mock_DeviceEnumOverclockDomains;
    t->pfnResetExt = zes_mock_DeviceResetExt;
}
