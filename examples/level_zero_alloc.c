// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: device memory through the Level Zero provider.
//
// Sets up Level Zero (driver, device, context), creates a provider for
// DEVICE memory, allocates a buffer, moves data in and out with the
// driver's copy call, and releases everything in reverse order.
//
// Build against an installed umf-gpu:
//   cc level_zero_alloc.c $(pkg-config --cflags --libs umf-gpu) -lze_loader
// Run without a GPU, on umf-gpu's emulated driver:
//   eval "$(umf-gpu-mock-env)" && ./a.out

#include <stdio.h>
#include <string.h>

#include <level_zero/ze_api.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_level_zero.h>

#define SIZE (1 << 20)

// Prints why a umf call failed. When the driver failed
// (UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC), the provider kept the
// driver's result and a message for this thread (see native_error.c).
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
                umfLevelZeroMemoryProviderOps(), &message, &native);
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
    ze_context_handle_t context = NULL;
    umf_memory_provider_handle_t provider = NULL;
    ze_command_list_handle_t list = NULL;
    void *buffer = NULL;

    // 1. Level Zero: the first driver and its first device, and a context.
    ze_driver_handle_t driver = NULL;
    ze_device_handle_t device = NULL;
    uint32_t count = 1;
    if (zeInit(0) != ZE_RESULT_SUCCESS ||
        zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS || count == 0) {
        fprintf(stderr, "no Level Zero driver\n");
        return 1;
    }
    count = 1;
    if (zeDeviceGet(driver, &count, &device) != ZE_RESULT_SUCCESS ||
        count == 0) {
        fprintf(stderr, "no Level Zero device\n");
        return 1;
    }
    ze_context_desc_t context_desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    if (zeContextCreate(driver, &context_desc, &context) != ZE_RESULT_SUCCESS) {
        fprintf(stderr, "zeContextCreate failed\n");
        return 1;
    }

    // 2. The provider: parameters, then the provider itself. The parameters
    //    are copied, so they can go right after.
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfLevelZeroMemoryProviderParamsCreate(&params);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfLevelZeroMemoryProviderParamsCreate", res);
        goto destroy_context;
    }
    umfLevelZeroMemoryProviderParamsSetContext(params, context);
    umfLevelZeroMemoryProviderParamsSetDevice(params, device);
    umfLevelZeroMemoryProviderParamsSetMemoryType(params,
                                                  UMF_MEMORY_TYPE_DEVICE);
    res = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params,
                                  &provider);
    umfLevelZeroMemoryProviderParamsDestroy(params);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfMemoryProviderCreate", res);
        goto destroy_context;
    }

    // 3. A device buffer (alignment 0: the provider's natural alignment).
    res = umfMemoryProviderAlloc(provider, SIZE, 0, &buffer);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfMemoryProviderAlloc", res);
        goto destroy_provider;
    }

    // 4. Data in and out with the driver's copy call. Device memory is not
    //    for the host to dereference (on a real GPU it is not host memory).
    ze_command_queue_desc_t queue_desc = {
        .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
        .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
    };
    if (zeCommandListCreateImmediate(context, device, &queue_desc, &list) !=
        ZE_RESULT_SUCCESS) {
        fprintf(stderr, "zeCommandListCreateImmediate failed\n");
        goto free_buffer;
    }
    for (size_t i = 0; i < SIZE; i++) {
        in[i] = (unsigned char)(i * 7);
    }
    if (zeCommandListAppendMemoryCopy(list, buffer, in, SIZE, NULL, 0, NULL) !=
            ZE_RESULT_SUCCESS ||
        zeCommandListAppendMemoryCopy(list, out, buffer, SIZE, NULL, 0, NULL) !=
            ZE_RESULT_SUCCESS) {
        fprintf(stderr, "zeCommandListAppendMemoryCopy failed\n");
        goto destroy_list;
    }
    if (memcmp(in, out, SIZE) != 0) {
        fprintf(stderr, "the data read back differs\n");
        goto destroy_list;
    }
    printf("Level Zero: %d bytes of device memory at %p, written and read "
           "back\n",
           SIZE, buffer);
    status = 0;

    // 5. Release in reverse order.
destroy_list:
    zeCommandListDestroy(list);
free_buffer:
    res = umfMemoryProviderFree(provider, buffer, SIZE);
    if (res != UMF_RESULT_SUCCESS) {
        umf_failed("umfMemoryProviderFree", res);
        status = 1;
    }
destroy_provider:
    umfMemoryProviderDestroy(provider);
destroy_context:
    zeContextDestroy(context);
    return status;
}
