// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the Level Zero provider's suites share: the loader table (the
// library's own, so tests and provider drive one loader instance), the
// driver's devices, contexts, copies, providers, and the emulated driver's
// control API (fault injection, call and live counts), which the tests reach
// with dlopen(RTLD_NOLOAD) in the driver the loader loaded.
//
// The tests run on the driver ZE_ENABLE_ALT_DRIVERS names (the build's
// emulated driver). Checks that need the control API skip when it is absent.

#ifndef UMF_GPU_TEST_ZE_TEST_ENV_H
#define UMF_GPU_TEST_ZE_TEST_ENV_H 1

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <umf/gpu_mock.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_level_zero.h>

extern "C" {
#include "ze/ze_loader.h"
}

struct ZeMockApi {
    umf_gpu_mock_inject_faults_fn inject = nullptr;
    umf_gpu_mock_clear_faults_fn clear = nullptr;
    umf_gpu_mock_get_call_count_fn calls = nullptr;
    umf_gpu_mock_reset_call_counts_fn reset_calls = nullptr;
    umf_gpu_mock_get_live_count_fn live = nullptr;
    umf_gpu_mock_write_leak_report_fn leak_report = nullptr;
};

struct ZeEnv {
    const umf_ze_loader_t *ze = nullptr;
    ze_driver_handle_t driver = nullptr;
    std::vector<ze_device_handle_t> devices;
    ZeMockApi mock;  // all NULL without the emulated driver
    std::string why; // why the environment is unusable, if it is
};

// Loads everything once per process; check env.why before use.
const ZeEnv &ze_env();

// Fails the test (ASSERT) when the environment is unusable.
#define ZE_TEST_REQUIRE_ENV() ASSERT_TRUE(ze_env().why.empty()) << ze_env().why

#define ZE_TEST_REQUIRE_MOCK()                                                 \
    do {                                                                       \
        ZE_TEST_REQUIRE_ENV();                                                 \
        if (ze_env().mock.inject == nullptr) {                                 \
            GTEST_SKIP() << "needs the emulated driver's control API";         \
        }                                                                      \
    } while (0)

ze_context_handle_t ze_test_context_create();
void ze_test_context_destroy(ze_context_handle_t ctx);

// Copies through an immediate command list of `device` (never by
// dereferencing device memory on the host). true on success.
bool ze_test_copy(ze_context_handle_t ctx, ze_device_handle_t device, void *dst,
                  const void *src, size_t size);

// Writes `size` bytes of pattern(seed) into device memory / checks them.
bool ze_test_write_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           void *dst, size_t size, unsigned seed);
bool ze_test_check_pattern(ze_context_handle_t ctx, ze_device_handle_t device,
                           const void *src, size_t size, unsigned seed);

// The emulated driver's counts (-1 without it).
int64_t ze_test_calls(const char *entry);
int64_t ze_test_live(umf_gpu_mock_live_t what);

// What a provider is made with.
struct ZeProviderConfig {
    ze_context_handle_t context = nullptr; // required
    ze_device_handle_t device = nullptr;   // nullptr for HOST
    umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE;
    std::vector<ze_device_handle_t> resident;
    umf_level_zero_memory_provider_free_policy_t policy =
        UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT;
    uint32_t ordinal = 0;
    const char *name = nullptr;
};

// umfMemoryProviderCreate's result, the provider in *out.
umf_result_t ze_test_try_provider(const ZeProviderConfig &cfg,
                                  umf_memory_provider_handle_t *out);

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
        return ze_env().devices.at(i);
    }

    ze_context_handle_t ctx_ = nullptr;

  private:
    std::vector<umf_memory_provider_handle_t> providers_;
    int64_t allocations_ = 0, imports_ = 0;
};

#endif // UMF_GPU_TEST_ZE_TEST_ENV_H
