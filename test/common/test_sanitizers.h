// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What tests need to know of the sanitizer they run under.

#ifndef UMF_GPU_TEST_SANITIZERS_H
#define UMF_GPU_TEST_SANITIZERS_H 1

// UMF_TEST_TSAN: built with ThreadSanitizer, which cannot start a thread in
// the child of a multi-threaded fork.
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

#endif // UMF_GPU_TEST_SANITIZERS_H
