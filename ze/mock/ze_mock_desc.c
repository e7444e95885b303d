// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver's description for the core: its entry points and result names
// (call counts and fault rules) and the kinds of object it tracks.

#include "ze_mock_engine.h"
#include "ze_mock_internal.h"

static const char *const entry_names[ZE_MOCK_ENTRY_COUNT] = {
#define ZE_MOCK_NAME(name) #name,
    ZE_MOCK_ENTRIES(ZE_MOCK_NAME) ZE_MOCK_ENTRIES_NEWER(ZE_MOCK_NAME)
#undef ZE_MOCK_NAME
};

#define ZE_MOCK_RESULT(name) {#name, (int64_t)name},

// Every ze_result_t of the headers the driver is built with.
static const umf_mock_name_value_t result_names[] = {
    ZE_MOCK_RESULT(ZE_RESULT_SUCCESS) ZE_MOCK_RESULT(ZE_RESULT_NOT_READY) ZE_MOCK_RESULT(
        ZE_RESULT_ERROR_DEVICE_LOST) ZE_MOCK_RESULT(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        ZE_MOCK_RESULT(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY) ZE_MOCK_RESULT(
            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) ZE_MOCK_RESULT(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
            ZE_MOCK_RESULT(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET) ZE_MOCK_RESULT(
                ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE) ZE_MOCK_RESULT(ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX)
                ZE_MOCK_RESULT(ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE) ZE_MOCK_RESULT(
                    ZE_RESULT_EXP_ERROR_REMOTE_DEVICE) ZE_MOCK_RESULT(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
                    ZE_MOCK_RESULT(ZE_RESULT_ERROR_NOT_AVAILABLE) ZE_MOCK_RESULT(
                        ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE) ZE_MOCK_RESULT(ZE_RESULT_WARNING_DROPPED_DATA)
                        ZE_MOCK_RESULT(ZE_RESULT_ERROR_UNINITIALIZED) ZE_MOCK_RESULT(
                            ZE_RESULT_ERROR_UNSUPPORTED_VERSION) ZE_MOCK_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
                            ZE_MOCK_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT) ZE_MOCK_RESULT(
                                ZE_RESULT_ERROR_INVALID_NULL_HANDLE) ZE_MOCK_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
                                ZE_MOCK_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER) ZE_MOCK_RESULT(
                                    ZE_RESULT_ERROR_INVALID_SIZE) ZE_MOCK_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
                                    ZE_MOCK_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT) ZE_MOCK_RESULT(
                                        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
                                        ZE_MOCK_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION) ZE_MOCK_RESULT(
                                            ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
                                            ZE_MOCK_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT) ZE_MOCK_RESULT(
                                                ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
                                                ZE_MOCK_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME) ZE_MOCK_RESULT(
                                                    ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
                                                    ZE_MOCK_RESULT(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME) ZE_MOCK_RESULT(
                                                        ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
                                                        ZE_MOCK_RESULT(
                                                            ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
                                                            ZE_MOCK_RESULT(
                                                                ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
                                                                ZE_MOCK_RESULT(
                                                                    ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
                                                                    ZE_MOCK_RESULT(
                                                                        ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
                                                                        ZE_MOCK_RESULT(
                                                                            ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
                                                                            ZE_MOCK_RESULT(
                                                                                ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
                                                                                ZE_MOCK_RESULT(
                                                                                    ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
                                                                                    ZE_MOCK_RESULT(
                                                                                        ZE_RESULT_WARNING_ACTION_REQUIRED)
                                                                                        ZE_MOCK_RESULT(
                                                                                            ZE_RESULT_ERROR_UNKNOWN)};

static const char *const object_kinds[ZE_MOCK_OBJ_KIND_COUNT] = {
    [ZE_MOCK_OBJ_CONTEXT] = "context",
    [ZE_MOCK_OBJ_COMMAND_QUEUE] = "command queue",
    [ZE_MOCK_OBJ_COMMAND_LIST] = "command list",
    [ZE_MOCK_OBJ_EVENT_POOL] = "event pool",
    [ZE_MOCK_OBJ_EVENT] = "event",
    [ZE_MOCK_OBJ_FENCE] = "fence",
    [ZE_MOCK_OBJ_IMPORTED_EVENT_POOL] = "event pool opened from an IPC handle",
    [ZE_MOCK_OBJ_BUILD_LOG] = "module build log",
    [ZE_MOCK_OBJ_MODULE] = "module",
    [ZE_MOCK_OBJ_KERNEL] = "kernel",
};

const char umf_mock_log_name[] = "ze-mock";

const umf_mock_driver_desc_t ze_mock_desc = {
    .name = umf_mock_log_name,
    .faults =
        {
            .prefix = "ze",
            .entries = entry_names,
            .entry_count = ZE_MOCK_ENTRY_COUNT,
            .results = result_names,
            .result_count = sizeof(result_names) / sizeof(result_names[0]),
        },
    .object_kinds = object_kinds,
    .object_kind_count = ZE_MOCK_OBJ_KIND_COUNT,
    .unload = ze_mock_engine_unload,
};
