// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The providers' shared free bookkeeping (gpu_free.h), the shared failure
// report (umf_native_error_report_v) and the small shared names.

#include <cstdarg>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

extern "C" {
#include "gpu_free.h"
#include "gpu_provider.h"
#include "native_error.h"
#include "provider_kind.h"
}

namespace {

class GpuFree : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_alloc_tracker_init(&tracker), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umf_gpu_stats_init(&stats), UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_gpu_stats_fini(&stats);
        umf_alloc_tracker_fini(&tracker);
    }
    umf_gpu_provider_stats_t read() {
        umf_gpu_provider_stats_t s;
        umf_gpu_stats_read(&stats, &s);
        return s;
    }
    umf_alloc_tracker_t tracker;
    umf_gpu_stats_t stats;
    // A fake driver allocation: never dereferenced.
    char *const base = reinterpret_cast<char *>(0x40000000);
};

TEST_F(GpuFree, UntrackedPointerIsTheWholeDriverAllocation) {
    umf_gpu_stats_on_alloc(&stats, 100);
    umf_gpu_free_t f;
    ASSERT_EQ(umf_gpu_free_begin(&tracker, &stats, base, 100, &f),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(f.driver_base, base);
    EXPECT_FALSE(f.tracked);
    EXPECT_FALSE(umf_alloc_tracker_in_use(&tracker)); // nothing looked up
    EXPECT_EQ(read().free_count, 0u);                 // counted only once freed
    umf_gpu_free_end(&tracker, &stats, &f, true);
    EXPECT_EQ(read().free_count, 1u);
    EXPECT_EQ(read().allocated_bytes, 0u);
}

TEST_F(GpuFree, PiecesReleaseTheDriverAllocationWithTheLast) {
    // An over-aligned allocation: one piece above the driver's base, split.
    ASSERT_EQ(umf_alloc_tracker_add(&tracker, base + 256, 4096,
                                    reinterpret_cast<uintptr_t>(base), 8192),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umf_alloc_tracker_split(&tracker, base + 256, 4096, 1024, nullptr,
                                      nullptr),
              UMF_RESULT_SUCCESS);
    umf_gpu_stats_on_alloc(&stats, 4096);

    umf_gpu_free_t f;
    EXPECT_EQ(umf_gpu_free_begin(&tracker, &stats, base + 256, 512, &f),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // not the piece's size
    ASSERT_EQ(umf_gpu_free_begin(&tracker, &stats, base + 256, 1024, &f),
              UMF_RESULT_SUCCESS);
    EXPECT_TRUE(f.tracked);
    EXPECT_EQ(f.driver_base, nullptr); // the other piece keeps it
    EXPECT_EQ(read().free_count, 1u);
    EXPECT_EQ(read().allocated_bytes, 3072u);

    // Size 0: the piece's own size is counted.
    ASSERT_EQ(umf_gpu_free_begin(&tracker, &stats, base + 1280, 0, &f),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(f.driver_base, base);
    EXPECT_EQ(f.size, 3072u);
    // The driver refused: the piece is tracked again, nothing counted.
    umf_gpu_free_end(&tracker, &stats, &f, false);
    EXPECT_EQ(read().free_count, 1u);
    ASSERT_EQ(umf_gpu_free_begin(&tracker, &stats, base + 1280, 3072, &f),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(f.driver_base, base);
    umf_gpu_free_end(&tracker, &stats, &f, true);
    EXPECT_EQ(read().free_count, 2u);
    EXPECT_EQ(read().allocated_bytes, 0u);
}

__attribute__((format(printf, 6, 7))) void
report(umf_gpu_provider_kind_t kind, int32_t code, const char *result,
       const char *detail, bool warn, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    umf_native_error_report_v(kind, code, result, detail, warn, fmt, args);
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
           "device memory ran out", true, "cuMemAlloc_v2(size=%zu)",
           static_cast<size_t>(64));
    EXPECT_EQ(message(UMF_GPU_PROVIDER_KIND_CUDA, &code),
              "cuMemAlloc_v2(size=64) failed: CUDA_ERROR_OUT_OF_MEMORY (oom): "
              "device memory ran out");
    EXPECT_EQ(code, 2);
    report(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, 7, "R", nullptr, false, "f()");
    EXPECT_EQ(message(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, &code),
              "f() failed: R");
    report(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, 8, nullptr, "", false, "g(%d)", 1);
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
