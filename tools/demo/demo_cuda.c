// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The demo's CUDA side. It opens the driver the way the library does
// (UMF_GPU_CUDA_LIB, else libcuda.so.1), so both use one instance: the demo
// sets UMF_GPU_CUDA_LIB to the emulated libcuda.so.1, or leaves libcuda.so.1
// to the dynamic linker's search for a real driver. It calls the versioned
// entry points (cuMemcpyHtoD_v2, ...), as cuda.h does for an application.

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda.h>

#include <umf/providers/provider_cuda.h>

#include "demo.h"
#include "driver_open.h"

#define DRIVER_ENV "UMF_GPU_CUDA_LIB"
#define DRIVER_DEFAULT "libcuda.so.1"

static struct {
    void *lib;
    CUresult (*cuInit)(unsigned int);
    CUresult (*cuDriverGetVersion)(int *);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH_v2)(void *, CUdeviceptr, size_t);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);

    CUdevice device;
    CUcontext context; // device 0's primary context, current while open
} cu;

// "<call> failed: CUDA_ERROR_... (description)"; either text may be missing.
static int cu_failed(demo_why_t *why, const char *call, CUresult res) {
    const char *name = NULL, *text = NULL;
    if (cu.cuGetErrorName == NULL ||
        cu.cuGetErrorName(res, &name) != CUDA_SUCCESS) {
        name = NULL;
    }
    if (cu.cuGetErrorString == NULL ||
        cu.cuGetErrorString(res, &text) != CUDA_SUCCESS) {
        text = NULL;
    }
    return demo_why(why, "%s failed: %s (%d): %s", call,
                    name != NULL ? name : "CUresult", (int)res,
                    text != NULL ? text : "no description");
}

static int cu_open(char *info, size_t info_len, char *device, size_t device_len,
                   demo_why_t *why) {
    const driver_symbol_t entries[] = {
#define ENTRY(f) {#f, (void **)&cu.f}
        ENTRY(cuInit),
        ENTRY(cuDriverGetVersion),
        ENTRY(cuDeviceGetCount),
        ENTRY(cuDeviceGet),
        ENTRY(cuDeviceGetName),
        ENTRY(cuDevicePrimaryCtxRetain),
        ENTRY(cuDevicePrimaryCtxRelease_v2),
        ENTRY(cuCtxSetCurrent),
        ENTRY(cuMemcpyHtoD_v2),
        ENTRY(cuMemcpyDtoH_v2),
        ENTRY(cuGetErrorName),
        ENTRY(cuGetErrorString),
#undef ENTRY
    };
    const char *path;
    char reason[512];
    // Kept open for the life of the process, as the library keeps it.
    cu.lib = driver_open(DRIVER_ENV, DRIVER_DEFAULT, "the CUDA driver", entries,
                         sizeof(entries) / sizeof(entries[0]), &path, reason,
                         sizeof(reason));
    if (cu.lib == NULL) {
        return demo_why(why, "%s", reason);
    }
    CUresult res = cu.cuInit(0);
    if (res != CUDA_SUCCESS) {
        return cu_failed(why, "cuInit(0)", res);
    }
    int count = 0;
    res = cu.cuDeviceGetCount(&count);
    if (res != CUDA_SUCCESS) {
        return cu_failed(why, "cuDeviceGetCount", res);
    }
    if (count < 1) {
        return demo_why(why, "the CUDA driver %s has no device", path);
    }
    res = cu.cuDeviceGet(&cu.device, 0);
    if (res != CUDA_SUCCESS) {
        return cu_failed(why, "cuDeviceGet(0)", res);
    }
    res = cu.cuDeviceGetName(device, (int)device_len, cu.device);
    if (res != CUDA_SUCCESS) {
        return cu_failed(why, "cuDeviceGetName", res);
    }
    int version = 0;
    res = cu.cuDriverGetVersion(&version);
    if (res != CUDA_SUCCESS) {
        return cu_failed(why, "cuDriverGetVersion", res);
    }
    // The file the dynamic linker chose, for the report.
    struct link_map *map = NULL;
    const char *file = path;
    if (dlinfo(cu.lib, RTLD_DI_LINKMAP, &map) == 0 && map != NULL &&
        map->l_name != NULL && map->l_name[0] != '\0') {
        file = map->l_name;
    }
    snprintf(info, info_len, "%s, CUDA driver API %d.%d", file, version / 1000,
             version % 1000 / 10);

    res = cu.cuDevicePrimaryCtxRetain(&cu.context, cu.device);
    if (res != CUDA_SUCCESS) {
        return cu_failed(why, "cuDevicePrimaryCtxRetain(device 0)", res);
    }
    // Current for the copies; the provider restores it after each call.
    res = cu.cuCtxSetCurrent(cu.context);
    if (res != CUDA_SUCCESS) {
        cu_failed(why, "cuCtxSetCurrent", res);
        cu.cuDevicePrimaryCtxRelease_v2(cu.device);
        cu.context = NULL;
        return -1;
    }
    return 0;
}

static bool cu_is_emulated(void) {
    // The emulated driver exports its control API; a real one does not.
    return cu.lib != NULL && dlsym(cu.lib, "umfCudaMockGetCallCount") != NULL;
}

static int cu_create_provider(umf_memory_provider_handle_t *out,
                              demo_why_t *why) {
    umf_cuda_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfCUDAMemoryProviderParamsCreate(&params);
    if (res != UMF_RESULT_SUCCESS) {
        return demo_why_umf(why, "umfCUDAMemoryProviderParamsCreate", res, NULL,
                            umfCUDAMemoryProviderOps());
    }
    const char *call = "umfCUDAMemoryProviderParamsSetContext";
    res = umfCUDAMemoryProviderParamsSetContext(params, cu.context);
    if (res == UMF_RESULT_SUCCESS) {
        call = "umfCUDAMemoryProviderParamsSetDevice";
        res = umfCUDAMemoryProviderParamsSetDevice(params, (int)cu.device);
    }
    if (res == UMF_RESULT_SUCCESS) {
        call = "umfCUDAMemoryProviderParamsSetMemoryType(DEVICE)";
        res = umfCUDAMemoryProviderParamsSetMemoryType(params,
                                                       UMF_MEMORY_TYPE_DEVICE);
    }
    if (res == UMF_RESULT_SUCCESS) {
        call = "umfMemoryProviderCreate(CUDA)";
        res = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), params, out);
    }
    umfCUDAMemoryProviderParamsDestroy(params);
    if (res != UMF_RESULT_SUCCESS) {
        return demo_why_umf(why, call, res, NULL, umfCUDAMemoryProviderOps());
    }
    return 0;
}

static int cu_to_device(void *dst, const void *src, size_t size,
                        demo_why_t *why) {
    CUresult res = cu.cuMemcpyHtoD_v2((CUdeviceptr)(uintptr_t)dst, src, size);
    if (res != CUDA_SUCCESS) {
        char call[96];
        snprintf(call, sizeof(call), "cuMemcpyHtoD_v2(size=%zu)", size);
        return cu_failed(why, call, res);
    }
    return 0;
}

static int cu_to_host(void *dst, const void *src, size_t size,
                      demo_why_t *why) {
    CUresult res = cu.cuMemcpyDtoH_v2(dst, (CUdeviceptr)(uintptr_t)src, size);
    if (res != CUDA_SUCCESS) {
        char call[96];
        snprintf(call, sizeof(call), "cuMemcpyDtoH_v2(size=%zu)", size);
        return cu_failed(why, call, res);
    }
    return 0;
}

static int cu_close(demo_why_t *why) {
    if (cu.context == NULL) {
        return 0;
    }
    int ret = 0;
    CUresult res = cu.cuCtxSetCurrent(NULL);
    if (res != CUDA_SUCCESS) {
        ret = cu_failed(why, "cuCtxSetCurrent(NULL)", res);
    }
    res = cu.cuDevicePrimaryCtxRelease_v2(cu.device);
    if (res != CUDA_SUCCESS && ret == 0) {
        ret = cu_failed(why, "cuDevicePrimaryCtxRelease_v2", res);
    }
    cu.context = NULL;
    return ret;
}

const demo_driver_t demo_cuda_driver = {
    .name = "CUDA",
    .key = "cuda",
    .env = DRIVER_ENV,
    .entry = "cuMemcpyHtoD_v2",
    .ops = umfCUDAMemoryProviderOps,
    .emulated_path = demo_emulated_cuda_path,
    .open = cu_open,
    .is_emulated = cu_is_emulated,
    .create_provider = cu_create_provider,
    .to_device = cu_to_device,
    .to_host = cu_to_host,
    .close = cu_close,
};
