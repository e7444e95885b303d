// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA provider through the public API: parameters, initialize rules,
// memory types, alignments, page sizes, out of memory, native errors,
// context restore, several contexts, split/merge, stats and properties, and
// a driver that is missing or incomplete. Runs on the emulated libcuda.so.1
// and, unchanged, on a real driver (UMF_GPU_CUDA_LIB).

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gpu_test_cuda.h"
#include "test_child.h"

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

using CudaAlloc = CudaProviderTest;
using CudaContext = CudaProviderTest;
using CudaDriverLoading = CudaProviderTest;
using CudaInitialize = CudaProviderTest;
using CudaNativeError = CudaProviderTest;
using CudaPageSize = CudaProviderTest;
using CudaParams = CudaProviderTest;
using CudaProperties = CudaProviderTest;
using CudaPurge = CudaProviderTest;
using CudaSplitMerge = CudaProviderTest;
using CudaStats = CudaProviderTest;

// --- Parameters --------------------------------------------------------------

TEST_F(CudaParams, EveryFunctionRejectsNullHandle) {
    EXPECT_EQ(umfCUDAMemoryProviderParamsCreate(nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    int x;
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetContext(nullptr, &x),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetDevice(nullptr, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetMemoryType(nullptr,
                                                       UMF_MEMORY_TYPE_DEVICE),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetAllocFlags(nullptr, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetName(nullptr, "x"),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CudaParams, SettersRejectBadValues) {
    umf_cuda_memory_provider_params_handle_t p = nullptr;
    ASSERT_EQ(umfCUDAMemoryProviderParamsCreate(&p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetContext(p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetDevice(p, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetMemoryType(
                  p, static_cast<umf_usm_memory_type_t>(4)),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetMemoryType(
                  p, static_cast<umf_usm_memory_type_t>(-1)),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetName(p, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Good values.
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetContext(p, cuda_primary_context()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetDevice(p, 0), UMF_RESULT_SUCCESS);
    for (auto t : {UMF_MEMORY_TYPE_UNKNOWN, UMF_MEMORY_TYPE_HOST,
                   UMF_MEMORY_TYPE_DEVICE, UMF_MEMORY_TYPE_SHARED}) {
        EXPECT_EQ(umfCUDAMemoryProviderParamsSetMemoryType(p, t),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetAllocFlags(p, 0xffffffffu),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetName(p, ""), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(p), UMF_RESULT_SUCCESS);
}

TEST_F(CudaParams, DefaultsAreTheCurrentContextAndItsDevice) {
    int last = cuda_device_count() - 1;
    CUcontext ctx = cuda_create_context(last);
    ASSERT_NE(ctx, nullptr);
    std::thread([&] {
        cuda_set_current(ctx);
        umf_cuda_memory_provider_params_handle_t p = nullptr;
        ASSERT_EQ(umfCUDAMemoryProviderParamsCreate(&p), UMF_RESULT_SUCCESS);
        umf_memory_provider_handle_t h = nullptr;
        ASSERT_EQ(umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &h),
                  UMF_RESULT_SUCCESS);
        EXPECT_STREQ(umfMemoryProviderGetName(h), "CUDA");
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr),
                  UMF_RESULT_SUCCESS);
        umf_gpu_allocation_properties_t props;
        ASSERT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, ptr, &props),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.context, (void *)ctx);
        EXPECT_EQ(props.device, (void *)(intptr_t)last);
        EXPECT_EQ(props.memory_type, UMF_MEMORY_TYPE_DEVICE);
        EXPECT_EQ(umfMemoryProviderFree(h, ptr, 4 * KiB), UMF_RESULT_SUCCESS);
        umfMemoryProviderDestroy(h);
        EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(p), UMF_RESULT_SUCCESS);
        cuda_set_current(nullptr);
    }).join();
    cuda_destroy_context(ctx);
}

TEST_F(CudaParams, NameIsKeptUpTo63Characters) {
    std::string long_name(100, 'n');
    cuda_provider_config cfg;
    cfg.name = long_name.c_str();
    CudaProvider h(cfg);
    EXPECT_EQ(std::string(umfMemoryProviderGetName(h)),
              long_name.substr(0, 63));
    cfg.name = "mine";
    CudaProvider h2(cfg);
    EXPECT_STREQ(umfMemoryProviderGetName(h2), "mine");
}

TEST_F(CudaParams, OpsTableIsComplete) {
    const umf_memory_provider_ops_t *ops = umfCUDAMemoryProviderOps();
    ASSERT_NE(ops, nullptr);
    EXPECT_EQ(ops->version, UMF_VERSION_CURRENT);
    EXPECT_NE(ops->ext.allocation_split, nullptr);
    EXPECT_NE(ops->ext.allocation_merge, nullptr);
    EXPECT_NE(ops->ipc.get_ipc_handle, nullptr);
    EXPECT_NE(ops->ipc.open_ipc_handle, nullptr);
}

// --- Initialize
// ----------------------------------------------------------------

// Params from a thread with no current context: nothing set.
umf_cuda_memory_provider_params_handle_t params_without_defaults() {
    umf_cuda_memory_provider_params_handle_t p = nullptr;
    std::thread([&] {
        EXPECT_EQ(cuda_current(), nullptr);
        EXPECT_EQ(umfCUDAMemoryProviderParamsCreate(&p), UMF_RESULT_SUCCESS);
    }).join();
    return p;
}

umf_result_t create_with(umf_cuda_memory_provider_params_handle_t p) {
    umf_memory_provider_handle_t h = nullptr;
    umf_result_t r = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), p, &h);
    umfMemoryProviderDestroy(h);
    EXPECT_EQ(r == UMF_RESULT_SUCCESS, h != nullptr);
    return r;
}

TEST_F(CudaInitialize, NeedsParams) {
    EXPECT_EQ(create_with(nullptr), UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CudaInitialize, NeedsAContextAndADevice) {
    umf_cuda_memory_provider_params_handle_t p = params_without_defaults();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(create_with(p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(umfCUDAMemoryProviderParamsSetContext(p, cuda_primary_context()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(create_with(p), UMF_RESULT_ERROR_INVALID_ARGUMENT); // no device
    ASSERT_EQ(umfCUDAMemoryProviderParamsSetDevice(p, 0), UMF_RESULT_SUCCESS);
    EXPECT_EQ(create_with(p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(p), UMF_RESULT_SUCCESS);
}

TEST_F(CudaInitialize, DeviceMustBeInRangeAndTheContexts) {
    int count = cuda_device_count();
    umf_cuda_memory_provider_params_handle_t p = params_without_defaults();
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(umfCUDAMemoryProviderParamsSetContext(p, cuda_primary_context()),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfCUDAMemoryProviderParamsSetDevice(p, count),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(create_with(p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    if (count > 1) {
        // The primary context is device 0's.
        ASSERT_EQ(umfCUDAMemoryProviderParamsSetDevice(p, 1),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(create_with(p), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(p), UMF_RESULT_SUCCESS);
}

TEST_F(CudaInitialize, MemoryTypeMustBeKnown) {
    cuda_provider_config cfg;
    cfg.type = UMF_MEMORY_TYPE_UNKNOWN;
    umf_memory_provider_handle_t h = nullptr;
    EXPECT_EQ(cuda_try_provider(cfg, &h), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(h, nullptr);
}

TEST_F(CudaInitialize, AllocFlagsMustSuitTheMemoryType) {
    struct Case {
        umf_usm_memory_type_t type;
        unsigned flags;
        umf_result_t want;
    } cases[] = {
        {UMF_MEMORY_TYPE_DEVICE, 0, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_DEVICE, 1, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_HOST, 0, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_HOST, CU_MEMHOSTALLOC_PORTABLE, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_HOST,
         CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
             CU_MEMHOSTALLOC_WRITECOMBINED,
         UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_HOST, 0x8, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_SHARED, CU_MEM_ATTACH_GLOBAL, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_SHARED, CU_MEM_ATTACH_HOST, UMF_RESULT_SUCCESS},
        {UMF_MEMORY_TYPE_SHARED, 0, UMF_RESULT_ERROR_INVALID_ARGUMENT},
        {UMF_MEMORY_TYPE_SHARED, 4, UMF_RESULT_ERROR_INVALID_ARGUMENT},
    };
    for (const Case &c : cases) {
        cuda_provider_config cfg;
        cfg.type = c.type;
        cfg.set_flags = true;
        cfg.flags = c.flags;
        umf_memory_provider_handle_t h = nullptr;
        EXPECT_EQ(cuda_try_provider(cfg, &h), c.want)
            << "type " << c.type << " flags " << c.flags;
        umfMemoryProviderDestroy(h);
    }
}

TEST_F(CudaInitialize, DestroyedContextIsRejected) {
    // A real driver may reuse a destroyed context's handle at once.
    CUDA_TEST_REQUIRE_EMULATED();
    CUcontext ctx = cuda_create_context(0);
    cuda_destroy_context(ctx);
    cuda_provider_config cfg;
    cfg.context = ctx;
    umf_memory_provider_handle_t h = nullptr;
    EXPECT_EQ(cuda_try_provider(cfg, &h), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Native errors are per thread, not per provider: any CUDA provider
    // reads this thread's.
    CudaProvider other;
    EXPECT_EQ(cuda_last_native_error(other).code, CUDA_ERROR_INVALID_CONTEXT);
}

// --- A missing or incomplete driver (child processes: the driver is loaded
// once per process)
// ------------------------------------------------------------

// Applies the NAME=value arguments, then asks for params: exit status 0 if
// that is DEPENDENCY_UNAVAILABLE, twice. Standard error goes to the parent.
UMF_TEST_CHILD(cuda_missing_driver) {
    cuda_test_child_stderr_to_socket(sock);
    if (!cuda_test_apply_env(argc, argv)) {
        return 10;
    }
    umf_cuda_memory_provider_params_handle_t p = nullptr;
    umf_result_t r = umfCUDAMemoryProviderParamsCreate(&p);
    // A second call reports the same, without loading again.
    umf_result_t again = umfCUDAMemoryProviderParamsCreate(&p);
    return r == UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE && again == r &&
                   p == nullptr
               ? 0
               : 1;
}

// The child's exit status and what it logged.
std::string run_missing_driver(const std::string &env, int *status) {
    std::string log;
    EXPECT_TRUE(
        cuda_test_run_child("cuda_missing_driver", {env}, status, &log));
    return log;
}

TEST_F(CudaDriverLoading, MissingLibraryIsDependencyUnavailable) {
    int status = -1;
    std::string log = run_missing_driver(
        "UMF_GPU_CUDA_LIB=/nonexistent/libcuda.so.1", &status);
    EXPECT_EQ(status, 0) << log;
    EXPECT_NE(log.find("/nonexistent/libcuda.so.1"), std::string::npos) << log;
}

TEST_F(CudaDriverLoading, MissingEntryPointsAreNamed) {
    int status = -1;
    // libm has none of the entry points.
    std::string log = run_missing_driver("UMF_GPU_CUDA_LIB=libm.so.6", &status);
    EXPECT_EQ(status, 0) << log;
    EXPECT_NE(log.find("cuMemAlloc_v2"), std::string::npos) << log;
}

TEST_F(CudaDriverLoading, FailingCuInitIsDependencyUnavailable) {
    CUDA_TEST_REQUIRE_EMULATED();
    int status = -1;
    // An emulated driver with no device fails cuInit (a fault rule in
    // UMF_GPU_MOCK_FAULTS cannot: the driver reads it during cuInit).
    std::string log = run_missing_driver("UMF_GPU_MOCK_DEVICES=0", &status);
    EXPECT_EQ(status, 0) << log;
    EXPECT_NE(log.find("cuInit(0)"), std::string::npos) << log;
    EXPECT_NE(log.find("CUDA_ERROR_NO_DEVICE"), std::string::npos) << log;
}

// --- Memory types
// ---------------------------------------------------------------

struct TypeCase {
    umf_usm_memory_type_t type;
    bool set_flags;
    unsigned flags;
};

class CudaMemoryTypes : public CudaProviderTest,
                        public testing::WithParamInterface<TypeCase> {};

TEST_P(CudaMemoryTypes, AllocCopyFreeAndProperties) {
    cuda_provider_config cfg;
    cfg.type = GetParam().type;
    cfg.set_flags = GetParam().set_flags;
    cfg.flags = GetParam().flags;
    CudaProvider h(cfg);
    CUcontext ctx = cuda_primary_context();
    for (size_t size : {size_t(1), size_t(100), 64 * KiB, 3 * MiB + 5}) {
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, size, 0, &ptr), UMF_RESULT_SUCCESS);
        ASSERT_NE(ptr, nullptr);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 256, 0u);
        ASSERT_TRUE(cuda_fill(ctx, ptr, size, unsigned(size)));
        EXPECT_TRUE(cuda_check(ctx, ptr, size, unsigned(size)));
        umf_gpu_allocation_properties_t props;
        ASSERT_EQ(umfGpuMemoryProviderGetAllocationProperties(
                      h, static_cast<char *>(ptr) + size - 1, &props),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.memory_type, cfg.type);
        EXPECT_EQ(props.base, ptr);
        EXPECT_GE(props.size, size);
        CUmemorytype mt = CUmemorytype(0);
        CU_ASSERT_OK(cu->cuPointerGetAttribute(
            &mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)ptr));
        unsigned managed = 0;
        CU_ASSERT_OK(cu->cuPointerGetAttribute(
            &managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)ptr));
        if (cfg.type == UMF_MEMORY_TYPE_HOST) {
            EXPECT_EQ(mt, CU_MEMORYTYPE_HOST);
        } else if (cfg.type == UMF_MEMORY_TYPE_DEVICE) {
            EXPECT_EQ(mt, CU_MEMORYTYPE_DEVICE);
        }
        EXPECT_EQ(managed != 0, cfg.type == UMF_MEMORY_TYPE_SHARED);
        EXPECT_EQ(umfMemoryProviderFree(h, ptr, size), UMF_RESULT_SUCCESS);
    }
    // IPC handles exist for cuMemAlloc memory only.
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr), UMF_RESULT_SUCCESS);
    size_t hsize = 0;
    ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(h, &hsize), UMF_RESULT_SUCCESS);
    std::vector<char> data(hsize);
    EXPECT_EQ(umfMemoryProviderGetIPCHandle(h, ptr, 4 * KiB, data.data()),
              cfg.type == UMF_MEMORY_TYPE_DEVICE
                  ? UMF_RESULT_SUCCESS
                  : UMF_RESULT_ERROR_NOT_SUPPORTED);
    if (cfg.type == UMF_MEMORY_TYPE_DEVICE) {
        EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
                  UMF_RESULT_SUCCESS);
    }
    EXPECT_EQ(umfMemoryProviderFree(h, ptr, 4 * KiB), UMF_RESULT_SUCCESS);
}

const TypeCase kTypeCases[] = {
    {UMF_MEMORY_TYPE_DEVICE, false, 0},
    {UMF_MEMORY_TYPE_HOST, false, 0},
    {UMF_MEMORY_TYPE_HOST, true,
     CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP},
    {UMF_MEMORY_TYPE_SHARED, false, 0},
    {UMF_MEMORY_TYPE_SHARED, true, CU_MEM_ATTACH_HOST},
};

std::string type_case_name(const testing::TestParamInfo<TypeCase> &info) {
    static const char *const names[] = {"Unknown", "Host", "Device", "Shared"};
    return std::string(names[info.param.type]) +
           (info.param.set_flags ? "WithFlags" : "");
}

INSTANTIATE_TEST_SUITE_P(Types, CudaMemoryTypes, testing::ValuesIn(kTypeCases),
                         type_case_name);

TEST_F(CudaAlloc, BadSizesAndAlignments) {
    CudaProvider h;
    void *ptr = reinterpret_cast<void *>(0x1);
    EXPECT_EQ(umfMemoryProviderAlloc(h, 0, 0, &ptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAlloc(h, 64, 3, &ptr),
              UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    EXPECT_EQ(umfMemoryProviderAlloc(h, 64, 4 * MiB, &ptr),
              UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    EXPECT_EQ(umfMemoryProviderAlloc(h, SIZE_MAX - 100, 4096, &ptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAlloc(h, 64, 0, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(h, nullptr, 64),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Memory the driver does not know.
    int local = 0;
    EXPECT_NE(umfMemoryProviderFree(h, &local, sizeof(local)),
              UMF_RESULT_SUCCESS);
}

// --- Alignments
// ------------------------------------------------------------------

class CudaAlignment : public CudaProviderTest,
                      public testing::WithParamInterface<size_t> {};

TEST_P(CudaAlignment, HonouredAndEverythingWorksOnThePointer) {
    const size_t alignment = GetParam();
    CudaProvider h;
    CUcontext ctx = cuda_primary_context();
    for (size_t size : {size_t(1), size_t(100), 4 * KiB + 1}) {
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, size, alignment, &ptr),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % alignment, 0u)
            << ptr << " size " << size;
        ASSERT_TRUE(cuda_fill(ctx, ptr, size, unsigned(alignment + size)));
        EXPECT_TRUE(cuda_check(ctx, ptr, size, unsigned(alignment + size)));

        size_t page = 0;
        ASSERT_EQ(umfMemoryProviderGetMinPageSize(h, ptr, &page),
                  UMF_RESULT_SUCCESS);
        EXPECT_TRUE(page != 0 && (page & (page - 1)) == 0) << page;

        umf_gpu_allocation_properties_t props;
        ASSERT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, ptr, &props),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.base, ptr);
        if (alignment > 256) {
            EXPECT_EQ(props.size, size); // the piece handed out
        }

        // IPC of the pointer: the same process opens the same address.
        size_t hsize = 0;
        ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(h, &hsize),
                  UMF_RESULT_SUCCESS);
        std::vector<char> data(hsize);
        ASSERT_EQ(umfMemoryProviderGetIPCHandle(h, ptr, size, data.data()),
                  UMF_RESULT_SUCCESS);
        void *opened = nullptr;
        ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(opened, ptr);
        EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, size),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
                  UMF_RESULT_SUCCESS);

        EXPECT_EQ(umfMemoryProviderFree(h, ptr, size), UMF_RESULT_SUCCESS);
    }
    umf_gpu_provider_stats_t st;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.allocated_bytes, 0u);
    EXPECT_EQ(st.alloc_count, st.free_count);
    if (cu->emulated()) {
        EXPECT_EQ(cuda_mock_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), 0);
    }
}

std::vector<size_t> all_alignments() {
    std::vector<size_t> v;
    for (size_t a = 1; a <= 2 * MiB; a *= 2) {
        v.push_back(a);
    }
    return v;
}

INSTANTIATE_TEST_SUITE_P(OneByteTo2MiB, CudaAlignment,
                         testing::ValuesIn(all_alignments()));

// --- Page sizes
// ------------------------------------------------------------------

TEST_F(CudaPageSize, ProviderAndPerPointer) {
    CudaProvider h;
    size_t min = 0, rec = 0;
    ASSERT_EQ(umfMemoryProviderGetMinPageSize(h, nullptr, &min),
              UMF_RESULT_SUCCESS);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0;
    CU_ASSERT_OK(cu->cuMemGetAllocationGranularity(
        &gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    EXPECT_EQ(min, gran);
    ASSERT_EQ(umfMemoryProviderGetRecommendedPageSize(h, 64 * MiB, &rec),
              UMF_RESULT_SUCCESS);
    EXPECT_GE(rec, min);
    ASSERT_EQ(umfMemoryProviderGetRecommendedPageSize(h, 1, &rec),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(rec, min);
    EXPECT_EQ(umfMemoryProviderGetMinPageSize(h, nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);

    for (size_t size : {size_t(64), size_t(3000), 2 * MiB, 6 * MiB}) {
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, size, 0, &ptr), UMF_RESULT_SUCCESS);
        CUdeviceptr base = 0;
        size_t range = 0;
        CU_ASSERT_OK(cu->cuPointerGetAttribute(
            &base, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, (CUdeviceptr)ptr));
        CU_ASSERT_OK(cu->cuPointerGetAttribute(
            &range, CU_POINTER_ATTRIBUTE_RANGE_SIZE, (CUdeviceptr)ptr));
        for (size_t off : {size_t(0), size - 1}) {
            size_t page = 0;
            ASSERT_EQ(umfMemoryProviderGetMinPageSize(
                          h, static_cast<char *>(ptr) + off, &page),
                      UMF_RESULT_SUCCESS);
            EXPECT_TRUE(page != 0 && (page & (page - 1)) == 0) << page;
            EXPECT_LE(page, min);
            EXPECT_EQ(base % page, 0u) << "page " << page;
            EXPECT_LE(page, range);
            // The largest such page: doubling it breaks one of the rules.
            if (page < min) {
                EXPECT_TRUE(base % (2 * page) != 0 || 2 * page > range)
                    << "page " << page << " base " << base << " range "
                    << range;
            }
        }
        EXPECT_EQ(umfMemoryProviderFree(h, ptr, size), UMF_RESULT_SUCCESS);
    }
    int local = 0;
    size_t page = 0;
    EXPECT_EQ(umfMemoryProviderGetMinPageSize(h, &local, &page),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// --- Out of memory and native errors
// ----------------------------------------------

TEST_F(CudaNativeError, DeviceOutOfMemory) {
    CudaProvider h;
    void *ptr = nullptr;
    const size_t huge = size_t(1) << 40; // more than any device has
    ASSERT_EQ(umfMemoryProviderAlloc(h, huge, 0, &ptr),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), h.get());
    cuda_native_error e = cuda_last_native_error(h);
    EXPECT_EQ(e.code, CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_NE(e.message.find("cuMemAlloc_v2(size=1099511627776)"),
              std::string::npos)
        << e.message;
    EXPECT_NE(e.message.find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos)
        << e.message;
    EXPECT_NE(e.message.find("device memory ran out"), std::string::npos)
        << e.message;
    // Over-aligned: the same, with the larger size.
    ASSERT_EQ(umfMemoryProviderAlloc(h, huge, 2 * MiB, &ptr),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(cuda_last_native_error(h).code, CUDA_ERROR_OUT_OF_MEMORY);
    // Nothing counted, and the provider still works.
    umf_gpu_provider_stats_t st;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.alloc_count, 0u);
    ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &ptr), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h, ptr, 64), UMF_RESULT_SUCCESS);
}

TEST_F(CudaNativeError, EmulatedDeviceMemoryLimit) {
    CUDA_TEST_REQUIRE_EMULATED();
    CudaProvider h;
    // The emulated device has 4 GiB (UMF_GPU_MOCK_DEVICE_MEM's default).
    std::vector<void *> ptrs;
    umf_result_t r = UMF_RESULT_SUCCESS;
    while (r == UMF_RESULT_SUCCESS && ptrs.size() < 64) {
        void *p = nullptr;
        r = umfMemoryProviderAlloc(h, 1024 * MiB, 0, &p);
        if (r == UMF_RESULT_SUCCESS) {
            ptrs.push_back(p);
        }
    }
    EXPECT_EQ(r, UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    EXPECT_EQ(ptrs.size(), 4u);
    cuda_native_error e = cuda_last_native_error(h);
    EXPECT_EQ(e.code, CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_NE(e.message.find("device memory ran out"), std::string::npos);
    for (void *p : ptrs) {
        EXPECT_EQ(umfMemoryProviderFree(h, p, 1024 * MiB), UMF_RESULT_SUCCESS);
    }
}

TEST_F(CudaNativeError, StaysInTheThreadThatFailed) {
    CudaProvider h;
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, size_t(1) << 40, 0, &ptr),
              UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
    cuda_native_error mine = cuda_last_native_error(h);
    EXPECT_EQ(mine.code, CUDA_ERROR_OUT_OF_MEMORY);
    std::thread([&] {
        cuda_native_error other = cuda_last_native_error(h);
        EXPECT_EQ(other.code, 0);
        EXPECT_EQ(other.message, "");
        // A different failure here (the driver's query of host memory) ...
        int local = 0;
        size_t page = 0;
        EXPECT_NE(umfMemoryProviderGetMinPageSize(h, &local, &page),
                  UMF_RESULT_SUCCESS);
        EXPECT_NE(cuda_last_native_error(h).code, 0);
    }).join();
    // ... leaves this thread's untouched.
    cuda_native_error again = cuda_last_native_error(h);
    EXPECT_EQ(again.code, mine.code);
    EXPECT_EQ(again.message, mine.message);
}

// --- Context save and restore
// ----------------------------------------------------

TEST_F(CudaContext, CallersContextIsRestoredAfterSuccessAndFailure) {
    CUcontext mine = cuda_create_context(0);
    CudaProvider h; // on the primary context
    for (CUcontext current :
         {mine, cuda_primary_context(), CUcontext(nullptr)}) {
        std::thread([&] {
            if (current != nullptr) {
                cuda_set_current(current);
            }
            void *ptr = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 0, &ptr),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            // The allocation is the provider's context's.
            CUcontext owner = nullptr;
            CU_ASSERT_OK(cu->cuPointerGetAttribute(
                &owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)ptr));
            EXPECT_EQ(owner, cuda_primary_context());
            void *aligned = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(h, 4 * KiB, 64 * KiB, &aligned),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            size_t page;
            EXPECT_EQ(umfMemoryProviderGetMinPageSize(h, ptr, &page),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            umf_gpu_allocation_properties_t props;
            EXPECT_EQ(
                umfGpuMemoryProviderGetAllocationProperties(h, ptr, &props),
                UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            EXPECT_EQ(umfMemoryProviderAllocationSplit(h, ptr, 4 * KiB, KiB),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            std::vector<char> data(256);
            size_t hsize = 0;
            ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(h, &hsize),
                      UMF_RESULT_SUCCESS);
            data.resize(hsize);
            EXPECT_EQ(umfMemoryProviderGetIPCHandle(h, ptr, KiB, data.data()),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            void *opened = nullptr;
            EXPECT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &opened),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, opened, KiB),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
                      UMF_RESULT_SUCCESS);
            // Failures: out of memory, memory the driver does not know.
            void *none = nullptr;
            EXPECT_EQ(umfMemoryProviderAlloc(h, size_t(1) << 40, 0, &none),
                      UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC);
            EXPECT_EQ(cuda_current(), current);
            int local = 0;
            EXPECT_NE(umfMemoryProviderGetMinPageSize(h, &local, &page),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            EXPECT_NE(umfMemoryProviderFree(h, &local, 4), UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            EXPECT_EQ(umfMemoryProviderFree(h, aligned, 4 * KiB),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfMemoryProviderFree(h, static_cast<char *>(ptr) + KiB,
                                            3 * KiB),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfMemoryProviderFree(h, ptr, KiB), UMF_RESULT_SUCCESS);
            EXPECT_EQ(cuda_current(), current);
            if (current != nullptr) {
                cuda_set_current(nullptr);
            }
        }).join();
    }
    cuda_destroy_context(mine);
}

TEST_F(CudaContext, NoSwitchWhenTheProvidersContextIsCurrent) {
    CUDA_TEST_REQUIRE_EMULATED();
    CudaProvider h;
    std::thread([&] {
        cuda_set_current(cuda_primary_context());
        cu->umfCudaMockResetCallCounts();
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &ptr), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderFree(h, ptr, 64), UMF_RESULT_SUCCESS);
        EXPECT_EQ(cu->umfCudaMockGetCallCount("cuCtxSetCurrent"), 0);
        // The alloc reads the current context; the free needs none (the
        // driver finds the allocation by its address).
        EXPECT_EQ(cu->umfCudaMockGetCallCount("cuCtxGetCurrent"), 1);
        EXPECT_EQ(cu->umfCudaMockGetCallCount("cuMemAlloc_v2"), 1);
        EXPECT_EQ(cu->umfCudaMockGetCallCount("cuMemFree_v2"), 1);
        cuda_set_current(nullptr);
    }).join();
}

// A free made while another context (or none) is current frees; when the
// driver refuses it for the context, it is made again in the provider's
// context, and the caller's context is current again afterwards.
TEST_F(CudaContext, FreeInAnotherContextFallsBackToTheProviders) {
    CUDA_TEST_REQUIRE_EMULATED();
    CUcontext other = cuda_create_context(0);
    CudaProvider h;
    std::thread([&] {
        cuda_set_current(cuda_primary_context());
        void *a = nullptr, *b = nullptr, *c = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &a), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &b), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderAlloc(h, 64, 0, &c), UMF_RESULT_SUCCESS);
        for (CUcontext current : {other, static_cast<CUcontext>(nullptr)}) {
            cuda_set_current(current);
            cu->umfCudaMockResetCallCounts();
            ASSERT_EQ(umfMemoryProviderFree(h, current ? a : b, 64),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(cu->umfCudaMockGetCallCount("cuMemFree_v2"), 1);
            EXPECT_EQ(cu->umfCudaMockGetCallCount("cuCtxSetCurrent"), 0);
            EXPECT_EQ(cuda_current(), current);
        }
        // A driver that wants the allocation's context current.
        cuda_set_current(other);
        cu->umfCudaMockResetCallCounts();
        ASSERT_EQ(cu->umfCudaMockInjectFaults(
                      "cuMemFree_v2:1=CUDA_ERROR_INVALID_CONTEXT"),
                  0);
        EXPECT_EQ(umfMemoryProviderFree(h, c, 64), UMF_RESULT_SUCCESS);
        cu->umfCudaMockClearFaults();
        EXPECT_EQ(cu->umfCudaMockGetCallCount("cuMemFree_v2"), 2);
        EXPECT_EQ(cu->umfCudaMockGetCallCount("cuCtxSetCurrent"), 2);
        EXPECT_EQ(cuda_current(), other);
        cuda_set_current(nullptr);
    }).join();
    cuda_destroy_context(other);
}

TEST_F(CudaContext, SeveralContextsAndDevices) {
    int last = cuda_device_count() - 1;
    CUcontext a = cuda_create_context(0), b = cuda_create_context(last);
    cuda_provider_config ca, cb;
    ca.context = a;
    cb.context = b;
    cb.device = last;
    CudaProvider ha(ca), hb(cb);
    std::vector<void *> pa, pb;
    for (int i = 0; i < 8; i++) {
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(i % 2 ? ha : hb, 8 * KiB, 0, &p),
                  UMF_RESULT_SUCCESS);
        (i % 2 ? pa : pb).push_back(p);
        ASSERT_TRUE(cuda_fill(i % 2 ? a : b, p, 8 * KiB, unsigned(i)));
    }
    for (void *p : pa) {
        CUcontext owner = nullptr;
        CU_ASSERT_OK(cu->cuPointerGetAttribute(
            &owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p));
        EXPECT_EQ(owner, a);
        umf_gpu_allocation_properties_t props;
        // The other provider did not allocate it.
        EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(hb, p, &props),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(ha, p, &props),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.context, (void *)a);
    }
    for (int i = 0; i < 8; i++) {
        void *p = (i % 2 ? pa : pb)[size_t(i / 2)];
        EXPECT_TRUE(cuda_check(i % 2 ? a : b, p, 8 * KiB, unsigned(i)));
        EXPECT_EQ(umfMemoryProviderFree(i % 2 ? ha : hb, p, 8 * KiB),
                  UMF_RESULT_SUCCESS);
    }
    cuda_destroy_context(a);
    cuda_destroy_context(b);
}

// --- Split and merge
// -------------------------------------------------------------

// True while the driver still holds ptr's allocation.
bool driver_has(const cuda_test_driver_t *cu, void *ptr) {
    CUdeviceptr base = 0;
    return cu->cuPointerGetAttribute(&base,
                                     CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                     (CUdeviceptr)ptr) == CUDA_SUCCESS;
}

TEST_F(CudaSplitMerge, PiecesFreeInEveryOrder) {
    CudaProvider h;
    const size_t piece = 64 * KiB;
    std::vector<int> order = {0, 1, 2};
    for (size_t alignment : {size_t(0), 2 * MiB}) {
        do {
            char *ptr = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(h, 3 * piece, alignment,
                                             reinterpret_cast<void **>(&ptr)),
                      UMF_RESULT_SUCCESS);
            ASSERT_EQ(
                umfMemoryProviderAllocationSplit(h, ptr, 3 * piece, piece),
                UMF_RESULT_SUCCESS);
            ASSERT_EQ(umfMemoryProviderAllocationSplit(h, ptr + piece,
                                                       2 * piece, piece),
                      UMF_RESULT_SUCCESS);
            for (int i = 0; i < 3; i++) {
                ASSERT_TRUE(cuda_fill(cuda_primary_context(), ptr + i * piece,
                                      piece, unsigned(i)));
            }
            for (size_t k = 0; k < 3; k++) {
                EXPECT_TRUE(driver_has(cu, ptr));
                char *p = ptr + order[k] * piece;
                umf_gpu_allocation_properties_t props;
                ASSERT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, p + 5,
                                                                      &props),
                          UMF_RESULT_SUCCESS);
                EXPECT_EQ(props.base, p);
                EXPECT_EQ(props.size, piece);
                EXPECT_TRUE(cuda_check(cuda_primary_context(), p, piece,
                                       unsigned(order[k])));
                EXPECT_EQ(umfMemoryProviderFree(h, p, piece),
                          UMF_RESULT_SUCCESS);
            }
            if (cu->emulated()) {
                EXPECT_EQ(cuda_mock_live(UMF_GPU_MOCK_LIVE_ALLOCATIONS), 0);
            }
        } while (std::next_permutation(order.begin(), order.end()));
    }
    umf_gpu_provider_stats_t st;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.allocated_bytes, 0u);
    EXPECT_EQ(st.free_count, 3 * st.alloc_count);
}

TEST_F(CudaSplitMerge, MergedPiecesFreeAsOne) {
    CudaProvider h;
    char *ptr = nullptr;
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 4 * KiB, 0, reinterpret_cast<void **>(&ptr)),
        UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, ptr, 4 * KiB, KiB),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAllocationMerge(h, ptr, ptr + KiB, 4 * KiB),
              UMF_RESULT_SUCCESS);
    umf_gpu_allocation_properties_t props;
    ASSERT_EQ(
        umfGpuMemoryProviderGetAllocationProperties(h, ptr + 2 * KiB, &props),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(props.base, ptr);
    EXPECT_EQ(props.size, 4 * KiB);
    EXPECT_EQ(umfMemoryProviderFree(h, ptr, 4 * KiB), UMF_RESULT_SUCCESS);
    EXPECT_FALSE(driver_has(cu, ptr));
}

TEST_F(CudaSplitMerge, BadArguments) {
    CudaProvider h;
    char *a = nullptr, *b = nullptr;
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 4 * KiB, 0, reinterpret_cast<void **>(&a)),
        UMF_RESULT_SUCCESS);
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 4 * KiB, 0, reinterpret_cast<void **>(&b)),
        UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a, 4 * KiB, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a, 4 * KiB, 4 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a, 64 * MiB, KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // larger than the allocation
    EXPECT_EQ(umfMemoryProviderAllocationSplit(h, a + 16, 1 * KiB, 16),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // interior pointer
    int local = 0;
    EXPECT_NE(umfMemoryProviderAllocationSplit(h, &local, 4, 2),
              UMF_RESULT_SUCCESS);
    // Two separate driver allocations never merge, adjacent or not.
    char *lo = std::min(a, b), *hi = std::max(a, b);
    EXPECT_EQ(
        umfMemoryProviderAllocationMerge(h, lo, hi, size_t(hi - lo) + 4 * KiB),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(umfMemoryProviderAllocationSplit(h, a, 4 * KiB, KiB),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderAllocationMerge(h, a, a + KiB, 5 * KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // wrong total
    EXPECT_EQ(umfMemoryProviderFree(h, a + KiB, KiB),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // wrong size of a piece
    EXPECT_EQ(umfMemoryProviderFree(h, a + KiB, 3 * KiB), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h, a, KiB), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(h, b, 4 * KiB), UMF_RESULT_SUCCESS);
    EXPECT_FALSE(driver_has(cu, a));
}

TEST_F(CudaPurge, NotSupported) {
    CudaProvider h;
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 2 * MiB, 0, &ptr), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPurgeLazy(h, ptr, 2 * MiB),
              UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(umfMemoryProviderPurgeForce(h, ptr, 2 * MiB),
              UMF_RESULT_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(umfMemoryProviderFree(h, ptr, 2 * MiB), UMF_RESULT_SUCCESS);
}

// --- Stats and properties
// --------------------------------------------------------

TEST_F(CudaStats, CountAllocationsAndIpc) {
    CudaProvider h;
    umf_gpu_provider_stats_t st;
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.alloc_count + st.free_count + st.allocated_bytes +
                  st.peak_bytes + st.ipc_handles_exported +
                  st.ipc_handles_open + st.ipc_cache_hits + st.ipc_cache_misses,
              0u);
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(h, 1000, 0, &a), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAlloc(h, 3000, 4096, &b), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.alloc_count, 2u);
    EXPECT_EQ(st.allocated_bytes, 4000u);
    EXPECT_EQ(st.peak_bytes, 4000u);

    size_t hsize = 0;
    ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(h, &hsize), UMF_RESULT_SUCCESS);
    std::vector<char> data(hsize);
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(h, b, 3000, data.data()),
              UMF_RESULT_SUCCESS);
    void *o1 = nullptr, *o2 = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &o1),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(h, data.data(), &o2),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(o1, b);
    EXPECT_EQ(o2, b);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.ipc_handles_exported, 1u);
    EXPECT_EQ(st.ipc_handles_open, 2u);
    EXPECT_EQ(st.ipc_cache_misses, 1u);
    EXPECT_EQ(st.ipc_cache_hits, 1u);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, o1, 3000), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, o2, 3000), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(h, o2, 3000),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(h, data.data()),
              UMF_RESULT_SUCCESS);

    EXPECT_EQ(umfMemoryProviderFree(h, a, 1000), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.allocated_bytes, 3000u);
    EXPECT_EQ(st.peak_bytes, 4000u);
    EXPECT_EQ(st.ipc_handles_exported, 0u);
    EXPECT_EQ(st.ipc_handles_open, 0u);
    EXPECT_EQ(umfMemoryProviderFree(h, b, 3000), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfGpuMemoryProviderGetStats(h, &st), UMF_RESULT_SUCCESS);
    EXPECT_EQ(st.free_count, 2u);
    EXPECT_EQ(st.allocated_bytes, 0u);
    EXPECT_EQ(umfGpuMemoryProviderGetStats(h, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CudaProperties, AnyPointerInsideAnAllocation) {
    int last = cuda_device_count() - 1;
    CUcontext ctx = cuda_create_context(last);
    cuda_provider_config cfg;
    cfg.context = ctx;
    cfg.device = last;
    CudaProvider h(cfg);
    char *ptr = nullptr;
    ASSERT_EQ(
        umfMemoryProviderAlloc(h, 10 * KiB, 0, reinterpret_cast<void **>(&ptr)),
        UMF_RESULT_SUCCESS);
    unsigned long long id = 0;
    CU_ASSERT_OK(cu->cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID,
                                           (CUdeviceptr)ptr));
    for (size_t off : {size_t(0), size_t(1), 10 * KiB - 1}) {
        umf_gpu_allocation_properties_t props;
        ASSERT_EQ(
            umfGpuMemoryProviderGetAllocationProperties(h, ptr + off, &props),
            UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.memory_type, UMF_MEMORY_TYPE_DEVICE);
        EXPECT_EQ(props.base, ptr);
        EXPECT_EQ(props.size, 10 * KiB);
        EXPECT_EQ(props.device, (void *)(intptr_t)last);
        EXPECT_EQ(props.context, (void *)ctx);
        EXPECT_EQ(props.driver_id, id);
    }
    umf_gpu_allocation_properties_t props;
    int local = 0;
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, &local, &props),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, nullptr, &props),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, ptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfMemoryProviderFree(h, ptr, 10 * KiB), UMF_RESULT_SUCCESS);
    // A freed allocation is not the provider's any more.
    EXPECT_NE(umfGpuMemoryProviderGetAllocationProperties(h, ptr, &props),
              UMF_RESULT_SUCCESS);
    cuda_destroy_context(ctx);
}

} // namespace
