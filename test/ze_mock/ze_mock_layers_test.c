// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The loader's validation layer checks parameters before the driver sees
// them; without it, the driver does.

#include <stdlib.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_test_util.h"

// Calls zeMemAllocDevice with a NULL context and reports the result and how
// many calls reached the driver, with or without the validation layer.
UMF_TEST_CHILD(ze_null_context) {
    if (argc > 0 && argv[0][0] == 'v') {
        setenv("ZE_ENABLE_VALIDATION_LAYER", "1", 1);
        setenv("ZE_ENABLE_PARAMETER_VALIDATION", "1", 1);
    } else {
        unsetenv("ZE_ENABLE_VALIDATION_LAYER");
        unsetenv("ZE_ENABLE_PARAMETER_VALIDATION");
    }
    unsetenv("ZE_ENABLE_LOADER_INTERCEPT");
    ze_test_t t;
    if (!ze_test_setup(&t)) {
        return 10;
    }
    const umf_test_mock_control_t *ctl = ze_test_control();
    if (ctl == NULL) {
        return 11;
    }
    ctl->reset_call_counts();
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *p = NULL;
    int64_t out[2];
    out[0] = zeMemAllocDevice(NULL, &dd, 64, 0, t.devices[0], &p);
    out[1] = ctl->get_call_count("zeMemAllocDevice");
    ze_test_teardown(&t);
    return umf_test_send(sock, out, sizeof(out)) ? 12 : 0;
}

static bool null_context(const char *mode, int64_t out[2]) {
    const char *args[] = {mode, NULL};
    umf_test_child_t c;
    if (umf_test_child_start(&c, "ze_null_context", args) != 0) {
        return false;
    }
    bool got = umf_test_recv(c.sock, out, 2 * sizeof(int64_t)) == 0;
    return umf_test_child_wait(&c) == 0 && got;
}

UMF_C_TEST(ZeLayers, ValidationRejectsNullContextBeforeTheDriver) {
    int64_t out[2];
    UMF_ASSERT(null_context("validation", out));
    UMF_EXPECT_EQ(out[0], ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(out[1], 0); // the driver never saw the call
    UMF_ASSERT(null_context("plain", out));
    UMF_EXPECT_EQ(out[0], ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(out[1], 1); // the driver refused it itself
}
