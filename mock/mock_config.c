// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_config.h"

#include "util_fd_socket.h"

#include <stdio.h>
#include <string.h>

bool umf_mock_parse_u64(const char *text, uint64_t *out) {
    if (text == NULL || out == NULL || text[0] == '\0') {
        return false;
    }
    uint64_t base = 10, value = 0;
    const char *p = text;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
        if (*p == '\0') {
            return false;
        }
    }
    for (; *p != '\0'; p++) {
        uint64_t digit;
        if (*p >= '0' && *p <= '9') {
            digit = (uint64_t)(*p - '0');
        } else if (base == 16 && *p >= 'a' && *p <= 'f') {
            digit = (uint64_t)(*p - 'a' + 10);
        } else if (base == 16 && *p >= 'A' && *p <= 'F') {
            digit = (uint64_t)(*p - 'A' + 10);
        } else {
            return false;
        }
        if (value > (UINT64_MAX - digit) / base) {
            return false;
        }
        value = value * base + digit;
    }
    *out = value;
    return true;
}

bool umf_mock_parse_size(const char *text, uint64_t *out) {
    if (text == NULL || out == NULL) {
        return false;
    }
    size_t len = strlen(text);
    unsigned shift = 0;
    if (len > 0) {
        switch (text[len - 1]) {
        case 'k':
        case 'K':
            shift = 10;
            break;
        case 'm':
        case 'M':
            shift = 20;
            break;
        case 'g':
        case 'G':
            shift = 30;
            break;
        default:
            break;
        }
    }
    if (shift != 0) {
        len--;
    }
    char digits[32];
    if (len == 0 || len >= sizeof(digits)) {
        return false;
    }
    memcpy(digits, text, len);
    digits[len] = '\0';
    for (size_t i = 0; i < len; i++) {
        if (digits[i] < '0' || digits[i] > '9') {
            return false; // decimal only: "0x10G" would be a puzzle
        }
    }
    uint64_t value;
    if (!umf_mock_parse_u64(digits, &value) || value > (UINT64_MAX >> shift)) {
        return false;
    }
    *out = value << shift;
    return true;
}

const char *umf_mock_memory_mode_name(umf_mock_memory_mode_t mode) {
    switch (mode) {
    case UMF_MOCK_MEMORY_ARENA:
        return "arena";
    case UMF_MOCK_MEMORY_MEMFD:
        return "memfd";
    case UMF_MOCK_MEMORY_MALLOC:
        return "malloc";
    }
    return "unknown";
}

static const char *lookup(umf_mock_env_fn env, void *ctx, const char *name) {
    const char *value = env(ctx, name);
    return value != NULL && value[0] != '\0' ? value : NULL;
}

// Reads variable `name`, one of three words, into *out (left alone when
// unset). False, with the reason in err, for any other value.
static bool pick3(umf_mock_env_fn env, void *ctx, const char *name,
                  const char *const names[3], unsigned *out, char *err,
                  size_t err_len) {
    const char *value = lookup(env, ctx, name);
    if (value == NULL) {
        return true;
    }
    for (unsigned i = 0; i < 3; i++) {
        if (strcmp(value, names[i]) == 0) {
            *out = i;
            return true;
        }
    }
    snprintf(err, err_len, "%s='%s' is not one of %s, %s, %s", name, value,
             names[0], names[1], names[2]);
    return false;
}

bool umf_mock_config_load(umf_mock_config_t *cfg, umf_mock_env_fn env,
                          void *ctx, char *err, size_t err_len) {
    static const char *const memory_names[] = {"arena", "memfd", "malloc"};
    static const char *const leaks_names[] = {"off", "report", "strict"};
    if (cfg == NULL || env == NULL) {
        snprintf(err, err_len, "no configuration to fill");
        return false;
    }
    cfg->devices = UMF_MOCK_DEFAULT_DEVICES;
    cfg->subdevices = 0;
    cfg->device_mem = UMF_MOCK_DEFAULT_DEVICE_MEM;
    cfg->memory = UMF_MOCK_MEMORY_ARENA;
    cfg->leaks = UMF_MOCK_LEAKS_REPORT;
    cfg->seed = 0;
    cfg->faults = lookup(env, ctx, "UMF_GPU_MOCK_FAULTS");

    const char *v = lookup(env, ctx, "UMF_GPU_MOCK_DEVICES");
    uint64_t n;
    if (v != NULL) {
        if (!umf_mock_parse_u64(v, &n) || n > UMF_MOCK_MAX_DEVICES) {
            snprintf(err, err_len,
                     "UMF_GPU_MOCK_DEVICES='%s' is not a number of devices "
                     "from 0 to %d",
                     v, UMF_MOCK_MAX_DEVICES);
            return false;
        }
        cfg->devices = (unsigned)n;
    }
    v = lookup(env, ctx, "UMF_GPU_MOCK_SUBDEVICES");
    if (v != NULL) {
        if (!umf_mock_parse_u64(v, &n) || n > UMF_MOCK_MAX_SUBDEVICES) {
            snprintf(err, err_len,
                     "UMF_GPU_MOCK_SUBDEVICES='%s' is not a number of "
                     "sub-devices from 0 to %d",
                     v, UMF_MOCK_MAX_SUBDEVICES);
            return false;
        }
        cfg->subdevices = (unsigned)n;
    }
    v = lookup(env, ctx, "UMF_GPU_MOCK_DEVICE_MEM");
    if (v != NULL) {
        if (!umf_mock_parse_size(v, &n) || n < UMF_MOCK_MIN_DEVICE_MEM ||
            n > UMF_MOCK_MAX_DEVICE_MEM) {
            snprintf(err, err_len,
                     "UMF_GPU_MOCK_DEVICE_MEM='%s' is not a size from 4K to "
                     "4096G (bytes, or a number with a K, M or G suffix)",
                     v);
            return false;
        }
        cfg->device_mem = n;
    }
    unsigned memory = cfg->memory, leaks = cfg->leaks;
    if (!pick3(env, ctx, "UMF_GPU_MOCK_MEMORY", memory_names, &memory, err,
               err_len) ||
        !pick3(env, ctx, "UMF_GPU_MOCK_LEAKS", leaks_names, &leaks, err,
               err_len)) {
        return false;
    }
    cfg->memory = (umf_mock_memory_mode_t)memory;
    cfg->leaks = (umf_mock_leaks_mode_t)leaks;
    v = lookup(env, ctx, "UMF_GPU_MOCK_SEED");
    if (v != NULL && !umf_mock_parse_u64(v, &cfg->seed)) {
        snprintf(err, err_len,
                 "UMF_GPU_MOCK_SEED='%s' is not an unsigned 64-bit number "
                 "(decimal or 0x hex)",
                 v);
        return false;
    }
    // The fd server's variables (utils/util_fd_settings.c reads them itself,
    // from the process's environment).
    const char *bad = NULL;
    if (!umf_fd_socket_env_ok(&bad)) {
        snprintf(err, err_len,
                 "%s is malformed (UMF_GPU_IPC_FD_TRANSFER auto|socket|pidfd, "
                 "UMF_GPU_IPC_SOCKET_DIR an absolute path of at most 39 "
                 "bytes, UMF_GPU_IPC_ALLOWED_UIDS up to 16 uids separated by "
                 "commas)",
                 bad);
        return false;
    }
    return true;
}
