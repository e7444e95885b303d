// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero provider's parameters from C, with enumeration values no
// enumerator names (which a C caller can pass and C++ cannot form).

#include <umf/providers/provider_level_zero.h>

#include "c_test.h"

UMF_C_TEST(ZeParamsC, RejectsValuesOutsideTheEnumerations) {
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    UMF_ASSERT_EQ(umfLevelZeroMemoryProviderParamsCreate(&params),
                  UMF_RESULT_SUCCESS);
    const int bad_types[] = {-1, 4, 1000};
    for (unsigned i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++) {
        UMF_EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetMemoryType(
                          params, (umf_usm_memory_type_t)bad_types[i]),
                      UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    const int bad_policies[] = {-1, 3, 1000};
    for (unsigned i = 0; i < sizeof(bad_policies) / sizeof(bad_policies[0]);
         i++) {
        UMF_EXPECT_EQ(
            umfLevelZeroMemoryProviderParamsSetFreePolicy(
                params,
                (umf_level_zero_memory_provider_free_policy_t)bad_policies[i]),
            UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    UMF_EXPECT_EQ(umfLevelZeroMemoryProviderParamsDestroy(params),
                  UMF_RESULT_SUCCESS);
}
