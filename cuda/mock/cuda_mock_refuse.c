// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one way the emulated driver refuses what it cannot do, for every
// family of entry points that it cannot emulate (one file per family:
// cuda_mock_module.c, cuda_mock_texture.c ...). An entry point of such a
// family checks its arguments as cuda.h documents (cuInit first, NULL
// out-pointers CUDA_ERROR_INVALID_VALUE, the driver's own objects such as
// contexts and streams as everywhere else), and then either
//
//   - refuses the operation: CUDA_ERROR_NOT_SUPPORTED, or
//   - refuses a handle of a kind that no call of this driver can make (a
//     function, a texture object, a green context ...): it cannot be
//     valid, so CUDA_ERROR_INVALID_HANDLE, as a real driver answers a
//     handle it never made;
//
// each with one log line (error level) that names the call and says what
// the emulation lacks, so that a client's report names the function.

#include "cuda_mock_core.h"

#include "mock_log.h"

CUresult cuda_mock_refuse(const char *call, const char *why) {
    UMF_MOCK_LOG_ERROR("%s: not supported by the emulated driver: %s", call,
                       why);
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuda_mock_refuse_handle(const char *call, const char *kind,
                                 uintptr_t handle, const char *why) {
    UMF_MOCK_LOG_ERROR("%s: %s %#llx is not valid: no %s can exist in the "
                       "emulated driver (%s)",
                       call, kind, (unsigned long long)handle, kind, why);
    return CUDA_ERROR_INVALID_HANDLE;
}
