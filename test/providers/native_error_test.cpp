// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Thread-local native-error storage.

#include <cstring>
#include <string>
#include <thread>

#include <gtest/gtest.h>

extern "C" {
#include "native_error.h"
}

namespace {

constexpr umf_gpu_provider_kind_t kZe = UMF_GPU_PROVIDER_KIND_LEVEL_ZERO;
constexpr umf_gpu_provider_kind_t kCuda = UMF_GPU_PROVIDER_KIND_CUDA;

TEST(NativeError, EmptyBeforeAnyFailure) {
    std::thread([] {
        const char *msg = nullptr;
        int32_t code = -1;
        umf_native_error_get(kZe, &msg, &code);
        ASSERT_NE(msg, nullptr);
        EXPECT_STREQ(msg, "");
        EXPECT_EQ(code, 0);
    }).join();
}

TEST(NativeError, StoresFormattedMessageAndCode) {
    umf_native_error_set(kZe, 0x70000002,
                         "zeMemAllocDevice(size=%zu) failed: %s",
                         static_cast<size_t>(4096), "ZE_RESULT_ERROR_X");
    const char *msg = nullptr;
    int32_t code = 0;
    umf_native_error_get(kZe, &msg, &code);
    EXPECT_STREQ(msg, "zeMemAllocDevice(size=4096) failed: ZE_RESULT_ERROR_X");
    EXPECT_EQ(code, 0x70000002);
    // Either out-pointer may be NULL.
    umf_native_error_get(kZe, nullptr, &code);
    umf_native_error_get(kZe, &msg, nullptr);
}

TEST(NativeError, KindsAreSeparate) {
    umf_native_error_set(kZe, 1, "ze");
    umf_native_error_set(kCuda, 2, "cuda");
    const char *msg;
    int32_t code;
    umf_native_error_get(kZe, &msg, &code);
    EXPECT_STREQ(msg, "ze");
    EXPECT_EQ(code, 1);
    umf_native_error_get(kCuda, &msg, &code);
    EXPECT_STREQ(msg, "cuda");
    EXPECT_EQ(code, 2);
}

TEST(NativeError, AFailureInOneThreadIsNotSeenInAnother) {
    umf_native_error_set(kZe, 11, "main thread");
    std::thread([] {
        umf_native_error_set(kZe, 22, "other thread");
        const char *msg;
        int32_t code;
        umf_native_error_get(kZe, &msg, &code);
        EXPECT_STREQ(msg, "other thread");
        EXPECT_EQ(code, 22);
    }).join();
    const char *msg;
    int32_t code;
    umf_native_error_get(kZe, &msg, &code);
    EXPECT_STREQ(msg, "main thread");
    EXPECT_EQ(code, 11);
}

TEST(NativeError, LongMessagesAreCutAndTerminated) {
    std::string longText(4 * UMF_NATIVE_ERROR_MESSAGE_MAX, 'x');
    umf_native_error_set(kCuda, 3, "%s", longText.c_str());
    const char *msg;
    umf_native_error_get(kCuda, &msg, nullptr);
    EXPECT_EQ(std::strlen(msg), UMF_NATIVE_ERROR_MESSAGE_MAX - 1u);
}

TEST(NativeError, InvalidKindIsIgnored) {
    auto bad = static_cast<umf_gpu_provider_kind_t>(3);
    umf_native_error_set(bad, 5, "nowhere");
    const char *msg = nullptr;
    int32_t code = -1;
    umf_native_error_get(bad, &msg, &code);
    EXPECT_STREQ(msg, "");
    EXPECT_EQ(code, 0);
}

} // namespace
