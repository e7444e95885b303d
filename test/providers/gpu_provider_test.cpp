// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU extensions refuse what is not a GPU provider of this library. (The
// providers' own suites test them on GPU providers.)

#include <gtest/gtest.h>

#include <umf/memory_provider_gpu.h>

#include "test_providers.h"

namespace {

TEST(GpuExtensions, RejectNullArguments) {
    umf_gpu_provider_stats_t stats;
    umf_gpu_allocation_properties_t props;
    int x = 0;
    EXPECT_EQ(umfGpuMemoryProviderGetStats(nullptr, &stats),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(nullptr, &x, &props),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(GpuExtensions, RejectAProviderThatIsNotAGpuProvider) {
    umf_memory_provider_handle_t h = nullptr;
    ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), nullptr, &h),
        UMF_RESULT_SUCCESS);
    umf_gpu_provider_stats_t stats;
    umf_gpu_allocation_properties_t props;
    void *p = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &stats),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), h);
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, p, &props),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(h, p, 64), UMF_RESULT_SUCCESS);
    umfMemoryProviderDestroy(h);
}

} // namespace
