// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A fault injected at every driver call the Level Zero provider makes. Each
// case runs in a child process under the emulated driver's strict leak
// check (UMF_GPU_MOCK_LEAKS=strict: a leaked allocation, IPC handle,
// mapping or context turns the exit status non-zero) and checks:
//   - the operation's result;
//   - the native error (code and the failing call's name) in the failing
//     thread, and nothing of it in another thread;
//   - the provider still works afterwards (and a failed free or close can
//     be retried).
//
// zeMemPutIpcHandle is not among them: the installed loader (1.8) lacks it,
// so the provider never calls it (put leaves the fd to the driver).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "child_check.h"
#include "provider_driver_calls.h"
#include "test_child.h"
#include "ze_test_env.h"

namespace {

// What a case runs in: a context and the driver's control API.
struct Env {
    ze_context_handle_t ctx = nullptr;
    ze_device_handle_t dev0 = nullptr, dev1 = nullptr;
    int sock = -1; // to the parent (IPC cases)

    umf_memory_provider_handle_t
    make(umf_usm_memory_type_t type = UMF_MEMORY_TYPE_DEVICE,
         bool resident = false, bool policy = false) {
        ZeProviderConfig cfg;
        cfg.context = ctx;
        cfg.type = type;
        cfg.device = type == UMF_MEMORY_TYPE_HOST ? nullptr : dev0;
        if (resident) {
            cfg.resident = {dev1};
        }
        if (policy) {
            cfg.policy =
                UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE;
        }
        umf_memory_provider_handle_t h = nullptr;
        CHECK_EQ(ze_test_try_provider(cfg, &h), UMF_RESULT_SUCCESS);
        return h;
    }
};

// The injected result of the running case.
struct Fault {
    const char *entry;
    ze_result_t result;
};

void inject(const Fault &f) {
    std::string rule = std::string(f.entry) + ":1=" + std::to_string(f.result);
    CHECK_EQ(ze_env().mock.inject(rule.c_str()), 0);
}

// The native error of the failing thread names the call and its result; a
// thread that did not fail sees nothing.
void check_native_error(const Fault &f) {
    const char *msg = nullptr;
    int32_t code = 0;
    ze_test_native_error(&msg, &code);
    CHECK_EQ(code, f.result);
    CHECK(msg != nullptr && std::strstr(msg, f.entry) != nullptr);
    if (msg != nullptr && std::strstr(msg, f.entry) == nullptr) {
        std::fprintf(stderr, "message: %s\n", msg);
    }
    const char *other_msg = nullptr;
    int32_t other_code = -1;
    std::thread([&] { ze_test_native_error(&other_msg, &other_code); }).join();
    CHECK_EQ(other_code, 0);
    CHECK(other_msg != nullptr && other_msg[0] == '\0');
}

// The provider still allocates, holds data and frees.
void check_usable(Env &env, umf_memory_provider_handle_t h) {
    void *p = nullptr;
    CHECK_EQ(umfMemoryProviderAlloc(h, 8192, 0, &p), UMF_RESULT_SUCCESS);
    if (p != nullptr) {
        umf_gpu_provider_stats_t s;
        CHECK_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
        CHECK(ze_test_write_pattern(env.ctx, env.dev0, p, 8192, 3));
        CHECK(ze_test_check_pattern(env.ctx, env.dev0, p, 8192, 3));
        CHECK_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
    }
}

// ------------------------------------------------------------- the cases

typedef void (*case_fn)(Env &env, const Fault &f, umf_result_t expected);

struct Case {
    const char *name;
    Fault fault;
    umf_result_t expected;
    case_fn run;
};

// Initialisation fails as a whole; a new provider is made afterwards.
void create_fails(Env &env, const Fault &f, umf_result_t expected) {
    inject(f);
    ZeProviderConfig cfg;
    cfg.context = env.ctx;
    cfg.device = env.dev0;
    umf_memory_provider_handle_t h = nullptr;
    CHECK_EQ(ze_test_try_provider(cfg, &h), expected);
    CHECK(h == nullptr);
    check_native_error(f);
    ze_env().mock.clear();
    h = env.make();
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// The probe allocation's free failed: initialisation still succeeds (the
// page size is known), and the probe goes when the provider does.
void create_keeps_probe(Env &env, const Fault &f, umf_result_t expected) {
    inject(f);
    bool policy = std::strcmp(f.entry, "zeMemFreeExt") == 0;
    umf_memory_provider_handle_t h =
        env.make(UMF_MEMORY_TYPE_DEVICE, false, policy);
    CHECK(expected == UMF_RESULT_SUCCESS && h != nullptr);
    check_native_error(f);
    ze_env().mock.clear();
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

void alloc_fails(Env &env, const Fault &f, umf_result_t expected,
                 umf_usm_memory_type_t type, bool resident) {
    umf_memory_provider_handle_t h = env.make(type, resident);
    int64_t live = ze_env().mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    inject(f);
    void *p = nullptr;
    CHECK_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), expected);
    CHECK_EQ(umfGetLastFailedMemoryProvider(), h);
    check_native_error(f);
    CHECK_EQ(ze_env().mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), live);
    umf_gpu_provider_stats_t s;
    CHECK_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHECK_EQ(s.alloc_count, 0);
    ze_env().mock.clear();
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

void alloc_device(Env &env, const Fault &f, umf_result_t expected) {
    alloc_fails(env, f, expected, UMF_MEMORY_TYPE_DEVICE, false);
}
void alloc_host(Env &env, const Fault &f, umf_result_t expected) {
    alloc_fails(env, f, expected, UMF_MEMORY_TYPE_HOST, false);
}
void alloc_shared(Env &env, const Fault &f, umf_result_t expected) {
    alloc_fails(env, f, expected, UMF_MEMORY_TYPE_SHARED, false);
}
void alloc_resident(Env &env, const Fault &f, umf_result_t expected) {
    alloc_fails(env, f, expected, UMF_MEMORY_TYPE_DEVICE, true);
}

// A failed free keeps the allocation (and its data); freeing again works.
void free_fails(Env &env, const Fault &f, umf_result_t expected) {
    bool policy = std::strcmp(f.entry, "zeMemFreeExt") == 0;
    umf_memory_provider_handle_t h =
        env.make(UMF_MEMORY_TYPE_DEVICE, false, policy);
    for (bool split : {false, true}) {
        char *p = nullptr;
        CHECK_EQ(
            umfMemoryProviderAlloc(h, 8192, 0, reinterpret_cast<void **>(&p)),
            UMF_RESULT_SUCCESS);
        CHECK(ze_test_write_pattern(env.ctx, env.dev0, p, 8192, 1));
        size_t size = 8192;
        if (split) { // the last piece's free is the one that fails
            CHECK_EQ(umfMemoryProviderAllocationSplit(h, p, 8192, 4096),
                     UMF_RESULT_SUCCESS);
            CHECK_EQ(umfMemoryProviderFree(h, p + 4096, 4096),
                     UMF_RESULT_SUCCESS);
            size = 4096;
        }
        inject(f);
        CHECK_EQ(umfMemoryProviderFree(h, p, size), expected);
        check_native_error(f);
        ze_env().mock.clear();
        CHECK(ze_test_check_pattern(env.ctx, env.dev0, p, size, 1));
        umf_gpu_allocation_properties_t props;
        CHECK_EQ(umfGpuMemoryProviderGetAllocationProperties(h, p, &props),
                 UMF_RESULT_SUCCESS);
        CHECK_EQ(props.size, size);
        CHECK_EQ(umfMemoryProviderFree(h, p, size), UMF_RESULT_SUCCESS);
    }
    umf_gpu_provider_stats_t s;
    CHECK_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHECK_EQ(s.allocated_bytes, 0);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// A query fails; the memory is untouched.
template <typename Op>
void query_fails(Env &env, const Fault &f, umf_result_t expected, Op op) {
    umf_memory_provider_handle_t h = env.make();
    char *p = nullptr;
    CHECK_EQ(umfMemoryProviderAlloc(h, 8192, 0, reinterpret_cast<void **>(&p)),
             UMF_RESULT_SUCCESS);
    inject(f);
    CHECK_EQ(op(h, p), expected);
    check_native_error(f);
    ze_env().mock.clear();
    CHECK_EQ(op(h, p), UMF_RESULT_SUCCESS);
    CHECK_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

void page_size(Env &env, const Fault &f, umf_result_t expected) {
    query_fails(env, f, expected, [](umf_memory_provider_handle_t h, char *p) {
        size_t page = 0;
        return umfMemoryProviderGetMinPageSize(h, p + 100, &page);
    });
}

void properties(Env &env, const Fault &f, umf_result_t expected) {
    query_fails(env, f, expected, [](umf_memory_provider_handle_t h, char *p) {
        umf_gpu_allocation_properties_t props;
        return umfGpuMemoryProviderGetAllocationProperties(h, p + 100, &props);
    });
}

// get_ipc_handle fails (and takes nothing); then get, open in the process
// itself, close and put work.
void ipc_get(Env &env, const Fault &f, umf_result_t expected) {
    query_fails(env, f, expected, [](umf_memory_provider_handle_t h, char *p) {
        size_t size = 0;
        umfMemoryProviderGetIPCHandleSize(h, &size);
        std::vector<unsigned char> data(size);
        umf_result_t ret =
            umfMemoryProviderGetIPCHandle(h, p + 64, 128, data.data());
        if (ret != UMF_RESULT_SUCCESS) {
            umf_gpu_provider_stats_t s;
            umfGpuMemoryProviderGetStats(h, &s);
            CHECK_EQ(s.ipc_handles_exported, 0);
            return ret;
        }
        void *opened = nullptr;
        CHECK_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                 UMF_RESULT_SUCCESS);
        CHECK(opened == p + 64);
        CHECK_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 128),
                 UMF_RESULT_SUCCESS);
        CHECK_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
                 UMF_RESULT_SUCCESS);
        return ret;
    });
}

// The open in the producer itself checks its allocation with the driver.
void ipc_open_local(Env &env, const Fault &f, umf_result_t expected) {
    umf_memory_provider_handle_t h = env.make();
    void *p = nullptr;
    CHECK_EQ(umfMemoryProviderAlloc(h, 8192, 0, &p), UMF_RESULT_SUCCESS);
    size_t size = 0;
    umfMemoryProviderGetIPCHandleSize(h, &size);
    std::vector<unsigned char> data(size);
    CHECK_EQ(umfMemoryProviderGetIPCHandle(h, p, 8192, data.data()),
             UMF_RESULT_SUCCESS);
    inject(f);
    void *opened = nullptr;
    CHECK_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened), expected);
    check_native_error(f);
    ze_env().mock.clear();
    umf_gpu_provider_stats_t s;
    CHECK_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHECK_EQ(s.ipc_handles_open, 0);
    CHECK_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
             UMF_RESULT_SUCCESS);
    CHECK(opened == p);
    CHECK_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 8192),
             UMF_RESULT_SUCCESS);
    CHECK_EQ(umfMemoryProviderPutIPCHandle(h, data.data()), UMF_RESULT_SUCCESS);
    CHECK_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// Adding a resident device fails part-way; nothing changed, and adding and
// removing it work afterwards.
void resident_change(Env &env, const Fault &f, umf_result_t expected) {
    umf_memory_provider_handle_t h = env.make();
    std::vector<void *> ptrs(3);
    for (void *&p : ptrs) {
        CHECK_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS);
    }
    bool adding = std::strcmp(f.entry, "zeContextMakeMemoryResident") == 0;
    if (!adding) {
        CHECK_EQ(
            umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, true),
            UMF_RESULT_SUCCESS);
    }
    inject(f);
    CHECK_EQ(
        umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, adding),
        expected);
    check_native_error(f);
    ze_env().mock.clear();
    CHECK_EQ(
        umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, adding),
        UMF_RESULT_SUCCESS);
    if (adding) {
        CHECK_EQ(
            umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, false),
            UMF_RESULT_SUCCESS);
    }
    for (void *p : ptrs) {
        CHECK_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
    }
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// The IPC data comes from the parent, which made it in its own process.
std::vector<unsigned char> recv_ipc_data(Env &env) {
    uint64_t size = 0;
    CHECK_EQ(umf_test_recv(env.sock, &size, sizeof(size)), 0);
    std::vector<unsigned char> data(size);
    CHECK_EQ(umf_test_recv(env.sock, data.data(), data.size()), 0);
    return data;
}

void ipc_open_remote(Env &env, const Fault &f, umf_result_t expected) {
    std::vector<unsigned char> data = recv_ipc_data(env);
    umf_memory_provider_handle_t h = env.make();
    int fds = umf_test_count_open_fds();
    inject(f);
    void *opened = nullptr;
    CHECK_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened), expected);
    check_native_error(f);
    ze_env().mock.clear();
    CHECK_EQ(umf_test_count_open_fds(), fds);
    CHECK_EQ(ze_env().mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 0);
    CHECK_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
             UMF_RESULT_SUCCESS);
    CHECK(ze_test_check_pattern(env.ctx, env.dev0, opened, 4096, 7));
    CHECK_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 4096),
             UMF_RESULT_SUCCESS);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// A failed close keeps the mapping open; closing again releases it.
void ipc_close_remote(Env &env, const Fault &f, umf_result_t expected) {
    std::vector<unsigned char> data = recv_ipc_data(env);
    umf_memory_provider_handle_t h = env.make();
    void *opened = nullptr;
    CHECK_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
             UMF_RESULT_SUCCESS);
    inject(f);
    CHECK_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 4096), expected);
    check_native_error(f);
    ze_env().mock.clear();
    CHECK_EQ(ze_env().mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 1);
    CHECK(ze_test_check_pattern(env.ctx, env.dev0, opened, 4096, 7));
    umf_gpu_provider_stats_t s;
    CHECK_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHECK_EQ(s.ipc_handles_open, 1);
    CHECK_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 4096),
             UMF_RESULT_SUCCESS);
    CHECK_EQ(ze_env().mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS), 0);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

constexpr umf_result_t kSpecific = UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
constexpr ze_result_t kLost = ZE_RESULT_ERROR_DEVICE_LOST;

const Case kCases[] = {
    {"init_device_properties",
     {"zeDeviceGetProperties", kLost},
     kSpecific,
     create_fails},
    {"init_probe_alloc",
     {"zeMemAllocDevice", ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY},
     kSpecific,
     create_fails},
    {"init_probe_properties",
     {"zeMemGetAllocProperties", kLost},
     kSpecific,
     create_fails},
    {"init_probe_free",
     {"zeMemFree", kLost},
     UMF_RESULT_SUCCESS,
     create_keeps_probe},
    {"init_probe_free_ext",
     {"zeMemFreeExt", kLost},
     UMF_RESULT_SUCCESS,
     create_keeps_probe},
    {"alloc_device",
     {"zeMemAllocDevice", ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY},
     kSpecific,
     alloc_device},
    {"alloc_host",
     {"zeMemAllocHost", ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY},
     UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY,
     alloc_host},
    {"alloc_shared", {"zeMemAllocShared", kLost}, kSpecific, alloc_shared},
    {"alloc_resident",
     {"zeContextMakeMemoryResident", kLost},
     kSpecific,
     alloc_resident},
    {"free", {"zeMemFree", kLost}, kSpecific, free_fails},
    {"free_ext", {"zeMemFreeExt", kLost}, kSpecific, free_fails},
    {"page_size", {"zeMemGetAllocProperties", kLost}, kSpecific, page_size},
    {"properties_range",
     {"zeMemGetAddressRange", kLost},
     kSpecific,
     properties},
    {"properties_alloc",
     {"zeMemGetAllocProperties", kLost},
     kSpecific,
     properties},
    {"ipc_get_range", {"zeMemGetAddressRange", kLost}, kSpecific, ipc_get},
    {"ipc_get_properties",
     {"zeMemGetAllocProperties", kLost},
     kSpecific,
     ipc_get},
    {"ipc_get_handle",
     {"zeMemGetIpcHandle", ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY},
     UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY,
     ipc_get},
    {"ipc_open_local",
     {"zeMemGetAllocProperties", kLost},
     kSpecific,
     ipc_open_local},
    {"resident_add",
     {"zeContextMakeMemoryResident", kLost},
     kSpecific,
     resident_change},
    {"resident_remove",
     {"zeContextEvictMemory", kLost},
     kSpecific,
     resident_change},
    {"ipc_open_remote",
     {"zeMemOpenIpcHandle", kLost},
     kSpecific,
     ipc_open_remote},
    {"ipc_close_remote",
     {"zeMemCloseIpcHandle", kLost},
     kSpecific,
     ipc_close_remote},
};

bool is_remote_case(const Case &c) {
    return c.run == ipc_open_remote || c.run == ipc_close_remote;
}

// argv[0]: the case's index.
UMF_TEST_CHILD(ze_fault_case) {
    if (argc < 1) {
        return 100;
    }
    const Case &c = kCases[std::atoi(argv[0])];
    if (!ze_env().why.empty() || ze_env().devices.size() < 2) {
        std::fprintf(stderr, "environment: %s\n", ze_env().why.c_str());
        return 101;
    }
    Env env;
    env.sock = sock;
    env.dev0 = ze_env().devices[0];
    env.dev1 = ze_env().devices[1];
    env.ctx = ze_test_context_create();
    if (env.ctx == nullptr) {
        return 102;
    }
    c.run(env, c.fault, c.expected);
    ze_test_context_destroy(env.ctx);
    if (child_failures > 0) {
        std::fprintf(stderr, "case %s: %d checks failed\n", c.name,
                     child_failures);
    }
    return child_status(); // the leak check may still say otherwise
}

class ZeFaults : public ::testing::TestWithParam<size_t> {};

// Every entry point the provider calls has a case (zeInit's is below).
TEST(ZeFaultCases, CoverEveryDriverCallOfTheProvider) {
    for (const char *call : kZeProviderDriverCalls) {
        bool found = false;
        for (const Case &c : kCases) {
            found |= std::strcmp(c.fault.entry, call) == 0;
        }
        EXPECT_TRUE(found) << call;
    }
}

TEST_P(ZeFaults, InjectedAtEveryDriverCall) {
    ZE_TEST_REQUIRE_MOCK();
    ASSERT_GE(ze_env().devices.size(), 2u);
    const Case &c = kCases[GetParam()];
    SCOPED_TRACE(c.name);

    // The parent makes the IPC data of the cases that open it elsewhere.
    ze_context_handle_t ctx = nullptr;
    umf_memory_provider_handle_t producer = nullptr;
    void *mem = nullptr;
    std::vector<unsigned char> data;
    if (is_remote_case(c)) {
        ctx = ze_test_context_create();
        ASSERT_NE(ctx, nullptr);
        ZeProviderConfig cfg;
        cfg.context = ctx;
        cfg.device = ze_env().devices[0];
        ASSERT_EQ(ze_test_try_provider(cfg, &producer), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderAlloc(producer, 4096, 0, &mem),
                  UMF_RESULT_SUCCESS);
        ASSERT_TRUE(ze_test_write_pattern(ctx, cfg.device, mem, 4096, 7));
        size_t size = 0;
        ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(producer, &size),
                  UMF_RESULT_SUCCESS);
        data.resize(size);
        ASSERT_EQ(
            umfMemoryProviderGetIPCHandle(producer, mem, 4096, data.data()),
            UMF_RESULT_SUCCESS);
    }

    setenv("UMF_GPU_MOCK_LEAKS", "strict", 1);
    umf_test_child_t child;
    std::string index = std::to_string(GetParam());
    const char *args[] = {index.c_str(), nullptr};
    int started = umf_test_child_start(&child, "ze_fault_case", args);
    unsetenv("UMF_GPU_MOCK_LEAKS");
    ASSERT_EQ(started, 0);
    if (is_remote_case(c)) {
        uint64_t size = data.size();
        EXPECT_EQ(umf_test_send(child.sock, &size, sizeof(size)), 0);
        EXPECT_EQ(umf_test_send(child.sock, data.data(), data.size()), 0);
    }
    EXPECT_EQ(umf_test_child_wait(&child), 0)
        << "the case failed (see its output), or leaked (exit status 86)";

    if (producer != nullptr) {
        EXPECT_EQ(umfMemoryProviderPutIPCHandle(producer, data.data()),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(umfMemoryProviderFree(producer, mem, 4096),
                  UMF_RESULT_SUCCESS);
        umfMemoryProviderDestroy(producer);
    }
    ze_test_context_destroy(ctx);
}

INSTANTIATE_TEST_SUITE_P(EveryCall, ZeFaults,
                         ::testing::Range(size_t(0),
                                          sizeof(kCases) / sizeof(kCases[0])),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(kCases[info.param].name);
                         });

// zeInit failing: Level Zero is unusable for the process, which the
// provider reports as a missing dependency.
UMF_TEST_CHILD(ze_fault_init) {
    (void)sock, (void)argc, (void)argv;
    ZeProviderConfig cfg;
    cfg.context = reinterpret_cast<ze_context_handle_t>(0x10);
    cfg.device = reinterpret_cast<ze_device_handle_t>(0x10);
    umf_memory_provider_handle_t h = nullptr;
    umf_result_t ret = ze_test_try_provider(cfg, &h);
    return ret == UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE && h == nullptr ? 0
                                                                          : 1;
}

TEST(ZeFaultInit, ZeInitFailureIsDependencyUnavailable) {
    ZE_TEST_REQUIRE_MOCK();
    setenv("UMF_GPU_MOCK_LEAKS", "strict", 1);
    setenv("UMF_GPU_MOCK_FAULTS", "zeInit:1+=ZE_RESULT_ERROR_DEVICE_LOST", 1);
    umf_test_child_t child;
    int started = umf_test_child_start(&child, "ze_fault_init", nullptr);
    unsetenv("UMF_GPU_MOCK_FAULTS");
    unsetenv("UMF_GPU_MOCK_LEAKS");
    ASSERT_EQ(started, 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
}

} // namespace
