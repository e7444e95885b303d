// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA side of the benchmark. The raw path calls cuMemAlloc_v2 and
// cuMemFree_v2 resolved with dlsym from the same library the provider opens
// (UMF_GPU_CUDA_LIB, else libcuda.so.1), with the device's primary context
// current in every measuring thread, as a runtime would have it.

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <umf/providers/provider_cuda.h>

#include "bench.h"
#include "driver_open.h"

#ifdef UMF_GPU_BENCH_HAVE_CUDA

#include <cuda.h>

#define CUDA_LIB_ENV "UMF_GPU_CUDA_LIB"
#define CUDA_LIB_DEFAULT "libcuda.so.1"

typedef CUresult (*init_fn)(unsigned int);
typedef CUresult (*device_get_fn)(CUdevice *, int);
typedef CUresult (*primary_retain_fn)(CUcontext *, CUdevice);
typedef CUresult (*primary_release_fn)(CUdevice);
typedef CUresult (*ctx_set_current_fn)(CUcontext);
typedef CUresult (*mem_alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*mem_free_fn)(CUdeviceptr);

struct bench_driver_t {
    void *lib;
    init_fn init;
    device_get_fn device_get;
    primary_retain_fn primary_retain;
    primary_release_fn primary_release;
    ctx_set_current_fn ctx_set_current;
    mem_alloc_fn mem_alloc;
    mem_free_fn mem_free;
    CUdevice device;
    CUcontext context;
    bool emulated;
    char describe[256];
};

static void cuda_close(bench_driver_t *d) {
    if (d == NULL) {
        return;
    }
    if (d->context != NULL) {
        (void)d->ctx_set_current(NULL);
        (void)d->primary_release(d->device);
    }
    // The library stays loaded: the provider's table points into it.
    free(d);
}

static bool cuda_open(bench_driver_t **out, char *why, size_t why_len) {
    bench_driver_t *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        snprintf(why, why_len, "out of host memory");
        return false;
    }
    const driver_symbol_t syms[] = {
        {"cuInit", (void **)&d->init},
        {"cuDeviceGet", (void **)&d->device_get},
        {"cuDevicePrimaryCtxRetain", (void **)&d->primary_retain},
        {"cuDevicePrimaryCtxRelease_v2", (void **)&d->primary_release},
        {"cuCtxSetCurrent", (void **)&d->ctx_set_current},
        {"cuMemAlloc_v2", (void **)&d->mem_alloc},
        {"cuMemFree_v2", (void **)&d->mem_free},
    };
    const char *path;
    d->lib =
        driver_open(CUDA_LIB_ENV, CUDA_LIB_DEFAULT, "the CUDA driver", syms,
                    sizeof(syms) / sizeof(syms[0]), &path, why, why_len);
    if (d->lib == NULL) {
        goto err;
    }
    CUresult res = d->init(0);
    if (res != CUDA_SUCCESS) {
        snprintf(why, why_len, "cuInit(0) failed: %d", (int)res);
        goto err;
    }
    if ((res = d->device_get(&d->device, 0)) != CUDA_SUCCESS) {
        snprintf(why, why_len, "cuDeviceGet(0) failed: %d (no device?)",
                 (int)res);
        goto err;
    }
    if ((res = d->primary_retain(&d->context, d->device)) != CUDA_SUCCESS) {
        snprintf(why, why_len, "cuDevicePrimaryCtxRetain failed: %d", (int)res);
        d->context = NULL;
        goto err;
    }
    if ((res = d->ctx_set_current(d->context)) != CUDA_SUCCESS) {
        snprintf(why, why_len, "cuCtxSetCurrent failed: %d", (int)res);
        goto err;
    }
    d->emulated = dlsym(d->lib, "umfCudaMockGetLiveCount") != NULL;
    snprintf(d->describe, sizeof(d->describe), "%s", path);
    *out = d;
    return true;

err:
    cuda_close(d);
    return false;
}

static bool cuda_emulated(const bench_driver_t *d) {
    return d->emulated;
}

static const char *cuda_describe(const bench_driver_t *d) {
    return d->describe;
}

static bool cuda_thread_enter(bench_driver_t *d) {
    return d->ctx_set_current(d->context) == CUDA_SUCCESS;
}

static umf_result_t cuda_provider_create(bench_driver_t *d,
                                         umf_memory_provider_handle_t *out) {
    return bench_cuda_provider_create_mode(d, 0, out);
}

umf_result_t
bench_cuda_provider_create_mode(bench_driver_t *d, int mode,
                                umf_memory_provider_handle_t *out) {
    umf_cuda_memory_provider_params_handle_t params = NULL;
    umf_result_t ret = umfCUDAMemoryProviderParamsCreate(&params);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if ((ret = umfCUDAMemoryProviderParamsSetContext(params, d->context)) !=
            UMF_RESULT_SUCCESS ||
        (ret = umfCUDAMemoryProviderParamsSetDevice(params, (int)d->device)) !=
            UMF_RESULT_SUCCESS ||
        (ret = umfCUDAMemoryProviderParamsSetMemoryType(
             params, UMF_MEMORY_TYPE_DEVICE)) != UMF_RESULT_SUCCESS ||
        (ret = umfCUDAMemoryProviderParamsSetAllocationMode(
             params, (umf_cuda_allocation_mode_t)mode)) != UMF_RESULT_SUCCESS) {
        goto out;
    }
    ret = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), params, out);
out:
    umfCUDAMemoryProviderParamsDestroy(params);
    return ret;
}

static bool cuda_raw_pairs(bench_driver_t *d, size_t size, long n) {
    for (long i = 0; i < n; i++) {
        CUdeviceptr ptr = 0;
        if (d->mem_alloc(&ptr, size) != CUDA_SUCCESS ||
            d->mem_free(ptr) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static bool cuda_raw_alloc(bench_driver_t *d, size_t size, void **ptr) {
    CUdeviceptr dptr = 0;
    if (d->mem_alloc(&dptr, size) != CUDA_SUCCESS) {
        return false;
    }
    *ptr = (void *)(uintptr_t)dptr;
    return true;
}

static bool cuda_raw_free(bench_driver_t *d, void *ptr) {
    return d->mem_free((CUdeviceptr)(uintptr_t)ptr) == CUDA_SUCCESS;
}

static bool cuda_raw_random(bench_driver_t *d, bench_random_t *r, long n) {
    for (long i = 0; i < n; i++) {
        size_t size;
        size_t k = bench_random_step(r, &size);
        CUdeviceptr dptr = 0;
        CUresult res = d->mem_free((CUdeviceptr)(uintptr_t)r->slots[k].ptr);
        r->slots[k].ptr = NULL;
        if (res != CUDA_SUCCESS || d->mem_alloc(&dptr, size) != CUDA_SUCCESS) {
            return false;
        }
        r->slots[k].ptr = (void *)(uintptr_t)dptr;
        r->slots[k].size = size;
    }
    return true;
}

static const umf_memory_provider_ops_t *cuda_ops(void) {
    return umfCUDAMemoryProviderOps();
}

bool bench_cuda_resolve(bench_driver_t *d, const bench_symbol_t *syms,
                        size_t n) {
    return bench_resolve(d->lib, syms, n, "cuda");
}

int bench_cuda_device(const bench_driver_t *d) {
    return (int)d->device;
}

const bench_backend_t bench_backend_cuda = {
    .name = "cuda",
    .title = "CUDA DEVICE",
    .bit = BENCH_PROVIDER_CUDA,
    .ops = cuda_ops,
    .open = cuda_open,
    .close = cuda_close,
    .emulated = cuda_emulated,
    .describe = cuda_describe,
    .thread_enter = cuda_thread_enter,
    .provider_create = cuda_provider_create,
    .raw_pairs = cuda_raw_pairs,
    .raw_alloc = cuda_raw_alloc,
    .raw_free = cuda_raw_free,
    .raw_random = cuda_raw_random,
    .resident_change = NULL, // CUDA has no resident devices
};

#else // a build without the CUDA headers

static const umf_memory_provider_ops_t *no_ops(void) {
    return NULL;
}

const bench_backend_t bench_backend_cuda = {
    .name = "cuda",
    .title = "CUDA DEVICE",
    .bit = BENCH_PROVIDER_CUDA,
    .ops = no_ops,
};

#endif
