// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Per-thread state without static TLS (utils/util_thread.h): made zeroed at
// a thread's first get, one per thread, handed to at_exit and released when
// the thread exits, and usable again after the unload step.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "util_thread.h"

namespace {

struct State {
    uint64_t seen;
    char bytes[200];
};

std::atomic<int> exits{0};
std::atomic<uint64_t> exit_sum{0};

void at_exit(void *state) {
    exits++;
    exit_sum += static_cast<State *>(state)->seen;
}

TEST(UtilThread, OneZeroedStatePerThread) {
    static umf_thread_state_t ts =
        UMF_THREAD_STATE_INIT(sizeof(State), nullptr);
    EXPECT_EQ(umf_thread_state_peek(&ts), nullptr)
        << "none before the first get";
    auto *mine = static_cast<State *>(umf_thread_state_get(&ts));
    ASSERT_NE(mine, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(mine) % 64, 0u) << "own cache lines";
    State zero{};
    EXPECT_EQ(memcmp(mine, &zero, sizeof(zero)), 0);
    mine->seen = 7;
    EXPECT_EQ(umf_thread_state_get(&ts), mine);
    EXPECT_EQ(umf_thread_state_peek(&ts), mine);

    void *other = nullptr, *other_peek_first = mine;
    std::thread t([&] {
        other_peek_first = umf_thread_state_peek(&ts);
        other = umf_thread_state_get(&ts);
    });
    t.join();
    EXPECT_EQ(other_peek_first, nullptr) << "another thread has none yet";
    EXPECT_NE(other, nullptr);
    EXPECT_NE(other, mine);
    EXPECT_EQ(mine->seen, 7u) << "untouched by the other thread";
}

TEST(UtilThread, ExitingThreadsHandTheirStateToAtExitAndRelease) {
    static umf_thread_state_t ts =
        UMF_THREAD_STATE_INIT(sizeof(State), at_exit);
    exits = 0;
    exit_sum = 0;
    const int n = 8;
    std::vector<std::thread> threads;
    for (int i = 1; i <= n; i++) {
        threads.emplace_back([i] {
            auto *s = static_cast<State *>(umf_thread_state_get(&ts));
            ASSERT_NE(s, nullptr);
            s->seen = static_cast<uint64_t>(i);
        });
    }
    for (auto &t : threads) {
        t.join();
    }
    EXPECT_EQ(exits.load(), n);
    EXPECT_EQ(exit_sum.load(), static_cast<uint64_t>(n * (n + 1) / 2));
    EXPECT_EQ(umf_thread_state_count(&ts), 0u) << "all released";

    // A thread that only peeks makes nothing.
    std::thread([] { EXPECT_EQ(umf_thread_state_peek(&ts), nullptr); }).join();
    EXPECT_EQ(exits.load(), n);
}

TEST(UtilThread, UsableAgainAfterUnload) {
    static umf_thread_state_t ts =
        UMF_THREAD_STATE_INIT(sizeof(State), at_exit);
    auto *before = static_cast<State *>(umf_thread_state_get(&ts));
    ASSERT_NE(before, nullptr);
    before->seen = 42;
    EXPECT_EQ(umf_thread_state_count(&ts), 1u);
    umf_thread_state_fini(&ts);
    EXPECT_EQ(umf_thread_state_peek(&ts), nullptr) << "the key is gone";
    exits = 0;
    // No key: a thread exiting now calls nothing.
    std::thread([] {}).join();
    EXPECT_EQ(exits.load(), 0);
    auto *after = static_cast<State *>(umf_thread_state_get(&ts));
    ASSERT_NE(after, nullptr);
    EXPECT_NE(after, before);
    EXPECT_EQ(after->seen, 0u) << "a new, zeroed state";
    EXPECT_EQ(before->seen, 42u) << "the old one stays allocated";
    EXPECT_EQ(umf_thread_state_count(&ts), 2u);
}

TEST(UtilThread, LargeStatesAndSizeZero) {
    static umf_thread_state_t big = UMF_THREAD_STATE_INIT(1 << 20, nullptr);
    auto *p = static_cast<unsigned char *>(umf_thread_state_get(&big));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[(1 << 20) - 1], 0);
    p[(1 << 20) - 1] = 1;
    static umf_thread_state_t none = UMF_THREAD_STATE_INIT(0, nullptr);
    EXPECT_NE(umf_thread_state_get(&none), nullptr) << "a distinct pointer";
    static umf_thread_state_t huge =
        UMF_THREAD_STATE_INIT(SIZE_MAX - 8, nullptr);
    EXPECT_EQ(umf_thread_state_get(&huge), nullptr) << "too large: NULL";
}

} // namespace
