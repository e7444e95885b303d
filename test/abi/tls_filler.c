// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A library with 512 bytes of initial-exec TLS, as other late-loaded
// libraries have some: late_load_test dlopen()s it first, so that the
// libraries of umf-gpu must fit in what is left of glibc's static surplus.

#include <string.h>

// Fills the TLS and returns the sum of its bytes (512).
int umf_test_tls_filler_touch(void);

static _Thread_local char filler[512]
    __attribute__((tls_model("initial-exec")));

__attribute__((visibility("default"))) int umf_test_tls_filler_touch(void) {
    memset(filler, 1, sizeof(filler));
    int sum = 0;
    for (size_t i = 0; i < sizeof(filler); i++) {
        sum += filler[i];
    }
    return sum;
}
