// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_test_util.h"

#include "c_test.h"

static const char *const entries[TEST_ENTRY_COUNT] = {
    "zeTestAlloc",
    "zeTestFree",
    "zeTestCopy",
};

static const umf_mock_name_value_t results[] = {
    {"ZE_RESULT_SUCCESS", 0},
    {"ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", TEST_RESULT_OOM},
    {"ZE_RESULT_ERROR_INVALID_ARGUMENT", TEST_RESULT_INVALID},
};

static const char *const object_kinds[] = {"context", "queue"};

const umf_mock_driver_desc_t test_desc = {
    .name = "test-mock",
    .faults =
        {
            .prefix = "ze",
            .entries = entries,
            .entry_count = TEST_ENTRY_COUNT,
            .results = results,
            .result_count = sizeof(results) / sizeof(results[0]),
        },
    .object_kinds = object_kinds,
    .object_kind_count = 2,
};

bool test_core_init(void) {
    umf_mock_status_t s = umf_mock_init(&test_desc);
    if (s != UMF_MOCK_OK) {
        umf_c_test_fail(__FILE__, __LINE__, "umf_mock_init: %s",
                        umf_mock_status_name(s));
        return false;
    }
    return true;
}
