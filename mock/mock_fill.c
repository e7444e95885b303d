// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_fill.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// The block the pattern is laid out in: small enough for the first-level
// cache, big enough that each memcpy moves a few kilobytes.
#define BLOCK 4096

static bool one_byte(const unsigned char *p, size_t n) {
    for (size_t i = 1; i < n; i++) {
        if (p[i] != p[0]) {
            return false;
        }
    }
    return true;
}

void umf_mock_fill(void *dst, size_t size, const void *pattern,
                   size_t pattern_size) {
    const unsigned char *p = pattern;
    unsigned char *d = dst;
    if (size == 0 || pattern_size == 0) {
        return;
    }
    if (one_byte(p, pattern_size)) {
        memset(d, p[0], size);
        return;
    }
    // A whole number of patterns fills the block, so that each copy of it
    // starts where the pattern starts.
    _Alignas(64) unsigned char block[BLOCK];
    size_t span = BLOCK / pattern_size * pattern_size;
    size_t n = size < span ? size : span;
    for (size_t off = 0; off < n; off += pattern_size) {
        memcpy(block + off, p, n - off < pattern_size ? n - off : pattern_size);
    }
    size_t off = 0;
    for (; size - off >= span; off += span) {
        memcpy(d + off, block, span);
    }
    memcpy(d + off, block, size - off);
}
