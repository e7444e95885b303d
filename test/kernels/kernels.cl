// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kernels of the emulated Level Zero driver's kernel tests
// (test/ze_mock/ze_mock_kernels_test.cpp), built to SPIR-V at build time.

__kernel void vadd(__global const int *a, __global const int *b,
                   __global int *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

// Each group reverses its slice through local memory.
__kernel void reverse_groups(__global const int *in, __global int *out,
                             __local int *tmp) {
    size_t l = get_local_id(0), n = get_local_size(0);
    size_t base = get_group_id(0) * n;
    tmp[l] = in[base + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + l] = tmp[n - 1 - l];
}

__kernel void count(__global int *counter) {
    atomic_inc(counter);
}

// out[linear id] = x | y << 10 | z << 20 of the global id (with offset).
__kernel void ids3d(__global uint *out, uint width, uint height) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t ox = get_global_offset(0), oy = get_global_offset(1),
           oz = get_global_offset(2);
    size_t at = ((z - oz) * height + (y - oy)) * width + (x - ox);
    out[at] = (uint)(x | y << 10 | z << 20);
}

__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void
fixed(__global int *out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}

// out[i] = i * k: the consumer of an IPC buffer writes it.
__kernel void pattern(__global int *out, int k) {
    size_t i = get_global_id(0);
    out[i] = (int)i * k;
}
