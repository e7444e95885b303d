// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Core API tests written in C, through the C shim.

#include <stddef.h>

#include <umf/memory_provider.h>

#include "c_test.h"
#include "test_providers.h"

UMF_C_TEST(CoreC, CreateAndDestroyNullProvider) {
    umf_memory_provider_handle_t h = NULL;
    UMF_ASSERT_EQ(
        umfMemoryProviderCreate(umf_test_null_provider_ops(), NULL, &h),
        UMF_RESULT_SUCCESS);
    UMF_ASSERT(h != NULL);
    UMF_EXPECT_STREQ(umfMemoryProviderGetName(h), "null");
    umfMemoryProviderDestroy(h);
}
