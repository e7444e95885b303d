// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Loading libcuda and resolving its entry points, once per process.

#include "cuda_driver.h"

#include <stdlib.h>

#include "util_common.h"
#include "util_dl.h"
#include "util_umf_log.h"

static umf_cuda_driver_t driver;
static umf_once_t driver_once = UMF_ONCE_INIT;
// The outcome of the first load; written once under driver_once, so every
// caller of umf_cuda_driver_get() reads it after umf_once() returned.
static umf_result_t driver_result = UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
// Why not, after a failed load; written once, under driver_once.
static umf_dl_load_error_t driver_error;
// Set (with release order) once the table is usable; read by
// umf_cuda_driver_loaded(), which must not wait on the once flag.
static int driver_ready;

#define REQUIRED(sym, field)                                                   \
    { sym, (void **)&driver.field, true }
#define OPTIONAL(sym, field)                                                   \
    { sym, (void **)&driver.field, false }
static const umf_dl_symbol_t symbols[] = {
    REQUIRED("cuInit", Init),
    REQUIRED("cuGetErrorName", GetErrorName),
    REQUIRED("cuGetErrorString", GetErrorString),
    REQUIRED("cuDeviceGetCount", DeviceGetCount),
    REQUIRED("cuCtxGetCurrent", CtxGetCurrent),
    REQUIRED("cuCtxSetCurrent", CtxSetCurrent),
    REQUIRED("cuCtxGetDevice", CtxGetDevice),
    REQUIRED("cuMemAlloc_v2", MemAlloc),
    REQUIRED("cuMemFree_v2", MemFree),
    REQUIRED("cuMemAllocHost_v2", MemAllocHost),
    REQUIRED("cuMemHostAlloc", MemHostAlloc),
    REQUIRED("cuMemFreeHost", MemFreeHost),
    REQUIRED("cuMemAllocManaged", MemAllocManaged),
    REQUIRED("cuMemGetAllocationGranularity", MemGetAllocationGranularity),
    REQUIRED("cuPointerGetAttribute", PointerGetAttribute),
    REQUIRED("cuIpcGetMemHandle", IpcGetMemHandle),
    REQUIRED("cuIpcOpenMemHandle_v2", IpcOpenMemHandle),
    REQUIRED("cuIpcCloseMemHandle", IpcCloseMemHandle),
    REQUIRED("cuDeviceGetAttribute", DeviceGetAttribute),
    OPTIONAL("cuMemCreate", MemCreate),
    OPTIONAL("cuMemRelease", MemRelease),
    OPTIONAL("cuMemAddressReserve", MemAddressReserve),
    OPTIONAL("cuMemAddressFree", MemAddressFree),
    OPTIONAL("cuMemMap", MemMap),
    OPTIONAL("cuMemUnmap", MemUnmap),
    OPTIONAL("cuMemSetAccess", MemSetAccess),
    OPTIONAL("cuMemRetainAllocationHandle", MemRetainAllocationHandle),
    OPTIONAL("cuMemExportToShareableHandle", MemExportToShareableHandle),
    OPTIONAL("cuMemImportFromShareableHandle", MemImportFromShareableHandle),
};

static void driver_load(void) {
    const char *path = getenv(UMF_CUDA_LIB_ENV);
    if (path == NULL || path[0] == '\0') {
        path = UMF_CUDA_LIB_DEFAULT;
    }
    // The library stays loaded for the life of the process: memory and
    // contexts it handed out may outlive every provider.
    char why[sizeof(driver_error.message) - 64];
    void *lib = umf_dl_open(path, why, sizeof(why));
    if (lib == NULL) {
        umf_dl_load_error_set(&driver_error, CUDA_ERROR_NOT_INITIALIZED,
                              "the CUDA provider needs the CUDA driver: %s "
                              "(set %s to its path)",
                              why, UMF_CUDA_LIB_ENV);
        return;
    }
    if (umf_dl_resolve(lib, path, symbols, UMF_ARRAY_SIZE(symbols), why,
                       sizeof(why)) != UMF_RESULT_SUCCESS) {
        umf_dl_load_error_set(&driver_error, CUDA_ERROR_NOT_INITIALIZED,
                              "the CUDA provider needs the CUDA driver: %s",
                              why);
        return;
    }
    CUresult res = driver.Init(0);
    if (res != CUDA_SUCCESS) {
        const char *name = NULL;
        if (driver.GetErrorName(res, &name) != CUDA_SUCCESS || name == NULL) {
            name = "an unknown CUresult";
        }
        umf_dl_load_error_set(&driver_error, (int32_t)res,
                              "the CUDA provider needs the CUDA driver: "
                              "cuInit(0) in %s failed: %s (%d)",
                              path, name, (int)res);
        return;
    }
    UMF_LOG_DEBUG("using the CUDA driver %s", path);
    driver_result = UMF_RESULT_SUCCESS;
    __atomic_store_n(&driver_ready, 1, __ATOMIC_RELEASE);
}

umf_result_t umf_cuda_driver_get(const umf_cuda_driver_t **out) {
    umf_once(&driver_once, driver_load);
    *out = driver_result == UMF_RESULT_SUCCESS ? &driver : NULL;
    return driver_result;
}

const umf_dl_load_error_t *umf_cuda_driver_error(void) {
    umf_once(&driver_once, driver_load);
    return driver_result == UMF_RESULT_SUCCESS ? NULL : &driver_error;
}

const umf_cuda_driver_t *umf_cuda_driver_loaded(void) {
    return __atomic_load_n(&driver_ready, __ATOMIC_ACQUIRE) ? &driver : NULL;
}

// The OPTIONAL rows are the VMM entry points.
bool umf_cuda_driver_has_vmm(const char **missing) {
    for (size_t i = 0; i < UMF_ARRAY_SIZE(symbols); i++) {
        if (!symbols[i].required && *symbols[i].slot == NULL) {
            *missing = symbols[i].name;
            return false;
        }
    }
    return true;
}
