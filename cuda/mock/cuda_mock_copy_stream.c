// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Copies on a stream (cuMemcpyAsync, cuMemcpyHtoDAsync_v2 ...) and between
// contexts (cuMemcpyPeer, cuMemcpyPeerAsync). A copy on a stream is an
// operation of that stream (cuda_mock_queue.c), run on the device of the
// stream's context (the default streams: the current context's): when it
// is enqueued, unless work is queued before it; the copy engine
// (cuda_mock_copy.c) checks its ranges. A peer
// copy needs no peer access, as on a GPU (the driver stages it): the
// destination is checked for the destination context's device, the source
// for the source context's. The _ptsz variants are the same calls, with
// NULL naming the per-thread default stream.

#include "cuda_mock_copy.h"
#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

static CUresult on_stream(uintptr_t dst, CUmemorytype dst_type, uintptr_t src,
                          CUmemorytype src_type, size_t n, CUstream stream,
                          const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    int device = cuda_mock_ctx_device(s.ctx);
    cuda_mock_op_t op = cuda_mock_copy_op(device, dst, n, dst_type, device, src,
                                          n, src_type, n, 1, call);
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                     size_t ByteCount, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyAsync);
    return on_stream((uintptr_t)dst, CU_MEMORYTYPE_UNIFIED, (uintptr_t)src,
                     CU_MEMORYTYPE_UNIFIED, ByteCount, hStream,
                     "cuMemcpyAsync");
}

CUDA_MOCK_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src,
                                          size_t ByteCount, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyAsync_ptsz);
    return on_stream((uintptr_t)dst, CU_MEMORYTYPE_UNIFIED, (uintptr_t)src,
                     CU_MEMORYTYPE_UNIFIED, ByteCount, hStream,
                     "cuMemcpyAsync_ptsz");
}

CUDA_MOCK_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice,
                                            const void *srcHost,
                                            size_t ByteCount,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyHtoDAsync_v2);
    return on_stream((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE,
                     (uintptr_t)srcHost, CU_MEMORYTYPE_HOST, ByteCount, hStream,
                     "cuMemcpyHtoDAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice,
                                                 const void *srcHost,
                                                 size_t ByteCount,
                                                 CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyHtoDAsync_v2_ptsz);
    return on_stream((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE,
                     (uintptr_t)srcHost, CU_MEMORYTYPE_HOST, ByteCount, hStream,
                     "cuMemcpyHtoDAsync_v2_ptsz");
}

CUDA_MOCK_API CUresult cuMemcpyDtoHAsync_v2(void *dstHost,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyDtoHAsync_v2);
    return on_stream((uintptr_t)dstHost, CU_MEMORYTYPE_HOST,
                     (uintptr_t)srcDevice, CU_MEMORYTYPE_DEVICE, ByteCount,
                     hStream, "cuMemcpyDtoHAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost,
                                                 CUdeviceptr srcDevice,
                                                 size_t ByteCount,
                                                 CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyDtoHAsync_v2_ptsz);
    return on_stream((uintptr_t)dstHost, CU_MEMORYTYPE_HOST,
                     (uintptr_t)srcDevice, CU_MEMORYTYPE_DEVICE, ByteCount,
                     hStream, "cuMemcpyDtoHAsync_v2_ptsz");
}

CUDA_MOCK_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyDtoDAsync_v2);
    return on_stream((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE,
                     (uintptr_t)srcDevice, CU_MEMORYTYPE_DEVICE, ByteCount,
                     hStream, "cuMemcpyDtoDAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice,
                                                 CUdeviceptr srcDevice,
                                                 size_t ByteCount,
                                                 CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyDtoDAsync_v2_ptsz);
    return on_stream((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE,
                     (uintptr_t)srcDevice, CU_MEMORYTYPE_DEVICE, ByteCount,
                     hStream, "cuMemcpyDtoDAsync_v2_ptsz");
}

// ---------------------------------------------------------------------------
// Between contexts

// `sync`: the synchronous call, without a stream, ordered in the default
// stream of the destination context.
static CUresult peer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                     CUcontext src_ctx, size_t n, bool sync, CUstream stream,
                     const char *call) {
    cuda_mock_ctx_t *d, *sc;
    cuda_mock_stream_ref_t on;
    CUresult res = cuda_mock_ctx_live(dst_ctx, call, &d);
    if (res == CUDA_SUCCESS) {
        res = cuda_mock_ctx_live(src_ctx, call, &sc);
    }
    if (res == CUDA_SUCCESS && !sync) {
        res = cuda_mock_stream_get(stream, call, &on);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    cuda_mock_op_t op =
        cuda_mock_copy_op(cuda_mock_ctx_device(d), (uintptr_t)dst, n,
                          CU_MEMORYTYPE_DEVICE, cuda_mock_ctx_device(sc),
                          (uintptr_t)src, n, CU_MEMORYTYPE_DEVICE, n, 1, call);
    return sync ? cuda_mock_order_sync(d, &op)
                : cuda_mock_order_submit(&on, &op);
}

CUDA_MOCK_API CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext,
                                    CUdeviceptr srcDevice, CUcontext srcContext,
                                    size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyPeer);
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, true,
                NULL, "cuMemcpyPeer");
}

CUDA_MOCK_API CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice,
                                         CUcontext dstContext,
                                         CUdeviceptr srcDevice,
                                         CUcontext srcContext,
                                         size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyPeer_ptds);
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, true,
                NULL, "cuMemcpyPeer_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice,
                                         CUcontext dstContext,
                                         CUdeviceptr srcDevice,
                                         CUcontext srcContext, size_t ByteCount,
                                         CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyPeerAsync);
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, false,
                hStream, "cuMemcpyPeerAsync");
}

CUDA_MOCK_API CUresult cuMemcpyPeerAsync_ptsz(
    CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
    CUcontext srcContext, size_t ByteCount, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyPeerAsync_ptsz);
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, false,
                hStream, "cuMemcpyPeerAsync_ptsz");
}
