// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The emulated driver's thread that runs commands waiting for events:
// many threads chaining work through events (run under TSan in CI), work
// dropped with its queue, memory freed under a waiting command, a context
// destroyed with work waiting, and a fork child.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "c_test.h"
#include "test_sanitizers.h"
#include "ze_test_util.h"

#define THREADS 6
#define ROUNDS 40

static ze_command_list_handle_t async_list(ze_test_t *t) {
    return ze_test_immediate(t, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0);
}

typedef struct chain_t {
    ze_test_t *t;
    ze_event_handle_t *events; // THREADS + 1
    pthread_barrier_t *start, *end, *after;
    unsigned index;
    unsigned char *buf; // device memory, THREADS + 1 bytes
    int errors;
} chain_t;

// Each round, thread i appends a copy of byte i to byte i + 1 that waits
// for event i and signals event i + 1, on a list of its own; the host
// signals event 0 once all are appended.
static void *link_of_the_chain(void *arg) {
    chain_t *c = arg;
    ze_command_list_handle_t l = async_list(c->t);
    for (int round = 0; l != NULL && round < ROUNDS; round++) {
        pthread_barrier_wait(c->start);
        if (zeCommandListAppendMemoryCopy(
                l, c->buf + c->index + 1, c->buf + c->index, 1,
                c->events[c->index + 1], 1,
                &c->events[c->index]) != ZE_RESULT_SUCCESS) {
            c->errors++;
        }
        pthread_barrier_wait(c->end);
        pthread_barrier_wait(c->after); // the host saw the chain run
    }
    if (l != NULL) {
        zeCommandListDestroy(l);
    }
    return NULL;
}

UMF_C_TEST(ZeDeferred, ManyThreadsChainThroughEvents) {
    ZE_TEST_SETUP(t);
    ze_event_handle_t e[THREADS + 1];
    ze_event_pool_handle_t pool = ze_test_events(&t, THREADS + 1, 0, e);
    unsigned char *buf = ze_test_alloc_device(&t, THREADS + 1, 0);
    UMF_ASSERT(pool != NULL && buf != NULL);
    pthread_barrier_t start, end, after;
    pthread_barrier_init(&start, NULL, THREADS + 1);
    pthread_barrier_init(&end, NULL, THREADS + 1);
    pthread_barrier_init(&after, NULL, THREADS + 1);
    chain_t c[THREADS];
    pthread_t th[THREADS];
    for (unsigned i = 0; i < THREADS; i++) {
        c[i] = (chain_t){&t, e, &start, &end, &after, i, buf, 0};
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, link_of_the_chain, &c[i]),
                      0);
    }
    unsigned char out[THREADS + 1];
    for (int round = 0; round < ROUNDS; round++) {
        unsigned char first = (unsigned char)(round + 1);
        UMF_EXPECT(ze_test_fill_byte(&t, buf, 0, THREADS + 1));
        UMF_EXPECT_EQ(ze_test_copy(&t, buf, &first, 1), ZE_RESULT_SUCCESS);
        for (unsigned i = 0; i <= THREADS; i++) {
            UMF_EXPECT_EQ(zeEventHostReset(e[i]), ZE_RESULT_SUCCESS);
        }
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&end); // all appended, none can have run
        UMF_EXPECT_EQ(zeEventQueryStatus(e[THREADS]), ZE_RESULT_NOT_READY);
        UMF_EXPECT_EQ(zeEventHostSignal(e[0]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeEventHostSynchronize(e[THREADS], UINT64_MAX),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(ze_test_copy(&t, out, buf, THREADS + 1),
                      ZE_RESULT_SUCCESS);
        for (unsigned i = 0; i <= THREADS; i++) {
            UMF_C_CHECK_(out[i] == first, (void)0, "round %d, byte %u: %u",
                         round, i, out[i]);
        }
        pthread_barrier_wait(&after);
    }
    for (unsigned i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        UMF_EXPECT_EQ(c[i].errors, 0);
    }
    pthread_barrier_destroy(&start);
    pthread_barrier_destroy(&end);
    pthread_barrier_destroy(&after);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, buf), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, THREADS + 1, e);
    ze_test_teardown(&t);
}

// A queue destroyed while its work waits: the work is dropped, never run,
// and a host thread waiting for what it was to signal stops waiting.
UMF_C_TEST(ZeDeferred, DestroyingAQueueDropsItsWaitingWork) {
    ZE_TEST_SETUP(t);
    ze_event_handle_t e[2];
    ze_event_pool_handle_t pool = ze_test_events(&t, 2, 0, e);
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                 0};
    ze_command_queue_handle_t q;
    ze_command_list_handle_t l;
    UMF_ASSERT(pool != NULL);
    UMF_ASSERT_EQ(zeCommandQueueCreate(t.ctx, t.devices[0], &qd, &q),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeCommandListCreate(t.ctx, t.devices[0], &ld, &l),
                  ZE_RESULT_SUCCESS);
    char in[8] = "dropped", out[8] = {0};
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, out, in, 8, e[1], 1, &e[0]),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListClose(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e[1], UINT64_MAX),
                  ZE_RESULT_ERROR_DEVICE_LOST);
    UMF_EXPECT_EQ(zeEventHostSignal(e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventQueryStatus(e[1]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(out[0], 0);
    ze_test_events_free(pool, 2, e);
    ze_test_teardown(&t);
}

// Device memory freed while a command that writes it waits: when it would
// run, the memory is gone, and the command is not run (its list's work is
// lost) rather than writing where the allocation was.
UMF_C_TEST(ZeDeferred, MemoryFreedUnderAWaitingCommandIsNotWritten) {
    ZE_TEST_SETUP(t);
    ze_event_handle_t e[3];
    ze_event_pool_handle_t pool = ze_test_events(&t, 3, 0, e);
    ze_command_list_handle_t l = async_list(&t);
    void *dev = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(pool != NULL && l != NULL && dev != NULL);
    static unsigned char in[4096];
    memset(in, 0x77, sizeof(in));
    UMF_EXPECT_EQ(
        zeCommandListAppendMemoryCopy(l, dev, in, sizeof(in), e[1], 1, &e[0]),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    // Memory made in its place meanwhile stays as it is.
    void *other = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(other != NULL);
    UMF_EXPECT(ze_test_fill_byte(&t, other, 0x11, 4096));
    UMF_EXPECT_EQ(zeEventHostSignal(e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e[1], UINT64_MAX),
                  ZE_RESULT_ERROR_DEVICE_LOST);
    UMF_EXPECT(ze_test_all_bytes(&t, other, 0x11, 4096));
    UMF_EXPECT_EQ(zeCommandListAppendSignalEvent(l, e[2]),
                  ZE_RESULT_ERROR_DEVICE_LOST);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, other), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, 3, e);
    ze_test_teardown(&t);
}

// zeContextDestroy with work waiting in its lists: the work goes with
// them; the events, released with the context, may still be destroyed.
UMF_C_TEST(ZeDeferred, ContextDestroyedWithWorkWaiting) {
    ZE_TEST_SETUP(t);
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_test_t t2 = t;
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &t2.ctx), ZE_RESULT_SUCCESS);
    ze_event_handle_t e[2];
    ze_event_pool_handle_t pool = ze_test_events(&t2, 2, 0, e);
    ze_command_list_handle_t l = async_list(&t2);
    UMF_ASSERT(pool != NULL && l != NULL);
    char in[4] = "ctx", out[4] = {0};
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, out, in, 4, e[1], 1, &e[0]),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextDestroy(t2.ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(out[0], 0);
    ze_test_events_free(pool, 2, e);
    ze_test_teardown(&t);
}

// A fork child has no driver's thread of its parent: its own work that
// waits for events starts one, and work its parent left waiting in a list
// runs in the child once the child uses that list again. The parent's
// thread runs on.
UMF_C_TEST(ZeDeferred, ForkChildRunsWorkThatWaits) {
    if (UMF_TEST_TSAN) {
        return; // the child starts a thread
    }
    ZE_TEST_SETUP(t);
    ze_event_handle_t e[4];
    ze_event_pool_handle_t pool = ze_test_events(&t, 4, 0, e);
    ze_command_list_handle_t l = async_list(&t);
    UMF_ASSERT(pool != NULL && l != NULL);
    static char in[16] = "before the fork", out[16];
    memset(out, 0, sizeof(out));
    UMF_EXPECT_EQ(zeCommandListAppendMemoryCopy(l, out, in, 16, e[1], 1, &e[0]),
                  ZE_RESULT_SUCCESS);
    // The driver's thread sleeps by now (a thread inside a driver lock at
    // the fork would leave that lock taken in the child, as with any
    // library).
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    fflush(NULL);
    pid_t pid = fork();
    UMF_ASSERT(pid >= 0);
    if (pid == 0) {
        // The child: no test macros (its failures would not reach the
        // parent), and _exit (the parent's objects are not leaks here).
        int status = 0;
        ze_command_list_handle_t mine = async_list(&t);
        char a[4] = "new", b[4] = {0};
        if (mine == NULL ||
            zeCommandListAppendMemoryCopy(mine, b, a, 4, e[3], 1, &e[2]) != 0 ||
            zeEventHostSignal(e[2]) != 0 ||
            zeEventHostSynchronize(e[3], UINT64_MAX) != 0 || b[0] != 'n') {
            status |= 1;
        }
        if (zeEventHostSignal(e[0]) != 0 ||
            zeCommandListAppendBarrier(l, NULL, 0, NULL) != 0 ||
            zeEventHostSynchronize(e[1], 5000000000ull) != 0 ||
            strcmp(out, in) != 0) {
            status |= 2;
        }
        _exit(status);
    }
    int status = -1;
    UMF_EXPECT_EQ(waitpid(pid, &status, 0), pid);
    UMF_EXPECT(WIFEXITED(status));
    UMF_EXPECT_EQ(WEXITSTATUS(status), 0);
    // In the parent, nothing of the child's happened.
    UMF_EXPECT_EQ(zeEventQueryStatus(e[1]), ZE_RESULT_NOT_READY);
    UMF_EXPECT_EQ(zeEventHostSignal(e[0]), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventHostSynchronize(e[1], UINT64_MAX), ZE_RESULT_SUCCESS);
    const char *got = out, *want = in;
    UMF_EXPECT_STREQ(got, want);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    ze_test_events_free(pool, 4, e);
    ze_test_teardown(&t);
}
