// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Host memory and what the driver tells about memory: cuMemHostAlloc's
// flags, cuMemHostGetFlags, cuMemHostGetDevicePointer_v2, registration of
// the program's own memory, cuMemAllocPitch_v2, cuPointerGetAttributes on
// every kind of memory, and the stream-ordered allocator (memory pools).
// The CudaHost and CudaPool cases run unchanged on a real libcuda.so.1; the
// *Emulated ones check what only the emulated driver promises.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

using CudaHost = CudaCtxTest;

TEST_F(CudaHost, HostAllocFlagsAndDevicePointer) {
    const unsigned all = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
                         CU_MEMHOSTALLOC_WRITECOMBINED;
    for (unsigned flags :
         {0u, static_cast<unsigned>(CU_MEMHOSTALLOC_PORTABLE),
          static_cast<unsigned>(CU_MEMHOSTALLOC_DEVICEMAP), all}) {
        void *p = nullptr;
        CU_ASSERT_OK(cu->cuMemHostAlloc(&p, 10000, flags)) << flags;
        unsigned got = 0;
        CU_ASSERT_OK(cu->cuMemHostGetFlags(&got, p));
        EXPECT_EQ(got & flags, flags) << "the flags asked for";
        CU_ASSERT_OK(cu->cuMemHostGetFlags(&got, static_cast<char *>(p) + 99))
            << "any address of the allocation";
        if ((flags & CU_MEMHOSTALLOC_DEVICEMAP) != 0) {
            CUdeviceptr d = 0;
            CU_ASSERT_OK(cu->cuMemHostGetDevicePointer_v2(&d, p, 0));
            EXPECT_NE(d, 0u);
            // The device pointer is device-accessible memory of 10000 bytes.
            CU_ASSERT_OK(cu->cuMemsetD8_v2(d, 0x61, 10000));
            unsigned char back = 0;
            CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(&back, d + 9999, 1));
            EXPECT_EQ(back, 0x61);
            EXPECT_EQ(cu->cuMemHostGetDevicePointer_v2(&d, p, 1),
                      CUDA_ERROR_INVALID_VALUE)
                << "Flags must be 0";
            EXPECT_EQ(cu->cuMemHostGetDevicePointer_v2(nullptr, p, 0),
                      CUDA_ERROR_INVALID_VALUE);
        }
        CU_EXPECT_OK(cu->cuMemFreeHost(p));
    }
    void *p;
    EXPECT_EQ(cu->cuMemHostAlloc(&p, 64, 0x100), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemHostAlloc(nullptr, 64, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaHost, HostQueriesRefuseOtherMemory) {
    std::vector<char> pageable(4096);
    unsigned flags;
    EXPECT_EQ(cu->cuMemHostGetFlags(&flags, pageable.data()),
              CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    EXPECT_EQ(cu->cuMemHostGetFlags(&flags, (void *)(uintptr_t)d),
              CUDA_ERROR_INVALID_VALUE)
        << "device memory";
    CUdeviceptr dp;
    EXPECT_EQ(cu->cuMemHostGetDevicePointer_v2(&dp, pageable.data(), 0),
              CUDA_ERROR_INVALID_VALUE);
    void *h;
    CU_ASSERT_OK(cu->cuMemHostAlloc(&h, 64, 0));
    EXPECT_EQ(cu->cuMemHostGetFlags(nullptr, h), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFreeHost(h));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
}

TEST_F(CudaHost, RegisterUnregisterUserMemory) {
    const size_t size = 3 * 4096 + 100;
    // Not page-aligned on purpose.
    std::vector<unsigned char> buf(size + 64);
    unsigned char *p = buf.data() + 17;
    for (size_t i = 0; i < size; i++) {
        p[i] = static_cast<unsigned char>(i);
    }
    CU_ASSERT_OK(cu->cuMemHostRegister_v2(
        p, size, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP));
    unsigned flags = 0;
    CU_ASSERT_OK(cu->cuMemHostGetFlags(&flags, p + 5));
    CUdeviceptr d = 0;
    CU_ASSERT_OK(cu->cuMemHostGetDevicePointer_v2(&d, p, 0));
    CUdeviceptr dev;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&dev, size));
    CU_ASSERT_OK(cu->cuMemcpyDtoD_v2(dev, d, size));
    std::vector<unsigned char> back(size);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(back.data(), dev, size));
    EXPECT_EQ(std::memcmp(back.data(), p, size), 0);
    unsigned type = 0;
    CU_EXPECT_OK(
        cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
    EXPECT_EQ(type, static_cast<unsigned>(CU_MEMORYTYPE_HOST));
    // Registered twice: refused, and the first stays.
    EXPECT_EQ(cu->cuMemHostRegister_v2(p + 4096, 100, 0),
              CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    EXPECT_EQ(cu->cuMemHostUnregister(p + 1),
              CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)
        << "the base address only";
    CU_EXPECT_OK(cu->cuMemHostUnregister(p));
    EXPECT_EQ(cu->cuMemHostUnregister(p),
              CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    EXPECT_EQ(cu->cuMemHostGetFlags(&flags, p), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(dev));
}

TEST_F(CudaHost, RegisterErrors) {
    std::vector<char> buf(8192);
    EXPECT_EQ(cu->cuMemHostRegister_v2(nullptr, 4096, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemHostRegister_v2(buf.data(), 0, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemHostRegister_v2(buf.data(), 4096, 0x100),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemHostUnregister(nullptr), CUDA_ERROR_INVALID_VALUE);
    // Memory that cuMemHostAlloc pinned already.
    void *h;
    CU_ASSERT_OK(cu->cuMemHostAlloc(&h, 4096, 0));
    EXPECT_NE(cu->cuMemHostRegister_v2(h, 4096, 0), CUDA_SUCCESS);
    CU_EXPECT_OK(cu->cuMemFreeHost(h));
}

TEST_F(CudaHost, AllocPitch) {
    CUdeviceptr p = 0;
    size_t pitch = 0;
    CU_ASSERT_OK(cu->cuMemAllocPitch_v2(&p, &pitch, 100, 7, 4));
    EXPECT_GE(pitch, 100u);
    // Rows aligned at least as textures need.
    int align = 0;
    CU_ASSERT_OK(cu->cuDeviceGetAttribute(
        &align, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, dev));
    EXPECT_EQ(pitch % static_cast<size_t>(align), 0u);
    size_t size = 0;
    CUdeviceptr base = 0;
    CU_ASSERT_OK(cu->cuMemGetAddressRange_v2(&base, &size, p));
    EXPECT_EQ(base, p);
    EXPECT_GE(size, pitch * 7);
    // The pitch works with a 2D fill of every row.
    CU_EXPECT_OK(cu->cuMemsetD2D32_v2(p, pitch, 1, 25, 7));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_EQ(cu->cuMemAllocPitch_v2(nullptr, &pitch, 100, 7, 4),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocPitch_v2(&p, nullptr, 100, 7, 4),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocPitch_v2(&p, &pitch, 100, 7, 3),
              CUDA_ERROR_INVALID_VALUE)
        << "ElementSizeBytes may be 4, 8 or 16";
    EXPECT_EQ(cu->cuMemAllocPitch_v2(&p, &pitch, 0, 7, 4),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocPitch_v2(&p, &pitch, 100, 0, 4),
              CUDA_ERROR_INVALID_VALUE);
}

// Several attributes in one call, as NCCL and UCX ask them.
TEST_F(CudaHost, PointerGetAttributesManyAtOnce) {
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 5000));
    CUpointer_attribute attrs[] = {
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
        CU_POINTER_ATTRIBUTE_CONTEXT,     CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_BUFFER_ID,   CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
        CU_POINTER_ATTRIBUTE_RANGE_SIZE,  CU_POINTER_ATTRIBUTE_MAPPED,
    };
    unsigned type = 0;
    int ordinal = -1;
    CUcontext c = nullptr;
    int managed = -1;
    unsigned long long id = 0;
    CUdeviceptr start = 0;
    size_t range = 0;
    int mapped = 0;
    void *data[] = {&type, &ordinal, &c,     &managed,
                    &id,   &start,   &range, &mapped};
    CU_ASSERT_OK(cu->cuPointerGetAttributes(8, attrs, data, d + 100));
    EXPECT_EQ(type, static_cast<unsigned>(CU_MEMORYTYPE_DEVICE));
    EXPECT_EQ(ordinal, dev);
    EXPECT_EQ(c, ctx);
    EXPECT_EQ(managed, 0);
    EXPECT_NE(id, 0u);
    EXPECT_EQ(start, d);
    EXPECT_EQ(range, 5000u);
    EXPECT_EQ(mapped, 1);
    // Pageable host memory: no error, and nothing known.
    std::vector<char> host(64);
    type = 99;
    c = ctx;
    CU_ASSERT_OK(cu->cuPointerGetAttributes(
        8, attrs, data, (CUdeviceptr)(uintptr_t)host.data()));
    EXPECT_EQ(type, 0u);
    EXPECT_EQ(c, nullptr);
    EXPECT_EQ(cu->cuPointerGetAttributes(0, attrs, data, d),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuPointerGetAttributes(8, nullptr, data, d),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuPointerGetAttributes(8, attrs, nullptr, d),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
}

// ---------------------------------------------------------------------------
// The stream-ordered allocator

class CudaPool : public CudaCtxTest {
  protected:
    CUmemoryPool pool_of(int device) {
        CUmemoryPool p = nullptr;
        EXPECT_EQ(cu->cuDeviceGetDefaultMemPool(&p, device), CUDA_SUCCESS);
        return p;
    }

    cuuint64_t attr(CUmemoryPool p, CUmemPool_attribute a) {
        cuuint64_t v = 0;
        EXPECT_EQ(cu->cuMemPoolGetAttribute(p, a, &v), CUDA_SUCCESS);
        return v;
    }
};

TEST_F(CudaPool, AllocAsyncFreeAsyncOnAStream) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAllocAsync(&p, 100000, s));
    EXPECT_NE(p, 0u);
    CU_ASSERT_OK(cu->cuMemsetD8Async(p, 0x42, 100000, s));
    unsigned char back = 0;
    CU_ASSERT_OK(cu->cuMemcpyDtoHAsync_v2(&back, p + 99999, 1, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(back, 0x42);
    CUmemoryPool handle = nullptr;
    CU_EXPECT_OK(cu->cuPointerGetAttribute(
        &handle, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p));
    EXPECT_EQ(handle, pool_of(dev));
    CU_ASSERT_OK(cu->cuMemFreeAsync(p, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    // On the default stream.
    CU_ASSERT_OK(cu->cuMemAllocAsync(&p, 64, nullptr));
    CU_ASSERT_OK(cu->cuMemFreeAsync(p, nullptr));
    CU_ASSERT_OK(cu->cuStreamSynchronize(nullptr));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaPool, AllocAsyncErrors) {
    CUdeviceptr p;
    EXPECT_EQ(cu->cuMemAllocAsync(nullptr, 64, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    // "default stream specified with no current context"
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(cu->cuMemAllocAsync(&p, 64, nullptr), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuMemFreeAsync(0x1000, nullptr), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(top));
}

TEST_F(CudaPool, DefaultPoolAttributes) {
    CUmemoryPool p = pool_of(dev);
    ASSERT_NE(p, nullptr);
    CUmemoryPool again = nullptr;
    CU_ASSERT_OK(cu->cuDeviceGetDefaultMemPool(&again, dev));
    EXPECT_EQ(again, p);
    CUmemoryPool current = nullptr;
    CU_ASSERT_OK(cu->cuDeviceGetMemPool(&current, dev));
    EXPECT_EQ(current, p) << "the default pool is current at first";
    int on = -1;
    CU_ASSERT_OK(cu->cuMemPoolGetAttribute(
        p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &on));
    EXPECT_EQ(on, 1) << "default enabled";
    cuuint64_t old = attr(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);
    cuuint64_t big = UINT64_MAX;
    CU_ASSERT_OK(
        cu->cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &big));
    EXPECT_EQ(attr(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD), big);
    CU_ASSERT_OK(
        cu->cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &old));
    // Used memory counts what is allocated.
    CUdeviceptr a;
    cuuint64_t used = attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
    CU_ASSERT_OK(cu->cuMemAllocAsync(&a, 1 << 20, nullptr));
    CU_ASSERT_OK(cu->cuStreamSynchronize(nullptr));
    EXPECT_GE(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), used + (1 << 20));
    EXPECT_GE(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 1u << 20);
    EXPECT_GE(attr(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH), used + (1 << 20));
    CU_ASSERT_OK(cu->cuMemFreeAsync(a, nullptr));
    CU_ASSERT_OK(cu->cuStreamSynchronize(nullptr));
    // The high watermarks may only be reset to zero.
    cuuint64_t zero = 0, one = 1;
    CU_EXPECT_OK(
        cu->cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero));
    EXPECT_EQ(cu->cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &one),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemPoolTrimTo(p, 0));
}

TEST_F(CudaPool, CreatedPoolAllocFromPoolDestroy) {
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = dev;
    CUmemoryPool pool = nullptr;
    CU_ASSERT_OK(cu->cuMemPoolCreate(&pool, &props));
    EXPECT_NE(pool, pool_of(dev));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUdeviceptr a = 0, b = 0;
    CU_ASSERT_OK(cu->cuMemAllocFromPoolAsync(&a, 4096, pool, s));
    CU_ASSERT_OK(cu->cuMemAllocFromPoolAsync(&b, 8192, pool, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_GE(attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 4096u + 8192u);
    // Made current, cuMemAllocAsync allocates from it.
    CU_ASSERT_OK(cu->cuDeviceSetMemPool(dev, pool));
    CUdeviceptr c = 0;
    CU_ASSERT_OK(cu->cuMemAllocAsync(&c, 64, s));
    CUmemoryPool owner = nullptr;
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CU_EXPECT_OK(cu->cuPointerGetAttribute(
        &owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, c));
    EXPECT_EQ(owner, pool);
    CU_ASSERT_OK(cu->cuMemFreeAsync(c, s));
    CU_ASSERT_OK(cu->cuMemFreeAsync(a, s));
    // Destroyed with an allocation outstanding: released once it is freed;
    // the device's current pool is the default one again.
    CU_ASSERT_OK(cu->cuMemPoolDestroy(pool));
    CUmemoryPool current = nullptr;
    CU_ASSERT_OK(cu->cuDeviceGetMemPool(&current, dev));
    EXPECT_EQ(current, pool_of(dev));
    CU_ASSERT_OK(cu->cuMemFreeAsync(b, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaPool, PoolErrors) {
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = dev;
    CUmemoryPool pool;
    EXPECT_EQ(cu->cuMemPoolCreate(nullptr, &props), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemPoolCreate(&pool, nullptr), CUDA_ERROR_INVALID_VALUE);
    props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
    EXPECT_EQ(cu->cuMemPoolCreate(&pool, &props), CUDA_ERROR_INVALID_VALUE);
    CUmemoryPool def = pool_of(dev);
    cuuint64_t v;
    EXPECT_EQ(cu->cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                        nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemPoolGetAttribute(
                  def, static_cast<CUmemPool_attribute>(0x7fffffff), &v),
              CUDA_ERROR_INVALID_VALUE);
    // The current amounts are read-only.
    v = 0;
    EXPECT_EQ(cu->cuMemPoolSetAttribute(
                  def, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetDefaultMemPool(nullptr, dev),
              CUDA_ERROR_INVALID_VALUE);
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    EXPECT_EQ(cu->cuDeviceGetDefaultMemPool(&pool, count),
              CUDA_ERROR_INVALID_DEVICE);
}

// ---------------------------------------------------------------------------
// The emulated driver's own promises

using CudaHostEmulated = CudaEmulatedOnly<CudaCtxTest>;

TEST_F(CudaHostEmulated, RegistrationsGoWithTheirContextAndLeak) {
    std::vector<char> buf(4096);
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CU_ASSERT_OK(cu->cuMemHostRegister_v2(buf.data(), buf.size(), 0));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("host registration"), 1);
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("host registration"), 0);
    EXPECT_EQ(cu->cuMemHostUnregister(buf.data()),
              CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

TEST_F(CudaHostEmulated, ExactCodesWhereCudaHNamesNone) {
    // Unmapped memory.
    void *gone = mmap(nullptr, 8192, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(gone, MAP_FAILED);
    ASSERT_EQ(munmap(gone, 8192), 0);
    EXPECT_EQ(cu->cuMemHostRegister_v2(gone, 100, 0), CUDA_ERROR_INVALID_VALUE);
    std::vector<char> buf(4096);
    EXPECT_EQ(cu->cuMemHostRegister_v2(buf.data(), buf.size(),
                                       CU_MEMHOSTREGISTER_IOMEMORY),
              CUDA_ERROR_NOT_SUPPORTED);
    void *h;
    CU_ASSERT_OK(cu->cuMemHostAlloc(&h, 4096, 0));
    EXPECT_EQ(cu->cuMemHostRegister_v2(h, 4096, 0),
              CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CU_EXPECT_OK(cu->cuMemFreeHost(h));
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    EXPECT_EQ(cu->cuMemHostRegister_v2((void *)(uintptr_t)d, 4096, 0),
              CUDA_ERROR_INVALID_VALUE);
    // cuMemFreeAsync takes stream-ordered memory only.
    EXPECT_EQ(cu->cuMemFreeAsync(d, nullptr), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    // Stream-ordered memory may go with cuMemFree_v2; a second free of it
    // is an error.
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAllocAsync(&a, 64, nullptr));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    EXPECT_EQ(cu->cuMemFreeAsync(a, nullptr), CUDA_ERROR_INVALID_VALUE);
    // A pool for IPC is not emulated; neither is a host pool.
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = dev;
    props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemoryPool pool;
    EXPECT_EQ(cu->cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_HOST;
    EXPECT_EQ(cu->cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
    // The default pool stays; a destroyed pool is no pool.
    CUmemoryPool def;
    CU_ASSERT_OK(cu->cuDeviceGetDefaultMemPool(&def, dev));
    EXPECT_EQ(cu->cuMemPoolDestroy(def), CUDA_ERROR_INVALID_VALUE);
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    CU_ASSERT_OK(cu->cuMemPoolCreate(&pool, &props));
    CU_ASSERT_OK(cu->cuMemPoolDestroy(pool));
    EXPECT_EQ(cu->cuMemPoolDestroy(pool), CUDA_ERROR_INVALID_VALUE);
    cuuint64_t v;
    EXPECT_EQ(
        cu->cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocFromPoolAsync(&a, 64, pool, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    // IPC of stream-ordered memory goes through its pool, not the legacy
    // handle.
    CU_ASSERT_OK(cu->cuMemAllocAsync(&a, 4096, nullptr));
    CUipcMemHandle ipc;
    EXPECT_EQ(cu->cuIpcGetMemHandle(&ipc, a), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFreeAsync(a, nullptr));
}

TEST_F(CudaHostEmulated, PoolMaxSizeAndFaultRules) {
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = dev;
    props.maxSize = 1 << 20;
    CUmemoryPool pool;
    CU_ASSERT_OK(cu->cuMemPoolCreate(&pool, &props));
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAllocFromPoolAsync(&a, 1 << 19, pool, nullptr));
    EXPECT_EQ(cu->cuMemAllocFromPoolAsync(&b, (1 << 19) + 4096, pool, nullptr),
              CUDA_ERROR_OUT_OF_MEMORY);
    ASSERT_EQ(cu->umfCudaMockInjectFaults(
                  "cuMemAllocAsync:1=CUDA_ERROR_OUT_OF_MEMORY;"
                  "cuMemHostRegister_v2:1=CUDA_ERROR_NOT_PERMITTED"),
              0);
    EXPECT_EQ(cu->cuMemAllocAsync(&b, 64, nullptr), CUDA_ERROR_OUT_OF_MEMORY);
    std::vector<char> buf(64);
    EXPECT_EQ(cu->cuMemHostRegister_v2(buf.data(), 64, 0),
              CUDA_ERROR_NOT_PERMITTED);
    cu->umfCudaMockClearFaults();
    CU_EXPECT_OK(cu->cuMemFreeAsync(a, nullptr));
    CU_EXPECT_OK(cu->cuMemPoolDestroy(pool));
}

UMF_TEST_CHILD(pool_leaker) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext c;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&c, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(c));
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    CUmemoryPool pool;
    CHILD_CU(cu->cuMemPoolCreate(&pool, &props));
    CUstream s;
    CHILD_CU(cu->cuStreamCreate(&s, 0));
    CUevent e;
    CHILD_CU(cu->cuEventCreate(&e, 0));
    static char buf[4096];
    CHILD_CU(cu->cuMemHostRegister_v2(buf, sizeof(buf), 0));
    return 0; // all left alive
}

TEST_F(CudaHostEmulated, LeakReportListsStreamsEventsPoolsRegistrations) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child(
        "pool_leaker", {"UMF_GPU_MOCK_LEAKS=strict"}, &status, &out));
    EXPECT_EQ(status, 86) << out;
    for (const char *what :
         {"stream 0x", "event 0x", "memory pool 0x", "host registration 0x"}) {
        EXPECT_NE(out.find(what), std::string::npos) << what << "\n" << out;
    }
}

} // namespace
