// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A fault injected at every driver call the CUDA provider makes, on the
// emulated libcuda.so.1 (its fault rules and call counts; the suite skips
// on a real driver).
//
// For each operation (a scenario), a run without faults counts the calls of
// every entry point the provider uses; then, for each entry point and each
// of its n calls, the k-th call is made to fail with CUDA_ERROR_UNKNOWN and
// the operation runs again. Each time:
// - the result is UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC and the
//   thread's native error is CUDA_ERROR_UNKNOWN with a message naming the
//   call, except for what the provider retries once, because the step
//   before it cannot be undone (then the operation succeeds): a failed
//   switch back to the caller's context, and in the VMM modes
//   cuMemRelease (of a mapped allocation's handle) and cuMemAddressFree
//   (of an unmapped range);
// - the caller's context is current again;
// - a native error of another thread is untouched;
// - after cleaning up, the driver holds as many allocations and imported
//   mappings as before, and the operation works again without faults.
// Each scenario runs in a child process with UMF_GPU_MOCK_LEAKS=strict, so
// anything left alive at its exit fails it too, and with three callers:
// another context current, the provider's context current, none current.

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu_test_cuda.h"
#include "provider_driver_calls.h"
#include "test_child.h"

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

// Every entry point the provider calls.
const auto &kEntries = kCudaProviderDriverCalls;

#define SWEEP_CHECK(cond, ...)                                                 \
    do {                                                                       \
        if (!(cond)) {                                                         \
            std::fprintf(stderr, "%s:%d: %s failed: ", __FILE__, __LINE__,     \
                         #cond);                                               \
            std::fprintf(stderr, __VA_ARGS__);                                 \
            std::fputc('\n', stderr);                                          \
            return false;                                                      \
        }                                                                      \
    } while (0)

umf_memory_provider_handle_t make_provider(
    CUcontext ctx, umf_usm_memory_type_t type, bool set_flags, unsigned flags,
    umf_result_t *result,
    umf_cuda_allocation_mode_t mode = UMF_CUDA_ALLOCATION_MODE_DEFAULT) {
    umf_cuda_memory_provider_params_handle_t p = nullptr;
    umf_memory_provider_handle_t h = nullptr;
    *result = umfCUDAMemoryProviderParamsCreate(&p);
    if (*result != UMF_RESULT_SUCCESS) {
        return nullptr;
    }
    umfCUDAMemoryProviderParamsSetContext(p, ctx);
    umfCUDAMemoryProviderParamsSetDevice(p, 0);
    umfCUDAMemoryProviderParamsSetMemoryType(p, type);
    if (set_flags) {
        umfCUDAMemoryProviderParamsSetAllocFlags(p, flags);
    }
    umfCUDAMemoryProviderParamsSetAllocationMode(p, mode);
    *result = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &h);
    umfCUDAMemoryProviderParamsDestroy(p);
    return h;
}

// A thread that failed once and keeps its native error, to show that other
// threads' failures never reach it.
class Bystander {
  public:
    explicit Bystander(umf_memory_provider_handle_t h) : h_(h) {
        thread_ = std::thread([this] { run(); });
        (void)code(); // its failure is over before anything else runs
    }
    ~Bystander() {
        {
            std::lock_guard<std::mutex> lock(m_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    // The bystander's native error code, read in its own thread.
    int32_t code() {
        std::unique_lock<std::mutex> lock(m_);
        asked_++;
        cv_.notify_all();
        cv_.wait(lock, [&] { return answered_ == asked_; });
        return code_;
    }

  private:
    void run() {
        int local = 0;
        size_t page = 0;
        // Fails in the driver's pointer query (host memory).
        umfMemoryProviderGetMinPageSize(h_, &local, &page);
        std::unique_lock<std::mutex> lock(m_);
        for (;;) {
            cv_.wait(lock, [&] { return stop_ || asked_ > answered_; });
            if (stop_) {
                return;
            }
            code_ = cuda_last_native_error(h_).code;
            answered_ = asked_;
            cv_.notify_all();
        }
    }
    umf_memory_provider_handle_t h_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    bool stop_ = false;
    int asked_ = 0, answered_ = 0;
    int32_t code_ = 0;
};

// Room for the IPC data of a provider (umfMemoryProviderGetIPCHandleSize).
struct IpcBuf {
    alignas(8) unsigned char bytes[256];
};

struct Sweep;

struct Scenario {
    const char *name;
    // Prepares what the operation needs (not counted).
    std::function<bool(Sweep &)> prepare;
    std::function<umf_result_t(Sweep &)> op;
    // Undoes the operation's success, or what prepare made after a failure
    // (given the operation's result).
    std::function<bool(Sweep &, umf_result_t)> cleanup;
    // The entry point the operation is about, which must be among the
    // calls found (so that a sweep never passes by finding none).
    const char *main_entry;
};

struct Sweep {
    const cuda_test_driver_t *cu = nullptr;
    CUcontext primary = nullptr, other = nullptr;
    umf_memory_provider_handle_t device = nullptr, host = nullptr,
                                 host_flags = nullptr, shared = nullptr,
                                 vmm = nullptr; // VMM_POSIX_FD
    // Scratch between prepare, op and cleanup.
    umf_memory_provider_handle_t made = nullptr;
    void *ptr = nullptr, *opened = nullptr;
    size_t size = 0;
    IpcBuf data{};
    std::vector<char> remote; // IPC data from the producer child
};

bool free_ok(umf_memory_provider_handle_t h, void *p, size_t size) {
    return umfMemoryProviderFree(h, p, size) == UMF_RESULT_SUCCESS;
}

bool alloc_for(Sweep &s, umf_memory_provider_handle_t h, size_t size,
               size_t alignment) {
    s.size = size;
    return umfMemoryProviderAlloc(h, size, alignment, &s.ptr) ==
           UMF_RESULT_SUCCESS;
}

Scenario alloc_scenario(const char *name, const char *entry,
                        umf_memory_provider_handle_t Sweep::*which,
                        size_t alignment) {
    return {
        name, [](Sweep &) { return true; },
        [which, alignment](Sweep &s) {
            s.size = 64 * KiB;
            return umfMemoryProviderAlloc(s.*which, s.size, alignment, &s.ptr);
        },
        [which](Sweep &s, umf_result_t r) {
            return r != UMF_RESULT_SUCCESS || free_ok(s.*which, s.ptr, s.size);
        },
        entry};
}

Scenario free_scenario(const char *name, const char *entry,
                       umf_memory_provider_handle_t Sweep::*which,
                       size_t alignment) {
    return {name,
            [which, alignment](Sweep &s) {
                return alloc_for(s, s.*which, 64 * KiB, alignment);
            },
            [which](Sweep &s) {
                return umfMemoryProviderFree(s.*which, s.ptr, s.size);
            },
            [which](Sweep &s, umf_result_t r) {
                // A free that failed left the memory allocated.
                return r == UMF_RESULT_SUCCESS ||
                       free_ok(s.*which, s.ptr, s.size);
            },
            entry};
}

// The VMM mode (POSIX fd): create, alloc, free, export, and a consumer's
// open and last close of another process's VMM data.
void vmm_scenarios(std::vector<Scenario> &v) {
    v.push_back({"create_vmm", [](Sweep &) { return true; },
                 [](Sweep &s) {
                     umf_result_t r;
                     s.made = make_provider(
                         s.primary, UMF_MEMORY_TYPE_DEVICE, false, 0, &r,
                         UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD);
                     return r;
                 },
                 [](Sweep &s, umf_result_t) {
                     umfMemoryProviderDestroy(s.made);
                     s.made = nullptr;
                     return true;
                 },
                 "cuDeviceGetAttribute"});
    v.push_back(alloc_scenario("alloc_vmm", "cuMemCreate", &Sweep::vmm, 0));
    v.push_back(free_scenario("free_vmm", "cuMemUnmap", &Sweep::vmm, 0));
    v.push_back({"get_ipc_handle_vmm",
                 [](Sweep &s) { return alloc_for(s, s.vmm, 4 * KiB, 0); },
                 [](Sweep &s) {
                     return umfMemoryProviderGetIPCHandle(s.vmm, s.ptr, s.size,
                                                          &s.data);
                 },
                 [](Sweep &s, umf_result_t r) {
                     return (r != UMF_RESULT_SUCCESS ||
                             umfMemoryProviderPutIPCHandle(s.vmm, &s.data) ==
                                 UMF_RESULT_SUCCESS) &&
                            free_ok(s.vmm, s.ptr, s.size);
                 },
                 "cuMemExportToShareableHandle"});
    v.push_back({"open_remote_vmm", [](Sweep &) { return true; },
                 [](Sweep &s) {
                     return umfMemoryProviderOpenIPCHandle(
                         s.vmm, s.remote.data(), &s.opened);
                 },
                 [](Sweep &s, umf_result_t r) {
                     return r != UMF_RESULT_SUCCESS ||
                            umfMemoryProviderCloseIPCHandle(
                                s.vmm, s.opened, 4 * KiB) == UMF_RESULT_SUCCESS;
                 },
                 "cuMemImportFromShareableHandle"});
    v.push_back(
        {"close_remote_vmm",
         [](Sweep &s) {
             return umfMemoryProviderOpenIPCHandle(s.vmm, s.remote.data(),
                                                   &s.opened) ==
                    UMF_RESULT_SUCCESS;
         },
         [](Sweep &s) {
             return umfMemoryProviderCloseIPCHandle(s.vmm, s.opened, 4 * KiB);
         },
         [](Sweep &s, umf_result_t r) {
             return r == UMF_RESULT_SUCCESS ||
                    umfMemoryProviderCloseIPCHandle(s.vmm, s.opened, 4 * KiB) ==
                        UMF_RESULT_SUCCESS;
         },
         "cuMemUnmap"});
}

std::vector<Scenario> scenarios() {
    std::vector<Scenario> v;
    v.push_back({"create", [](Sweep &) { return true; },
                 [](Sweep &s) {
                     umf_result_t r;
                     s.made = make_provider(s.primary, UMF_MEMORY_TYPE_DEVICE,
                                            false, 0, &r);
                     return r;
                 },
                 [](Sweep &s, umf_result_t) {
                     umfMemoryProviderDestroy(s.made);
                     s.made = nullptr;
                     return true;
                 },
                 "cuMemGetAllocationGranularity"});
    v.push_back(
        alloc_scenario("alloc_device", "cuMemAlloc_v2", &Sweep::device, 0));
    v.push_back(alloc_scenario("alloc_aligned", "cuMemAlloc_v2", &Sweep::device,
                               2 * MiB));
    v.push_back(
        alloc_scenario("alloc_host", "cuMemAllocHost_v2", &Sweep::host, 0));
    v.push_back(alloc_scenario("alloc_host_flags", "cuMemHostAlloc",
                               &Sweep::host_flags, 0));
    v.push_back(
        alloc_scenario("alloc_shared", "cuMemAllocManaged", &Sweep::shared, 0));
    v.push_back(
        free_scenario("free_device", "cuMemFree_v2", &Sweep::device, 0));
    v.push_back(free_scenario("free_aligned", "cuMemFree_v2", &Sweep::device,
                              64 * KiB));
    v.push_back(free_scenario("free_host", "cuMemFreeHost", &Sweep::host, 0));
    v.push_back(
        free_scenario("free_shared", "cuMemFree_v2", &Sweep::shared, 0));
    v.push_back({"free_last_piece",
                 [](Sweep &s) {
                     char *p = nullptr;
                     if (!alloc_for(s, s.device, 64 * KiB, 0) ||
                         umfMemoryProviderAllocationSplit(s.device, s.ptr,
                                                          64 * KiB, 16 * KiB) !=
                             UMF_RESULT_SUCCESS) {
                         return false;
                     }
                     p = static_cast<char *>(s.ptr);
                     s.ptr = p + 16 * KiB;
                     s.size = 48 * KiB;
                     return free_ok(s.device, p, 16 * KiB);
                 },
                 [](Sweep &s) {
                     return umfMemoryProviderFree(s.device, s.ptr, s.size);
                 },
                 [](Sweep &s, umf_result_t r) {
                     return r == UMF_RESULT_SUCCESS ||
                            free_ok(s.device, s.ptr, s.size);
                 },
                 "cuMemFree_v2"});
    v.push_back({"min_page_size",
                 [](Sweep &s) { return alloc_for(s, s.device, 4 * KiB, 0); },
                 [](Sweep &s) {
                     size_t page = 0;
                     return umfMemoryProviderGetMinPageSize(s.device, s.ptr,
                                                            &page);
                 },
                 [](Sweep &s, umf_result_t) {
                     return free_ok(s.device, s.ptr, s.size);
                 },
                 "cuPointerGetAttribute"});
    // (Split and merge make no driver call: what they check, the
    // provider's own record holds.)
    v.push_back({"properties",
                 [](Sweep &s) { return alloc_for(s, s.device, 4 * KiB, 0); },
                 [](Sweep &s) {
                     umf_gpu_allocation_properties_t props;
                     return umfGpuMemoryProviderGetAllocationProperties(
                         s.device, s.ptr, &props);
                 },
                 [](Sweep &s, umf_result_t) {
                     return free_ok(s.device, s.ptr, s.size);
                 },
                 "cuPointerGetAttribute"});
    v.push_back({"get_ipc_handle",
                 [](Sweep &s) { return alloc_for(s, s.device, 4 * KiB, 0); },
                 [](Sweep &s) {
                     return umfMemoryProviderGetIPCHandle(s.device, s.ptr,
                                                          s.size, &s.data);
                 },
                 [](Sweep &s, umf_result_t r) {
                     return (r != UMF_RESULT_SUCCESS ||
                             umfMemoryProviderPutIPCHandle(s.device, &s.data) ==
                                 UMF_RESULT_SUCCESS) &&
                            free_ok(s.device, s.ptr, s.size);
                 },
                 "cuIpcGetMemHandle"});
    v.push_back({"open_local",
                 [](Sweep &s) {
                     return alloc_for(s, s.device, 4 * KiB, 0) &&
                            umfMemoryProviderGetIPCHandle(s.device, s.ptr,
                                                          s.size, &s.data) ==
                                UMF_RESULT_SUCCESS;
                 },
                 [](Sweep &s) {
                     return umfMemoryProviderOpenIPCHandle(s.device, &s.data,
                                                           &s.opened);
                 },
                 [](Sweep &s, umf_result_t r) {
                     return (r != UMF_RESULT_SUCCESS ||
                             umfMemoryProviderCloseIPCHandle(s.device, s.opened,
                                                             s.size) ==
                                 UMF_RESULT_SUCCESS) &&
                            umfMemoryProviderPutIPCHandle(s.device, &s.data) ==
                                UMF_RESULT_SUCCESS &&
                            free_ok(s.device, s.ptr, s.size);
                 },
                 "cuPointerGetAttribute"});
    v.push_back({"open_remote", [](Sweep &) { return true; },
                 [](Sweep &s) {
                     return umfMemoryProviderOpenIPCHandle(
                         s.device, s.remote.data(), &s.opened);
                 },
                 [](Sweep &s, umf_result_t r) {
                     return r != UMF_RESULT_SUCCESS ||
                            umfMemoryProviderCloseIPCHandle(s.device, s.opened,
                                                            4 * KiB) ==
                                UMF_RESULT_SUCCESS;
                 },
                 "cuIpcOpenMemHandle_v2"});
    v.push_back({"close_remote",
                 [](Sweep &s) {
                     return umfMemoryProviderOpenIPCHandle(
                                s.device, s.remote.data(), &s.opened) ==
                            UMF_RESULT_SUCCESS;
                 },
                 [](Sweep &s) {
                     return umfMemoryProviderCloseIPCHandle(s.device, s.opened,
                                                            4 * KiB);
                 },
                 [](Sweep &s, umf_result_t r) {
                     // A failed close keeps the mapping open, to close again.
                     return r == UMF_RESULT_SUCCESS ||
                            umfMemoryProviderCloseIPCHandle(s.device, s.opened,
                                                            4 * KiB) ==
                                UMF_RESULT_SUCCESS;
                 },
                 "cuIpcCloseMemHandle"});
    vmm_scenarios(v);
    return v;
}

// One operation with the k-th call of `entry` failing (k = 0: no fault).
// *calls (if not NULL) gets the calls of kEntries the operation made.
bool inject_once(Sweep &s, const Scenario &sc, CUcontext caller,
                 Bystander &bystander, const char *entry, int64_t k,
                 int64_t set_current_calls_before,
                 std::vector<int64_t> *calls = nullptr) {
    const cuda_test_driver_t *cu = s.cu;
    int64_t allocs = cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    int64_t imports =
        cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
    SWEEP_CHECK(sc.prepare(s), "%s: prepare", sc.name);
    cu->umfCudaMockResetCallCounts();
    if (k > 0) {
        std::string rule = std::string(entry) + ":" + std::to_string(k) +
                           "=CUDA_ERROR_UNKNOWN";
        SWEEP_CHECK(cu->umfCudaMockInjectFaults(rule.c_str()) == 0, "%s",
                    rule.c_str());
    }
    umf_result_t r = sc.op(s);
    cu->umfCudaMockClearFaults();
    // Counted before the checks below call the driver themselves.
    int64_t set_current = cu->umfCudaMockGetCallCount("cuCtxSetCurrent");
    if (calls != nullptr) {
        calls->clear();
        for (const char *e : kEntries) {
            calls->push_back(cu->umfCudaMockGetCallCount(e));
        }
        SWEEP_CHECK(cu->umfCudaMockGetCallCount("cuGetErrorName") == 0,
                    "%s: a run without faults described an error", sc.name);
    }
    CUcontext now = nullptr;
    SWEEP_CHECK(cu->cuCtxGetCurrent(&now) == CUDA_SUCCESS, "%s", sc.name);
    SWEEP_CHECK(now == caller,
                "%s, %s:%lld: the caller's context %p is not "
                "current (%p is)",
                sc.name, entry, (long long)k, (void *)caller, (void *)now);
    // A failed switch back (an even cuCtxSetCurrent when the provider
    // switches) is retried: one call more, and the operation succeeds.
    // A failed cuMemRelease or cuMemAddressFree (after a map or an unmap
    // that cannot be undone) is tried again.
    bool retried = std::string(entry) == "cuMemRelease" ||
                   std::string(entry) == "cuMemAddressFree";
    bool absorbed =
        k > 0 &&
        ((std::string(entry) == "cuCtxSetCurrent" && k % 2 == 0) || retried);
    if (k == 0 || absorbed) {
        SWEEP_CHECK(r == UMF_RESULT_SUCCESS, "%s, %s:%lld: result %d", sc.name,
                    entry, (long long)k, r);
        if (absorbed && !retried) {
            SWEEP_CHECK(set_current == set_current_calls_before + 1,
                        "%s: %lld cuCtxSetCurrent calls, %lld without the "
                        "fault",
                        sc.name, (long long)set_current,
                        (long long)set_current_calls_before);
        }
    } else {
        SWEEP_CHECK(r == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC,
                    "%s, %s:%lld: result %d", sc.name, entry, (long long)k, r);
        cuda_native_error e = cuda_last_native_error(s.device);
        SWEEP_CHECK(e.code == CUDA_ERROR_UNKNOWN &&
                        e.message.find(entry) != std::string::npos &&
                        e.message.find("CUDA_ERROR_UNKNOWN") !=
                            std::string::npos,
                    "%s, %s:%lld: native error %d '%s'", sc.name, entry,
                    (long long)k, e.code, e.message.c_str());
    }
    SWEEP_CHECK(bystander.code() == CUDA_ERROR_INVALID_VALUE,
                "%s, %s:%lld: another thread's native error changed", sc.name,
                entry, (long long)k);
    SWEEP_CHECK(sc.cleanup(s, r), "%s, %s:%lld: cleanup", sc.name, entry,
                (long long)k);
    SWEEP_CHECK(
        cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS) == allocs &&
            cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS) ==
                imports,
        "%s, %s:%lld: leaked", sc.name, entry, (long long)k);
    return true;
}

// The sweep of one scenario with `caller` current; *faults counts the
// injections.
bool sweep(Sweep &s, const Scenario &sc, CUcontext caller, Bystander &b,
           int *faults) {
    const cuda_test_driver_t *cu = s.cu;
    SWEEP_CHECK(cu->cuCtxSetCurrent(caller) == CUDA_SUCCESS, "%s", sc.name);
    // The calls of a run without faults.
    std::vector<int64_t> calls;
    SWEEP_CHECK(inject_once(s, sc, caller, b, "", 0, 0, &calls), "%s", sc.name);
    int64_t set_current = calls[1];
    static_assert(sizeof(kEntries) / sizeof(kEntries[0]) > 1, "");
    bool main_found = false;
    for (size_t i = 0; i < calls.size(); i++) {
        const char *entry = kEntries[i];
        const int64_t n = calls[i];
        main_found |= n > 0 && std::string(entry) == sc.main_entry;
        for (int64_t k = 1; k <= n; k++) {
            SWEEP_CHECK(inject_once(s, sc, caller, b, entry, k, set_current),
                        "%s", sc.name);
            // And it still works.
            SWEEP_CHECK(inject_once(s, sc, caller, b, "", 0, 0), "%s", sc.name);
            (*faults)++;
        }
    }
    SWEEP_CHECK(main_found, "%s: no call of %s", sc.name, sc.main_entry);
    return true;
}

// Producer for the IPC scenarios: sends IPC data of 4 KiB of device memory,
// then frees it when the parent closes the socket.
UMF_TEST_CHILD(cuda_fault_producer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CUcontext ctx = nullptr;
    if (cu == nullptr || cu->cuDevicePrimaryCtxRetain(&ctx, 0)) {
        return 1;
    }
    umf_result_t r;
    umf_memory_provider_handle_t h =
        make_provider(ctx, UMF_MEMORY_TYPE_DEVICE, false, 0, &r,
                      getenv("UMF_TEST_CUDA_FAULT_VMM") != nullptr
                          ? UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD
                          : UMF_CUDA_ALLOCATION_MODE_DEFAULT);
    void *ptr = nullptr;
    IpcBuf data{};
    int status = 1;
    if (h != nullptr &&
        umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr) == UMF_RESULT_SUCCESS) {
        if (umfMemoryProviderGetIPCHandle(h, ptr, 4 * KiB, &data) ==
                UMF_RESULT_SUCCESS &&
            umf_test_send(sock, &data, sizeof(data)) == 0) {
            char c;
            (void)umf_test_recv(sock, &c, 1); // until the parent closes
            status =
                umfMemoryProviderPutIPCHandle(h, &data) == UMF_RESULT_SUCCESS &&
                        free_ok(h, ptr, 4 * KiB)
                    ? 0
                    : 2;
        }
    }
    umfMemoryProviderDestroy(h);
    cu->cuDevicePrimaryCtxRelease_v2(0);
    return status;
}

bool run_scenario(const char *name) {
    Sweep s;
    std::string why;
    s.cu = cuda_test_driver_load(&why);
    SWEEP_CHECK(s.cu != nullptr, "driver");
    CUdevice dev = 0;
    SWEEP_CHECK(s.cu->cuDevicePrimaryCtxRetain(&s.primary, 0) == CUDA_SUCCESS,
                "primary context");
    SWEEP_CHECK(s.cu->cuDeviceGet(&dev, 0) == CUDA_SUCCESS &&
                    s.cu->cuCtxCreate_v2(&s.other, 0, dev) == CUDA_SUCCESS,
                "context");
    umf_result_t r;
    s.device = make_provider(s.primary, UMF_MEMORY_TYPE_DEVICE, false, 0, &r);
    s.host = make_provider(s.primary, UMF_MEMORY_TYPE_HOST, false, 0, &r);
    s.host_flags = make_provider(s.primary, UMF_MEMORY_TYPE_HOST, true,
                                 CU_MEMHOSTALLOC_PORTABLE, &r);
    s.shared = make_provider(s.primary, UMF_MEMORY_TYPE_SHARED, false, 0, &r);
    s.vmm = make_provider(s.primary, UMF_MEMORY_TYPE_DEVICE, false, 0, &r,
                          UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD);
    SWEEP_CHECK(s.device && s.host && s.host_flags && s.shared && s.vmm,
                "providers");

    umf_test_child_t producer = {-1, -1};
    bool remote = std::string(name).find("remote") != std::string::npos;
    if (remote) {
        bool vmm = std::string(name).find("vmm") != std::string::npos;
        const char *env[] = {vmm ? "UMF_TEST_CUDA_FAULT_VMM=1" : nullptr,
                             nullptr};
        SWEEP_CHECK(umf_test_child_start_env(&producer, "cuda_fault_producer",
                                             nullptr, env) == 0,
                    "producer");
        s.remote.resize(sizeof(IpcBuf));
        SWEEP_CHECK(
            umf_test_recv(producer.sock, s.remote.data(), s.remote.size()) == 0,
            "producer's data");
    }
    bool ok = true;
    int faults = 0;
    {
        Bystander bystander(s.device);
        for (const Scenario &sc : scenarios()) {
            if (std::string(sc.name) != name) {
                continue;
            }
            for (CUcontext caller : {s.other, s.primary, CUcontext(nullptr)}) {
                ok = ok && sweep(s, sc, caller, bystander, &faults);
            }
        }
    }
    std::fprintf(stderr, "scenario %s: %d faults injected\n", name, faults);
    if (remote) {
        close(producer.sock);
        producer.sock = -1;
        int status = umf_test_child_wait(&producer);
        SWEEP_CHECK(status == 0, "producer exited with %d", status);
    }
    s.cu->cuCtxSetCurrent(nullptr);
    umfMemoryProviderDestroy(s.device);
    umfMemoryProviderDestroy(s.host);
    umfMemoryProviderDestroy(s.host_flags);
    umfMemoryProviderDestroy(s.shared);
    umfMemoryProviderDestroy(s.vmm);
    s.cu->cuCtxDestroy_v2(s.other);
    s.cu->cuDevicePrimaryCtxRelease_v2(0);
    return ok && faults > 0;
}

// Runs the scenario named by UMF_TEST_CUDA_FAULT_SCENARIO.
UMF_TEST_CHILD(cuda_fault_sweep) {
    cuda_test_child_stderr_to_socket(sock);
    if (cuda_test_child_setup(argc, argv, true) == nullptr) {
        return 3;
    }
    const char *name = getenv("UMF_TEST_CUDA_FAULT_SCENARIO");
    return name != nullptr && run_scenario(name) ? 0 : 1;
}

class CudaFaults : public CudaProviderTest,
                   public testing::WithParamInterface<const char *> {};

TEST_P(CudaFaults, EveryDriverCall) {
    CUDA_TEST_REQUIRE_EMULATED();
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child(
        "cuda_fault_sweep",
        {"UMF_GPU_MOCK_LEAKS=strict",
         std::string("UMF_TEST_CUDA_FAULT_SCENARIO=") + GetParam()},
        &status, &out));
    EXPECT_EQ(status, 0) << "(86: leaks at exit)\n" << out;
    size_t at = out.find(std::string("scenario ") + GetParam());
    ASSERT_NE(at, std::string::npos) << out;
    std::printf("%s", out.substr(at, out.find('\n', at) + 1 - at).c_str());
}

std::vector<const char *> scenario_names() {
    std::vector<const char *> v;
    for (const Scenario &sc : scenarios()) {
        v.push_back(sc.name);
    }
    return v;
}

INSTANTIATE_TEST_SUITE_P(Ops, CudaFaults, testing::ValuesIn(scenario_names()),
                         [](const testing::TestParamInfo<const char *> &info) {
                             return std::string(info.param);
                         });

// --- The mapping table, end to end
// ------------------------------------------------

using CudaFaultResults = CudaProviderTest;

TEST_F(CudaFaultResults, EachResultMapsAsDocumented) {
    CUDA_TEST_REQUIRE_EMULATED();
    CudaProvider h;
    struct Case {
        const char *injected;
        int32_t code; // not a CUresult: 12345 is no value of that enum
        umf_result_t want;
    } cases[] = {
        {"CUDA_ERROR_INVALID_VALUE", CUDA_ERROR_INVALID_VALUE,
         UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {"CUDA_ERROR_OUT_OF_MEMORY", CUDA_ERROR_OUT_OF_MEMORY,
         UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC},
        {"CUDA_ERROR_NOT_SUPPORTED", CUDA_ERROR_NOT_SUPPORTED,
         UMF_RESULT_ERROR_NOT_SUPPORTED},
        {"CUDA_ERROR_DEINITIALIZED", CUDA_ERROR_DEINITIALIZED,
         UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE},
        {"CUDA_ERROR_INVALID_CONTEXT", CUDA_ERROR_INVALID_CONTEXT,
         UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {"CUDA_ERROR_TOO_MANY_PEERS", CUDA_ERROR_TOO_MANY_PEERS,
         UMF_RESULT_ERROR_OUT_OF_RESOURCES},
        {"CUDA_ERROR_LAUNCH_FAILED", CUDA_ERROR_LAUNCH_FAILED,
         UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC},
        {"12345", 12345, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC},
    };
    for (const Case &c : cases) {
        std::string rule = std::string("cuMemAlloc_v2:1=") + c.injected;
        ASSERT_EQ(cu->umfCudaMockInjectFaults(rule.c_str()), 0);
        void *ptr = nullptr;
        EXPECT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr), c.want)
            << c.injected;
        cu->umfCudaMockClearFaults();
        cuda_native_error e = cuda_last_native_error(h);
        EXPECT_EQ(e.code, c.code);
        EXPECT_NE(e.message.find("cuMemAlloc_v2(size=4096) failed: "),
                  std::string::npos)
            << e.message;
        // The driver's name for it, or the number it does not know.
        EXPECT_NE(e.message.find(c.injected), std::string::npos) << e.message;
        EXPECT_EQ(e.message.find("device memory ran out") != std::string::npos,
                  c.code == CUDA_ERROR_OUT_OF_MEMORY)
            << e.message;
    }
}

TEST_F(CudaFaultResults, ContextThatCannotBeRestored) {
    CUDA_TEST_REQUIRE_EMULATED();
    CudaProvider h;
    CUcontext mine = cuda_create_context(0);
    std::thread([&] {
        cuda_set_current(mine);
        // Every switch back fails: an allocation is undone and fails ...
        ASSERT_EQ(cu->umfCudaMockInjectFaults(
                      "cuCtxSetCurrent:2+=CUDA_ERROR_UNKNOWN"),
                  0);
        void *ptr = nullptr;
        EXPECT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr),
                  UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
        cu->umfCudaMockClearFaults();
        cuda_native_error e = cuda_last_native_error(h);
        EXPECT_NE(e.message.find("could not be made current again"),
                  std::string::npos)
            << e.message;
        EXPECT_EQ(cuda_current(), cuda_primary_context()); // left as it was
        EXPECT_EQ(cuda_mock_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), 0);
        // ... while a free, done at the driver, succeeds.
        cuda_set_current(mine);
        ASSERT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr),
                  UMF_RESULT_SUCCESS);
        ASSERT_EQ(cu->umfCudaMockInjectFaults(
                      "cuCtxSetCurrent:2+=CUDA_ERROR_UNKNOWN"),
                  0);
        EXPECT_EQ(umfMemoryProviderFree(h, ptr, 4 * KiB), UMF_RESULT_SUCCESS);
        cu->umfCudaMockClearFaults();
        EXPECT_EQ(cuda_mock_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), 0);
        cuda_set_current(nullptr);
    }).join();
    cuda_destroy_context(mine);
}

} // namespace
