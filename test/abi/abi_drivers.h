// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A Level Zero and a CUDA context on the first device, reached as a program
// does (tools/driver_open: the library the environment names, RTLD_LOCAL),
// for the tests here that must not lean on the library's own driver
// tables: late_load_test (which links nothing of umf-gpu) and the second
// core test.

#ifndef UMF_GPU_TEST_ABI_DRIVERS_H
#define UMF_GPU_TEST_ABI_DRIVERS_H 1

#include <stddef.h>

#include <cuda.h>
#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct abi_ze_t {
    ze_context_handle_t context;
    ze_device_handle_t device;
    ze_result_t (*destroy)(ze_context_handle_t); // zeContextDestroy
} abi_ze_t;

typedef struct abi_cuda_t {
    CUcontext context; // the device's primary context, retained
    CUdevice device;
    CUresult (*release)(CUdevice); // cuDevicePrimaryCtxRelease_v2
} abi_cuda_t;

// 0, or -1 with the reason in why[why_len].
int abi_ze_open(abi_ze_t *ze, char *why, size_t why_len);
void abi_ze_close(abi_ze_t *ze);
int abi_cuda_open(abi_cuda_t *cu, char *why, size_t why_len);
void abi_cuda_close(abi_cuda_t *cu);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_TEST_ABI_DRIVERS_H
