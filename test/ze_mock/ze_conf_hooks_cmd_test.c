// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance of the command list, queue and event entries of Level Zero
// 1.6 to 1.9 that the Debian loader (API 1.4) lacks: zeCommandListHost-
// Synchronize, the command list and queue queries, the event and event
// pool queries, zeEventQueryKernelTimestampsExt, and the experimental
// zeCommandListImmediateAppendCommandListsExp and zeCommandListCreate-
// CloneExp. These tests ask the emulated driver's table getters for them
// at the newest version, as a current loader does, and call them with the
// driver's own handles (not in the loader's intercept mode, where handles
// are the loader's).

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "c_test.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

#define MS 1000000ull

typedef struct tables_t {
    ze_mock_device_dditable_t device;
    ze_mock_command_list_dditable_t list;
    ze_mock_command_queue_dditable_t queue;
    ze_mock_command_list_exp_dditable_t list_exp;
    ze_mock_event_dditable_t event;
    ze_mock_event_pool_dditable_t pool;
} tables_t;

typedef ze_result_t(ZE_APICALL *getter_fn)(ze_api_version_t, void *);

static bool get_table(const char *getter, ze_api_version_t version,
                      void *table) {
    getter_fn g = (getter_fn)ze_test_driver_symbol(getter);
    return g != NULL && g(version, table) == ZE_RESULT_SUCCESS;
}

// The newest tables; false (after the teardown) where there is none to ask
// or the handles are the loader's.
static bool tables_setup(ze_test_t *t, tables_t *tb) {
    memset(tb, 0, sizeof(*tb));
    if (ze_test_control_if_emulated() == NULL || ze_test_intercept()) {
        ze_test_teardown(t);
        return false;
    }
    ze_api_version_t v = ZE_MOCK_API_VERSION_NEWEST;
    if (!get_table("zeGetDeviceProcAddrTable", v, &tb->device) ||
        !get_table("zeGetCommandListProcAddrTable", v, &tb->list) ||
        !get_table("zeGetCommandQueueProcAddrTable", v, &tb->queue) ||
        !get_table("zeGetCommandListExpProcAddrTable", v, &tb->list_exp) ||
        !get_table("zeGetEventProcAddrTable", v, &tb->event) ||
        !get_table("zeGetEventPoolProcAddrTable", v, &tb->pool)) {
        umf_c_test_fail(__FILE__, __LINE__, "the driver's newest tables");
        ze_test_teardown(t);
        return false;
    }
    return true;
}

#define TABLES_SETUP(t, tb)                                                    \
    ZE_TEST_SETUP(t);                                                          \
    tables_t tb;                                                               \
    if (!tables_setup(&t, &tb)) {                                              \
        return;                                                                \
    }

// Lists and pools are made through the driver's own tables: flags newer
// than 1.4 would not pass Debian's validation layer.
static ze_command_list_handle_t immediate(ze_test_t *t, const tables_t *tb,
                                          uint32_t flags) {
    ze_command_queue_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                 NULL,
                                 0,
                                 0,
                                 flags,
                                 ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                 ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t l = NULL;
    UMF_EXPECT_EQ(
        tb->list.v1_4.pfnCreateImmediate(t->ctx, t->devices[0], &d, &l),
        ZE_RESULT_SUCCESS);
    return l;
}

static ze_command_list_handle_t regular(ze_test_t *t, const tables_t *tb,
                                        uint32_t flags) {
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                flags};
    ze_command_list_handle_t l = NULL;
    UMF_EXPECT_EQ(tb->list.v1_4.pfnCreate(t->ctx, t->devices[0], &d, &l),
                  ZE_RESULT_SUCCESS);
    return l;
}

static ze_event_pool_handle_t pool_of(ze_test_t *t, const tables_t *tb,
                                      uint32_t flags, uint32_t count,
                                      ze_event_handle_t *e) {
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE | flags, count};
    ze_event_pool_handle_t pool = NULL;
    UMF_EXPECT_EQ(tb->pool.v1_4.pfnCreate(t->ctx, &pd, 0, NULL, &pool),
                  ZE_RESULT_SUCCESS);
    for (uint32_t i = 0; pool != NULL && i < count; i++) {
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i,
                              ZE_EVENT_SCOPE_FLAG_HOST,
                              ZE_EVENT_SCOPE_FLAG_DEVICE};
        UMF_EXPECT_EQ(zeEventCreate(pool, &ed, &e[i]), ZE_RESULT_SUCCESS);
    }
    return pool;
}

static void pool_free(ze_event_pool_handle_t pool, uint32_t count,
                      ze_event_handle_t *e) {
    for (uint32_t i = 0; i < count; i++) {
        UMF_EXPECT_EQ(zeEventDestroy(e[i]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
}

// A loader of 1.4 gets none of it: the getters write nothing past the 1.4
// tables.
UMF_C_TEST(ZeHooksCommands, NothingPastThe14TablesFor14) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    const void *canary = (const void *)(uintptr_t)0x5ca1ab1eu;
    ze_mock_command_list_dditable_t lt;
    ze_mock_event_dditable_t et;
    memset(&lt, 0, sizeof(lt));
    memset(&et, 0, sizeof(et));
    memcpy(&lt.pfnHostSynchronize, &canary, sizeof(canary));
    memcpy(&et.pfnQueryKernelTimestampsExt, &canary, sizeof(canary));
    UMF_EXPECT(
        get_table("zeGetCommandListProcAddrTable", ZE_API_VERSION_1_4, &lt));
    UMF_EXPECT(get_table("zeGetEventProcAddrTable", ZE_API_VERSION_1_4, &et));
    UMF_EXPECT(lt.v1_4.pfnAppendMemoryCopyRegion != NULL);
    UMF_EXPECT(lt.v1_4.pfnAppendWriteGlobalTimestamp != NULL);
    UMF_EXPECT(et.v1_4.pfnQueryKernelTimestamp != NULL);
    UMF_EXPECT((const void *)lt.pfnHostSynchronize == canary);
    UMF_EXPECT((const void *)et.pfnQueryKernelTimestampsExt == canary);
    UMF_EXPECT(get_table("zeGetCommandListProcAddrTable",
                         ZE_MOCK_API_VERSION_NEWEST, &lt));
    UMF_EXPECT(lt.pfnHostSynchronize != NULL &&
               (const void *)lt.pfnHostSynchronize != canary);
}

// "Synchronizes an immediate command list by waiting on the host for the
// completion of all commands previously submitted to it", with the
// timeout; INVALID_ARGUMENT "handle does not correspond to an immediate
// command list".
UMF_C_TEST(zeCommandListHostSynchronize, WaitsForDeferredWork) {
    TABLES_SETUP(t, tb);
    ze_command_list_handle_t imm = immediate(&t, &tb, 0),
                             reg = regular(&t, &tb, 0);
    ze_event_handle_t e[2];
    ze_event_pool_handle_t pool = pool_of(&t, &tb, 0, 2, e);
    UMF_ASSERT(imm != NULL && reg != NULL && pool != NULL);
    UMF_EXPECT_EQ(tb.list.pfnHostSynchronize(imm, 0), ZE_RESULT_SUCCESS);
    char in[32] = "host synchronize", out[32] = {0};
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(imm, out, in, 32, e[1], 1, &e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(tb.list.pfnHostSynchronize(imm, 0), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(tb.list.pfnHostSynchronize(imm, 2 * MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSignal(e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(tb.list.pfnHostSynchronize(imm, UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(zeEventQueryStatus(e[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(tb.list.pfnHostSynchronize(reg, 0),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(tb.list.pfnHostSynchronize(NULL, 0),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    pool_free(pool, 2, e);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(reg), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// The command list and queue queries of 1.9: the device and context the
// list was made on, ordinal and index (one group of one queue), whether it
// is immediate; INVALID_NULL_POINTER for each output, INVALID_ARGUMENT for
// the index of a regular list.
UMF_C_TEST(zeCommandListGetDeviceHandle, QueriesOfListsAndQueues) {
    TABLES_SETUP(t, tb);
    ze_command_list_handle_t imm = immediate(&t, &tb, 0),
                             reg = regular(&t, &tb, 0);
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t q;
    UMF_ASSERT_EQ(zeCommandQueueCreate(t.ctx, t.devices[1], &qd, &q),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT(imm != NULL && reg != NULL);
    ze_device_handle_t dev = NULL;
    ze_context_handle_t ctx = NULL;
    uint32_t n = 7;
    ze_bool_t is = 2;
    UMF_EXPECT_EQ(tb.list.pfnGetDeviceHandle(reg, &dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT(dev == t.devices[0]);
    UMF_EXPECT_EQ(tb.list.pfnGetContextHandle(imm, &ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT(ctx == t.ctx);
    UMF_EXPECT_EQ(tb.list.pfnGetOrdinal(imm, &n), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    n = 7;
    UMF_EXPECT_EQ(tb.list.pfnImmediateGetIndex(imm, &n), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    UMF_EXPECT_EQ(tb.list.pfnImmediateGetIndex(reg, &n),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(tb.list.pfnIsImmediate(imm, &is), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(is, 1);
    UMF_EXPECT_EQ(tb.list.pfnIsImmediate(reg, &is), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(is, 0);
    n = 7;
    UMF_EXPECT_EQ(tb.queue.pfnGetOrdinal(q, &n), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    n = 7;
    UMF_EXPECT_EQ(tb.queue.pfnGetIndex(q, &n), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    UMF_EXPECT_EQ(tb.list.pfnGetDeviceHandle(reg, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(tb.list.pfnGetContextHandle(reg, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(tb.list.pfnIsImmediate(NULL, &is),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(tb.queue.pfnGetIndex(q, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(reg), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// The event and event pool queries of 1.9: the pool, the scopes it was made
// with, the pool's context and flags.
UMF_C_TEST(zeEventGetEventPool, QueriesOfEventsAndPools) {
    TABLES_SETUP(t, tb);
    ze_event_handle_t e[1];
    ze_event_pool_handle_t pool =
        pool_of(&t, &tb, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 1, e);
    UMF_ASSERT(pool != NULL);
    ze_event_pool_handle_t p = NULL;
    ze_event_scope_flags_t scope = 0;
    ze_context_handle_t ctx = NULL;
    ze_event_pool_flags_t flags = 0;
    UMF_EXPECT_EQ(tb.event.pfnGetEventPool(e[0], &p), ZE_RESULT_SUCCESS);
    UMF_EXPECT(p == pool);
    UMF_EXPECT_EQ(tb.event.pfnGetSignalScope(e[0], &scope), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(scope, ZE_EVENT_SCOPE_FLAG_HOST);
    UMF_EXPECT_EQ(tb.event.pfnGetWaitScope(e[0], &scope), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(scope, ZE_EVENT_SCOPE_FLAG_DEVICE);
    UMF_EXPECT_EQ(tb.pool.pfnGetContextHandle(pool, &ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT(ctx == t.ctx);
    UMF_EXPECT_EQ(tb.pool.pfnGetFlags(pool, &flags), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(flags,
                  (ze_event_pool_flags_t)(ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
                                          ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    UMF_EXPECT_EQ(tb.event.pfnGetEventPool(e[0], NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(tb.event.pfnGetWaitScope(NULL, &scope),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(tb.pool.pfnGetFlags(pool, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    pool_free(pool, 1, e);
    ze_test_teardown(&t);
}

// The results of zeEventQueryKernelTimestampsExt structure (1.6).
typedef struct results_ext_t {
    ze_structure_type_t stype;
    void *pNext;
    ze_kernel_timestamp_result_t *pKernelTimestampsBuffer;
    ze_kernel_timestamp_result_t *pSynchronizedTimestampsBuffer;
} results_ext_t;

// "Query an event's timestamp value on the host, with domain preference":
// the count, then the kernel and (for a KERNEL_MAPPED_TIMESTAMP pool) the
// synchronized timestamps, the same as zeEventQueryKernelTimestamp's.
UMF_C_TEST(zeEventQueryKernelTimestampsExt, KernelAndSynchronized) {
    TABLES_SETUP(t, tb);
    const uint32_t mapped = 1u << 3; // ..._KERNEL_MAPPED_TIMESTAMP, 1.6
    ze_event_handle_t e[1];
    ze_event_pool_handle_t pool = pool_of(&t, &tb, mapped, 1, e);
    UMF_ASSERT(pool != NULL);
    unsigned char *d = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(d != NULL);
    const unsigned char v = 1;
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(t.list, d, &v, 1, 4096, e[0], 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e[0], UINT64_MAX), ZE_RESULT_SUCCESS);
    // One result per sub-device of a device that has them, else one.
    uint32_t count = 0;
    UMF_EXPECT_EQ(
        tb.event.pfnQueryKernelTimestampsExt(e[0], t.devices[0], &count, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT(count >= 1 && count <= 8);
    ze_kernel_timestamp_result_t k[8], s[8], plain;
    results_ext_t r = {(ze_structure_type_t)0x10012, NULL, k, s};
    count = 8;
    UMF_EXPECT_EQ(
        tb.event.pfnQueryKernelTimestampsExt(e[0], t.devices[0], &count, &r),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(e[0], &plain), ZE_RESULT_SUCCESS);
    for (uint32_t i = 0; i < count && i < 8; i++) {
        UMF_EXPECT(memcmp(&k[i], &plain, sizeof(plain)) == 0);
        UMF_EXPECT(memcmp(&s[i], &plain, sizeof(plain)) == 0);
    }
    UMF_EXPECT(k[0].global.kernelStart <= k[0].global.kernelEnd);
    UMF_EXPECT_EQ(
        tb.event.pfnQueryKernelTimestampsExt(e[0], t.devices[0], NULL, &r),
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, d), ZE_RESULT_SUCCESS);
    pool_free(pool, 1, e);
    ze_test_teardown(&t);
}

// zeCommandListImmediateAppendCommandListsExp runs closed regular lists on
// an immediate one, after the wait events, signalling after them all.
UMF_C_TEST(zeCommandListImmediateAppendCommandListsExp, RunsRegularLists) {
    TABLES_SETUP(t, tb);
    ze_command_list_handle_t imm = immediate(&t, &tb, 1u << 1); // in order
    ze_command_list_handle_t reg[2] = {regular(&t, &tb, 0),
                                       regular(&t, &tb, 0)};
    ze_event_handle_t e[2];
    ze_event_pool_handle_t pool = pool_of(&t, &tb, 0, 2, e);
    UMF_ASSERT(imm != NULL && reg[0] != NULL && reg[1] != NULL && pool != NULL);
    char in[16] = "appended", mid[16] = {0}, out[16] = {0};
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(reg[0], mid, in, 16, NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(reg[1], out, mid, 16, NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(tb.list_exp.pfnImmediateAppendCommandListsExp(imm, 2, reg,
                                                                e[1], 1, &e[0]),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // not closed
    UMF_EXPECT_EQ(zeCommandListClose(reg[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(reg[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(tb.list_exp.pfnImmediateAppendCommandListsExp(imm, 2, reg,
                                                                e[1], 1, &e[0]),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(e[1]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(out[0], 0);
    UMF_EXPECT_EQ(zeEventHostSignal(e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e[1], UINT64_MAX), ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(tb.list_exp.pfnImmediateAppendCommandListsExp(reg[0], 1, reg,
                                                                NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // not immediate
    UMF_EXPECT_EQ(tb.list_exp.pfnImmediateAppendCommandListsExp(imm, 1, NULL,
                                                                NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    pool_free(pool, 2, e);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(reg[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(reg[1]), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// zeCommandListCreateCloneExp: a closed list made cloneable gives a closed
// list with the same commands; another is refused.
UMF_C_TEST(zeCommandListCreateCloneExp, ClonesAClosedCloneableList) {
    TABLES_SETUP(t, tb);
    const uint32_t cloneable = 1u << 4; // ..._EXP_CLONEABLE, 1.9
    ze_command_list_handle_t l = regular(&t, &tb, cloneable),
                             plain = regular(&t, &tb, 0);
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t q;
    UMF_ASSERT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], &qd, &q),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT(l != NULL && plain != NULL);
    char in[8] = "clone", out[8] = {0};
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, out, in, 8, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    ze_command_list_handle_t c;
    UMF_EXPECT_EQ(tb.list_exp.pfnCreateCloneExp(l, &c),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // not closed
    UMF_EXPECT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(plain), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(tb.list_exp.pfnCreateCloneExp(plain, &c),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // not cloneable
    UMF_ASSERT_EQ(tb.list_exp.pfnCreateCloneExp(l, &c), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &c, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX), ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(zeCommandListDestroy(c), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(plain), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// zeDeviceSynchronize (1.14): "synchronizes all command queues and
// immediate command lists related to the device": it returns when their
// work ran, also work that waited for another thread's signal.
typedef struct signaller_t {
    pthread_t thread;
    ze_event_handle_t event;
} signaller_t;

static void *signal_soon(void *arg) {
    signaller_t *s = arg;
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    zeEventHostSignal(s->event);
    return NULL;
}

UMF_C_TEST(zeDeviceSynchronize, WaitsForTheDevicesQueuesAndLists) {
    TABLES_SETUP(t, tb);
    ze_command_list_handle_t imm = immediate(&t, &tb, 0);
    ze_event_handle_t e[2];
    ze_event_pool_handle_t pool = pool_of(&t, &tb, 0, 2, e);
    UMF_ASSERT(imm != NULL && pool != NULL);
    char in[8] = "device", out[8] = {0};
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(imm, out, in, 8, e[1], 1, &e[0]),
        ZE_RESULT_SUCCESS);
    // Another device has nothing to wait for.
    if (t.device_count > 1) {
        UMF_EXPECT_EQ(tb.device.pfnSynchronize(t.devices[1]),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(out[0], 0);
    }
    signaller_t sg = {.event = e[0]};
    UMF_ASSERT_EQ(pthread_create(&sg.thread, NULL, signal_soon, &sg), 0);
    UMF_EXPECT_EQ(tb.device.pfnSynchronize(t.devices[0]), ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(zeEventQueryStatus(e[1]), ZE_RESULT_SUCCESS);
    pthread_join(sg.thread, NULL);
    UMF_EXPECT_EQ(tb.device.pfnSynchronize(NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    pool_free(pool, 2, e);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// Mutable command lists (1.9) are not emulated: the arguments are checked
// as ze_api.h says, then UNSUPPORTED_FEATURE, with the reason.
UMF_C_TEST(zeCommandListGetNextCommandIdExp, MutableListsAreNotEmulated) {
    TABLES_SETUP(t, tb);
    struct {
        ze_structure_type_t stype;
        const void *pNext;
        uint32_t flags;
    } desc = {(ze_structure_type_t)0x00020024, NULL, 0};
    uint64_t id;
    UMF_EXPECT_EQ(tb.list_exp.pfnGetNextCommandIdExp(t.list, &desc, &id),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(tb.list_exp.pfnGetNextCommandIdExp(t.list, NULL, &id),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    desc.flags = 0x100;
    UMF_EXPECT_EQ(tb.list_exp.pfnGetNextCommandIdExp(t.list, &desc, &id),
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
    UMF_EXPECT_EQ(tb.list_exp.pfnGetNextCommandIdExp(NULL, &desc, &id),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(tb.list_exp.pfnUpdateMutableCommandsExp(t.list, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(
        tb.list_exp.pfnUpdateMutableCommandWaitEventsExp(t.list, 1, 1, NULL),
        ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(
        tb.list_exp.pfnUpdateMutableCommandSignalEventExp(t.list, 1, NULL),
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ze_test_teardown(&t);
}
