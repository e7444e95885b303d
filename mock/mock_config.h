// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Configuration of the emulated drivers, from environment variables read
// once at initialisation (umf_mock_init). Every value a user may tune is
// here, with its default:
//
//   UMF_GPU_MOCK_DEVICES     number of devices, 0..64              (2)
//   UMF_GPU_MOCK_DEVICE_MEM  memory per device, bytes with an
//                            optional K, M or G suffix (powers of
//                            1024), 4K..4T                         (4G)
//   UMF_GPU_MOCK_SUBDEVICES  sub-devices of each device, 0..8
//                            (Level Zero; they share its memory)  (0)
//   UMF_GPU_MOCK_MEMORY      arena | memfd | malloc                (arena)
//   UMF_GPU_MOCK_FAULTS      fault rules (mock_faults.h)           (none)
//   UMF_GPU_MOCK_SEED        seed of the pP fault rules, decimal
//                            or 0x hex                             (0)
//   UMF_GPU_MOCK_LEAKS       off | report | strict                 (report)
//   UMF_GPU_MOCK_LOG         off|error|warn|info|debug (mock_log.h) (warn)
//
// An empty variable counts as unset. A malformed one is an error: the
// driver fails to initialise and logs which variable and why.

#ifndef UMF_GPU_MOCK_CONFIG_H
#define UMF_GPU_MOCK_CONFIG_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UMF_MOCK_MAX_DEVICES 64
#define UMF_MOCK_DEFAULT_DEVICES 2
#define UMF_MOCK_MAX_SUBDEVICES 8
#define UMF_MOCK_DEFAULT_DEVICE_MEM (4ull << 30)
#define UMF_MOCK_MIN_DEVICE_MEM (4ull << 10)
#define UMF_MOCK_MAX_DEVICE_MEM (4ull << 40)

// The exit status of a process that leaked under UMF_GPU_MOCK_LEAKS=strict.
#define UMF_MOCK_LEAK_EXIT_STATUS 86

typedef enum umf_mock_memory_mode_t {
    UMF_MOCK_MEMORY_ARENA = 0,  // one sparse memfd arena per device
    UMF_MOCK_MEMORY_MEMFD = 1,  // one memfd per allocation
    UMF_MOCK_MEMORY_MALLOC = 2, // the C heap; no IPC
} umf_mock_memory_mode_t;

typedef enum umf_mock_leaks_mode_t {
    UMF_MOCK_LEAKS_OFF = 0,
    UMF_MOCK_LEAKS_REPORT = 1,
    UMF_MOCK_LEAKS_STRICT = 2,
} umf_mock_leaks_mode_t;

typedef struct umf_mock_config_t {
    unsigned devices;
    unsigned subdevices;
    uint64_t device_mem;
    umf_mock_memory_mode_t memory;
    umf_mock_leaks_mode_t leaks;
    uint64_t seed;
    const char *faults; // the UMF_GPU_MOCK_FAULTS text, or NULL
} umf_mock_config_t;

// Looks a variable up; NULL when unset. getenv() in the drivers, a table in
// tests.
typedef const char *(*umf_mock_env_fn)(void *ctx, const char *name);

// Fills *cfg from the variables that `env` returns. On a malformed value,
// writes the reason (naming the variable) to err and returns false; *cfg is
// then unspecified.
bool umf_mock_config_load(umf_mock_config_t *cfg, umf_mock_env_fn env,
                          void *ctx, char *err, size_t err_len);

// "123", "64K", "512M", "4G" (also lower case) -> bytes. False for anything
// else, for overflow, and for NULL.
bool umf_mock_parse_size(const char *text, uint64_t *out);

// Decimal, or hexadecimal after 0x; the whole string; no sign.
bool umf_mock_parse_u64(const char *text, uint64_t *out);

const char *umf_mock_memory_mode_name(umf_mock_memory_mode_t mode);

#endif // UMF_GPU_MOCK_CONFIG_H
