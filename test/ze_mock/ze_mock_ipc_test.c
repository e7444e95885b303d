// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC through the loader, in the memory mode of the environment (ctest runs
// this suite in each mode): handles, the fd the driver owns, opens in this
// process, and a fork/exec consumer that takes the fd with pidfd_getfd,
// opens, reads and writes through copies, and keeps its mapping valid
// after the exporter frees.

#include <fcntl.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_test_util.h"

// ZE_TEST_SETUP, for tests that need IPC (none in the malloc mode), and the
// control API.
#define SETUP_IPC(t, ctl)                                                      \
    ZE_TEST_SETUP(t);                                                          \
    if (!ze_test_ipc_capable()) {                                              \
        ze_test_teardown(&t);                                                  \
        return;                                                                \
    }                                                                          \
    const umf_test_mock_control_t *ctl = ze_test_control();                    \
    UMF_ASSERT(ctl != NULL);

static int handle_fd(const ze_ipc_mem_handle_t *h) {
    int fd;
    memcpy(&fd, h->data, sizeof(fd)); // the fd comes first
    return fd;
}

static bool fd_open(int fd) {
    return fcntl(fd, F_GETFD) >= 0;
}

UMF_C_TEST(ZeIpc, NotInMallocModeNorForHostMemory) {
    ZE_TEST_SETUP(t);
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *host;
    UMF_ASSERT_EQ(zeMemAllocHost(t.ctx, &hd, 64, 0, &host), ZE_RESULT_SUCCESS);
    ze_ipc_mem_handle_t h;
    UMF_EXPECT_EQ(zeMemGetIpcHandle(t.ctx, host, &h),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    int on_stack;
    UMF_EXPECT_EQ(zeMemGetIpcHandle(t.ctx, &on_stack, &h),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    void *dev = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(dev != NULL);
    if (!ze_test_ipc_capable()) {
        UMF_EXPECT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h),
                      ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeMemGetIpcHandle(t.ctx, dev, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, host), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeIpc, DriverOwnsTheFd) {
    SETUP_IPC(t, ctl);
    // The device's memory exists from its first allocation on.
    void *warm = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(warm != NULL);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, warm), ZE_RESULT_SUCCESS);
    int fds = umf_test_count_open_fds();
    char *dev = ze_test_alloc_device(&t, 3 * 4096, 0);
    UMF_ASSERT(dev != NULL);
    ze_ipc_mem_handle_t h1, h2, h3;
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h1), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h2), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev + 5000, &h3), ZE_RESULT_SUCCESS);
    UMF_EXPECT(memcmp(&h1, &h2, sizeof(h1)) == 0); // the same fd each time
    UMF_EXPECT(memcmp(&h1, &h3, sizeof(h1)) == 0); // of the whole allocation
    UMF_EXPECT(fd_open(handle_fd(&h1)));
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_IPC_HANDLES), 1);
    UMF_EXPECT_EQ(umf_test_count_open_fds(), fds + 1);
    // Freeing closes it: a caller that never releases handles leaks no fd.
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT(!fd_open(handle_fd(&h1)));
    UMF_EXPECT_EQ(umf_test_count_open_fds(), fds);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_IPC_HANDLES), 0);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeIpc, OpenInThisProcess) {
    SETUP_IPC(t, ctl);
    enum { N = 10000 };
    char *dev = ze_test_alloc_device(&t, N, 1);
    UMF_ASSERT(dev != NULL);
    UMF_ASSERT(ze_test_fill_byte(&t, dev, 0x42, N));
    ze_ipc_mem_handle_t h;
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h), ZE_RESULT_SUCCESS);
    int fds = umf_test_count_open_fds();
    void *a, *b;
    UMF_ASSERT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, &a),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h,
                                     ZE_IPC_MEMORY_FLAG_BIAS_CACHED, &b),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(a != b && a != dev); // a new mapping each time
    UMF_EXPECT_EQ(umf_test_count_open_fds(), fds);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 2);
    UMF_EXPECT(ze_test_all_bytes(&t, a, 0x42, N));
    UMF_ASSERT(ze_test_fill_byte(&t, b, 0x43, 100));
    UMF_EXPECT(ze_test_all_bytes(&t, dev, 0x43, 100));
    ze_memory_allocation_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t d;
    UMF_ASSERT_EQ(zeMemGetAllocProperties(t.ctx, (char *)a + 5000, &mp, &d),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(mp.type, ZE_MEMORY_TYPE_DEVICE);
    UMF_EXPECT_PTR_EQ(d, t.devices[0]);
    // Imports are closed, not freed; allocations are freed, not closed.
    UMF_EXPECT_EQ(zeMemFree(t.ctx, a), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, dev),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, (char *)a + 1),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // The exporter frees: the imports keep memory and contents.
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    void *again[16];
    for (int i = 0; i < 16; i++) {
        again[i] = ze_test_alloc_device(&t, N, 1);
        UMF_ASSERT(again[i] != NULL);
        UMF_EXPECT(!ze_test_arena() || again[i] != dev);
        UMF_EXPECT(ze_test_fill_byte(&t, again[i], 0, N));
    }
    UMF_EXPECT(ze_test_all_bytes(&t, a, 0x43, 100));
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)b + 100, 0x42, N - 100));
    if (ze_test_arena()) {
        UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_QUARANTINED), 1);
    }
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, a),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, b), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_QUARANTINED), 0);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 0);
    for (int i = 0; i < 16; i++) {
        UMF_EXPECT_EQ(zeMemFree(t.ctx, again[i]), ZE_RESULT_SUCCESS);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeIpc, BadHandles) {
    ZE_TEST_SETUP(t);
    ze_ipc_mem_handle_t h;
    memset(&h, 0, sizeof(h));
    void *p;
    UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, &p),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    memset(&h, 0xa5, sizeof(h));
    UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, &p),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    if (ze_test_ipc_capable()) {
        void *dev = ze_test_alloc_device(&t, 64, 0);
        UMF_ASSERT(dev != NULL);
        UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &h), ZE_RESULT_SUCCESS);
        ze_ipc_mem_handle_t bad = h;
        bad.data[40] ^= 1; // a flipped bit
        UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], bad, 0, &p),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        bad = h;
        int not_ours = STDERR_FILENO; // an fd that is no memory of ours
        memcpy(bad.data, &not_ours, sizeof(not_ours));
        UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], bad, 0, &p),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0x40, &p),
                      ZE_RESULT_ERROR_INVALID_ENUMERATION);
        if (!ze_test_intercept()) {
            UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, NULL),
                          ZE_RESULT_ERROR_INVALID_NULL_POINTER);
            UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, NULL, h, 0, &p),
                          ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
            UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, NULL),
                          ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        }
        UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
        // After the free the handle is stale.
        UMF_EXPECT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], h, 0, &p),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    ze_test_teardown(&t);
}

// ---- Across processes -----------------------------------------------------

enum { XP_SIZE = 300000 };

typedef struct xp_msg_t {
    ze_ipc_mem_handle_t handle;
    pid_t pid;
} xp_msg_t;

// The consumer, in a fresh process: takes the exporter's fd, opens, checks,
// writes, then (after the exporter freed and reused) checks again.
UMF_TEST_CHILD(ze_ipc_consumer) {
    (void)argc;
    (void)argv;
    ze_test_t t;
    xp_msg_t msg;
    if (!ze_test_setup(&t) || umf_test_recv(sock, &msg, sizeof(msg))) {
        return 10;
    }
    int pidfd = pidfd_open(msg.pid, 0);
    int fd = pidfd < 0 ? -1 : pidfd_getfd(pidfd, handle_fd(&msg.handle), 0);
    if (fd < 0) {
        return 11;
    }
    close(pidfd);
    memcpy(msg.handle.data, &fd, sizeof(fd)); // our fd, as a real consumer
    void *p;
    if (zeMemOpenIpcHandle(t.ctx, t.devices[1], msg.handle, 0, &p) !=
        ZE_RESULT_SUCCESS) {
        return 12;
    }
    if (!fd_open(fd)) {
        return 13; // the open took our fd
    }
    close(fd); // the mapping does not need it
    if (!ze_test_all_bytes(&t, p, 0x5a, XP_SIZE)) {
        return 14;
    }
    if (!ze_test_fill_byte(&t, (char *)p + 1000, 0x77, 1000)) {
        return 15;
    }
    char ack = 'k';
    if (umf_test_send(sock, &ack, 1) || umf_test_recv(sock, &ack, 1)) {
        return 16;
    }
    // The exporter freed the allocation and reused memory meanwhile.
    if (!ze_test_all_bytes(&t, p, 0x5a, 1000) ||
        !ze_test_all_bytes(&t, (char *)p + 1000, 0x77, 1000) ||
        !ze_test_all_bytes(&t, (char *)p + 2000, 0x5a, XP_SIZE - 2000)) {
        return 17;
    }
    if (zeMemCloseIpcHandle(t.ctx, p) != ZE_RESULT_SUCCESS) {
        return 18;
    }
    ze_test_teardown(&t);
    return umf_test_send(sock, &ack, 1) ? 19 : 0;
}

UMF_C_TEST(ZeIpc, AcrossProcessesAndAfterTheExporterFrees) {
    SETUP_IPC(t, ctl);
    char *dev = ze_test_alloc_device(&t, XP_SIZE, 0);
    UMF_ASSERT(dev != NULL);
    UMF_ASSERT(ze_test_fill_byte(&t, dev, 0x5a, XP_SIZE));
    xp_msg_t msg = {.pid = getpid()};
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &msg.handle),
                  ZE_RESULT_SUCCESS);
    umf_test_child_t child;
    UMF_ASSERT_EQ(umf_test_child_start(&child, "ze_ipc_consumer", NULL), 0);
    char ack = 0;
    UMF_EXPECT_EQ(umf_test_send(child.sock, &msg, sizeof(msg)), 0);
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &ack, 1), 0);
    // The consumer's writes are ours to read.
    UMF_EXPECT(ze_test_all_bytes(&t, dev + 1000, 0x77, 1000));
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    void *again[8];
    for (int i = 0; i < 8; i++) {
        again[i] = ze_test_alloc_device(&t, XP_SIZE, 0);
        UMF_ASSERT(again[i] != NULL);
        UMF_EXPECT(!ze_test_arena() || again[i] != dev);
        UMF_EXPECT(ze_test_fill_byte(&t, again[i], 0x11, XP_SIZE));
    }
    if (ze_test_arena()) {
        UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_QUARANTINED), 1);
    }
    UMF_EXPECT_EQ(umf_test_send(child.sock, &ack, 1), 0);
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &ack, 1), 0);
    UMF_EXPECT_EQ(umf_test_child_wait(&child), 0);
    // The consumer closed: the pages may be reused now.
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_QUARANTINED), 0);
    for (int i = 0; i < 8; i++) {
        UMF_EXPECT_EQ(zeMemFree(t.ctx, again[i]), ZE_RESULT_SUCCESS);
    }
    ze_test_teardown(&t);
}
