// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The leak report (on request and at exit), the strict exit status, the
// driver-object registry and the live counts of the control API.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_control.h"
#include "mock_test_child_output.h"
#include "mock_test_util.h"
#include "test_child.h"

UMF_C_TEST(MockObjects, AddRemoveCount) {
    if (!test_core_init()) {
        return;
    }
    int a, b, c;
    UMF_EXPECT(umf_mock_object_add(TEST_OBJECT_CONTEXT, &a));
    UMF_EXPECT(!umf_mock_object_add(TEST_OBJECT_CONTEXT, &a));
    UMF_EXPECT(umf_mock_object_add(TEST_OBJECT_QUEUE, &a)); // another kind
    UMF_EXPECT(umf_mock_object_add(TEST_OBJECT_CONTEXT, &b));
    UMF_EXPECT(!umf_mock_object_add(TEST_OBJECT_CONTEXT, NULL));
    UMF_EXPECT(!umf_mock_object_add(UMF_MOCK_MAX_OBJECT_KINDS, &c));
    UMF_EXPECT_EQ(umf_mock_control_get_object_count(&test_desc, "context"), 2);
    UMF_EXPECT_EQ(umf_mock_control_get_object_count(&test_desc, "queue"), 1);
    UMF_EXPECT_EQ(umf_mock_control_get_object_count(&test_desc, "fence"), -1);
    UMF_EXPECT_EQ(umf_mock_control_get_object_count(&test_desc, NULL), -1);
    UMF_EXPECT(umf_mock_object_contains(TEST_OBJECT_CONTEXT, &b));
    UMF_EXPECT(!umf_mock_object_contains(TEST_OBJECT_CONTEXT, &c));
    UMF_EXPECT(umf_mock_object_remove(TEST_OBJECT_CONTEXT, &a));
    UMF_EXPECT(!umf_mock_object_remove(TEST_OBJECT_CONTEXT, &a));
    UMF_EXPECT(!umf_mock_object_contains(TEST_OBJECT_CONTEXT, &a));
    UMF_EXPECT(umf_mock_object_remove(TEST_OBJECT_QUEUE, &a));
    UMF_EXPECT(umf_mock_object_remove(TEST_OBJECT_CONTEXT, &b));
    // Many, to make the table grow and reuse its tombstones.
    static char many[5000];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 5000; i++) {
            UMF_ASSERT(umf_mock_object_add(TEST_OBJECT_QUEUE, &many[i]));
        }
        UMF_EXPECT_EQ(umf_mock_object_count(TEST_OBJECT_QUEUE), 5000);
        for (int i = 0; i < 5000; i++) {
            UMF_ASSERT(umf_mock_object_remove(TEST_OBJECT_QUEUE, &many[i]));
        }
    }
    UMF_EXPECT_EQ(umf_mock_object_count(TEST_OBJECT_QUEUE), 0);
}

UMF_C_TEST(MockLeaks, ReportOnRequest) {
    if (!test_core_init()) {
        return;
    }
    int pipefd[2];
    UMF_ASSERT_EQ(pipe(pipefd), 0);
    UMF_EXPECT_EQ(umf_mock_control_write_leak_report(&test_desc, pipefd[1]), 0);
    void *p, *h;
    int ctx;
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, 123, 0, 0, 0, &p),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_HOST, -1, 7, 0, 0, 0, &h),
                  UMF_MOCK_OK);
    UMF_ASSERT(umf_mock_object_add(TEST_OBJECT_CONTEXT, &ctx));
    UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                      &test_desc, UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                  2);
    UMF_EXPECT_EQ(umf_mock_control_write_leak_report(&test_desc, pipefd[1]), 3);
    close(pipefd[1]);
    char *text = umf_test_read_all(pipefd[0]);
    close(pipefd[0]);
    UMF_ASSERT(text != NULL);
    UMF_EXPECT(strstr(text, "123 bytes of device memory") != NULL);
    UMF_EXPECT(strstr(text, "on device 1") != NULL);
    UMF_EXPECT(strstr(text, "7 bytes of host memory") != NULL);
    UMF_EXPECT(strstr(text, "context 0x") != NULL);
    UMF_EXPECT(strstr(text, "3 leaked") != NULL);
    free(text);
    UMF_EXPECT_EQ(umf_mock_control_write_leak_report(&test_desc, -1), -1);
    UMF_EXPECT_EQ(
        umf_mock_control_get_live_count(&test_desc, (umf_gpu_mock_live_t)99),
        -1);
    UMF_EXPECT_EQ(umf_mock_free(p, UMF_MOCK_KIND_DEVICE, 0, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(h, UMF_MOCK_KIND_HOST, 0, NULL), UMF_MOCK_OK);
    UMF_EXPECT(umf_mock_object_remove(TEST_OBJECT_CONTEXT, &ctx));
    UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                      &test_desc, UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                  0);
}

// A process that leaks (or not, with argument "clean"), with its stderr sent
// to the parent over the socket.
UMF_TEST_CHILD(mock_leaker) {
    const char *mode = argc > 0 ? argv[0] : "strict";
    bool clean = argc > 1 && strcmp(argv[1], "clean") == 0;
    setenv("UMF_GPU_MOCK_LEAKS", mode, 1);
    if (dup2(sock, STDERR_FILENO) < 0 ||
        umf_mock_init(&test_desc) != UMF_MOCK_OK) {
        return 20;
    }
    void *p;
    static int ctx;
    if (umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 4242, 0, 0, 0, &p) !=
            UMF_MOCK_OK ||
        !umf_mock_object_add(TEST_OBJECT_CONTEXT, &ctx)) {
        return 21;
    }
    if (clean) {
        umf_mock_free(p, UMF_MOCK_KIND_DEVICE, 0, NULL);
        umf_mock_object_remove(TEST_OBJECT_CONTEXT, &ctx);
    }
    return 0; // the exit status, unless the leak report changes it
}

UMF_C_TEST(MockLeaks, StrictExitStatus) {
    char *text = umf_test_check_leak_modes("mock_leaker", "4242 bytes");
    UMF_ASSERT(text != NULL);
    UMF_EXPECT(strstr(text, "4242 bytes of device memory") != NULL);
    UMF_EXPECT(strstr(text, "context") != NULL);
    UMF_EXPECT(strstr(text, "UMF_GPU_MOCK_LEAKS=strict") != NULL);
    free(text);
}

// A malformed variable makes initialisation fail, with the reason logged.
UMF_TEST_CHILD(mock_bad_config) {
    setenv(argv[0], argv[1], 1);
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 30;
    }
    void *p;
    if (umf_mock_init(&test_desc) != UMF_MOCK_ERR_NOT_INITIALIZED ||
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 1, 0, 0, 0, &p) !=
            UMF_MOCK_ERR_NOT_INITIALIZED ||
        umf_mock_control_inject_faults(&test_desc, "zeTestAlloc:1=1") != -1 ||
        umf_mock_control_get_live_count(&test_desc,
                                        UMF_GPU_MOCK_LIVE_ALLOCATIONS) != -1) {
        return 31;
    }
    return argc == 2 ? 0 : 32;
}

UMF_C_TEST(MockLeaks, BadConfigurationFailsInit) {
    static const char *const cases[][2] = {
        {"UMF_GPU_MOCK_DEVICES", "lots"},
        {"UMF_GPU_MOCK_FAULTS", "zeTestAlloc:1=NOPE"},
        {"UMF_GPU_MOCK_FAULTS", "zeNoSuch:1=1"},
        {"UMF_GPU_MOCK_MEMORY", "disk"},
    };
    for (size_t i = 0; i < 4; i++) {
        const char *args[] = {cases[i][0], cases[i][1], NULL};
        char *text;
        UMF_EXPECT_EQ(umf_test_child_output("mock_bad_config", args, &text), 0);
        UMF_ASSERT(text != NULL);
        UMF_EXPECT(strstr(text, cases[i][0]) != NULL);
        free(text);
    }
}
