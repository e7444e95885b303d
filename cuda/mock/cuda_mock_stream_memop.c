// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Stream memory operations (refused; cuda_mock_refuse.c): waits on and
// writes of 32- and 64-bit values in device memory, in stream order, and
// batches of them, under every name cuda.h gives them (CUDA 8's, the _v2 of
// CUDA 11.7, and the per-thread default stream variants). The emulated
// devices report them absent (CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS
// and the wait-value attributes are 0): streams here complete their work
// when it is enqueued, so a wait on a value no one has written yet could
// only block the calling thread, which a stream operation never does. After
// the stream, address and flag checks, each answers CUDA_ERROR_NOT_SUPPORTED.

#include "cuda_mock_internal.h"

#define WHY "the emulated devices have no stream memory operations"

#define WAIT_FLAGS                                                             \
    (CU_STREAM_WAIT_VALUE_GEQ | CU_STREAM_WAIT_VALUE_EQ |                      \
     CU_STREAM_WAIT_VALUE_AND | CU_STREAM_WAIT_VALUE_NOR |                     \
     CU_STREAM_WAIT_VALUE_FLUSH)
#define WRITE_FLAGS CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER

static CUresult refuse(CUstream stream, bool ok, const char *call) {
    if (!ok) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(stream, call, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return cuda_mock_refuse(call, WHY);
}

CUDA_MOCK_API CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr addr,
                                           cuuint32_t value,
                                           unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue32);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue32_ptsz(CUstream stream,
                                                CUdeviceptr addr,
                                                cuuint32_t value,
                                                unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue32_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr,
                                              cuuint32_t value,
                                              unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue32_v2);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue32_v2_ptsz(CUstream stream,
                                                   CUdeviceptr addr,
                                                   cuuint32_t value,
                                                   unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue32_v2_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr,
                                           cuuint64_t value,
                                           unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue64);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue64_ptsz(CUstream stream,
                                                CUdeviceptr addr,
                                                cuuint64_t value,
                                                unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue64_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr,
                                              cuuint64_t value,
                                              unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue64_v2);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWaitValue64_v2_ptsz(CUstream stream,
                                                   CUdeviceptr addr,
                                                   cuuint64_t value,
                                                   unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWaitValue64_v2_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WAIT_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr addr,
                                            cuuint32_t value,
                                            unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue32);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue32_ptsz(CUstream stream,
                                                 CUdeviceptr addr,
                                                 cuuint32_t value,
                                                 unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue32_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue32_v2(CUstream stream,
                                               CUdeviceptr addr,
                                               cuuint32_t value,
                                               unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue32_v2);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue32_v2_ptsz(CUstream stream,
                                                    CUdeviceptr addr,
                                                    cuuint32_t value,
                                                    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue32_v2_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr,
                                            cuuint64_t value,
                                            unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue64);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue64_ptsz(CUstream stream,
                                                 CUdeviceptr addr,
                                                 cuuint64_t value,
                                                 unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue64_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue64_v2(CUstream stream,
                                               CUdeviceptr addr,
                                               cuuint64_t value,
                                               unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue64_v2);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamWriteValue64_v2_ptsz(CUstream stream,
                                                    CUdeviceptr addr,
                                                    cuuint64_t value,
                                                    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamWriteValue64_v2_ptsz);
    (void)value;
    return refuse(stream, addr != 0 && (flags & ~(unsigned)(WRITE_FLAGS)) == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count,
                                          CUstreamBatchMemOpParams *paramArray,
                                          unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamBatchMemOp);
    return refuse(stream, count > 0 && paramArray != NULL && flags == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamBatchMemOp_ptsz(
    CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamBatchMemOp_ptsz);
    return refuse(stream, count > 0 && paramArray != NULL && flags == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamBatchMemOp_v2(
    CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamBatchMemOp_v2);
    return refuse(stream, count > 0 && paramArray != NULL && flags == 0,
                  __func__);
}

CUDA_MOCK_API CUresult cuStreamBatchMemOp_v2_ptsz(
    CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamBatchMemOp_v2_ptsz);
    return refuse(stream, count > 0 && paramArray != NULL && flags == 0,
                  __func__);
}
