// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: the driver's own queries, and the run itself. The IPC
// properties say what may be shared between processes ("Supports passing
// memory allocations between processes", "Supports passing event pools
// between processes"), and what they say holds: a program that checks them
// before sharing must find sharing there. On a real GPU the same checks run
// against what that driver says.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

// ZE_IPC_PROPERTY_FLAG_MEMORY: zeMemGetIpcHandle of device memory works and
// its handle opens; ZE_IPC_PROPERTY_FLAG_EVENT_POOL: zeEventPoolGetIpcHandle
// of an IPC pool works and its handle opens. The emulated driver shares
// event pools in every memory mode and memory in all but malloc.
UMF_C_TEST(zeDriverGetIpcProperties, FlagsSayWhatCanBeShared) {
    ZE_TEST_SETUP(t);
    ze_driver_ipc_properties_t p = {
        .stype = ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
    UMF_ASSERT_EQ(zeDriverGetIpcProperties(t.driver, &p), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        p.flags & ~(ze_ipc_property_flags_t)(ZE_IPC_PROPERTY_FLAG_MEMORY |
                                             ZE_IPC_PROPERTY_FLAG_EVENT_POOL),
        0);
    if (ze_test_control_if_emulated() != NULL) {
        UMF_EXPECT((p.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL) != 0);
        UMF_EXPECT_EQ((p.flags & ZE_IPC_PROPERTY_FLAG_MEMORY) != 0,
                      ze_test_ipc_capable());
    }
    if (p.flags & ZE_IPC_PROPERTY_FLAG_MEMORY) {
        void *dev = ze_test_alloc_device(&t, 4096, 0);
        UMF_ASSERT(dev != NULL);
        UMF_EXPECT(ze_test_fill_byte(&t, dev, 0x5e, 4096));
        ze_ipc_mem_handle_t h;
        UMF_EXPECT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h), ZE_RESULT_SUCCESS);
        void *opened = NULL;
        UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, &opened),
                      ZE_RESULT_SUCCESS);
        if (opened != NULL) {
            UMF_EXPECT(ze_test_all_bytes(&t, opened, 0x5e, 4096));
            UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, opened),
                          ZE_RESULT_SUCCESS);
        }
        UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    }
    if (p.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL) {
        ze_event_pool_desc_t pd = {
            ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 1};
        ze_event_pool_handle_t pool;
        UMF_ASSERT_EQ(zeEventPoolCreate(t.ctx, &pd, 0, NULL, &pool),
                      ZE_RESULT_SUCCESS);
        ze_ipc_event_pool_handle_t h;
        UMF_EXPECT_EQ(zeEventPoolGetIpcHandle(pool, &h), ZE_RESULT_SUCCESS);
        ze_event_pool_handle_t opened = NULL;
        UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, h, &opened),
                      ZE_RESULT_SUCCESS);
        if (opened != NULL) {
            UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(opened), ZE_RESULT_SUCCESS);
        }
        UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    } else if (ze_test_control_if_emulated() != NULL) {
        umf_c_test_fail(__FILE__, __LINE__, "no event pool IPC reported");
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeDriverGetIpcProperties(NULL, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeDriverGetIpcProperties(t.driver, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_test_teardown(&t);
}

// The run under the validation layer (test_ze_conformance_validation) is
// one: the layer is loaded and refuses what it checks before the driver
// sees it. A call with a NULL context never reaches the emulated driver.
UMF_C_TEST(ZeConfRun, ValidationLayerIsLoadedWhenAsked) {
    const umf_test_mock_control_t *ctl = ze_test_control_if_emulated();
    if (ctl == NULL || ze_test_intercept()) {
        return; // the driver's call counts tell
    }
    ZE_TEST_SETUP(t);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *p = NULL;
    int64_t calls = ctl->get_call_count("zeMemAllocDevice");
    UMF_EXPECT_EQ(zeMemAllocDevice(NULL, &dd, 64, 0, t.devices[0], &p),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(ctl->get_call_count("zeMemAllocDevice") - calls,
                  ze_test_validation_layer() ? 0 : 1);
    ze_test_teardown(&t);
}
