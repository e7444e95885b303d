// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: contexts. "The implementation of this function may
// immediately free all Host and Device allocations associated with this
// context": the emulated driver frees everything a destroyed context still
// holds (allocations, imported mappings, objects), and its leak report at
// exit counts none of it. On a real GPU the same calls run and succeed.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "mock_test_child_output.h"
#include "test_child.h"
#include "ze_test_util.h"

// How many times the conformance suite opens one handle in a context it
// then destroys.
enum { OPENS = 2000 };

static int64_t live(umf_gpu_mock_live_t what) {
    const umf_test_mock_control_t *ctl = ze_test_control_if_emulated();
    return ctl != NULL ? ctl->get_live_count(what) : -1;
}

static int64_t objects(const char *kind) {
    const umf_test_mock_control_t *ctl = ze_test_control_if_emulated();
    return ctl != NULL ? ctl->get_object_count(kind) : -1;
}

static ze_context_handle_t new_context(ze_test_t *t) {
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t ctx = NULL;
    if (zeContextCreate(t->driver, &cd, &ctx) != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeContextCreate");
    }
    return ctx;
}

// Opens `h` OPENS times in `ctx` and never closes the mappings.
static bool open_many(ze_test_t *t, ze_context_handle_t ctx,
                      ze_ipc_mem_handle_t h) {
    for (int i = 0; i < OPENS; i++) {
        void *p;
        if (zeMemOpenIpcHandle(ctx, t->devices[0], h, 0, &p) !=
            ZE_RESULT_SUCCESS) {
            umf_c_test_fail(__FILE__, __LINE__, "open %d of %d", i, OPENS);
            return false;
        }
    }
    return true;
}

UMF_C_TEST(zeContextDestroy, FreesTheImportsOfTheContext) {
    ZE_TEST_SETUP(t);
    if (!ze_test_ipc_capable()) {
        ze_test_teardown(&t);
        return;
    }
    void *dev = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(dev != NULL);
    ze_ipc_mem_handle_t h;
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h), ZE_RESULT_SUCCESS);
    int64_t imports = live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    ze_context_handle_t other = new_context(&t);
    UMF_ASSERT(other != NULL);
    UMF_ASSERT(open_many(&t, other, h));
    if (imports >= 0) {
        UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                      imports + OPENS);
    }
    UMF_EXPECT_EQ(zeContextDestroy(other), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), imports);
    // The exporter's context and allocation are untouched.
    UMF_EXPECT(ze_test_fill_byte(&t, dev, 0x3c, 4096));
    UMF_EXPECT(ze_test_all_bytes(&t, dev, 0x3c, 4096));
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeContextDestroy, FreesTheAllocationsAndObjectsOfTheContext) {
    ZE_TEST_SETUP(t);
    int64_t allocs = live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    int64_t lists = objects("command list"), pools = objects("event pool");
    int64_t events = objects("event"), fences = objects("fence");
    ze_context_handle_t ctx = new_context(&t);
    UMF_ASSERT(ctx != NULL);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL,
                                   0};
    void *d, *hm, *s;
    UMF_ASSERT_EQ(zeMemAllocDevice(ctx, &dd, 1000, 0, t.devices[0], &d),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocHost(ctx, &hd, 1000, 0, &hm), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocShared(ctx, &dd, &hd, 1000, 0, t.devices[1], &s),
                  ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                 0};
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 1, 0, 0};
    ze_command_queue_handle_t q;
    ze_command_list_handle_t l;
    ze_fence_handle_t f;
    ze_event_pool_handle_t pool;
    ze_event_handle_t e;
    UMF_ASSERT_EQ(zeCommandQueueCreate(ctx, t.devices[0], &qd, &q),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListCreate(ctx, t.devices[0], &ld, &l),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeFenceCreate(q, &fd, &f), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeEventPoolCreate(ctx, &pd, 0, NULL, &pool),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeEventCreate(pool, &ed, &e), ZE_RESULT_SUCCESS);
    if (allocs >= 0) {
        UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocs + 3);
    }
    UMF_EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocs);
    UMF_EXPECT_EQ(objects("command list"), lists);
    UMF_EXPECT_EQ(objects("event pool"), pools);
    UMF_EXPECT_EQ(objects("event"), events);
    UMF_EXPECT_EQ(objects("fence"), fences);
    // Another context's memory and objects stay.
    void *mine = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(mine != NULL);
    UMF_EXPECT(ze_test_fill_byte(&t, mine, 1, 64));
    UMF_EXPECT_EQ(zeMemFree(t.ctx, mine), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// The child opens a handle OPENS times in a context it destroys without
// closing them, under UMF_GPU_MOCK_LEAKS=argv[0]. With argv[1] "leak" it
// then exits without freeing one allocation or destroying its first
// context: the report must name those, and nothing of the destroyed one.
UMF_TEST_CHILD(ze_conf_context_opener) {
    if (argc < 2) {
        return 13;
    }
    setenv("UMF_GPU_MOCK_LEAKS", argv[0], 1);
    bool leak = strcmp(argv[1], "leak") == 0;
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 10;
    }
    ze_test_t t;
    if (!ze_test_setup(&t)) {
        return 11;
    }
    void *dev = ze_test_alloc_device(&t, 4096, 0);
    void *kept = ze_test_alloc_device(&t, 5151, 1);
    ze_ipc_mem_handle_t h;
    ze_context_handle_t other = new_context(&t);
    if (dev == NULL || kept == NULL || other == NULL ||
        zeMemGetIpcHandle(t.ctx, dev, &h) != ZE_RESULT_SUCCESS ||
        !open_many(&t, other, h)) {
        return 12;
    }
    if (zeContextDestroy(other) != ZE_RESULT_SUCCESS ||
        zeMemFree(t.ctx, dev) != ZE_RESULT_SUCCESS) {
        return 14;
    }
    if (leak) {
        return 0; // what the leak report does with the status is tested
    }
    if (zeMemFree(t.ctx, kept) != ZE_RESULT_SUCCESS) {
        return 15;
    }
    ze_test_teardown(&t);
    return 0;
}

UMF_C_TEST(zeContextDestroy, LeakReportCountsNothingOfTheContext) {
    if (!ze_test_ipc_capable() || ze_test_control_if_emulated() == NULL) {
        return; // the report is the emulated driver's
    }
    char *text = umf_test_check_leak_modes("ze_conf_context_opener",
                                           "5151 bytes of device memory");
    UMF_ASSERT(text != NULL);
    UMF_EXPECT(strstr(text, "imported mapping #") == NULL);
    // The first context, its command list and the one allocation.
    UMF_EXPECT(strstr(text, "3 leaked: 1 allocations (0 with an open IPC "
                            "handle), 0 imported mappings, 2 driver objects") !=
               NULL);
    free(text);
}
