// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Fills: cuMemsetD8/D16/D32 and their 2D forms, synchronous (with the
// per-thread default stream variants, _ptds) and on a stream (Async, with
// _ptsz). Every one is a call of the fill engine (cuda_mock_copy.c) after
// the checks cuda.h documents: a 16-bit fill wants a two-byte aligned
// destination (and pitch), a 32-bit fill a four-byte aligned one, and a 2D
// fill a pitch no smaller than a row. The destination must be memory of
// the driver (cuda_mock_copy.c's bounds rule). The synchronous forms run in
// the current context's default stream, the stream forms in their stream
// (both operations of the stream, cuda_mock_queue.c).

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

#include <stdint.h>

// Fills `height` rows of `width` elements of `elem` bytes, `pitch` bytes
// apart (ignored for one row), with `value` (its low `elem` bytes), in the
// context of `stream` (`sync`: the current context, no stream).
static CUresult fill(CUdeviceptr dst, size_t pitch, uint32_t value,
                     unsigned elem, size_t width, size_t height, bool sync,
                     CUstream stream, const char *call) {
    cuda_mock_stream_ref_t on;
    CUresult res = sync ? cuda_mock_ctx_current(&on.ctx)
                        : cuda_mock_stream_get(stream, call, &on);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (dst % elem != 0 || (height > 1 && pitch % elem != 0)) {
        UMF_MOCK_LOG_ERROR("%s: destination 0x%llx (pitch %zu) is not "
                           "aligned to %u bytes",
                           call, (unsigned long long)dst, pitch, elem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (height > 1 && (width > SIZE_MAX / elem || pitch < width * elem)) {
        UMF_MOCK_LOG_ERROR("%s: pitch %zu is smaller than a row of %zu "
                           "elements of %u bytes",
                           call, pitch, width, elem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_FILL, .call = call};
    op.u.fill.dst = (uintptr_t)dst;
    op.u.fill.pitch = height > 1 ? pitch : width * elem;
    op.u.fill.value = value;
    op.u.fill.elem = elem;
    op.u.fill.width = width;
    op.u.fill.height = height;
    op.u.fill.device = cuda_mock_ctx_device(on.ctx);
    return sync ? cuda_mock_order_sync(on.ctx, &op)
                : cuda_mock_order_submit(&on, &op);
}

#define SYNC true, NULL
#define ON(stream) false, stream

// ---- 1D --------------------------------------------------------------------

CUDA_MOCK_API CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc,
                                     size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD8_v2);
    return fill(dstDevice, 0, uc, 1, N, 1, SYNC, "cuMemsetD8_v2");
}

CUDA_MOCK_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice,
                                          unsigned char uc, size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD8_v2_ptds);
    return fill(dstDevice, 0, uc, 1, N, 1, SYNC, "cuMemsetD8_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us,
                                      size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD16_v2);
    return fill(dstDevice, 0, us, 2, N, 1, SYNC, "cuMemsetD16_v2");
}

CUDA_MOCK_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice,
                                           unsigned short us, size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD16_v2_ptds);
    return fill(dstDevice, 0, us, 2, N, 1, SYNC, "cuMemsetD16_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui,
                                      size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD32_v2);
    return fill(dstDevice, 0, ui, 4, N, 1, SYNC, "cuMemsetD32_v2");
}

CUDA_MOCK_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice,
                                           unsigned int ui, size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD32_v2_ptds);
    return fill(dstDevice, 0, ui, 4, N, 1, SYNC, "cuMemsetD32_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc,
                                       size_t N, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD8Async);
    return fill(dstDevice, 0, uc, 1, N, 1, ON(hStream), "cuMemsetD8Async");
}

CUDA_MOCK_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice,
                                            unsigned char uc, size_t N,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD8Async_ptsz);
    return fill(dstDevice, 0, uc, 1, N, 1, ON(hStream), "cuMemsetD8Async_ptsz");
}

CUDA_MOCK_API CUresult cuMemsetD16Async(CUdeviceptr dstDevice,
                                        unsigned short us, size_t N,
                                        CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD16Async);
    return fill(dstDevice, 0, us, 2, N, 1, ON(hStream), "cuMemsetD16Async");
}

CUDA_MOCK_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice,
                                             unsigned short us, size_t N,
                                             CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD16Async_ptsz);
    return fill(dstDevice, 0, us, 2, N, 1, ON(hStream),
                "cuMemsetD16Async_ptsz");
}

CUDA_MOCK_API CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui,
                                        size_t N, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD32Async);
    return fill(dstDevice, 0, ui, 4, N, 1, ON(hStream), "cuMemsetD32Async");
}

CUDA_MOCK_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice,
                                             unsigned int ui, size_t N,
                                             CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD32Async_ptsz);
    return fill(dstDevice, 0, ui, 4, N, 1, ON(hStream),
                "cuMemsetD32Async_ptsz");
}

// ---- 2D --------------------------------------------------------------------

CUDA_MOCK_API CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch,
                                       unsigned char uc, size_t Width,
                                       size_t Height) {
    CUDA_MOCK_ENTER(cuMemsetD2D8_v2);
    return fill(dstDevice, dstPitch, uc, 1, Width, Height, SYNC,
                "cuMemsetD2D8_v2");
}

CUDA_MOCK_API CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice,
                                            size_t dstPitch, unsigned char uc,
                                            size_t Width, size_t Height) {
    CUDA_MOCK_ENTER(cuMemsetD2D8_v2_ptds);
    return fill(dstDevice, dstPitch, uc, 1, Width, Height, SYNC,
                "cuMemsetD2D8_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch,
                                        unsigned short us, size_t Width,
                                        size_t Height) {
    CUDA_MOCK_ENTER(cuMemsetD2D16_v2);
    return fill(dstDevice, dstPitch, us, 2, Width, Height, SYNC,
                "cuMemsetD2D16_v2");
}

CUDA_MOCK_API CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice,
                                             size_t dstPitch, unsigned short us,
                                             size_t Width, size_t Height) {
    CUDA_MOCK_ENTER(cuMemsetD2D16_v2_ptds);
    return fill(dstDevice, dstPitch, us, 2, Width, Height, SYNC,
                "cuMemsetD2D16_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch,
                                        unsigned int ui, size_t Width,
                                        size_t Height) {
    CUDA_MOCK_ENTER(cuMemsetD2D32_v2);
    return fill(dstDevice, dstPitch, ui, 4, Width, Height, SYNC,
                "cuMemsetD2D32_v2");
}

CUDA_MOCK_API CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice,
                                             size_t dstPitch, unsigned int ui,
                                             size_t Width, size_t Height) {
    CUDA_MOCK_ENTER(cuMemsetD2D32_v2_ptds);
    return fill(dstDevice, dstPitch, ui, 4, Width, Height, SYNC,
                "cuMemsetD2D32_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                                         unsigned char uc, size_t Width,
                                         size_t Height, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD2D8Async);
    return fill(dstDevice, dstPitch, uc, 1, Width, Height, ON(hStream),
                "cuMemsetD2D8Async");
}

CUDA_MOCK_API CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice,
                                              size_t dstPitch, unsigned char uc,
                                              size_t Width, size_t Height,
                                              CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD2D8Async_ptsz);
    return fill(dstDevice, dstPitch, uc, 1, Width, Height, ON(hStream),
                "cuMemsetD2D8Async_ptsz");
}

CUDA_MOCK_API CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice,
                                          size_t dstPitch, unsigned short us,
                                          size_t Width, size_t Height,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD2D16Async);
    return fill(dstDevice, dstPitch, us, 2, Width, Height, ON(hStream),
                "cuMemsetD2D16Async");
}

CUDA_MOCK_API CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice,
                                               size_t dstPitch,
                                               unsigned short us, size_t Width,
                                               size_t Height,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD2D16Async_ptsz);
    return fill(dstDevice, dstPitch, us, 2, Width, Height, ON(hStream),
                "cuMemsetD2D16Async_ptsz");
}

CUDA_MOCK_API CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice,
                                          size_t dstPitch, unsigned int ui,
                                          size_t Width, size_t Height,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD2D32Async);
    return fill(dstDevice, dstPitch, ui, 4, Width, Height, ON(hStream),
                "cuMemsetD2D32Async");
}

CUDA_MOCK_API CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice,
                                               size_t dstPitch, unsigned int ui,
                                               size_t Width, size_t Height,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemsetD2D32Async_ptsz);
    return fill(dstDevice, dstPitch, ui, 4, Width, Height, ON(hStream),
                "cuMemsetD2D32Async_ptsz");
}
