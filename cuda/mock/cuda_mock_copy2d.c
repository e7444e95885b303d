// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// 2D copies: cuMemcpy2D_v2, cuMemcpy2DUnaligned_v2 (the emulation has no
// alignment restriction to lift, so the two are the same) and
// cuMemcpy2DAsync_v2, with their per-thread variants. The CUDA_MEMCPY2D
// structure is checked as cuda.h documents it: each side's memory type
// (host, device, unified; CUDA arrays are not emulated, so no array handle
// is valid), a pitch of at least X + WidthInBytes when there is more than
// one row and at most CU_DEVICE_ATTRIBUTE_MAX_PITCH, and ranges without
// overflow. The copy engine (cuda_mock_copy.c) then checks every row's
// range against the driver's memory.

#include "cuda_mock_internal.h"

#include <stdint.h>

// The largest pitch (CU_DEVICE_ATTRIBUTE_MAX_PITCH, cuda_mock_device.c).
#define MAX_PITCH 2147483647u

typedef struct side_t {
    uintptr_t base; // the first byte of the first row
    size_t pitch;
    CUmemorytype type; // DEVICE: must be memory of the driver
} side_t;

static CUresult side_of(CUmemorytype type, const void *host, CUdeviceptr dev,
                        CUarray array, size_t x, size_t y, size_t pitch,
                        size_t width, size_t height, const char *call,
                        const char *what, side_t *out) {
    uintptr_t base;
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        base = (uintptr_t)host;
        break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: // either: the engine tells by the address
        base = (uintptr_t)dev;
        break;
    case CU_MEMORYTYPE_ARRAY:
        UMF_MOCK_LOG_ERROR("%s: %s is CUDA array %p; the emulated driver has "
                           "no CUDA arrays",
                           call, what, (void *)array);
        return CUDA_ERROR_INVALID_VALUE;
    default:
        UMF_MOCK_LOG_ERROR("%s: %s memory type %d is not a CUmemorytype", call,
                           what, (int)type);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (base == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    out->type = type;
    if (pitch > MAX_PITCH ||
        (height > 1 && (x > SIZE_MAX - width || pitch < x + width))) {
        UMF_MOCK_LOG_ERROR("%s: %s pitch %zu (X %zu, width %zu bytes)", call,
                           what, pitch, x, width);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ((y != 0 && pitch > (UINTPTR_MAX - base) / y) ||
        x > UINTPTR_MAX - base - y * pitch) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    out->base = base + y * pitch + x;
    out->pitch = pitch;
    return CUDA_SUCCESS;
}

static CUresult copy2d(const CUDA_MEMCPY2D *c, bool sync, CUstream stream,
                       const char *call) {
    if (c == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_stream_ref_t on;
    CUresult res = sync ? cuda_mock_ctx_current(&on.ctx)
                        : cuda_mock_stream_get(stream, call, &on);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (c->WidthInBytes == 0 || c->Height == 0) {
        return CUDA_SUCCESS;
    }
    side_t src, dst;
    res = side_of(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray,
                  c->srcXInBytes, c->srcY, c->srcPitch, c->WidthInBytes,
                  c->Height, call, "source", &src);
    if (res == CUDA_SUCCESS) {
        res = side_of(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray,
                      c->dstXInBytes, c->dstY, c->dstPitch, c->WidthInBytes,
                      c->Height, call, "destination", &dst);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    int device = cuda_mock_ctx_device(on.ctx);
    cuda_mock_op_t op = cuda_mock_copy_op(device, dst.base, dst.pitch, dst.type,
                                          device, src.base, src.pitch, src.type,
                                          c->WidthInBytes, c->Height, call);
    return sync ? cuda_mock_order_sync(on.ctx, &op)
                : cuda_mock_order_submit(&on, &op);
}

CUDA_MOCK_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy2D_v2);
    return copy2d(pCopy, true, NULL, "cuMemcpy2D_v2");
}

CUDA_MOCK_API CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy2D_v2_ptds);
    return copy2d(pCopy, true, NULL, "cuMemcpy2D_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy2DUnaligned_v2);
    return copy2d(pCopy, true, NULL, "cuMemcpy2DUnaligned_v2");
}

CUDA_MOCK_API CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy2DUnaligned_v2_ptds);
    return copy2d(pCopy, true, NULL, "cuMemcpy2DUnaligned_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy2DAsync_v2);
    return copy2d(pCopy, false, hStream, "cuMemcpy2DAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy2DAsync_v2_ptsz);
    return copy2d(pCopy, false, hStream, "cuMemcpy2DAsync_v2_ptsz");
}
