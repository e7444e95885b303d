// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one logger of the library and of the emulated drivers. Each of them
// owns one umf_logger_t: its name, the environment variable that sets its
// level, and its default level. Lines go to stderr, one write(2) each (so
// that lines of concurrent threads and processes do not interleave), cut
// to UMF_LOG_LINE_MAX bytes:
//
//   2026-11-29T18:30:37.123456Z umf-gpu[4242] WARN ze_loader.c:61: message
//   2026-11-29T18:30:37.123456Z umf-gpu/ze-mock[4242] ERROR mock_ipc.c:98: ...
//
// The variable (error, warn, info, debug or off, any case) is read once, at
// the logger's first message; an unknown value is reported once and the
// default used. A disabled level costs one relaxed load and a compare.
//
// This is part of the internal utility library (utils/): it knows nothing
// of providers or drivers, and its symbols stay hidden in each library that
// links it.

#ifndef UMF_GPU_UTIL_LOG_H
#define UMF_GPU_UTIL_LOG_H 1

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum umf_log_level_t {
    UMF_LOG_LEVEL_ERROR = 0,
    UMF_LOG_LEVEL_WARN = 1,
    UMF_LOG_LEVEL_INFO = 2,
    UMF_LOG_LEVEL_DEBUG = 3,
} umf_log_level_t;

// Longest line written, '\n' included.
#define UMF_LOG_LINE_MAX 1024

// umf_logger_t::threshold: the highest level written, UMF_LOG_THRESHOLD_OFF
// for none, or UMF_LOG_THRESHOLD_UNREAD until the variable has been read.
#define UMF_LOG_THRESHOLD_UNREAD (-2)
#define UMF_LOG_THRESHOLD_OFF (-1)

// Every field is accessed with __atomic builtins (the header also serves C++
// tests); make one with UMF_LOGGER_INIT and change it only through the
// functions below.
typedef struct umf_logger_t {
    const char *env;   // the variable that sets the level, e.g. "UMF_GPU_LOG"
    int default_level; // an umf_log_level_t, or UMF_LOG_THRESHOLD_OFF
    const char *component; // NULL, or the part after "umf-gpu/" in lines
    int threshold;
} umf_logger_t;

#define UMF_LOGGER_INIT(env, default_level, component)                         \
    { (env), (default_level), (component), UMF_LOG_THRESHOLD_UNREAD }

// The threshold, after reading the variable at the first call.
int umf_logger_threshold(umf_logger_t *logger);

// Names the component in later lines ("umf-gpu/<component>[pid]"); the
// string must outlive the logger. NULL: plain "umf-gpu".
void umf_logger_set_component(umf_logger_t *logger, const char *component);
const char *umf_logger_component(umf_logger_t *logger);

// Writes one line if `level` is enabled.
void umf_logger_write(umf_logger_t *logger, umf_log_level_t level,
                      const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void umf_logger_vwrite(umf_logger_t *logger, umf_log_level_t level,
                       const char *file, int line, const char *fmt,
                       va_list args) __attribute__((format(printf, 5, 0)));

// Writes one line in the same format to `fd`, whatever the threshold: for
// reports the user asked for (the emulated drivers' leak report). 0, or -1
// if the line could not be written (errno says why).
int umf_logger_emit(umf_logger_t *logger, int fd, umf_log_level_t level,
                    const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int umf_logger_vemit(umf_logger_t *logger, int fd, umf_log_level_t level,
                     const char *file, int line, const char *fmt, va_list args)
    __attribute__((format(printf, 6, 0)));

// The test before building a message: true when `level` may be written (or
// the variable is not read yet).
static inline int umf_logger_may_write(umf_logger_t *logger, int level) {
    int t = __atomic_load_n(&logger->threshold, __ATOMIC_RELAXED);
    return __builtin_expect(t == UMF_LOG_THRESHOLD_UNREAD || level <= t, 0);
}

#define UMF_LOGGER_LOG(logger, level, ...)                                     \
    do {                                                                       \
        if (umf_logger_may_write((logger), (int)(level))) {                    \
            umf_logger_write((logger), (level), __FILE_NAME__, __LINE__,       \
                             __VA_ARGS__);                                     \
        }                                                                      \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_UTIL_LOG_H
