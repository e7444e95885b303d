// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Copies and fills, so that portable programs move data as they would on a
// GPU. The emulated device memory is host memory, so each is a memmove or
// memset after the range checks, complete when the call returns (which is
// also what the synchronous calls promise). A device range must lie inside
// one allocation of the driver (device, managed, pinned host or imported
// memory); anything else is CUDA_ERROR_INVALID_VALUE. The per-thread
// default stream variants (_ptds) are the same calls.

#include "cuda_mock_internal.h"

#include <string.h>

// Checks that [ptr, ptr + n) is inside one allocation of the driver.
static CUresult device_range(CUdeviceptr ptr, size_t n, const char *call,
                             const char *what) {
    umf_mock_alloc_info_t info;
    const void *p = (const void *)(uintptr_t)ptr;
    if (umf_mock_lookup(p, &info) != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("%s: %s %p is not memory of this driver", call, what,
                           p);
        return CUDA_ERROR_INVALID_VALUE;
    }
    uintptr_t end = (uintptr_t)info.base + info.size;
    if (n > end - (uintptr_t)ptr) {
        UMF_MOCK_LOG_ERROR("%s: %zu bytes at %s %p run past the end of its "
                           "allocation [%p, +%zu)",
                           call, n, what, p, info.base, info.size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

// The checks every copy and fill makes first: a usable current context.
static CUresult check_context(void) {
    cuda_mock_ctx_t *ctx;
    return cuda_mock_ctx_current(&ctx);
}

static CUresult copy_htod(CUdeviceptr dst, const void *src, size_t n,
                          const char *call) {
    CUresult res = check_context();
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    if (src == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    res = device_range(dst, n, call, "destination");
    if (res == CUDA_SUCCESS) {
        memmove((void *)(uintptr_t)dst, src, n);
    }
    return res;
}

static CUresult copy_dtoh(void *dst, CUdeviceptr src, size_t n,
                          const char *call) {
    CUresult res = check_context();
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    if (dst == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    res = device_range(src, n, call, "source");
    if (res == CUDA_SUCCESS) {
        memmove(dst, (const void *)(uintptr_t)src, n);
    }
    return res;
}

static CUresult copy_dtod(CUdeviceptr dst, CUdeviceptr src, size_t n,
                          const char *call) {
    CUresult res = check_context();
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    res = device_range(dst, n, call, "destination");
    if (res == CUDA_SUCCESS) {
        res = device_range(src, n, call, "source");
    }
    if (res == CUDA_SUCCESS) {
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    }
    return res;
}

// Unified addressing: either side may be memory of the driver (then it is
// range-checked) or ordinary host memory.
static CUresult copy_any(CUdeviceptr dst, CUdeviceptr src, size_t n,
                         const char *call) {
    CUresult res = check_context();
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    if (dst == 0 || src == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup((const void *)(uintptr_t)dst, &info) == UMF_MOCK_OK) {
        res = device_range(dst, n, call, "destination");
    }
    if (res == CUDA_SUCCESS &&
        umf_mock_lookup((const void *)(uintptr_t)src, &info) == UMF_MOCK_OK) {
        res = device_range(src, n, call, "source");
    }
    if (res == CUDA_SUCCESS) {
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    }
    return res;
}

static CUresult fill8(CUdeviceptr dst, unsigned char value, size_t n,
                      const char *call) {
    CUresult res = check_context();
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    res = device_range(dst, n, call, "destination");
    if (res == CUDA_SUCCESS) {
        memset((void *)(uintptr_t)dst, value, n);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice,
                                       const void *srcHost, size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoD_v2);
    return copy_htod(dstDevice, srcHost, ByteCount, "cuMemcpyHtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice,
                                            const void *srcHost,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoD_v2_ptds);
    return copy_htod(dstDevice, srcHost, ByteCount, "cuMemcpyHtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoH_v2);
    return copy_dtoh(dstHost, srcDevice, ByteCount, "cuMemcpyDtoH_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoH_v2_ptds(void *dstHost,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoH_v2_ptds);
    return copy_dtoh(dstHost, srcDevice, ByteCount, "cuMemcpyDtoH_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice,
                                       CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoD_v2);
    return copy_dtod(dstDevice, srcDevice, ByteCount, "cuMemcpyDtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoD_v2_ptds);
    return copy_dtod(dstDevice, srcDevice, ByteCount, "cuMemcpyDtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src,
                                size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpy);
    return copy_any(dst, src, ByteCount, "cuMemcpy");
}

CUDA_MOCK_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src,
                                     size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpy_ptds);
    return copy_any(dst, src, ByteCount, "cuMemcpy_ptds");
}

CUDA_MOCK_API CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc,
                                     size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD8_v2);
    return fill8(dstDevice, uc, N, "cuMemsetD8_v2");
}

CUDA_MOCK_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice,
                                          unsigned char uc, size_t N) {
    CUDA_MOCK_ENTER(cuMemsetD8_v2_ptds);
    return fill8(dstDevice, uc, N, "cuMemsetD8_v2_ptds");
}
