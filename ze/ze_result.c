// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ze_result.h"

#include <stdio.h>

#include "util_common.h"

typedef struct result_info_t {
    ze_result_t code;
    const char *name;
    const char *description;
    umf_result_t umf;
} result_info_t;

#define R(code, text, umf)                                                     \
    { code, #code, text, UMF_RESULT_##umf }

// Every ze_result_t of the Level Zero 1.4 headers, in their order.
static const result_info_t results[] = {
    R(ZE_RESULT_SUCCESS, "success", SUCCESS),
    R(ZE_RESULT_NOT_READY, "synchronization primitive not signaled",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_DEVICE_LOST,
      "device hung, reset, was removed, or the driver was updated",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "host memory ran out",
      ERROR_OUT_OF_HOST_MEMORY),
    R(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
      "device memory ran out: insufficient device memory",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, "module build failed",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, "module link failed",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET, "device requires a reset",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE,
      "device is in a low power state", ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX,
      "device is not represented by a fabric vertex",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE,
      "fabric vertex does not represent a device",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_EXP_ERROR_REMOTE_DEVICE,
      "fabric vertex represents a remote device or subdevice",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS,
      "access denied by permission level", ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_NOT_AVAILABLE, "resource in use or removed",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE,
      "a required external dependency is missing",
      ERROR_DEPENDENCY_UNAVAILABLE),
    R(ZE_RESULT_WARNING_DROPPED_DATA, "data may have been dropped",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_UNINITIALIZED,
      "driver not initialized, or it lacks the entry point",
      ERROR_DEPENDENCY_UNAVAILABLE),
    R(ZE_RESULT_ERROR_UNSUPPORTED_VERSION, "unsupported version",
      ERROR_NOT_SUPPORTED),
    R(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "unsupported feature",
      ERROR_NOT_SUPPORTED),
    R(ZE_RESULT_ERROR_INVALID_ARGUMENT, "invalid argument",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, "invalid or NULL handle",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
      "the object is still in use by the device",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_INVALID_NULL_POINTER, "NULL pointer argument",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_SIZE, "invalid size (e.g. zero)",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
      "size not supported by the device (e.g. too large)",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
      "alignment not supported by the device", ERROR_INVALID_ALIGNMENT),
    R(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT,
      "synchronization object in an invalid state",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_INVALID_ENUMERATION, "invalid enumerator argument",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
      "enumerator not supported by the device", ERROR_NOT_SUPPORTED),
    R(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
      "image format not supported by the device", ERROR_NOT_SUPPORTED),
    R(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
      "native binary not supported by the device", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, "global variable not found",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, "kernel not found",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, "function not found",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
      "invalid group size dimension", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION,
      "invalid global width dimension", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
      "invalid kernel argument index", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
      "invalid kernel argument size", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE,
      "invalid kernel attribute value", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED,
      "module with imports is not linked", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
      "command list type does not match the queue", ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "copy regions overlap",
      ERROR_INVALID_ARGUMENT),
    R(ZE_RESULT_WARNING_ACTION_REQUIRED, "an action is required",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
    R(ZE_RESULT_ERROR_UNKNOWN, "unknown or internal error",
      ERROR_MEMORY_PROVIDER_SPECIFIC),
};

static const result_info_t *find(ze_result_t res) {
    for (size_t i = 0; i < UMF_ARRAY_SIZE(results); i++) {
        if (results[i].code == res) {
            return &results[i];
        }
    }
    return NULL;
}

umf_result_t umf_ze_result_to_umf(ze_result_t res) {
    if (UMF_LIKELY(res == ZE_RESULT_SUCCESS)) {
        return UMF_RESULT_SUCCESS;
    }
    const result_info_t *info = find(res);
    return info ? info->umf : UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
}

const char *umf_ze_result_name(ze_result_t res) {
    const result_info_t *info = find(res);
    return info ? info->name : NULL;
}

void umf_ze_result_describe(ze_result_t res, char *buf, size_t len) {
    if (buf == NULL || len == 0) {
        return;
    }
    const result_info_t *info = find(res);
    if (info != NULL) {
        snprintf(buf, len, "%s (%s)", info->name, info->description);
    } else {
        snprintf(buf, len, "ze_result_t 0x%x (not a known result)",
                 (unsigned)res);
    }
}
