// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Memory features the emulated devices do not have (refused;
// cuda_mock_refuse.c), each one a device attribute reports as 0 or a part
// of the hardware that is not emulated:
//
//   cuMemGetHandleForAddressRange      dma-buf file descriptors
//                                      (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)
//   cuMemBatchDecompressAsync          the copy engines' decompression
//   cuMemMapArrayAsync                 sparse CUDA arrays
//                                      (..._SPARSE_CUDA_ARRAY_SUPPORTED)
//   cuFlushGPUDirectRDMAWrites         GPUDirect RDMA
//                                      (..._GPU_DIRECT_RDMA_FLUSH_WRITES_
//                                      OPTIONS)
//   cuMemPrefetchBatchAsync,           batched prefetches; the single
//   cuMemDiscardAndPrefetchBatchAsync  cuMemPrefetchAsync is emulated
//
// Each answers CUDA_ERROR_NOT_SUPPORTED after its argument checks.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

CUDA_MOCK_API CUresult cuMemGetHandleForAddressRange(
    void *handle, CUdeviceptr dptr, size_t size,
    CUmemRangeHandleType handleType, unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemGetHandleForAddressRange);
    if (handle == NULL || dptr == 0 || size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, "no dma-buf (CU_DEVICE_ATTRIBUTE_DMA_"
                                      "BUF_SUPPORTED is 0)");
}

#define NO_DECOMPRESSION "the emulated copy engines do not decompress"

CUDA_MOCK_API CUresult cuMemBatchDecompressAsync(
    CUmemDecompressParams *paramsArray, size_t count, unsigned int flags,
    size_t *errorIndex, CUstream stream) {
    CUDA_MOCK_ENTER(cuMemBatchDecompressAsync);
    if (paramsArray == NULL || count == 0 || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, NO_DECOMPRESSION);
}

CUDA_MOCK_API CUresult cuMemBatchDecompressAsync_ptsz(
    CUmemDecompressParams *paramsArray, size_t count, unsigned int flags,
    size_t *errorIndex, CUstream stream) {
    CUDA_MOCK_ENTER(cuMemBatchDecompressAsync_ptsz);
    if (paramsArray == NULL || count == 0 || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, NO_DECOMPRESSION);
}

#define NO_SPARSE "no sparse CUDA arrays"

CUDA_MOCK_API CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList,
                                          unsigned int count,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemMapArrayAsync);
    if (mapInfoList == NULL || count == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, NO_SPARSE);
}

CUDA_MOCK_API CUresult cuMemMapArrayAsync_ptsz(CUarrayMapInfo *mapInfoList,
                                               unsigned int count,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemMapArrayAsync_ptsz);
    if (mapInfoList == NULL || count == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, NO_SPARSE);
}

CUDA_MOCK_API CUresult
cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                           CUflushGPUDirectRDMAWritesScope scope) {
    CUDA_MOCK_ENTER(cuFlushGPUDirectRDMAWrites);
    if (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ||
        (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER &&
         scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, "no GPUDirect RDMA");
}

// The batch's arrays: count operations, 1..count locations, the first
// location for operation 0.
static CUresult prefetch_batch(const CUdeviceptr *dptrs, const size_t *sizes,
                               size_t count, const CUmemLocation *locs,
                               const size_t *loc_idxs, size_t num_locs,
                               unsigned long long flags, const char *call) {
    if (dptrs == NULL || sizes == NULL || count == 0 || locs == NULL ||
        loc_idxs == NULL || num_locs == 0 || num_locs > count ||
        loc_idxs[0] != 0 || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(call, "batched prefetches are not emulated "
                                  "(cuMemPrefetchAsync is)");
}

CUDA_MOCK_API CUresult cuMemPrefetchBatchAsync(
    CUdeviceptr *dptrs, size_t *sizes, size_t count,
    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemPrefetchBatchAsync);
    return prefetch_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                          numPrefetchLocs, flags, __func__);
}

CUDA_MOCK_API CUresult cuMemPrefetchBatchAsync_ptsz(
    CUdeviceptr *dptrs, size_t *sizes, size_t count,
    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemPrefetchBatchAsync_ptsz);
    return prefetch_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                          numPrefetchLocs, flags, __func__);
}

CUDA_MOCK_API CUresult cuMemDiscardAndPrefetchBatchAsync(
    CUdeviceptr *dptrs, size_t *sizes, size_t count,
    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemDiscardAndPrefetchBatchAsync);
    return prefetch_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                          numPrefetchLocs, flags, __func__);
}

CUDA_MOCK_API CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(
    CUdeviceptr *dptrs, size_t *sizes, size_t count,
    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemDiscardAndPrefetchBatchAsync_ptsz);
    return prefetch_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                          numPrefetchLocs, flags, __func__);
}
