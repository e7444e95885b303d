// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A program built against cuda.h and linked with -lcuda, as applications
// are: the header maps the API names to the versioned entry points
// (cuMemAlloc -> cuMemAlloc_v2, cuCtxCreate -> cuCtxCreate_v4 ...), the
// dynamic linker finds libcuda.so.1 through LD_LIBRARY_PATH (the build
// tree's lib/mock-cuda for the tests). cuda_link_ptds_test.c is the same
// with CUDA_API_PER_THREAD_DEFAULT_STREAM, which binds the _ptds variants.

#include <cuda.h>
#include <dlfcn.h>
#include <string.h>

#include <umf/gpu_mock.h>

#include "c_test.h"
#include "cuda_link_test.h"

int64_t cuda_link_call_count(const char *entry) {
    umf_gpu_mock_get_call_count_fn count =
        (umf_gpu_mock_get_call_count_fn)dlsym(RTLD_DEFAULT,
                                              "umfCudaMockGetCallCount");
    return count != NULL ? count(entry) : -1;
}

// Each case counts its own calls, whichever cases ran before it in this
// process (a filter or --gtest_shuffle changes that).
static void reset_call_counts(void) {
    umf_gpu_mock_reset_call_counts_fn reset =
        (umf_gpu_mock_reset_call_counts_fn)dlsym(RTLD_DEFAULT,
                                                 "umfCudaMockResetCallCounts");
    if (reset != NULL) {
        reset();
    }
}

UMF_C_TEST(CudaLink, VersionedNamesThroughTheHeader) {
    reset_call_counts();
    UMF_ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    UMF_ASSERT_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    UMF_ASSERT_EQ(cuCtxCreate(&ctx, NULL, 0, dev), CUDA_SUCCESS);
    size_t total = 0, free_b = 0;
    UMF_EXPECT_EQ(cuDeviceTotalMem(&total, dev), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemGetInfo(&free_b, &total), CUDA_SUCCESS);
    UMF_EXPECT(free_b <= total);
    CUdeviceptr p = 0;
    UMF_ASSERT_EQ(cuMemAlloc(&p, 4096), CUDA_SUCCESS);
    char in[64], out[64];
    memset(in, 0x3c, sizeof(in));
    UMF_EXPECT_EQ(cuMemcpyHtoD(p + 64, in, sizeof(in)), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemcpyDtoD(p, p + 64, sizeof(in)), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemsetD8(p + 8, 0x11, 8), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemcpyDtoH(out, p, sizeof(out)), CUDA_SUCCESS);
    UMF_EXPECT_EQ(out[0], 0x3c);
    UMF_EXPECT_EQ(out[8], 0x11);
    CUdeviceptr base = 0;
    size_t size = 0;
    UMF_EXPECT_EQ(cuMemGetAddressRange(&base, &size, p + 100), CUDA_SUCCESS);
    UMF_EXPECT_EQ(base, p);
    UMF_EXPECT_EQ(size, 4096);
    UMF_EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
    CUcontext popped = NULL;
    UMF_EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
    UMF_EXPECT_PTR_EQ(popped, ctx);
    UMF_EXPECT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
    if (cuda_link_call_count("cuMemAlloc_v2") >= 0) {
        // The emulated driver: the calls reached the versioned names.
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemAlloc_v2"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuCtxCreate_v4"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemcpyHtoD_v2"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemAlloc"), 0);
    }
    UMF_EXPECT_EQ(cuda_link_ptds_roundtrip(), 0);
    if (cuda_link_call_count("cuMemcpyHtoD_v2_ptds") >= 0) {
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemcpyHtoD_v2_ptds"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemcpyDtoH_v2_ptds"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemsetD8_v2_ptds"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemcpy_ptds"), 1);
    }
}

// What memory frameworks' CUDA test suites call, by the names cuda.h gives
// them (the issue that made the emulated driver grow: cuMemsetD32,
// cuMemHostGetFlags, cuStreamSynchronize were missing, and a binary linked
// with -lcuda could not start).
UMF_C_TEST(CudaLink, StreamsEventsFillsAndHostMemory) {
    reset_call_counts();
    UMF_ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    UMF_ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    UMF_ASSERT_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    CUstream s;
    CUevent a, b;
    UMF_ASSERT_EQ(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    UMF_ASSERT_EQ(cuEventCreate(&a, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    UMF_ASSERT_EQ(cuEventCreate(&b, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    void *host = NULL;
    UMF_ASSERT_EQ(cuMemHostAlloc(&host, 4096, CU_MEMHOSTALLOC_PORTABLE),
                  CUDA_SUCCESS);
    unsigned int flags = 0;
    UMF_EXPECT_EQ(cuMemHostGetFlags(&flags, host), CUDA_SUCCESS);
    UMF_EXPECT((flags & CU_MEMHOSTALLOC_PORTABLE) != 0);
    CUdeviceptr p = 0;
    UMF_ASSERT_EQ(cuMemAllocAsync(&p, 4096, s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuEventRecord(a, s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemsetD32(p, 0x01020304u, 1024), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemcpyDtoHAsync(host, p, 4096, s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuEventRecord(b, s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuStreamSynchronize(s), CUDA_SUCCESS);
    float ms = -1;
    UMF_EXPECT_EQ(cuEventElapsedTime(&ms, a, b), CUDA_SUCCESS);
    UMF_EXPECT(ms >= 0);
    UMF_EXPECT_EQ(((unsigned char *)host)[4095], 0x01);
    UMF_EXPECT_EQ(cuMemFreeAsync(p, s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuStreamSynchronize(s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuMemFreeHost(host), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuEventDestroy(a), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuEventDestroy(b), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuda_link_ptsz_stream_work(), 0);
    if (cuda_link_call_count("cuMemsetD32_v2") >= 0) {
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemsetD32_v2"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuStreamDestroy_v2"), 2);
        UMF_EXPECT_EQ(cuda_link_call_count("cuEventDestroy_v2"), 3);
        UMF_EXPECT_EQ(cuda_link_call_count("cuEventElapsedTime_v2"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuStreamSynchronize_ptsz"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuMemsetD32Async_ptsz"), 1);
        UMF_EXPECT_EQ(cuda_link_call_count("cuEventRecord_ptsz"), 1);
    }
    UMF_EXPECT_EQ(cuCtxPopCurrent(NULL), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
}

// Every per-thread variant the driver exports (40) is reached by a program
// built with CUDA_API_PER_THREAD_DEFAULT_STREAM.
UMF_C_TEST(CudaLink, EveryPerThreadVariant) {
    reset_call_counts();
    UMF_ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuda_link_every_per_thread_variant(), 0);
    UMF_EXPECT_EQ(cuda_link_ptds_roundtrip(), 0);
    CUcontext ctx;
    UMF_ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuda_link_ptsz_stream_work(), 0);
    UMF_EXPECT_EQ(cuCtxPopCurrent(NULL), CUDA_SUCCESS);
    UMF_EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    static const char *const variants[] = {
        "cuEventRecordWithFlags_ptsz",
        "cuLaunchKernelEx_ptsz",
        "cuLaunchKernel_ptsz",
        "cuMemAllocAsync_ptsz",
        "cuMemAllocFromPoolAsync_ptsz",
        "cuMemFreeAsync_ptsz",
        "cuMemcpy2DAsync_v2_ptsz",
        "cuMemcpy2DUnaligned_v2_ptds",
        "cuMemcpy2D_v2_ptds",
        "cuMemcpyAsync_ptsz",
        "cuMemcpyDtoDAsync_v2_ptsz",
        "cuMemcpyDtoD_v2_ptds",
        "cuMemcpyDtoHAsync_v2_ptsz",
        "cuMemcpyHtoDAsync_v2_ptsz",
        "cuMemcpyPeerAsync_ptsz",
        "cuMemcpyPeer_ptds",
        "cuMemsetD16Async_ptsz",
        "cuMemsetD16_v2_ptds",
        "cuMemsetD2D16Async_ptsz",
        "cuMemsetD2D16_v2_ptds",
        "cuMemsetD2D32Async_ptsz",
        "cuMemsetD2D32_v2_ptds",
        "cuMemsetD2D8Async_ptsz",
        "cuMemsetD2D8_v2_ptds",
        "cuMemsetD32_v2_ptds",
        "cuMemsetD8Async_ptsz",
        "cuStreamGetCtx_ptsz",
        "cuStreamGetCtx_v2_ptsz",
        "cuStreamGetFlags_ptsz",
        "cuStreamGetId_ptsz",
        "cuStreamGetPriority_ptsz",
        "cuStreamQuery_ptsz",
        "cuStreamSynchronize_ptsz",
        "cuStreamWaitEvent_ptsz",
        // Reached by cuda_link_ptds_roundtrip and _ptsz_stream_work.
        "cuEventRecord_ptsz",
        "cuMemcpyDtoH_v2_ptds",
        "cuMemcpyHtoD_v2_ptds",
        "cuMemcpy_ptds",
        "cuMemsetD32Async_ptsz",
        "cuMemsetD8_v2_ptds",
    };
    if (cuda_link_call_count("cuInit") < 0) {
        return; // another driver: the calls succeeded, nothing to count
    }
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
        UMF_C_CHECK_(cuda_link_call_count(variants[i]) >= 1, (void)0,
                     "%s was not reached", variants[i]);
    }
}
