// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "driver_open.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *driver_open(const char *env, const char *fallback, const char *what,
                  const driver_symbol_t *symbols, size_t count,
                  const char **path, char *why, size_t why_len) {
    const char *name = getenv(env);
    if (name == NULL || name[0] == '\0') {
        name = fallback;
    }
    *path = name;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        snprintf(why, why_len, "cannot load %s %s: %s", what, name, dlerror());
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(lib, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            snprintf(why, why_len, "%s %s lacks %s", what, name,
                     symbols[i].name);
            dlclose(lib);
            return NULL;
        }
    }
    return lib;
}
