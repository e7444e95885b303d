// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Profiler control (cudaProfiler.h). No profiling tool can attach to the
// emulated devices, so there is nothing to start or stop: cuProfilerStart
// and cuProfilerStop succeed in a current context, as a driver does when
// no tool is active, and programs that bracket their code with them run
// unchanged. cuProfilerInitialize configured the command-line profiler of
// CUDA 4 to 12, which cudaProfiler.h now documents as
// CUDA_ERROR_NOT_SUPPORTED.

#include "cuda_mock_core.h"

#include <cudaProfiler.h>

static CUresult profiler_toggle(void) {
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    // cudaProfiler.h names one error for both calls.
    return res == CUDA_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUDA_MOCK_API CUresult cuProfilerStart(void) {
    CUDA_MOCK_ENTER(cuProfilerStart);
    return profiler_toggle();
}

CUDA_MOCK_API CUresult cuProfilerStop(void) {
    CUDA_MOCK_ENTER(cuProfilerStop);
    return profiler_toggle();
}

CUDA_MOCK_API CUresult cuProfilerInitialize(const char *configFile,
                                            const char *outputFile,
                                            CUoutput_mode outputMode) {
    CUDA_MOCK_ENTER(cuProfilerInitialize);
    if (configFile == NULL || outputFile == NULL ||
        (outputMode != CU_OUT_KEY_VALUE_PAIR && outputMode != CU_OUT_CSV)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(__func__, "the command-line profiler is gone "
                                      "since CUDA 12, and no profiler can "
                                      "attach to the emulated devices");
}
