// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// 2D copies: cuMemcpy2D_v2, cuMemcpy2DUnaligned_v2 (the emulation has no
// alignment restriction to lift, so the two are the same) and
// cuMemcpy2DAsync_v2, with their per-thread variants. A CUDA_MEMCPY2D is a
// 3D copy of one slice: the engine of cuda_mock_copy3d.c checks it as
// cuda.h documents (each side's memory type, host, device, unified or a
// CUDA array; a pitch of at least X + WidthInBytes when there is more than
// one row and at most CU_DEVICE_ATTRIBUTE_MAX_PITCH; an array's extents
// and whole elements; ranges without overflow), and the copy engine
// (cuda_mock_copy.c) checks every row's range against the driver's memory.

#include "cuda_mock_copy.h"
#include "cuda_mock_core.h"

static CUresult copy2d(const CUDA_MEMCPY2D *c, bool sync, CUstream stream,
                       const char *call) {
    if (c == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MEMCPY3D_PEER p = {0};
    p.srcXInBytes = c->srcXInBytes;
    p.srcY = c->srcY;
    p.srcMemoryType = c->srcMemoryType;
    p.srcHost = c->srcHost;
    p.srcDevice = c->srcDevice;
    p.srcArray = c->srcArray;
    p.srcPitch = c->srcPitch;
    p.dstXInBytes = c->dstXInBytes;
    p.dstY = c->dstY;
    p.dstMemoryType = c->dstMemoryType;
    p.dstHost = c->dstHost;
    p.dstDevice = c->dstDevice;
    p.dstArray = c->dstArray;
    p.dstPitch = c->dstPitch;
    p.WidthInBytes = c->WidthInBytes;
    p.Height = c->Height;
    p.Depth = 1;
    return cuda_mock_copy3d_enqueue(&p, sync, stream, call);
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
