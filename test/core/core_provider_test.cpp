// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Core API tests: ops-table validation, argument checks, dispatch, defaults
// for NULL optional ops, the last failed provider, and the ABI layout.

#include <cstddef>
#include <cstdint>
#include <thread>

#include <gtest/gtest.h>

#include <umf/memory_provider.h>

#include "test_providers.h"

namespace {

using Ops = umf_memory_provider_ops_t;

// A provider handle that is destroyed with the test.
struct Provider {
    umf_memory_provider_handle_t h = nullptr;
    ~Provider() {
        umfMemoryProviderDestroy(h);
    }
};

umf_result_t create(const Ops &ops, void *params, Provider &p) {
    return umfMemoryProviderCreate(&ops, params, &p.h);
}

// ---------------------------------------------------------------- ABI layout

TEST(CoreAbi, OpsTableLayoutMatchesUmf09OnX86_64) {
#if defined(__x86_64__)
    static_assert(sizeof(umf_memory_provider_ext_ops_t) == 32, "ext size");
    static_assert(sizeof(umf_memory_provider_ipc_ops_t) == 40, "ipc size");
    static_assert(sizeof(umf_memory_provider_ops_t) == 144, "ops size");
    static_assert(offsetof(Ops, version) == 0, "version");
    static_assert(offsetof(Ops, initialize) == 8, "initialize");
    static_assert(offsetof(Ops, finalize) == 16, "finalize");
    static_assert(offsetof(Ops, alloc) == 24, "alloc");
    static_assert(offsetof(Ops, free) == 32, "free");
    static_assert(offsetof(Ops, get_last_native_error) == 40, "native");
    static_assert(offsetof(Ops, get_recommended_page_size) == 48, "rps");
    static_assert(offsetof(Ops, get_min_page_size) == 56, "mps");
    static_assert(offsetof(Ops, get_name) == 64, "get_name");
    static_assert(offsetof(Ops, ext) == 72, "ext");
    static_assert(offsetof(Ops, ext.purge_lazy) == 72, "purge_lazy");
    static_assert(offsetof(Ops, ext.purge_force) == 80, "purge_force");
    static_assert(offsetof(Ops, ext.allocation_merge) == 88, "merge");
    static_assert(offsetof(Ops, ext.allocation_split) == 96, "split");
    static_assert(offsetof(Ops, ipc) == 104, "ipc");
    static_assert(offsetof(Ops, ipc.get_ipc_handle_size) == 104, "size");
    static_assert(offsetof(Ops, ipc.get_ipc_handle) == 112, "get");
    static_assert(offsetof(Ops, ipc.put_ipc_handle) == 120, "put");
    static_assert(offsetof(Ops, ipc.open_ipc_handle) == 128, "open");
    static_assert(offsetof(Ops, ipc.close_ipc_handle) == 136, "close");
    static_assert(sizeof(((Ops *)nullptr)->version) == 4, "version is 32-bit");
    SUCCEED();
#else
    GTEST_SKIP() << "the layout is pinned for x86-64";
#endif
}

TEST(CoreAbi, ResultValuesAreFixed) {
    EXPECT_EQ(UMF_RESULT_SUCCESS, 0);
    EXPECT_EQ(UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY, 1);
    EXPECT_EQ(UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, 2);
    EXPECT_EQ(UMF_RESULT_ERROR_INVALID_ARGUMENT, 3);
    EXPECT_EQ(UMF_RESULT_ERROR_INVALID_ALIGNMENT, 4);
    EXPECT_EQ(UMF_RESULT_ERROR_NOT_SUPPORTED, 5);
    EXPECT_EQ(UMF_RESULT_ERROR_USER_SPECIFIC, 6);
    EXPECT_EQ(UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, 7);
    EXPECT_EQ(UMF_RESULT_ERROR_OUT_OF_RESOURCES, 8);
    EXPECT_EQ(UMF_RESULT_ERROR_UNKNOWN, 0x7ffffffe);
}

TEST(CoreAbi, VersionMacros) {
    EXPECT_EQ(UMF_VERSION_CURRENT, (0u << 16) | 9u);
    EXPECT_EQ(UMF_MAKE_VERSION(1, 2), 0x10002u);
    EXPECT_EQ(UMF_MAJOR_VERSION(UMF_MAKE_VERSION(3, 7)), 3u);
    EXPECT_EQ(UMF_MINOR_VERSION(UMF_MAKE_VERSION(3, 7)), 7u);
}

// ------------------------------------------------------------- create rules

TEST(CoreCreate, RejectsNullArguments) {
    umf_memory_provider_handle_t h = nullptr;
    EXPECT_EQ(umfMemoryProviderCreate(nullptr, nullptr, &h),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(h, nullptr);
    EXPECT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), nullptr, nullptr),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(CoreCreate, RejectsOtherVersions) {
    for (uint32_t version :
         {UMF_MAKE_VERSION(0, 8), UMF_MAKE_VERSION(0, 10),
          UMF_MAKE_VERSION(1, 9), UMF_MAKE_VERSION(1, 0), 0u, 0xffffffffu}) {
        Ops ops = *umf_test_null_provider_ops();
        ops.version = version;
        Provider p;
        EXPECT_EQ(create(ops, nullptr, p), UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << "version " << std::hex << version;
        EXPECT_EQ(p.h, nullptr);
    }
}

TEST(CoreCreate, RejectsEachMissingMandatoryOp) {
    const std::pair<const char *, void (*)(Ops &)> clear[] = {
        {"initialize", [](Ops &o) { o.initialize = nullptr; }},
        {"finalize", [](Ops &o) { o.finalize = nullptr; }},
        {"alloc", [](Ops &o) { o.alloc = nullptr; }},
        {"free", [](Ops &o) { o.free = nullptr; }},
        {"get_last_native_error",
         [](Ops &o) { o.get_last_native_error = nullptr; }},
        {"get_recommended_page_size",
         [](Ops &o) { o.get_recommended_page_size = nullptr; }},
        {"get_min_page_size", [](Ops &o) { o.get_min_page_size = nullptr; }},
        {"get_name", [](Ops &o) { o.get_name = nullptr; }},
    };
    for (const auto &c : clear) {
        umf_test_trace_t trace = {};
        Ops ops = *umf_test_tracing_provider_ops();
        c.second(ops);
        Provider p;
        EXPECT_EQ(create(ops, &trace, p), UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << c.first;
        EXPECT_EQ(p.h, nullptr) << c.first;
        EXPECT_EQ(trace.calls[UMF_TEST_OP_INITIALIZE], 0u)
            << "initialize ran although " << c.first << " is missing";
    }
}

TEST(CoreCreate, RequiresSplitAndMergeTogether) {
    umf_test_trace_t trace = {};
    Ops only_split = *umf_test_tracing_provider_ops();
    only_split.ext.allocation_merge = nullptr;
    Ops only_merge = *umf_test_tracing_provider_ops();
    only_merge.ext.allocation_split = nullptr;
    Provider a, b;
    EXPECT_EQ(create(only_split, &trace, a), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(create(only_merge, &trace, b), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(trace.calls[UMF_TEST_OP_INITIALIZE], 0u);
}

TEST(CoreCreate, RequiresAllOrNoIpcOps) {
    const std::pair<const char *, void (*)(Ops &)> clear[] = {
        {"get_ipc_handle_size",
         [](Ops &o) { o.ipc.get_ipc_handle_size = nullptr; }},
        {"get_ipc_handle", [](Ops &o) { o.ipc.get_ipc_handle = nullptr; }},
        {"put_ipc_handle", [](Ops &o) { o.ipc.put_ipc_handle = nullptr; }},
        {"open_ipc_handle", [](Ops &o) { o.ipc.open_ipc_handle = nullptr; }},
        {"close_ipc_handle", [](Ops &o) { o.ipc.close_ipc_handle = nullptr; }},
    };
    for (const auto &c : clear) {
        umf_test_trace_t trace = {};
        Ops ops = *umf_test_tracing_provider_ops();
        c.second(ops);
        Provider p;
        EXPECT_EQ(create(ops, &trace, p), UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << c.first;
    }
    // Four of five missing is as wrong as one.
    Ops ops = *umf_test_tracing_provider_ops();
    ops.ipc = {};
    ops.ipc.open_ipc_handle =
        umf_test_tracing_provider_ops()->ipc.open_ipc_handle;
    umf_test_trace_t trace = {};
    Provider p;
    EXPECT_EQ(create(ops, &trace, p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(CoreCreate, AcceptsOptionalOpsOneByOne) {
    // purge_lazy and purge_force are independent of each other and of the
    // rest; so is leaving all of ext or all of ipc out.
    for (int variant = 0; variant < 4; variant++) {
        Ops ops = *umf_test_tracing_provider_ops();
        if (variant == 0) {
            ops.ext.purge_lazy = nullptr;
        } else if (variant == 1) {
            ops.ext.purge_force = nullptr;
        } else if (variant == 2) {
            ops.ext = {};
        } else {
            ops.ipc = {};
        }
        umf_test_trace_t trace = {};
        Provider p;
        EXPECT_EQ(create(ops, &trace, p), UMF_RESULT_SUCCESS) << variant;
        EXPECT_NE(p.h, nullptr);
    }
}

TEST(CoreCreate, ReturnsInitializeErrorUnchanged) {
    for (umf_result_t r :
         {UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY,
          UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC,
          UMF_RESULT_ERROR_INVALID_ARGUMENT, UMF_RESULT_ERROR_NOT_SUPPORTED,
          UMF_RESULT_ERROR_USER_SPECIFIC,
          UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, UMF_RESULT_ERROR_UNKNOWN}) {
        umf_test_fail_params_t fail = {UMF_TEST_OP_INITIALIZE, r, 42};
        Provider p;
        EXPECT_EQ(create(*umf_test_failing_provider_ops(), &fail, p), r);
        EXPECT_EQ(p.h, nullptr);
    }
}

TEST(CoreCreate, CopiesTheOpsTable) {
    Ops ops = *umf_test_null_provider_ops();
    Provider p;
    ASSERT_EQ(create(ops, nullptr, p), UMF_RESULT_SUCCESS);
    ops = Ops{}; // the caller's table may go away
    EXPECT_STREQ(umfMemoryProviderGetName(p.h), "null");
}

TEST(CoreCreate, DestroyAcceptsNullAndFinalizesOnce) {
    umfMemoryProviderDestroy(nullptr);
    umf_test_trace_t trace = {};
    umf_memory_provider_handle_t h = nullptr;
    ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_tracing_provider_ops(), &trace, &h),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(trace.calls[UMF_TEST_OP_INITIALIZE], 1u);
    umfMemoryProviderDestroy(h);
    EXPECT_EQ(trace.calls[UMF_TEST_OP_FINALIZE], 1u);
}

// ------------------------------------------------------------------ dispatch

class CoreDispatch : public testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(create(*umf_test_tracing_provider_ops(), &trace, p),
                  UMF_RESULT_SUCCESS);
        for (unsigned long &c : trace.calls) {
            c = 0;
        }
    }

    // Every counter is 0 except `op`, which is 1.
    void expectOnly(umf_test_op_t op) {
        for (int i = 0; i < UMF_TEST_OP_COUNT; i++) {
            EXPECT_EQ(trace.calls[i], i == op ? 1u : 0u)
                << "op " << umf_test_op_name((umf_test_op_t)i) << " after "
                << umf_test_op_name(op);
            trace.calls[i] = 0;
        }
    }

    // No counter moved: the core rejected the call itself.
    void expectNone(const char *what) {
        for (int i = 0; i < UMF_TEST_OP_COUNT; i++) {
            EXPECT_EQ(trace.calls[i], 0u)
                << what << " reached " << umf_test_op_name((umf_test_op_t)i);
        }
    }

    umf_test_trace_t trace = {};
    Provider p;
};

TEST_F(CoreDispatch, EveryOpExactlyOnce) {
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(p.h, 64, 0, &ptr), UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_ALLOC);
    ASSERT_NE(ptr, nullptr);

    const char *msg = nullptr;
    int32_t err = -1;
    umfMemoryProviderGetLastNativeError(p.h, &msg, &err);
    expectOnly(UMF_TEST_OP_GET_LAST_NATIVE_ERROR);

    size_t page = 0;
    EXPECT_EQ(umfMemoryProviderGetRecommendedPageSize(p.h, 64, &page),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_GET_RECOMMENDED_PAGE_SIZE);
    EXPECT_EQ(page, 4096u);

    EXPECT_EQ(umfMemoryProviderGetMinPageSize(p.h, ptr, &page),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_GET_MIN_PAGE_SIZE);
    EXPECT_EQ(umfMemoryProviderGetMinPageSize(p.h, nullptr, &page),
              UMF_RESULT_SUCCESS); // ptr is optional
    expectOnly(UMF_TEST_OP_GET_MIN_PAGE_SIZE);

    EXPECT_STREQ(umfMemoryProviderGetName(p.h), "tracing");
    expectOnly(UMF_TEST_OP_GET_NAME);

    EXPECT_EQ(umfMemoryProviderPurgeLazy(p.h, ptr, 64), UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_PURGE_LAZY);
    EXPECT_EQ(umfMemoryProviderPurgeForce(p.h, ptr, 64), UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_PURGE_FORCE);

    EXPECT_EQ(umfMemoryProviderAllocationSplit(p.h, ptr, 64, 32),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_ALLOCATION_SPLIT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, ptr, (char *)ptr + 32, 64),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_ALLOCATION_MERGE);

    size_t ipc_size = 0;
    EXPECT_EQ(umfMemoryProviderGetIPCHandleSize(p.h, &ipc_size),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_GET_IPC_HANDLE_SIZE);
    ASSERT_EQ(ipc_size, sizeof(void *));

    void *data = nullptr;
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(p.h, ptr, 64, &data),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_GET_IPC_HANDLE);
    void *opened = nullptr;
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(p.h, &data, &opened),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_OPEN_IPC_HANDLE);
    EXPECT_EQ(opened, ptr);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(p.h, opened, 64),
              UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_CLOSE_IPC_HANDLE);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(p.h, &data), UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_PUT_IPC_HANDLE);

    EXPECT_EQ(umfMemoryProviderFree(p.h, ptr, 64), UMF_RESULT_SUCCESS);
    expectOnly(UMF_TEST_OP_FREE);
}

TEST_F(CoreDispatch, AlignmentMustBeZeroOrPowerOfTwo) {
    for (size_t bad : {(size_t)3, (size_t)6, (size_t)12, (size_t)4097,
                       (size_t)SIZE_MAX, ((size_t)1 << 63) + 1}) {
        void *ptr = nullptr;
        EXPECT_EQ(umfMemoryProviderAlloc(p.h, 64, bad, &ptr),
                  UMF_RESULT_ERROR_INVALID_ALIGNMENT)
            << bad;
        EXPECT_EQ(ptr, nullptr);
        EXPECT_EQ(umfGetLastFailedMemoryProvider(), p.h);
    }
    expectNone("a bad alignment");
    for (size_t good : {(size_t)0, (size_t)1, (size_t)2, (size_t)64,
                        (size_t)4096, (size_t)1 << 21}) {
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(p.h, 64, good, &ptr),
                  UMF_RESULT_SUCCESS)
            << good;
        if (good > 1) {
            EXPECT_EQ((uintptr_t)ptr % good, 0u) << good;
        }
        EXPECT_EQ(umfMemoryProviderFree(p.h, ptr, 64), UMF_RESULT_SUCCESS);
    }
}

TEST_F(CoreDispatch, NullHandleIsInvalidArgumentEverywhere) {
    void *ptr = nullptr;
    size_t size = 0;
    char data[64] = {};
    int x = 0;
    EXPECT_EQ(umfMemoryProviderAlloc(nullptr, 64, 0, &ptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(nullptr, &x, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderGetRecommendedPageSize(nullptr, 64, &size),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderGetMinPageSize(nullptr, nullptr, &size),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderGetName(nullptr), nullptr);
    EXPECT_EQ(umfMemoryProviderPurgeLazy(nullptr, &x, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderPurgeForce(nullptr, &x, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(nullptr, &x, 64, 32),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(nullptr, data, data + 32, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderGetIPCHandleSize(nullptr, &size),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(nullptr, &x, 4, data),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(nullptr, data),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(nullptr, data, &ptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(nullptr, &x, 4),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), nullptr);

    const char *msg = "untouched";
    int32_t err = 7;
    umfMemoryProviderGetLastNativeError(nullptr, &msg, &err);
    EXPECT_EQ(msg, nullptr);
    EXPECT_EQ(err, 0);
    umfMemoryProviderGetLastNativeError(nullptr, nullptr, nullptr);
    expectNone("a NULL handle");
}

TEST_F(CoreDispatch, NullOutAndDataPointersAreRejectedBeforeDispatch) {
    int x = 0;
    char data[64] = {};
    void *ptr = nullptr;
    size_t size = 0;
    const struct {
        const char *what;
        umf_result_t result;
    } calls[] = {
        {"alloc out", umfMemoryProviderAlloc(p.h, 64, 0, nullptr)},
        {"free ptr", umfMemoryProviderFree(p.h, nullptr, 64)},
        {"recommended out",
         umfMemoryProviderGetRecommendedPageSize(p.h, 64, nullptr)},
        {"min page out", umfMemoryProviderGetMinPageSize(p.h, &x, nullptr)},
        {"purge lazy ptr", umfMemoryProviderPurgeLazy(p.h, nullptr, 64)},
        {"purge force ptr", umfMemoryProviderPurgeForce(p.h, nullptr, 64)},
        {"split ptr", umfMemoryProviderAllocationSplit(p.h, nullptr, 64, 32)},
        {"merge low", umfMemoryProviderAllocationMerge(p.h, nullptr, data, 64)},
        {"merge high",
         umfMemoryProviderAllocationMerge(p.h, data, nullptr, 64)},
        {"ipc size out", umfMemoryProviderGetIPCHandleSize(p.h, nullptr)},
        {"ipc get ptr", umfMemoryProviderGetIPCHandle(p.h, nullptr, 4, data)},
        {"ipc get data", umfMemoryProviderGetIPCHandle(p.h, &x, 4, nullptr)},
        {"ipc put data", umfMemoryProviderPutIPCHandle(p.h, nullptr)},
        {"ipc open data", umfMemoryProviderOpenIPCHandle(p.h, nullptr, &ptr)},
        {"ipc open out", umfMemoryProviderOpenIPCHandle(p.h, data, nullptr)},
        {"ipc close ptr", umfMemoryProviderCloseIPCHandle(p.h, nullptr, 4)},
    };
    for (const auto &c : calls) {
        EXPECT_EQ(c.result, UMF_RESULT_ERROR_INVALID_ARGUMENT) << c.what;
    }
    (void)size;
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), p.h);
    expectNone("a NULL argument");
}

TEST_F(CoreDispatch, SplitNeedsFirstSizeStrictlyInside) {
    char buf[128];
    for (auto sizes : {std::pair<size_t, size_t>{64, 0},
                       {64, 64},
                       {64, 65},
                       {0, 0},
                       {1, 1},
                       {SIZE_MAX, SIZE_MAX}}) {
        EXPECT_EQ(umfMemoryProviderAllocationSplit(p.h, buf, sizes.first,
                                                   sizes.second),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << sizes.first << "/" << sizes.second;
    }
    expectNone("a bad split");
    EXPECT_EQ(umfMemoryProviderAllocationSplit(p.h, buf, 64, 1),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(p.h, buf, 64, 63),
              UMF_RESULT_SUCCESS);
}

TEST_F(CoreDispatch, MergeNeedsOrderedPointersInsideTotal) {
    char buf[128];
    // lowPtr == highPtr, lowPtr > highPtr, highPtr - lowPtr == total, > total.
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, buf, buf, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, buf + 32, buf, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, buf, buf + 64, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, buf, buf + 100, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, buf, buf + 1, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    expectNone("a bad merge");
    EXPECT_EQ(umfMemoryProviderAllocationMerge(p.h, buf, buf + 63, 64),
              UMF_RESULT_SUCCESS);
}

// ------------------------------------------------------------------ defaults

TEST(CoreDefaults, NullOptionalOpsAreNotSupported) {
    Provider p;
    ASSERT_EQ(create(*umf_test_null_provider_ops(), nullptr, p),
              UMF_RESULT_SUCCESS);
    char buf[128];
    void *ptr = nullptr;
    size_t size = 0;
    const umf_result_t results[] = {
        umfMemoryProviderPurgeLazy(p.h, buf, 64),
        umfMemoryProviderPurgeForce(p.h, buf, 64),
        umfMemoryProviderAllocationSplit(p.h, buf, 64, 32),
        umfMemoryProviderAllocationMerge(p.h, buf, buf + 32, 64),
        umfMemoryProviderGetIPCHandleSize(p.h, &size),
        umfMemoryProviderGetIPCHandle(p.h, buf, 64, buf + 64),
        umfMemoryProviderPutIPCHandle(p.h, buf),
        umfMemoryProviderOpenIPCHandle(p.h, buf, &ptr),
        umfMemoryProviderCloseIPCHandle(p.h, buf, 64),
    };
    for (umf_result_t r : results) {
        EXPECT_EQ(r, UMF_RESULT_ERROR_NOT_SUPPORTED);
    }
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), p.h);
}

TEST(CoreDefaults, OnePurgeSetLeavesTheOtherNotSupported) {
    umf_test_trace_t trace = {};
    Ops ops = *umf_test_tracing_provider_ops();
    ops.ext.purge_force = nullptr;
    Provider p;
    ASSERT_EQ(create(ops, &trace, p), UMF_RESULT_SUCCESS);
    char buf[64];
    EXPECT_EQ(umfMemoryProviderPurgeLazy(p.h, buf, 64), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPurgeForce(p.h, buf, 64),
              UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(trace.calls[UMF_TEST_OP_PURGE_LAZY], 1u);
}

// ------------------------------------------------------ last failed provider

// Runs every wrapper that can fail against a provider whose `op` fails.
umf_result_t callOp(umf_memory_provider_handle_t h, umf_test_op_t op) {
    static char buf[256];
    void *ptr = nullptr;
    size_t size = 0;
    switch (op) {
    case UMF_TEST_OP_ALLOC:
        return umfMemoryProviderAlloc(h, 64, 0, &ptr);
    case UMF_TEST_OP_FREE:
        return umfMemoryProviderFree(h, buf, 64);
    case UMF_TEST_OP_GET_RECOMMENDED_PAGE_SIZE:
        return umfMemoryProviderGetRecommendedPageSize(h, 64, &size);
    case UMF_TEST_OP_GET_MIN_PAGE_SIZE:
        return umfMemoryProviderGetMinPageSize(h, nullptr, &size);
    case UMF_TEST_OP_PURGE_LAZY:
        return umfMemoryProviderPurgeLazy(h, buf, 64);
    case UMF_TEST_OP_PURGE_FORCE:
        return umfMemoryProviderPurgeForce(h, buf, 64);
    case UMF_TEST_OP_ALLOCATION_MERGE:
        return umfMemoryProviderAllocationMerge(h, buf, buf + 32, 64);
    case UMF_TEST_OP_ALLOCATION_SPLIT:
        return umfMemoryProviderAllocationSplit(h, buf, 64, 32);
    case UMF_TEST_OP_GET_IPC_HANDLE_SIZE:
        return umfMemoryProviderGetIPCHandleSize(h, &size);
    case UMF_TEST_OP_GET_IPC_HANDLE:
        return umfMemoryProviderGetIPCHandle(h, buf, 64, buf + 128);
    case UMF_TEST_OP_PUT_IPC_HANDLE:
        return umfMemoryProviderPutIPCHandle(h, buf + 128);
    case UMF_TEST_OP_OPEN_IPC_HANDLE:
        return umfMemoryProviderOpenIPCHandle(h, buf + 128, &ptr);
    case UMF_TEST_OP_CLOSE_IPC_HANDLE:
        return umfMemoryProviderCloseIPCHandle(h, buf, 64);
    default:
        return UMF_RESULT_SUCCESS;
    }
}

const umf_test_op_t kFallibleOps[] = {
    UMF_TEST_OP_ALLOC,
    UMF_TEST_OP_FREE,
    UMF_TEST_OP_GET_RECOMMENDED_PAGE_SIZE,
    UMF_TEST_OP_GET_MIN_PAGE_SIZE,
    UMF_TEST_OP_PURGE_LAZY,
    UMF_TEST_OP_PURGE_FORCE,
    UMF_TEST_OP_ALLOCATION_MERGE,
    UMF_TEST_OP_ALLOCATION_SPLIT,
    UMF_TEST_OP_GET_IPC_HANDLE_SIZE,
    UMF_TEST_OP_GET_IPC_HANDLE,
    UMF_TEST_OP_PUT_IPC_HANDLE,
    UMF_TEST_OP_OPEN_IPC_HANDLE,
    UMF_TEST_OP_CLOSE_IPC_HANDLE,
};

TEST(CoreLastFailed, EveryWrapperRecordsTheFailingProvider) {
    umf_test_fail_params_t fail = {UMF_TEST_OP_NONE,
                                   UMF_RESULT_ERROR_USER_SPECIFIC, 0};
    Provider failing, other;
    ASSERT_EQ(create(*umf_test_failing_provider_ops(), &fail, failing),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(create(*umf_test_null_provider_ops(), nullptr, other),
              UMF_RESULT_SUCCESS);
    for (umf_test_op_t op : kFallibleOps) {
        // Make "other" the last failed one, then fail `op` on "failing".
        char buf[8];
        ASSERT_EQ(umfMemoryProviderPurgeLazy(other.h, buf, 8),
                  UMF_RESULT_ERROR_NOT_SUPPORTED);
        ASSERT_EQ(umfGetLastFailedMemoryProvider(), other.h);
        fail.op = op;
        EXPECT_EQ(callOp(failing.h, op), UMF_RESULT_ERROR_USER_SPECIFIC)
            << umf_test_op_name(op);
        EXPECT_EQ(umfGetLastFailedMemoryProvider(), failing.h)
            << umf_test_op_name(op);
    }
}

TEST(CoreLastFailed, SuccessLeavesTheRecordAlone) {
    umf_test_fail_params_t fail = {UMF_TEST_OP_ALLOC,
                                   UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY, 0};
    Provider p;
    ASSERT_EQ(create(*umf_test_failing_provider_ops(), &fail, p),
              UMF_RESULT_SUCCESS);
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(p.h, 64, 0, &ptr),
              UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    fail.op = UMF_TEST_OP_NONE;
    ASSERT_EQ(umfMemoryProviderAlloc(p.h, 64, 0, &ptr), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), p.h);
    EXPECT_EQ(umfMemoryProviderFree(p.h, ptr, 64), UMF_RESULT_SUCCESS);
}

TEST(CoreLastFailed, IsPerThread) {
    umf_test_fail_params_t fail = {
        UMF_TEST_OP_ALLOC, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, 1234};
    Provider p;
    ASSERT_EQ(create(*umf_test_failing_provider_ops(), &fail, p),
              UMF_RESULT_SUCCESS);
    (void)umfMemoryProviderGetName(nullptr); // records NULL in this thread

    umf_memory_provider_handle_t seen_in_b = p.h;
    const char *msg_in_b = nullptr;
    int32_t err_in_b = -1;
    std::thread a([&] {
        void *ptr = nullptr;
        EXPECT_EQ(umfMemoryProviderAlloc(p.h, 64, 0, &ptr),
                  UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
        EXPECT_EQ(umfGetLastFailedMemoryProvider(), p.h);
        const char *msg = nullptr;
        int32_t err = 0;
        umfMemoryProviderGetLastNativeError(p.h, &msg, &err);
        EXPECT_EQ(err, 1234);
        EXPECT_STREQ(msg, "alloc failed on demand (native 1234)");
    });
    a.join();
    std::thread b([&] {
        seen_in_b = umfGetLastFailedMemoryProvider();
        umfMemoryProviderGetLastNativeError(p.h, &msg_in_b, &err_in_b);
    });
    b.join();
    EXPECT_EQ(seen_in_b, nullptr) << "thread A's failure leaked into B";
    EXPECT_EQ(err_in_b, 0);
    EXPECT_STREQ(msg_in_b, "");
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), nullptr)
        << "thread A's failure leaked into the main thread";
}

TEST(CoreLastFailed, DestroyForgetsTheProviderInThisThread) {
    umf_test_fail_params_t fail = {UMF_TEST_OP_ALLOC, UMF_RESULT_ERROR_UNKNOWN,
                                   0};
    umf_memory_provider_handle_t h = nullptr;
    ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_failing_provider_ops(), &fail, &h),
        UMF_RESULT_SUCCESS);
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &ptr), UMF_RESULT_ERROR_UNKNOWN);
    ASSERT_EQ(umfGetLastFailedMemoryProvider(), h);
    umfMemoryProviderDestroy(h);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), nullptr);
}

} // namespace
