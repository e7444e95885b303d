// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The library's logger: the one logger of utils/util_log.h, as "umf-gpu",
// its level set by UMF_GPU_LOG=error|warn|info|debug|off (default error),
// read once at the first log call. A disabled level costs one relaxed load
// and a compare.

#ifndef UMF_GPU_UTIL_UMF_LOG_H
#define UMF_GPU_UTIL_UMF_LOG_H 1

#include "util_common.h"
#include "util_log.h"

extern umf_logger_t umf_gpu_logger;

void umf_log_write(umf_log_level_t level, const char *file, int line,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define UMF_LOG(level, ...) UMF_LOGGER_LOG(&umf_gpu_logger, level, __VA_ARGS__)

#define UMF_LOG_ERROR(...) UMF_LOG(UMF_LOG_LEVEL_ERROR, __VA_ARGS__)
#define UMF_LOG_WARN(...) UMF_LOG(UMF_LOG_LEVEL_WARN, __VA_ARGS__)
#define UMF_LOG_INFO(...) UMF_LOG(UMF_LOG_LEVEL_INFO, __VA_ARGS__)
#define UMF_LOG_DEBUG(...) UMF_LOG(UMF_LOG_LEVEL_DEBUG, __VA_ARGS__)

// The threshold after reading UMF_GPU_LOG (reads it on the first call).
int umf_log_threshold_get(void);

#endif // UMF_GPU_UTIL_UMF_LOG_H
