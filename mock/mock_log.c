// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

_Atomic int umf_mock_log_threshold = -2;

static pthread_once_t read_env_once = PTHREAD_ONCE_INIT;
static const char *_Atomic log_name = "gpu-mock";

static const char *const level_names[] = {"error", "warning", "info", "debug"};

static void emit_v(umf_mock_log_level_t level, const char *fmt, va_list args)
    __attribute__((format(printf, 2, 0)));

static void emit(umf_mock_log_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void read_env(void) {
    static const struct {
        const char *name;
        int threshold;
    } levels[] = {
        {"off", -1},
        {"none", -1},
        {"error", UMF_MOCK_LOG_ERROR},
        {"warn", UMF_MOCK_LOG_WARN},
        {"warning", UMF_MOCK_LOG_WARN},
        {"info", UMF_MOCK_LOG_INFO},
        {"debug", UMF_MOCK_LOG_DEBUG},
    };
    const char *value = getenv("UMF_GPU_MOCK_LOG");
    int threshold = UMF_MOCK_LOG_WARN;
    int known = value == NULL || value[0] == '\0';
    for (size_t i = 0; !known && i < sizeof(levels) / sizeof(levels[0]); i++) {
        if (strcasecmp(value, levels[i].name) == 0) {
            threshold = levels[i].threshold;
            known = 1;
        }
    }
    atomic_store_explicit(&umf_mock_log_threshold, threshold,
                          memory_order_relaxed);
    if (!known) {
        // Not through UMF_MOCK_LOG: that would wait for this once-init.
        emit(UMF_MOCK_LOG_WARN,
             "UMF_GPU_MOCK_LOG='%s' is not one of off, error, warn, info, "
             "debug; using warn",
             value);
    }
}

void umf_mock_log_set_name(const char *name) {
    atomic_store_explicit(&log_name, name, memory_order_relaxed);
}

const char *umf_mock_log_name(void) {
    return atomic_load_explicit(&log_name, memory_order_relaxed);
}

void umf_mock_log_write(umf_mock_log_level_t level, const char *fmt, ...) {
    pthread_once(&read_env_once, read_env);
    if ((int)level >
        atomic_load_explicit(&umf_mock_log_threshold, memory_order_relaxed)) {
        return;
    }
    va_list args;
    va_start(args, fmt);
    emit_v(level, fmt, args);
    va_end(args);
}

static void emit(umf_mock_log_level_t level, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    emit_v(level, fmt, args);
    va_end(args);
}

static void emit_v(umf_mock_log_level_t level, const char *fmt, va_list args) {
    // One write per line, so that lines of concurrent threads and
    // processes do not interleave.
    char line[1024];
    int n =
        snprintf(line, sizeof(line), "[umf-gpu %s] %s: ", umf_mock_log_name(),
                 level_names[level]);
    if (n < 0) {
        return;
    }
    int m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, args);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof(line) - 2) {
        len = sizeof(line) - 2;
    }
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
    fflush(stderr);
}
