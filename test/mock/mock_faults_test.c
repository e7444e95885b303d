// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fault-rule parser (a pure function) and the rule engine.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "mock_control.h"
#include "mock_test_util.h"

static bool parse(const char *spec, bool skip_foreign,
                  umf_mock_fault_rule_t *rules, size_t *count) {
    char err[256];
    return umf_mock_fault_parse(spec, &test_desc.faults, skip_foreign, rules,
                                UMF_MOCK_MAX_FAULT_RULES, count, err,
                                sizeof(err));
}

UMF_C_TEST(MockFaultParse, Forms) {
    umf_mock_fault_rule_t r[UMF_MOCK_MAX_FAULT_RULES];
    size_t n;
    UMF_ASSERT(parse("zeTestAlloc:3=ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
                     false, r, &n));
    UMF_ASSERT_EQ(n, 1);
    UMF_EXPECT_EQ(r[0].entry, TEST_ENTRY_ALLOC);
    UMF_EXPECT_EQ(r[0].when, UMF_MOCK_FAULT_NTH);
    UMF_EXPECT_EQ(r[0].n, 3);
    UMF_EXPECT_EQ(r[0].result, TEST_RESULT_OOM);

    UMF_ASSERT(parse(" zeTestFree : 2+ = 0x78000004 ;zeTestCopy:p12.5=42;",
                     false, r, &n));
    UMF_ASSERT_EQ(n, 2);
    UMF_EXPECT_EQ(r[0].entry, TEST_ENTRY_FREE);
    UMF_EXPECT_EQ(r[0].when, UMF_MOCK_FAULT_FROM);
    UMF_EXPECT_EQ(r[0].n, 2);
    UMF_EXPECT_EQ(r[0].result, TEST_RESULT_INVALID);
    UMF_EXPECT_EQ(r[1].entry, TEST_ENTRY_COPY);
    UMF_EXPECT_EQ(r[1].when, UMF_MOCK_FAULT_PERCENT);
    UMF_EXPECT_EQ(r[1].n, 12500);
    UMF_EXPECT_EQ(r[1].result, 42);

    UMF_ASSERT(parse("zeTestAlloc:p100=1;zeTestAlloc:P0=1;zeTestAlloc:p7.05=1",
                     false, r, &n));
    UMF_ASSERT_EQ(n, 3);
    UMF_EXPECT_EQ(r[0].n, 100000);
    UMF_EXPECT_EQ(r[1].n, 0);
    UMF_EXPECT_EQ(r[2].n, 7050);

    UMF_ASSERT(parse("", false, r, &n));
    UMF_EXPECT_EQ(n, 0);
    UMF_ASSERT(parse(" ; ;; ", false, r, &n));
    UMF_EXPECT_EQ(n, 0);
    UMF_ASSERT(parse(NULL, false, r, &n));
    UMF_EXPECT_EQ(n, 0);
}

UMF_C_TEST(MockFaultParse, ForeignRules) {
    umf_mock_fault_rule_t r[UMF_MOCK_MAX_FAULT_RULES];
    size_t n;
    // The other driver's rules: skipped from the environment...
    UMF_ASSERT(parse("cuMemAlloc_v2:1=CUDA_ERROR_OUT_OF_MEMORY;zeTestFree:1=7",
                     true, r, &n));
    UMF_ASSERT_EQ(n, 1);
    UMF_EXPECT_EQ(r[0].entry, TEST_ENTRY_FREE);
    // ...an error through the control API...
    UMF_EXPECT(!parse("cuMemAlloc_v2:1=2", false, r, &n));
    // ...and their syntax is checked either way.
    UMF_EXPECT(!parse("cuMemAlloc_v2:x=2", true, r, &n));
    UMF_EXPECT(!parse("cuMemAlloc_v2:1=", true, r, &n));
}

UMF_C_TEST(MockFaultParse, Errors) {
    static const char *const bad[] = {
        "zeTestAlloc",
        "zeTestAlloc:",
        "zeTestAlloc:1",
        "zeTestAlloc:1=",
        "zeTestAlloc=1",
        "zeTestAlloc:0=1",
        "zeTestAlloc:-1=1",
        "zeTestAlloc:1=0",
        "zeTestAlloc:1=ZE_RESULT_SUCCESS",
        "zeTestAlloc:1=ZE_RESULT_NOPE",
        "zeTestAlloc:1=0x80000000",
        "zeTestAlloc:1=-5",
        "zeTestAlloc:1=1 2",
        "zeTestAlloc:1=1;junk",
        "zeTestAlloc:1++=1",
        "zeTestAlloc:p101=1",
        "zeTestAlloc:p100.001=1",
        "zeTestAlloc:p1.2345=1",
        "zeTestAlloc:p.5=1",
        "zeTestAlloc:p5.=1",
        "zeTestAlloc:p=1",
        "zeTestAlloc:99999999999999999999=1",
        "zeNoSuchEntry:1=1",
        "zeTestAllocX:1=1",
        "malloc:1=1",
        ":1=1",
        "1:1=1",
        "zeTestAlloc:1=1,zeTestFree:1=1",
        "zeTestAlloc\x01:1=1",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        umf_mock_fault_rule_t r[UMF_MOCK_MAX_FAULT_RULES];
        size_t n;
        char err[256] = "";
        bool ok = umf_mock_fault_parse(bad[i], &test_desc.faults, true, r,
                                       UMF_MOCK_MAX_FAULT_RULES, &n, err,
                                       sizeof(err));
        UMF_EXPECT(!ok);
        UMF_EXPECT(strstr(err, "at offset") != NULL);
        if (ok) {
            umf_c_test_fail(__FILE__, __LINE__, "accepted: '%s'", bad[i]);
        }
    }
}

UMF_C_TEST(MockFaultParse, TooManyRulesAndTinyBuffers) {
    char spec[4096] = "";
    for (int i = 0; i < 5; i++) {
        strcat(spec, "zeTestAlloc:1=1;");
    }
    umf_mock_fault_rule_t r[4];
    size_t n = 99;
    char err[8];
    UMF_EXPECT(!umf_mock_fault_parse(spec, &test_desc.faults, false, r, 4, &n,
                                     err, sizeof(err)));
    UMF_EXPECT_EQ(n, 4);
    UMF_EXPECT_EQ(strlen(err), sizeof(err) - 1); // truncated, terminated
    UMF_EXPECT(umf_mock_fault_parse("zeTestAlloc:1=1", &test_desc.faults, false,
                                    r, 4, &n, NULL, 0));
    UMF_EXPECT(!umf_mock_fault_parse("x", &test_desc.faults, false, r, 4, &n,
                                     NULL, 0));
    UMF_EXPECT(!umf_mock_fault_parse("", NULL, false, r, 4, &n, NULL, 0));
}

// Random bytes and mutations of good rules: the parser must never read out
// of bounds or crash (ASan watches), and whatever it accepts is in range.
UMF_C_TEST(MockFaultParse, SurvivesGarbage) {
    static const char *const seeds[] = {
        "zeTestAlloc:3=ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
        "zeTestFree:2+=0x78000004;zeTestCopy:p12.5=42",
        "cuMemAlloc_v2:p1=CUDA_ERROR_UNKNOWN",
    };
    static const char alphabet[] = "zeTestAloc:;=+p.0123456789xX_ ZE\t";
    unsigned seed = 12345;
    for (int iter = 0; iter < 20000; iter++) {
        char buf[96];
        const char *base = seeds[iter % 3];
        size_t len = strlen(base);
        memcpy(buf, base, len + 1);
        int edits = 1 + rand_r(&seed) % 4;
        for (int e = 0; e < edits; e++) {
            size_t pos = (size_t)rand_r(&seed) % (len + 1);
            int what = rand_r(&seed) % 3;
            if (what == 0 && pos < len) {
                buf[pos] =
                    (char)(rand_r(&seed) % 2 ? alphabet[rand_r(&seed) %
                                                        (sizeof(alphabet) - 1)]
                                             : 1 + rand_r(&seed) % 255);
            } else if (what == 1 && len > 0) {
                len = pos; // truncate
                buf[len] = '\0';
            } else if (len + 1 < sizeof(buf)) {
                memmove(buf + pos + 1, buf + pos, len - pos + 1);
                buf[pos] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
                len++;
            }
        }
        // Exactly len + 1 bytes, so ASan catches any over-read.
        char *exact = malloc(len + 1);
        UMF_ASSERT(exact != NULL);
        memcpy(exact, buf, len + 1);
        umf_mock_fault_rule_t r[UMF_MOCK_MAX_FAULT_RULES];
        size_t n;
        char err[128];
        if (umf_mock_fault_parse(exact, &test_desc.faults, iter % 2 == 0, r,
                                 UMF_MOCK_MAX_FAULT_RULES, &n, err,
                                 sizeof(err))) {
            for (size_t i = 0; i < n; i++) {
                UMF_EXPECT(r[i].entry < TEST_ENTRY_COUNT);
                UMF_EXPECT(r[i].result != 0);
                UMF_EXPECT(r[i].when != UMF_MOCK_FAULT_PERCENT ||
                           r[i].n <= 100000);
            }
        }
        free(exact);
    }
}

// ---- The engine -----------------------------------------------------------

static int fails_in(unsigned entry, int calls, int64_t *last) {
    int failed = 0;
    for (int i = 0; i < calls; i++) {
        int64_t r;
        if (umf_mock_enter(entry, &r)) {
            failed++;
            *last = r;
        }
    }
    return failed;
}

UMF_C_TEST(MockFaultEngine, NthAndFromAndClear) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_faults_clear();
    int64_t r = 0;
    UMF_ASSERT(umf_mock_faults_add("zeTestAlloc:3=7", false, NULL, 0));
    int64_t none;
    UMF_EXPECT(!umf_mock_enter(TEST_ENTRY_ALLOC, &none));
    UMF_EXPECT(!umf_mock_enter(TEST_ENTRY_ALLOC, &none));
    UMF_EXPECT(umf_mock_enter(TEST_ENTRY_ALLOC, &r));
    UMF_EXPECT_EQ(r, 7);
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_ALLOC, 10, &r), 0);
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_FREE, 10, &r), 0);

    umf_mock_faults_clear();
    UMF_ASSERT(umf_mock_faults_add("zeTestFree:2+=ZE_RESULT_ERROR_INVALID_"
                                   "ARGUMENT",
                                   false, NULL, 0));
    UMF_EXPECT(!umf_mock_enter(TEST_ENTRY_FREE, &none));
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_FREE, 5, &r), 5);
    UMF_EXPECT_EQ(r, TEST_RESULT_INVALID);
    umf_mock_faults_clear();
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_FREE, 5, &r), 0);
}

UMF_C_TEST(MockFaultEngine, FirstAddedRuleDecides) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_faults_clear();
    UMF_ASSERT(umf_mock_faults_add("zeTestCopy:2=11;zeTestCopy:1+=22", false,
                                   NULL, 0));
    int64_t r = 0;
    UMF_EXPECT(umf_mock_enter(TEST_ENTRY_COPY, &r));
    UMF_EXPECT_EQ(r, 22);
    UMF_EXPECT(umf_mock_enter(TEST_ENTRY_COPY, &r));
    UMF_EXPECT_EQ(r, 11);
    UMF_EXPECT(umf_mock_enter(TEST_ENTRY_COPY, &r));
    UMF_EXPECT_EQ(r, 22);
    umf_mock_faults_clear();
}

UMF_C_TEST(MockFaultEngine, PercentIsRoughlyRightAndRepeatable) {
    if (!test_core_init()) {
        return;
    }
    int64_t r;
    umf_mock_faults_clear();
    UMF_ASSERT(umf_mock_faults_add("zeTestCopy:p25=5", false, NULL, 0));
    int first = fails_in(TEST_ENTRY_COPY, 4000, &r);
    UMF_EXPECT(first > 800 && first < 1200);
    umf_mock_faults_clear();
    UMF_ASSERT(umf_mock_faults_add("zeTestCopy:p100=5", false, NULL, 0));
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_COPY, 100, &r), 100);
    umf_mock_faults_clear();
    UMF_ASSERT(umf_mock_faults_add("zeTestCopy:p0=5", false, NULL, 0));
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_COPY, 100, &r), 0);
    umf_mock_faults_clear();
}

UMF_C_TEST(MockFaultEngine, BadSpecAddsNothing) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_faults_clear();
    char err[256] = "";
    UMF_EXPECT(!umf_mock_faults_add("zeTestAlloc:1+=7;zeTestFree:x=1", false,
                                    err, sizeof(err)));
    UMF_EXPECT(strstr(err, "offset") != NULL);
    UMF_EXPECT_EQ(atomic_load(&umf_mock_fault_rule_count), 0);
    int64_t r;
    UMF_EXPECT_EQ(fails_in(TEST_ENTRY_ALLOC, 3, &r), 0);
    // The table has room for UMF_MOCK_MAX_FAULT_RULES rules, no more.
    for (int i = 0; i < UMF_MOCK_MAX_FAULT_RULES; i++) {
        UMF_ASSERT(umf_mock_faults_add("zeTestCopy:1000000=1", false, NULL, 0));
    }
    UMF_EXPECT(!umf_mock_faults_add("zeTestCopy:1000000=1", false, NULL, 0));
    umf_mock_faults_clear();
}

UMF_C_TEST(MockFaultEngine, CallCounts) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_call_counts_reset();
    int64_t r;
    fails_in(TEST_ENTRY_FREE, 17, &r);
    UMF_EXPECT_EQ(umf_mock_call_count(TEST_ENTRY_FREE), 17);
    UMF_EXPECT_EQ(umf_mock_control_get_call_count(&test_desc, "zeTestFree"),
                  17);
    UMF_EXPECT_EQ(umf_mock_control_get_call_count(&test_desc, "zeNope"), -1);
    UMF_EXPECT_EQ(umf_mock_control_get_call_count(&test_desc, NULL), -1);
    umf_mock_control_reset_call_counts(&test_desc);
    UMF_EXPECT_EQ(umf_mock_call_count(TEST_ENTRY_FREE), 0);
}
