// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ze_loader.h"

#include <stdlib.h>

#include "log.h"
#include "utils_common.h"
#include "utils_dl.h"
#include "ze_result.h"

static umf_ze_loader_t table;
static umf_result_t load_result = UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
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
    void *lib = umf_dl_open(path);
    if (lib == NULL) {
        UMF_LOG_ERROR("Level Zero is unavailable: cannot load the loader %s "
                      "(set %s to its path)",
                      path, UMF_ZE_LOADER_ENV);
        return;
    }
    if (umf_dl_resolve(lib, path, symbols, UMF_ARRAY_SIZE(symbols)) !=
        UMF_RESULT_SUCCESS) {
        goto err_close;
    }
    // Calling it again after the application did is harmless.
    ze_result_t res = table.zeInit(0);
    if (res != ZE_RESULT_SUCCESS) {
        char what[160];
        umf_ze_result_describe(res, what, sizeof(what));
        UMF_LOG_ERROR("Level Zero is unavailable: zeInit(0) failed: %s", what);
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
