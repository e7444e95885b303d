// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Module build logs: the text zeModuleCreate and zeModuleDynamicLink hand
// out (ze_mock_kernel.c), read and destroyed here, and released with their
// context when the application forgets them.

#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

typedef struct build_log_t {
    ze_mock_object_t obj;
    const char *text;
    char *owned; // the text when it was malloc'ed
} build_log_t;

ze_module_build_log_handle_t
ze_mock_build_log_new(ze_mock_context_t *ctx, const char *text, char *owned) {
    build_log_t *log =
        ze_mock_object_new(sizeof(build_log_t), ZE_MOCK_MAGIC_BUILD_LOG, ctx);
    if (log == NULL) {
        free(owned);
        return NULL;
    }
    log->text = text;
    log->owned = owned;
    if (!ze_mock_object_publish(log, ZE_MOCK_OBJ_BUILD_LOG)) {
        free(owned);
        free(log);
        return NULL;
    }
    return (ze_module_build_log_handle_t)log;
}

static void build_log_release(void *obj);

static ze_result_t ZE_APICALL
mock_ModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog) {
    ZE_MOCK_ENTER(zeModuleBuildLogDestroy);
    if (!ze_mock_object_drop(hModuleBuildLog, ZE_MOCK_OBJ_BUILD_LOG)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    build_log_release(hModuleBuildLog);
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

static void build_log_release(void *obj) {
    free(((build_log_t *)obj)->owned);
    free(obj);
}

void ze_mock_fill_module_build_log(ze_module_build_log_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_BUILD_LOG, build_log_release);
    t->pfnDestroy = mock_ModuleBuildLogDestroy;
    t->pfnGetString = mock_ModuleBuildLogGetString;
}
