// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the reliability suites share beyond the harness (gpu_test.h): the
// seed of their random choices, and a producer role that shares a few
// allocations with IPC. Their checks outside GoogleTest (in child processes
// and worker threads) are test_child.h's CHILD_EXPECT*.

#ifndef UMF_GPU_TEST_REL_CHILD_H
#define UMF_GPU_TEST_REL_CHILD_H 1

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "test_child.h"

// IPC data as it travels between processes.
struct RelIpcData {
    alignas(8) unsigned char bytes[256];
    size_t size; // bytes used
};

// The shared allocations of a producer: allocation i has rel_size bytes and
// holds gpu_pattern(size, rel_seed_of(i)).
constexpr size_t kRelSharedSize = 64 * 1024;
inline unsigned rel_shared_seed(int i) {
    return 1000u + static_cast<unsigned>(i);
}

// Starts a producer child of `kind` that allocates `count` allocations,
// fills them, and sends their IPC data; it keeps them until the socket
// closes. False (and *why) on failure; *data gets the data.
// The seed of the random choices of a run: UMF_GPU_REL_SEED if set, else
// drawn from the clock; printed once so that a failure can be replayed, and
// passed on to child processes through the environment.
uint64_t rel_seed();

// The emulated drivers' 64-byte handles carry an unkeyed checksum of their
// fields (mock/mock_ipc.c, mock/mock_events.c): these recompute it after a
// test changed a field, as anyone who forges a handle can, so that what is
// tested is the check of the field itself.
void rel_reseal_mock_handle(unsigned char *handle);
void rel_reseal_mock_event_handle(unsigned char *handle);

bool rel_start_producer(umf_test_gpu_kind_t kind, int count,
                        umf_test_child_t *child, std::vector<RelIpcData> *data,
                        std::string *why);

// A child role driven over its socket: started with string arguments,
// asked to quit with one byte ('q'), and waited for (or killed, if the
// test ends early).
struct RelRole {
    umf_test_child_t child{};
    bool started = false;

    bool Start(const char *role, const std::vector<std::string> &args) {
        std::vector<const char *> argv;
        for (const auto &a : args) {
            argv.push_back(a.c_str());
        }
        argv.push_back(nullptr);
        started = umf_test_child_start(&child, role, argv.data()) == 0;
        return started;
    }
    // Sends 'q' and waits: the exit status, or -1 if not started.
    int Stop() {
        if (!started) {
            return -1;
        }
        started = false;
        (void)umf_test_send(child.sock, "q", 1);
        return umf_test_child_wait(&child);
    }
    ~RelRole() {
        if (started) {
            Stop();
        }
    }
};

#endif // UMF_GPU_TEST_REL_CHILD_H
