// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Opening a driver library at run time and resolving its entry points. A
// failure is described in words (the library's path, the entry point,
// dlerror's text) for the caller, which logs it once and keeps it as the
// native error of every call that needs the driver (umf_dl_load_error_t).

#ifndef UMF_GPU_UTIL_DL_H
#define UMF_GPU_UTIL_DL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

typedef struct umf_dl_symbol_t {
    const char *name; // the exported name, e.g. "cuMemAlloc_v2"
    void **slot;      // where the address goes; NULL is stored if missing
    bool required;    // a missing required symbol fails the resolution
} umf_dl_symbol_t;

// Returns the instance of `path` the process already has loaded, else loads
// it with RTLD_NOW | RTLD_LOCAL. NULL if it cannot be loaded, with "cannot
// load <path>: <dlerror's words>" in why[why_size] (why may be NULL).
void *umf_dl_open(const char *path, char *why, size_t why_size);

void umf_dl_close(void *lib);

// Resolves each symbol of `symbols` in `lib` into its slot. If a required
// one is missing, returns UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE with
// "<lib_name> lacks the entry point <first>: <dlerror's words>[; also
// missing: <others>]" in why[why_size] (why may be NULL); optional ones
// that are missing are listed in the log at debug level.
umf_result_t umf_dl_resolve(void *lib, const char *lib_name,
                            const umf_dl_symbol_t *symbols, size_t count,
                            char *why, size_t why_size);

// Why a driver could not be loaded: kept by the driver's table module after
// its one attempt, for the log and for the native error of every later call
// that needed the driver (umfGpuMemoryProviderOpsGetLastNativeError).
typedef struct umf_dl_load_error_t {
    int32_t code; // the driver's result: of its init call, or the one that
                  // stands for "the driver is missing"
    char message[512];
} umf_dl_load_error_t;

// Fills *err from `code` and the printf-formatted message, and logs the
// message as an error.
void umf_dl_load_error_set(umf_dl_load_error_t *err, int32_t code,
                           const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif // UMF_GPU_UTIL_DL_H
