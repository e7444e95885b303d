// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Specialization constants: OpenCL C has none, so the build makes this
// kernel's constant 12345 a specialization constant with SpecId 7 in the
// SPIR-V (test/kernels/spec_constant.cmake). Without a value given at
// zeModuleCreate the kernel writes its default, 12345.
__kernel void spec(__global int *out) {
    out[get_global_id(0)] = 12345;
}
