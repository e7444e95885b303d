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
// The libraries are found relative to this program's own location, in a
// build tree and in an install prefix (mock_locate.h, shared with
// umf-gpu-demo). A driver's lines are printed only when its library is
// there.

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mock_locate.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: umf-gpu-mock-env [--ze] [--cuda]\n"
            "Prints the environment (shell export lines) that runs programs "
            "on the\nemulated Level Zero driver and the emulated libcuda of "
            "umf-gpu:\n"
            "  eval \"$(umf-gpu-mock-env)\"\n"
            "--ze, --cuda: only that driver (default: every driver found).\n"
            "The drivers are looked for relative to this program, in %s.\n"
            "They read UMF_GPU_MOCK_DEVICES, UMF_GPU_MOCK_DEVICE_MEM, "
            "UMF_GPU_MOCK_MEMORY,\nUMF_GPU_MOCK_FAULTS, UMF_GPU_MOCK_SEED, "
            "UMF_GPU_MOCK_LEAKS and UMF_GPU_MOCK_LOG.\n",
            mock_locate_searched());
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

    mock_locate_t where;
    if (mock_locate(&where) != 0) {
        fprintf(stderr, "umf-gpu-mock-env: cannot find its own location: %s\n",
                strerror(errno));
        return 1;
    }

    int printed = 0;
    if (want_ze && where.ze[0] != '\0') {
        fputs("export ZE_ENABLE_ALT_DRIVERS=", stdout);
        print_quoted(where.ze);
        putchar('\n');
        printed++;
    }
    if (want_cuda && where.cuda[0] != '\0') {
        fputs("export UMF_GPU_CUDA_LIB=", stdout);
        print_quoted(where.cuda);
        putchar('\n');
        fputs("export LD_LIBRARY_PATH=", stdout);
        print_quoted(where.cuda_dir);
        fputs("${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n", stdout);
        printed++;
    }
    if (printed == 0) {
        fprintf(stderr,
                "umf-gpu-mock-env: no emulated driver next to %s (looked in "
                "%s relative to it)\n",
                where.self_dir, mock_locate_searched());
        return 1;
    }
    return 0;
}
