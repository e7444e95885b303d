// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Checks inside child processes (UMF_TEST_CHILD roles), where GoogleTest
// does not run: each failed check prints where and what, and counts in
// child_failures, which the role turns into its exit status.

#ifndef UMF_GPU_TEST_CHILD_CHECK_H
#define UMF_GPU_TEST_CHILD_CHECK_H 1

#include <cstdio>

inline int child_failures = 0;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,        \
                         __LINE__, #cond);                                     \
            child_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        long long a_ = (long long)(a), b_ = (long long)(b);                    \
        if (a_ != b_) {                                                        \
            std::fprintf(stderr, "%s:%d: %s == %s failed: %lld vs %lld\n",     \
                         __FILE__, __LINE__, #a, #b, a_, b_);                  \
            child_failures++;                                                  \
        }                                                                      \
    } while (0)

// The role's exit status: 0 when every check passed.
inline int child_status() {
    return child_failures > 0 ? 1 : 0;
}

#endif // UMF_GPU_TEST_CHILD_CHECK_H
