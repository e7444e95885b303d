// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pattern fill both emulated drivers use: every pattern size, sizes
// that end inside a pattern, inside the block and past it, and no byte
// written past the end.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "mock_fill.h"

// The first byte at which `buf` differs from the pattern repeated, or
// `size` when it does not.
static size_t first_wrong(const unsigned char *buf, size_t size,
                          const unsigned char *pattern, size_t pattern_size) {
    for (size_t i = 0; i < size; i++) {
        if (buf[i] != pattern[i % pattern_size]) {
            return i;
        }
    }
    return size;
}

UMF_C_TEST(MockFill, EveryPatternSizeAndEnd) {
    enum { MAX = 3 * 4096 + 200, GUARD = 64 };
    unsigned char *buf = malloc(MAX + GUARD);
    UMF_ASSERT(buf != NULL);
    const size_t sizes[] = {0,    1,    2,    3,    127,  128,   129,
                            4095, 4096, 4097, 8192, 8193, 12288, MAX};
    for (size_t ps = 1; ps <= UMF_MOCK_FILL_MAX_PATTERN; ps++) {
        unsigned char pattern[UMF_MOCK_FILL_MAX_PATTERN];
        for (size_t i = 0; i < ps; i++) {
            pattern[i] = (unsigned char)(7 * i + ps);
        }
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            size_t n = sizes[k];
            memset(buf, 0xee, MAX + GUARD);
            umf_mock_fill(buf, n, pattern, ps);
            size_t bad = first_wrong(buf, n, pattern, ps);
            UMF_C_CHECK_(bad == n, (void)0, "pattern %zu, size %zu: byte %zu",
                         ps, n, bad);
            UMF_C_CHECK_(buf[n] == 0xee, (void)0,
                         "pattern %zu, size %zu: wrote past the end", ps, n);
        }
    }
    free(buf);
}

UMF_C_TEST(MockFill, OneRepeatedByteIsAMemset) {
    unsigned char buf[300], pattern[16];
    memset(pattern, 0x5a, sizeof(pattern));
    memset(buf, 0, sizeof(buf));
    umf_mock_fill(buf + 1, 257, pattern, sizeof(pattern));
    UMF_EXPECT_EQ(buf[0], 0);
    UMF_EXPECT_EQ(first_wrong(buf + 1, 257, pattern, 16), 257);
    UMF_EXPECT_EQ(buf[258], 0);
}
