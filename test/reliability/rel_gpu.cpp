// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "rel_gpu.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>

#include <dlfcn.h>

#if UMF_REL_HAVE_ZE
#include "ze_test_env.h"
#endif
#if UMF_REL_HAVE_CUDA
#include "provider_cuda_test_env.h"
#include "provider_driver_calls.h"
#endif

namespace {

RelGpu g_gpus[2];
bool g_made[2];

template <typename F> void resolve(void *lib, const char *name, F &slot) {
    slot = reinterpret_cast<F>(dlsym(lib, name));
}

void init_common(RelGpu &g, RelKind kind, const char *name) {
    g = RelGpu();
    g.kind = kind;
    g.name = name;
    g.context = nullptr;
    g.devices[0] = g.devices[1] = nullptr;
    g.device_count = 0;
    g.inject = nullptr;
    g.clear = nullptr;
    g.calls = nullptr;
    g.reset_calls = nullptr;
    g.live = nullptr;
    g.object_count = nullptr;
    g.leak_report = nullptr;
    g.fault_code = 0;
    g.fault_name = "";
    g.oom_code = 0;
    g.real_driver = false;
}

bool control_complete(const RelGpu &g) {
    return g.inject != nullptr && g.clear != nullptr && g.calls != nullptr &&
           g.reset_calls != nullptr && g.live != nullptr &&
           g.object_count != nullptr && g.leak_report != nullptr;
}

#if UMF_REL_HAVE_ZE
void make_ze(RelGpu &g) {
    init_common(g, RelKind::LevelZero, "level_zero");
    const ZeEnv &env = ze_env();
    if (!env.why.empty()) {
        g.why = env.why;
        return;
    }
    g.device_count = static_cast<int>(env.devices.size());
    if (g.device_count < 2) {
        g.why = "the reliability suites need two Level Zero devices";
        return;
    }
    g.devices[0] = env.devices[0];
    g.devices[1] = env.devices[1];
    const char *path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    void *lib =
        path != nullptr ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (lib != nullptr) {
        resolve(lib, "umfZeMockInjectFaults", g.inject);
        resolve(lib, "umfZeMockClearFaults", g.clear);
        resolve(lib, "umfZeMockGetCallCount", g.calls);
        resolve(lib, "umfZeMockResetCallCounts", g.reset_calls);
        resolve(lib, "umfZeMockGetLiveCount", g.live);
        resolve(lib, "umfZeMockGetObjectCount", g.object_count);
        resolve(lib, "umfZeMockWriteLeakReport", g.leak_report);
        dlclose(lib); // the loader keeps the driver for the process
    }
    if (!control_complete(g)) {
        g.why = "the Level Zero driver is not the emulated one (no control "
                "API)";
        g.real_driver = true;
        return;
    }
    g.context = ze_test_context_create();
    if (g.context == nullptr) {
        g.why = "zeContextCreate failed";
        return;
    }
    g.entries.assign(std::begin(kZeProviderDriverCalls),
                     std::end(kZeProviderDriverCalls));
    g.fault_code = ZE_RESULT_ERROR_DEVICE_LOST;
    g.fault_name = "ZE_RESULT_ERROR_DEVICE_LOST";
    g.oom_code = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}
#endif

#if UMF_REL_HAVE_CUDA
void make_cuda(RelGpu &g) {
    init_common(g, RelKind::Cuda, "cuda");
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    if (cu == nullptr) {
        g.why = why;
        return;
    }
    if (!cu->emulated()) {
        g.why = "the CUDA driver is not the emulated one (no control API)";
        g.real_driver = true;
        return;
    }
    g.inject = cu->umfCudaMockInjectFaults;
    g.clear = cu->umfCudaMockClearFaults;
    g.calls = cu->umfCudaMockGetCallCount;
    g.reset_calls = cu->umfCudaMockResetCallCounts;
    g.live = cu->umfCudaMockGetLiveCount;
    g.object_count = cu->umfCudaMockGetObjectCount;
    g.leak_report = cu->umfCudaMockWriteLeakReport;
    CUresult r = cu->cuInit(0);
    if (r == CUDA_SUCCESS) {
        r = cu->cuDeviceGetCount(&g.device_count);
    }
    CUcontext ctx = nullptr;
    if (r == CUDA_SUCCESS) {
        r = cu->cuDevicePrimaryCtxRetain(&ctx, 0);
    }
    if (r != CUDA_SUCCESS) {
        g.why = "CUDA setup failed: " + cuda_test_result(r);
        return;
    }
    g.context = ctx;
    g.entries.assign(std::begin(kCudaProviderDriverCalls),
                     std::end(kCudaProviderDriverCalls));
    g.fault_code = CUDA_ERROR_UNKNOWN;
    g.fault_name = "CUDA_ERROR_UNKNOWN";
    g.oom_code = CUDA_ERROR_OUT_OF_MEMORY;
}
#endif

} // namespace

RelGpu *rel_gpu(RelKind kind) {
    static std::mutex lock;
    std::lock_guard<std::mutex> guard(lock);
    size_t i = static_cast<size_t>(kind);
    if (!g_made[i]) {
        g_made[i] = true;
        init_common(g_gpus[i], kind,
                    kind == RelKind::Cuda ? "cuda" : "level_zero");
        g_gpus[i].why = "not in this build";
#if UMF_REL_HAVE_ZE
        if (kind == RelKind::LevelZero) {
            make_ze(g_gpus[i]);
        }
#endif
#if UMF_REL_HAVE_CUDA
        if (kind == RelKind::Cuda) {
            make_cuda(g_gpus[i]);
        }
#endif
    }
    return &g_gpus[i];
}

void rel_gpu_release_all() {
    for (size_t i = 0; i < 2; i++) {
        RelGpu &g = g_gpus[i];
        if (!g_made[i] || g.context == nullptr) {
            continue;
        }
#if UMF_REL_HAVE_ZE
        if (g.kind == RelKind::LevelZero) {
            ze_env().ze->zeContextDestroy(
                static_cast<ze_context_handle_t>(g.context));
        }
#endif
#if UMF_REL_HAVE_CUDA
        if (g.kind == RelKind::Cuda) {
            std::string why;
            cuda_test_driver_load(&why)->cuDevicePrimaryCtxRelease_v2(0);
        }
#endif
        g.context = nullptr;
        g.why = "released";
    }
}

std::vector<RelKind> rel_kinds() {
    std::vector<RelKind> kinds;
#if UMF_REL_HAVE_ZE
    kinds.push_back(RelKind::LevelZero);
#endif
#if UMF_REL_HAVE_CUDA
    kinds.push_back(RelKind::Cuda);
#endif
    return kinds;
}

umf_result_t RelGpu::make(umf_usm_memory_type_t type,
                          umf_memory_provider_handle_t *out,
                          const RelOptions &opt) const {
    *out = nullptr;
#if UMF_REL_HAVE_ZE
    if (kind == RelKind::LevelZero) {
        ZeProviderConfig cfg;
        cfg.context = static_cast<ze_context_handle_t>(context);
        cfg.type = type;
        cfg.device = type == UMF_MEMORY_TYPE_HOST
                         ? nullptr
                         : static_cast<ze_device_handle_t>(devices[0]);
        if (opt.resident) {
            cfg.resident = {static_cast<ze_device_handle_t>(devices[1])};
        }
        if (opt.policy) {
            cfg.policy =
                UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE;
        }
        return ze_test_try_provider(cfg, out);
    }
#endif
#if UMF_REL_HAVE_CUDA
    if (kind == RelKind::Cuda) {
        cuda_provider_config cfg;
        cfg.context = static_cast<CUcontext>(context);
        cfg.device = opt.device;
        cfg.type = type;
        if (opt.host_flags) {
            cfg.set_flags = true;
            cfg.flags = CU_MEMHOSTALLOC_PORTABLE;
        }
        return cuda_try_provider(cfg, out);
    }
#endif
    (void)type, (void)opt;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

umf_memory_provider_handle_t RelGpu::make_or_null(umf_usm_memory_type_t type,
                                                  const RelOptions &opt) const {
    umf_memory_provider_handle_t h = nullptr;
    if (make(type, &h, opt) != UMF_RESULT_SUCCESS) {
        return nullptr;
    }
    return h;
}

bool RelGpu::copy(void *dst, const void *src, size_t size) const {
#if UMF_REL_HAVE_ZE
    if (kind == RelKind::LevelZero) {
        return ze_test_copy(static_cast<ze_context_handle_t>(context),
                            static_cast<ze_device_handle_t>(devices[0]), dst,
                            src, size);
    }
#endif
#if UMF_REL_HAVE_CUDA
    if (kind == RelKind::Cuda) {
        std::string why;
        const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
        if (cu->cuCtxPushCurrent_v2(static_cast<CUcontext>(context)) !=
            CUDA_SUCCESS) {
            return false;
        }
        bool ok = cu->cuMemcpy(reinterpret_cast<CUdeviceptr>(dst),
                               reinterpret_cast<CUdeviceptr>(src),
                               size) == CUDA_SUCCESS;
        CUcontext popped = nullptr;
        ok &= cu->cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS;
        return ok;
    }
#endif
    (void)dst, (void)src, (void)size;
    return false;
}

std::vector<unsigned char> rel_pattern(size_t size, unsigned seed) {
    std::vector<unsigned char> v(size);
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < size; i++) {
        x = x * 1664525u + 1013904223u;
        v[i] = static_cast<unsigned char>(x >> 24);
    }
    return v;
}

bool RelGpu::fill(void *dst, size_t size, unsigned seed) const {
    std::vector<unsigned char> v = rel_pattern(size, seed);
    return copy(dst, v.data(), size);
}

bool RelGpu::check(const void *src, size_t size, unsigned seed) const {
    std::vector<unsigned char> got(size);
    return copy(got.data(), src, size) && got == rel_pattern(size, seed);
}

static const umf_memory_provider_ops_t *ops_of(RelKind kind) {
#if UMF_REL_HAVE_ZE
    if (kind == RelKind::LevelZero) {
        return umfLevelZeroMemoryProviderOps();
    }
#endif
#if UMF_REL_HAVE_CUDA
    if (kind == RelKind::Cuda) {
        return umfCUDAMemoryProviderOps();
    }
#endif
    (void)kind;
    return nullptr;
}

// The calling thread's native error of this kind, read through the ops
// table, as after a failed create (no provider handle needed).
static void native_error(RelKind kind, const char **msg, int32_t *code) {
    if (umfGpuMemoryProviderOpsGetLastNativeError(ops_of(kind), msg, code) !=
        UMF_RESULT_SUCCESS) {
        *msg = nullptr;
        *code = 0;
    }
}

int32_t RelGpu::native_code() const {
    const char *msg = nullptr;
    int32_t code = 0;
    native_error(kind, &msg, &code);
    return code;
}

std::string RelGpu::native_message() const {
    const char *msg = nullptr;
    int32_t code = 0;
    native_error(kind, &msg, &code);
    return msg != nullptr ? msg : "(null)";
}

uint64_t rel_seed() {
    static uint64_t seed = [] {
        const char *env = std::getenv("UMF_GPU_REL_SEED");
        uint64_t s =
            env != nullptr && env[0] != '\0'
                ? std::strtoull(env, nullptr, 0)
                : static_cast<uint64_t>(std::chrono::steady_clock::now()
                                            .time_since_epoch()
                                            .count());
        std::printf("reliability seed: UMF_GPU_REL_SEED=%llu\n",
                    static_cast<unsigned long long>(s));
        std::fflush(stdout);
        // Child processes draw from the same seed.
        setenv("UMF_GPU_REL_SEED", std::to_string(s).c_str(), 1);
        return s;
    }();
    return seed;
}
