// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance of command queues, command lists, events and fences where
// work waits: commands that wait for events signalled later (by the host,
// by another queue, by an immediate list) run when they are, in order;
// fences and synchronizations wait for them with their timeouts; a wait
// that never ends times out. Then the 1.4 entries that copy regions, copy
// from other contexts, fill, put barriers and write timestamps, and the
// teardown orders real drivers allow. Through the loader, as a program
// calls them; what a real GPU may do differently (a wait that can never
// end hangs there) is checked on the emulated driver only.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c_test.h"
#include "ze_test_util.h"

#define IN_ORDER_QUEUE_FLAG (1u << 1) // ZE_COMMAND_QUEUE_FLAG_IN_ORDER, 1.7
#define MS 1000000ull

static const umf_test_mock_control_t *emulated(void) {
    return ze_test_control_if_emulated();
}

static ze_command_queue_desc_t queue_desc(ze_command_queue_mode_t mode,
                                          uint32_t flags) {
    ze_command_queue_desc_t d = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, flags, mode,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    return d;
}

// The in-order flag of newer APIs, but not under Debian's validation layer
// (API 1.4), which refuses a flag it does not know.
static uint32_t in_order_flag(void) {
    return ze_test_validation_layer() ? 0 : IN_ORDER_QUEUE_FLAG;
}

static ze_command_list_handle_t immediate(ze_test_t *t, uint32_t flags) {
    return ze_test_immediate(t, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, flags);
}

static ze_command_queue_handle_t queue(ze_test_t *t) {
    ze_command_queue_desc_t d =
        queue_desc(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0);
    ze_command_queue_handle_t q = NULL;
    UMF_EXPECT_EQ(zeCommandQueueCreate(t->ctx, t->devices[0], &d, &q),
                  ZE_RESULT_SUCCESS);
    return q;
}

static ze_command_list_handle_t regular(ze_test_t *t) {
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                0};
    ze_command_list_handle_t l = NULL;
    UMF_EXPECT_EQ(zeCommandListCreate(t->ctx, t->devices[0], &d, &l),
                  ZE_RESULT_SUCCESS);
    return l;
}

typedef struct events_t {
    ze_event_pool_handle_t pool;
    ze_event_handle_t e[8];
    uint32_t count;
} events_t;

static bool events_make(ze_test_t *t, events_t *ev, uint32_t count,
                        ze_event_pool_flags_t flags) {
    ev->count = count;
    ev->pool = ze_test_events(t, count, flags, ev->e);
    return ev->pool != NULL;
}

static void events_free(events_t *ev) {
    ze_test_events_free(ev->pool, ev->count, ev->e);
}

// A host thread that signals an event after a while.
typedef struct later_t {
    pthread_t thread;
    ze_event_handle_t event;
} later_t;

static void *signal_after_a_while(void *arg) {
    later_t *l = arg;
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    UMF_EXPECT_EQ(zeEventHostSignal(l->event), ZE_RESULT_SUCCESS);
    return NULL;
}

static bool signal_later(later_t *l, ze_event_handle_t event) {
    l->event = event;
    return pthread_create(&l->thread, NULL, signal_after_a_while, l) == 0;
}

// The first byte of `n` at `p` that is not `byte`, or n.
static size_t first_not(const unsigned char *p, size_t n, unsigned char byte) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] != byte) {
            return i;
        }
    }
    return n;
}

// ---- Immediate in-order lists -----------------------------------------------

// "Commands appended to the immediate command list are executed in-order,
// with driver implementation enforcing dependencies between them": copies,
// fills and events on one list, with and without events, and after a
// command that waits for the host.
UMF_C_TEST(zeCommandListCreateImmediate, InOrderCopiesFillsAndEvents) {
    ZE_TEST_SETUP(t);
    enum { N = 1 << 20 };
    ze_command_list_handle_t l = immediate(&t, in_order_flag());
    events_t ev;
    UMF_ASSERT(l != NULL && events_make(&t, &ev, 4, 0));
    unsigned char *a = ze_test_alloc_device(&t, N, 0);
    unsigned char *b = ze_test_alloc_device(&t, N, 0);
    unsigned char *out = malloc(N);
    UMF_ASSERT(a != NULL && b != NULL && out != NULL);
    const uint32_t word = 0x11223344u;
    // A fill, a copy of it and a smaller fill on top, one after the other
    // without events between them; the last signals.
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(l, a, &word, 4, N, NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, b, a, N, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    const unsigned char x = 0x7e;
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(l, b, &x, 1, 64, ev.e[0], 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, b, N, ev.e[1], 1, &ev.e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[1], UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(first_not(out, 64, x), 64);
    uint32_t got;
    memcpy(&got, out + 64, 4);
    UMF_EXPECT_EQ(got, word);
    memcpy(&got, out + N - 4, 4);
    UMF_EXPECT_EQ(got, word);
    // A copy that waits for the host, then a fill with no event: the fill
    // runs after the copy, so it is on top of what the copy wrote.
    memset(out, 0, N);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, a, N, NULL, 1, &ev.e[2]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(l, out, &x, 1, 16, ev.e[3], 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[3]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[3], MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(out[20], 0); // nothing ran yet
    later_t later;
    UMF_ASSERT(signal_later(&later, ev.e[2]));
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[3], UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    pthread_join(later.thread, NULL);
    UMF_EXPECT_EQ(first_not(out, 16, x), 16);
    memcpy(&got, out + 16, 4);
    UMF_EXPECT_EQ(got, word);
    free(out);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, b), ZE_RESULT_SUCCESS);
    events_free(&ev);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// ---- Deferred commands ------------------------------------------------------

// A regular list that waits for an event the host signals later: the
// fence, the queue and the events wait for it, with their timeouts.
UMF_C_TEST(zeCommandQueueExecuteCommandLists, WaitsForAHostSignal) {
    ZE_TEST_SETUP(t);
    enum { N = 4096 };
    ze_command_queue_handle_t q = queue(&t);
    ze_command_list_handle_t l = regular(&t);
    events_t ev;
    UMF_ASSERT(q != NULL && l != NULL && events_make(&t, &ev, 2, 0));
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_fence_handle_t fence;
    UMF_ASSERT_EQ(zeFenceCreate(q, &fd, &fence), ZE_RESULT_SUCCESS);
    unsigned char *dev = ze_test_alloc_device(&t, N, 0);
    static unsigned char in[N], out[N];
    memset(in, 0x3c, N);
    memset(out, 0, N);
    UMF_ASSERT(dev != NULL);
    UMF_EXPECT_EQ(zeCommandListAppendWaitOnEvents(l, 1, &ev.e[0]),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, dev, in, N, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendBarrier(l, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, dev, N, ev.e[1], 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, fence),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, 0), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, 0), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[1]), ZE_RESULT_NOT_READY);
    later_t later;
    UMF_ASSERT(signal_later(&later, ev.e[0]));
    UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, UINT64_MAX), ZE_RESULT_SUCCESS);
    pthread_join(later.thread, NULL);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, 0), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(first_not(out, N, 0x3c), N);
    // Again, synchronized on the queue this time.
    UMF_EXPECT_EQ(zeFenceReset(fence), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostReset(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostReset(ev.e[1]), ZE_RESULT_SUCCESS);
    memset(out, 0, N);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[1]), ZE_RESULT_NOT_READY);
    UMF_ASSERT(signal_later(&later, ev.e[0]));
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX), ZE_RESULT_SUCCESS);
    pthread_join(later.thread, NULL);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(first_not(out, N, 0x3c), N);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeFenceDestroy(fence), ZE_RESULT_SUCCESS);
    events_free(&ev);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// Work chained across queues and lists by events: queue B waits for what
// queue A signals, which waits for an immediate list, which waits for the
// host. Submitted in the reverse order of the chain.
UMF_C_TEST(zeCommandQueueExecuteCommandLists, WaitsForAnotherQueue) {
    ZE_TEST_SETUP(t);
    enum { N = 65536 };
    ze_command_queue_handle_t qa = queue(&t), qb = queue(&t);
    ze_command_list_handle_t la = regular(&t), lb = regular(&t);
    ze_command_list_handle_t imm = immediate(&t, 0);
    events_t ev;
    UMF_ASSERT(qa != NULL && qb != NULL && la != NULL && lb != NULL &&
               imm != NULL && events_make(&t, &ev, 4, 0));
    unsigned char *x = ze_test_alloc_device(&t, N, 0);
    unsigned char *y = ze_test_alloc_device(&t, N, 1);
    unsigned char *z = ze_test_alloc_device(&t, N, 0);
    unsigned char *out = calloc(1, N);
    UMF_ASSERT(x != NULL && y != NULL && z != NULL && out != NULL);
    const unsigned char v = 0x66;
    // B: z <- y once A is done; A: y <- x once the list is done; the list:
    // fills x once the host says so.
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(lb, z, y, N, ev.e[3], 1, &ev.e[2]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(la, y, x, N, ev.e[2], 1, &ev.e[1]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(la), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(lb), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(qb, 1, &lb, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(qa, 1, &la, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(imm, x, &v, 1, N, ev.e[1], 1, &ev.e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(qb, MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSignal(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(qb, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(qa, UINT64_MAX), ZE_RESULT_SUCCESS);
    for (uint32_t i = 1; i < 4; i++) {
        UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[i]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(ze_test_copy(&t, out, z, N), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(first_not(out, N, v), N);
    free(out);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, x), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, y), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, z), ZE_RESULT_SUCCESS);
    events_free(&ev);
    UMF_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(la), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(lb), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(qa), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(qb), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "Device execution always completes immediately on execute; Host thread
// is blocked": a synchronous queue returns when what it was given ran,
// also when it had to wait for an event another thread signals.
UMF_C_TEST(zeCommandQueueExecuteCommandLists, SynchronousModeBlocksTheCaller) {
    ZE_TEST_SETUP(t);
    ze_command_queue_desc_t qd =
        queue_desc(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 0);
    ze_command_queue_handle_t q;
    UMF_ASSERT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], &qd, &q),
                  ZE_RESULT_SUCCESS);
    ze_command_list_handle_t l = regular(&t);
    events_t ev;
    UMF_ASSERT(l != NULL && events_make(&t, &ev, 2, 0));
    char in[32] = "synchronous", out[32] = {0};
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, in, 32, ev.e[1], 1, &ev.e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    later_t later;
    UMF_ASSERT(signal_later(&later, ev.e[0]));
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                  ZE_RESULT_SUCCESS);
    // Done when it returned, without a synchronization.
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[1]), ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    pthread_join(later.thread, NULL);
    events_free(&ev);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// A wait for an event that is reset and never signalled ends with the
// timeout: NOT_READY, from the queue, the fence and the event the work was
// to signal. On the emulated driver, once nothing can signal the event any
// more (its handle destroyed), waits without limit end too: the queue's
// work is lost (DEVICE_LOST, as a hung device reports), never a hang.
UMF_C_TEST(zeCommandQueueSynchronize, AWaitThatNeverEndsTimesOut) {
    ZE_TEST_SETUP(t);
    ze_command_queue_handle_t q = queue(&t);
    ze_command_list_handle_t l = regular(&t);
    events_t ev;
    UMF_ASSERT(q != NULL && l != NULL && events_make(&t, &ev, 2, 0));
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_fence_handle_t fence;
    UMF_ASSERT_EQ(zeFenceCreate(q, &fd, &fence), ZE_RESULT_SUCCESS);
    char in[16] = "never", out[16] = {0};
    UMF_EXPECT_EQ(zeEventHostSignal(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostReset(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, in, 16, ev.e[1], 1, &ev.e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, fence),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, 2 * MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, 2 * MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[1], 2 * MS), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(out[0], 0);
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zeEventDestroy(ev.e[0]), ZE_RESULT_SUCCESS);
        ev.e[0] = NULL;
        UMF_EXPECT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX),
                      ZE_RESULT_ERROR_DEVICE_LOST);
        UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, UINT64_MAX),
                      ZE_RESULT_ERROR_DEVICE_LOST);
        UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, 2 * MS),
                      ZE_RESULT_NOT_READY);
        UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[1], UINT64_MAX),
                      ZE_RESULT_ERROR_DEVICE_LOST);
        UMF_EXPECT_EQ(out[0], 0); // the copy never ran
        // The queue's work was lost: it takes no more.
        UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                      ZE_RESULT_ERROR_DEVICE_LOST);
    } else {
        // A real device would wait for ever: let the work run.
        UMF_EXPECT_EQ(zeEventHostSignal(ev.e[0]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeFenceHostSynchronize(fence, UINT64_MAX),
                      ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeFenceDestroy(fence), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    events_free(&ev);
    ze_test_teardown(&t);
}

// The same on an immediate list: its work waits, and a destroyed event
// ends the wait of whoever waits for what the list was to signal.
UMF_C_TEST(zeCommandListCreateImmediate, AWaitThatNeverEndsTimesOut) {
    ZE_TEST_SETUP(t);
    ze_command_list_handle_t l = immediate(&t, in_order_flag());
    events_t ev;
    UMF_ASSERT(l != NULL && events_make(&t, &ev, 3, 0));
    char out[8] = {0};
    const char in[8] = "abc";
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, in, 8, ev.e[1], 1, &ev.e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(l, ev.e[2]),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[2], 2 * MS), ZE_RESULT_NOT_READY);
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zeEventDestroy(ev.e[0]), ZE_RESULT_SUCCESS);
        ev.e[0] = NULL;
        UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[2], UINT64_MAX),
                      ZE_RESULT_ERROR_DEVICE_LOST);
        UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(l, ev.e[1]),
                      ZE_RESULT_ERROR_DEVICE_LOST);
        // A reset makes the list usable again.
        UMF_EXPECT_EQ(zeCommandListReset(l), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(l, ev.e[1]),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[1], UINT64_MAX),
                      ZE_RESULT_SUCCESS);
    } else {
        UMF_EXPECT_EQ(zeEventHostSignal(ev.e[0]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[2], UINT64_MAX),
                      ZE_RESULT_SUCCESS);
    }
    events_free(&ev);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// ---- Teardown orders --------------------------------------------------------

// What the Unified Runtime does at every teardown, and Intel's driver
// lets it: an event pool destroyed while its events live (they work on,
// and go when they are destroyed), and a pool and its events destroyed
// after their context. The leak report counts nothing of it.
UMF_C_TEST(zeEventPoolDestroy, BeforeItsEventsAndAfterItsContext) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = emulated();
    int64_t pools = ctl != NULL ? ctl->get_object_count("event pool") : 0;
    int64_t events = ctl != NULL ? ctl->get_object_count("event") : 0;
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t ctx;
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &ctx), ZE_RESULT_SUCCESS);
    ze_test_t t2 = t;
    t2.ctx = ctx;
    events_t a, b;
    UMF_ASSERT(events_make(&t2, &a, 2, 0) && events_make(&t2, &b, 1, 0));
    // The pool first: its events work on.
    UMF_EXPECT_EQ(zeEventPoolDestroy(a.pool), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSignal(a.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(a.e[0], 0), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(a.e[1]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventDestroy(a.e[0]), ZE_RESULT_SUCCESS);
    // The context next, with an event of the destroyed pool and a pool
    // with its event alive; then those.
    UMF_EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(a.e[1]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(b.pool), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(b.e[0]), ZE_RESULT_SUCCESS);
    if (ctl != NULL) {
        UMF_EXPECT_EQ(ctl->get_object_count("event pool"), pools);
        UMF_EXPECT_EQ(ctl->get_object_count("event"), events);
        // Each handle once: destroyed again, it is no handle.
        UMF_EXPECT_EQ(zeEventDestroy(a.e[1]),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeEventPoolDestroy(b.pool),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// "The application must ensure the location in the pool is not being used
// by another event": Intel's driver lets two events share an index, and
// they share its state.
UMF_C_TEST(zeEventCreate, TwoEventsAtOneIndexShareItsState) {
    ZE_TEST_SETUP(t);
    events_t ev;
    UMF_ASSERT(events_make(&t, &ev, 1, 0));
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, 0, 0};
    ze_event_handle_t alias;
    UMF_ASSERT_EQ(zeEventCreate(ev.pool, &ed, &alias), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSignal(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(alias), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostReset(alias), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[0]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(t.list, alias),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[0], UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(alias), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[0]), ZE_RESULT_SUCCESS);
    events_free(&ev);
    ze_test_teardown(&t);
}

// ---- Copies of regions, fills -----------------------------------------------

enum { W = 64, H = 16, D = 4 }; // the source array: W x H x D bytes

static unsigned char src_byte(size_t x, size_t y, size_t z) {
    return (unsigned char)(x + 7 * y + 31 * z + 1);
}

// "Copies a region from a 2D or 3D array": the bytes of the region land at
// the destination's origin, with the destination's pitches; nothing else
// of the destination changes. 3D, then 2D (depth 0: the slice pitches are
// ignored).
UMF_C_TEST(zeCommandListAppendMemoryCopyRegion, Copies2DAnd3DRegions) {
    ZE_TEST_SETUP(t);
    enum { DW = 40, DH = 12, DD = 3, DSIZE = DW * DH * DD };
    static unsigned char host[W * H * D], out[DSIZE];
    for (size_t z = 0; z < D; z++) {
        for (size_t y = 0; y < H; y++) {
            for (size_t x = 0; x < W; x++) {
                host[(z * H + y) * W + x] = src_byte(x, y, z);
            }
        }
    }
    unsigned char *src = ze_test_alloc_device(&t, sizeof(host), 0);
    unsigned char *dst = ze_test_alloc_device(&t, DSIZE, 1);
    UMF_ASSERT(src != NULL && dst != NULL);
    UMF_ASSERT_EQ(ze_test_copy(&t, src, host, sizeof(host)), ZE_RESULT_SUCCESS);
    for (int dims = 3; dims >= 2; dims--) {
        UMF_ASSERT(ze_test_fill_byte(&t, dst, 0, DSIZE));
        ze_copy_region_t sr = {3,  2, dims == 3 ? 1 : 0,
                               10, 5, dims == 3 ? 2 : 0};
        ze_copy_region_t dr = {1, 4, dims == 3 ? 1 : 0, 10, 5, sr.depth};
        UMF_ASSERT_EQ(zeCommandListAppendMemoryCopyRegion(
                          t.list, dst, &dr, DW, dims == 3 ? DW * DH : 0, src,
                          &sr, W, dims == 3 ? W * H : 7, NULL, 0, NULL),
                      ZE_RESULT_SUCCESS);
        UMF_ASSERT_EQ(ze_test_copy(&t, out, dst, DSIZE), ZE_RESULT_SUCCESS);
        size_t bad = 0;
        for (size_t z = 0; z < DD; z++) {
            for (size_t y = 0; y < DH; y++) {
                for (size_t x = 0; x < DW; x++) {
                    size_t depth = sr.depth != 0 ? sr.depth : 1;
                    bool in = x >= dr.originX && x < dr.originX + dr.width &&
                              y >= dr.originY && y < dr.originY + dr.height &&
                              z >= dr.originZ && z < dr.originZ + depth;
                    unsigned char want =
                        in ? src_byte(x - dr.originX + sr.originX,
                                      y - dr.originY + sr.originY,
                                      z - dr.originZ + sr.originZ)
                           : 0;
                    bad += out[(z * DH + y) * DW + x] != want;
                }
            }
        }
        UMF_C_CHECK_(bad == 0, (void)0, "%dD region: %zu bytes wrong", dims,
                     bad);
    }
    if (emulated() != NULL) {
        ze_copy_region_t r = {0, 0, 0, 8, 2, 0}, r2 = {0, 1, 0, 8, 2, 0};
        // Rows of one array that overlap: the source's second row is the
        // destination's first.
        UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(
                          t.list, src, &r, W, 0, src, &r2, W, 0, NULL, 0, NULL),
                      ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
        // In one array without overlap: its left half to its right half.
        ze_copy_region_t left = {0, 0, 0, W / 2, H, 0};
        ze_copy_region_t right = {W / 2, 0, 0, W / 2, H, 0};
        UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(t.list, src, &right,
                                                          W, 0, src, &left, W,
                                                          0, NULL, 0, NULL),
                      ZE_RESULT_SUCCESS);
        // Regions of different sizes; one past the allocation.
        ze_copy_region_t wide = {0, 0, 0, 9, 2, 0};
        UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(t.list, dst, &wide,
                                                          DW, 0, src, &r, W, 0,
                                                          NULL, 0, NULL),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        ze_copy_region_t deep = {0, 0, 0, 8, 2, 0};
        UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(t.list, dst, &deep,
                                                          DSIZE, 0, src, &r, W,
                                                          0, NULL, 0, NULL),
                      ZE_RESULT_ERROR_INVALID_SIZE);
    }
    if (ze_test_validated()) {
        ze_copy_region_t r = {0, 0, 0, 1, 1, 0};
        UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(t.list, dst, NULL, DW,
                                                          0, src, &r, W, 0,
                                                          NULL, 0, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        // The loader's intercept mode reads the missing wait list.
        if (!ze_test_intercept()) {
            UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(t.list, dst, &r,
                                                              DW, 0, src, &r, W,
                                                              0, NULL, 1, NULL),
                          ZE_RESULT_ERROR_INVALID_SIZE);
        }
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, src), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dst), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "The pattern size must be a power-of-two": patterns of 1 to 128 bytes
// over sizes that end inside a pattern and span pages.
UMF_C_TEST(zeCommandListAppendMemoryFill, EveryPatternSize) {
    ZE_TEST_SETUP(t);
    enum { N = 3 * 4096 + 5 };
    unsigned char *d = ze_test_alloc_device(&t, N, 0);
    unsigned char *out = malloc(N);
    UMF_ASSERT(d != NULL && out != NULL);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        unsigned char pattern[128];
        for (size_t i = 0; i < ps; i++) {
            pattern[i] = (unsigned char)(i * 3 + ps);
        }
        UMF_ASSERT_EQ(zeCommandListAppendMemoryFill(t.list, d, pattern, ps, N,
                                                    NULL, 0, NULL),
                      ZE_RESULT_SUCCESS);
        UMF_ASSERT_EQ(ze_test_copy(&t, out, d, N), ZE_RESULT_SUCCESS);
        size_t bad = N;
        for (size_t i = 0; i < N && bad == N; i++) {
            bad = out[i] != pattern[i % ps] ? i : N;
        }
        UMF_C_CHECK_(bad == N, (void)0, "pattern of %zu bytes: byte %zu", ps,
                     bad);
    }
    free(out);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, d), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "Copies host, device, or shared memory from another context".
UMF_C_TEST(zeCommandListAppendMemoryCopyFromContext, CopiesAcrossContexts) {
    ZE_TEST_SETUP(t);
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t other;
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &other), ZE_RESULT_SUCCESS);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *theirs;
    UMF_ASSERT_EQ(zeMemAllocDevice(other, &dd, 256, 0, t.devices[0], &theirs),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT(ze_test_fill_byte(&t, theirs, 0x4b, 256));
    unsigned char *mine = ze_test_alloc_device(&t, 256, 0);
    UMF_ASSERT(mine != NULL);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyFromContext(
                      t.list, mine, other, theirs, 256, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, mine, 0x4b, 256));
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeCommandListAppendMemoryCopyFromContext(
                          t.list, mine, NULL, theirs, 256, NULL, 0, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, mine), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(other, theirs), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextDestroy(other), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// The barriers: a ranges barrier orders like a barrier and signals; the
// system barrier is a call that succeeds.
UMF_C_TEST(zeCommandListAppendMemoryRangesBarrier, OrdersAndSignals) {
    ZE_TEST_SETUP(t);
    events_t ev;
    UMF_ASSERT(events_make(&t, &ev, 2, 0));
    ze_command_list_handle_t l = immediate(&t, 0);
    UMF_ASSERT(l != NULL);
    unsigned char *d = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(d != NULL);
    const void *ranges[] = {d};
    const size_t sizes[] = {64};
    UMF_EXPECT_EQ(zeCommandListAppendMemoryRangesBarrier(l, 1, sizes, ranges,
                                                         ev.e[1], 1, &ev.e[0]),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev.e[1]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSignal(ev.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[1], UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextSystemBarrier(t.ctx, t.devices[0]),
                  ZE_RESULT_SUCCESS);
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeCommandListAppendMemoryRangesBarrier(l, 1, NULL, ranges,
                                                             NULL, 0, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeContextSystemBarrier(t.ctx, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, d), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    events_free(&ev);
    ze_test_teardown(&t);
}

// ---- Timestamps -------------------------------------------------------------

static uint64_t device_now(ze_test_t *t) {
    uint64_t host = 0, dev = 0;
    UMF_EXPECT_EQ(zeDeviceGetGlobalTimestamps(t->devices[0], &host, &dev),
                  ZE_RESULT_SUCCESS);
    return dev;
}

// Kernel timestamps of copies and fills, and the global timestamps a list
// writes, "in device timer ticks" (timerResolution): they rise with the
// clock zeDeviceGetGlobalTimestamps reads, each command's start before its
// end and after the end of the one before. Compared where the device keeps
// all 64 bits (a real GPU's kernel timestamps wrap and count from elsewhere).
UMF_C_TEST(zeEventQueryKernelTimestamp, RisesWithTheGlobalClock) {
    ZE_TEST_SETUP(t);
    enum { N = 4 << 20 };
    ze_device_properties_t props = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[0], &props),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(props.timerResolution > 0);
    bool comparable =
        props.kernelTimestampValidBits == 64 && props.timestampValidBits == 64;
    events_t ev;
    UMF_ASSERT(events_make(&t, &ev, 3, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    ze_command_list_handle_t l = immediate(&t, in_order_flag());
    unsigned char *a = ze_test_alloc_device(&t, N, 0);
    unsigned char *b = ze_test_alloc_device(&t, N, 0);
    uint64_t *stamps = ze_test_alloc_device(&t, 2 * sizeof(uint64_t), 0);
    ze_kernel_timestamp_result_t queried[2];
    ze_kernel_timestamp_result_t *results =
        ze_test_alloc_device(&t, sizeof(queried), 0);
    UMF_ASSERT(l != NULL && a != NULL && b != NULL && stamps != NULL &&
               results != NULL);
    // Not signalled: NOT_READY, and the destination is left as it was.
    ze_kernel_timestamp_result_t r0, r1, marker;
    memset(&marker, 0xab, sizeof(marker));
    r0 = marker;
    UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(ev.e[0], &r0),
                  ZE_RESULT_NOT_READY);
    UMF_EXPECT(memcmp(&r0, &marker, sizeof(r0)) == 0);
    const uint32_t pattern = 0xfeedf00du;
    uint64_t t0 = device_now(&t);
    UMF_EXPECT_EQ(
        zeCommandListAppendWriteGlobalTimestamp(l, &stamps[0], NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryFill(l, a, &pattern, 4, N, ev.e[0], 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, b, a, N, ev.e[1], 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        zeCommandListAppendWriteGlobalTimestamp(l, &stamps[1], NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendQueryKernelTimestamps(
                      l, 2, ev.e, results, NULL, ev.e[2], 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ev.e[2], UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    uint64_t t1 = device_now(&t);
    UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(ev.e[0], &r0), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(ev.e[1], &r1), ZE_RESULT_SUCCESS);
    uint64_t written[2];
    UMF_EXPECT_EQ(ze_test_copy(&t, written, stamps, sizeof(written)),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ze_test_copy(&t, queried, results, sizeof(queried)),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(memcmp(&queried[0], &r0, sizeof(r0)) == 0);
    UMF_EXPECT(memcmp(&queried[1], &r1, sizeof(r1)) == 0);
    // zeEventQueryTimestampsExp: one result per device, the same values.
    uint32_t count = 0;
    UMF_EXPECT_EQ(
        zeEventQueryTimestampsExp(ev.e[1], t.devices[0], &count, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT(count >= 1);
    if (comparable) {
        ze_kernel_timestamp_result_t exp;
        count = 1;
        UMF_EXPECT_EQ(
            zeEventQueryTimestampsExp(ev.e[1], t.devices[0], &count, &exp),
            ZE_RESULT_SUCCESS);
        UMF_EXPECT(memcmp(&exp, &r1, sizeof(exp)) == 0);
        UMF_EXPECT(t0 <= written[0]);
        UMF_EXPECT(written[0] <= r0.global.kernelStart);
        UMF_EXPECT(r0.global.kernelStart <= r0.global.kernelEnd);
        UMF_EXPECT(r0.global.kernelEnd <= r1.global.kernelStart);
        UMF_EXPECT(r1.global.kernelStart <= r1.global.kernelEnd);
        UMF_EXPECT(r1.global.kernelEnd <= written[1]);
        UMF_EXPECT(written[1] <= t1);
        UMF_EXPECT(r0.context.kernelStart <= r0.context.kernelEnd);
        // A 4 MiB fill takes time.
        UMF_EXPECT(r0.global.kernelEnd > r0.global.kernelStart);
    }
    if (emulated() != NULL) {
        // An event of a pool without timestamps has none.
        events_t plain;
        UMF_ASSERT(events_make(&t, &plain, 1, 0));
        UMF_EXPECT_EQ(zeEventHostSignal(plain.e[0]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(plain.e[0], &r0),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        events_free(&plain);
        UMF_EXPECT_EQ(zeCommandListAppendWriteGlobalTimestamp(
                          l, (uint64_t *)((char *)stamps + 1), NULL, 0, NULL),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT); // not 8-byte aligned
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(ev.e[0], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(
            zeCommandListAppendWriteGlobalTimestamp(l, NULL, NULL, 0, NULL),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, b), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, stamps), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, results), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    events_free(&ev);
    ze_test_teardown(&t);
}

// A deferred command's timestamps are those of when it ran: after the
// host's signal.
UMF_C_TEST(zeEventQueryKernelTimestamp, OfADeferredCommandAfterTheSignal) {
    ZE_TEST_SETUP(t);
    ze_device_properties_t props = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[0], &props),
                  ZE_RESULT_SUCCESS);
    events_t go, ts;
    UMF_ASSERT(events_make(&t, &go, 1, 0) &&
               events_make(&t, &ts, 1, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    ze_command_list_handle_t l = immediate(&t, 0);
    UMF_ASSERT(l != NULL);
    char in[64] = "later", out[64];
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, out, in, 64, ts.e[0], 1, &go.e[0]),
        ZE_RESULT_SUCCESS);
    struct timespec nap = {0, 2 * 1000 * 1000};
    nanosleep(&nap, NULL);
    uint64_t before = device_now(&t);
    UMF_EXPECT_EQ(zeEventHostSignal(go.e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(ts.e[0], UINT64_MAX),
                  ZE_RESULT_SUCCESS);
    ze_kernel_timestamp_result_t r;
    UMF_EXPECT_EQ(zeEventQueryKernelTimestamp(ts.e[0], &r), ZE_RESULT_SUCCESS);
    if (props.kernelTimestampValidBits == 64) {
        UMF_EXPECT(r.global.kernelStart >= before);
    }
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    events_free(&go);
    events_free(&ts);
    ze_test_teardown(&t);
}
