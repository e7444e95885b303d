// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Copies, fills, command queues and lists, events and fences.

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "c_test.h"
#include "ze_test_util.h"

static const ze_command_queue_desc_t queue_desc = {
    ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
    NULL,
    0,
    0,
    0,
    ZE_COMMAND_QUEUE_MODE_DEFAULT,
    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};

UMF_C_TEST(ZeCommands, ImmediateCopies) {
    ZE_TEST_SETUP(t);
    enum { N = 20000 };
    static unsigned char src[N], dst[N];
    for (int i = 0; i < N; i++) {
        src[i] = (unsigned char)(i * 7);
    }
    char *a = ze_test_alloc_device(&t, N, 0);
    char *b = ze_test_alloc_device(&t, N, 1);
    UMF_ASSERT(a != NULL && b != NULL);
    UMF_EXPECT_EQ(ze_test_copy(&t, a, src, N), ZE_RESULT_SUCCESS); // H2D
    UMF_EXPECT_EQ(ze_test_copy(&t, b, a, N), ZE_RESULT_SUCCESS);   // D2D
    memset(dst, 0, N);
    UMF_EXPECT_EQ(ze_test_copy(&t, dst, b, N), ZE_RESULT_SUCCESS); // D2H
    UMF_EXPECT(memcmp(src, dst, N) == 0);
    UMF_EXPECT_EQ(ze_test_copy(&t, dst, b + 100, 0), ZE_RESULT_SUCCESS);
    // Interior source, and past the end of an allocation.
    UMF_EXPECT_EQ(ze_test_copy(&t, dst, a + 10, 10), ZE_RESULT_SUCCESS);
    UMF_EXPECT(memcmp(dst, src + 10, 10) == 0);
    UMF_EXPECT_EQ(ze_test_copy(&t, a + 4096, src, 5 * 4096),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(ze_test_copy(&t, dst, b + N - 10, 4096),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(ze_test_copy(&t, NULL, src, 1),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(
            zeCommandListAppendMemoryCopy(NULL, a, src, 1, NULL, 0, NULL),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, b), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeCommands, Fills) {
    ZE_TEST_SETUP(t);
    enum { N = 1000 };
    unsigned char *d = ze_test_alloc_device(&t, N, 0);
    UMF_ASSERT(d != NULL);
    unsigned char out[N];
    const size_t sizes[] = {1, 2, 4, 16, 128};
    for (int s = 0; s < 5; s++) {
        unsigned char pattern[128];
        for (size_t i = 0; i < sizes[s]; i++) {
            pattern[i] = (unsigned char)(i + 1);
        }
        UMF_ASSERT_EQ(zeCommandListAppendMemoryFill(
                          t.list, d, pattern, sizes[s], N - 3, NULL, 0, NULL),
                      ZE_RESULT_SUCCESS);
        memset(out, 0, N);
        UMF_ASSERT_EQ(ze_test_copy(&t, out, d, N - 3), ZE_RESULT_SUCCESS);
        for (size_t i = 0; i < N - 3; i++) {
            if (out[i] != (unsigned char)(i % sizes[s] + 1)) {
                umf_c_test_fail(__FILE__, __LINE__, "fill byte %zu", i);
                break;
            }
        }
    }
    unsigned char pattern[256] = {0};
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(t.list, d, pattern, 3, 9, NULL, 0, NULL),
        ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryFill(t.list, d, pattern, 256, 256,
                                                NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryFill(t.list, d, pattern, 1, 8192,
                                                NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(
            zeCommandListAppendMemoryFill(t.list, d, NULL, 1, 1, NULL, 0, NULL),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    UMF_EXPECT_EQ(zeCommandListAppendMemoryPrefetch(t.list, d, N),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemAdvise(t.list, t.devices[0], d, N,
                                     ZE_MEMORY_ADVICE_SET_READ_MOSTLY),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, d), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeCommands, QueueListEventFence) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    int64_t lists = ctl->get_object_count("command list");
    ze_command_queue_handle_t q;
    UMF_ASSERT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], &queue_desc, &q),
                  ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                 0};
    ze_command_list_handle_t l;
    UMF_ASSERT_EQ(zeCommandListCreate(t.ctx, t.devices[0], &ld, &l),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_object_count("command list"), lists + 1);
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
    ze_event_pool_handle_t pool;
    UMF_ASSERT_EQ(zeEventPoolCreate(t.ctx, &pd, 1, t.devices, &pool),
                  ZE_RESULT_SUCCESS);
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
                          ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t done, go;
    UMF_ASSERT_EQ(zeEventCreate(pool, &ed, &done), ZE_RESULT_SUCCESS);
    ed.index = 1;
    UMF_ASSERT_EQ(zeEventCreate(pool, &ed, &go), ZE_RESULT_SUCCESS);
    ed.index = 4;
    ze_event_handle_t bad;
    UMF_EXPECT_EQ(zeEventCreate(pool, &ed, &bad),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_fence_desc_t fdesc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_fence_handle_t fence;
    UMF_ASSERT_EQ(zeFenceCreate(q, &fdesc, &fence), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, 0), ZE_RESULT_NOT_READY);

    char *d = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(d != NULL);
    char in[64] = "recorded, then executed", out[64] = {0};
    // Recorded now, run at execution: the data is read then.
    UMF_ASSERT_EQ(zeCommandListAppendWaitOnEvents(l, 1, &go),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListAppendMemoryCopy(l, d, in, 64, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListAppendBarrier(l, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListAppendMemoryCopy(l, out, d, 64, done, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // not closed
    UMF_ASSERT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendBarrier(l, NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // closed
    // Waits for an event nobody signalled yet: runs when it is.
    UMF_ASSERT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, fence),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, 1000), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(out[0], 0);
    UMF_ASSERT_EQ(zeEventHostSignal(go), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX), ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(zeFenceReset(fence), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostReset(done), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
    // Reset and reuse the list: signal, then reset an event.
    UMF_ASSERT_EQ(zeCommandListReset(l), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListAppendSignalEvent(l, done), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListAppendEventReset(l, go), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(go), ZE_RESULT_NOT_READY);
    // Immediate lists are not for queues; nor are zero lists.
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &t.list, NULL),
                  ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 0, &l, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    // An asynchronous immediate list waiting on an unsignalled event: the
    // copy runs when the host signals it.
    ze_command_queue_desc_t ad = queue_desc;
    ad.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    ze_command_list_handle_t imm;
    UMF_ASSERT_EQ(zeCommandListCreateImmediate(t.ctx, t.devices[0], &ad, &imm),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeEventHostReset(done), ZE_RESULT_SUCCESS);
    memset(out, 0, sizeof(out));
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(imm, out, d, 64, done, 1, &go),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
    UMF_ASSERT_EQ(zeEventHostSignal(go), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);

    UMF_EXPECT_EQ(zeEventDestroy(done), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(go), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceDestroy(fence), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_object_count("command list"), lists);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeCommandListDestroy(l),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeEventDestroy(done),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeFenceDestroy(fence),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeCommandQueueDestroy(q),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, d), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeCommands, CreateErrors) {
    ZE_TEST_SETUP(t);
    ze_command_queue_desc_t qd = queue_desc;
    ze_command_queue_handle_t q;
    ze_command_list_handle_t l;
    qd.ordinal = 1; // there is one queue group
    UMF_EXPECT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], &qd, &q),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeCommandListCreateImmediate(t.ctx, t.devices[0], &qd, &l),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    qd = queue_desc;
    qd.mode = (ze_command_queue_mode_t)9;
    UMF_EXPECT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], &qd, &q),
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL, 0, 0};
    ze_event_pool_handle_t pool;
    UMF_EXPECT_EQ(zeEventPoolCreate(t.ctx, &pd, 0, NULL, &pool),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], NULL, &q),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeCommandQueueCreate(NULL, t.devices[0], &queue_desc, &q),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeCommandListCreate(t.ctx, t.devices[0], NULL, &l),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(
            zeCommandListCreateImmediate(t.ctx, NULL, &queue_desc, &l),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeEventPoolCreate(t.ctx, NULL, 0, NULL, &pool),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeEventHostSignal(NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeFenceCreate(NULL, NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

typedef struct signaller_t {
    ze_event_handle_t event;
} signaller_t;

static void *signal_later(void *arg) {
    signaller_t *s = arg;
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    zeEventHostSignal(s->event);
    return NULL;
}

UMF_C_TEST(ZeCommands, HostSynchronizeWaitsForAnotherThread) {
    ZE_TEST_SETUP(t);
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    UMF_ASSERT_EQ(zeEventPoolCreate(t.ctx, &pd, 0, NULL, &pool),
                  ZE_RESULT_SUCCESS);
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, 0, 0};
    signaller_t s;
    UMF_ASSERT_EQ(zeEventCreate(pool, &ed, &s.event), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(s.event, 1000), ZE_RESULT_NOT_READY);
    pthread_t th;
    UMF_ASSERT_EQ(pthread_create(&th, NULL, signal_later, &s), 0);
    UMF_EXPECT_EQ(zeEventHostSynchronize(s.event, UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    pthread_join(th, NULL);
    UMF_EXPECT_EQ(zeEventDestroy(s.event), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// Copies, fills, prefetches and advice stop at the size asked for, not at
// the end of the allocation's last page (the rule the CUDA driver follows
// too).
UMF_C_TEST(ZeCommands, RangesStopAtTheRequestedSizeNotThePage) {
    ZE_TEST_SETUP(t);
    enum { N = 1000 };
    static unsigned char buf[8192];
    unsigned char *d = ze_test_alloc_device(&t, N, 0);
    UMF_ASSERT(d != NULL);
    UMF_EXPECT_EQ(ze_test_copy(&t, d, buf, N), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ze_test_copy(&t, buf, d + N, 0), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ze_test_copy(&t, d, buf, N + 1),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(ze_test_copy(&t, buf, d, 4096), ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(ze_test_copy(&t, buf, d + N - 1, 2),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(ze_test_copy(&t, buf, d + N + 8, 1),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    unsigned char pattern = 0x5a;
    UMF_EXPECT_EQ(zeCommandListAppendMemoryFill(t.list, d, &pattern, 1, N + 1,
                                                NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryPrefetch(t.list, d, N + 1),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemAdvise(t.list, t.devices[0], d, 4096,
                                     ZE_MEMORY_ADVICE_SET_READ_MOSTLY),
        ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, d), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}
