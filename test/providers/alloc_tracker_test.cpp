// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Split/merge and over-alignment bookkeeping (the pieces part of the
// ownership module), on fake driver allocations.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "alloc_tracker.h"
}

namespace {

// Driver allocations: base -> size. Addresses are never dereferenced.
struct FakeDriver {
    std::mutex lock;
    std::map<uintptr_t, size_t> allocs;
    uintptr_t next = 0x10000000;

    uintptr_t alloc(size_t size) {
        std::lock_guard<std::mutex> g(lock);
        uintptr_t base = next;
        next += (size + 0xffff) & ~static_cast<uintptr_t>(0xffff);
        allocs[base] = size;
        return base;
    }
    void release(uintptr_t base) {
        std::lock_guard<std::mutex> g(lock);
        EXPECT_EQ(allocs.erase(base), 1u) << "released twice or unknown";
    }
    size_t live() {
        std::lock_guard<std::mutex> g(lock);
        return allocs.size();
    }
};

bool query(FakeDriver *d, const void *ptr, uintptr_t *base, size_t *size) {
    std::lock_guard<std::mutex> g(d->lock);
    auto addr = reinterpret_cast<uintptr_t>(ptr);
    auto it = d->allocs.upper_bound(addr);
    if (it == d->allocs.begin()) {
        return false;
    }
    --it;
    if (addr - it->first >= it->second) {
        return false;
    }
    *base = it->first;
    *size = it->second;
    return true;
}

void *P(uintptr_t a) {
    return reinterpret_cast<void *>(a);
}

class AllocTracker : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_alloc_tracker_init(&t), UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_alloc_tracker_fini(&t);
    }
    // Splits like the ownership module: a tracked piece, or else a whole
    // driver allocation of exactly `total` bytes.
    umf_result_t split(uintptr_t p, size_t total, size_t first) {
        bool tracked = false;
        umf_result_t ret =
            umf_alloc_tracker_split(&t, P(p), total, first, &tracked);
        if (tracked || first == 0 || first >= total) {
            return ret;
        }
        uintptr_t base = 0;
        size_t size = 0;
        if (!query(&drv, P(p), &base, &size) || base != p || size != total) {
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        return umf_alloc_tracker_split_whole(&t, P(p), total, first);
    }
    // Frees like a provider: a whole untracked allocation, or a piece whose
    // driver allocation goes when it was the last.
    umf_result_t freePiece(uintptr_t p, size_t size) {
        bool found, release;
        umf_alloc_piece_info_t info;
        umf_result_t ret =
            umf_alloc_tracker_remove(&t, P(p), size, &found, &release, &info);
        if (ret != UMF_RESULT_SUCCESS) {
            return ret;
        }
        if (!found) {
            drv.release(p);
        } else if (release) {
            drv.release(info.driver_base);
        }
        return UMF_RESULT_SUCCESS;
    }
    umf_alloc_tracker_t t;
    FakeDriver drv;
};

TEST_F(AllocTracker, UnusedTrackerLooksNothingUp) {
    EXPECT_FALSE(umf_alloc_tracker_in_use(&t));
    uintptr_t a = drv.alloc(4096);
    EXPECT_EQ(freePiece(a, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(drv.live(), 0u);
    umf_alloc_piece_info_t info;
    EXPECT_FALSE(umf_alloc_tracker_find(&t, a, P(a), &info));
    EXPECT_FALSE(umf_alloc_tracker_in_use(&t));
}

TEST_F(AllocTracker, SplitPiecesFreeInEveryOrder) {
    // Three splits make four pieces; all 24 orders of freeing them release
    // the driver allocation exactly once, with the last piece.
    std::vector<int> order = {0, 1, 2, 3};
    do {
        uintptr_t a = drv.alloc(4096);
        ASSERT_EQ(split(a, 4096, 1024), UMF_RESULT_SUCCESS);
        ASSERT_EQ(split(a + 1024, 3072, 1024), UMF_RESULT_SUCCESS);
        ASSERT_EQ(split(a + 2048, 2048, 1024), UMF_RESULT_SUCCESS);
        EXPECT_TRUE(umf_alloc_tracker_in_use(&t));
        for (size_t i = 0; i < order.size(); i++) {
            ASSERT_EQ(drv.live(), 1u);
            ASSERT_EQ(
                freePiece(a + 1024 * static_cast<uintptr_t>(order[i]), 1024),
                UMF_RESULT_SUCCESS);
        }
        ASSERT_EQ(drv.live(), 0u);
    } while (std::next_permutation(order.begin(), order.end()));
}

TEST_F(AllocTracker, MergeJoinsAdjacentPieces) {
    uintptr_t a = drv.alloc(4096);
    ASSERT_EQ(split(a, 4096, 1000), UMF_RESULT_SUCCESS);
    ASSERT_EQ(split(a + 1000, 3096, 96), UMF_RESULT_SUCCESS);
    // [a, 1000) [a+1000, 96) [a+1096, 3000)
    ASSERT_EQ(umf_alloc_tracker_merge(&t, P(a + 1000), P(a + 1096), 3096),
              UMF_RESULT_SUCCESS);
    umf_alloc_piece_info_t info;
    ASSERT_TRUE(umf_alloc_tracker_find(&t, a, P(a + 2000), &info));
    EXPECT_EQ(info.ptr, P(a + 1000));
    EXPECT_EQ(info.size, 3096u);
    EXPECT_EQ(info.driver_base, a);
    EXPECT_EQ(info.driver_size, 4096u);
    ASSERT_EQ(umf_alloc_tracker_merge(&t, P(a), P(a + 1000), 4096),
              UMF_RESULT_SUCCESS);
    ASSERT_TRUE(umf_alloc_tracker_find(&t, a, P(a + 4095), &info));
    EXPECT_EQ(info.ptr, P(a));
    EXPECT_EQ(info.size, 4096u);
    // The merged piece frees as a whole, releasing the driver allocation.
    EXPECT_EQ(freePiece(a, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(drv.live(), 0u);
}

TEST_F(AllocTracker, RejectsBadSplits) {
    uintptr_t a = drv.alloc(4096);
    EXPECT_EQ(split(a, 4096, 0), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(split(a, 4096, 4096), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(split(a, 4096, 5000), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(split(0, 4096, 10), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(split(a, 8192, 10), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "larger than the driver allocation";
    EXPECT_EQ(split(a + 64, 1024, 10), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "interior pointer";
    EXPECT_EQ(split(0x1000, 1024, 10), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "unknown pointer";
    bool tracked = true;
    EXPECT_EQ(umf_alloc_tracker_split(&t, P(a), 4096, 10, &tracked),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(split(UINTPTR_MAX - 10, 100, 10),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(split(a, 4096, 2048), UMF_RESULT_SUCCESS);
    EXPECT_EQ(split(a, 4096, 1024), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the piece has 2048 bytes now";
    EXPECT_EQ(split(a + 1024, 1024, 512), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "inside a tracked piece";
    EXPECT_EQ(freePiece(a, 0), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(a + 2048, 2048), UMF_RESULT_SUCCESS);
    EXPECT_EQ(drv.live(), 0u);
}

TEST_F(AllocTracker, RejectsBadMerges) {
    uintptr_t a = drv.alloc(4096), b = drv.alloc(4096);
    ASSERT_EQ(split(a, 4096, 1024), UMF_RESULT_SUCCESS);
    ASSERT_EQ(split(a + 1024, 3072, 1024), UMF_RESULT_SUCCESS);
    ASSERT_EQ(split(b, 4096, 2048), UMF_RESULT_SUCCESS);
    // Not adjacent.
    EXPECT_EQ(umf_alloc_tracker_merge(&t, P(a), P(a + 2048), 3072),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Wrong total.
    EXPECT_EQ(umf_alloc_tracker_merge(&t, P(a), P(a + 1024), 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Out of order.
    EXPECT_EQ(umf_alloc_tracker_merge(&t, P(a + 1024), P(a), 2048),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Different driver allocations.
    EXPECT_EQ(umf_alloc_tracker_merge(&t, P(a + 2048), P(b), 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Untracked or unknown pointers.
    uintptr_t c = drv.alloc(4096);
    EXPECT_EQ(umf_alloc_tracker_merge(&t, P(c), P(c + 1024), 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_alloc_tracker_merge(&t, nullptr, P(a), 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Nothing changed: every piece frees with its own size.
    EXPECT_EQ(freePiece(a, 1024), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(a + 1024, 1024), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(a + 2048, 2048), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(b, 2048), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(b + 2048, 2048), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(c, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(drv.live(), 0u);
}

TEST_F(AllocTracker, FreeWithWrongSizeChangesNothing) {
    uintptr_t a = drv.alloc(4096);
    ASSERT_EQ(split(a, 4096, 1024), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(a, 4096), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(freePiece(a, 1024), UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(a + 1024, 3072), UMF_RESULT_SUCCESS);
    EXPECT_EQ(drv.live(), 0u);
}

TEST_F(AllocTracker, OverAlignedPointerReleasesItsDriverBase) {
    uintptr_t a = drv.alloc(3 << 20);
    // The driver's base is 64 KiB aligned; the caller asked for 128 KiB.
    uintptr_t aligned = (a | 0x1ffff) + 1;
    ASSERT_NE(aligned, a);
    ASSERT_EQ(umf_alloc_tracker_add(&t, P(aligned), 1 << 20, a, 3 << 20),
              UMF_RESULT_SUCCESS);
    // Outside the driver allocation, or the driver allocation twice.
    EXPECT_EQ(umf_alloc_tracker_add(&t, P(a), 4 << 20, a, 3 << 20),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_alloc_tracker_add(&t, P(a), 64, a, 3 << 20),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_alloc_tracker_add(&t, nullptr, 64, a, 3 << 20),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_alloc_piece_info_t info;
    ASSERT_TRUE(umf_alloc_tracker_find(&t, a, P(aligned + 5), &info));
    EXPECT_EQ(info.ptr, P(aligned));
    EXPECT_FALSE(umf_alloc_tracker_find(&t, a, P(a), &info))
        << "below the handed-out pointer";
    // An over-aligned allocation splits like any other piece.
    ASSERT_EQ(split(aligned, 1 << 20, 4096), UMF_RESULT_SUCCESS);
    bool found, release;
    ASSERT_EQ(umf_alloc_tracker_remove(&t, P(aligned + 4096), 0, &found,
                                       &release, &info),
              UMF_RESULT_SUCCESS);
    EXPECT_TRUE(found);
    EXPECT_FALSE(release);
    ASSERT_EQ(
        umf_alloc_tracker_remove(&t, P(aligned), 4096, &found, &release, &info),
        UMF_RESULT_SUCCESS);
    EXPECT_TRUE(found);
    EXPECT_TRUE(release);
    EXPECT_EQ(info.driver_base, a);
    EXPECT_EQ(info.driver_size, 3u << 20);
    // Put back after a failed driver free, it can be freed again.
    ASSERT_EQ(umf_alloc_tracker_add(&t, P(aligned), 4096, a, 3 << 20),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(freePiece(aligned, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(drv.live(), 0u);
}

TEST_F(AllocTracker, FiniForgetsLivePieces) {
    uintptr_t a = drv.alloc(4096);
    ASSERT_EQ(split(a, 4096, 100), UMF_RESULT_SUCCESS);
    // TearDown's fini must free the records (ASan would report them).
    drv.release(a);
}

// Threads split, merge and free their own allocations in random orders and
// hand pieces to each other; every driver allocation is released once.
TEST_F(AllocTracker, ThreadsSplitMergeAndFreeConcurrently) {
    constexpr int kThreads = 8, kRounds = 300;
    std::mutex handoff_lock;
    std::vector<std::pair<uintptr_t, size_t>> handoff;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int th = 0; th < kThreads; th++) {
        threads.emplace_back([&, th] {
            std::mt19937 rng(th);
            for (int r = 0; r < kRounds; r++) {
                uintptr_t a = drv.alloc(8192);
                // Cut into 8 pieces of 1 KiB, merge a random adjacent pair.
                for (int i = 0; i < 7; i++) {
                    if (split(a + 1024 * i, 8192 - 1024 * i, 1024) !=
                        UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                }
                std::vector<std::pair<uintptr_t, size_t>> pieces;
                int m = static_cast<int>(rng() % 7);
                for (int i = 0; i < 8; i++) {
                    if (i == m) {
                        if (umf_alloc_tracker_merge(
                                &t, P(a + 1024 * i), P(a + 1024 * (i + 1)),
                                2048) != UMF_RESULT_SUCCESS) {
                            failures++;
                        }
                        pieces.emplace_back(a + 1024 * i, 2048);
                        i++;
                    } else {
                        pieces.emplace_back(a + 1024 * i, 1024);
                    }
                }
                std::shuffle(pieces.begin(), pieces.end(), rng);
                {
                    // One piece goes to whoever frees the hand-off pile.
                    std::lock_guard<std::mutex> g(handoff_lock);
                    handoff.push_back(pieces.back());
                }
                pieces.pop_back();
                for (auto &p : pieces) {
                    if (freePiece(p.first, p.second) != UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                }
                std::vector<std::pair<uintptr_t, size_t>> mine;
                {
                    std::lock_guard<std::mutex> g(handoff_lock);
                    if (handoff.size() > 4) {
                        mine.swap(handoff);
                    }
                }
                for (auto &p : mine) {
                    if (freePiece(p.first, p.second) != UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                }
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    for (auto &p : handoff) {
        EXPECT_EQ(freePiece(p.first, p.second), UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(drv.live(), 0u);
}

} // namespace
