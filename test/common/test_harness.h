// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internals of the harness shared by its C++ files.

#ifndef UMF_GPU_TEST_HARNESS_H
#define UMF_GPU_TEST_HARNESS_H 1

// Hands every UMF_C_TEST to GoogleTest; called by main.
void umf_test_register_c_tests();

#endif // UMF_GPU_TEST_HARNESS_H
