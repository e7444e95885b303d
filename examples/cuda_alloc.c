// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: device memory through the CUDA provider.
//
// Initialises CUDA and makes device 0's primary context current, creates a
// provider for DEVICE memory (it takes the current context and its device),
// allocates a buffer, moves data in and out with cuMemcpyHtoD/DtoH, and
// releases everything in reverse order.
//
// Build against an installed umf-gpu:
//   cc cuda_alloc.c $(pkg-config --cflags --libs umf-gpu)
//      -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda
// (one line; the stub libcuda.so is for linking only)
// Run without a GPU, on umf-gpu's emulated libcuda.so.1:
//   eval "$(umf-gpu-mock-env)" && ./a.out

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_cuda.h>

#define SIZE (1 << 20)

// Prints why a umf call failed. When the driver failed
// (UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC), the provider kept the
// CUresult and a message for this thread (see native_error.c).
static void umf_failed(const char *call, umf_result_t res) {
    fprintf(stderr, "%s failed: umf_result_t %d", call, (int)res);
    if (res == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC) {
        const char *message = NULL;
        int32_t native = 0;
        umf_memory_provider_handle_t failed = umfGetLastFailedMemoryProvider();
        if (failed != NULL) {
            umfMemoryProviderGetLastNativeError(failed, &message, &native);
        } else {
            // A failed create leaves no provider to ask: the ops table
            // names the kind of provider instead.
            umfGpuMemoryProviderOpsGetLastNativeError(
                umfCUDAMemoryProviderOps(), &message, &native);
        }
        if (message != NULL) {
            fprintf(stderr, ": %s (native error %d)", message, (int)native);
        }
    }
    fputc('\n', stderr);
}

int main(void) {
    int status = 1;
    static unsigned char in[SIZE], out[SIZE];
    umf_memory_provider_handle_t provider = NULL;
    void *buffer = NULL;

    // 1. CUDA: device 0 and its primary context, current in this thread.
    CUdevice device;
    CUcontext context = NULL;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "no CUDA device\n");
        return 1;
    }
    if (cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS) {
        fprintf(stderr, "cuDevicePrimaryCtxRetain failed\n");
        return 1;
    }
    if (cuCtxSetCurrent(context) != CUDA_SUCCESS) {
        fprintf(stderr, "cuCtxSetCurrent failed\n");
        goto release_context;
    }

    // 2. The provider. The parameters start with the current context and
    //    its device, and DEVICE memory; they are copied by the provider, so
    //    they can go right after.
    umf_cuda_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfCUDAMemoryProviderParamsCreate(&params);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfCUDAMemoryProviderParamsCreate", res);
        goto release_context;
    }
    res =
        umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), params, &provider);
    umfCUDAMemoryProviderParamsDestroy(params);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfMemoryProviderCreate", res);
        goto release_context;
    }

    // 3. A device buffer (alignment 0: the provider's natural alignment).
    res = umfMemoryProviderAlloc(provider, SIZE, 0, &buffer);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfMemoryProviderAlloc", res);
        goto destroy_provider;
    }

    // 4. Data in and out with the driver's copy calls. Device memory is not
    //    for the host to dereference (on a real GPU it is not host memory).
    for (size_t i = 0; i < SIZE; i++) {
        in[i] = (unsigned char)(i * 7);
    }
    CUdeviceptr dptr = (CUdeviceptr)(uintptr_t)buffer;
    if (cuMemcpyHtoD(dptr, in, SIZE) != CUDA_SUCCESS ||
        cuMemcpyDtoH(out, dptr, SIZE) != CUDA_SUCCESS) {
        fprintf(stderr, "cuMemcpy failed\n");
        goto free_buffer;
    }
    if (memcmp(in, out, SIZE) != 0) {
        fprintf(stderr, "the data read back differs\n");
        goto free_buffer;
    }
    printf("CUDA: %d bytes of device memory at 0x%llx, written and read "
           "back\n",
           SIZE, (unsigned long long)dptr);
    status = 0;

    // 5. Release in reverse order.
free_buffer:
    res = umfMemoryProviderFree(provider, buffer, SIZE);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfMemoryProviderFree", res);
        status = 1;
    }
destroy_provider:
    umfMemoryProviderDestroy(provider);
release_context:
    cuCtxSetCurrent(NULL);
    cuDevicePrimaryCtxRelease(device);
    return status;
}
