// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Memory for structures read at random with many entries alive (the
// ownership table's segment arrays, the emulated arena's records): with 4
// KiB pages most such reads would also miss the TLB, and in a virtual
// machine a page walk can cost more than the cache miss itself. So they are
// mapped aligned to, and advised into, transparent huge pages. The advice
// is only that: where the system gives none, they are 4 KiB pages.

#ifndef UMF_GPU_UTIL_HUGE_H
#define UMF_GPU_UTIL_HUGE_H 1

#include <stddef.h>

#define UMF_HUGE_PAGE ((size_t)2 << 20)

// `bytes` rounded up to a huge page.
static inline size_t umf_huge_size(size_t bytes) {
    return (bytes + UMF_HUGE_PAGE - 1) & ~(UMF_HUGE_PAGE - 1);
}

// Zeroed private anonymous memory of umf_huge_size(bytes), aligned to a
// huge page; `reserve` false: not counted against the commit limit
// (MAP_NORESERVE, for large sparse arrays). NULL on failure. Free with
// munmap(ptr, umf_huge_size(bytes)).
void *umf_huge_map(size_t bytes, int reserve);

#endif // UMF_GPU_UTIL_HUGE_H
