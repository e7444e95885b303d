// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Batches of 1D copies (cuMemcpyBatchAsync, CUDA 12.8, and its _v2 of CUDA
// 13 without failIdx). The batch is checked whole first, as cuda.h
// documents it (count copies, 1..count attribute sets applying from
// strictly increasing indices starting at 0, each with a source access
// order and known flags, not the legacy NULL stream); then each copy runs
// as cuMemcpyAsync's does, on the stream's device, with either side host or
// driver memory (unified addressing). The location hints are for managed
// and pageable memory, which need no placement here, so they are ignored
// as cuda.h allows. A copy that fails ends the batch, those before it done;
// failIdx (CUDA 12.8's variant) names it, or is SIZE_MAX for an error of
// the batch as a whole. Arrays are cuMemcpy3DBatchAsync's.

#include "cuda_mock_copy.h"
#include "cuda_mock_core.h"
#include "cuda_mock_stream.h"

static bool attrs_ok(size_t count, const CUmemcpyAttributes *attrs,
                     const size_t *idxs, size_t num) {
    if (attrs == NULL || idxs == NULL || num == 0 || num > count ||
        idxs[0] != 0) {
        return false;
    }
    for (size_t k = 0; k < num; k++) {
        if ((k > 0 && idxs[k] <= idxs[k - 1]) || idxs[k] >= count ||
            attrs[k].srcAccessOrder <= CU_MEMCPY_SRC_ACCESS_ORDER_INVALID ||
            attrs[k].srcAccessOrder > CU_MEMCPY_SRC_ACCESS_ORDER_ANY ||
            (attrs[k].flags &
             ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE) != 0) {
            return false;
        }
    }
    return true;
}

static CUresult batch(const CUdeviceptr *dsts, const CUdeviceptr *srcs,
                      const size_t *sizes, size_t count,
                      const CUmemcpyAttributes *attrs, const size_t *idxs,
                      size_t num, size_t *fail, CUstream stream,
                      bool per_thread, const char *call) {
    if (fail != NULL) {
        *fail = SIZE_MAX;
    }
    bool legacy_null =
        stream == CU_STREAM_LEGACY || (stream == NULL && !per_thread);
    if (dsts == NULL || srcs == NULL || sizes == NULL || count == 0 ||
        legacy_null || !attrs_ok(count, attrs, idxs, num)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(stream, call, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    int device = cuda_mock_ctx_device(ctx);
    for (size_t i = 0; i < count; i++) {
        res = cuda_mock_copy_bytes(device, device, (uintptr_t)dsts[i],
                                   (uintptr_t)srcs[i], sizes[i], 0, call);
        if (res != CUDA_SUCCESS) {
            if (fail != NULL) {
                *fail = i;
            }
            return res;
        }
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs,
                                          size_t *sizes, size_t count,
                                          CUmemcpyAttributes *attrs,
                                          size_t *attrsIdxs, size_t numAttrs,
                                          size_t *failIdx, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyBatchAsync);
    return batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
                 hStream, false, "cuMemcpyBatchAsync");
}

CUDA_MOCK_API CUresult cuMemcpyBatchAsync_ptsz(
    CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
    size_t *failIdx, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyBatchAsync_ptsz);
    return batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
                 hStream, true, "cuMemcpyBatchAsync_ptsz");
}

CUDA_MOCK_API CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts,
                                             CUdeviceptr *srcs, size_t *sizes,
                                             size_t count,
                                             CUmemcpyAttributes *attrs,
                                             size_t *attrsIdxs, size_t numAttrs,
                                             CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyBatchAsync_v2);
    return batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL,
                 hStream, false, "cuMemcpyBatchAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpyBatchAsync_v2_ptsz(
    CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
    CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyBatchAsync_v2_ptsz);
    return batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL,
                 hStream, true, "cuMemcpyBatchAsync_v2_ptsz");
}
