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
