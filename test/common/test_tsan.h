// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// UMF_TEST_TSAN: 1 in a ThreadSanitizer build. ThreadSanitizer cannot
// start a thread in the child of a multi-threaded fork, so the tests that
// would skip that part there.

#ifndef UMF_GPU_TEST_TSAN_H
#define UMF_GPU_TEST_TSAN_H 1

#if defined(__SANITIZE_THREAD__)
#define UMF_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UMF_TEST_TSAN 1
#endif
#endif
#ifndef UMF_TEST_TSAN
#define UMF_TEST_TSAN 0
#endif

#endif // UMF_GPU_TEST_TSAN_H
