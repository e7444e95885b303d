// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA provider's VMM modes (provider_cuda.h): what create refuses, a
// device that lacks the mode (the emulated driver's attribute control),
// resident devices, granularity and alignment, many allocations, split
// pieces, and IPC of both handle types in one process. The contract
// (provider_contract_test.cpp) runs every provider rule, IPC between
// processes included, in both modes; this file holds what only a VMM mode
// has. Runs on the emulated libcuda.so.1 and, unchanged, on a real driver
// (the attribute cases need the emulated one).

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpu_harness_backend.h"
#include "gpu_test_cuda.h"

namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

using CudaVmm = CudaProviderTest;

cuda_provider_config
vmm(umf_cuda_allocation_mode_t mode = UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD) {
    cuda_provider_config cfg;
    cfg.mode = mode;
    return cfg;
}

// The emulated driver's umfCudaMockSetDeviceAttribute, or nullptr.
umf_cuda_mock_set_device_attribute_fn set_attribute() {
    return reinterpret_cast<umf_cuda_mock_set_device_attribute_fn>(
        umf_test_gpu_loaded_symbol(std::getenv("UMF_GPU_CUDA_LIB"),
                                   "umfCudaMockSetDeviceAttribute"));
}

// create's result for cfg (the provider, if made, destroyed).
umf_result_t try_create(const cuda_provider_config &cfg) {
    umf_memory_provider_handle_t h = nullptr;
    umf_result_t r = cuda_try_provider(cfg, &h);
    if (h != nullptr) {
        umfMemoryProviderDestroy(h);
    }
    return r;
}

// The thread's native error read through the ops table (after a failed
// create there is no provider).
cuda_native_error create_error() {
    const char *msg = nullptr;
    int32_t code = -1;
    umf_test_gpu_native_error(cuda_gpu(), &msg, &code);
    return {code, msg != nullptr ? msg : "(null)"};
}

void reset_attributes() {
    auto reset = reinterpret_cast<umf_cuda_mock_reset_device_attributes_fn>(
        umf_test_gpu_loaded_symbol(std::getenv("UMF_GPU_CUDA_LIB"),
                                   "umfCudaMockResetDeviceAttributes"));
    if (reset != nullptr) {
        reset();
    }
}

// How much of [ptr, ptr + size) the device may touch: CU_MEM_ACCESS_FLAGS_*.
unsigned long long access_of(int device, const void *ptr) {
    CUmemLocation loc = {};
    loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
    loc.id = device;
    unsigned long long flags = ~0ull;
    EXPECT_EQ(cuda_env()->cuMemGetAccess(&flags, &loc,
                                         reinterpret_cast<CUdeviceptr>(ptr)),
              CUDA_SUCCESS);
    return flags;
}

TEST_F(CudaVmm, TheSetterTakesTheThreeModesOnly) {
    umf_cuda_memory_provider_params_handle_t p = nullptr;
    ASSERT_EQ(umfCUDAMemoryProviderParamsCreate(&p), UMF_RESULT_SUCCESS);
    for (int mode : {0, 1, 2}) {
        EXPECT_EQ(umfCUDAMemoryProviderParamsSetAllocationMode(
                      p, static_cast<umf_cuda_allocation_mode_t>(mode)),
                  UMF_RESULT_SUCCESS);
    }
    for (int mode : {-1, 3, 1000}) {
        EXPECT_EQ(umfCUDAMemoryProviderParamsSetAllocationMode(
                      p, static_cast<umf_cuda_allocation_mode_t>(mode)),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetAllocationMode(
                  nullptr, UMF_CUDA_ALLOCATION_MODE_DEFAULT),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    int devices[] = {0, 1, 0};
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetResidentDevices(p, devices, 3),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // 0 twice
    int negative[] = {-1};
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetResidentDevices(p, negative, 1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetResidentDevices(p, nullptr, 1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    std::vector<int> many(UMF_CUDA_MAX_RESIDENT_DEVICES + 1);
    for (size_t i = 0; i < many.size(); i++) {
        many[i] = static_cast<int>(i);
    }
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetResidentDevices(
                  p, many.data(), static_cast<uint32_t>(many.size())),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetResidentDevices(p, devices, 2),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsSetResidentDevices(p, nullptr, 0),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfCUDAMemoryProviderParamsDestroy(p), UMF_RESULT_SUCCESS);
}

TEST_F(CudaVmm, HostAndManagedMemoryAreRefused) {
    for (auto type : {UMF_MEMORY_TYPE_HOST, UMF_MEMORY_TYPE_SHARED}) {
        for (auto mode : {UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD,
                          UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC}) {
            cuda_provider_config cfg = vmm(mode);
            cfg.type = type;
            EXPECT_EQ(try_create(cfg), UMF_RESULT_ERROR_INVALID_ARGUMENT)
                << "type " << type << " mode " << mode;
        }
    }
    // Resident devices are a VMM mode's (cuMemSetAccess).
    cuda_provider_config cfg;
    cfg.resident = {0};
    EXPECT_EQ(try_create(cfg), UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// Each attribute the mode needs, reported 0 by the emulated driver, makes
// create fail with NOT_SUPPORTED and a native error naming it.
TEST_F(CudaVmm, ADeviceWithoutTheModeIsRefusedNamingWhatItLacks) {
    GPU_REQUIRE_EMULATED(cuda_gpu());
    auto set = set_attribute();
    ASSERT_NE(set, nullptr);
    struct Case {
        umf_cuda_allocation_mode_t mode;
        CUdevice_attribute attr;
        const char *name;
    } cases[] = {
        {UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD,
         CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
         "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"},
        {UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD,
         CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
         "HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED"},
        {UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC,
         CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
         "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"},
        {UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC,
         CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED,
         "HANDLE_TYPE_FABRIC_SUPPORTED"},
    };
    // The control: with every attribute the driver's own, the fd mode works.
    ASSERT_EQ(try_create(vmm()), UMF_RESULT_SUCCESS);
    for (const Case &c : cases) {
        ASSERT_EQ(set(0, c.attr, 0), 0);
        umf_result_t r = try_create(vmm(c.mode));
        cuda_native_error e = create_error();
        reset_attributes();
        EXPECT_EQ(r, UMF_RESULT_ERROR_NOT_SUPPORTED) << c.name;
        EXPECT_EQ(e.code, CUDA_ERROR_NOT_SUPPORTED) << c.name;
        EXPECT_NE(e.message.find(c.name), std::string::npos) << e.message;
    }
    // With the attributes the driver's own again, the fd mode works.
    EXPECT_EQ(try_create(vmm()), UMF_RESULT_SUCCESS);
}

// Sizes round up to the granularity; the range starts on the alignment
// asked for (up to 1 GiB) and on the granularity; the page sizes are the
// granularity; the device has read-write access.
TEST_F(CudaVmm, GranularityAndAlignment) {
    CudaProvider p(vmm());
    ASSERT_EQ(p.create_result(), UMF_RESULT_SUCCESS);
    size_t gran = 0, rec = 0;
    ASSERT_EQ(umfMemoryProviderGetMinPageSize(p, nullptr, &gran),
              UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderGetRecommendedPageSize(p, 1, &rec),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(rec, gran);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t driver_gran = 0;
    ASSERT_EQ(cuda_env()->cuMemGetAllocationGranularity(
                  &driver_gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
              CUDA_SUCCESS);
    EXPECT_EQ(gran, driver_gran);

    for (size_t alignment : {size_t{0}, size_t{64}, 4 * KiB, 2 * MiB, 8 * MiB,
                             64 * MiB, size_t{1} << 30}) {
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(p, 100, alignment, &ptr),
                  UMF_RESULT_SUCCESS)
            << alignment;
        uintptr_t a = reinterpret_cast<uintptr_t>(ptr);
        EXPECT_EQ(a % gran, 0u);
        if (alignment != 0) {
            EXPECT_EQ(a % alignment, 0u) << alignment;
        }
        CUdeviceptr base = 0;
        size_t size = 0;
        ASSERT_EQ(cuda_env()->cuMemGetAddressRange_v2(
                      &base, &size, reinterpret_cast<CUdeviceptr>(ptr)),
                  CUDA_SUCCESS);
        EXPECT_EQ(base, reinterpret_cast<CUdeviceptr>(ptr));
        EXPECT_EQ(size, gran) << "100 bytes map one granule";
        EXPECT_EQ(access_of(0, ptr), CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        size_t page = 0;
        EXPECT_EQ(umfMemoryProviderGetMinPageSize(p, ptr, &page),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(page, gran);
        // The caller holds the 100 bytes it asked for.
        umf_gpu_allocation_properties_t props = {};
        ASSERT_EQ(umfGpuMemoryProviderGetAllocationProperties(p, ptr, &props),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.size, 100u);
        EXPECT_EQ(props.memory_type, UMF_MEMORY_TYPE_DEVICE);
        EXPECT_EQ(umfMemoryProviderFree(p, ptr, 100), UMF_RESULT_SUCCESS);
    }
    void *ptr = nullptr;
    EXPECT_EQ(umfMemoryProviderAlloc(p, 100, size_t{2} << 30, &ptr),
              UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    EXPECT_EQ(umfMemoryProviderAlloc(p, 100, 3 * MiB, &ptr),
              UMF_RESULT_ERROR_INVALID_ALIGNMENT);
    // A size just over a granule maps two.
    ASSERT_EQ(umfMemoryProviderAlloc(p, gran + 1, 0, &ptr), UMF_RESULT_SUCCESS);
    ASSERT_TRUE(cuda_fill(nullptr, ptr, gran + 1, 3));
    EXPECT_TRUE(cuda_check(nullptr, ptr, gran + 1, 3));
    size_t size = 0;
    ASSERT_EQ(cuda_env()->cuMemGetAddressRange_v2(
                  nullptr, &size, reinterpret_cast<CUdeviceptr>(ptr)),
              CUDA_SUCCESS);
    EXPECT_EQ(size, 2 * gran);
    EXPECT_EQ(umfMemoryProviderFree(p, ptr, 0), UMF_RESULT_SUCCESS);
}

TEST_F(CudaVmm, ResidentDevicesGetAccessAndOthersDoNot) {
    if (cuda_device_count() < 2) {
        GTEST_SKIP() << "needs two devices";
    }
    void *ptr = nullptr;
    {
        CudaProvider p(vmm());
        ASSERT_EQ(p.create_result(), UMF_RESULT_SUCCESS);
        ASSERT_EQ(umfMemoryProviderAlloc(p, 4096, 0, &ptr), UMF_RESULT_SUCCESS);
        EXPECT_EQ(access_of(0, ptr), CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        EXPECT_EQ(access_of(1, ptr), CU_MEM_ACCESS_FLAGS_PROT_NONE);
        EXPECT_EQ(umfMemoryProviderFree(p, ptr, 4096), UMF_RESULT_SUCCESS);
    }
    cuda_provider_config cfg = vmm();
    cfg.resident = {1, 0}; // its own device listed too
    CudaProvider p(cfg);
    ASSERT_EQ(p.create_result(), UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAlloc(p, 4096, 0, &ptr), UMF_RESULT_SUCCESS);
    EXPECT_EQ(access_of(0, ptr), CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    EXPECT_EQ(access_of(1, ptr), CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    EXPECT_EQ(umfMemoryProviderFree(p, ptr, 4096), UMF_RESULT_SUCCESS);

    cuda_provider_config far = vmm();
    far.resident = {cuda_device_count()};
    EXPECT_EQ(try_create(far), UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// A churn of allocations of random sizes: every live one holds its data,
// frees in random order, the stats count what was asked.
TEST_F(CudaVmm, ManyAllocationsChurn) {
    CudaProvider p(vmm());
    ASSERT_EQ(p.create_result(), UMF_RESULT_SUCCESS);
    std::mt19937 rng(7);
    struct Live {
        void *ptr;
        size_t size, filled;
        unsigned seed;
    };
    std::vector<Live> live;
    size_t asked = 0;
    for (unsigned i = 0; i < 400; i++) {
        if (!live.empty() && rng() % 3 == 0) {
            size_t k = rng() % live.size();
            EXPECT_TRUE(
                cuda_check(nullptr, live[k].ptr, live[k].filled, live[k].seed));
            ASSERT_EQ(umfMemoryProviderFree(p, live[k].ptr, live[k].size),
                      UMF_RESULT_SUCCESS);
            asked -= live[k].size;
            live[k] = live.back();
            live.pop_back();
            continue;
        }
        size_t size = 1 + rng() % (3 * MiB);
        void *ptr = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(p, size, 0, &ptr), UMF_RESULT_SUCCESS);
        // The first bytes hold data (a whole granule would make the test
        // slow, not stronger).
        size_t filled = size < 8 * KiB ? size : 8 * KiB;
        ASSERT_TRUE(cuda_fill(nullptr, ptr, filled, i));
        live.push_back({ptr, size, filled, i});
        asked += size;
    }
    umf_gpu_provider_stats_t s = {};
    ASSERT_EQ(umfGpuMemoryProviderGetStats(p, &s), UMF_RESULT_SUCCESS);
    EXPECT_EQ(s.allocated_bytes, asked);
    for (const Live &l : live) {
        EXPECT_TRUE(cuda_check(nullptr, l.ptr, l.filled, l.seed));
        ASSERT_EQ(umfMemoryProviderFree(p, l.ptr, 0), UMF_RESULT_SUCCESS);
    }
}

// Split pieces of one mapping free independently; the range is unmapped
// with the last.
TEST_F(CudaVmm, SplitPiecesReleaseTheMappingWithTheLast) {
    CudaProvider p(vmm());
    ASSERT_EQ(p.create_result(), UMF_RESULT_SUCCESS);
    char *ptr = nullptr;
    ASSERT_EQ(
        umfMemoryProviderAlloc(p, 4 * MiB, 0, reinterpret_cast<void **>(&ptr)),
        UMF_RESULT_SUCCESS);
    ASSERT_EQ(umfMemoryProviderAllocationSplit(p, ptr, 4 * MiB, 1 * MiB),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderFree(p, ptr, 1 * MiB), UMF_RESULT_SUCCESS);
    CUdeviceptr base = 0;
    EXPECT_EQ(cuda_env()->cuMemGetAddressRange_v2(
                  &base, nullptr, reinterpret_cast<CUdeviceptr>(ptr + MiB)),
              CUDA_SUCCESS)
        << "still mapped while a piece lives";
    EXPECT_TRUE(cuda_fill(nullptr, ptr + MiB, 3 * MiB, 1));
    EXPECT_EQ(umfMemoryProviderFree(p, ptr + MiB, 3 * MiB), UMF_RESULT_SUCCESS);
    EXPECT_NE(cuda_env()->cuMemGetAddressRange_v2(
                  &base, nullptr, reinterpret_cast<CUdeviceptr>(ptr + MiB)),
              CUDA_SUCCESS)
        << "unmapped with the last piece";
}

// In the producer, the IPC data of a VMM allocation opens to the
// allocation itself; put closes the exported fd (put twice is refused).
TEST_F(CudaVmm, IpcDataInTheProducerAndPut) {
    CudaProvider p(vmm());
    ASSERT_EQ(p.create_result(), UMF_RESULT_SUCCESS);
    void *ptr = nullptr;
    ASSERT_EQ(umfMemoryProviderAlloc(p, 3 * MiB, 0, &ptr), UMF_RESULT_SUCCESS);
    size_t n = 0;
    ASSERT_EQ(umfMemoryProviderGetIPCHandleSize(p, &n), UMF_RESULT_SUCCESS);
    std::vector<unsigned char> data(n);
    char *inner = static_cast<char *>(ptr) + 4096;
    ASSERT_EQ(umfMemoryProviderGetIPCHandle(p, inner, 4096, data.data()),
              UMF_RESULT_SUCCESS);
    void *opened = nullptr;
    ASSERT_EQ(umfMemoryProviderOpenIPCHandle(p, data.data(), &opened),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(opened, inner);
    EXPECT_EQ(umfMemoryProviderCloseIPCHandle(p, opened, 4096),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(p, data.data()),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umfMemoryProviderPutIPCHandle(p, data.data()),
              UMF_RESULT_ERROR_INVALID_ARGUMENT)
        << "the fd was closed by the first put";
    EXPECT_EQ(umfMemoryProviderFree(p, ptr, 0), UMF_RESULT_SUCCESS);
}

} // namespace
