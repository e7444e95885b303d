// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Logging of the emulated drivers, to stderr, independent of the library's
// (a driver depends on nothing of the library). UMF_GPU_MOCK_LOG=off|error|
// warn|info|debug (default warn) is read once, at the first log call. Every
// line names the driver ("[umf-gpu ze-mock] ..."), so that two emulated
// drivers in one process can be told apart.

#ifndef UMF_GPU_MOCK_LOG_H
#define UMF_GPU_MOCK_LOG_H 1

#include <stdatomic.h>

typedef enum umf_mock_log_level_t {
    UMF_MOCK_LOG_ERROR = 0,
    UMF_MOCK_LOG_WARN = 1,
    UMF_MOCK_LOG_INFO = 2,
    UMF_MOCK_LOG_DEBUG = 3,
} umf_mock_log_level_t;

// The highest level written; -1 for none; -2 until the variable is read.
extern _Atomic int umf_mock_log_threshold;

void umf_mock_log_write(umf_mock_log_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Sets the name printed in every line (the driver's, e.g. "ze-mock").
void umf_mock_log_set_name(const char *name);
const char *umf_mock_log_name(void);

#define UMF_MOCK_LOG(level, ...)                                               \
    do {                                                                       \
        int umf_mock_t_ = atomic_load_explicit(&umf_mock_log_threshold,        \
                                               memory_order_relaxed);          \
        if (__builtin_expect(umf_mock_t_ == -2 || (int)(level) <= umf_mock_t_, \
                             0)) {                                             \
            umf_mock_log_write((level), __VA_ARGS__);                          \
        }                                                                      \
    } while (0)

#define UMF_MOCK_LOG_ERROR(...) UMF_MOCK_LOG(UMF_MOCK_LOG_ERROR, __VA_ARGS__)
#define UMF_MOCK_LOG_WARN(...) UMF_MOCK_LOG(UMF_MOCK_LOG_WARN, __VA_ARGS__)
#define UMF_MOCK_LOG_INFO(...) UMF_MOCK_LOG(UMF_MOCK_LOG_INFO, __VA_ARGS__)
#define UMF_MOCK_LOG_DEBUG(...) UMF_MOCK_LOG(UMF_MOCK_LOG_DEBUG, __VA_ARGS__)

#endif // UMF_GPU_MOCK_LOG_H
