// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a program tells the driver about its memory, read back as cuda.h
// documents it: cuMemAdvise (both versions) and cuMemPrefetchAsync (both
// versions) on managed memory, answered by cuMemRangeGetAttribute(s), and
// cuPointerSetAttribute's CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, answered by
// cuPointerGetAttribute. The CudaManaged cases run unchanged on a real
// libcuda.so.1 whose devices have concurrent managed access (they skip
// otherwise); CudaManagedEmulated checks the emulation's own choices.

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

// CUDA 8's forms: a device ordinal or CU_DEVICE_CPU.
typedef CUresult (*advise_v1_fn)(CUdeviceptr, size_t, CUmem_advise, CUdevice);
typedef CUresult (*prefetch_v1_fn)(CUdeviceptr, size_t, CUdevice, CUstream);

class CudaManaged : public CudaCtxTest {
  protected:
    decltype(&::cuMemAdvise_v2) advise = nullptr;
    advise_v1_fn advise_v1 = nullptr;
    decltype(&::cuMemPrefetchAsync_v2) prefetch = nullptr;
    prefetch_v1_fn prefetch_v1 = nullptr;
    decltype(&::cuMemRangeGetAttribute) range_attr = nullptr;
    decltype(&::cuMemRangeGetAttributes) range_attrs = nullptr;
    decltype(&::cuPointerSetAttribute) set_attr = nullptr;
    size_t page = 4096;
    CUdeviceptr m = 0;
    size_t size = 0;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        int concurrent = 0;
        CU_ASSERT_OK(cu->cuDeviceGetAttribute(
            &concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev));
        if (concurrent == 0) {
            GTEST_SKIP() << "device 0 has no concurrent managed access";
        }
        advise = reinterpret_cast<decltype(advise)>(
            cuda_test_driver_symbol("cuMemAdvise_v2"));
        advise_v1 = reinterpret_cast<advise_v1_fn>(
            cuda_test_driver_symbol("cuMemAdvise"));
        prefetch = reinterpret_cast<decltype(prefetch)>(
            cuda_test_driver_symbol("cuMemPrefetchAsync_v2"));
        prefetch_v1 = reinterpret_cast<prefetch_v1_fn>(
            cuda_test_driver_symbol("cuMemPrefetchAsync"));
        range_attr = reinterpret_cast<decltype(range_attr)>(
            cuda_test_driver_symbol("cuMemRangeGetAttribute"));
        range_attrs = reinterpret_cast<decltype(range_attrs)>(
            cuda_test_driver_symbol("cuMemRangeGetAttributes"));
        set_attr = reinterpret_cast<decltype(set_attr)>(
            cuda_test_driver_symbol("cuPointerSetAttribute"));
        ASSERT_TRUE(advise && advise_v1 && prefetch && prefetch_v1 &&
                    range_attr && range_attrs && set_attr);
        page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        size = 16 * page;
        CU_ASSERT_OK(cu->cuMemAllocManaged(&m, size, CU_MEM_ATTACH_GLOBAL));
    }

    void TearDown() override {
        if (m != 0) {
            EXPECT_EQ(cu->cuMemFree_v2(m), CUDA_SUCCESS);
        }
        CudaCtxTest::TearDown();
    }

    static CUmemLocation Device(int id) {
        CUmemLocation l = {};
        l.type = CU_MEM_LOCATION_TYPE_DEVICE;
        l.id = id;
        return l;
    }
    static CUmemLocation Host() {
        CUmemLocation l = {};
        l.type = CU_MEM_LOCATION_TYPE_HOST;
        return l;
    }

    int Int(CUmem_range_attribute attr, CUdeviceptr p, size_t n) {
        int v = 12345;
        EXPECT_EQ(range_attr(&v, sizeof(v), attr, p, n), CUDA_SUCCESS)
            << "attribute " << attr;
        return v;
    }
    CUmemLocationType Type(CUmem_range_attribute attr, CUdeviceptr p,
                           size_t n) {
        CUmemLocationType t = CU_MEM_LOCATION_TYPE_MAX;
        EXPECT_EQ(range_attr(&t, sizeof(t), attr, p, n), CUDA_SUCCESS)
            << "attribute " << attr;
        return t;
    }
};

TEST_F(CudaManaged, ReadMostlyIsReadBackPerPage) {
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size), 0);
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size), 1);
    // Unset on the first page: the whole range no longer is, the rest is.
    CU_ASSERT_OK(advise(m, page, CU_MEM_ADVISE_UNSET_READ_MOSTLY, Device(0)));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size), 0);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + page, size - page),
              1);
    // Rounded to pages: one byte of the first page is that page.
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + 1, 1), 0);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + page + 7, 9), 1);
}

TEST_F(CudaManaged, PreferredLocation) {
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size),
              CU_DEVICE_INVALID)
        << "no preferred location yet";
    EXPECT_EQ(Type(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, size),
              CU_MEM_LOCATION_TYPE_INVALID);
    CU_ASSERT_OK(
        advise(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, Device(0)));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size), 0);
    EXPECT_EQ(Type(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, size),
              CU_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, size), 0);
    // The second half on the host: the whole range has none in common.
    CU_ASSERT_OK(advise(m + size / 2, size / 2,
                        CU_MEM_ADVISE_SET_PREFERRED_LOCATION, Host()));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size),
              CU_DEVICE_INVALID);
    EXPECT_EQ(
        Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m + size / 2, size / 2),
        CU_DEVICE_CPU);
    EXPECT_EQ(Type(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m + size / 2,
                   size / 2),
              CU_MEM_LOCATION_TYPE_HOST);
    // The legacy form: a device ordinal.
    CU_ASSERT_OK(advise_v1(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                           CU_DEVICE_CPU));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size),
              CU_DEVICE_CPU);
    CU_ASSERT_OK(
        advise(m, size, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, Device(0)));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size),
              CU_DEVICE_INVALID);
}

TEST_F(CudaManaged, AccessedBy) {
    std::vector<int> ids(4, 12345);
    CU_ASSERT_OK(range_attr(ids.data(), ids.size() * sizeof(int),
                            CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, size));
    EXPECT_EQ(ids, std::vector<int>(4, CU_DEVICE_INVALID));
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_ACCESSED_BY, Device(0)));
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_ACCESSED_BY, Host()));
    CU_ASSERT_OK(range_attr(ids.data(), ids.size() * sizeof(int),
                            CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, size));
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (std::vector<int>{CU_DEVICE_INVALID, CU_DEVICE_INVALID,
                                     CU_DEVICE_CPU, 0}));
    // Unset for the host on one page: on the whole range only device 0.
    CU_ASSERT_OK(advise(m, page, CU_MEM_ADVISE_UNSET_ACCESSED_BY, Host()));
    CU_ASSERT_OK(range_attr(ids.data(), ids.size() * sizeof(int),
                            CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, size));
    EXPECT_EQ(ids, (std::vector<int>{0, CU_DEVICE_INVALID, CU_DEVICE_INVALID,
                                     CU_DEVICE_INVALID}));
    // "only as many devices will be returned as can fit"
    int one = 12345;
    CU_ASSERT_OK(range_attr(
        &one, sizeof(one), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m + page, page));
    EXPECT_TRUE(one == 0 || one == CU_DEVICE_CPU);
    // Other location types are invalid for this advice.
    CUmemLocation numa = {};
    numa.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
    EXPECT_EQ(advise(m, size, CU_MEM_ADVISE_SET_ACCESSED_BY, numa),
              CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaManaged, PrefetchSetsTheLastPrefetchLocation) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, size),
              CU_DEVICE_INVALID);
    CU_ASSERT_OK(prefetch(m, size, Device(0), 0, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, size), 0);
    EXPECT_EQ(Type(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, size),
              CU_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, size),
              0);
    CU_ASSERT_OK(prefetch_v1(m, page, CU_DEVICE_CPU, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page),
              CU_DEVICE_CPU);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, size),
              CU_DEVICE_INVALID)
        << "pages prefetched to different locations";
    // The data stays what it was.
    std::vector<unsigned char> v(size, 0x42), back(size);
    CU_ASSERT_OK(cu->cuMemcpyHtoD_v2(m, v.data(), size));
    CU_ASSERT_OK(prefetch(m, size, Host(), 0, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(back.data(), m, size));
    EXPECT_EQ(back, v);
    EXPECT_EQ(prefetch(m, size, Host(), 1, s), CUDA_ERROR_INVALID_VALUE)
        << "flags must be zero";
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaManaged, SeveralAttributesAtOnce) {
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)));
    CU_ASSERT_OK(
        advise(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, Device(0)));
    int read_mostly = 9, preferred = 9;
    CUmemLocationType type = CU_MEM_LOCATION_TYPE_MAX;
    void *data[] = {&read_mostly, &preferred, &type};
    size_t sizes[] = {4, 4, sizeof(type)};
    CUmem_range_attribute attrs[] = {
        CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
        CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
        CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
    CU_ASSERT_OK(range_attrs(data, sizes, attrs, 3, m, size));
    EXPECT_EQ(read_mostly, 1);
    EXPECT_EQ(preferred, 0);
    EXPECT_EQ(type, CU_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(range_attrs(nullptr, sizes, attrs, 3, m, size),
              CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaManaged, Errors) {
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, size));
    EXPECT_EQ(advise(d, size, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)),
              CUDA_ERROR_INVALID_VALUE)
        << "device memory is not managed memory";
    int v;
    EXPECT_EQ(range_attr(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, d, size),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    EXPECT_EQ(advise(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, Device(99)),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(advise(m, size, static_cast<CUmem_advise>(77), Device(0)),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(range_attr(&v, 8, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size),
              CUDA_ERROR_INVALID_VALUE)
        << "dataSize must be 4";
    long long wide[2];
    EXPECT_EQ(
        range_attr(wide, 8, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size),
        CUDA_ERROR_INVALID_VALUE)
        << "dataSize must be 4";
    EXPECT_EQ(range_attr(wide, 8,
                         CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m,
                         size),
              CUDA_ERROR_INVALID_VALUE)
        << "dataSize must be 4";
    EXPECT_EQ(range_attr(wide, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, size),
              CUDA_ERROR_INVALID_VALUE)
        << "dataSize must be a non-zero multiple of 4";
    EXPECT_EQ(range_attr(wide, 0, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, size),
              CUDA_ERROR_INVALID_VALUE)
        << "dataSize must be a non-zero multiple of 4";
    EXPECT_EQ(
        range_attr(&v, 4, static_cast<CUmem_range_attribute>(99), m, size),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        range_attr(nullptr, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size),
        CUDA_ERROR_INVALID_VALUE);
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    EXPECT_EQ(prefetch(m, size, Device(99), 0, s), CUDA_ERROR_INVALID_DEVICE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaManaged, NewMemoryHasNoAdvice) {
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)));
    CU_ASSERT_OK(cu->cuMemFree_v2(m));
    m = 0;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, size, CU_MEM_ATTACH_GLOBAL));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size), 0);
}

TEST_F(CudaManaged, SyncMemopsIsSetAndReadBack) {
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    EXPECT_EQ(cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
              0u);
    unsigned one = 1, zero = 0;
    CU_ASSERT_OK(set_attr(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
    EXPECT_EQ(cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
              1u);
    EXPECT_EQ(
        cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 100),
        1u)
        << "any address of the allocation";
    CU_ASSERT_OK(set_attr(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
    EXPECT_EQ(cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
              0u);
    CU_ASSERT_OK(set_attr(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m));
    EXPECT_EQ(cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m),
              1u);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    EXPECT_EQ(set_attr(nullptr, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m),
              CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// The emulation's own choices

using CudaManagedEmulated = CudaEmulatedOnly<CudaManaged>;

TEST_F(CudaManagedEmulated, ExactCodesAndLocations) {
    std::vector<char> host(4096);
    unsigned one = 1;
    EXPECT_EQ(set_attr(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                       reinterpret_cast<CUdeviceptr>(host.data())),
              CUDA_ERROR_INVALID_VALUE)
        << "not memory of the driver";
    EXPECT_EQ(set_attr(&one, CU_POINTER_ATTRIBUTE_BUFFER_ID, m),
              CUDA_ERROR_INVALID_VALUE)
        << "only SYNC_MEMOPS can be set";
    EXPECT_EQ(advise(m, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)),
              CUDA_ERROR_INVALID_VALUE)
        << "an empty range";
    EXPECT_EQ(advise(m, size + page, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)),
              CUDA_ERROR_INVALID_VALUE)
        << "past the allocation";
    EXPECT_EQ(advise(reinterpret_cast<CUdeviceptr>(host.data()), 4096,
                     CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)),
              CUDA_ERROR_INVALID_VALUE)
        << "no pageable memory access";
    // Host NUMA node 0 is the one node.
    CUmemLocation numa = {};
    numa.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
    numa.id = 0;
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numa));
    EXPECT_EQ(Type(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, size),
              CU_MEM_LOCATION_TYPE_HOST_NUMA);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, size), 0);
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size),
              CU_DEVICE_CPU);
    numa.id = 1;
    EXPECT_EQ(advise(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numa),
              CUDA_ERROR_INVALID_VALUE);
    numa.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
    CU_ASSERT_OK(advise(m, size, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numa));
    EXPECT_EQ(Type(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, size),
              CU_MEM_LOCATION_TYPE_HOST_NUMA);
}

TEST_F(CudaManagedEmulated, RecordsGoWithTheirContext) {
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUdeviceptr mm;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&mm, size, CU_MEM_ATTACH_GLOBAL));
    CU_ASSERT_OK(advise(mm, size, CU_MEM_ADVISE_SET_READ_MOSTLY, Device(0)));
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    // The memory went with it; a new allocation starts without advice.
    CUdeviceptr again;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&again, size, CU_MEM_ATTACH_GLOBAL));
    EXPECT_EQ(Int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, again, size), 0);
    CU_EXPECT_OK(cu->cuMemFree_v2(again));
}

} // namespace
