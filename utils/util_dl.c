// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_dl.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util_umf_log.h"

static void say(char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t why_size, const char *fmt, ...) {
    if (why == NULL || why_size == 0) {
        return;
    }
    va_list args;
    va_start(args, fmt);
    vsnprintf(why, why_size, fmt, args);
    va_end(args);
}

void *umf_dl_open(const char *path, char *why, size_t why_size) {
    if (path == NULL || path[0] == '\0') {
        say(why, why_size, "no library path given");
        return NULL;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (lib != NULL) {
        UMF_LOG_DEBUG("using the %s the process already loaded", path);
        return lib;
    }
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        const char *reason = dlerror();
        say(why, why_size, "cannot load %s: %s", path,
            reason != NULL ? reason : "unknown error");
        return NULL;
    }
    UMF_LOG_DEBUG("loaded %s", path);
    return lib;
}

void umf_dl_close(void *lib) {
    if (lib != NULL) {
        dlclose(lib);
    }
}

// Appends ", name" (or "name" first) to a bounded list of names.
static void append_name(char *list, size_t cap, size_t *len, const char *name) {
    if (*len >= cap - 1) {
        return;
    }
    int n = snprintf(list + *len, cap - *len, "%s%s", *len ? ", " : "", name);
    if (n > 0) {
        *len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
    }
}

umf_result_t umf_dl_resolve(void *lib, const char *lib_name,
                            const umf_dl_symbol_t *symbols, size_t count,
                            char *why, size_t why_size) {
    if (lib == NULL || symbols == NULL) {
        say(why, why_size, "no library or no symbols given");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    char missing[320] = "", optional[512] = "", first[160] = "";
    size_t missing_len = 0, optional_len = 0;
    const char *first_name = NULL;
    for (size_t i = 0; i < count; i++) {
        (void)dlerror(); // only this lookup's reason from here on
        void *addr = dlsym(lib, symbols[i].name);
        *symbols[i].slot = addr;
        if (addr != NULL) {
            continue;
        }
        if (!symbols[i].required) {
            append_name(optional, sizeof(optional), &optional_len,
                        symbols[i].name);
        } else if (first_name == NULL) {
            first_name = symbols[i].name;
            const char *reason = dlerror();
            snprintf(first, sizeof(first), "%s",
                     reason != NULL ? reason : "not found");
        } else {
            append_name(missing, sizeof(missing), &missing_len,
                        symbols[i].name);
        }
    }
    if (optional_len > 0) {
        UMF_LOG_DEBUG("%s lacks optional entry points: %s", lib_name, optional);
    }
    if (first_name != NULL) {
        // The first one with dlerror's words, then the others: a message
        // cut short loses only the end of the list.
        say(why, why_size, "%s lacks the entry point %s: %s%s%s", lib_name,
            first_name, first, missing_len > 0 ? "; also missing: " : "",
            missing);
        return UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
    }
    return UMF_RESULT_SUCCESS;
}

void umf_dl_load_error_set(umf_dl_load_error_t *err, int32_t code,
                           const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, args);
    va_end(args);
    err->code = code;
    UMF_LOG_ERROR("%s", err->message);
}
