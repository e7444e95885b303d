// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fault matrix: for each provider, for each driver entry point it calls,
// a fault at the 1st, the 2nd and a random call (drawn from the calls a
// fault-free run makes) during a mixed workload: providers of every memory
// type made, residency changed, then two threads that allocate, split,
// query, share (IPC get/open/close/put of their own memory and opens of a
// producer process's), merge, read stats, fail on purpose (a request above
// the device's memory) and free. Each case runs in a child process under
// the emulated driver's strict leak check (UMF_GPU_MOCK_LEAKS=strict: exit
// status 86 on a leaked allocation, IPC handle, mapping or context), and
// checks:
//   - every operation succeeds or fails with
//     UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, the result the injected
//     native code maps to;
//   - a failure's native error, in the failing thread, is the injected code
//     and names the entry point; a thread's native error changes only when
//     that thread met the fault (so no other thread ever sees it), and at
//     most once per injected fault;
//   - a fault that fired surfaced as a failure or, for the entry points
//     whose failure the provider absorbs by design, was absorbed;
//   - afterwards, with the rule gone, what failed can be retried (frees,
//     closes, puts), data is intact, and the whole workload runs again
//     without an error; then nothing leaks.
// The test prints the matrix: per entry point and call, F (an operation
// failed), A (absorbed: every operation succeeded, the fault showing at
// most in the thread's native error), - (the call never came).
//
// The init entry points (zeInit, cuInit) come once per process: only their
// 1st call is injected (by UMF_GPU_MOCK_FAULTS at the child's start), which
// makes the driver unavailable to the provider for the process's life.

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <umf/providers/provider_cuda.h>
#if UMF_TEST_HAVE_CUDA
#include <cuda.h>
#endif
#include <umf/providers/provider_level_zero.h>

#include "rel_child.h"

namespace {

constexpr size_t KiB = 1024;
constexpr int kThreads = 2;
constexpr int kRemote = 2;

// The result of one case, sent to the parent.
constexpr size_t kMaxEntries = 32;
struct CaseReport {
    int32_t fired;    // the faulty call came
    int32_t failed;   // operations that failed with it
    int32_t absorbed; // native errors set by operations that succeeded
    int32_t checks;   // failed checks
    // Calls of each entry point (umf_test_gpu_t::provider_calls) in the
    // workload's faulty part (until the rule is cleared).
    int64_t calls[kMaxEntries];
};

// Entry points whose injected failure a provider absorbs by design, so
// that a fired fault may leave every operation successful.
bool absorbable(const char *entry) {
    static const char *const list[] = {
        // Initialisation frees its probe allocation; when that fails the
        // provider is made all the same and frees the probe at finalize
        // (keep_probe), with the native error set.
        "zeMemFree",
        "zeMemFreeExt",
        // Restoring the caller's context is retried once before giving up
        // (umf_cuda_ctx_restore_failed); a single fault never surfaces.
        "cuCtxSetCurrent",
        // So are a VMM handle's release after its map and a range's free
        // after its unmap, which cannot be undone.
        "cuMemRelease",
        "cuMemAddressFree",
        // Only describe a failure that surfaces anyway (the deliberate
        // out-of-memory request): its message says "unknown" instead.
        "cuGetErrorName",
        "cuGetErrorString",
    };
    for (const char *e : list) {
        if (std::strcmp(e, entry) == 0) {
            return true;
        }
    }
    return false;
}

// One case's state in the child.
struct Run {
    const umf_test_gpu_t *g = nullptr;
    const char *entry = "";
    bool faulty = true; // the rule is (or may be) in force
    std::vector<RelIpcData> remote;
    std::mutex lock;
    int failed = 0, absorbed = 0;
    int64_t calls[kMaxEntries] = {};
    // What a thread could not release while the rule was in force.
    std::vector<
        std::pair<umf_memory_provider_handle_t, std::pair<void *, size_t>>>
        frees, closes;
    std::vector<std::pair<umf_memory_provider_handle_t, RelIpcData>> puts;
};

// The native error as a thread last saw it.
struct Seen {
    int32_t code;
    std::string msg;
    explicit Seen(const umf_test_gpu_t *g)
        : code(gpu_native_code(g)), msg(gpu_native_message(g)) {}
};

// Checks the result of one operation in this thread. `deliberate`: it is
// meant to fail with the driver's out-of-memory code.
bool step(Run &run, Seen &seen, const char *what, umf_result_t r,
          bool deliberate = false) {
    const umf_test_gpu_t *g = run.g;
    int32_t code = gpu_native_code(g);
    std::string msg = gpu_native_message(g);
    bool changed = code != seen.code || msg != seen.msg;
    seen.code = code;
    seen.msg = msg;
    bool injected = code == g->fault_code;
    if (injected && changed) {
        CHILD_EXPECT(std::strstr(msg.c_str(), run.entry) != nullptr);
        if (std::strstr(msg.c_str(), run.entry) == nullptr) {
            std::fprintf(stderr, "%s: the message does not name %s: %s\n", what,
                         run.entry, msg.c_str());
        }
    }
    if (deliberate) {
        CHILD_EXPECT_EQ(r, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
        CHILD_EXPECT(changed && (code == g->oom_code || injected));
        if (injected) {
            std::lock_guard<std::mutex> guard(run.lock);
            run.failed++;
        }
        return false;
    }
    if (r == UMF_RESULT_SUCCESS) {
        if (changed) {
            // A fault the provider absorbed in this thread.
            CHILD_EXPECT(injected && run.faulty);
            std::lock_guard<std::mutex> guard(run.lock);
            run.absorbed++;
        }
        return true;
    }
    if (!run.faulty || r != UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC ||
        !changed || !injected) {
        std::fprintf(stderr,
                     "%s: result %d, native %d (changed %d): %s (fault in %s "
                     "%s)\n",
                     what, (int)r, (int)code, (int)changed, msg.c_str(),
                     run.entry, run.faulty ? "in force" : "cleared");
        umf_test_child_fail(__FILE__, __LINE__, "%s: unexpected outcome", what);
    }
    std::lock_guard<std::mutex> guard(run.lock);
    run.failed++;
    return false;
}

struct Providers {
    umf_memory_provider_handle_t dev = nullptr; // DEVICE (resident: dev 1)
    // HOST, SHARED, DEVICE with the BLOCKING_FREE policy (Level Zero) or
    // HOST (CUDA), and DEVICE in the VMM POSIX fd mode (CUDA only).
    umf_memory_provider_handle_t other[4] = {};
};

// Makes a provider; a failure (the fault) is checked and the make retried.
umf_memory_provider_handle_t make(Run &run, Seen &seen,
                                  umf_usm_memory_type_t type,
                                  umf_test_provider_opts_t opts) {
    opts.type = type;
    for (int attempt = 0; attempt < 3; attempt++) {
        umf_memory_provider_handle_t h = nullptr;
        umf_result_t r = umf_test_gpu_provider(run.g, &opts, &h);
        if (step(run, seen, "create", r)) {
            return h;
        }
    }
    umf_test_child_fail(__FILE__, __LINE__, "create failed 3 times");
    return nullptr;
}

void free_or_defer(Run &run, Seen &seen, umf_memory_provider_handle_t h,
                   void *p, size_t size) {
    if (!step(run, seen, "free", umfMemoryProviderFree(h, p, size))) {
        std::lock_guard<std::mutex> guard(run.lock);
        run.frees.push_back({h, {p, size}});
    }
}

void close_or_defer(Run &run, Seen &seen, umf_memory_provider_handle_t h,
                    void *p, size_t size) {
    if (!step(run, seen, "close",
              umfMemoryProviderCloseIPCHandle(h, p, size))) {
        std::lock_guard<std::mutex> guard(run.lock);
        run.closes.push_back({h, {p, size}});
    }
}

// One thread's share of the workload.
void thread_work(Run &run, Providers &pv, int t) {
    const umf_test_gpu_t *g = run.g;
    Seen seen(g);
    umf_memory_provider_handle_t d = pv.dev;
    const unsigned seed = 40u + static_cast<unsigned>(t);

    char *a = nullptr;
    bool have_a = step(
        run, seen, "alloc 64K",
        umfMemoryProviderAlloc(d, 64 * KiB, 0, reinterpret_cast<void **>(&a)));
    if (have_a) {
        CHILD_EXPECT(umf_test_gpu_fill(g, nullptr, a, 64 * KiB, seed));
    }
    void *b = nullptr;
    bool have_b = step(run, seen, "alloc aligned",
                       umfMemoryProviderAlloc(d, 4 * KiB, 64 * KiB, &b));
    bool split = have_a && step(run, seen, "split",
                                umfMemoryProviderAllocationSplit(d, a, 64 * KiB,
                                                                 16 * KiB));
    if (split) {
        umf_gpu_allocation_properties_t props;
        if (step(run, seen, "properties",
                 umfGpuMemoryProviderGetAllocationProperties(
                     d, a + 16 * KiB + 100, &props))) {
            CHILD_EXPECT(props.base == a + 16 * KiB);
            CHILD_EXPECT_EQ(props.size, 48 * KiB);
        }
        size_t page = 0;
        step(run, seen, "min page size",
             umfMemoryProviderGetMinPageSize(d, a + 16 * KiB, &page));
        RelIpcData data;
        if (step(run, seen, "ipc get",
                 umfMemoryProviderGetIPCHandle(d, a + 16 * KiB, 48 * KiB,
                                               data.bytes))) {
            void *p = nullptr;
            if (step(run, seen, "ipc open (own)",
                     umfMemoryProviderOpenIPCHandle(d, data.bytes, &p))) {
                CHILD_EXPECT(p == a + 16 * KiB);
                close_or_defer(run, seen, d, p, 48 * KiB);
            }
            if (!step(run, seen, "ipc put",
                      umfMemoryProviderPutIPCHandle(d, data.bytes))) {
                std::lock_guard<std::mutex> guard(run.lock);
                run.puts.push_back({d, data});
            }
        }
        if (step(run, seen, "merge",
                 umfMemoryProviderAllocationMerge(d, a, a + 16 * KiB,
                                                  64 * KiB))) {
            split = false;
        }
    }
    for (umf_memory_provider_handle_t o : pv.other) {
        void *p = nullptr;
        if (o != nullptr && step(run, seen, "alloc (other type)",
                                 umfMemoryProviderAlloc(o, 8 * KiB, 0, &p))) {
            RelIpcData data;
            // The VMM one shares too.
            if (o == pv.other[3] &&
                step(
                    run, seen, "ipc get (other)",
                    umfMemoryProviderGetIPCHandle(o, p, 8 * KiB, data.bytes)) &&
                !step(run, seen, "ipc put (other)",
                      umfMemoryProviderPutIPCHandle(o, data.bytes))) {
                std::lock_guard<std::mutex> guard(run.lock);
                run.puts.push_back({o, data});
            }
            free_or_defer(run, seen, o, p, 8 * KiB);
        }
    }
    umf_gpu_provider_stats_t st;
    step(run, seen, "stats", umfGpuMemoryProviderGetStats(d, &st));
    const RelIpcData &rd = run.remote[static_cast<size_t>(t % kRemote)];
    void *r1 = nullptr, *r2 = nullptr;
    RelIpcData copy = rd;
    if (step(run, seen, "ipc open (remote)",
             umfMemoryProviderOpenIPCHandle(d, copy.bytes, &r1))) {
        CHILD_EXPECT(umf_test_gpu_check(g, nullptr, r1, kRelSharedSize,
                                        rel_shared_seed(t % kRemote)));
        if (step(run, seen, "ipc open again",
                 umfMemoryProviderOpenIPCHandle(d, copy.bytes, &r2))) {
            CHILD_EXPECT(r2 == r1);
            close_or_defer(run, seen, d, r2, kRelSharedSize);
        }
        close_or_defer(run, seen, d, r1, kRelSharedSize);
    }
    void *huge = nullptr;
    step(run, seen, "alloc above the device's memory",
         umfMemoryProviderAlloc(d, size_t(64) << 30, 0, &huge), true);
    if (have_b) {
        free_or_defer(run, seen, d, b, 4 * KiB);
    }
    if (have_a) {
        CHILD_EXPECT(umf_test_gpu_check(g, nullptr, a, 64 * KiB, seed));
        if (split) {
            free_or_defer(run, seen, d, a, 16 * KiB);
            free_or_defer(run, seen, d, a + 16 * KiB, 48 * KiB);
        } else {
            free_or_defer(run, seen, d, a, 64 * KiB);
        }
    }
    // No other thread's failure shows here.
    if (seen.code != 0) {
        CHILD_EXPECT(seen.code == g->fault_code || seen.code == g->oom_code);
    }
}

// The whole workload; `faulty` tells whether a rule may be in force.
void workload(Run &run, bool faulty) {
    run.faulty = faulty;
    const umf_test_gpu_t *g = run.g;
    bool ze = g->kind == UMF_TEST_GPU_LEVEL_ZERO;
    Seen seen(g);
    Providers pv;
    umf_test_provider_opts_t resident = {}, plain = {}, policy = {}, flags = {},
                             vmm = {};
    vmm.cuda_mode = 1; // UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD
    resident.resident_mask = ze ? 1u << 1 : 0; // device 1
    pv.dev = make(run, seen, UMF_MEMORY_TYPE_DEVICE, resident);
    policy.blocking_free = true;
    flags.set_alloc_flags = true;
#if UMF_TEST_HAVE_CUDA
    flags.alloc_flags = CU_MEMHOSTALLOC_PORTABLE;
#endif
    pv.other[0] = make(run, seen, UMF_MEMORY_TYPE_HOST, ze ? plain : flags);
    pv.other[1] = make(run, seen, UMF_MEMORY_TYPE_SHARED, plain);
    pv.other[2] = ze ? make(run, seen, UMF_MEMORY_TYPE_DEVICE, policy)
                     : make(run, seen, UMF_MEMORY_TYPE_HOST, plain);
    pv.other[3] = ze ? nullptr : make(run, seen, UMF_MEMORY_TYPE_DEVICE, vmm);
    if (pv.dev == nullptr) {
        return;
    }
#if UMF_TEST_HAVE_LEVEL_ZERO
    void *held = nullptr;
    if (ze && step(run, seen, "alloc (residency)",
                   umfMemoryProviderAlloc(pv.dev, 4 * KiB, 0, &held))) {
        ze_device_handle_t d1 = static_cast<ze_device_handle_t>(g->devices[1]);
        if (step(run, seen, "evict",
                 umfLevelZeroMemoryProviderResidentDeviceChange(pv.dev, d1,
                                                                false))) {
            // Made resident again, retried until it works.
            while (!step(run, seen, "make resident",
                         umfLevelZeroMemoryProviderResidentDeviceChange(
                             pv.dev, d1, true))) {
            }
        }
        free_or_defer(run, seen, pv.dev, held, 4 * KiB);
    }
#endif
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&run, &pv, t] { thread_work(run, pv, t); });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    for (size_t i = 0; i < g->provider_call_count && i < kMaxEntries; i++) {
        run.calls[i] = g->mock.calls(g->provider_calls[i]);
    }
    if (faulty) {
        // The rule goes; everything put aside is released now.
        g->mock.clear();
        run.faulty = false;
        for (auto &c : run.closes) {
            CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(
                                c.first, c.second.first, c.second.second),
                            UMF_RESULT_SUCCESS);
        }
        for (auto &p : run.puts) {
            CHILD_EXPECT_EQ(
                umfMemoryProviderPutIPCHandle(p.first, p.second.bytes),
                UMF_RESULT_SUCCESS);
        }
        for (auto &f : run.frees) {
            CHILD_EXPECT_EQ(
                umfMemoryProviderFree(f.first, f.second.first, f.second.second),
                UMF_RESULT_SUCCESS);
        }
        run.closes.clear();
        run.puts.clear();
        run.frees.clear();
    }
    umf_gpu_provider_stats_t st;
    CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(pv.dev, &st),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(st.allocated_bytes, 0);
    CHILD_EXPECT_EQ(st.ipc_handles_open, 0);
    CHILD_EXPECT_EQ(st.ipc_handles_exported, 0);
    umfMemoryProviderDestroy(pv.dev);
    for (umf_memory_provider_handle_t o : pv.other) {
        umfMemoryProviderDestroy(o);
    }
}

// argv: kind, entry, call number (0: none). Receives the remote data;
// sends a CaseReport.
UMF_TEST_CHILD(fault_case) {
    if (argc < 3) {
        return 100;
    }
    Run run;
    run.g = umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    run.entry = argv[1];
    long nth = std::atol(argv[2]);
    if (run.g->why != nullptr) {
        std::fprintf(stderr, "fault case: %s\n", run.g->why);
        return 101;
    }
    run.remote.resize(kRemote);
    if (umf_test_recv(sock, run.remote.data(),
                      sizeof(RelIpcData) * run.remote.size()) != 0) {
        return 102;
    }
    run.g->mock.reset_calls();
    if (nth > 0) {
        std::string rule = std::string(run.entry) + ":" + std::to_string(nth) +
                           "=" + std::to_string(run.g->fault_code);
        if (run.g->mock.inject(rule.c_str()) != 0) {
            return 103;
        }
    }
    workload(run, nth > 0);
    CaseReport rep;
    std::memcpy(rep.calls, run.calls, sizeof(rep.calls));
    int64_t calls = 0;
    for (size_t i = 0; i < run.g->provider_call_count && i < kMaxEntries; i++) {
        if (std::strcmp(run.g->provider_calls[i], run.entry) == 0) {
            calls = run.calls[i];
        }
    }
    rep.fired = nth > 0 && calls >= nth;
    rep.failed = run.failed;
    rep.absorbed = run.absorbed;
    // At most one event per injected fault; a fired fault shows.
    CHILD_EXPECT(rep.failed + rep.absorbed <= (rep.fired ? 1 : 0));
    if (rep.fired && !absorbable(run.entry)) {
        CHILD_EXPECT_EQ(rep.failed + rep.absorbed, 1);
    }
    // Continued operation: everything again, without a fault.
    run.failed = run.absorbed = 0;
    workload(run, false);
    CHILD_EXPECT_EQ(run.failed + run.absorbed, 0);
    rep.checks = umf_test_child_failures();
    umf_test_send(sock, &rep, sizeof(rep));
    umf_test_gpu_release_all();
    return rep.checks > 0 ? 1 : 0; // the leak check may still say 86
}

// A fault in the driver's init (UMF_GPU_MOCK_FAULTS): the provider finds
// the driver unavailable; nothing is left behind.
UMF_TEST_CHILD(fault_init) {
    (void)sock;
    if (argc < 1) {
        return 100;
    }
    bool cuda = std::atoi(argv[0]) == static_cast<int>(UMF_TEST_GPU_CUDA);
    umf_result_t r = UMF_RESULT_ERROR_UNKNOWN;
    if (cuda) {
        umf_cuda_memory_provider_params_handle_t p = nullptr;
        r = umfCUDAMemoryProviderParamsCreate(&p);
        umfCUDAMemoryProviderParamsDestroy(p);
    } else {
        umf_level_zero_memory_provider_params_handle_t p = nullptr;
        umfLevelZeroMemoryProviderParamsCreate(&p);
        umfLevelZeroMemoryProviderParamsSetContext(
            p, reinterpret_cast<ze_context_handle_t>(0x1000));
        umfLevelZeroMemoryProviderParamsSetDevice(
            p, reinterpret_cast<ze_device_handle_t>(0x1000));
        umf_memory_provider_handle_t h = nullptr;
        r = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), p, &h);
        umfLevelZeroMemoryProviderParamsDestroy(p);
        if (h != nullptr) {
            umfMemoryProviderDestroy(h);
            return 2;
        }
    }
    if (r != UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE) {
        std::fprintf(stderr, "init fault: result %d\n", (int)r);
        return 1;
    }
    return 0;
}

// Runs a case child under the strict leak check; fills *rep.
int run_case(umf_test_gpu_kind_t kind, const char *entry, long nth,
             const std::vector<RelIpcData> &remote, CaseReport *rep) {
    std::string k = std::to_string(static_cast<int>(kind));
    std::string n = std::to_string(nth);
    const char *args[] = {k.c_str(), entry, n.c_str(), nullptr};
    setenv("UMF_GPU_MOCK_LEAKS", "strict", 1);
    umf_test_child_t child;
    int started = umf_test_child_start(&child, "fault_case", args);
    unsetenv("UMF_GPU_MOCK_LEAKS");
    if (started != 0) {
        return -1;
    }
    std::memset(rep, 0, sizeof(*rep));
    bool sent = umf_test_send(child.sock, remote.data(),
                              sizeof(RelIpcData) * remote.size()) == 0;
    bool got = umf_test_recv(child.sock, rep, sizeof(*rep)) == 0;
    int status = umf_test_child_wait(&child);
    return sent && got ? status : (status != 0 ? status : -2);
}

class FaultMatrix : public ::testing::TestWithParam<umf_test_gpu_kind_t> {};

TEST_P(FaultMatrix, EveryEntryPointAtFirstSecondAndRandomCall) {
    const umf_test_gpu_t *g = umf_test_gpu(GetParam());
    GPU_REQUIRE_EMULATED(g);
    std::mt19937_64 rng(rel_seed() ^ static_cast<uint64_t>(g->kind));

    umf_test_child_t producer;
    std::vector<RelIpcData> remote;
    std::string why;
    ASSERT_TRUE(rel_start_producer(g->kind, kRemote, &producer, &remote, &why))
        << why;

    // A fault-free run tells how often the workload calls each entry point:
    // each must be called, or it is no row of the matrix.
    ASSERT_LE(g->provider_call_count, kMaxEntries);
    CaseReport base;
    ASSERT_EQ(run_case(g->kind, g->provider_calls[0], 0, remote, &base), 0)
        << "the fault-free workload failed or leaked";
    std::vector<int64_t> baseline(base.calls,
                                  base.calls + g->provider_call_count);
    for (size_t i = 0; i < g->provider_call_count; i++) {
        EXPECT_GE(baseline[i], 1) << g->provider_calls[i] << " is never called";
    }

    int cases = 0, fired = 0, surfaced = 0, absorbed = 0;
    std::string table;
    for (size_t i = 0; i < g->provider_call_count; i++) {
        const char *entry = g->provider_calls[i];
        long calls = static_cast<long>(baseline[i]);
        long random = calls > 0 ? 1 + static_cast<long>(rng() % calls) : 1;
        char row[160];
        std::snprintf(row, sizeof(row), "  %-30s (%3ld calls)", entry, calls);
        table += row;
        for (long nth : {1L, 2L, random}) {
            CaseReport rep;
            int status = run_case(g->kind, entry, nth, remote, &rep);
            cases++;
            EXPECT_EQ(status, 0)
                << entry << " call " << nth
                << ": the case failed (see its output), or leaked (86)";
            fired += rep.fired;
            surfaced += rep.fired && rep.failed > 0;
            absorbed += rep.fired && rep.failed == 0;
            // The child checked that a fault which fired and left no trace
            // is one that the provider absorbs by design.
            std::snprintf(row, sizeof(row), "  #%-3ld %s", nth,
                          !rep.fired       ? "-"
                          : rep.failed > 0 ? "F"
                                           : "A");
            table += row;
        }
        table += "\n";
    }
    // The init entry point, once per process.
    const char *init = g->kind == UMF_TEST_GPU_CUDA ? "cuInit" : "zeInit";
    std::string rule =
        std::string(init) + ":1=" + std::to_string(g->fault_code);
    setenv("UMF_GPU_MOCK_FAULTS", rule.c_str(), 1);
    setenv("UMF_GPU_MOCK_LEAKS", "strict", 1);
    umf_test_child_t child;
    std::string k = std::to_string(static_cast<int>(g->kind));
    const char *args[] = {k.c_str(), nullptr};
    int started = umf_test_child_start(&child, "fault_init", args);
    unsetenv("UMF_GPU_MOCK_LEAKS");
    unsetenv("UMF_GPU_MOCK_FAULTS");
    ASSERT_EQ(started, 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0) << init << " call 1";
    cases++;
    fired++;
    surfaced++;

    std::printf("fault matrix %s: %zu entry points x 3 calls + %s#1 = %d "
                "cases; fired %d (surfaced %d, absorbed %d), never reached "
                "%d\n%s",
                g->name, g->provider_call_count, init, cases, fired, surfaced,
                absorbed, cases - fired, table.c_str());
    EXPECT_EQ(umf_test_child_wait(&producer), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Providers, FaultMatrix, ::testing::ValuesIn(gpu_kinds()),
    [](const ::testing::TestParamInfo<umf_test_gpu_kind_t> &info) {
        return std::string(info.param == UMF_TEST_GPU_CUDA ? "cuda"
                                                           : "level_zero");
    });

} // namespace
