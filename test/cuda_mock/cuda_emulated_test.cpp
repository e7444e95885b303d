// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What only the emulated driver has, or answers its own way: configuration
// by environment (devices, memory size and limits), fault rules (variable
// and control API), call and live counts, the leak report and its strict
// exit status, the legacy unversioned names, and its answers where the real
// driver's behaviour is undefined. Every case skips, saying why, when
// UMF_GPU_CUDA_LIB names another driver.

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

// The fixture of the cases that run children with their own environment.
class CudaEmulated : public CudaLoaded {
  protected:
    void SetUp() override {
        CudaLoaded::SetUp();
        if (!HasFatalFailure()) {
            CUDA_TEST_REQUIRE_EMULATED();
        }
    }

    int Run(const char *role, const std::vector<std::string> &env,
            std::string *output = nullptr) {
        int status = -1;
        EXPECT_TRUE(cuda_test_run_child(role, env, &status, output)) << role;
        return status;
    }
};

class CudaEmulatedCtx : public CudaCtxTest {
  protected:
    void SetUp() override {
        CudaCtxTest::SetUp();
        if (!HasFatalFailure() && !cu->emulated()) {
            GTEST_SKIP() << cu->path
                         << " has no umfCudaMockGetCallCount: this checks "
                            "the emulated driver only";
        }
    }
};

// ---------------------------------------------------------------------------
// Configuration

// Prints what the driver says about its devices.
UMF_TEST_CHILD(describe) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, false);
    CHILD_ASSERT(cu != nullptr);
    CUresult r = cu->cuInit(0);
    int count = -1;
    size_t total = 0;
    if (r == CUDA_SUCCESS) {
        CHILD_CU(cu->cuDeviceGetCount(&count));
        CHILD_CU(cu->cuDeviceTotalMem_v2(&total, 0));
    } else {
        // A failed cuInit stays failed; nothing works.
        CHILD_ASSERT(cu->cuInit(0) == r);
        CHILD_ASSERT(cu->cuDeviceGetCount(&count) ==
                     CUDA_ERROR_NOT_INITIALIZED);
    }
    std::fprintf(stderr, "cuInit=%d count=%d total=%zu\n", (int)r, count,
                 total);
    return 0;
}

TEST_F(CudaEmulated, DevicesFromTheEnvironment) {
    std::string out;
    // Empty variables count as unset: the defaults.
    EXPECT_EQ(Run("describe",
                  {"UMF_GPU_MOCK_DEVICES=", "UMF_GPU_MOCK_DEVICE_MEM="}, &out),
              0);
    EXPECT_NE(out.find("cuInit=0 count=2 total=4294967296"), std::string::npos)
        << out;
    EXPECT_EQ(Run("describe",
                  {"UMF_GPU_MOCK_DEVICES=3", "UMF_GPU_MOCK_DEVICE_MEM=64M"},
                  &out),
              0);
    EXPECT_NE(out.find("cuInit=0 count=3 total=67108864"), std::string::npos)
        << out;
    EXPECT_EQ(Run("describe", {"UMF_GPU_MOCK_DEVICES=0"}, &out), 0);
    EXPECT_NE(out.find("cuInit=100 "), std::string::npos)
        << "CUDA_ERROR_NO_DEVICE: " << out;
}

TEST_F(CudaEmulated, MalformedVariablesFailCuInit) {
    for (const char *bad :
         {"UMF_GPU_MOCK_DEVICE_MEM=lots", "UMF_GPU_MOCK_DEVICES=-1",
          "UMF_GPU_MOCK_MEMORY=disk", "UMF_GPU_MOCK_LEAKS=maybe",
          "UMF_GPU_MOCK_FAULTS=cuMemAlloc_v2:x=1",
          "UMF_GPU_MOCK_FAULTS=cuNoSuchEntry:1=1",
          "UMF_GPU_MOCK_CUDA_IPC_REOPEN=sometimes"}) {
        std::string out;
        EXPECT_EQ(Run("describe", {bad}, &out), 0) << bad;
        EXPECT_NE(out.find("cuInit=1 "), std::string::npos)
            << bad << ": " << out;
        std::string name(bad, std::strchr(bad, '=') - bad);
        EXPECT_NE(out.find(name), std::string::npos)
            << "the log names the variable: " << out;
    }
}

// The core (mock/) lives in each emulated driver as a private copy: nothing
// of it is exported, and the Level Zero driver in the same process keeps
// its own allocations, rules and counts.
TEST_F(CudaEmulated, CoreStaysPrivateToTheDriver) {
    for (const char *name :
         {"umf_mock_init", "umf_mock_alloc", "umf_mock_enter",
          "umf_mock_fault_check", "umf_mock_log_threshold", "umf_mock_self",
          "umf_mock_fault_rule_count", "cuda_mock_initialized",
          "cuda_mock_result_of", "cuda_mock_ctx_current"}) {
        EXPECT_EQ(cuda_test_driver_symbol(name), nullptr) << name;
    }
    const char *ze_path = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (ze_path == nullptr || ze_path[0] == '\0') {
        GTEST_SKIP() << "no emulated Level Zero driver in this build";
    }
    void *ze = dlopen(ze_path, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(ze, nullptr) << dlerror();
    auto ze_live = reinterpret_cast<umf_gpu_mock_get_live_count_fn>(
        dlsym(ze, "umfZeMockGetLiveCount"));
    auto ze_inject = reinterpret_cast<umf_gpu_mock_inject_faults_fn>(
        dlsym(ze, "umfZeMockInjectFaults"));
    ASSERT_TRUE(ze_live != nullptr && ze_inject != nullptr);
    EXPECT_EQ(dlsym(ze, "cuMemAlloc_v2"), nullptr);

    CU_ASSERT_OK(cu->cuInit(0));
    CUcontext ctx;
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(ctx));
    int64_t ze_allocs = ze_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    int64_t cu_allocs =
        cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              cu_allocs + 1);
    EXPECT_EQ(ze_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), ze_allocs)
        << "one registry per driver";
    // A CUDA rule is foreign to the Level Zero driver, and its rules stay
    // there.
    EXPECT_EQ(ze_inject("cuMemFree_v2:1=1"), -1);
    ASSERT_EQ(ze_inject("zeMemFree:1=ZE_RESULT_ERROR_UNKNOWN"), 0);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    auto ze_clear = reinterpret_cast<umf_gpu_mock_clear_faults_fn>(
        dlsym(ze, "umfZeMockClearFaults"));
    ASSERT_NE(ze_clear, nullptr);
    ze_clear();
    CU_EXPECT_OK(cu->cuCtxPopCurrent_v2(nullptr));
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(0));
    // Stays loaded: its exit-time report must not run from unmapped code.
}

// ---------------------------------------------------------------------------
// The device memory limit

UMF_TEST_CHILD(memory_limit) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    (void)sock;
    const size_t M = 1 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    CUcontext c0, c1;
    CHILD_CU(cu->cuCtxCreate_v2(&c1, 0, 1));
    CHILD_CU(cu->cuCtxCreate_v2(&c0, 0, 0));
    size_t free_b = 0, total_b = 0;
    CHILD_CU(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CHILD_ASSERT(total_b == M && free_b == M);

    CUdeviceptr a, b, c, d, m;
    CHILD_CU(cu->cuMemAlloc_v2(&a, M / 2));
    CHILD_CU(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CHILD_ASSERT(free_b == M / 2);
    CHILD_ASSERT(cu->cuMemAlloc_v2(&b, M / 2 + 1) == CUDA_ERROR_OUT_OF_MEMORY);
    CHILD_CU(cu->cuMemAlloc_v2(&b, 100)); // a whole page
    CHILD_CU(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CHILD_ASSERT(free_b == M / 2 - page);
    // Managed memory counts too; pinned host memory does not.
    CHILD_CU(cu->cuMemAllocManaged(&m, M / 2 - page, CU_MEM_ATTACH_GLOBAL));
    CHILD_CU(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CHILD_ASSERT(free_b == 0);
    CHILD_ASSERT(cu->cuMemAlloc_v2(&c, 1) == CUDA_ERROR_OUT_OF_MEMORY);
    void *host;
    CHILD_CU(cu->cuMemAllocHost_v2(&host, 4 * M));
    CHILD_CU(cu->cuMemFreeHost(host));
    // The other device has its own memory.
    CHILD_CU(cu->cuCtxPushCurrent_v2(c1));
    CHILD_CU(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CHILD_ASSERT(free_b == M);
    CHILD_CU(cu->cuMemAlloc_v2(&d, M));
    CHILD_CU(cu->cuMemFree_v2(d));
    CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));
    // Freeing gives it back.
    CHILD_CU(cu->cuMemFree_v2(a));
    CHILD_CU(cu->cuMemFree_v2(m));
    CHILD_CU(cu->cuMemAlloc_v2(&c, M / 2));
    CHILD_CU(cu->cuMemFree_v2(c));
    CHILD_CU(cu->cuMemFree_v2(b));
    CHILD_CU(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CHILD_ASSERT(free_b == M);
    CHILD_CU(cu->cuMemAlloc_v2(&c, M)); // all of it, in one piece
    CHILD_CU(cu->cuMemFree_v2(c));
    CHILD_CU(cu->cuCtxDestroy_v2(c0));
    CHILD_CU(cu->cuCtxDestroy_v2(c1));
    return 0;
}

TEST_F(CudaEmulated, DeviceMemoryLimitInEveryMemoryMode) {
    for (const char *mode : {"arena", "memfd", "malloc"}) {
        EXPECT_EQ(Run("memory_limit",
                      {"UMF_GPU_MOCK_DEVICE_MEM=1M", "UMF_GPU_MOCK_DEVICES=2",
                       std::string("UMF_GPU_MOCK_MEMORY=") + mode}),
                  0)
            << mode;
    }
}

// ---------------------------------------------------------------------------
// Fault rules from the environment

// Runs the calls that the rules of FaultsFromTheEnvironment target.
UMF_TEST_CHILD(env_faults) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxSetCurrent(ctx));
    CUdeviceptr p[4] = {};
    std::string line = "alloc:";
    for (int i = 0; i < 4; i++) {
        line += " " + std::to_string(cu->cuMemAlloc_v2(&p[i], 64));
    }
    line += " create:";
    for (int i = 0; i < 3; i++) {
        CUcontext c = nullptr;
        CUresult r = cu->cuCtxCreate_v2(&c, 0, 0);
        line += " " + std::to_string(r);
        if (r == CUDA_SUCCESS) {
            CHILD_CU(cu->cuCtxDestroy_v2(c));
        }
    }
    line += " fill:";
    CUdeviceptr q;
    CHILD_CU(cu->cuMemAlloc_v2(&q, 64));
    for (int i = 0; i < 200; i++) {
        line += cu->cuMemsetD8_v2(q, 0, 64) == CUDA_SUCCESS ? "." : "x";
    }
    CHILD_CU(cu->cuMemFree_v2(q));
    for (CUdeviceptr x : p) {
        if (x != 0) {
            CHILD_CU(cu->cuMemFree_v2(x));
        }
    }
    CHILD_CU(cu->cuCtxSetCurrent(nullptr));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    std::fprintf(stderr, "%s\n", line.c_str());
    return 0;
}

std::string fill_pattern(const std::string &out) {
    size_t at = out.find("fill:");
    return at == std::string::npos ? "" : out.substr(at + 5, 200);
}

TEST_F(CudaEmulated, FaultsFromTheEnvironment) {
    std::string out;
    ASSERT_EQ(Run("env_faults",
                  {"UMF_GPU_MOCK_FAULTS=cuMemAlloc_v2:2=CUDA_ERROR_OUT_OF_"
                   "MEMORY; cuCtxCreate_v2 : 2+ = 201 ;"
                   "zeMemAllocDevice:1=ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"},
                  &out),
              0)
        << out;
    // Only the 2nd allocation; the 2nd and later context creations (201 is
    // CUDA_ERROR_INVALID_CONTEXT); the Level Zero rule is not this driver's.
    EXPECT_NE(out.find("alloc: 0 2 0 0 create: 0 201 201 fill:"),
              std::string::npos)
        << out;

    // P percent of the calls, the same ones for the same seed.
    std::string a, b, c;
    ASSERT_EQ(Run("env_faults",
                  {"UMF_GPU_MOCK_FAULTS=cuMemsetD8_v2:p25=CUDA_ERROR_UNKNOWN",
                   "UMF_GPU_MOCK_SEED=7"},
                  &a),
              0)
        << a;
    ASSERT_EQ(Run("env_faults",
                  {"UMF_GPU_MOCK_FAULTS=cuMemsetD8_v2:p25=CUDA_ERROR_UNKNOWN",
                   "UMF_GPU_MOCK_SEED=7"},
                  &b),
              0)
        << b;
    ASSERT_EQ(Run("env_faults",
                  {"UMF_GPU_MOCK_FAULTS=cuMemsetD8_v2:p25=CUDA_ERROR_UNKNOWN",
                   "UMF_GPU_MOCK_SEED=0x1234"},
                  &c),
              0)
        << c;
    std::string fa = fill_pattern(a), fb = fill_pattern(b),
                fc = fill_pattern(c);
    ASSERT_EQ(fa.size(), 200u) << a;
    EXPECT_EQ(fa, fb) << "the same seed fails the same calls";
    EXPECT_NE(fa, fc) << "another seed fails others";
    size_t failed = static_cast<size_t>(std::count(fa.begin(), fa.end(), 'x'));
    EXPECT_GT(failed, 20u) << fa;
    EXPECT_LT(failed, 80u) << fa;
}

// ---------------------------------------------------------------------------
// Fault rules, call counts and live counts through the control API

TEST_F(CudaEmulatedCtx, FaultsFromTheControlApi) {
    CU_ASSERT_OK(cu->cuCtxSynchronize()); // nothing pending from others
    ASSERT_EQ(
        cu->umfCudaMockInjectFaults("cuMemAlloc_v2:1=CUDA_ERROR_OUT_OF_MEMORY"),
        0);
    CUdeviceptr p = 0;
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, 64), CUDA_ERROR_OUT_OF_MEMORY);
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64)) << "only the first call";

    // Every call from the 2nd on, by number, until cleared.
    ASSERT_EQ(cu->umfCudaMockInjectFaults("cuMemFree_v2:2+=0x1"), 0);
    CUdeviceptr q[3] = {};
    for (CUdeviceptr &x : q) {
        CU_ASSERT_OK(cu->cuMemAlloc_v2(&x, 64));
    }
    CU_EXPECT_OK(cu->cuMemFree_v2(q[0]));
    EXPECT_EQ(cu->cuMemFree_v2(q[1]), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemFree_v2(q[2]), CUDA_ERROR_INVALID_VALUE);
    cu->umfCudaMockClearFaults();
    CU_EXPECT_OK(cu->cuMemFree_v2(q[1])) << "the failed free freed nothing";
    CU_EXPECT_OK(cu->cuMemFree_v2(q[2]));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));

    // Bad rules: nothing is added.
    EXPECT_EQ(cu->umfCudaMockInjectFaults(nullptr), -1);
    EXPECT_EQ(cu->umfCudaMockInjectFaults("cuMemAlloc_v2"), -1);
    EXPECT_EQ(cu->umfCudaMockInjectFaults("cuMemAlloc_v2:0=1"), -1);
    EXPECT_EQ(cu->umfCudaMockInjectFaults("cuNoSuchEntry:1=1"), -1);
    EXPECT_EQ(cu->umfCudaMockInjectFaults("cuMemAlloc_v2:1=CUDA_ERROR_NOPE"),
              -1);
    EXPECT_EQ(cu->umfCudaMockInjectFaults("zeMemAllocDevice:1=1"), -1)
        << "a Level Zero rule given to the CUDA driver";
    EXPECT_EQ(cu->umfCudaMockInjectFaults(
                  "cuMemFree_v2:1=1;cuMemAlloc_v2:1=nonsense"),
              -1);
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    CU_EXPECT_OK(cu->cuMemFree_v2(p)) << "the valid half was not added";

    // Any entry point, e.g. the context calls.
    ASSERT_EQ(cu->umfCudaMockInjectFaults(
                  "cuCtxGetDevice:1=CUDA_ERROR_CONTEXT_IS_DESTROYED"),
              0);
    CUdevice d;
    EXPECT_EQ(cu->cuCtxGetDevice(&d), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CU_EXPECT_OK(cu->cuCtxGetDevice(&d));
    cu->umfCudaMockClearFaults();
}

TEST_F(CudaEmulatedCtx, CallCounts) {
    cu->umfCudaMockResetCallCounts();
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuDeviceGetCount"), 0);
    int n;
    CU_EXPECT_OK(cu->cuDeviceGetCount(&n));
    CU_EXPECT_OK(cu->cuDeviceGetCount(&n));
    EXPECT_EQ(cu->cuDeviceGetCount(nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuDeviceGetCount"), 3)
        << "failed calls count";
    ASSERT_EQ(cu->umfCudaMockInjectFaults("cuDeviceGetCount:1=999"), 0);
    EXPECT_EQ(cu->cuDeviceGetCount(&n), CUDA_ERROR_UNKNOWN);
    cu->umfCudaMockClearFaults();
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuDeviceGetCount"), 4)
        << "faulted calls count";
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuMemcpyHtoD_v2_ptds"), 0);
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuNoSuchEntry"), -1);
    EXPECT_EQ(cu->umfCudaMockGetCallCount(nullptr), -1);
    cu->umfCudaMockResetCallCounts();
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuDeviceGetCount"), 0);
}

TEST_F(CudaEmulatedCtx, LiveCounts) {
    int64_t allocs = cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    int64_t handles =
        cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IPC_HANDLES);
    int64_t contexts = cu->umfCudaMockGetObjectCount("context");
    EXPECT_GE(contexts, 1) << "the fixture's primary context";
    CUdeviceptr p, q;
    void *h;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&q, 64));
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&h, 64));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocs + 3);
    CUipcMemHandle ih;
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&ih, p));
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&ih, p + 8));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IPC_HANDLES),
              handles + 1)
        << "one handle per exported allocation";
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("context"), contexts + 1);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("context"), contexts);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("stream"), 0);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("memory pool"), 0);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("fence"), -1)
        << "not a kind of this driver";
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IPC_HANDLES),
              handles);
    CU_EXPECT_OK(cu->cuMemFree_v2(q));
    CU_EXPECT_OK(cu->cuMemFreeHost(h));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocs);
}

TEST_F(CudaEmulatedCtx, ContextTeardownFreesEveryKindOfMemory) {
    int64_t allocs = cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUdeviceptr d, m;
    void *h;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 1 << 16));
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, 1 << 16, CU_MEM_ATTACH_GLOBAL));
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&h, 1 << 16));
    CUipcMemHandle ih;
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&ih, d));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocs + 3);
    size_t free_before = 0, free_after = 0, total = 0;
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_before, &total));
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocs);
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_after, &total));
    EXPECT_EQ(free_after, free_before + 2 * (1 << 16));
    EXPECT_EQ(cu->cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE) << "gone";
}

// ---------------------------------------------------------------------------
// The leak report

TEST_F(CudaEmulatedCtx, WriteLeakReport) {
    int fd = memfd_create("leak-report", MFD_CLOEXEC);
    ASSERT_GE(fd, 0);
    int64_t before = cu->umfCudaMockWriteLeakReport(fd);
    EXPECT_GE(before, 1) << "the fixture's primary context";
    ASSERT_EQ(ftruncate(fd, 0), 0);
    ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 12345));
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    EXPECT_EQ(cu->umfCudaMockWriteLeakReport(fd), before + 2);
    ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
    std::string text = umf_test_read_all_string(fd);
    EXPECT_NE(text.find("12345 bytes of device memory"), std::string::npos)
        << text;
    EXPECT_NE(text.find("context"), std::string::npos) << text;
    EXPECT_NE(text.find("cuda-mock"), std::string::npos) << text;
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_EQ(cu->umfCudaMockWriteLeakReport(fd), before);
    EXPECT_EQ(cu->umfCudaMockWriteLeakReport(-1), -1) << "write fails";
    close(fd);
}

// Leaks an allocation with an IPC handle and a context, unless "clean".
UMF_TEST_CHILD(leaker) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    bool clean = getenv("LEAKER_CLEAN") != nullptr;
    CUcontext c;
    CHILD_CU(cu->cuCtxCreate_v2(&c, 0, 0));
    CUdeviceptr p;
    CHILD_CU(cu->cuMemAlloc_v2(&p, 777));
    CUipcMemHandle h;
    CHILD_CU(cu->cuIpcGetMemHandle(&h, p));
    if (clean) {
        CHILD_CU(cu->cuMemFree_v2(p));
        CHILD_CU(cu->cuCtxDestroy_v2(c));
    }
    return 0;
}

TEST_F(CudaEmulated, LeakReportAtExitAndStrictExitStatus) {
    std::string out;
    EXPECT_EQ(Run("leaker", {"UMF_GPU_MOCK_LEAKS=strict"}, &out), 86);
    EXPECT_NE(out.find("777 bytes of device memory"), std::string::npos) << out;
    EXPECT_NE(out.find("never freed"), std::string::npos) << out;
    EXPECT_NE(out.find("IPC handle"), std::string::npos) << out;
    EXPECT_NE(out.find("context"), std::string::npos) << out;
    EXPECT_NE(out.find("UMF_GPU_MOCK_LEAKS=strict"), std::string::npos) << out;

    EXPECT_EQ(Run("leaker", {"UMF_GPU_MOCK_LEAKS=report"}, &out), 0);
    EXPECT_NE(out.find("777 bytes of device memory"), std::string::npos) << out;
    EXPECT_EQ(Run("leaker", {"UMF_GPU_MOCK_LEAKS="}, &out), 0)
        << "report is the default";
    EXPECT_NE(out.find("777 bytes"), std::string::npos) << out;

    EXPECT_EQ(Run("leaker", {"UMF_GPU_MOCK_LEAKS=off"}, &out), 0);
    EXPECT_EQ(out.find("leak"), std::string::npos) << out;

    EXPECT_EQ(
        Run("leaker", {"UMF_GPU_MOCK_LEAKS=strict", "LEAKER_CLEAN=1"}, &out),
        0);
    EXPECT_EQ(out.find("leak"), std::string::npos) << out;
}

// ---------------------------------------------------------------------------
// The legacy unversioned names

// Those with 32-bit device pointers cannot address the emulated memory.
TEST_F(CudaEmulatedCtx, LegacyNamesAreRefused) {
    // Each called with harmless arguments; none may be looked at.
    typedef CUresult (*one_fn)(void *);
    typedef CUresult (*two_fn)(void *, void *);
    typedef CUresult (*three_fn)(void *, void *, void *);
    typedef CUresult (*four_fn)(void *, void *, void *, void *);
    typedef CUresult (*five_fn)(void *, void *, void *, void *, void *);
    unsigned int u = 0;
    struct legacy_t {
        const char *name;
        CUresult (*call)(void *fn, void *arg);
    };
    auto one_call = [](void *fn, void *arg) {
        return reinterpret_cast<one_fn>(fn)(arg);
    };
    auto two_call = [](void *fn, void *arg) {
        return reinterpret_cast<two_fn>(fn)(arg, arg);
    };
    auto three_call = [](void *fn, void *arg) {
        return reinterpret_cast<three_fn>(fn)(arg, arg, arg);
    };
    auto four_call = [](void *fn, void *arg) {
        return reinterpret_cast<four_fn>(fn)(arg, arg, arg, arg);
    };
    auto five_call = [](void *fn, void *arg) {
        return reinterpret_cast<five_fn>(fn)(arg, arg, arg, arg, arg);
    };
    const legacy_t legacy[] = {
        {"cuMemAlloc", two_call},
        {"cuMemFree", one_call},
        {"cuMemGetAddressRange", three_call},
        {"cuMemcpyHtoD", three_call},
        {"cuMemcpyDtoH", three_call},
        {"cuMemcpyDtoD", three_call},
        {"cuMemsetD8", three_call},
        {"cuMemcpyHtoDAsync", four_call},
        {"cuMemcpyDtoHAsync", four_call},
        {"cuMemcpyDtoDAsync", four_call},
        {"cuMemcpy2D", one_call},
        {"cuMemcpy2DUnaligned", one_call},
        {"cuMemcpy2DAsync", two_call},
        {"cuMemsetD16", three_call},
        {"cuMemsetD32", three_call},
        {"cuMemsetD2D8", five_call},
        {"cuMemsetD2D16", five_call},
        {"cuMemsetD2D32", five_call},
        {"cuMemHostGetDevicePointer", three_call},
        {"cuMemAllocPitch", five_call},
        {"cuModuleGetGlobal", four_call},
    };
    cu->umfCudaMockResetCallCounts();
    for (const legacy_t &l : legacy) {
        void *fn = cuda_test_driver_symbol(l.name);
        ASSERT_NE(fn, nullptr) << l.name;
        EXPECT_EQ(l.call(fn, &u), CUDA_ERROR_NOT_SUPPORTED) << l.name;
        EXPECT_EQ(cu->umfCudaMockGetCallCount(l.name), 1) << l.name;
    }
    // And through cuGetProcAddress_v2 for an old version.
    void *fn = nullptr;
    CU_ASSERT_OK(cu->cuGetProcAddress_v2("cuMemAlloc", &fn, 3000,
                                         CU_GET_PROC_ADDRESS_DEFAULT, nullptr));
    EXPECT_EQ(fn, cuda_test_driver_symbol("cuMemAlloc"));
    EXPECT_EQ(u, 0u) << "no legacy entry point wrote anything";
}

// Those whose ABI works on a 64-bit process are the calls of their twins,
// as loaders that resolve the old names need (LLVM's OpenMP offload
// runtime: cuMemAllocHost, cuEventDestroy, cuDeviceTotalMem).
TEST_F(CudaEmulatedCtx, LegacyNamesThatWorkAreTheirTwins) {
    auto sym = [](const char *name) {
        void *fn = cuda_test_driver_symbol(name);
        EXPECT_NE(fn, nullptr) << name;
        return fn;
    };
    cu->umfCudaMockResetCallCounts();
    void *host = nullptr;
    auto alloc_host = reinterpret_cast<CUresult (*)(void **, unsigned)>(
        sym("cuMemAllocHost"));
    CU_ASSERT_OK(alloc_host(&host, 4096));
    CU_EXPECT_OK(cu->cuMemFreeHost(host));
    EXPECT_EQ(alloc_host(nullptr, 4096), CUDA_ERROR_INVALID_VALUE);
    // 32-bit sizes: clamped (the default device memory is 4 GiB).
    unsigned total32 = 0, free32 = 0;
    size_t total = 0, free_now = 0;
    CU_ASSERT_OK(cu->cuDeviceTotalMem_v2(&total, dev));
    auto total_mem = reinterpret_cast<CUresult (*)(unsigned *, CUdevice)>(
        sym("cuDeviceTotalMem"));
    CU_ASSERT_OK(total_mem(&total32, dev));
    EXPECT_EQ(total32, total > UINT32_MAX ? UINT32_MAX : total);
    auto mem_info = reinterpret_cast<CUresult (*)(unsigned *, unsigned *)>(
        sym("cuMemGetInfo"));
    CU_ASSERT_OK(mem_info(&free32, &total32));
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_now, &total));
    EXPECT_EQ(total32, total > UINT32_MAX ? UINT32_MAX : total);
    EXPECT_EQ(free32, free_now > UINT32_MAX ? UINT32_MAX : free_now);
    EXPECT_EQ(mem_info(nullptr, &total32), CUDA_ERROR_INVALID_VALUE);

    // Contexts, streams, events by CUDA 2's names.
    auto ctx_create = reinterpret_cast<cu_ctx_create_v2_fn>(sym("cuCtxCreate"));
    auto ctx_destroy =
        reinterpret_cast<CUresult (*)(CUcontext)>(sym("cuCtxDestroy"));
    auto ctx_push =
        reinterpret_cast<CUresult (*)(CUcontext)>(sym("cuCtxPushCurrent"));
    auto ctx_pop =
        reinterpret_cast<CUresult (*)(CUcontext *)>(sym("cuCtxPopCurrent"));
    CUcontext c = nullptr, top = nullptr;
    CU_ASSERT_OK(ctx_create(&c, 0, dev));
    CU_EXPECT_OK(ctx_pop(&top));
    EXPECT_EQ(top, c);
    CU_EXPECT_OK(ctx_push(c));
    CU_EXPECT_OK(ctx_destroy(c));
    EXPECT_EQ(ctx_destroy(c), CUDA_ERROR_INVALID_CONTEXT);
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&top));
    EXPECT_EQ(top, ctx);
    CUevent e = nullptr;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    auto event_destroy =
        reinterpret_cast<CUresult (*)(CUevent)>(sym("cuEventDestroy"));
    CU_EXPECT_OK(event_destroy(e));
    EXPECT_EQ(event_destroy(e), CUDA_ERROR_INVALID_HANDLE);
    CUstream st = nullptr;
    CU_ASSERT_OK(cu->cuStreamCreate(&st, 0));
    auto stream_destroy =
        reinterpret_cast<CUresult (*)(CUstream)>(sym("cuStreamDestroy"));
    CU_EXPECT_OK(stream_destroy(st));
    EXPECT_EQ(stream_destroy(st), CUDA_ERROR_INVALID_HANDLE);

    // Registration, IPC, proc addresses.
    std::vector<char> buf(8192);
    auto host_register =
        reinterpret_cast<CUresult (*)(void *, size_t, unsigned)>(
            sym("cuMemHostRegister"));
    CU_ASSERT_OK(host_register(buf.data(), buf.size(), 0));
    CU_EXPECT_OK(cu->cuMemHostUnregister(buf.data()));
    auto ipc_open =
        reinterpret_cast<CUresult (*)(CUdeviceptr *, CUipcMemHandle, unsigned)>(
            sym("cuIpcOpenMemHandle"));
    CUipcMemHandle h = {};
    CUdeviceptr dp = 0;
    EXPECT_EQ(
        ipc_open(&dp, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
        cu->cuIpcOpenMemHandle_v2(&dp, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    auto proc =
        reinterpret_cast<CUresult (*)(const char *, void **, int, cuuint64_t)>(
            sym("cuGetProcAddress"));
    void *fn = nullptr;
    CU_EXPECT_OK(proc("cuMemAlloc", &fn, 11030, 0));
    EXPECT_EQ(fn, cuda_test_driver_symbol("cuMemAlloc_v2"));
    for (const char *n :
         {"cuMemAllocHost", "cuDeviceTotalMem", "cuMemGetInfo", "cuCtxCreate",
          "cuCtxDestroy", "cuCtxPushCurrent", "cuCtxPopCurrent",
          "cuEventDestroy", "cuStreamDestroy", "cuMemHostRegister",
          "cuGetProcAddress"}) {
        EXPECT_GE(cu->umfCudaMockGetCallCount(n), 1) << n;
    }
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuIpcOpenMemHandle"), 1);
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuIpcOpenMemHandle_v2"), 2)
        << "the old name is the _v2 call, counted under both";
}

// ---------------------------------------------------------------------------
// The emulated driver's answers where the real driver's are undefined or
// not documented.

TEST_F(CudaEmulatedCtx, ContextHandleChecks) {
    EXPECT_EQ(cu->cuCtxDestroy_v2(ctx), CUDA_ERROR_INVALID_CONTEXT)
        << "a primary context is released, not destroyed";
    int on_stack = 0;
    CUcontext bogus = reinterpret_cast<CUcontext>(&on_stack);
    EXPECT_EQ(cu->cuCtxSetCurrent(bogus), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxPushCurrent_v2(bogus), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxDestroy_v2(bogus), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxPushCurrent_v2(nullptr), CUDA_ERROR_INVALID_CONTEXT);
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->cuCtxDestroy_v2(c), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxPushCurrent_v2(c), CUDA_ERROR_INVALID_CONTEXT);
    CUcontext cur;
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx);

    // Scheduling flags that are not one of the four.
    EXPECT_EQ(
        cu->cuCtxCreate_v2(&c, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, dev),
        CUDA_ERROR_INVALID_VALUE);
    CUctxCigParam cig = {};
    CUctxCreateParams params = {};
    params.cigParams = &cig;
    EXPECT_EQ(cu->cuCtxCreate_v4(&c, &params, 0, dev),
              CUDA_ERROR_NOT_SUPPORTED);
    CUexecAffinityParam affinity = {};
    affinity.type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
    affinity.param.smCount.val = 1;
    params = {};
    params.execAffinityParams = &affinity;
    params.numExecAffinityParams = 1;
    EXPECT_EQ(cu->cuCtxCreate_v4(&c, &params, 0, dev),
              CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
    params.numExecAffinityParams = -1;
    EXPECT_EQ(cu->cuCtxCreate_v4(&c, &params, 0, dev),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx);
}

TEST_F(CudaEmulatedCtx, ContextStackDepthIsBounded) {
    int pushed = 0;
    CUresult r = CUDA_SUCCESS;
    while (pushed < 1000 &&
           (r = cu->cuCtxPushCurrent_v2(ctx)) == CUDA_SUCCESS) {
        pushed++;
    }
    EXPECT_EQ(r, CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(pushed, 63) << "64 entries, the fixture's included";
    for (int i = 0; i < pushed; i++) {
        CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(nullptr));
    }
}

TEST_F(CudaEmulatedCtx, EveryDeviceAttributeIsAnswered) {
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int v = -12345;
        CU_EXPECT_OK(cu->cuDeviceGetAttribute(
            &v, static_cast<CUdevice_attribute>(a), dev))
            << a;
        EXPECT_NE(v, -12345) << a;
    }
    int bus0 = 0, bus1 = 0, count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    if (count > 1) {
        CU_EXPECT_OK(
            cu->cuDeviceGetAttribute(&bus0, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0));
        CU_EXPECT_OK(
            cu->cuDeviceGetAttribute(&bus1, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 1));
        EXPECT_NE(bus0, bus1);
    }
}

TEST_F(CudaEmulatedCtx, EveryPointerAttribute) {
    CUdeviceptr d = 0, m = 0;
    void *h = nullptr;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 5000));
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, 5000, CU_MEM_ATTACH_HOST));
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&h, 5000));
    CUdeviceptr hp = reinterpret_cast<CUdeviceptr>(h);
    struct expect_t {
        CUdeviceptr base;
        unsigned type, managed, ipc;
    } cases[] = {
        {d, CU_MEMORYTYPE_DEVICE, 0, 1},
        {m, CU_MEMORYTYPE_DEVICE, 1, 0},
        {hp, CU_MEMORYTYPE_HOST, 0, 0},
    };
    for (const expect_t &e : cases) {
        CUdeviceptr p = e.base + 4321;
        auto u32 = [&](CUpointer_attribute a) {
            return cuda_test_attr<unsigned>(cu, a, p);
        };
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_MEMORY_TYPE), e.type);
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_IS_MANAGED), e.managed);
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE), e.ipc);
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS), 0u);
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_MAPPED), 1u);
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE), 0u);
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE), 0u);
        EXPECT_EQ(
            u32(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS),
            static_cast<unsigned>(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE));
        EXPECT_EQ(u32(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL),
                  static_cast<unsigned>(dev));
        EXPECT_EQ(
            cuda_test_attr<void *>(cu, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p),
            nullptr);
        auto id = cuda_test_attr<unsigned long long>(
            cu, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
        EXPECT_NE(id, 0u);
        EXPECT_EQ(cuda_test_attr<unsigned long long>(
                      cu, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, p),
                  id);
        EXPECT_EQ(
            cuda_test_attr<size_t>(cu, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, p),
            5000u);
        EXPECT_EQ(cuda_test_attr<CUdeviceptr>(
                      cu, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, p),
                  e.base);
        EXPECT_EQ(cuda_test_attr<CUdeviceptr>(
                      cu, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, p),
                  p);
        unsigned u = 0;
        // No shareable handle type: only VMM memory has one.
        CU_EXPECT_OK(cu->cuPointerGetAttribute(
            &u, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, p));
        EXPECT_EQ(u, static_cast<unsigned>(CU_MEM_HANDLE_TYPE_NONE));
        // Not emulated: kernel-interface tokens...
        CUDA_POINTER_ATTRIBUTE_P2P_TOKENS tokens;
        EXPECT_EQ(cu->cuPointerGetAttribute(&tokens,
                                            CU_POINTER_ATTRIBUTE_P2P_TOKENS, p),
                  CUDA_ERROR_NOT_SUPPORTED);
        // ... which cuPointerGetAttributes reads as zero.
        CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_P2P_TOKENS,
                                       CU_POINTER_ATTRIBUTE_MAPPED};
        u = 0;
        std::memset(&tokens, 0xff, sizeof(tokens));
        void *data[] = {&tokens, &u};
        CU_EXPECT_OK(cu->cuPointerGetAttributes(2, attrs, data, p));
        EXPECT_EQ(u, 1u);
        EXPECT_EQ(tokens.p2pToken, 0u);
        EXPECT_EQ(tokens.vaSpaceToken, 0u);
    }
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuMemFree_v2(m));
    CU_EXPECT_OK(cu->cuMemFreeHost(h));
}

TEST_F(CudaEmulatedCtx, MoreArgumentChecks) {
    char name[16];
    std::memset(name, 'x', sizeof(name));
    CU_ASSERT_OK(cu->cuDeviceGetName(name, 5, dev));
    EXPECT_EQ(std::strlen(name), 4u) << "truncated and terminated";
    EXPECT_EQ(cu->cuDeviceGetName(name, 0, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetName(name, -1, dev), CUDA_ERROR_INVALID_VALUE);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 64;
    size_t g;
    EXPECT_EQ(cu->cuMemGetAllocationGranularity(
                  &g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
              CUDA_ERROR_INVALID_VALUE);
    prop.location.id = 0;
    prop.location.type = CU_MEM_LOCATION_TYPE_HOST;
    EXPECT_EQ(cu->cuMemGetAllocationGranularity(
                  &g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
              CUDA_ERROR_NOT_SUPPORTED)
        << "host-located VMM memory is not emulated";
    typedef CUresult (*create_v3_t)(CUcontext *, CUexecAffinityParam *, int,
                                    unsigned int, CUdevice);
    auto create_v3 = reinterpret_cast<create_v3_t>(
        cuda_test_driver_symbol("cuCtxCreate_v3"));
    ASSERT_NE(create_v3, nullptr);
    CUcontext c;
    CUexecAffinityParam affinity = {};
    EXPECT_EQ(create_v3(&c, &affinity, 1, 0, dev),
              CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
    EXPECT_EQ(create_v3(&c, nullptr, 1, 0, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(create_v3(&c, nullptr, -1, 0, dev), CUDA_ERROR_INVALID_VALUE);
    // The CUDA 13 context queries on a destroyed context.
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    CUdevice d;
    EXPECT_EQ(cu->cuCtxSynchronize_v2(c), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxGetDevice_v2(&d, c), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(static_cast<umf_gpu_mock_live_t>(9)),
              -1);
}

TEST_F(CudaEmulatedCtx, AddressRangeIsTheSizeAskedFor) {
    for (size_t size : {size_t{1}, size_t{4096}, size_t{3 * 4096 + 100}}) {
        CUdeviceptr p = 0, base = 0;
        size_t got = 0;
        CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, size));
        CU_EXPECT_OK(cu->cuMemGetAddressRange_v2(&base, &got, p + size - 1));
        EXPECT_EQ(base, p);
        EXPECT_EQ(got, size);
        EXPECT_EQ(
            cuda_test_attr<size_t>(cu, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p),
            size);
        CU_EXPECT_OK(cu->cuMemFree_v2(p));
    }
}

TEST_F(CudaEmulatedCtx, CopyRangeChecks) {
    CUdeviceptr a = 0, b = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 1000));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, 1000));
    std::vector<unsigned char> host(2000, 1);
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(a + 500, host.data(), 501),
              CUDA_ERROR_INVALID_VALUE)
        << "past the end of the allocation";
    CU_EXPECT_OK(cu->cuMemcpyHtoD_v2(a + 500, host.data(), 500));
    EXPECT_EQ(cu->cuMemcpyDtoH_v2(host.data(), a, 1001),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpyDtoD_v2(a, b, 1001), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD8_v2(b + 1, 0, 1000), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpy(a, reinterpret_cast<CUdeviceptr>(host.data()), 1001),
              CUDA_ERROR_INVALID_VALUE);
    // Host memory the driver does not know is not device memory.
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(reinterpret_cast<CUdeviceptr>(host.data()),
                                  host.data() + 1000, 10),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD8_v2(0, 0, 10), CUDA_ERROR_INVALID_VALUE);
    // Overlapping copies inside one allocation move the bytes as memmove.
    std::vector<unsigned char> v(1000), out(1000);
    for (size_t i = 0; i < v.size(); i++) {
        v[i] = static_cast<unsigned char>(i);
    }
    CU_ASSERT_OK(cu->cuMemcpyHtoD_v2(a, v.data(), 1000));
    CU_ASSERT_OK(cu->cuMemcpyDtoD_v2(a + 10, a, 500));
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(out.data(), a, 1000));
    for (size_t i = 0; i < 500; i++) {
        ASSERT_EQ(out[10 + i], v[i]) << i;
    }
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaEmulatedCtx, ZeroSizesAndNullPointers) {
    void *h = nullptr;
    EXPECT_EQ(cu->cuMemAllocHost_v2(&h, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemHostAlloc(&h, 0, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemFree_v2(0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemFreeHost(nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuIpcCloseMemHandle(0), CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    EXPECT_EQ(cu->cuMemcpy(0, p, 8), CUDA_ERROR_INVALID_VALUE);
    unsigned v;
    EXPECT_EQ(
        cu->cuPointerGetAttribute(&v, static_cast<CUpointer_attribute>(0), p),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuPointerGetAttribute(
                  &v, static_cast<CUpointer_attribute>(1000), p),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

} // namespace
