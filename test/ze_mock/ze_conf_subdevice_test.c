// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance of sub-devices: children started with
// UMF_GPU_MOCK_SUBDEVICES=2 (the emulated driver's; a real GPU has the
// sub-devices it has) see them through zeDeviceGetSubDevices, with their
// properties, their root (1.7), their share of the memory, allocations on
// them (charged to the device, reported as the sub-device's), copies,
// contexts, sysman memory modules, IPC of sub-device memory between two
// processes, and ZE_AFFINITY_MASK=N.M selecting them.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <level_zero/zes_api.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

#define SUBS 2

static const char *const with_subdevices[] = {"UMF_GPU_MOCK_SUBDEVICES=2",
                                              "ZES_ENABLE_SYSMAN=1", NULL};

static int get_subs(ze_device_handle_t dev, ze_device_handle_t subs[SUBS]) {
    uint32_t n = 0;
    CHILD_ASSERT_EQ(zeDeviceGetSubDevices(dev, &n, NULL), ZE_RESULT_SUCCESS);
    CHILD_ASSERT_EQ(n, SUBS);
    CHILD_ASSERT_EQ(zeDeviceGetSubDevices(dev, &n, subs), ZE_RESULT_SUCCESS);
    CHILD_ASSERT_EQ(n, SUBS);
    return 0;
}

// A child's driver, context and list (ze_test_setup), and the sub-devices
// of its device 0; 0, or 1 after a failed check.
static int setup_with_subs(ze_test_t *t, ze_device_handle_t subs[SUBS]) {
    CHILD_ASSERT(ze_test_setup(t));
    return get_subs(t->devices[0], subs);
}

static int check_properties(ze_device_handle_t dev,
                            ze_device_handle_t subs[SUBS]) {
    ze_device_properties_t root = {.stype =
                                       ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    CHILD_ASSERT_EQ(zeDeviceGetProperties(dev, &root), ZE_RESULT_SUCCESS);
    CHILD_EXPECT((root.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) == 0);
    ze_device_memory_properties_t rm = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
    uint32_t one = 1;
    CHILD_ASSERT_EQ(zeDeviceGetMemoryProperties(dev, &one, &rm),
                    ZE_RESULT_SUCCESS);
    ze_device_uuid_t seen[SUBS];
    for (uint32_t i = 0; i < SUBS; i++) {
        ze_device_properties_t p = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        CHILD_ASSERT_EQ(zeDeviceGetProperties(subs[i], &p), ZE_RESULT_SUCCESS);
        CHILD_EXPECT(p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
        CHILD_EXPECT_EQ(p.subdeviceId, i);
        CHILD_EXPECT(memcmp(&p.uuid, &root.uuid, sizeof(p.uuid)) != 0);
        for (uint32_t j = 0; j < i; j++) {
            CHILD_EXPECT(memcmp(&p.uuid, &seen[j], sizeof(p.uuid)) != 0);
        }
        seen[i] = p.uuid;
        uint32_t n = 5;
        CHILD_EXPECT_EQ(zeDeviceGetSubDevices(subs[i], &n, NULL),
                        ZE_RESULT_SUCCESS);
        CHILD_EXPECT_EQ(n, 0);
        // Their share of the device's memory.
        ze_device_memory_properties_t m = {
            .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
        one = 1;
        CHILD_ASSERT_EQ(zeDeviceGetMemoryProperties(subs[i], &one, &m),
                        ZE_RESULT_SUCCESS);
        CHILD_EXPECT_EQ(m.totalSize, rm.totalSize / SUBS);
        CHILD_EXPECT(p.maxMemAllocSize <= m.totalSize);
        // The loader's 1.4 has no zeDeviceGetRootDevice; the driver's 1.7
        // table has.
        if (ze_test_direct_tables()) {
            ze_mock_device_dditable_t d;
            CHILD_ASSERT(ze_test_driver_table("zeGetDeviceProcAddrTable",
                                              ZE_MOCK_API_VERSION_NEWEST, &d));
            ze_device_handle_t r = NULL;
            CHILD_EXPECT_EQ(d.pfnGetRootDevice(subs[i], &r), ZE_RESULT_SUCCESS);
            CHILD_EXPECT(r == dev);
        }
    }
    return 0;
}

// Memory on sub-device 1: its own, charged to the device; copies on it.
static int check_memory(ze_test_t *t, ze_device_handle_t subs[SUBS]) {
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    zes_mem_handle_t mods[SUBS];
    uint32_t n = SUBS;
    CHILD_ASSERT_EQ(zesDeviceEnumMemoryModules(t->devices[0], &n, mods),
                    ZE_RESULT_SUCCESS);
    CHILD_ASSERT_EQ(n, SUBS);
    uint64_t free_before = 0;
    for (uint32_t i = 0; i < SUBS; i++) {
        zes_mem_properties_t mp = {.stype = ZES_STRUCTURE_TYPE_MEM_PROPERTIES};
        zes_mem_state_t ms = {.stype = ZES_STRUCTURE_TYPE_MEM_STATE};
        CHILD_ASSERT_EQ(zesMemoryGetProperties(mods[i], &mp),
                        ZE_RESULT_SUCCESS);
        CHILD_EXPECT(mp.onSubdevice);
        CHILD_EXPECT_EQ(mp.subdeviceId, i);
        CHILD_ASSERT_EQ(zesMemoryGetState(mods[i], &ms), ZE_RESULT_SUCCESS);
        free_before += ms.free;
    }
    const size_t size = 8u << 20;
    void *p;
    CHILD_ASSERT_EQ(zeMemAllocDevice(t->ctx, &dd, size, 0, subs[1], &p),
                    ZE_RESULT_SUCCESS);
    ze_memory_allocation_properties_t ap = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t owner = NULL;
    CHILD_EXPECT_EQ(zeMemGetAllocProperties(t->ctx, p, &ap, &owner),
                    ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ap.type, ZE_MEMORY_TYPE_DEVICE);
    CHILD_EXPECT(owner == subs[1]);
    uint64_t free_during = 0;
    for (uint32_t i = 0; i < SUBS; i++) {
        zes_mem_state_t ms = {.stype = ZES_STRUCTURE_TYPE_MEM_STATE};
        CHILD_ASSERT_EQ(zesMemoryGetState(mods[i], &ms), ZE_RESULT_SUCCESS);
        free_during += ms.free;
    }
    CHILD_EXPECT(free_during + size <= free_before);
    // A list on the sub-device copies into its memory; the device's list
    // reads it back.
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list;
    CHILD_ASSERT_EQ(zeCommandListCreateImmediate(t->ctx, subs[1], &qd, &list),
                    ZE_RESULT_SUCCESS);
    char *host = malloc(size);
    CHILD_ASSERT(host != NULL);
    memset(host, 0x3c, size);
    CHILD_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(list, p, host, size, NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    CHILD_EXPECT(ze_test_all_bytes(t, p, 0x3c, size));
    free(host);
    CHILD_EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeMemFree(t->ctx, p), ZE_RESULT_SUCCESS);
    // A context of the sub-devices alone.
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t ctx;
    CHILD_ASSERT_EQ(zeContextCreateEx(t->driver, &cd, SUBS, subs, &ctx),
                    ZE_RESULT_SUCCESS);
    CHILD_ASSERT_EQ(zeMemAllocDevice(ctx, &dd, 4096, 0, subs[0], &p),
                    ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
    return 0;
}

UMF_TEST_CHILD(ze_conf_subdevices) {
    (void)sock, (void)argc, (void)argv;
    ze_test_t t;
    ze_device_handle_t subs[SUBS];
    CHILD_ASSERT_EQ(setup_with_subs(&t, subs), 0);
    CHILD_ASSERT_EQ(check_properties(t.devices[0], subs), 0);
    CHILD_ASSERT_EQ(check_memory(&t, subs), 0);
    ze_test_teardown(&t);
    return 0;
}

UMF_C_TEST(zeDeviceGetSubDevices, TwoPerDeviceWithTheirMemory) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    UMF_EXPECT_EQ(
        umf_test_child_run("ze_conf_subdevices", NULL, with_subdevices, NULL),
        0);
}

// ---- IPC of sub-device memory, between two processes
// ---------------------------

typedef struct subdev_msg_t {
    ze_ipc_mem_handle_t handle;
    int pid;
} subdev_msg_t;

// Opens the memory of sub-device 1 of the exporter on its own sub-device
// 0, checks it, writes its answer.
UMF_TEST_CHILD(ze_conf_subdevice_importer) {
    (void)argc, (void)argv;
    ze_test_t t;
    ze_device_handle_t subs[SUBS];
    CHILD_ASSERT_EQ(setup_with_subs(&t, subs), 0);
    subdev_msg_t msg;
    CHILD_ASSERT_EQ(umf_test_recv(sock, &msg, sizeof(msg)), 0);
    int mine = ze_test_take_handle_fd(msg.handle.data, msg.pid);
    CHILD_ASSERT(mine >= 0);
    void *p = NULL;
    CHILD_ASSERT_EQ(zeMemOpenIpcHandle(t.ctx, subs[0], msg.handle, 0, &p),
                    ZE_RESULT_SUCCESS);
    close(mine);
    CHILD_EXPECT(ze_test_all_bytes(&t, p, 0x5a, 1u << 20));
    CHILD_EXPECT(ze_test_fill_byte(&t, p, 0xa5, 1u << 20));
    CHILD_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, p), ZE_RESULT_SUCCESS);
    char done = 'd';
    CHILD_ASSERT_EQ(umf_test_send(sock, &done, 1), 0);
    ze_test_teardown(&t);
    return 0;
}

UMF_TEST_CHILD(ze_conf_subdevice_exporter) {
    (void)sock, (void)argc, (void)argv;
    ze_test_t t;
    ze_device_handle_t subs[SUBS];
    CHILD_ASSERT_EQ(setup_with_subs(&t, subs), 0);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *p;
    CHILD_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 1u << 20, 0, subs[1], &p),
                    ZE_RESULT_SUCCESS);
    CHILD_ASSERT(ze_test_fill_byte(&t, p, 0x5a, 1u << 20));
    subdev_msg_t msg = {.pid = (int)getpid()};
    CHILD_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, p, &msg.handle),
                    ZE_RESULT_SUCCESS);
    umf_test_child_t c;
    CHILD_ASSERT_EQ(umf_test_child_start_env(&c, "ze_conf_subdevice_importer",
                                             NULL, with_subdevices),
                    0);
    char done = 0;
    CHILD_EXPECT_EQ(umf_test_send(c.sock, &msg, sizeof(msg)), 0);
    CHILD_EXPECT_EQ(umf_test_recv(c.sock, &done, 1), 0);
    CHILD_EXPECT_EQ(umf_test_child_wait(&c), 0);
    CHILD_EXPECT_EQ(done, 'd');
    CHILD_EXPECT(ze_test_all_bytes(&t, p, 0xa5, 1u << 20));
    CHILD_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
    return 0;
}

UMF_C_TEST(zeMemOpenIpcHandle, SubDeviceMemoryOfAnotherProcess) {
    if (ze_test_control_if_emulated() == NULL || !ze_test_ipc_capable()) {
        return;
    }
    UMF_EXPECT_EQ(umf_test_child_run("ze_conf_subdevice_exporter", NULL,
                                     with_subdevices, NULL),
                  0);
}

// ---- ZE_AFFINITY_MASK=N.M
// ------------------------------------------------------

typedef struct mask_report_t {
    uint32_t count;
    uint32_t subs[4];
    uint32_t flags[4];
    char name[4][64];
} mask_report_t;

// argv[0]: the mask. Reports each device's sub-devices and name.
UMF_TEST_CHILD(ze_conf_subdevice_mask) {
    if (argc < 1 || setenv("ZE_AFFINITY_MASK", argv[0], 1) != 0) {
        return 10;
    }
    uint32_t n = 1;
    ze_driver_handle_t driver;
    mask_report_t r = {0};
    if (zeInit(0) != ZE_RESULT_SUCCESS ||
        zeDriverGet(&n, &driver) != ZE_RESULT_SUCCESS ||
        zeDeviceGet(driver, &r.count, NULL) != ZE_RESULT_SUCCESS) {
        return 11;
    }
    ze_device_handle_t devs[4];
    n = r.count < 4 ? r.count : 4;
    CHILD_ASSERT(n == 0 || zeDeviceGet(driver, &n, devs) == ZE_RESULT_SUCCESS);
    for (uint32_t i = 0; i < n; i++) {
        ze_device_properties_t p = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        CHILD_ASSERT_EQ(zeDeviceGetProperties(devs[i], &p), ZE_RESULT_SUCCESS);
        CHILD_ASSERT_EQ(zeDeviceGetSubDevices(devs[i], &r.subs[i], NULL),
                        ZE_RESULT_SUCCESS);
        r.flags[i] = p.flags;
        snprintf(r.name[i], sizeof(r.name[i]), "%.63s", p.name);
    }
    return umf_test_send(sock, &r, sizeof(r)) ? 12 : 0;
}

static bool run_mask(const char *mask, mask_report_t *r) {
    const char *args[] = {mask, NULL};
    umf_test_child_t c;
    if (umf_test_child_start_env(&c, "ze_conf_subdevice_mask", args,
                                 with_subdevices) != 0) {
        return false;
    }
    bool got = umf_test_recv(c.sock, r, sizeof(*r)) == 0;
    return umf_test_child_wait(&c) == 0 && got;
}

UMF_C_TEST(ZE_AFFINITY_MASK, SelectsSubDevices) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    mask_report_t r;
    // One sub-device alone is a device of its own.
    UMF_ASSERT(run_mask("1.1", &r));
    UMF_EXPECT_EQ(r.count, 1);
    UMF_EXPECT_EQ(r.subs[0], 0);
    UMF_EXPECT((r.flags[0] & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) == 0);
    UMF_EXPECT_STREQ(r.name[0], "umf-gpu emulated device 1.1");
    // Both sub-devices of a device: the device, with both.
    UMF_ASSERT(run_mask("0.1,0.0", &r));
    UMF_EXPECT_EQ(r.count, 1);
    UMF_EXPECT_EQ(r.subs[0], 2);
    UMF_EXPECT_STREQ(r.name[0], "umf-gpu emulated device 0");
    // A sub-device of one, the other whole.
    UMF_ASSERT(run_mask("1,0.1", &r));
    UMF_EXPECT_EQ(r.count, 2);
    UMF_EXPECT_STREQ(r.name[0], "umf-gpu emulated device 0.1");
    UMF_EXPECT_EQ(r.subs[1], 2);
    UMF_EXPECT_STREQ(r.name[1], "umf-gpu emulated device 1");
    // A sub-device past the last, and an engine past the one: nothing.
    UMF_ASSERT(run_mask("0.2,1.0.1", &r));
    UMF_EXPECT_EQ(r.count, 0);
}
