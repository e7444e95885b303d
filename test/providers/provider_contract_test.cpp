// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The provider contract (provider_contract.h): what the ops header
// (memory_provider_ops.h), the core's header (memory_provider.h), the GPU
// extensions (memory_provider_gpu.h) and both providers' headers promise
// alike, checked for each kind and table. A rule that holds for one
// provider only belongs in that provider's suite; everything here must
// hold for both.
//
// Runs on the emulated drivers and, unchanged, on real ones; the cases that
// need the emulated driver's control API skip elsewhere.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "provider_contract.h"
#include "test_child.h"

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;
constexpr umf_result_t kOk = UMF_RESULT_SUCCESS;
constexpr umf_result_t kInvalid = UMF_RESULT_ERROR_INVALID_ARGUMENT;

bool is_power_of_two(size_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

// What each kind's header names: its default name and its device memory
// allocation call.
const char *default_name(const umf_test_gpu_t *g) {
    return g->kind == UMF_TEST_GPU_CUDA ? "CUDA" : "LEVEL_ZERO";
}
// The entry point that makes DEVICE memory (a CUDA VMM mode's: cuMemCreate).
const char *device_alloc_call(const umf_test_gpu_t *g, int cuda_mode) {
    if (g->kind != UMF_TEST_GPU_CUDA) {
        return "zeMemAllocDevice";
    }
    return cuda_mode != 0 ? "cuMemCreate" : "cuMemAlloc_v2";
}
const char *oom_name(const umf_test_gpu_t *g) {
    return g->kind == UMF_TEST_GPU_CUDA
               ? "CUDA_ERROR_OUT_OF_MEMORY"
               : "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
}

// The device a provider on device 0 reports in its allocation properties:
// the handle for Level Zero, the ordinal cast to a pointer for CUDA.
void *device0(const umf_test_gpu_t *g) {
    return g->kind == UMF_TEST_GPU_CUDA ? nullptr : g->devices[0];
}

// No device has a TiB: the allocation runs out of device memory on any
// driver.
constexpr size_t kTooBig = size_t(1) << 40;

using Contract = ProviderContract;

// ------------------------------------------------------------ alloc/free

TEST_P(Contract, AllocHoldsDataAndFrees) {
    const ContractProvider &p = make();
    ASSERT_TRUE(p.ok());
    for (size_t size : {size_t(1), size_t(63), size_t(64), size_t(4095),
                        size_t(4096), 64 * KiB + 1, 3 * MiB}) {
        void *ptr = p.alloc_or_null(size);
        ASSERT_NE(ptr, nullptr);
        EXPECT_TRUE(fill(ptr, size, static_cast<unsigned>(size)));
        EXPECT_TRUE(check(ptr, size, static_cast<unsigned>(size)));
        EXPECT_EQ(p.free(ptr, size), kOk) << size;
    }
}

TEST_P(Contract, EachMemoryTypeAllocatesAndReportsItsType) {
    for (umf_usm_memory_type_t type :
         {UMF_MEMORY_TYPE_HOST, UMF_MEMORY_TYPE_DEVICE,
          UMF_MEMORY_TYPE_SHARED}) {
        const ContractProvider &p = make(type);
        ASSERT_TRUE(p.ok()) << type;
        void *ptr = p.alloc_or_null(10000);
        ASSERT_NE(ptr, nullptr);
        EXPECT_TRUE(fill(ptr, 10000, 3));
        EXPECT_TRUE(check(ptr, 10000, 3));
        umf_gpu_allocation_properties_t props;
        ASSERT_EQ(p.properties(ptr, &props), kOk);
        EXPECT_EQ(props.memory_type, type);
        EXPECT_EQ(props.base, ptr);
        EXPECT_EQ(props.size, 10000u);
        EXPECT_EQ(p.free(ptr, 10000), kOk);
    }
}

TEST_P(Contract, SizeZeroIsAnInvalidArgument) {
    const ContractProvider &p = make();
    void *ptr = nullptr;
    EXPECT_EQ(p.alloc(0, 0, &ptr), kInvalid);
    EXPECT_EQ(p.alloc(0, 4096, &ptr), kInvalid);
    EXPECT_EQ(p.stats().alloc_count, 0u);
}

TEST_P(Contract, LiveAllocationsNeverOverlap) {
    const ContractProvider &p = make();
    std::vector<std::pair<char *, size_t>> live;
    for (unsigned i = 0; i < 64; i++) {
        size_t size = 1 + (i * 7919u) % (70 * KiB);
        char *ptr = static_cast<char *>(p.alloc_or_null(size));
        ASSERT_NE(ptr, nullptr);
        ASSERT_TRUE(fill(ptr, size, i));
        live.emplace_back(ptr, size);
    }
    std::vector<std::pair<char *, size_t>> sorted = live;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 1; i < sorted.size(); i++) {
        EXPECT_LE(sorted[i - 1].first + sorted[i - 1].second, sorted[i].first)
            << "two live allocations overlap";
    }
    for (unsigned i = 0; i < live.size(); i++) {
        EXPECT_TRUE(check(live[i].first, live[i].second, i)) << i;
        EXPECT_EQ(p.free(live[i].first, live[i].second), kOk);
    }
}

// Every power of two up to 2 MiB (what both providers honour); 0 is the
// provider's natural alignment.
TEST_P(Contract, AlignmentsUpTo2MiBAreHonoured) {
    const ContractProvider &p = make();
    for (size_t align = 1; align <= 2 * MiB; align *= 2) {
        for (size_t size : {size_t(1), align, 3 * align + 5}) {
            void *ptr = p.alloc_or_null(size, align);
            ASSERT_NE(ptr, nullptr) << size << " aligned to " << align;
            EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % align, 0u)
                << size << " aligned to " << align;
            EXPECT_EQ(p.free(ptr, size), kOk);
        }
    }
}

TEST_P(Contract, AlignmentsThatAreNoPowerOfTwoAreRefused) {
    const ContractProvider &p = make();
    for (size_t align : {size_t(3), size_t(6), size_t(12), size_t(100),
                         size_t(4097), (size_t(1) << 21) + 4096, SIZE_MAX}) {
        void *ptr = nullptr;
        EXPECT_EQ(p.alloc(64, align, &ptr), UMF_RESULT_ERROR_INVALID_ALIGNMENT)
            << align;
    }
    EXPECT_EQ(p.stats().alloc_count, 0u);
}

TEST_P(Contract, FreeRefusesWhatNoProviderAllocated) {
    const ContractProvider &p = make();
    char *live = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(live, nullptr);
    ASSERT_TRUE(fill(live, 64 * KiB, 9));
    static char static_memory[256];
    char stack_memory[256];
    std::vector<char> heap_memory(256);
    for (void *ptr :
         {static_cast<void *>(static_memory), static_cast<void *>(stack_memory),
          static_cast<void *>(heap_memory.data())}) {
        EXPECT_EQ(p.free(ptr, 256), kInvalid);
    }
    // Inside a live allocation: neither a free of it nor of a piece.
    EXPECT_EQ(p.free(live + 4096, 4096), kInvalid);
    EXPECT_EQ(p.free(live + 1, 64 * KiB - 1), kInvalid);
    EXPECT_TRUE(check(live, 64 * KiB, 9)) << "a refused free changed memory";
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 64 * KiB);
    EXPECT_EQ(s.free_count, 0u);
    EXPECT_EQ(p.free(live, 64 * KiB), kOk);
}

// UMF 1.x's stats.peak_memory.reset: the peak becomes what is allocated
// now and goes on from there, as UMF's own providers have it.
TEST_P(Contract, ThePeakResetsToWhatIsAllocated) {
    if (table->reset_peak == nullptr) {
        GTEST_SKIP() << "the " << table->name
                     << " table has no control queries";
    }
    const ContractProvider &p = make();
    void *a = p.alloc_or_null(64 * KiB);
    void *b = p.alloc_or_null(192 * KiB);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(p.free(b, 192 * KiB), kOk);
    EXPECT_EQ(p.stats().peak_bytes, 256 * KiB);
    ASSERT_EQ(p.reset_peak(), kOk);
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.peak_bytes, 64 * KiB) << "what is allocated now";
    EXPECT_EQ(s.allocated_bytes, 64 * KiB);
    void *c = p.alloc_or_null(32 * KiB);
    ASSERT_NE(c, nullptr);
    ASSERT_EQ(p.free(c, 32 * KiB), kOk);
    EXPECT_EQ(p.stats().peak_bytes, 96 * KiB) << "counted on from the reset";
    ASSERT_EQ(p.free(a, 64 * KiB), kOk);
    ASSERT_EQ(p.reset_peak(), kOk);
    EXPECT_EQ(p.stats().peak_bytes, 0u);
}

TEST_P(Contract, SecondFreeIsRefusedAndChangesNothing) {
    const ContractProvider &p = make();
    void *a = p.alloc_or_null(4 * KiB);
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(p.free(a, 4 * KiB), kOk);
    // The address may be handed out again; a second free must not take it.
    void *b = p.alloc_or_null(4 * KiB);
    ASSERT_NE(b, nullptr);
    ASSERT_TRUE(fill(b, 4 * KiB, 4));
    if (a != b) {
        EXPECT_EQ(p.free(a, 4 * KiB), kInvalid);
    }
    EXPECT_TRUE(check(b, 4 * KiB, 4));
    EXPECT_EQ(p.free(b, 4 * KiB), kOk);
    EXPECT_EQ(p.free(b, 4 * KiB), kInvalid);
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.alloc_count, 2u);
    EXPECT_EQ(s.free_count, 2u);
    EXPECT_EQ(s.allocated_bytes, 0u);
}

// ------------------------------------------------------------- ownership
//
// What a provider frees, splits, merges, exports or describes is a live
// allocation (or piece) of its own, with the size it was made with; size
// 0 on free is the recorded size. Anything else is INVALID_ARGUMENT and
// changes nothing: not the memory, not the driver's allocations, not the
// counters.

TEST_P(Contract, AnotherProviderOnTheSameContextTouchesNothingOfIt) {
    const ContractProvider &p = make();
    const ContractProvider &q = make();
    ASSERT_TRUE(p.ok() && q.ok());
    char *a = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(a, nullptr);
    ASSERT_TRUE(fill(a, 64 * KiB, 21));
    int64_t driver_allocs = umf_test_gpu_live(g, UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    EXPECT_EQ(q.free(a, 64 * KiB), kInvalid);
    EXPECT_EQ(q.free(a, 0), kInvalid);
    EXPECT_EQ(q.split(a, 64 * KiB, 16 * KiB), kInvalid);
    size_t n = 0;
    ASSERT_EQ(q.ipc_handle_size(&n), kOk);
    std::vector<unsigned char> data(n);
    EXPECT_EQ(q.get_ipc_handle(a, 64 * KiB, data.data()), kInvalid);
    umf_gpu_allocation_properties_t props;
    EXPECT_EQ(q.properties(a, &props), kInvalid);
    // Pieces of p's allocation are p's too.
    ASSERT_EQ(p.split(a, 64 * KiB, 16 * KiB), kOk);
    EXPECT_EQ(q.free(a + 16 * KiB, 48 * KiB), kInvalid);
    EXPECT_EQ(q.merge(a, a + 16 * KiB, 64 * KiB), kInvalid);
    EXPECT_TRUE(check(a, 64 * KiB, 21)) << "a refused call changed memory";
    EXPECT_EQ(umf_test_gpu_live(g, UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              driver_allocs);
    umf_gpu_provider_stats_t sq = q.stats();
    EXPECT_EQ(sq.alloc_count, 0u);
    EXPECT_EQ(sq.free_count, 0u);
    EXPECT_EQ(sq.allocated_bytes, 0u);
    EXPECT_EQ(sq.ipc_handles_exported, 0u);
    EXPECT_EQ(p.stats().allocated_bytes, 64 * KiB);
    EXPECT_EQ(p.merge(a, a + 16 * KiB, 64 * KiB), kOk);
    EXPECT_EQ(p.free(a, 64 * KiB), kOk);
    EXPECT_EQ(p.stats().allocated_bytes, 0u);
}

TEST_P(Contract, DriverMemoryNoProviderMadeIsRefused) {
    const ContractProvider &p = make();
    void *raw = nullptr;
    ASSERT_TRUE(umf_test_gpu_driver_alloc(g, nullptr, 64 * KiB, &raw));
    char *r = static_cast<char *>(raw);
    EXPECT_TRUE(fill(r, 64 * KiB, 22));
    int64_t driver_allocs = umf_test_gpu_live(g, UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    EXPECT_EQ(p.free(r, 64 * KiB), kInvalid);
    EXPECT_EQ(p.free(r, 0), kInvalid);
    EXPECT_EQ(p.split(r, 64 * KiB, 16 * KiB), kInvalid);
    EXPECT_EQ(p.merge(r, r + 16 * KiB, 64 * KiB), kInvalid);
    size_t n = 0;
    ASSERT_EQ(p.ipc_handle_size(&n), kOk);
    std::vector<unsigned char> data(n);
    EXPECT_EQ(p.get_ipc_handle(r, 64 * KiB, data.data()), kInvalid);
    umf_gpu_allocation_properties_t props;
    EXPECT_EQ(p.properties(r, &props), kInvalid);
    EXPECT_TRUE(check(r, 64 * KiB, 22)) << "a refused call changed memory";
    EXPECT_EQ(umf_test_gpu_live(g, UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              driver_allocs)
        << "the provider released driver memory it never made";
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.free_count, 0u);
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_TRUE(umf_test_gpu_driver_free(g, nullptr, raw))
        << "the driver allocation is gone";
}

TEST_P(Contract, FreeTakesTheRecordedSizeOrZero) {
    const ContractProvider &p = make();
    char *a = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(a, nullptr);
    ASSERT_TRUE(fill(a, 64 * KiB, 23));
    for (size_t wrong :
         {size_t(1), 64 * KiB - 1, 64 * KiB + 1, 128 * KiB, SIZE_MAX}) {
        EXPECT_EQ(p.free(a, wrong), kInvalid) << wrong;
    }
    EXPECT_TRUE(check(a, 64 * KiB, 23));
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 64 * KiB) << "the counters drifted";
    EXPECT_EQ(s.free_count, 0u);
    EXPECT_EQ(p.free(a, 0), kOk) << "size 0: the recorded size";
    s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.free_count, 1u);
    // A piece's recorded size is the piece's.
    char *b = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(p.split(b, 64 * KiB, 16 * KiB), kOk);
    EXPECT_EQ(p.free(b, 64 * KiB), kInvalid) << "the whole, not the piece";
    EXPECT_EQ(p.free(b + 16 * KiB, 16 * KiB), kInvalid);
    EXPECT_EQ(p.free(b, 0), kOk);
    EXPECT_EQ(p.stats().allocated_bytes, 48 * KiB);
    EXPECT_EQ(p.free(b + 16 * KiB, 0), kOk);
    EXPECT_EQ(p.stats().allocated_bytes, 0u);
}

TEST_P(Contract, SplitAndMergeTakeExactTotals) {
    const ContractProvider &p = make();
    char *a = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(p.split(a, 32 * KiB, 16 * KiB), kInvalid)
        << "a total smaller than the allocation";
    EXPECT_EQ(p.split(a, 64 * KiB - 1, 16 * KiB), kInvalid);
    ASSERT_EQ(p.split(a, 64 * KiB, 16 * KiB), kOk);
    EXPECT_EQ(p.split(a + 16 * KiB, 64 * KiB, 16 * KiB), kInvalid)
        << "the piece is 48 KiB now";
    EXPECT_EQ(p.merge(a, a + 16 * KiB, 64 * KiB - 1), kInvalid);
    EXPECT_EQ(p.merge(a, a + 16 * KiB, 64 * KiB + 1), kInvalid);
    EXPECT_EQ(p.merge(a, a + 16 * KiB, 32 * KiB), kInvalid);
    // Refusals changed nothing: both pieces free as they are.
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 64 * KiB);
    EXPECT_EQ(p.free(a + 16 * KiB, 48 * KiB), kOk);
    EXPECT_EQ(p.free(a, 16 * KiB), kOk);
    EXPECT_EQ(p.stats().allocated_bytes, 0u);
}

// Threads that each allocate and free their own memory while trying the
// refused calls on the others' (another size, another provider) leave exact
// counters and nothing of the driver's behind.
TEST_P(Contract, RefusalsUnderConcurrencyKeepCountersExact) {
    const ContractProvider &p = make();
    const ContractProvider &q = make();
    ASSERT_TRUE(p.ok() && q.ok());
    constexpr int kThreads = 4, kRounds = 100;
    constexpr size_t kBlock = 4 * KiB;
    int64_t driver_allocs = umf_test_gpu_live(g, UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    std::vector<std::atomic<void *>> slots(kThreads);
    std::atomic<int> wrong_successes{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kRounds; i++) {
                void *mine = nullptr;
                if (p.alloc(kBlock, 0, &mine) != kOk) {
                    wrong_successes++;
                    continue;
                }
                slots[t].store(mine);
                void *theirs = slots[(t + 1) % kThreads].load();
                if (theirs != nullptr) {
                    wrong_successes += p.free(theirs, kBlock + 1) == kOk;
                    wrong_successes += q.free(theirs, kBlock) == kOk;
                }
                slots[t].store(nullptr);
                // (No second free here: another thread may have the
                // address again by then, and it would be theirs.)
                if (p.free(mine, kBlock) != kOk) {
                    wrong_successes++;
                }
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    EXPECT_EQ(wrong_successes.load(), 0);
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.alloc_count, uint64_t(kThreads) * kRounds);
    EXPECT_EQ(s.free_count, uint64_t(kThreads) * kRounds);
    EXPECT_EQ(s.allocated_bytes, 0u);
    umf_gpu_provider_stats_t sq = q.stats();
    EXPECT_EQ(sq.free_count, 0u);
    EXPECT_EQ(umf_test_gpu_live(g, UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              driver_allocs);
}

// ----------------------------------------------------------- page sizes

TEST_P(Contract, PageSizesArePowersOfTwo) {
    const ContractProvider &p = make();
    size_t min_page = 0;
    ASSERT_EQ(p.min_page_size(nullptr, &min_page), kOk);
    EXPECT_TRUE(is_power_of_two(min_page)) << min_page;
    for (size_t size : {size_t(1), size_t(4096), 1 * MiB, 64 * MiB}) {
        size_t page = 0;
        ASSERT_EQ(p.recommended_page_size(size, &page), kOk) << size;
        EXPECT_TRUE(is_power_of_two(page)) << page;
        EXPECT_GE(page, min_page) << "recommended below the minimum";
    }
}

// The page size of a pointer is that of its allocation: the same for any
// pointer inside it, a power of two the allocation starts on.
TEST_P(Contract, PageSizeOfAPointerIsItsAllocations) {
    const ContractProvider &p = make();
    for (size_t size : {size_t(64), size_t(10000), 3 * MiB}) {
        char *ptr = static_cast<char *>(p.alloc_or_null(size));
        ASSERT_NE(ptr, nullptr);
        size_t page = 0;
        ASSERT_EQ(p.min_page_size(ptr, &page), kOk);
        EXPECT_TRUE(is_power_of_two(page)) << page;
        EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % page, 0u);
        for (size_t off : {size_t(1), size / 2, size - 1}) {
            size_t inner = 0;
            ASSERT_EQ(p.min_page_size(ptr + off, &inner), kOk) << off;
            EXPECT_EQ(inner, page) << "at offset " << off << " of " << size;
        }
        EXPECT_EQ(p.free(ptr, size), kOk);
    }
}

TEST_P(Contract, PageSizeOfMemoryOfNoProviderIsRefused) {
    const ContractProvider &p = make();
    char local[64];
    size_t page = 0;
    EXPECT_EQ(p.min_page_size(local, &page), kInvalid);
}

// ----------------------------------------------------------------- names

TEST_P(Contract, NameIsTheDefaultOrTheOneGivenUpTo63Characters) {
    const ContractProvider &p = make();
    ASSERT_NE(p.name(), nullptr);
    EXPECT_STREQ(p.name(), default_name(g));
    std::string long_name(100, 'n');
    for (std::string given : {std::string("pool of a runtime"), long_name}) {
        umf_test_provider_opts_t opts = {};
        opts.name = given.c_str();
        const ContractProvider &named = make(&opts);
        given[0] = 'X'; // the provider keeps a copy
        ASSERT_NE(named.name(), nullptr);
        EXPECT_EQ(std::string(named.name()),
                  std::string(given.size() > 63 ? long_name.substr(0, 63)
                                                : "pool of a runtime"));
    }
}

// --------------------------------------------------------- native errors

// The ops header: the message and code are stored in thread-local storage
// before ERROR_MEMORY_PROVIDER_SPECIFIC returns; the message is
// NUL-terminated and owned by the provider; another thread sees nothing of
// it.
TEST_P(Contract, RunningOutOfDeviceMemoryIsTellable) {
    const ContractProvider &p = make();
    void *ptr = nullptr;
    ASSERT_EQ(p.alloc(kTooBig, 0, &ptr),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    const char *msg = nullptr;
    int32_t code = 0;
    p.last_native_error(&msg, &code);
    EXPECT_EQ(code, g->oom_code);
    ASSERT_NE(msg, nullptr);
    std::string text = msg;
    EXPECT_NE(text.find(device_alloc_call(g, GetParam().cuda_mode)),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("size=" + std::to_string(kTooBig)), std::string::npos)
        << text;
    EXPECT_NE(text.find(oom_name(g)), std::string::npos) << text;
    EXPECT_NE(text.find("device memory ran out"), std::string::npos) << text;
    // The same through the ops table alone (as after a failed create).
    const char *ops_msg = nullptr;
    int32_t ops_code = 0;
    umf_test_gpu_native_error(g, &ops_msg, &ops_code);
    EXPECT_EQ(ops_code, code);
    EXPECT_STREQ(ops_msg, msg);
    EXPECT_EQ(p.stats().alloc_count, 0u) << "a failed alloc counts nothing";

    std::thread([&] {
        const char *other_msg = nullptr;
        int32_t other_code = -1;
        p.last_native_error(&other_msg, &other_code);
        EXPECT_EQ(other_code, 0);
        ASSERT_NE(other_msg, nullptr);
        EXPECT_STREQ(other_msg, "");
        // A failure of its own leaves the first thread's alone.
        void *q = nullptr;
        EXPECT_EQ(p.alloc(kTooBig / 2, 0, &q),
                  UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    }).join();
    const char *again = nullptr;
    int32_t again_code = 0;
    p.last_native_error(&again, &again_code);
    EXPECT_EQ(again_code, code);
    EXPECT_EQ(std::string(again), text);
}

TEST_P(Contract, InjectedDriverFailureIsProviderSpecificWithItsCode) {
    GPU_REQUIRE_EMULATED(g);
    const ContractProvider &p = make();
    const char *entry = device_alloc_call(g, GetParam().cuda_mode);
    std::string rule = std::string(entry) + ":1=" + g->fault_name;
    ASSERT_EQ(g->mock.inject(rule.c_str()), 0);
    void *ptr = nullptr;
    EXPECT_EQ(p.alloc(4096, 0, &ptr),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    const char *msg = nullptr;
    int32_t code = 0;
    p.last_native_error(&msg, &code);
    EXPECT_EQ(code, g->fault_code);
    ASSERT_NE(msg, nullptr);
    EXPECT_NE(std::strstr(msg, entry), nullptr) << msg;
    EXPECT_NE(std::strstr(msg, g->fault_name), nullptr) << msg;
    g->mock.clear();
    // And the provider goes on working.
    void *q = p.alloc_or_null(4096);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(p.free(q, 4096), kOk);
}

// A call that fails tells its caller with its result (and the native
// error): by default nothing reaches stderr, and UMF_GPU_LOG=info shows one
// line at info level for each such failure, in both providers alike.

// What a parent tells a contract child: the kind and the table.
struct ChildTarget {
    uint32_t kind;
    uint32_t table;    // index in contract_tables()
    int32_t cuda_mode; // of the child's DEVICE provider
};

ChildTarget child_target(const umf_test_gpu_t *g, const ContractTable *table,
                         int cuda_mode) {
    std::vector<const ContractTable *> tables = contract_tables();
    return {
        static_cast<uint32_t>(g->kind),
        static_cast<uint32_t>(std::find(tables.begin(), tables.end(), table) -
                              tables.begin()),
        cuda_mode};
}

// The options of the child's provider.
umf_test_provider_opts_t child_opts(const ChildTarget &t) {
    umf_test_provider_opts_t o = {};
    o.cuda_mode = t.cuda_mode;
    return o;
}

// The child's side: the harness of the kind (usable) and the table, or
// nullptr.
const ContractTable *child_table(const ChildTarget &t,
                                 const umf_test_gpu_t **g) {
    *g = umf_test_gpu(static_cast<umf_test_gpu_kind_t>(t.kind));
    std::vector<const ContractTable *> tables = contract_tables();
    return (*g)->why == nullptr && t.table < tables.size() ? tables[t.table]
                                                           : nullptr;
}

// Makes failing calls with this process's stderr in a file, and sends what
// the library wrote there (its lines: "umf-gpu[pid] LEVEL ...").
UMF_TEST_CHILD(contract_failures) {
    (void)argc, (void)argv;
    ChildTarget m = {};
    CHILD_ASSERT_EQ(umf_test_recv(sock, &m, sizeof(m)), 0);
    const umf_test_gpu_t *g = nullptr;
    const ContractTable *table = child_table(m, &g);
    CHILD_ASSERT(table != nullptr);
    umf_test_provider_opts_t o = child_opts(m);
    ContractProvider p(table, g, &o);
    CHILD_ASSERT(p.ok());
    void *live = nullptr;
    CHILD_ASSERT_EQ(p.alloc(4096, 0, &live), kOk);
    FILE *capture = std::tmpfile();
    CHILD_ASSERT(capture != nullptr);
    std::fflush(stderr);
    int saved = dup(2);
    CHILD_ASSERT(saved >= 0 && dup2(fileno(capture), 2) == 2);
    static char not_ours[256];
    void *ptr = nullptr;
    umf_result_t oom = p.alloc(kTooBig, 0, &ptr);   // out of device memory
    umf_result_t foreign = p.free(not_ours, 256);   // not its allocation
    umf_result_t size = p.free(live, 1024);         // another size
    umf_result_t split = p.split(live, 8192, 1024); // another size
    umf_result_t align = p.alloc(64, 3 * 64, &ptr); // no power of two
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHILD_EXPECT(oom != kOk);
    CHILD_EXPECT_EQ(foreign, kInvalid);
    CHILD_EXPECT_EQ(size, kInvalid);
    CHILD_EXPECT_EQ(split, kInvalid);
    CHILD_EXPECT_EQ(align, UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    CHILD_EXPECT_EQ(p.free(live, 4096), kOk);
    std::string text;
    char buf[4096];
    std::rewind(capture);
    for (size_t n; (n = std::fread(buf, 1, sizeof(buf), capture)) > 0;) {
        text.append(buf, n);
    }
    std::fclose(capture);
    uint64_t len = text.size();
    CHILD_ASSERT_EQ(umf_test_send(sock, &len, sizeof(len)), 0);
    CHILD_ASSERT_EQ(umf_test_send(sock, text.data(), text.size()), 0);
    return 0;
}

// The library's lines (not the emulated drivers', "umf-gpu/<driver>[")
// that failing calls write, run with UMF_GPU_LOG set to `level` (nullptr:
// unset, the default).
std::vector<std::string> failure_lines(const umf_test_gpu_t *g,
                                       const ContractTable *table,
                                       int cuda_mode, const char *level) {
    ChildTarget m = child_target(g, table, cuda_mode);
    std::string assignment = std::string("UMF_GPU_LOG=") + (level ? level : "");
    const char *env[] = {level ? assignment.c_str() : "UMF_GPU_LOG", nullptr};
    umf_test_child_t child;
    std::vector<std::string> lines;
    if (umf_test_child_start_env(&child, "contract_failures", nullptr, env) !=
        0) {
        ADD_FAILURE() << "cannot start the child";
        return lines;
    }
    uint64_t len = 0;
    std::string text;
    if (umf_test_send(child.sock, &m, sizeof(m)) == 0 &&
        umf_test_recv(child.sock, &len, sizeof(len)) == 0 && len < (1u << 20)) {
        text.resize(len);
        EXPECT_EQ(umf_test_recv(child.sock, text.data(), len), 0);
    } else {
        ADD_FAILURE() << "the child failed";
    }
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end;
        std::string line = text.substr(at, end - at);
        if (line.find(" umf-gpu[") != std::string::npos) {
            lines.push_back(line);
        }
        at = end + 1;
    }
    return lines;
}

TEST_P(Contract, ReturnedFailuresPrintNothingByDefault) {
    for (const std::string &line :
         failure_lines(g, table, GetParam().cuda_mode, nullptr)) {
        ADD_FAILURE() << "printed: " << line;
    }
}

TEST_P(Contract, ReturnedFailuresAreInfoLines) {
    std::vector<std::string> lines =
        failure_lines(g, table, GetParam().cuda_mode, "info");
    auto has = [&](const std::string &what) {
        return std::any_of(lines.begin(), lines.end(), [&](const auto &l) {
            return l.find(what) != std::string::npos;
        });
    };
    for (const std::string &line : lines) {
        EXPECT_NE(line.find(" INFO "), std::string::npos) << line;
    }
    EXPECT_TRUE(has(device_alloc_call(g, GetParam().cuda_mode)))
        << "the failed allocation";
    EXPECT_TRUE(has("is not an allocation of this provider"));
    EXPECT_TRUE(has("bytes, not 1024")) << "the free of another size";
    EXPECT_TRUE(has("allocation_split of")) << "the split of another size";
}

// ----------------------------------------------------------- split/merge

TEST_P(Contract, SplitPiecesFreeIndependentlyInEitherOrder) {
    const ContractProvider &p = make();
    for (bool low_first : {true, false}) {
        char *ptr = static_cast<char *>(p.alloc_or_null(64 * KiB));
        ASSERT_NE(ptr, nullptr);
        ASSERT_TRUE(fill(ptr, 64 * KiB, 1));
        ASSERT_EQ(p.split(ptr, 64 * KiB, 16 * KiB), kOk);
        char *first = low_first ? ptr : ptr + 16 * KiB;
        size_t first_size = low_first ? 16 * KiB : 48 * KiB;
        char *second = low_first ? ptr + 16 * KiB : ptr;
        size_t second_size = 64 * KiB - first_size;
        ASSERT_EQ(p.free(first, first_size), kOk);
        // The other piece is still there, with its data.
        std::vector<unsigned char> want = gpu_pattern(64 * KiB, 1);
        std::vector<unsigned char> got(second_size);
        ASSERT_TRUE(
            umf_test_gpu_copy(g, nullptr, got.data(), second, second_size));
        EXPECT_TRUE(
            std::equal(got.begin(), got.end(), want.begin() + (second - ptr)));
        umf_gpu_allocation_properties_t props;
        ASSERT_EQ(p.properties(second, &props), kOk);
        EXPECT_EQ(props.base, second);
        EXPECT_EQ(props.size, second_size);
        ASSERT_EQ(p.free(second, second_size), kOk);
    }
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.alloc_count, 2u);
    EXPECT_EQ(s.free_count, 4u) << "each piece's free counts";
}

TEST_P(Contract, MergedPiecesFreeAsOne) {
    const ContractProvider &p = make();
    char *ptr = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(ptr, nullptr);
    ASSERT_EQ(p.split(ptr, 64 * KiB, 16 * KiB), kOk);
    ASSERT_EQ(p.split(ptr + 16 * KiB, 48 * KiB, 16 * KiB), kOk);
    ASSERT_EQ(p.merge(ptr, ptr + 16 * KiB, 32 * KiB), kOk);
    ASSERT_EQ(p.merge(ptr, ptr + 32 * KiB, 64 * KiB), kOk);
    umf_gpu_allocation_properties_t props;
    ASSERT_EQ(p.properties(ptr + 40 * KiB, &props), kOk);
    EXPECT_EQ(props.base, ptr);
    EXPECT_EQ(props.size, 64 * KiB);
    EXPECT_EQ(p.free(ptr, 64 * KiB), kOk);
    EXPECT_EQ(p.stats().allocated_bytes, 0u);
}

TEST_P(Contract, SplitRefusesSizesOutOfRange) {
    const ContractProvider &p = make();
    char *ptr = static_cast<char *>(p.alloc_or_null(8 * KiB));
    ASSERT_NE(ptr, nullptr);
    EXPECT_EQ(p.split(ptr, 8 * KiB, 0), kInvalid);
    EXPECT_EQ(p.split(ptr, 8 * KiB, 8 * KiB), kInvalid);
    EXPECT_EQ(p.split(ptr, 8 * KiB, 9 * KiB), kInvalid);
    EXPECT_EQ(p.split(ptr, 16 * KiB, 4 * KiB), kInvalid)
        << "more than the allocation";
    EXPECT_EQ(p.split(ptr + 64, 4 * KiB, 64), kInvalid) << "interior";
    char local[64];
    EXPECT_EQ(p.split(local, 64, 32), kInvalid) << "no provider's memory";
    // Nothing changed: the allocation frees whole.
    EXPECT_EQ(p.free(ptr, 8 * KiB), kOk);
}

TEST_P(Contract, MergeRefusesPiecesThatAreNotNeighbours) {
    const ContractProvider &p = make();
    char *a = static_cast<char *>(p.alloc_or_null(8 * KiB));
    char *b = static_cast<char *>(p.alloc_or_null(8 * KiB));
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(p.split(a, 8 * KiB, 2 * KiB), kOk);
    ASSERT_EQ(p.split(a + 2 * KiB, 6 * KiB, 2 * KiB), kOk);
    ASSERT_EQ(p.split(b, 8 * KiB, 4 * KiB), kOk);
    // a: [0, 2K) [2K, 4K) [4K, 8K). Not adjacent, out of order, of two
    // driver allocations.
    EXPECT_EQ(p.merge(a, a + 4 * KiB, 6 * KiB), kInvalid);
    EXPECT_EQ(p.merge(a + 2 * KiB, a, 4 * KiB), kInvalid);
    EXPECT_EQ(p.merge(a + 4 * KiB, b, 8 * KiB), kInvalid);
    if (b == a + 8 * KiB) {
        EXPECT_EQ(p.merge(a + 4 * KiB, b, 8 * KiB), kInvalid);
    }
    for (auto piece :
         {std::make_pair(a, 2 * KiB), std::make_pair(a + 2 * KiB, 2 * KiB),
          std::make_pair(a + 4 * KiB, 4 * KiB), std::make_pair(b, 4 * KiB),
          std::make_pair(b + 4 * KiB, 4 * KiB)}) {
        EXPECT_EQ(p.free(piece.first, piece.second), kOk);
    }
}

// ------------------------------------------------------------------- IPC

TEST_P(Contract, IpcDataOpensToTheSameMemoryInTheProducer) {
    const ContractProvider &p = make();
    size_t n = 0;
    ASSERT_EQ(p.ipc_handle_size(&n), kOk);
    EXPECT_GT(n, 0u);
    char *ptr = static_cast<char *>(p.alloc_or_null(64 * KiB));
    ASSERT_NE(ptr, nullptr);
    ASSERT_TRUE(fill(ptr, 64 * KiB, 5));
    for (size_t off : {size_t(0), size_t(4096), size_t(100)}) {
        std::vector<unsigned char> data = p.ipc_data(ptr + off, 4096);
        ASSERT_FALSE(data.empty());
        EXPECT_EQ(p.stats().ipc_handles_exported, 1u);
        void *opened = nullptr;
        ASSERT_EQ(p.open_ipc_handle(data.data(), &opened), kOk);
        EXPECT_EQ(opened, ptr + off) << "the producer's own memory";
        EXPECT_EQ(p.stats().ipc_handles_open, 1u);
        EXPECT_EQ(p.close_ipc_handle(opened, 4096), kOk);
        EXPECT_EQ(p.stats().ipc_handles_open, 0u);
        EXPECT_EQ(p.put_ipc_handle(data.data()), kOk);
        EXPECT_EQ(p.stats().ipc_handles_exported, 0u);
    }
    EXPECT_EQ(p.free(ptr, 64 * KiB), kOk);
}

TEST_P(Contract, IpcRefusesMemoryOfNoProviderAndMalformedData) {
    const ContractProvider &p = make();
    size_t n = 0;
    ASSERT_EQ(p.ipc_handle_size(&n), kOk);
    std::vector<unsigned char> data(n);
    char local[64];
    EXPECT_EQ(p.get_ipc_handle(local, sizeof(local), data.data()), kInvalid);
    EXPECT_EQ(p.stats().ipc_handles_exported, 0u);
    for (unsigned char byte : {0x00, 0x5a, 0xff}) {
        std::fill(data.begin(), data.end(), byte);
        void *opened = nullptr;
        EXPECT_EQ(p.open_ipc_handle(data.data(), &opened), kInvalid) << byte;
        EXPECT_EQ(p.put_ipc_handle(data.data()), kInvalid) << byte;
    }
    EXPECT_EQ(p.stats().ipc_handles_open, 0u);
}

// A producer child shares an allocation; this process opens it, reads and
// changes it; the producer sees the change. (This way round because
// taking another process's fd needs ptrace rights over it, which a parent
// has over its child.)
struct IpcMessage {
    ChildTarget target;
    uint64_t size;
    unsigned char data[512];
};

UMF_TEST_CHILD(contract_producer) {
    (void)argc, (void)argv;
    IpcMessage m = {};
    CHILD_ASSERT_EQ(umf_test_recv(sock, &m, sizeof(m)), 0);
    const umf_test_gpu_t *g = nullptr;
    const ContractTable *table = child_table(m.target, &g);
    CHILD_ASSERT(table != nullptr);
    umf_test_provider_opts_t o = child_opts(m.target);
    ContractProvider p(table, g, &o);
    CHILD_ASSERT(p.ok());
    void *ptr = nullptr;
    CHILD_ASSERT_EQ(p.alloc(m.size, 0, &ptr), kOk);
    CHILD_ASSERT(umf_test_gpu_fill(g, nullptr, ptr, m.size, 21));
    size_t n = 0;
    CHILD_ASSERT_EQ(p.ipc_handle_size(&n), kOk);
    CHILD_ASSERT(n <= sizeof(m.data));
    CHILD_ASSERT_EQ(p.get_ipc_handle(ptr, m.size, m.data), kOk);
    CHILD_ASSERT_EQ(umf_test_send(sock, &m, sizeof(m)), 0);
    // The consumer has changed the memory when it answers.
    uint32_t done = 0;
    CHILD_ASSERT_EQ(umf_test_recv(sock, &done, sizeof(done)), 0);
    CHILD_EXPECT(umf_test_gpu_check(g, nullptr, ptr, m.size, 22));
    CHILD_EXPECT_EQ(p.put_ipc_handle(m.data), kOk);
    CHILD_EXPECT_EQ(p.free(ptr, m.size), kOk);
    return 0;
}

TEST_P(Contract, IpcDataOpensInAnotherProcess) {
    const ContractProvider &p = make();
    ASSERT_TRUE(p.ok());
    IpcMessage m = {};
    m.target = child_target(g, table, GetParam().cuda_mode);
    m.size = 256 * KiB;
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "contract_producer", nullptr), 0);
    ASSERT_EQ(umf_test_send(child.sock, &m, sizeof(m)), 0);
    bool got = umf_test_recv(child.sock, &m, sizeof(m)) == 0;
    EXPECT_TRUE(got) << "the producer failed";
    if (got) {
        void *opened = nullptr;
        ASSERT_EQ(p.open_ipc_handle(m.data, &opened), kOk);
        EXPECT_TRUE(check(opened, m.size, 21));
        EXPECT_TRUE(fill(opened, m.size, 22));
        // A second open of the same data shares the mapping.
        void *again = nullptr;
        EXPECT_EQ(p.open_ipc_handle(m.data, &again), kOk);
        EXPECT_EQ(again, opened);
        EXPECT_EQ(p.stats().ipc_handles_open, 2u);
        EXPECT_EQ(p.close_ipc_handle(again, m.size), kOk);
        EXPECT_EQ(p.close_ipc_handle(opened, m.size), kOk);
        EXPECT_EQ(p.stats().ipc_handles_open, 0u);
        uint32_t done = 1;
        EXPECT_EQ(umf_test_send(child.sock, &done, sizeof(done)), 0);
    }
    EXPECT_EQ(umf_test_child_wait(&child), 0);
}

// ----------------------------------------------------------------- stats

TEST_P(Contract, StatsCountExactly) {
    const ContractProvider &p = make();
    umf_gpu_provider_stats_t s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.peak_bytes, 0u);
    EXPECT_EQ(s.alloc_count, 0u);
    EXPECT_EQ(s.free_count, 0u);
    void *a = p.alloc_or_null(3 * MiB);
    void *b = p.alloc_or_null(100);
    void *c = p.alloc_or_null(5000);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(c, nullptr);
    s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 3 * MiB + 5100);
    EXPECT_EQ(s.peak_bytes, 3 * MiB + 5100);
    EXPECT_EQ(s.alloc_count, 3u);
    ASSERT_EQ(p.free(a, 3 * MiB), kOk);
    s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 5100u);
    EXPECT_EQ(s.peak_bytes, 3 * MiB + 5100) << "the peak stays";
    EXPECT_EQ(s.free_count, 1u);
    ASSERT_EQ(p.free(b, 100), kOk);
    ASSERT_EQ(p.free(c, 5000), kOk);
    s = p.stats();
    EXPECT_EQ(s.allocated_bytes, 0u);
    EXPECT_EQ(s.alloc_count, 3u);
    EXPECT_EQ(s.free_count, 3u);
    // Each provider counts its own.
    const ContractProvider &other = make();
    void *d = other.alloc_or_null(4096);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(p.stats().allocated_bytes, 0u);
    EXPECT_EQ(other.stats().allocated_bytes, 4096u);
    EXPECT_EQ(other.free(d, 4096), kOk);
}

// ------------------------------------------------- allocation properties

TEST_P(Contract, PropertiesOfAnyPointerInside) {
    const ContractProvider &p = make();
    char *a = static_cast<char *>(p.alloc_or_null(10000));
    char *b = static_cast<char *>(p.alloc_or_null(10000));
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    umf_gpu_allocation_properties_t pa = {}, pb = {};
    for (size_t off : {size_t(0), size_t(1), size_t(5000), size_t(9999)}) {
        std::memset(&pa, 0xab, sizeof(pa));
        ASSERT_EQ(p.properties(a + off, &pa), kOk) << off;
        EXPECT_EQ(pa.memory_type, UMF_MEMORY_TYPE_DEVICE);
        EXPECT_EQ(pa.base, a);
        EXPECT_EQ(pa.size, 10000u);
        EXPECT_EQ(pa.device, device0(g));
        EXPECT_EQ(pa.context, g->context);
    }
    ASSERT_EQ(p.properties(b, &pb), kOk);
    EXPECT_NE(pa.driver_id, 0u);
    EXPECT_NE(pa.driver_id, pb.driver_id);
    char local[64];
    EXPECT_EQ(p.properties(local, &pa), kInvalid);
    EXPECT_EQ(p.free(a, 10000), kOk);
    EXPECT_EQ(p.properties(a, &pa), kInvalid) << "freed";
    EXPECT_EQ(p.free(b, 10000), kOk);
}

// ----------------------------------------------------------------- purge

// Neither driver can drop the pages of its allocations (both headers).
TEST_P(Contract, PurgeIsNotSupported) {
    const ContractProvider &p = make();
    void *ptr = p.alloc_or_null(64 * KiB);
    ASSERT_NE(ptr, nullptr);
    EXPECT_EQ(p.purge_lazy(ptr, 64 * KiB), UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(p.purge_force(ptr, 64 * KiB), UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(p.free(ptr, 64 * KiB), kOk);
}

INSTANTIATE_TEST_SUITE_P(Providers, Contract,
                         ::testing::ValuesIn(contract_params()),
                         contract_param_name);

} // namespace
