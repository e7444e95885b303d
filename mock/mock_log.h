// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Logging of the emulated drivers: the one logger of utils/util_log.h (the
// same line format as the library's), with a logger of their own, so that a
// driver depends on nothing of the library. UMF_GPU_MOCK_LOG=off|error|
// warn|info|debug (default warn) is read once, at the first log call. Every
// line names the driver ("umf-gpu/ze-mock[pid] ..."), so that two emulated
// drivers in one process can be told apart.

#ifndef UMF_GPU_MOCK_LOG_H
#define UMF_GPU_MOCK_LOG_H 1

#include "util_log.h"

extern umf_logger_t umf_mock_logger;

// The name printed in every line, defined by each driver ("ze-mock",
// "cuda-mock"; a weak "gpu-mock" where no driver is linked), so that the
// first line of a process already names the driver.
extern const char umf_mock_log_name[];

#define UMF_MOCK_LOG(level, ...)                                               \
    UMF_LOGGER_LOG(&umf_mock_logger, level, __VA_ARGS__)

#define UMF_MOCK_LOG_ERROR(...) UMF_MOCK_LOG(UMF_LOG_LEVEL_ERROR, __VA_ARGS__)
#define UMF_MOCK_LOG_WARN(...) UMF_MOCK_LOG(UMF_LOG_LEVEL_WARN, __VA_ARGS__)
#define UMF_MOCK_LOG_INFO(...) UMF_MOCK_LOG(UMF_LOG_LEVEL_INFO, __VA_ARGS__)
#define UMF_MOCK_LOG_DEBUG(...) UMF_MOCK_LOG(UMF_LOG_LEVEL_DEBUG, __VA_ARGS__)

#endif // UMF_GPU_MOCK_LOG_H
