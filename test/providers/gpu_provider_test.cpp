// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU extensions refuse what is not a GPU provider of this library. (The
// providers' own suites test them on GPU providers.)

#include <string>

#include <gtest/gtest.h>

#include <umf/memory_provider_gpu.h>

#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

extern "C" {
#include "native_error.h"
}
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

TEST(GpuExtensions, NativeErrorByOpsTableAfterAFailedCreate) {
    // No handle exists after a failed create; the ops table names the kind.
    const struct {
        const umf_memory_provider_ops_t *ops;
        umf_gpu_provider_kind_t kind;
    } kinds[] = {
        {umfLevelZeroMemoryProviderOps(), UMF_GPU_PROVIDER_KIND_LEVEL_ZERO},
        {umfCUDAMemoryProviderOps(), UMF_GPU_PROVIDER_KIND_CUDA},
    };
    for (const auto &k : kinds) {
        if (k.ops == nullptr) {
            continue; // that provider is not in this build
        }
        umf_native_error_set(k.kind, 1000 + (int)k.kind, "kind %d failed",
                             (int)k.kind);
        umf_memory_provider_ops_t copy = *k.ops; // a copy is recognised too
        const char *msg = nullptr;
        int32_t err = 0;
        ASSERT_EQ(umfGpuMemoryProviderOpsGetLastNativeError(&copy, &msg, &err),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(err, 1000 + (int)k.kind);
        EXPECT_EQ(std::string(msg),
                  "kind " + std::to_string((int)k.kind) + " failed");
    }
}

TEST(GpuExtensions, NativeErrorByOpsTableRejectsOtherTables) {
    const char *msg = nullptr;
    int32_t err = 0;
    EXPECT_EQ(umfGpuMemoryProviderOpsGetLastNativeError(
                  umf_test_null_provider_ops(), &msg, &err),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGpuMemoryProviderOpsGetLastNativeError(nullptr, &msg, &err),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    const umf_memory_provider_ops_t *ops = umfCUDAMemoryProviderOps();
    if (ops == nullptr) {
        ops = umfLevelZeroMemoryProviderOps();
    }
    if (ops != nullptr) {
        EXPECT_EQ(umfGpuMemoryProviderOpsGetLastNativeError(ops, nullptr, &err),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(umfGpuMemoryProviderOpsGetLastNativeError(ops, &msg, nullptr),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
}

} // namespace
