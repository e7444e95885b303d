// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance of sysman, what runtimes read of it: the 1.4 way through the
// Debian loader (ZES_ENABLE_SYSMAN=1 before zeInit, then zes calls on core
// handles), in children started with that environment; and the 1.5 way
// (zesInit, zesDriverGet, zesDeviceGet) through the driver's getters, as
// a newer loader calls them. The devices' properties, PCI address (the
// core's), and memory, whose free size follows the allocations; the
// sensors an emulated device lacks (fans, temperatures, frequency, power,
// engines) enumerate as none.

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <level_zero/zes_api.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

#define NEWEST ZE_MOCK_API_VERSION_NEWEST

// The device's properties and PCI address, as sysman and the core give them.
static int check_device(ze_device_handle_t dev, bool emulated) {
    ze_device_properties_t core = {.stype =
                                       ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    CHILD_ASSERT_EQ(zeDeviceGetProperties(dev, &core), ZE_RESULT_SUCCESS);
    zes_device_properties_t p = {.stype = ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    CHILD_ASSERT_EQ(zesDeviceGetProperties(dev, &p), ZE_RESULT_SUCCESS);
    CHILD_EXPECT(strcmp(p.core.name, core.name) == 0);
    CHILD_EXPECT(memcmp(&p.core.uuid, &core.uuid, sizeof(core.uuid)) == 0);
    uint32_t subs = 0;
    CHILD_ASSERT_EQ(zeDeviceGetSubDevices(dev, &subs, NULL), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(p.numSubdevices, subs);
    CHILD_EXPECT(p.vendorName[0] != '\0' && p.driverVersion[0] != '\0');

    ze_pci_ext_properties_t pci = {.stype =
                                       ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES};
    zes_pci_properties_t spci = {.stype = ZES_STRUCTURE_TYPE_PCI_PROPERTIES};
    CHILD_ASSERT_EQ(zeDevicePciGetPropertiesExt(dev, &pci), ZE_RESULT_SUCCESS);
    CHILD_ASSERT_EQ(zesDevicePciGetProperties(dev, &spci), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(spci.address.domain, pci.address.domain);
    CHILD_EXPECT_EQ(spci.address.bus, pci.address.bus);
    CHILD_EXPECT_EQ(spci.address.device, pci.address.device);
    CHILD_EXPECT_EQ(spci.address.function, pci.address.function);

    zes_device_state_t st = {.stype = ZES_STRUCTURE_TYPE_DEVICE_STATE};
    CHILD_ASSERT_EQ(zesDeviceGetState(dev, &st), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(st.reset, 0);
    if (!emulated) {
        return 0;
    }
    CHILD_EXPECT_EQ(spci.maxSpeed.gen, -1);
    CHILD_EXPECT_EQ(spci.haveBandwidthCounters, 0);
    zes_pci_stats_t stats;
    CHILD_EXPECT_EQ(zesDevicePciGetStats(dev, &stats), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(stats.rxCounter, 0);
    uint32_t n = 4;
    zes_process_state_t procs[4] = {
        {.stype = ZES_STRUCTURE_TYPE_PROCESS_STATE}};
    CHILD_EXPECT_EQ(zesDeviceProcessesGetState(dev, &n, procs),
                    ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(n, 1);
    CHILD_EXPECT_EQ(procs[0].processId, (uint32_t)getpid());
    ze_bool_t ecc = 1;
    CHILD_EXPECT_EQ(zesDeviceEccAvailable(dev, &ecc), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ecc, 0);
    return 0;
}

// What a device without those sensors and controls answers: none of them.
static int check_no_sensors(ze_device_handle_t dev) {
    uint32_t n;
#define NONE(call)                                                             \
    n = 7;                                                                     \
    CHILD_EXPECT_EQ(call, ZE_RESULT_SUCCESS);                                  \
    CHILD_EXPECT_EQ(n, 0)
    NONE(zesDeviceEnumFans(dev, &n, NULL));
    NONE(zesDeviceEnumTemperatureSensors(dev, &n, NULL));
    NONE(zesDeviceEnumFrequencyDomains(dev, &n, NULL));
    NONE(zesDeviceEnumPowerDomains(dev, &n, NULL));
    NONE(zesDeviceEnumEngineGroups(dev, &n, NULL));
    NONE(zesDeviceEnumSchedulers(dev, &n, NULL));
    NONE(zesDeviceEnumStandbyDomains(dev, &n, NULL));
    NONE(zesDeviceEnumRasErrorSets(dev, &n, NULL));
    NONE(zesDeviceEnumFirmwares(dev, &n, NULL));
    NONE(zesDevicePciGetBars(dev, &n, NULL));
#undef NONE
    zes_pwr_handle_t card;
    CHILD_EXPECT_EQ(zesDeviceGetCardPowerDomain(dev, &card),
                    ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    // No handle of theirs exists (the loader's intercept mode reads the
    // handles itself).
    if (ze_test_intercept()) {
        return 0;
    }
    int32_t rpm;
    CHILD_EXPECT_EQ(zesFanGetState((zes_fan_handle_t)(uintptr_t)0x1000,
                                   ZES_FAN_SPEED_UNITS_RPM, &rpm),
                    ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    double temp;
    CHILD_EXPECT_EQ(
        zesTemperatureGetState((zes_temp_handle_t)(uintptr_t)0x1000, &temp),
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    return 0;
}

// The free memory of every module of `dev`, summed.
static uint64_t free_memory(ze_device_handle_t dev, uint64_t *size) {
    uint32_t n = 0;
    zes_mem_handle_t mods[8];
    if (zesDeviceEnumMemoryModules(dev, &n, NULL) != ZE_RESULT_SUCCESS ||
        n == 0 || n > 8 ||
        zesDeviceEnumMemoryModules(dev, &n, mods) != ZE_RESULT_SUCCESS) {
        return 0;
    }
    uint64_t free = 0;
    *size = 0;
    for (uint32_t i = 0; i < n; i++) {
        zes_mem_state_t s = {.stype = ZES_STRUCTURE_TYPE_MEM_STATE};
        if (zesMemoryGetState(mods[i], &s) != ZE_RESULT_SUCCESS) {
            return 0;
        }
        free += s.free;
        *size += s.size;
    }
    return free;
}

static int check_memory(ze_test_t *t, bool emulated) {
    ze_device_handle_t dev = t->devices[0];
    uint32_t n = 0;
    CHILD_ASSERT_EQ(zesDeviceEnumMemoryModules(dev, &n, NULL),
                    ZE_RESULT_SUCCESS);
    CHILD_ASSERT(n >= 1 && n <= 8);
    zes_mem_handle_t mods[8];
    CHILD_ASSERT_EQ(zesDeviceEnumMemoryModules(dev, &n, mods),
                    ZE_RESULT_SUCCESS);
    zes_mem_properties_t mp = {.stype = ZES_STRUCTURE_TYPE_MEM_PROPERTIES};
    CHILD_ASSERT_EQ(zesMemoryGetProperties(mods[0], &mp), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(mp.location, ZES_MEM_LOC_DEVICE);
    if (emulated) {
        ze_device_memory_properties_t dm = {
            .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
        uint32_t one = 1;
        CHILD_ASSERT_EQ(zeDeviceGetMemoryProperties(dev, &one, &dm),
                        ZE_RESULT_SUCCESS);
        CHILD_EXPECT_EQ(mp.physicalSize * n, dm.totalSize);
        zes_mem_bandwidth_t bw;
        CHILD_EXPECT_EQ(zesMemoryGetBandwidth(mods[0], &bw),
                        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    // Free memory follows the allocations.
    const size_t big = 64u << 20;
    uint64_t size = 0, before = free_memory(dev, &size);
    CHILD_ASSERT(before >= big && size >= before);
    void *p = ze_test_alloc_device(t, big, 0);
    CHILD_ASSERT(p != NULL);
    uint64_t during = free_memory(dev, &size);
    CHILD_EXPECT(during + big <= before);
    CHILD_ASSERT_EQ(zeMemFree(t->ctx, p), ZE_RESULT_SUCCESS);
    uint64_t after = free_memory(dev, &size);
    CHILD_EXPECT(after >= during + big);
    if (emulated) {
        CHILD_EXPECT_EQ(after, before); // nothing else runs here
    }
    return 0;
}

// argv[0]: "1" on the emulated driver.
UMF_TEST_CHILD(ze_conf_sysman) {
    (void)sock;
    bool emulated = argc > 0 && strcmp(argv[0], "1") == 0;
    ze_test_t t;
    if (!ze_test_setup(&t)) {
        return 10;
    }
    for (uint32_t i = 0; i < t.device_count; i++) {
        CHILD_ASSERT_EQ(check_device(t.devices[i], emulated), 0);
    }
    if (emulated) {
        CHILD_ASSERT_EQ(check_no_sensors(t.devices[0]), 0);
    }
    CHILD_ASSERT_EQ(check_memory(&t, emulated), 0);
    ze_test_teardown(&t);
    return 0;
}

// Without ZES_ENABLE_SYSMAN and without zesInit, sysman is not initialized.
UMF_TEST_CHILD(ze_conf_sysman_off) {
    (void)sock, (void)argc, (void)argv;
    ze_test_t t;
    if (!ze_test_setup(&t)) {
        return 10;
    }
    zes_device_properties_t p = {.stype = ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    CHILD_EXPECT_EQ(zesDeviceGetProperties(t.devices[0], &p),
                    ZE_RESULT_ERROR_UNINITIALIZED);
    ze_test_teardown(&t);
    return 0;
}

UMF_C_TEST(zesDeviceGetProperties, CoreHandlesWithZesEnableSysman) {
    bool emulated = ze_test_control_if_emulated() != NULL;
    const char *args[] = {emulated ? "1" : "0", NULL};
    const char *env[] = {"ZES_ENABLE_SYSMAN=1", NULL};
    UMF_EXPECT_EQ(umf_test_child_run("ze_conf_sysman", args, env, NULL), 0);
}

UMF_C_TEST(zesDeviceGetProperties, UninitializedWithoutSysman) {
    if (ze_test_control_if_emulated() == NULL) {
        return; // a real driver may answer sysman calls anyway
    }
    const char *env[] = {"ZES_ENABLE_SYSMAN", NULL};
    UMF_EXPECT_EQ(umf_test_child_run("ze_conf_sysman_off", NULL, env, NULL), 0);
}

// The 1.5 way: zesInit, then the sysman driver and devices, which are the
// core ones.
UMF_C_TEST(zesInit, ThenZesDriverGetAndZesDeviceGet) {
    ZE_TEST_SETUP(t);
    if (!ze_test_direct_tables()) {
        ze_test_teardown(&t);
        return;
    }
    zes_mock_global_dditable_t g = {NULL};
    // A 1.4 loader knows no zesInit: nothing for it.
    UMF_ASSERT(ze_test_driver_table("zesGetGlobalProcAddrTable",
                                    ZE_API_VERSION_1_4, &g));
    UMF_EXPECT(g.pfnInit == NULL);
    UMF_ASSERT(ze_test_driver_table("zesGetGlobalProcAddrTable", NEWEST, &g));
    UMF_ASSERT(g.pfnInit != NULL);
    UMF_EXPECT_EQ(g.pfnInit(0x2), ZE_RESULT_ERROR_INVALID_ENUMERATION);
    UMF_EXPECT_EQ(g.pfnInit(0), ZE_RESULT_SUCCESS);
    zes_mock_driver_dditable_t d;
    zes_mock_device_dditable_t v;
    UMF_ASSERT(ze_test_driver_table("zesGetDriverProcAddrTable", NEWEST, &d));
    UMF_ASSERT(ze_test_driver_table("zesGetDeviceProcAddrTable", NEWEST, &v));
    uint32_t n = 0;
    UMF_EXPECT_EQ(d.pfnGet(&n, NULL), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    zes_driver_handle_t driver = NULL;
    UMF_EXPECT_EQ(d.pfnGet(&n, &driver), ZE_RESULT_SUCCESS);
    UMF_EXPECT(driver == t.driver);
    n = 0;
    UMF_EXPECT_EQ(v.pfnGet(driver, &n, NULL), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, t.device_count);
    zes_device_handle_t devs[ZE_TEST_MAX_DEVICES];
    UMF_EXPECT_EQ(v.pfnGet(driver, &n, devs), ZE_RESULT_SUCCESS);
    for (uint32_t i = 0; i < n && i < t.device_count; i++) {
        UMF_EXPECT(devs[i] == t.devices[i]);
    }
    zes_device_properties_t p = {.stype = ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    UMF_EXPECT_EQ(v.v1_4.pfnGetProperties(devs[0], &p), ZE_RESULT_SUCCESS);
    // No overclocking (1.5), no extension of sysman (1.8).
    uint32_t domains = 1;
    UMF_EXPECT_EQ(v.pfnGetOverclockDomains(devs[0], &domains),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(domains, 0);
    n = 3;
    UMF_EXPECT_EQ(v.pfnEnumOverclockDomains(devs[0], &n, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    UMF_EXPECT_EQ(d.pfnGetExtensionProperties(driver, &n, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    ze_test_teardown(&t);
}
