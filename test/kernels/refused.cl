// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the CPU backend cannot run: fp16 arithmetic. zeModuleCreate must
// refuse it before anything runs, naming the capability in the build log.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void halves(__global half *x) {
    x[0] = x[0] * (half)2.0f;
}
