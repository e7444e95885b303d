// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Refused: ray tracing acceleration structures (ze_mock_refuse.h), the
// experimental tables of 1.7 and their 1.13 successors. No builder or
// parallel operation can be made, so none of their handles exists; the
// format check has no format of the device to compare. The one entry that
// needs no builder, zeRTASBuilderCommandListAppendCopyExt (1.13), is a
// memory copy, and is one here (zeCommandListAppendMemoryCopy).

#include <string.h>

#include "ze_mock_refuse.h"

static ze_result_t format_check(ze_driver_handle_t hDriver) {
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    return ze_mock_refuse(ZE_MOCK_FAMILY_RTAS,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL mock_DriverRTASFormatCompatibilityCheckExp(
    ze_driver_handle_t hDriver, ze_mock_rtas_format_t rtasFormatA,
    ze_mock_rtas_format_t rtasFormatB) {
    ZE_MOCK_ENTER(zeDriverRTASFormatCompatibilityCheckExp);
    (void)rtasFormatA, (void)rtasFormatB;
    return format_check(hDriver);
}

static ze_result_t ZE_APICALL mock_DriverRTASFormatCompatibilityCheckExt(
    ze_driver_handle_t hDriver, ze_mock_rtas_format_t rtasFormatA,
    ze_mock_rtas_format_t rtasFormatB) {
    ZE_MOCK_ENTER(zeDriverRTASFormatCompatibilityCheckExt);
    (void)rtasFormatA, (void)rtasFormatB;
    return format_check(hDriver);
}

void ze_mock_fill_driver_rtas(ze_mock_driver_dditable_t *t) {
    t->pfnRTASFormatCompatibilityCheckExt =
        mock_DriverRTASFormatCompatibilityCheckExt;
}

void ze_mock_fill_driver_exp(ze_mock_driver_exp_dditable_t *t) {
    t->pfnRTASFormatCompatibilityCheckExp =
        mock_DriverRTASFormatCompatibilityCheckExp;
}

// The driver, then the pointers of ze_api.h's clauses (all given or
// not); then no builder, no parallel operation.
static ze_result_t create(ze_driver_handle_t hDriver, bool pointers_given) {
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (!pointers_given) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    return ze_mock_refuse(ZE_MOCK_FAMILY_RTAS,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

#define BUILDER_ENTRIES(suffix)                                                \
    static ze_result_t ZE_APICALL mock_RTASBuilderCreate##suffix(              \
        ze_driver_handle_t hDriver, const void *pDescriptor,                   \
        ze_mock_rtas_builder_handle_t *phBuilder) {                            \
        ZE_MOCK_ENTER(zeRTASBuilderCreate##suffix);                            \
        return create(hDriver, pDescriptor != NULL && phBuilder != NULL);      \
    }                                                                          \
    ZE_MOCK_REFUSE_HANDLE(RTAS, "ray tracing builder",                         \
                          RTASBuilderGetBuildProperties##suffix,               \
                          ze_mock_rtas_builder_handle_t hBuilder,              \
                          const void *pBuildOpDescriptor, void *pProperties)   \
    ZE_MOCK_REFUSE_HANDLE(                                                     \
        RTAS, "ray tracing builder", RTASBuilderBuild##suffix,                 \
        ze_mock_rtas_builder_handle_t hBuilder,                                \
        const void *pBuildOpDescriptor, void *pScratchBuffer,                  \
        size_t scratchBufferSizeBytes, void *pRtasBuffer,                      \
        size_t rtasBufferSizeBytes,                                            \
        ze_mock_rtas_parallel_operation_handle_t hParallelOperation,           \
        void *pBuildUserPtr, void *pBounds, size_t *pRtasBufferSizeBytes)      \
    ZE_MOCK_REFUSE_HANDLE(RTAS, "ray tracing builder",                         \
                          RTASBuilderDestroy##suffix,                          \
                          ze_mock_rtas_builder_handle_t hBuilder)              \
    static ze_result_t ZE_APICALL mock_RTASParallelOperationCreate##suffix(    \
        ze_driver_handle_t hDriver,                                            \
        ze_mock_rtas_parallel_operation_handle_t *phParallelOperation) {       \
        ZE_MOCK_ENTER(zeRTASParallelOperationCreate##suffix);                  \
        return create(hDriver, phParallelOperation != NULL);                   \
    }                                                                          \
    ZE_MOCK_REFUSE_HANDLE(                                                     \
        RTAS, "ray tracing parallel operation",                                \
        RTASParallelOperationGetProperties##suffix,                            \
        ze_mock_rtas_parallel_operation_handle_t hParallelOperation,           \
        void *pProperties)                                                     \
    ZE_MOCK_REFUSE_HANDLE(                                                     \
        RTAS, "ray tracing parallel operation",                                \
        RTASParallelOperationJoin##suffix,                                     \
        ze_mock_rtas_parallel_operation_handle_t hParallelOperation)           \
    ZE_MOCK_REFUSE_HANDLE(                                                     \
        RTAS, "ray tracing parallel operation",                                \
        RTASParallelOperationDestroy##suffix,                                  \
        ze_mock_rtas_parallel_operation_handle_t hParallelOperation)

BUILDER_ENTRIES(Exp)
BUILDER_ENTRIES(Ext)

// A copy, as Intel's driver makes it: zeCommandListAppendMemoryCopy.
static ze_result_t ZE_APICALL mock_RTASBuilderCommandListAppendCopyExt(
    ze_command_list_handle_t hCommandList, void *dstptr, const void *srcptr,
    size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeRTASBuilderCommandListAppendCopyExt);
    ze_mock_command_list_dditable_t t;
    memset(&t, 0, sizeof(t));
    ze_mock_fill_command_list_append(&t); // ze_mock_append.c
    return t.v1_4.pfnAppendMemoryCopy(hCommandList, dstptr, srcptr, size,
                                      hSignalEvent, numWaitEvents,
                                      phWaitEvents);
}

void ze_mock_fill_rtas_builder_exp(ze_mock_rtas_builder_exp_dditable_t *t) {
    t->pfnCreateExp = mock_RTASBuilderCreateExp;
    t->pfnGetBuildPropertiesExp = mock_RTASBuilderGetBuildPropertiesExp;
    t->pfnBuildExp = mock_RTASBuilderBuildExp;
    t->pfnDestroyExp = mock_RTASBuilderDestroyExp;
}

void ze_mock_fill_rtas_builder(ze_mock_rtas_builder_dditable_t *t) {
    t->pfnCreateExt = mock_RTASBuilderCreateExt;
    t->pfnGetBuildPropertiesExt = mock_RTASBuilderGetBuildPropertiesExt;
    t->pfnBuildExt = mock_RTASBuilderBuildExt;
    t->pfnCommandListAppendCopyExt = mock_RTASBuilderCommandListAppendCopyExt;
    t->pfnDestroyExt = mock_RTASBuilderDestroyExt;
}

void ze_mock_fill_rtas_parallel_operation_exp(
    ze_mock_rtas_parallel_operation_dditable_t *t) {
    t->pfnCreate = mock_RTASParallelOperationCreateExp;
    t->pfnGetProperties = mock_RTASParallelOperationGetPropertiesExp;
    t->pfnJoin = mock_RTASParallelOperationJoinExp;
    t->pfnDestroy = mock_RTASParallelOperationDestroyExp;
}

void ze_mock_fill_rtas_parallel_operation(
    ze_mock_rtas_parallel_operation_dditable_t *t) {
    t->pfnCreate = mock_RTASParallelOperationCreateExt;
    t->pfnGetProperties = mock_RTASParallelOperationGetPropertiesExt;
    t->pfnJoin = mock_RTASParallelOperationJoinExt;
    t->pfnDestroy = mock_RTASParallelOperationDestroyExt;
}
