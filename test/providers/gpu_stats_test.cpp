// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The sharded provider counters: exact sums, exact peak for one thread, the
// documented bound with several, the overflow shard, and slot reuse.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "gpu_stats.h"
}

namespace {

class GpuStats : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_gpu_stats_init(&stats), UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_gpu_stats_fini(&stats);
    }
    umf_gpu_provider_stats_t read() {
        umf_gpu_provider_stats_t s;
        umf_gpu_stats_read(&stats, &s);
        return s;
    }
    umf_gpu_stats_t stats;
};

TEST_F(GpuStats, StartsAtZero) {
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.peak_bytes, 0u);
    EXPECT_EQ(s.alloc_count, 0u);
    EXPECT_EQ(s.free_count, 0u);
    EXPECT_EQ(s.ipc_handles_exported, 0u);
    EXPECT_EQ(s.ipc_handles_open, 0u);
    EXPECT_EQ(s.ipc_cache_hits, 0u);
    EXPECT_EQ(s.ipc_cache_misses, 0u);
}

// Random sizes around and far beyond the flush threshold; the peak is exact.
TEST_F(GpuStats, OneThreadIsExact) {
    std::mt19937_64 rng(7);
    std::vector<size_t> live;
    uint64_t now = 0, peak = 0, allocs = 0, frees = 0;
    for (int i = 0; i < 20000; i++) {
        if (live.empty() || rng() % 5 < 3) {
            size_t size = rng() % 4 == 0 ? rng() % (8u << 20) : rng() % 4096;
            umf_gpu_stats_on_alloc(&stats, size);
            live.push_back(size);
            now += size;
            allocs++;
            peak = std::max(peak, now);
        } else {
            size_t at = rng() % live.size();
            umf_gpu_stats_on_free(&stats, live[at]);
            now -= live[at];
            live[at] = live.back();
            live.pop_back();
            frees++;
        }
        if (i % 997 == 0) {
            umf_gpu_provider_stats_t s = read();
            ASSERT_EQ(s.allocated_bytes, now);
            ASSERT_EQ(s.peak_bytes, peak);
        }
    }
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.allocated_bytes, now);
    EXPECT_EQ(s.peak_bytes, peak);
    EXPECT_EQ(s.alloc_count, allocs);
    EXPECT_EQ(s.free_count, frees);
}

TEST_F(GpuStats, EventsAreCountedNet) {
    UMF_GPU_STATS_EVENT(&stats, ipc_exported, 1);
    UMF_GPU_STATS_EVENT(&stats, ipc_exported, 1);
    UMF_GPU_STATS_EVENT(&stats, ipc_exported, -1);
    UMF_GPU_STATS_EVENT(&stats, ipc_open, 1);
    UMF_GPU_STATS_EVENT(&stats, cache_hits, 1);
    UMF_GPU_STATS_EVENT(&stats, cache_misses, 1);
    UMF_GPU_STATS_EVENT(&stats, cache_misses, 1);
    // A put in another thread than the get: that thread's shard goes
    // negative, the sum stays right.
    std::thread([this] { UMF_GPU_STATS_EVENT(&stats, ipc_open, -1); }).join();
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.ipc_handles_exported, 1u);
    EXPECT_EQ(s.ipc_handles_open, 0u);
    EXPECT_EQ(s.ipc_cache_hits, 1u);
    EXPECT_EQ(s.ipc_cache_misses, 2u);
}

// Threads allocate and free concurrently, some freeing what others
// allocated. Totals are exact once they are done; the peak is within the
// documented bound of the true one, which lies between the highest level of
// any one thread and the sum of the threads' own peaks.
TEST_F(GpuStats, ThreadsSumExactlyAndBoundThePeak) {
    constexpr int kThreads = 8;
    std::vector<uint64_t> own_peak(kThreads), allocs(kThreads);
    std::vector<std::thread> threads;
    std::atomic<size_t> handed_over{0};
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(100 + t);
            std::vector<size_t> live;
            uint64_t now = 0, peak = 0;
            for (int i = 0; i < 20000; i++) {
                if (live.empty() || rng() % 2 == 0) {
                    size_t size = rng() % 65536;
                    umf_gpu_stats_on_alloc(&stats, size);
                    live.push_back(size);
                    now += size;
                    peak = std::max(peak, now);
                    allocs[t]++;
                } else {
                    umf_gpu_stats_on_free(&stats, live.back());
                    now -= live.back();
                    live.pop_back();
                }
            }
            own_peak[t] = peak;
            // Leave the rest to be freed by the main thread.
            size_t rest = 0;
            for (size_t s : live) {
                rest += s;
            }
            handed_over += rest;
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    umf_gpu_provider_stats_t s = read();
    uint64_t total_allocs = 0, max_own = 0, sum_own = 0;
    for (int t = 0; t < kThreads; t++) {
        total_allocs += allocs[t];
        max_own = std::max(max_own, own_peak[t]);
        sum_own += own_peak[t];
    }
    EXPECT_EQ(s.allocated_bytes, handed_over.load());
    EXPECT_EQ(s.alloc_count, total_allocs);
    const uint64_t bound = (kThreads + 1) * UMF_GPU_STATS_FLUSH_BYTES;
    EXPECT_GE(s.peak_bytes + bound, max_own);
    EXPECT_LE(s.peak_bytes, sum_own + bound);
    umf_gpu_stats_on_free(&stats, handed_over.load());
    EXPECT_EQ(read().allocated_bytes, 0u);
}

// More threads alive at once than slots: the rest share the overflow shard,
// and the sums stay exact.
TEST_F(GpuStats, MoreThreadsThanSlotsShareTheOverflowShard) {
    constexpr int kThreads = UMF_GPU_STATS_SLOTS + 16;
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::atomic<int> overflowed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&] {
            umf_gpu_stats_on_alloc(&stats, 10); // takes a slot
            if (umf_gpu_stats_slot > UMF_GPU_STATS_SLOTS) {
                overflowed++;
            }
            ready++;
            while (!go.load()) {
                std::this_thread::yield();
            }
            for (int i = 0; i < 1000; i++) {
                umf_gpu_stats_on_alloc(&stats, 3 << 20);
                umf_gpu_stats_on_free(&stats, 3 << 20);
            }
            UMF_GPU_STATS_EVENT(&stats, cache_hits, 1);
        });
    }
    while (ready.load() < kThreads) {
        std::this_thread::yield();
    }
    go = true;
    for (auto &th : threads) {
        th.join();
    }
    EXPECT_GE(overflowed.load(), kThreads - UMF_GPU_STATS_SLOTS);
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.allocated_bytes, 10u * kThreads);
    EXPECT_EQ(s.alloc_count, 1001u * kThreads);
    EXPECT_EQ(s.free_count, 1000u * kThreads);
    EXPECT_EQ(s.ipc_cache_hits, static_cast<uint64_t>(kThreads));
    EXPECT_GE(s.peak_bytes, (3u << 20) + 10u);
}

// One thread at a time, but not always the same: the shard a thread left
// its bytes in does not hide the peak of the next one.
TEST_F(GpuStats, OneThreadAtATimeIsExact) {
    std::thread([&] { umf_gpu_stats_on_alloc(&stats, 100); }).join();
    umf_gpu_stats_on_alloc(&stats, 50);
    umf_gpu_stats_on_free(&stats, 50);
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.allocated_bytes, 100u);
    EXPECT_EQ(s.peak_bytes, 150u);
}

// stats.peak_memory.reset: the peak becomes what is allocated, whichever
// shards hold it, and goes on from there; over flushes too.
TEST_F(GpuStats, AResetPeakIsWhatIsAllocated) {
    std::thread([&] { umf_gpu_stats_on_alloc(&stats, 100); }).join();
    umf_gpu_stats_on_alloc(&stats, 300);
    umf_gpu_stats_on_free(&stats, 360); // this shard below zero
    EXPECT_EQ(read().peak_bytes, 400u);
    umf_gpu_stats_reset_peak(&stats);
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.allocated_bytes, 40u);
    EXPECT_EQ(s.peak_bytes, 40u);
    umf_gpu_stats_on_alloc(&stats, 10);
    umf_gpu_stats_on_free(&stats, 30);
    EXPECT_EQ(read().peak_bytes, 50u);
    umf_gpu_stats_reset_peak(&stats);
    EXPECT_EQ(read().peak_bytes, 20u);
}

TEST_F(GpuStats, AResetPeakGoesOnOverFlushes) {
    umf_gpu_stats_on_alloc(&stats, 3u << 20); // flushed
    umf_gpu_stats_on_free(&stats, 3u << 20);
    umf_gpu_stats_on_alloc(&stats, 100);
    EXPECT_EQ(read().peak_bytes, 3u << 20);
    umf_gpu_stats_reset_peak(&stats);
    EXPECT_EQ(read().peak_bytes, 100u);
    umf_gpu_stats_on_alloc(&stats, 2u << 20); // a flush after the reset
    umf_gpu_stats_on_free(&stats, 2u << 20);
    EXPECT_EQ(read().peak_bytes, (2u << 20) + 100u);
    umf_gpu_stats_reset_peak(&stats);
    EXPECT_EQ(read().peak_bytes, 100u);
}

TEST_F(GpuStats, ExitedThreadsGiveTheirSlotsBack) {
    // Far more short-lived threads than slots, one after the other: each
    // finds a slot of its own.
    for (int t = 0; t < 3 * UMF_GPU_STATS_SLOTS; t++) {
        unsigned slot = 0;
        std::thread([&] {
            umf_gpu_stats_on_alloc(&stats, 1);
            slot = umf_gpu_stats_slot;
        }).join();
        ASSERT_GE(slot, 1u);
        ASSERT_LE(slot, static_cast<unsigned>(UMF_GPU_STATS_SLOTS)) << t;
    }
    EXPECT_EQ(read().allocated_bytes, 3u * UMF_GPU_STATS_SLOTS);
}

} // namespace
