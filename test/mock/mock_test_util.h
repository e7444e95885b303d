// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the core's tests share: a made-up driver description (entry points
// and results named like a Level Zero driver's), and initialisation.

#ifndef UMF_GPU_TEST_MOCK_UTIL_H
#define UMF_GPU_TEST_MOCK_UTIL_H 1

#include <stdbool.h>

#include "mock_core.h"

enum {
    TEST_ENTRY_ALLOC = 0,
    TEST_ENTRY_FREE = 1,
    TEST_ENTRY_COPY = 2,
    TEST_ENTRY_COUNT = 3,
};

enum { TEST_OBJECT_CONTEXT = 0, TEST_OBJECT_QUEUE = 1 };

#define TEST_RESULT_OOM 0x70000002
#define TEST_RESULT_INVALID 0x78000004

extern const umf_mock_driver_desc_t test_desc;

// Initialises the core with test_desc; false (and a test failure) if the
// environment's configuration was rejected.
bool test_core_init(void);

#endif // UMF_GPU_TEST_MOCK_UTIL_H
