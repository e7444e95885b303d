// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The benchmark's kernels (bench_ze_kernels.c): an empty one for the
// launch latency, and a vector add for the bandwidth.
__kernel void empty(void) {
}

__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
