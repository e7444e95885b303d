// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: the device queries, one test per clause of ze_api.h. What a
// real GPU reports differs; what the emulated driver reports ("no kernels,
// no images, no external memory") is checked when its control API is
// there, the clauses themselves everywhere.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

static bool emulated(void) {
    return ze_test_control_if_emulated() != NULL;
}

// "When stype==ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES the units are in
// nanoseconds. When stype==ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 units
// are in cycles/sec": the two describe one timer.
UMF_C_TEST(zeDeviceGetProperties, TimerResolutionUnitsOfBothStructureTypes) {
    ZE_TEST_SETUP(t);
    for (uint32_t i = 0; i < t.device_count; i++) {
        ze_device_properties_t ns = {.stype =
                                         ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        ze_device_properties_t hz = {
            .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2};
        UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[i], &ns),
                      ZE_RESULT_SUCCESS);
        UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[i], &hz),
                      ZE_RESULT_SUCCESS);
        UMF_ASSERT(ns.timerResolution > 0 && hz.timerResolution > 0);
        // ns per tick * ticks per second = 1e9, up to the rounding of
        // an integer nanosecond count (real timers tick at e.g. 19.2 MHz).
        double product =
            (double)ns.timerResolution * (double)hz.timerResolution;
        UMF_C_CHECK_(product >= 0.5e9 && product <= 2e9, (void)0,
                     "%llu ns per tick and %llu ticks per second disagree",
                     (unsigned long long)ns.timerResolution,
                     (unsigned long long)hz.timerResolution);
        if (emulated()) {
            UMF_EXPECT_EQ(ns.timerResolution, 1);
            UMF_EXPECT_EQ(hz.timerResolution, 1000000000u);
        }
    }
    ze_test_teardown(&t);
}

// zeDeviceGetGlobalTimestamps: INVALID_NULL_POINTER `nullptr ==
// hostTimestamp`, `nullptr == deviceTimestamp`; the values correlate and
// advance.
UMF_C_TEST(zeDeviceGetGlobalTimestamps, CorrelatedValuesThatAdvance) {
    ZE_TEST_SETUP(t);
    uint64_t h0, d0, h1, d1;
    UMF_ASSERT_EQ(zeDeviceGetGlobalTimestamps(t.devices[0], &h0, &d0),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeDeviceGetGlobalTimestamps(t.devices[0], &h1, &d1),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(h1 >= h0);
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    UMF_ASSERT_EQ(zeDeviceGetProperties(t.devices[0], &p), ZE_RESULT_SUCCESS);
    uint64_t mask = p.timestampValidBits >= 64
                        ? UINT64_MAX
                        : (1ull << p.timestampValidBits) - 1;
    UMF_EXPECT((d1 & mask) >= (d0 & mask) || p.timestampValidBits < 64);
    if (emulated()) {
        // The device's timer is the host clock, read once for both.
        UMF_EXPECT_EQ(h0, d0);
        UMF_EXPECT_EQ(h1, d1);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeDeviceGetGlobalTimestamps(t.devices[0], NULL, &d0),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetGlobalTimestamps(t.devices[0], &h0, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetGlobalTimestamps(NULL, &h0, &d0),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// "spirvVersionSupported: Returns zero if SPIR-V is not supported", and
// fp16flags / fp64flags 0 when FP16 / FP64 are not set.
UMF_C_TEST(zeDeviceGetModuleProperties, FlagsAgreeWithTheirFields) {
    ZE_TEST_SETUP(t);
    ze_device_module_properties_t p = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    UMF_ASSERT_EQ(zeDeviceGetModuleProperties(t.devices[0], &p),
                  ZE_RESULT_SUCCESS);
    if ((p.flags & ZE_DEVICE_MODULE_FLAG_FP16) == 0) {
        UMF_EXPECT_EQ(p.fp16flags, 0);
    }
    if ((p.flags & ZE_DEVICE_MODULE_FLAG_FP64) == 0) {
        UMF_EXPECT_EQ(p.fp64flags, 0);
    }
    static const ze_native_kernel_uuid_t none;
    if (emulated() && p.spirvVersionSupported == 0) {
        // No CPU backend, so no kernels: nothing at all.
        UMF_EXPECT_EQ(p.flags, 0);
        UMF_EXPECT_EQ(p.fp32flags, 0);
        UMF_EXPECT_EQ(p.maxArgumentsSize, 0);
        UMF_EXPECT_EQ(p.printfBufferSize, 0);
        UMF_EXPECT(memcmp(&p.nativeKernelSupported, &none, sizeof(none)) == 0);
    } else if (emulated()) {
        // What the CPU backend runs: single precision that rounds to
        // nearest, as every OpenCL device must, arguments, a native format.
        UMF_EXPECT((p.fp32flags & ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST) != 0);
        UMF_EXPECT(p.maxArgumentsSize >= 1024);
        UMF_EXPECT(memcmp(&p.nativeKernelSupported, &none, sizeof(none)) != 0);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeDeviceGetModuleProperties(t.devices[0], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetModuleProperties(NULL, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// "if 0, then 1D images are unsupported" (and so on for each field).
UMF_C_TEST(zeDeviceGetImageProperties, ZeroMeansUnsupported) {
    ZE_TEST_SETUP(t);
    ze_device_image_properties_t p;
    memset(&p, 0xa5, sizeof(p));
    p.stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES;
    p.pNext = NULL;
    UMF_ASSERT_EQ(zeDeviceGetImageProperties(t.devices[0], &p),
                  ZE_RESULT_SUCCESS);
    if (emulated()) {
        UMF_EXPECT_EQ(p.maxImageDims1D, 0);
        UMF_EXPECT_EQ(p.maxImageDims2D, 0);
        UMF_EXPECT_EQ(p.maxImageDims3D, 0);
        UMF_EXPECT_EQ(p.maxImageBufferSize, 0);
        UMF_EXPECT_EQ(p.maxImageArraySlices, 0);
        UMF_EXPECT_EQ(p.maxSamplers, 0);
        UMF_EXPECT_EQ(p.maxReadImageArgs, 0);
        UMF_EXPECT_EQ(p.maxWriteImageArgs, 0);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeDeviceGetImageProperties(t.devices[0], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetImageProperties(NULL, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDeviceGetExternalMemoryProperties, TypesAreKnownFlags) {
    ZE_TEST_SETUP(t);
    ze_device_external_memory_properties_t p;
    memset(&p, 0xa5, sizeof(p));
    p.stype = ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES;
    p.pNext = NULL;
    UMF_ASSERT_EQ(zeDeviceGetExternalMemoryProperties(t.devices[0], &p),
                  ZE_RESULT_SUCCESS);
    ze_external_memory_type_flags_t known =
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_WIN32 |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_WIN32_KMT |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_D3D11_TEXTURE |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_D3D11_TEXTURE_KMT |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_D3D12_HEAP |
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_D3D12_RESOURCE;
    UMF_EXPECT_EQ(p.memoryAllocationImportTypes & ~known, 0);
    UMF_EXPECT_EQ(p.memoryAllocationExportTypes & ~known, 0);
    if (emulated()) { // memory crosses processes by IPC handles only
        UMF_EXPECT_EQ(p.memoryAllocationImportTypes, 0);
        UMF_EXPECT_EQ(p.memoryAllocationExportTypes, 0);
        UMF_EXPECT_EQ(p.imageImportTypes, 0);
        UMF_EXPECT_EQ(p.imageExportTypes, 0);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeDeviceGetExternalMemoryProperties(t.devices[0], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetExternalMemoryProperties(NULL, &p),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// The count protocol: 0 asks how many; fewer gets that many; NULL pCount is
// INVALID_NULL_POINTER.
UMF_C_TEST(zeDeviceGetCacheProperties, CountProtocol) {
    ZE_TEST_SETUP(t);
    uint32_t n = 0;
    UMF_ASSERT_EQ(zeDeviceGetCacheProperties(t.devices[0], &n, NULL),
                  ZE_RESULT_SUCCESS);
    if (n > 0) {
        ze_device_cache_properties_t *p = calloc(n + 1, sizeof(*p));
        UMF_ASSERT(p != NULL);
        for (uint32_t i = 0; i <= n; i++) {
            p[i].stype = ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES;
        }
        uint32_t more = n + 1; // more than there are: set to the count
        UMF_EXPECT_EQ(zeDeviceGetCacheProperties(t.devices[0], &more, p),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(more, n);
        for (uint32_t i = 0; i < n; i++) {
            UMF_EXPECT(p[i].cacheSize > 0);
            UMF_EXPECT_EQ(
                p[i].flags & ~ZE_DEVICE_CACHE_PROPERTY_FLAG_USER_CONTROL, 0);
        }
        free(p);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeDeviceGetCacheProperties(t.devices[0], NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeDeviceGetCacheProperties(NULL, &n, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// sharedSystemAllocCapabilities: with RW, the device reads and writes
// system memory (malloc) directly; the emulated device's copies and fills
// do, so it claims RW and CONCURRENT, and no atomics (no kernels).
UMF_C_TEST(zeDeviceGetMemoryAccessProperties, SharedSystemMemoryIsUsable) {
    ZE_TEST_SETUP(t);
    ze_device_memory_access_properties_t p = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    UMF_ASSERT_EQ(zeDeviceGetMemoryAccessProperties(t.devices[0], &p),
                  ZE_RESULT_SUCCESS);
    if (emulated()) {
        ze_memory_access_cap_flags_t caps =
            ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT;
        UMF_EXPECT_EQ(p.sharedSystemAllocCapabilities, caps);
        UMF_EXPECT_EQ(p.hostAllocCapabilities, caps);
        UMF_EXPECT_EQ(p.deviceAllocCapabilities, caps);
        UMF_EXPECT_EQ(p.sharedSingleDeviceAllocCapabilities, caps);
        UMF_EXPECT_EQ(p.sharedCrossDeviceAllocCapabilities, caps);
    }
    if ((p.sharedSystemAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW) == 0) {
        ze_test_teardown(&t);
        return; // a GPU without system memory access: nothing to try
    }
    enum { N = 8192 };
    unsigned char *sys = malloc(N), *back = malloc(N);
    UMF_ASSERT(sys != NULL && back != NULL);
    memset(sys, 0x6d, N);
    void *dev = ze_test_alloc_device(&t, N, 0);
    UMF_ASSERT(dev != NULL);
    // System memory as source, as destination, and filled by the device.
    UMF_EXPECT_EQ(ze_test_copy(&t, dev, sys, N), ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, dev, 0x6d, N));
    unsigned char pattern = 0x2e;
    UMF_EXPECT_EQ(zeCommandListAppendMemoryFill(t.list, sys, &pattern, 1, N,
                                                NULL, 0, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ze_test_copy(&t, back, sys, N), ZE_RESULT_SUCCESS);
    bool filled = true;
    for (size_t i = 0; i < N; i++) {
        filled = filled && back[i] == 0x2e;
    }
    UMF_EXPECT(filled);
    // The driver does not know system memory as an allocation.
    ze_memory_allocation_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    UMF_EXPECT_EQ(zeMemGetAllocProperties(t.ctx, sys, &mp, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    free(sys);
    free(back);
    ze_test_teardown(&t);
}
