// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static const char *const level_names[] = {"ERROR", "WARN", "INFO", "DEBUG"};

static const char *default_name(int level) {
    return level == UMF_LOG_THRESHOLD_OFF ? "off"
           : level == UMF_LOG_LEVEL_WARN  ? "warn"
           : level == UMF_LOG_LEVEL_INFO  ? "info"
           : level == UMF_LOG_LEVEL_DEBUG ? "debug"
                                          : "error";
}

// Reads the variable. Racing first calls all compute the same value; the
// one whose compare-exchange publishes it reports a bad value, so the
// report appears once.
static int read_env(umf_logger_t *logger) {
    static const struct {
        const char *name;
        int threshold;
    } levels[] = {
        {"error", UMF_LOG_LEVEL_ERROR},  {"warn", UMF_LOG_LEVEL_WARN},
        {"warning", UMF_LOG_LEVEL_WARN}, {"info", UMF_LOG_LEVEL_INFO},
        {"debug", UMF_LOG_LEVEL_DEBUG},  {"off", UMF_LOG_THRESHOLD_OFF},
        {"none", UMF_LOG_THRESHOLD_OFF},
    };
    const char *value = logger->env != NULL ? getenv(logger->env) : NULL;
    int threshold = logger->default_level;
    bool known = value == NULL || value[0] == '\0';
    for (size_t i = 0; !known && i < sizeof(levels) / sizeof(levels[0]); i++) {
        if (strcasecmp(value, levels[i].name) == 0) {
            threshold = levels[i].threshold;
            known = true;
        }
    }
    int unread = UMF_LOG_THRESHOLD_UNREAD;
    if (!__atomic_compare_exchange_n(&logger->threshold, &unread, threshold,
                                     false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED)) {
        return unread; // another thread was first
    }
    if (!known) {
        (void)umf_logger_emit(
            logger, STDERR_FILENO, UMF_LOG_LEVEL_WARN, __FILE_NAME__, __LINE__,
            "%s='%s' is not one of error, warn, info, debug, off; using %s",
            logger->env, value, default_name(logger->default_level));
    }
    return threshold;
}

int umf_logger_threshold(umf_logger_t *logger) {
    int t = __atomic_load_n(&logger->threshold, __ATOMIC_RELAXED);
    return t != UMF_LOG_THRESHOLD_UNREAD ? t : read_env(logger);
}

void umf_logger_set_component(umf_logger_t *logger, const char *component) {
    __atomic_store_n(&logger->component, component, __ATOMIC_RELEASE);
}

const char *umf_logger_component(umf_logger_t *logger) {
    return __atomic_load_n(&logger->component, __ATOMIC_ACQUIRE);
}

void umf_logger_vwrite(umf_logger_t *logger, umf_log_level_t level,
                       const char *file, int line, const char *fmt,
                       va_list args) {
    if ((unsigned)level > UMF_LOG_LEVEL_DEBUG ||
        (int)level > umf_logger_threshold(logger)) {
        return;
    }
    (void)umf_logger_vemit(logger, STDERR_FILENO, level, file, line, fmt, args);
}

void umf_logger_write(umf_logger_t *logger, umf_log_level_t level,
                      const char *file, int line, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    umf_logger_vwrite(logger, level, file, line, fmt, args);
    va_end(args);
}

int umf_logger_emit(umf_logger_t *logger, int fd, umf_log_level_t level,
                    const char *file, int line, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int ret = umf_logger_vemit(logger, fd, level, file, line, fmt, args);
    va_end(args);
    return ret;
}

int umf_logger_vemit(umf_logger_t *logger, int fd, umf_log_level_t level,
                     const char *file, int line, const char *fmt,
                     va_list args) {
    if ((unsigned)level > UMF_LOG_LEVEL_DEBUG) {
        level = UMF_LOG_LEVEL_ERROR;
    }
    struct timespec now;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    const char *component = umf_logger_component(logger);

    char buf[UMF_LOG_LINE_MAX];
    int n = snprintf(buf, sizeof(buf),
                     "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ umf-gpu%s%s[%ld] %s "
                     "%s:%d: ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec, now.tv_nsec / 1000,
                     component != NULL ? "/" : "",
                     component != NULL ? component : "", (long)getpid(),
                     level_names[level], file != NULL ? file : "?", line);
    if (n < 0) {
        return -1;
    }
    size_t len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
    n = vsnprintf(buf + len, sizeof(buf) - len, fmt, args);
    if (n > 0) {
        len += (size_t)n;
    }
    if (len > sizeof(buf) - 2) {
        len = sizeof(buf) - 2; // cut: keep room for the '\n'
    }
    buf[len++] = '\n';

    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}
