// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "gpu_test_ze.h"

std::vector<ze_device_handle_t> ze_devices() {
    const umf_test_gpu_t *g = ze_gpu();
    std::vector<ze_device_handle_t> v;
    for (int i = 0; i < g->device_count && i < UMF_TEST_GPU_MAX_DEVICES; i++) {
        v.push_back(static_cast<ze_device_handle_t>(g->devices[i]));
    }
    return v;
}

ze_context_handle_t ze_test_context_create() {
    return static_cast<ze_context_handle_t>(
        umf_test_gpu_context_create(ze_gpu(), 0));
}

void ze_test_context_destroy(ze_context_handle_t ctx) {
    if (ctx != nullptr) {
        EXPECT_TRUE(umf_test_gpu_context_destroy(ze_gpu(), ctx))
            << "zeContextDestroy failed";
    }
}

bool ze_test_write_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           void *dst, size_t size, unsigned seed) {
    std::vector<unsigned char> v = gpu_pattern(size, seed);
    return ze_test_copy(ctx, device, dst, v.data(), size);
}

bool ze_test_check_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           const void *src, size_t size, unsigned seed) {
    std::vector<unsigned char> got(size);
    return ze_test_copy(ctx, device, got.data(), src, size) &&
           got == gpu_pattern(size, seed);
}

void ze_test_native_error(const char **message, int32_t *code) {
    ASSERT_EQ(umfGpuMemoryProviderOpsGetLastNativeError(
                  umfLevelZeroMemoryProviderOps(), message, code),
              UMF_RESULT_SUCCESS);
}

void ZeProviderTest::SetUp() {
    ZE_TEST_REQUIRE_ENV();
    ctx_ = ze_test_context_create();
    ASSERT_NE(ctx_, nullptr);
    leaks_ = std::make_unique<GpuLeakCheck>(ze_gpu());
    if (ze_gpu()->emulated) {
        ze_gpu()->mock.reset_calls();
    }
}

void ZeProviderTest::TearDown() {
    for (auto h : providers_) {
        umfMemoryProviderDestroy(h);
    }
    providers_.clear();
    if (leaks_ != nullptr) {
        leaks_->check();
        leaks_.reset();
    }
    ze_test_context_destroy(ctx_);
    ctx_ = nullptr;
}

umf_memory_provider_handle_t ZeProviderTest::provider(ZeProviderConfig cfg) {
    if (cfg.context == nullptr) {
        cfg.context = ctx_;
    }
    umf_memory_provider_handle_t h = nullptr;
    umf_result_t ret = ze_test_try_provider(cfg, &h);
    EXPECT_EQ(ret, UMF_RESULT_SUCCESS);
    if (h != nullptr) {
        providers_.push_back(h);
    }
    return h;
}

umf_memory_provider_handle_t ZeProviderTest::provider() {
    ZeProviderConfig cfg;
    cfg.device = dev(0);
    return provider(cfg);
}
