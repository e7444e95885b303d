// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The bounds rule of copies, fills, prefetches and advice (mock_range.h).

#include "mock_range.h"

#include <stdarg.h>
#include <stdio.h>

#include "mock_failure.h"
#include "mock_log.h"
#include "mock_vmm.h"

// Logs a refused range and makes it the reason of the failed call.
__attribute__((format(printf, 3, 4))) static void
range_refused(const char *call, const char *what, const char *fmt, ...) {
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    UMF_MOCK_LOG_ERROR("%s: %s %s", call, what, why);
    umf_mock_failure_explain("%s %s", what, why);
}

// Mapped VMM memory: the VMM's rule (mock_vmm.h).
static umf_mock_status_t mapped_range_check(const void *ptr, size_t n,
                                            int device, umf_mock_use_t use,
                                            const char *call,
                                            const char *what) {
    umf_mock_status_t s =
        use == UMF_MOCK_USE_MAPPED
            ? umf_mock_vmm_mapped(ptr, n)
            : umf_mock_vmm_check(ptr, n, device, use == UMF_MOCK_USE_WRITE);
    if (s == UMF_MOCK_OK) {
        return UMF_MOCK_OK;
    }
    if (s == UMF_MOCK_ERR_PERMISSION) {
        range_refused(call, what,
                      "%p: device %d may not %s this mapped memory (%zu "
                      "bytes; set its access first)",
                      ptr, device, use == UMF_MOCK_USE_WRITE ? "write" : "read",
                      n);
        return UMF_MOCK_ERR_PERMISSION;
    }
    range_refused(call, what, "%p: %zu bytes are not mapped throughout", ptr,
                  n);
    return UMF_MOCK_ERR_INVALID_ARGUMENT;
}

umf_mock_status_t umf_mock_range_check(const void *ptr, size_t n, int device,
                                       umf_mock_use_t use, const char *call,
                                       const char *what,
                                       umf_mock_alloc_info_t *info) {
    umf_mock_alloc_info_t found;
    if (umf_mock_lookup(ptr, &found) != UMF_MOCK_OK) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    umf_mock_status_t s = UMF_MOCK_OK;
    if (found.kind == UMF_MOCK_KIND_MAPPED) {
        s = mapped_range_check(ptr, n, device, use, call, what);
    } else {
        // The registry resolves any byte of the allocation's pages, so ptr
        // may lie past its size already (in the page-rounding tail).
        size_t offset = (size_t)((const char *)ptr - (const char *)found.base);
        if (offset > found.size || n > found.size - offset) {
            range_refused(call, what,
                          "%p: %zu bytes run past the end of allocation "
                          "#%llu [%p, +%zu)",
                          ptr, n, (unsigned long long)found.id, found.base,
                          found.size);
            s = UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
    }
    if (s == UMF_MOCK_OK && info != NULL) {
        *info = found;
    }
    return s;
}
