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

// Checks one side of a copy or fill: [ptr, ptr + n) must lie inside one
// allocation of the driver, if the side is `required` to be driver memory or
// if ptr is driver memory at all; other memory is the host's own. Mapped
// VMM memory follows the VMM rule (mock_vmm.h): adjacent mappings are one
// range, and `device` needs access to it (to write it when `write`).
static CUresult check_side(uintptr_t ptr, size_t n, bool required, int device,
                           bool write, const char *call, const char *what) {
    umf_mock_alloc_info_t info;
    const void *p = (const void *)ptr;
    if (umf_mock_lookup(p, &info) != UMF_MOCK_OK) {
        if (!required) {
            return CUDA_SUCCESS;
        }
        UMF_MOCK_LOG_ERROR("%s: %s %p is not memory of this driver", call, what,
                           p);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (info.kind == UMF_MOCK_KIND_MAPPED) {
        umf_mock_status_t s = umf_mock_vmm_check(p, n, device, write);
        if (s != UMF_MOCK_OK) {
            UMF_MOCK_LOG_ERROR("%s: %zu bytes at %s %p: %s", call, n, what, p,
                               s == UMF_MOCK_ERR_PERMISSION
                                   ? "the device has no access to this "
                                     "mapped memory (cuMemSetAccess)"
                                   : "not mapped throughout");
            return CUDA_ERROR_INVALID_VALUE;
        }
        return CUDA_SUCCESS;
    }
    uintptr_t end = (uintptr_t)info.base + info.size;
    if (n > end - ptr) {
        UMF_MOCK_LOG_ERROR("%s: %zu bytes at %s %p run past the end of its "
                           "allocation [%p, +%zu)",
                           call, n, what, p, info.base, info.size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

// The checks every copy and fill makes first: a usable current context,
// whose device does the work.
static CUresult check_context(int *device) {
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res == CUDA_SUCCESS) {
        *device = cuda_mock_ctx_device(ctx);
    }
    return res;
}

// The sides of a copy that must be memory of the driver.
#define DST_DEVICE 1u
#define SRC_DEVICE 2u

// Copies n bytes from src to dst. A side in `device` must be memory of the
// driver; the others may be too (unified addressing).
static CUresult copy(uintptr_t dst, uintptr_t src, size_t n, unsigned device,
                     const char *call) {
    int dev;
    CUresult res = check_context(&dev);
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    if (dst == 0 || src == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    res = check_side(dst, n, (device & DST_DEVICE) != 0, dev, true, call,
                     "destination");
    if (res == CUDA_SUCCESS) {
        res = check_side(src, n, (device & SRC_DEVICE) != 0, dev, false, call,
                         "source");
    }
    if (res == CUDA_SUCCESS) {
        memmove((void *)dst, (const void *)src, n);
    }
    return res;
}

static CUresult fill8(CUdeviceptr dst, unsigned char value, size_t n,
                      const char *call) {
    int dev;
    CUresult res = check_context(&dev);
    if (res != CUDA_SUCCESS || n == 0) {
        return res;
    }
    res = check_side((uintptr_t)dst, n, true, dev, true, call, "destination");
    if (res == CUDA_SUCCESS) {
        memset((void *)(uintptr_t)dst, value, n);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice,
                                       const void *srcHost, size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoD_v2);
    return copy((uintptr_t)dstDevice, (uintptr_t)srcHost, ByteCount, DST_DEVICE,
                "cuMemcpyHtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice,
                                            const void *srcHost,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoD_v2_ptds);
    return copy((uintptr_t)dstDevice, (uintptr_t)srcHost, ByteCount, DST_DEVICE,
                "cuMemcpyHtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoH_v2);
    return copy((uintptr_t)dstHost, (uintptr_t)srcDevice, ByteCount, SRC_DEVICE,
                "cuMemcpyDtoH_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoH_v2_ptds(void *dstHost,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoH_v2_ptds);
    return copy((uintptr_t)dstHost, (uintptr_t)srcDevice, ByteCount, SRC_DEVICE,
                "cuMemcpyDtoH_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice,
                                       CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoD_v2);
    return copy((uintptr_t)dstDevice, (uintptr_t)srcDevice, ByteCount,
                DST_DEVICE | SRC_DEVICE, "cuMemcpyDtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoD_v2_ptds);
    return copy((uintptr_t)dstDevice, (uintptr_t)srcDevice, ByteCount,
                DST_DEVICE | SRC_DEVICE, "cuMemcpyDtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src,
                                size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpy);
    return copy((uintptr_t)dst, (uintptr_t)src, ByteCount, 0, "cuMemcpy");
}

CUDA_MOCK_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src,
                                     size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpy_ptds);
    return copy((uintptr_t)dst, (uintptr_t)src, ByteCount, 0, "cuMemcpy_ptds");
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
