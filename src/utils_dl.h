// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Opening a driver library at run time and resolving its entry points, with
// a log line that names whatever is missing.

#ifndef UMF_GPU_UTILS_DL_H
#define UMF_GPU_UTILS_DL_H 1

#include <stdbool.h>
#include <stddef.h>

#include <umf/base.h>

typedef struct umf_dl_symbol_t {
    const char *name; // the exported name, e.g. "cuMemAlloc_v2"
    void **slot;      // where the address goes; NULL is stored if missing
    bool required;    // a missing required symbol fails the resolution
} umf_dl_symbol_t;

// Returns the instance of `path` the process already has loaded, else loads
// it with RTLD_NOW | RTLD_LOCAL. NULL (and an error log line with dlerror's
// reason) if it cannot be loaded.
void *umf_dl_open(const char *path);

void umf_dl_close(void *lib);

// Resolves each symbol of `symbols` in `lib` into its slot. Returns
// UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, after one error log line that
// lists every missing required name, if any required symbol is missing;
// optional ones that are missing are listed at debug level.
umf_result_t umf_dl_resolve(void *lib, const char *lib_name,
                            const umf_dl_symbol_t *symbols, size_t count);

#endif // UMF_GPU_UTILS_DL_H
