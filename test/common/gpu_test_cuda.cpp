// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "gpu_test_cuda.h"

const cuda_test_driver_t *cuda_env() {
    const cuda_test_driver_t *cu = umf_test_cuda();
    EXPECT_NE(cu, nullptr) << gpu_why(cuda_gpu());
    return cu;
}

void CudaProviderTest::SetUp() {
    CudaTest::SetUp();
    if (HasFatalFailure()) {
        return;
    }
    GPU_REQUIRE(cuda_gpu());
    leaks_ = std::make_unique<GpuLeakCheck>(cuda_gpu());
}

void CudaProviderTest::TearDown() {
    if (leaks_ != nullptr) {
        leaks_->check();
        leaks_.reset();
    }
}

CUcontext cuda_current() {
    CUcontext ctx = nullptr;
    if (cuda_env()->cuCtxGetCurrent(&ctx) != CUDA_SUCCESS) {
        return nullptr;
    }
    return ctx;
}

void cuda_set_current(CUcontext ctx) {
    CUresult r = cuda_env()->cuCtxSetCurrent(ctx);
    EXPECT_EQ(r, CUDA_SUCCESS) << cuda_test_result(r);
}

CUcontext cuda_create_context(int device) {
    CUcontext before = cuda_current();
    CUcontext ctx =
        static_cast<CUcontext>(umf_test_gpu_context_create(cuda_gpu(), device));
    EXPECT_NE(ctx, nullptr) << "cuCtxCreate on device " << device;
    EXPECT_EQ(cuda_current(), before);
    return ctx;
}

void cuda_destroy_context(CUcontext ctx) {
    if (ctx != nullptr) {
        EXPECT_TRUE(umf_test_gpu_context_destroy(cuda_gpu(), ctx))
            << "cuCtxDestroy failed";
    }
}

CUcontext cuda_primary_context() {
    CUcontext ctx = static_cast<CUcontext>(cuda_gpu()->context);
    EXPECT_NE(ctx, nullptr) << gpu_why(cuda_gpu());
    return ctx;
}

int cuda_device_count() {
    return cuda_gpu()->device_count;
}

CudaProvider::CudaProvider(const cuda_provider_config &cfg) {
    result_ = cuda_try_provider(cfg, &h_);
    EXPECT_EQ(result_, UMF_RESULT_SUCCESS);
}

CudaProvider::~CudaProvider() {
    umfMemoryProviderDestroy(h_);
}

bool cuda_copy(CUcontext ctx, void *dst, const void *src, size_t size) {
    bool ok = umf_test_gpu_copy(cuda_gpu(), ctx, dst, src, size);
    EXPECT_TRUE(ok) << "cuMemcpy of " << size << " bytes failed";
    return ok;
}

std::vector<unsigned char> cuda_pattern(size_t size, unsigned seed) {
    return gpu_pattern(size, seed);
}

bool cuda_fill(CUcontext ctx, void *ptr, size_t size, unsigned seed) {
    std::vector<unsigned char> v = cuda_pattern(size, seed);
    return cuda_copy(ctx, ptr, v.data(), size);
}

bool cuda_check(CUcontext ctx, const void *ptr, size_t size, unsigned seed) {
    std::vector<unsigned char> want = cuda_pattern(size, seed), got(size);
    return cuda_copy(ctx, got.data(), ptr, size) && got == want;
}

cuda_native_error cuda_last_native_error(umf_memory_provider_handle_t h) {
    const char *msg = nullptr;
    int32_t code = -1;
    umfMemoryProviderGetLastNativeError(h, &msg, &code);
    return {code, msg != nullptr ? msg : "(null)"};
}
