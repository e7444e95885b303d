// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Modules and the JIT linker (refused; cuda_mock_refuse.c). The emulated
// devices run no code, so no module can be loaded and nothing linked: after
// the argument checks cuda.h documents (NULL out-pointers, a current context
// for loading), loading and linking return CUDA_ERROR_NOT_SUPPORTED. No
// module or link state can exist, so the entry points that take one refuse
// it with CUDA_ERROR_INVALID_HANDLE. A program that probes for kernel
// support gets a clean, documented error, never a crash.
//
// cuModuleGetLoadingMode is the one query that needs no module: it reads
// CUDA_MODULE_LOADING as the driver does (EAGER or LAZY, lazy by default
// since CUDA 12.2).

#include "cuda_mock_core.h"

#include <stdlib.h>
#include <string.h>

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated devices run no code (modules cannot be loaded)"

static CUresult no_module(const char *call, CUmodule hmod) {
    return cuda_mock_refuse_handle(call, "module", (uintptr_t)hmod, WHY);
}

// Where cuda.h lists no CUDA_ERROR_INVALID_HANDLE among a call's results, a
// NULL handle is CUDA_ERROR_INVALID_VALUE (as cuFuncGetName's "If either
// **name or hfunc is NULL"); any other is one that cannot exist here.
static CUresult no_module_value(const char *call, CUmodule h) {
    return h == NULL ? CUDA_ERROR_INVALID_VALUE : no_module(call, h);
}

static CUresult no_link_state(const char *call, CUlinkState state) {
    return cuda_mock_refuse_handle(call, "link state", (uintptr_t)state, WHY);
}

// JIT options: a count and, when it is not 0, both arrays.
static bool options_ok(unsigned count, const void *options,
                       const void *values) {
    return count == 0 || (options != NULL && values != NULL);
}

// The checks before a load is refused: a usable current context.
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
    return cuda_mock_refuse(call, WHY);
}

// ---------------------------------------------------------------------------
// Modules

CUDA_MOCK_API CUresult cuModuleLoad(CUmodule *module, const char *fname) {
    CUDA_MOCK_ENTER(cuModuleLoad);
    return load(module, fname, __func__);
}

CUDA_MOCK_API CUresult cuModuleLoadData(CUmodule *module, const void *image) {
    CUDA_MOCK_ENTER(cuModuleLoadData);
    return load(module, image, __func__);
}

CUDA_MOCK_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                          unsigned int numOptions,
                                          CUjit_option *options,
                                          void **optionValues) {
    CUDA_MOCK_ENTER(cuModuleLoadDataEx);
    if (!options_ok(numOptions, options, optionValues)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return load(module, image, __func__);
}

CUDA_MOCK_API CUresult cuModuleLoadFatBinary(CUmodule *module,
                                             const void *fatCubin) {
    CUDA_MOCK_ENTER(cuModuleLoadFatBinary);
    return load(module, fatCubin, __func__);
}

CUDA_MOCK_API CUresult cuModuleUnload(CUmodule hmod) {
    CUDA_MOCK_ENTER(cuModuleUnload);
    return no_module_value(__func__, hmod);
}

CUDA_MOCK_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) {
    CUDA_MOCK_ENTER(cuModuleGetLoadingMode);
    if (mode == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const char *v = getenv("CUDA_MODULE_LOADING");
    *mode = v != NULL && strcmp(v, "EAGER") == 0 ? CU_MODULE_EAGER_LOADING
                                                 : CU_MODULE_LAZY_LOADING;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                                           const char *name) {
    CUDA_MOCK_ENTER(cuModuleGetFunction);
    if (hfunc == NULL || name == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_module_value(__func__, hmod);
}

CUDA_MOCK_API CUresult cuModuleGetFunctionCount(unsigned int *count,
                                                CUmodule mod) {
    CUDA_MOCK_ENTER(cuModuleGetFunctionCount);
    if (count == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_module(__func__, mod);
}

CUDA_MOCK_API CUresult cuModuleEnumerateFunctions(CUfunction *functions,
                                                  unsigned int numFunctions,
                                                  CUmodule mod) {
    CUDA_MOCK_ENTER(cuModuleEnumerateFunctions);
    if (functions == NULL && numFunctions > 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_module(__func__, mod);
}

// dptr or bytes (not both) may be NULL.
CUDA_MOCK_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes,
                                            CUmodule hmod, const char *name) {
    CUDA_MOCK_ENTER(cuModuleGetGlobal_v2);
    if (name == NULL || !cuda_mock_global_outputs_ok(dptr, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_module_value(__func__, hmod);
}

CUDA_MOCK_API CUresult cuModuleGetTexRef(CUtexref *pTexRef, CUmodule hmod,
                                         const char *name) {
    CUDA_MOCK_ENTER(cuModuleGetTexRef);
    if (pTexRef == NULL || name == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_module(__func__, hmod);
}

CUDA_MOCK_API CUresult cuModuleGetSurfRef(CUsurfref *pSurfRef, CUmodule hmod,
                                          const char *name) {
    CUDA_MOCK_ENTER(cuModuleGetSurfRef);
    if (pSurfRef == NULL || name == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_module(__func__, hmod);
}

// ---------------------------------------------------------------------------
// The JIT linker (cuLinkCreate and cuLinkCreate_v2 ... take the same
// arguments: CUDA 5.5's and 6.5's names of one call)

static CUresult link_create(unsigned count, CUjit_option *options,
                            void **values, CUlinkState *stateOut,
                            const char *call) {
    if (stateOut == NULL || !options_ok(count, options, values)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    *stateOut = NULL;
    return cuda_mock_refuse(call, WHY);
}

CUDA_MOCK_API CUresult cuLinkCreate_v2(unsigned int numOptions,
                                       CUjit_option *options,
                                       void **optionValues,
                                       CUlinkState *stateOut) {
    CUDA_MOCK_ENTER(cuLinkCreate_v2);
    return link_create(numOptions, options, optionValues, stateOut, __func__);
}

CUDA_MOCK_API CUresult cuLinkCreate(unsigned int numOptions,
                                    CUjit_option *options, void **optionValues,
                                    CUlinkState *stateOut) {
    CUDA_MOCK_ENTER(cuLinkCreate);
    return link_create(numOptions, options, optionValues, stateOut, __func__);
}

static CUresult link_add(CUlinkState state, const void *what, unsigned count,
                         CUjit_option *options, void **values,
                         const char *call) {
    if (what == NULL || !options_ok(count, options, values)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_link_state(call, state);
}

CUDA_MOCK_API CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type,
                                        void *data, size_t size,
                                        const char *name,
                                        unsigned int numOptions,
                                        CUjit_option *options,
                                        void **optionValues) {
    CUDA_MOCK_ENTER(cuLinkAddData_v2);
    return link_add(state, data, numOptions, options, optionValues, __func__);
}

CUDA_MOCK_API CUresult cuLinkAddData(CUlinkState state, CUjitInputType type,
                                     void *data, size_t size, const char *name,
                                     unsigned int numOptions,
                                     CUjit_option *options,
                                     void **optionValues) {
    CUDA_MOCK_ENTER(cuLinkAddData);
    return link_add(state, data, numOptions, options, optionValues, __func__);
}

CUDA_MOCK_API CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type,
                                        const char *path,
                                        unsigned int numOptions,
                                        CUjit_option *options,
                                        void **optionValues) {
    CUDA_MOCK_ENTER(cuLinkAddFile_v2);
    return link_add(state, path, numOptions, options, optionValues, __func__);
}

CUDA_MOCK_API CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
                                     const char *path, unsigned int numOptions,
                                     CUjit_option *options,
                                     void **optionValues) {
    CUDA_MOCK_ENTER(cuLinkAddFile);
    return link_add(state, path, numOptions, options, optionValues, __func__);
}

CUDA_MOCK_API CUresult cuLinkComplete(CUlinkState state, void **cubinOut,
                                      size_t *sizeOut) {
    CUDA_MOCK_ENTER(cuLinkComplete);
    if (cubinOut == NULL) { // sizeOut is optional
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_link_state(__func__, state);
}

CUDA_MOCK_API CUresult cuLinkDestroy(CUlinkState state) {
    CUDA_MOCK_ENTER(cuLinkDestroy);
    return no_link_state(__func__, state);
}
