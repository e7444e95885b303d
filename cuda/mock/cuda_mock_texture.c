// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Textures and surfaces (refused; cuda_mock_refuse.c): texture and surface
// objects, the texture and surface references of CUDA 2 to 11, and
// mipmapped arrays, which exist to be read through textures. The emulated
// devices have no texture units and run no code that could sample, so
// nothing here can be made (CUDA_ERROR_NOT_SUPPORTED after the argument
// checks) and every handle of these kinds is invalid
// (CUDA_ERROR_INVALID_HANDLE). CUDA arrays themselves are plain memory and
// emulated elsewhere (cuArray*).

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated devices have no texture units"

static CUresult no_texref(const char *call, CUtexref ref) {
    return cuda_mock_refuse_handle(call, "texture reference", (uintptr_t)ref,
                                   WHY);
}

static CUresult no_surfref(const char *call, CUsurfref ref) {
    return cuda_mock_refuse_handle(call, "surface reference", (uintptr_t)ref,
                                   WHY);
}

static CUresult no_texobj(const char *call, CUtexObject obj) {
    return cuda_mock_refuse_handle(call, "texture object", (uintptr_t)obj, WHY);
}

static CUresult no_surfobj(const char *call, CUsurfObject obj) {
    return cuda_mock_refuse_handle(call, "surface object", (uintptr_t)obj, WHY);
}

static CUresult no_mipmap(const char *call, CUmipmappedArray m) {
    return cuda_mock_refuse_handle(call, "mipmapped array", (uintptr_t)m, WHY);
}

// ---------------------------------------------------------------------------
// Texture and surface objects

// pResViewDesc is optional.
CUDA_MOCK_API CUresult
cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                  const CUDA_TEXTURE_DESC *pTexDesc,
                  const CUDA_RESOURCE_VIEW_DESC *pResViewDesc) {
    CUDA_MOCK_ENTER(cuTexObjectCreate);
    if (pTexObject == NULL || pResDesc == NULL || pTexDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuTexObjectDestroy(CUtexObject texObject) {
    CUDA_MOCK_ENTER(cuTexObjectDestroy);
    return no_texobj(__func__, texObject);
}

CUDA_MOCK_API CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                                  CUtexObject texObject) {
    CUDA_MOCK_ENTER(cuTexObjectGetResourceDesc);
    if (pResDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_texobj(__func__, texObject);
}

CUDA_MOCK_API CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc,
                                                 CUtexObject texObject) {
    CUDA_MOCK_ENTER(cuTexObjectGetTextureDesc);
    if (pTexDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_texobj(__func__, texObject);
}

CUDA_MOCK_API CUresult cuTexObjectGetResourceViewDesc(
    CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject) {
    CUDA_MOCK_ENTER(cuTexObjectGetResourceViewDesc);
    if (pResViewDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_texobj(__func__, texObject);
}

CUDA_MOCK_API CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject,
                                          const CUDA_RESOURCE_DESC *pResDesc) {
    CUDA_MOCK_ENTER(cuSurfObjectCreate);
    if (pSurfObject == NULL || pResDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuSurfObjectDestroy(CUsurfObject surfObject) {
    CUDA_MOCK_ENTER(cuSurfObjectDestroy);
    return no_surfobj(__func__, surfObject);
}

CUDA_MOCK_API CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                                   CUsurfObject surfObject) {
    CUDA_MOCK_ENTER(cuSurfObjectGetResourceDesc);
    if (pResDesc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_surfobj(__func__, surfObject);
}

// ---------------------------------------------------------------------------
// Mipmapped arrays

CUDA_MOCK_API CUresult
cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                       const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                       unsigned int numMipmapLevels) {
    CUDA_MOCK_ENTER(cuMipmappedArrayCreate);
    if (pHandle == NULL || pMipmappedArrayDesc == NULL ||
        numMipmapLevels == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult
cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) {
    CUDA_MOCK_ENTER(cuMipmappedArrayDestroy);
    return no_mipmap(__func__, hMipmappedArray);
}

CUDA_MOCK_API CUresult
cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
                         unsigned int level) {
    CUDA_MOCK_ENTER(cuMipmappedArrayGetLevel);
    if (pLevelArray == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_mipmap(__func__, hMipmappedArray);
}

CUDA_MOCK_API CUresult cuMipmappedArrayGetSparseProperties(
    CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUmipmappedArray mipmap) {
    CUDA_MOCK_ENTER(cuMipmappedArrayGetSparseProperties);
    if (sparseProperties == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_mipmap(__func__, mipmap);
}

CUDA_MOCK_API CUresult cuMipmappedArrayGetMemoryRequirements(
    CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements, CUmipmappedArray mipmap,
    CUdevice device) {
    CUDA_MOCK_ENTER(cuMipmappedArrayGetMemoryRequirements);
    if (memoryRequirements == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    return no_mipmap(__func__, mipmap);
}

// ---------------------------------------------------------------------------
// Texture and surface references (CUDA 2 to 11)

CUDA_MOCK_API CUresult cuTexRefCreate(CUtexref *pTexRef) {
    CUDA_MOCK_ENTER(cuTexRefCreate);
    if (pTexRef == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuTexRefDestroy(CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefDestroy);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetArray(CUtexref hTexRef, CUarray hArray,
                                        unsigned int Flags) {
    CUDA_MOCK_ENTER(cuTexRefSetArray);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetMipmappedArray(
    CUtexref hTexRef, CUmipmappedArray hMipmappedArray, unsigned int Flags) {
    CUDA_MOCK_ENTER(cuTexRefSetMipmappedArray);
    return no_texref(__func__, hTexRef);
}

// ByteOffset is optional.
CUDA_MOCK_API CUresult cuTexRefSetAddress_v2(size_t *ByteOffset,
                                             CUtexref hTexRef, CUdeviceptr dptr,
                                             size_t bytes) {
    CUDA_MOCK_ENTER(cuTexRefSetAddress_v2);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetAddress(unsigned int *ByteOffset,
                                          CUtexref hTexRef, CUdeviceptr_v1 dptr,
                                          unsigned int bytes) {
    CUDA_MOCK_ENTER(cuTexRefSetAddress);
    return no_texref(__func__, hTexRef);
}

static CUresult set_address_2d(CUtexref ref, const void *desc,
                               const char *call) {
    if (desc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_texref(call, ref);
}

CUDA_MOCK_API CUresult
cuTexRefSetAddress2D_v3(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR *desc,
                        CUdeviceptr dptr, size_t Pitch) {
    CUDA_MOCK_ENTER(cuTexRefSetAddress2D_v3);
    return set_address_2d(hTexRef, desc, __func__);
}

CUDA_MOCK_API CUresult
cuTexRefSetAddress2D_v2(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR *desc,
                        CUdeviceptr dptr, size_t Pitch) {
    CUDA_MOCK_ENTER(cuTexRefSetAddress2D_v2);
    return set_address_2d(hTexRef, desc, __func__);
}

CUDA_MOCK_API CUresult
cuTexRefSetAddress2D(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR_v1 *desc,
                     CUdeviceptr_v1 dptr, unsigned int Pitch) {
    CUDA_MOCK_ENTER(cuTexRefSetAddress2D);
    return set_address_2d(hTexRef, desc, __func__);
}

CUDA_MOCK_API CUresult cuTexRefSetFormat(CUtexref hTexRef, CUarray_format fmt,
                                         int NumPackedComponents) {
    CUDA_MOCK_ENTER(cuTexRefSetFormat);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetAddressMode(CUtexref hTexRef, int dim,
                                              CUaddress_mode am) {
    CUDA_MOCK_ENTER(cuTexRefSetAddressMode);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetFilterMode(CUtexref hTexRef,
                                             CUfilter_mode fm) {
    CUDA_MOCK_ENTER(cuTexRefSetFilterMode);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetMipmapFilterMode(CUtexref hTexRef,
                                                   CUfilter_mode fm) {
    CUDA_MOCK_ENTER(cuTexRefSetMipmapFilterMode);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetMipmapLevelBias(CUtexref hTexRef,
                                                  float bias) {
    CUDA_MOCK_ENTER(cuTexRefSetMipmapLevelBias);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetMipmapLevelClamp(CUtexref hTexRef,
                                                   float minMipmapLevelClamp,
                                                   float maxMipmapLevelClamp) {
    CUDA_MOCK_ENTER(cuTexRefSetMipmapLevelClamp);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetMaxAnisotropy(CUtexref hTexRef,
                                                unsigned int maxAniso) {
    CUDA_MOCK_ENTER(cuTexRefSetMaxAnisotropy);
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetBorderColor(CUtexref hTexRef,
                                              float *pBorderColor) {
    CUDA_MOCK_ENTER(cuTexRefSetBorderColor);
    if (pBorderColor == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_texref(__func__, hTexRef);
}

CUDA_MOCK_API CUresult cuTexRefSetFlags(CUtexref hTexRef, unsigned int Flags) {
    CUDA_MOCK_ENTER(cuTexRefSetFlags);
    return no_texref(__func__, hTexRef);
}

// The getters: an out-pointer, then the reference.
static CUresult get(const void *out, CUtexref ref, const char *call) {
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_texref(call, ref);
}

CUDA_MOCK_API CUresult cuTexRefGetAddress_v2(CUdeviceptr *pdptr,
                                             CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetAddress_v2);
    return get(pdptr, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetAddress(CUdeviceptr_v1 *pdptr,
                                          CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetAddress);
    return get(pdptr, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetArray(CUarray *phArray, CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetArray);
    return get(phArray, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetMipmappedArray(
    CUmipmappedArray *phMipmappedArray, CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetMipmappedArray);
    return get(phMipmappedArray, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetAddressMode(CUaddress_mode *pam,
                                              CUtexref hTexRef, int dim) {
    CUDA_MOCK_ENTER(cuTexRefGetAddressMode);
    return get(pam, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetFilterMode(CUfilter_mode *pfm,
                                             CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetFilterMode);
    return get(pfm, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetFormat(CUarray_format *pFormat,
                                         int *pNumChannels, CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetFormat);
    return get(pFormat, hTexRef, __func__); // pNumChannels is optional
}

CUDA_MOCK_API CUresult cuTexRefGetMipmapFilterMode(CUfilter_mode *pfm,
                                                   CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetMipmapFilterMode);
    return get(pfm, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetMipmapLevelBias(float *pbias,
                                                  CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetMipmapLevelBias);
    return get(pbias, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetMipmapLevelClamp(float *pminMipmapLevelClamp,
                                                   float *pmaxMipmapLevelClamp,
                                                   CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetMipmapLevelClamp);
    if (pmaxMipmapLevelClamp == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return get(pminMipmapLevelClamp, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetMaxAnisotropy(int *pmaxAniso,
                                                CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetMaxAnisotropy);
    return get(pmaxAniso, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetBorderColor(float *pBorderColor,
                                              CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetBorderColor);
    return get(pBorderColor, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuTexRefGetFlags(unsigned int *pFlags,
                                        CUtexref hTexRef) {
    CUDA_MOCK_ENTER(cuTexRefGetFlags);
    return get(pFlags, hTexRef, __func__);
}

CUDA_MOCK_API CUresult cuSurfRefSetArray(CUsurfref hSurfRef, CUarray hArray,
                                         unsigned int Flags) {
    CUDA_MOCK_ENTER(cuSurfRefSetArray);
    return no_surfref(__func__, hSurfRef);
}

CUDA_MOCK_API CUresult cuSurfRefGetArray(CUarray *phArray, CUsurfref hSurfRef) {
    CUDA_MOCK_ENTER(cuSurfRefGetArray);
    if (phArray == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_surfref(__func__, hSurfRef);
}
