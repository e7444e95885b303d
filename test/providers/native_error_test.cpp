// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Thread-local native-error storage, the shared failure report
// (umf_native_error_report_v) and the small shared names.

#include <cstdarg>
#include <cstring>
#include <string>
#include <thread>

#include <gtest/gtest.h>

extern "C" {
#include "gpu_provider.h"
#include "native_error.h"
#include "provider_kind.h"
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

__attribute__((format(printf, 5, 6))) void
report(umf_gpu_provider_kind_t kind, int32_t code, const char *result,
       const char *detail, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    umf_native_error_report_v(kind, code, result, detail, fmt, args);
    va_end(args);
}

std::string message(umf_gpu_provider_kind_t kind, int32_t *code) {
    const char *msg = nullptr;
    umf_native_error_get(kind, &msg, code);
    return msg;
}

TEST(NativeErrorReport, CallResultAndDetail) {
    int32_t code = 0;
    report(UMF_GPU_PROVIDER_KIND_CUDA, 2, "CUDA_ERROR_OUT_OF_MEMORY (oom)",
           "device memory ran out", "cuMemAlloc_v2(size=%zu)",
           static_cast<size_t>(64));
    EXPECT_EQ(message(UMF_GPU_PROVIDER_KIND_CUDA, &code),
              "cuMemAlloc_v2(size=64) failed: CUDA_ERROR_OUT_OF_MEMORY (oom): "
              "device memory ran out");
    EXPECT_EQ(code, 2);
    report(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, 7, "R", nullptr, "f()");
    EXPECT_EQ(message(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, &code),
              "f() failed: R");
    report(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, 8, nullptr, "", "g(%d)", 1);
    EXPECT_EQ(message(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, &code),
              "g(1) failed: (no description)");
    EXPECT_EQ(code, 8);
    // Each kind keeps its own.
    EXPECT_EQ(message(UMF_GPU_PROVIDER_KIND_CUDA, &code).rfind("cuMemAlloc", 0),
              0u);
}

TEST(GpuNames, KindsAndMemoryTypes) {
    EXPECT_STREQ(umf_gpu_provider_kind_name(UMF_GPU_PROVIDER_KIND_CUDA),
                 "CUDA");
    EXPECT_STREQ(umf_gpu_provider_kind_name(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO),
                 "Level Zero");
    EXPECT_STREQ(umf_gpu_memory_type_name(UMF_MEMORY_TYPE_HOST), "HOST");
    EXPECT_STREQ(umf_gpu_memory_type_name(UMF_MEMORY_TYPE_DEVICE), "DEVICE");
    EXPECT_STREQ(umf_gpu_memory_type_name(UMF_MEMORY_TYPE_SHARED), "SHARED");
    EXPECT_STREQ(umf_gpu_memory_type_name(UMF_MEMORY_TYPE_UNKNOWN), "UNKNOWN");
}

} // namespace
