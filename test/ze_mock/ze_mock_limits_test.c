// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The device memory limit (UMF_GPU_MOCK_DEVICE_MEM=1G), maxMemAllocSize
// and the relaxed-allocation-limits descriptor, host memory beyond it.

#include "c_test.h"
#include "ze_test_util.h"

#define MiB (1ull << 20)

UMF_C_TEST(ZeLimits, DeviceMemoryLimit) {
    ZE_TEST_SETUP(t);
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_relaxed_allocation_limits_exp_desc_t relaxed = {
        ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL,
        ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE};
    ze_device_mem_alloc_desc_t rd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, .pNext = &relaxed};
    ze_device_handle_t d1 = t.devices[1];
    void *a = NULL, *b = NULL, *c = NULL;
    // Above maxMemAllocSize (512M): only with the relaxed descriptor.
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 512 * MiB + 1, 0, d1, &a),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &rd, 768 * MiB, 0, d1, &a),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 256 * MiB, 0, d1, &b),
                  ZE_RESULT_SUCCESS);
    // The device is full: one more page is out of device memory...
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &dd, 1, 0, d1, &c),
                  ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    UMF_EXPECT_EQ(zeMemAllocShared(t.ctx, &dd, &hd, 4096, 0, d1, &c),
                  ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    // ...of this device only; host memory has no such limit.
    UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 4096, 0, t.devices[0], &c),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, c), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocHost(t.ctx, &hd, 1536 * MiB, 0, &c),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, c), ZE_RESULT_SUCCESS);
    // More than the device has, relaxed or not.
    UMF_EXPECT_EQ(zeMemAllocDevice(t.ctx, &rd, 2048 * MiB, 0, t.devices[0], &c),
                  ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    // Freeing gives the memory back.
    UMF_EXPECT_EQ(zeMemFree(t.ctx, b), ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 256 * MiB, 0, d1, &b),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_fill_byte(&t, (char *)b + 256 * MiB - 4096, 0x3c, 4096));
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)b + 256 * MiB - 4096, 0x3c, 4096));
    UMF_EXPECT_EQ(zeMemFree(t.ctx, a), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, b), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeLimits, ManySmallAllocations) {
    ZE_TEST_SETUP(t);
    enum { N = 3000 };
    static void *p[N];
    for (int i = 0; i < N; i++) {
        p[i] = ze_test_alloc_device(&t, 64 + (size_t)i, (unsigned)i % 2);
        UMF_ASSERT(p[i] != NULL);
    }
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    UMF_EXPECT(ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS) >= N);
    for (int i = 0; i < N; i++) {
        UMF_EXPECT_EQ(zeMemFree(t.ctx, p[i]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS), 0);
    ze_test_teardown(&t);
}
