// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Logging to stderr, controlled by UMF_GPU_LOG=error|warn|info|debug|off
// (default error), read once at the first log call. A disabled level costs
// one relaxed load and a compare.

#ifndef UMF_GPU_LOG_H
#define UMF_GPU_LOG_H 1

#include "utils_common.h"

typedef enum umf_log_level_t {
    UMF_LOG_LEVEL_ERROR = 0,
    UMF_LOG_LEVEL_WARN = 1,
    UMF_LOG_LEVEL_INFO = 2,
    UMF_LOG_LEVEL_DEBUG = 3,
} umf_log_level_t;

// The highest level that is written, UMF_LOG_THRESHOLD_OFF for none, or
// UMF_LOG_THRESHOLD_UNREAD until UMF_GPU_LOG has been read. Accessed with
// __atomic builtins, so that the header also serves C++ tests.
#define UMF_LOG_THRESHOLD_UNREAD (-2)
#define UMF_LOG_THRESHOLD_OFF (-1)
extern int umf_log_threshold;

void umf_log_write(umf_log_level_t level, const char *file, int line,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define UMF_LOG(level, ...)                                                    \
    do {                                                                       \
        int umf_log_t_ =                                                       \
            __atomic_load_n(&umf_log_threshold, __ATOMIC_RELAXED);             \
        if (UMF_UNLIKELY(umf_log_t_ == UMF_LOG_THRESHOLD_UNREAD ||             \
                         (int)(level) <= umf_log_t_)) {                        \
            umf_log_write((level), __FILE_NAME__, __LINE__, __VA_ARGS__);      \
        }                                                                      \
    } while (0)

#define UMF_LOG_ERROR(...) UMF_LOG(UMF_LOG_LEVEL_ERROR, __VA_ARGS__)
#define UMF_LOG_WARN(...) UMF_LOG(UMF_LOG_LEVEL_WARN, __VA_ARGS__)
#define UMF_LOG_INFO(...) UMF_LOG(UMF_LOG_LEVEL_INFO, __VA_ARGS__)
#define UMF_LOG_DEBUG(...) UMF_LOG(UMF_LOG_LEVEL_DEBUG, __VA_ARGS__)

// The threshold after reading UMF_GPU_LOG (reads it on the first call).
int umf_log_threshold_get(void);

#endif // UMF_GPU_LOG_H
