// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A module that imports a function of another (link_lib.cl): no kernel of
// it can be made until zeModuleDynamicLink links the two.
int twice(int x);

__kernel void use_twice(__global int *out) {
    size_t i = get_global_id(0);
    out[i] = twice((int)i);
}
