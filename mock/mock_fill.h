// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Filling memory with a repeated pattern, for both emulated drivers' fills
// and memsets (zeCommandListAppendMemoryFill, cuMemsetD8/D16/D32 and their
// 2D and asynchronous forms). It runs at memset speed for a pattern of one
// byte (or of one repeated byte) and close to it for the others: the
// pattern is laid out once in a block that stays in the first-level cache,
// and the block is copied over the destination.

#ifndef UMF_GPU_MOCK_FILL_H
#define UMF_GPU_MOCK_FILL_H 1

#include <stddef.h>

// The largest pattern (Level Zero's maxMemoryFillPatternSize).
#define UMF_MOCK_FILL_MAX_PATTERN 128

// Writes `size` bytes at `dst`: the `pattern_size` bytes at `pattern`
// (1..UMF_MOCK_FILL_MAX_PATTERN, any size; a power of two divides the
// block evenly) over and over, the last copy cut where `size` ends.
void umf_mock_fill(void *dst, size_t size, const void *pattern,
                   size_t pattern_size);

#endif // UMF_GPU_MOCK_FILL_H
