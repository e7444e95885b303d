// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How both providers log a failure, by who learns of it.
//
// A failure that the call returns to its caller (a refused argument, memory
// that ran out, a driver call that failed, with its native error stored) is
// the caller's to handle: it has the result, and the native error says
// why. The providers log it once, at info level, so that by default nothing
// reaches stderr (UMF_GPU_LOG=info or debug shows every such line, of both
// providers alike). What the caller cannot learn from the result stays an
// error: memory that leaks while an allocation is undone, the caller's CUDA
// context left switched, a driver that hands out an address still in use.

#ifndef UMF_GPU_GPU_LOG_H
#define UMF_GPU_GPU_LOG_H 1

#include "util_umf_log.h"

// A failure returned to the caller, with the reason (see above).
#define UMF_GPU_LOG_RETURNED(...) UMF_LOG_INFO(__VA_ARGS__)

#endif // UMF_GPU_GPU_LOG_H
