// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "fuzz_target.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void fuzz_fail(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "fuzz invariant broken: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    abort();
}

// The build's drivers and quiet logs, unless the environment says else.
static void set_defaults(void) {
#ifdef UMF_FUZZ_ZE_DRIVER
    setenv("ZE_ENABLE_ALT_DRIVERS", UMF_FUZZ_ZE_DRIVER, 0);
#endif
#ifdef UMF_FUZZ_CUDA_DRIVER
    setenv("UMF_GPU_CUDA_LIB", UMF_FUZZ_CUDA_DRIVER, 0);
#endif
    setenv("UMF_GPU_LOG", "off", 0);
    setenv("UMF_GPU_MOCK_LOG", "off", 0);
}

static fuzz_target_t targets[UMF_TEST_GPU_KIND_COUNT];
static bool made[UMF_TEST_GPU_KIND_COUNT];

const fuzz_target_t *fuzz_target(umf_test_gpu_kind_t kind) {
    fuzz_target_t *e = &targets[kind];
    if (made[kind]) {
        return e;
    }
    set_defaults();
    e->gpu = umf_test_gpu(kind);
    e->kind = kind;
    e->name = e->gpu->name;
    if (e->gpu->why != NULL) {
        fuzz_fail("%s is unavailable: %s", e->gpu->title, e->gpu->why);
    }
    if (!e->gpu->emulated) {
        fuzz_fail("the %s driver is not the emulated one", e->gpu->title);
    }
    if (umf_test_gpu_provider(e->gpu, NULL, &e->provider) !=
        UMF_RESULT_SUCCESS) {
        fuzz_fail("cannot make a %s provider", e->gpu->title);
    }
    made[kind] = true;
    return e;
}
