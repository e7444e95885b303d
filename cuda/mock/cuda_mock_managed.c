// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Hints about managed memory that change no data: the stream association of
// cuStreamAttachMemAsync and the discards of cuMemDiscardBatchAsync. The
// emulated managed memory is host memory that every device and the host
// reach at once (CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS is 1), so an
// association constrains nothing and a discarded range may keep its bytes
// (reading it is "an indeterminate value"); what is left is to check the
// arguments as cuda.h documents: the stream, managed memory only (no
// pageable memory: CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS is 0), an
// attach of the whole allocation, the flags.

#include "cuda_mock_core.h"
#include "cuda_mock_stream.h"

// The managed allocation holding [p, p + n) (n 0: the allocation at p).
static CUresult managed_range(CUdeviceptr p, size_t n, const char *call,
                              umf_mock_alloc_info_t *info) {
    const void *ptr = (const void *)(uintptr_t)p;
    umf_mock_status_t st = umf_mock_range_check(
        ptr, n != 0 ? n : 1, -1, UMF_MOCK_USE_MAPPED, call, "memory", info);
    if (st != UMF_MOCK_OK || info->kind != UMF_MOCK_KIND_SHARED) {
        UMF_MOCK_LOG_ERROR("%s(%p, %zu): not in managed memory", call, ptr, n);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult attach(CUstream stream, CUdeviceptr dptr, size_t length,
                       unsigned flags, bool per_thread, const char *call) {
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
        flags != CU_MEM_ATTACH_SINGLE) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(stream, call, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // "It is illegal to attach singly to the NULL stream" (the legacy one;
    // the per-thread stream is a stream of its own thread).
    bool legacy_null =
        stream == CU_STREAM_LEGACY || (stream == NULL && !per_thread);
    if (flags == CU_MEM_ATTACH_SINGLE && legacy_null) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    res = managed_range(dptr, length, call, &info);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // Zero or the entire allocation's size, from its start.
    if ((uintptr_t)dptr != (uintptr_t)info.base ||
        (length != 0 && length != info.size)) {
        UMF_MOCK_LOG_ERROR("%s: the whole managed allocation at %p (%zu "
                           "bytes) is attached, not a part",
                           call, info.base, info.size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuStreamAttachMemAsync(CUstream hStream,
                                              CUdeviceptr dptr, size_t length,
                                              unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamAttachMemAsync);
    return attach(hStream, dptr, length, flags, false, __func__);
}

CUDA_MOCK_API CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream,
                                                   CUdeviceptr dptr,
                                                   size_t length,
                                                   unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamAttachMemAsync_ptsz);
    return attach(hStream, dptr, length, flags, true, __func__);
}

static CUresult discard(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                        unsigned long long flags, CUstream stream,
                        bool per_thread, const char *call) {
    // "Must not be legacy NULL stream".
    bool legacy_null =
        stream == CU_STREAM_LEGACY || (stream == NULL && !per_thread);
    if (dptrs == NULL || sizes == NULL || count == 0 || flags != 0 ||
        legacy_null) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(stream, call, &ctx);
    for (size_t i = 0; i < count && res == CUDA_SUCCESS; i++) {
        umf_mock_alloc_info_t info;
        res = sizes[i] == 0 ? CUDA_ERROR_INVALID_VALUE
                            : managed_range(dptrs[i], sizes[i], call, &info);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
                                              size_t count,
                                              unsigned long long flags,
                                              CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemDiscardBatchAsync);
    return discard(dptrs, sizes, count, flags, hStream, false, __func__);
}

CUDA_MOCK_API CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs,
                                                   size_t *sizes, size_t count,
                                                   unsigned long long flags,
                                                   CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemDiscardBatchAsync_ptsz);
    return discard(dptrs, sizes, count, flags, hStream, true, __func__);
}
