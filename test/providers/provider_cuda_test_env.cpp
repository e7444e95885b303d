// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "provider_cuda_test_env.h"

const cuda_test_driver_t *cuda_env() {
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    EXPECT_NE(cu, nullptr) << why;
    return cu;
}

static CUcontext primary; // while a CudaProviderTest runs

void CudaProviderTest::SetUp() {
    CudaTest::SetUp();
    if (HasFatalFailure()) {
        return;
    }
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&primary, 0));
    if (cu->emulated()) {
        allocations_ =
            cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
        imports_ =
            cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    }
}

void CudaProviderTest::TearDown() {
    if (primary != nullptr) {
        CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(0));
        primary = nullptr;
    }
    if (cu != nullptr && cu->emulated()) {
        EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                  allocations_)
            << "the test left driver allocations behind";
        EXPECT_EQ(
            cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
            imports_)
            << "the test left imported mappings behind";
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
    const cuda_test_driver_t *cu = cuda_env();
    CUcontext before = cuda_current(), ctx = nullptr;
    CUdevice dev = 0;
    CUresult r = cu->cuDeviceGet(&dev, device);
    if (r == CUDA_SUCCESS) {
        r = cu->cuCtxCreate_v2(&ctx, 0, dev); // pushes ctx
    }
    EXPECT_EQ(r, CUDA_SUCCESS) << "cuCtxCreate: " << cuda_test_result(r);
    if (r == CUDA_SUCCESS) {
        CUcontext popped = nullptr;
        r = cu->cuCtxPopCurrent_v2(&popped);
        EXPECT_EQ(r, CUDA_SUCCESS) << cuda_test_result(r);
        EXPECT_EQ(popped, ctx);
    }
    EXPECT_EQ(cuda_current(), before);
    return ctx;
}

void cuda_destroy_context(CUcontext ctx) {
    if (ctx != nullptr) {
        CUresult r = cuda_env()->cuCtxDestroy_v2(ctx);
        EXPECT_EQ(r, CUDA_SUCCESS) << cuda_test_result(r);
    }
}

CUcontext cuda_primary_context() {
    EXPECT_NE(primary, nullptr) << "no CudaProviderTest retained it";
    return primary;
}

int cuda_device_count() {
    int count = 0;
    CUresult r = cuda_env()->cuDeviceGetCount(&count);
    EXPECT_EQ(r, CUDA_SUCCESS) << cuda_test_result(r);
    return count;
}

umf_result_t cuda_try_provider(const cuda_provider_config &cfg,
                               umf_memory_provider_handle_t *out) {
    umf_cuda_memory_provider_params_handle_t params = nullptr;
    umf_result_t r = umfCUDAMemoryProviderParamsCreate(&params);
    if (r != UMF_RESULT_SUCCESS) {
        return r;
    }
    CUcontext ctx = cfg.context ? cfg.context : cuda_primary_context();
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetContext(params, ctx),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetDevice(params, cfg.device),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetMemoryType(params, cfg.type),
              UMF_RESULT_SUCCESS);
    if (cfg.set_flags) {
        EXPECT_EQ(umfCUDAMemoryProviderParamsSetAllocFlags(params, cfg.flags),
                  UMF_RESULT_SUCCESS);
    }
    if (cfg.name != nullptr) {
        EXPECT_EQ(umfCUDAMemoryProviderParamsSetName(params, cfg.name),
                  UMF_RESULT_SUCCESS);
    }
    r = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), params, out);
    EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(params), UMF_RESULT_SUCCESS);
    return r;
}

CudaProvider::CudaProvider(const cuda_provider_config &cfg) {
    result_ = cuda_try_provider(cfg, &h_);
    EXPECT_EQ(result_, UMF_RESULT_SUCCESS);
}

CudaProvider::~CudaProvider() {
    umfMemoryProviderDestroy(h_);
}

bool cuda_copy(CUcontext ctx, void *dst, const void *src, size_t size) {
    const cuda_test_driver_t *cu = cuda_env();
    CUcontext before = cuda_current();
    if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
        return false;
    }
    CUresult r = cu->cuMemcpy((CUdeviceptr)dst, (CUdeviceptr)src, size);
    EXPECT_EQ(r, CUDA_SUCCESS) << "cuMemcpy: " << cuda_test_result(r);
    return cu->cuCtxSetCurrent(before) == CUDA_SUCCESS && r == CUDA_SUCCESS;
}

std::vector<unsigned char> cuda_pattern(size_t size, unsigned seed) {
    std::vector<unsigned char> v(size);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < size; i++) {
        x = x * 1103515245u + 12345u;
        v[i] = static_cast<unsigned char>(x >> 16);
    }
    return v;
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

int64_t cuda_mock_live(umf_gpu_mock_live_t what) {
    const cuda_test_driver_t *cu = cuda_env();
    return cu->emulated() ? cu->umfCudaMockGetLiveCount(what) : -1;
}
