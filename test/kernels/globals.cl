// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A program-scope variable, which the CPU backend (pocl) keeps once per
// kernel: zeModuleGetGlobalPointer must refuse it rather than give one
// kernel's copy.
__global int total = 0;

__kernel void add_to_total(int x) {
    total += x;
}

__kernel void read_total(__global int *out) {
    *out = total;
}
