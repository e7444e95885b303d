// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GoogleTest layer of the harness (gpu_harness.h): requirements that
// fail or skip a test, the check that a test leaves the driver as it found
// it, and the kinds as a test parameter.
//
//   class MySuite : public ::testing::TestWithParam<umf_test_gpu_kind_t> {};
//   TEST_P(MySuite, Works) {
//       const umf_test_gpu_t *g = umf_test_gpu(GetParam());
//       GPU_REQUIRE(g);             // or GPU_REQUIRE_EMULATED(g)
//       GpuLeakCheck leaks(g);      // checked when it goes out of scope
//       ...
//   }
//   INSTANTIATE_TEST_SUITE_P(Kinds, MySuite, ::testing::ValuesIn(gpu_kinds()),
//                            gpu_kind_param_name);

#ifndef UMF_GPU_TEST_GPU_TEST_H
#define UMF_GPU_TEST_GPU_TEST_H 1

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpu_harness.h"

// Fails the test (fatally) when the kind's driver is unusable.
#define GPU_REQUIRE(g)                                                         \
    ASSERT_TRUE((g)->why == nullptr) << (g)->title << ": " << gpu_why(g)

// Also skips, saying why, unless the driver is the emulated one: for tests
// that need its control API (faults, counts, leak report).
#define GPU_REQUIRE_EMULATED(g)                                                \
    do {                                                                       \
        GPU_REQUIRE(g);                                                        \
        if (!(g)->emulated) {                                                  \
            GTEST_SKIP() << (g)->title                                         \
                         << ": the driver is not the emulated one (no "        \
                            "control API)";                                    \
        }                                                                      \
    } while (0)

// g->why, or "" when usable.
inline std::string gpu_why(const umf_test_gpu_t *g) {
    return g->why != nullptr ? g->why : "";
}

// The kinds of this build, and their names as test-name suffixes.
std::vector<umf_test_gpu_kind_t> gpu_kinds();
std::string
gpu_kind_param_name(const ::testing::TestParamInfo<umf_test_gpu_kind_t> &info);

// A provider of `type` (DEVICE unless told) made with `opts` (type aside),
// or nullptr when umf_test_gpu_provider() fails; the caller destroys it.
umf_memory_provider_handle_t gpu_provider_or_null(
    const umf_test_gpu_t *g,
    umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE,
    umf_test_provider_opts_t opts = umf_test_provider_opts_t());

// umf_test_pattern() as a vector.
std::vector<unsigned char> gpu_pattern(size_t size, unsigned seed);

// The calling thread's native error of the kind (umf_test_gpu_native_error).
int32_t gpu_native_code(const umf_test_gpu_t *g);
std::string gpu_native_message(const umf_test_gpu_t *g);

// "UMF_RESULT_ERROR_INVALID_ARGUMENT (3)" and so on, for messages.
std::string gpu_result_name(int64_t result);

// Records the emulated driver's live allocations and imported IPC mappings;
// check() (and the destructor, unless check() ran) expects the same numbers
// again: the test left nothing behind. It first clears fault rules, which a
// test must not leave behind either. Nothing on a real driver.
class GpuLeakCheck {
  public:
    explicit GpuLeakCheck(const umf_test_gpu_t *g);
    ~GpuLeakCheck();
    GpuLeakCheck(const GpuLeakCheck &) = delete;
    GpuLeakCheck &operator=(const GpuLeakCheck &) = delete;
    void check();

  private:
    const umf_test_gpu_t *g_;
    int64_t allocations_ = -1, imports_ = -1;
    bool checked_ = false;
};

// A provider, destroyed with the object.
class GpuProvider {
  public:
    GpuProvider() = default;
    // umf_test_gpu_provider(g, opts); a failure is a test failure.
    explicit GpuProvider(const umf_test_gpu_t *g,
                         const umf_test_provider_opts_t *opts = nullptr);
    explicit GpuProvider(umf_memory_provider_handle_t h) : h_(h) {}
    ~GpuProvider();
    GpuProvider(const GpuProvider &) = delete;
    GpuProvider &operator=(const GpuProvider &) = delete;
    GpuProvider(GpuProvider &&other) noexcept : h_(other.h_) {
        other.h_ = nullptr;
    }
    umf_memory_provider_handle_t get() const {
        return h_;
    }
    operator umf_memory_provider_handle_t() const {
        return h_;
    }

  private:
    umf_memory_provider_handle_t h_ = nullptr;
};

#endif // UMF_GPU_TEST_GPU_TEST_H
