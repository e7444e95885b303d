// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A module that exports a function (link_user.cl imports it): built alone,
// it gives zeModuleDynamicLink what the other module needs.
int twice(int x) {
    return 2 * x;
}
