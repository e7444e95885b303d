// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A smoke check of an installed or freshly built umf-gpu: it reports which
// providers the library was built with and exits non-zero if the core API
// does not behave. The README's first command runs it until the demo
// exists.

#include <stdio.h>

#include <umf/memory_provider.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

int main(void) {
    int failures = 0;
    umf_memory_provider_handle_t h = NULL;
    if (umfMemoryProviderCreate(NULL, NULL, &h) !=
        UMF_RESULT_ERROR_INVALID_ARGUMENT) {
        fprintf(stderr, "core: a NULL ops table was not rejected\n");
        failures++;
    }
    printf("umf-gpu core: %s\n", failures ? "FAILED" : "ok");
    printf("Level Zero provider: %s\n",
           umfLevelZeroMemoryProviderOps() ? "built in" : "not available");
    printf("CUDA provider: %s\n",
           umfCUDAMemoryProviderOps() ? "built in" : "not available");
    return failures ? 1 : 0;
}
