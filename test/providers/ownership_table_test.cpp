// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The table of live driver allocations (ownership_table.h): inserts, takes
// and their checks, growth and shrinking, residency generations and walks,
// and all of it from several threads at once (run under TSan too).

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "ownership_table.h"
}

namespace {

class OwnTable : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_own_table_init(&t), UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        umf_own_table_fini(&t);
    }
    umf_result_t insert(uint64_t key, uint64_t size, unsigned flags = 0) {
        bool held = true;
        uint64_t gen = ~0ull;
        umf_result_t ret =
            umf_own_table_insert(&t, key, size, flags, &held, &gen);
        if (ret == UMF_RESULT_SUCCESS) {
            EXPECT_EQ(held, umf_own_table_active(&t));
            EXPECT_EQ(gen, t.gen);
        }
        return ret;
    }
    // A take and a successful free.
    umf_own_take_t free_one(uint64_t key, uint64_t size, bool ext = false) {
        uint64_t word = 0, gen = 0;
        bool freeing = false;
        umf_own_take_t r =
            umf_own_table_take(&t, key, size, ext, &word, &freeing, &gen);
        if (r == UMF_OWN_TAKEN) {
            bool held = true;
            umf_own_table_finish(&t, key, word, freeing, gen, true, &held,
                                 &gen);
            EXPECT_FALSE(held);
        }
        return r;
    }
    umf_own_table_t t;
};

TEST_F(OwnTable, InsertTakeLookup) {
    uint64_t word = 0;
    EXPECT_FALSE(umf_own_table_lookup(&t, 0x1000, &word));
    ASSERT_EQ(insert(0x1000, 64), UMF_RESULT_SUCCESS);
    EXPECT_EQ(insert(0x1000, 32), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "recorded twice";
    EXPECT_EQ(insert(0, 32), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_TRUE(umf_own_table_lookup(&t, 0x1000, &word));
    EXPECT_EQ(umf_own_size(word), 64u);
    EXPECT_FALSE(umf_own_table_lookup(&t, 0x1008, &word))
        << "only bases are recorded";
    EXPECT_EQ(umf_own_table_count(&t), 1u);

    // A wrong size is refused and changes nothing; 0 is the recorded size.
    EXPECT_EQ(free_one(0x1000, 63), UMF_OWN_WRONG_SIZE);
    EXPECT_EQ(free_one(0x1000, 65), UMF_OWN_WRONG_SIZE);
    EXPECT_EQ(umf_own_table_count(&t), 1u);
    EXPECT_EQ(free_one(0x1000, 0), UMF_OWN_TAKEN);
    EXPECT_EQ(free_one(0x1000, 0), UMF_OWN_ABSENT) << "a second free";
    EXPECT_EQ(free_one(0, 0), UMF_OWN_ABSENT);
    EXPECT_EQ(umf_own_table_count(&t), 0u);
}

TEST_F(OwnTable, TheWordKeepsLargeSizesAndFlags) {
    ASSERT_EQ(insert(0x2000, UMF_OWN_MAX_SIZE, UMF_OWN_EXT),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(insert(0x3000, UMF_OWN_MAX_SIZE + 1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    uint64_t word = 0;
    ASSERT_TRUE(umf_own_table_lookup(&t, 0x2000, &word));
    EXPECT_EQ(umf_own_size(word), UMF_OWN_MAX_SIZE);
    EXPECT_NE(word & UMF_OWN_EXT, 0u);
    // An UMF_OWN_EXT entry is taken only when the caller says so.
    EXPECT_EQ(free_one(0x2000, 0), UMF_OWN_EXT_ENTRY);
    EXPECT_EQ(free_one(0x2000, 0, true), UMF_OWN_TAKEN);
}

TEST_F(OwnTable, MarkExtChecksTheSize) {
    ASSERT_EQ(insert(0x4000, 4096), UMF_RESULT_SUCCESS);
    uint64_t word = 0;
    EXPECT_EQ(umf_own_table_mark_ext(&t, 0x4000, 4095, true, &word),
              UMF_OWN_WRONG_SIZE);
    EXPECT_EQ(umf_own_size(word), 4096u);
    EXPECT_EQ(umf_own_table_mark_ext(&t, 0x5000, 4096, true, &word),
              UMF_OWN_ABSENT);
    EXPECT_EQ(umf_own_table_mark_ext(&t, 0x4000, 4096, true, &word),
              UMF_OWN_TAKEN);
    EXPECT_EQ(umf_own_table_mark_ext(&t, 0x4000, 4096, true, &word),
              UMF_OWN_EXT_ENTRY);
    EXPECT_EQ(umf_own_table_mark_ext(&t, 0x4000, 0, false, &word),
              UMF_OWN_TAKEN);
    EXPECT_EQ(free_one(0x4000, 4096), UMF_OWN_TAKEN);
}

// Dense address ranges, as drivers hand them out, at several strides: all
// recorded and found, through growth and back down through shrinking.
TEST_F(OwnTable, GrowsAndShrinksWithDenseRanges) {
    const uint64_t strides[] = {64, 256, 4096, 2u << 20};
    for (uint64_t stride : strides) {
        const uint64_t n = 20000, base = 0x7f0000000000ull;
        for (uint64_t i = 0; i < n; i++) {
            ASSERT_EQ(insert(base + i * stride, i + 1), UMF_RESULT_SUCCESS)
                << "stride " << stride << ", entry " << i;
        }
        EXPECT_EQ(umf_own_table_count(&t), n);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t word = 0;
            ASSERT_TRUE(umf_own_table_lookup(&t, base + i * stride, &word));
            ASSERT_EQ(umf_own_size(word), i + 1);
        }
        // Every other one, then the rest: deletions move entries back.
        for (uint64_t i = 0; i < n; i += 2) {
            ASSERT_EQ(free_one(base + i * stride, i + 1), UMF_OWN_TAKEN);
        }
        for (uint64_t i = 1; i < n; i += 2) {
            uint64_t word = 0;
            ASSERT_TRUE(umf_own_table_lookup(&t, base + i * stride, &word))
                << i;
            ASSERT_EQ(free_one(base + i * stride, 0), UMF_OWN_TAKEN);
        }
        EXPECT_EQ(umf_own_table_count(&t), 0u);
        size_t capacity = 0;
        for (unsigned s = 0; s < UMF_OWN_SEGMENTS; s++) {
            capacity += t.segments[s].slots ? t.segments[s].mask + 1 : 0;
        }
        EXPECT_LE(capacity, 64u * UMF_OWN_SEGMENTS) << "shrinks back";
    }
}

// How far entries sit from their home slot, on average (0: all at home).
double mean_displacement(const umf_own_table_t &t) {
    size_t entries = 0, distance = 0;
    for (unsigned i = 0; i < UMF_OWN_SEGMENTS; i++) {
        const umf_own_segment_t &s = t.segments[i];
        for (size_t j = 0; s.slots != nullptr && j <= s.mask; j++) {
            if (s.slots[j].key != 0) {
                size_t home = umf_own_home(&s, umf_own_hash(s.slots[j].key));
                distance += (j - home) & s.mask;
                entries++;
            }
        }
    }
    return entries ? double(distance) / double(entries) : 0;
}

// What drivers hand out, pages and 64 KiB blocks in long dense ranges, is
// spread without runs: a take then reads the line of its home slot and
// stops there (with 4 KiB pages a multiplicative hash of the address alone
// put 400 000 of them 1.1 slots from home on average, 100 000 blocks of 64
// KiB 6.4 slots; keys in random places sit about 0.4 from home).
TEST_F(OwnTable, DenseRangesOfPagesAndBlocksSitAtHome) {
    const struct {
        uint64_t stride, n;
    } ranges[] = {{4096, 400000}, {65536, 100000}};
    for (const auto &r : ranges) {
        const uint64_t base = 0x7f8840000000ull;
        for (uint64_t i = 0; i < r.n; i++) {
            ASSERT_EQ(insert(base + i * r.stride, 64), UMF_RESULT_SUCCESS);
        }
        EXPECT_LT(mean_displacement(t), 0.05) << "stride " << r.stride;
        for (uint64_t i = 0; i < r.n; i++) {
            ASSERT_EQ(free_one(base + i * r.stride, 64), UMF_OWN_TAKEN);
        }
    }
}

TEST_F(OwnTable, AFailedFreePutsTheEntryBackAsItWas) {
    ASSERT_EQ(insert(0x6000, 100, UMF_OWN_EXT), UMF_RESULT_SUCCESS);
    uint64_t word = 0, gen = 0;
    bool freeing = true, held = true;
    ASSERT_EQ(umf_own_table_take(&t, 0x6000, 0, true, &word, &freeing, &gen),
              UMF_OWN_TAKEN);
    EXPECT_FALSE(freeing) << "the table is idle: removed at the take";
    EXPECT_EQ(umf_own_table_count(&t), 0u);
    umf_own_table_finish(&t, 0x6000, word, freeing, gen, false, &held, &gen);
    EXPECT_FALSE(held);
    uint64_t back = 0;
    ASSERT_TRUE(umf_own_table_lookup(&t, 0x6000, &back));
    EXPECT_EQ(back, word);
}

// While the table is active, inserts are held until released, and takes
// leave the entry flagged until finished.
TEST_F(OwnTable, ActiveTableHoldsInsertsAndFlagsTakes) {
    ASSERT_EQ(insert(0x1000, 8), UMF_RESULT_SUCCESS);
    uint64_t g = umf_own_table_gen_begin(&t);
    EXPECT_EQ(g, 1u);
    bool held = false;
    uint64_t gen = 0, word = 0;
    ASSERT_EQ(umf_own_table_insert(&t, 0x2000, 16, 0, &held, &gen),
              UMF_RESULT_SUCCESS);
    EXPECT_TRUE(held);
    EXPECT_EQ(gen, g);
    EXPECT_FALSE(umf_own_table_lookup(&t, 0x2000, &word))
        << "not handed out until released";
    EXPECT_EQ(free_one(0x2000, 16), UMF_OWN_ABSENT);
    umf_own_table_release(&t, 0x2000);
    EXPECT_TRUE(umf_own_table_lookup(&t, 0x2000, &word));

    bool freeing = false;
    ASSERT_EQ(umf_own_table_take(&t, 0x1000, 8, false, &word, &freeing, &gen),
              UMF_OWN_TAKEN);
    EXPECT_TRUE(freeing);
    uint64_t other = 0;
    bool f2 = false;
    EXPECT_EQ(umf_own_table_take(&t, 0x1000, 8, false, &other, &f2, &gen),
              UMF_OWN_BEING_FREED);
    // The driver refused: as it was.
    umf_own_table_finish(&t, 0x1000, word, freeing, gen, false, &held, &gen);
    EXPECT_FALSE(held);
    EXPECT_TRUE(umf_own_table_lookup(&t, 0x1000, &word));
    EXPECT_EQ(free_one(0x1000, 8), UMF_OWN_TAKEN);
    EXPECT_EQ(umf_own_table_count(&t), 1u);
    umf_own_table_gen_end(&t, false);
    EXPECT_EQ(free_one(0x2000, 16), UMF_OWN_TAKEN);
}

struct Visits {
    std::mutex lock;
    std::multiset<uint64_t> keys;
    size_t fail_at = SIZE_MAX; // the visit that fails
    std::function<void(uint64_t)> during;
};

umf_result_t visit(void *arg, uint64_t key, uint64_t size) {
    auto *v = static_cast<Visits *>(arg);
    EXPECT_EQ(size, key >> 12) << "the entry's own size";
    std::lock_guard<std::mutex> g(v->lock);
    if (v->keys.size() == v->fail_at) {
        return UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
    }
    v->keys.insert(key);
    if (v->during) {
        v->during(key);
    }
    return UMF_RESULT_SUCCESS;
}

TEST_F(OwnTable, AWalkVisitsEveryOlderEntryOnce) {
    const uint64_t n = 5000;
    for (uint64_t i = 1; i <= n; i++) {
        ASSERT_EQ(insert(i << 12, i), UMF_RESULT_SUCCESS);
    }
    Visits v;
    EXPECT_EQ(umf_own_table_walk(&t, visit, &v, 64), UMF_RESULT_SUCCESS)
        << "the current generation covers them all: nothing to visit";
    EXPECT_TRUE(v.keys.empty());
    umf_own_table_gen_begin(&t);
    ASSERT_EQ(umf_own_table_walk(&t, visit, &v, 64), UMF_RESULT_SUCCESS);
    EXPECT_EQ(v.keys.size(), n);
    EXPECT_EQ(std::set<uint64_t>(v.keys.begin(), v.keys.end()).size(), n);
    v.keys.clear();
    ASSERT_EQ(umf_own_table_walk(&t, visit, &v, 64), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(v.keys.empty()) << "all visited for this generation";
    umf_own_table_gen_end(&t, false);
}

TEST_F(OwnTable, AFailedVisitStopsTheWalkAndKeepsTheRest) {
    for (uint64_t i = 1; i <= 300; i++) {
        ASSERT_EQ(insert(i << 12, i), UMF_RESULT_SUCCESS);
    }
    umf_own_table_gen_begin(&t);
    Visits v;
    v.fail_at = 100;
    EXPECT_EQ(umf_own_table_walk(&t, visit, &v, 64),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(v.keys.size(), 100u);
    // The undo: a generation back, which visits exactly what was done.
    umf_own_table_gen_begin(&t);
    Visits undo;
    ASSERT_EQ(umf_own_table_walk(&t, visit, &undo, 64), UMF_RESULT_SUCCESS);
    EXPECT_EQ(undo.keys, v.keys);
    umf_own_table_gen_end(&t, false);
}

// Entries recorded during a walk are held and carry the new generation: the
// walk does not visit them (their inserter made them resident). Inserted
// from the visits themselves, with no table lock held there.
TEST_F(OwnTable, InsertsDuringAWalkAreLeftToTheirInserter) {
    for (uint64_t i = 1; i <= 1000; i++) {
        ASSERT_EQ(insert(i << 12, i), UMF_RESULT_SUCCESS);
    }
    umf_own_table_gen_begin(&t);
    Visits v;
    std::vector<uint64_t> added;
    v.during = [&](uint64_t) {
        if (added.size() < 300) {
            uint64_t k = (2000 + added.size()) << 12;
            bool held = false;
            uint64_t gen = 0;
            ASSERT_EQ(umf_own_table_insert(&t, k, k >> 12, 0, &held, &gen),
                      UMF_RESULT_SUCCESS);
            EXPECT_TRUE(held);
            EXPECT_EQ(gen, t.gen);
            umf_own_table_release(&t, k);
            added.push_back(k);
        }
    };
    ASSERT_EQ(umf_own_table_walk(&t, visit, &v, 16), UMF_RESULT_SUCCESS);
    EXPECT_EQ(added.size(), 300u);
    for (uint64_t k : added) {
        EXPECT_EQ(v.keys.count(k), 0u) << "made for the new generation";
    }
    EXPECT_EQ(v.keys.size(), 1000u);
    umf_own_table_gen_end(&t, false);
    EXPECT_EQ(umf_own_table_count(&t), 1300u);
}

// A free taken while the table was idle, which the driver refuses after a
// change began: the walk cannot have seen the entry (it was out of the
// table), so it comes back held, with the new generation, for its caller to
// make resident, and the walk leaves it alone. (WalkDuringChurn meets this
// case only when a thread is preempted between its take and its finish.)
TEST_F(OwnTable, AFreeRefusedAcrossAChangeComesBackForItsCaller) {
    ASSERT_EQ(insert(0x5000, 5), UMF_RESULT_SUCCESS);
    ASSERT_EQ(insert(0x6000, 6), UMF_RESULT_SUCCESS);
    uint64_t word = 0, take_gen = ~0ull;
    bool freeing = true;
    ASSERT_EQ(
        umf_own_table_take(&t, 0x5000, 5, false, &word, &freeing, &take_gen),
        UMF_OWN_TAKEN);
    EXPECT_FALSE(freeing) << "idle: removed at the take";
    EXPECT_EQ(take_gen, 0u);
    uint64_t g = umf_own_table_gen_begin(&t);
    Visits v;
    ASSERT_EQ(umf_own_table_walk(&t, visit, &v, 64), UMF_RESULT_SUCCESS);
    EXPECT_EQ(v.keys, std::multiset<uint64_t>{0x6000}) << "0x5000 was out";
    bool held = false;
    uint64_t gen = 0;
    umf_own_table_finish(&t, 0x5000, word, freeing, take_gen, false, &held,
                         &gen);
    EXPECT_TRUE(held) << "the caller must make it resident";
    EXPECT_EQ(gen, g);
    uint64_t back = 0;
    EXPECT_FALSE(umf_own_table_lookup(&t, 0x5000, &back))
        << "not handed out again until released";
    umf_own_table_release(&t, 0x5000);
    ASSERT_TRUE(umf_own_table_lookup(&t, 0x5000, &back));
    EXPECT_EQ(umf_own_size(back), 5u);
    v.keys.clear();
    ASSERT_EQ(umf_own_table_walk(&t, visit, &v, 64), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(v.keys.empty()) << "it carries the new generation";
    umf_own_table_gen_end(&t, false);
    EXPECT_EQ(free_one(0x5000, 5), UMF_OWN_TAKEN);
    EXPECT_EQ(free_one(0x6000, 6), UMF_OWN_TAKEN);
}

// Three threads whose keys all fall into one segment, one of them also
// looking its entries up: every entry is found, none lost.
TEST_F(OwnTable, ThreadsShareASegment) {
    const uint64_t key = 0x7f0000042000ull;
    std::vector<uint64_t> keys; // keys of one segment
    umf_own_segment_t *s = umf_own_segment_of(&t, umf_own_hash(key));
    for (uint64_t k = key; keys.size() < 64; k += 4096) {
        if (umf_own_segment_of(&t, umf_own_hash(k)) == s) {
            keys.push_back(k);
        }
    }
    std::atomic<uint64_t> done{0};
    auto worker = [&](size_t first) {
        struct Done {
            std::atomic<uint64_t> &d;
            ~Done() {
                d.fetch_add(1);
            }
        } mark{done};
        for (int round = 0; round < 2000; round++) {
            for (size_t j = first; j < first + 16; j++) {
                ASSERT_EQ(insert(keys[j], j + 1), UMF_RESULT_SUCCESS);
            }
            for (size_t j = first; j < first + 16; j++) {
                ASSERT_EQ(free_one(keys[j], j + 1), UMF_OWN_TAKEN);
            }
        }
    };
    std::thread a(worker, 0), b(worker, 16);
    std::thread c([&] {
        uint64_t word;
        while (done.load() < 2) {
            for (size_t j = 32; j < 48; j++) {
                ASSERT_EQ(insert(keys[j], j + 1), UMF_RESULT_SUCCESS);
                ASSERT_TRUE(umf_own_table_lookup(&t, keys[j], &word));
                ASSERT_EQ(free_one(keys[j], 0), UMF_OWN_TAKEN);
            }
        }
    });
    a.join();
    b.join();
    c.join();
    EXPECT_EQ(umf_own_table_count(&t), 0u);
}

// Threads insert and free their own keys while others race to free the
// same shared keys: each shared key is freed exactly once, and the counts
// come out exact.
TEST_F(OwnTable, ConcurrentInsertsTakesAndDoubleFrees) {
    const unsigned threads = 4;
    const uint64_t shared = 2000, own = 3000;
    for (uint64_t i = 1; i <= shared; i++) {
        ASSERT_EQ(insert(i << 12, i), UMF_RESULT_SUCCESS);
    }
    std::atomic<uint64_t> wins{0};
    std::vector<std::thread> pool;
    for (unsigned th = 0; th < threads; th++) {
        pool.emplace_back([&, th] {
            uint64_t base = (uint64_t)(th + 1) << 32;
            for (uint64_t i = 1; i <= own; i++) {
                uint64_t k = base + (i << 8), word = 0, gen = 0;
                bool held = false, freeing = false;
                ASSERT_EQ(umf_own_table_insert(&t, k, i, 0, &held, &gen),
                          UMF_RESULT_SUCCESS);
                if (i % 3 == 0) {
                    ASSERT_EQ(umf_own_table_take(&t, k, i + 1, false, &word,
                                                 &freeing, &gen),
                              UMF_OWN_WRONG_SIZE);
                    ASSERT_EQ(umf_own_table_take(&t, k, i, false, &word,
                                                 &freeing, &gen),
                              UMF_OWN_TAKEN);
                    umf_own_table_finish(&t, k, word, freeing, gen, true, &held,
                                         &gen);
                }
                uint64_t s = (i * 7 + th) % shared + 1;
                if (umf_own_table_take(&t, s << 12, 0, false, &word, &freeing,
                                       &gen) == UMF_OWN_TAKEN) {
                    wins.fetch_add(1);
                    umf_own_table_finish(&t, s << 12, word, freeing, gen, true,
                                         &held, &gen);
                }
            }
        });
    }
    for (auto &th : pool) {
        th.join();
    }
    uint64_t left = 0;
    for (uint64_t i = 1; i <= shared; i++) {
        uint64_t word;
        left += umf_own_table_lookup(&t, i << 12, &word);
    }
    EXPECT_EQ(wins.load() + left, shared) << "each shared key freed once";
    EXPECT_EQ(umf_own_table_count(&t), left + threads * (own - own / 3));
}

// A walk on one thread while others insert, free and fail frees: every entry
// recorded under the old generation is visited unless freed (or put back
// for its caller to redo), none twice, and none recorded under the new one
// (held: its inserter's job).
TEST_F(OwnTable, WalkDuringChurn) {
    const uint64_t before = 20000;
    for (uint64_t i = 1; i <= before; i++) {
        ASSERT_EQ(insert(i << 12, i), UMF_RESULT_SUCCESS);
    }
    std::atomic<bool> stop{false};
    std::mutex freed_lock;
    std::set<uint64_t> freed, reapplied, older, fresh;
    std::vector<std::thread> pool;
    for (unsigned th = 0; th < 2; th++) {
        pool.emplace_back([&, th] {
            uint64_t i = 0;
            while (!stop.load()) {
                uint64_t k = (before + 1 + th * 1000000 + i++) << 12;
                uint64_t word = 0, gen = 0;
                bool held = false, freeing = false;
                ASSERT_EQ(umf_own_table_insert(&t, k, k >> 12, 0, &held, &gen),
                          UMF_RESULT_SUCCESS);
                if (held) {
                    umf_own_table_release(&t, k);
                }
                {
                    std::lock_guard<std::mutex> g(freed_lock);
                    (gen == 0 ? older : fresh).insert(k);
                }
                // An old entry freed, one in four refused by the "driver".
                uint64_t old = ((i * 13 + th) % before + 1) << 12;
                if (umf_own_table_take(&t, old, 0, false, &word, &freeing,
                                       &gen) == UMF_OWN_TAKEN) {
                    bool ok = i % 4 != 0;
                    umf_own_table_finish(&t, old, word, freeing, gen, ok, &held,
                                         &gen);
                    if (held) {
                        // Put back after the walk passed: its caller makes
                        // it resident for the new generation.
                        umf_own_table_release(&t, old);
                        std::lock_guard<std::mutex> g(freed_lock);
                        reapplied.insert(old);
                    }
                    if (ok) {
                        std::lock_guard<std::mutex> g(freed_lock);
                        freed.insert(old);
                    }
                }
            }
        });
    }
    umf_own_table_gen_begin(&t);
    Visits v;
    ASSERT_EQ(umf_own_table_walk(&t, visit, &v, 32), UMF_RESULT_SUCCESS);
    umf_own_table_gen_end(&t, false);
    stop.store(true);
    for (auto &th : pool) {
        th.join();
    }
    for (uint64_t k : v.keys) {
        EXPECT_EQ(v.keys.count(k), 1u) << "visited twice: " << k;
    }
    for (uint64_t i = 1; i <= before; i++) {
        older.insert(i << 12);
    }
    for (uint64_t k : older) {
        EXPECT_TRUE(v.keys.count(k) == 1 || freed.count(k) == 1 ||
                    reapplied.count(k) == 1)
            << "missed " << k;
    }
    for (uint64_t k : fresh) {
        EXPECT_EQ(v.keys.count(k), 0u)
            << "recorded under the new generation, yet visited: " << k;
    }
}

} // namespace
