// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The native error behind UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC: the
// driver's result code and a message saying what failed, kept per thread and
// per provider kind. This is the one per-thread store of it, made at a
// thread's first failure and released when the thread exits (no static TLS:
// utils/util_thread.h); providers set it right before returning the error,
// and their get_last_native_error reads it without a lock (one
// pthread_getspecific, nothing else). A thread that cannot get the memory
// for it keeps no message (a log line says so).
//
// A failure in one thread is never visible in another. Before any failure in
// a thread, the code is 0 and the message empty ("").

#ifndef UMF_GPU_NATIVE_ERROR_H
#define UMF_GPU_NATIVE_ERROR_H 1

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "provider_kind.h"
#include "util_dl.h"

// Longest message kept, including the terminating NUL; longer ones are cut.
#define UMF_NATIVE_ERROR_MESSAGE_MAX 512

// Stores `code` and the printf-formatted message for the calling thread.
void umf_native_error_set(umf_gpu_provider_kind_t kind, int32_t code,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void umf_native_error_set_v(umf_gpu_provider_kind_t kind, int32_t code,
                            const char *fmt, va_list args)
    __attribute__((format(printf, 3, 0)));

// What both providers do when a driver call fails: store `code` and
// "<call> failed: <result>[: <detail>]" for the calling thread (the call
// printf-formatted from fmt; `result` names the code; `detail` may be NULL)
// and log that message once, as "<kind> provider: <message>", as a failure
// returned to the caller (gpu_log.h: info level, nothing on stderr by
// default; the caller has the result and this native error).
void umf_native_error_report_v(umf_gpu_provider_kind_t kind, int32_t code,
                               const char *result, const char *detail,
                               const char *fmt, va_list args)
    __attribute__((format(printf, 5, 0)));

// What both providers do when their driver could not be loaded (`err` from
// umf_ze_loader_error() or umf_cuda_driver_error()): store its code and
// message for the calling thread, so that umfGpuMemoryProviderOpsGetLast-
// NativeError tells why after a failed params create or provider create.
// Returns `result`.
umf_result_t umf_native_error_set_load_failure(umf_gpu_provider_kind_t kind,
                                               umf_result_t result,
                                               const umf_dl_load_error_t *err);

// The calling thread's last stored code and message. The message is owned by
// this module and stays valid (and unchanged) until the thread stores the
// next error of that kind or exits. Either out-pointer may be NULL.
void umf_native_error_get(umf_gpu_provider_kind_t kind, const char **message,
                          int32_t *code);

#endif // UMF_GPU_NATIVE_ERROR_H
