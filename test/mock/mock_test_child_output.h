// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For tests of the emulated drivers: the leak modes checked through a child
// role (test_child.h, umf_test_child_output) that sends its stderr to the
// parent over the socket (dup2(sock, 2)). Header-only, for the core's and the
// drivers' suites alike.

#ifndef UMF_GPU_TEST_MOCK_CHILD_OUTPUT_H
#define UMF_GPU_TEST_MOCK_CHILD_OUTPUT_H 1

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "test_child.h"

// Checks UMF_GPU_MOCK_LEAKS with a leaking child role: `role` takes the mode
// and "leak" or "clean" as arguments, sets the variable before the driver
// starts, sends its stderr over the socket and returns 0. strict with leaks
// must exit 86 after a report that holds `marker`, report must report and
// exit 0, off and a clean run must stay silent. Returns the strict run's
// output for further checks (caller frees), or NULL.
static inline char *umf_test_check_leak_modes(const char *role,
                                              const char *marker) {
    static const struct {
        const char *mode, *what;
        int status;
        bool reported;
    } runs[] = {{"strict", "leak", 86, true},
                {"report", "leak", 0, true},
                {"off", "leak", 0, false},
                {"strict", "clean", 0, false}};
    char *strict = NULL;
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        const char *args[] = {runs[i].mode, runs[i].what, NULL};
        char *text;
        UMF_EXPECT_EQ(umf_test_child_output(role, args, &text), runs[i].status);
        if (text == NULL) {
            umf_c_test_fail(__FILE__, __LINE__, "no output from %s", role);
            continue;
        }
        UMF_EXPECT_EQ(strstr(text, marker) != NULL, runs[i].reported);
        UMF_EXPECT_EQ(strstr(text, "exiting with status") != NULL,
                      runs[i].status == 86);
        if (i == 0) {
            strict = text;
        } else {
            free(text);
        }
    }
    return strict;
}

#endif // UMF_GPU_TEST_MOCK_CHILD_OUTPUT_H
