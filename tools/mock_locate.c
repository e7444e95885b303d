// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_locate.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Set by the build: the install layout's folder first, then the build
// tree's (see mock_locate.h).
#ifndef MOCK_LOCATE_LIBDIRS
#define MOCK_LOCATE_LIBDIRS "../lib"
#endif

const char *mock_locate_searched(void) {
    return MOCK_LOCATE_LIBDIRS;
}

// Finds `file` in the first library folder holding it; stores the folder
// (absolute, symbolic links resolved) in dir_out and the file in path_out.
static bool find_library(const char *self_dir, const char *file,
                         char dir_out[PATH_MAX], char path_out[PATH_MAX]) {
    char dirs[] = MOCK_LOCATE_LIBDIRS;
    char *save = NULL;
    for (char *rel = strtok_r(dirs, ":", &save); rel != NULL;
         rel = strtok_r(NULL, ":", &save)) {
        char joined[PATH_MAX], dir[PATH_MAX];
        int n = snprintf(joined, sizeof(joined), "%s/%s", self_dir, rel);
        if (n < 0 || (size_t)n >= sizeof(joined) ||
            realpath(joined, dir) == NULL) {
            continue;
        }
        n = snprintf(path_out, PATH_MAX, "%s/%s", dir, file);
        if (n < 0 || n >= PATH_MAX || access(path_out, R_OK) != 0) {
            continue;
        }
        memcpy(dir_out, dir, strlen(dir) + 1);
        return true;
    }
    path_out[0] = '\0';
    dir_out[0] = '\0';
    return false;
}

int mock_locate(mock_locate_t *where) {
    memset(where, 0, sizeof(*where));
    ssize_t n = readlink("/proc/self/exe", where->self, sizeof(where->self));
    if (n <= 0 || (size_t)n >= sizeof(where->self)) {
        if (n > 0) {
            errno = ENAMETOOLONG;
        }
        where->self[0] = '\0';
        return -1;
    }
    where->self[n] = '\0';
    memcpy(where->self_dir, where->self, (size_t)n + 1);
    char *slash = strrchr(where->self_dir, '/');
    if (slash == NULL) {
        errno = ENOENT;
        return -1;
    }
    *(slash == where->self_dir ? slash + 1 : slash) = '\0';

    char dir[PATH_MAX];
    find_library(where->self_dir, MOCK_LOCATE_ZE_LIBRARY, dir, where->ze);
    find_library(where->self_dir,
                 MOCK_LOCATE_CUDA_FOLDER "/" MOCK_LOCATE_CUDA_LIBRARY,
                 where->cuda_dir, where->cuda);
    if (where->cuda[0] != '\0') {
        // The driver's own folder, for LD_LIBRARY_PATH.
        size_t len = strlen(where->cuda_dir);
        n = snprintf(where->cuda_dir + len, sizeof(where->cuda_dir) - len,
                     "/%s", MOCK_LOCATE_CUDA_FOLDER);
        if (n < 0 || (size_t)n >= sizeof(where->cuda_dir) - len) {
            where->cuda[0] = where->cuda_dir[0] = '\0';
        }
    }
    return 0;
}
