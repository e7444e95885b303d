// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reading and writing the fields of the drivers' IPC handles (byte arrays,
// host byte order), and the checksum that tells a handle from garbage.
// Header-only: the memory and event handles (mock_ipc.c, mock_events.c)
// share it.

#ifndef UMF_GPU_MOCK_BYTES_H
#define UMF_GPU_MOCK_BYTES_H 1

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void umf_mock_put32(unsigned char *p, uint32_t v) {
    memcpy(p, &v, sizeof(v));
}

static inline void umf_mock_put64(unsigned char *p, uint64_t v) {
    memcpy(p, &v, sizeof(v));
}

static inline uint32_t umf_mock_get32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint64_t umf_mock_get64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

// FNV-1a over `n` bytes, continuing from `h` (start: UMF_MOCK_FNV_START).
// It catches corruption, not forgery.
#define UMF_MOCK_FNV_START 2166136261u
static inline uint32_t umf_mock_fnv1a(uint32_t h, const unsigned char *p,
                                      size_t n) {
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

#endif // UMF_GPU_MOCK_BYTES_H
