// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "gpu_test.h"

std::vector<umf_test_gpu_kind_t> gpu_kinds() {
    umf_test_gpu_kind_t kinds[UMF_TEST_GPU_KIND_COUNT];
    int n = umf_test_gpu_kinds(kinds);
    return std::vector<umf_test_gpu_kind_t>(kinds, kinds + n);
}

std::string
gpu_kind_param_name(const ::testing::TestParamInfo<umf_test_gpu_kind_t> &info) {
    return info.param == UMF_TEST_GPU_CUDA ? "Cuda" : "LevelZero";
}

umf_memory_provider_handle_t
gpu_provider_or_null(const umf_test_gpu_t *g, umf_usm_memory_type_t type,
                     umf_test_provider_opts_t opts) {
    opts.type = type;
    umf_memory_provider_handle_t h = nullptr;
    umf_test_gpu_provider(g, &opts, &h);
    return h;
}

std::vector<unsigned char> gpu_pattern(size_t size, unsigned seed) {
    std::vector<unsigned char> v(size);
    umf_test_pattern(v.data(), size, seed);
    return v;
}

int32_t gpu_native_code(const umf_test_gpu_t *g) {
    const char *msg = nullptr;
    int32_t code = 0;
    umf_test_gpu_native_error(g, &msg, &code);
    return code;
}

std::string gpu_native_message(const umf_test_gpu_t *g) {
    const char *msg = nullptr;
    int32_t code = 0;
    umf_test_gpu_native_error(g, &msg, &code);
    return msg != nullptr ? msg : "(null)";
}

std::string gpu_result_name(int64_t result) {
    const char *name = nullptr;
    switch (result) {
    case UMF_RESULT_SUCCESS:
        name = "UMF_RESULT_SUCCESS";
        break;
    case UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY:
        name = "UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY";
        break;
    case UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC:
        name = "UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC";
        break;
    case UMF_RESULT_ERROR_INVALID_ARGUMENT:
        name = "UMF_RESULT_ERROR_INVALID_ARGUMENT";
        break;
    case UMF_RESULT_ERROR_INVALID_ALIGNMENT:
        name = "UMF_RESULT_ERROR_INVALID_ALIGNMENT";
        break;
    case UMF_RESULT_ERROR_NOT_SUPPORTED:
        name = "UMF_RESULT_ERROR_NOT_SUPPORTED";
        break;
    case UMF_RESULT_ERROR_USER_SPECIFIC:
        name = "UMF_RESULT_ERROR_USER_SPECIFIC";
        break;
    case UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE:
        name = "UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE";
        break;
    case UMF_RESULT_ERROR_OUT_OF_RESOURCES:
        name = "UMF_RESULT_ERROR_OUT_OF_RESOURCES";
        break;
    case UMF_RESULT_ERROR_UNKNOWN:
        name = "UMF_RESULT_ERROR_UNKNOWN";
        break;
    default:
        return std::to_string(result);
    }
    return std::string(name) + " (" + std::to_string(result) + ")";
}

GpuLeakCheck::GpuLeakCheck(const umf_test_gpu_t *g) : g_(g) {
    if (g_->emulated) {
        allocations_ = g_->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
        imports_ = g_->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    }
}

GpuLeakCheck::~GpuLeakCheck() {
    if (!checked_) {
        check();
    }
}

void GpuLeakCheck::check() {
    checked_ = true;
    if (!g_->emulated) {
        return;
    }
    g_->mock.clear();
    EXPECT_EQ(g_->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocations_)
        << g_->title << ": the test left driver allocations behind";
    EXPECT_EQ(g_->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), imports_)
        << g_->title << ": the test left IPC mappings open";
}

GpuProvider::GpuProvider(const umf_test_gpu_t *g,
                         const umf_test_provider_opts_t *opts) {
    EXPECT_EQ(umf_test_gpu_provider(g, opts, &h_), UMF_RESULT_SUCCESS)
        << g->title << ": the provider could not be made";
}

GpuProvider::~GpuProvider() {
    umfMemoryProviderDestroy(h_);
}
