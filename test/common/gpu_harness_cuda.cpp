// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The harness's CUDA backend.

#include "gpu_harness_cuda.h"

#include <string>

#include "gpu_harness_backend.h"
#include "provider_driver_calls.h"

namespace {

const cuda_test_driver_t *g_cu; // set once the driver is usable

std::string bring_up(umf_test_gpu_t *g) {
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    if (cu == nullptr) {
        return why;
    }
    CUresult r = cu->cuInit(0);
    if (r != CUDA_SUCCESS) {
        return "cuInit failed: " + cuda_test_result(r);
    }
    int count = 0;
    r = cu->cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
        return "no CUDA device (" + cuda_test_result(r) + ")";
    }
    CUcontext ctx = nullptr;
    r = cu->cuDevicePrimaryCtxRetain(&ctx, 0);
    if (r != CUDA_SUCCESS) {
        return "cuDevicePrimaryCtxRetain failed: " + cuda_test_result(r);
    }
    g_cu = cu;
    g->ops = umfCUDAMemoryProviderOps();
    g->context = ctx;
    g->device_count = count;
    g->mock = umf_test_gpu_mock_resolve("umfCudaMock", cuda_test_driver_symbol);
    g->provider_calls = kCudaProviderDriverCalls;
    g->provider_call_count =
        sizeof(kCudaProviderDriverCalls) / sizeof(kCudaProviderDriverCalls[0]);
    g->init_call = "cuInit";
    g->fault_code = CUDA_ERROR_UNKNOWN;
    g->fault_name = "CUDA_ERROR_UNKNOWN";
    g->oom_code = CUDA_ERROR_OUT_OF_MEMORY;
    return "";
}

void release(umf_test_gpu_t *g) {
    (void)g;
    g_cu->cuDevicePrimaryCtxRelease_v2(0);
}

void *context_create(const umf_test_gpu_t *g, int device) {
    (void)g;
    CUdevice dev = 0;
    CUcontext ctx = nullptr, popped = nullptr;
    if (g_cu->cuDeviceGet(&dev, device) != CUDA_SUCCESS ||
        g_cu->cuCtxCreate_v2(&ctx, 0, dev) != CUDA_SUCCESS) {
        return nullptr;
    }
    // cuCtxCreate made it current: give the thread its context back.
    if (g_cu->cuCtxPopCurrent_v2(&popped) != CUDA_SUCCESS || popped != ctx) {
        g_cu->cuCtxDestroy_v2(ctx);
        return nullptr;
    }
    return ctx;
}

bool context_destroy(const umf_test_gpu_t *g, void *context) {
    (void)g;
    return g_cu->cuCtxDestroy_v2(static_cast<CUcontext>(context)) ==
           CUDA_SUCCESS;
}

umf_result_t with_params(const cuda_provider_config &cfg,
                         const umf_test_gpu_t *g, umf_test_gpu_create_fn create,
                         void *arg);

umf_result_t provider(const umf_test_gpu_t *g,
                      const umf_test_provider_opts_t &o,
                      umf_test_gpu_create_fn create, void *arg) {
    cuda_provider_config cfg;
    cfg.context = static_cast<CUcontext>(o.context);
    cfg.device = o.device;
    cfg.type = o.type;
    cfg.set_flags = o.set_alloc_flags;
    cfg.flags = o.alloc_flags;
    cfg.name = o.name;
    cfg.mode = static_cast<umf_cuda_allocation_mode_t>(o.cuda_mode);
    for (int i = 0; i < 32; i++) {
        if ((o.resident_mask >> i) & 1u) {
            cfg.resident.push_back(i);
        }
    }
    return with_params(cfg, g, create, arg);
}

// Runs f() with `context` pushed, then pops it; push and pop rather than
// set, because the provider calls cuCtxSetCurrent and a fault rule on it must
// not hit the test's own calls. True when all three succeed.
template <typename F> bool in_context(void *context, F f) {
    if (g_cu->cuCtxPushCurrent_v2(static_cast<CUcontext>(context)) !=
        CUDA_SUCCESS) {
        return false;
    }
    bool ok = f();
    CUcontext popped = nullptr;
    ok &= g_cu->cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS;
    return ok;
}

bool copy(const umf_test_gpu_t *g, void *context, void *dst, const void *src,
          size_t size) {
    (void)g;
    return in_context(context, [&] {
        return g_cu->cuMemcpy(reinterpret_cast<CUdeviceptr>(dst),
                              reinterpret_cast<CUdeviceptr>(src),
                              size) == CUDA_SUCCESS;
    });
}

bool driver_alloc(const umf_test_gpu_t *g, void *context, size_t size,
                  void **ptr) {
    (void)g;
    CUdeviceptr p = 0;
    bool ok = in_context(
        context, [&] { return g_cu->cuMemAlloc_v2(&p, size) == CUDA_SUCCESS; });
    *ptr = reinterpret_cast<void *>(p);
    return ok;
}

bool driver_free(const umf_test_gpu_t *g, void *context, void *ptr) {
    (void)g;
    return in_context(context, [&] {
        return g_cu->cuMemFree_v2(reinterpret_cast<CUdeviceptr>(ptr)) ==
               CUDA_SUCCESS;
    });
}

} // namespace

const umf_test_gpu_backend_t umf_test_cuda_backend = {
    bring_up, release, context_create, context_destroy,
    provider, copy,    driver_alloc,   driver_free,
};

const cuda_test_driver_t *umf_test_cuda(void) {
    (void)umf_test_gpu(UMF_TEST_GPU_CUDA);
    return g_cu;
}

namespace {

// The parameters of cfg, handed to create; the first failed setter's result
// (or the parameters' destroy's) or create's.
umf_result_t with_params(const cuda_provider_config &cfg,
                         const umf_test_gpu_t *g, umf_test_gpu_create_fn create,
                         void *arg) {
    CUcontext ctx = cfg.context != nullptr ? cfg.context
                                           : static_cast<CUcontext>(g->context);
    umf_cuda_memory_provider_params_handle_t params = nullptr;
    umf_result_t r = umfCUDAMemoryProviderParamsCreate(&params);
    if (r != UMF_RESULT_SUCCESS) {
        return r;
    }
    r = umfCUDAMemoryProviderParamsSetContext(params, ctx);
    if (r == UMF_RESULT_SUCCESS) {
        r = umfCUDAMemoryProviderParamsSetDevice(params, cfg.device);
    }
    if (r == UMF_RESULT_SUCCESS) {
        r = umfCUDAMemoryProviderParamsSetMemoryType(params, cfg.type);
    }
    if (r == UMF_RESULT_SUCCESS && cfg.set_flags) {
        r = umfCUDAMemoryProviderParamsSetAllocFlags(params, cfg.flags);
    }
    if (r == UMF_RESULT_SUCCESS && cfg.name != nullptr) {
        r = umfCUDAMemoryProviderParamsSetName(params, cfg.name);
    }
    if (r == UMF_RESULT_SUCCESS &&
        cfg.mode != UMF_CUDA_ALLOCATION_MODE_DEFAULT) {
        r = umfCUDAMemoryProviderParamsSetAllocationMode(params, cfg.mode);
    }
    if (r == UMF_RESULT_SUCCESS && !cfg.resident.empty()) {
        r = umfCUDAMemoryProviderParamsSetResidentDevices(
            params, cfg.resident.data(),
            static_cast<uint32_t>(cfg.resident.size()));
    }
    if (r == UMF_RESULT_SUCCESS) {
        r = create(g, params, arg);
    }
    umf_result_t d = umfCUDAMemoryProviderParamsDestroy(params);
    return r == UMF_RESULT_SUCCESS ? d : r;
}

} // namespace

umf_result_t cuda_try_provider(const cuda_provider_config &cfg,
                               umf_memory_provider_handle_t *out) {
    *out = nullptr;
    umf_result_t r = with_params(
        cfg, umf_test_gpu(UMF_TEST_GPU_CUDA),
        [](const umf_test_gpu_t *, const void *params, void *arg) {
            return umfMemoryProviderCreate(
                umfCUDAMemoryProviderOps(), const_cast<void *>(params),
                static_cast<umf_memory_provider_handle_t *>(arg));
        },
        out);
    if (r != UMF_RESULT_SUCCESS && *out != nullptr) {
        // Made, but the parameters' destroy failed.
        umfMemoryProviderDestroy(*out);
        *out = nullptr;
    }
    return r;
}
