// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Modules: the emulated driver runs no kernels, so no module is ever made.
// zeModuleCreate checks its arguments as the spec says, then fails with
// ZE_RESULT_ERROR_MODULE_BUILD_FAILURE for SPIR-V (ZE_RESULT_ERROR_
// INVALID_NATIVE_BINARY for a native binary: no native format is
// supported, see zeDeviceGetModuleProperties), and hands out a build log
// that says why. With no module, the module's other entry points and the
// kernels' stay empty in their tables (the loader answers
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE); the build log's are here.

#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

static const char build_log_text[] =
    "umf-gpu emulated Level Zero driver: no kernels run on the emulated "
    "devices, so no module can be built (see the README of umf-gpu)";

typedef struct build_log_t {
    ze_mock_object_t obj;
    const char *text;
} build_log_t;

static ze_result_t ZE_APICALL
mock_ModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                  const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                  ze_module_build_log_handle_t *phBuildLog) {
    ZE_MOCK_ENTER(zeModuleCreate);
    ze_mock_context_t *ctx = ze_mock_context(hContext);
    if (ctx == NULL || ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (desc == NULL || desc->pInputModule == NULL || phModule == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->format > ZE_MODULE_FORMAT_NATIVE) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->inputSize == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    *phModule = NULL;
    if (phBuildLog != NULL) {
        build_log_t *log = ze_mock_object_new(sizeof(build_log_t),
                                              ZE_MOCK_MAGIC_BUILD_LOG, ctx);
        if (log != NULL) {
            log->text = build_log_text;
            if (!ze_mock_object_publish(log, ZE_MOCK_OBJ_BUILD_LOG)) {
                free(log);
                log = NULL;
            }
        }
        *phBuildLog = (ze_module_build_log_handle_t)log;
    }
    ZE_MOCK_EXPLAIN("%s", build_log_text);
    return ZE_MOCK_FAIL(desc->format == ZE_MODULE_FORMAT_NATIVE
                            ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                            : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
}

void ze_mock_fill_module(ze_module_dditable_t *t) {
    t->pfnCreate = mock_ModuleCreate;
}

static ze_result_t ZE_APICALL
mock_ModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog) {
    ZE_MOCK_ENTER(zeModuleBuildLogDestroy);
    if (!ze_mock_object_drop(hModuleBuildLog, ZE_MOCK_OBJ_BUILD_LOG)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_mock_build_log_release(hModuleBuildLog);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_ModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog,
                             size_t *pSize, char *pBuildLog) {
    ZE_MOCK_ENTER(zeModuleBuildLogGetString);
    build_log_t *log = (build_log_t *)hModuleBuildLog;
    if (log == NULL || log->obj.magic != ZE_MOCK_MAGIC_BUILD_LOG) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (pSize == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    size_t need = strlen(log->text) + 1;
    if (pBuildLog == NULL) {
        *pSize = need;
        return ZE_RESULT_SUCCESS;
    }
    // As much as the caller's buffer holds, always terminated.
    size_t n = *pSize < need ? *pSize : need;
    if (n > 0) {
        memcpy(pBuildLog, log->text, n - 1);
        pBuildLog[n - 1] = '\0';
    }
    return ZE_RESULT_SUCCESS;
}

void ze_mock_build_log_release(void *obj) {
    free(obj);
}

void ze_mock_fill_module_build_log(ze_module_build_log_dditable_t *t) {
    t->pfnDestroy = mock_ModuleBuildLogDestroy;
    t->pfnGetString = mock_ModuleBuildLogGetString;
}
