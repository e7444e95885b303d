// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Eight threads on one CUDA provider, each with another context current
// (its own, the provider's, or none): allocations of mixed sizes and
// alignments, split pieces, copies, IPC opens in the producer itself and of
// a producer process's allocations (the same few handles from every thread,
// so that cache hits, misses and closes race), properties, stats, and
// native errors that stay in their thread. Meant to be clean under
// ThreadSanitizer as well.

#include <unistd.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "gpu_test_cuda.h"
#include "test_child.h"

namespace {

constexpr size_t KiB = 1024;
constexpr int kThreads = 8;
constexpr int kRemote = 4; // allocations the producer process shares
constexpr size_t kRemoteSize = 16 * KiB;

struct IpcBuf {
    alignas(8) unsigned char bytes[256];
};

using CudaThreads = CudaProviderTest;

// Shares kRemote allocations (allocation i holds pattern seed 100 + i) until
// the parent closes the socket.
UMF_TEST_CHILD(cuda_threads_producer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CUcontext ctx = nullptr;
    if (cu == nullptr ||
        cu->cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS) {
        return 1;
    }
    umf_cuda_memory_provider_params_handle_t p = nullptr;
    umf_memory_provider_handle_t h = nullptr;
    if (umfCUDAMemoryProviderParamsCreate(&p) != UMF_RESULT_SUCCESS ||
        umfCUDAMemoryProviderParamsSetContext(p, ctx) != UMF_RESULT_SUCCESS ||
        umfCUDAMemoryProviderParamsSetDevice(p, 0) != UMF_RESULT_SUCCESS ||
        umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &h) !=
            UMF_RESULT_SUCCESS) {
        return 2;
    }
    umfCUDAMemoryProviderParamsDestroy(p);
    void *ptrs[kRemote] = {};
    IpcBuf data[kRemote];
    for (int i = 0; i < kRemote; i++) {
        if (umfMemoryProviderAlloc(h, kRemoteSize, 0, &ptrs[i]) !=
                UMF_RESULT_SUCCESS ||
            !cuda_fill(ctx, ptrs[i], kRemoteSize, unsigned(100 + i)) ||
            umfMemoryProviderGetIPCHandle(h, ptrs[i], kRemoteSize, &data[i]) !=
                UMF_RESULT_SUCCESS) {
            return 3;
        }
    }
    if (umf_test_send(sock, data, sizeof(data)) != 0) {
        return 4;
    }
    char c;
    (void)umf_test_recv(sock, &c, 1); // until the parent closes
    for (int i = 0; i < kRemote; i++) {
        umfMemoryProviderPutIPCHandle(h, &data[i]);
        umfMemoryProviderFree(h, ptrs[i], kRemoteSize);
    }
    umfMemoryProviderDestroy(h);
    cu->cuDevicePrimaryCtxRelease_v2(0);
    return 0;
}

// One thread's work; failures are counted in *errors (gtest assertions are
// thread-safe, but a count keeps the output short).
void worker(int id, umf_memory_provider_handle_t h, CUcontext provider_ctx,
            const IpcBuf *remote, int iterations, std::atomic<int> *errors) {
    const cuda_test_driver_t *cu = cuda_env();
    CUcontext own = nullptr;
    if (id % 3 == 0) {
        own = cuda_create_context(0);
        cuda_set_current(own);
    } else if (id % 3 == 1) {
        cuda_set_current(provider_ctx);
    }
    CUcontext caller = cuda_current();
    std::mt19937 rng{static_cast<unsigned>(id)};
    const size_t alignments[] = {0, 64, 256, 4096, 64 * KiB};
    auto fail = [&](const char *what) {
        ADD_FAILURE() << "thread " << id << ": " << what;
        (*errors)++;
    };
    for (int it = 0; it < iterations && errors->load() < 10; it++) {
        size_t size = 64 + rng() % (32 * KiB);
        size_t alignment = alignments[rng() % 5];
        char *ptr = nullptr;
        if (umfMemoryProviderAlloc(h, size, alignment,
                                   reinterpret_cast<void **>(&ptr)) !=
            UMF_RESULT_SUCCESS) {
            fail("alloc");
            continue;
        }
        if (alignment && reinterpret_cast<uintptr_t>(ptr) % alignment) {
            fail("alignment");
        }
        unsigned seed = unsigned(id * 100000 + it);
        if (!cuda_fill(provider_ctx, ptr, 64, seed) ||
            !cuda_check(provider_ctx, ptr, 64, seed)) {
            fail("copy");
        }
        umf_gpu_allocation_properties_t props;
        if (umfGpuMemoryProviderGetAllocationProperties(
                h, ptr + size - 1, &props) != UMF_RESULT_SUCCESS ||
            props.base != ptr || props.size < size) {
            fail("properties");
        }
        // The producer itself opens its own memory.
        IpcBuf data;
        void *opened = nullptr;
        if (umfMemoryProviderGetIPCHandle(h, ptr, size, &data) !=
                UMF_RESULT_SUCCESS ||
            umfMemoryProviderOpenIPCHandle(h, &data, &opened) !=
                UMF_RESULT_SUCCESS ||
            opened != ptr ||
            umfMemoryProviderCloseIPCHandle(h, opened, size) !=
                UMF_RESULT_SUCCESS ||
            umfMemoryProviderPutIPCHandle(h, &data) != UMF_RESULT_SUCCESS) {
            fail("local IPC");
        }
        // Another process's memory, shared with every thread.
        int r = int(rng() % kRemote);
        void *mapped = nullptr;
        if (umfMemoryProviderOpenIPCHandle(h, const_cast<IpcBuf *>(&remote[r]),
                                           &mapped) != UMF_RESULT_SUCCESS ||
            !cuda_check(provider_ctx, mapped, 64, unsigned(100 + r)) ||
            umfMemoryProviderCloseIPCHandle(h, mapped, kRemoteSize) !=
                UMF_RESULT_SUCCESS) {
            fail("remote IPC");
        }
        if (size >= 2 * KiB && it % 2 == 0) {
            size_t first = size / 2;
            if (umfMemoryProviderAllocationSplit(h, ptr, size, first) !=
                    UMF_RESULT_SUCCESS ||
                umfMemoryProviderFree(h, ptr + first, size - first) !=
                    UMF_RESULT_SUCCESS ||
                umfMemoryProviderFree(h, ptr, first) != UMF_RESULT_SUCCESS) {
                fail("split and free");
            }
        } else if (umfMemoryProviderFree(h, ptr, size) != UMF_RESULT_SUCCESS) {
            fail("free");
        }
        if (it % 50 == 0) {
            // A failure of this thread, seen by this thread alone.
            // (A driver query of host memory: the provider refuses to free
            // it without asking the driver.)
            void *none = nullptr;
            int local = 0;
            size_t page = 0;
            umf_result_t res =
                id % 2 ? umfMemoryProviderAlloc(h, size_t(1) << 40, 0, &none)
                       : umfMemoryProviderGetMinPageSize(h, &local, &page);
            int32_t want =
                id % 2 ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
            if (res == UMF_RESULT_SUCCESS ||
                cuda_last_native_error(h).code != want) {
                fail("native error");
            }
            umf_gpu_provider_stats_t st;
            if (umfGpuMemoryProviderGetStats(h, &st) != UMF_RESULT_SUCCESS) {
                fail("stats");
            }
        }
        if (cuda_current() != caller) {
            fail("context not restored");
        }
    }
    if (own != nullptr) {
        cuda_set_current(nullptr);
        cuda_destroy_context(own);
    } else if (caller != nullptr) {
        cuda_set_current(nullptr);
    }
    (void)cu;
}

TEST_F(CudaThreads, EightThreadsMixingEverything) {
    CudaProvider h;
    umf_test_child_t producer;
    ASSERT_EQ(umf_test_child_start(&producer, "cuda_threads_producer", nullptr),
              0);
    IpcBuf remote[kRemote];
    ASSERT_EQ(umf_test_recv(producer.sock, remote, sizeof(remote)), 0);

#ifdef UMF_GPU_SANITIZED
    const int iterations = 100;
#else
    const int iterations = 400;
#endif
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++) {
        threads.emplace_back(worker, i, h.get(), cuda_primary_context(), remote,
                             iterations, &errors);
    }
    for (std::thread &t : threads) {
        t.join();
    }
    EXPECT_EQ(errors.load(), 0);

    umf_gpu_provider_stats_t st;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.allocated_bytes, 0u);
    EXPECT_GE(st.free_count, st.alloc_count);
    EXPECT_EQ(st.alloc_count, uint64_t(kThreads * iterations));
    EXPECT_EQ(st.ipc_handles_exported, 0u);
    EXPECT_EQ(st.ipc_handles_open, 0u);
    EXPECT_EQ(st.ipc_cache_hits + st.ipc_cache_misses,
              uint64_t(2 * kThreads * iterations));

    close(producer.sock);
    producer.sock = -1;
    EXPECT_EQ(umf_test_child_wait(&producer), 0);
}

} // namespace
