// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// GoogleTest fixtures and helpers of the CUDA driver suites.
//
//   CudaLoaded   the driver loaded
//   CudaTest     and cuInit done; no context
//   CudaCtxTest  and device 0's primary context retained and current
//
// Checks of the emulated driver alone (fault rules, leak report, memory
// limits, legacy names) start with CUDA_TEST_REQUIRE_EMULATED(), which
// skips, saying why, on any other driver.

#ifndef UMF_GPU_TEST_CUDA_TEST_FIXTURE_H
#define UMF_GPU_TEST_CUDA_TEST_FIXTURE_H 1

#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "cuda_test_driver.h"
#include "test_child.h"

// Results print as their names in failure messages.
inline void PrintTo(CUresult r, std::ostream *os) {
    *os << cuda_test_result(r);
}

#define CU_ASSERT_OK(call) ASSERT_EQ((call), CUDA_SUCCESS)
#define CU_EXPECT_OK(call) EXPECT_EQ((call), CUDA_SUCCESS)

// An entry point beyond the harness's table, by the name cuda.h maps `name`
// to (cuModuleGetGlobal is cuModuleGetGlobal_v2), with that type; one that
// is not exported is a test failure (and NULL).
template <typename F> F cuda_test_sym(const char *name) {
    F fn = reinterpret_cast<F>(cuda_test_driver_symbol(name));
    EXPECT_NE(fn, nullptr) << name << " is not exported";
    return fn;
}
#define CU_STR_(x) #x
#define CU_STR(x) CU_STR_(x)
// A fixture's driver functions from an X-macro list: a member of each
// function's type, and its lookup in SetUp (a missing one fails the test).
#define CUDA_TEST_SYMBOL_MEMBER(name) decltype(&::name) name = nullptr;
#define CUDA_TEST_SYMBOL_RESOLVE(name)                                         \
    name = reinterpret_cast<decltype(name)>(cuda_test_driver_symbol(#name));   \
    ASSERT_NE(name, nullptr) << #name;

#define CU_SYM(name) cuda_test_sym<decltype(&::name)>(CU_STR(name))

// In a child role (UMF_TEST_CHILD): a driver call that must succeed, else
// the role ends with status 1 (CHILD_ASSERT, test_child.h).
#define CHILD_CU(call) CHILD_ASSERT((call) == CUDA_SUCCESS)

// Attribute `attr` of `ptr`, read as a T (zero-initialised first); a failed
// call is a test failure.
template <typename T>
T cuda_test_attr(const cuda_test_driver_t *cu, CUpointer_attribute attr,
                 CUdeviceptr ptr) {
    T value{};
    CUresult r = cu->cuPointerGetAttribute(&value, attr, ptr);
    EXPECT_EQ(r, CUDA_SUCCESS) << "pointer attribute " << attr;
    return value;
}

// Test data: byte i of pattern `seed`; writing a pattern into device memory
// (cuMemcpyHtoD_v2) and checking it there (cuMemcpyDtoH_v2; a mismatch is
// printed on stderr).
unsigned char cuda_test_pattern_byte(size_t i, int seed);
CUresult cuda_test_write_pattern(const cuda_test_driver_t *cu, CUdeviceptr p,
                                 size_t size, int seed);
bool cuda_test_check_pattern(const cuda_test_driver_t *cu, CUdeviceptr p,
                             size_t size, int seed);

#define CUDA_TEST_REQUIRE_EMULATED()                                           \
    do {                                                                       \
        if (!cu->emulated()) {                                                 \
            GTEST_SKIP() << cu->path                                           \
                         << " has no umfCudaMockGetCallCount: this checks "    \
                            "the emulated driver only";                        \
        }                                                                      \
    } while (0)

// The driver loaded; cuInit not called.
class CudaLoaded : public ::testing::Test {
  protected:
    const cuda_test_driver_t *cu = nullptr;

    void SetUp() override {
        std::string why;
        cu = cuda_test_driver_load(&why);
        ASSERT_NE(cu, nullptr) << why;
    }
};

class CudaTest : public CudaLoaded {
  protected:
    void SetUp() override {
        CudaLoaded::SetUp();
        if (!HasFatalFailure()) {
            CU_ASSERT_OK(cu->cuInit(0));
        }
    }
};

class CudaCtxTest : public CudaTest {
  protected:
    CUdevice dev = 0;
    CUcontext ctx = nullptr;
    int64_t allocations_before = 0;

    void SetUp() override {
        CudaTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        CU_ASSERT_OK(cu->cuDeviceGet(&dev, 0));
        CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&ctx, dev));
        CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(ctx));
        if (cu->emulated()) {
            allocations_before =
                cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
        }
    }

    void TearDown() override {
        if (ctx == nullptr) {
            return;
        }
        if (cu->emulated()) {
            // Every test frees what it allocates.
            EXPECT_EQ(
                cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                allocations_before);
        }
        CUcontext top = nullptr;
        EXPECT_EQ(cu->cuCtxPopCurrent_v2(&top), CUDA_SUCCESS);
        EXPECT_EQ(top, ctx);
        EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(dev), CUDA_SUCCESS);
    }
};

// The fixture of checks of the emulated driver alone: Base's, skipped
// (saying why) on any other driver.
template <typename Base> class CudaEmulatedOnly : public Base {
  protected:
    void SetUp() override {
        Base::SetUp();
        if (!this->HasFatalFailure() && !this->cu->emulated()) {
            GTEST_SKIP() << this->cu->path << " is not the emulated driver";
        }
    }
};

// Runs this test binary as child role `role` with the environment
// assignments `env` ("NAME=value"), and waits for it. Its exit status goes
// to *status and, when `output` is not NULL, its standard error (which the
// role sends through its socket, see cuda_test_child_stderr_to_socket) to
// *output. False when the child could not be started.
bool cuda_test_run_child(const char *role, const std::vector<std::string> &env,
                         int *status, std::string *output);

// In a child role: from now on standard error goes to the parent.
void cuda_test_child_stderr_to_socket(int sock);

// In a child role: applies the "NAME=value" arguments, loads the driver and,
// when `init`, calls cuInit. NULL (and a message on stderr) on failure.
const cuda_test_driver_t *cuda_test_child_setup(int argc, char **argv,
                                                bool init);

#endif // UMF_GPU_TEST_CUDA_TEST_FIXTURE_H
