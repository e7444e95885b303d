// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Fuzz target: the emulated drivers' fault-rule parser
// (umf_mock_fault_parse, mock/mock_faults.h) on arbitrary text, and the
// same text through both drivers' control API (umfZeMockInjectFaults,
// umfCudaMockInjectFaults), which adds the rules to a live driver.
//
// Input: a flags byte, then the rules text. The flags choose the names
// table (a Level Zero-like or a CUDA-like one), whether the other driver's
// rules are skipped, the room for rules (0 to 64) and for the error message
// (0 to 255 bytes, in a buffer of exactly that size), and whether the text
// also goes to a driver.
//
// Invariants of the parser: on success every rule is well formed (a known
// entry, call number from 1, a percentage up to 100, a result other than
// success) and there are no more than the room allows; printing the rules
// back and parsing that gives the same rules; on failure the message is
// NUL-terminated inside its buffer and says where. A driver accepts the
// text all or nothing, and never crashes.

#include <dlfcn.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umf/gpu_mock.h>

#include "mock_faults.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *spec) {
    fprintf(stderr, "fuzz invariant broken: %s (rules \"%s\")\n", what, spec);
    abort();
}

static const char *const ze_entries[] = {
    "zeInit",
    "zeMemAllocDevice",
    "zeMemAllocHost",
    "zeMemAllocShared",
    "zeMemFree",
    "zeMemGetIpcHandle",
    "zeMemOpenIpcHandle",
    "zeMemCloseIpcHandle",
    "zeContextCreate",
};
static const umf_mock_name_value_t ze_results[] = {
    {"ZE_RESULT_SUCCESS", 0},
    {"ZE_RESULT_ERROR_DEVICE_LOST", 0x70000001},
    {"ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", 0x70000002},
    {"ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", 0x70000003},
    {"ZE_RESULT_ERROR_UNKNOWN", 0x7ffffffe},
};
static const char *const cu_entries[] = {
    "cuInit",
    "cuMemAlloc_v2",
    "cuMemFree_v2",
    "cuMemAllocHost_v2",
    "cuIpcGetMemHandle",
    "cuIpcOpenMemHandle_v2",
    "cuCtxSetCurrent",
};
static const umf_mock_name_value_t cu_results[] = {
    {"CUDA_SUCCESS", 0},
    {"CUDA_ERROR_INVALID_VALUE", 1},
    {"CUDA_ERROR_OUT_OF_MEMORY", 2},
    {"CUDA_ERROR_UNKNOWN", 999},
};
static const umf_mock_fault_names_t tables[2] = {
    {"ze", ze_entries, sizeof(ze_entries) / sizeof(ze_entries[0]), ze_results,
     sizeof(ze_results) / sizeof(ze_results[0])},
    {"cu", cu_entries, sizeof(cu_entries) / sizeof(cu_entries[0]), cu_results,
     sizeof(cu_results) / sizeof(cu_results[0])},
};

typedef int (*inject_fn)(const char *);
typedef void (*clear_fn)(void);
static inject_fn inject[2];
static clear_fn clear[2];

// The drivers, loaded as an application would (not initialised: the control
// API works before zeInit/cuInit).
static void load_driver(int i, const char *path, const char *inject_name,
                        const char *clear_name) {
    void *lib = path != NULL ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (lib != NULL) {
        inject[i] = (inject_fn)dlsym(lib, inject_name);
        clear[i] = (clear_fn)dlsym(lib, clear_name);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    setenv("UMF_GPU_MOCK_LOG", "off", 0);
#ifdef UMF_FUZZ_ZE_DRIVER
    load_driver(0, UMF_FUZZ_ZE_DRIVER, "umfZeMockInjectFaults",
                "umfZeMockClearFaults");
#endif
#ifdef UMF_FUZZ_CUDA_DRIVER
    load_driver(1, UMF_FUZZ_CUDA_DRIVER, "umfCudaMockInjectFaults",
                "umfCudaMockClearFaults");
#endif
    return 0;
}

// Prints rules in the parser's syntax; false if they do not fit.
static bool print_rules(const umf_mock_fault_names_t *names,
                        const umf_mock_fault_rule_t *rules, size_t count,
                        char *out, size_t len) {
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        const umf_mock_fault_rule_t *r = &rules[i];
        char when[48];
        if (r->when == UMF_MOCK_FAULT_PERCENT) {
            snprintf(when, sizeof(when), "p%" PRIu64 ".%03" PRIu64, r->n / 1000,
                     r->n % 1000);
        } else {
            snprintf(when, sizeof(when), "%" PRIu64 "%s", r->n,
                     r->when == UMF_MOCK_FAULT_FROM ? "+" : "");
        }
        int n =
            snprintf(out + at, len - at, "%s%s:%s=%" PRId64, i > 0 ? ";" : "",
                     names->entries[r->entry], when, r->result);
        if (n < 0 || (size_t)n >= len - at) {
            return false;
        }
        at += (size_t)n;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    uint8_t flags = data[0];
    const umf_mock_fault_names_t *names = &tables[flags & 1];
    bool skip_foreign = (flags & 2) != 0;
    size_t max_rules = (size_t)((flags >> 2) % 65);
    size_t err_len = size > 1 ? data[1] : 0;
    const uint8_t *text = data + (size > 1 ? 2 : 1);
    size_t text_len = size > 1 ? size - 2 : 0;

    char *spec = malloc(text_len + 1);
    char *err = err_len > 0 ? malloc(err_len) : NULL;
    umf_mock_fault_rule_t *rules =
        max_rules > 0 ? malloc(max_rules * sizeof(*rules)) : NULL;
    if (spec == NULL || (err_len > 0 && err == NULL) ||
        (max_rules > 0 && rules == NULL)) {
        abort();
    }
    memcpy(spec, text, text_len);
    spec[text_len] = '\0';

    size_t count = 99999;
    bool ok = umf_mock_fault_parse(spec, names, skip_foreign, rules, max_rules,
                                   &count, err, err_len);
    if (count > max_rules) {
        fail("more rules than room", spec);
    }
    if (ok) {
        for (size_t i = 0; i < count; i++) {
            const umf_mock_fault_rule_t *r = &rules[i];
            if (r->entry >= names->entry_count) {
                fail("rule of an unknown entry", spec);
            }
            if (r->result == 0) {
                fail("a rule that returns success", spec);
            }
            if (r->when == UMF_MOCK_FAULT_PERCENT ? r->n > 100000 : r->n == 0) {
                fail("call number 0 or percentage above 100", spec);
            }
        }
        // Printed back, the rules parse to themselves.
        char printed[64 * 96];
        if (print_rules(names, rules, count, printed, sizeof(printed))) {
            umf_mock_fault_rule_t again[64];
            size_t count2 = 0;
            char err2[128];
            if (!umf_mock_fault_parse(printed, names, false, again, 64, &count2,
                                      err2, sizeof(err2))) {
                fprintf(stderr, "%s: %s\n", printed, err2);
                fail("printed rules do not parse", spec);
            }
            if (count2 != count ||
                (count > 0 &&
                 memcmp(again, rules, count * sizeof(*rules)) != 0)) {
                fail("printed rules parse to other rules", spec);
            }
        }
    } else if (err_len > 0) {
        if (memchr(err, '\0', err_len) == NULL) {
            fail("error message not terminated in its buffer", spec);
        }
        if (err_len > 20 && strncmp(err, "fault rules: ", 13) != 0) {
            fail("error message without its prefix", spec);
        }
    }

    // The same text in a live driver: all or nothing, then cleared.
    int d = (flags >> 7) & 1;
    if (inject[d] != NULL && clear[d] != NULL) {
        int r = inject[d](spec);
        if (r != 0 && r != -1) {
            fail("inject returned neither 0 nor -1", spec);
        }
        clear[d]();
    }
    free(rules);
    free(err);
    free(spec);
    return 0;
}
