// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ze_loader.h"

#include <stdlib.h>

#include "util_common.h"
#include "util_dl.h"
#include "util_umf_log.h"
#include "ze_result.h"

static umf_ze_loader_t table;
static umf_result_t load_result = UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
// Why not, after a failed load; written once, under load_once.
static umf_dl_load_error_t load_error;
static umf_once_t load_once = UMF_ONCE_INIT;

#define REQUIRED(name)                                                         \
    { #name, (void **)&table.name, true }
#define OPTIONAL(name)                                                         \
    { #name, (void **)&table.name, false }

static void load(void) {
    const umf_dl_symbol_t symbols[] = {
        REQUIRED(zeInit),
        REQUIRED(zeDeviceGetProperties),
        REQUIRED(zeMemAllocDevice),
        REQUIRED(zeMemAllocHost),
        REQUIRED(zeMemAllocShared),
        REQUIRED(zeMemFree),
        REQUIRED(zeMemGetAllocProperties),
        REQUIRED(zeMemGetAddressRange),
        REQUIRED(zeMemGetIpcHandle),
        REQUIRED(zeMemOpenIpcHandle),
        REQUIRED(zeMemCloseIpcHandle),
        REQUIRED(zeContextMakeMemoryResident),
        REQUIRED(zeContextEvictMemory),
        OPTIONAL(zeMemFreeExt),
        OPTIONAL(zeMemPutIpcHandle),
        OPTIONAL(zeDriverGetLastErrorDescription),
        OPTIONAL(zeDriverGet),
        OPTIONAL(zeDeviceGet),
        OPTIONAL(zeDeviceGetSubDevices),
        OPTIONAL(zeDeviceGetMemoryProperties),
        OPTIONAL(zeContextCreate),
        OPTIONAL(zeContextDestroy),
        OPTIONAL(zeCommandListCreateImmediate),
        OPTIONAL(zeCommandListAppendMemoryCopy),
        OPTIONAL(zeCommandListAppendMemoryFill),
        OPTIONAL(zeCommandListDestroy),
    };
    const char *path = getenv(UMF_ZE_LOADER_ENV);
    if (path == NULL || path[0] == '\0') {
        path = UMF_ZE_LOADER_DEFAULT;
    }
    char why[sizeof(load_error.message) - 64];
    void *lib = umf_dl_open(path, why, sizeof(why));
    if (lib == NULL) {
        umf_dl_load_error_set(&load_error,
                              ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE,
                              "Level Zero is unavailable: %s (set %s to the "
                              "loader's path)",
                              why, UMF_ZE_LOADER_ENV);
        return;
    }
    if (umf_dl_resolve(lib, path, symbols, UMF_ARRAY_SIZE(symbols), why,
                       sizeof(why)) != UMF_RESULT_SUCCESS) {
        umf_dl_load_error_set(&load_error,
                              ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE,
                              "Level Zero is unavailable: %s", why);
        goto err_close;
    }
    // Calling it again after the application did is harmless.
    ze_result_t res = table.zeInit(0);
    if (res != ZE_RESULT_SUCCESS) {
        char what[160];
        umf_ze_result_describe(res, what, sizeof(what));
        umf_dl_load_error_set(&load_error, (int32_t)res,
                              "Level Zero is unavailable: zeInit(0) of %s "
                              "failed: %s",
                              path, what);
        goto err_close;
    }
    if (table.zeDriverGetLastErrorDescription != NULL &&
        table.zeDriverGet != NULL) {
        uint32_t count = 1;
        if (table.zeDriverGet(&count, &table.error_driver) !=
                ZE_RESULT_SUCCESS ||
            count == 0) {
            table.error_driver = NULL;
        }
    }
    load_result = UMF_RESULT_SUCCESS;
    return;

err_close:
    table = (umf_ze_loader_t){0};
    umf_dl_close(lib);
}

umf_result_t umf_ze_loader_get(const umf_ze_loader_t **loader) {
    umf_once(&load_once, load);
    *loader = load_result == UMF_RESULT_SUCCESS ? &table : NULL;
    return load_result;
}

const umf_dl_load_error_t *umf_ze_loader_error(void) {
    umf_once(&load_once, load);
    return load_result == UMF_RESULT_SUCCESS ? NULL : &load_error;
}
