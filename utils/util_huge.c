// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_huge.h"

#include <stdint.h>
#include <sys/mman.h>

void *umf_huge_map(size_t bytes, int reserve) {
    bytes = umf_huge_size(bytes);
    size_t span = bytes + UMF_HUGE_PAGE; // room to align
    char *r = mmap(NULL, span, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (reserve ? 0 : MAP_NORESERVE),
                   -1, 0);
    if (r == MAP_FAILED) {
        return NULL;
    }
    char *a =
        (char *)(((uintptr_t)r + UMF_HUGE_PAGE - 1) & ~(UMF_HUGE_PAGE - 1));
    if (a > r) {
        munmap(r, (size_t)(a - r));
    }
    if (a + bytes < r + span) {
        munmap(a + bytes, (size_t)(r + span - (a + bytes)));
    }
    (void)madvise(a, bytes, MADV_HUGEPAGE);
    return a;
}
