// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Opening a GPU driver library the way the library does (the path an
// environment variable names, else the default soname) and resolving the
// entry points a program calls directly; umf-gpu-demo and umf-gpu-bench
// share it. The library stays open for the life of the process: the
// providers' tables point into the same instance.

#ifndef UMF_GPU_TOOLS_DRIVER_OPEN_H
#define UMF_GPU_TOOLS_DRIVER_OPEN_H 1

#include <stddef.h>

typedef struct driver_symbol_t {
    const char *name; // e.g. "cuMemAlloc_v2"
    void **slot;      // where its address goes
} driver_symbol_t;

// Opens the library `env` names (when set and not empty), else `fallback`,
// and resolves every symbol of `symbols`. Returns the library and sets *path
// to the name it opened; or NULL with the reason, naming `what` (e.g. "the
// CUDA driver"), in why[why_len].
void *driver_open(const char *env, const char *fallback, const char *what,
                  const driver_symbol_t *symbols, size_t count,
                  const char **path, char *why, size_t why_len);

#endif // UMF_GPU_TOOLS_DRIVER_OPEN_H
