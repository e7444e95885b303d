// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shared by the two files of test_cuda_link.

#ifndef UMF_GPU_TEST_CUDA_LINK_TEST_H
#define UMF_GPU_TEST_CUDA_LINK_TEST_H 1

#include <stdint.h>

// Copies and fills through the per-thread default stream names; 0 on
// success.
int cuda_link_ptds_roundtrip(void);

// A stream, an event, a fill on the stream and a record, through the
// per-thread names (cuStreamSynchronize_ptsz ...); 0 on success.
int cuda_link_ptsz_stream_work(void);

// Calls every per-thread variant (_ptds, _ptsz) once; 0 on success.
int cuda_link_every_per_thread_variant(void);

// The emulated driver's count of calls to `entry`, or -1 when the loaded
// driver is another one.
int64_t cuda_link_call_count(const char *entry);

#endif // UMF_GPU_TEST_CUDA_LINK_TEST_H
