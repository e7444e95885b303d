// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A representative subset of the core API tests, written in C11 and run
// through the C shim, to prove the API and its headers serve C callers.

#include <stddef.h>
#include <stdint.h>

#include <umf/memory_provider.h>

#include "c_test.h"
#include "test_providers.h"

UMF_C_TEST(CoreC, CreateAndDestroyNullProvider) {
    umf_memory_provider_handle_t h = NULL;
    UMF_ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), NULL, &h),
        UMF_RESULT_SUCCESS);
    UMF_ASSERT(h != NULL);
    UMF_EXPECT_STREQ(umfMemoryProviderGetName(h), "null");
    umfMemoryProviderDestroy(h);
}

UMF_C_TEST(CoreC, CreateRejectsBadTables) {
    umf_memory_provider_handle_t h = NULL;
    umf_memory_provider_ops_t ops = *umf_test_null_provider_ops();
    ops.version = UMF_MAKE_VERSION(0, 10);
    UMF_EXPECT_EQ(umfMemoryProviderCreate(&ops, NULL, &h),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ops = *umf_test_null_provider_ops();
    ops.alloc = NULL;
    UMF_EXPECT_EQ(umfMemoryProviderCreate(&ops, NULL, &h),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ops = *umf_test_tracing_provider_ops();
    ops.ext.allocation_split = NULL;
    umf_test_trace_t trace = {{0}};
    UMF_EXPECT_EQ(umfMemoryProviderCreate(&ops, &trace, &h),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(trace.calls[UMF_TEST_OP_INITIALIZE], 0);
    UMF_EXPECT_PTR_EQ(h, NULL);
}

UMF_C_TEST(CoreC, InitializeErrorIsReturned) {
    umf_test_fail_params_t fail = {UMF_TEST_OP_INITIALIZE,
                                   UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, 0};
    umf_memory_provider_handle_t h = NULL;
    UMF_EXPECT_EQ(
        umfMemoryProviderCreate(umf_test_failing_provider_ops(), &fail, &h),
        UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
    UMF_EXPECT_PTR_EQ(h, NULL);
}

UMF_C_TEST(CoreC, AllocChecksArgumentsAndDispatchesOnce) {
    umf_test_trace_t trace = {{0}};
    umf_memory_provider_handle_t h = NULL;
    UMF_ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_tracing_provider_ops(), &trace, &h),
        UMF_RESULT_SUCCESS);
    void *ptr = NULL;
    UMF_EXPECT_EQ(umfMemoryProviderAlloc(h, 64, 3, &ptr),
                  UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    UMF_EXPECT_EQ(umfMemoryProviderAlloc(h, 64, 0, NULL),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(trace.calls[UMF_TEST_OP_ALLOC], 0);
    UMF_EXPECT_PTR_EQ(umfGetLastFailedMemoryProvider(), h);

    UMF_ASSERT_EQ(umfMemoryProviderAlloc(h, 100, 256, &ptr),
                  UMF_RESULT_SUCCESS);
    UMF_EXPECT_EQ(trace.calls[UMF_TEST_OP_ALLOC], 1);
    UMF_EXPECT_EQ((uintptr_t)ptr % 256, 0);
    UMF_EXPECT_EQ(umfMemoryProviderFree(h, ptr, 100), UMF_RESULT_SUCCESS);
    UMF_EXPECT_EQ(trace.calls[UMF_TEST_OP_FREE], 1);
    umfMemoryProviderDestroy(h);
    UMF_EXPECT_EQ(trace.calls[UMF_TEST_OP_FINALIZE], 1);
}

UMF_C_TEST(CoreC, SplitAndMergeRules) {
    umf_test_trace_t trace = {{0}};
    umf_memory_provider_handle_t h = NULL;
    UMF_ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_tracing_provider_ops(), &trace, &h),
        UMF_RESULT_SUCCESS);
    char buf[64];
    UMF_EXPECT_EQ(umfMemoryProviderAllocationSplit(h, buf, 64, 0),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umfMemoryProviderAllocationSplit(h, buf, 64, 64),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umfMemoryProviderAllocationMerge(h, buf + 8, buf, 64),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umfMemoryProviderAllocationMerge(h, buf, buf + 64, 64),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(trace.calls[UMF_TEST_OP_ALLOCATION_SPLIT] +
                      trace.calls[UMF_TEST_OP_ALLOCATION_MERGE],
                  0);
    UMF_EXPECT_EQ(umfMemoryProviderAllocationSplit(h, buf, 64, 16),
                  UMF_RESULT_SUCCESS);
    UMF_EXPECT_EQ(umfMemoryProviderAllocationMerge(h, buf, buf + 16, 64),
                  UMF_RESULT_SUCCESS);
    umfMemoryProviderDestroy(h);
}

UMF_C_TEST(CoreC, DefaultsAreNotSupported) {
    umf_memory_provider_handle_t h = NULL;
    UMF_ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), NULL, &h),
        UMF_RESULT_SUCCESS);
    size_t size = 0;
    char buf[64];
    UMF_EXPECT_EQ(umfMemoryProviderGetIPCHandleSize(h, &size),
                  UMF_RESULT_ERROR_NOT_SUPPORTED);
    UMF_EXPECT_EQ(umfMemoryProviderPurgeForce(h, buf, 64),
                  UMF_RESULT_ERROR_NOT_SUPPORTED);
    UMF_EXPECT_PTR_EQ(umfGetLastFailedMemoryProvider(), h);
    umfMemoryProviderDestroy(h);
}

UMF_C_TEST(CoreC, NativeErrorComesFromTheProvider) {
    umf_test_fail_params_t fail = {
        UMF_TEST_OP_FREE, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, -5};
    umf_memory_provider_handle_t h = NULL;
    UMF_ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_failing_provider_ops(), &fail, &h),
        UMF_RESULT_SUCCESS);
    char buf[8];
    UMF_EXPECT_EQ(umfMemoryProviderFree(h, buf, 8),
                  UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    const char *msg = NULL;
    int32_t err = 0;
    umfMemoryProviderGetLastNativeError(h, &msg, &err);
    UMF_EXPECT_EQ(err, -5);
    UMF_EXPECT_STREQ(msg, "free failed on demand (native -5)");
    umfMemoryProviderDestroy(h);
}
