// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The C shim: test bodies in plain C11 that run as GoogleTest cases.
//
//   #include "c_test.h"
//
//   UMF_C_TEST(CoreC, AllocRejectsNullHandle) {
//       void *p;
//       UMF_ASSERT_EQ(umfMemoryProviderAlloc(NULL, 1, 0, &p),
//                     UMF_RESULT_ERROR_INVALID_ARGUMENT);
//   }
//
// EXPECT macros record a failure (with file and line) and go on; ASSERT
// macros record it and return from the test body.

#ifndef UMF_GPU_TEST_C_TEST_H
#define UMF_GPU_TEST_C_TEST_H 1

#include <stdbool.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*umf_c_test_fn)(void);

// Called by UMF_C_TEST before main; the harness hands the tests to
// GoogleTest in main.
void umf_c_test_register(const char *suite, const char *name, umf_c_test_fn fn,
                         const char *file, int line);

// Records a non-fatal failure of the running test.
void umf_c_test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#define UMF_C_TEST(suite, name)                                                \
    static void umf_c_test_##suite##_##name(void);                             \
    __attribute__((                                                            \
        constructor)) static void umf_c_test_register_##suite##_##name(void) { \
        umf_c_test_register(#suite, #name, umf_c_test_##suite##_##name,        \
                            __FILE__, __LINE__);                               \
    }                                                                          \
    static void umf_c_test_##suite##_##name(void)

#define UMF_C_CHECK_(cond, on_fail, ...)                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            umf_c_test_fail(__FILE__, __LINE__, __VA_ARGS__);                  \
            on_fail;                                                           \
        }                                                                      \
    } while (0)

#define UMF_C_CMP_(a, op, b, on_fail)                                          \
    do {                                                                       \
        long long umf_c_a_ = (long long)(a), umf_c_b_ = (long long)(b);        \
        UMF_C_CHECK_(umf_c_a_ op umf_c_b_, on_fail,                            \
                     "expected %s " #op " %s, got %lld and %lld", #a, #b,      \
                     umf_c_a_, umf_c_b_);                                      \
    } while (0)

#define UMF_EXPECT(cond) UMF_C_CHECK_(cond, (void)0, "expected: %s", #cond)
#define UMF_ASSERT(cond) UMF_C_CHECK_(cond, return, "required: %s", #cond)

#define UMF_EXPECT_EQ(a, b) UMF_C_CMP_(a, ==, b, (void)0)
#define UMF_ASSERT_EQ(a, b) UMF_C_CMP_(a, ==, b, return )
#define UMF_EXPECT_NE(a, b) UMF_C_CMP_(a, !=, b, (void)0)
#define UMF_ASSERT_NE(a, b) UMF_C_CMP_(a, !=, b, return )

#define UMF_EXPECT_PTR_EQ(a, b)                                                \
    UMF_C_CHECK_((const void *)(a) == (const void *)(b), (void)0,              \
                 "expected %s == %s, got %p and %p", #a, #b,                   \
                 (const void *)(a), (const void *)(b))

#define UMF_EXPECT_STREQ(a, b)                                                 \
    UMF_C_CHECK_((a) != NULL && (b) != NULL && strcmp((a), (b)) == 0, (void)0, \
                 "expected %s == %s, got \"%s\" and \"%s\"", #a, #b,           \
                 (a) ? (a) : "(null)", (b) ? (b) : "(null)")

#endif // UMF_GPU_TEST_C_TEST_H
