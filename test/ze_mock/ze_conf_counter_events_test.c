// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: counter-based events, Intel's extension reached by name
// (zexCounterBasedEventCreate2), from the words of Level Zero's
// counter-based event description: "Counter-based events can be used only
// with in-orders lists, whether those are regular or immediate"; "must not
// be reset"; "must not be signaled from host"; "may be reused multiple
// times without a need for reset"; "may be used on multiple command
// lists"; "a signaled counter-based event always represents the
// completion of the last call to which it was passed as signal event";
// and from Intel's counter-based events guide: "After creation, a CB Event
// is initially marked as completed", zeEventHostSignal and
// zeEventHostReset "not allowed" (Intel's driver: UNSUPPORTED_FEATURE).
// Where the driver has no such function the tests end at once; they take
// the driver's own handles, so they run where calls reach it directly.

#include <stdint.h>
#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

// Intel's zex_counter_based_event_desc_t and its values (zex_event.h).
typedef struct cb_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint32_t flags;
    ze_event_scope_flags_t signalScope;
    ze_event_scope_flags_t waitScope;
} cb_desc_t;
#define CB_STYPE ((ze_structure_type_t)0x0003001C)
#define CB_IMMEDIATE (1u << 0)
#define CB_NON_IMMEDIATE (1u << 1)
#define CB_HOST_VISIBLE (1u << 2)
#define CB_IPC (1u << 3)
#define CB_KERNEL_TIMESTAMP (1u << 4)
// ZE_COMMAND_QUEUE_FLAG_IN_ORDER and ZE_COMMAND_LIST_FLAG_IN_ORDER (1.7).
#define QUEUE_IN_ORDER (1u << 1)
#define LIST_IN_ORDER (1u << 3)

typedef ze_result_t(ZE_APICALL *create_fn)(ze_context_handle_t,
                                           ze_device_handle_t,
                                           const cb_desc_t *,
                                           ze_event_handle_t *);

static create_fn creator(ze_test_t *t) {
    void *p = NULL;
    if (!ze_test_direct_tables() ||
        zeDriverGetExtensionFunctionAddress(t->driver,
                                            "zexCounterBasedEventCreate2",
                                            &p) != ZE_RESULT_SUCCESS) {
        return NULL;
    }
    return (create_fn)p;
}

static ze_event_handle_t cb_event(ze_test_t *t, create_fn create) {
    cb_desc_t d = {CB_STYPE, NULL,
                   CB_IMMEDIATE | CB_NON_IMMEDIATE | CB_HOST_VISIBLE,
                   ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t e = NULL;
    UMF_EXPECT_EQ(create(t->ctx, t->devices[0], &d, &e), ZE_RESULT_SUCCESS);
    return e;
}

// An in-order asynchronous immediate list, or NULL where the loader's
// validation layer refuses the 1.7 flag it does not know.
static ze_command_list_handle_t in_order_immediate(ze_test_t *t) {
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  QUEUE_IN_ORDER,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t l = NULL;
    ze_result_t r =
        zeCommandListCreateImmediate(t->ctx, t->devices[0], &qd, &l);
    if (r == ZE_RESULT_ERROR_INVALID_ENUMERATION &&
        ze_test_validation_layer()) {
        return NULL;
    }
    UMF_EXPECT_EQ(r, ZE_RESULT_SUCCESS);
    return l;
}

// An asynchronous queue (not in order: the lists say how they run), or
// NULL with a test failure.
static ze_command_queue_handle_t async_queue(ze_test_t *t) {
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t q = NULL;
    UMF_EXPECT_EQ(zeCommandQueueCreate(t->ctx, t->devices[0], &qd, &q),
                  ZE_RESULT_SUCCESS);
    return q;
}

UMF_C_TEST(zexCounterBasedEventCreate2, ArgumentsAndWhatIsNotAllowed) {
    ZE_TEST_SETUP(t);
    create_fn create = creator(&t);
    ze_command_list_handle_t l = create != NULL ? in_order_immediate(&t) : NULL;
    if (l == NULL) {
        ze_test_teardown(&t);
        return;
    }
    cb_desc_t d = {CB_STYPE, NULL, CB_IMMEDIATE, 0, 0};
    ze_event_handle_t e = NULL;
    // Intel's driver answers INVALID_ARGUMENT for a NULL device or output
    // and does not look at the context; ours names the NULL.
    UMF_EXPECT(create(t.ctx, NULL, &d, &e) != ZE_RESULT_SUCCESS);
    UMF_EXPECT(create(t.ctx, t.devices[0], &d, NULL) != ZE_RESULT_SUCCESS);
    // A NULL descriptor is Intel's default one (zex_event.h).
    e = NULL;
    UMF_EXPECT_EQ(create(t.ctx, t.devices[0], NULL, &e), ZE_RESULT_SUCCESS);
    UMF_EXPECT(e != NULL);
    if (e != NULL) {
        UMF_EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
    }
    if (ze_test_control_if_emulated() != NULL) {
        UMF_EXPECT_EQ(create(NULL, t.devices[0], &d, &e),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(create(t.ctx, NULL, &d, &e),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(create(t.ctx, t.devices[0], &d, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        cb_desc_t bad = d;
        bad.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
        UMF_EXPECT_EQ(create(t.ctx, t.devices[0], &bad, &e),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        bad = d;
        bad.flags = 1u << 6;
        UMF_EXPECT_EQ(create(t.ctx, t.devices[0], &bad, &e),
                      ZE_RESULT_ERROR_INVALID_ENUMERATION);
        bad = d;
        bad.flags |= CB_IPC; // its IPC entry points are not emulated
        UMF_EXPECT_EQ(create(t.ctx, t.devices[0], &bad, &e),
                      ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    e = cb_event(&t, create);
    UMF_ASSERT(e != NULL);
    // Completed at creation: a host wait and a list's wait pass at once.
    UMF_EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e, 0), ZE_RESULT_SUCCESS);
    ze_event_handle_t done;
    ze_event_pool_handle_t pool = ze_test_events(&t, 1, 0, &done);
    UMF_ASSERT(pool != NULL);
    UMF_EXPECT_EQ(zeCommandListAppendBarrier(l, done, 1, &e),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, 1, &done);
    // Never from the host, never reset; signalled by in-order lists.
    UMF_EXPECT_EQ(zeEventHostSignal(e), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(zeEventHostReset(e), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (ze_test_control_if_emulated() != NULL) {
        UMF_EXPECT_EQ(zeCommandListAppendEventReset(l, e),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(t.list, e),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT); // not in order
    }
    UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(l, e), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// Reused without reset, on two lists: each submission takes the event, and
// only the last one's completion signals it.
UMF_C_TEST(zexCounterBasedEventCreate2, TheLastSubmissionSignalsIt) {
    ZE_TEST_SETUP(t);
    create_fn create = creator(&t);
    ze_command_list_handle_t a = create != NULL ? in_order_immediate(&t) : NULL;
    ze_command_list_handle_t b = a != NULL ? in_order_immediate(&t) : NULL;
    if (b == NULL) {
        if (a != NULL) {
            zeCommandListDestroy(a);
        }
        ze_test_teardown(&t);
        return;
    }
    ze_event_handle_t go[3]; // the host's two, and a's end
    ze_event_pool_handle_t pool = ze_test_events(&t, 3, 0, go);
    ze_event_handle_t cb = cb_event(&t, create);
    char *dev = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(pool != NULL && cb != NULL && dev != NULL);
    char host[4096];
    memset(host, 0x11, sizeof(host));

    // Two submissions, each held back by an event of the host's.
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(a, dev, host, 2048, cb, 1, &go[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(b, dev + 2048, host, 2048, cb, 1, &go[1]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(cb), ZE_RESULT_NOT_READY);
    // The first one completes: the event still stands for the second.
    UMF_EXPECT_EQ(zeEventHostSignal(go[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendBarrier(a, go[2], 0, NULL),
                  ZE_RESULT_SUCCESS); // after a's copy, in order
    UMF_EXPECT_EQ(zeEventHostSynchronize(go[2], UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(cb), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSignal(go[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(cb, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, dev, 0x11, 4096));

    // Reused without reset: a new submission takes it again.
    UMF_EXPECT_EQ(zeEventHostReset(go[0]), ZE_RESULT_SUCCESS);
    memset(host, 0x22, sizeof(host));
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(a, dev, host, 4096, cb, 1, &go[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(cb), ZE_RESULT_NOT_READY);
    // Another list waits for it (any list may), then its copy runs.
    char back[4096];
    memset(back, 0, sizeof(back));
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(b, back, dev, 4096, go[1], 1, &cb),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostReset(go[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSignal(go[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(cb, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(go[1], UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT(back[0] == 0x22 && back[4095] == 0x22);

    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(cb), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, 3, go);
    UMF_EXPECT_EQ(zeCommandListDestroy(a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(b), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// A regular in-order list signals it at each execution.
UMF_C_TEST(zexCounterBasedEventCreate2, EachExecutionOfARegularList) {
    ZE_TEST_SETUP(t);
    create_fn create = creator(&t);
    if (create == NULL) {
        ze_test_teardown(&t);
        return;
    }
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                 LIST_IN_ORDER};
    ze_command_list_handle_t l = NULL;
    ze_result_t r = zeCommandListCreate(t.ctx, t.devices[0], &ld, &l);
    if (r == ZE_RESULT_ERROR_INVALID_ENUMERATION &&
        ze_test_validation_layer()) {
        ze_test_teardown(&t);
        return; // the layer does not know the 1.7 flag
    }
    UMF_ASSERT_EQ(r, ZE_RESULT_SUCCESS);
    ze_event_handle_t go;
    ze_event_pool_handle_t pool = ze_test_events(&t, 1, 0, &go);
    ze_event_handle_t cb = cb_event(&t, create);
    UMF_ASSERT(pool != NULL && cb != NULL);
    UMF_EXPECT_EQ(zeCommandListAppendBarrier(l, cb, 1, &go), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    ze_command_queue_handle_t q = async_queue(&t);
    UMF_ASSERT(q != NULL);
    for (int run = 0; run < 2; run++) {
        UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventQueryStatus(cb), ZE_RESULT_NOT_READY);
        UMF_EXPECT_EQ(zeEventHostSignal(go), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostSynchronize(cb, UINT64_MAX),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostReset(go), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(cb), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, 1, &go);
    ze_test_teardown(&t);
}

// "CB Event can be waited for from any command list type": a regular list
// that is not in order, executed on a queue of its own, waits for the
// submission of an immediate in-order list that signals it.
UMF_C_TEST(zexCounterBasedEventCreate2, ARegularListWaitsForIt) {
    ZE_TEST_SETUP(t);
    create_fn create = creator(&t);
    ze_command_list_handle_t imm =
        create != NULL ? in_order_immediate(&t) : NULL;
    if (imm == NULL) {
        ze_test_teardown(&t);
        return;
    }
    ze_event_handle_t ev[2]; // the host's go, the regular list's end
    ze_event_pool_handle_t pool = ze_test_events(&t, 2, 0, ev);
    ze_event_handle_t cb = cb_event(&t, create);
    char *dev = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(pool != NULL && cb != NULL && dev != NULL);
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                 0}; // not in order: it may wait all the same
    ze_command_list_handle_t reg = NULL;
    UMF_ASSERT_EQ(zeCommandListCreate(t.ctx, t.devices[0], &ld, &reg),
                  ZE_RESULT_SUCCESS);
    ze_command_queue_handle_t q = async_queue(&t);
    UMF_ASSERT(q != NULL);
    char host[4096], back[4096];
    memset(back, 0, sizeof(back));
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(reg, back, dev, 4096, ev[1], 1, &cb),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(reg), ZE_RESULT_SUCCESS);
    for (int run = 0; run < 2; run++) {
        memset(host, 0x30 + run, sizeof(host));
        UMF_EXPECT_EQ(
            zeCommandListAppendMemoryCopy(imm, dev, host, 4096, cb, 1, &ev[0]),
            ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &reg, NULL),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventQueryStatus(ev[1]), ZE_RESULT_NOT_READY);
        UMF_EXPECT_EQ(zeEventHostSignal(ev[0]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventQueryStatus(cb), ZE_RESULT_SUCCESS);
        UMF_EXPECT(back[0] == 0x30 + run && back[4095] == 0x30 + run);
        UMF_EXPECT_EQ(zeEventHostReset(ev[0]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostReset(ev[1]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(cb), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, 2, ev);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(reg), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// The Unified Runtime's profiled events: KERNEL_TIMESTAMP keeps the last
// submission's timestamps ("Timestamp allocation is also handled
// internally by the Driver").
UMF_C_TEST(zexCounterBasedEventCreate2, KernelTimestamps) {
    ZE_TEST_SETUP(t);
    create_fn create = creator(&t);
    ze_command_list_handle_t l = create != NULL ? in_order_immediate(&t) : NULL;
    if (l == NULL) {
        ze_test_teardown(&t);
        return;
    }
    cb_desc_t d = {CB_STYPE, NULL,
                   CB_IMMEDIATE | CB_NON_IMMEDIATE | CB_HOST_VISIBLE |
                       CB_KERNEL_TIMESTAMP,
                   ZE_EVENT_SCOPE_FLAG_HOST, 0};
    ze_event_handle_t cb = NULL;
    UMF_ASSERT_EQ(create(t.ctx, t.devices[0], &d, &cb), ZE_RESULT_SUCCESS);
    char *dev = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(dev != NULL);
    char host[4096];
    memset(host, 0x5a, sizeof(host));
    for (int run = 0; run < 2; run++) {
        UMF_EXPECT_EQ(
            zeCommandListAppendMemoryCopy(l, dev, host, 4096, cb, 0, NULL),
            ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostSynchronize(cb, UINT64_MAX),
                      ZE_RESULT_SUCCESS);
        ze_kernel_timestamp_result_t ts;
        memset(&ts, 0, sizeof(ts));
        UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(cb, &ts), ZE_RESULT_SUCCESS);
        UMF_EXPECT(ts.global.kernelEnd != 0);
        UMF_EXPECT(ts.global.kernelEnd >= ts.global.kernelStart);
        UMF_EXPECT(ts.context.kernelEnd >= ts.context.kernelStart);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(cb), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}
