// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For tests of the emulated drivers: run a child role (test_child.h) that
// sends its stderr to the parent over the socket (dup2(sock, 2)), and read
// all of it, e.g. a leak report or a configuration error. Header-only, for
// the core's and the drivers' suites alike.

#ifndef UMF_GPU_TEST_MOCK_CHILD_OUTPUT_H
#define UMF_GPU_TEST_MOCK_CHILD_OUTPUT_H 1

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "test_child.h"

// Everything readable from `fd` until its end, NUL-terminated; the caller
// frees. NULL when out of memory.
static inline char *umf_test_read_all(int fd) {
    size_t cap = 4096, len = 0;
    char *buf = (char *)malloc(cap);
    while (buf != NULL) {
        if (len + 1 == cap) {
            char *bigger = (char *)realloc(buf, cap * 2);
            if (bigger == NULL) {
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n <= 0) {
            break;
        }
        len += (size_t)n;
    }
    if (buf != NULL) {
        buf[len] = '\0';
    }
    return buf;
}

// Runs child role `role` with `args` (NULL-terminated, may be NULL), stores
// what it sent until it ended in *output (caller frees; may be NULL) and
// returns its exit status as umf_test_child_wait() does; -1 if it could not
// start.
static inline int umf_test_child_output(const char *role,
                                        const char *const *args,
                                        char **output) {
    umf_test_child_t child;
    *output = NULL;
    if (umf_test_child_start(&child, role, args) != 0) {
        return -1;
    }
    *output = umf_test_read_all(child.sock);
    return umf_test_child_wait(&child);
}

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
