// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA arrays (cuda_mock_array.c) and the device model (cuda_mock_device.c)

#ifndef UMF_GPU_CUDA_MOCK_ARRAY_H
#define UMF_GPU_CUDA_MOCK_ARRAY_H 1

#include "cuda_mock_core.h"

// Where an array's elements are: rows of `width_bytes` (`pitch` apart),
// `rows` per slice, `slices` slices, in device memory of `device`.
typedef struct cuda_mock_array_layout_t {
    uintptr_t base;
    size_t pitch, width_bytes, rows, slices;
    unsigned elem; // bytes per element
    int device;
    bool one_dimensional;
} cuda_mock_array_layout_t;

// The layout of a live array; false (logged with `call`) otherwise.
bool cuda_mock_array_layout(CUarray a, const char *call,
                            cuda_mock_array_layout_t *out);

// The device model's value of a limit attribute (the same on every device).
int cuda_mock_device_limit(CUdevice_attribute attrib);

#endif // UMF_GPU_CUDA_MOCK_ARRAY_H
