// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int umf_log_threshold = UMF_LOG_THRESHOLD_UNREAD;

static umf_once_t read_env_once = UMF_ONCE_INIT;

static const char *const level_names[] = {"ERROR", "WARN", "INFO", "DEBUG"};

static void emit(umf_log_level_t level, const char *file, int line,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void emit_v(umf_log_level_t level, const char *file, int line,
                   const char *fmt, va_list args)
    __attribute__((format(printf, 4, 0)));

static void read_env(void) {
    static const struct {
        const char *name;
        int threshold;
    } levels[] = {
        {"error", UMF_LOG_LEVEL_ERROR},  {"warn", UMF_LOG_LEVEL_WARN},
        {"warning", UMF_LOG_LEVEL_WARN}, {"info", UMF_LOG_LEVEL_INFO},
        {"debug", UMF_LOG_LEVEL_DEBUG},  {"off", UMF_LOG_THRESHOLD_OFF},
        {"none", UMF_LOG_THRESHOLD_OFF},
    };
    const char *value = getenv("UMF_GPU_LOG");
    int threshold = UMF_LOG_LEVEL_ERROR;
    bool known = value == NULL || value[0] == '\0';
    for (size_t i = 0; !known && i < UMF_ARRAY_SIZE(levels); i++) {
        if (strcasecmp(value, levels[i].name) == 0) {
            threshold = levels[i].threshold;
            known = true;
        }
    }
    __atomic_store_n(&umf_log_threshold, threshold, __ATOMIC_RELAXED);
    if (!known) {
        // Not through UMF_LOG: that would wait for this very once-init.
        emit(UMF_LOG_LEVEL_WARN, __FILE_NAME__, __LINE__,
             "UMF_GPU_LOG='%s' is not one of error, warn, info, "
             "debug, off; using error",
             value);
    }
}

int umf_log_threshold_get(void) {
    umf_once(&read_env_once, read_env);
    return __atomic_load_n(&umf_log_threshold, __ATOMIC_RELAXED);
}

void umf_log_write(umf_log_level_t level, const char *file, int line,
                   const char *fmt, ...) {
    if ((int)level > umf_log_threshold_get()) {
        return;
    }
    va_list args;
    va_start(args, fmt);
    emit_v(level, file, line, fmt, args);
    va_end(args);
}

static void emit(umf_log_level_t level, const char *file, int line,
                 const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    emit_v(level, file, line, fmt, args);
    va_end(args);
}

static void emit_v(umf_log_level_t level, const char *file, int line,
                   const char *fmt, va_list args) {
    struct timespec now;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);

    // One buffer and one write(2), so that lines from several threads or
    // processes do not interleave.
    char buf[1024];
    int n = snprintf(buf, sizeof(buf),
                     "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ umf-gpu[%ld] %s "
                     "%s:%d: ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec, now.tv_nsec / 1000, (long)getpid(),
                     level_names[level], file, line);
    if (n < 0) {
        return;
    }
    size_t len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;

    n = vsnprintf(buf + len, sizeof(buf) - len, fmt, args);
    if (n > 0) {
        len += (size_t)n;
    }
    if (len > sizeof(buf) - 2) {
        len = sizeof(buf) - 2; // truncated message: keep room for '\n'
    }
    buf[len++] = '\n';

    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(STDERR_FILENO, p, len);
        if (w <= 0) {
            return;
        }
        p += w;
        len -= (size_t)w;
    }
}
