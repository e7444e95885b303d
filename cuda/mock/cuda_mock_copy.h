// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The copy and fill engine (cuda_mock_copy.c)

#ifndef UMF_GPU_CUDA_MOCK_COPY_H
#define UMF_GPU_CUDA_MOCK_COPY_H 1

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

// The sides of a copy that must be memory of the driver (device memory, or
// host memory it pinned); the others may be too (unified addressing).
#define CUDA_MOCK_DST_DEVICE 1u
#define CUDA_MOCK_SRC_DEVICE 2u

// Copies `height` rows of `width` bytes, `dst_pitch` and `src_pitch` bytes
// apart, after checking every row's range against the driver's memory
// (the bounds rule, and for mapped VMM memory the access of `dst_device`
// and `src_device`, the devices that write and read). Complete when it
// returns.
CUresult cuda_mock_copy_rows(int dst_device, int src_device, uintptr_t dst,
                             size_t dst_pitch, uintptr_t src, size_t src_pitch,
                             size_t width, size_t height, unsigned sides,
                             const char *call);

// The checks of cuda_mock_copy_rows alone, for work queued to run later.
CUresult cuda_mock_copy_rows_check(int dst_device, int src_device,
                                   uintptr_t dst, size_t dst_pitch,
                                   uintptr_t src, size_t src_pitch,
                                   size_t width, size_t height, unsigned sides,
                                   const char *call);

static inline CUresult cuda_mock_copy_bytes(int dst_device, int src_device,
                                            uintptr_t dst, uintptr_t src,
                                            size_t n, unsigned sides,
                                            const char *call) {
    return cuda_mock_copy_rows(dst_device, src_device, dst, n, src, n, n, 1,
                               sides, call);
}

// The operation of a copy of `height` rows of `width` bytes between two
// sides of the memory types given (HOST, DEVICE: must be driver memory,
// UNIFIED: either).
static inline cuda_mock_op_t
cuda_mock_copy_op(int dst_device, uintptr_t dst, size_t dst_pitch,
                  CUmemorytype dst_type, int src_device, uintptr_t src,
                  size_t src_pitch, CUmemorytype src_type, size_t width,
                  size_t height, const char *call) {
    cuda_mock_op_t op;
    op.kind = CUDA_MOCK_OP_COPY;
    op.call = call;
    op.u.copy.dst = dst;
    op.u.copy.src = src;
    op.u.copy.dst_pitch = dst_pitch;
    op.u.copy.src_pitch = src_pitch;
    op.u.copy.width = width;
    op.u.copy.height = height;
    op.u.copy.dst_device = dst_device;
    op.u.copy.src_device = src_device;
    op.u.copy.dst_type = dst_type;
    op.u.copy.src_type = src_type;
    return op;
}

// Fills `height` rows of `width` elements of `elem` (1, 2 or 4) bytes,
// `pitch` bytes apart, with the low `elem` bytes of `value`, in memory of
// the driver, for `device`.
CUresult cuda_mock_fill(int device, uintptr_t dst, size_t pitch, uint32_t value,
                        unsigned elem, size_t width, size_t height,
                        const char *call);

// The checks of cuda_mock_fill alone.
CUresult cuda_mock_fill_check(int device, uintptr_t dst, size_t pitch,
                              unsigned elem, size_t width, size_t height,
                              const char *call);

// 3D copies (cuda_mock_copy3d.c): a CUDA_MEMCPY3D_PEER checked as cuda.h
// documents, its sides resolved (arrays through their layout), each slice
// copied by the engine above; complete when it returns. _check: the same
// checks, nothing copied.
CUresult cuda_mock_copy3d_run(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                              int src_device, const char *call);
CUresult cuda_mock_copy3d_check(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                                int src_device, const char *call);
// The devices that write and read `p`: an array's own, else the defaults.
void cuda_mock_copy3d_devices(const CUDA_MEMCPY3D_PEER *p, int dst_default,
                              int src_default, int *dst, int *src);
// Enqueues `p` (contexts ignored): synchronously in the current context
// (`sync`), else on `stream`.
CUresult cuda_mock_copy3d_enqueue(const CUDA_MEMCPY3D_PEER *p, bool sync,
                                  CUstream stream, const char *call);

#endif // UMF_GPU_CUDA_MOCK_COPY_H
