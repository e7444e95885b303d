// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC of the Level Zero provider between real processes (fork + exec, see
// test_child.h): data written by the producer and read and modified by the
// consumer through copies, cached re-opens, closing, handles of interior
// pointers, a producer that frees before the consumer closes or is killed,
// opens in the producer itself, malformed data, the ptrace refusal, and fd
// and mapping counts after 1000 cycles.

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
#include "providers/ipc_data.h"
}

#include "gpu_test_ze.h"
#include "test_child.h"

namespace {

constexpr size_t kSize = 1 << 20;

// Messages between the processes: a tag, then the IPC data if any.
enum Tag : uint32_t { TAG_DATA = 1, TAG_GO, TAG_DONE, TAG_FREED };

bool send_tag(int sock, uint32_t tag) {
    return umf_test_send(sock, &tag, sizeof(tag)) == 0;
}

bool expect_tag(int sock, uint32_t tag) {
    uint32_t got = 0;
    return umf_test_recv(sock, &got, sizeof(got)) == 0 && got == tag;
}

bool send_data(int sock, const std::vector<unsigned char> &data) {
    uint64_t size = data.size();
    return send_tag(sock, TAG_DATA) &&
           umf_test_send(sock, &size, sizeof(size)) == 0 &&
           umf_test_send(sock, data.data(), data.size()) == 0;
}

bool recv_data(int sock, std::vector<unsigned char> *data) {
    uint64_t size = 0;
    if (!expect_tag(sock, TAG_DATA) ||
        umf_test_recv(sock, &size, sizeof(size)) != 0 || size > 4096) {
        return false;
    }
    data->resize(size);
    return umf_test_recv(sock, data->data(), size) == 0;
}

// A process's context and DEVICE provider on device 0.
struct Side {
    ze_context_handle_t ctx = nullptr;
    ze_device_handle_t dev = nullptr;
    umf_memory_provider_handle_t h = nullptr;

    bool open() {
        if (!(ze_gpu()->why == nullptr)) {
            std::fprintf(stderr, "environment: %s\n",
                         gpu_why(ze_gpu()).c_str());
            return false;
        }
        dev = ze_devices()[0];
        ctx = ze_test_context_create();
        ZeProviderConfig cfg;
        cfg.context = ctx;
        cfg.device = dev;
        return ctx != nullptr &&
               ze_test_try_provider(cfg, &h) == UMF_RESULT_SUCCESS;
    }
    void close() {
        umfMemoryProviderDestroy(h);
        h = nullptr;
        ze_test_context_destroy(ctx);
        ctx = nullptr;
    }
    std::vector<unsigned char> get(void *ptr, size_t size) {
        size_t n = 0;
        CHILD_EXPECT_EQ(umfMemoryProviderGetIPCHandleSize(h, &n),
                        UMF_RESULT_SUCCESS);
        std::vector<unsigned char> data(n);
        CHILD_EXPECT_EQ(
            umfMemoryProviderGetIPCHandle(h, ptr, size, data.data()),
            UMF_RESULT_SUCCESS);
        return data;
    }
    // A consumer role's end: closes, tells the parent, returns the status
    // (failed checks make it 1, test_child.h).
    int finish(int sock) {
        close();
        send_tag(sock, TAG_DONE);
        return 0;
    }
    umf_gpu_provider_stats_t stats() {
        umf_gpu_provider_stats_t s = {};
        CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &s),
                        UMF_RESULT_SUCCESS);
        return s;
    }
};

// ------------------------------------------------------- consumer roles

// Opens, reads the producer's pattern 1, re-opens (a cache hit: the same
// pointer), writes pattern 2, closes both; the mapping goes with the last.
UMF_TEST_CHILD(ze_consumer_rw) {
    (void)argc, (void)argv;
    Side s;
    std::vector<unsigned char> data;
    if (!s.open() || !recv_data(sock, &data)) {
        return 100;
    }
    void *p = nullptr, *q = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(s.h, data.data(), &p),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(ze_test_check_pattern(s.ctx, s.dev, p, kSize, 1));
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(s.h, data.data(), &q),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(p == q);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    1);
    umf_gpu_provider_stats_t st = s.stats();
    CHILD_EXPECT_EQ(st.ipc_handles_open, 2);
    CHILD_EXPECT_EQ(st.ipc_cache_hits, 1);
    CHILD_EXPECT_EQ(st.ipc_cache_misses, 1);
    CHILD_EXPECT(ze_test_write_pattern(s.ctx, s.dev, p, kSize, 2));
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s.h, q, kSize),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    1);
    CHILD_EXPECT(ze_test_check_pattern(s.ctx, s.dev, p, kSize, 2));
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s.h, p, kSize),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    0);
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s.h, p, kSize),
                    UMF_RESULT_ERROR_INVALID_ARGUMENT);
    CHILD_EXPECT_EQ(s.stats().ipc_handles_open, 0);
    return s.finish(sock);
}

// Gets two handles, for an interior pointer and for the base: the interior
// one opens at the matching address of the same mapping.
UMF_TEST_CHILD(ze_consumer_interior) {
    (void)argc, (void)argv;
    Side s;
    std::vector<unsigned char> inner, whole;
    if (!s.open() || !recv_data(sock, &inner) || !recv_data(sock, &whole)) {
        return 100;
    }
    char *p = nullptr, *b = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(
                        s.h, inner.data(), reinterpret_cast<void **>(&p)),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(
                        s.h, whole.data(), reinterpret_cast<void **>(&b)),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(p == b + 12345);
    CHILD_EXPECT_EQ(s.stats().ipc_cache_hits, 1);
    // The interior pointer sees the producer's bytes from that offset on.
    std::vector<unsigned char> all(kSize), part(1000);
    CHILD_EXPECT(ze_test_copy(s.ctx, s.dev, all.data(), b, kSize));
    CHILD_EXPECT(ze_test_copy(s.ctx, s.dev, part.data(), p, part.size()));
    CHILD_EXPECT(std::memcmp(part.data(), all.data() + 12345, part.size()) ==
                 0);
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s.h, p, 1000),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s.h, b, kSize),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    0);
    return s.finish(sock);
}

// Opens; the producer frees its allocation; the mapping still holds the
// data until the close.
UMF_TEST_CHILD(ze_consumer_outlives_free) {
    (void)argc, (void)argv;
    Side s;
    std::vector<unsigned char> data;
    if (!s.open() || !recv_data(sock, &data)) {
        return 100;
    }
    void *p = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(s.h, data.data(), &p),
                    UMF_RESULT_SUCCESS);
    send_tag(sock, TAG_GO);
    CHILD_EXPECT(expect_tag(sock, TAG_FREED));
    CHILD_EXPECT(ze_test_check_pattern(s.ctx, s.dev, p, kSize, 1));
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s.h, p, kSize),
                    UMF_RESULT_SUCCESS);
    // The freed allocation cannot be opened anew.
    CHILD_EXPECT(umfMemoryProviderOpenIPCHandle(s.h, data.data(), &p) !=
                 UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    0);
    return s.finish(sock);
}

// ------------------------------------------------------- producer role

// Allocates kSize bytes of pattern 1, sends the IPC data of its base and
// waits: TAG_GO frees and exits; anything else (or the socket closing)
// exits after freeing. argv[0] "nodump" makes the process non-dumpable, so
// that only a CAP_SYS_PTRACE holder may take its fds.
UMF_TEST_CHILD(ze_producer) {
    if (argc > 0 && std::strcmp(argv[0], "nodump") == 0) {
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    Side s;
    if (!s.open()) {
        return 100;
    }
    void *p = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderAlloc(s.h, kSize, 0, &p),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(ze_test_write_pattern(s.ctx, s.dev, p, kSize, 1));
    std::vector<unsigned char> data = s.get(p, kSize);
    send_data(sock, data);
    uint32_t tag = 0;
    (void)umf_test_recv(sock, &tag, sizeof(tag));
    CHILD_EXPECT_EQ(umfMemoryProviderPutIPCHandle(s.h, data.data()),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(umfMemoryProviderFree(s.h, p, kSize), UMF_RESULT_SUCCESS);
    s.close();
    return 0; // failed checks make it 1 (test_child.h)
}

// ------------------------------------------------------------ the tests

// Starts a ze_producer (with `args`) and receives its IPC data.
void start_producer(umf_test_child_t *prod, std::vector<unsigned char> *data,
                    const char *const *args = nullptr) {
    ASSERT_EQ(umf_test_child_start(prod, "ze_producer", args), 0);
    ASSERT_TRUE(recv_data(prod->sock, data));
}

class ZeIpc : public ZeProviderTest {
  protected:
    void SetUp() override {
        ZeProviderTest::SetUp();
        if (HasFatalFailure() || IsSkipped()) {
            return;
        }
        h_ = provider();
        ASSERT_NE(h_, nullptr);
    }
    std::vector<unsigned char> get(void *ptr, size_t size) {
        size_t n = 0;
        EXPECT_EQ(umfMemoryProviderGetIPCHandleSize(h_, &n),
                  UMF_RESULT_SUCCESS);
        std::vector<unsigned char> data(n);
        EXPECT_EQ(umfMemoryProviderGetIPCHandle(h_, ptr, size, data.data()),
                  UMF_RESULT_SUCCESS);
        return data;
    }
    void *alloc_pattern(unsigned seed) {
        void *p = nullptr;
        EXPECT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &p), UMF_RESULT_SUCCESS);
        EXPECT_TRUE(ze_test_write_pattern(ctx_, dev(), p, kSize, seed));
        return p;
    }
    umf_memory_provider_handle_t h_ = nullptr;
};

TEST_F(ZeIpc, ConsumerReadsAndWritesThroughTheCache) {
    void *p = alloc_pattern(1);
    std::vector<unsigned char> data = get(p, kSize);
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "ze_consumer_rw", nullptr), 0);
    ASSERT_TRUE(send_data(c.sock, data));
    EXPECT_TRUE(expect_tag(c.sock, TAG_DONE));
    EXPECT_EQ(umf_test_child_wait(&c), 0);
    EXPECT_TRUE(ze_test_check_pattern(ctx_, dev(), p, kSize, 2))
        << "the consumer's writes are not in the producer's memory";
    umf_gpu_provider_stats_t s;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h_, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.ipc_handles_exported, 1u);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, data.data()),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h_, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.ipc_handles_exported, 0u);
    EXPECT_EQ(umfMemoryProviderFree(h_, p, kSize), UMF_RESULT_SUCCESS);
}

TEST_F(ZeIpc, InteriorPointersOpenTheWholeAllocation) {
    void *p = alloc_pattern(1);
    std::vector<unsigned char> inner =
        get(static_cast<char *>(p) + 12345, 1000);
    std::vector<unsigned char> whole = get(p, kSize);
    // Past the end of the allocation.
    std::vector<unsigned char> bad(inner.size());
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(h_, static_cast<char *>(p) + 12345,
                                            kSize, bad.data()),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "ze_consumer_interior", nullptr), 0);
    ASSERT_TRUE(send_data(c.sock, inner));
    ASSERT_TRUE(send_data(c.sock, whole));
    EXPECT_TRUE(expect_tag(c.sock, TAG_DONE));
    EXPECT_EQ(umf_test_child_wait(&c), 0);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, inner.data()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, whole.data()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, p, kSize), UMF_RESULT_SUCCESS);
}

TEST_F(ZeIpc, ProducerFreesBeforeTheConsumerCloses) {
    void *p = alloc_pattern(1);
    std::vector<unsigned char> data = get(p, kSize);
    umf_test_child_t c;
    ASSERT_EQ(umf_test_child_start(&c, "ze_consumer_outlives_free", nullptr),
              0);
    ASSERT_TRUE(send_data(c.sock, data));
    ASSERT_TRUE(expect_tag(c.sock, TAG_GO));
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, data.data()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, p, kSize), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(send_tag(c.sock, TAG_FREED));
    EXPECT_TRUE(expect_tag(c.sock, TAG_DONE));
    EXPECT_EQ(umf_test_child_wait(&c), 0);
}

// The producer is killed while the parent has its memory open: the mapping
// stays usable, re-opens while it is open hit the cache, and once closed
// the data cannot be opened again (no such process).
TEST_F(ZeIpc, ProducerKilledWithSigkill) {
    umf_test_child_t prod;
    std::vector<unsigned char> data;
    ASSERT_NO_FATAL_FAILURE(start_producer(&prod, &data));
    void *p = nullptr, *q = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h_, data.data(), &p),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_test_child_kill(&prod, SIGKILL), 128 + SIGKILL);
    EXPECT_TRUE(ze_test_check_pattern(ctx_, dev(), p, kSize, 1));
    EXPECT_TRUE(ze_test_write_pattern(ctx_, dev(), p, kSize, 3));
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h_, data.data(), &q),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(p, q);
    EXPECT_TRUE(ze_test_check_pattern(ctx_, dev(), q, kSize, 3));
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, q, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, p, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h_, data.data(), &p),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ZeIpc, OpenInTheProducerReturnsItsOwnMemory) {
    char *p = static_cast<char *>(alloc_pattern(1));
    std::vector<unsigned char> data = get(p + 100, 50);
    void *q = nullptr, *r = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h_, data.data(), &q),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(q, p + 100);
    // Another provider on the same context shares it.
    umf_memory_provider_handle_t other = provider();
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(other, data.data(), &r),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(r, q);
    umf_gpu_provider_stats_t s;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(other, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.ipc_cache_hits, 1u);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(other, r, 50),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, q, 50), UMF_RESULT_SUCCESS);
    // Closing did not free it.
    EXPECT_TRUE(ze_test_check_pattern(ctx_, dev(), p, kSize, 1));
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, data.data()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, p, kSize), UMF_RESULT_SUCCESS);
    // The allocation is gone: its data opens nothing, even if the address
    // is reused by a new allocation.
    void *again = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &again), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h_, data.data(), &q),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(h_, again, kSize), UMF_RESULT_SUCCESS);
}

TEST_F(ZeIpc, OpenOnAHostProviderNeedsADevice) {
    umf_test_child_t prod;
    std::vector<unsigned char> data;
    ASSERT_NO_FATAL_FAILURE(start_producer(&prod, &data));
    ZeProviderConfig cfg;
    cfg.type = UMF_MEMORY_TYPE_HOST;
    umf_memory_provider_handle_t host = provider(cfg);
    void *p = nullptr;
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(host, data.data(), &p),
              UMF_RESULT_ERROR_NOT_SUPPORTED);
    send_tag(prod.sock, TAG_GO);
    EXPECT_EQ(umf_test_child_wait(&prod), 0);
}

// Malformed data is refused before the driver sees it, and leaks nothing.
TEST_F(ZeIpc, MalformedDataIsRefused) {
    umf_test_child_t prod;
    std::vector<unsigned char> good;
    ASSERT_NO_FATAL_FAILURE(start_producer(&prod, &good));
    const int fds = umf_test_count_open_fds();
    const int64_t opens = ze_test_calls("zeMemOpenIpcHandle");
    void *p = nullptr;
    auto refused = [&](std::vector<unsigned char> d) {
        return umfMemoryProviderOpenIPCHandle(h_, d.data(), &p);
    };
    auto resealed = [&](void (*change)(umf_ipc_data_t &)) {
        umf_ipc_data_t d;
        std::memcpy(&d, good.data(), sizeof(d));
        change(d);
        d.checksum = umf_ipc_data_checksum(&d);
        std::vector<unsigned char> out(good.size());
        std::memcpy(out.data(), &d, sizeof(d));
        return out;
    };

    std::mt19937 rng(5);
    for (int i = 0; i < 2000; i++) {
        std::vector<unsigned char> junk(good.size());
        for (auto &b : junk) {
            b = static_cast<unsigned char>(rng());
        }
        ASSERT_EQ(refused(junk), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    for (size_t keep = 0; keep < good.size(); keep += 7) {
        std::vector<unsigned char> cut(good.size(), 0);
        std::memcpy(cut.data(), good.data(), keep);
        ASSERT_EQ(refused(cut), UMF_RESULT_ERROR_INVALID_ARGUMENT) << keep;
    }
    for (size_t bit = 0; bit < good.size() * 8; bit += 3) {
        std::vector<unsigned char> flipped = good;
        flipped[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        ASSERT_EQ(refused(flipped), UMF_RESULT_ERROR_INVALID_ARGUMENT) << bit;
    }
    EXPECT_EQ(refused(resealed([](umf_ipc_data_t &d) { d.magic ^= 1; })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(refused(resealed([](umf_ipc_data_t &d) { d.version = 3; })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(refused(resealed([](umf_ipc_data_t &d) {
                  d.kind = UMF_GPU_PROVIDER_KIND_CUDA;
              })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(refused(resealed([](umf_ipc_data_t &d) { d.handle_size = 8; })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(ze_test_calls("zeMemOpenIpcHandle"), opens)
        << "the driver saw malformed data";

    // A producer that is gone.
    pid_t dead = fork();
    ASSERT_GE(dead, 0);
    if (dead == 0) {
        _exit(0);
    }
    ASSERT_EQ(waitpid(dead, nullptr, 0), dead);
    static pid_t s_dead;
    s_dead = dead;
    EXPECT_EQ(
        refused(resealed([](umf_ipc_data_t &d) { d.producer_pid = s_dead; })),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // An fd the producer does not have open.
    EXPECT_EQ(refused(resealed([](umf_ipc_data_t &d) {
                  int fd = 1000;
                  std::memcpy(d.handle, &fd, sizeof(fd));
              })),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // An fd the producer has, but not the one it exported (its stderr): the
    // driver refuses it, and the fd taken for the try is closed again.
    EXPECT_NE(refused(resealed([](umf_ipc_data_t &d) {
                  int fd = 2;
                  std::memcpy(d.handle, &fd, sizeof(fd));
              })),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_test_count_open_fds(), fds);
    EXPECT_EQ(ze_test_live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 0);

    // The good data still opens.
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h_, good.data(), &p),
              UMF_RESULT_SUCCESS);
    EXPECT_TRUE(ze_test_check_pattern(ctx_, dev(), p, kSize, 1));
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, p, kSize),
              UMF_RESULT_SUCCESS);
    // Put takes only this process's data.
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, good.data()),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    send_tag(prod.sock, TAG_GO);
    EXPECT_EQ(umf_test_child_wait(&prod), 0);
}

// Without ptrace permission over the producer (here: it is not dumpable,
// and the consumer dropped CAP_SYS_PTRACE), taking its fd is refused, and
// the log says why and how to allow it; with the socket fallback off in the
// consumer (UMF_GPU_IPC_FD_TRANSFER=pidfd, set before the library reads it),
// since the producer's fd server would serve it otherwise.
UMF_TEST_CHILD(ze_consumer_no_ptrace) {
    (void)argc, (void)argv;
    setenv("UMF_GPU_IPC_FD_TRANSFER", "pidfd", 1);
    char log_path[] = "/tmp/umf-ze-ptrace-XXXXXX";
    int log_fd = mkstemp(log_path);
    if (log_fd < 0 || dup2(log_fd, STDERR_FILENO) < 0) {
        return 100;
    }
    unlink(log_path);
    Side s;
    std::vector<unsigned char> data;
    if (!s.open() || !recv_data(sock, &data)) {
        return 101;
    }
    if (umf_test_drop_ptrace_capability() != 0) {
        return 103;
    }
    void *p = nullptr;
    umf_result_t ret = umfMemoryProviderOpenIPCHandle(s.h, data.data(), &p);
    s.close();
    send_tag(sock, TAG_DONE);
    std::string log(8192, '\0');
    ssize_t n = pread(log_fd, &log[0], log.size(), 0);
    log.resize(n > 0 ? static_cast<size_t>(n) : 0);
    if (ret != UMF_RESULT_ERROR_NOT_SUPPORTED ||
        log.find("ptrace") == std::string::npos ||
        log.find("PR_SET_PTRACER") == std::string::npos ||
        log.find("fallback is off") == std::string::npos) {
        return 1;
    }
    return 0;
}

TEST_F(ZeIpc, RefusedPtracePermissionIsExplained) {
    umf_test_child_t prod, cons;
    const char *nodump[] = {"nodump", nullptr};
    std::vector<unsigned char> data;
    ASSERT_NO_FATAL_FAILURE(start_producer(&prod, &data, nodump));
    ASSERT_EQ(umf_test_child_start(&cons, "ze_consumer_no_ptrace", nullptr), 0);
    ASSERT_TRUE(send_data(cons.sock, data));
    EXPECT_TRUE(expect_tag(cons.sock, TAG_DONE));
    EXPECT_EQ(umf_test_child_wait(&cons), 0);
    send_tag(prod.sock, TAG_GO);
    EXPECT_EQ(umf_test_child_wait(&prod), 0);
}

// 1000 get / put / open / close cycles leave the fds and mappings of both
// processes where they were.
UMF_TEST_CHILD(ze_producer_cycles) {
    (void)argc, (void)argv;
    Side s;
    if (!s.open()) {
        return 100;
    }
    void *p = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderAlloc(s.h, kSize, 0, &p),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(ze_test_write_pattern(s.ctx, s.dev, p, kSize, 1));
    // The first export opens the driver's fd, kept until the free.
    std::vector<unsigned char> first = s.get(p, kSize);
    CHILD_EXPECT_EQ(umfMemoryProviderPutIPCHandle(s.h, first.data()),
                    UMF_RESULT_SUCCESS);
    int fds = umf_test_count_open_fds();
    int maps = umf_test_count_driver_mappings();
    for (int i = 0; i < 1000; i++) {
        std::vector<unsigned char> data = s.get(p, kSize);
        if (!send_data(sock, data) || !expect_tag(sock, TAG_GO)) {
            return 101;
        }
        CHILD_EXPECT_EQ(umfMemoryProviderPutIPCHandle(s.h, data.data()),
                        UMF_RESULT_SUCCESS);
    }
    CHILD_EXPECT_EQ(umf_test_count_open_fds(), fds);
    CHILD_EXPECT_EQ(umf_test_count_driver_mappings(), maps);
    CHILD_EXPECT_EQ(s.stats().ipc_handles_exported, 0);
    CHILD_EXPECT_EQ(umfMemoryProviderFree(s.h, p, kSize), UMF_RESULT_SUCCESS);
    return s.finish(sock);
}

TEST_F(ZeIpc, FdsAndMappingsAtBaselineAfter1000Cycles) {
    umf_test_child_t prod;
    ASSERT_EQ(umf_test_child_start(&prod, "ze_producer_cycles", nullptr), 0);
    int fds = -1, maps = -1;
    for (int i = 0; i < 1000; i++) {
        std::vector<unsigned char> data;
        ASSERT_TRUE(recv_data(prod.sock, &data)) << i;
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h_, data.data(), &p),
                  UMF_RESULT_SUCCESS)
            << i;
        if (i % 100 == 0) {
            ASSERT_TRUE(ze_test_check_pattern(ctx_, dev(), p, 4096, 1));
        }
        ASSERT_EQ(umfMemoryProviderCloseIPCHandle(h_, p, kSize),
                  UMF_RESULT_SUCCESS);
        if (i == 0) { // after the first cycle, every lazy init is done
            fds = umf_test_count_open_fds();
            maps = umf_test_count_driver_mappings();
        }
        ASSERT_TRUE(send_tag(prod.sock, TAG_GO));
    }
    EXPECT_EQ(umf_test_count_open_fds(), fds);
    EXPECT_EQ(umf_test_count_driver_mappings(), maps);
    EXPECT_EQ(ze_test_live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 0);
    EXPECT_TRUE(expect_tag(prod.sock, TAG_DONE));
    EXPECT_EQ(umf_test_child_wait(&prod), 0);
    umf_gpu_provider_stats_t s;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h_, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.ipc_cache_misses, 1000u);
    EXPECT_EQ(s.ipc_handles_open, 0u);
}

} // namespace
