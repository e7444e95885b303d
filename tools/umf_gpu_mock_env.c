// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-mock-env: prints the shell lines that make any program run on the
// emulated GPU drivers, for a CI script to eval:
//
//   eval "$(build/bin/umf-gpu-mock-env)"
//
//   export ZE_ENABLE_ALT_DRIVERS='<abs>/lib/libze_mock.so'
//   export UMF_GPU_CUDA_LIB='<abs>/lib/mock-cuda/libcuda.so.1'
//   export LD_LIBRARY_PATH='<abs>/lib/mock-cuda'${LD_LIBRARY_PATH:+:...}
//
// The libraries are found relative to this program's own location (its
// bin/ next to lib/), so it works in a build tree and in an install prefix.
// A driver's lines are printed only when its library is there.

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Library folders relative to the program's folder, ':'-separated; set by
// the build (the build tree's and the install layout's).
#ifndef UMF_GPU_MOCK_ENV_LIBDIRS
#define UMF_GPU_MOCK_ENV_LIBDIRS "../lib"
#endif

#define ZE_LIBRARY "libze_mock.so"
#define CUDA_FOLDER "mock-cuda"
#define CUDA_LIBRARY "libcuda.so.1"

static void usage(FILE *out) {
    fprintf(out,
            "usage: umf-gpu-mock-env [--ze] [--cuda]\n"
            "Prints the environment (shell export lines) that runs programs "
            "on the\nemulated Level Zero driver and the emulated libcuda of "
            "umf-gpu:\n"
            "  eval \"$(umf-gpu-mock-env)\"\n"
            "--ze, --cuda: only that driver (default: every driver found).\n"
            "The drivers read UMF_GPU_MOCK_DEVICES, UMF_GPU_MOCK_DEVICE_MEM, "
            "UMF_GPU_MOCK_MEMORY,\nUMF_GPU_MOCK_FAULTS, UMF_GPU_MOCK_SEED, "
            "UMF_GPU_MOCK_LEAKS and UMF_GPU_MOCK_LOG.\n");
}

// Prints `value` in single quotes, for any shell.
static void print_quoted(const char *value) {
    putchar('\'');
    for (const char *p = value; *p != '\0'; p++) {
        if (*p == '\'') {
            fputs("'\\''", stdout);
        } else {
            putchar(*p);
        }
    }
    putchar('\'');
}

static bool exists(const char *path) {
    return access(path, R_OK) == 0;
}

// The first library folder (made absolute) holding `file`; false if none.
static bool find_library(const char *self_dir, const char *file, char *dir_out,
                         size_t dir_len) {
    char dirs[] = UMF_GPU_MOCK_ENV_LIBDIRS;
    char *save = NULL;
    for (char *rel = strtok_r(dirs, ":", &save); rel != NULL;
         rel = strtok_r(NULL, ":", &save)) {
        char joined[PATH_MAX], path[PATH_MAX];
        if (snprintf(joined, sizeof(joined), "%s/%s", self_dir, rel) >=
                (int)sizeof(joined) ||
            realpath(joined, dir_out) == NULL || strlen(dir_out) >= dir_len ||
            snprintf(path, sizeof(path), "%s/%s", dir_out, file) >=
                (int)sizeof(path)) {
            continue;
        }
        if (exists(path)) {
            return true;
        }
    }
    return false;
}

int main(int argc, char **argv) {
    bool want_ze = false, want_cuda = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ze") == 0) {
            want_ze = true;
        } else if (strcmp(argv[i], "--cuda") == 0) {
            want_cuda = true;
        } else if (strcmp(argv[i], "--help") == 0 ||
                   strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "umf-gpu-mock-env: unknown argument '%s'\n",
                    argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!want_ze && !want_cuda) {
        want_ze = want_cuda = true;
    }

    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        fprintf(stderr, "umf-gpu-mock-env: cannot find its own location: %s\n",
                strerror(errno));
        return 1;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL) {
        fprintf(stderr, "umf-gpu-mock-env: odd location '%s'\n", self);
        return 1;
    }
    *slash = '\0';

    int printed = 0;
    char dir[PATH_MAX], path[PATH_MAX + 64];
    if (want_ze && find_library(self, ZE_LIBRARY, dir, sizeof(dir))) {
        snprintf(path, sizeof(path), "%s/%s", dir, ZE_LIBRARY);
        fputs("export ZE_ENABLE_ALT_DRIVERS=", stdout);
        print_quoted(path);
        putchar('\n');
        printed++;
    }
    if (want_cuda &&
        find_library(self, CUDA_FOLDER "/" CUDA_LIBRARY, dir, sizeof(dir))) {
        snprintf(path, sizeof(path), "%s/%s/%s", dir, CUDA_FOLDER,
                 CUDA_LIBRARY);
        fputs("export UMF_GPU_CUDA_LIB=", stdout);
        print_quoted(path);
        putchar('\n');
        snprintf(path, sizeof(path), "%s/%s", dir, CUDA_FOLDER);
        fputs("export LD_LIBRARY_PATH=", stdout);
        print_quoted(path);
        fputs("${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n", stdout);
        printed++;
    }
    if (printed == 0) {
        fprintf(stderr,
                "umf-gpu-mock-env: no emulated driver next to %s (looked in "
                "%s relative to it)\n",
                self, UMF_GPU_MOCK_ENV_LIBDIRS);
        return 1;
    }
    return 0;
}
