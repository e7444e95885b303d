// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA side of the harness (gpu_harness.h), for C++ suites: the driver
// table is cuda_test_driver.h's (the driver loaded as an application loads
// it), and every parameter of a CUDA provider. Only in builds with the CUDA
// provider.

#ifndef UMF_GPU_TEST_GPU_HARNESS_CUDA_H
#define UMF_GPU_TEST_GPU_HARNESS_CUDA_H 1

#include <umf/providers/provider_cuda.h>

#include "cuda_test_driver.h"
#include <vector>

#include "gpu_harness.h"

// What a CUDA provider is made with.
struct cuda_provider_config {
    CUcontext context = nullptr; // nullptr: the harness's (device 0's primary)
    int device = 0;
    umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE;
    bool set_flags = false;
    unsigned flags = 0;
    const char *name = nullptr;
    umf_cuda_allocation_mode_t mode = UMF_CUDA_ALLOCATION_MODE_DEFAULT;
    std::vector<int> resident; // umfCUDAMemoryProviderParamsSetResidentDevices
};

// umfMemoryProviderCreate's result (or the first failed setter's), the
// provider in *out.
umf_result_t cuda_try_provider(const cuda_provider_config &cfg,
                               umf_memory_provider_handle_t *out);

// The driver the harness brought up; NULL when it is unusable.
const cuda_test_driver_t *umf_test_cuda(void);

#endif // UMF_GPU_TEST_GPU_HARNESS_CUDA_H
