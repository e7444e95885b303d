// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ownership module (ownership.h): the one set of rules both providers
// apply to free, split, merge and lookups, on fake driver addresses (never
// dereferenced), with residency against a model of the devices' state.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "ownership.h"
}

namespace {

char *A(uintptr_t a) {
    return reinterpret_cast<char *>(a);
}

class Ownership : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_ownership_init(&o, "test provider", nullptr, nullptr),
                  UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_ownership_fini(&o);
    }
    // A free the driver carries out: the bytes counted, or -1 if refused.
    long long free_ok(void *ptr, size_t size, void **driver = nullptr) {
        umf_ownership_free_t f;
        if (umf_ownership_free_begin(&o, ptr, size, &f) != UMF_RESULT_SUCCESS) {
            return -1;
        }
        if (driver != nullptr) {
            *driver = f.driver_base;
        }
        umf_ownership_free_end(&o, &f, true);
        return (long long)f.size;
    }
    umf_ownership_t o;
    char *const base = A(0x40000000);
};

TEST_F(Ownership, FreeChecksPointerAndSize) {
    ASSERT_EQ(umf_ownership_add(&o, base, 65536), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ownership_add(&o, base, 65536), UMF_RESULT_ERROR_UNKNOWN)
        << "the driver returned a live address";
    EXPECT_EQ(free_ok(base, 1), -1) << "a wrong size changes nothing";
    EXPECT_EQ(free_ok(base, 65535), -1);
    EXPECT_EQ(free_ok(base + 64, 0), -1) << "an interior pointer";
    EXPECT_EQ(free_ok(A(0x50000000), 0), -1) << "not this provider's";
    EXPECT_EQ(umf_ownership_count(&o), 1u);
    void *driver = nullptr;
    EXPECT_EQ(free_ok(base, 0, &driver), 65536) << "0: the recorded size";
    EXPECT_EQ(driver, base);
    EXPECT_EQ(free_ok(base, 65536), -1) << "a second free";
    EXPECT_EQ(umf_ownership_count(&o), 0u);
}

TEST_F(Ownership, TwoRecordsNeverShare) {
    umf_ownership_t other;
    ASSERT_EQ(umf_ownership_init(&other, "other", nullptr, nullptr),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umf_ownership_add(&other, base, 100), UMF_RESULT_SUCCESS);
    EXPECT_EQ(free_ok(base, 100), -1) << "another provider's allocation";
    umf_alloc_piece_info_t piece;
    EXPECT_EQ(umf_ownership_find(&o, base, base, &piece),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ownership_split(&o, base, 100, 50),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_ownership_free_t f;
    ASSERT_EQ(umf_ownership_free_begin(&other, base, 100, &f),
              UMF_RESULT_SUCCESS);
    umf_ownership_free_end(&other, &f, true);
    umf_ownership_fini(&other);
}

TEST_F(Ownership, ARefusedFreeLeavesEverythingAsItWas) {
    ASSERT_EQ(umf_ownership_add(&o, base, 4096), UMF_RESULT_SUCCESS);
    umf_ownership_free_t f;
    ASSERT_EQ(umf_ownership_free_begin(&o, base, 4096, &f), UMF_RESULT_SUCCESS);
    umf_ownership_free_end(&o, &f, false); // the driver refused
    EXPECT_EQ(umf_ownership_count(&o), 1u);
    EXPECT_EQ(free_ok(base, 4096), 4096);
}

TEST_F(Ownership, FindTellsWhatWasHandedOut) {
    ASSERT_EQ(umf_ownership_add(&o, base, 1000), UMF_RESULT_SUCCESS);
    umf_alloc_piece_info_t piece;
    ASSERT_EQ(umf_ownership_find(&o, base, base + 999, &piece),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(piece.ptr, base);
    EXPECT_EQ(piece.size, 1000u);
    EXPECT_EQ(umf_ownership_find(&o, base, base + 1000, &piece),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "past the size asked for, though the driver rounded it up";
    EXPECT_EQ(umf_ownership_find(&o, nullptr, base, &piece),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(free_ok(base, 1000), 1000);
    EXPECT_EQ(umf_ownership_find(&o, base, base, &piece),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "freed";
}

TEST_F(Ownership, SplitAndMergeCheckTheirTotals) {
    ASSERT_EQ(umf_ownership_add(&o, base, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ownership_split(&o, base, 2048, 1024),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "a total smaller than the allocation";
    EXPECT_EQ(umf_ownership_split(&o, base, 8192, 1024),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ownership_split(&o, base, 4096, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ownership_split(&o, base, 4096, 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ownership_split(&o, base + 64, 4032, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "an interior pointer";
    ASSERT_EQ(umf_ownership_split(&o, base, 4096, 1024), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umf_ownership_split(&o, base + 1024, 3072, 1024),
              UMF_RESULT_SUCCESS);
    // base: 1024, base+1024: 1024, base+2048: 2048.
    EXPECT_EQ(free_ok(base, 4096), -1) << "now a piece of 1024 bytes";
    EXPECT_EQ(umf_ownership_merge(&o, base, base + 2048, 3072),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "not adjacent";
    EXPECT_EQ(umf_ownership_merge(&o, base, base + 1024, 4096),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "a wrong total";
    EXPECT_EQ(umf_ownership_merge(&o, base + 1024, base, 2048),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "out of order";
    ASSERT_EQ(umf_ownership_merge(&o, base + 1024, base + 2048, 3072),
              UMF_RESULT_SUCCESS);

    umf_alloc_piece_info_t piece;
    ASSERT_EQ(umf_ownership_find(&o, base, base + 3000, &piece),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(piece.ptr, base + 1024);
    EXPECT_EQ(piece.size, 3072u);

    void *driver = A(1);
    EXPECT_EQ(free_ok(base, 0, &driver), 1024);
    EXPECT_EQ(driver, nullptr) << "the other piece keeps the allocation";
    EXPECT_EQ(free_ok(base, 0), -1) << "the first piece, a second time";
    EXPECT_EQ(umf_ownership_find(&o, base, base + 10, &piece),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "in the freed piece";
    EXPECT_EQ(umf_ownership_count(&o), 1u);
    EXPECT_EQ(free_ok(base + 1024, 3072, &driver), 3072);
    EXPECT_EQ(driver, base) << "the last piece frees the allocation";
    EXPECT_EQ(umf_ownership_count(&o), 0u);
    EXPECT_EQ(umf_ownership_merge(&o, base, base + 1024, 2048),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(Ownership, TheLastPieceComesBackIfTheDriverRefuses) {
    ASSERT_EQ(umf_ownership_add(&o, base, 4096), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umf_ownership_split(&o, base, 4096, 1024), UMF_RESULT_SUCCESS);
    EXPECT_EQ(free_ok(base + 1024, 3072), 3072);
    umf_ownership_free_t f;
    ASSERT_EQ(umf_ownership_free_begin(&o, base, 1024, &f), UMF_RESULT_SUCCESS);
    EXPECT_EQ(f.driver_base, base);
    umf_ownership_free_end(&o, &f, false);
    EXPECT_EQ(umf_ownership_count(&o), 1u);
    EXPECT_EQ(free_ok(base, 1024), 1024);
    EXPECT_EQ(umf_ownership_count(&o), 0u);
}

TEST_F(Ownership, OffsetAllocations) {
    // An over-aligned allocation: handed out 256 bytes into its driver
    // allocation.
    EXPECT_EQ(umf_ownership_add_offset(&o, base + 8192, 4096, base, 8192),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "outside";
    ASSERT_EQ(umf_ownership_add_offset(&o, base + 256, 4096, base, 8192),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(free_ok(base, 0), -1) << "the driver's base was not handed out";
    umf_alloc_piece_info_t piece;
    EXPECT_EQ(umf_ownership_find(&o, base, base + 10, &piece),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the slack before it";
    ASSERT_EQ(umf_ownership_find(&o, base, base + 300, &piece),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(piece.ptr, base + 256);
    EXPECT_EQ(piece.driver_size, 8192u);
    EXPECT_EQ(free_ok(base + 256, 100), -1);
    void *driver = nullptr;
    EXPECT_EQ(free_ok(base + 256, 0, &driver), 4096);
    EXPECT_EQ(driver, base);
    EXPECT_EQ(umf_ownership_count(&o), 0u);
}

// Two threads race to free each of many allocations (and a third to free
// them with a wrong size): each is freed exactly once.
TEST_F(Ownership, ConcurrentDoubleFreesFreeOnce) {
    const uintptr_t n = 20000;
    for (uintptr_t i = 0; i < n; i++) {
        ASSERT_EQ(umf_ownership_add(&o, base + i * 4096, 64 + i % 7),
                  UMF_RESULT_SUCCESS);
    }
    std::atomic<uint64_t> freed{0}, bytes{0};
    auto racer = [&](bool wrong) {
        for (uintptr_t i = 0; i < n; i++) {
            size_t size = wrong ? 63 : (i % 2 ? 0 : 64 + i % 7);
            long long got = free_ok(base + i * 4096, size);
            if (got >= 0) {
                EXPECT_FALSE(wrong);
                freed.fetch_add(1);
                bytes.fetch_add((uint64_t)got);
            }
        }
    };
    std::thread a(racer, false), b(racer, false), c(racer, true);
    a.join();
    b.join();
    c.join();
    uint64_t expect_bytes = 0;
    for (uintptr_t i = 0; i < n; i++) {
        expect_bytes += 64 + i % 7;
    }
    EXPECT_EQ(freed.load(), n);
    EXPECT_EQ(bytes.load(), expect_bytes) << "the recorded sizes, exactly";
    EXPECT_EQ(umf_ownership_count(&o), 0u);
}

// ---- Residency --------------------------------------------------------------

// The devices' state as a driver would keep it, and the provider's lists
// by generation parity.
struct Devices {
    std::mutex lock;
    std::map<uintptr_t, std::set<int>> resident; // allocation -> devices
    std::vector<int> list[2];
    int changing = -1; // the device of the running change
    bool adding = false;
    std::function<void()> during; // called once in the middle of a walk
    size_t visits = 0;
};

umf_result_t apply(void *arg, void *ptr, size_t size, uint64_t gen) {
    (void)size;
    auto *d = static_cast<Devices *>(arg);
    std::lock_guard<std::mutex> g(d->lock);
    for (int dev : d->list[gen & 1]) {
        d->resident[(uintptr_t)ptr].insert(dev);
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t change(void *arg, uint64_t key, uint64_t size) {
    (void)size;
    auto *d = static_cast<Devices *>(arg);
    std::function<void()> during;
    {
        std::lock_guard<std::mutex> g(d->lock);
        if (d->adding) {
            d->resident[key].insert(d->changing);
        } else {
            d->resident[key].erase(d->changing);
        }
        if (++d->visits == 100) {
            during.swap(d->during);
        }
    }
    if (during) {
        during(); // no table lock is held here
    }
    return UMF_RESULT_SUCCESS;
}

class OwnershipResidency : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_ownership_init(&o, "test provider", apply, &d),
                  UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_ownership_fini(&o);
    }
    // What a provider's resident device change does.
    void change_device(int dev, bool adding) {
        uint64_t next = o.table.gen + 1;
        d.list[next & 1] = d.list[o.table.gen & 1];
        if (adding) {
            d.list[next & 1].push_back(dev);
        } else {
            auto &l = d.list[next & 1];
            l.erase(std::find(l.begin(), l.end(), dev));
        }
        d.changing = dev;
        d.adding = adding;
        d.visits = 0;
        ASSERT_EQ(umf_ownership_residency_begin(&o), next);
        ASSERT_EQ(umf_ownership_residency_walk(&o, change, &d),
                  UMF_RESULT_SUCCESS);
        umf_ownership_residency_end(&o, !d.list[next & 1].empty());
    }
    // Every live allocation is resident exactly on the current list.
    void expect_resident(const std::set<uintptr_t> &live) {
        std::set<int> want(d.list[o.table.gen & 1].begin(),
                           d.list[o.table.gen & 1].end());
        for (uintptr_t a : live) {
            EXPECT_EQ(d.resident[a], want) << std::hex << a;
        }
    }
    umf_ownership_t o;
    Devices d;
    char *const base = A(0x40000000);
};

// Allocations made and freed while a change runs (in the middle of its
// walk, at a fixed point): every allocation ends resident on the devices of
// the final list, whichever side of the walk it was on.
TEST_F(OwnershipResidency, AllocationsDuringAChangeGetTheNewResidency) {
    std::set<uintptr_t> live;
    uintptr_t next = 0;
    auto alloc = [&] {
        uintptr_t a = (uintptr_t)base + (next++) * 4096;
        ASSERT_EQ(umf_ownership_add(&o, (void *)a, 64), UMF_RESULT_SUCCESS);
        live.insert(a);
    };
    auto free_some = [&](size_t n) {
        for (size_t i = 0; i < n && !live.empty(); i++) {
            uintptr_t a = *live.begin();
            umf_ownership_free_t f;
            ASSERT_EQ(umf_ownership_free_begin(&o, (void *)a, 64, &f),
                      UMF_RESULT_SUCCESS);
            umf_ownership_free_end(&o, &f, true);
            live.erase(a);
            std::lock_guard<std::mutex> g(d.lock);
            d.resident.erase(a);
        }
    };
    for (int i = 0; i < 1000; i++) {
        alloc();
    }
    for (int round = 0; round < 4; round++) {
        int dev = round % 2; // add 0, add 1, remove 0, remove 1
        bool adding = round < 2;
        // From another thread, as a pool's user would, while the walk is
        // stopped in the middle: 50 allocations, then 30 frees (which may
        // wait for the walk's batch, so the walk goes on meanwhile).
        std::thread other;
        std::atomic<bool> allocated{false};
        d.during = [&] {
            other = std::thread([&] {
                for (int i = 0; i < 50; i++) {
                    alloc();
                }
                allocated.store(true);
                free_some(30);
            });
            while (!allocated.load()) {
                std::this_thread::yield();
            }
        };
        change_device(dev, adding);
        EXPECT_TRUE(d.during == nullptr) << "the walk reached the middle";
        other.join();
        expect_resident(live);
    }
    EXPECT_TRUE(d.list[o.table.gen & 1].empty());
    free_some(live.size());
}

} // namespace
