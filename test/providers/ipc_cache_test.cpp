// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The cache of opened IPC handles, with fake map/unmap callbacks that hand
// out host memory and count what they do.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "ipc_cache.h"
}

namespace {

constexpr umf_gpu_provider_kind_t kZe = UMF_GPU_PROVIDER_KIND_LEVEL_ZERO;
constexpr umf_gpu_provider_kind_t kCuda = UMF_GPU_PROVIDER_KIND_CUDA;

// What the fake driver did; one per test.
struct FakeDriver {
    std::atomic<int> maps{0};
    std::atomic<int> unmaps{0};
    std::atomic<int> live{0};     // mappings alive now
    std::atomic<int> max_live{0}; // the most alive at once
    std::atomic<int> fail_map{0}; // fail the next n maps
    std::atomic<int> fail_unmap{0};
    std::atomic<int> map_delay_us{0};
    std::atomic<int> live_per_id[8] = {}; // by alloc id % 8
    std::atomic<int> twice{0};            // a key mapped while mapped
};

struct KeyedMapArg {
    FakeDriver *driver;
    uint64_t alloc_id;
    size_t size;        // what the fake driver maps
    void *alias;        // if not NULL: what it returns instead of mapping
    bool local = false; // the producer's own memory (unmapped by nothing)
};

// A pointer the fake driver hands out for several keys: a driver aliasing
// two exports, or the producer's own memory.
constexpr uint64_t kAliasCookie = 0xa11a5;

FakeDriver *g_driver; // the unmap callback gets no argument but the key

umf_result_t fakeMap(void *arg, umf_ipc_cache_mapping_t *m, size_t size) {
    auto *d = static_cast<FakeDriver *>(arg);
    if (d->map_delay_us.load() > 0) {
        std::this_thread::sleep_for(
            std::chrono::microseconds(d->map_delay_us.load()));
    }
    if (d->fail_map.load() > 0) {
        d->fail_map--;
        return UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
    }
    m->base = std::malloc(size);
    if (m->base == nullptr) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    m->size = size;
    m->cookie = 0xc0ffee;
    d->maps++;
    int now = ++d->live;
    int prev = d->max_live.load();
    while (now > prev && !d->max_live.compare_exchange_weak(prev, now)) {
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t fakeUnmap(const umf_ipc_cache_key_t *key,
                       const umf_ipc_cache_mapping_t *m) {
    if (g_driver->fail_unmap.load() > 0) {
        g_driver->fail_unmap--;
        return UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
    }
    if (m->cookie != kAliasCookie) {
        EXPECT_EQ(m->cookie, 0xc0ffeeu);
        std::free(m->base);
    }
    g_driver->live_per_id[key->alloc_id % 8]--;
    g_driver->unmaps++;
    g_driver->live--;
    return UMF_RESULT_SUCCESS;
}

// fakeMap of a->size bytes (or the alias), also counting live mappings per
// key.
umf_result_t keyedMap(void *arg, umf_ipc_cache_mapping_t *m) {
    auto *a = static_cast<KeyedMapArg *>(arg);
    umf_result_t ret;
    if (a->alias != nullptr) {
        m->base = a->alias;
        m->size = a->size;
        m->cookie = kAliasCookie;
        a->driver->maps++;
        a->driver->live++;
        ret = UMF_RESULT_SUCCESS;
    } else {
        ret = fakeMap(a->driver, m, a->size);
    }
    if (ret == UMF_RESULT_SUCCESS &&
        ++a->driver->live_per_id[a->alloc_id % 8] != 1) {
        a->driver->twice++;
    }
    return ret;
}

umf_result_t plainMap(void *arg, umf_ipc_cache_mapping_t *m) {
    return fakeMap(arg, m, 64);
}

// A key of `size` bytes; the other fields of the export fixed.
umf_ipc_cache_key_t Key(const void *ctx, uint64_t instance, uint64_t alloc,
                        uint64_t size = 4096) {
    umf_ipc_cache_key_t k = {};
    k.context = ctx;
    k.producer_pid = 4242;
    k.instance_id = instance;
    k.start_time = 777;
    k.pidfs_ino = 888;
    k.alloc_id = alloc;
    k.base = 0x7f0000000000ull;
    k.size = size;
    k.fd_dev = 5;
    k.fd_ino = 6;
    return k;
}

class IpcCache : public ::testing::Test {
  protected:
    void SetUp() override {
        g_driver = &driver;
        base_entries = umf_ipc_cache_entry_count(kZe);
    }
    void TearDown() override {
        EXPECT_EQ(driver.live.load(), 0) << "mappings left open";
        EXPECT_EQ(umf_ipc_cache_entry_count(kZe), base_entries);
    }
    // Opens `key`; the fake driver maps `mapped` bytes (0: the key's size),
    // or returns `alias`.
    umf_result_t open(const umf_ipc_cache_key_t &key, size_t offset, void **p,
                      bool *hit = nullptr, umf_gpu_provider_kind_t kind = kZe,
                      size_t mapped = 0, void *alias = nullptr,
                      bool local = false) {
        KeyedMapArg arg = {&driver, key.alloc_id,
                           mapped != 0 ? mapped : key.size, alias, local};
        return umf_ipc_cache_open(kind, &key, offset, local, keyedMap, &arg,
                                  fakeUnmap, p, hit);
    }
    FakeDriver driver;
    size_t base_entries = 0;
    int ctx_a = 0, ctx_b = 0; // their addresses are the contexts
};

TEST_F(IpcCache, MissThenHitSharesOneMapping) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 1);
    void *p1 = nullptr, *p2 = nullptr;
    bool hit = true;
    ASSERT_EQ(open(key, 0, &p1, &hit), UMF_RESULT_SUCCESS);
    EXPECT_FALSE(hit);
    ASSERT_EQ(open(key, 0, &p2, &hit), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(hit);
    EXPECT_EQ(p1, p2);
    EXPECT_EQ(driver.maps.load(), 1);
    EXPECT_EQ(umf_ipc_cache_entry_count(kZe), base_entries + 1);

    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p1), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 0) << "unmapped while still open";
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p2), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 1);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p2),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(IpcCache, InteriorOffsetsCloseByTheirOwnPointer) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 2);
    void *whole = nullptr, *inner = nullptr, *inner2 = nullptr;
    ASSERT_EQ(open(key, 0, &whole), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(key, 100, &inner), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(key, 100, &inner2), UMF_RESULT_SUCCESS);
    EXPECT_EQ(static_cast<char *>(inner), static_cast<char *>(whole) + 100);
    EXPECT_EQ(inner, inner2);
    EXPECT_EQ(driver.maps.load(), 1);
    // A pointer inside the mapping that no open returned is not closable.
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, static_cast<char *>(whole) + 1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, inner), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, whole), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 0);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, inner2), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 1);
}

TEST_F(IpcCache, KeyPartsEachMakeANewMapping) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 3);
    umf_ipc_cache_key_t other_ctx = Key(&ctx_b, 111, 3);
    umf_ipc_cache_key_t other_producer = Key(&ctx_a, 222, 3);
    // The producer freed allocation 3 and reused its address for 4.
    umf_ipc_cache_key_t reused_address = Key(&ctx_a, 111, 4);
    void *p[4];
    ASSERT_EQ(open(key, 0, &p[0]), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(other_ctx, 0, &p[1]), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(other_producer, 0, &p[2]), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(reused_address, 0, &p[3]), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.maps.load(), 4);
    for (int i = 0; i < 4; i++) {
        for (int j = i + 1; j < 4; j++) {
            EXPECT_NE(p[i], p[j]);
        }
    }
    // Close needs the context the pointer was opened on.
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_b, p[0]),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p[0]), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_b, p[1]), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p[2]), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p[3]), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 4);
}

TEST_F(IpcCache, KindsHaveSeparateCaches) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 5);
    void *ze = nullptr, *cuda = nullptr;
    size_t cuda_entries = umf_ipc_cache_entry_count(kCuda);
    ASSERT_EQ(open(key, 0, &ze), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(key, 0, &cuda, nullptr, kCuda), UMF_RESULT_SUCCESS);
    EXPECT_NE(ze, cuda);
    EXPECT_EQ(umf_ipc_cache_entry_count(kCuda), cuda_entries + 1);
    EXPECT_EQ(umf_ipc_cache_close(kCuda, &ctx_a, ze),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kCuda, &ctx_a, cuda), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, ze), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_entry_count(kCuda), cuda_entries);
}

TEST_F(IpcCache, FailedMapLeavesNothingAndIsRetried) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 6);
    void *p = nullptr;
    driver.fail_map = 1;
    EXPECT_EQ(open(key, 0, &p), UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umf_ipc_cache_entry_count(kZe), base_entries);
    bool hit = true;
    ASSERT_EQ(open(key, 0, &p, &hit), UMF_RESULT_SUCCESS);
    EXPECT_FALSE(hit);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p), UMF_RESULT_SUCCESS);
}

TEST_F(IpcCache, FailedUnmapKeepsTheEntryForARetry) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 7);
    void *p = nullptr, *q = nullptr;
    ASSERT_EQ(open(key, 8, &p), UMF_RESULT_SUCCESS);
    driver.fail_unmap = 1;
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umf_ipc_cache_entry_count(kZe), base_entries + 1);
    // Still open: a new open hits it.
    bool hit = false;
    ASSERT_EQ(open(key, 8, &q, &hit), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(hit);
    EXPECT_EQ(p, q);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, q), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 1);
}

TEST_F(IpcCache, RejectsBadArguments) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 8, 64);
    umf_ipc_cache_key_t empty = Key(&ctx_a, 111, 8, 0);
    void *p = nullptr;
    auto kBad = static_cast<umf_gpu_provider_kind_t>(0);
    EXPECT_EQ(umf_ipc_cache_open(kBad, &key, 0, false, plainMap, &driver,
                                 fakeUnmap, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, nullptr, 0, false, plainMap, &driver,
                                 fakeUnmap, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &empty, 0, false, plainMap, &driver,
                                 fakeUnmap, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 64, false, plainMap, &driver,
                                 fakeUnmap, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 0, false, nullptr, &driver,
                                 fakeUnmap, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 0, false, plainMap, &driver,
                                 nullptr, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 0, false, plainMap, &driver,
                                 fakeUnmap, nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kBad, &ctx_a, &p),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(driver.maps.load(), 0);
}

// Every field of the export is part of the key: data that differs from an
// open mapping's in any of them is mapped (and checked) on its own.
TEST_F(IpcCache, EveryFieldOfTheExportIsPartOfTheKey) {
    const umf_ipc_cache_key_t key = Key(&ctx_a, 111, 9);
    std::vector<umf_ipc_cache_key_t> others(10, key);
    others[0].context = &ctx_b;
    others[1].producer_pid++;
    others[2].instance_id++;
    others[3].start_time++;
    others[4].alloc_id++;
    others[5].base += 4096;
    others[6].size = 2048;
    others[7].fd_dev++;
    others[8].fd_ino++;
    others[9].pidfs_ino++;
    void *p = nullptr;
    ASSERT_EQ(open(key, 0, &p), UMF_RESULT_SUCCESS);
    for (size_t i = 0; i < others.size(); i++) {
        void *q = nullptr;
        bool hit = true;
        ASSERT_EQ(open(others[i], 0, &q, &hit), UMF_RESULT_SUCCESS) << i;
        EXPECT_FALSE(hit) << i;
        EXPECT_NE(q, p) << i;
        EXPECT_EQ(umf_ipc_cache_close(kZe, others[i].context, q),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(driver.maps.load(), 11);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p), UMF_RESULT_SUCCESS);
}

// The driver mapped less than the data claims (forged or corrupted data): the
// mapping is undone and the open refused, on this open and the next.
TEST_F(IpcCache, AMappingSmallerThanTheDataClaimsIsUndoneAndRefused) {
    umf_ipc_cache_key_t key = Key(&ctx_a, 111, 10, 128 << 10);
    void *p = nullptr;
    for (int i = 0; i < 2; i++) {
        EXPECT_EQ(open(key, 68 << 10, &p, nullptr, kZe, 64 << 10),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(umf_ipc_cache_entry_count(kZe), base_entries);
    }
    EXPECT_EQ(driver.maps.load(), 2);
    EXPECT_EQ(driver.unmaps.load(), 2);
    // A mapping at least as large as claimed is fine.
    ASSERT_EQ(open(key, 68 << 10, &p, nullptr, kZe, 192 << 10),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p), UMF_RESULT_SUCCESS);
}

// A driver that maps two exports at one address (as the emulated libcuda
// did for two exporters with one pid): the second is refused, since a close
// could not tell them apart, and the first stays as it was.
TEST_F(IpcCache, ARemoteMappingWhereAnotherExportIsOpenIsRefused) {
    static char shared[4096];
    umf_ipc_cache_key_t first = Key(&ctx_a, 111, 11);
    umf_ipc_cache_key_t second = Key(&ctx_a, 222, 11);
    void *p = nullptr, *q = nullptr;
    ASSERT_EQ(open(first, 0, &p, nullptr, kZe, 0, shared), UMF_RESULT_SUCCESS);
    EXPECT_EQ(open(second, 0, &q, nullptr, kZe, 0, shared),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(driver.unmaps.load(), 1); // the second one's, undone
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, p),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(driver.unmaps.load(), 2);
}

// In the producer, a freed allocation's address is handed out again while
// an open of the old export is not closed: both local entries share the
// pointer, and a close never unmaps a remote mapping there early.
TEST_F(IpcCache, LocalEntriesShareAPointerAndCloseDropsThemFirst) {
    static char own[4096];
    umf_ipc_cache_key_t stale = Key(&ctx_a, 111, 12);
    umf_ipc_cache_key_t fresh = Key(&ctx_a, 111, 13);
    umf_ipc_cache_key_t remote = Key(&ctx_a, 333, 14);
    void *p[3] = {};
    ASSERT_EQ(open(stale, 0, &p[0], nullptr, kZe, 0, own, true),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(fresh, 0, &p[1], nullptr, kZe, 0, own, true),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(remote, 0, &p[2], nullptr, kZe, 0, own, false),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(p[0], p[1]);
    EXPECT_EQ(p[1], p[2]);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, own), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, own), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 2); // the two local ones
    EXPECT_EQ(umf_ipc_cache_entry_count(kZe), base_entries + 1);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, own), UMF_RESULT_SUCCESS);
    EXPECT_EQ(driver.unmaps.load(), 3);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, own),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// 8 threads open and close a few keys at random; a slow map widens the
// window where one thread maps while others wait. At no time may one key be
// mapped twice (the CUDA driver would refuse the second open).
TEST_F(IpcCache, ThreadsNeverMapAKeyTwice) {
    constexpr int kThreads = 8, kKeys = 3, kRounds = 400;
    driver.map_delay_us = 50;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            std::vector<std::pair<int, void *>> held;
            unsigned seed = 1234u + t;
            for (int r = 0; r < kRounds; r++) {
                int k = static_cast<int>(rand_r(&seed) % kKeys);
                umf_ipc_cache_key_t key =
                    Key(&ctx_a, 999, static_cast<uint64_t>(100 + k));
                if (held.size() < 4 && rand_r(&seed) % 2 == 0) {
                    void *p = nullptr;
                    if (open(key, static_cast<size_t>(k) * 8, &p) !=
                        UMF_RESULT_SUCCESS) {
                        failures++;
                        continue;
                    }
                    held.emplace_back(k, p);
                } else if (!held.empty()) {
                    if (umf_ipc_cache_close(kZe, &ctx_a, held.back().second) !=
                        UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                    held.pop_back();
                }
            }
            for (auto &h : held) {
                if (umf_ipc_cache_close(kZe, &ctx_a, h.second) !=
                    UMF_RESULT_SUCCESS) {
                    failures++;
                }
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(driver.twice.load(), 0);
    EXPECT_LE(driver.max_live.load(), kKeys);
    EXPECT_EQ(driver.maps.load(), driver.unmaps.load());
}

} // namespace
