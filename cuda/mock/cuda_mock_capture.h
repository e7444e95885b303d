// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Stream capture (cuda_mock_capture.c), for cuda_mock_queue.c: every call
// here is under the order lock.

#ifndef UMF_GPU_CUDA_MOCK_CAPTURE_H
#define UMF_GPU_CUDA_MOCK_CAPTURE_H 1

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

// An operation on stream `s` that capture takes (it captures, or its use
// of the legacy stream or a captured event is capture's to decide): true,
// with the result in *res; false when it is not capture's.
bool cuda_mock_capture_submit_locked(const cuda_mock_stream_ref_t *s,
                                     const cuda_mock_op_t *op, CUresult *res);
// A synchronous operation of the legacy stream of `ctx`, a synchronize of
// stream `s`, of context `ctx`, a potentially unsafe call, work that cannot
// be captured: CUDA_SUCCESS, or the error capture gives (and the captures
// it invalidates).
CUresult cuda_mock_capture_sync_locked(const cuda_mock_ctx_t *ctx,
                                       const char *call);
CUresult cuda_mock_capture_stream_sync_locked(const cuda_mock_stream_ref_t *s,
                                              const char *call);
CUresult cuda_mock_capture_ctx_sync_locked(const cuda_mock_ctx_t *ctx,
                                           const char *call);
CUresult cuda_mock_capture_unsafe_locked(const char *call);
CUresult cuda_mock_capture_refuse_locked(const cuda_mock_stream_ref_t *s,
                                         const char *call);
// A stream-ordered allocation (`size` > 0 bytes of `device`, the address to
// *dptr) or free (of *dptr, `size` 0) on stream `s`: *captured when the
// stream captures, as a memory node of the capture's graph.
CUresult cuda_mock_capture_mem_locked(const cuda_mock_stream_ref_t *s,
                                      int device, size_t size,
                                      CUdeviceptr *dptr, bool *captured,
                                      const char *call);
// Whether the capture of this id is going on.
bool cuda_mock_capture_live(unsigned long long id);
void cuda_mock_capture_invalidate_locked(struct cuda_mock_capture_t *c);
// A stream leaves its capture (it goes with its context).
void cuda_mock_capture_leave_locked(cuda_mock_stream_order_t *o);

#endif // UMF_GPU_CUDA_MOCK_CAPTURE_H
