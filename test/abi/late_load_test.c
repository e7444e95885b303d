// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// late_load_test ORDER MODE FILLER LIBUMF_GPU: loads everything late, as a
// SYCL or OpenMP runtime (dlopen) or a Python program (ctypes) does. This
// program links none of it. It dlopen()s FILLER (512 bytes of initial-exec
// TLS, as other late-loaded libraries hold), then LIBUMF_GPU with
// RTLD_LOCAL (MODE "local") or RTLD_LOCAL | RTLD_DEEPBIND ("deepbind"),
// then creates a Level Zero and a CUDA provider in ORDER ("ze-cuda" or
// "cuda-ze") and allocates and frees through each, so that each driver is
// loaded late too (the emulated ones unless the environment names others).
// Exit status 0 when all of it worked; otherwise the step that failed, with
// dlerror's words or the native error, is on stderr.

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <level_zero/ze_api.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

#include "abi_drivers.h"
#include "driver_open.h"

#define FN(name) __typeof__(&name) name

// The library's API, from dlsym: what a ctypes program would resolve.
static struct {
    FN(umfMemoryProviderCreate);
    FN(umfMemoryProviderDestroy);
    FN(umfMemoryProviderAlloc);
    FN(umfMemoryProviderFree);
    FN(umfMemoryProviderGetLastNativeError);
    FN(umfGpuMemoryProviderOpsGetLastNativeError);
    FN(umfLevelZeroMemoryProviderOps);
    FN(umfLevelZeroMemoryProviderParamsCreate);
    FN(umfLevelZeroMemoryProviderParamsSetContext);
    FN(umfLevelZeroMemoryProviderParamsSetDevice);
    FN(umfLevelZeroMemoryProviderParamsDestroy);
    FN(umfCUDAMemoryProviderOps);
    FN(umfCUDAMemoryProviderParamsCreate);
    FN(umfCUDAMemoryProviderParamsSetContext);
    FN(umfCUDAMemoryProviderParamsSetDevice);
    FN(umfCUDAMemoryProviderParamsDestroy);
} umf;

#define SYM(table, name)                                                       \
    { #name, (void **)&table.name }

static int fail(const char *step, const char *why) {
    fprintf(stderr, "late_load_test: %s: %s\n", step, why);
    return 1;
}

static int fail_umf(const char *step, umf_result_t res,
                    const umf_memory_provider_ops_t *ops) {
    const char *message = "";
    int32_t code = 0;
    if (ops != NULL) {
        (void)umf.umfGpuMemoryProviderOpsGetLastNativeError(ops, &message,
                                                            &code);
    }
    fprintf(stderr, "late_load_test: %s: umf_result_t %d (native %d: %s)\n",
            step, (int)res, (int)code, message);
    return 1;
}

// Allocates, frees and destroys: the provider works.
static int use_provider(const char *kind, const umf_memory_provider_ops_t *ops,
                        void *params) {
    umf_memory_provider_handle_t h = NULL;
    umf_result_t res = umf.umfMemoryProviderCreate(ops, params, &h);
    if (res != UMF_RESULT_SUCCESS) {
        return fail_umf(kind, res, ops);
    }
    void *p = NULL;
    res = umf.umfMemoryProviderAlloc(h, 4096, 0, &p);
    if (res == UMF_RESULT_SUCCESS && p == NULL) {
        res = UMF_RESULT_ERROR_UNKNOWN;
    }
    if (res == UMF_RESULT_SUCCESS) {
        res = umf.umfMemoryProviderFree(h, p, 4096);
    }
    int rc = res == UMF_RESULT_SUCCESS ? 0 : fail_umf(kind, res, ops);
    umf.umfMemoryProviderDestroy(h);
    if (rc == 0) {
        printf("late_load_test: %s provider: allocated and freed 4096 bytes\n",
               kind);
    }
    return rc;
}

static int level_zero(void) {
    abi_ze_t ze = {0};
    char why[512];
    if (abi_ze_open(&ze, why, sizeof(why)) != 0) {
        return fail("Level Zero", why);
    }
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umf.umfLevelZeroMemoryProviderParamsCreate(&params);
    if (res == UMF_RESULT_SUCCESS) {
        res =
            umf.umfLevelZeroMemoryProviderParamsSetContext(params, ze.context);
    }
    if (res == UMF_RESULT_SUCCESS) {
        res = umf.umfLevelZeroMemoryProviderParamsSetDevice(params, ze.device);
    }
    int rc = res != UMF_RESULT_SUCCESS
                 ? fail_umf("Level Zero params", res, NULL)
                 : use_provider("Level Zero",
                                umf.umfLevelZeroMemoryProviderOps(), params);
    umf.umfLevelZeroMemoryProviderParamsDestroy(params);
    abi_ze_close(&ze);
    return rc;
}

static int cuda(void) {
    // The library loads the CUDA driver first (params create); the program
    // then takes the same instance for a context.
    umf_cuda_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umf.umfCUDAMemoryProviderParamsCreate(&params);
    if (res != UMF_RESULT_SUCCESS) {
        return fail_umf("CUDA params", res, umf.umfCUDAMemoryProviderOps());
    }
    abi_cuda_t cu = {0};
    char why[512];
    if (abi_cuda_open(&cu, why, sizeof(why)) != 0) {
        umf.umfCUDAMemoryProviderParamsDestroy(params);
        return fail("CUDA", why);
    }
    res = umf.umfCUDAMemoryProviderParamsSetContext(params, cu.context);
    if (res == UMF_RESULT_SUCCESS) {
        res = umf.umfCUDAMemoryProviderParamsSetDevice(params, cu.device);
    }
    int rc = res != UMF_RESULT_SUCCESS
                 ? fail_umf("CUDA params", res, NULL)
                 : use_provider("CUDA", umf.umfCUDAMemoryProviderOps(), params);
    umf.umfCUDAMemoryProviderParamsDestroy(params);
    abi_cuda_close(&cu);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 5 ||
        (strcmp(argv[1], "ze-cuda") != 0 && strcmp(argv[1], "cuda-ze") != 0) ||
        (strcmp(argv[2], "local") != 0 && strcmp(argv[2], "deepbind") != 0)) {
        fprintf(stderr,
                "usage: %s ze-cuda|cuda-ze local|deepbind FILLER LIBUMF_GPU\n",
                argv[0]);
        return 2;
    }
    void *filler = dlopen(argv[3], RTLD_NOW | RTLD_LOCAL);
    if (filler == NULL) {
        return fail("the filler library", dlerror());
    }
    int (*touch)(void) =
        (int (*)(void))(uintptr_t)dlsym(filler, "umf_test_tls_filler_touch");
    if (touch == NULL || touch() != 512) {
        return fail("the filler library", "its TLS is not usable");
    }
    int mode = RTLD_NOW | RTLD_LOCAL;
    if (strcmp(argv[2], "deepbind") == 0) {
        mode |= RTLD_DEEPBIND;
    }
    void *lib = dlopen(argv[4], mode);
    if (lib == NULL) {
        return fail(argv[4], dlerror());
    }
    const driver_symbol_t api[] = {
        SYM(umf, umfMemoryProviderCreate),
        SYM(umf, umfMemoryProviderDestroy),
        SYM(umf, umfMemoryProviderAlloc),
        SYM(umf, umfMemoryProviderFree),
        SYM(umf, umfMemoryProviderGetLastNativeError),
        SYM(umf, umfGpuMemoryProviderOpsGetLastNativeError),
        SYM(umf, umfLevelZeroMemoryProviderOps),
        SYM(umf, umfLevelZeroMemoryProviderParamsCreate),
        SYM(umf, umfLevelZeroMemoryProviderParamsSetContext),
        SYM(umf, umfLevelZeroMemoryProviderParamsSetDevice),
        SYM(umf, umfLevelZeroMemoryProviderParamsDestroy),
        SYM(umf, umfCUDAMemoryProviderOps),
        SYM(umf, umfCUDAMemoryProviderParamsCreate),
        SYM(umf, umfCUDAMemoryProviderParamsSetContext),
        SYM(umf, umfCUDAMemoryProviderParamsSetDevice),
        SYM(umf, umfCUDAMemoryProviderParamsDestroy),
    };
    for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
        *api[i].slot = dlsym(lib, api[i].name);
        if (*api[i].slot == NULL) {
            return fail(api[i].name, dlerror());
        }
    }
    printf("late_load_test: %s loaded (%s) after 512 bytes of initial-exec "
           "TLS\n",
           argv[4], argv[2]);
    int rc = strcmp(argv[1], "ze-cuda") == 0 ? level_zero() || cuda()
                                             : cuda() || level_zero();
    if (rc == 0) {
        printf("late_load_test: %s passed\n", argv[1]);
    }
    return rc;
}
