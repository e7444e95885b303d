// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Level Zero results as the library reports them: the one table that names
// each ze_result_t, describes it, and maps it to a umf_result_t.
//
// Mapping: host memory exhaustion is UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
// device memory exhaustion (ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY) is
// UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, told apart by its native code;
// invalid arguments, sizes and handles are UMF_RESULT_ERROR_INVALID_ARGUMENT;
// an unsupported alignment is UMF_RESULT_ERROR_INVALID_ALIGNMENT; unsupported
// features and versions are UMF_RESULT_ERROR_NOT_SUPPORTED; a driver that is
// not initialised or lacks the entry point (ZE_RESULT_ERROR_UNINITIALIZED)
// or a dependency is UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE; everything
// else, and any code the table does not know, is
// UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC.

#ifndef UMF_GPU_ZE_RESULT_H
#define UMF_GPU_ZE_RESULT_H 1

#include <stddef.h>

#include <level_zero/ze_api.h>

#include <umf/base.h>

// The umf_result_t for `res`; ZE_RESULT_SUCCESS maps to UMF_RESULT_SUCCESS.
umf_result_t umf_ze_result_to_umf(ze_result_t res);

// The result's name ("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"), or NULL for a
// code the table does not know.
const char *umf_ze_result_name(ze_result_t res);

// Writes "NAME (description)" for `res` into buf, or "ze_result_t 0x..." for
// an unknown code; always NUL-terminated when len > 0.
void umf_ze_result_describe(ze_result_t res, char *buf, size_t len);

#endif // UMF_GPU_ZE_RESULT_H
