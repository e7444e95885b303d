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

#include "gpu_test_ze.h"
#include "provider_driver_calls.h"
#include "test_child.h"

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
        CHILD_EXPECT_EQ(ze_test_try_provider(cfg, &h), UMF_RESULT_SUCCESS);
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
    CHILD_EXPECT_EQ(ze_gpu()->mock.inject(rule.c_str()), 0);
}

// The native error of the failing thread names the call and its result; a
// thread that did not fail sees nothing.
void check_native_error(const Fault &f) {
    const char *msg = nullptr;
    int32_t code = 0;
    ze_test_native_error(&msg, &code);
    CHILD_EXPECT_EQ(code, f.result);
    CHILD_EXPECT(msg != nullptr && std::strstr(msg, f.entry) != nullptr);
    if (msg != nullptr && std::strstr(msg, f.entry) == nullptr) {
        std::fprintf(stderr, "message: %s\n", msg);
    }
    const char *other_msg = nullptr;
    int32_t other_code = -1;
    std::thread([&] { ze_test_native_error(&other_msg, &other_code); }).join();
    CHILD_EXPECT_EQ(other_code, 0);
    CHILD_EXPECT(other_msg != nullptr && other_msg[0] == '\0');
}

// The provider still allocates, holds data and frees.
void check_usable(Env &env, umf_memory_provider_handle_t h) {
    void *p = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderAlloc(h, 8192, 0, &p), UMF_RESULT_SUCCESS);
    if (p != nullptr) {
        umf_gpu_provider_stats_t s;
        CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &s),
                        UMF_RESULT_SUCCESS);
        CHILD_EXPECT(ze_test_write_pattern(env.ctx, env.dev0, p, 8192, 3));
        CHILD_EXPECT(ze_test_check_pattern(env.ctx, env.dev0, p, 8192, 3));
        CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
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
    CHILD_EXPECT_EQ(ze_test_try_provider(cfg, &h), expected);
    CHILD_EXPECT(h == nullptr);
    check_native_error(f);
    ze_gpu()->mock.clear();
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
    CHILD_EXPECT(expected == UMF_RESULT_SUCCESS && h != nullptr);
    check_native_error(f);
    ze_gpu()->mock.clear();
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

void alloc_fails(Env &env, const Fault &f, umf_result_t expected,
                 umf_usm_memory_type_t type, bool resident) {
    umf_memory_provider_handle_t h = env.make(type, resident);
    int64_t live = ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    inject(f);
    void *p = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), expected);
    CHILD_EXPECT_EQ(umfGetLastFailedMemoryProvider(), h);
    check_native_error(f);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), live);
    umf_gpu_provider_stats_t s;
    CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(s.alloc_count, 0);
    ze_gpu()->mock.clear();
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
        CHILD_EXPECT_EQ(
            umfMemoryProviderAlloc(h, 8192, 0, reinterpret_cast<void **>(&p)),
            UMF_RESULT_SUCCESS);
        CHILD_EXPECT(ze_test_write_pattern(env.ctx, env.dev0, p, 8192, 1));
        size_t size = 8192;
        if (split) { // the last piece's free is the one that fails
            CHILD_EXPECT_EQ(umfMemoryProviderAllocationSplit(h, p, 8192, 4096),
                            UMF_RESULT_SUCCESS);
            CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p + 4096, 4096),
                            UMF_RESULT_SUCCESS);
            size = 4096;
        }
        inject(f);
        CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p, size), expected);
        check_native_error(f);
        ze_gpu()->mock.clear();
        CHILD_EXPECT(ze_test_check_pattern(env.ctx, env.dev0, p, size, 1));
        umf_gpu_allocation_properties_t props;
        CHILD_EXPECT_EQ(
            umfGpuMemoryProviderGetAllocationProperties(h, p, &props),
            UMF_RESULT_SUCCESS);
        CHILD_EXPECT_EQ(props.size, size);
        CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p, size), UMF_RESULT_SUCCESS);
    }
    umf_gpu_provider_stats_t s;
    CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(s.allocated_bytes, 0);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// A query fails; the memory is untouched.
template <typename Op>
void query_fails(Env &env, const Fault &f, umf_result_t expected, Op op) {
    umf_memory_provider_handle_t h = env.make();
    char *p = nullptr;
    CHILD_EXPECT_EQ(
        umfMemoryProviderAlloc(h, 8192, 0, reinterpret_cast<void **>(&p)),
        UMF_RESULT_SUCCESS);
    inject(f);
    CHILD_EXPECT_EQ(op(h, p), expected);
    check_native_error(f);
    ze_gpu()->mock.clear();
    CHILD_EXPECT_EQ(op(h, p), UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
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
            CHILD_EXPECT_EQ(s.ipc_handles_exported, 0);
            return ret;
        }
        void *opened = nullptr;
        CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                        UMF_RESULT_SUCCESS);
        CHILD_EXPECT(opened == p + 64);
        CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 128),
                        UMF_RESULT_SUCCESS);
        CHILD_EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
                        UMF_RESULT_SUCCESS);
        return ret;
    });
}

// The open in the producer itself checks its allocation with the driver.
void ipc_open_local(Env &env, const Fault &f, umf_result_t expected) {
    umf_memory_provider_handle_t h = env.make();
    void *p = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderAlloc(h, 8192, 0, &p), UMF_RESULT_SUCCESS);
    size_t size = 0;
    umfMemoryProviderGetIPCHandleSize(h, &size);
    std::vector<unsigned char> data(size);
    CHILD_EXPECT_EQ(umfMemoryProviderGetIPCHandle(h, p, 8192, data.data()),
                    UMF_RESULT_SUCCESS);
    inject(f);
    void *opened = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                    expected);
    check_native_error(f);
    ze_gpu()->mock.clear();
    umf_gpu_provider_stats_t s;
    CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(s.ipc_handles_open, 0);
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(opened == p);
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 8192),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p, 8192), UMF_RESULT_SUCCESS);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// Adding a resident device fails part-way; nothing changed, and adding and
// removing it work afterwards.
void resident_change(Env &env, const Fault &f, umf_result_t expected) {
    umf_memory_provider_handle_t h = env.make();
    std::vector<void *> ptrs(3);
    for (void *&p : ptrs) {
        CHILD_EXPECT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p),
                        UMF_RESULT_SUCCESS);
    }
    bool adding = std::strcmp(f.entry, "zeContextMakeMemoryResident") == 0;
    if (!adding) {
        CHILD_EXPECT_EQ(
            umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, true),
            UMF_RESULT_SUCCESS);
    }
    inject(f);
    CHILD_EXPECT_EQ(
        umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, adding),
        expected);
    check_native_error(f);
    ze_gpu()->mock.clear();
    CHILD_EXPECT_EQ(
        umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, adding),
        UMF_RESULT_SUCCESS);
    if (adding) {
        CHILD_EXPECT_EQ(
            umfLevelZeroMemoryProviderResidentDeviceChange(h, env.dev1, false),
            UMF_RESULT_SUCCESS);
    }
    for (void *p : ptrs) {
        CHILD_EXPECT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
    }
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// The IPC data comes from the parent, which made it in its own process.
std::vector<unsigned char> recv_ipc_data(Env &env) {
    uint64_t size = 0;
    CHILD_EXPECT_EQ(umf_test_recv(env.sock, &size, sizeof(size)), 0);
    std::vector<unsigned char> data(size);
    CHILD_EXPECT_EQ(umf_test_recv(env.sock, data.data(), data.size()), 0);
    return data;
}

void ipc_open_remote(Env &env, const Fault &f, umf_result_t expected) {
    std::vector<unsigned char> data = recv_ipc_data(env);
    umf_memory_provider_handle_t h = env.make();
    int fds = umf_test_count_open_fds();
    inject(f);
    void *opened = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                    expected);
    check_native_error(f);
    ze_gpu()->mock.clear();
    CHILD_EXPECT_EQ(umf_test_count_open_fds(), fds);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    0);
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT(ze_test_check_pattern(env.ctx, env.dev0, opened, 4096, 7));
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 4096),
                    UMF_RESULT_SUCCESS);
    check_usable(env, h);
    umfMemoryProviderDestroy(h);
}

// A failed close keeps the mapping open; closing again releases it.
void ipc_close_remote(Env &env, const Fault &f, umf_result_t expected) {
    std::vector<unsigned char> data = recv_ipc_data(env);
    umf_memory_provider_handle_t h = env.make();
    void *opened = nullptr;
    CHILD_EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                    UMF_RESULT_SUCCESS);
    inject(f);
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 4096), expected);
    check_native_error(f);
    ze_gpu()->mock.clear();
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    1);
    CHILD_EXPECT(ze_test_check_pattern(env.ctx, env.dev0, opened, 4096, 7));
    umf_gpu_provider_stats_t s;
    CHILD_EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &s), UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(s.ipc_handles_open, 1);
    CHILD_EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, 4096),
                    UMF_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(ze_gpu()->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                    0);
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
    if (ze_gpu()->why != nullptr || ze_devices().size() < 2) {
        std::fprintf(stderr, "environment: %s\n", gpu_why(ze_gpu()).c_str());
        return 101;
    }
    Env env;
    env.sock = sock;
    env.dev0 = ze_devices()[0];
    env.dev1 = ze_devices()[1];
    env.ctx = ze_test_context_create();
    if (env.ctx == nullptr) {
        return 102;
    }
    c.run(env, c.fault, c.expected);
    ze_test_context_destroy(env.ctx);
    if (umf_test_child_failures() > 0) {
        std::fprintf(stderr, "case %s: %d checks failed\n", c.name,
                     umf_test_child_failures());
    }
    return 0; // failed checks make it 1, the leak check 86
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
    ASSERT_GE(ze_devices().size(), 2u);
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
        cfg.device = ze_devices()[0];
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

    umf_test_child_t child;
    std::string index = std::to_string(GetParam());
    const char *args[] = {index.c_str(), nullptr};
    const char *env[] = {"UMF_GPU_MOCK_LEAKS=strict", nullptr};
    ASSERT_EQ(umf_test_child_start_env(&child, "ze_fault_case", args, env), 0);
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
    const char *env[] = {
        "UMF_GPU_MOCK_LEAKS=strict",
        "UMF_GPU_MOCK_FAULTS=zeInit:1+=ZE_RESULT_ERROR_DEVICE_LOST", nullptr};
    EXPECT_EQ(umf_test_child_run("ze_fault_init", nullptr, env, nullptr), 0);
}

} // namespace
