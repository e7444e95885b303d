// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC of the CUDA provider between real processes (fork + exec of this
// binary, test_child.h): data written by one side and read and changed by
// the other through driver copies, cached re-opens, interior and
// over-aligned pointers, opens in the producer itself, a producer that
// frees before the consumer closes or is killed, malformed data, and fd
// and mapping counts back at their baseline after 1000 cycles.
//
// Registered twice: with the emulated driver's default re-open behaviour
// (a second cuIpcOpenMemHandle in one context shares the mapping) and with
// UMF_GPU_MOCK_CUDA_IPC_REOPEN=already_mapped (it fails, as in drivers
// before CUDA 11), which the provider's cache must hide.

#include <signal.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_cuda.h"
#include "test_child.h"

extern "C" {
#include "ipc_data.h"
}

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

using CudaIpc = CudaProviderTest;

// What travels with the IPC data: which bytes to expect, and what to do.
struct Message {
    uint64_t size;  // bytes to check from the opened pointer
    uint32_t seed;  // the pattern written there
    uint32_t reply; // the seed the consumer writes back (0: none)
    umf_ipc_data_t data;
};

// A child's driver, primary context and provider.
struct ChildSide {
    const cuda_test_driver_t *cu = nullptr;
    CUcontext ctx = nullptr;
    umf_memory_provider_handle_t h = nullptr;

    bool init(int argc, char **argv) {
        cu = cuda_test_child_setup(argc, argv, true);
        if (cu == nullptr ||
            cu->cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS) {
            return false;
        }
        h = make_provider(ctx);
        return h != nullptr;
    }

    umf_memory_provider_handle_t make_provider(CUcontext c) {
        umf_cuda_memory_provider_params_handle_t p = nullptr;
        umf_memory_provider_handle_t out = nullptr;
        if (umfCUDAMemoryProviderParamsCreate(&p) != UMF_RESULT_SUCCESS) {
            return nullptr;
        }
        if (umfCUDAMemoryProviderParamsSetContext(p, c) != UMF_RESULT_SUCCESS ||
            umfCUDAMemoryProviderParamsSetDevice(p, 0) != UMF_RESULT_SUCCESS ||
            umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &out) !=
                UMF_RESULT_SUCCESS) {
            out = nullptr;
        }
        umfCUDAMemoryProviderParamsDestroy(p);
        return out;
    }

    ~ChildSide() {
        umfMemoryProviderDestroy(h);
        if (ctx != nullptr) {
            cu->cuDevicePrimaryCtxRelease_v2(0);
        }
    }
};

// Consumer: for each message, open, check the pattern, write `reply` (if
// not 0), open again (the same pointer, from the cache), close both, and
// answer with one byte: 0 ok, 1 failed. Ends when the parent closes.
UMF_TEST_CHILD(cuda_consumer) {
    ChildSide side;
    CHILD_ASSERT(side.init(argc, argv));
    Message m;
    while (umf_test_recv(sock, &m, sizeof(m)) == 0) {
        void *p1 = nullptr, *p2 = nullptr;
        CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(side.h, &m.data, &p1) ==
                     UMF_RESULT_SUCCESS);
        CHILD_ASSERT(cuda_check(side.ctx, p1, m.size, m.seed));
        if (m.reply != 0) {
            CHILD_ASSERT(cuda_fill(side.ctx, p1, m.size, m.reply));
        }
        CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(side.h, &m.data, &p2) ==
                     UMF_RESULT_SUCCESS);
        CHILD_ASSERT(p1 == p2);
        CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(side.h, p2, m.size) ==
                     UMF_RESULT_SUCCESS);
        CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(side.h, p1, m.size) ==
                     UMF_RESULT_SUCCESS);
        CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(side.h, p1, m.size) ==
                     UMF_RESULT_ERROR_INVALID_ARGUMENT);
        umf_gpu_provider_stats_t st;
        CHILD_ASSERT(umfGpuMemoryProviderGetStats(side.h, &st) ==
                     UMF_RESULT_SUCCESS);
        CHILD_ASSERT(st.ipc_handles_open == 0);
        CHILD_ASSERT(st.ipc_cache_hits == st.ipc_cache_misses);
        char ok = 0;
        CHILD_ASSERT(umf_test_send(sock, &ok, 1) == 0);
    }
    return 0;
}

// The parent's provider, on the primary context.
class Producer {
  public:
    Producer() : h_(cfg()) {}
    umf_memory_provider_handle_t h() const {
        return h_;
    }

    Message message(void *ptr, size_t size, unsigned seed, unsigned reply) {
        Message m = {};
        m.size = size;
        m.seed = seed;
        m.reply = reply;
        size_t hsize = 0;
        EXPECT_EQ(umfMemoryProviderGetIPCHandleSize(h_, &hsize),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(hsize, sizeof(m.data));
        EXPECT_EQ(umfMemoryProviderGetIPCHandle(h_, ptr, size, &m.data),
                  UMF_RESULT_SUCCESS);
        return m;
    }

  private:
    static cuda_provider_config cfg() {
        return {};
    }
    CudaProvider h_;
};

bool exchange(int sock, const Message &m) {
    char ok = 1;
    return umf_test_send(sock, &m, sizeof(m)) == 0 &&
           umf_test_recv(sock, &ok, 1) == 0 && ok == 0;
}

TEST_F(CudaIpc, ConsumerReadsAndWritesTheProducersMemory) {
    Producer prod;
    CUcontext ctx = cuda_primary_context();
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(prod.h(), MiB, 0, &ptr),
              UMF_RESULT_SUCCESS);
    ASSERT_TRUE(cuda_fill(ctx, ptr, MiB, 1));
    Message m = prod.message(ptr, MiB, 1, 2);
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "cuda_consumer", nullptr), 0);
    EXPECT_TRUE(exchange(c.sock, m));
    EXPECT_EQ(umf_test_child_wait(&c), 0);
    EXPECT_TRUE(cuda_check(ctx, ptr, MiB, 2)); // what the consumer wrote
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &m.data),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(prod.h(), ptr, MiB), UMF_RESULT_SUCCESS);
}

TEST_F(CudaIpc, InteriorAndOverAlignedPointersOpenToTheirAddress) {
    Producer prod;
    CUcontext ctx = cuda_primary_context();
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "cuda_consumer", nullptr), 0);
    unsigned seed = 10;
    for (size_t alignment : {size_t(0), size_t(512), 64 * KiB, 2 * MiB}) {
        for (size_t offset : {size_t(0), size_t(13), 4 * KiB + 1}) {
            const size_t size = 16 * KiB;
            char *ptr = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(prod.h(), size, alignment,
                                             reinterpret_cast<void **>(&ptr)),
                      UMF_RESULT_SUCCESS);
            // Distinct bytes before the shared range, so a wrong offset
            // shows.
            ASSERT_TRUE(cuda_fill(ctx, ptr, size, seed + 1000));
            ASSERT_TRUE(cuda_fill(ctx, ptr + offset, size - offset, seed));
            Message m =
                prod.message(ptr + offset, size - offset, seed, seed + 1);
            EXPECT_EQ(m.data.offset, size_t(ptr + offset) - m.data.base);
            EXPECT_TRUE(exchange(c.sock, m)) << alignment << " " << offset;
            EXPECT_TRUE(cuda_check(ctx, ptr + offset, size - offset, seed + 1));
            EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &m.data),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfMemoryProviderFree(prod.h(), ptr, size),
                      UMF_RESULT_SUCCESS);
            seed += 2;
        }
    }
    close(c.sock);
    c.sock = -1;
    EXPECT_EQ(umf_test_child_wait(&c), 0);
}

TEST_F(CudaIpc, OpenInTheProducerReturnsTheOriginalPointer) {
    Producer prod;
    char *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(prod.h(), 64 * KiB, 0,
                                     reinterpret_cast<void **>(&ptr)),
              UMF_RESULT_SUCCESS);
    Message m = prod.message(ptr + 100, 1000, 0, 0);
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(prod.h(), &m.data, &a),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(prod.h(), &m.data, &b),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(a, ptr + 100);
    EXPECT_EQ(b, ptr + 100);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(prod.h(), a, 1000),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(prod.h(), b, 1000),
              UMF_RESULT_SUCCESS);
    // The memory is the producer's: closing left it alone.
    EXPECT_TRUE(cuda_fill(cuda_primary_context(), ptr, 64 * KiB, 3));
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &m.data),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(prod.h(), ptr, 64 * KiB),
              UMF_RESULT_SUCCESS);
    // Once freed, the data names nothing, even if a new allocation takes
    // the same address.
    void *again = nullptr;
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(prod.h(), &m.data, &again),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    void *reuse = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(prod.h(), 64 * KiB, 0, &reuse),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(prod.h(), &m.data, &again),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(prod.h(), reuse, 64 * KiB),
              UMF_RESULT_SUCCESS);
}

// Producer: allocates, writes seed 7, sends the data; when told (one byte),
// puts the handle, frees, and answers; then exits. With argv "wait", it
// waits for the parent to end it instead.
UMF_TEST_CHILD(cuda_producer) {
    bool wait_forever = argc > 0 && std::strcmp(argv[argc - 1], "wait") == 0;
    ChildSide side;
    CHILD_ASSERT(side.init(wait_forever ? argc - 1 : argc, argv));
    void *ptr = nullptr;
    CHILD_ASSERT(umfMemoryProviderAlloc(side.h, 256 * KiB, 0, &ptr) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(cuda_fill(side.ctx, ptr, 256 * KiB, 7));
    Message m = {};
    m.size = 256 * KiB;
    m.seed = 7;
    CHILD_ASSERT(umfMemoryProviderGetIPCHandle(side.h, ptr, m.size, &m.data) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umf_test_send(sock, &m, sizeof(m)) == 0);
    char go;
    if (umf_test_recv(sock, &go, 1) != 0 || wait_forever) {
        for (;;) {
            pause(); // the parent kills us
        }
    }
    CHILD_ASSERT(umfMemoryProviderPutIPCHandle(side.h, &m.data) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umfMemoryProviderFree(side.h, ptr, m.size) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umf_test_send(sock, &go, 1) == 0);
    return 0;
}

TEST_F(CudaIpc, ProducerFreesBeforeTheConsumerCloses) {
    CudaProvider h;
    CUcontext ctx = cuda_primary_context();
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "cuda_producer", nullptr), 0);
    Message m;
    ASSERT_EQ(umf_test_recv(c.sock, &m, sizeof(m)), 0);
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h, &m.data, &ptr),
              UMF_RESULT_SUCCESS);
    char go = 0;
    ASSERT_EQ(umf_test_send(c.sock, &go, 1), 0);
    ASSERT_EQ(umf_test_recv(c.sock, &go, 1), 0); // freed
    EXPECT_EQ(umf_test_child_wait(&c), 0);       // and gone
    // The mapping keeps the memory and its contents until it is closed.
    EXPECT_TRUE(cuda_check(ctx, ptr, m.size, m.seed));
    EXPECT_TRUE(cuda_fill(ctx, ptr, m.size, 8));
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, ptr, m.size),
              UMF_RESULT_SUCCESS);
}

TEST_F(CudaIpc, ProducerKilledWhileTheConsumerHasItOpen) {
    CudaProvider h;
    CUcontext ctx = cuda_primary_context();
    umf_test_child_t c;
    const char *args[] = {"wait", nullptr};
    ASSERT_EQ(umf_test_child_start(&c, "cuda_producer", args), 0);
    Message m;
    ASSERT_EQ(umf_test_recv(c.sock, &m, sizeof(m)), 0);
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h, &m.data, &ptr),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_test_child_kill(&c, SIGKILL), 128 + SIGKILL);
    EXPECT_TRUE(cuda_check(ctx, ptr, m.size, m.seed));
    // Still open: a second open is served by the cache, no driver involved.
    void *again = nullptr;
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, &m.data, &again),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(again, ptr);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, again, m.size),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, ptr, m.size),
              UMF_RESULT_SUCCESS);
    if (cu->emulated()) {
        // Closed, it cannot be opened again: its producer is gone.
        EXPECT_NE(umfMemoryProviderOpenIPCHandle(h, &m.data, &again),
                  UMF_RESULT_SUCCESS);
    }
}

// Opens through two providers on one context and one on another context.
UMF_TEST_CHILD(cuda_consumer_contexts) {
    ChildSide side;
    CHILD_ASSERT(side.init(argc, argv));
    umf_memory_provider_handle_t same = side.make_provider(side.ctx);
    CUcontext other_ctx = nullptr;
    CUdevice dev = 0;
    CHILD_ASSERT(side.cu->cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
    CHILD_ASSERT(side.cu->cuCtxCreate_v2(&other_ctx, 0, dev) == CUDA_SUCCESS);
    CUcontext popped = nullptr;
    CHILD_ASSERT(side.cu->cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS);
    umf_memory_provider_handle_t other = side.make_provider(other_ctx);
    CHILD_ASSERT(same != nullptr && other != nullptr);
    Message m;
    CHILD_ASSERT(umf_test_recv(sock, &m, sizeof(m)) == 0);
    void *a = nullptr, *b = nullptr, *o = nullptr;
    CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(side.h, &m.data, &a) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(same, &m.data, &b) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(a == b); // one mapping per context, shared by providers
    umf_gpu_provider_stats_t st;
    CHILD_ASSERT(umfGpuMemoryProviderGetStats(same, &st) == UMF_RESULT_SUCCESS);
    CHILD_ASSERT(st.ipc_cache_hits == 1 && st.ipc_cache_misses == 0);
    CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(other, &m.data, &o) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(o != a); // another context maps it again
    CHILD_ASSERT(cuda_check(other_ctx, o, m.size, m.seed));
    CHILD_ASSERT(cuda_check(side.ctx, a, m.size, m.seed));
    // A close names the context's mapping: not the other context's.
    CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(other, a, m.size) ==
                 UMF_RESULT_ERROR_INVALID_ARGUMENT);
    CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(other, o, m.size) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(same, b, m.size) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(cuda_check(side.ctx, a, m.size, m.seed)); // still mapped
    CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(side.h, a, m.size) ==
                 UMF_RESULT_SUCCESS);
    // Opened again after the last close: mapped anew.
    CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(side.h, &m.data, &a) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(side.h, a, m.size) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(umfGpuMemoryProviderGetStats(side.h, &st) ==
                 UMF_RESULT_SUCCESS);
    CHILD_ASSERT(st.ipc_cache_misses == 2 && st.ipc_cache_hits == 0);
    umfMemoryProviderDestroy(same);
    umfMemoryProviderDestroy(other);
    CHILD_ASSERT(side.cu->cuCtxDestroy_v2(other_ctx) == CUDA_SUCCESS);
    char ok = 0;
    CHILD_ASSERT(umf_test_send(sock, &ok, 1) == 0);
    return 0;
}

TEST_F(CudaIpc, ProvidersOfOneContextShareAMapping) {
    Producer prod;
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(prod.h(), 32 * KiB, 0, &ptr),
              UMF_RESULT_SUCCESS);
    ASSERT_TRUE(cuda_fill(cuda_primary_context(), ptr, 32 * KiB, 5));
    Message m = prod.message(ptr, 32 * KiB, 5, 0);
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "cuda_consumer_contexts", nullptr), 0);
    char ok = 1;
    EXPECT_EQ(umf_test_send(c.sock, &m, sizeof(m)), 0);
    EXPECT_EQ(umf_test_recv(c.sock, &ok, 1), 0);
    EXPECT_EQ(ok, 0);
    EXPECT_EQ(umf_test_child_wait(&c), 0);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &m.data),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(prod.h(), ptr, 32 * KiB),
              UMF_RESULT_SUCCESS);
}

// --- Malformed data
// ---------------------------------------------------------------

TEST_F(CudaIpc, MalformedDataIsRejected) {
    Producer prod;
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(prod.h(), 4 * KiB, 0, &ptr),
              UMF_RESULT_SUCCESS);
    Message m = prod.message(ptr, 4 * KiB, 0, 0);
    const umf_ipc_data_t good = m.data;
    void *out = nullptr;
    auto open = [&](umf_ipc_data_t d) {
        return umfMemoryProviderOpenIPCHandle(prod.h(), &d, &out);
    };
    // Every single changed byte.
    for (size_t i = 0; i < sizeof(good); i++) {
        umf_ipc_data_t d = good;
        reinterpret_cast<unsigned char *>(&d)[i] ^= 0x5a;
        EXPECT_EQ(open(d), UMF_RESULT_ERROR_INVALID_ARGUMENT) << "byte " << i;
    }
    // Random bytes.
    std::mt19937_64 rng(42);
    for (int i = 0; i < 1000; i++) {
        umf_ipc_data_t d;
        for (size_t k = 0; k < sizeof(d); k++) {
            reinterpret_cast<unsigned char *>(&d)[k] =
                static_cast<unsigned char>(rng());
        }
        EXPECT_EQ(open(d), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    // Well-formed, but not CUDA's, not this version, or not device memory.
    auto resealed = [&](void (*change)(umf_ipc_data_t *)) {
        umf_ipc_data_t d = good;
        change(&d);
        d.checksum = umf_ipc_data_checksum(&d);
        return d;
    };
    EXPECT_EQ(open(resealed([](umf_ipc_data_t *d) {
                  d->kind = UMF_GPU_PROVIDER_KIND_LEVEL_ZERO;
              })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(open(resealed([](umf_ipc_data_t *d) { d->version++; })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(open(resealed([](umf_ipc_data_t *d) {
                  d->memory_type = UMF_MEMORY_TYPE_HOST;
              })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(open(resealed([](umf_ipc_data_t *d) { d->handle_size = 32; })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // From another process that does not exist, with a garbled handle: the
    // driver refuses it.
    EXPECT_NE(open(resealed([](umf_ipc_data_t *d) {
                  d->producer_pid = 0x7ffffff0;
                  d->instance_id ^= 1;
              })),
              UMF_RESULT_SUCCESS);
    EXPECT_NE(open(resealed([](umf_ipc_data_t *d) {
                  d->instance_id ^= 1;
                  d->producer_pid = 0x7ffffff0;
                  for (size_t k = 0; k < sizeof(d->handle); k++) {
                      d->handle[k] = static_cast<uint8_t>(k * 37);
                  }
              })),
              UMF_RESULT_SUCCESS);
    // Other bad input.
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(prod.h(), nullptr, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(prod.h(), &m.data, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(prod.h(), nullptr, 1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(prod.h(), ptr, 4 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // never opened
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_ipc_data_t corrupt = good;
    corrupt.checksum ^= 1;
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &corrupt),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_ipc_data_t foreign =
        resealed([](umf_ipc_data_t *d) { d->producer_pid = 0x7ffffff0; });
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &foreign),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // not made here
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(prod.h(), nullptr, 1, &m.data),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(prod.h(), ptr, 8 * KiB, &m.data),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // past the allocation
    int local = 0;
    EXPECT_NE(umfMemoryProviderGetIPCHandle(prod.h(), &local, 4, &m.data),
              UMF_RESULT_SUCCESS);
    umf_ipc_data_t copy = good;
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &copy),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(prod.h(), ptr, 4 * KiB),
              UMF_RESULT_SUCCESS);
}

// --- 1000 cycles
// ---------------------------------------------------------------

// What a process holds: fds, mappings of files (an IPC mapping is one of a
// memfd), and all mappings.
struct Holdings {
    int fds = -1, file_maps = -1, maps = -1;

    static Holdings now() {
        Holdings h;
        h.fds = umf_test_count_open_fds();
        h.maps = umf_test_count_mappings();
        h.file_maps = 0;
        FILE *f = std::fopen("/proc/self/maps", "r");
        char line[4096];
        unsigned long long inode = 0;
        while (f != nullptr && std::fgets(line, sizeof(line), f) != nullptr) {
            if (std::sscanf(line, "%*s %*s %*s %*s %llu", &inode) == 1 &&
                inode != 0) {
                h.file_maps++;
            }
        }
        if (f != nullptr) {
            std::fclose(f);
        }
        return h;
    }

    // Sanitizer runtimes map and split anonymous memory as they go, so
    // there only fds and file mappings must match.
    bool same_as(const Holdings &o) const {
        bool all_maps = true;
#ifndef UMF_GPU_SANITIZED
        all_maps = maps == o.maps;
#endif
        return fds == o.fds && file_maps == o.file_maps && all_maps;
    }

    std::string str() const {
        return "fds " + std::to_string(fds) + ", file mappings " +
               std::to_string(file_maps) + ", mappings " + std::to_string(maps);
    }
};

// Consumer of the cycles: measures what it holds when the parent says so
// (after the warm-up cycles) and at the end; exit status 2 if they differ.
UMF_TEST_CHILD(cuda_cycle_consumer) {
    ChildSide side;
    CHILD_ASSERT(side.init(argc, argv));
    Message m;
    Holdings before;
    while (umf_test_recv(sock, &m, sizeof(m)) == 0) {
        if (m.size == 0) { // the parent's "measure now"
            before = Holdings::now();
            continue;
        }
        void *p = nullptr;
        CHILD_ASSERT(umfMemoryProviderOpenIPCHandle(side.h, &m.data, &p) ==
                     UMF_RESULT_SUCCESS);
        CHILD_ASSERT(cuda_check(side.ctx, p, m.size, m.seed));
        CHILD_ASSERT(umfMemoryProviderCloseIPCHandle(side.h, p, m.size) ==
                     UMF_RESULT_SUCCESS);
        char ok = 0;
        CHILD_ASSERT(umf_test_send(sock, &ok, 1) == 0);
    }
    Holdings after = Holdings::now();
    if (!after.same_as(before)) {
        std::fprintf(stderr, "consumer: %s before, %s after\n",
                     before.str().c_str(), after.str().c_str());
        return 2;
    }
    return 0;
}

TEST_F(CudaIpc, FdsAndMappingsBackAtBaselineAfter1000Cycles) {
    Producer prod;
    CUcontext ctx = cuda_primary_context();
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "cuda_cycle_consumer", nullptr), 0);
    Holdings before;
    const int warmup = 20, cycles = 1000;
    for (int i = 0; i < warmup + cycles; i++) {
        if (i == warmup) {
            Message measure = {};
            ASSERT_EQ(umf_test_send(c.sock, &measure, sizeof(measure)), 0);
            before = Holdings::now();
        }
        const size_t size = (i % 3 + 1) * 4 * KiB;
        void *ptr = nullptr;
        ASSERT_EQ(
            umfMemoryProviderAlloc(prod.h(), size, i % 2 ? 4096 : 0, &ptr),
            UMF_RESULT_SUCCESS);
        ASSERT_TRUE(cuda_fill(ctx, ptr, 64, unsigned(i)));
        Message m = prod.message(ptr, 64, unsigned(i), 0);
        ASSERT_TRUE(exchange(c.sock, m)) << "cycle " << i;
        ASSERT_EQ(umfMemoryProviderPutIPCHandle(prod.h(), &m.data),
                  UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderFree(prod.h(), ptr, size),
                  UMF_RESULT_SUCCESS);
    }
    Holdings after = Holdings::now();
    EXPECT_TRUE(after.same_as(before))
        << before.str() << " before, " << after.str() << " after";
    close(c.sock);
    c.sock = -1;
    EXPECT_EQ(umf_test_child_wait(&c), 0) << "2: the consumer's counts moved";
    umf_gpu_provider_stats_t st;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(prod.h(), &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.ipc_handles_exported, 0u);
    EXPECT_EQ(st.alloc_count, uint64_t(warmup + cycles));
}

} // namespace
