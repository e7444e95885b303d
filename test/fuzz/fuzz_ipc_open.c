// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Fuzz target: open_ipc_handle of a provider (FUZZ_KIND: Level Zero or
// CUDA) on arbitrary bytes, through the public API and the emulated driver.
//
// Input: up to 136 bytes of IPC data (umf_ipc_data_t; shorter input is
// padded with zeros), then an optional flags byte:
//   bit 0  recompute the record's checksum (reach the checks behind it)
//   bit 1  claim this process's instance id (the producer's own-memory path)
//   bit 2  re-seal the driver's native handle: its fields (fd, pid, offsets,
//          sizes, id) from the input, with the driver's own checksum
//   bit 3  the input is a difference to valid data of a live allocation
//          (XORed into it), not the data itself
// Invariants: open never crashes or leaks; what opens, closes again; after
// every input, no mapping, fd or open count is left behind.
//
// Process ids in the input are never taken at face value (the target must
// not reach into unrelated processes): a positive pid other than ours
// becomes this process's, a child's that this target starts (it holds
// copies of this process's fds, so that duplicating and mapping them is
// exercised), or one above pid_max (no such process), chosen by its value. The
// rewrite comes before bit 0, so that the checksum may cover it.

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_target.h"
#include "ipc_data.h"
#include "mock_ipc.h"
#include "test_child.h"

#ifndef FUZZ_KIND
#error "FUZZ_KIND must name the provider kind"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const fuzz_target_t *target;
static pid_t helper = -1;
static void *live;           // a live allocation of the provider
static umf_ipc_data_t valid; // its IPC data
static int64_t base_imports;

// What the inputs reached, printed at exit.
static unsigned long inputs, opened, imported;

static void report(void) {
    fprintf(stderr,
            "fuzz_ipc_open %s: %lu inputs, %lu opened and closed (%lu of "
            "them mapped by the driver from another process)\n",
            target->name, inputs, opened, imported);
}

static void stop_helper(void) {
    if (helper > 0) {
        kill(helper, SIGKILL);
        waitpid(helper, NULL, 0);
        helper = -1;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    target = fuzz_target(FUZZ_KIND);
    if (umfMemoryProviderAlloc(target->provider, 64 * 1024, 0, &live) !=
            UMF_RESULT_SUCCESS ||
        umfMemoryProviderGetIPCHandle(target->provider, live, 64 * 1024,
                                      &valid) != UMF_RESULT_SUCCESS) {
        fuzz_fail("cannot make the live allocation's IPC data");
    }
    // The helper: a child holding copies of our fds (the driver's memory
    // files among them) that lives as long as we do.
    pid_t parent = getpid();
    helper = fork();
    if (helper == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) {
            _exit(0);
        }
        for (;;) {
            pause();
        }
    }
    if (helper < 0) {
        fuzz_fail("fork failed");
    }
    atexit(stop_helper);
    atexit(report);
    base_imports = fuzz_live(target, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    return 0;
}

static int32_t safe_pid(int32_t pid) {
    if (pid <= 0 || pid == (int32_t)getpid() || pid == (int32_t)helper) {
        return pid; // refused by the checks, or ours
    }
    switch ((uint32_t)pid % 3) {
    case 0:
        return (int32_t)getpid();
    case 1:
        return (int32_t)helper;
    default:
        return 0x3fff0000 | (pid & 0xffff); // above any pid_max
    }
}

static uint32_t get32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static uint64_t get64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // Counted around the call (the fuzzing engine opens and closes files
    // of its own between inputs).
    int base_fds = umf_test_count_open_fds();
    umf_ipc_data_t rec;
    memset(&rec, 0, sizeof(rec));
    memcpy(&rec, data, size < sizeof(rec) ? size : sizeof(rec));
    uint8_t flags = size > sizeof(rec) ? data[sizeof(rec)] : 0;
    if (flags & 8) {
        unsigned char *r = (unsigned char *)&rec;
        const unsigned char *v = (const unsigned char *)&valid;
        for (size_t i = 0; i < sizeof(rec); i++) {
            r[i] ^= v[i];
        }
    }
    if (flags & 4) {
        // The driver's handle, re-sealed from the input's fields.
        const uint8_t *h = rec.handle;
        umf_mock_ipc_desc_t d = {
            .fd = (int)(get32(h) % 64), // one of the first fds
            .pid = safe_pid((int32_t)get32(h + 16)),
            .start_time = get64(h + 56),
            .file_ino = get64(h + 40),
            .offset = get64(h + 24),
            .size = get64(h + 32),
            .id = get64(h + 48),
            .arena_order = h[13],
        };
        umf_mock_ipc_pack(&d, rec.handle);
        if (rec.handle_size == 0) {
            rec.handle_size = UMF_MOCK_IPC_HANDLE_BYTES;
        }
    } else if (rec.handle_size >= 20) {
        int32_t pid = (int32_t)get32(rec.handle + 16);
        pid = safe_pid(pid);
        memcpy(rec.handle + 16, &pid, sizeof(pid));
    }
    rec.producer_pid = safe_pid(rec.producer_pid);
    if (flags & 2) {
        rec.producer_pid = (int32_t)getpid();
        rec.instance_id = umf_ipc_instance_id();
    }
    if (flags & 1) {
        rec.checksum = umf_ipc_data_checksum(&rec);
    }

    void *p = NULL;
    umf_result_t r = umfMemoryProviderOpenIPCHandle(target->provider, &rec, &p);
    inputs++;
    opened += r == UMF_RESULT_SUCCESS;
    if (r == UMF_RESULT_SUCCESS) {
        imported += fuzz_live(target, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS) >
                    base_imports;
        FUZZ_CHECK(p != NULL, "open succeeded with a NULL pointer");
        umf_result_t c =
            umfMemoryProviderCloseIPCHandle(target->provider, p, rec.size);
        FUZZ_CHECK(c == UMF_RESULT_SUCCESS, "close of an open failed: %d", c);
    } else {
        FUZZ_CHECK(r == UMF_RESULT_ERROR_INVALID_ARGUMENT ||
                       r == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC ||
                       r == UMF_RESULT_ERROR_NOT_SUPPORTED ||
                       r == UMF_RESULT_ERROR_OUT_OF_RESOURCES ||
                       r == UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY,
                   "open returned %d", r);
    }
    umf_gpu_provider_stats_t st;
    FUZZ_CHECK(umfGpuMemoryProviderGetStats(target->provider, &st) ==
                       UMF_RESULT_SUCCESS &&
                   st.ipc_handles_open == 0,
               "an open is left counted");
    int64_t imports = fuzz_live(target, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    FUZZ_CHECK(imports == base_imports, "%lld imports left (were %lld)",
               (long long)imports, (long long)base_imports);
    int fds = umf_test_count_open_fds();
    FUZZ_CHECK(fds == base_fds, "%d fds open (were %d)", fds, base_fds);
    return 0;
}
