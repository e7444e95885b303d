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

#include "cuda_mock_core.h"
#include "cuda_mock_stream.h"

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

// Each name of cuda.h is an entry point of its own (counted, with fault
// rules); the variants of one operation take the same arguments.
#define VALUE_OP(name, type, known_flags)                                      \
    CUDA_MOCK_API CUresult name(CUstream stream, CUdeviceptr addr, type value, \
                                unsigned int flags) {                          \
        CUDA_MOCK_ENTER(name);                                                 \
        (void)value;                                                           \
        return refuse(stream,                                                  \
                      addr != 0 && (flags & ~(unsigned)(known_flags)) == 0,    \
                      #name);                                                  \
    }

#define BATCH_OP(name)                                                         \
    CUDA_MOCK_API CUresult name(CUstream stream, unsigned int count,           \
                                CUstreamBatchMemOpParams *paramArray,          \
                                unsigned int flags) {                          \
        CUDA_MOCK_ENTER(name);                                                 \
        return refuse(stream, count > 0 && paramArray != NULL && flags == 0,   \
                      #name);                                                  \
    }

VALUE_OP(cuStreamWaitValue32, cuuint32_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue32_ptsz, cuuint32_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue32_v2, cuuint32_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue32_v2_ptsz, cuuint32_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue64, cuuint64_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue64_ptsz, cuuint64_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue64_v2, cuuint64_t, WAIT_FLAGS)
VALUE_OP(cuStreamWaitValue64_v2_ptsz, cuuint64_t, WAIT_FLAGS)
VALUE_OP(cuStreamWriteValue32, cuuint32_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue32_ptsz, cuuint32_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue32_v2, cuuint32_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue32_v2_ptsz, cuuint32_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue64, cuuint64_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue64_ptsz, cuuint64_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue64_v2, cuuint64_t, WRITE_FLAGS)
VALUE_OP(cuStreamWriteValue64_v2_ptsz, cuuint64_t, WRITE_FLAGS)
BATCH_OP(cuStreamBatchMemOp)
BATCH_OP(cuStreamBatchMemOp_ptsz)
BATCH_OP(cuStreamBatchMemOp_v2)
BATCH_OP(cuStreamBatchMemOp_v2_ptsz)
