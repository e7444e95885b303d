// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: the IPC of event pools (zeEventPoolGetIpcHandle,
// zeEventPoolOpenIpcHandle, zeEventPoolCloseIpcHandle), one test per clause
// of ze_api.h, named after it. They run unchanged on a real GPU: a consumer
// takes the exporter's fd (the first bytes of the handle, as for memory
// handles) with pidfd_getfd, as an application passes it with SCM_RIGHTS;
// what only the emulated driver can tell (object counts) is checked when
// its control API is there.

#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_test_util.h"

static ze_event_pool_handle_t
make_pool(ze_test_t *t, ze_event_pool_flags_t flags, uint32_t count) {
    ze_event_pool_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL, flags,
                              count};
    ze_event_pool_handle_t pool = NULL;
    ze_result_t r = zeEventPoolCreate(t->ctx, &d, 0, NULL, &pool);
    if (r != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeEventPoolCreate: 0x%x", r);
        return NULL;
    }
    return pool;
}

static ze_event_handle_t make_event(ze_event_pool_handle_t pool,
                                    uint32_t index) {
    ze_event_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index,
                         ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t e = NULL;
    ze_result_t r = zeEventCreate(pool, &d, &e);
    if (r != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeEventCreate(%u): 0x%x", index,
                        r);
        return NULL;
    }
    return e;
}

// An IPC pool of `count` events and its handle, for the tests of what only
// the emulated driver tells apart; NULL (after the teardown) on a real one.
static ze_event_pool_handle_t emulated_ipc_pool(ze_test_t *t, uint32_t count,
                                                ze_ipc_event_pool_handle_t *h) {
    if (ze_test_control_if_emulated() == NULL) {
        ze_test_teardown(t);
        return NULL;
    }
    ze_event_pool_handle_t pool = make_pool(t, ZE_EVENT_POOL_FLAG_IPC, count);
    if (pool != NULL && zeEventPoolGetIpcHandle(pool, h) != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeEventPoolGetIpcHandle");
    }
    return pool;
}

static int64_t object_count(const char *kind) {
    const umf_test_mock_control_t *ctl = ze_test_control_if_emulated();
    return ctl != NULL ? ctl->get_object_count(kind) : -1;
}

// "Event pool must have been created with ZE_EVENT_POOL_FLAG_IPC."
UMF_C_TEST(zeEventPoolGetIpcHandle, PoolMustHaveBeenCreatedWithIpcFlag) {
    ZE_TEST_SETUP(t);
    ze_event_pool_handle_t local =
        make_pool(&t, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4);
    ze_event_pool_handle_t shared = make_pool(
        &t, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 4);
    UMF_ASSERT(local != NULL && shared != NULL);
    ze_ipc_event_pool_handle_t h;
    UMF_EXPECT_EQ(zeEventPoolGetIpcHandle(local, &h),
                  ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
    UMF_EXPECT_EQ(zeEventPoolGetIpcHandle(shared, &h), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(shared), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(local), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// INVALID_NULL_HANDLE `nullptr == hEventPool`, INVALID_NULL_POINTER
// `nullptr == phIpc`; the open's `nullptr == hContext` and
// `nullptr == phEventPool`; the close's `nullptr == hEventPool`.
UMF_C_TEST(zeEventPoolGetIpcHandle, NullArguments) {
    ZE_TEST_SETUP(t);
    if (!ze_test_null_handles_checked()) {
        ze_test_teardown(&t); // the loader itself reads the handles
        return;
    }
    ze_event_pool_handle_t pool = make_pool(&t, ZE_EVENT_POOL_FLAG_IPC, 2);
    UMF_ASSERT(pool != NULL);
    ze_ipc_event_pool_handle_t h;
    UMF_EXPECT_EQ(zeEventPoolGetIpcHandle(NULL, &h),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(zeEventPoolGetIpcHandle(pool, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_ASSERT_EQ(zeEventPoolGetIpcHandle(pool, &h), ZE_RESULT_SUCCESS);
    ze_event_pool_handle_t opened;
    UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(NULL, h, &opened),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, h, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "Multiple calls to this function with the same IPC handle will return
// unique event pool handles." Signals go through all of them.
UMF_C_TEST(zeEventPoolOpenIpcHandle, SameHandleGivesUniquePools) {
    ZE_TEST_SETUP(t);
    ze_event_pool_handle_t pool = make_pool(
        &t, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 8);
    UMF_ASSERT(pool != NULL);
    ze_ipc_event_pool_handle_t h;
    UMF_ASSERT_EQ(zeEventPoolGetIpcHandle(pool, &h), ZE_RESULT_SUCCESS);
    ze_event_pool_handle_t a = NULL, b = NULL;
    UMF_ASSERT_EQ(zeEventPoolOpenIpcHandle(t.ctx, h, &a), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeEventPoolOpenIpcHandle(t.ctx, h, &b), ZE_RESULT_SUCCESS);
    UMF_EXPECT(a != b && a != pool && b != pool);
    ze_event_handle_t e = make_event(pool, 3);
    ze_event_handle_t ea = make_event(a, 3);
    ze_event_handle_t eb = make_event(b, 3);
    UMF_ASSERT(e != NULL && ea != NULL && eb != NULL);
    UMF_EXPECT_EQ(zeEventQueryStatus(ea), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSignal(e), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(ea), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(eb, UINT64_MAX), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostReset(eb), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventDestroy(ea), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(eb), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(b), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "The event handle in this process should not be freed with
// zeEventPoolDestroy, but rather with zeEventPoolCloseIpcHandle." The
// emulated driver refuses the mix-up both ways (a real one may not tell).
UMF_C_TEST(zeEventPoolOpenIpcHandle, ClosedNotDestroyed) {
    ZE_TEST_SETUP(t);
    ze_ipc_event_pool_handle_t h;
    ze_event_pool_handle_t pool = emulated_ipc_pool(&t, 2, &h);
    if (pool == NULL) {
        return;
    }
    ze_event_pool_handle_t opened;
    UMF_ASSERT_EQ(zeEventPoolOpenIpcHandle(t.ctx, h, &opened),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(opened), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(pool),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // An opened pool is not exported again.
    ze_ipc_event_pool_handle_t again;
    UMF_EXPECT_EQ(zeEventPoolGetIpcHandle(opened, &again),
                  ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(opened), ZE_RESULT_SUCCESS);
    if (!ze_test_intercept()) { // there the loader reads the closed handle
        UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(opened),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// A handle is untrusted bytes: garbage, a flipped bit or an fd that is not
// the pool's memory is refused (emulated driver).
UMF_C_TEST(zeEventPoolOpenIpcHandle, RefusesHandlesItDidNotMake) {
    ZE_TEST_SETUP(t);
    ze_ipc_event_pool_handle_t h, bad;
    ze_event_pool_handle_t pool = emulated_ipc_pool(&t, 2, &h);
    if (pool == NULL) {
        return;
    }
    ze_event_pool_handle_t opened = NULL;
    memset(&bad, 0, sizeof(bad));
    UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, bad, &opened),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    bad = h;
    bad.data[30] ^= 4;
    UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, bad, &opened),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    bad = h;
    int not_ours = STDERR_FILENO;
    memcpy(bad.data, &not_ours, sizeof(not_ours));
    UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, bad, &opened),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_ipc_mem_handle_t mem; // a memory handle is no event pool handle
    void *dev = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(dev != NULL);
    if (zeMemGetIpcHandle(t.ctx, dev, &mem) == ZE_RESULT_SUCCESS) {
        memcpy(bad.data, mem.data, sizeof(bad.data));
        UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, bad, &opened),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    UMF_EXPECT(opened == NULL);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "Closes an IPC event handle by destroying events that were opened in this
// process using zeEventPoolOpenIpcHandle."
UMF_C_TEST(zeEventPoolCloseIpcHandle, DestroysTheEventsMadeOnIt) {
    ZE_TEST_SETUP(t);
    ze_event_pool_handle_t pool = make_pool(&t, ZE_EVENT_POOL_FLAG_IPC, 4);
    UMF_ASSERT(pool != NULL);
    ze_ipc_event_pool_handle_t h;
    UMF_ASSERT_EQ(zeEventPoolGetIpcHandle(pool, &h), ZE_RESULT_SUCCESS);
    ze_event_pool_handle_t opened;
    UMF_ASSERT_EQ(zeEventPoolOpenIpcHandle(t.ctx, h, &opened),
                  ZE_RESULT_SUCCESS);
    int64_t events = object_count("event");
    UMF_ASSERT(make_event(opened, 0) != NULL);
    UMF_ASSERT(make_event(opened, 1) != NULL);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(opened), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(object_count("event"), events); // -1 == -1 on a GPU
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "The application may call this function from simultaneous threads"
// (get and open): threads get the handle and open, use and close their own
// pools of it at once; each sees the exporter's signal.
enum { IPC_THREADS = 4, IPC_ROUNDS = 25 };

typedef struct ipc_thread_t {
    ze_test_t *t;
    ze_event_pool_handle_t pool;
    int failures;
} ipc_thread_t;

static void *open_use_close(void *arg) {
    ipc_thread_t *w = arg;
    for (int i = 0; i < IPC_ROUNDS; i++) {
        ze_ipc_event_pool_handle_t h;
        ze_event_pool_handle_t opened = NULL;
        ze_event_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
                             ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
        ze_event_handle_t e = NULL;
        if (zeEventPoolGetIpcHandle(w->pool, &h) != ZE_RESULT_SUCCESS ||
            zeEventPoolOpenIpcHandle(w->t->ctx, h, &opened) !=
                ZE_RESULT_SUCCESS ||
            zeEventCreate(opened, &d, &e) != ZE_RESULT_SUCCESS ||
            zeEventQueryStatus(e) != ZE_RESULT_SUCCESS) {
            w->failures++;
        }
        if (e != NULL && zeEventDestroy(e) != ZE_RESULT_SUCCESS) {
            w->failures++;
        }
        if (opened != NULL &&
            zeEventPoolCloseIpcHandle(opened) != ZE_RESULT_SUCCESS) {
            w->failures++;
        }
    }
    return NULL;
}

UMF_C_TEST(zeEventPoolOpenIpcHandle, FromSimultaneousThreads) {
    ZE_TEST_SETUP(t);
    ze_event_pool_handle_t pool = make_pool(
        &t, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 1);
    UMF_ASSERT(pool != NULL);
    ze_event_handle_t e = make_event(pool, 0);
    UMF_ASSERT(e != NULL);
    UMF_ASSERT_EQ(zeEventHostSignal(e), ZE_RESULT_SUCCESS);
    int64_t pools = object_count("event pool");
    ipc_thread_t w[IPC_THREADS];
    pthread_t th[IPC_THREADS];
    for (int i = 0; i < IPC_THREADS; i++) {
        w[i] = (ipc_thread_t){&t, pool, 0};
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, open_use_close, &w[i]), 0);
    }
    for (int i = 0; i < IPC_THREADS; i++) {
        UMF_EXPECT_EQ(pthread_join(th[i], NULL), 0);
        UMF_EXPECT_EQ(w[i].failures, 0);
    }
    UMF_EXPECT_EQ(object_count("event pool"), pools); // -1 == -1 on a GPU
    UMF_EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// ---- Across processes -------------------------------------------------------

enum { EV_HOST = 5, EV_DEVICE = 6, EV_WAITED = 7, EV_CHILD = 8 };

typedef struct ev_msg_t {
    ze_ipc_event_pool_handle_t handle;
    pid_t pid;
} ev_msg_t;

// In a fresh process: opens the parent's pool, sees the parent's host and
// device signals, waits for one in a command list, and signals one back.
UMF_TEST_CHILD(ze_conf_event_peer) {
    (void)argc;
    (void)argv;
    ze_test_t t;
    ev_msg_t msg;
    if (!ze_test_setup(&t) || umf_test_recv(sock, &msg, sizeof(msg))) {
        return 10;
    }
    int mine = ze_test_take_handle_fd(msg.handle.data, msg.pid);
    if (mine < 0) {
        return 11;
    }
    ze_event_pool_handle_t pool;
    if (zeEventPoolOpenIpcHandle(t.ctx, msg.handle, &pool) !=
        ZE_RESULT_SUCCESS) {
        return 12;
    }
    ze_event_handle_t ev[4];
    for (uint32_t i = 0; i < 4; i++) {
        if ((ev[i] = make_event(pool, EV_HOST + i)) == NULL) {
            return 13;
        }
    }
    if (zeEventHostSynchronize(ev[0], UINT64_MAX) != ZE_RESULT_SUCCESS ||
        zeEventHostSynchronize(ev[1], UINT64_MAX) != ZE_RESULT_SUCCESS) {
        return 14;
    }
    char c = 'w';
    if (umf_test_send(sock, &c, 1)) {
        return 15;
    }
    // The parent signals EV_WAITED from its host after this message: the
    // list's wait ends then, and its signal follows.
    ze_event_handle_t wait = ev[2];
    if (zeCommandListAppendWaitOnEvents(t.list, 1, &wait) !=
            ZE_RESULT_SUCCESS ||
        zeCommandListAppendSignalEvent(t.list, ev[3]) != ZE_RESULT_SUCCESS ||
        zeEventHostSynchronize(ev[3], UINT64_MAX) != ZE_RESULT_SUCCESS) {
        return 16;
    }
    for (int i = 0; i < 4; i++) {
        if (zeEventDestroy(ev[i]) != ZE_RESULT_SUCCESS) {
            return 17;
        }
    }
    if (zeEventPoolCloseIpcHandle(pool) != ZE_RESULT_SUCCESS) {
        return 18;
    }
    close(mine);
    ze_test_teardown(&t);
    return 0;
}

// "Opens an IPC event pool handle to retrieve an event pool handle from
// another process": signals cross both ways.
// zeEventHostSynchronize(ev, UINT64_MAX) for an event another process
// signals, without hanging if that process dies first: timed waits, and
// between them a look (that reaps nothing) at whether the child exited.
static ze_result_t sync_while_child_lives(ze_event_handle_t ev,
                                          const umf_test_child_t *child) {
    for (;;) {
        ze_result_t r = zeEventHostSynchronize(ev, 1000000); // 1 ms
        if (r != ZE_RESULT_NOT_READY) {
            return r;
        }
        siginfo_t info = {0};
        if (waitid(P_PID, (id_t)child->pid, &info,
                   WEXITED | WNOHANG | WNOWAIT) != 0 ||
            info.si_pid != 0) {
            // Exited (or gone): one last look, the signal may precede it.
            return zeEventQueryStatus(ev);
        }
    }
}

UMF_C_TEST(zeEventPoolOpenIpcHandle, SignalsAreSeenInTheOtherProcess) {
    ZE_TEST_SETUP(t);
    ze_event_pool_handle_t pool = make_pool(
        &t, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 10);
    UMF_ASSERT(pool != NULL);
    ze_event_handle_t ev[4];
    for (uint32_t i = 0; i < 4; i++) {
        ev[i] = make_event(pool, EV_HOST + i);
        UMF_ASSERT(ev[i] != NULL);
    }
    ev_msg_t msg = {.pid = getpid()};
    UMF_ASSERT_EQ(zeEventPoolGetIpcHandle(pool, &msg.handle),
                  ZE_RESULT_SUCCESS);
    umf_test_child_t child;
    UMF_ASSERT_EQ(umf_test_child_start(&child, "ze_conf_event_peer", NULL), 0);
    UMF_EXPECT_EQ(umf_test_send(child.sock, &msg, sizeof(msg)), 0);
    UMF_EXPECT_EQ(zeEventHostSignal(ev[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(t.list, ev[1]),
                  ZE_RESULT_SUCCESS);
    char c = 0;
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &c, 1), 0);
    UMF_EXPECT_EQ(zeEventHostSignal(ev[2]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(sync_while_child_lives(ev[3], &child), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(umf_test_child_wait(&child), 0);
    UMF_EXPECT_EQ(zeEventQueryStatus(ev[3]), ZE_RESULT_SUCCESS);
    for (int i = 0; i < 4; i++) {
        UMF_EXPECT_EQ(zeEventDestroy(ev[i]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}
