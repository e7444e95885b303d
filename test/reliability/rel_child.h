// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the reliability suites' child processes share: checks that count
// failures instead of stopping (a child reports through its exit status),
// and a producer role that shares a few allocations with IPC.

#ifndef UMF_GPU_TEST_REL_CHILD_H
#define UMF_GPU_TEST_REL_CHILD_H 1

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "rel_gpu.h"
#include "test_child.h"

// Failed checks of this process (all threads).
extern std::atomic<int> g_rel_failures;

#define REL_CHECK(cond)                                                        \
    do {                                                                       \
        if (!(cond)) {                                                         \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,        \
                         __LINE__, #cond);                                     \
            g_rel_failures++;                                                  \
        }                                                                      \
    } while (0)

#define REL_CHECK_EQ(a, b)                                                     \
    do {                                                                       \
        long long rel_a_ = (long long)(a), rel_b_ = (long long)(b);            \
        if (rel_a_ != rel_b_) {                                                \
            std::fprintf(stderr, "%s:%d: %s == %s failed: %lld vs %lld\n",     \
                         __FILE__, __LINE__, #a, #b, rel_a_, rel_b_);          \
            g_rel_failures++;                                                  \
        }                                                                      \
    } while (0)

// IPC data as it travels between processes.
struct RelIpcData {
    alignas(8) unsigned char bytes[256];
    size_t size; // bytes used
};

// The shared allocations of a producer: allocation i has rel_size bytes and
// holds rel_pattern(size, rel_seed_of(i)).
constexpr size_t kRelSharedSize = 64 * 1024;
inline unsigned rel_shared_seed(int i) {
    return 1000u + static_cast<unsigned>(i);
}

// Starts a producer child of `kind` that allocates `count` allocations,
// fills them, and sends their IPC data; it keeps them until the socket
// closes. False (and *why) on failure; *data gets the data.
bool rel_start_producer(RelKind kind, int count, umf_test_child_t *child,
                        std::vector<RelIpcData> *data, std::string *why);

#endif // UMF_GPU_TEST_REL_CHILD_H
