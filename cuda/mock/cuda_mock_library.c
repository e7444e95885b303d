// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Libraries and kernels, the context-independent loading of CUDA 12
// (refused; cuda_mock_refuse.c). The emulated devices run no code, so no
// library can be loaded (CUDA_ERROR_NOT_SUPPORTED after the argument
// checks), and no CUlibrary or CUkernel can exist: every entry point that
// takes one refuses it with CUDA_ERROR_INVALID_HANDLE.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated devices run no code (libraries cannot be loaded)"

static CUresult no_library(const char *call, CUlibrary lib) {
    return cuda_mock_refuse_handle(call, "library", (uintptr_t)lib, WHY);
}

static CUresult no_kernel(const char *call, CUkernel kernel) {
    return cuda_mock_refuse_handle(call, "kernel", (uintptr_t)kernel, WHY);
}

// Where cuda.h lists no CUDA_ERROR_INVALID_HANDLE among a call's results, a
// NULL handle is CUDA_ERROR_INVALID_VALUE (as cuKernelGetName's "If either
// **name or hfunc is NULL"); any other is one that cannot exist here.
static CUresult no_library_value(const char *call, CUlibrary lib) {
    return lib == NULL ? CUDA_ERROR_INVALID_VALUE : no_library(call, lib);
}

static CUresult no_kernel_value(const char *call, CUkernel kernel) {
    return kernel == NULL ? CUDA_ERROR_INVALID_VALUE : no_kernel(call, kernel);
}

// Options come as counts and arrays; an array may be NULL only when its
// count is 0. A library needs no context.
static CUresult load(CUlibrary *library, const void *what, unsigned jit_count,
                     const void *jit_options, const void *jit_values,
                     unsigned lib_count, const void *lib_options,
                     const void *lib_values, const char *call) {
    if (library == NULL || what == NULL ||
        (jit_count > 0 && (jit_options == NULL || jit_values == NULL)) ||
        (lib_count > 0 && (lib_options == NULL || lib_values == NULL))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *library = NULL;
    return cuda_mock_refuse(call, WHY);
}

CUDA_MOCK_API CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
                                         CUjit_option *jitOptions,
                                         void **jitOptionsValues,
                                         unsigned int numJitOptions,
                                         CUlibraryOption *libraryOptions,
                                         void **libraryOptionValues,
                                         unsigned int numLibraryOptions) {
    CUDA_MOCK_ENTER(cuLibraryLoadData);
    return load(library, code, numJitOptions, jitOptions, jitOptionsValues,
                numLibraryOptions, libraryOptions, libraryOptionValues,
                __func__);
}

CUDA_MOCK_API CUresult cuLibraryLoadFromFile(
    CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
    void **jitOptionsValues, unsigned int numJitOptions,
    CUlibraryOption *libraryOptions, void **libraryOptionValues,
    unsigned int numLibraryOptions) {
    CUDA_MOCK_ENTER(cuLibraryLoadFromFile);
    return load(library, fileName, numJitOptions, jitOptions, jitOptionsValues,
                numLibraryOptions, libraryOptions, libraryOptionValues,
                __func__);
}

CUDA_MOCK_API CUresult cuLibraryUnload(CUlibrary library) {
    CUDA_MOCK_ENTER(cuLibraryUnload);
    return no_library_value(__func__, library);
}

CUDA_MOCK_API CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library,
                                          const char *name) {
    CUDA_MOCK_ENTER(cuLibraryGetKernel);
    if (pKernel == NULL || name == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, library);
}

CUDA_MOCK_API CUresult cuLibraryGetKernelCount(unsigned int *count,
                                               CUlibrary lib) {
    CUDA_MOCK_ENTER(cuLibraryGetKernelCount);
    if (count == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, lib);
}

CUDA_MOCK_API CUresult cuLibraryEnumerateKernels(CUkernel *kernels,
                                                 unsigned int numKernels,
                                                 CUlibrary lib) {
    CUDA_MOCK_ENTER(cuLibraryEnumerateKernels);
    if (kernels == NULL && numKernels > 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, lib);
}

CUDA_MOCK_API CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library) {
    CUDA_MOCK_ENTER(cuLibraryGetModule);
    if (pMod == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, library);
}

// dptr or bytes (not both) may be NULL.
CUDA_MOCK_API CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes,
                                          CUlibrary library, const char *name) {
    CUDA_MOCK_ENTER(cuLibraryGetGlobal);
    if (name == NULL || !cuda_mock_global_outputs_ok(dptr, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, library);
}

CUDA_MOCK_API CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
                                           CUlibrary library,
                                           const char *name) {
    CUDA_MOCK_ENTER(cuLibraryGetManaged);
    if (name == NULL || !cuda_mock_global_outputs_ok(dptr, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, library);
}

CUDA_MOCK_API CUresult cuLibraryGetUnifiedFunction(void **fptr,
                                                   CUlibrary library,
                                                   const char *symbol) {
    CUDA_MOCK_ENTER(cuLibraryGetUnifiedFunction);
    if (fptr == NULL || symbol == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_library(__func__, library);
}

// ---------------------------------------------------------------------------
// Kernels

CUDA_MOCK_API CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) {
    CUDA_MOCK_ENTER(cuKernelGetFunction);
    if (pFunc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_kernel(__func__, kernel);
}

CUDA_MOCK_API CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel) {
    CUDA_MOCK_ENTER(cuKernelGetLibrary);
    if (pLib == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_kernel(__func__, kernel);
}

CUDA_MOCK_API CUresult cuKernelGetAttribute(int *pi,
                                            CUfunction_attribute attrib,
                                            CUkernel kernel, CUdevice dev) {
    CUDA_MOCK_ENTER(cuKernelGetAttribute);
    if (pi == NULL || (unsigned)attrib >= CU_FUNC_ATTRIBUTE_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    return no_kernel(__func__, kernel);
}

CUDA_MOCK_API CUresult cuKernelSetAttribute(CUfunction_attribute attrib,
                                            int val, CUkernel kernel,
                                            CUdevice dev) {
    CUDA_MOCK_ENTER(cuKernelSetAttribute);
    if (!cuda_mock_func_attribute_settable(attrib)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    return no_kernel(__func__, kernel);
}

CUDA_MOCK_API CUresult cuKernelSetCacheConfig(CUkernel kernel,
                                              CUfunc_cache config,
                                              CUdevice dev) {
    CUDA_MOCK_ENTER(cuKernelSetCacheConfig);
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    return no_kernel(__func__, kernel);
}

CUDA_MOCK_API CUresult cuKernelGetName(const char **name, CUkernel hfunc) {
    CUDA_MOCK_ENTER(cuKernelGetName);
    // cuda.h: "If either **name or hfunc is NULL, CUDA_ERROR_INVALID_VALUE
    // is returned"; any other handle is one that cannot exist here.
    if (name == NULL || hfunc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_kernel(__func__, hfunc);
}

// paramSize is optional. cuda.h lists CUDA_ERROR_INVALID_VALUE as its one
// error, as for cuKernelGetName: a NULL kernel is that.
CUDA_MOCK_API CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex,
                                            size_t *paramOffset,
                                            size_t *paramSize) {
    CUDA_MOCK_ENTER(cuKernelGetParamInfo);
    if (paramOffset == NULL || kernel == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_kernel_value(__func__, kernel);
}
