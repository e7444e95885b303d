// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one table that maps the core's results to ze_result_t; a failure
// becomes the thread's last-error description.

#include "ze_mock_internal.h"

static ze_result_t map(umf_mock_status_t status) {
    switch (status) {
    case UMF_MOCK_OK:
        return ZE_RESULT_SUCCESS;
    case UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY:
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    case UMF_MOCK_ERR_OUT_OF_HOST_MEMORY:
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    case UMF_MOCK_ERR_UNSUPPORTED_SIZE:
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    case UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT:
        return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    case UMF_MOCK_ERR_NOT_SUPPORTED:
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    case UMF_MOCK_ERR_PERMISSION:
        return ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;
    case UMF_MOCK_ERR_NOT_INITIALIZED:
        return ZE_RESULT_ERROR_UNINITIALIZED;
    case UMF_MOCK_ERR_INVALID_ARGUMENT:
    case UMF_MOCK_ERR_NOT_FOUND:
    case UMF_MOCK_ERR_NOT_BASE:
    case UMF_MOCK_ERR_WRONG_KIND:
    case UMF_MOCK_ERR_WRONG_OWNER:
    case UMF_MOCK_ERR_STALE_HANDLE:
    case UMF_MOCK_ERR_ALREADY_MAPPED:
    case UMF_MOCK_ERR_NO_PROCESS:
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case UMF_MOCK_ERR_BUSY: // "resource in use": a retry may work
        return ZE_RESULT_ERROR_NOT_AVAILABLE;
    case UMF_MOCK_ERR_OS:
        break;
    }
    return ZE_RESULT_ERROR_UNKNOWN;
}

ze_result_t ze_mock_result(umf_mock_status_t status) {
    ze_result_t r = map(status);
    return r == ZE_RESULT_SUCCESS ? r : ZE_MOCK_FAIL(r);
}
