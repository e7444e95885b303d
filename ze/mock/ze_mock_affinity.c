// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ZE_AFFINITY_MASK, read as Intel's GPU driver reads it (the Level Zero
// loader leaves it to the driver): a comma-separated list of entries, each
// a device index "N", or "N.M" for sub-device M of device N (and "N.M.K"
// for an engine of it). The devices it names are the only ones zeDeviceGet
// returns, numbered from 0 in the order of their physical indices whatever
// the order of the list; indices past the last device are ignored, so are
// repeated ones. Unset, empty or "default": every device.
//
// The emulated devices have no sub-devices, which is what Intel's driver
// makes of a single-tile device: "N.0" (and "N.0.0") expose device N
// whole, and "N.M" with M > 0 exposes nothing. An entry that is not such
// a list of numbers is ignored, with a warning.

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

// One entry [p, end): the device it exposes whole, or -1 for none; false
// when it is malformed.
static bool parse_entry(const char *p, const char *end, unsigned devices,
                        long *device) {
    unsigned long n, sub;
    if (!number(&p, end, &n)) {
        return false;
    }
    bool whole = true;
    for (int level = 0; p < end && level < 2; level++) {
        if (*p != '.') {
            return false;
        }
        p++;
        if (!number(&p, end, &sub)) {
            return false;
        }
        whole = whole && sub == 0; // the one sub-device (and engine)
    }
    if (p != end) {
        return false;
    }
    *device = whole && n < devices ? (long)n : -1;
    return true;
}

unsigned ze_mock_affinity_devices(const char *mask, unsigned devices,
                                  unsigned visible[UMF_MOCK_MAX_DEVICES]) {
    bool exposed[UMF_MOCK_MAX_DEVICES] = {false};
    bool all = mask == NULL || mask[0] == '\0' || strcmp(mask, "default") == 0;
    for (const char *p = mask; !all && p != NULL;) {
        const char *comma = strchr(p, ',');
        const char *end = comma != NULL ? comma : p + strlen(p);
        long device;
        if (!parse_entry(p, end, devices, &device)) {
            UMF_MOCK_LOG_WARN("ZE_AFFINITY_MASK: entry \"%.*s\" is not N, N.M "
                              "or N.M.K: ignored",
                              (int)(end - p), p);
        } else if (device >= 0) {
            exposed[device] = true;
        }
        p = comma != NULL ? comma + 1 : NULL;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < devices && i < UMF_MOCK_MAX_DEVICES; i++) {
        if (all || exposed[i]) {
            visible[n++] = i;
        }
    }
    return n;
}
