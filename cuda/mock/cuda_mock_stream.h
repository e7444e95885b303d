// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Streams and events (cuda_mock_stream.c, cuda_mock_event.c)

#ifndef UMF_GPU_CUDA_MOCK_STREAM_H
#define UMF_GPU_CUDA_MOCK_STREAM_H 1

#include "cuda_mock_core.h"

// The context of the stream `h`: a created stream's (CUDA_ERROR_INVALID_
// HANDLE when it is not a live stream), or for NULL, CU_STREAM_LEGACY and
// CU_STREAM_PER_THREAD the current context (CUDA_ERROR_INVALID_CONTEXT
// when there is none).
CUresult cuda_mock_stream_resolve(CUstream h, const char *call,
                                  cuda_mock_ctx_t **ctx);
// CUDA_SUCCESS when `ev` is a live event, else CUDA_ERROR_INVALID_HANDLE.
CUresult cuda_mock_event_check(CUevent ev, const char *call);
// cuCtxRecordEvent for a live context (cuGreenCtxRecordEvent's too).
CUresult cuda_mock_event_record_ctx(cuda_mock_ctx_t *ctx, CUevent ev,
                                    const char *call);
// A stream of the live context `ctx` (not necessarily current), as
// cuStreamCreateWithPriority makes one (cuGreenCtxStreamCreate).
CUresult cuda_mock_stream_create_in(cuda_mock_ctx_t *ctx, CUstream *phStream,
                                    unsigned flags, int priority,
                                    const char *call);

#endif // UMF_GPU_CUDA_MOCK_STREAM_H
