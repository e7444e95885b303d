// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Primary contexts as runtimes drive them: flags set before the first retain
// (LLVM's OpenMP offload runtime sets CU_CTX_SCHED_BLOCKING_SYNC), state
// queries, and cuDevicePrimaryCtxReset, which frees everything the context
// made and leaves the releases its users owe to succeed (numba resets, then
// releases, at the end of every test). Each case runs in a child process of
// its own, since a reset acts on the whole process. Written from cuda.h:
// with UMF_GPU_CUDA_LIB naming an NVIDIA libcuda.so.1 the cases run
// unchanged on a GPU; what only the emulated driver can show (its live
// counts, CUDA 7's variant) is checked there alone.

#include <cstring>
#include <future>
#include <string>
#include <thread>

#include "cuda_test_fixture.h"

namespace {

typedef CUresult (*primary_fn)(CUdevice);
typedef CUresult (*set_flags_fn)(CUdevice, unsigned int);
typedef CUresult (*ctx_flags_fn)(unsigned int *);

struct primary_calls_t {
    primary_fn reset;
    set_flags_fn set_flags;
    ctx_flags_fn ctx_get_flags;
};

// The entry points beyond the harness's table, by the names cuda.h maps
// cuDevicePrimaryCtxReset and cuDevicePrimaryCtxSetFlags to.
bool load_primary_calls(primary_calls_t *p) {
    p->reset = reinterpret_cast<primary_fn>(
        cuda_test_driver_symbol("cuDevicePrimaryCtxReset_v2"));
    p->set_flags = reinterpret_cast<set_flags_fn>(
        cuda_test_driver_symbol("cuDevicePrimaryCtxSetFlags_v2"));
    p->ctx_get_flags = reinterpret_cast<ctx_flags_fn>(
        cuda_test_driver_symbol("cuCtxGetFlags"));
    return p->reset != nullptr && p->set_flags != nullptr &&
           p->ctx_get_flags != nullptr;
}

// Runs child role `role` and expects it to pass; its standard error is the
// failure message.
void expect_child_passes(const char *role) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child(role, {}, &status, &out)) << role;
    EXPECT_EQ(status, 0) << role << ":\n" << out;
}

// The setup of every role: the driver, cuInit, the calls; stderr to the
// parent.
#define PRIMARY_CHILD_SETUP()                                                  \
    cuda_test_child_stderr_to_socket(sock);                                    \
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);    \
    CHILD_ASSERT(cu != nullptr);                                               \
    primary_calls_t pc;                                                        \
    CHILD_ASSERT(load_primary_calls(&pc))

int state_of(const cuda_test_driver_t *cu, unsigned *flags, int *active) {
    *flags = ~0u;
    *active = -1;
    return cu->cuDevicePrimaryCtxGetState(0, flags, active) == CUDA_SUCCESS ? 0
                                                                            : 1;
}

// ---------------------------------------------------------------------------
// Reset

// What the primary context made goes with a reset; the context stays
// retained, inactive, until the next retain brings it up again.
UMF_TEST_CHILD(reset_frees_everything) {
    PRIMARY_CHILD_SETUP();
    int64_t live_before =
        cu->emulated()
            ? cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS)
            : 0;
    CUcontext ctx = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    CUdeviceptr p = 0, q = 0;
    CHILD_CU(cu->cuMemAlloc_v2(&p, 1 << 20));
    CHILD_CU(cu->cuMemAlloc_v2(&q, 4096));
    void *host = nullptr;
    CHILD_CU(cu->cuMemAllocHost_v2(&host, 4096));
    unsigned flags;
    int active;
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 1);
    if (cu->emulated()) {
        CHILD_EXPECT_EQ(
            cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
            live_before + 3);
        CHILD_EXPECT_EQ(cu->umfCudaMockGetObjectCount("context"), 1);
    }

    CHILD_CU(pc.reset(0));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 0);
    if (cu->emulated()) {
        // Everything it made is gone; the handle current in this thread
        // names a destroyed context until the next retain.
        CHILD_EXPECT_EQ(
            cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
            live_before);
        CHILD_EXPECT_EQ(cu->umfCudaMockGetObjectCount("context"), 0);
        CUdeviceptr r = 0;
        CHILD_EXPECT_EQ(cu->cuMemAlloc_v2(&r, 64),
                        CUDA_ERROR_CONTEXT_IS_DESTROYED);
        CHILD_EXPECT_EQ(cu->cuMemFree_v2(p), CUDA_ERROR_INVALID_VALUE);
    }
    CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));

    // Retained again: the same handle, a fresh context that works.
    CUcontext again = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&again, 0));
    CHILD_EXPECT(again == ctx);
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 1);
    CHILD_CU(cu->cuCtxPushCurrent_v2(again));
    CUdeviceptr r = 0;
    CHILD_CU(cu->cuMemAlloc_v2(&r, 256));
    CHILD_CU(cuda_test_write_pattern(cu, r, 256, 7));
    CHILD_EXPECT(cuda_test_check_pattern(cu, r, 256, 7));
    CHILD_CU(cu->cuMemFree_v2(r));
    CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));
    // Both retains are owed, the first from before the reset.
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 1);
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 0);
    CHILD_EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(0),
                    CUDA_ERROR_INVALID_CONTEXT);
    return 0;
}

TEST(CudaPrimary, ResetFreesEverythingTheContextMade) {
    expect_child_passes("reset_frees_everything");
}

// numba's teardown: reset, then release; and the same with two users, one
// of which resets while the other still holds its retain.
UMF_TEST_CHILD(reset_then_release) {
    PRIMARY_CHILD_SETUP();
    CUcontext ctx = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(pc.reset(0));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    CHILD_EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(0),
                    CUDA_ERROR_INVALID_CONTEXT);

    CUcontext a = nullptr, b = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&a, 0));
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&b, 0));
    CHILD_CU(pc.reset(0));
    CHILD_CU(pc.reset(0)); // an inactive context: nothing to do
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    CHILD_EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(0),
                    CUDA_ERROR_INVALID_CONTEXT);
    // Never retained at all.
    CHILD_CU(pc.reset(0));
    unsigned flags;
    int active;
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 0);
    return 0;
}

TEST(CudaPrimary, ReleasesOwedAfterAResetSucceed) {
    expect_child_passes("reset_then_release");
}

// A reset in one thread reaches every thread that has the context current
// (the emulated driver's answer; a real one's is not documented).
UMF_TEST_CHILD(reset_other_thread) {
    PRIMARY_CHILD_SETUP();
    CHILD_ASSERT(cu->emulated());
    CUcontext ctx = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    std::promise<void> allocated, reset_done;
    CUresult before = CUDA_ERROR_UNKNOWN, after = CUDA_ERROR_UNKNOWN;
    std::thread t([&] {
        CUdeviceptr p = 0;
        before = cu->cuCtxSetCurrent(ctx);
        if (before == CUDA_SUCCESS) {
            before = cu->cuMemAlloc_v2(&p, 64);
        }
        allocated.set_value();
        reset_done.get_future().wait();
        CUdeviceptr q = 0;
        after = cu->cuMemAlloc_v2(&q, 64);
    });
    allocated.get_future().wait();
    CHILD_CU(pc.reset(0));
    reset_done.set_value();
    t.join();
    CHILD_EXPECT_EQ(before, CUDA_SUCCESS);
    CHILD_EXPECT_EQ(after, CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CHILD_EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                    0);
    CHILD_EXPECT_EQ(cu->cuCtxSetCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

TEST(CudaPrimary, ResetReachesEveryThread) {
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    ASSERT_NE(cu, nullptr) << why;
    if (!cu->emulated()) {
        GTEST_SKIP() << "what other threads see after a reset is the "
                        "emulated driver's answer alone";
    }
    expect_child_passes("reset_other_thread");
}

// ---------------------------------------------------------------------------
// Flags

UMF_TEST_CHILD(flags) {
    PRIMARY_CHILD_SETUP();
    unsigned flags;
    int active;
    // Set before the first retain, as LLVM's offload runtime does.
    CHILD_CU(pc.set_flags(0, CU_CTX_SCHED_BLOCKING_SYNC));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_BLOCKING_SYNC);
    CHILD_EXPECT_EQ(active, 0);
    CUcontext ctx = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    unsigned ctx_flags = 0;
    CHILD_CU(pc.ctx_get_flags(&ctx_flags));
    CHILD_EXPECT_EQ(ctx_flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_BLOCKING_SYNC);
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 1);

    // The _v2 call changes an active context's flags too.
    CHILD_CU(pc.set_flags(0, CU_CTX_SCHED_SPIN));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_SPIN);
    if (cu->emulated()) {
        CHILD_CU(pc.ctx_get_flags(&ctx_flags));
        CHILD_EXPECT_EQ(ctx_flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_SPIN);
    }

    // Flags outside CU_CTX_FLAGS_MASK, two scheduling modes, no device.
    CHILD_EXPECT_EQ(pc.set_flags(0, CU_CTX_FLAGS_MASK + 1),
                    CUDA_ERROR_INVALID_VALUE);
    CHILD_EXPECT_EQ(pc.set_flags(0, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD),
                    CUDA_ERROR_INVALID_VALUE);
    int count = 0;
    CHILD_CU(cu->cuDeviceGetCount(&count));
    CHILD_EXPECT_EQ(pc.set_flags(count, 0), CUDA_ERROR_INVALID_DEVICE);
    CHILD_EXPECT_EQ(pc.set_flags(-1, 0), CUDA_ERROR_INVALID_DEVICE);
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    // A refused call changes nothing.
    CHILD_EXPECT_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_SPIN);

    // The flags outlive the last release.
    CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 0);
    CHILD_EXPECT_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_SPIN);
    CHILD_CU(pc.set_flags(0, 0));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_AUTO);

    // The state query's own checks.
    CHILD_EXPECT_EQ(cu->cuDevicePrimaryCtxGetState(0, nullptr, &active),
                    CUDA_ERROR_INVALID_VALUE);
    CHILD_EXPECT_EQ(cu->cuDevicePrimaryCtxGetState(0, &flags, nullptr),
                    CUDA_ERROR_INVALID_VALUE);
    CHILD_EXPECT_EQ(cu->cuDevicePrimaryCtxGetState(count, &flags, &active),
                    CUDA_ERROR_INVALID_DEVICE);
    CHILD_EXPECT_EQ(pc.reset(count), CUDA_ERROR_INVALID_DEVICE);
    return 0;
}

TEST(CudaPrimary, FlagsBeforeAndWhileActive) {
    expect_child_passes("flags");
}

// The emulated driver's model beyond cuda.h: flags survive a reset, and
// CUDA 7's cuDevicePrimaryCtxSetFlags refuses an active context as drivers
// before CUDA 11 did (what current drivers do with that old name is not
// documented).
UMF_TEST_CHILD(flags_emulated) {
    PRIMARY_CHILD_SETUP();
    CHILD_ASSERT(cu->emulated());
    auto set_flags_v1 = reinterpret_cast<set_flags_fn>(
        cuda_test_driver_symbol("cuDevicePrimaryCtxSetFlags"));
    auto reset_v1 = reinterpret_cast<primary_fn>(
        cuda_test_driver_symbol("cuDevicePrimaryCtxReset"));
    auto release_v1 = reinterpret_cast<primary_fn>(
        cuda_test_driver_symbol("cuDevicePrimaryCtxRelease"));
    CHILD_ASSERT(set_flags_v1 != nullptr && reset_v1 != nullptr &&
                 release_v1 != nullptr);
    unsigned flags;
    int active;
    CHILD_CU(set_flags_v1(0, CU_CTX_SCHED_YIELD));
    CUcontext ctx = nullptr;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_EXPECT_EQ(set_flags_v1(0, CU_CTX_SCHED_SPIN),
                    CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE);
    CHILD_CU(reset_v1(0));
    CHILD_ASSERT(state_of(cu, &flags, &active) == 0);
    CHILD_EXPECT_EQ(active, 0);
    CHILD_EXPECT_EQ(flags, CU_CTX_SCHED_YIELD);
    CHILD_CU(set_flags_v1(0, CU_CTX_SCHED_SPIN)); // inactive now
    CHILD_CU(release_v1(0));
    CHILD_EXPECT_EQ(release_v1(0), CUDA_ERROR_INVALID_CONTEXT);
    CHILD_EXPECT_EQ(cu->umfCudaMockGetCallCount("cuDevicePrimaryCtxSetFlags"),
                    3);
    CHILD_EXPECT_EQ(cu->umfCudaMockGetCallCount("cuDevicePrimaryCtxReset"), 1);
    return 0;
}

TEST(CudaPrimary, EmulatedFlagsModel) {
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    ASSERT_NE(cu, nullptr) << why;
    if (!cu->emulated()) {
        GTEST_SKIP() << "CUDA 7's variants and flags across a reset are the "
                        "emulated driver's model alone";
    }
    expect_child_passes("flags_emulated");
}

} // namespace
