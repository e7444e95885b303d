// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The bad-input inventory: a table of calls of every public function (the
// core API, both providers' parameters and ops, the GPU extensions and the
// emulated drivers' control API) with NULLs, zero sizes, bad alignments,
// foreign pointers, double frees, handles used after they were freed, put
// or closed, and malformed IPC data. Each case names the call, the result
// the headers document for it, and runs it; after every case both
// providers must still allocate, hold data and free, with the driver's
// live allocations and mappings back where they were and the counters
// sane. The test prints how many cases ran.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <umf/gpu_mock.h>
#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

extern "C" {
#include "ipc_data.h"
}
#include "gpu_test.h"
#include "test_providers.h"

namespace {

constexpr int64_t IA = UMF_RESULT_ERROR_INVALID_ARGUMENT;
constexpr int64_t ALIGN = UMF_RESULT_ERROR_INVALID_ALIGNMENT;
constexpr int64_t NOSUP = UMF_RESULT_ERROR_NOT_SUPPORTED;
constexpr int64_t SPECIFIC = UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC;
constexpr int64_t OK = UMF_RESULT_SUCCESS;
constexpr size_t KiB = 1024;

// What every case of one provider kind works with. The providers live for
// the whole inventory; a case may make and destroy its own.
struct KindFix {
    const umf_test_gpu_t *g = nullptr;
    umf_memory_provider_handle_t dev = nullptr;  // DEVICE
    umf_memory_provider_handle_t dev2 = nullptr; // DEVICE, a second one
    void *live = nullptr; // an allocation of `dev` held throughout
    size_t live_size = 64 * KiB;
    std::vector<unsigned char> live_data; // its valid IPC data
};

struct BadCase {
    std::string name;
    int64_t expected;
    std::function<int64_t()> run;
    // The provider umfGetLastFailedMemoryProvider() must name after the
    // call (nullptr: not checked).
    umf_memory_provider_handle_t failed = nullptr;
};

std::vector<BadCase> g_cases;

void add(const std::string &name, int64_t expected, std::function<int64_t()> f,
         umf_memory_provider_handle_t failed = nullptr) {
    g_cases.push_back({name, expected, std::move(f), failed});
}

size_t ipc_size() {
    return sizeof(umf_ipc_data_t);
}

// IPC data of `p` (a pointer of `h`) for `size` bytes; empty on failure.
std::vector<unsigned char> ipc_get(umf_memory_provider_handle_t h, void *p,
                                   size_t size) {
    std::vector<unsigned char> d(ipc_size());
    if (umfMemoryProviderGetIPCHandle(h, p, size, d.data()) !=
        UMF_RESULT_SUCCESS) {
        d.clear();
    }
    return d;
}

// A copy of `data` with the field at `offset` of `len` bytes set to
// `value`; with `fix`, the checksum recomputed so that only the field's own
// check can refuse it.
template <typename T>
std::vector<unsigned char> with_field(std::vector<unsigned char> data,
                                      size_t offset, T value, bool fix) {
    std::memcpy(data.data() + offset, &value, sizeof(T));
    if (fix) {
        umf_ipc_data_t rec;
        std::memcpy(&rec, data.data(), sizeof(rec));
        rec.checksum = umf_ipc_data_checksum(&rec);
        std::memcpy(data.data(), &rec, sizeof(rec));
    }
    return data;
}

// Opens `data` with `h`; closes again what opened (a wrong success must not
// leave a mapping behind).
int64_t open_result(umf_memory_provider_handle_t h,
                    std::vector<unsigned char> data) {
    void *p = nullptr;
    umf_result_t r = umfMemoryProviderOpenIPCHandle(h, data.data(), &p);
    if (r == UMF_RESULT_SUCCESS) {
        umfMemoryProviderCloseIPCHandle(h, p, 1);
    }
    return r;
}

// A fresh allocation of `h`, or nullptr.
void *fresh(umf_memory_provider_handle_t h, size_t size) {
    void *p = nullptr;
    if (umfMemoryProviderAlloc(h, size, 0, &p) != UMF_RESULT_SUCCESS) {
        return nullptr;
    }
    return p;
}

// Runs f on a fresh allocation of `size` bytes, frees it afterwards.
int64_t with_alloc(umf_memory_provider_handle_t h, size_t size,
                   const std::function<int64_t(char *)> &f) {
    char *p = static_cast<char *>(fresh(h, size));
    if (p == nullptr) {
        return -1000;
    }
    int64_t r = f(p);
    umfMemoryProviderFree(h, p, size);
    return r;
}

// An address that no provider or driver allocated.
char g_stack_like[4096];

// ------------------------------------------------------------ core cases

void add_core_cases() {
    // umfMemoryProviderCreate with bad tables.
    static umf_memory_provider_ops_t ops;
    auto base = [] { return *umf_test_tracing_provider_ops(); };
    static umf_test_trace_t trace;
    auto create = [](const umf_memory_provider_ops_t &o) -> int64_t {
        umf_memory_provider_handle_t h = nullptr;
        umf_result_t r = umfMemoryProviderCreate(&o, &trace, &h);
        umfMemoryProviderDestroy(h);
        return r;
    };
    add("core/create/NULL ops", IA, [] {
        umf_memory_provider_handle_t h = nullptr;
        return umfMemoryProviderCreate(nullptr, nullptr, &h);
    });
    add("core/create/NULL out", IA, [] {
        return umfMemoryProviderCreate(umf_test_null_provider_ops(), nullptr,
                                       nullptr);
    });
    add("core/create/version 0.8", IA, [=] {
        ops = base();
        ops.version = UMF_MAKE_VERSION(0, 8);
        return create(ops);
    });
    add("core/create/version 1.0", IA, [=] {
        ops = base();
        ops.version = UMF_MAKE_VERSION(1, 0);
        return create(ops);
    });
    add("core/create/version 0", IA, [=] {
        ops = base();
        ops.version = 0;
        return create(ops);
    });
    const char *mandatory[] = {"initialize",
                               "finalize",
                               "alloc",
                               "free",
                               "get_last_native_error",
                               "get_recommended_page_size",
                               "get_min_page_size",
                               "get_name"};
    for (int i = 0; i < 8; i++) {
        add(std::string("core/create/no ") + mandatory[i], IA, [=] {
            ops = base();
            switch (i) {
            case 0:
                ops.initialize = nullptr;
                break;
            case 1:
                ops.finalize = nullptr;
                break;
            case 2:
                ops.alloc = nullptr;
                break;
            case 3:
                ops.free = nullptr;
                break;
            case 4:
                ops.get_last_native_error = nullptr;
                break;
            case 5:
                ops.get_recommended_page_size = nullptr;
                break;
            case 6:
                ops.get_min_page_size = nullptr;
                break;
            default:
                ops.get_name = nullptr;
                break;
            }
            return create(ops);
        });
    }
    add("core/create/split without merge", IA, [=] {
        ops = base();
        ops.ext.allocation_merge = nullptr;
        return create(ops);
    });
    add("core/create/merge without split", IA, [=] {
        ops = base();
        ops.ext.allocation_split = nullptr;
        return create(ops);
    });
    const char *ipc[] = {"get_ipc_handle_size", "get_ipc_handle",
                         "put_ipc_handle", "open_ipc_handle",
                         "close_ipc_handle"};
    for (int i = 0; i < 5; i++) {
        add(std::string("core/create/IPC without ") + ipc[i], IA, [=] {
            ops = base();
            switch (i) {
            case 0:
                ops.ipc.get_ipc_handle_size = nullptr;
                break;
            case 1:
                ops.ipc.get_ipc_handle = nullptr;
                break;
            case 2:
                ops.ipc.put_ipc_handle = nullptr;
                break;
            case 3:
                ops.ipc.open_ipc_handle = nullptr;
                break;
            default:
                ops.ipc.close_ipc_handle = nullptr;
                break;
            }
            return create(ops);
        });
    }
    add("core/create/initialize's error unchanged",
        UMF_RESULT_ERROR_OUT_OF_RESOURCES, [] {
            static umf_test_fail_params_t fp = {
                UMF_TEST_OP_INITIALIZE, UMF_RESULT_ERROR_OUT_OF_RESOURCES, 0};
            umf_memory_provider_handle_t h = nullptr;
            umf_result_t r = umfMemoryProviderCreate(
                umf_test_failing_provider_ops(), &fp, &h);
            umfMemoryProviderDestroy(h);
            return r;
        });
    add("core/destroy/NULL", OK, [] {
        umfMemoryProviderDestroy(nullptr);
        return OK;
    });
    add("core/get_name/NULL handle is NULL", 0,
        [] { return umfMemoryProviderGetName(nullptr) != nullptr; });
    add("core/native_error/NULL handle: NULL and 0", 1, [] {
        const char *msg = "x";
        int32_t code = 7;
        umfMemoryProviderGetLastNativeError(nullptr, &msg, &code);
        return msg == nullptr && code == 0;
    });
    add("core/native_error/NULL handle and NULL outs", OK, [] {
        umfMemoryProviderGetLastNativeError(nullptr, nullptr, nullptr);
        return OK;
    });
    // Every wrapper with a NULL handle, through the core's checks.
    void *p = g_stack_like;
    add("core/alloc/NULL handle", IA, [] {
        void *q = nullptr;
        return umfMemoryProviderAlloc(nullptr, 64, 0, &q);
    });
    add("core/free/NULL handle", IA,
        [=] { return umfMemoryProviderFree(nullptr, p, 64); });
    add("core/recommended_page_size/NULL handle", IA, [] {
        size_t sz = 0;
        return umfMemoryProviderGetRecommendedPageSize(nullptr, 64, &sz);
    });
    add("core/min_page_size/NULL handle", IA, [] {
        size_t sz = 0;
        return umfMemoryProviderGetMinPageSize(nullptr, nullptr, &sz);
    });
    add("core/purge_lazy/NULL handle", IA,
        [=] { return umfMemoryProviderPurgeLazy(nullptr, p, 64); });
    add("core/purge_force/NULL handle", IA,
        [=] { return umfMemoryProviderPurgeForce(nullptr, p, 64); });
    add("core/split/NULL handle", IA,
        [=] { return umfMemoryProviderAllocationSplit(nullptr, p, 128, 64); });
    add("core/merge/NULL handle", IA, [=] {
        return umfMemoryProviderAllocationMerge(
            nullptr, p, static_cast<char *>(p) + 64, 128);
    });
    add("core/ipc_size/NULL handle", IA, [] {
        size_t sz = 0;
        return umfMemoryProviderGetIPCHandleSize(nullptr, &sz);
    });
    add("core/ipc_get/NULL handle", IA, [=] {
        std::vector<unsigned char> d(ipc_size());
        return umfMemoryProviderGetIPCHandle(nullptr, p, 64, d.data());
    });
    add("core/ipc_put/NULL handle", IA, [] {
        std::vector<unsigned char> d(ipc_size());
        return umfMemoryProviderPutIPCHandle(nullptr, d.data());
    });
    add("core/ipc_open/NULL handle", IA, [] {
        std::vector<unsigned char> d(ipc_size());
        void *q = nullptr;
        return umfMemoryProviderOpenIPCHandle(nullptr, d.data(), &q);
    });
    add("core/ipc_close/NULL handle", IA,
        [=] { return umfMemoryProviderCloseIPCHandle(nullptr, p, 64); });
    add("core/last_failed/NULL handle records NULL", 1, [] {
        void *q = nullptr;
        umfMemoryProviderAlloc(nullptr, 64, 0, &q);
        return umfGetLastFailedMemoryProvider() == nullptr;
    });
    add("gpu/stats/NULL handle", IA, [] {
        umf_gpu_provider_stats_t s;
        return umfGpuMemoryProviderGetStats(nullptr, &s);
    });
    add("gpu/properties/NULL handle", IA, [=] {
        umf_gpu_allocation_properties_t props;
        return umfGpuMemoryProviderGetAllocationProperties(nullptr, p, &props);
    });
    // A provider that is not a GPU provider of this library.
    static umf_memory_provider_handle_t foreign = nullptr;
    umfMemoryProviderCreate(umf_test_tracing_provider_ops(), &trace, &foreign);
    add(
        "gpu/stats/not a GPU provider", IA,
        [] {
            umf_gpu_provider_stats_t s;
            return umfGpuMemoryProviderGetStats(foreign, &s);
        },
        foreign);
    add(
        "gpu/properties/not a GPU provider", IA,
        [=] {
            umf_gpu_allocation_properties_t props;
            return umfGpuMemoryProviderGetAllocationProperties(foreign, p,
                                                               &props);
        },
        foreign);
    // Without Level Zero in the build, its functions are not supported at
    // all (README, "Two commands"), whatever the handle: they look at no
    // provider, so they name none as the last failed one.
    add(
        "level_zero/resident_change/not a Level Zero provider",
        UMF_TEST_HAVE_LEVEL_ZERO ? IA : NOSUP,
        [] {
            return umfLevelZeroMemoryProviderResidentDeviceChange(
                foreign, reinterpret_cast<ze_device_handle_t>(g_stack_like),
                true);
        },
        UMF_TEST_HAVE_LEVEL_ZERO ? foreign : nullptr);
}

// ------------------------------------------------ both providers' ops

void add_provider_cases(KindFix &f, KindFix *other) {
    const std::string k = std::string(f.g->name) + "/";
    umf_memory_provider_handle_t h = f.dev;
    const umf_test_gpu_t *g = f.g;
    bool cuda = g->kind == UMF_TEST_GPU_CUDA;
    char *live = static_cast<char *>(f.live);
    size_t ls = f.live_size;

    // alloc
    add(
        k + "alloc/NULL out", IA,
        [=] { return umfMemoryProviderAlloc(h, 64, 0, nullptr); }, h);
    add(
        k + "alloc/size 0", IA,
        [=] {
            void *p = nullptr;
            return umfMemoryProviderAlloc(h, 0, 0, &p);
        },
        h);
    for (size_t a :
         {size_t(3), size_t(5), size_t(6), size_t(12), size_t(100),
          size_t(4097), size_t(3) << 20, SIZE_MAX, (size_t(1) << 63) + 1}) {
        add(
            k + "alloc/alignment " + std::to_string(a), ALIGN,
            [=] {
                void *p = nullptr;
                umf_result_t r = umfMemoryProviderAlloc(h, 64, a, &p);
                if (r == UMF_RESULT_SUCCESS) {
                    umfMemoryProviderFree(h, p, 64);
                }
                return r;
            },
            h);
    }
    add(
        k + "alloc/more than the device's memory", SPECIFIC,
        [=] {
            void *p = nullptr;
            umf_result_t r = umfMemoryProviderAlloc(h, size_t(64) << 30, 0, &p);
            if (r == UMF_RESULT_SUCCESS) {
                umfMemoryProviderFree(h, p, size_t(64) << 30);
            }
            return r;
        },
        h);
    add("" + k + "alloc/out of memory: native code", g->oom_code, [=] {
        void *p = nullptr;
        umfMemoryProviderAlloc(h, size_t(64) << 30, 0, &p);
        return gpu_native_code(g);
    });
    // Level Zero drivers call a size they cannot allocate unsupported
    // (ZE_RESULT_ERROR_UNSUPPORTED_SIZE: an invalid argument); CUDA runs
    // out of memory.
    const int64_t huge = cuda ? SPECIFIC : IA;
    add(
        k + "alloc/size SIZE_MAX", huge,
        [=] {
            void *p = nullptr;
            return umfMemoryProviderAlloc(h, SIZE_MAX, 0, &p);
        },
        h);
    add(
        k + "alloc/size SIZE_MAX, alignment 1 MiB", IA,
        [=] {
            void *p = nullptr;
            return umfMemoryProviderAlloc(h, SIZE_MAX, 1 << 20, &p);
        },
        h);

    // free
    add(
        k + "free/NULL ptr", IA,
        [=] { return umfMemoryProviderFree(h, nullptr, 64); }, h);
    add(
        k + "free/static memory", IA,
        [=] { return umfMemoryProviderFree(h, g_stack_like, 64); }, h);
    add(
        k + "free/stack memory", IA,
        [=] {
            char local[64];
            return umfMemoryProviderFree(h, local, sizeof(local));
        },
        h);
    add(
        k + "free/heap memory", IA,
        [=] {
            std::vector<char> heap(256);
            return umfMemoryProviderFree(h, heap.data(), heap.size());
        },
        h);
    add(
        k + "free/interior pointer", IA,
        [=] { return umfMemoryProviderFree(h, live + 256, ls - 256); }, h);
    add(
        k + "free/double free", IA,
        [=] {
            void *p = fresh(h, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return umfMemoryProviderFree(h, p, 4 * KiB);
        },
        h);
    // The CUDA provider keeps no registry of its allocations (its free
    // looks nothing up, DESIGN 7), so it cannot tell another CUDA
    // provider's allocation on the same context from its own: these three
    // cases are Level Zero's alone.
    if (!cuda) {
        add(
            k + "free/another provider's allocation (same kind)", IA,
            [=] {
                void *p = fresh(f.dev2, 4 * KiB);
                int64_t r = umfMemoryProviderFree(h, p, 4 * KiB);
                if (r != UMF_RESULT_SUCCESS) {
                    r = umfMemoryProviderFree(f.dev2, p, 4 * KiB) ==
                                UMF_RESULT_SUCCESS
                            ? r
                            : -1;
                }
                return r;
            },
            h);
    }
    if (other != nullptr) {
        add(
            k + "free/an allocation of the other kind's provider", IA,
            [=] {
                void *p = fresh(other->dev, 4 * KiB);
                int64_t r = umfMemoryProviderFree(h, p, 4 * KiB);
                if (r != UMF_RESULT_SUCCESS) {
                    r = umfMemoryProviderFree(other->dev, p, 4 * KiB) ==
                                UMF_RESULT_SUCCESS
                            ? r
                            : -1;
                }
                return r;
            },
            h);
    }
    add(
        k + "free/split piece with a wrong size", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            int64_t r = umfMemoryProviderFree(h, p, 8 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            return r;
        },
        h);
    add(
        k + "free/first piece freed twice, the other one kept", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            if (p == nullptr ||
                !umf_test_gpu_fill(g, nullptr, p, 8 * KiB, 21)) {
                return int64_t(-1000);
            }
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            int64_t r = umfMemoryProviderFree(h, p, 4 * KiB);
            std::vector<unsigned char> want = gpu_pattern(8 * KiB, 21);
            std::vector<unsigned char> got(4 * KiB);
            if (!umf_test_gpu_copy(g, nullptr, got.data(), p + 4 * KiB,
                                   got.size()) ||
                std::memcmp(got.data(), want.data() + 4 * KiB, got.size())) {
                r = -2; // the piece still in use lost its memory
            }
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            return r;
        },
        h);
    add(
        k + "free/split piece freed twice", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            int64_t r = umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return r;
        },
        h);

    // split
    auto split_case = [&](const std::string &what, size_t alloc_size,
                          std::function<int64_t(char *)> fn) {
        add(
            k + "split/" + what, IA,
            [=] { return with_alloc(h, alloc_size, fn); }, h);
    };
    split_case("NULL ptr", 8 * KiB, [=](char *) {
        return umfMemoryProviderAllocationSplit(h, nullptr, 8 * KiB, 4 * KiB);
    });
    split_case("first size 0", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 0);
    });
    split_case("first size == total", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 8 * KiB);
    });
    split_case("first size > total", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 9 * KiB);
    });
    split_case("total size 0", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p, 0, 0);
    });
    split_case("total larger than the allocation", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p, 1 << 30, 4 * KiB);
    });
    split_case("total SIZE_MAX", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p, SIZE_MAX, 4 * KiB);
    });
    split_case("interior pointer", 8 * KiB, [=](char *p) {
        return umfMemoryProviderAllocationSplit(h, p + 1024, 4 * KiB, 1024);
    });
    split_case("static memory", 8 * KiB, [=](char *) {
        return umfMemoryProviderAllocationSplit(h, g_stack_like, 4096, 1024);
    });
    split_case("piece with another total", 8 * KiB, [=](char *p) {
        umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
        int64_t r = umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 2 * KiB);
        umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 8 * KiB);
        return r;
    });
    add(
        k + "split/freed allocation", IA,
        [=] {
            void *p = fresh(h, 8 * KiB);
            umfMemoryProviderFree(h, p, 8 * KiB);
            return umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
        },
        h);
    if (!cuda) {
        add(
            k + "split/another provider's allocation", IA,
            [=] {
                void *p = fresh(f.dev2, 8 * KiB);
                int64_t r =
                    umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
                if (r == UMF_RESULT_SUCCESS) {
                    // Put back what the wrong provider did, if it can.
                    umfMemoryProviderAllocationMerge(
                        h, p, static_cast<char *>(p) + 4 * KiB, 8 * KiB);
                }
                umfMemoryProviderFree(f.dev2, p, 8 * KiB);
                return r;
            },
            h);
    }

    // merge
    auto merge_case = [&](const std::string &what,
                          std::function<int64_t(char *)> fn) {
        add(
            k + "merge/" + what, IA,
            [=] {
                return with_alloc(h, 8 * KiB, [=](char *p) {
                    umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
                    int64_t r = fn(p);
                    umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB,
                                                     8 * KiB);
                    return r;
                });
            },
            h);
    };
    merge_case("NULL low", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, nullptr, p + 4 * KiB,
                                                8 * KiB);
    });
    merge_case("NULL high", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p, nullptr, 8 * KiB);
    });
    merge_case("low == high", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p, p, 8 * KiB);
    });
    merge_case("low > high", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p + 4 * KiB, p, 8 * KiB);
    });
    merge_case("total too small", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 4 * KiB);
    });
    merge_case("total too large", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 12 * KiB);
    });
    merge_case("total 0", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 0);
    });
    merge_case("high not a piece", [=](char *p) {
        return umfMemoryProviderAllocationMerge(h, p, p + 2 * KiB, 6 * KiB);
    });
    merge_case("static memory", [=](char *) {
        return umfMemoryProviderAllocationMerge(h, g_stack_like,
                                                g_stack_like + 1024, 2048);
    });
    add(
        k + "merge/whole allocations never split", IA,
        [=] {
            char *a = static_cast<char *>(fresh(h, 4 * KiB));
            char *b = static_cast<char *>(fresh(h, 4 * KiB));
            char *lo = a < b ? a : b, *hi = a < b ? b : a;
            int64_t r = umfMemoryProviderAllocationMerge(
                h, lo, hi, static_cast<size_t>(hi - lo) + 4 * KiB);
            umfMemoryProviderFree(h, a, 4 * KiB);
            umfMemoryProviderFree(h, b, 4 * KiB);
            return r;
        },
        h);
    add(
        k + "merge/pieces of two allocations", IA,
        [=] {
            char *a = static_cast<char *>(fresh(h, 8 * KiB));
            char *b = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, a, 8 * KiB, 4 * KiB);
            umfMemoryProviderAllocationSplit(h, b, 8 * KiB, 4 * KiB);
            char *lo = a < b ? a + 4 * KiB : b + 4 * KiB;
            char *hi = a < b ? b : a;
            int64_t r = umfMemoryProviderAllocationMerge(
                h, lo, hi, static_cast<size_t>(hi - lo) + 4 * KiB);
            for (char *x : {a, b}) {
                umfMemoryProviderFree(h, x, 4 * KiB);
                umfMemoryProviderFree(h, x + 4 * KiB, 4 * KiB);
            }
            return r;
        },
        h);
    add(
        k + "merge/merged twice", IA,
        [=] {
            return with_alloc(h, 8 * KiB, [=](char *p) {
                umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
                umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 8 * KiB);
                return int64_t(umfMemoryProviderAllocationMerge(
                    h, p, p + 4 * KiB, 8 * KiB));
            });
        },
        h);
    add(
        k + "merge/freed piece", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            int64_t r =
                umfMemoryProviderAllocationMerge(h, p, p + 4 * KiB, 8 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return r;
        },
        h);

    // purge
    add(
        k + "purge_lazy/not supported", NOSUP,
        [=] { return umfMemoryProviderPurgeLazy(h, live, 4096); }, h);
    add(
        k + "purge_force/not supported", NOSUP,
        [=] { return umfMemoryProviderPurgeForce(h, live, 4096); }, h);
    add(
        k + "purge_lazy/NULL ptr", IA,
        [=] { return umfMemoryProviderPurgeLazy(h, nullptr, 4096); }, h);
    add(
        k + "purge_force/NULL ptr", IA,
        [=] { return umfMemoryProviderPurgeForce(h, nullptr, 4096); }, h);

    // page sizes, name, native error
    add(
        k + "recommended_page_size/NULL out", IA,
        [=] {
            return umfMemoryProviderGetRecommendedPageSize(h, 4096, nullptr);
        },
        h);
    add(
        k + "min_page_size/NULL out", IA,
        [=] { return umfMemoryProviderGetMinPageSize(h, live, nullptr); }, h);
    add(
        k + "min_page_size/static memory", IA,
        [=] {
            size_t s = 0;
            return umfMemoryProviderGetMinPageSize(h, g_stack_like, &s);
        },
        h);
    add(
        k + "min_page_size/freed allocation", IA,
        [=] {
            void *p = fresh(h, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            size_t s = 0;
            return umfMemoryProviderGetMinPageSize(h, p, &s);
        },
        h);
    add(k + "native_error/NULL outs", OK, [=] {
        umfMemoryProviderGetLastNativeError(h, nullptr, nullptr);
        return OK;
    });

    // IPC: get
    add(
        k + "ipc_size/NULL out", IA,
        [=] { return umfMemoryProviderGetIPCHandleSize(h, nullptr); }, h);
    add(
        k + "ipc_get/NULL ptr", IA,
        [=] {
            std::vector<unsigned char> d(ipc_size());
            return umfMemoryProviderGetIPCHandle(h, nullptr, 64, d.data());
        },
        h);
    add(
        k + "ipc_get/NULL data", IA,
        [=] { return umfMemoryProviderGetIPCHandle(h, live, 64, nullptr); }, h);
    add(
        k + "ipc_get/static memory", IA,
        [=] {
            std::vector<unsigned char> d(ipc_size());
            return umfMemoryProviderGetIPCHandle(h, g_stack_like, 64, d.data());
        },
        h);
    add(
        k + "ipc_get/freed allocation", IA,
        [=] {
            void *p = fresh(h, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            std::vector<unsigned char> d(ipc_size());
            return umfMemoryProviderGetIPCHandle(h, p, 64, d.data());
        },
        h);
    add(
        k + "ipc_get/size past the end", IA,
        [=] {
            std::vector<unsigned char> d(ipc_size());
            return umfMemoryProviderGetIPCHandle(h, live, ls + 1, d.data());
        },
        h);
    add(
        k + "ipc_get/interior pointer, size past the end", IA,
        [=] {
            std::vector<unsigned char> d(ipc_size());
            return umfMemoryProviderGetIPCHandle(h, live + 4096, ls - 4095,
                                                 d.data());
        },
        h);
    add(
        k + "ipc_get/freed piece of a split allocation", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            std::vector<unsigned char> d(ipc_size());
            int64_t r =
                umfMemoryProviderGetIPCHandle(h, p + 5 * KiB, 64, d.data());
            if (r == UMF_RESULT_SUCCESS) {
                umfMemoryProviderPutIPCHandle(h, d.data());
            }
            umfMemoryProviderFree(h, p, 4 * KiB);
            return r;
        },
        h);
    add(
        k + "ipc_get/size past its piece", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            std::vector<unsigned char> d(ipc_size());
            int64_t r =
                umfMemoryProviderGetIPCHandle(h, p + 1024, 4 * KiB, d.data());
            if (r == UMF_RESULT_SUCCESS) {
                umfMemoryProviderPutIPCHandle(h, d.data());
            }
            umfMemoryProviderFree(h, p, 4 * KiB);
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            return r;
        },
        h);
    // A CUDA provider knows a whole allocation's size as the driver's
    // (maybe rounded-up) range only: a smaller total is not refused there.
    if (!cuda) {
        add(
            k + "split/total smaller than the allocation", IA,
            [=] {
                return with_alloc(h, 8 * KiB, [=](char *p) {
                    int64_t r = umfMemoryProviderAllocationSplit(h, p, 4 * KiB,
                                                                 1 * KiB);
                    if (r == UMF_RESULT_SUCCESS) {
                        umfMemoryProviderAllocationMerge(h, p, p + KiB,
                                                         4 * KiB);
                    }
                    return r;
                });
            },
            h);
    }
    add(
        k + "ipc_get/size SIZE_MAX", IA,
        [=] {
            std::vector<unsigned char> d(ipc_size());
            return umfMemoryProviderGetIPCHandle(h, live + 64, SIZE_MAX,
                                                 d.data());
        },
        h);
    if (!cuda) {
        add(
            k + "ipc_get/another provider's allocation", IA,
            [=] {
                void *p = fresh(f.dev2, 4 * KiB);
                std::vector<unsigned char> d(ipc_size());
                int64_t r = umfMemoryProviderGetIPCHandle(h, p, 64, d.data());
                if (r == UMF_RESULT_SUCCESS) {
                    umfMemoryProviderPutIPCHandle(h, d.data());
                }
                umfMemoryProviderFree(f.dev2, p, 4 * KiB);
                return r;
            },
            h);
    }
    if (other != nullptr) {
        add(
            k + "ipc_get/the other kind's allocation", IA,
            [=] {
                std::vector<unsigned char> d(ipc_size());
                int64_t r =
                    umfMemoryProviderGetIPCHandle(h, other->live, 64, d.data());
                if (r == UMF_RESULT_SUCCESS) {
                    umfMemoryProviderPutIPCHandle(h, d.data());
                }
                return r;
            },
            h);
    }

    // IPC: put
    add(
        k + "ipc_put/NULL data", IA,
        [=] { return umfMemoryProviderPutIPCHandle(h, nullptr); }, h);
    add(
        k + "ipc_put/zeros", IA,
        [=] {
            std::vector<unsigned char> d(ipc_size(), 0);
            return umfMemoryProviderPutIPCHandle(h, d.data());
        },
        h);
    add(
        k + "ipc_put/corrupted checksum", IA,
        [=] {
            std::vector<unsigned char> d = f.live_data;
            d[d.size() - 1] ^= 0x5a;
            return umfMemoryProviderPutIPCHandle(h, d.data());
        },
        h);
    add(
        k + "ipc_put/data of another process", IA,
        [=] {
            return umfMemoryProviderPutIPCHandle(
                h, with_field<int32_t>(f.live_data,
                                       offsetof(umf_ipc_data_t, producer_pid),
                                       getpid() + 1, true)
                       .data());
        },
        h);
    // Well-formed data of this process: nothing is left to release (the
    // driver closed the handle with the allocation), and put balances get.
    // A second put of the same data is not detectable without tracking
    // every export, which neither provider does; it is left out.
    add(
        k + "ipc_put/after the allocation was freed", OK,
        [=] {
            void *p = fresh(h, 4 * KiB);
            std::vector<unsigned char> d = ipc_get(h, p, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return umfMemoryProviderPutIPCHandle(h, d.data());
        },
        h);
    if (other != nullptr) {
        add(
            k + "ipc_put/the other kind's data", IA,
            [=] {
                std::vector<unsigned char> d = other->live_data;
                return umfMemoryProviderPutIPCHandle(h, d.data());
            },
            h);
    }

    // IPC: open
    add(
        k + "ipc_open/NULL data", IA,
        [=] {
            void *p = nullptr;
            return umfMemoryProviderOpenIPCHandle(h, nullptr, &p);
        },
        h);
    add(
        k + "ipc_open/NULL out", IA,
        [=] {
            std::vector<unsigned char> d = f.live_data;
            return umfMemoryProviderOpenIPCHandle(h, d.data(), nullptr);
        },
        h);
    add(
        k + "ipc_open/zeros", IA,
        [=] { return open_result(h, std::vector<unsigned char>(ipc_size())); },
        h);
    add(
        k + "ipc_open/0xff bytes", IA,
        [=] {
            return open_result(h, std::vector<unsigned char>(ipc_size(), 0xff));
        },
        h);
    for (unsigned seed = 1; seed <= 6; seed++) {
        add(
            k + "ipc_open/random bytes " + std::to_string(seed), IA,
            [=] {
                std::mt19937 rng(seed);
                std::vector<unsigned char> d(ipc_size());
                for (auto &b : d) {
                    b = static_cast<unsigned char>(rng());
                }
                return open_result(h, d);
            },
            h);
    }
    add(
        k + "ipc_open/truncated (tail zeroed)", IA,
        [=] {
            std::vector<unsigned char> d = f.live_data;
            std::fill(d.begin() + 100, d.end(), 0);
            return open_result(h, d);
        },
        h);
    add(
        k + "ipc_open/one bit flipped", IA,
        [=] {
            std::vector<unsigned char> d = f.live_data;
            d[offsetof(umf_ipc_data_t, alloc_id)] ^= 1;
            return open_result(h, d);
        },
        h);
    struct Field {
        const char *name;
        size_t offset;
        int width; // bytes
        uint64_t value;
    };
    const Field fields[] = {
        {"magic", offsetof(umf_ipc_data_t, magic), 8, 0x1122334455667788ull},
        {"version 0", offsetof(umf_ipc_data_t, version), 2, 0},
        {"version 3", offsetof(umf_ipc_data_t, version), 2, 3},
        {"unknown kind", offsetof(umf_ipc_data_t, kind), 2, 77},
        {"memory type UNKNOWN", offsetof(umf_ipc_data_t, memory_type), 2, 0},
        {"memory type 9", offsetof(umf_ipc_data_t, memory_type), 2, 9},
        {"handle size 0", offsetof(umf_ipc_data_t, handle_size), 2, 0},
        {"handle size 65", offsetof(umf_ipc_data_t, handle_size), 2, 65},
        {"handle size 8 (bytes after it set)",
         offsetof(umf_ipc_data_t, handle_size), 2, 8},
        {"reserved", offsetof(umf_ipc_data_t, reserved), 4, 1},
        {"pid 0", offsetof(umf_ipc_data_t, producer_pid), 4, 0},
        {"pid -1", offsetof(umf_ipc_data_t, producer_pid), 4, 0xffffffffu},
        {"instance id 0", offsetof(umf_ipc_data_t, instance_id), 8, 0},
        {"size 0", offsetof(umf_ipc_data_t, size), 8, 0},
        {"offset = size", offsetof(umf_ipc_data_t, offset), 8, 64 * KiB},
        {"offset UINT64_MAX", offsetof(umf_ipc_data_t, offset), 8, UINT64_MAX},
        {"base 0", offsetof(umf_ipc_data_t, base), 8, 0},
        {"base + size overflow", offsetof(umf_ipc_data_t, base), 8,
         UINT64_MAX - 4096},
        {"socket kind 3", offsetof(umf_ipc_data_t, socket_kind), 2, 3},
        {"socket name longer than its room",
         offsetof(umf_ipc_data_t, socket_len), 2, 0xffff},
        {"reserved after the socket kind", offsetof(umf_ipc_data_t, reserved3),
         4, 1},
    };
    for (const Field &fd : fields) {
        for (bool fix : {false, true}) {
            add(
                k + "ipc_open/" + fd.name +
                    (fix ? " (checksum fixed)" : " (checksum stale)"),
                IA,
                [=] {
                    std::vector<unsigned char> d = f.live_data;
                    switch (fd.width) {
                    case 2:
                        d = with_field<uint16_t>(
                            d, fd.offset, static_cast<uint16_t>(fd.value), fix);
                        break;
                    case 4:
                        d = with_field<uint32_t>(
                            d, fd.offset, static_cast<uint32_t>(fd.value), fix);
                        break;
                    default:
                        d = with_field<uint64_t>(d, fd.offset, fd.value, fix);
                        break;
                    }
                    return open_result(h, d);
                },
                h);
        }
    }
    if (other != nullptr) {
        add(
            k + "ipc_open/the other kind's data", IA,
            [=] { return open_result(h, other->live_data); }, h);
    }
    add(
        k + "ipc_open/producer gone (no such process)", IA,
        [=] {
            return open_result(
                h, with_field<int32_t>(f.live_data,
                                       offsetof(umf_ipc_data_t, producer_pid),
                                       0x3ffffff0, true));
        },
        h);
    add(
        k + "ipc_open/an earlier process with this pid", IA,
        [=] {
            return open_result(
                h, with_field<uint64_t>(f.live_data,
                                        offsetof(umf_ipc_data_t, instance_id),
                                        umf_ipc_instance_id() ^ 0x5555, true));
        },
        h);
    add(
        k + "ipc_open/freed allocation (put first)", IA,
        [=] {
            void *p = fresh(h, 4 * KiB);
            std::vector<unsigned char> d = ipc_get(h, p, 4 * KiB);
            umfMemoryProviderPutIPCHandle(h, d.data());
            umfMemoryProviderFree(h, p, 4 * KiB);
            // Another allocation may take its address meanwhile.
            void *q = fresh(h, 4 * KiB);
            int64_t r = open_result(h, d);
            umfMemoryProviderFree(h, q, 4 * KiB);
            return r;
        },
        h);
    add(
        k + "ipc_open/freed allocation (never put)", IA,
        [=] {
            void *p = fresh(h, 4 * KiB);
            std::vector<unsigned char> d = ipc_get(h, p, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return open_result(h, d);
        },
        h);

    // IPC: close
    add(
        k + "ipc_close/NULL ptr", IA,
        [=] { return umfMemoryProviderCloseIPCHandle(h, nullptr, 64); }, h);
    add(
        k + "ipc_close/never opened (own allocation)", IA,
        [=] { return umfMemoryProviderCloseIPCHandle(h, live, ls); }, h);
    add(
        k + "ipc_close/static memory", IA,
        [=] { return umfMemoryProviderCloseIPCHandle(h, g_stack_like, 64); },
        h);
    add(
        k + "ipc_close/closed twice", IA,
        [=] {
            std::vector<unsigned char> d = f.live_data;
            void *p = nullptr;
            umfMemoryProviderOpenIPCHandle(h, d.data(), &p);
            umfMemoryProviderCloseIPCHandle(h, p, ls);
            return umfMemoryProviderCloseIPCHandle(h, p, ls);
        },
        h);
    add(
        k + "ipc_close/by another provider on another context", IA,
        [=] {
            if (other == nullptr) {
                return IA; // nothing to try in a build of one kind
            }
            std::vector<unsigned char> d = f.live_data;
            void *p = nullptr;
            umfMemoryProviderOpenIPCHandle(h, d.data(), &p);
            int64_t r = umfMemoryProviderCloseIPCHandle(other->dev, p, ls);
            umfMemoryProviderCloseIPCHandle(h, p, ls);
            return r;
        },
        other != nullptr ? other->dev : nullptr);
    add(
        k + "ipc_close/interior of an opened pointer", IA,
        [=] {
            std::vector<unsigned char> d = f.live_data;
            void *p = nullptr;
            umfMemoryProviderOpenIPCHandle(h, d.data(), &p);
            int64_t r = umfMemoryProviderCloseIPCHandle(
                h, static_cast<char *>(p) + 64, ls);
            umfMemoryProviderCloseIPCHandle(h, p, ls);
            return r;
        },
        h);

    // GPU extensions
    add(
        k + "stats/NULL out", IA,
        [=] { return umfGpuMemoryProviderGetStats(h, nullptr); }, h);
    add(
        k + "properties/NULL ptr", IA,
        [=] {
            umf_gpu_allocation_properties_t props;
            return umfGpuMemoryProviderGetAllocationProperties(h, nullptr,
                                                               &props);
        },
        h);
    add(
        k + "properties/NULL out", IA,
        [=] {
            return umfGpuMemoryProviderGetAllocationProperties(h, live,
                                                               nullptr);
        },
        h);
    add(
        k + "properties/static memory", IA,
        [=] {
            umf_gpu_allocation_properties_t props;
            return umfGpuMemoryProviderGetAllocationProperties(h, g_stack_like,
                                                               &props);
        },
        h);
    add(
        k + "properties/freed allocation", IA,
        [=] {
            void *p = fresh(h, 4 * KiB);
            umfMemoryProviderFree(h, p, 4 * KiB);
            umf_gpu_allocation_properties_t props;
            return umfGpuMemoryProviderGetAllocationProperties(h, p, &props);
        },
        h);
    add(
        k + "properties/past the end of an allocation", IA,
        [=] {
            void *p = fresh(h, 64 * KiB);
            umf_gpu_allocation_properties_t props;
            int64_t r = umfGpuMemoryProviderGetAllocationProperties(
                h, static_cast<char *>(p) + 64 * KiB + 2 * 1024 * KiB, &props);
            umfMemoryProviderFree(h, p, 64 * KiB);
            return r;
        },
        h);
    add(
        k + "properties/freed piece of a split allocation", IA,
        [=] {
            char *p = static_cast<char *>(fresh(h, 8 * KiB));
            umfMemoryProviderAllocationSplit(h, p, 8 * KiB, 4 * KiB);
            umfMemoryProviderFree(h, p + 4 * KiB, 4 * KiB);
            umf_gpu_allocation_properties_t props;
            int64_t r = umfGpuMemoryProviderGetAllocationProperties(
                h, p + 5 * KiB, &props);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return r;
        },
        h);
    // The CUDA provider keeps no sizes of its own: the driver's range,
    // which may be rounded up, is what it knows.
    if (!cuda) {
        add(
            k + "properties/past the size asked for", IA,
            [=] {
                char *p = static_cast<char *>(fresh(h, 100));
                umf_gpu_allocation_properties_t props;
                int64_t r = umfGpuMemoryProviderGetAllocationProperties(
                    h, p + 200, &props);
                umfMemoryProviderFree(h, p, 100);
                return r;
            },
            h);
    }
    add(
        k + "properties/past an over-aligned allocation", IA,
        [=] {
            void *p = nullptr;
            umfMemoryProviderAlloc(h, 4 * KiB, 1 << 20, &p);
            umf_gpu_allocation_properties_t props;
            // A CUDA provider's driver allocation runs on (it allocates
            // alignment - 1 bytes more); Level Zero drivers align
            // themselves (nothing there at all).
            int64_t r = umfGpuMemoryProviderGetAllocationProperties(
                h, static_cast<char *>(p) + 4 * KiB + 64, &props);
            umfMemoryProviderFree(h, p, 4 * KiB);
            return r;
        },
        h);
    if (other != nullptr) {
        add(
            k + "properties/the other kind's allocation", IA,
            [=] {
                umf_gpu_allocation_properties_t props;
                return umfGpuMemoryProviderGetAllocationProperties(
                    h, other->live, &props);
            },
            h);
    }
}

// ------------------------------------------------ parameters, per kind

#if UMF_TEST_HAVE_LEVEL_ZERO
void add_ze_param_cases(KindFix &f, KindFix *other) {
    using P = umf_level_zero_memory_provider_params_handle_t;
    ze_context_handle_t ctx = static_cast<ze_context_handle_t>(f.g->context);
    ze_device_handle_t d0 = static_cast<ze_device_handle_t>(f.g->devices[0]);
    const std::string k = "level_zero/params/";
    add(k + "create NULL out", IA,
        [] { return umfLevelZeroMemoryProviderParamsCreate(nullptr); });
    add(k + "destroy NULL", IA,
        [] { return umfLevelZeroMemoryProviderParamsDestroy(nullptr); });
    add(k + "set context on NULL", IA, [=] {
        return umfLevelZeroMemoryProviderParamsSetContext(nullptr, ctx);
    });
    add(k + "set device on NULL", IA,
        [=] { return umfLevelZeroMemoryProviderParamsSetDevice(nullptr, d0); });
    add(k + "set memory type on NULL", IA, [] {
        return umfLevelZeroMemoryProviderParamsSetMemoryType(
            nullptr, UMF_MEMORY_TYPE_DEVICE);
    });
    add(k + "set resident devices on NULL", IA, [=] {
        ze_device_handle_t devs[1] = {d0};
        return umfLevelZeroMemoryProviderParamsSetResidentDevices(nullptr, devs,
                                                                  1);
    });
    add(k + "set free policy on NULL", IA, [] {
        return umfLevelZeroMemoryProviderParamsSetFreePolicy(
            nullptr, UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT);
    });
    add(k + "set ordinal on NULL", IA, [] {
        return umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(nullptr, 0);
    });
    add(k + "set name on NULL", IA,
        [] { return umfLevelZeroMemoryProviderParamsSetName(nullptr, "x"); });
    add(k + "set IPC fd transfer on NULL", IA, [] {
        return umfLevelZeroMemoryProviderParamsSetIpcFdTransfer(
            nullptr, UMF_GPU_IPC_FD_TRANSFER_AUTO);
    });
    add(k + "set IPC allowed uids on NULL", IA, [] {
        uint32_t uid = 0;
        return umfLevelZeroMemoryProviderParamsSetIpcAllowedUids(nullptr, &uid,
                                                                 1);
    });
    add(k + "set IPC socket directory on NULL", IA, [] {
        return umfLevelZeroMemoryProviderParamsSetIpcSocketDirectory(nullptr,
                                                                     "/tmp");
    });
    // The setters' own checks, on valid parameters.
    auto with_params = [=](const std::string &name, int64_t expected,
                           std::function<int64_t(P)> fn) {
        add(k + name, expected, [=] {
            P p = nullptr;
            if (umfLevelZeroMemoryProviderParamsCreate(&p) !=
                UMF_RESULT_SUCCESS) {
                return int64_t(-1000);
            }
            int64_t r = fn(p);
            umfLevelZeroMemoryProviderParamsDestroy(p);
            return r;
        });
    };
    with_params("NULL context", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetContext(p, nullptr);
    });
    with_params("memory type 99", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetMemoryType(
            p, static_cast<umf_usm_memory_type_t>(99));
    });
    with_params("memory type -1", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetMemoryType(
            p, static_cast<umf_usm_memory_type_t>(-1));
    });
    with_params("resident: NULL array, count 2", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetResidentDevices(p, nullptr,
                                                                  2);
    });
    with_params("resident: a NULL device", IA, [=](P p) {
        ze_device_handle_t devs[2] = {d0, nullptr};
        return umfLevelZeroMemoryProviderParamsSetResidentDevices(p, devs, 2);
    });
    with_params("resident: a device twice", IA, [=](P p) {
        ze_device_handle_t devs[2] = {d0, d0};
        return umfLevelZeroMemoryProviderParamsSetResidentDevices(p, devs, 2);
    });
    with_params("free policy 7", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetFreePolicy(
            p, static_cast<umf_level_zero_memory_provider_free_policy_t>(7));
    });
    with_params("free policy -1", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetFreePolicy(
            p, static_cast<umf_level_zero_memory_provider_free_policy_t>(-1));
    });
    with_params("NULL name", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetName(p, nullptr);
    });
    with_params("IPC fd transfer 4", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetIpcFdTransfer(
            p, static_cast<umf_gpu_ipc_fd_transfer_t>(4));
    });
    with_params("IPC fd transfer -1", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetIpcFdTransfer(
            p, static_cast<umf_gpu_ipc_fd_transfer_t>(-1));
    });
    with_params("IPC allowed uids: NULL array, count 1", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetIpcAllowedUids(p, nullptr, 1);
    });
    with_params("IPC allowed uids: 17 of them", IA, [](P p) {
        uint32_t uids[17] = {};
        return umfLevelZeroMemoryProviderParamsSetIpcAllowedUids(p, uids, 17);
    });
    with_params("IPC socket directory: relative", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetIpcSocketDirectory(p, "tmp");
    });
    with_params("IPC socket directory: 40 bytes", IA, [](P p) {
        return umfLevelZeroMemoryProviderParamsSetIpcSocketDirectory(
            p, ("/" + std::string(39, 'd')).c_str());
    });
    // Providers from inconsistent parameters.
    auto create = [=](P p) -> int64_t {
        umf_memory_provider_handle_t h = nullptr;
        umf_result_t r =
            umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), p, &h);
        umfMemoryProviderDestroy(h);
        return r;
    };
    add(k + "provider from NULL params", IA, [] {
        umf_memory_provider_handle_t h = nullptr;
        return umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), nullptr,
                                       &h);
    });
    with_params("provider without a context", IA, [=](P p) {
        umfLevelZeroMemoryProviderParamsSetDevice(p, d0);
        return create(p);
    });
    with_params("DEVICE provider without a device", IA, [=](P p) {
        umfLevelZeroMemoryProviderParamsSetContext(p, ctx);
        return create(p);
    });
    with_params("SHARED provider without a device", IA, [=](P p) {
        umfLevelZeroMemoryProviderParamsSetContext(p, ctx);
        umfLevelZeroMemoryProviderParamsSetMemoryType(p,
                                                      UMF_MEMORY_TYPE_SHARED);
        return create(p);
    });
    with_params("HOST provider with a device", IA, [=](P p) {
        umfLevelZeroMemoryProviderParamsSetContext(p, ctx);
        umfLevelZeroMemoryProviderParamsSetDevice(p, d0);
        umfLevelZeroMemoryProviderParamsSetMemoryType(p, UMF_MEMORY_TYPE_HOST);
        return create(p);
    });
    with_params("UNKNOWN memory type", IA, [=](P p) {
        umfLevelZeroMemoryProviderParamsSetContext(p, ctx);
        umfLevelZeroMemoryProviderParamsSetDevice(p, d0);
        umfLevelZeroMemoryProviderParamsSetMemoryType(p,
                                                      UMF_MEMORY_TYPE_UNKNOWN);
        return create(p);
    });
    with_params("a name of 300 characters is cut, not refused", OK, [=](P p) {
        std::string name(300, 'n');
        umfLevelZeroMemoryProviderParamsSetContext(p, ctx);
        umfLevelZeroMemoryProviderParamsSetDevice(p, d0);
        umfLevelZeroMemoryProviderParamsSetName(p, name.c_str());
        umf_memory_provider_handle_t h = nullptr;
        int64_t r =
            umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), p, &h);
        if (r == UMF_RESULT_SUCCESS &&
            std::strlen(umfMemoryProviderGetName(h)) >= 300) {
            r = -1;
        }
        umfMemoryProviderDestroy(h);
        return r;
    });

    // Resident devices of a provider.
    umf_memory_provider_handle_t h = f.dev;
    ze_device_handle_t d1 = static_cast<ze_device_handle_t>(f.g->devices[1]);
    const std::string r = "level_zero/resident_change/";
    add(r + "NULL provider", IA, [=] {
        return umfLevelZeroMemoryProviderResidentDeviceChange(nullptr, d1,
                                                              true);
    });
    add(
        r + "NULL device", IA,
        [=] {
            return umfLevelZeroMemoryProviderResidentDeviceChange(h, nullptr,
                                                                  true);
        },
        h);
    add(
        r + "remove a device that is not resident", IA,
        [=] {
            return umfLevelZeroMemoryProviderResidentDeviceChange(h, d1, false);
        },
        h);
    add(
        r + "add a device twice", IA,
        [=] {
            umfLevelZeroMemoryProviderResidentDeviceChange(h, d1, true);
            int64_t ret =
                umfLevelZeroMemoryProviderResidentDeviceChange(h, d1, true);
            umfLevelZeroMemoryProviderResidentDeviceChange(h, d1, false);
            return ret;
        },
        h);
    if (other != nullptr) {
        add(
            r + "a CUDA provider", IA,
            [=] {
                return umfLevelZeroMemoryProviderResidentDeviceChange(
                    other->dev, d1, true);
            },
            other->dev);
    }
}
#endif

#if UMF_TEST_HAVE_CUDA
void add_cuda_param_cases(KindFix &f) {
    using P = umf_cuda_memory_provider_params_handle_t;
    void *ctx = f.g->context;
    const std::string k = "cuda/params/";
    add(k + "create NULL out", IA,
        [] { return umfCUDAMemoryProviderParamsCreate(nullptr); });
    add(k + "destroy NULL", IA,
        [] { return umfCUDAMemoryProviderParamsDestroy(nullptr); });
    add(k + "set context on NULL", IA,
        [=] { return umfCUDAMemoryProviderParamsSetContext(nullptr, ctx); });
    add(k + "set device on NULL", IA,
        [] { return umfCUDAMemoryProviderParamsSetDevice(nullptr, 0); });
    add(k + "set memory type on NULL", IA, [] {
        return umfCUDAMemoryProviderParamsSetMemoryType(nullptr,
                                                        UMF_MEMORY_TYPE_HOST);
    });
    add(k + "set flags on NULL", IA,
        [] { return umfCUDAMemoryProviderParamsSetAllocFlags(nullptr, 0); });
    add(k + "set name on NULL", IA,
        [] { return umfCUDAMemoryProviderParamsSetName(nullptr, "x"); });
    auto with_params = [=](const std::string &name, int64_t expected,
                           std::function<int64_t(P)> fn) {
        add(k + name, expected, [=] {
            P p = nullptr;
            if (umfCUDAMemoryProviderParamsCreate(&p) != UMF_RESULT_SUCCESS) {
                return int64_t(-1000);
            }
            int64_t r = fn(p);
            umfCUDAMemoryProviderParamsDestroy(p);
            return r;
        });
    };
    with_params("NULL context", IA, [](P p) {
        return umfCUDAMemoryProviderParamsSetContext(p, nullptr);
    });
    with_params("device -1", IA, [](P p) {
        return umfCUDAMemoryProviderParamsSetDevice(p, -1);
    });
    with_params("memory type 99", IA, [](P p) {
        return umfCUDAMemoryProviderParamsSetMemoryType(
            p, static_cast<umf_usm_memory_type_t>(99));
    });
    with_params("memory type -1", IA, [](P p) {
        return umfCUDAMemoryProviderParamsSetMemoryType(
            p, static_cast<umf_usm_memory_type_t>(-1));
    });
    with_params("NULL name", IA, [](P p) {
        return umfCUDAMemoryProviderParamsSetName(p, nullptr);
    });
    auto create = [=](P p) -> int64_t {
        umf_memory_provider_handle_t h = nullptr;
        umf_result_t r =
            umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &h);
        umfMemoryProviderDestroy(h);
        return r;
    };
    add(k + "provider from NULL params", IA, [] {
        umf_memory_provider_handle_t h = nullptr;
        return umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), nullptr, &h);
    });
    // No context is current in this thread: the defaults are empty.
    with_params("provider without a context", IA,
                [=](P p) { return create(p); });
    with_params("provider without a device", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        return create(p);
    });
    with_params("device out of range", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, 1000);
        return create(p);
    });
    with_params("device that is not the context's", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, f.g->device_count > 1 ? 1 : 7);
        return create(p);
    });
    with_params("UNKNOWN memory type", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, 0);
        umfCUDAMemoryProviderParamsSetMemoryType(p, UMF_MEMORY_TYPE_UNKNOWN);
        return create(p);
    });
    with_params("DEVICE memory with flags", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, 0);
        umfCUDAMemoryProviderParamsSetAllocFlags(p, 1);
        return create(p);
    });
    with_params("HOST memory with unknown flags", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, 0);
        umfCUDAMemoryProviderParamsSetMemoryType(p, UMF_MEMORY_TYPE_HOST);
        umfCUDAMemoryProviderParamsSetAllocFlags(p, 0x80);
        return create(p);
    });
    with_params("SHARED memory with flags 0", IA, [=](P p) {
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, 0);
        umfCUDAMemoryProviderParamsSetMemoryType(p, UMF_MEMORY_TYPE_SHARED);
        umfCUDAMemoryProviderParamsSetAllocFlags(p, 0);
        return create(p);
    });
    with_params("a name of 300 characters is cut, not refused", OK, [=](P p) {
        std::string name(300, 'n');
        umfCUDAMemoryProviderParamsSetContext(p, ctx);
        umfCUDAMemoryProviderParamsSetDevice(p, 0);
        umfCUDAMemoryProviderParamsSetName(p, name.c_str());
        umf_memory_provider_handle_t h = nullptr;
        int64_t r = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &h);
        if (r == UMF_RESULT_SUCCESS &&
            std::strlen(umfMemoryProviderGetName(h)) >= 300) {
            r = -1;
        }
        umfMemoryProviderDestroy(h);
        return r;
    });
    // IPC of HOST and SHARED memory does not exist in CUDA.
    for (umf_usm_memory_type_t t :
         {UMF_MEMORY_TYPE_HOST, UMF_MEMORY_TYPE_SHARED}) {
        add(std::string("cuda/ipc_get/") +
                (t == UMF_MEMORY_TYPE_HOST ? "HOST" : "SHARED") + " memory",
            NOSUP, [=] {
                umf_memory_provider_handle_t h = gpu_provider_or_null(f.g, t);
                if (h == nullptr) {
                    return int64_t(-1000);
                }
                int64_t r = with_alloc(h, 4 * KiB, [=](char *p) {
                    std::vector<unsigned char> d(ipc_size());
                    return int64_t(
                        umfMemoryProviderGetIPCHandle(h, p, 64, d.data()));
                });
                umfMemoryProviderDestroy(h);
                return r;
            });
    }
}
#endif

// ------------------------------------------------ the control API

void add_mock_cases(const umf_test_gpu_t *g, umf_memory_provider_handle_t h) {
    const std::string k = std::string("mock/") + g->name + "/";
    const bool ze = g->kind == UMF_TEST_GPU_LEVEL_ZERO;
    const std::string entry = ze ? "zeMemFree" : "cuMemFree_v2";
    const std::string foreign = ze ? "cuMemFree_v2" : "zeMemFree";
    add(k + "inject NULL", -1, [=] { return g->mock.inject(nullptr); });
    add(k + "inject empty", 0, [=] { return g->mock.inject(""); });
    add(k + "inject only separators", 0,
        [=] { return g->mock.inject(" ; ;; "); });
    const std::vector<std::string> malformed = {
        entry,
        entry + ":",
        entry + ":1",
        entry + ":1=",
        entry + "=1",
        ":1=1",
        entry + ":0=1",
        entry + ":1=0",
        entry + ":-1=1",
        entry + ":p101=1",
        entry + ":p100.0001=1",
        entry + ":p1.=1",
        entry + ":p=1",
        entry + ":1++=1",
        entry + ":99999999999999999999=1",
        entry + ":1=0x80000000",
        entry + ":1=99999999999",
        entry + ":1=NOT_A_RESULT",
        entry + ":1=1 junk",
        entry + ":1=1;bogus",
        "bogusEntry:1=1",
        (ze ? "zeNoSuchCall:1=1" : "cuNoSuchCall:1=1"),
        foreign + ":1=1",
        entry + ":1=1;" + entry + ":1=0",
        std::string("\x01\x02\x03"),
        entry + ":1=" + (ze ? "ZE_RESULT_SUCCESS" : "CUDA_SUCCESS"),
    };
    for (const std::string &rule : malformed) {
        add(k + "inject malformed \"" + rule + "\"", -1,
            [=] { return g->mock.inject(rule.c_str()); });
    }
    // All or none: nothing of a malformed list stays in force.
    add(k + "malformed list adds nothing", OK, [=] {
        std::string rules = entry + ":1+=1;" + entry + ":oops";
        if (g->mock.inject(rules.c_str()) != -1) {
            return int64_t(-1);
        }
        return with_alloc(h, 4 * KiB, [](char *) { return OK; });
    });
    add(k + "call count NULL", -1, [=] { return g->mock.calls(nullptr); });
    add(k + "call count unknown name", -1,
        [=] { return g->mock.calls("noSuchEntry"); });
    add(k + "call count of the other driver's entry", -1,
        [=] { return g->mock.calls(foreign.c_str()); });
    add(k + "live count 99", -1,
        [=] { return g->mock.live(static_cast<umf_gpu_mock_live_t>(99)); });
    add(k + "live count -1", -1,
        [=] { return g->mock.live(static_cast<umf_gpu_mock_live_t>(-1)); });
    add(k + "object count NULL", -1,
        [=] { return g->mock.object_count(nullptr); });
    add(k + "object count unknown kind", -1,
        [=] { return g->mock.object_count("no such kind"); });
    add(k + "leak report to fd -1 (something to report)", -1,
        [=] { return g->mock.leak_report(-1); });
    add(k + "leak report to a closed fd", -1, [=] {
        int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        close(fd);
        return g->mock.leak_report(fd);
    });
    add(k + "leak report to a read-only fd", -1, [=] {
        int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        int64_t r = g->mock.leak_report(fd);
        close(fd);
        return r;
    });
    add(k + "clear and reset, twice", OK, [=] {
        g->mock.clear();
        g->mock.clear();
        g->mock.reset_calls();
        g->mock.reset_calls();
        return OK;
    });
}

// ------------------------------------------------ health after each case

struct Health {
    std::vector<KindFix *> fixes;
    std::map<const umf_test_gpu_t *, std::pair<int64_t, int64_t>>
        base; // allocs, imports
};

// Empty when the providers are fine, else what is wrong.
std::string check_health(Health &hl) {
    std::string bad;
    for (KindFix *f : hl.fixes) {
        const umf_test_gpu_t *g = f->g;
        g->mock.clear(); // a case must not leave rules behind; checked below
        umf_gpu_provider_stats_t s;
        if (umfGpuMemoryProviderGetStats(f->dev, &s) != UMF_RESULT_SUCCESS) {
            bad += std::string(g->name) + ": stats failed; ";
        } else if (s.allocated_bytes > (uint64_t(1) << 48) ||
                   s.ipc_handles_exported > (uint64_t(1) << 32) ||
                   s.ipc_handles_open > (uint64_t(1) << 32)) {
            bad += std::string(g->name) + ": a counter wrapped below 0 (" +
                   std::to_string(s.allocated_bytes) + " bytes, " +
                   std::to_string(s.ipc_handles_exported) + " exported, " +
                   std::to_string(s.ipc_handles_open) + " open); ";
        }
        for (umf_memory_provider_handle_t h : {f->dev, f->dev2}) {
            void *p = nullptr;
            if (umfMemoryProviderAlloc(h, 8 * KiB, 0, &p) !=
                UMF_RESULT_SUCCESS) {
                bad += std::string(g->name) + ": alloc failed; ";
                continue;
            }
            if (!umf_test_gpu_fill(g, nullptr, p, 8 * KiB, 5) ||
                !umf_test_gpu_check(g, nullptr, p, 8 * KiB, 5)) {
                bad += std::string(g->name) + ": data not kept; ";
            }
            if (umfMemoryProviderFree(h, p, 8 * KiB) != UMF_RESULT_SUCCESS) {
                bad += std::string(g->name) + ": free failed; ";
            }
        }
        if (!umf_test_gpu_check(g, nullptr, f->live, f->live_size, 11)) {
            bad += std::string(g->name) + ": the held allocation changed; ";
        }
        auto want = hl.base[g];
        int64_t allocs = g->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS);
        int64_t imports = g->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS);
        if (allocs != want.first || imports != want.second) {
            bad += std::string(g->name) + ": driver allocations " +
                   std::to_string(allocs) + " (were " +
                   std::to_string(want.first) + "), imports " +
                   std::to_string(imports) + " (were " +
                   std::to_string(want.second) + "); ";
            hl.base[g] = {allocs, imports}; // report each change once
        }
    }
    return bad;
}

std::string describe(int64_t v) {
    switch (v) {
    case UMF_RESULT_SUCCESS:
        return "SUCCESS";
    case UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY:
        return "ERROR_OUT_OF_HOST_MEMORY";
    case UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC:
        return "ERROR_MEMORY_PROVIDER_SPECIFIC";
    case UMF_RESULT_ERROR_INVALID_ARGUMENT:
        return "ERROR_INVALID_ARGUMENT";
    case UMF_RESULT_ERROR_INVALID_ALIGNMENT:
        return "ERROR_INVALID_ALIGNMENT";
    case UMF_RESULT_ERROR_NOT_SUPPORTED:
        return "ERROR_NOT_SUPPORTED";
    case UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE:
        return "ERROR_DEPENDENCY_UNAVAILABLE";
    case UMF_RESULT_ERROR_OUT_OF_RESOURCES:
        return "ERROR_OUT_OF_RESOURCES";
    default:
        return std::to_string(v);
    }
}

// ------------------------------------------------ one test per case

// What every case of the process works with: both kinds' fixtures, the
// health base, the cases. Made once, before GoogleTest runs (the cases are
// registered from it), released after the last test.
struct Inventory {
    std::vector<KindFix> fixes = std::vector<KindFix>(2);
    Health health;
    std::string why;   // why the fixtures could not be made; "" when fine
    bool skip = false; // a real driver: the inventory needs the emulated one
    int ran = 0;
};

Inventory *g_inv = nullptr;

// Makes the fixtures of every kind of the build; false (and g_inv->why) when
// a kind is unusable.
bool make_fixtures(Inventory &inv) {
    for (umf_test_gpu_kind_t kind : gpu_kinds()) {
        KindFix &f = inv.fixes[static_cast<size_t>(kind)];
        f.g = umf_test_gpu(kind);
        if (f.g->why != nullptr) {
            inv.why = std::string(f.g->title) + ": " + f.g->why;
            return false;
        }
        if (!f.g->emulated) {
            inv.why = std::string(f.g->title) +
                      ": the driver is not the emulated one (no control API)";
            inv.skip = true;
            return false;
        }
        f.dev = gpu_provider_or_null(f.g);
        f.dev2 = gpu_provider_or_null(f.g);
        f.live = f.dev != nullptr ? fresh(f.dev, f.live_size) : nullptr;
        if (f.live == nullptr || f.dev2 == nullptr ||
            !umf_test_gpu_fill(f.g, nullptr, f.live, f.live_size, 11)) {
            inv.why = std::string(f.g->title) +
                      ": the inventory's providers or allocation failed";
            return false;
        }
        f.live_data = ipc_get(f.dev, f.live, f.live_size);
        if (f.live_data.empty()) {
            inv.why = std::string(f.g->title) + ": get_ipc_handle failed";
            return false;
        }
        inv.health.fixes.push_back(&f);
    }
    return true;
}

void add_all_cases(Inventory &inv) {
    g_cases.clear();
    add_core_cases();
    for (KindFix *f : inv.health.fixes) {
        KindFix *other = nullptr;
        for (KindFix *o : inv.health.fixes) {
            other = o != f ? o : other;
        }
        add_provider_cases(*f, other);
#if UMF_TEST_HAVE_LEVEL_ZERO
        if (f->g->kind == UMF_TEST_GPU_LEVEL_ZERO) {
            add_ze_param_cases(*f, other);
        }
#endif
#if UMF_TEST_HAVE_CUDA
        if (f->g->kind == UMF_TEST_GPU_CUDA) {
            add_cuda_param_cases(*f);
        }
#endif
        add_mock_cases(f->g, f->dev);
    }
    for (KindFix *f : inv.health.fixes) {
        inv.health.base[f->g] = {
            f->g->mock.live(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
            f->g->mock.live(UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS)};
    }
}

// A case's name as a test name: what GoogleTest filters and ctest names
// take apart (':', '*', '?', '-', '.', spaces, quotes) become '_', runs of
// them one; the '/' of the groups stays. Two cases that differ only there
// get "__2", "__3" (see umf_test_register_tests). The case's own words are
// the test's parameter text (--gtest_list_tests shows them).
std::string test_name(const std::string &name) {
    std::string out;
    for (char ch : name) {
        bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '/';
        char c = keep ? ch : '_';
        if (c == '_' &&
            (out.empty() || out.back() == '_' || out.back() == '/')) {
            continue;
        }
        if (c == '/' && !out.empty() && out.back() == '_') {
            out.back() = '/';
            continue;
        }
        out += c;
    }
    while (!out.empty() && out.back() == '_') {
        out.pop_back();
    }
    return out;
}

class BadInputCase : public ::testing::Test {
  public:
    explicit BadInputCase(const BadCase *c) : c_(c) {}

    void TestBody() override {
        int64_t got = c_->run();
        g_inv->ran++;
        EXPECT_EQ(describe(got), describe(c_->expected)) << c_->name;
        if (got == c_->expected && c_->failed != nullptr &&
            c_->expected != OK) {
            EXPECT_EQ(umfGetLastFailedMemoryProvider(), c_->failed)
                << c_->name << ": the last failed provider";
        }
        EXPECT_EQ(check_health(g_inv->health), "") << "after " << c_->name;
    }

  private:
    const BadCase *c_;
};

// Stands for the inventory when its fixtures could not be made.
class BadInputUnavailable : public ::testing::Test {
  public:
    void TestBody() override {
        if (g_inv->skip) {
            GTEST_SKIP() << g_inv->why;
        }
        FAIL() << g_inv->why;
    }
};

// The inventory as a whole: every group has its cases.
class BadInputInventory : public ::testing::Test {
  public:
    void TestBody() override {
        std::map<std::string, int> per_group;
        for (const BadCase &c : g_cases) {
            per_group[c.name.substr(0, c.name.find('/'))]++;
        }
        std::printf("bad-input inventory: %zu cases (", g_cases.size());
        const char *sep = "";
        for (auto &kv : per_group) {
            std::printf("%s%s %d", sep, kv.first.c_str(), kv.second);
            sep = ", ";
        }
        std::printf(")\n");
        // Floors well below today's counts (core 39, gpu 4, mock 41 and
        // about 170 per kind), so that a table that lost its cases shows.
        EXPECT_GE(per_group["core"], 30);
        EXPECT_GE(per_group["gpu"], 4);
        for (umf_test_gpu_kind_t kind : gpu_kinds()) {
            EXPECT_GE(per_group[umf_test_gpu_kind_name(kind)], 150)
                << umf_test_gpu_kind_name(kind);
        }
        EXPECT_GE(per_group["mock"], 30 * static_cast<int>(gpu_kinds().size()));
    }
};

// Releases the fixtures after the last test.
class InventoryRelease : public ::testing::Environment {
  public:
    void TearDown() override {
        for (KindFix *f : g_inv->health.fixes) {
            umfMemoryProviderPutIPCHandle(f->dev, f->live_data.data());
            EXPECT_EQ(umfMemoryProviderFree(f->dev, f->live, f->live_size),
                      UMF_RESULT_SUCCESS);
            umfMemoryProviderDestroy(f->dev);
            umfMemoryProviderDestroy(f->dev2);
        }
        umf_test_gpu_release_all();
    }
};

} // namespace

// Called by test_main.cpp before GoogleTest runs: one test per case,
// BadInput.<group>/<call>/<what>, so that each can be listed and filtered
// (ctest registers each as its own test, see CMakeLists.txt). The
// fixtures are made first, in every process: a run of one case is the
// same case as in a run of all.
extern "C" void umf_test_register_tests(void) {
    g_inv = new Inventory();
    if (!make_fixtures(*g_inv)) {
        ::testing::RegisterTest(
            "BadInput", "Unavailable", nullptr, nullptr, __FILE__, __LINE__,
            []() -> ::testing::Test * { return new BadInputUnavailable(); });
        return;
    }
    add_all_cases(*g_inv);
    ::testing::AddGlobalTestEnvironment(new InventoryRelease());
    ::testing::RegisterTest(
        "BadInput", "Inventory", nullptr, nullptr, __FILE__, __LINE__,
        []() -> ::testing::Test * { return new BadInputInventory(); });
    std::map<std::string, int> seen;
    for (const BadCase &c : g_cases) {
        std::string name = test_name(c.name);
        int n = ++seen[name];
        if (n > 1) { // two cases that differ only in what became '_'
            name += "__" + std::to_string(n);
        }
        const BadCase *cp = &c;
        ::testing::RegisterTest(
            "BadInput", name.c_str(), nullptr, c.name.c_str(), __FILE__,
            __LINE__,
            [cp]() -> ::testing::Test * { return new BadInputCase(cp); });
    }
}
