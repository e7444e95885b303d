// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The copy and fill engine, and the synchronous 1D copies. The emulated
// device memory is host memory, so a copy is a memmove per row and a fill
// the pattern fill of both drivers (mock_fill.h) per row, after the range
// checks, complete when the call returns (which is also what the
// synchronous calls promise; the calls on
// streams, cuda_mock_copy_stream.c, cuda_mock_copy2d.c and
// cuda_mock_memset.c, use the same engine). A side that must be memory of
// the driver (device, managed, pinned host, imported, mapped VMM memory,
// or registered host memory) is checked against it; anything else is
// CUDA_ERROR_INVALID_VALUE. The per-thread default stream variants (_ptds)
// are the same calls.

#include "cuda_mock_copy.h"
#include "cuda_mock_core.h"
#include "cuda_mock_memory.h"
#include "cuda_mock_queue.h"

#include "mock_fill.h"

#include <string.h>

// Checks one side of a copy or fill by the drivers' one bounds rule
// (umf_mock_range_check: the bytes asked for of one allocation; mapped VMM
// memory mapped throughout, with the access `device` needs), if the side is
// `required` to be driver memory or if ptr is driver memory at all; other
// memory is the host's own. Registered host memory is the program's own
// memory, which a device may reach: a required side may be inside a
// registration.
static CUresult check_side(uintptr_t ptr, size_t n, bool required, int device,
                           bool write, const char *call, const char *what) {
    const void *p = (const void *)ptr;
    umf_mock_status_t s = umf_mock_range_check(
        p, n, device, write ? UMF_MOCK_USE_WRITE : UMF_MOCK_USE_READ, call,
        what, NULL);
    if (s != UMF_MOCK_ERR_NOT_FOUND) {
        // A refusal is logged by the check.
        return s == UMF_MOCK_OK ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    if (!required) {
        return CUDA_SUCCESS;
    }
    umf_mock_alloc_info_t info;
    if (cuda_mock_host_lookup(p, &info)) {
        uintptr_t end = (uintptr_t)info.base + info.size;
        if (n <= end - ptr) {
            return CUDA_SUCCESS;
        }
        UMF_MOCK_LOG_ERROR("%s: %zu bytes at %s %p run past the end of "
                           "its registration [%p, +%zu)",
                           call, n, what, p, info.base, info.size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    UMF_MOCK_LOG_ERROR("%s: %s %p is not memory of this driver", call, what, p);
    return CUDA_ERROR_INVALID_VALUE;
}

// The address of row `row` of a side, or 0 on overflow.
static uintptr_t row_of(uintptr_t base, size_t pitch, size_t row,
                        size_t width) {
    if (row != 0 && pitch > (UINTPTR_MAX - base) / row) {
        return 0;
    }
    uintptr_t at = base + row * pitch;
    return width <= UINTPTR_MAX - at ? at : 0;
}

// Checks every row of a side.
static CUresult check_rows(uintptr_t base, size_t pitch, size_t width,
                           size_t height, bool required, int device, bool write,
                           const char *call, const char *what) {
    for (size_t r = 0; r < height; r++) {
        uintptr_t at = row_of(base, pitch, r, width);
        if (at == 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        CUresult res =
            check_side(at, width, required, device, write, call, what);
        if (res != CUDA_SUCCESS) {
            return res;
        }
    }
    return CUDA_SUCCESS;
}

// The checks of a copy of rows (both sides).
static inline CUresult check_copy(int dst_device, int src_device, uintptr_t dst,
                                  size_t dst_pitch, uintptr_t src,
                                  size_t src_pitch, size_t width, size_t height,
                                  unsigned sides, const char *call) {
    if (dst == 0 || src == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_rows(dst, dst_pitch, width, height,
                              (sides & CUDA_MOCK_DST_DEVICE) != 0, dst_device,
                              true, call, "destination");
    if (res == CUDA_SUCCESS) {
        res = check_rows(src, src_pitch, width, height,
                         (sides & CUDA_MOCK_SRC_DEVICE) != 0, src_device, false,
                         call, "source");
    }
    return res;
}

CUresult cuda_mock_copy_rows_check(int dst_device, int src_device,
                                   uintptr_t dst, size_t dst_pitch,
                                   uintptr_t src, size_t src_pitch,
                                   size_t width, size_t height, unsigned sides,
                                   const char *call) {
    if (width == 0 || height == 0) {
        return CUDA_SUCCESS;
    }
    return check_copy(dst_device, src_device, dst, dst_pitch, src, src_pitch,
                      width, height, sides, call);
}

CUresult cuda_mock_copy_rows(int dst_device, int src_device, uintptr_t dst,
                             size_t dst_pitch, uintptr_t src, size_t src_pitch,
                             size_t width, size_t height, unsigned sides,
                             const char *call) {
    if (width == 0 || height == 0) {
        return CUDA_SUCCESS;
    }
    CUresult res = check_copy(dst_device, src_device, dst, dst_pitch, src,
                              src_pitch, width, height, sides, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    for (size_t r = 0; r < height; r++) {
        memmove((void *)(dst + r * dst_pitch),
                (const void *)(src + r * src_pitch), width);
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_fill_check(int device, uintptr_t dst, size_t pitch,
                              unsigned elem, size_t width, size_t height,
                              const char *call) {
    if (width == 0 || height == 0) {
        return CUDA_SUCCESS;
    }
    if (width > SIZE_MAX / elem) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return check_rows(dst, pitch, width * elem, height, true, device, true,
                      call, "destination");
}

CUresult cuda_mock_fill(int device, uintptr_t dst, size_t pitch, uint32_t value,
                        unsigned elem, size_t width, size_t height,
                        const char *call) {
    CUresult res =
        cuda_mock_fill_check(device, dst, pitch, elem, width, height, call);
    if (res != CUDA_SUCCESS || width == 0 || height == 0) {
        return res;
    }
    size_t bytes = width * elem;
    // The element's bytes as they lie in memory (host byte order).
    unsigned char pattern[4];
    if (elem == 1) {
        pattern[0] = (unsigned char)value;
    } else if (elem == 2) {
        uint16_t v = (uint16_t)value;
        memcpy(pattern, &v, 2);
    } else {
        memcpy(pattern, &value, 4);
    }
    for (size_t r = 0; r < height; r++) {
        umf_mock_fill((void *)(dst + r * pitch), bytes, pattern, elem);
    }
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Synchronous 1D copies, in the current context: operations of its default
// stream (after the work queued there, cuda_mock_queue.c), complete on
// return.

static CUresult copy(uintptr_t dst, CUmemorytype dst_type, uintptr_t src,
                     CUmemorytype src_type, size_t n, const char *call) {
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    int device = cuda_mock_ctx_device(ctx);
    cuda_mock_op_t op = cuda_mock_copy_op(device, dst, n, dst_type, device, src,
                                          n, src_type, n, 1, call);
    return cuda_mock_order_sync(ctx, &op);
}

CUDA_MOCK_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice,
                                       const void *srcHost, size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoD_v2);
    return copy((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE, (uintptr_t)srcHost,
                CU_MEMORYTYPE_HOST, ByteCount, "cuMemcpyHtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice,
                                            const void *srcHost,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoD_v2_ptds);
    return copy((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE, (uintptr_t)srcHost,
                CU_MEMORYTYPE_HOST, ByteCount, "cuMemcpyHtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoH_v2);
    return copy((uintptr_t)dstHost, CU_MEMORYTYPE_HOST, (uintptr_t)srcDevice,
                CU_MEMORYTYPE_DEVICE, ByteCount, "cuMemcpyDtoH_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoH_v2_ptds(void *dstHost,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoH_v2_ptds);
    return copy((uintptr_t)dstHost, CU_MEMORYTYPE_HOST, (uintptr_t)srcDevice,
                CU_MEMORYTYPE_DEVICE, ByteCount, "cuMemcpyDtoH_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice,
                                       CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoD_v2);
    return copy((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE,
                (uintptr_t)srcDevice, CU_MEMORYTYPE_DEVICE, ByteCount,
                "cuMemcpyDtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoD_v2_ptds);
    return copy((uintptr_t)dstDevice, CU_MEMORYTYPE_DEVICE,
                (uintptr_t)srcDevice, CU_MEMORYTYPE_DEVICE, ByteCount,
                "cuMemcpyDtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src,
                                size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpy);
    return copy((uintptr_t)dst, CU_MEMORYTYPE_UNIFIED, (uintptr_t)src,
                CU_MEMORYTYPE_UNIFIED, ByteCount, "cuMemcpy");
}

CUDA_MOCK_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src,
                                     size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpy_ptds);
    return copy((uintptr_t)dst, CU_MEMORYTYPE_UNIFIED, (uintptr_t)src,
                CU_MEMORYTYPE_UNIFIED, ByteCount, "cuMemcpy_ptds");
}
