// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Fault rules through the control API and through UMF_GPU_MOCK_FAULTS, and
// the per-entry call counts.

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_test_child_output.h"
#include "test_child.h"
#include "ze_test_util.h"

static ze_result_t alloc_free(ze_test_t *t) {
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *p = NULL;
    ze_result_t r = zeMemAllocDevice(t->ctx, &dd, 64, 0, t->devices[0], &p);
    if (r == ZE_RESULT_SUCCESS) {
        zeMemFree(t->ctx, p);
    }
    return r;
}

UMF_C_TEST(ZeFaults, ThroughTheControlApi) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    ctl->clear_faults();
    UMF_ASSERT_EQ(ctl->inject_faults("zeMemAllocDevice:2=ZE_RESULT_ERROR_OUT_"
                                     "OF_DEVICE_MEMORY"),
                  0);
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_SUCCESS);
    ctl->clear_faults();

    UMF_ASSERT_EQ(ctl->inject_faults(" zeMemAllocDevice : 2+ = 0x70000003 "),
                  0);
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_SUCCESS);
    for (int i = 0; i < 5; i++) {
        UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    }
    ctl->clear_faults();
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_SUCCESS);

    // Any entry point, e.g. a copy.
    UMF_ASSERT_EQ(ctl->inject_faults("zeCommandListAppendMemoryCopy:1=ZE_"
                                     "RESULT_ERROR_DEVICE_LOST"),
                  0);
    char a[4] = "abc", b[4] = {0};
    UMF_EXPECT_EQ(ze_test_copy(&t, b, a, 4), ZE_RESULT_ERROR_DEVICE_LOST);
    UMF_EXPECT_EQ(b[0], 0); // a failed call does nothing
    UMF_EXPECT_EQ(ze_test_copy(&t, b, a, 4), ZE_RESULT_SUCCESS);
    ctl->clear_faults();

    // p100 and p0.
    UMF_ASSERT_EQ(ctl->inject_faults("zeMemAllocDevice:p100=ZE_RESULT_ERROR_"
                                     "UNKNOWN;zeMemFree:p0=1"),
                  0);
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_ERROR_UNKNOWN);
    ctl->clear_faults();

    // Malformed, unknown, or another driver's: refused, nothing added.
    UMF_EXPECT_EQ(ctl->inject_faults("zeMemAllocDevice:1"), -1);
    UMF_EXPECT_EQ(ctl->inject_faults("zeMemAllocDevice:1=NOT_A_RESULT"), -1);
    UMF_EXPECT_EQ(ctl->inject_faults("zeNoSuchEntry:1=1"), -1);
    UMF_EXPECT_EQ(ctl->inject_faults("cuMemAlloc_v2:1=2"), -1);
    UMF_EXPECT_EQ(ctl->inject_faults("zeMemAllocDevice:1=1;garbage"), -1);
    UMF_EXPECT_EQ(ctl->inject_faults(NULL), -1);
    UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(ZeFaults, CallCounts) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control();
    UMF_ASSERT(ctl != NULL);
    ctl->reset_call_counts();
    UMF_EXPECT_EQ(ctl->get_call_count("zeMemAllocDevice"), 0);
    for (int i = 0; i < 7; i++) {
        UMF_EXPECT_EQ(alloc_free(&t), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(ctl->get_call_count("zeMemAllocDevice"), 7);
    UMF_EXPECT_EQ(ctl->get_call_count("zeMemFree"), 7);
    UMF_EXPECT_EQ(ctl->get_call_count("zeMemAllocHost"), 0);
    UMF_EXPECT_EQ(ctl->get_call_count("zeNoSuchEntry"), -1);
    UMF_EXPECT_EQ(ctl->get_call_count(NULL), -1);
    UMF_EXPECT_EQ(ctl->get_live_count((umf_gpu_mock_live_t)42), -1);
    UMF_EXPECT_EQ(ctl->get_object_count("no such kind"), -1);
    ctl->reset_call_counts();
    UMF_EXPECT_EQ(ctl->get_call_count("zeMemAllocDevice"), 0);
    ze_test_teardown(&t);
}

// A process with rules in its environment; reports what its calls returned.
UMF_TEST_CHILD(ze_env_faults) {
    if (argc < 1) {
        return 12;
    }
    setenv("UMF_GPU_MOCK_FAULTS", argv[0], 1);
    if (argc > 1) {
        setenv("UMF_GPU_MOCK_SEED", argv[1], 1);
    }
    ze_test_t t;
    if (!ze_test_setup(&t)) {
        return 10;
    }
    ze_host_mem_alloc_desc_t hd = {.stype =
                                       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    char pattern[41] = {0};
    for (int i = 0; i < 40; i++) {
        void *p = NULL;
        ze_result_t r = zeMemAllocHost(t.ctx, &hd, 64, 0, &p);
        pattern[i] = r == ZE_RESULT_SUCCESS ? '.' : 'x';
        if (p != NULL) {
            zeMemFree(t.ctx, p);
        }
    }
    pattern[40] = alloc_free(&t) == ZE_RESULT_SUCCESS ? '.' : 'x';
    ze_test_teardown(&t);
    return umf_test_send(sock, pattern, sizeof(pattern)) ? 11 : 0;
}

static bool env_run(const char *rules, const char *seed, char out[41]) {
    const char *args[] = {rules, seed, NULL};
    umf_test_child_t c;
    if (umf_test_child_start(&c, "ze_env_faults", args) != 0) {
        return false;
    }
    bool got = umf_test_recv(c.sock, out, 41) == 0;
    return umf_test_child_wait(&c) == 0 && got;
}

UMF_C_TEST(ZeFaults, FromTheEnvironment) {
    char out[41];
    // The other driver's rules in the same variable are left to it.
    UMF_ASSERT(env_run("zeMemAllocHost:3+=ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;"
                       "cuMemAlloc_v2:1=CUDA_ERROR_OUT_OF_MEMORY",
                       NULL, out));
    UMF_EXPECT(memcmp(out, "..xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.", 41) ==
               0);
    UMF_ASSERT(env_run("zeMemAllocHost:5=0x70000001", NULL, out));
    UMF_EXPECT(memcmp(out, "....x....................................", 41) ==
               0);
    // Percentages follow the seed: the same seed, the same calls.
    char a[41], b[41], c[41];
    UMF_ASSERT(env_run("zeMemAllocHost:p50=ZE_RESULT_ERROR_UNKNOWN", "7", a));
    UMF_ASSERT(env_run("zeMemAllocHost:p50=ZE_RESULT_ERROR_UNKNOWN", "7", b));
    UMF_ASSERT(env_run("zeMemAllocHost:p50=ZE_RESULT_ERROR_UNKNOWN", "8", c));
    UMF_EXPECT(memcmp(a, b, 41) == 0);
    UMF_EXPECT(memcmp(a, c, 41) != 0);
    int fails = 0;
    for (int i = 0; i < 40; i++) {
        fails += a[i] == 'x';
    }
    UMF_EXPECT(fails > 5 && fails < 35);
}

// A malformed rule in the environment makes zeInit fail, with the reason.
UMF_TEST_CHILD(ze_bad_env) {
    if (argc < 2) {
        return 12;
    }
    setenv(argv[0], argv[1], 1);
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 10;
    }
    return zeInit(0) == ZE_RESULT_SUCCESS ? 11 : 0;
}

UMF_C_TEST(ZeFaults, BadEnvironmentFailsZeInit) {
    static const char *const cases[][2] = {
        {"UMF_GPU_MOCK_FAULTS", "zeMemAllocHost:0=1"},
        {"UMF_GPU_MOCK_FAULTS", "zeInit:1=ZE_RESULT_ERROR_DEVICE_LOST"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "12Q"},
        {"UMF_GPU_MOCK_MEMORY", "tape"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *args[] = {cases[i][0], cases[i][1], NULL};
        char *text;
        UMF_EXPECT_EQ(umf_test_child_output("ze_bad_env", args, &text), 0);
        UMF_ASSERT(text != NULL);
        // A fault injected into zeInit itself is no configuration error.
        if (strstr(cases[i][1], "zeInit") == NULL) {
            UMF_EXPECT(strstr(text, cases[i][0]) != NULL);
        }
        free(text);
    }
}
