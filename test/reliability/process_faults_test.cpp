// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Process faults: the other side of an IPC exchange dies by SIGKILL at a
// random point, 100 rounds (25 per provider and side). This process
// survives each round, as the consumer (a producer child shares four
// allocations one by one, frees each after it was opened, and is killed
// after a random number of steps plus a random delay, often in the middle
// of an allocation, a copy or an export) or as the producer (a consumer
// child opens, checks and keeps this process's allocations, and is killed
// the same way). After each round the survivor:
//   - still reads the right data from what it owned: its own allocations,
//     and, as the consumer, the mappings it had opened (they outlive the
//     producer);
//   - closes, puts and frees all of it without an error;
//   - cannot open the dead producer's data any more (an error, no crash);
//   - has as many open fds and mappings as before the round, and the
//     driver as many live allocations and imports;
//   - keeps working: allocates, shares with itself, frees.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "rel_child.h"

namespace {

constexpr int kShared = 4;
constexpr int kRounds = 100;

struct Ack {
    int32_t ok;
};

// argv: kind. Shares kShared allocations one at a time: sends the data,
// waits for the parent's ack, then frees the one before. Killed at some
// point; ends by itself only if the parent closes the socket.
UMF_TEST_CHILD(pf_producer) {
    if (argc < 1) {
        return 100;
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    if (h == nullptr) {
        return 101;
    }
    void *prev = nullptr;
    RelIpcData prev_data;
    for (int i = 0; i < kShared; i++) {
        void *p = nullptr;
        RelIpcData d;
        d.size = 0;
        if (umfMemoryProviderAlloc(h, kRelSharedSize, 0, &p) !=
                UMF_RESULT_SUCCESS ||
            !umf_test_gpu_fill(g, nullptr, p, kRelSharedSize,
                               rel_shared_seed(i)) ||
            umfMemoryProviderGetIPCHandle(h, p, kRelSharedSize, d.bytes) !=
                UMF_RESULT_SUCCESS ||
            umf_test_send(sock, &d, sizeof(d)) != 0) {
            return 102;
        }
        Ack ack;
        if (umf_test_recv(sock, &ack, sizeof(ack)) != 0) {
            return 103;
        }
        if (prev != nullptr) {
            umfMemoryProviderPutIPCHandle(h, prev_data.bytes);
            umfMemoryProviderFree(h, prev, kRelSharedSize);
        }
        prev = p;
        prev_data = d;
    }
    char byte;
    while (umf_test_recv(sock, &byte, 1) == 0) {
    }
    return 0;
}

// argv: kind. Opens each RelIpcData it receives, checks its pattern, acks
// with the result, and keeps the mapping. Killed at some point.
UMF_TEST_CHILD(pf_consumer) {
    if (argc < 1) {
        return 100;
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    if (h == nullptr) {
        return 101;
    }
    for (int i = 0;; i++) {
        RelIpcData d;
        if (umf_test_recv(sock, &d, sizeof(d)) != 0) {
            return 0;
        }
        void *p = nullptr;
        Ack ack = {0};
        if (umfMemoryProviderOpenIPCHandle(h, d.bytes, &p) ==
            UMF_RESULT_SUCCESS) {
            ack.ok = umf_test_gpu_check(g, nullptr, p, kRelSharedSize,
                                        rel_shared_seed(i))
                         ? 1
                         : 0;
        }
        if (umf_test_send(sock, &ack, sizeof(ack)) != 0) {
            return 0;
        }
    }
}

// The sanitizers' runtimes map memory of their own as the process touches
// new ranges (shadow, allocator regions): under them only the mappings of
// the drivers' memory are compared.
#ifdef UMF_GPU_SANITIZED
constexpr bool kAllMappings = false;
#else
constexpr bool kAllMappings = true;
#endif

struct Counts {
    int fds, maps, driver_maps;
    int64_t allocs, imports, quarantined;
    bool operator==(const Counts &o) const {
        return fds == o.fds && (!kAllMappings || maps == o.maps) &&
               driver_maps == o.driver_maps && allocs == o.allocs &&
               imports == o.imports && quarantined == o.quarantined;
    }
};

// The survivor's counts. Quarantined: freed blocks that the driver keeps
// out of use while another process imports them; a killed consumer's
// imports must not keep them there.
Counts counts(const umf_test_gpu_t *g) {
    return {umf_test_count_open_fds(),
            umf_test_count_mappings(),
            umf_test_count_driver_mappings(),
            g->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
            g->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
            g->mock.live(UMF_GPU_MOCK_LIVE_QUARANTINED)};
}

std::string show(const Counts &c) {
    return std::to_string(c.fds) + " fds, " + std::to_string(c.maps) +
           " mappings (" + std::to_string(c.driver_maps) +
           " of driver memory), " + std::to_string(c.allocs) +
           " allocations, " + std::to_string(c.imports) + " imports, " +
           std::to_string(c.quarantined) + " quarantined blocks";
}

void kill_later(std::mt19937_64 &rng, umf_test_child_t *child) {
    unsigned delay = static_cast<unsigned>(rng() % 400);
    if (delay > 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(delay));
    }
    int status = umf_test_child_kill(child, SIGKILL);
    // Killed, or (rarely) done first and waiting for the socket.
    EXPECT_TRUE(status == 128 + SIGKILL || status == 0) << status;
}

// This process consumes; the producer dies after `steps` exchanges.
void consumer_round(const umf_test_gpu_t *g, umf_memory_provider_handle_t h,
                    std::mt19937_64 &rng, int *opened_total) {
    umf_test_child_t child;
    std::string k = std::to_string(static_cast<int>(g->kind));
    const char *args[] = {k.c_str(), nullptr};
    ASSERT_EQ(umf_test_child_start(&child, "pf_producer", args), 0);
    int steps = static_cast<int>(rng() % (kShared + 1));
    std::vector<std::pair<void *, int>> opened;
    RelIpcData last;
    bool have_last = false;
    for (int i = 0; i < steps; i++) {
        RelIpcData d;
        ASSERT_EQ(umf_test_recv(child.sock, &d, sizeof(d)), 0);
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h, d.bytes, &p),
                  UMF_RESULT_SUCCESS);
        EXPECT_TRUE(umf_test_gpu_check(g, nullptr, p, kRelSharedSize,
                                       rel_shared_seed(i)));
        opened.push_back({p, i});
        last = d;
        have_last = true;
        Ack ack = {1};
        ASSERT_EQ(umf_test_send(child.sock, &ack, sizeof(ack)), 0);
    }
    kill_later(rng, &child);
    *opened_total += static_cast<int>(opened.size());
    // The mappings outlive the producer, with their data.
    for (auto &o : opened) {
        EXPECT_TRUE(umf_test_gpu_check(g, nullptr, o.first, kRelSharedSize,
                                       rel_shared_seed(o.second)))
            << "mapping " << o.second << " lost its data";
        EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, o.first, kRelSharedSize),
                  UMF_RESULT_SUCCESS);
    }
    if (have_last) {
        void *p = nullptr;
        umf_result_t r = umfMemoryProviderOpenIPCHandle(h, last.bytes, &p);
        EXPECT_NE(r, UMF_RESULT_SUCCESS) << "opened a dead producer's data";
        if (r == UMF_RESULT_SUCCESS) {
            umfMemoryProviderCloseIPCHandle(h, p, kRelSharedSize);
        }
    }
}

// This process produces; the consumer dies after `steps` exchanges.
void producer_round(const umf_test_gpu_t *g, umf_memory_provider_handle_t h,
                    std::mt19937_64 &rng) {
    std::vector<void *> ptrs(kShared);
    std::vector<RelIpcData> data(kShared);
    for (int i = 0; i < kShared; i++) {
        ASSERT_EQ(umfMemoryProviderAlloc(h, kRelSharedSize, 0,
                                         &ptrs[static_cast<size_t>(i)]),
                  UMF_RESULT_SUCCESS);
        ASSERT_TRUE(umf_test_gpu_fill(g, nullptr, ptrs[static_cast<size_t>(i)],
                                      kRelSharedSize, rel_shared_seed(i)));
        ASSERT_EQ(umfMemoryProviderGetIPCHandle(
                      h, ptrs[static_cast<size_t>(i)], kRelSharedSize,
                      data[static_cast<size_t>(i)].bytes),
                  UMF_RESULT_SUCCESS);
    }
    umf_test_child_t child;
    std::string k = std::to_string(static_cast<int>(g->kind));
    const char *args[] = {k.c_str(), nullptr};
    ASSERT_EQ(umf_test_child_start(&child, "pf_consumer", args), 0);
    int steps = static_cast<int>(rng() % (kShared + 1));
    for (int i = 0; i < kShared; i++) {
        if (umf_test_send(child.sock, &data[static_cast<size_t>(i)],
                          sizeof(RelIpcData)) != 0) {
            break;
        }
        if (i >= steps) {
            break; // killed while it opens this one
        }
        Ack ack = {0};
        ASSERT_EQ(umf_test_recv(child.sock, &ack, sizeof(ack)), 0);
        EXPECT_EQ(ack.ok, 1) << "the consumer read wrong data from " << i;
    }
    kill_later(rng, &child);
    for (int i = 0; i < kShared; i++) {
        EXPECT_TRUE(umf_test_gpu_check(g, nullptr, ptrs[static_cast<size_t>(i)],
                                       kRelSharedSize, rel_shared_seed(i)))
            << "allocation " << i << " lost its data";
        EXPECT_EQ(umfMemoryProviderPutIPCHandle(
                      h, data[static_cast<size_t>(i)].bytes),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(umfMemoryProviderFree(h, ptrs[static_cast<size_t>(i)],
                                        kRelSharedSize),
                  UMF_RESULT_SUCCESS);
    }
}

// The provider still allocates, shares with itself and frees.
void check_working(const umf_test_gpu_t *g, umf_memory_provider_handle_t h) {
    void *p = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 8192, 0, &p), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(umf_test_gpu_fill(g, nullptr, p, 8192, 3));
    RelIpcData d;
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(h, p, 8192, d.bytes),
              UMF_RESULT_SUCCESS);
    void *q = nullptr;
    EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, d.bytes, &q),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(q, p);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, q, 8192), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, d.bytes), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(umf_test_gpu_check(g, nullptr, p, 8192, 3));
    EXPECT_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
}

TEST(ProcessFaults, SigkillAtRandomPointsOfAnIpcExchange) {
    std::vector<umf_test_gpu_kind_t> kinds = gpu_kinds();
    ASSERT_FALSE(kinds.empty());
    std::mt19937_64 rng(rel_seed() ^ 0x9f0c);
    struct Side {
        const umf_test_gpu_t *g;
        umf_memory_provider_handle_t h;
        void *own; // held through every round
        Counts base;
    };
    std::vector<Side> sides;
    for (umf_test_gpu_kind_t kind : kinds) {
        const umf_test_gpu_t *g = umf_test_gpu(kind);
        GPU_REQUIRE_EMULATED(g);
        Side s = {g, gpu_provider_or_null(g), nullptr, {}};
        ASSERT_NE(s.h, nullptr);
        ASSERT_EQ(umfMemoryProviderAlloc(s.h, kRelSharedSize, 0, &s.own),
                  UMF_RESULT_SUCCESS);
        ASSERT_TRUE(umf_test_gpu_fill(g, nullptr, s.own, kRelSharedSize, 77));
        // One round of each side first: the driver makes what it keeps for
        // the process's life (arenas, caches) before the counts are taken.
        int opened = 0;
        std::mt19937_64 warm(1);
        consumer_round(g, s.h, warm, &opened);
        producer_round(g, s.h, warm);
        sides.push_back(s);
    }
    for (Side &s : sides) {
        s.base = counts(s.g);
    }

    int rounds = 0, opened = 0;
    for (int r = 0; r < kRounds; r++) {
        Side &s = sides[static_cast<size_t>(r) % sides.size()];
        bool consumer = (r / sides.size()) % 2 == 0;
        SCOPED_TRACE(std::string(s.g->name) + " round " + std::to_string(r) +
                     (consumer ? ": producer killed" : ": consumer killed"));
        if (consumer) {
            consumer_round(s.g, s.h, rng, &opened);
        } else {
            producer_round(s.g, s.h, rng);
        }
        rounds++;
        Counts now = counts(s.g);
        EXPECT_TRUE(now == s.base)
            << "after the round: " << show(now) << "; before: " << show(s.base);
        EXPECT_TRUE(umf_test_gpu_check(s.g, nullptr, s.own, kRelSharedSize, 77))
            << "the survivor's own allocation changed";
        check_working(s.g, s.h);
        if (HasFailure()) {
            break;
        }
    }
    for (Side &s : sides) {
        umf_gpu_provider_stats_t st;
        EXPECT_EQ(umfGpuMemoryProviderGetStats(s.h, &st), UMF_RESULT_SUCCESS);
        EXPECT_EQ(st.ipc_handles_open, 0u);
        EXPECT_EQ(st.ipc_handles_exported, 0u);
        EXPECT_EQ(umfMemoryProviderFree(s.h, s.own, kRelSharedSize),
                  UMF_RESULT_SUCCESS);
        umfMemoryProviderDestroy(s.h);
    }
    std::printf("process faults: %d rounds (%zu providers, producer and "
                "consumer killed in turn), %d mappings of killed producers "
                "checked\n",
                rounds, sides.size(), opened);
    EXPECT_EQ(rounds, kRounds);
}

} // namespace
