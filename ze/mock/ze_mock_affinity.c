// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ZE_AFFINITY_MASK, read as Intel's GPU driver reads it (the Level Zero
// loader leaves it to the driver): a comma-separated list of entries, each
// a device index "N", or "N.M" for sub-device M of device N (and "N.M.K"
// for engine K of it). The devices it names are the only ones zeDeviceGet
// returns, numbered from 0 in the order of their physical indices whatever
// the order of the list; indices past the last device (or sub-device) are
// ignored, so are repeated ones. Unset, empty or "default": every device.
//
// "N" exposes device N whole, with all its sub-devices. "N.M" entries
// select sub-devices of N: one alone is exposed as a device of its own,
// several as device N with those sub-devices only. A device without
// sub-devices (UMF_GPU_MOCK_SUBDEVICES=0, the default) is what Intel's
// driver makes of a single-tile device: "N.0" exposes it whole. Each
// sub-device has one engine: "N.M.0" is "N.M", "N.M.K" with K > 0 names
// nothing. An entry that is not such a list of numbers is ignored, with a
// warning.

#include <limits.h>
#include <string.h>

#include "ze_mock_internal.h"

// Parses one unsigned decimal number at *p; false for none or overflow.
static bool number(const char **p, const char *end, unsigned long *out) {
    const char *s = *p;
    unsigned long v = 0;
    while (s < end && *s >= '0' && *s <= '9') {
        if (v > (ULONG_MAX - 9) / 10) {
            return false;
        }
        v = v * 10 + (unsigned long)(*s - '0');
        s++;
    }
    if (s == *p) {
        return false;
    }
    *p = s;
    *out = v;
    return true;
}

// One entry [p, end): the device it names and the sub-device (-1: whole),
// or *device = -1 for nothing; false when it is malformed.
static bool parse_entry(const char *p, const char *end, unsigned devices,
                        unsigned subdevices, long *device, long *sub) {
    unsigned long n, m = 0, k = 0;
    if (!number(&p, end, &n)) {
        return false;
    }
    int levels = 0;
    for (; p < end && levels < 2; levels++) {
        if (*p != '.') {
            return false;
        }
        p++;
        if (!number(&p, end, levels == 0 ? &m : &k)) {
            return false;
        }
    }
    if (p != end) {
        return false;
    }
    *sub = -1;
    *device = n < devices ? (long)n : -1;
    if (levels > 0 && subdevices > 0) {
        *sub = (long)m;
        if (m >= subdevices) {
            *device = -1;
        }
    }
    // One engine per sub-device; a device without sub-devices is its own
    // sub-device 0.
    if (k > 0 || (subdevices == 0 && m > 0)) {
        *device = -1;
    }
    return true;
}

unsigned
ze_mock_affinity_devices(const char *mask, unsigned devices,
                         unsigned subdevices,
                         ze_mock_affinity_t out[UMF_MOCK_MAX_DEVICES]) {
    bool whole[UMF_MOCK_MAX_DEVICES] = {false};
    uint32_t subs[UMF_MOCK_MAX_DEVICES] = {0};
    bool all = mask == NULL || mask[0] == '\0' || strcmp(mask, "default") == 0;
    for (const char *p = mask; !all && p != NULL;) {
        const char *comma = strchr(p, ',');
        const char *end = comma != NULL ? comma : p + strlen(p);
        long device, sub;
        if (!parse_entry(p, end, devices, subdevices, &device, &sub)) {
            UMF_MOCK_LOG_WARN("ZE_AFFINITY_MASK: entry \"%.*s\" is not N, N.M "
                              "or N.M.K: ignored",
                              (int)(end - p), p);
        } else if (device >= 0 && sub < 0) {
            whole[device] = true;
        } else if (device >= 0) {
            subs[device] |= (uint32_t)1 << sub;
        }
        p = comma != NULL ? comma + 1 : NULL;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < devices && i < UMF_MOCK_MAX_DEVICES; i++) {
        if (all || whole[i] || subs[i] != 0) {
            out[n].device = i;
            out[n].whole = all || whole[i];
            out[n].subs = subs[i];
            n++;
        }
    }
    return n;
}
