// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The demo consumer's change of the shared buffer, where the Level Zero
// driver runs kernels: the same bytes as demo_pattern() (demo_steps.c).
__kernel void demo_pattern(__global uchar *buf, uint seed) {
    size_t i = get_global_id(0);
    buf[i] = (uchar)((i * 131u) ^ (i >> 12) ^ (seed * 0x5bu));
}
