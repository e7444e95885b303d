// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graphics interoperability (refused; cuda_mock_refuse.c). Graphics
// resources are registered by the interop headers of OpenGL, Direct3D, EGL
// and VDPAU (cudaGL.h ...), whose functions this driver does not have: no
// graphics API can hand it a buffer. So no CUgraphicsResource can exist,
// and every entry point of cuda.h that takes one refuses it with
// CUDA_ERROR_INVALID_HANDLE, after its other checks.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated driver has no graphics interoperability"

static CUresult no_resource(const char *call, CUgraphicsResource r) {
    return cuda_mock_refuse_handle(call, "graphics resource", (uintptr_t)r,
                                   WHY);
}

CUDA_MOCK_API CUresult
cuGraphicsUnregisterResource(CUgraphicsResource resource) {
    CUDA_MOCK_ENTER(cuGraphicsUnregisterResource);
    return no_resource(__func__, resource);
}

CUDA_MOCK_API CUresult cuGraphicsSubResourceGetMappedArray(
    CUarray *pArray, CUgraphicsResource resource, unsigned int arrayIndex,
    unsigned int mipLevel) {
    CUDA_MOCK_ENTER(cuGraphicsSubResourceGetMappedArray);
    if (pArray == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_resource(__func__, resource);
}

CUDA_MOCK_API CUresult cuGraphicsResourceGetMappedMipmappedArray(
    CUmipmappedArray *pMipmappedArray, CUgraphicsResource resource) {
    CUDA_MOCK_ENTER(cuGraphicsResourceGetMappedMipmappedArray);
    if (pMipmappedArray == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_resource(__func__, resource);
}

// pDevPtr and pSize are both required (cuda.h lists no optional one).
CUDA_MOCK_API CUresult cuGraphicsResourceGetMappedPointer_v2(
    CUdeviceptr *pDevPtr, size_t *pSize, CUgraphicsResource resource) {
    CUDA_MOCK_ENTER(cuGraphicsResourceGetMappedPointer_v2);
    if (pDevPtr == NULL || pSize == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_resource(__func__, resource);
}

// CUDA 3's ABI, with a 32-bit device pointer.
CUDA_MOCK_API CUresult cuGraphicsResourceGetMappedPointer(
    CUdeviceptr_v1 *pDevPtr, unsigned int *pSize, CUgraphicsResource resource) {
    CUDA_MOCK_ENTER(cuGraphicsResourceGetMappedPointer);
    if (pDevPtr == NULL || pSize == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_resource(__func__, resource);
}

CUDA_MOCK_API CUresult cuGraphicsResourceSetMapFlags_v2(
    CUgraphicsResource resource, unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphicsResourceSetMapFlags_v2);
    return no_resource(__func__, resource);
}

CUDA_MOCK_API CUresult
cuGraphicsResourceSetMapFlags(CUgraphicsResource resource, unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphicsResourceSetMapFlags);
    return no_resource(__func__, resource);
}

// A list of resources: at least one, and none of them can exist.
static CUresult map_list(unsigned count, CUgraphicsResource *resources,
                         const char *call) {
    if (count == 0 || resources == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_resource(call, resources[0]);
}

CUDA_MOCK_API CUresult cuGraphicsMapResources(unsigned int count,
                                              CUgraphicsResource *resources,
                                              CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphicsMapResources);
    return map_list(count, resources, __func__);
}

CUDA_MOCK_API CUresult cuGraphicsMapResources_ptsz(
    unsigned int count, CUgraphicsResource *resources, CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphicsMapResources_ptsz);
    return map_list(count, resources, __func__);
}

CUDA_MOCK_API CUresult cuGraphicsUnmapResources(unsigned int count,
                                                CUgraphicsResource *resources,
                                                CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphicsUnmapResources);
    return map_list(count, resources, __func__);
}

CUDA_MOCK_API CUresult cuGraphicsUnmapResources_ptsz(
    unsigned int count, CUgraphicsResource *resources, CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphicsUnmapResources_ptsz);
    return map_list(count, resources, __func__);
}
