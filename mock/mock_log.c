// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_log.h"

// "gpu-mock" until a driver names itself (umf_mock_init).
umf_logger_t umf_mock_logger =
    UMF_LOGGER_INIT("UMF_GPU_MOCK_LOG", UMF_LOG_LEVEL_WARN, "gpu-mock");

void umf_mock_log_set_name(const char *name) {
    umf_logger_set_component(&umf_mock_logger, name);
}
