// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: allocation with every flag ze_api.h defines. The only
// enumeration error of zeMemAllocDevice, zeMemAllocShared and
// zeMemAllocHost is a flag above the header's mask (`0x7 <
// device_desc->flags`, `0xf < host_desc->flags`); every defined flag
// (ze_device_mem_alloc_flag_t, ze_host_mem_alloc_flag_t) is a placement or
// caching hint, and the allocation it asks for is usable memory. (The
// conformance suite writes through what it gets: a refused valid flag
// crashed it.) ZeConfFlags checks the masks themselves against the header.
// These run unchanged on a real GPU.

#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

enum { SIZE = 8192 };

static const ze_device_mem_alloc_flags_t device_flags[] = {
    0,
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED,
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED,
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED |
        ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
};

static const ze_host_mem_alloc_flags_t host_flags[] = {
    0,
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED,
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED,
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED,
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED |
        ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

// The memory at `p` holds what is copied in and gives it back, and the
// driver knows it as memory of `type`.
static void check_usable(ze_test_t *t, void *p, ze_memory_type_t type,
                         const char *what, unsigned flags) {
    UMF_C_CHECK_(p != NULL, return, "%s(flags 0x%x): NULL", what, flags);
    unsigned char byte = (unsigned char)(0x30 + flags);
    UMF_C_CHECK_(ze_test_fill_byte(t, p, byte, SIZE) &&
                     ze_test_all_bytes(t, p, byte, SIZE),
                 (void)0, "%s(flags 0x%x): the memory does not hold a copy",
                 what, flags);
    ze_memory_allocation_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    UMF_EXPECT_EQ(zeMemGetAllocProperties(t->ctx, p, &mp, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_C_CHECK_(mp.type == type, (void)0, "%s(flags 0x%x): memory type %d",
                 what, flags, (int)mp.type);
}

UMF_C_TEST(zeMemAllocDevice, EachDefinedFlagGivesUsableMemory) {
    ZE_TEST_SETUP(t);
    for (size_t i = 0; i < COUNT(device_flags); i++) {
        ze_device_mem_alloc_desc_t dd = {
            ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, device_flags[i], 0};
        void *p = NULL;
        ze_result_t r = zeMemAllocDevice(t.ctx, &dd, SIZE, 0, t.devices[0], &p);
        UMF_C_CHECK_(r == ZE_RESULT_SUCCESS, continue,
                     "zeMemAllocDevice(flags 0x%x): 0x%x", device_flags[i], r);
        check_usable(&t, p, ZE_MEMORY_TYPE_DEVICE, "zeMemAllocDevice",
                     device_flags[i]);
        UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(zeMemAllocShared, EachDefinedFlagGivesUsableMemory) {
    ZE_TEST_SETUP(t);
    for (size_t i = 0; i < COUNT(device_flags); i++) {
        for (size_t k = 0; k < COUNT(host_flags); k++) {
            ze_device_mem_alloc_desc_t dd = {
                ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, device_flags[i],
                0};
            ze_host_mem_alloc_desc_t hd = {
                ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, host_flags[k]};
            void *p = NULL;
            ze_result_t r =
                zeMemAllocShared(t.ctx, &dd, &hd, SIZE, 0, t.devices[0], &p);
            unsigned both = (unsigned)(device_flags[i] << 4 | host_flags[k]);
            UMF_C_CHECK_(r == ZE_RESULT_SUCCESS, continue,
                         "zeMemAllocShared(device flags 0x%x, host flags "
                         "0x%x): 0x%x",
                         device_flags[i], host_flags[k], r);
            check_usable(&t, p, ZE_MEMORY_TYPE_SHARED, "zeMemAllocShared",
                         both);
            UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
        }
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(zeMemAllocHost, EachDefinedFlagGivesUsableMemory) {
    ZE_TEST_SETUP(t);
    for (size_t k = 0; k < COUNT(host_flags); k++) {
        ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
                                       NULL, host_flags[k]};
        void *p = NULL;
        ze_result_t r = zeMemAllocHost(t.ctx, &hd, SIZE, 0, &p);
        UMF_C_CHECK_(r == ZE_RESULT_SUCCESS, continue,
                     "zeMemAllocHost(flags 0x%x): 0x%x", host_flags[k], r);
        check_usable(&t, p, ZE_MEMORY_TYPE_HOST, "zeMemAllocHost",
                     host_flags[k]);
        UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    }
    ze_test_teardown(&t);
}
