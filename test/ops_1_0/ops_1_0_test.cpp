// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Both providers' UMF 1.0-layout tables (umf*MemoryProviderOps_1_0) driven
// by the stand-in 1.x consumer (core_1_0.c): every op, as a UMF 1.x core
// calls it, with the data moved by the drivers' copies: name and page
// sizes, alloc and free, split and merge, native errors, control queries,
// purge, IPC across processes, and the consumer's refusal of the 0.9 table
// that made the 1.0 one necessary.

#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#if UMF_TEST_HAVE_CUDA
#include <cuda.h>
#endif

#include <umf/memory_provider.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>
#include <umf/providers/provider_ops_1_0.h>

#include "core_1_0.h"
#include "gpu_test.h"
#include "test_child.h"

namespace {

const umf_gpu_memory_provider_ops_1_0_t *table_of(umf_test_gpu_kind_t kind) {
    return kind == UMF_TEST_GPU_LEVEL_ZERO ? umfLevelZeroMemoryProviderOps_1_0()
                                           : umfCUDAMemoryProviderOps_1_0();
}

const umf_memory_provider_ops_t *table_0_9_of(umf_test_gpu_kind_t kind) {
    return kind == UMF_TEST_GPU_LEVEL_ZERO ? umfLevelZeroMemoryProviderOps()
                                           : umfCUDAMemoryProviderOps();
}

const char *default_name(umf_test_gpu_kind_t kind) {
    return kind == UMF_TEST_GPU_LEVEL_ZERO ? "LEVEL_ZERO" : "CUDA";
}

// A DEVICE provider of g's kind made by the stand-in 1.x consumer from the
// 1.0 table, with the provider's own params (kept only for the create);
// CUDA in the allocation mode `cuda_mode`.
umf_result_t make_1_0(const umf_test_gpu_t *g, c10_provider_t **out,
                      int cuda_mode = 0) {
    umf_result_t res = UMF_RESULT_ERROR_NOT_SUPPORTED;
#if UMF_TEST_HAVE_LEVEL_ZERO
    if (g->kind == UMF_TEST_GPU_LEVEL_ZERO) {
        umf_level_zero_memory_provider_params_handle_t p = nullptr;
        res = umfLevelZeroMemoryProviderParamsCreate(&p);
        if (res == UMF_RESULT_SUCCESS) {
            (void)umfLevelZeroMemoryProviderParamsSetContext(
                p, static_cast<ze_context_handle_t>(g->context));
            (void)umfLevelZeroMemoryProviderParamsSetDevice(
                p, static_cast<ze_device_handle_t>(g->devices[0]));
            res = c10_create(table_of(g->kind), p, out);
            umfLevelZeroMemoryProviderParamsDestroy(p);
        }
    }
#endif
#if UMF_TEST_HAVE_CUDA
    if (g->kind == UMF_TEST_GPU_CUDA) {
        umf_cuda_memory_provider_params_handle_t p = nullptr;
        res = umfCUDAMemoryProviderParamsCreate(&p);
        if (res == UMF_RESULT_SUCCESS) {
            (void)umfCUDAMemoryProviderParamsSetContext(
                p, static_cast<CUcontext>(g->context));
            (void)umfCUDAMemoryProviderParamsSetDevice(p, 0);
            (void)umfCUDAMemoryProviderParamsSetAllocationMode(
                p, static_cast<umf_cuda_allocation_mode_t>(cuda_mode));
            res = c10_create(table_of(g->kind), p, out);
            umfCUDAMemoryProviderParamsDestroy(p);
        }
    }
#endif
    return res;
}

size_t ctl_size(c10_provider_t *p, const char *stat) {
    size_t v = SIZE_MAX;
    std::string path = std::string("umf.provider.by_handle.{}.") + stat;
    EXPECT_EQ(c10_ctl(path.c_str(), &v, sizeof(v), 0, p), UMF_RESULT_SUCCESS)
        << stat;
    return v;
}

class Ops10 : public ::testing::TestWithParam<umf_test_gpu_kind_t> {
  protected:
    void SetUp() override {
        g_ = umf_test_gpu(GetParam());
        GPU_REQUIRE_EMULATED(g_);
        ASSERT_EQ(make_1_0(g_, &p_), UMF_RESULT_SUCCESS);
    }
    void TearDown() override {
        if (g_ != nullptr && g_->emulated) {
            g_->mock.clear(); // a failed check may have left a fault rule
        }
        if (p_ != nullptr) {
            EXPECT_EQ(c10_destroy(p_), UMF_RESULT_SUCCESS)
                << "finalize returns umf_result_t";
        }
    }
    const umf_test_gpu_t *g_ = nullptr;
    c10_provider_t *p_ = nullptr;
};

TEST(Ops10Tables, VersionOneZeroAndEveryOpSet) {
    for (umf_test_gpu_kind_t kind : gpu_kinds()) {
        const umf_gpu_memory_provider_ops_1_0_t *t = table_of(kind);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->version, UMF_GPU_OPS_VERSION_1_0);
        const void *const ops[] = {
            (const void *)t->initialize,
            (const void *)t->finalize,
            (const void *)t->alloc,
            (const void *)t->free,
            (const void *)t->get_last_native_error,
            (const void *)t->get_recommended_page_size,
            (const void *)t->get_min_page_size,
            (const void *)t->get_name,
            (const void *)t->ext_purge_lazy,
            (const void *)t->ext_purge_force,
            (const void *)t->ext_allocation_merge,
            (const void *)t->ext_allocation_split,
            (const void *)t->ext_get_ipc_handle_size,
            (const void *)t->ext_get_ipc_handle,
            (const void *)t->ext_put_ipc_handle,
            (const void *)t->ext_open_ipc_handle,
            (const void *)t->ext_close_ipc_handle,
            (const void *)t->ext_ctl,
        };
        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
            EXPECT_NE(ops[i], nullptr) << "op " << i;
        }
        EXPECT_EQ(table_of(kind), t) << "one table, always the same";
    }
    EXPECT_NE(umfLevelZeroMemoryProviderOps_1_0(),
              umfCUDAMemoryProviderOps_1_0());
}

// What issue 19 found: a 1.x core refuses the 0.9 table.
TEST_P(Ops10, TheConsumerRefusesTheZeroNineTable) {
    c10_provider_t *p = nullptr;
    EXPECT_EQ(c10_create(table_0_9_of(GetParam()), nullptr, &p),
              UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(p, nullptr);
    // And the 1.0 table's initialize refuses missing params as the 0.9 one.
    EXPECT_EQ(c10_create(table_of(GetParam()), nullptr, &p),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_P(Ops10, NameAndPageSizesAreTheProvidersOwn) {
    const char *name = nullptr;
    ASSERT_EQ(c10_name(p_, &name), UMF_RESULT_SUCCESS);
    EXPECT_STREQ(name, default_name(GetParam()));
    name = nullptr;
    ASSERT_EQ(c10_default_name(table_of(GetParam()), &name),
              UMF_RESULT_SUCCESS);
    EXPECT_STREQ(name, default_name(GetParam())) << "get_name(NULL, ...)";

    umf_memory_provider_handle_t h = gpu_provider_or_null(g_);
    ASSERT_NE(h, nullptr);
    size_t page = 0, min = 0, page09 = 0, min09 = 0;
    EXPECT_EQ(c10_recommended_page_size(p_, 1 << 20, &page),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_min_page_size(p_, nullptr, &min), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderGetRecommendedPageSize(h, 1 << 20, &page09),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderGetMinPageSize(h, nullptr, &min09),
              UMF_RESULT_SUCCESS);
    umfMemoryProviderDestroy(h);
    EXPECT_GT(min, 0u);
    EXPECT_EQ(page, page09);
    EXPECT_EQ(min, min09);
}

TEST_P(Ops10, AllocAndFreeKeepDataAndStats) {
    const size_t size = 64 * 1024;
    void *ptr = nullptr;
    ASSERT_EQ(c10_alloc(p_, size, 0, &ptr), UMF_RESULT_SUCCESS);
    ASSERT_NE(ptr, nullptr);
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, ptr, size, 7));
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, ptr, size, 7));
    size_t min = 0;
    EXPECT_EQ(c10_min_page_size(p_, ptr, &min), UMF_RESULT_SUCCESS);
    EXPECT_GT(min, 0u);
    EXPECT_EQ(ctl_size(p_, "stats.allocated_memory"), size);
    EXPECT_EQ(ctl_size(p_, "stats.peak_memory"), size);
    EXPECT_EQ(c10_free(p_, ptr, size), UMF_RESULT_SUCCESS);
    EXPECT_EQ(ctl_size(p_, "stats.allocated_memory"), 0u);
    EXPECT_EQ(ctl_size(p_, "stats.peak_memory"), size);
    // umfCtlExec: a runnable query, no argument.
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.peak_memory.reset",
                      nullptr, 0, UMF_GPU_CTL_QUERY_RUNNABLE, p_),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(ctl_size(p_, "stats.peak_memory"), 0u) << "reset to 0 allocated";
    // Bad input reaches the provider unchecked by this core: its own answer.
    EXPECT_EQ(c10_free(p_, nullptr, size), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(c10_alloc(p_, size, 3, &ptr), UMF_RESULT_ERROR_INVALID_ALIGNMENT);
}

TEST_P(Ops10, SplitAndMerge) {
    size_t page = 0;
    ASSERT_EQ(c10_min_page_size(p_, nullptr, &page), UMF_RESULT_SUCCESS);
    const size_t total = 4 * page;
    void *ptr = nullptr;
    ASSERT_EQ(c10_alloc(p_, total, 0, &ptr), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, ptr, total, 3));
    char *high = static_cast<char *>(ptr) + page;
    ASSERT_EQ(c10_split(p_, ptr, total, page), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_merge(p_, ptr, high, total), UMF_RESULT_SUCCESS);
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, ptr, total, 3))
        << "data survives split and merge";
    // Split again and free the pieces one by one.
    ASSERT_EQ(c10_split(p_, ptr, total, page), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_split(p_, ptr, page, page), UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "first size must be below the total";
    EXPECT_EQ(c10_free(p_, high, total - page), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_free(p_, ptr, page), UMF_RESULT_SUCCESS);
    EXPECT_EQ(ctl_size(p_, "stats.allocated_memory"), 0u);
}

TEST_P(Ops10, NativeErrorAfterADriverFailure) {
    const char *entry = g_->kind == UMF_TEST_GPU_LEVEL_ZERO ? "zeMemAllocDevice"
                                                            : "cuMemAlloc_v2";
    std::string rule = std::string(entry) + ":p100=" + g_->fault_name;
    ASSERT_EQ(g_->mock.inject(rule.c_str()), 0) << rule;
    void *ptr = nullptr;
    umf_result_t res = c10_alloc(p_, 4096, 0, &ptr);
    g_->mock.clear();
    ASSERT_EQ(res, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    const char *message = nullptr;
    int32_t code = 0;
    ASSERT_EQ(c10_last_native_error(p_, &message, &code), UMF_RESULT_SUCCESS);
    EXPECT_EQ(code, g_->fault_code);
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find(entry), std::string::npos) << message;
    EXPECT_NE(std::string(message).find(g_->fault_name), std::string::npos)
        << message;
    EXPECT_EQ(gpu_native_code(g_), code) << "the same store as the 0.9 table";
}

// params.allocation_mode: the CUDA provider's mode, an int; Level Zero has
// no modes.
TEST_P(Ops10, TheAllocationModeIsReadable) {
    int mode = -1;
    umf_result_t res =
        c10_ctl("umf.provider.by_handle.{}.params.allocation_mode", &mode,
                sizeof(mode), 0, p_);
    if (GetParam() == UMF_TEST_GPU_LEVEL_ZERO) {
        EXPECT_EQ(res, UMF_RESULT_ERROR_NOT_SUPPORTED);
        return;
    }
    ASSERT_EQ(res, UMF_RESULT_SUCCESS);
    EXPECT_EQ(mode, 0) << "UMF_CUDA_ALLOCATION_MODE_DEFAULT";
    c10_provider_t *vmm = nullptr;
    ASSERT_EQ(make_1_0(g_, &vmm, 1), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.params.allocation_mode", &mode,
                      sizeof(mode), 0, vmm),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(mode, 1) << "UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD";
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.params.allocation_mode",
                      nullptr, sizeof(mode), 0, vmm),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    void *ptr = nullptr;
    ASSERT_EQ(c10_alloc(vmm, 4096, 0, &ptr), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, ptr, 4096, 5));
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, ptr, 4096, 5));
    EXPECT_EQ(c10_free(vmm, ptr, 4096), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_destroy(vmm), UMF_RESULT_SUCCESS);
}

TEST_P(Ops10, ControlQueriesAnswerNameStatsAndThePeaksResetOnly) {
    char name[64];
    std::memset(name, 'x', sizeof(name));
    EXPECT_EQ(
        c10_ctl("umf.provider.by_handle.{}.name", name, sizeof(name), 0, p_),
        UMF_RESULT_SUCCESS);
    EXPECT_STREQ(name, default_name(GetParam()));
    size_t exact = std::strlen(default_name(GetParam()));
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.name", name, exact, 0, p_),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "no room for the NUL";
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.name", nullptr, 64, 0, p_),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);

    size_t v = 0;
    uint32_t small = 0;
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.allocated_memory",
                      &small, sizeof(small), 0, p_),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.peak_memory", nullptr,
                      sizeof(size_t), 0, p_),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        c10_ctl("umf.provider.by_handle.{}.stats.peak_memory", &v, 0, 0, p_),
        UMF_RESULT_SUCCESS)
        << "size 0: a size_t, as UMF's own providers take it";
    // The reset is a run, with or without an argument (ignored).
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.peak_memory.reset",
                      nullptr, 0, UMF_GPU_CTL_QUERY_RUNNABLE, p_),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.peak_memory.reset", &v,
                      sizeof(v), UMF_GPU_CTL_QUERY_RUNNABLE, p_),
              UMF_RESULT_SUCCESS);
    // Writes, runs and other names are not served.
    for (int type : {1, 2, 3}) {
        EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.peak_memory", &v,
                          sizeof(v), type, p_),
                  UMF_RESULT_ERROR_NOT_SUPPORTED)
            << type;
    }
    for (int type : {0, 1, 3}) {
        EXPECT_EQ(c10_ctl("umf.provider.by_handle.{}.stats.peak_memory.reset",
                          &v, sizeof(v), type, p_),
                  UMF_RESULT_ERROR_NOT_SUPPORTED)
            << "the reset only runs: " << type;
    }
    for (const char *other :
         {"stats", "params.name", "name2", "", "stats.allocated_memory.x",
          "stats.peak_memory.reset.x"}) {
        std::string path = std::string("umf.provider.by_handle.{}.") + other;
        EXPECT_EQ(c10_ctl(path.c_str(), &v, sizeof(v), 0, p_),
                  UMF_RESULT_ERROR_NOT_SUPPORTED)
            << other;
    }
}

TEST_P(Ops10, PurgeIsNotSupported) {
    void *ptr = nullptr;
    ASSERT_EQ(c10_alloc(p_, 4096, 0, &ptr), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_purge_lazy(p_, ptr, 4096), UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(c10_purge_force(p_, ptr, 4096), UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(c10_free(p_, ptr, 4096), UMF_RESULT_SUCCESS);
}

// ext_ctl called directly (a read), with an empty va_list.
umf_result_t ctl_direct(const umf_gpu_memory_provider_ops_1_0_t *t,
                        void *provider, const char *name, void *arg,
                        size_t size, ...) {
    va_list args;
    va_start(args, size);
    umf_result_t r = t->ext_ctl(provider, UMF_GPU_CTL_QUERY_PROGRAMMATIC, name,
                                arg, size, UMF_GPU_CTL_QUERY_READ, args);
    va_end(args);
    return r;
}

// What a consumer that checks less than UMF's core may pass: every op of the
// table, called directly, refuses NULL providers and NULL or bad pointers
// with a result, never a crash.
TEST_P(Ops10, BadInputToEveryOpIsRefused) {
    const umf_gpu_memory_provider_ops_1_0_t *t = table_of(GetParam());
    const umf_result_t inval = UMF_RESULT_ERROR_INVALID_ARGUMENT;
    void *ptr = nullptr;
    size_t size = 0;
    const char *msg = nullptr;
    int32_t code = 0;
    unsigned char data[4096] = {};
    // No provider.
    EXPECT_EQ(t->initialize(nullptr, nullptr), inval);
    EXPECT_EQ(t->finalize(nullptr), inval);
    EXPECT_EQ(t->alloc(nullptr, 64, 0, &ptr), inval);
    EXPECT_EQ(t->free(nullptr, data, 64), inval);
    EXPECT_EQ(t->get_last_native_error(nullptr, &msg, &code), inval);
    EXPECT_EQ(t->get_recommended_page_size(nullptr, 64, &size), inval);
    EXPECT_EQ(t->get_min_page_size(nullptr, nullptr, &size), inval);
    EXPECT_EQ(t->ext_purge_lazy(nullptr, data, 64), inval);
    EXPECT_EQ(t->ext_purge_force(nullptr, data, 64), inval);
    EXPECT_EQ(t->ext_allocation_merge(nullptr, data, data + 64, 128), inval);
    EXPECT_EQ(t->ext_allocation_split(nullptr, data, 128, 64), inval);
    EXPECT_EQ(t->ext_get_ipc_handle_size(nullptr, &size), inval);
    EXPECT_EQ(t->ext_get_ipc_handle(nullptr, data, 64, data), inval);
    EXPECT_EQ(t->ext_put_ipc_handle(nullptr, data), inval);
    EXPECT_EQ(t->ext_open_ipc_handle(nullptr, data, &ptr), inval);
    EXPECT_EQ(t->ext_close_ipc_handle(nullptr, data, 64), inval);
    EXPECT_EQ(ctl_direct(t, nullptr, "name", data, sizeof(data)), inval);
    EXPECT_EQ(t->get_name(nullptr, nullptr), inval);

    // A provider, NULL out-pointers and memory it never handed out.
    ASSERT_EQ(c10_alloc(p_, 4096, 0, &ptr), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_alloc(p_, 64, 0, nullptr), inval);
    EXPECT_EQ(c10_recommended_page_size(p_, 64, nullptr), inval);
    EXPECT_EQ(c10_min_page_size(p_, nullptr, nullptr), inval);
    EXPECT_EQ(c10_last_native_error(p_, nullptr, &code), inval);
    EXPECT_EQ(c10_last_native_error(p_, &msg, nullptr), inval);
    EXPECT_EQ(c10_name(p_, nullptr), inval);
    EXPECT_EQ(c10_ipc_handle_size(p_, nullptr), inval);
    EXPECT_EQ(c10_ipc_get(p_, nullptr, 64, data), inval);
    EXPECT_EQ(c10_ipc_get(p_, ptr, 4096, nullptr), inval);
    EXPECT_EQ(c10_ipc_put(p_, nullptr), inval);
    EXPECT_EQ(c10_ipc_open(p_, nullptr, &ptr), inval);
    EXPECT_EQ(c10_ipc_open(p_, data, nullptr), inval);
    EXPECT_EQ(c10_ipc_close(p_, nullptr, 64), inval);
    EXPECT_EQ(c10_split(p_, nullptr, 128, 64), inval);
    EXPECT_EQ(c10_merge(p_, nullptr, nullptr, 128), inval);
    EXPECT_EQ(c10_free(p_, data, sizeof(data)), inval) << "not its memory";
    EXPECT_EQ(c10_free(p_, ptr, 4096), UMF_RESULT_SUCCESS);
}

constexpr size_t kIpcSize = 256 * 1024;

// argv[0]: "level_zero" or "cuda". Receives IPC data (its size, then its
// bytes), opens it through a provider that the stand-in consumer made from
// the 1.0 table, checks pattern 11, writes pattern 12, closes. Exit status
// 0, or the step that failed.
UMF_TEST_CHILD(ops_1_0_consumer) {
    if (argc < 1) {
        return 100;
    }
    umf_test_gpu_kind_t kind = std::string(argv[0]) == "cuda"
                                   ? UMF_TEST_GPU_CUDA
                                   : UMF_TEST_GPU_LEVEL_ZERO;
    const umf_test_gpu_t *g = umf_test_gpu(kind);
    c10_provider_t *p = nullptr;
    if (g->why != nullptr || make_1_0(g, &p) != UMF_RESULT_SUCCESS) {
        return 101;
    }
    size_t size = 0;
    std::vector<unsigned char> data;
    if (umf_test_recv(sock, &size, sizeof(size)) != 0 || size > 4096) {
        return 102;
    }
    data.resize(size);
    if (umf_test_recv(sock, data.data(), size) != 0) {
        return 103;
    }
    int rc = 0;
    void *ptr = nullptr;
    if (c10_ipc_open(p, data.data(), &ptr) != UMF_RESULT_SUCCESS) {
        rc = 104;
    } else {
        if (!umf_test_gpu_check(g, nullptr, ptr, kIpcSize, 11)) {
            rc = 105;
        } else if (!umf_test_gpu_fill(g, nullptr, ptr, kIpcSize, 12)) {
            rc = 106;
        }
        if (c10_ipc_close(p, ptr, kIpcSize) != UMF_RESULT_SUCCESS) {
            rc = rc != 0 ? rc : 107;
        }
    }
    if (c10_destroy(p) != UMF_RESULT_SUCCESS) {
        rc = rc != 0 ? rc : 108;
    }
    umf_test_gpu_release_all();
    char done = 'd';
    (void)umf_test_send(sock, &done, 1);
    return rc;
}

TEST_P(Ops10, IpcAcrossProcesses) {
    void *ptr = nullptr;
    ASSERT_EQ(c10_alloc(p_, kIpcSize, 0, &ptr), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(umf_test_gpu_fill(g_, nullptr, ptr, kIpcSize, 11));
    size_t size = 0;
    ASSERT_EQ(c10_ipc_handle_size(p_, &size), UMF_RESULT_SUCCESS);
    ASSERT_GT(size, 0u);
    ASSERT_LE(size, 4096u);
    std::vector<unsigned char> data(size);
    ASSERT_EQ(c10_ipc_get(p_, ptr, kIpcSize, data.data()), UMF_RESULT_SUCCESS);

    umf_test_child_t child;
    const char *args[] = {g_->name, nullptr};
    ASSERT_EQ(umf_test_child_start(&child, "ops_1_0_consumer", args), 0);
    EXPECT_EQ(umf_test_send(child.sock, &size, sizeof(size)), 0);
    EXPECT_EQ(umf_test_send(child.sock, data.data(), size), 0);
    char done = 0;
    EXPECT_EQ(umf_test_recv(child.sock, &done, 1), 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, ptr, kIpcSize, 12))
        << "the consumer's write";

    // Opening in the producer itself gives the memory back.
    void *same = nullptr;
    EXPECT_EQ(c10_ipc_open(p_, data.data(), &same), UMF_RESULT_SUCCESS);
    if (same != nullptr) {
        EXPECT_TRUE(umf_test_gpu_check(g_, nullptr, same, kIpcSize, 12));
        EXPECT_EQ(c10_ipc_close(p_, same, kIpcSize), UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(c10_ipc_put(p_, data.data()), UMF_RESULT_SUCCESS);
    EXPECT_EQ(c10_free(p_, ptr, kIpcSize), UMF_RESULT_SUCCESS);
    // Garbage is refused.
    std::vector<unsigned char> junk(size, 0x5a);
    void *bad = nullptr;
    EXPECT_EQ(c10_ipc_open(p_, junk.data(), &bad),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// The contexts go before the emulated drivers' strict leak check at exit.
class ReleaseContexts : public ::testing::Environment {
    void TearDown() override {
        umf_test_gpu_release_all();
    }
};
::testing::Environment *const release_contexts =
    ::testing::AddGlobalTestEnvironment(new ReleaseContexts);

INSTANTIATE_TEST_SUITE_P(
    BothProviders, Ops10, ::testing::ValuesIn(gpu_kinds()),
    [](const ::testing::TestParamInfo<umf_test_gpu_kind_t> &info) {
        return std::string(umf_test_gpu(info.param)->name);
    });

} // namespace
