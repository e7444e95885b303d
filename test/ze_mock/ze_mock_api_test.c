// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every entry point of the emulated driver, success and error cases,
// through the real loader. Cases that pass NULL handles are skipped in the
// loader's intercept mode: there the loader itself reads the handle.

#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

// A handle that is none of the driver's objects (a valid address, so that a
// driver that reads it does not crash: it must tell it from its own).
static uint32_t not_an_object[16];
#define BOGUS(type) ((type)(void *)not_an_object)

UMF_C_TEST(ZeDriver, GetCountsAndProperties) {
    ZE_TEST_SETUP(t);
    uint32_t n = 0;
    UMF_EXPECT_EQ(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    ze_driver_handle_t d[2] = {NULL, NULL};
    n = 2;
    UMF_EXPECT_EQ(zeDriverGet(&n, d), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    UMF_EXPECT_PTR_EQ(d[0], t.driver);

    ze_api_version_t v;
    UMF_EXPECT_EQ(zeDriverGetApiVersion(t.driver, &v), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ZE_MAJOR_VERSION(v), 1);

    ze_driver_memory_free_ext_properties_t fp = {
        ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL, 0};
    ze_driver_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
                                .pNext = &fp};
    UMF_EXPECT_EQ(zeDriverGetProperties(t.driver, &p), ZE_RESULT_SUCCESS);
    UMF_EXPECT(p.driverVersion != 0);
    UMF_EXPECT(fp.freePolicies &
               ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE);

    ze_driver_ipc_properties_t ipc = {
        .stype = ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
    UMF_EXPECT_EQ(zeDriverGetIpcProperties(t.driver, &ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ((ipc.flags & ZE_IPC_PROPERTY_FLAG_MEMORY) != 0,
                  ze_test_ipc_capable());

    uint32_t ne = 0;
    UMF_EXPECT_EQ(zeDriverGetExtensionProperties(t.driver, &ne, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(ne, 11);
    ze_driver_extension_properties_t ext[11];
    UMF_EXPECT_EQ(zeDriverGetExtensionProperties(t.driver, &ne, ext),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_STREQ(ext[0].name, ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME);
    UMF_EXPECT_STREQ(ext[1].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME);
    UMF_EXPECT_STREQ(ext[2].name, ZE_EVENT_QUERY_TIMESTAMPS_EXP_NAME);
    UMF_EXPECT_STREQ(ext[3].name, "ZE_extension_event_query_kernel_timestamps");
    // zeCommandListImmediateAppendCommandListsExp works
    // (ze_conf_hooks_cmd_test.c), so its extension is listed.
    UMF_EXPECT_STREQ(ext[4].name,
                     "ZE_experimental_immediate_command_list_append");
    UMF_EXPECT_EQ(ext[4].version, ZE_MAKE_VERSION(1, 0));
    // ... and the others that work (ze_conf_extensions_test.c walks them).
    UMF_EXPECT_STREQ(ext[5].name, "ZE_experimental_command_list_clone");
    UMF_EXPECT_STREQ(ext[6].name, ZE_PCI_PROPERTIES_EXT_NAME);
    UMF_EXPECT_STREQ(ext[7].name, ZE_DEVICE_MEMORY_PROPERTIES_EXT_NAME);
    UMF_EXPECT_STREQ(ext[8].name, ZE_FABRIC_EXP_NAME);
    UMF_EXPECT_STREQ(ext[9].name, ZE_GLOBAL_OFFSET_EXP_NAME);
    UMF_EXPECT_STREQ(ext[10].name, "ZEX_counter_based_event");
    ne = 1; // fewer than there are: only those
    UMF_EXPECT_EQ(zeDriverGetExtensionProperties(t.driver, &ne, ext),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ne, 1);

    void *fn = NULL;
    UMF_EXPECT_EQ(zeDriverGetExtensionFunctionAddress(t.driver, "zeNope", &fn),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeDriverGet(NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDriverGetProperties(t.driver, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDriverGetIpcProperties(t.driver, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDriverGetApiVersion(t.driver, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDriverGetExtensionProperties(t.driver, NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDriverGetExtensionFunctionAddress(t.driver, NULL, &fn),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDriverGetProperties(NULL, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeDriverGetProperties(BOGUS(ze_driver_handle_t), &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeDevice, Queries) {
    ZE_TEST_SETUP(t);
    UMF_ASSERT_EQ(t.device_count, 2); // UMF_GPU_MOCK_DEVICES=2
    uint32_t n = 1;
    ze_device_handle_t one;
    UMF_EXPECT_EQ(zeDeviceGet(t.driver, &n, &one), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    UMF_EXPECT_PTR_EQ(one, t.devices[0]);

    ze_device_properties_t p0 = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_device_properties_t p1 = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[0], &p0), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[1], &p1), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(p0.type, ZE_DEVICE_TYPE_GPU);
    UMF_EXPECT_EQ(p0.maxMemAllocSize, 512ull << 20); // half of 1G
    UMF_EXPECT(memcmp(p0.uuid.id, p1.uuid.id, sizeof(p0.uuid.id)) != 0);
    UMF_EXPECT(strstr(p1.name, "emulated device 1") != NULL);

    ze_device_memory_ext_properties_t mext = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_EXT_PROPERTIES};
    ze_device_memory_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, .pNext = &mext};
    n = 0;
    UMF_EXPECT_EQ(zeDeviceGetMemoryProperties(t.devices[1], &n, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(n, 1);
    UMF_EXPECT_EQ(zeDeviceGetMemoryProperties(t.devices[1], &n, &mp),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(mp.totalSize, 1ull << 30); // UMF_GPU_MOCK_DEVICE_MEM=1G
    UMF_EXPECT_EQ(mext.physicalSize, 1ull << 30);

    ze_device_compute_properties_t cp = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    UMF_EXPECT_EQ(zeDeviceGetComputeProperties(t.devices[0], &cp),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(cp.maxTotalGroupSize > 0);

    ze_command_queue_group_properties_t qg = {
        .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    n = 0;
    UMF_EXPECT_EQ(
        zeDeviceGetCommandQueueGroupProperties(t.devices[0], &n, NULL),
        ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(n, 1);
    UMF_EXPECT_EQ(zeDeviceGetCommandQueueGroupProperties(t.devices[0], &n, &qg),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(qg.flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
    UMF_EXPECT_EQ(qg.maxMemoryFillPatternSize, 128);

    ze_device_memory_access_properties_t ma = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    UMF_EXPECT_EQ(zeDeviceGetMemoryAccessProperties(t.devices[0], &ma),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(ma.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW);

    n = 5;
    UMF_EXPECT_EQ(zeDeviceGetSubDevices(t.devices[0], &n, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);

    ze_device_p2p_properties_t p2p = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES};
    UMF_EXPECT_EQ(zeDeviceGetP2PProperties(t.devices[0], t.devices[1], &p2p),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(p2p.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS);
    ze_bool_t can = 0;
    UMF_EXPECT_EQ(zeDeviceCanAccessPeer(t.devices[1], t.devices[0], &can),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(can);
    UMF_EXPECT_EQ(zeDeviceGetStatus(t.devices[1]), ZE_RESULT_SUCCESS);

    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeDeviceGet(t.driver, NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetProperties(t.devices[0], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetProperties(NULL, &p0),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeDeviceGetProperties(BOGUS(ze_device_handle_t), &p0),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeDeviceGetMemoryProperties(t.devices[0], NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetP2PProperties(t.devices[0], NULL, &p2p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeDeviceCanAccessPeer(t.devices[0], t.devices[1], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeContext, CreateDestroyStatus) {
    ZE_TEST_SETUP(t);
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t c1, c2;
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    int64_t before = ctl->get_object_count("context");
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &c1), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeContextCreateEx(t.driver, &cd, 2, t.devices, &c2),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(c1 != c2);
    UMF_EXPECT_EQ(ctl->get_object_count("context"), before + 2);
    UMF_EXPECT_EQ(zeContextGetStatus(c1), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextDestroy(c1), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextDestroy(c2), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_object_count("context"), before);
    if (!ze_test_intercept()) {
        // The loader's intercept mode frees its own wrapper at the first.
        UMF_EXPECT_EQ(zeContextDestroy(c1),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeContextCreate(t.driver, NULL, &c1),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeContextCreate(t.driver, &cd, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeContextDestroy(NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeContextGetStatus(BOGUS(ze_context_handle_t)),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        cd.flags = 0x80;
        UMF_EXPECT_EQ(zeContextCreate(t.driver, &cd, &c1),
                      ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeMem, AllocKindsAndProperties) {
    ZE_TEST_SETUP(t);
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *dev = NULL, *host = NULL, *shared = NULL, *shared_host = NULL;
    UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 5000, 64, t.devices[1], &dev),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocHost(t.ctx, &hd, 100, 0, &host), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(
        zeMemAllocShared(t.ctx, &dd, &hd, 300, 0, t.devices[0], &shared),
        ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocShared(t.ctx, &dd, &hd, 300, 0, NULL, &shared_host),
                  ZE_RESULT_SUCCESS);
    struct {
        void *ptr;
        ze_memory_type_t type;
        ze_device_handle_t device;
    } cases[] = {{dev, ZE_MEMORY_TYPE_DEVICE, t.devices[1]},
                 {host, ZE_MEMORY_TYPE_HOST, NULL},
                 {shared, ZE_MEMORY_TYPE_SHARED, t.devices[0]},
                 {shared_host, ZE_MEMORY_TYPE_SHARED, NULL}};
    uint64_t ids[4];
    for (int i = 0; i < 4; i++) {
        ze_memory_allocation_properties_t mp = {
            .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t d = BOGUS(ze_device_handle_t);
        UMF_ASSERT_EQ(zeMemGetAllocProperties(t.ctx, cases[i].ptr, &mp, &d),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(mp.type, cases[i].type);
        UMF_EXPECT(mp.id != 0);
        UMF_EXPECT(mp.pageSize >= 4096);
        UMF_EXPECT_PTR_EQ(d, cases[i].device);
        ids[i] = mp.id;
        // Without the device output too.
        UMF_EXPECT_EQ(zeMemGetAllocProperties(t.ctx, cases[i].ptr, &mp, NULL),
                      ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT(ids[0] != ids[1] && ids[1] != ids[2] && ids[2] != ids[3]);
    UMF_EXPECT_EQ((uintptr_t)dev % 64, 0);

    // Host and shared memory is the host's: no copy needed.
    memset(host, 7, 100);
    memset(shared_host, 8, 300);

    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, host), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, shared), ZE_RESULT_SUCCESS);
    ze_memory_free_ext_desc_t fd = {
        ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
        ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE};
    UMF_EXPECT_EQ(zeMemFreeExt(t.ctx, &fd, shared_host), ZE_RESULT_SUCCESS);
    ze_memory_allocation_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    UMF_EXPECT_EQ(zeMemGetAllocProperties(t.ctx, dev, &mp, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(mp.type, ZE_MEMORY_TYPE_UNKNOWN); // freed
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeMem, AllocErrors) {
    ZE_TEST_SETUP(t);
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = NULL;
    ze_device_handle_t d0 = t.devices[0];
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 0, 0, d0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, SIZE_MAX, 0, d0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(zeMemAllocHost(t.ctx, &hd, 0, 0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(zeMemAllocHost(t.ctx, &hd, SIZE_MAX / 2, 0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(zeMemAllocShared(t.ctx, &dd, &hd, 0, 0, d0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 64, 3, d0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(zeMemAllocHost(t.ctx, &hd, 64, 48, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 64, 1ull << 40, d0, &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    dd.flags = 0x100;
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 64, 0, d0, &p),
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
    dd.flags = 0;
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, NULL, 64, 0, d0, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 64, 0, d0, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 64, 0, NULL, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeMemAllocDevice(NULL, &dd, 64, 0, d0, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(
            zeMemAllocDevice(BOGUS(ze_context_handle_t), &dd, 64, 0, d0, &p),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeMemAllocHost(t.ctx, NULL, 64, 0, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeMemAllocShared(t.ctx, &dd, NULL, 64, 0, d0, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // Every power of two up to 1 MiB is honoured.
    for (size_t a = 1; a <= (1u << 20); a <<= 1) {
        UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 10, a, d0, &p),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ((uintptr_t)p % a, 0);
        UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeMem, BadAndDoubleFrees) {
    ZE_TEST_SETUP(t);
    void *p = ze_test_alloc_device(&t, 3 * 4096, 0);
    UMF_ASSERT(p != NULL);
    int on_stack;
    UMF_EXPECT_EQ(zeMemFree(t.ctx, &on_stack),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, (char *)p + 4096),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // Another context does not own it.
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t other;
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &other), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(other, p), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeContextDestroy(other), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_memory_free_ext_desc_t fd = {ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
                                    NULL, 0};
    UMF_EXPECT_EQ(zeMemFreeExt(t.ctx, &fd, p),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    p = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(p != NULL);
    fd.freePolicy = 0x40;
    UMF_EXPECT_EQ(zeMemFreeExt(t.ctx, &fd, p),
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
    fd.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
    UMF_EXPECT_EQ(zeMemFreeExt(t.ctx, &fd, p), ZE_RESULT_SUCCESS);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeMemFree(t.ctx, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeMemFreeExt(t.ctx, NULL, p),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeMem, InteriorPointersAndAddressRange) {
    ZE_TEST_SETUP(t);
    char *p = ze_test_alloc_device(&t, 10000, 1);
    UMF_ASSERT(p != NULL);
    ze_memory_allocation_properties_t base = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    UMF_ASSERT_EQ(zeMemGetAllocProperties(t.ctx, p, &base, NULL),
                  ZE_RESULT_SUCCESS);
    size_t offsets[] = {1, 4095, 4096, 9999};
    for (int i = 0; i < 4; i++) {
        ze_memory_allocation_properties_t mp = {
            .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t d;
        UMF_ASSERT_EQ(zeMemGetAllocProperties(t.ctx, p + offsets[i], &mp, &d),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(mp.type, ZE_MEMORY_TYPE_DEVICE);
        UMF_EXPECT_EQ(mp.id, base.id);
        UMF_EXPECT_PTR_EQ(d, t.devices[1]);
        void *b = NULL;
        size_t s = 0;
        UMF_ASSERT_EQ(zeMemGetAddressRange(t.ctx, p + offsets[i], &b, &s),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_PTR_EQ(b, p);
        UMF_EXPECT_EQ(s, 10000);
    }
    void *b = NULL;
    UMF_EXPECT_EQ(zeMemGetAddressRange(t.ctx, p + 5, &b, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_PTR_EQ(b, p);
    size_t s = 0;
    UMF_EXPECT_EQ(zeMemGetAddressRange(t.ctx, p + 5, NULL, &s),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(s, 10000);
    int on_stack;
    UMF_EXPECT_EQ(zeMemGetAddressRange(t.ctx, &on_stack, &b, &s),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_memory_allocation_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    UMF_EXPECT_EQ(zeMemGetAllocProperties(t.ctx, &on_stack, &mp, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeMemGetAllocProperties(t.ctx, p, NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeMemGetAddressRange(t.ctx, NULL, &b, &s),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeMem, ResidencyAndPageSize) {
    ZE_TEST_SETUP(t);
    char *p = ze_test_alloc_device(&t, 8192, 0);
    UMF_ASSERT(p != NULL);
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *host;
    UMF_ASSERT_EQ(zeMemAllocHost(t.ctx, &hd, 64, 0, &host), ZE_RESULT_SUCCESS);
    ze_device_handle_t d0 = t.devices[0];
    UMF_EXPECT_EQ(zeContextMakeMemoryResident(t.ctx, d0, p, 8192),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextMakeMemoryResident(t.ctx, d0, p + 100, 92),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextEvictMemory(t.ctx, d0, p, 8192), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextMakeMemoryResident(t.ctx, d0, p, 8193),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeContextEvictMemory(t.ctx, d0, host, 64),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    int on_stack;
    UMF_EXPECT_EQ(zeContextMakeMemoryResident(t.ctx, d0, &on_stack, 4),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);

    size_t ps = 0;
    UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, d0, 100, &ps),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ps, 4096);
    UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, d0, 64u << 20, &ps),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ps, 2u << 20);
    UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, d0, 0, &ps),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, d0, 100, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeContextMakeMemoryResident(t.ctx, d0, NULL, 4),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeContextEvictMemory(t.ctx, NULL, p, 4),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, host), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}
