// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC handles open only what they were made for (issue 12), each case once
// for both providers (TEST_P over the kinds this build has):
//
// - Forged records: a generator changes every field of a valid record
//   (and the driver's handle inside it) to boundary values, with the
//   checksum left stale and recomputed, for first opens, cache hits and the
//   exporter's own opens. Each case must be refused, or give a pointer
//   whose claimed range the driver's own copy can read, holding the
//   exported data; fds and driver imports return to where they were.
// - Stale handles: the exporter frees and allocates again at the same
//   address; the old handle is refused (or, while the consumer holds the
//   old mapping, served that mapping), never the new allocation.
// - Pid reuse, deterministically (root: a fresh pid namespace, the next pid
//   chosen with ns_last_pid): a second exporter gets the first one's pid;
//   the old handle is refused, and the new one opens its own memory, also
//   while the consumer still holds the first exporter's mapping.
// - Result codes: a refused fd transfer (seccomp: EPERM) and a kernel
//   without pidfd (ENOSYS) are NOT_SUPPORTED with the rule in the native
//   error; no fd left is OUT_OF_RESOURCES.
// - The emulated libcuda's version 2 interprocess event handles (issue
//   27): the generator changes every field, checksum recomputed and stale;
//   opened in another process, through pidfd_getfd and through the fd
//   server only, each is refused, except a change of the way to the fd
//   alone.

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern "C" {
#include "ipc_data.h"
}

#include "rel_child.h"
#if UMF_TEST_HAVE_CUDA
#include "cuda_test_driver.h"
#include "cuda_test_fixture.h"
#endif

namespace {

constexpr size_t kSize = 64 * 1024;
constexpr size_t kPage = 4096;

// ------------------------------------------------------------ a producer

// What a producer sends: its allocations' IPC data and addresses.
struct Shared {
    RelIpcData data[2];
    uint64_t base[2];
};

// argv: kind, seed, count (1 or 2). Allocates `count` allocations of kSize,
// fills allocation i with seed + i, and sends a Shared. Then, per byte from
// the parent: 'r' puts, frees and allocates allocation 0 again, fills it
// with seed + 100 and sends a Shared; 'q' (or the end) puts, frees, exits.
UMF_TEST_CHILD(trust_producer) {
    if (argc < 3) {
        return 100;
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    unsigned seed = static_cast<unsigned>(std::atoi(argv[1]));
    int count = std::atoi(argv[2]);
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    if (h == nullptr || count < 1 || count > 2) {
        return 101;
    }
    void *p[2] = {};
    Shared s = {};
    auto share = [&](int i, unsigned fill_seed) {
        s.data[i].size = sizeof(umf_ipc_data_t);
        s.base[i] = reinterpret_cast<uintptr_t>(p[i]);
        return umf_test_gpu_fill(g, nullptr, p[i], kSize, fill_seed) &&
               umfMemoryProviderGetIPCHandle(h, p[i], kSize, s.data[i].bytes) ==
                   UMF_RESULT_SUCCESS;
    };
    for (int i = 0; i < count; i++) {
        if (umfMemoryProviderAlloc(h, kSize, 0, &p[i]) != UMF_RESULT_SUCCESS ||
            !share(i, seed + static_cast<unsigned>(i))) {
            return 102;
        }
    }
    if (umf_test_send(sock, &s, sizeof(s)) != 0) {
        return 103;
    }
    int status = 0;
    char cmd = 0;
    while (status == 0 && umf_test_recv(sock, &cmd, 1) == 0 && cmd == 'r') {
        void *old = p[0];
        if (umfMemoryProviderPutIPCHandle(h, s.data[0].bytes) !=
                UMF_RESULT_SUCCESS ||
            umfMemoryProviderFree(h, old, kSize) != UMF_RESULT_SUCCESS ||
            umfMemoryProviderAlloc(h, kSize, 0, &p[0]) != UMF_RESULT_SUCCESS ||
            !share(0, seed + 100) || umf_test_send(sock, &s, sizeof(s)) != 0) {
            status = 104;
        }
    }
    for (int i = 0; i < count; i++) {
        if (p[i] != nullptr) {
            umfMemoryProviderPutIPCHandle(h, s.data[i].bytes);
            umfMemoryProviderFree(h, p[i], kSize);
        }
    }
    umfMemoryProviderDestroy(h);
    umf_test_gpu_release_all();
    return status;
}

struct Producer : RelRole {
    Shared s{};

    bool Start(umf_test_gpu_kind_t kind, unsigned seed, int count) {
        return RelRole::Start("trust_producer",
                              {std::to_string(static_cast<int>(kind)),
                               std::to_string(seed), std::to_string(count)}) &&
               umf_test_recv(child.sock, &s, sizeof(s)) == 0;
    }
    // Frees allocation 0 and allocates it again; the new data in s.
    bool Reallocate() {
        return umf_test_send(child.sock, "r", 1) == 0 &&
               umf_test_recv(child.sock, &s, sizeof(s)) == 0;
    }
};

umf_ipc_data_t Record(const RelIpcData &d) {
    umf_ipc_data_t r;
    std::memcpy(&r, d.bytes, sizeof(r));
    return r;
}

// ------------------------------------------------------------ forged data

// The emulated drivers' handle layout (mock/mock_ipc.c): where its fields
// lie, and its checksum over bytes 4-19 and 24-63, so that a test can forge
// a handle the driver's own check accepts.
constexpr size_t kMockPid = 16, kMockOffset = 24, kMockSize = 32, kMockIno = 40,
                 kMockId = 48, kMockStart = 56;

template <typename T> T Get(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

template <typename T> void Put(uint8_t *p, T v) {
    std::memcpy(p, &v, sizeof(v));
}

struct Forged {
    std::string name;
    umf_ipc_data_t data;
};

// Every field of `valid` changed to boundary values, one at a time, each
// with the checksum recomputed and left stale; `other` is a record of
// another allocation or process, for values that belong to someone else.
std::vector<Forged> ForgeFrom(const umf_ipc_data_t &valid,
                              const umf_ipc_data_t &other) {
    std::vector<std::pair<std::string, std::function<void(umf_ipc_data_t &)>>>
        changes;
    auto add = [&](std::string name, std::function<void(umf_ipc_data_t &)> f) {
        changes.emplace_back(std::move(name), std::move(f));
    };
    const uint64_t sizes[] = {0,          1,
                              kPage,      kSize - 1,
                              kSize + 1,  kSize + kPage,
                              2 * kSize,  128 * 1024,
                              1ull << 40, UINT64_MAX / 2,
                              UINT64_MAX};
    for (uint64_t v : sizes) {
        add("size=" + std::to_string(v),
            [v](umf_ipc_data_t &d) { d.size = v; });
    }
    const uint64_t offsets[] = {1,         kSize - 1, kSize,      kSize + 1,
                                68 * 1024, 2 * kSize, 1ull << 40, UINT64_MAX};
    for (uint64_t v : offsets) {
        add("offset=" + std::to_string(v),
            [v](umf_ipc_data_t &d) { d.offset = v; });
    }
    // Size and offset together at, just past and far past the mapping.
    const std::pair<uint64_t, uint64_t> ranges[] = {
        {128 * 1024, 68 * 1024},   {kSize + 1, kSize},
        {kSize + kPage, kSize},    {2 * kSize, kSize + 8},
        {1ull << 40, 68 * 1024},   {UINT64_MAX, kSize},
        {kSize / 2, kSize / 2 - 1}};
    for (auto r : ranges) {
        add("size=" + std::to_string(r.first) +
                ",offset=" + std::to_string(r.second),
            [r](umf_ipc_data_t &d) {
                d.size = r.first;
                d.offset = r.second;
            });
    }
    for (int bit = 0; bit < 64; bit++) {
        add("size bit " + std::to_string(bit) + " flipped",
            [bit](umf_ipc_data_t &d) { d.size ^= 1ull << bit; });
    }
    add("base+page", [](umf_ipc_data_t &d) { d.base += kPage; });
    add("base-page", [](umf_ipc_data_t &d) { d.base -= kPage; });
    add("another allocation's base",
        [other](umf_ipc_data_t &d) { d.base = other.base; });
    add("another allocation's id",
        [other](umf_ipc_data_t &d) { d.alloc_id = other.alloc_id; });
    add("alloc id+1", [](umf_ipc_data_t &d) { d.alloc_id += 1; });
    add("alloc id 0", [](umf_ipc_data_t &d) { d.alloc_id = 0; });
    add("another process's instance id",
        [other](umf_ipc_data_t &d) { d.instance_id = other.instance_id; });
    add("this process's instance id",
        [](umf_ipc_data_t &d) { d.instance_id = umf_ipc_instance_id(); });
    add("instance id+1", [](umf_ipc_data_t &d) { d.instance_id += 1; });
    add("another process's pid",
        [other](umf_ipc_data_t &d) { d.producer_pid = other.producer_pid; });
    add("this process's pid",
        [](umf_ipc_data_t &d) { d.producer_pid = (int32_t)getpid(); });
    add("pid 1", [](umf_ipc_data_t &d) { d.producer_pid = 1; });
    add("start time+1", [](umf_ipc_data_t &d) { d.producer_start_time++; });
    add("pidfd inode+1", [](umf_ipc_data_t &d) { d.producer_pidfs_ino++; });
    add("another process's pidfd inode", [other](umf_ipc_data_t &d) {
        d.producer_pidfs_ino = other.producer_pidfs_ino;
    });
    add("another process's start time", [other](umf_ipc_data_t &d) {
        d.producer_start_time = other.producer_start_time;
    });
    add("fd inode+1", [](umf_ipc_data_t &d) {
        d.fd_ino += 1;
        d.fd_dev += d.fd_dev == 0; // a whole identity where there was none
    });
    add("fd device+1", [](umf_ipc_data_t &d) {
        d.fd_dev += 1;
        d.fd_ino += d.fd_ino == 0;
    });
    add("another allocation's fd identity", [other](umf_ipc_data_t &d) {
        d.fd_dev = other.fd_dev;
        d.fd_ino = other.fd_ino;
    });
    add("memory type HOST",
        [](umf_ipc_data_t &d) { d.memory_type = UMF_MEMORY_TYPE_HOST; });
    // The driver's handle inside, resealed with its own checksum: what the
    // driver checks against the file itself.
    auto native = [&](std::string name, std::function<void(uint8_t *)> f) {
        add("handle: " + name, [f](umf_ipc_data_t &d) {
            f(d.handle);
            rel_reseal_mock_handle(d.handle);
        });
    };
    const int fds[] = {0, 1, 2, 999};
    for (int fd : fds) {
        native("fd " + std::to_string(fd),
               [fd](uint8_t *h) { Put<int32_t>(h, fd); });
    }
    native("another allocation's fd",
           [other](uint8_t *h) { std::memcpy(h, other.handle, 4); });
    native("size+page", [](uint8_t *h) {
        Put<uint64_t>(h + kMockSize, Get<uint64_t>(h + kMockSize) + kPage);
    });
    native("size*2", [](uint8_t *h) {
        Put<uint64_t>(h + kMockSize, 2 * Get<uint64_t>(h + kMockSize));
    });
    native("size 128 KiB",
           [](uint8_t *h) { Put<uint64_t>(h + kMockSize, 128 * 1024); });
    native("offset+page", [](uint8_t *h) {
        Put<uint64_t>(h + kMockOffset, Get<uint64_t>(h + kMockOffset) + kPage);
    });
    native("another allocation's offset", [other](uint8_t *h) {
        std::memcpy(h + kMockOffset, other.handle + kMockOffset, 8);
    });
    native("another allocation's id", [other](uint8_t *h) {
        std::memcpy(h + kMockId, other.handle + kMockId, 8);
    });
    native("file inode+1", [](uint8_t *h) {
        Put<uint64_t>(h + kMockIno, Get<uint64_t>(h + kMockIno) + 1);
    });
    native("exporter (pidfd inode or start time)+1", [](uint8_t *h) {
        Put<uint64_t>(h + kMockStart, Get<uint64_t>(h + kMockStart) + 1);
    });
    native("another process's pid", [other](uint8_t *h) {
        std::memcpy(h + kMockPid, other.handle + kMockPid, 4);
    });

    std::vector<Forged> out;
    for (auto &c : changes) {
        umf_ipc_data_t d = valid;
        c.second(d);
        if (std::memcmp(&d, &valid, sizeof(d)) == 0) {
            continue; // changed nothing (e.g. already that value)
        }
        Forged stale = {c.first + " (checksum stale)", d};
        out.push_back(stale);
        d.checksum = umf_ipc_data_checksum(&d);
        out.push_back({c.first + " (checksum recomputed)", d});
    }
    return out;
}

// ------------------------------------------------------------ the fixture

class IpcTrust : public ::testing::TestWithParam<umf_test_gpu_kind_t> {
  protected:
    void SetUp() override {
        g_ = umf_test_gpu(GetParam());
        GPU_REQUIRE_EMULATED(g_);
        h_ = gpu_provider_or_null(g_);
        ASSERT_NE(h_, nullptr);
        imports_ = g_->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
        allocations_ = g_->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    }
    void TearDown() override {
        if (h_ != nullptr) {
            umfMemoryProviderDestroy(h_);
        }
        if (g_ != nullptr && g_->why == nullptr) {
            EXPECT_EQ(g_->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                      imports_);
            EXPECT_EQ(g_->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
                      allocations_);
        }
    }

    umf_result_t Open(const umf_ipc_data_t &d, void **p) {
        *p = nullptr;
        return umfMemoryProviderOpenIPCHandle(
            h_, const_cast<umf_ipc_data_t *>(&d), p);
    }

    // Takes the fds and driver imports of this moment as the baseline
    // that each forged case must return to.
    void Baseline() {
        fds_ = umf_test_count_open_fds();
        case_imports_ = g_->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    }

    // One forged case: a refusal (INVALID_ARGUMENT: the data is not what was
    // exported), or a pointer whose claimed range the driver copies, holding
    // pattern `seed` from the record's offset; then closed. Either way the
    // fds and driver imports are back at the baseline.
    void Check(const Forged &f, unsigned seed, int *opened) {
        void *p = nullptr;
        umf_result_t ret = Open(f.data, &p);
        if (ret == UMF_RESULT_SUCCESS) {
            (*opened)++;
            uint64_t claimed = f.data.size - f.data.offset;
            ASSERT_LE(claimed, kSize) << f.name << ": opened past the mapping";
            std::vector<unsigned char> want = gpu_pattern(kSize, seed);
            std::vector<unsigned char> got(claimed);
            ASSERT_TRUE(umf_test_gpu_copy(g_, nullptr, got.data(), p, claimed))
                << f.name << ": the driver refuses the range handed out";
            EXPECT_EQ(
                std::memcmp(got.data(), want.data() + f.data.offset, claimed),
                0)
                << f.name << ": another allocation's memory";
            EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, p, claimed),
                      UMF_RESULT_SUCCESS)
                << f.name;
        } else {
            EXPECT_EQ(ret, UMF_RESULT_ERROR_INVALID_ARGUMENT) << f.name;
        }
        EXPECT_EQ(umf_test_count_open_fds(), fds_) << f.name << ": fd leak";
        EXPECT_EQ(g_->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                  case_imports_)
            << f.name << ": driver import leak";
    }

    void ForgeRemote(bool hold, unsigned seed);
    void PastTheAllocation(bool hold, unsigned seed);

    // A producer of two allocations (seeds `seed`, seed + 1) and another
    // producer process (seed + 10): the records forged ones borrow from.
    void StartProducers(Producer *prod, Producer *other, unsigned seed) {
        ASSERT_TRUE(prod->Start(GetParam(), seed, 2));
        ASSERT_TRUE(other->Start(GetParam(), seed + 10, 1));
    }

    // The generator against another allocation of `prod` and against
    // `other`'s; returns how many variants opened.
    int CheckAllAgainst(const umf_ipc_data_t &valid, const Producer &prod,
                        const Producer &other, unsigned seed) {
        int opened = CheckAll(valid, Record(prod.s.data[1]), seed);
        return opened + CheckAll(valid, Record(other.s.data[0]), seed);
    }

    // Every forged variant of `valid`; returns how many opened.
    int CheckAll(const umf_ipc_data_t &valid, const umf_ipc_data_t &other,
                 unsigned seed) {
        int opened = 0;
        for (const Forged &f : ForgeFrom(valid, other)) {
            Check(f, seed, &opened);
            if (HasFatalFailure()) {
                break;
            }
        }
        return opened;
    }

    const umf_test_gpu_t *g_ = nullptr;
    umf_memory_provider_handle_t h_ = nullptr;
    int64_t imports_ = 0, allocations_ = 0, case_imports_ = 0;
    int fds_ = -1;
};

// ------------------------------------------------------------ forged records

// The case: 128 KiB at offset 68 KiB of a 64 KiB allocation, on a
// first open (the driver's copy from the pointer read wild memory) or, with
// `hold`, on a cache hit (the cached mapping is smaller than the new record
// claims).
void IpcTrust::PastTheAllocation(bool hold, unsigned seed) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), seed, 1));
    umf_ipc_data_t d = Record(prod.s.data[0]);
    void *held = nullptr;
    if (hold) {
        ASSERT_EQ(Open(d, &held), UMF_RESULT_SUCCESS);
    }
    d.size = 128 * 1024;
    d.offset = 68 * 1024;
    d.checksum = umf_ipc_data_checksum(&d);
    void *p = nullptr;
    EXPECT_EQ(Open(d, &p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    if (hold) {
        EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, held, kSize, seed));
        EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, held, kSize),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(prod.Stop(), 0);
}

TEST_P(IpcTrust, SizeAndOffsetPastTheAllocationAreRefusedOnAFirstOpen) {
    PastTheAllocation(false, 10);
}

TEST_P(IpcTrust, SizeAndOffsetPastTheAllocationAreRefusedOnACacheHit) {
    PastTheAllocation(true, 11);
}

// In the exporter itself, where the pointer would land in another live
// allocation.
TEST_P(IpcTrust, SizeAndOffsetPastTheAllocationAreRefusedInTheExporter) {
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &a), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &b), UMF_RESULT_SUCCESS);
    umf_ipc_data_t d;
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(h_, a, kSize, &d),
              UMF_RESULT_SUCCESS);
    umf_ipc_data_t forged = d;
    forged.size = 128 * 1024;
    forged.offset = 68 * 1024;
    forged.checksum = umf_ipc_data_checksum(&forged);
    void *p = nullptr;
    EXPECT_EQ(Open(forged, &p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, &d), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, a, kSize), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, b, kSize), UMF_RESULT_SUCCESS);
}

// The generator on a producer's record: first opens (nothing of the
// record's is open; a warm-up open first does every lazy initialisation)
// or, with `hold`, cache hits (the valid record is open meanwhile).
void IpcTrust::ForgeRemote(bool hold, unsigned seed) {
    Producer prod, other;
    ASSERT_NO_FATAL_FAILURE(StartProducers(&prod, &other, seed));
    umf_ipc_data_t valid = Record(prod.s.data[0]);
    void *held = nullptr;
    ASSERT_EQ(Open(valid, &held), UMF_RESULT_SUCCESS);
    if (!hold) {
        ASSERT_EQ(umfMemoryProviderCloseIPCHandle(h_, held, kSize),
                  UMF_RESULT_SUCCESS);
    }
    Baseline();
    EXPECT_GT(CheckAllAgainst(valid, prod, other, seed), 0)
        << "no variant opened: the oracle saw nothing";
    if (hold) {
        EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, held, kSize, seed));
        EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, held, kSize),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(prod.Stop(), 0);
    EXPECT_EQ(other.Stop(), 0);
}

TEST_P(IpcTrust, ForgedRecordsOnAFirstOpen) {
    ForgeRemote(false, 20);
}

TEST_P(IpcTrust, ForgedRecordsOnACacheHit) {
    ForgeRemote(true, 40);
}

// The generator on the exporter's own opens, with and without an open of the
// valid record held; the "other" record is a second allocation of ours, and
// another process's.
TEST_P(IpcTrust, ForgedRecordsInTheExportersOwnOpen) {
    Producer other;
    ASSERT_TRUE(other.Start(GetParam(), 70, 1));
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &a), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &b), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, a, kSize, 60));
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, b, kSize, 61));
    umf_ipc_data_t da, db;
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(h_, a, kSize, &da),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(h_, b, kSize, &db),
              UMF_RESULT_SUCCESS);
    Baseline();
    int opened = CheckAll(da, db, 60);
    opened += CheckAll(da, Record(other.s.data[0]), 60);
    EXPECT_GT(opened, 0);
    void *held = nullptr;
    ASSERT_EQ(Open(da, &held), UMF_RESULT_SUCCESS);
    EXPECT_EQ(held, a);
    Baseline();
    CheckAll(da, db, 60);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, held, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, &da), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, &db), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, a, kSize), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, b, kSize), UMF_RESULT_SUCCESS);
    EXPECT_EQ(other.Stop(), 0);
}

// ------------------------------------------------------------ stale handles

// The exporter opens its own handle, frees the allocation, allocates again
// at the same address: the old handle is refused, with the old open still
// held and after it is closed, and the new handle opens the new allocation.
TEST_P(IpcTrust, AReallocatedAddressIsNotServedForTheOldHandleInTheExporter) {
    void *a = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &a), UMF_RESULT_SUCCESS);
    umf_ipc_data_t old;
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(h_, a, kSize, &old),
              UMF_RESULT_SUCCESS);
    void *held = nullptr;
    ASSERT_EQ(Open(old, &held), UMF_RESULT_SUCCESS);
    EXPECT_EQ(held, a);
    ASSERT_EQ(umfMemoryProviderPutIPCHandle(h_, &old), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderFree(h_, a, kSize), UMF_RESULT_SUCCESS);
    void *again = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h_, kSize, 0, &again), UMF_RESULT_SUCCESS);
    ASSERT_EQ(again, a) << "the driver did not reuse the address; the case "
                           "needs it to";
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, again, kSize, 80));
    void *p = nullptr;
    EXPECT_EQ(Open(old, &p), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the old handle served the new allocation (old open held)";
    umf_ipc_data_t fresh;
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(h_, again, kSize, &fresh),
              UMF_RESULT_SUCCESS);
    void *q = nullptr;
    ASSERT_EQ(Open(fresh, &q), UMF_RESULT_SUCCESS);
    EXPECT_EQ(q, again);
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, q, kSize, 80));
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, held, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(Open(old, &p), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the old handle served the new allocation (old open closed)";
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, q, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, q, kSize),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h_, &fresh), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h_, again, kSize), UMF_RESULT_SUCCESS);
}

// The same in a consumer. While it holds the old mapping, the old handle
// gives that mapping (the old allocation's data, kept for it), never the new
// allocation, and the new handle gives the new allocation (the emulated
// driver keeps the imported block out of circulation meanwhile, so the new
// one lies elsewhere). Once nothing is open, the producer frees and
// allocates again at the same address: the handle of the freed allocation
// is refused.
TEST_P(IpcTrust, AReallocatedAddressIsNotServedForTheOldHandleInAConsumer) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 90, 1));
    umf_ipc_data_t old = Record(prod.s.data[0]);
    void *held = nullptr;
    ASSERT_EQ(Open(old, &held), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(umf_test_gpu_check(g_, nullptr, held, kSize, 90));
    ASSERT_TRUE(prod.Reallocate());
    umf_ipc_data_t fresh = Record(prod.s.data[0]);
    void *p = nullptr;
    umf_result_t ret = Open(old, &p);
    if (ret == UMF_RESULT_SUCCESS) {
        EXPECT_EQ(p, held);
        EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, p, kSize, 90))
            << "not the old allocation";
        EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, p, kSize),
                  UMF_RESULT_SUCCESS);
    } else {
        EXPECT_EQ(ret, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    void *q = nullptr;
    ASSERT_EQ(Open(fresh, &q), UMF_RESULT_SUCCESS);
    EXPECT_NE(q, held);
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, q, kSize, 190))
        << "not the new allocation";
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, held, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(Open(old, &p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, q, kSize),
              UMF_RESULT_SUCCESS);

    // Nothing open: the address is reused.
    uint64_t base = prod.s.base[0];
    ASSERT_TRUE(prod.Reallocate());
    ASSERT_EQ(prod.s.base[0], base)
        << "the producer's driver did not reuse the address; the case needs "
           "it to";
    EXPECT_EQ(Open(fresh, &p), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the freed allocation's handle opened the new one";
    umf_ipc_data_t third = Record(prod.s.data[0]);
    ASSERT_EQ(Open(third, &q), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, q, kSize, 190));
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h_, q, kSize),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(prod.Stop(), 0);
}

// ------------------------------------------------------------ pid reuse

// Writes /proc/sys/kernel/ns_last_pid, so that the next process of this pid
// namespace gets pid + 1.
bool SetLastPid(pid_t pid) {
    int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    std::string text = std::to_string(pid);
    bool ok = write(fd, text.data(), text.size()) ==
              static_cast<ssize_t>(text.size());
    close(fd);
    return ok;
}

// pid 1 of a fresh pid namespace, with a /proc of its own; argv: kind. The
// consumer and the orchestrator: exporter 1 gets pid 100 and shares an
// allocation; the consumer opens it and keeps the mapping; exporter 1
// exits; exporter 2 gets pid 100 too and shares its own.
UMF_TEST_CHILD(pid_reuse_ns) {
    (void)sock;
    if (argc < 1 || getpid() != 1) {
        return 100;
    }
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              nullptr) != 0) {
        std::perror("mount /proc");
        return 101;
    }
    umf_test_gpu_kind_t kind =
        static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0]));
    const umf_test_gpu_t *g = umf_test_gpu(kind);
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    if (h == nullptr) {
        return 102;
    }
    constexpr pid_t kPid = 100;
    Producer first, second;
    CHILD_EXPECT(SetLastPid(kPid - 1) && first.Start(kind, 1, 1));
    CHILD_EXPECT(first.child.pid == kPid);
    umf_ipc_data_t old = Record(first.s.data[0]);
    void *held = nullptr;
    CHILD_EXPECT(umfMemoryProviderOpenIPCHandle(h, &old, &held) ==
                 UMF_RESULT_SUCCESS);
    CHILD_EXPECT(umf_test_gpu_check(g, nullptr, held, kSize, 1));
    CHILD_EXPECT(first.Stop() == 0);
    // The next process with this pid is another exporter, of the same
    // allocation id, fd number and offset in all likelihood.
    CHILD_EXPECT(SetLastPid(kPid - 1) && second.Start(kind, 2, 1));
    CHILD_EXPECT(second.child.pid == kPid);
    umf_ipc_data_t fresh = Record(second.s.data[0]);
    CHILD_EXPECT(fresh.producer_pid == old.producer_pid);
    // While the consumer holds the first exporter's mapping: the old handle
    // is that mapping or refused, never the second exporter's memory; the
    // new one opens the second exporter's memory.
    void *p = nullptr;
    umf_result_t ret = umfMemoryProviderOpenIPCHandle(h, &old, &p);
    CHILD_EXPECT(ret == UMF_RESULT_SUCCESS ||
                 ret == UMF_RESULT_ERROR_INVALID_ARGUMENT);
    if (ret == UMF_RESULT_SUCCESS) {
        CHILD_EXPECT(p == held && umf_test_gpu_check(g, nullptr, p, kSize, 1));
        CHILD_EXPECT(umfMemoryProviderCloseIPCHandle(h, p, kSize) ==
                     UMF_RESULT_SUCCESS);
    }
    void *q = nullptr;
    CHILD_EXPECT(umfMemoryProviderOpenIPCHandle(h, &fresh, &q) ==
                 UMF_RESULT_SUCCESS);
    CHILD_EXPECT(q != held && umf_test_gpu_check(g, nullptr, q, kSize, 2));
    CHILD_EXPECT(umf_test_gpu_check(g, nullptr, held, kSize, 1));
    CHILD_EXPECT(umfMemoryProviderCloseIPCHandle(h, held, kSize) ==
                 UMF_RESULT_SUCCESS);
    // With nothing of the first exporter open: refused.
    CHILD_EXPECT(umfMemoryProviderOpenIPCHandle(h, &old, &p) ==
                 UMF_RESULT_ERROR_INVALID_ARGUMENT);
    CHILD_EXPECT(umfMemoryProviderCloseIPCHandle(h, q, kSize) ==
                 UMF_RESULT_SUCCESS);
    CHILD_EXPECT(g->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS) == 0);
    CHILD_EXPECT(second.Stop() == 0);
    umfMemoryProviderDestroy(h);
    umf_test_gpu_release_all();
    return 0; // the dispatcher fails the child for each CHILD_EXPECT
}

// Makes a pid namespace and runs pid_reuse_ns as its first process.
UMF_TEST_CHILD(pid_reuse_outer) {
    (void)sock;
    if (argc < 1) {
        return 100;
    }
    if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0) {
        return 77;
    }
    umf_test_child_t inner;
    const char *args[] = {argv[0], nullptr};
    if (umf_test_child_start(&inner, "pid_reuse_ns", args) != 0) {
        return 101;
    }
    int status = umf_test_child_wait(&inner);
    // The namespace died with its first process: a leak checker at exit
    // could not make its helper task in it any more.
    fflush(nullptr);
    _exit(status);
}

TEST_P(IpcTrust, APidReusedByAnotherExporterIsRefused) {
    if (geteuid() != 0) {
        GTEST_SKIP() << "needs root (a pid namespace and ns_last_pid choose "
                        "the pid); CI runs as root";
    }
    std::string k = std::to_string(static_cast<int>(GetParam()));
    const char *args[] = {k.c_str(), nullptr};
    umf_test_child_t outer;
    ASSERT_EQ(umf_test_child_start(&outer, "pid_reuse_outer", args), 0);
    int status = umf_test_child_wait(&outer);
    if (status == 77) {
        GTEST_SKIP() << "unshare(CLONE_NEWPID | CLONE_NEWNS) is refused here";
    }
    EXPECT_EQ(status, 0) << "see the child's lines above";
}

// ------------------------------------------------------------ result codes

// What a consumer under a refusal reports back.
struct Outcome {
    int32_t result;
    int32_t code;
    char message[512];
};

// argv: kind, mode ("eperm", "enosys" or "nofds"), and optionally a fd
// transfer for UMF_GPU_IPC_FD_TRANSFER ("pidfd": no socket fallback, set
// before the library and the driver read it). Takes an IPC record,
// installs the refusal, opens, and sends the Outcome.
UMF_TEST_CHILD(refused_consumer) {
    if (argc < 2) {
        return 100;
    }
    if (argc >= 3) {
        setenv("UMF_GPU_IPC_FD_TRANSFER", argv[2], 1);
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    std::string mode = argv[1];
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    RelIpcData d;
    if (h == nullptr || umf_test_recv(sock, &d, sizeof(d)) != 0) {
        return 101;
    }
    struct rlimit saved = {};
    bool lowered = false;
    std::vector<int> fillers;
    if (mode == "eperm" || mode == "enosys") {
        if (umf_test_refuse_syscall(SYS_pidfd_getfd,
                                    mode == "eperm" ? EPERM : ENOSYS) != 0) {
            return 102;
        }
    } else {
        // The soft limit at the fds open now, and the holes below it
        // filled; both undone after the open.
        if (getrlimit(RLIMIT_NOFILE, &saved) != 0) {
            return 103;
        }
        struct rlimit lim = saved;
        lim.rlim_cur = (rlim_t)umf_test_count_open_fds();
        if (setrlimit(RLIMIT_NOFILE, &lim) != 0) {
            return 104;
        }
        lowered = true;
        // With no hole below the limit there is nothing to fill.
        for (int fd; (fd = fcntl(sock, F_DUPFD_CLOEXEC, 0)) >= 0;) {
            fillers.push_back(fd);
        }
    }
    Outcome o = {};
    void *p = nullptr;
    o.result = umfMemoryProviderOpenIPCHandle(h, d.bytes, &p);
    for (int fd : fillers) {
        close(fd);
    }
    // Restored whether or not there were holes: the sanitizers' runtime
    // needs fds at exit (UBSan's vptr check opens a pipe).
    if (lowered && setrlimit(RLIMIT_NOFILE, &saved) != 0) {
        return 105;
    }
    const char *message = nullptr;
    umfMemoryProviderGetLastNativeError(h, &message, &o.code);
    std::snprintf(o.message, sizeof(o.message), "%s",
                  message != nullptr ? message : "");
    if (o.result == UMF_RESULT_SUCCESS) {
        umfMemoryProviderCloseIPCHandle(h, p, kSize);
    }
    umfMemoryProviderDestroy(h);
    umf_test_gpu_release_all();
    return umf_test_send(sock, &o, sizeof(o)) == 0 ? 0 : 106;
}

Outcome RunRefused(umf_test_gpu_kind_t kind, const char *mode,
                   const RelIpcData &d, const char *transfer = nullptr) {
    Outcome o = {};
    o.result = -1;
    std::string k = std::to_string(static_cast<int>(kind));
    const char *args[] = {k.c_str(), mode, transfer, nullptr};
    umf_test_child_t c;
    if (umf_test_child_start(&c, "refused_consumer", args) != 0) {
        return o;
    }
    if (umf_test_send(c.sock, &d, sizeof(d)) != 0 ||
        umf_test_recv(c.sock, &o, sizeof(o)) != 0) {
        o.result = -2;
    }
    EXPECT_EQ(umf_test_child_wait(&c), 0);
    return o;
}

// A producer shares an allocation with a refused_consumer in `mode`.
Outcome Refused(umf_test_gpu_kind_t kind, const char *mode,
                const char *transfer = nullptr) {
    Producer prod;
    if (!prod.Start(kind, 5, 1)) {
        ADD_FAILURE() << "the producer did not start";
        return Outcome{};
    }
    Outcome o = RunRefused(kind, mode, prod.s.data[0], transfer);
    EXPECT_EQ(prod.Stop(), 0);
    return o;
}

// With the socket fallback off (test_ipc_fd_server has it on).
TEST_P(IpcTrust, ARefusedFdTransferIsNotSupportedWithTheRule) {
    Outcome o = Refused(GetParam(), "eperm", "pidfd");
    EXPECT_EQ(o.result, UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_NE(o.code, 0);
    // The rule that refused it (the seccomp filter), and how to allow it.
    std::string m = o.message;
    EXPECT_NE(m.find("seccomp filter"), std::string::npos) << m;
    EXPECT_NE(m.find("allow pidfd_getfd"), std::string::npos) << m;
    EXPECT_NE(m.find("CAP_SYS_PTRACE"), std::string::npos) << m;
}

TEST_P(IpcTrust, AKernelWithoutPidfdIsNotSupported) {
    Outcome o = Refused(GetParam(), "enosys", "pidfd");
    EXPECT_EQ(o.result, UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_NE(o.code, 0);
}

TEST_P(IpcTrust, NoFdLeftIsOutOfResources) {
    EXPECT_EQ(Refused(GetParam(), "nofds").result,
              UMF_RESULT_ERROR_OUT_OF_RESOURCES);
}

// ------------------------------------------------------------ event handles

#if UMF_TEST_HAVE_CUDA

// The emulated libcuda's interprocess event handle, version 2
// (mock/mock_events.c): pid 16, slots 20, pool id 24, checksum 32, the
// exporter (pidfd inode or start time) 36, the memfd's inode 44, flags 52
// (1 the identity is a pidfd inode, 2 served over the fd server, 4 at a
// path), zero to 63.
constexpr size_t kEvPid = 16, kEvCount = 20, kEvId = 24, kEvIdent = 36,
                 kEvIno = 44, kEvFlags = 52;

struct ForgedEvent {
    std::string name;
    CUipcEventHandle h;
    bool same_event; // names the exporter's event still (only the way to
                     // its fd changed): may open
};

// Every version 2 field of `valid` changed, one at a time, with the
// checksum recomputed (and left stale); `other` is the handle of another
// event of the exporter (another pool).
std::vector<ForgedEvent> ForgeEvent(const CUipcEventHandle &valid,
                                    const CUipcEventHandle &other) {
    using change = std::function<void(uint8_t *)>;
    std::vector<std::pair<std::string, std::pair<change, bool>>> changes;
    auto add = [&](std::string name, change f, bool same = false) {
        changes.push_back({std::move(name), {std::move(f), same}});
    };
    auto o = reinterpret_cast<const uint8_t *>(other.reserved);
    add("pid+1", [](uint8_t *h) {
        Put<uint32_t>(h + kEvPid, Get<uint32_t>(h + kEvPid) + 1);
    });
    add("pid 1", [](uint8_t *h) { Put<uint32_t>(h + kEvPid, 1); });
    add("pid 0", [](uint8_t *h) { Put<uint32_t>(h + kEvPid, 0); });
    add("the parent's pid",
        [](uint8_t *h) { Put<uint32_t>(h + kEvPid, (uint32_t)getppid()); });
    add("slots 0", [](uint8_t *h) { Put<uint32_t>(h + kEvCount, 0); });
    add("slots+1", [](uint8_t *h) {
        Put<uint32_t>(h + kEvCount, Get<uint32_t>(h + kEvCount) + 1);
    });
    add("slots 2^20+1",
        [](uint8_t *h) { Put<uint32_t>(h + kEvCount, (1u << 20) + 1); });
    add("slots 2^20",
        [](uint8_t *h) { Put<uint32_t>(h + kEvCount, 1u << 20); });
    add("pool id+1", [](uint8_t *h) {
        Put<uint64_t>(h + kEvId, Get<uint64_t>(h + kEvId) + 1);
    });
    add("pool id 0", [](uint8_t *h) { Put<uint64_t>(h + kEvId, 0); });
    add("another pool's id",
        [o](uint8_t *h) { std::memcpy(h + kEvId, o + kEvId, 8); });
    add("exporter+1", [](uint8_t *h) {
        Put<uint64_t>(h + kEvIdent, Get<uint64_t>(h + kEvIdent) + 1);
    });
    add("exporter 0", [](uint8_t *h) { Put<uint64_t>(h + kEvIdent, 0); });
    add("exporter all ones",
        [](uint8_t *h) { Put<uint64_t>(h + kEvIdent, UINT64_MAX); });
    add("file inode+1", [](uint8_t *h) {
        Put<uint64_t>(h + kEvIno, Get<uint64_t>(h + kEvIno) + 1);
    });
    add("file inode 0", [](uint8_t *h) { Put<uint64_t>(h + kEvIno, 0); });
    add("another pool's file inode",
        [o](uint8_t *h) { std::memcpy(h + kEvIno, o + kEvIno, 8); });
    add("another pool's id and file", [o](uint8_t *h) {
        std::memcpy(h + kEvId, o + kEvId, 8);
        std::memcpy(h + kEvIno, o + kEvIno, 8);
    });
    add("identity kind flipped", [](uint8_t *h) { h[kEvFlags] ^= 1; });
    add("an unknown flag", [](uint8_t *h) { h[kEvFlags] |= 8; });
    add("flags all ones", [](uint8_t *h) { h[kEvFlags] = 0xff; });
    add("a path without being served",
        [](uint8_t *h) { h[kEvFlags] = (uint8_t)((h[kEvFlags] & 1) | 4); });
    // Only the way to the fd: the same event, if the way works.
    add(
        "not served", [](uint8_t *h) { h[kEvFlags] &= (uint8_t)~6; }, true);
    add(
        "served at a path", [](uint8_t *h) { h[kEvFlags] |= 6; }, true);
    for (size_t i = kEvFlags + 1; i < 64; i += 5) {
        add("byte " + std::to_string(i), [i](uint8_t *h) { h[i] = 1; });
    }
    add("version 1", [](uint8_t *h) { Put<uint32_t>(h + 12, 1); });
    add("version 3", [](uint8_t *h) { Put<uint32_t>(h + 12, 3); });
    std::vector<ForgedEvent> out;
    for (auto &c : changes) {
        ForgedEvent f = {c.first, valid, c.second.second};
        uint8_t *h = reinterpret_cast<uint8_t *>(f.h.reserved);
        c.second.first(h);
        if (std::memcmp(&f.h, &valid, sizeof(valid)) == 0) {
            continue;
        }
        ForgedEvent stale = f;
        stale.name += " (checksum stale)";
        stale.same_event = false;
        out.push_back(stale);
        rel_reseal_mock_event_handle(h);
        f.name += " (checksum recomputed)";
        out.push_back(f);
    }
    return out;
}

// Opens each event handle it receives (a count, then the handles) and sends
// the CUresults; an event that opened is destroyed again, and its open fds
// must be back where they were after each. argv: NAME=value...
UMF_TEST_CHILD(event_forged_importer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_ASSERT(cu->cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS);
    CHILD_ASSERT(cu->cuCtxPushCurrent_v2(ctx) == CUDA_SUCCESS);
    uint32_t n = 0;
    CHILD_ASSERT(umf_test_recv(sock, &n, sizeof(n)) == 0 && n < 1000);
    std::vector<int32_t> results(n);
    for (uint32_t i = 0; i < n; i++) {
        CUipcEventHandle h;
        CHILD_ASSERT(umf_test_recv(sock, &h, sizeof(h)) == 0);
        int fds = umf_test_count_open_fds();
        CUevent e = nullptr;
        CUresult r = cu->cuIpcOpenEventHandle(&e, h);
        if (r == CUDA_SUCCESS) {
            CHILD_EXPECT(cu->cuEventSynchronize(e) == CUDA_SUCCESS);
            CHILD_EXPECT(cu->cuEventDestroy_v2(e) == CUDA_SUCCESS);
        }
        CHILD_EXPECT_EQ(umf_test_count_open_fds(), fds);
        results[i] = static_cast<int32_t>(r);
    }
    CHILD_ASSERT(umf_test_send(sock, results.data(),
                               results.size() * sizeof(int32_t)) == 0);
    CHILD_ASSERT(cu->cuCtxPopCurrent_v2(&ctx) == CUDA_SUCCESS);
    CHILD_ASSERT(cu->cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    return 0;
}

// The generator on the emulated libcuda's version 2 event handles (issue
// 27): opened by another process, through pidfd_getfd and through the fd
// server only, every forged variant is refused, except those that change
// only the way to the fd, which may open the exporter's own event; no fd
// stays behind.
TEST(IpcTrustEvents, ForgedVersionTwoEventHandleFieldsAreRefused) {
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    if (cu == nullptr || !cu->emulated()) {
        GTEST_SKIP() << (cu == nullptr ? why : "not the emulated libcuda");
    }
    ASSERT_EQ(cu->cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    ASSERT_EQ(cu->cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    ASSERT_EQ(cu->cuCtxPushCurrent_v2(ctx), CUDA_SUCCESS);
    CUevent e[2];
    CUipcEventHandle h[2];
    for (int i = 0; i < 2; i++) {
        ASSERT_EQ(cu->cuEventCreate(&e[i], CU_EVENT_INTERPROCESS |
                                               CU_EVENT_DISABLE_TIMING),
                  CUDA_SUCCESS);
        ASSERT_EQ(cu->cuIpcGetEventHandle(&h[i], e[i]), CUDA_SUCCESS);
    }
    std::vector<ForgedEvent> forged = ForgeEvent(h[0], h[1]);
    ForgedEvent genuine = {"the valid handle", h[0], true};
    forged.insert(forged.begin(), genuine);
    for (const char *env :
         {"UMF_GPU_IPC_FD_TRANSFER=auto", "UMF_GPU_IPC_FD_TRANSFER=socket"}) {
        umf_test_child_t c;
        const char *args[] = {env, nullptr};
        ASSERT_EQ(umf_test_child_start(&c, "event_forged_importer", args), 0);
        uint32_t n = static_cast<uint32_t>(forged.size());
        ASSERT_EQ(umf_test_send(c.sock, &n, sizeof(n)), 0);
        for (const ForgedEvent &f : forged) {
            ASSERT_EQ(umf_test_send(c.sock, &f.h, sizeof(f.h)), 0);
        }
        std::vector<int32_t> results(n);
        ASSERT_EQ(umf_test_recv(c.sock, results.data(),
                                results.size() * sizeof(int32_t)),
                  0);
        EXPECT_EQ(umf_test_child_wait(&c), 0) << env;
        EXPECT_EQ(results[0], CUDA_SUCCESS) << env << ": the valid handle";
        for (size_t i = 1; i < forged.size(); i++) {
            if (!forged[i].same_event) {
                EXPECT_NE(results[i], CUDA_SUCCESS)
                    << env << ": " << forged[i].name << " opened";
            }
        }
    }
    for (int i = 0; i < 2; i++) {
        EXPECT_EQ(cu->cuEventDestroy_v2(e[i]), CUDA_SUCCESS);
    }
    ASSERT_EQ(cu->cuCtxPopCurrent_v2(&ctx), CUDA_SUCCESS);
    EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}

#endif // UMF_TEST_HAVE_CUDA

INSTANTIATE_TEST_SUITE_P(Providers, IpcTrust, ::testing::ValuesIn(gpu_kinds()),
                         gpu_kind_param_name);

} // namespace
