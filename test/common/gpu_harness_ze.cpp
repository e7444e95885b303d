// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The harness's Level Zero backend.

#include "gpu_harness_ze.h"

#include <cstdlib>
#include <string>
#include <vector>

#include <umf/providers/provider_level_zero.h>

extern "C" {
#include "driver_open.h"
}
#include "gpu_harness_backend.h"
#include "provider_driver_calls.h"

namespace {

umf_test_ze_t g_ze;
bool g_ze_loaded;

std::string load_loader() {
    const driver_symbol_t symbols[] = {
#define UMF_TEST_ZE_SYMBOL(type, name)                                         \
    {#name, reinterpret_cast<void **>(&g_ze.name)},
        UMF_TEST_ZE_ENTRY_POINTS(UMF_TEST_ZE_SYMBOL)
#undef UMF_TEST_ZE_SYMBOL
    };
    const char *path = nullptr;
    char why[512];
    // Never closed: the loader lives as long as the process, as in an
    // application, and the library opens the same instance.
    if (driver_open("UMF_GPU_ZE_LOADER", "libze_loader.so.1",
                    "the Level Zero loader", symbols,
                    sizeof(symbols) / sizeof(symbols[0]), &path, why,
                    sizeof(why)) == nullptr) {
        return why;
    }
    return "";
}

std::string bring_up(umf_test_gpu_t *g) {
    std::string why = load_loader();
    if (!why.empty()) {
        return why;
    }
    ze_result_t r = g_ze.zeInit(0);
    if (r != ZE_RESULT_SUCCESS) {
        return "zeInit failed: " + std::to_string(r);
    }
    uint32_t count = 1;
    ze_driver_handle_t driver = nullptr;
    if (g_ze.zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS || count == 0) {
        return "no Level Zero driver";
    }
    count = 0;
    if (g_ze.zeDeviceGet(driver, &count, nullptr) != ZE_RESULT_SUCCESS ||
        count == 0) {
        return "no Level Zero device";
    }
    std::vector<ze_device_handle_t> devices(count);
    if (g_ze.zeDeviceGet(driver, &count, devices.data()) != ZE_RESULT_SUCCESS) {
        return "zeDeviceGet failed";
    }
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t ctx = nullptr;
    if (g_ze.zeContextCreate(driver, &desc, &ctx) != ZE_RESULT_SUCCESS) {
        return "zeContextCreate failed";
    }
    g_ze_loaded = true;
    g->ops = umfLevelZeroMemoryProviderOps();
    g->driver = driver;
    g->context = ctx;
    g->device_count = static_cast<int>(count);
    for (uint32_t i = 0; i < count && i < UMF_TEST_GPU_MAX_DEVICES; i++) {
        g->devices[i] = devices[i];
    }
    // The control API, where the loader loaded the emulated driver.
    const char *path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    g->mock = umf_test_gpu_mock_resolve("umfZeMock", [&](const char *name) {
        return umf_test_gpu_loaded_symbol(path, name);
    });
    g->provider_calls = kZeProviderDriverCalls;
    g->provider_call_count =
        sizeof(kZeProviderDriverCalls) / sizeof(kZeProviderDriverCalls[0]);
    g->init_call = "zeInit";
    g->fault_code = ZE_RESULT_ERROR_DEVICE_LOST;
    g->fault_name = "ZE_RESULT_ERROR_DEVICE_LOST";
    g->oom_code = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    return "";
}

void release(umf_test_gpu_t *g) {
    g_ze.zeContextDestroy(static_cast<ze_context_handle_t>(g->context));
}

void *context_create(const umf_test_gpu_t *g, int device) {
    (void)device; // a Level Zero context spans the driver's devices
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t ctx = nullptr;
    if (g_ze.zeContextCreate(static_cast<ze_driver_handle_t>(g->driver), &desc,
                             &ctx) != ZE_RESULT_SUCCESS) {
        return nullptr;
    }
    return ctx;
}

bool context_destroy(const umf_test_gpu_t *g, void *context) {
    (void)g;
    return g_ze.zeContextDestroy(static_cast<ze_context_handle_t>(context)) ==
           ZE_RESULT_SUCCESS;
}

umf_result_t with_params(const ZeProviderConfig &cfg, const umf_test_gpu_t *g,
                         umf_test_gpu_create_fn create, void *arg);

umf_result_t provider(const umf_test_gpu_t *g,
                      const umf_test_provider_opts_t &o,
                      umf_test_gpu_create_fn create, void *arg) {
    if (o.device < 0 || o.device >= g->device_count) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    ZeProviderConfig cfg;
    cfg.context = static_cast<ze_context_handle_t>(o.context);
    cfg.type = o.type;
    cfg.device = o.type == UMF_MEMORY_TYPE_HOST
                     ? nullptr
                     : static_cast<ze_device_handle_t>(g->devices[o.device]);
    for (int i = 0; i < g->device_count && i < 32; i++) {
        if (o.resident_mask & (1u << i)) {
            cfg.resident.push_back(
                static_cast<ze_device_handle_t>(g->devices[i]));
        }
    }
    if (o.blocking_free) {
        cfg.policy = UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE;
    }
    cfg.name = o.name;
    return with_params(cfg, g, create, arg);
}

bool copy(const umf_test_gpu_t *g, void *context, void *dst, const void *src,
          size_t size) {
    return umf_test_ze_copy(static_cast<ze_context_handle_t>(context),
                            static_cast<ze_device_handle_t>(g->devices[0]), dst,
                            src, size);
}

bool driver_alloc(const umf_test_gpu_t *g, void *context, size_t size,
                  void **ptr) {
    ze_device_mem_alloc_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
    return g_ze.zeMemAllocDevice(static_cast<ze_context_handle_t>(context),
                                 &desc, size, 0,
                                 static_cast<ze_device_handle_t>(g->devices[0]),
                                 ptr) == ZE_RESULT_SUCCESS;
}

bool driver_free(const umf_test_gpu_t *g, void *context, void *ptr) {
    (void)g;
    return g_ze.zeMemFree(static_cast<ze_context_handle_t>(context), ptr) ==
           ZE_RESULT_SUCCESS;
}

} // namespace

const umf_test_gpu_backend_t umf_test_ze_backend = {
    bring_up, release, context_create, context_destroy,
    provider, copy,    driver_alloc,   driver_free,
};

extern "C" const umf_test_ze_t *umf_test_ze(void) {
    (void)umf_test_gpu(UMF_TEST_GPU_LEVEL_ZERO);
    return g_ze_loaded ? &g_ze : nullptr;
}

extern "C" bool umf_test_ze_copy(ze_context_handle_t context,
                                 ze_device_handle_t device, void *dst,
                                 const void *src, size_t size) {
    ze_command_queue_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t list = nullptr;
    if (!g_ze_loaded ||
        g_ze.zeCommandListCreateImmediate(context, device, &desc, &list) !=
            ZE_RESULT_SUCCESS) {
        return false;
    }
    bool ok =
        g_ze.zeCommandListAppendMemoryCopy(list, dst, src, size, nullptr, 0,
                                           nullptr) == ZE_RESULT_SUCCESS;
    ok &= g_ze.zeCommandListDestroy(list) == ZE_RESULT_SUCCESS;
    return ok;
}

namespace {

// The parameters of cfg, handed to create; the first failed setter's result
// or create's.
umf_result_t with_params(const ZeProviderConfig &cfg, const umf_test_gpu_t *g,
                         umf_test_gpu_create_fn create, void *arg) {
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
        ret = create(g, params, arg);
    }
    umfLevelZeroMemoryProviderParamsDestroy(params);
    return ret;
}

} // namespace

umf_result_t ze_test_try_provider(const ZeProviderConfig &cfg,
                                  umf_memory_provider_handle_t *out) {
    *out = nullptr;
    return with_params(
        cfg, umf_test_gpu(UMF_TEST_GPU_LEVEL_ZERO),
        [](const umf_test_gpu_t *, const void *params, void *arg) {
            return umfMemoryProviderCreate(
                umfLevelZeroMemoryProviderOps(), const_cast<void *>(params),
                static_cast<umf_memory_provider_handle_t *>(arg));
        },
        out);
}
