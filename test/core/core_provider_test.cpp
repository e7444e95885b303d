// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Core API tests: ops validation, argument checks, dispatch, last failed
// provider.

#include <gtest/gtest.h>

#include <umf/memory_provider.h>

#include "test_providers.h"

TEST(Core, CreateRejectsNullOps) {
    umf_memory_provider_handle_t h = nullptr;
    EXPECT_EQ(umfMemoryProviderCreate(nullptr, nullptr, &h),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}
