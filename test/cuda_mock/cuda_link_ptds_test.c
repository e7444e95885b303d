// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Built with CUDA_API_PER_THREAD_DEFAULT_STREAM: cuMemcpyHtoD here is
// cuMemcpyHtoD_v2_ptds, cuMemcpy is cuMemcpy_ptds, and so on.

#include <cuda.h>
#include <string.h>

#include "cuda_link_test.h"

int cuda_link_ptds_roundtrip(void) {
    CUcontext ctx;
    if (cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS) {
        return 1;
    }
    int failed = cuCtxPushCurrent(ctx) != CUDA_SUCCESS;
    CUdeviceptr p = 0;
    if (!failed && cuMemAlloc(&p, 256) == CUDA_SUCCESS) {
        unsigned char in[256], out[256];
        memset(in, 0x7e, sizeof(in));
        failed |= cuMemcpyHtoD(p, in, sizeof(in)) != CUDA_SUCCESS;
        failed |= cuMemsetD8(p, 0x01, 1) != CUDA_SUCCESS;
        failed |= cuMemcpyDtoH(out, p, sizeof(out)) != CUDA_SUCCESS;
        failed |= out[0] != 0x01 || out[1] != 0x7e;
        failed |= cuMemcpy((CUdeviceptr)out, p + 128, 1) != CUDA_SUCCESS;
        failed |= cuMemFree(p) != CUDA_SUCCESS;
    } else {
        failed = 1;
    }
    failed |= cuCtxPopCurrent(NULL) != CUDA_SUCCESS;
    failed |= cuDevicePrimaryCtxRelease(0) != CUDA_SUCCESS;
    return failed;
}

int cuda_link_ptsz_stream_work(void) {
    CUstream s;
    CUevent e;
    CUdeviceptr p = 0;
    if (cuStreamCreate(&s, 0) != CUDA_SUCCESS) {
        return 1;
    }
    int failed = cuEventCreate(&e, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS;
    failed |= cuMemAlloc(&p, 64) != CUDA_SUCCESS;
    failed |= cuMemsetD32Async(p, 7, 16, s) != CUDA_SUCCESS;
    failed |= cuEventRecord(e, s) != CUDA_SUCCESS;
    failed |= cuStreamSynchronize(s) != CUDA_SUCCESS;
    failed |= cuMemFree(p) != CUDA_SUCCESS;
    failed |= cuEventDestroy(e) != CUDA_SUCCESS;
    failed |= cuStreamDestroy(s) != CUDA_SUCCESS;
    return failed;
}

// Every per-thread variant, once, by the names cuda.h gives them; each
// call's result goes to `failed` (kernels: refused on the emulated
// driver, an error on any driver since no function exists).
int cuda_link_every_per_thread_variant(void) {
    CUcontext ctx;
    if (cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS) {
        return 1;
    }
    int failed = cuCtxPushCurrent(ctx) != CUDA_SUCCESS;
    CUstream s = NULL;
    CUevent e = NULL;
    CUdeviceptr a = 0, b = 0, c = 0;
    CUmemoryPool pool = NULL;
    failed |= cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS;
    failed |= cuEventCreate(&e, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS;
    failed |= cuMemAlloc(&a, 4096) != CUDA_SUCCESS;
    failed |= cuMemAlloc(&b, 4096) != CUDA_SUCCESS;
    failed |= cuDeviceGetDefaultMemPool(&pool, 0) != CUDA_SUCCESS;
    if (failed) {
        return 1;
    }
    unsigned char host[256] = {1, 2, 3};
    failed |= cuMemcpyHtoDAsync(a, host, sizeof(host), s) != CUDA_SUCCESS;
    failed |= cuMemcpyDtoDAsync(b, a, sizeof(host), s) != CUDA_SUCCESS;
    failed |= cuMemcpyDtoHAsync(host, b, sizeof(host), s) != CUDA_SUCCESS;
    failed |= cuMemcpyAsync(a, b, 16, s) != CUDA_SUCCESS;
    failed |= cuMemcpyDtoD(a, b, 16) != CUDA_SUCCESS;
    failed |= cuMemcpyPeer(a, ctx, b, ctx, 16) != CUDA_SUCCESS;
    failed |= cuMemcpyPeerAsync(a, ctx, b, ctx, 16, s) != CUDA_SUCCESS;
    CUDA_MEMCPY2D c2 = {0};
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = a;
    c2.srcPitch = 64;
    c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.dstDevice = b;
    c2.dstPitch = 64;
    c2.WidthInBytes = 32;
    c2.Height = 4;
    failed |= cuMemcpy2D(&c2) != CUDA_SUCCESS;
    failed |= cuMemcpy2DUnaligned(&c2) != CUDA_SUCCESS;
    failed |= cuMemcpy2DAsync(&c2, s) != CUDA_SUCCESS;
    failed |= cuMemsetD16(a, 1, 8) != CUDA_SUCCESS;
    failed |= cuMemsetD32(a, 1, 8) != CUDA_SUCCESS;
    failed |= cuMemsetD2D8(a, 64, 1, 8, 4) != CUDA_SUCCESS;
    failed |= cuMemsetD2D16(a, 64, 1, 8, 4) != CUDA_SUCCESS;
    failed |= cuMemsetD2D32(a, 64, 1, 8, 4) != CUDA_SUCCESS;
    failed |= cuMemsetD8Async(a, 1, 8, s) != CUDA_SUCCESS;
    failed |= cuMemsetD16Async(a, 1, 8, s) != CUDA_SUCCESS;
    failed |= cuMemsetD2D8Async(a, 64, 1, 8, 4, s) != CUDA_SUCCESS;
    failed |= cuMemsetD2D16Async(a, 64, 1, 8, 4, s) != CUDA_SUCCESS;
    failed |= cuMemsetD2D32Async(a, 64, 1, 8, 4, s) != CUDA_SUCCESS;
    failed |=
        cuEventRecordWithFlags(e, s, CU_EVENT_RECORD_DEFAULT) != CUDA_SUCCESS;
    failed |= cuStreamWaitEvent(s, e, 0) != CUDA_SUCCESS;
    CUresult q = cuStreamQuery(s);
    failed |= q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY;
    CUcontext got = NULL;
    CUgreenCtx green = NULL;
    unsigned int flags = 0;
    int prio = 1;
    unsigned long long id = 0;
    failed |= cuStreamGetCtx(s, &got) != CUDA_SUCCESS || got != ctx;
    failed |= cuStreamGetCtx_v2(s, &got, &green) != CUDA_SUCCESS || got != ctx;
    failed |= cuStreamGetFlags(s, &flags) != CUDA_SUCCESS ||
              flags != CU_STREAM_NON_BLOCKING;
    failed |= cuStreamGetPriority(s, &prio) != CUDA_SUCCESS || prio != 0;
    failed |= cuStreamGetId(s, &id) != CUDA_SUCCESS;
    failed |= cuMemAllocAsync(&c, 64, s) != CUDA_SUCCESS;
    failed |= cuMemFreeAsync(c, s) != CUDA_SUCCESS;
    failed |= cuMemAllocFromPoolAsync(&c, 64, pool, s) != CUDA_SUCCESS;
    failed |= cuMemFreeAsync(c, s) != CUDA_SUCCESS;
    failed |= cuStreamSynchronize(s) != CUDA_SUCCESS;
    // No function exists to launch.
    int dummy = 0;
    CUfunction f = (CUfunction)&dummy;
    CUlaunchConfig config = {0};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = config.blockDimY = config.blockDimZ = 1;
    config.hStream = s;
    if (cuda_link_call_count("cuLaunchKernel_ptsz") >= 0) {
        failed |= cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL) !=
                  CUDA_ERROR_INVALID_HANDLE;
        failed |= cuLaunchKernelEx(&config, f, NULL, NULL) !=
                  CUDA_ERROR_INVALID_HANDLE;
    }
    failed |= cuMemFree(a) != CUDA_SUCCESS;
    failed |= cuMemFree(b) != CUDA_SUCCESS;
    failed |= cuEventDestroy(e) != CUDA_SUCCESS;
    failed |= cuStreamDestroy(s) != CUDA_SUCCESS;
    failed |= cuCtxPopCurrent(NULL) != CUDA_SUCCESS;
    failed |= cuDevicePrimaryCtxRelease(0) != CUDA_SUCCESS;
    return failed;
}
