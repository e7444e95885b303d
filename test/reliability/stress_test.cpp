// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Stress: 2, then 8 threads on one provider of each kind for a bounded time,
// each drawing a random mix of alloc (sizes and alignments), free (of its
// own pieces and of pieces other threads handed over), split, merge, IPC
// get/open/close/put of its own memory, opens and closes of a producer
// process's allocations (the same few handles from every thread, so that
// cache hits, misses and last closes race), allocation properties, stats,
// and failing calls whose native error must stay in their thread. Every
// piece carries a pattern that is checked before it is freed; at the end
// the counters and the driver's live counts are back where they started.
//
// UMF_GPU_STRESS_SECONDS sets the time per thread count and provider
// (default 2). Meant to be clean under ASan+UBSan and TSan.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include <gtest/gtest.h>

#include "rel_child.h"

namespace {

constexpr size_t KiB = 1024;

struct Piece {
    char *ptr;
    size_t size;
    uint64_t group; // the allocation it came from (split pieces share it)
    unsigned seed;  // the pattern of its first bytes
};

// How many bytes of a piece carry its pattern.
size_t marked(const Piece &p) {
    return std::min<size_t>(p.size, 256);
}

enum Op {
    OP_ALLOC,
    OP_FREE,
    OP_SPLIT,
    OP_MERGE,
    OP_IPC_LOCAL,
    OP_IPC_REMOTE_OPEN,
    OP_IPC_REMOTE_CLOSE,
    OP_PROPS,
    OP_STATS,
    OP_HAND_OVER,
    OP_ERROR,
    OP_COUNT
};
const char *const kOpNames[OP_COUNT] = {
    "alloc",     "free",  "split", "merge",     "ipc_local", "ipc_open",
    "ipc_close", "props", "stats", "hand_over", "error"};

// Pieces handed over and not yet taken: at most this many, so that the
// pool is no random walk that grows with the run's length.
constexpr size_t kPoolMax = 64;

struct Shared {
    const umf_test_gpu_t *g;
    umf_memory_provider_handle_t h;
    size_t max_pieces; // a thread splits below this, allocates 16 below it
    std::vector<RelIpcData> remote;
    std::atomic<bool> stop{false};
    std::mutex pool_lock; // pieces handed between threads
    std::vector<Piece> pool;
    std::atomic<uint64_t> next_group{1};
    std::atomic<uint64_t> ops[OP_COUNT];
    std::atomic<uint64_t> allocs{0}, frees{0}; // that succeeded
};

struct Worker {
    Shared *s;
    std::mt19937_64 rng;
    std::vector<Piece> mine;
    std::vector<std::pair<void *, int>> opened; // remote opens, which one
    unsigned next_seed;

    bool mark(const Piece &p) {
        return umf_test_gpu_fill(s->g, nullptr, p.ptr, marked(p), p.seed);
    }
    bool intact(const Piece &p) {
        return umf_test_gpu_check(s->g, nullptr, p.ptr, marked(p), p.seed);
    }

    void alloc() {
        static const size_t sizes[] = {64,    256,      4 * KiB,   8 * KiB,
                                       60000, 64 * KiB, 256 * KiB, 1 << 20};
        static const size_t aligns[] = {0, 0, 0, 64, 4096, 64 * KiB};
        size_t size = sizes[rng() % 8] + rng() % 64;
        size_t align = aligns[rng() % 6];
        void *p = nullptr;
        umf_result_t r = umfMemoryProviderAlloc(s->h, size, align, &p);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        if (r != UMF_RESULT_SUCCESS) {
            std::fprintf(stderr, "alloc(%zu, %zu): %s\n", size, align,
                         gpu_native_message(s->g).c_str());
            return;
        }
        s->allocs++;
        CHILD_EXPECT(align == 0 || reinterpret_cast<uintptr_t>(p) % align == 0);
        Piece pc = {static_cast<char *>(p), size, s->next_group++, next_seed++};
        CHILD_EXPECT(mark(pc));
        mine.push_back(pc);
    }

    void free_one(size_t i) {
        Piece pc = mine[i];
        mine[i] = mine.back();
        mine.pop_back();
        CHILD_EXPECT(intact(pc));
        umf_result_t r = umfMemoryProviderFree(s->h, pc.ptr, pc.size);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        s->frees += r == UMF_RESULT_SUCCESS;
    }

    void split(size_t i) {
        Piece &pc = mine[i];
        if (pc.size < 2) {
            return;
        }
        size_t first = 1 + rng() % (pc.size - 1);
        umf_result_t r =
            umfMemoryProviderAllocationSplit(s->h, pc.ptr, pc.size, first);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        if (r != UMF_RESULT_SUCCESS) {
            return;
        }
        Piece high = {pc.ptr + first, pc.size - first, pc.group, next_seed++};
        pc.size = first;
        CHILD_EXPECT(mark(pc));
        CHILD_EXPECT(mark(high));
        mine.push_back(high);
    }

    // Merges a piece with its higher neighbour, if this thread has it.
    void merge(size_t i) {
        Piece lo = mine[i];
        for (size_t j = 0; j < mine.size(); j++) {
            if (mine[j].ptr == lo.ptr + lo.size && mine[j].group == lo.group) {
                umf_result_t r = umfMemoryProviderAllocationMerge(
                    s->h, lo.ptr, mine[j].ptr, lo.size + mine[j].size);
                CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
                if (r == UMF_RESULT_SUCCESS) {
                    mine[i].size += mine[j].size;
                    CHILD_EXPECT(mark(mine[i]));
                    mine[j] = mine.back();
                    mine.pop_back();
                }
                return;
            }
        }
    }

    void ipc_local(size_t i) {
        const Piece &pc = mine[i];
        RelIpcData d;
        umf_result_t r =
            umfMemoryProviderGetIPCHandle(s->h, pc.ptr, pc.size, d.bytes);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        if (r != UMF_RESULT_SUCCESS) {
            return;
        }
        void *p = nullptr;
        r = umfMemoryProviderOpenIPCHandle(s->h, d.bytes, &p);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        if (r == UMF_RESULT_SUCCESS) {
            CHILD_EXPECT(p == pc.ptr);
            CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s->h, p, pc.size),
                            UMF_RESULT_SUCCESS);
        }
        CHILD_EXPECT_EQ(umfMemoryProviderPutIPCHandle(s->h, d.bytes),
                        UMF_RESULT_SUCCESS);
    }

    void remote_open() {
        if (s->remote.empty()) {
            return;
        }
        int which = static_cast<int>(rng() % s->remote.size());
        RelIpcData d = s->remote[static_cast<size_t>(which)];
        void *p = nullptr;
        umf_result_t r = umfMemoryProviderOpenIPCHandle(s->h, d.bytes, &p);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        if (r != UMF_RESULT_SUCCESS) {
            return;
        }
        if (rng() % 4 == 0) {
            CHILD_EXPECT(umf_test_gpu_check(s->g, nullptr, p, kRelSharedSize,
                                            rel_shared_seed(which)));
        }
        opened.push_back({p, which});
    }

    void remote_close() {
        if (opened.empty()) {
            return;
        }
        size_t i = rng() % opened.size();
        CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(s->h, opened[i].first,
                                                        kRelSharedSize),
                        UMF_RESULT_SUCCESS);
        opened[i] = opened.back();
        opened.pop_back();
    }

    void props(size_t i) {
        const Piece &pc = mine[i];
        umf_gpu_allocation_properties_t props;
        size_t off = rng() % pc.size;
        umf_result_t r = umfGpuMemoryProviderGetAllocationProperties(
            s->h, pc.ptr + off, &props);
        CHILD_EXPECT_EQ(r, UMF_RESULT_SUCCESS);
        if (r == UMF_RESULT_SUCCESS) {
            CHILD_EXPECT(props.base == pc.ptr);
            CHILD_EXPECT_EQ(props.size, pc.size);
            CHILD_EXPECT_EQ(props.memory_type, UMF_MEMORY_TYPE_DEVICE);
        }
    }

    void stats() {
        umf_gpu_provider_stats_t st;
        CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(s->h, &st),
                        UMF_RESULT_SUCCESS);
        // Read while others count: each counter at some recent value, but
        // never wrapped below zero.
        CHILD_EXPECT(st.allocated_bytes < (uint64_t(1) << 48));
        CHILD_EXPECT(st.ipc_handles_open < (uint64_t(1) << 32));
        CHILD_EXPECT(st.ipc_handles_exported < (uint64_t(1) << 32));
    }

    void hand_over() {
        std::lock_guard<std::mutex> guard(s->pool_lock);
        if (!mine.empty() && s->pool.size() < kPoolMax &&
            (s->pool.size() < 16 || rng() % 2 == 0)) {
            size_t i = rng() % mine.size();
            s->pool.push_back(mine[i]);
            mine[i] = mine.back();
            mine.pop_back();
        } else if (!s->pool.empty()) {
            mine.push_back(s->pool.back());
            s->pool.pop_back();
        }
    }

    // A failing call: its native error is this thread's.
    void error() {
        void *p = nullptr;
        umf_result_t r = umfMemoryProviderAlloc(s->h, size_t(1) << 40, 0, &p);
        CHILD_EXPECT_EQ(r, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
        CHILD_EXPECT_EQ(gpu_native_code(s->g), s->g->oom_code);
        char local[64];
        CHILD_EXPECT_EQ(umfMemoryProviderFree(s->h, local, sizeof(local)),
                        UMF_RESULT_ERROR_INVALID_ARGUMENT);
        CHILD_EXPECT_EQ(umfGetLastFailedMemoryProvider(), s->h);
    }

    void run() {
        while (!s->stop.load(std::memory_order_relaxed)) {
            Op op = static_cast<Op>(rng() % OP_COUNT);
            if (op == OP_ALLOC && mine.size() + 16 > s->max_pieces) {
                op = OP_FREE;
            }
            bool need_piece = op == OP_FREE || op == OP_SPLIT ||
                              op == OP_MERGE || op == OP_IPC_LOCAL ||
                              op == OP_PROPS;
            if (need_piece && mine.empty()) {
                op = OP_ALLOC;
            }
            size_t i = mine.empty() ? 0 : rng() % mine.size();
            switch (op) {
            case OP_ALLOC:
                alloc();
                break;
            case OP_FREE:
                free_one(i);
                break;
            case OP_SPLIT:
                if (mine.size() < s->max_pieces) {
                    split(i);
                }
                break;
            case OP_MERGE:
                merge(i);
                break;
            case OP_IPC_LOCAL:
                ipc_local(i);
                break;
            case OP_IPC_REMOTE_OPEN:
                if (opened.size() < 8) {
                    remote_open();
                }
                break;
            case OP_IPC_REMOTE_CLOSE:
                remote_close();
                break;
            case OP_PROPS:
                props(i);
                break;
            case OP_STATS:
                stats();
                break;
            case OP_HAND_OVER:
                hand_over();
                break;
            default:
                error();
                break;
            }
            s->ops[op].fetch_add(1, std::memory_order_relaxed);
        }
        while (!opened.empty()) {
            remote_close();
        }
    }
};

double stress_seconds() {
    const char *env = std::getenv("UMF_GPU_STRESS_SECONDS");
    double s = env != nullptr ? std::atof(env) : 0.0;
    return s > 0.0 ? s : 2.0;
}

// Pieces per thread (64 where the fd limit allows). Every allocation that
// was exported holds an fd until its free (the emulated driver's export;
// the fd server makes a copy per request and closes it), and the threads
// and the pool hold at most threads * max + kPoolMax allocations: sized, at
// two fds each for the opens' and copies' passing fds, to the fds left
// under the soft limit, which may be 1024.
size_t max_pieces(int threads) {
    struct rlimit lim = {};
    int open = umf_test_count_open_fds();
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || open < 0) {
        return 16;
    }
    rlim_t reserve = static_cast<rlim_t>(open) + 2 * kPoolMax + 128;
    rlim_t left = lim.rlim_cur > reserve ? lim.rlim_cur - reserve : 0;
    return std::clamp<size_t>(
        static_cast<size_t>(left / (2 * static_cast<rlim_t>(threads))), 17, 64);
}

// Whether every kind of operation ran at least once.
bool every_op_ran(const Shared &s) {
    for (const auto &o : s.ops) {
        if (o.load() == 0) {
            return false;
        }
    }
    return true;
}

// The soft fd limit at most `most` while in scope, so that a run here has
// the working set of a machine with the common default of 1024 (where CI's
// may be), not one sized to this machine's higher limit.
class FdLimitAtMost {
  public:
    explicit FdLimitAtMost(rlim_t most) {
        if (getrlimit(RLIMIT_NOFILE, &saved_) == 0 && saved_.rlim_cur > most) {
            struct rlimit lower = saved_;
            lower.rlim_cur = most;
            lowered_ = setrlimit(RLIMIT_NOFILE, &lower) == 0;
        }
    }
    ~FdLimitAtMost() {
        if (lowered_) {
            EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &saved_), 0);
        }
    }

  private:
    struct rlimit saved_ = {};
    bool lowered_ = false;
};

class Stress : public ::testing::TestWithParam<umf_test_gpu_kind_t> {};

TEST_P(Stress, ThreadsMixEveryOperation) {
    const umf_test_gpu_t *g = umf_test_gpu(GetParam());
    GPU_REQUIRE_EMULATED(g);
    FdLimitAtMost limit(1024);
    uint64_t seed = rel_seed();

    umf_test_child_t producer;
    std::vector<RelIpcData> remote;
    std::string why;
    ASSERT_TRUE(rel_start_producer(g->kind, 4, &producer, &remote, &why))
        << why;
    int64_t allocs = g->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    int64_t imports = g->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    double seconds = stress_seconds();

    for (int threads : {2, 8}) {
        Shared s;
        s.g = g;
        s.h = gpu_provider_or_null(g);
        ASSERT_NE(s.h, nullptr);
        s.remote = remote;
        s.max_pieces = max_pieces(threads);
        for (auto &o : s.ops) {
            o = 0;
        }
        std::vector<Worker> workers(static_cast<size_t>(threads));
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; t++) {
            Worker &w = workers[static_cast<size_t>(t)];
            w.s = &s;
            w.rng.seed(seed * 1000003u + static_cast<uint64_t>(t) * 7919u +
                       static_cast<uint64_t>(threads));
            w.next_seed = static_cast<unsigned>(t) << 24;
            pool.emplace_back([&w] { w.run(); });
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        // However slow the machine: until each operation ran (checked
        // below), with a bound of 60 000 looks so that one that never runs
        // fails the case instead of hanging it.
        for (int looks = 0; !every_op_ran(s) && looks < 60000; looks++) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        s.stop = true;
        for (auto &t : pool) {
            t.join();
        }
        // Whatever the threads still hold, and the pool, is freed here, in
        // another thread than the one that allocated most of it.
        for (Worker &w : workers) {
            while (!w.mine.empty()) {
                w.free_one(w.mine.size() - 1);
            }
        }
        Worker last = workers[0];
        last.mine = s.pool;
        while (!last.mine.empty()) {
            last.free_one(last.mine.size() - 1);
        }
        umf_gpu_provider_stats_t st;
        ASSERT_EQ(umfGpuMemoryProviderGetStats(s.h, &st), UMF_RESULT_SUCCESS);
        EXPECT_EQ(st.allocated_bytes, 0u);
        EXPECT_EQ(st.alloc_count, s.allocs.load());
        EXPECT_EQ(st.free_count, s.frees.load());
        EXPECT_EQ(st.ipc_handles_open, 0u);
        EXPECT_EQ(st.ipc_handles_exported, 0u);
        umfMemoryProviderDestroy(s.h);
        EXPECT_EQ(g->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), allocs);
        EXPECT_EQ(g->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), imports);

        uint64_t total = 0;
        std::string mix;
        for (int o = 0; o < OP_COUNT; o++) {
            total += s.ops[o];
            mix += std::string(o ? ", " : "") + kOpNames[o] + " " +
                   std::to_string(s.ops[o].load());
        }
        std::printf("stress %s: %d threads, %.1f s, %llu operations (%s); "
                    "%llu allocations, %llu IPC cache hits, %llu misses\n",
                    g->name, threads, seconds,
                    static_cast<unsigned long long>(total), mix.c_str(),
                    static_cast<unsigned long long>(st.alloc_count),
                    static_cast<unsigned long long>(st.ipc_cache_hits),
                    static_cast<unsigned long long>(st.ipc_cache_misses));
        EXPECT_TRUE(every_op_ran(s)) << mix;
    }
    EXPECT_EQ(umf_test_child_failures(), 0) << "see the failed checks above";
    EXPECT_EQ(umf_test_child_wait(&producer), 0)
        << "the producer's data changed or it failed";
}

// While one thread asks for more memory than the device has, others'
// allocations that fit still succeed. (The emulated driver used to add a
// request to the device's counter before checking it, so that a huge
// request made concurrent small ones fail for a moment.)
TEST_P(Stress, AnOversizedRequestFailsNoOtherThread) {
    const umf_test_gpu_t *g = umf_test_gpu(GetParam());
    GPU_REQUIRE_EMULATED(g);
    umf_memory_provider_handle_t h = gpu_provider_or_null(g);
    ASSERT_NE(h, nullptr);
    std::atomic<bool> stop{false};
    std::atomic<int> huge{0};
    std::vector<std::thread> greedy;
    for (int i = 0; i < 2; i++) {
        greedy.emplace_back([&] {
            while (!stop.load()) {
                void *p = nullptr;
                EXPECT_EQ(umfMemoryProviderAlloc(h, size_t(1) << 40, 0, &p),
                          UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
                huge++;
            }
        });
    }
    int failed = 0, rounds = 0;
    // Allocations above the driver's per-thread batch (256 KiB) take from
    // the device's counter every time.
    // At most a second: sanitizers slow each round down.
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (; (rounds < 100000 && std::chrono::steady_clock::now() < end) ||
           huge.load() < 1000;
         rounds++) {
        void *p = nullptr;
        if (umfMemoryProviderAlloc(h, 1 << 20, 0, &p) != UMF_RESULT_SUCCESS) {
            failed++;
            continue;
        }
        EXPECT_EQ(umfMemoryProviderFree(h, p, 1 << 20), UMF_RESULT_SUCCESS);
    }
    stop = true;
    for (std::thread &t : greedy) {
        t.join();
    }
    EXPECT_EQ(failed, 0) << "of " << rounds << " allocations of 1 MiB, while "
                         << huge.load() << " of 1 TiB failed";
    umfMemoryProviderDestroy(h);
}

INSTANTIATE_TEST_SUITE_P(
    Providers, Stress, ::testing::ValuesIn(gpu_kinds()),
    [](const ::testing::TestParamInfo<umf_test_gpu_kind_t> &info) {
        return std::string(info.param == UMF_TEST_GPU_CUDA ? "cuda"
                                                           : "level_zero");
    });

} // namespace
