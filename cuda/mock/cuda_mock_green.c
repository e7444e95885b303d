// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Green contexts and device resources (refused; cuda_mock_refuse.c): the
// partitioning of a device's streaming multiprocessors among contexts. The
// emulated devices have no SMs to partition (they run no code), so device
// and context resources cannot be queried, split or turned into a
// descriptor (CUDA_ERROR_NOT_SUPPORTED after the argument checks), and no
// green context can exist (CUDA_ERROR_INVALID_HANDLE). cuStreamGetGreenCtx
// is emulated: no stream belongs to a green context, so it answers NULL.

#include "cuda_mock_internal.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY                                                                    \
    "the emulated devices have no streaming multiprocessors to partition"

static CUresult no_green_ctx(const char *call, CUgreenCtx g) {
    return cuda_mock_refuse_handle(call, "green context", (uintptr_t)g, WHY);
}

static bool type_ok(CUdevResourceType type) {
    return type > CU_DEV_RESOURCE_TYPE_INVALID &&
           type < CU_DEV_RESOURCE_TYPE_MAX;
}

CUDA_MOCK_API CUresult cuDeviceGetDevResource(CUdevice device,
                                              CUdevResource *resource,
                                              CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuDeviceGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    if (!type_ok(type)) {
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuCtxGetDevResource(CUcontext hCtx,
                                           CUdevResource *resource,
                                           CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuCtxGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_live(hCtx, __func__, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (!type_ok(type)) {
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

// result may be NULL, to count the groups.
CUDA_MOCK_API CUresult cuDevSmResourceSplitByCount(
    CUdevResource *result, unsigned int *nbGroups, const CUdevResource *input,
    CUdevResource *remaining, unsigned int useFlags, unsigned int minCount) {
    CUDA_MOCK_ENTER(cuDevSmResourceSplitByCount);
    if (nbGroups == NULL || input == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuDevResourceGenerateDesc(CUdevResourceDesc *phDesc,
                                                 CUdevResource *resources,
                                                 unsigned int nbResources) {
    CUDA_MOCK_ENTER(cuDevResourceGenerateDesc);
    if (phDesc == NULL || resources == NULL || nbResources == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

// No resource descriptor can be made, so none is valid.
CUDA_MOCK_API CUresult cuGreenCtxCreate(CUgreenCtx *phCtx,
                                        CUdevResourceDesc desc, CUdevice dev,
                                        unsigned int flags) {
    CUDA_MOCK_ENTER(cuGreenCtxCreate);
    if (phCtx == NULL || flags != CU_GREEN_CTX_DEFAULT_STREAM) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    return cuda_mock_refuse_handle(__func__, "device resource descriptor",
                                   (uintptr_t)desc, WHY);
}

CUDA_MOCK_API CUresult cuGreenCtxDestroy(CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuGreenCtxDestroy);
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuCtxFromGreenCtx(CUcontext *pContext, CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuCtxFromGreenCtx);
    if (pContext == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxGetDevResource(CUgreenCtx hCtx,
                                                CUdevResource *resource,
                                                CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuGreenCtxGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxRecordEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxRecordEvent);
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxWaitEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxWaitEvent);
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxStreamCreate(CUstream *phStream,
                                              CUgreenCtx greenCtx,
                                              unsigned int flags,
                                              int priority) {
    CUDA_MOCK_ENTER(cuGreenCtxStreamCreate);
    if (phStream == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, greenCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxGetId(CUgreenCtx greenCtx,
                                       unsigned long long *greenCtxId) {
    CUDA_MOCK_ENTER(cuGreenCtxGetId);
    if (greenCtxId == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, greenCtx);
}

// Emulated: every stream (the default ones of a context too) belongs to a
// context, none to a green context.
CUDA_MOCK_API CUresult cuStreamGetGreenCtx(CUstream hStream,
                                           CUgreenCtx *phCtx) {
    CUDA_MOCK_ENTER(cuStreamGetGreenCtx);
    if (phCtx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(hStream, __func__, &ctx);
    if (res == CUDA_SUCCESS) {
        *phCtx = NULL;
    }
    return res;
}
