// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "fuzz_env.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

#include "cuda/cuda_driver.h"
#include "ze/ze_loader.h"

void fuzz_fail(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "fuzz invariant broken: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    abort();
}

int fuzz_count_fds(void) {
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) {
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        n += e->d_name[0] != '.';
    }
    closedir(dir);
    return n - 1;
}

// The build's drivers and quiet logs, unless the environment says else.
static void set_defaults(void) {
#ifdef UMF_FUZZ_ZE_DRIVER
    setenv("ZE_ENABLE_ALT_DRIVERS", UMF_FUZZ_ZE_DRIVER, 0);
#endif
#ifdef UMF_FUZZ_CUDA_DRIVER
    setenv("UMF_GPU_CUDA_LIB", UMF_FUZZ_CUDA_DRIVER, 0);
#endif
    setenv("UMF_GPU_LOG", "off", 0);
    setenv("UMF_GPU_MOCK_LOG", "off", 0);
}

static void *driver_symbol(const char *path_env, const char *name) {
    const char *path = getenv(path_env);
    void *lib = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (lib == NULL) {
        return NULL;
    }
    void *sym = dlsym(lib, name);
    dlclose(lib); // the process keeps the driver loaded
    return sym;
}

static fuzz_env_t envs[2];
static bool made[2];

// Level Zero: the library's own loader table, so that the fuzz target and
// the provider drive one loader instance.
static const umf_ze_loader_t *ze;
static ze_device_handle_t ze_device;

static void make_level_zero(fuzz_env_t *e) {
    if (umf_ze_loader_get(&ze) != UMF_RESULT_SUCCESS ||
        ze->zeDriverGet == NULL || ze->zeContextCreate == NULL ||
        ze->zeCommandListCreateImmediate == NULL) {
        fuzz_fail("Level Zero is unavailable");
    }
    ze_driver_handle_t driver = NULL;
    uint32_t count = 1;
    if (ze->zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS || count == 0) {
        fuzz_fail("no Level Zero driver");
    }
    count = 1;
    if (ze->zeDeviceGet(driver, &count, &ze_device) != ZE_RESULT_SUCCESS ||
        count == 0) {
        fuzz_fail("no Level Zero device");
    }
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t ctx = NULL;
    if (ze->zeContextCreate(driver, &desc, &ctx) != ZE_RESULT_SUCCESS) {
        fuzz_fail("zeContextCreate failed");
    }
    umf_level_zero_memory_provider_params_handle_t p = NULL;
    if (umfLevelZeroMemoryProviderParamsCreate(&p) != UMF_RESULT_SUCCESS ||
        umfLevelZeroMemoryProviderParamsSetContext(p, ctx) !=
            UMF_RESULT_SUCCESS ||
        umfLevelZeroMemoryProviderParamsSetDevice(p, ze_device) !=
            UMF_RESULT_SUCCESS ||
        umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), p,
                                &e->provider) != UMF_RESULT_SUCCESS) {
        fuzz_fail("cannot make a Level Zero provider");
    }
    umfLevelZeroMemoryProviderParamsDestroy(p);
    e->context = ctx;
    e->live = (umf_gpu_mock_get_live_count_fn)driver_symbol(
        "ZE_ENABLE_ALT_DRIVERS", "umfZeMockGetLiveCount");
    e->oom_code = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

// CUDA: the library's driver table, and what it lacks from the same
// library.
typedef CUresult (*retain_fn)(CUcontext *, CUdevice);
typedef CUresult (*push_fn)(CUcontext);
typedef CUresult (*pop_fn)(CUcontext *);
typedef CUresult (*memcpy_fn)(CUdeviceptr, CUdeviceptr, size_t);
static push_fn cu_push;
static pop_fn cu_pop;
static memcpy_fn cu_memcpy;

static void make_cuda(fuzz_env_t *e) {
    const umf_cuda_driver_t *cu = NULL;
    if (umf_cuda_driver_get(&cu) != UMF_RESULT_SUCCESS) {
        fuzz_fail("CUDA is unavailable");
    }
    retain_fn retain = (retain_fn)driver_symbol("UMF_GPU_CUDA_LIB",
                                                "cuDevicePrimaryCtxRetain");
    cu_push = (push_fn)driver_symbol("UMF_GPU_CUDA_LIB", "cuCtxPushCurrent_v2");
    cu_pop = (pop_fn)driver_symbol("UMF_GPU_CUDA_LIB", "cuCtxPopCurrent_v2");
    cu_memcpy = (memcpy_fn)driver_symbol("UMF_GPU_CUDA_LIB", "cuMemcpy");
    CUcontext ctx = NULL;
    if (retain == NULL || cu_push == NULL || cu_pop == NULL ||
        cu_memcpy == NULL || retain(&ctx, 0) != CUDA_SUCCESS) {
        fuzz_fail("cannot retain the CUDA primary context");
    }
    umf_cuda_memory_provider_params_handle_t p = NULL;
    if (umfCUDAMemoryProviderParamsCreate(&p) != UMF_RESULT_SUCCESS ||
        umfCUDAMemoryProviderParamsSetContext(p, ctx) != UMF_RESULT_SUCCESS ||
        umfCUDAMemoryProviderParamsSetDevice(p, 0) != UMF_RESULT_SUCCESS ||
        umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &e->provider) !=
            UMF_RESULT_SUCCESS) {
        fuzz_fail("cannot make a CUDA provider");
    }
    umfCUDAMemoryProviderParamsDestroy(p);
    e->context = ctx;
    e->live = (umf_gpu_mock_get_live_count_fn)driver_symbol(
        "UMF_GPU_CUDA_LIB", "umfCudaMockGetLiveCount");
    e->oom_code = CUDA_ERROR_OUT_OF_MEMORY;
}

const fuzz_env_t *fuzz_env(fuzz_kind_t kind) {
    fuzz_env_t *e = &envs[kind];
    if (made[kind]) {
        return e;
    }
    set_defaults();
    e->kind = kind;
    if (kind == FUZZ_LEVEL_ZERO) {
        e->name = "level_zero";
        make_level_zero(e);
    } else {
        e->name = "cuda";
        make_cuda(e);
    }
    if (e->live == NULL) {
        fuzz_fail("the %s driver is not the emulated one", e->name);
    }
    made[kind] = true;
    return e;
}

bool fuzz_copy(const fuzz_env_t *env, void *dst, const void *src, size_t size) {
    if (env->kind == FUZZ_LEVEL_ZERO) {
        ze_command_queue_desc_t desc;
        memset(&desc, 0, sizeof(desc));
        desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
        desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
        ze_command_list_handle_t list = NULL;
        if (ze->zeCommandListCreateImmediate((ze_context_handle_t)env->context,
                                             ze_device, &desc,
                                             &list) != ZE_RESULT_SUCCESS) {
            return false;
        }
        bool ok = ze->zeCommandListAppendMemoryCopy(
                      list, dst, src, size, NULL, 0, NULL) == ZE_RESULT_SUCCESS;
        ok &= ze->zeCommandListDestroy(list) == ZE_RESULT_SUCCESS;
        return ok;
    }
    if (cu_push((CUcontext)env->context) != CUDA_SUCCESS) {
        return false;
    }
    bool ok =
        cu_memcpy((CUdeviceptr)dst, (CUdeviceptr)src, size) == CUDA_SUCCESS;
    CUcontext popped = NULL;
    ok &= cu_pop(&popped) == CUDA_SUCCESS;
    return ok;
}
