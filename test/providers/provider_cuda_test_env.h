// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the CUDA provider's suites share, on top of the driver suites'
// fixture (test/cuda_mock/cuda_test_fixture.h): contexts, providers, copies
// and native errors.
//
// The tests run on whatever UMF_GPU_CUDA_LIB names: the emulated
// libcuda.so.1 (the build's default) or a real NVIDIA driver. Checks that
// only the emulated driver can make (fault injection, leak and call counts,
// memory limits) skip on a real one with CUDA_TEST_REQUIRE_EMULATED().

#ifndef UMF_GPU_TEST_PROVIDER_CUDA_TEST_ENV_H
#define UMF_GPU_TEST_PROVIDER_CUDA_TEST_ENV_H 1

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_cuda.h>

#include "cuda_test_fixture.h"

// The driver that CudaTest loaded (the tests' own loader: as an application
// loads it, the library sharing the instance).
const cuda_test_driver_t *cuda_env();

// A CudaTest with device 0's primary context retained (not current), which
// checks, on the emulated driver, that the test leaves as many driver
// allocations and imported mappings alive as it found.
class CudaProviderTest : public CudaTest {
  protected:
    void SetUp() override;
    void TearDown() override;

  private:
    int64_t allocations_ = 0, imports_ = 0;
};

// The calling thread's current context (NULL if none or on error).
CUcontext cuda_current();

// Makes ctx current (NULL pops the current one).
void cuda_set_current(CUcontext ctx);

// A context made with cuCtxCreate on `device`; the calling thread's current
// context is left as it was. Destroyed by cuda_destroy_context().
CUcontext cuda_create_context(int device);
void cuda_destroy_context(CUcontext ctx);

// The primary context of device 0, retained by CudaProviderTest.
CUcontext cuda_primary_context();

int cuda_device_count();

// What a provider is made with.
struct cuda_provider_config {
    CUcontext context = nullptr; // nullptr: cuda_primary_context()
    int device = 0;
    umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE;
    bool set_flags = false;
    unsigned flags = 0;
    const char *name = nullptr;
};

// umfMemoryProviderCreate's result, the provider in *out.
umf_result_t cuda_try_provider(const cuda_provider_config &cfg,
                               umf_memory_provider_handle_t *out);

// A provider, owned: destroyed with the object.
class CudaProvider {
  public:
    explicit CudaProvider(const cuda_provider_config &cfg = {});
    ~CudaProvider();
    CudaProvider(const CudaProvider &) = delete;
    CudaProvider &operator=(const CudaProvider &) = delete;
    umf_memory_provider_handle_t get() const {
        return h_;
    }
    operator umf_memory_provider_handle_t() const {
        return h_;
    }
    umf_result_t create_result() const {
        return result_;
    }

  private:
    umf_memory_provider_handle_t h_ = nullptr;
    umf_result_t result_;
};

// Copies with the driver (cuMemcpy, unified addressing: any memory type,
// host buffers included), with ctx current for the call; false on failure.
bool cuda_copy(CUcontext ctx, void *dst, const void *src, size_t size);

// A byte pattern that depends on seed and position.
std::vector<unsigned char> cuda_pattern(size_t size, unsigned seed);

// Writes cuda_pattern(size, seed) to ptr, or checks that ptr holds it.
bool cuda_fill(CUcontext ctx, void *ptr, size_t size, unsigned seed);
bool cuda_check(CUcontext ctx, const void *ptr, size_t size, unsigned seed);

// This thread's native error.
struct cuda_native_error {
    int32_t code;
    std::string message;
};
cuda_native_error cuda_last_native_error(umf_memory_provider_handle_t h);

// The emulated driver's live counts (-1 on a real driver).
int64_t cuda_mock_live(umf_gpu_mock_live_t what);

#endif // UMF_GPU_TEST_PROVIDER_CUDA_TEST_ENV_H
