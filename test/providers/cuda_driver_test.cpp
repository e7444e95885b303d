// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The library's side of the CUDA driver (cuda/): the CUresult ->
// umf_result_t table, CUresult names in messages before and after the
// driver is loaded, and loading it once.

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

extern "C" {
#include "cuda/cuda_driver.h"
#include "cuda/cuda_result.h"
}

namespace {

std::string describe(CUresult r, size_t len = 256) {
    std::string buf(len, '\x7f');
    umf_cuda_result_describe(r, &buf[0], len);
    return len ? std::string(buf.c_str()) : buf;
}

TEST(CudaResult, TableMapsByKind) {
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_SUCCESS), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_INVALID_VALUE),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_INVALID_CONTEXT),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_INVALID_DEVICE),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Device memory running out is the provider's, with the native code.
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_OUT_OF_MEMORY),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_NOT_INITIALIZED),
              UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_DEINITIALIZED),
              UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_NO_DEVICE),
              UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_NOT_SUPPORTED),
              UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_TOO_MANY_PEERS),
              UMF_RESULT_ERROR_OUT_OF_RESOURCES);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_ALREADY_MAPPED),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_UNKNOWN),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    // Not in the table.
    EXPECT_EQ(umf_cuda_result_to_umf(CUDA_ERROR_LAUNCH_FAILED),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
}

// One test, because the order matters: the driver is loaded once per
// process, and the first half needs it not loaded yet.
TEST(CudaDriver, NamesBeforeAndAfterLoadingTheDriverOnce) {
    ASSERT_EQ(umf_cuda_driver_loaded(), nullptr);
    // Without the driver: the table's names, or the number.
    EXPECT_EQ(describe(CUDA_ERROR_OUT_OF_MEMORY), "CUDA_ERROR_OUT_OF_MEMORY");
    EXPECT_EQ(describe(CUDA_ERROR_LAUNCH_FAILED), "CUresult 719");
    // Short buffers are cut and terminated; none is left alone.
    EXPECT_EQ(describe(CUDA_ERROR_OUT_OF_MEMORY, 5), "CUDA");
    EXPECT_EQ(describe(CUDA_ERROR_OUT_OF_MEMORY, 0), "");
    umf_cuda_result_describe(CUDA_ERROR_OUT_OF_MEMORY, nullptr, 8);

    const umf_cuda_driver_t *cu = nullptr, *again = nullptr;
    const char *lib = getenv("UMF_GPU_CUDA_LIB");
    ASSERT_EQ(umf_cuda_driver_get(&cu), UMF_RESULT_SUCCESS)
        << "UMF_GPU_CUDA_LIB=" << (lib ? lib : "(unset)");
    ASSERT_NE(cu, nullptr);
    EXPECT_EQ(umf_cuda_driver_loaded(), cu);
    EXPECT_EQ(umf_cuda_driver_get(&again), UMF_RESULT_SUCCESS);
    EXPECT_EQ(again, cu);
    // With it: the driver's name and description.
    std::string oom = describe(CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(oom.rfind("CUDA_ERROR_OUT_OF_MEMORY (", 0), 0u) << oom;
    EXPECT_EQ(oom.back(), ')') << oom;
    std::string launch = describe(CUDA_ERROR_LAUNCH_FAILED);
    EXPECT_EQ(launch.rfind("CUDA_ERROR_LAUNCH_FAILED (", 0), 0u) << launch;
    // cuInit ran: the driver answers.
    int count = 0;
    EXPECT_EQ(cu->DeviceGetCount(&count), CUDA_SUCCESS);
    EXPECT_GT(count, 0);
}

} // namespace
