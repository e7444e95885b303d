// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Which devices a process sees: CUDA_VISIBLE_DEVICES, read once by the first
// cuInit, as NVIDIA's driver reads it, on top of the emulator's own devices
// (UMF_GPU_MOCK_DEVICES, the "physical" ones here).
//
// The value is a comma-separated sequence of device identifiers: an index of
// a physical device (decimal), or "GPU-" and the beginning of a device's
// UUID as cuDeviceGetUuid gives it and nvidia-smi prints it
// (GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, hex digits of either case),
// enough of it to name one device. The visible devices are those of the
// sequence, in its order, numbered from 0; the sequence ends at its first
// invalid entry (an index out of range, a prefix that names no device or
// more than one, a device named twice, a MIG instance, anything else), as
// "0,2,-1,1" shows devices 0 and 2. Spaces around an entry are ignored. An
// empty value shows no device (cuInit: CUDA_ERROR_NO_DEVICE); unset, all.
//
// The core's devices (memory, arenas, limits) are the visible ones, numbered
// as CUDA numbers them; what names a physical device (its UUID, PCI bus id
// and name) follows the physical index, so that two processes that see
// different devices agree on which device is which.

#include "cuda_mock_core.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mock_log.h"

// The physical index of each visible device; written once under the core's
// initialisation, read after cuInit.
static unsigned char physical_of[UMF_MOCK_MAX_DEVICES];

void cuda_mock_device_uuid(unsigned physical, CUuuid *uuid) {
    static const char tag[12] = {'u', 'm', 'f', '-', 'g', 'p',
                                 'u', '-', 'c', 'u', 'd', 'a'};
    memcpy(uuid->bytes, tag, sizeof(tag));
    for (int i = 0; i < 4; i++) {
        uuid->bytes[12 + i] = (char)(unsigned char)(physical >> (8 * (3 - i)));
    }
}

unsigned cuda_mock_device_physical(CUdevice dev) {
    return physical_of[dev];
}

int cuda_mock_device_of_physical(unsigned physical) {
    unsigned n = umf_mock_device_count();
    for (unsigned d = 0; d < n; d++) {
        if (physical_of[d] == physical) {
            return (int)d;
        }
    }
    return -1;
}

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" of a physical device.
#define UUID_TEXT_LEN 40
static void uuid_text(unsigned physical, char out[UUID_TEXT_LEN + 1]) {
    CUuuid u;
    cuda_mock_device_uuid(physical, &u);
    const unsigned char *b = (const unsigned char *)u.bytes;
    snprintf(out, UUID_TEXT_LEN + 1,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
             "%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
             b[11], b[12], b[13], b[14], b[15]);
}

// The physical device entry [s, s + len) names among `configured`, or -1.
static int parse_entry(const char *s, size_t len, unsigned configured) {
    while (len > 0 && isspace((unsigned char)*s)) {
        s++, len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1])) {
        len--;
    }
    if (len == 0) {
        return -1;
    }
    if (len > 4 && strncmp(s, "GPU-", 4) == 0) {
        int found = -1;
        for (unsigned p = 0; p < configured; p++) {
            char text[UUID_TEXT_LEN + 1];
            uuid_text(p, text);
            if (len <= UUID_TEXT_LEN && strncasecmp(text, s, len) == 0) {
                if (found >= 0) {
                    return -1; // more than one device has that prefix
                }
                found = (int)p;
            }
        }
        return found;
    }
    unsigned long index = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]) || index >= configured) {
            return -1;
        }
        index = index * 10 + (unsigned long)(s[i] - '0');
    }
    return index < configured ? (int)index : -1;
}

unsigned cuda_mock_visible_select(unsigned configured) {
    for (unsigned d = 0; d < UMF_MOCK_MAX_DEVICES; d++) {
        physical_of[d] = (unsigned char)d;
    }
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (v == NULL) {
        return configured;
    }
    bool seen[UMF_MOCK_MAX_DEVICES] = {false};
    unsigned count = 0;
    const char *s = v;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma != NULL ? (size_t)(comma - s) : strlen(s);
        int p = parse_entry(s, len, configured);
        if (p < 0 || seen[p]) {
            UMF_MOCK_LOG_INFO("CUDA_VISIBLE_DEVICES='%s': entry '%.*s' names "
                              "no device (of %u) or one named before; it "
                              "ends the list",
                              v, (int)len, s, configured);
            break;
        }
        seen[p] = true;
        physical_of[count++] = (unsigned char)p;
        if (comma == NULL) {
            break;
        }
        s = comma + 1;
    }
    UMF_MOCK_LOG_DEBUG("CUDA_VISIBLE_DEVICES='%s': %u of %u devices", v, count,
                       configured);
    return count;
}
