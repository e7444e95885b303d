// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Both emulated drivers in one process: each has its own copy of the core
// (allocations, fault rules, counts), and neither exports the core's
// symbols to the other.

#include <dlfcn.h>
#include <stdlib.h>

#include "c_test.h"
#include "ze_test_util.h"

UMF_C_TEST(ZeTwoDrivers, SeparateState) {
    const char *cuda_path = getenv("UMF_GPU_CUDA_LIB");
    if (cuda_path == NULL || cuda_path[0] == '\0') {
        return; // the emulated libcuda is not built here
    }
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ze = ze_test_control();
    UMF_ASSERT(ze != NULL);
    void *lib = dlopen(cuda_path, RTLD_NOW | RTLD_LOCAL);
    UMF_ASSERT(lib != NULL);
    umf_test_mock_control_t cu;
    UMF_ASSERT_EQ(umf_test_mock_control_load(&cu, cuda_path, "umfCudaMock"), 0);
    // The core stays inside each driver.
    UMF_EXPECT(dlsym(lib, "umf_mock_alloc") == NULL);
    UMF_EXPECT(dlsym(ze->library, "umf_mock_alloc") == NULL);
    UMF_EXPECT(dlsym(lib, "umfZeMockGetLiveCount") == NULL);

    int64_t ze_allocs = ze->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    int64_t cu_allocs = cu.get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    void *p = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(p != NULL);
    UMF_EXPECT_EQ(ze->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                  ze_allocs + 1);
    UMF_EXPECT_EQ(cu.get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS), cu_allocs);
    // Rules go to one driver only, and each knows only its entry points.
    UMF_EXPECT_EQ(cu.inject_faults("zeMemFree:1=1"), -1);
    UMF_EXPECT_EQ(ze->inject_faults("cuMemFree_v2:1=1"), -1);
    UMF_ASSERT_EQ(cu.inject_faults("cuMemFree_v2:1+=CUDA_ERROR_UNKNOWN"), 0);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, p), ZE_RESULT_SUCCESS);
    cu.clear_faults();
    UMF_EXPECT_EQ(cu.get_call_count("zeMemFree"), -1);
    UMF_EXPECT_EQ(ze->get_live_count(UMF_GPU_MOCK_LIVE_ALLOCATIONS), ze_allocs);
    // Both stay loaded until exit, as drivers do.
    ze_test_teardown(&t);
}
