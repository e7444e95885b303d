// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUresult -> umf_result_t table. Rules: what the caller passed and the
// driver rejected is INVALID_ARGUMENT; a driver that cannot work at all is
// DEPENDENCY_UNAVAILABLE; an operation the driver or device lacks is
// NOT_SUPPORTED; exhausted system resources other than memory are
// OUT_OF_RESOURCES; everything else, device memory running out included,
// is MEMORY_PROVIDER_SPECIFIC, with the native code in the thread's native
// error.

#include "cuda_result.h"

#include <stdio.h>

#include "cuda_driver.h"
#include "util_common.h"

typedef struct result_row_t {
    CUresult code;
    const char *name;
    umf_result_t umf;
} result_row_t;

#define ROW(code, umf)                                                         \
    { code, #code, UMF_RESULT_##umf }

static const result_row_t rows[] = {
    ROW(CUDA_SUCCESS, SUCCESS),
    ROW(CUDA_ERROR_INVALID_VALUE, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_OUT_OF_MEMORY, ERROR_MEMORY_PROVIDER_SPECIFIC),
    ROW(CUDA_ERROR_NOT_INITIALIZED, ERROR_DEPENDENCY_UNAVAILABLE),
    ROW(CUDA_ERROR_DEINITIALIZED, ERROR_DEPENDENCY_UNAVAILABLE),
    ROW(CUDA_ERROR_STUB_LIBRARY, ERROR_DEPENDENCY_UNAVAILABLE),
    ROW(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, ERROR_DEPENDENCY_UNAVAILABLE),
    ROW(CUDA_ERROR_NO_DEVICE, ERROR_DEPENDENCY_UNAVAILABLE),
    ROW(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, ERROR_DEPENDENCY_UNAVAILABLE),
    ROW(CUDA_ERROR_INVALID_DEVICE, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_INVALID_CONTEXT, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_CONTEXT_IS_DESTROYED, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_INVALID_HANDLE, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_NOT_FOUND, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_NOT_MAPPED, ERROR_INVALID_ARGUMENT),
    ROW(CUDA_ERROR_NOT_SUPPORTED, ERROR_NOT_SUPPORTED),
    ROW(CUDA_ERROR_NOT_PERMITTED, ERROR_NOT_SUPPORTED),
    ROW(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, ERROR_NOT_SUPPORTED),
    ROW(CUDA_ERROR_TOO_MANY_PEERS, ERROR_OUT_OF_RESOURCES),
    // The emulated libcuda's fd server was too busy to answer an IPC open.
    ROW(CUDA_ERROR_TIMEOUT, ERROR_OUT_OF_RESOURCES),
    ROW(CUDA_ERROR_MAP_FAILED, ERROR_MEMORY_PROVIDER_SPECIFIC),
    ROW(CUDA_ERROR_ALREADY_MAPPED, ERROR_MEMORY_PROVIDER_SPECIFIC),
    ROW(CUDA_ERROR_OPERATING_SYSTEM, ERROR_MEMORY_PROVIDER_SPECIFIC),
    ROW(CUDA_ERROR_UNKNOWN, ERROR_MEMORY_PROVIDER_SPECIFIC),
};

static const result_row_t *find_row(CUresult res) {
    for (size_t i = 0; i < UMF_ARRAY_SIZE(rows); i++) {
        if (rows[i].code == res) {
            return &rows[i];
        }
    }
    return NULL;
}

umf_result_t umf_cuda_result_to_umf(CUresult res) {
    const result_row_t *row = find_row(res);
    return row ? row->umf : UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
}

void umf_cuda_result_describe(CUresult res, char *buf, size_t len) {
    if (buf == NULL || len == 0) {
        return;
    }
    const char *name = NULL, *text = NULL;
    // A driver that is torn down (or never loaded) may fail these calls or
    // leave the strings unset: both are checked.
    const umf_cuda_driver_t *cu = umf_cuda_driver_loaded();
    if (cu != NULL) {
        if (cu->GetErrorName(res, &name) != CUDA_SUCCESS) {
            name = NULL;
        }
        if (cu->GetErrorString(res, &text) != CUDA_SUCCESS) {
            text = NULL;
        }
    }
    if (name == NULL) {
        const result_row_t *row = find_row(res);
        name = row ? row->name : NULL;
    }
    if (name != NULL && text != NULL) {
        snprintf(buf, len, "%s (%s)", name, text);
    } else if (name != NULL) {
        snprintf(buf, len, "%s", name);
    } else if (text != NULL) {
        snprintf(buf, len, "CUresult %d (%s)", (int)res, text);
    } else {
        snprintf(buf, len, "CUresult %d", (int)res);
    }
}
