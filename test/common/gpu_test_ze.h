// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero provider's suites on the harness (gpu_harness.h,
// gpu_harness_ze.h, gpu_test.h): the kind's driver and devices, contexts,
// copies, providers with every parameter, and a fixture.
//
// The tests run on the driver ZE_ENABLE_ALT_DRIVERS names (the build's
// emulated driver). Checks that need its control API skip without it
// (ZE_TEST_REQUIRE_MOCK).

#ifndef UMF_GPU_TEST_GPU_TEST_ZE_H
#define UMF_GPU_TEST_GPU_TEST_ZE_H 1

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_harness_ze.h"
#include "gpu_test.h"

inline const umf_test_gpu_t *ze_gpu() {
    return umf_test_gpu(UMF_TEST_GPU_LEVEL_ZERO);
}

// The loader's entry points (NULL when Level Zero is unusable).
inline const umf_test_ze_t *ze_driver() {
    return umf_test_ze();
}

// The driver's devices.
std::vector<ze_device_handle_t> ze_devices();

// Fails the test (ASSERT) when Level Zero is unusable.
#define ZE_TEST_REQUIRE_ENV() GPU_REQUIRE(ze_gpu())
// And skips without the emulated driver's control API.
#define ZE_TEST_REQUIRE_MOCK() GPU_REQUIRE_EMULATED(ze_gpu())

// A new context on the driver (nullptr on failure); destroying it is
// expected to succeed.
ze_context_handle_t ze_test_context_create();
void ze_test_context_destroy(ze_context_handle_t ctx);

// Copies through an immediate command list of `device`. true on success.
inline bool ze_test_copy(ze_context_handle_t ctx, ze_device_handle_t device,
                         void *dst, const void *src, size_t size) {
    return umf_test_ze_copy(ctx, device, dst, src, size);
}

// Writes `size` bytes of umf_test_pattern(seed) into device memory, or
// checks them.
bool ze_test_write_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           void *dst, size_t size, unsigned seed);
bool ze_test_check_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           const void *src, size_t size, unsigned seed);

// The emulated driver's counts (-1 without it).
inline int64_t ze_test_calls(const char *entry) {
    return umf_test_gpu_calls(ze_gpu(), entry);
}
inline int64_t ze_test_live(umf_gpu_mock_live_t what) {
    return umf_test_gpu_live(ze_gpu(), what);
}

// The calling thread's native error of the Level Zero provider, read
// through its ops (which need no handle).
void ze_test_native_error(const char **message, int32_t *code);

// A context, a DEVICE provider on device 0 and call counting reset; checks
// at the end that the test left no driver allocation, IPC mapping or fault
// rule behind.
class ZeProviderTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;
    // A provider on this fixture's context, destroyed at TearDown.
    umf_memory_provider_handle_t provider(ZeProviderConfig cfg);
    umf_memory_provider_handle_t provider(); // DEVICE on device 0
    ze_device_handle_t dev(size_t i = 0) const {
        return ze_devices().at(i);
    }

    ze_context_handle_t ctx_ = nullptr;

  private:
    std::vector<umf_memory_provider_handle_t> providers_;
    std::unique_ptr<GpuLeakCheck> leaks_;
};

#endif // UMF_GPU_TEST_GPU_TEST_ZE_H
