// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero provider on the emulated driver, through the real loader:
// parameters, initialize rules, allocation (types, ordinals, alignments,
// sizes, out of memory), free policies, page sizes, residency, split and
// merge, stats and properties, loading, and threads. Fault injection is in
// provider_level_zero_faults_test.cpp, IPC in provider_level_zero_ipc_test.cpp.

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

extern "C" {
#include "memory_provider_internal.h"
#include "ze/ze_loader.h"
}

#include "gpu_test_ze.h"
#include "test_child.h"
#include "test_providers.h"

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

// ------------------------------------------------------------ parameters

TEST(ZeParams, EveryFunctionRejectsANullHandle) {
    ze_device_handle_t dev = reinterpret_cast<ze_device_handle_t>(0x10);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsCreate(nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsDestroy(nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetContext(
                  nullptr, reinterpret_cast<ze_context_handle_t>(0x10)),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetDevice(nullptr, dev),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetMemoryType(
                  nullptr, UMF_MEMORY_TYPE_DEVICE),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(nullptr, &dev, 1),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetFreePolicy(
                  nullptr, UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(nullptr, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetName(nullptr, "x"),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

class ZeParamsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umfLevelZeroMemoryProviderParamsCreate(&params),
                  UMF_RESULT_SUCCESS);
        ASSERT_NE(params, nullptr);
    }
    void TearDown() override {
        EXPECT_EQ(umfLevelZeroMemoryProviderParamsDestroy(params),
                  UMF_RESULT_SUCCESS);
    }
    umf_level_zero_memory_provider_params_handle_t params = nullptr;
};

TEST_F(ZeParamsTest, Context) {
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetContext(params, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetContext(
                  params, reinterpret_cast<ze_context_handle_t>(0x10)),
              UMF_RESULT_SUCCESS);
}

TEST_F(ZeParamsTest, DeviceAcceptsNullForHostMemory) {
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetDevice(
                  params, reinterpret_cast<ze_device_handle_t>(0x10)),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetDevice(params, nullptr),
              UMF_RESULT_SUCCESS);
}

TEST_F(ZeParamsTest, MemoryType) {
    for (auto t : {UMF_MEMORY_TYPE_UNKNOWN, UMF_MEMORY_TYPE_HOST,
                   UMF_MEMORY_TYPE_DEVICE, UMF_MEMORY_TYPE_SHARED}) {
        EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetMemoryType(params, t),
                  UMF_RESULT_SUCCESS);
    }
    // Values outside the enumeration: provider_level_zero_c_test.c (C++
    // may not even form them).
}

TEST_F(ZeParamsTest, ResidentDevices) {
    ze_device_handle_t a = reinterpret_cast<ze_device_handle_t>(0x10);
    ze_device_handle_t b = reinterpret_cast<ze_device_handle_t>(0x20);
    ze_device_handle_t two[] = {a, b}, dup[] = {a, b, a},
                       with_null[] = {a, nullptr};
    EXPECT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(params, nullptr, 2),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(params, dup, 3),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetResidentDevices(params,
                                                                 with_null, 2),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(params, two, 2),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(params, nullptr, 0),
        UMF_RESULT_SUCCESS);
    // A duplicate beyond the count is not looked at.
    EXPECT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(params, dup, 2),
        UMF_RESULT_SUCCESS);
}

TEST_F(ZeParamsTest, FreePolicy) {
    for (auto p : {UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT,
                   UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE,
                   UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE}) {
        EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetFreePolicy(params, p),
                  UMF_RESULT_SUCCESS);
    }
}

TEST_F(ZeParamsTest, OrdinalAndName) {
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(params, 7),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetName(params, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetName(params, ""),
              UMF_RESULT_SUCCESS);
}

TEST(ZeOps, TableIsComplete) {
    const umf_memory_provider_ops_t *ops = umfLevelZeroMemoryProviderOps();
    ASSERT_NE(ops, nullptr);
    EXPECT_EQ(ops->version, UMF_VERSION_CURRENT);
    EXPECT_NE(ops->ext.allocation_split, nullptr);
    EXPECT_NE(ops->ext.allocation_merge, nullptr);
    // Level Zero cannot drop the pages of a USM allocation.
    EXPECT_EQ(ops->ext.purge_lazy, nullptr);
    EXPECT_EQ(ops->ext.purge_force, nullptr);
    EXPECT_NE(ops->ipc.open_ipc_handle, nullptr);
}

// ------------------------------------------------------- initialize rules

using ZeInit = ZeProviderTest;

TEST_F(ZeInit, RejectsNullParams) {
    umf_memory_provider_handle_t h = nullptr;
    EXPECT_EQ(
        umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), nullptr, &h),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ZeInit, RequiresAContext) {
    ZeProviderConfig cfg;
    cfg.device = dev(0);
    umf_memory_provider_handle_t h = nullptr;
    EXPECT_EQ(ze_test_try_provider(cfg, &h), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(h, nullptr);
}

TEST_F(ZeInit, DeviceRulesOfEachMemoryType) {
    struct Case {
        umf_usm_memory_type_t type;
        bool with_device;
        umf_result_t expected;
    } cases[] = {
        {UMF_MEMORY_TYPE_HOST, false, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_HOST, true, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_DEVICE, true, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_DEVICE, false, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_SHARED, true, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_SHARED, false, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_UNKNOWN, true, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_UNKNOWN, false, UMF_RESULT_ERROR_INVALID_ARGUMENT},
    };
    for (const Case &c : cases) {
        ZeProviderConfig cfg;
        cfg.context = ctx_;
        cfg.type = c.type;
        cfg.device = c.with_device ? dev(0) : nullptr;
        umf_memory_provider_handle_t h = nullptr;
        EXPECT_EQ(ze_test_try_provider(cfg, &h), c.expected)
            << "type " << c.type << (c.with_device ? " with" : " without")
            << " a device";
        umfMemoryProviderDestroy(h);
    }
}

TEST_F(ZeInit, ReadsPageSizeAndKeepsTheName) {
    ZeProviderConfig cfg;
    cfg.device = dev(0);
    std::string longName(100, 'n');
    cfg.name = longName.c_str();
    umf_memory_provider_handle_t h = provider(cfg);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(std::string(umfMemoryProviderGetName(h)), longName.substr(0, 63));
    size_t page = 0;
    ASSERT_EQ(umfMemoryProviderGetMinPageSize(h, nullptr, &page),
              UMF_RESULT_SUCCESS);
    EXPECT_GT(page, 0u);
    EXPECT_TRUE((page & (page - 1)) == 0) << page;
    size_t recommended = 0;
    ASSERT_EQ(umfMemoryProviderGetRecommendedPageSize(h, 1 << 20, &recommended),
              UMF_RESULT_SUCCESS);
    EXPECT_GE(recommended, page);
    // The probe allocation is gone again.
    EXPECT_EQ(ze_test_calls("zeMemAllocDevice"), ze_test_calls("zeMemFree"));
    // Without a name: the default.
    EXPECT_STREQ(umfMemoryProviderGetName(provider()), "LEVEL_ZERO");
}

TEST_F(ZeInit, ResidentDevicesArrayIsCopied) {
    ZE_TEST_REQUIRE_MOCK();
    umf_level_zero_memory_provider_params_handle_t params = nullptr;
    ASSERT_EQ(umfLevelZeroMemoryProviderParamsCreate(&params),
              UMF_RESULT_SUCCESS);
    ze_device_handle_t devices[] = {dev(0)};
    ASSERT_EQ(umfLevelZeroMemoryProviderParamsSetContext(params, ctx_),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfLevelZeroMemoryProviderParamsSetDevice(params, dev(0)),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(
        umfLevelZeroMemoryProviderParamsSetResidentDevices(params, devices, 1),
        UMF_RESULT_SUCCESS);
    devices[0] = reinterpret_cast<ze_device_handle_t>(0xdead);
    umf_memory_provider_handle_t h = nullptr;
    ASSERT_EQ(
        umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params, &h),
        UMF_RESULT_SUCCESS);
    umfLevelZeroMemoryProviderParamsDestroy(params);
    void *p = nullptr;
    EXPECT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS)
        << "the provider used the caller's changed array";
    EXPECT_EQ(ze_test_calls("zeContextMakeMemoryResident"), 1);
    EXPECT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
    umfMemoryProviderDestroy(h);
}

// ----------------------------------------------------------- allocation

using ZeAlloc = ZeProviderTest;

TEST_F(ZeAlloc, EachMemoryTypeHoldsData) {
    struct Case {
        umf_usm_memory_type_t type;
        ze_memory_type_t driver_type;
    } cases[] = {{UMF_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_HOST},
                 {UMF_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_DEVICE},
                 {UMF_MEMORY_TYPE_SHARED, ZE_MEMORY_TYPE_SHARED}};
    for (const Case &c : cases) {
        ZeProviderConfig cfg;
        cfg.type = c.type;
        cfg.device = c.type == UMF_MEMORY_TYPE_HOST ? nullptr : dev(0);
        umf_memory_provider_handle_t h = provider(cfg);
        ASSERT_NE(h, nullptr);
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 3 * KiB, 0, &p),
                  UMF_RESULT_SUCCESS);
        ze_memory_allocation_properties_t props = {};
        props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
        ASSERT_EQ(
            ze_driver()->zeMemGetAllocProperties(ctx_, p, &props, nullptr),
            ZE_RESULT_SUCCESS);
        EXPECT_EQ(props.type, c.driver_type);
        EXPECT_TRUE(ze_test_write_pattern(ctx_, dev(0), p, 3 * KiB, 5));
        EXPECT_TRUE(ze_test_check_pattern(ctx_, dev(0), p, 3 * KiB, 5));
        EXPECT_EQ(umfMemoryProviderFree(h, p, 3 * KiB), UMF_RESULT_SUCCESS);
    }
}

TEST_F(ZeAlloc, EachDeviceAndOrdinal) {
    const umf_test_ze_t *ze = ze_driver();
    for (size_t d = 0; d < ze_devices().size(); d++) {
        uint32_t ordinals = 0;
        ASSERT_EQ(ze->zeDeviceGetMemoryProperties(dev(d), &ordinals, nullptr),
                  ZE_RESULT_SUCCESS);
        ASSERT_GT(ordinals, 0u);
        for (uint32_t o = 0; o < ordinals; o++) {
            ZeProviderConfig cfg;
            cfg.device = dev(d);
            cfg.ordinal = o;
            umf_memory_provider_handle_t h = provider(cfg);
            ASSERT_NE(h, nullptr);
            void *p = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &p), UMF_RESULT_SUCCESS);
            ze_device_handle_t owner = nullptr;
            ze_memory_allocation_properties_t props = {};
            props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
            ASSERT_EQ(ze->zeMemGetAllocProperties(ctx_, p, &props, &owner),
                      ZE_RESULT_SUCCESS);
            EXPECT_EQ(owner, dev(d));
            EXPECT_EQ(umfMemoryProviderFree(h, p, 64), UMF_RESULT_SUCCESS);
        }
    }
}

TEST_F(ZeAlloc, HonoursEveryPowerOfTwoAlignmentUpTo2MiB) {
    for (umf_usm_memory_type_t type :
         {UMF_MEMORY_TYPE_HOST, UMF_MEMORY_TYPE_DEVICE,
          UMF_MEMORY_TYPE_SHARED}) {
        ZeProviderConfig cfg;
        cfg.type = type;
        cfg.device = type == UMF_MEMORY_TYPE_HOST ? nullptr : dev(0);
        umf_memory_provider_handle_t h = provider(cfg);
        ASSERT_NE(h, nullptr);
        for (size_t align = 1; align <= 2 * MiB; align *= 2) {
            void *p = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(h, 100, align, &p),
                      UMF_RESULT_SUCCESS)
                << align;
            EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << align;
            EXPECT_EQ(umfMemoryProviderFree(h, p, 100), UMF_RESULT_SUCCESS);
        }
        void *p = nullptr;
        EXPECT_EQ(umfMemoryProviderAlloc(h, 100, 3, &p),
                  UMF_RESULT_ERROR_INVALID_ALIGNMENT);
        // The op itself checks too, for callers of the table other than
        // umfMemoryProviderAlloc.
        EXPECT_EQ(umfLevelZeroMemoryProviderOps()->alloc(
                      umf_memory_provider_get_priv(h), 100, 48, &p),
                  UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    }
}

TEST_F(ZeAlloc, ZeroAndHugeSizes) {
    umf_memory_provider_handle_t h = provider();
    void *p = reinterpret_cast<void *>(0x1);
    EXPECT_EQ(umfMemoryProviderAlloc(h, 0, 0, &p),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // No device holds SIZE_MAX bytes: the driver calls the size unsupported
    // (an invalid argument), with the native code to tell.
    for (size_t align : {size_t(0), size_t(2 * MiB)}) {
        EXPECT_EQ(umfMemoryProviderAlloc(h, SIZE_MAX, align, &p),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
        const char *msg = nullptr;
        int32_t code = 0;
        umfMemoryProviderGetLastNativeError(h, &msg, &code);
        EXPECT_EQ(code, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        EXPECT_NE(std::strstr(msg, "ZE_RESULT_ERROR_UNSUPPORTED_SIZE"), nullptr)
            << msg;
    }
}

TEST_F(ZeAlloc, DeviceOutOfMemoryIsTellable) {
    umf_memory_provider_handle_t h = provider();
    ze_device_memory_properties_t mem = {};
    mem.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    uint32_t count = 1;
    ASSERT_EQ(ze_driver()->zeDeviceGetMemoryProperties(dev(0), &count, &mem),
              ZE_RESULT_SUCCESS);
    void *p = nullptr;
    size_t too_big = static_cast<size_t>(mem.totalSize) + 64 * MiB;
    ASSERT_EQ(umfMemoryProviderAlloc(h, too_big, 0, &p),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), h);
    const char *msg = nullptr;
    int32_t code = 0;
    umfMemoryProviderGetLastNativeError(h, &msg, &code);
    EXPECT_EQ(code, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ASSERT_NE(msg, nullptr);
    EXPECT_NE(std::strstr(msg, "zeMemAllocDevice(size="), nullptr) << msg;
    EXPECT_NE(std::strstr(msg, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"), nullptr)
        << msg;
    EXPECT_NE(std::strstr(msg, "device memory ran out"), nullptr) << msg;
}

TEST_F(ZeAlloc, HostOutOfMemoryIsOutOfHostMemory) {
    ZE_TEST_REQUIRE_MOCK();
    umf_memory_provider_handle_t h = provider();
    ASSERT_EQ(ze_gpu()->mock.inject(
                  "zeMemAllocDevice:1=ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"),
              0);
    void *p = nullptr;
    EXPECT_EQ(umfMemoryProviderAlloc(h, 64, 0, &p),
              UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    const char *msg = nullptr;
    int32_t code = 0;
    umfMemoryProviderGetLastNativeError(h, &msg, &code);
    EXPECT_EQ(code, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    EXPECT_NE(std::strstr(msg, "host memory ran out"), nullptr) << msg;
}

// Above maxMemAllocSize the provider chains relaxed allocation limits, which
// the driver requires for such sizes.
TEST_F(ZeAlloc, RelaxedLimitsAboveMaxMemAllocSize) {
    ze_device_properties_t props = {};
    props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    ASSERT_EQ(ze_driver()->zeDeviceGetProperties(dev(0), &props),
              ZE_RESULT_SUCCESS);
    size_t size = static_cast<size_t>(props.maxMemAllocSize) + 4 * KiB;
    for (umf_usm_memory_type_t type :
         {UMF_MEMORY_TYPE_DEVICE, UMF_MEMORY_TYPE_SHARED}) {
        ZeProviderConfig cfg;
        cfg.type = type;
        cfg.device = dev(0);
        umf_memory_provider_handle_t h = provider(cfg);
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, size, 0, &p), UMF_RESULT_SUCCESS);
        EXPECT_TRUE(ze_test_write_pattern(
            ctx_, dev(0), static_cast<char *>(p) + size - 64, 64, 9));
        EXPECT_EQ(umfMemoryProviderFree(h, p, size), UMF_RESULT_SUCCESS);
    }
}

TEST_F(ZeAlloc, FreeRejectsWhatItDidNotAllocate) {
    umf_memory_provider_handle_t a = provider(), b = provider();
    void *p = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(a, 4096, 0, &p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(b, p, 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(a, static_cast<char *>(p) + 64, 4032),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(a, p, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(a, p, 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "double free";
}

TEST_F(ZeAlloc, FreePolicies) {
    ZE_TEST_REQUIRE_MOCK();
    struct Case {
        umf_level_zero_memory_provider_free_policy_t policy;
        const char *call;
    } cases[] = {
        {UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT, "zeMemFree"},
        {UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE,
         "zeMemFreeExt"},
        {UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE, "zeMemFreeExt"},
    };
    for (const Case &c : cases) {
        ZeProviderConfig cfg;
        cfg.device = dev(0);
        cfg.policy = c.policy;
        umf_memory_provider_handle_t h = provider(cfg);
        ASSERT_NE(h, nullptr);
        int64_t before = ze_test_calls(c.call);
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
        EXPECT_EQ(ze_test_calls(c.call), before + 1) << c.call;
    }
}

// A driver without the free-policy extension: the loader answers
// UNINITIALIZED (missing entry point) or the driver UNSUPPORTED_FEATURE.
TEST_F(ZeAlloc, FreePolicyWithoutDriverSupportIsRejectedAtInitialize) {
    ZE_TEST_REQUIRE_MOCK();
    for (const char *rule :
         {"zeMemFreeExt:1=ZE_RESULT_ERROR_UNSUPPORTED_FEATURE",
          "zeMemFreeExt:1=ZE_RESULT_ERROR_UNINITIALIZED"}) {
        ASSERT_EQ(ze_gpu()->mock.inject(rule), 0);
        ZeProviderConfig cfg;
        cfg.context = ctx_;
        cfg.device = dev(0);
        cfg.policy = UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE;
        umf_memory_provider_handle_t h = nullptr;
        EXPECT_EQ(ze_test_try_provider(cfg, &h), UMF_RESULT_ERROR_NOT_SUPPORTED)
            << rule;
        EXPECT_EQ(h, nullptr);
        ze_gpu()->mock.clear();
    }
}

// --------------------------------------------------------------- pages

TEST_F(ZeAlloc, MinPageSizeOfAPointer) {
    umf_memory_provider_handle_t h = provider();
    void *p = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 64 * KiB, 0, &p), UMF_RESULT_SUCCESS);
    size_t whole = 0, of_ptr = 0, inner = 0;
    ASSERT_EQ(umfMemoryProviderGetMinPageSize(h, nullptr, &whole),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderGetMinPageSize(h, p, &of_ptr),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderGetMinPageSize(h, static_cast<char *>(p) + 1000,
                                              &inner),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(of_ptr, whole);
    EXPECT_EQ(inner, of_ptr);
    int local = 0;
    EXPECT_EQ(umfMemoryProviderGetMinPageSize(h, &local, &inner),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(h, p, 64 * KiB), UMF_RESULT_SUCCESS);
}

// ------------------------------------------------------------ residency

using ZeResidency = ZeProviderTest;

TEST_F(ZeResidency, AllocationsAreResidentOnEveryResidentDevice) {
    ZE_TEST_REQUIRE_MOCK();
    ZeProviderConfig cfg;
    cfg.device = dev(0);
    cfg.resident = ze_devices();
    umf_memory_provider_handle_t h = provider(cfg);
    void *p = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(ze_test_calls("zeContextMakeMemoryResident"),
              static_cast<int64_t>(ze_devices().size()));
    EXPECT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
}

TEST_F(ZeResidency, FailureAtAllocationFreesTheMemory) {
    ZE_TEST_REQUIRE_MOCK();
    ZeProviderConfig cfg;
    cfg.device = dev(0);
    cfg.resident = ze_devices();
    umf_memory_provider_handle_t h = provider(cfg);
    int64_t live = ze_test_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    // The last device fails, so the ones before are evicted again.
    std::string rule =
        "zeContextMakeMemoryResident:" + std::to_string(ze_devices().size()) +
        "=ZE_RESULT_ERROR_DEVICE_LOST";
    ASSERT_EQ(ze_gpu()->mock.inject(rule.c_str()), 0);
    void *p = nullptr;
    EXPECT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(ze_test_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), live);
    EXPECT_EQ(ze_test_calls("zeContextEvictMemory"),
              static_cast<int64_t>(ze_devices().size()) - 1);
    const char *msg;
    int32_t code;
    umfMemoryProviderGetLastNativeError(h, &msg, &code);
    EXPECT_EQ(code, ZE_RESULT_ERROR_DEVICE_LOST);
    EXPECT_NE(std::strstr(msg, "zeContextMakeMemoryResident"), nullptr);
}

TEST_F(ZeResidency, DeviceChangeCoversEveryLiveAllocation) {
    ZE_TEST_REQUIRE_MOCK();
    ASSERT_GE(ze_devices().size(), 2u);
    umf_memory_provider_handle_t h = provider();
    std::vector<void *> ptrs(5);
    for (void *&p : ptrs) {
        ASSERT_EQ(umfMemoryProviderAlloc(h, 8192, 0, &p), UMF_RESULT_SUCCESS);
    }
    // One is split: the driver allocation still counts once.
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, ptrs[0], 8192, 4096),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), true),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(ze_test_calls("zeContextMakeMemoryResident"), 5);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), true),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "added twice";
    // New allocations follow the list.
    void *q = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &q), UMF_RESULT_SUCCESS);
    EXPECT_EQ(ze_test_calls("zeContextMakeMemoryResident"), 6);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), false),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(ze_test_calls("zeContextEvictMemory"), 6);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), false),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "removed while absent";
    EXPECT_EQ(umfMemoryProviderFree(h, q, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h, ptrs[0], 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(
        umfMemoryProviderFree(h, static_cast<char *>(ptrs[0]) + 4096, 4096),
        UMF_RESULT_SUCCESS);
    for (size_t i = 1; i < ptrs.size(); i++) {
        EXPECT_EQ(umfMemoryProviderFree(h, ptrs[i], 8192), UMF_RESULT_SUCCESS);
    }
}

TEST_F(ZeResidency, DeviceChangeFailuresChangeNothing) {
    ZE_TEST_REQUIRE_MOCK();
    ASSERT_GE(ze_devices().size(), 2u);
    umf_memory_provider_handle_t h = provider();
    std::vector<void *> ptrs(4);
    for (void *&p : ptrs) {
        ASSERT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS);
    }
    // Adding fails at the third allocation: the two made resident are
    // evicted, and the device is not added.
    ASSERT_EQ(ze_gpu()->mock.inject(
                  "zeContextMakeMemoryResident:3=ZE_RESULT_ERROR_DEVICE_LOST"),
              0);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), true),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), h);
    const char *msg;
    int32_t code;
    umfMemoryProviderGetLastNativeError(h, &msg, &code);
    EXPECT_EQ(code, ZE_RESULT_ERROR_DEVICE_LOST);
    EXPECT_EQ(ze_test_calls("zeContextEvictMemory"), 2);
    ze_gpu()->mock.clear();
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), false),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the failed add left the device in the list";
    ASSERT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), true),
              UMF_RESULT_SUCCESS);

    // Removing fails at the second: the first is made resident again, and
    // the device stays.
    ze_gpu()->mock.reset_calls();
    ASSERT_EQ(ze_gpu()->mock.inject(
                  "zeContextEvictMemory:2=ZE_RESULT_ERROR_DEVICE_LOST"),
              0);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), false),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(ze_test_calls("zeContextMakeMemoryResident"), 1);
    ze_gpu()->mock.clear();
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), true),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the failed removal took the device out of the list";
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(1), false),
              UMF_RESULT_SUCCESS);
    for (void *p : ptrs) {
        EXPECT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
    }
}

TEST_F(ZeResidency, DeviceChangeRejectsBadArguments) {
    umf_memory_provider_handle_t h = provider();
    EXPECT_EQ(
        umfLevelZeroMemoryProviderResidentDeviceChange(nullptr, dev(0), true),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, nullptr, true),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_memory_provider_handle_t other = nullptr;
    ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), nullptr, &other),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(
        umfLevelZeroMemoryProviderResidentDeviceChange(other, dev(0), true),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umfMemoryProviderDestroy(other);
}

TEST_F(ZeResidency, HostMemoryKeepsTheListWithoutDriverCalls) {
    ZE_TEST_REQUIRE_MOCK();
    ZeProviderConfig cfg;
    cfg.type = UMF_MEMORY_TYPE_HOST;
    cfg.resident = {dev(0)};
    umf_memory_provider_handle_t h = provider(cfg);
    ASSERT_NE(h, nullptr);
    void *p = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(0), true),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, dev(0), false),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(ze_test_calls("zeContextMakeMemoryResident"), 0);
    EXPECT_EQ(ze_test_calls("zeContextEvictMemory"), 0);
    EXPECT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
}

// -------------------------------------------------------- split and merge

using ZeSplitMerge = ZeProviderTest;

TEST_F(ZeSplitMerge, PiecesFreeInEveryOrder) {
    ZE_TEST_REQUIRE_MOCK();
    umf_memory_provider_handle_t h = provider();
    std::vector<int> order = {0, 1, 2, 3};
    do {
        int64_t frees = ze_test_calls("zeMemFree");
        char *p = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 16 * KiB, 0,
                                         reinterpret_cast<void **>(&p)),
                  UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderAllocationSplit(h, p, 16 * KiB, 4 * KiB),
                  UMF_RESULT_SUCCESS);
        ASSERT_EQ(
            umfMemoryProviderAllocationSplit(h, p + 4 * KiB, 12 * KiB, 4 * KiB),
            UMF_RESULT_SUCCESS);
        ASSERT_EQ(
            umfMemoryProviderAllocationSplit(h, p + 8 * KiB, 8 * KiB, 4 * KiB),
            UMF_RESULT_SUCCESS);
        // Every piece holds its own data.
        for (int i = 0; i < 4; i++) {
            ASSERT_TRUE(ze_test_write_pattern(ctx_, dev(0), p + i * 4 * KiB,
                                              4 * KiB, i));
        }
        for (size_t i = 0; i < order.size(); i++) {
            ASSERT_EQ(ze_test_calls("zeMemFree"), frees)
                << "released before its last piece";
            ASSERT_TRUE(ze_test_check_pattern(
                ctx_, dev(0), p + order[i] * 4 * KiB, 4 * KiB, order[i]));
            ASSERT_EQ(umfMemoryProviderFree(h, p + order[i] * 4 * KiB, 4 * KiB),
                      UMF_RESULT_SUCCESS);
        }
        ASSERT_EQ(ze_test_calls("zeMemFree"), frees + 1);
    } while (std::next_permutation(order.begin(), order.end()));
}

TEST_F(ZeSplitMerge, MergedPiecesFreeAsOne) {
    umf_memory_provider_handle_t h = provider();
    char *p = nullptr;
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 12 * KiB, 0, reinterpret_cast<void **>(&p)),
        UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, p, 12 * KiB, 4 * KiB),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(
        umfMemoryProviderAllocationSplit(h, p + 4 * KiB, 8 * KiB, 4 * KiB),
        UMF_RESULT_SUCCESS);
    // Not adjacent, wrong total, not pieces.
    EXPECT_EQ(umfMemoryProviderAllocationMerge(h, p, p + 8 * KiB, 8 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 12 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        umfMemoryProviderAllocationMerge(h, p + 4 * KiB, p + 6 * KiB, 4 * KiB),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(
        umfMemoryProviderAllocationMerge(h, p + 4 * KiB, p + 8 * KiB, 8 * KiB),
        UMF_RESULT_SUCCESS);
    umf_gpu_allocation_properties_t props;
    ASSERT_EQ(
        umfGpuMemoryProviderGetAllocationProperties(h, p + 10 * KiB, &props),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(props.base, p + 4 * KiB);
    EXPECT_EQ(props.size, 8 * KiB);
    EXPECT_EQ(umfMemoryProviderFree(h, p + 4 * KiB, 8 * KiB),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h, p, 4 * KiB), UMF_RESULT_SUCCESS);
}

TEST_F(ZeSplitMerge, RejectsBadSplitsAndForeignMerges) {
    umf_memory_provider_handle_t h = provider();
    char *a = nullptr, *b = nullptr;
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 8 * KiB, 0, reinterpret_cast<void **>(&a)),
        UMF_RESULT_SUCCESS);
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 8 * KiB, 0, reinterpret_cast<void **>(&b)),
        UMF_RESULT_SUCCESS);
    // Larger than the allocation, interior, not this provider's.
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a, 16 * KiB, 4 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a + 64, 4 * KiB, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    int local = 0;
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, &local, 8, 4),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, a, 8 * KiB, 4 * KiB),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, b, 8 * KiB, 4 * KiB),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a, 8 * KiB, 2 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the piece has 4 KiB now";
    // Pieces of two driver allocations never merge, even if adjacent.
    if (b == a + 8 * KiB) {
        EXPECT_EQ(umfMemoryProviderAllocationMerge(h, a + 4 * KiB, b, 8 * KiB),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    EXPECT_EQ(
        umfMemoryProviderAllocationMerge(h, a + 4 * KiB, b + 4 * KiB, 8 * KiB),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    for (char *p : {a, a + 4 * KiB, b, b + 4 * KiB}) {
        EXPECT_EQ(umfMemoryProviderFree(h, p, 4 * KiB), UMF_RESULT_SUCCESS);
    }
}

// ------------------------------------------------- stats and properties

using ZeExtensions = ZeProviderTest;

TEST_F(ZeExtensions, StatsCountAllocationsAndPeak) {
    umf_memory_provider_handle_t h = provider();
    umf_gpu_provider_stats_t s;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.alloc_count, 0u) << "the probe allocation is not counted";
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 3 * MiB, 0, &a), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAlloc(h, 100, 0, &b), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderFree(h, a, 3 * MiB), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.allocated_bytes, 100u);
    EXPECT_EQ(s.peak_bytes, 3 * MiB + 100);
    EXPECT_EQ(s.alloc_count, 2u);
    EXPECT_EQ(s.free_count, 1u);
    // Split pieces count as they are freed.
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, b, 100, 40),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderFree(h, b, 40), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.allocated_bytes, 60u);
    EXPECT_EQ(s.free_count, 2u);
    ASSERT_EQ(umfMemoryProviderFree(h, static_cast<char *>(b) + 40, 60),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.allocated_bytes, 0u);
    // A failed allocation counts nothing.
    void *p = nullptr;
    EXPECT_NE(umfMemoryProviderAlloc(h, SIZE_MAX, 0, &p), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.alloc_count, 2u);
    EXPECT_EQ(umfGpuMemoryProviderGetStats(h, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ZeExtensions, PropertiesOfAnyPointerInside) {
    for (umf_usm_memory_type_t type :
         {UMF_MEMORY_TYPE_HOST, UMF_MEMORY_TYPE_DEVICE,
          UMF_MEMORY_TYPE_SHARED}) {
        ZeProviderConfig cfg;
        cfg.type = type;
        cfg.device = type == UMF_MEMORY_TYPE_HOST
                         ? nullptr
                         : dev(1 % ze_devices().size());
        umf_memory_provider_handle_t h = provider(cfg);
        char *p = nullptr;
        ASSERT_EQ(
            umfMemoryProviderAlloc(h, 10000, 0, reinterpret_cast<void **>(&p)),
            UMF_RESULT_SUCCESS);
        ze_memory_allocation_properties_t zp = {};
        zp.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
        ASSERT_EQ(ze_driver()->zeMemGetAllocProperties(ctx_, p, &zp, nullptr),
                  ZE_RESULT_SUCCESS);
        for (size_t off : {size_t(0), size_t(1), size_t(5000), size_t(9999)}) {
            umf_gpu_allocation_properties_t props;
            std::memset(&props, 0xab, sizeof(props));
            ASSERT_EQ(
                umfGpuMemoryProviderGetAllocationProperties(h, p + off, &props),
                UMF_RESULT_SUCCESS);
            EXPECT_EQ(props.memory_type, type);
            EXPECT_EQ(props.base, p);
            EXPECT_EQ(props.size, 10000u);
            EXPECT_EQ(props.device, static_cast<void *>(cfg.device));
            EXPECT_EQ(props.context, static_cast<void *>(ctx_));
            EXPECT_EQ(props.driver_id, zp.id);
        }
        umf_gpu_allocation_properties_t props;
        int local = 0;
        EXPECT_EQ(
            umfGpuMemoryProviderGetAllocationProperties(h, &local, &props),
            UMF_RESULT_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(
            umfGpuMemoryProviderGetAllocationProperties(h, nullptr, &props),
            UMF_RESULT_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, p, nullptr),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
        // Memory of another provider on the same context is not this one's.
        umf_memory_provider_handle_t other = provider(cfg);
        EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(other, p, &props),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(umfMemoryProviderFree(h, p, 10000), UMF_RESULT_SUCCESS);
    }
}

TEST_F(ZeExtensions, NonGpuProvidersAreRefused) {
    umf_memory_provider_handle_t other = nullptr;
    ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), nullptr, &other),
        UMF_RESULT_SUCCESS);
    umf_gpu_provider_stats_t s;
    umf_gpu_allocation_properties_t props;
    int x = 0;
    EXPECT_EQ(umfGpuMemoryProviderGetStats(other, &s),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(other, &x, &props),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umfMemoryProviderDestroy(other);
}

// ---------------------------------------------------------------- loading

// argv[0]: the UMF_GPU_ZE_LOADER value. Prints the result of creating a
// provider (without a context: the loader is needed first) and the log.
UMF_TEST_CHILD(ze_load_with) {
    (void)argc;
    setenv("UMF_GPU_ZE_LOADER", argv[0], 1);
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 100;
    }
    umf_level_zero_memory_provider_params_handle_t params = nullptr;
    if (umfLevelZeroMemoryProviderParamsCreate(&params) != UMF_RESULT_SUCCESS ||
        umfLevelZeroMemoryProviderParamsSetContext(
            params, reinterpret_cast<ze_context_handle_t>(0x10)) !=
            UMF_RESULT_SUCCESS ||
        umfLevelZeroMemoryProviderParamsSetDevice(
            params, reinterpret_cast<ze_device_handle_t>(0x10)) !=
            UMF_RESULT_SUCCESS) {
        return 101;
    }
    umf_memory_provider_handle_t h = nullptr;
    umf_result_t ret =
        umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params, &h);
    umfLevelZeroMemoryProviderParamsDestroy(params);
    return ret == UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE ? 0 : 102;
}

std::string loadLog(const char *loader) {
    umf_test_child_t c;
    const char *args[] = {loader, nullptr};
    EXPECT_EQ(umf_test_child_start(&c, "ze_load_with", args), 0);
    std::string out;
    char buf[512];
    ssize_t n;
    while ((n = read(c.sock, buf, sizeof(buf))) > 0) {
        out.append(buf, static_cast<size_t>(n));
    }
    EXPECT_EQ(umf_test_child_wait(&c), 0) << out;
    return out;
}

TEST(ZeLoading, MissingLoaderIsDependencyUnavailable) {
    std::string log = loadLog("/nonexistent/libze_loader.so.1");
    EXPECT_NE(log.find("/nonexistent/libze_loader.so.1"), std::string::npos)
        << log;
}

TEST(ZeLoading, MissingEntryPointsAreNamed) {
    // A library that is no loader: libm has none of the entry points.
    std::string log = loadLog("libm.so.6");
    EXPECT_NE(log.find("zeMemAllocDevice"), std::string::npos) << log;
    EXPECT_NE(log.find("zeInit"), std::string::npos) << log;
}

// The application loaded the loader and called zeInit itself: the library
// uses that very instance.
UMF_TEST_CHILD(ze_app_loaded_loader) {
    (void)sock, (void)argc, (void)argv;
    void *lib = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        return 100;
    }
    auto init = reinterpret_cast<ze_result_t (*)(ze_init_flags_t)>(
        dlsym(lib, "zeInit"));
    if (init == nullptr || init(0) != ZE_RESULT_SUCCESS) {
        return 101;
    }
    const umf_ze_loader_t *ze = nullptr;
    if (umf_ze_loader_get(&ze) != UMF_RESULT_SUCCESS) {
        return 102;
    }
    return ze->zeInit == init &&
                   ze->zeMemAllocDevice == dlsym(lib, "zeMemAllocDevice")
               ? 0
               : 103;
}

// Runs a child role to its end; its exit status, or -1.
int run_child(const char *role) {
    umf_test_child_t c;
    return umf_test_child_start(&c, role, nullptr) == 0
               ? umf_test_child_wait(&c)
               : -1;
}

TEST(ZeLoading, ReusesTheApplicationsLoader) {
    EXPECT_EQ(run_child("ze_app_loaded_loader"), 0);
}

// Nothing but the library touches Level Zero: it calls zeInit itself.
UMF_TEST_CHILD(ze_library_inits) {
    (void)sock, (void)argc, (void)argv;
    const umf_ze_loader_t *ze = nullptr;
    if (umf_ze_loader_get(&ze) != UMF_RESULT_SUCCESS) {
        return 100;
    }
    uint32_t count = 0;
    // Would be ZE_RESULT_ERROR_UNINITIALIZED without zeInit.
    return ze->zeDriverGet(&count, nullptr) == ZE_RESULT_SUCCESS && count > 0
               ? 0
               : 101;
}

TEST(ZeLoading, CallsZeInitWhenTheApplicationDidNot) {
    EXPECT_EQ(run_child("ze_library_inits"), 0);
}

// ---------------------------------------------------------------- threads

using ZeThreads = ZeProviderTest;

// 8 threads allocate, split, free (some of each other's memory), export and
// open IPC handles in the process, read stats and properties, while one of
// them adds and removes a resident device now and then.
TEST_F(ZeThreads, MixAllocFreeIpcAndResidency) {
    constexpr int kThreads = 8, kRounds = 300;
    umf_memory_provider_handle_t h = provider();
    size_t ipc_size = 0;
    ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(h, &ipc_size),
              UMF_RESULT_SUCCESS);
    std::atomic<int> failures{0}, splits{0};
    std::mutex handoff_lock;
    std::vector<std::pair<void *, size_t>> handoff;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            unsigned seed = 77u + t;
            std::vector<unsigned char> ipc(ipc_size);
            for (int r = 0; r < kRounds; r++) {
                size_t size = 64 + rand_r(&seed) % (64 * KiB);
                void *p = nullptr;
                if (umfMemoryProviderAlloc(h, size, 0, &p) !=
                    UMF_RESULT_SUCCESS) {
                    failures++;
                    continue;
                }
                switch (rand_r(&seed) % 4) {
                case 0: { // split, free both pieces
                    size_t first = size / 2;
                    splits++;
                    if (umfMemoryProviderAllocationSplit(h, p, size, first) !=
                            UMF_RESULT_SUCCESS ||
                        umfMemoryProviderFree(h, static_cast<char *>(p) + first,
                                              size - first) !=
                            UMF_RESULT_SUCCESS ||
                        umfMemoryProviderFree(h, p, first) !=
                            UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                    break;
                }
                case 1: { // IPC in the process itself
                    void *opened = nullptr;
                    umf_gpu_allocation_properties_t props;
                    if (umfMemoryProviderGetIPCHandle(h, p, size, ipc.data()) !=
                            UMF_RESULT_SUCCESS ||
                        umfMemoryProviderOpenIPCHandle(
                            h, ipc.data(), &opened) != UMF_RESULT_SUCCESS ||
                        opened != p ||
                        umfGpuMemoryProviderGetAllocationProperties(
                            h, opened, &props) != UMF_RESULT_SUCCESS ||
                        umfMemoryProviderCloseIPCHandle(h, opened, size) !=
                            UMF_RESULT_SUCCESS ||
                        umfMemoryProviderPutIPCHandle(h, ipc.data()) !=
                            UMF_RESULT_SUCCESS ||
                        umfMemoryProviderFree(h, p, size) !=
                            UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                    break;
                }
                case 2: { // another thread frees it
                    std::vector<std::pair<void *, size_t>> mine;
                    {
                        std::lock_guard<std::mutex> g(handoff_lock);
                        handoff.emplace_back(p, size);
                        if (handoff.size() > 8) {
                            mine.swap(handoff);
                        }
                    }
                    for (auto &m : mine) {
                        if (umfMemoryProviderFree(h, m.first, m.second) !=
                            UMF_RESULT_SUCCESS) {
                            failures++;
                        }
                    }
                    break;
                }
                default: {
                    umf_gpu_provider_stats_t s;
                    if (umfGpuMemoryProviderGetStats(h, &s) !=
                            UMF_RESULT_SUCCESS ||
                        umfMemoryProviderFree(h, p, size) !=
                            UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                    if (t == 0 && ze_devices().size() > 1 &&
                        (umfLevelZeroMemoryProviderResidentDeviceChange(
                             h, dev(1), true) != UMF_RESULT_SUCCESS ||
                         umfLevelZeroMemoryProviderResidentDeviceChange(
                             h, dev(1), false) != UMF_RESULT_SUCCESS)) {
                        failures++;
                    }
                }
                }
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    for (auto &m : handoff) {
        EXPECT_EQ(umfMemoryProviderFree(h, m.first, m.second),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(failures.load(), 0);
    umf_gpu_provider_stats_t s;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.ipc_handles_exported, 0u);
    EXPECT_EQ(s.ipc_handles_open, 0u);
    // Each split made one more piece to free.
    EXPECT_EQ(s.free_count, s.alloc_count + static_cast<uint64_t>(splits));
    EXPECT_EQ(s.alloc_count + 0u, static_cast<uint64_t>(kThreads) * kRounds);
}

} // namespace
