// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_log.h"

// Each driver defines the name; this one stands for programs that link the
// emulation without a driver (its unit tests).
__attribute__((weak)) const char umf_mock_log_name[] = "gpu-mock";

// Named from the first line on: a driver logs before cuInit/zeInit too
// (entry points that work before it, e.g. cuGetExportTable).
umf_logger_t umf_mock_logger =
    UMF_LOGGER_INIT("UMF_GPU_MOCK_LOG", UMF_LOG_LEVEL_WARN, umf_mock_log_name);
