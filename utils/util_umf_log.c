// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_umf_log.h"

#include <stdarg.h>

umf_logger_t umf_gpu_logger =
    UMF_LOGGER_INIT("UMF_GPU_LOG", UMF_LOG_LEVEL_ERROR, NULL);

int umf_log_threshold_get(void) {
    return umf_logger_threshold(&umf_gpu_logger);
}

void umf_log_write(umf_log_level_t level, const char *file, int line,
                   const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    umf_logger_vwrite(&umf_gpu_logger, level, file, line, fmt, args);
    va_end(args);
}
