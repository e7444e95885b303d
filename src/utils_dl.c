// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "utils_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

void *umf_dl_open(const char *path) {
    if (path == NULL || path[0] == '\0') {
        UMF_LOG_ERROR("no library path given");
        return NULL;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (lib != NULL) {
        UMF_LOG_DEBUG("using the %s the process already loaded", path);
        return lib;
    }
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        const char *why = dlerror();
        UMF_LOG_ERROR("cannot load %s: %s", path, why ? why : "unknown error");
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
                            const umf_dl_symbol_t *symbols, size_t count) {
    if (lib == NULL || symbols == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    char missing[512] = "", optional[512] = "";
    size_t missing_len = 0, optional_len = 0;
    for (size_t i = 0; i < count; i++) {
        void *addr = dlsym(lib, symbols[i].name);
        *symbols[i].slot = addr;
        if (addr != NULL) {
            continue;
        }
        if (symbols[i].required) {
            append_name(missing, sizeof(missing), &missing_len,
                        symbols[i].name);
        } else {
            append_name(optional, sizeof(optional), &optional_len,
                        symbols[i].name);
        }
    }
    if (optional_len > 0) {
        UMF_LOG_DEBUG("%s lacks optional entry points: %s", lib_name, optional);
    }
    if (missing_len > 0) {
        UMF_LOG_ERROR("%s lacks required entry points: %s", lib_name, missing);
        return UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
    }
    return UMF_RESULT_SUCCESS;
}
