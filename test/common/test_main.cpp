// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// main() of every test executable: runs a child role when started as one
// (see test_child.h), else GoogleTest with the C tests and the suite's
// run-time tests registered.

#include <gtest/gtest.h>

#include "test_child.h"
#include "test_harness.h"

// A suite that makes its tests at run time, one per entry of a table
// (testing::RegisterTest), defines this; it runs after GoogleTest has read
// its flags and before any test, in the test process only (not in a child
// role).
extern "C" void umf_test_register_tests(void) __attribute__((weak));

int main(int argc, char **argv) {
    int status;
    if (umf_test_child_dispatch(argc, argv, &status)) {
        return status;
    }
    umf_test_register_c_tests();
    testing::InitGoogleTest(&argc, argv);
    if (umf_test_register_tests != nullptr) {
        umf_test_register_tests();
    }
    return RUN_ALL_TESTS();
}
