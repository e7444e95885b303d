// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// main() of every test executable: runs a child role when started as one
// (see test_child.h), else GoogleTest with the C tests registered.

#include <gtest/gtest.h>

#include "test_child.h"
#include "test_harness.h"

int main(int argc, char **argv) {
    int status;
    if (umf_test_child_dispatch(argc, argv, &status)) {
        return status;
    }
    umf_test_register_c_tests();
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
