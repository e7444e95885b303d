// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "abi_drivers.h"

#include <stdio.h>

#include "driver_open.h"

#define FN(name) __typeof__(&name) name
#define SYM(table, name)                                                       \
    { #name, (void **)&table.name }
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int abi_ze_open(abi_ze_t *out, char *why, size_t why_len) {
    struct {
        FN(zeInit);
        FN(zeDriverGet);
        FN(zeDeviceGet);
        FN(zeContextCreate);
        FN(zeContextDestroy);
    } ze;
    const driver_symbol_t symbols[] = {
        SYM(ze, zeInit),           SYM(ze, zeDriverGet),
        SYM(ze, zeDeviceGet),      SYM(ze, zeContextCreate),
        SYM(ze, zeContextDestroy),
    };
    const char *path;
    if (driver_open("UMF_GPU_ZE_LOADER", "libze_loader.so.1",
                    "the Level Zero loader", symbols, COUNT(symbols), &path,
                    why, why_len) == NULL) {
        return -1;
    }
    uint32_t count = 1;
    ze_driver_handle_t driver;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (ze.zeInit(0) != ZE_RESULT_SUCCESS ||
        ze.zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS || count == 0 ||
        ze.zeDeviceGet(driver, &count, &out->device) != ZE_RESULT_SUCCESS ||
        count == 0 ||
        ze.zeContextCreate(driver, &desc, &out->context) != ZE_RESULT_SUCCESS) {
        snprintf(why, why_len, "%s: no driver, device or context", path);
        return -1;
    }
    out->destroy = ze.zeContextDestroy;
    return 0;
}

void abi_ze_close(abi_ze_t *ze) {
    if (ze->context != NULL) {
        (void)ze->destroy(ze->context);
        ze->context = NULL;
    }
}

int abi_cuda_open(abi_cuda_t *out, char *why, size_t why_len) {
    struct {
        FN(cuInit);
        FN(cuDeviceGet);
        FN(cuDevicePrimaryCtxRetain);
        FN(cuDevicePrimaryCtxRelease_v2);
    } cu;
    const driver_symbol_t symbols[] = {
        SYM(cu, cuInit),
        SYM(cu, cuDeviceGet),
        SYM(cu, cuDevicePrimaryCtxRetain),
        SYM(cu, cuDevicePrimaryCtxRelease_v2),
    };
    const char *path;
    if (driver_open("UMF_GPU_CUDA_LIB", "libcuda.so.1", "the CUDA driver",
                    symbols, COUNT(symbols), &path, why, why_len) == NULL) {
        return -1;
    }
    if (cu.cuInit(0) != CUDA_SUCCESS ||
        cu.cuDeviceGet(&out->device, 0) != CUDA_SUCCESS ||
        cu.cuDevicePrimaryCtxRetain(&out->context, out->device) !=
            CUDA_SUCCESS) {
        snprintf(why, why_len, "%s: no device or context", path);
        return -1;
    }
    out->release = cu.cuDevicePrimaryCtxRelease_v2;
    return 0;
}

void abi_cuda_close(abi_cuda_t *cu) {
    if (cu->context != NULL) {
        (void)cu->release(cu->device);
        cu->context = NULL;
    }
}
