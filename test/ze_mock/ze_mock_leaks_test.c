// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The leak report at exit and UMF_GPU_MOCK_LEAKS=strict, run in child
// processes whose stderr comes back over the socket.

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_test_child_output.h"
#include "test_child.h"
#include "ze_test_util.h"

// Leaks an allocation with an IPC handle, an imported mapping, a host
// allocation and a context (with argv[1] "leak"), or nothing.
// A leaker child's start: argv[0] the leak mode, argv[1] "leak" or not
// (*leak), stderr to the socket, the driver set up. 0, or the exit status.
static int leaker_start(int argc, char **argv, int sock, ze_test_t *t,
                        bool *leak) {
    if (argc < 1) {
        return 13;
    }
    setenv("UMF_GPU_MOCK_LEAKS", argv[0], 1);
    *leak = argc > 1 && strcmp(argv[1], "leak") == 0;
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 10;
    }
    return ze_test_setup(t) ? 0 : 11;
}

UMF_TEST_CHILD(ze_leaker) {
    ze_test_t t;
    bool leak;
    int status = leaker_start(argc, argv, sock, &t, &leak);
    if (status != 0) {
        return status;
    }
    void *dev = ze_test_alloc_device(&t, 4321, 1);
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *host = NULL, *imported = NULL;
    ze_ipc_mem_handle_t h;
    if (dev == NULL || zeMemAllocHost(t.ctx, &hd, 99, 0, &host) != 0 ||
        zeMemGetIpcHandle(t.ctx, dev, &h) != 0 ||
        zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, &imported) != 0) {
        return 12;
    }
    if (leak) {
        return 0; // what the leak report does with the status is tested
    }
    zeMemCloseIpcHandle(t.ctx, imported);
    zeMemFree(t.ctx, host);
    zeMemFree(t.ctx, dev);
    ze_test_teardown(&t);
    return 0;
}

UMF_C_TEST(ZeLeaks, ReportAndStrictExitStatus) {
    if (!ze_test_ipc_capable()) {
        return; // the leaker exports
    }
    char *text = umf_test_check_leak_modes("ze_leaker", "4321 bytes");
    UMF_ASSERT(text != NULL);
    UMF_EXPECT(strstr(text, "4321 bytes of device memory") != NULL);
    UMF_EXPECT(strstr(text, "on device 1") != NULL);
    UMF_EXPECT(strstr(text, "99 bytes of host memory") != NULL);
    UMF_EXPECT(strstr(text, "IPC handle") != NULL);
    UMF_EXPECT(strstr(text, "imported mapping") != NULL);
    UMF_EXPECT(strstr(text, "context 0x") != NULL);
    UMF_EXPECT(strstr(text, "command list 0x") != NULL);
    UMF_EXPECT(strstr(text, "exiting with status 86") != NULL);
    free(text);
}

UMF_C_TEST(ZeLeaks, LiveCountsAndReportOnRequest) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    int64_t allocs = ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    void *p = ze_test_alloc_device(&t, 777, 0);
    UMF_ASSERT(p != NULL);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                  allocs + 1);
    int fds[2];
    UMF_ASSERT_EQ(pipe(fds), 0);
    UMF_EXPECT(ctl->write_leak_report(fds[1]) >= 3); // p, context, list
    close(fds[1]);
    char *text = umf_test_read_all(fds[0]);
    close(fds[0]);
    UMF_ASSERT(text != NULL);
    UMF_EXPECT(strstr(text, "777 bytes of device memory") != NULL);
    free(text);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocs);
    ze_test_teardown(&t);
}

// An event pool destroyed while its events live (as Intel's driver allows):
// an event never destroyed is still a leak, a pool that went is none.
UMF_TEST_CHILD(ze_event_leaker) {
    ze_test_t t;
    bool leak;
    int status = leaker_start(argc, argv, sock, &t, &leak);
    if (status != 0) {
        return status;
    }
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 1, 0, 0};
    ze_event_pool_handle_t pool;
    ze_event_handle_t e;
    if (zeEventPoolCreate(t.ctx, &pd, 0, NULL, &pool) != 0 ||
        zeEventCreate(pool, &ed, &e) != 0 || zeEventPoolDestroy(pool) != 0 ||
        zeEventHostSignal(e) != 0) {
        return 12;
    }
    if (leak) {
        return 0; // the event, and its context (which would release it)
    }
    if (zeEventDestroy(e) != 0) {
        return 14;
    }
    ze_test_teardown(&t);
    return 0;
}

UMF_C_TEST(ZeLeaks, AnEventOfADestroyedPoolIsReported) {
    char *text = umf_test_check_leak_modes("ze_event_leaker", "event 0x");
    UMF_ASSERT(text != NULL);
    UMF_EXPECT(strstr(text, "event pool 0x") == NULL);
    free(text);
}
