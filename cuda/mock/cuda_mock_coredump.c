// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// GPU coredump settings (refused; cuda_mock_refuse.c). A GPU coredump is
// written when a kernel raises an exception; the emulated devices run no
// kernels, so there is nothing to dump and nothing to configure: after the
// argument checks (an attribute of CUcoredumpSettings, value and size given,
// a current context for the per-context calls) every call answers
// CUDA_ERROR_NOT_SUPPORTED.

#include "cuda_mock_internal.h"

#define WHY "coredumps are of kernels, and the emulated devices run none"

static CUresult coredump(CUcoredumpSettings attrib, const void *value,
                         const size_t *size, bool in_context,
                         const char *call) {
    if (value == NULL || size == NULL || (int)attrib < 1 ||
        attrib >= CU_COREDUMP_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (in_context) {
        cuda_mock_ctx_t *ctx;
        CUresult res = cuda_mock_ctx_current(&ctx);
        if (res != CUDA_SUCCESS) {
            return res;
        }
    }
    return cuda_mock_refuse(call, WHY);
}

CUDA_MOCK_API CUresult cuCoredumpGetAttribute(CUcoredumpSettings attrib,
                                              void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpGetAttribute);
    return coredump(attrib, value, size, true, __func__);
}

CUDA_MOCK_API CUresult cuCoredumpGetAttributeGlobal(CUcoredumpSettings attrib,
                                                    void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpGetAttributeGlobal);
    return coredump(attrib, value, size, false, __func__);
}

CUDA_MOCK_API CUresult cuCoredumpSetAttribute(CUcoredumpSettings attrib,
                                              void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpSetAttribute);
    return coredump(attrib, value, size, true, __func__);
}

CUDA_MOCK_API CUresult cuCoredumpSetAttributeGlobal(CUcoredumpSettings attrib,
                                                    void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpSetAttributeGlobal);
    return coredump(attrib, value, size, false, __func__);
}
