// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA provider's suites on the harness (gpu_harness.h,
// gpu_harness_cuda.h, gpu_test.h), on top of the driver suites' fixtures
// (cuda_test_fixture.h): contexts, providers, copies and native errors.
//
// The tests run on whatever UMF_GPU_CUDA_LIB names: the emulated
// libcuda.so.1 (the build's default) or a real NVIDIA driver. Checks that
// only the emulated driver can make (fault injection, leak and call counts,
// memory limits) skip on a real one with CUDA_TEST_REQUIRE_EMULATED().

#ifndef UMF_GPU_TEST_GPU_TEST_CUDA_H
#define UMF_GPU_TEST_GPU_TEST_CUDA_H 1

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_test_fixture.h"
#include "gpu_harness_cuda.h"
#include "gpu_test.h"

inline const umf_test_gpu_t *cuda_gpu() {
    return umf_test_gpu(UMF_TEST_GPU_CUDA);
}

// The driver the harness brought up; a failure when it is unusable.
const cuda_test_driver_t *cuda_env();

// A CudaTest that requires the harness's CUDA environment and checks, on
// the emulated driver, that the test leaves as many driver allocations and
// imported mappings alive as it found.
class CudaProviderTest : public CudaTest {
  protected:
    void SetUp() override;
    void TearDown() override;

  private:
    std::unique_ptr<GpuLeakCheck> leaks_;
};

// The calling thread's current context (NULL if none or on error).
CUcontext cuda_current();

// Makes ctx current (NULL pops the current one).
void cuda_set_current(CUcontext ctx);

// A context made with cuCtxCreate on `device`; the calling thread's current
// context is left as it was. Destroyed by cuda_destroy_context().
CUcontext cuda_create_context(int device);
void cuda_destroy_context(CUcontext ctx);

// The primary context of device 0, which the harness holds retained.
CUcontext cuda_primary_context();

int cuda_device_count();

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
// host buffers included) in ctx; false on failure.
bool cuda_copy(CUcontext ctx, void *dst, const void *src, size_t size);

// The harness's pattern (umf_test_pattern).
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
inline int64_t cuda_mock_live(umf_gpu_mock_live_t what) {
    return umf_test_gpu_live(cuda_gpu(), what);
}

#endif // UMF_GPU_TEST_GPU_TEST_CUDA_H
