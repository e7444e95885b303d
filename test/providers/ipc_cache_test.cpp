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
};

FakeDriver *g_driver; // the unmap callback gets no argument but the key

umf_result_t fakeMap(void *arg, umf_ipc_cache_mapping_t *m) {
    auto *d = static_cast<FakeDriver *>(arg);
    if (d->map_delay_us.load() > 0) {
        std::this_thread::sleep_for(
            std::chrono::microseconds(d->map_delay_us.load()));
    }
    if (d->fail_map.load() > 0) {
        d->fail_map--;
        return UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
    }
    m->base = std::malloc(m->size);
    if (m->base == nullptr) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
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
    EXPECT_EQ(m->cookie, 0xc0ffeeu);
    if (g_driver->fail_unmap.load() > 0) {
        g_driver->fail_unmap--;
        return UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
    }
    std::free(m->base);
    g_driver->live_per_id[key->alloc_id % 8]--;
    g_driver->unmaps++;
    g_driver->live--;
    return UMF_RESULT_SUCCESS;
}

// fakeMap, also counting live mappings per key.
umf_result_t keyedMap(void *arg, umf_ipc_cache_mapping_t *m) {
    auto *a = static_cast<KeyedMapArg *>(arg);
    umf_result_t ret = fakeMap(a->driver, m);
    if (ret == UMF_RESULT_SUCCESS &&
        ++a->driver->live_per_id[a->alloc_id % 8] != 1) {
        a->driver->twice++;
    }
    return ret;
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
    umf_result_t open(const umf_ipc_cache_key_t &key, size_t offset, void **p,
                      bool *hit = nullptr, size_t size = 4096,
                      umf_gpu_provider_kind_t kind = kZe) {
        KeyedMapArg arg = {&driver, key.alloc_id};
        return umf_ipc_cache_open(kind, &key, size, offset, keyedMap, &arg,
                                  fakeUnmap, p, hit);
    }
    FakeDriver driver;
    size_t base_entries = 0;
    int ctx_a = 0, ctx_b = 0; // their addresses are the contexts
};

TEST_F(IpcCache, MissThenHitSharesOneMapping) {
    umf_ipc_cache_key_t key = {&ctx_a, 111, 1};
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
    umf_ipc_cache_key_t key = {&ctx_a, 111, 2};
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
    umf_ipc_cache_key_t key = {&ctx_a, 111, 3};
    umf_ipc_cache_key_t other_ctx = {&ctx_b, 111, 3};
    umf_ipc_cache_key_t other_producer = {&ctx_a, 222, 3};
    // The producer freed allocation 3 and reused its address for 4.
    umf_ipc_cache_key_t reused_address = {&ctx_a, 111, 4};
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
    umf_ipc_cache_key_t key = {&ctx_a, 111, 5};
    void *ze = nullptr, *cuda = nullptr;
    size_t cuda_entries = umf_ipc_cache_entry_count(kCuda);
    ASSERT_EQ(open(key, 0, &ze), UMF_RESULT_SUCCESS);
    ASSERT_EQ(open(key, 0, &cuda, nullptr, 4096, kCuda), UMF_RESULT_SUCCESS);
    EXPECT_NE(ze, cuda);
    EXPECT_EQ(umf_ipc_cache_entry_count(kCuda), cuda_entries + 1);
    EXPECT_EQ(umf_ipc_cache_close(kCuda, &ctx_a, ze),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kCuda, &ctx_a, cuda), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, ze), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_cache_entry_count(kCuda), cuda_entries);
}

TEST_F(IpcCache, FailedMapLeavesNothingAndIsRetried) {
    umf_ipc_cache_key_t key = {&ctx_a, 111, 6};
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
    umf_ipc_cache_key_t key = {&ctx_a, 111, 7};
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
    umf_ipc_cache_key_t key = {&ctx_a, 111, 8};
    void *p = nullptr;
    auto kBad = static_cast<umf_gpu_provider_kind_t>(0);
    EXPECT_EQ(umf_ipc_cache_open(kBad, &key, 64, 0, fakeMap, &driver, fakeUnmap,
                                 &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, nullptr, 64, 0, fakeMap, &driver,
                                 fakeUnmap, &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 0, 0, fakeMap, &driver, fakeUnmap,
                                 &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 64, 64, fakeMap, &driver, fakeUnmap,
                                 &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 64, 0, nullptr, &driver, fakeUnmap,
                                 &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 64, 0, fakeMap, &driver, nullptr,
                                 &p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_open(kZe, &key, 64, 0, fakeMap, &driver, fakeUnmap,
                                 nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kZe, &ctx_a, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_cache_close(kBad, &ctx_a, &p),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(driver.maps.load(), 0);
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
                umf_ipc_cache_key_t key = {&ctx_a, 999,
                                           static_cast<uint64_t>(100 + k)};
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
