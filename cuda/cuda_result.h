// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA results as the library reports them: the one table that maps a
// CUresult to a umf_result_t, and the text that names a CUresult in native
// error messages.

#ifndef UMF_GPU_CUDA_RESULT_H
#define UMF_GPU_CUDA_RESULT_H 1

#include <cuda.h>
#include <stddef.h>

#include <umf/base.h>

// The umf_result_t for a failed driver call. CUDA_SUCCESS maps to
// UMF_RESULT_SUCCESS; a code the table does not name maps to
// UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC (the caller stores the native
// code either way).
umf_result_t umf_cuda_result_to_umf(CUresult res);

// Writes "NAME (description)" for `res` into buf (always NUL-terminated when
// len > 0), from cuGetErrorName and cuGetErrorString where the driver is
// loaded and answers; a missing name falls back to the table's, else to
// "CUresult <n>", and a missing description is left out. Never loads the
// driver, so it is safe while the process exits.
void umf_cuda_result_describe(CUresult res, char *buf, size_t len);

#endif // UMF_GPU_CUDA_RESULT_H
