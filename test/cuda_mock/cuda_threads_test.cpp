// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// 8 threads using the driver at once: each with its own current context
// (created or primary), allocating, filling, copying, querying interior
// pointers, exporting IPC handles and freeing, also memory that another
// thread allocated; contexts created and destroyed while others allocate;
// primary contexts retained and released from every thread; two threads
// racing to free one allocation. The checks are on results and data; the
// ThreadSanitizer build checks the rest.

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

const int kThreads = 8;

#ifdef UMF_GPU_SANITIZED
const int kIterations = 600;
#else
const int kIterations = 2000;
#endif

// Each thread leaves some allocations here for the next one to free.
struct handover_t {
    std::mutex lock;
    std::vector<CUdeviceptr> items;
};

// One thread's work; returns the number of failed checks.
int worker(const cuda_test_driver_t *cu, int id, CUcontext ctx,
           std::vector<handover_t> &boxes) {
    int failures = 0;
    if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
        return 1;
    }
    std::vector<unsigned char> in(70000), out(70000);
    for (int i = 0; i < kIterations; i++) {
        size_t size = i % 3 == 0 ? 64 : i % 3 == 1 ? 4096 : 70000;
        CUdeviceptr p = 0;
        if (cu->cuMemAlloc_v2(&p, size) != CUDA_SUCCESS || p % 256 != 0) {
            failures++;
            continue;
        }
        std::memset(in.data(), (id * 31 + i) & 0xff, size);
        bool ok = cu->cuMemcpyHtoD_v2(p, in.data(), size) == CUDA_SUCCESS &&
                  cu->cuMemcpyDtoH_v2(out.data(), p, size) == CUDA_SUCCESS &&
                  std::memcmp(in.data(), out.data(), size) == 0;
        CUdeviceptr base = 0;
        CUcontext owner = nullptr;
        ok = ok &&
             cu->cuPointerGetAttribute(&base,
                                       CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                       p + size - 1) == CUDA_SUCCESS &&
             base == p &&
             cu->cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                                       p + size / 2) == CUDA_SUCCESS &&
             owner == ctx;
        if (i % 8 == 0) {
            CUipcMemHandle h;
            ok = ok && cu->cuIpcGetMemHandle(&h, p + size / 2) == CUDA_SUCCESS;
        }
        if (i % 50 == 0) {
            // A context of its own for a moment, while the others work.
            CUcontext tmp = nullptr;
            CUdeviceptr q = 0;
            ok = ok && cu->cuCtxCreate_v2(&tmp, 0, 0) == CUDA_SUCCESS &&
                 cu->cuMemAlloc_v2(&q, 4096) == CUDA_SUCCESS &&
                 cu->cuCtxDestroy_v2(tmp) == CUDA_SUCCESS;
            CUcontext cur = nullptr;
            ok = ok && cu->cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == ctx;
        }
        if (!ok) {
            failures++;
        }
        if (i % 2 == 0) {
            handover_t &next = boxes[(id + 1) % kThreads];
            std::lock_guard<std::mutex> g(next.lock);
            next.items.push_back(p);
        } else if (cu->cuMemFree_v2(p) != CUDA_SUCCESS) {
            failures++;
        }
        std::vector<CUdeviceptr> mine;
        {
            std::lock_guard<std::mutex> g(boxes[id].lock);
            mine.swap(boxes[id].items);
        }
        for (CUdeviceptr q : mine) {
            failures += cu->cuMemFree_v2(q) != CUDA_SUCCESS;
        }
    }
    failures += cu->cuCtxSetCurrent(nullptr) != CUDA_SUCCESS;
    return failures;
}

TEST_F(CudaTest, EightThreadsAllocateCopyExportAndFree) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    // Half the threads on a primary context, half on one created for them.
    std::vector<CUcontext> ctxs(kThreads);
    for (int id = 0; id < kThreads; id++) {
        CUdevice dev = id % count;
        if (id % 2 == 0) {
            CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&ctxs[id], dev));
        } else {
            CU_ASSERT_OK(cu->cuCtxCreate_v2(&ctxs[id], 0, dev));
            CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(nullptr));
        }
    }
    std::vector<handover_t> boxes(kThreads);
    std::vector<int> failures(kThreads, 0);
    std::vector<std::thread> threads;
    for (int id = 0; id < kThreads; id++) {
        threads.emplace_back(
            [&, id] { failures[id] = worker(cu, id, ctxs[id], boxes); });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    for (int id = 0; id < kThreads; id++) {
        EXPECT_EQ(failures[id], 0) << "thread " << id;
    }
    // Left over: what was handed to a thread after it finished.
    for (handover_t &b : boxes) {
        for (CUdeviceptr q : b.items) {
            CU_EXPECT_OK(cu->cuMemFree_v2(q));
        }
    }
    for (int id = 0; id < kThreads; id++) {
        if (id % 2 == 0) {
            CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(id % count));
        } else {
            CU_EXPECT_OK(cu->cuCtxDestroy_v2(ctxs[id]));
        }
    }
    if (cu->emulated()) {
        EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                  0);
    }
}

TEST_F(CudaTest, PrimaryContextRetainedAndReleasedFromEightThreads) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    CUdevice dev = count - 1;
    CUcontext held = nullptr;
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&held, dev));
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int id = 0; id < kThreads; id++) {
        threads.emplace_back([&] {
            for (int i = 0; i < kIterations / 4; i++) {
                CUcontext c = nullptr;
                if (cu->cuDevicePrimaryCtxRetain(&c, dev) != CUDA_SUCCESS ||
                    c != held ||
                    cu->cuDevicePrimaryCtxRelease_v2(dev) != CUDA_SUCCESS) {
                    failures++;
                }
            }
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    EXPECT_EQ(failures.load(), 0);
    unsigned flags;
    int active = 0;
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxGetState(dev, &flags, &active));
    EXPECT_EQ(active, 1) << "the reference held here";
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(dev));
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxGetState(dev, &flags, &active));
    EXPECT_EQ(active, 0);
}

TEST_F(CudaTest, TwoThreadsFreeingOneAllocationSucceedOnce) {
    CUcontext ctx = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&ctx, 0, 0));
    const int rounds = kIterations / 10;
    for (int round = 0; round < rounds; round++) {
        CUdeviceptr p = 0;
        CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
        std::atomic<int> ready{0};
        CUresult r[2];
        auto racer = [&](int k) {
            ready++;
            while (ready.load() < 2) {
            }
            r[k] = cu->cuMemFree_v2(p);
        };
        std::thread a(racer, 0), b(racer, 1);
        a.join();
        b.join();
        EXPECT_EQ((r[0] == CUDA_SUCCESS) + (r[1] == CUDA_SUCCESS), 1)
            << round << ": " << cuda_test_result(r[0]) << ", "
            << cuda_test_result(r[1]);
        EXPECT_TRUE(r[0] == CUDA_ERROR_INVALID_VALUE ||
                    r[1] == CUDA_ERROR_INVALID_VALUE);
    }
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(ctx));
}

} // namespace
