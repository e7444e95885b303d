// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The registry of live driver allocations.

#include <atomic>
#include <cstdint>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "alloc_registry.h"
}

namespace {

void *P(uintptr_t a) {
    return reinterpret_cast<void *>(a);
}

class AllocRegistry : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_alloc_registry_init(&reg), UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_alloc_registry_fini(&reg);
    }
    umf_alloc_registry_t reg;
};

TEST_F(AllocRegistry, InsertLookupRemove) {
    size_t size = 0;
    EXPECT_FALSE(umf_alloc_registry_lookup(&reg, P(0x1000), &size));
    ASSERT_EQ(umf_alloc_registry_insert(&reg, P(0x1000), 64, nullptr, nullptr),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_alloc_registry_insert(&reg, P(0x1000), 32, nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "recorded twice";
    EXPECT_EQ(umf_alloc_registry_insert(&reg, nullptr, 32, nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_alloc_registry_insert(&reg, P(0x2000), 0, nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(umf_alloc_registry_lookup(&reg, P(0x1000), &size));
    EXPECT_EQ(size, 64u);
    EXPECT_FALSE(umf_alloc_registry_lookup(&reg, P(0x1008), nullptr))
        << "only bases are recorded";
    EXPECT_FALSE(umf_alloc_registry_lookup(&reg, nullptr, nullptr));
    EXPECT_FALSE(umf_alloc_registry_remove(&reg, nullptr, &size))
        << "NULL is never an entry (nor an empty slot)";
    EXPECT_EQ(umf_alloc_registry_count(&reg), 1u);
    size = 0;
    EXPECT_TRUE(umf_alloc_registry_remove(&reg, P(0x1000), &size));
    EXPECT_EQ(size, 64u);
    EXPECT_FALSE(umf_alloc_registry_remove(&reg, P(0x1000), &size));
    EXPECT_EQ(umf_alloc_registry_count(&reg), 0u);
}

TEST_F(AllocRegistry, FailingInsertHookRecordsNothing) {
    int calls = 0;
    auto hook = [](void *arg, void *base, size_t size) {
        ++*static_cast<int *>(arg);
        EXPECT_EQ(base, P(0x3000));
        EXPECT_EQ(size, 10u);
        return UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
    };
    EXPECT_EQ(umf_alloc_registry_insert(&reg, P(0x3000), 10, hook, &calls),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(calls, 1);
    EXPECT_FALSE(umf_alloc_registry_lookup(&reg, P(0x3000), nullptr));
}

TEST_F(AllocRegistry, WalksSeeEveryEntryInOneOrder) {
    for (uintptr_t i = 1; i <= 1000; i++) {
        ASSERT_EQ(
            umf_alloc_registry_insert(&reg, P(i * 4096), i, nullptr, nullptr),
            UMF_RESULT_SUCCESS);
    }
    std::vector<uintptr_t> first, second;
    auto collect = [](void *arg, void *base, size_t size) {
        EXPECT_EQ(size * 4096, reinterpret_cast<uintptr_t>(base));
        static_cast<std::vector<uintptr_t> *>(arg)->push_back(
            reinterpret_cast<uintptr_t>(base));
        return UMF_RESULT_SUCCESS;
    };
    umf_alloc_registry_lock_all(&reg);
    size_t visited = 0;
    EXPECT_EQ(umf_alloc_registry_walk_locked(&reg, collect, &first, SIZE_MAX,
                                             &visited),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(visited, 1000u);
    EXPECT_EQ(
        umf_alloc_registry_walk_locked(&reg, collect, &second, 300, &visited),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(visited, 300u);
    umf_alloc_registry_unlock_all(&reg);
    EXPECT_EQ(std::set<uintptr_t>(first.begin(), first.end()).size(), 1000u);
    ASSERT_EQ(second.size(), 300u);
    EXPECT_TRUE(std::equal(second.begin(), second.end(), first.begin()));

    // A failing visit stops the walk and tells how many came before.
    int budget = 10;
    auto fail_late = [](void *arg, void *, size_t) {
        return --*static_cast<int *>(arg) < 0
                   ? UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC
                   : UMF_RESULT_SUCCESS;
    };
    umf_alloc_registry_lock_all(&reg);
    EXPECT_EQ(umf_alloc_registry_walk_locked(&reg, fail_late, &budget, SIZE_MAX,
                                             &visited),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    umf_alloc_registry_unlock_all(&reg);
    EXPECT_EQ(visited, 10u);
}

// Threads insert and remove their own entries while another walks with
// every lock held: a walk sees each entry at most once, and no entry is lost.
TEST_F(AllocRegistry, ThreadsAndWalks) {
    constexpr int kThreads = 8, kRounds = 2000;
    std::atomic<bool> done{false};
    std::atomic<int> failures{0};
    std::thread walker([&] {
        while (!done.load()) {
            std::set<uintptr_t> seen;
            auto visit = [](void *arg, void *base, size_t) {
                auto *s = static_cast<std::set<uintptr_t> *>(arg);
                return s->insert(reinterpret_cast<uintptr_t>(base)).second
                           ? UMF_RESULT_SUCCESS
                           : UMF_RESULT_ERROR_UNKNOWN;
            };
            umf_alloc_registry_lock_all(&reg);
            if (umf_alloc_registry_walk_locked(&reg, visit, &seen, SIZE_MAX,
                                               nullptr) != UMF_RESULT_SUCCESS) {
                failures++;
            }
            umf_alloc_registry_unlock_all(&reg);
        }
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            for (int r = 0; r < kRounds; r++) {
                void *base = P((static_cast<uintptr_t>(t) << 32) +
                               static_cast<uintptr_t>(r % 64 + 1) * 64);
                if (umf_alloc_registry_insert(&reg, base, 64, nullptr,
                                              nullptr) != UMF_RESULT_SUCCESS ||
                    !umf_alloc_registry_remove(&reg, base, nullptr)) {
                    failures++;
                }
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    done = true;
    walker.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(umf_alloc_registry_count(&reg), 0u);
}

} // namespace
