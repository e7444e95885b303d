// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Modules and kernels. The emulated devices run no code, so no module can
// be loaded and no kernel launched: after the argument checks cuda.h
// documents (NULL out-pointers, a current context), every entry point here
// returns CUDA_ERROR_NOT_SUPPORTED and logs why. No module handle can
// exist, so those given to cuModuleUnload and cuModuleGetFunction are
// refused the same way; a program that probes for kernel support gets a
// clean, documented error, never a crash.

#include "cuda_mock_internal.h"

static CUresult no_kernels(const char *call) {
    UMF_MOCK_LOG_ERROR("%s: the emulated devices run no kernels (modules "
                       "cannot be loaded)",
                       call);
    return CUDA_ERROR_NOT_SUPPORTED;
}

// The checks before the refusal: a usable current context.
static CUresult load(CUmodule *module, const void *what, const char *call) {
    if (module == NULL || what == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    *module = NULL;
    return no_kernels(call);
}

CUDA_MOCK_API CUresult cuModuleLoad(CUmodule *module, const char *fname) {
    CUDA_MOCK_ENTER(cuModuleLoad);
    return load(module, fname, "cuModuleLoad");
}

CUDA_MOCK_API CUresult cuModuleLoadData(CUmodule *module, const void *image) {
    CUDA_MOCK_ENTER(cuModuleLoadData);
    return load(module, image, "cuModuleLoadData");
}

CUDA_MOCK_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                          unsigned int numOptions,
                                          CUjit_option *options,
                                          void **optionValues) {
    CUDA_MOCK_ENTER(cuModuleLoadDataEx);
    if (numOptions > 0 && (options == NULL || optionValues == NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return load(module, image, "cuModuleLoadDataEx");
}

CUDA_MOCK_API CUresult cuModuleLoadFatBinary(CUmodule *module,
                                             const void *fatCubin) {
    CUDA_MOCK_ENTER(cuModuleLoadFatBinary);
    return load(module, fatCubin, "cuModuleLoadFatBinary");
}

CUDA_MOCK_API CUresult cuModuleUnload(CUmodule hmod) {
    CUDA_MOCK_ENTER(cuModuleUnload);
    if (hmod == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_kernels("cuModuleUnload");
}

CUDA_MOCK_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                                           const char *name) {
    CUDA_MOCK_ENTER(cuModuleGetFunction);
    if (hfunc == NULL || hmod == NULL || name == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_kernels("cuModuleGetFunction");
}

CUDA_MOCK_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes,
                                            CUmodule hmod, const char *name) {
    CUDA_MOCK_ENTER(cuModuleGetGlobal_v2);
    if (hmod == NULL || name == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    (void)dptr; // both optional
    (void)bytes;
    return no_kernels("cuModuleGetGlobal_v2");
}

static CUresult launch(CUfunction f, void **params, void **extra,
                       const char *call) {
    if (f == NULL || (params != NULL && extra != NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // No function handle can exist: nothing was ever loaded.
    return no_kernels(call);
}

CUDA_MOCK_API CUresult cuLaunchKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernel);
    (void)gridDimX, (void)gridDimY, (void)gridDimZ;
    (void)blockDimX, (void)blockDimY, (void)blockDimZ;
    (void)sharedMemBytes, (void)hStream;
    return launch(f, kernelParams, extra, "cuLaunchKernel");
}

CUDA_MOCK_API CUresult cuLaunchKernel_ptsz(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernel_ptsz);
    (void)gridDimX, (void)gridDimY, (void)gridDimZ;
    (void)blockDimX, (void)blockDimY, (void)blockDimZ;
    (void)sharedMemBytes, (void)hStream;
    return launch(f, kernelParams, extra, "cuLaunchKernel_ptsz");
}

CUDA_MOCK_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                        CUfunction f, void **kernelParams,
                                        void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernelEx);
    if (config == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return launch(f, kernelParams, extra, "cuLaunchKernelEx");
}

CUDA_MOCK_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config,
                                             CUfunction f, void **kernelParams,
                                             void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernelEx_ptsz);
    if (config == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return launch(f, kernelParams, extra, "cuLaunchKernelEx_ptsz");
}
