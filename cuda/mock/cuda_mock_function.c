// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Functions and launches (refused; cuda_mock_refuse.c). The emulated devices
// run no code: no module or library can be loaded (cuda_mock_module.c,
// cuda_mock_library.c), so no CUfunction can exist, and every entry point
// that takes one refuses it, after its other checks, with
// CUDA_ERROR_INVALID_HANDLE: queries and settings of a function, its
// occupancy, and launches, those of the CUDA 1 style (cuLaunch,
// cuParamSet*) included. cuLaunchCooperativeKernelMultiDevice takes its
// functions in its parameter list, and refuses them the same way.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated devices run no code, so nothing can be loaded"

static CUresult no_function(const char *call, CUfunction f) {
    return cuda_mock_refuse_handle(call, "function", (uintptr_t)f, WHY);
}

// Where cuda.h lists no CUDA_ERROR_INVALID_HANDLE among a call's results, a
// NULL handle is CUDA_ERROR_INVALID_VALUE (as cuFuncGetName's "If either
// **name or hfunc is NULL"); any other is one that cannot exist here.
static CUresult no_function_value(const char *call, CUfunction h) {
    return h == NULL ? CUDA_ERROR_INVALID_VALUE : no_function(call, h);
}

// ---------------------------------------------------------------------------
// Queries and settings

CUDA_MOCK_API CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                                          CUfunction hfunc) {
    CUDA_MOCK_ENTER(cuFuncGetAttribute);
    if (pi == NULL || (unsigned)attrib >= CU_FUNC_ATTRIBUTE_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuFuncSetAttribute(CUfunction hfunc,
                                          CUfunction_attribute attrib,
                                          int value) {
    CUDA_MOCK_ENTER(cuFuncSetAttribute);
    if (!cuda_mock_func_attribute_settable(attrib)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuFuncSetCacheConfig(CUfunction hfunc,
                                            CUfunc_cache config) {
    CUDA_MOCK_ENTER(cuFuncSetCacheConfig);
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuFuncSetSharedMemConfig(CUfunction hfunc,
                                                CUsharedconfig config) {
    CUDA_MOCK_ENTER(cuFuncSetSharedMemConfig);
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc) {
    CUDA_MOCK_ENTER(cuFuncGetModule);
    if (hmod == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuFuncGetName(const char **name, CUfunction hfunc) {
    CUDA_MOCK_ENTER(cuFuncGetName);
    // cuda.h: "If either **name or hfunc is NULL, CUDA_ERROR_INVALID_VALUE
    // is returned"; any other handle is one that cannot exist here.
    if (name == NULL || hfunc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, hfunc);
}

// paramSize is optional. cuda.h lists CUDA_ERROR_INVALID_VALUE as its one
// error, as for cuFuncGetName: a NULL function is that; any other handle is
// one that cannot exist here.
CUDA_MOCK_API CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
                                          size_t *paramOffset,
                                          size_t *paramSize) {
    CUDA_MOCK_ENTER(cuFuncGetParamInfo);
    if (paramOffset == NULL || func == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuFuncIsLoaded(CUfunctionLoadingState *state,
                                      CUfunction function) {
    CUDA_MOCK_ENTER(cuFuncIsLoaded);
    if (state == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, function);
}

CUDA_MOCK_API CUresult cuFuncLoad(CUfunction function) {
    CUDA_MOCK_ENTER(cuFuncLoad);
    return no_function(__func__, function);
}

// ---------------------------------------------------------------------------
// Occupancy

CUDA_MOCK_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize) {
    CUDA_MOCK_ENTER(cuOccupancyMaxActiveBlocksPerMultiprocessor);
    if (numBlocks == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags);
    if (numBlocks == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, CUfunction func,
    CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
    int blockSizeLimit) {
    CUDA_MOCK_ENTER(cuOccupancyMaxPotentialBlockSize);
    if (minGridSize == NULL || blockSize == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, CUfunction func,
    CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
    int blockSizeLimit, unsigned int flags) {
    CUDA_MOCK_ENTER(cuOccupancyMaxPotentialBlockSizeWithFlags);
    if (minGridSize == NULL || blockSize == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, CUfunction func, int numBlocks, int blockSize) {
    CUDA_MOCK_ENTER(cuOccupancyAvailableDynamicSMemPerBlock);
    if (dynamicSmemSize == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuOccupancyMaxPotentialClusterSize(
    int *clusterSize, CUfunction func, const CUlaunchConfig *config) {
    CUDA_MOCK_ENTER(cuOccupancyMaxPotentialClusterSize);
    if (clusterSize == NULL || config == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

CUDA_MOCK_API CUresult cuOccupancyMaxActiveClusters(
    int *numClusters, CUfunction func, const CUlaunchConfig *config) {
    CUDA_MOCK_ENTER(cuOccupancyMaxActiveClusters);
    if (numClusters == NULL || config == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function_value(__func__, func);
}

// ---------------------------------------------------------------------------
// Launches

// kernelParams and extra are two ways to pass the arguments: not both.
static CUresult launch(CUfunction f, void **params, void **extra,
                       const char *call) {
    if (params != NULL && extra != NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(call, f);
}

CUDA_MOCK_API CUresult cuLaunchKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernel);
    return launch(f, kernelParams, extra, __func__);
}

CUDA_MOCK_API CUresult cuLaunchKernel_ptsz(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernel_ptsz);
    return launch(f, kernelParams, extra, __func__);
}

// cuLaunchKernelEx: "CUDA_ERROR_INVALID_VALUE will be returned if extra is
// used for a cooperative kernel" (CU_LAUNCH_ATTRIBUTE_COOPERATIVE set).
static CUresult launch_ex(const CUlaunchConfig *config, CUfunction f,
                          void **params, void **extra, const char *call) {
    if (config == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (unsigned i = 0;
         extra != NULL && config->attrs != NULL && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE &&
            a->value.cooperative != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    return launch(f, params, extra, call);
}

CUDA_MOCK_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                        CUfunction f, void **kernelParams,
                                        void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernelEx);
    return launch_ex(config, f, kernelParams, extra, __func__);
}

CUDA_MOCK_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config,
                                             CUfunction f, void **kernelParams,
                                             void **extra) {
    CUDA_MOCK_ENTER(cuLaunchKernelEx_ptsz);
    return launch_ex(config, f, kernelParams, extra, __func__);
}

CUDA_MOCK_API CUresult cuLaunchCooperativeKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams) {
    CUDA_MOCK_ENTER(cuLaunchCooperativeKernel);
    return no_function(__func__, f);
}

CUDA_MOCK_API CUresult cuLaunchCooperativeKernel_ptsz(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams) {
    CUDA_MOCK_ENTER(cuLaunchCooperativeKernel_ptsz);
    return no_function(__func__, f);
}

CUDA_MOCK_API CUresult cuLaunchCooperativeKernelMultiDevice(
    CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuLaunchCooperativeKernelMultiDevice);
    if (launchParamsList == NULL || numDevices == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, launchParamsList[0].function);
}

// The launch API of CUDA 1 (cuFuncSetBlockShape, cuParamSet*, cuLaunch*).

CUDA_MOCK_API CUresult cuFuncSetBlockShape(CUfunction hfunc, int x, int y,
                                           int z) {
    CUDA_MOCK_ENTER(cuFuncSetBlockShape);
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuFuncSetSharedSize(CUfunction hfunc,
                                           unsigned int bytes) {
    CUDA_MOCK_ENTER(cuFuncSetSharedSize);
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuParamSetSize(CUfunction hfunc, unsigned int numbytes) {
    CUDA_MOCK_ENTER(cuParamSetSize);
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuParamSeti(CUfunction hfunc, int offset,
                                   unsigned int value) {
    CUDA_MOCK_ENTER(cuParamSeti);
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuParamSetf(CUfunction hfunc, int offset, float value) {
    CUDA_MOCK_ENTER(cuParamSetf);
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuParamSetv(CUfunction hfunc, int offset, void *ptr,
                                   unsigned int numbytes) {
    CUDA_MOCK_ENTER(cuParamSetv);
    if (ptr == NULL && numbytes > 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuParamSetTexRef(CUfunction hfunc, int texunit,
                                        CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuParamSetTexRef);
    return no_function(__func__, hfunc);
}

CUDA_MOCK_API CUresult cuLaunch(CUfunction f) {
    CUDA_MOCK_ENTER(cuLaunch);
    return no_function(__func__, f);
}

CUDA_MOCK_API CUresult cuLaunchGrid(CUfunction f, int grid_width,
                                    int grid_height) {
    CUDA_MOCK_ENTER(cuLaunchGrid);
    return no_function(__func__, f);
}

CUDA_MOCK_API CUresult cuLaunchGridAsync(CUfunction f, int grid_width,
                                         int grid_height, CUstream hStream) {
    CUDA_MOCK_ENTER(cuLaunchGridAsync);
    return no_function(__func__, f);
}
