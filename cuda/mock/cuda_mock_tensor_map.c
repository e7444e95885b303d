// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tensor maps (refused; cuda_mock_refuse.c): the descriptors of tensors in
// global memory that kernels hand to the Tensor Memory Accelerator of
// compute capability 9.0 devices. Their encoding is opaque and only kernels
// read it, and the emulated devices run none, so after the checks cuda.h
// documents for every map (a 64-byte aligned map, a data type and a rank
// of 1 to 5, 3 to 5 interleaved, a 16-byte aligned global address, 32 bytes
// for 32-byte interleave, dimensions and strides given) the encoders answer
// CUDA_ERROR_NOT_SUPPORTED.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY                                                                    \
    "tensor maps are read by kernels' tensor memory accelerator, and the "     \
    "emulated devices run no kernels"

static bool map_ok(const CUtensorMap *map) {
    return map != NULL && ((uintptr_t)map & 63) == 0;
}

static CUresult encode(const CUtensorMap *map, CUtensorMapDataType type,
                       cuuint32_t rank, const void *address,
                       const cuuint64_t *dims, const cuuint64_t *strides,
                       const cuuint32_t *element_strides,
                       CUtensorMapInterleave interleave, const char *call) {
    unsigned min_rank = interleave == CU_TENSOR_MAP_INTERLEAVE_NONE ? 1 : 3;
    uintptr_t align = interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16;
    if (!map_ok(map) ||
        (unsigned)type > (unsigned)CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B ||
        rank < min_rank || rank > 5 ||
        (unsigned)interleave > (unsigned)CU_TENSOR_MAP_INTERLEAVE_32B ||
        address == NULL || ((uintptr_t)address & (align - 1)) != 0 ||
        dims == NULL || (rank > 1 && strides == NULL) ||
        element_strides == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(call, WHY);
}

CUDA_MOCK_API CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
    CUDA_MOCK_ENTER(cuTensorMapEncodeTiled);
    if (boxDim == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return encode(tensorMap, tensorDataType, tensorRank, globalAddress,
                  globalDim, globalStrides, elementStrides, interleave,
                  __func__);
}

CUDA_MOCK_API CUresult cuTensorMapEncodeIm2col(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const int *pixelBoxLowerCorner,
    const int *pixelBoxUpperCorner, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
    CUDA_MOCK_ENTER(cuTensorMapEncodeIm2col);
    if (pixelBoxLowerCorner == NULL || pixelBoxUpperCorner == NULL ||
        tensorRank < 3) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return encode(tensorMap, tensorDataType, tensorRank, globalAddress,
                  globalDim, globalStrides, elementStrides, interleave,
                  __func__);
}

CUDA_MOCK_API CUresult cuTensorMapEncodeIm2colWide(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, int pixelBoxLowerCornerWidth,
    int pixelBoxUpperCornerWidth, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
    CUDA_MOCK_ENTER(cuTensorMapEncodeIm2colWide);
    if (tensorRank < 3) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return encode(tensorMap, tensorDataType, tensorRank, globalAddress,
                  globalDim, globalStrides, elementStrides, interleave,
                  __func__);
}

CUDA_MOCK_API CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap,
                                                 void *globalAddress) {
    CUDA_MOCK_ENTER(cuTensorMapReplaceAddress);
    if (!map_ok(tensorMap) || globalAddress == NULL ||
        ((uintptr_t)globalAddress & 15) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, WHY);
}
