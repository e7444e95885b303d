// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: finding out what went wrong in the driver after a provider call
// failed, with the CUDA provider (the Level Zero provider works the same,
// with ze_result_t codes).
//
// Every umf call returns a umf_result_t. When the driver failed, that is
// UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, and the provider has kept, for
// the calling thread, the driver's own result (a CUresult here) and a
// message: which call failed, with which arguments, and why.
// umfGetLastFailedMemoryProvider() names the provider whose call failed last
// in this thread, so error handling away from the call can still ask it.
//
// Here the provider is asked for 1 TiB of device memory, more than a device
// has (the emulated one has 4 GiB unless UMF_GPU_MOCK_DEVICE_MEM says
// otherwise). The program exits 0 when the failure was reported that way.
//
// Build against an installed umf-gpu:
//   cc native_error.c $(pkg-config --cflags --libs umf-gpu)
//      -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda
// (one line; the stub libcuda.so is for linking only)
// Run without a GPU, on umf-gpu's emulated libcuda.so.1:
//   eval "$(umf-gpu-mock-env)" && ./a.out

#include <stdio.h>

#include <cuda.h>
#include <umf/memory_provider.h>
#include <umf/providers/provider_cuda.h>

int main(void) {
    int status = 1;
    CUdevice device;
    CUcontext context = NULL;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS) {
        fprintf(stderr, "no CUDA device\n");
        return 1;
    }
    umf_memory_provider_handle_t provider = NULL;
    umf_cuda_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfCUDAMemoryProviderParamsCreate(&params);
    if (res == UMF_RESULT_SUCCESS) {
        umfCUDAMemoryProviderParamsSetContext(params, context);
        umfCUDAMemoryProviderParamsSetDevice(params, (int)device);
        res = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), params,
                                      &provider);
        umfCUDAMemoryProviderParamsDestroy(params);
    }
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "cannot create the provider: umf_result_t %d\n",
                (int)res);
        goto release_context;
    }

    void *ptr = NULL;
    const size_t size = (size_t)1 << 40;
    res = umfMemoryProviderAlloc(provider, size, 0, &ptr);
    if (res == UMF_RESULT_SUCCESS) {
        printf("got 1 TiB of device memory: nothing failed\n");
        umfMemoryProviderFree(provider, ptr, size);
        goto destroy_provider;
    }

    // Later, wherever the error is handled: which provider failed?
    umf_memory_provider_handle_t failed = umfGetLastFailedMemoryProvider();
    printf("umfMemoryProviderAlloc(1 TiB) returned umf_result_t %d; the "
           "failed provider is %s\n",
           (int)res, failed != NULL ? umfMemoryProviderGetName(failed) : "?");
    if (res == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC) {
        // The driver's result and the provider's message; the message
        // belongs to the provider, and stays valid until the next failure
        // in this thread.
        const char *message = NULL;
        int32_t native = 0;
        umfMemoryProviderGetLastNativeError(failed, &message, &native);
        printf("native error: CUresult %d\nmessage: %s\n", (int)native,
               message != NULL ? message : "(none)");
        // A program may act on the driver's own code, e.g. trim its caches
        // and retry when device memory ran out.
        if (native == CUDA_ERROR_OUT_OF_MEMORY && message != NULL &&
            failed == provider) {
            printf("device memory ran out, as expected\n");
            status = 0;
        }
    }

destroy_provider:
    umfMemoryProviderDestroy(provider);
release_context:
    cuDevicePrimaryCtxRelease(device);
    return status;
}
