// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Host functions in stream order: cuLaunchHostFunc and cuStreamAddCallback
// (and their per-thread default stream variants). Each is an operation of
// its stream that runs on the driver thread once the work enqueued before
// it ran, and holds back the work enqueued after it until it returned
// (cuda_mock_queue.c). A callback gets its stream's handle and a status:
// CUDA_SUCCESS, or the first error of queued work on that stream not yet
// reported by a synchronize (CUDA_ERROR_CONTEXT_IS_DESTROYED once the
// stream's context went). Neither may call CUDA; a call that would have to
// wait for queued work gets CUDA_ERROR_NOT_PERMITTED.

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

static CUresult host_func(CUstream stream, CUhostFn fn, void *data,
                          const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (fn == NULL) {
        UMF_MOCK_LOG_ERROR("%s: no function", call);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_HOST, .call = call};
    op.u.host.fn = fn;
    op.u.host.data = data;
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn,
                                        void *userData) {
    CUDA_MOCK_ENTER(cuLaunchHostFunc);
    return host_func(hStream, fn, userData, "cuLaunchHostFunc");
}

CUDA_MOCK_API CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn,
                                             void *userData) {
    CUDA_MOCK_ENTER(cuLaunchHostFunc_ptsz);
    return host_func(hStream, fn, userData, "cuLaunchHostFunc_ptsz");
}

static CUresult add_callback(CUstream stream, CUstreamCallback fn, void *data,
                             unsigned flags, const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (fn == NULL || flags != 0) {
        UMF_MOCK_LOG_ERROR("%s: %s", call,
                           fn == NULL ? "no callback"
                                      : "flags must be 0 (reserved)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_CALLBACK, .call = call};
    op.u.callback.fn = fn;
    op.u.callback.data = data;
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuStreamAddCallback(CUstream hStream,
                                           CUstreamCallback callback,
                                           void *userData, unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamAddCallback);
    return add_callback(hStream, callback, userData, flags,
                        "cuStreamAddCallback");
}

CUDA_MOCK_API CUresult cuStreamAddCallback_ptsz(CUstream hStream,
                                                CUstreamCallback callback,
                                                void *userData,
                                                unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamAddCallback_ptsz);
    return add_callback(hStream, callback, userData, flags,
                        "cuStreamAddCallback_ptsz");
}
