// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The open-addressing hash map of utils/util_hash_map.h, against
// std::unordered_map.

#include <cstdint>
#include <random>
#include <unordered_map>

#include <gtest/gtest.h>

extern "C" {
#include "util_hash_map.h"
}

namespace {

void *valueOf(uint64_t i) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(i * 16 + 8));
}

TEST(HashMap, EmptyMapFindsNothing) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    EXPECT_EQ(umf_hash_map_get(&map, 0), nullptr);
    EXPECT_EQ(umf_hash_map_remove(&map, 7), nullptr);
    EXPECT_EQ(umf_hash_map_count(&map), 0u);
    umf_hash_map_clear(&map);
}

TEST(HashMap, RejectsNullValue) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    EXPECT_EQ(umf_hash_map_put(&map, 1, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_hash_map_count(&map), 0u);
}

TEST(HashMap, PutGetReplaceRemove) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    ASSERT_EQ(umf_hash_map_put(&map, 0, valueOf(0)), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umf_hash_map_put(&map, UINT64_MAX, valueOf(1)),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_hash_map_get(&map, 0), valueOf(0));
    EXPECT_EQ(umf_hash_map_get(&map, UINT64_MAX), valueOf(1));
    ASSERT_EQ(umf_hash_map_put(&map, 0, valueOf(2)), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_hash_map_count(&map), 2u);
    EXPECT_EQ(umf_hash_map_get(&map, 0), valueOf(2));
    EXPECT_EQ(umf_hash_map_remove(&map, 0), valueOf(2));
    EXPECT_EQ(umf_hash_map_get(&map, 0), nullptr);
    EXPECT_EQ(umf_hash_map_count(&map), 1u);
    umf_hash_map_clear(&map);
    EXPECT_EQ(umf_hash_map_get(&map, UINT64_MAX), nullptr);
}

TEST(HashMap, PutNewRefusesAKeyAlreadyStored) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    EXPECT_EQ(umf_hash_map_put_new(&map, 5, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(umf_hash_map_put_new(&map, 5, valueOf(1)), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_hash_map_put_new(&map, 5, valueOf(2)),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_hash_map_get(&map, 5), valueOf(1)) << "the value changed";
    EXPECT_EQ(umf_hash_map_count(&map), 1u);
    // Many keys, with growth in between: each goes in once, and only once.
    for (uint64_t k = 0; k < 5000; k++) {
        ASSERT_EQ(umf_hash_map_put_new(&map, k * 64 + 7, valueOf(k)),
                  UMF_RESULT_SUCCESS);
    }
    for (uint64_t k = 0; k < 5000; k += 7) {
        ASSERT_EQ(umf_hash_map_put_new(&map, k * 64 + 7, valueOf(0)),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    EXPECT_EQ(umf_hash_map_count(&map), 5001u);
    for (uint64_t k = 0; k < 5000; k++) {
        ASSERT_EQ(umf_hash_map_get(&map, k * 64 + 7), valueOf(k));
    }
    umf_hash_map_clear(&map);
}

// Random puts and removes, including long probe runs (keys that share
// buckets), checked against std::unordered_map after every step.
TEST(HashMap, MatchesReferenceUnderRandomOperations) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    std::unordered_map<uint64_t, void *> ref;
    std::mt19937_64 rng(42);
    for (int step = 0; step < 200000; step++) {
        // A small key space makes removals hit and runs collide.
        uint64_t key = rng() % 4096;
        if (rng() % 3 == 0) {
            auto it = ref.find(key);
            void *expected = it == ref.end() ? nullptr : it->second;
            ASSERT_EQ(umf_hash_map_remove(&map, key), expected);
            ref.erase(key);
        } else {
            void *v = valueOf(rng() % 1000000);
            ASSERT_EQ(umf_hash_map_put(&map, key, v), UMF_RESULT_SUCCESS);
            ref[key] = v;
        }
        ASSERT_EQ(umf_hash_map_count(&map), ref.size());
        if (step % 1000 == 0) {
            for (const auto &kv : ref) {
                ASSERT_EQ(umf_hash_map_get(&map, kv.first), kv.second);
            }
            for (uint64_t k = 0; k < 4096; k++) {
                ASSERT_EQ(umf_hash_map_get(&map, k) != nullptr,
                          ref.count(k) == 1);
            }
        }
    }
    umf_hash_map_clear(&map);
}

TEST(HashMap, ReserveMakesPutsInfallible) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    ASSERT_EQ(umf_hash_map_reserve(&map, 1000), UMF_RESULT_SUCCESS);
    umf_hash_map_slot_t *slots = map.slots;
    for (uint64_t i = 0; i < 1000; i++) {
        ASSERT_EQ(umf_hash_map_put(&map, i * 4096, valueOf(i)),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(map.slots, slots) << "the table grew despite the reservation";
    EXPECT_EQ(umf_hash_map_reserve(&map, SIZE_MAX),
              UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    EXPECT_EQ(umf_hash_map_count(&map), 1000u);
    umf_hash_map_clear(&map);
}

TEST(HashMap, ForeachVisitsEveryEntryOnce) {
    umf_hash_map_t map = UMF_HASH_MAP_INIT;
    for (uint64_t i = 1; i <= 100; i++) {
        ASSERT_EQ(umf_hash_map_put(&map, i, valueOf(i)), UMF_RESULT_SUCCESS);
    }
    uint64_t sum = 0;
    umf_hash_map_foreach(
        &map,
        [](uint64_t key, void *value, void *arg) {
            EXPECT_EQ(value, valueOf(key));
            *static_cast<uint64_t *>(arg) += key;
        },
        &sum);
    EXPECT_EQ(sum, 5050u);
    umf_hash_map_clear(&map);
}

TEST(HashMap, HashSpreadsSequentialKeys) {
    // The shard and bucket choices rely on the high and low bits both
    // varying for pointers that differ only in a few middle bits.
    unsigned high[16] = {0}, low[16] = {0};
    for (uint64_t i = 0; i < 1600; i++) {
        uint64_t h = umf_hash_u64(0x7f0000000000ull + i * 64);
        high[h >> 60]++;
        low[h & 15]++;
    }
    for (int i = 0; i < 16; i++) {
        EXPECT_GT(high[i], 50u);
        EXPECT_GT(low[i], 50u);
    }
}

} // namespace
