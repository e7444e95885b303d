// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// 8 threads allocating, copying, exporting, opening and freeing at once in
// one context (run under TSan in CI).

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

typedef struct worker_t {
    ze_test_t *shared; // driver, devices and the shared context
    int index;
    int errors;
} worker_t;

static void *work(void *arg) {
    worker_t *w = arg;
    ze_test_t t = *w->shared;
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    // Command lists are not thread-safe: one per thread.
    if (zeCommandListCreateImmediate(t.ctx, t.devices[0], &qd, &t.list) !=
        ZE_RESULT_SUCCESS) {
        w->errors++;
        return NULL;
    }
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    unsigned seed = (unsigned)w->index + 1;
    unsigned char byte = (unsigned char)(0x10 + w->index);
    void *mine[8] = {0};
    for (int i = 0; i < 400; i++) {
        int slot = rand_r(&seed) % 8;
        if (mine[slot] != NULL) {
            if (!ze_test_all_bytes(&t, mine[slot], byte, 64) ||
                zeMemFree(t.ctx, mine[slot]) != ZE_RESULT_SUCCESS) {
                w->errors++;
            }
            mine[slot] = NULL;
            continue;
        }
        size_t size = 64 + (size_t)(rand_r(&seed) % 20000);
        unsigned dev = (unsigned)(rand_r(&seed) % 2);
        if (zeMemAllocDevice(t.ctx, &dd, size, 0, t.devices[dev],
                             &mine[slot]) != ZE_RESULT_SUCCESS ||
            !ze_test_fill_byte(&t, mine[slot], byte, 64)) {
            w->errors++;
            mine[slot] = NULL;
            continue;
        }
        if (ze_test_ipc_capable() && rand_r(&seed) % 3 == 0) {
            ze_ipc_mem_handle_t h;
            void *view = NULL;
            if (zeMemGetIpcHandle(t.ctx, mine[slot], &h) != ZE_RESULT_SUCCESS ||
                zeMemOpenIpcHandle(t.ctx, t.devices[dev], h, 0, &view) !=
                    ZE_RESULT_SUCCESS ||
                !ze_test_all_bytes(&t, view, byte, 64) ||
                zeMemCloseIpcHandle(t.ctx, view) != ZE_RESULT_SUCCESS) {
                w->errors++;
            }
        }
    }
    for (int slot = 0; slot < 8; slot++) {
        if (mine[slot] != NULL &&
            zeMemFree(t.ctx, mine[slot]) != ZE_RESULT_SUCCESS) {
            w->errors++;
        }
    }
    if (zeCommandListDestroy(t.list) != ZE_RESULT_SUCCESS) {
        w->errors++;
    }
    return NULL;
}

UMF_C_TEST(ZeThreads, EightThreadsAllocCopyExportFree) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    int64_t allocs = ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    pthread_t th[8];
    worker_t w[8];
    for (int i = 0; i < 8; i++) {
        w[i] = (worker_t){&t, i, 0};
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        UMF_EXPECT_EQ(w[i].errors, 0);
    }
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocs);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_IPC_HANDLES), 0);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 0);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_QUARANTINED), 0);
    ze_test_teardown(&t);
}
