// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ze_test_env.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include <dlfcn.h>

namespace {

template <typename F> void resolve(void *lib, const char *name, F &slot) {
    slot = reinterpret_cast<F>(dlsym(lib, name));
}

ZeEnv load_env() {
    ZeEnv env;
    if (umf_ze_loader_get(&env.ze) != UMF_RESULT_SUCCESS) {
        env.why = "the Level Zero loader is unavailable (see the log)";
        return env;
    }
    const umf_ze_loader_t *ze = env.ze;
    if (ze->zeDriverGet == nullptr || ze->zeDeviceGet == nullptr ||
        ze->zeContextCreate == nullptr || ze->zeContextDestroy == nullptr ||
        ze->zeCommandListCreateImmediate == nullptr ||
        ze->zeCommandListAppendMemoryCopy == nullptr ||
        ze->zeCommandListDestroy == nullptr) {
        env.why = "the loader lacks an entry point the tests use";
        return env;
    }
    uint32_t count = 1;
    if (ze->zeDriverGet(&count, &env.driver) != ZE_RESULT_SUCCESS ||
        count == 0) {
        env.why = "no Level Zero driver";
        return env;
    }
    count = 0;
    if (ze->zeDeviceGet(env.driver, &count, nullptr) != ZE_RESULT_SUCCESS ||
        count == 0) {
        env.why = "no Level Zero device";
        return env;
    }
    env.devices.resize(count);
    if (ze->zeDeviceGet(env.driver, &count, env.devices.data()) !=
        ZE_RESULT_SUCCESS) {
        env.why = "zeDeviceGet failed";
        return env;
    }
    env.devices.resize(count);
    const char *path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    void *mock =
        path != nullptr ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (mock != nullptr) {
        // The reference dlopen took is kept: the loader holds the driver
        // for the life of the process anyway.
        resolve(mock, "umfZeMockInjectFaults", env.mock.inject);
        resolve(mock, "umfZeMockClearFaults", env.mock.clear);
        resolve(mock, "umfZeMockGetCallCount", env.mock.calls);
        resolve(mock, "umfZeMockResetCallCounts", env.mock.reset_calls);
        resolve(mock, "umfZeMockGetLiveCount", env.mock.live);
        resolve(mock, "umfZeMockWriteLeakReport", env.mock.leak_report);
        if (env.mock.inject == nullptr || env.mock.clear == nullptr ||
            env.mock.calls == nullptr || env.mock.reset_calls == nullptr ||
            env.mock.live == nullptr || env.mock.leak_report == nullptr) {
            env.mock = ZeMockApi();
        }
    }
    return env;
}

} // namespace

const ZeEnv &ze_env() {
    static std::once_flag once;
    static ZeEnv env;
    std::call_once(once, [] { env = load_env(); });
    return env;
}

ze_context_handle_t ze_test_context_create() {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t ctx = nullptr;
    if (ze_env().ze->zeContextCreate(ze_env().driver, &desc, &ctx) !=
        ZE_RESULT_SUCCESS) {
        return nullptr;
    }
    return ctx;
}

void ze_test_context_destroy(ze_context_handle_t ctx) {
    if (ctx != nullptr) {
        EXPECT_EQ(ze_env().ze->zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
    }
}

bool ze_test_copy(ze_context_handle_t ctx, ze_device_handle_t device, void *dst,
                  const void *src, size_t size) {
    const umf_ze_loader_t *ze = ze_env().ze;
    ze_command_queue_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t list = nullptr;
    if (ze->zeCommandListCreateImmediate(ctx, device, &desc, &list) !=
        ZE_RESULT_SUCCESS) {
        return false;
    }
    bool ok =
        ze->zeCommandListAppendMemoryCopy(list, dst, src, size, nullptr, 0,
                                          nullptr) == ZE_RESULT_SUCCESS;
    ok &= ze->zeCommandListDestroy(list) == ZE_RESULT_SUCCESS;
    return ok;
}

static std::vector<unsigned char> pattern(size_t size, unsigned seed) {
    std::vector<unsigned char> v(size);
    for (size_t i = 0; i < size; i++) {
        v[i] = static_cast<unsigned char>((i * 31u + seed * 17u) ^ (i >> 8));
    }
    return v;
}

bool ze_test_write_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           void *dst, size_t size, unsigned seed) {
    std::vector<unsigned char> v = pattern(size, seed);
    return ze_test_copy(ctx, device, dst, v.data(), size);
}

bool ze_test_check_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           const void *src, size_t size, unsigned seed) {
    std::vector<unsigned char> got(size);
    return ze_test_copy(ctx, device, got.data(), src, size) &&
           got == pattern(size, seed);
}

int64_t ze_test_calls(const char *entry) {
    return ze_env().mock.calls ? ze_env().mock.calls(entry) : -1;
}

int64_t ze_test_live(umf_gpu_mock_live_t what) {
    return ze_env().mock.live ? ze_env().mock.live(what) : -1;
}

umf_result_t ze_test_try_provider(const ZeProviderConfig &cfg,
                                  umf_memory_provider_handle_t *out) {
    umf_level_zero_memory_provider_params_handle_t params = nullptr;
    umf_result_t ret = umfLevelZeroMemoryProviderParamsCreate(&params);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (cfg.context != nullptr) {
        ret = umfLevelZeroMemoryProviderParamsSetContext(params, cfg.context);
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umfLevelZeroMemoryProviderParamsSetDevice(params, cfg.device);
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umfLevelZeroMemoryProviderParamsSetMemoryType(params, cfg.type);
    }
    if (ret == UMF_RESULT_SUCCESS && !cfg.resident.empty()) {
        std::vector<ze_device_handle_t> resident = cfg.resident;
        ret = umfLevelZeroMemoryProviderParamsSetResidentDevices(
            params, resident.data(), static_cast<uint32_t>(resident.size()));
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umfLevelZeroMemoryProviderParamsSetFreePolicy(params, cfg.policy);
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(params,
                                                               cfg.ordinal);
    }
    if (ret == UMF_RESULT_SUCCESS && cfg.name != nullptr) {
        ret = umfLevelZeroMemoryProviderParamsSetName(params, cfg.name);
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params,
                                      out);
    }
    umfLevelZeroMemoryProviderParamsDestroy(params);
    return ret;
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
    allocations_ = ze_test_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    imports_ = ze_test_live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    if (ze_env().mock.reset_calls != nullptr) {
        ze_env().mock.reset_calls();
    }
}

void ZeProviderTest::TearDown() {
    for (auto h : providers_) {
        umfMemoryProviderDestroy(h);
    }
    providers_.clear();
    if (ze_env().mock.clear != nullptr) {
        ze_env().mock.clear();
        EXPECT_EQ(ze_test_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocations_)
            << "the test leaked driver allocations";
        EXPECT_EQ(ze_test_live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), imports_)
            << "the test left IPC mappings open";
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
