// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Virtual memory management as cuda.h documents it and as NCCL and
// PyTorch's expandable segments use it: cuMemCreate handles and their
// properties, reservations, cuMemMap into them, per-device access, copies
// that span adjacent mappings, releasing a handle that is still mapped,
// cuMemRetainAllocationHandle, and sharing a handle with another process as
// a POSIX file descriptor passed over a Unix socket (SCM_RIGHTS). The
// CudaVmm cases run unchanged on a real libcuda.so.1; CudaVmmEmulated checks
// what only the emulated driver promises (exact codes where cuda.h names
// none, the leak report, live counts, fault rules).

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

CUmemAllocationProp device_prop(int device, bool posix_fd) {
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = posix_fd
                                    ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
                                    : CU_MEM_HANDLE_TYPE_NONE;
    return prop;
}

CUmemAccessDesc access_desc(int device, CUmemAccess_flags flags) {
    CUmemAccessDesc d = {};
    d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = device;
    d.flags = flags;
    return d;
}

class CudaVmm : public CudaCtxTest {
  protected:
    size_t gran = 0;
    int count = 0;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
        CUmemAllocationProp prop = device_prop(0, false);
        CU_ASSERT_OK(cu->cuMemGetAllocationGranularity(
            &gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        ASSERT_GT(gran, 0u);
    }

    // A handle of `n` granules on device 0.
    CUmemGenericAllocationHandle create(size_t n, bool posix_fd = false) {
        CUmemAllocationProp prop = device_prop(0, posix_fd);
        CUmemGenericAllocationHandle h = 0;
        EXPECT_EQ(cu->cuMemCreate(&h, n * gran, &prop, 0), CUDA_SUCCESS);
        return h;
    }

    // The same, exportable as a fabric handle.
    CUmemGenericAllocationHandle create_fabric(size_t n) {
        CUmemAllocationProp prop = device_prop(0, false);
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
        CUmemGenericAllocationHandle h = 0;
        EXPECT_EQ(cu->cuMemCreate(&h, n * gran, &prop, 0), CUDA_SUCCESS);
        return h;
    }

    CUdeviceptr reserve(size_t n) {
        CUdeviceptr p = 0;
        EXPECT_EQ(cu->cuMemAddressReserve(&p, n * gran, 0, 0, 0), CUDA_SUCCESS);
        return p;
    }

    CUresult allow(CUdeviceptr p, size_t size, int device,
                   CUmemAccess_flags flags) {
        CUmemAccessDesc d = access_desc(device, flags);
        return cu->cuMemSetAccess(p, size, &d, 1);
    }
};

// ---------------------------------------------------------------------------
// Handles

TEST_F(CudaVmm, CreateAndGetProperties) {
    CUmemAllocationProp prop = device_prop(0, true);
    prop.allocFlags.gpuDirectRDMACapable = 0;
    CUmemGenericAllocationHandle h = 0;
    CU_ASSERT_OK(cu->cuMemCreate(&h, 2 * gran, &prop, 0));
    EXPECT_NE(h, 0u);
    CUmemAllocationProp got;
    std::memset(&got, 0xff, sizeof(got));
    CU_ASSERT_OK(cu->cuMemGetAllocationPropertiesFromHandle(&got, h));
    EXPECT_EQ(got.type, CU_MEM_ALLOCATION_TYPE_PINNED);
    EXPECT_EQ(got.location.type, CU_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(got.location.id, 0);
    EXPECT_NE(
        got.requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    EXPECT_EQ(cu->cuMemGetAllocationPropertiesFromHandle(nullptr, h),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemRelease(h));
}

TEST_F(CudaVmm, CreateErrors) {
    CUmemAllocationProp prop = device_prop(0, false);
    CUmemGenericAllocationHandle h;
    EXPECT_EQ(cu->cuMemCreate(nullptr, gran, &prop, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemCreate(&h, gran, nullptr, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemCreate(&h, gran, &prop, 1), CUDA_ERROR_INVALID_VALUE)
        << "flags must be zero";
    EXPECT_EQ(cu->cuMemCreate(&h, 0, &prop, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemCreate(&h, gran + 4096, &prop, 0),
              CUDA_ERROR_INVALID_VALUE)
        << "not a multiple of the granularity";
    prop.type = CU_MEM_ALLOCATION_TYPE_INVALID;
    EXPECT_EQ(cu->cuMemCreate(&h, gran, &prop, 0), CUDA_ERROR_INVALID_VALUE);
    prop = device_prop(count, false);
    EXPECT_EQ(cu->cuMemCreate(&h, gran, &prop, 0), CUDA_ERROR_INVALID_DEVICE);
    // A granularity query for a device that does not exist.
    size_t g;
    EXPECT_NE(cu->cuMemGetAllocationGranularity(
                  &g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
              CUDA_SUCCESS);
}

// ---------------------------------------------------------------------------
// Reservations and mappings

TEST_F(CudaVmm, ReserveIsAlignedAndFreedBySizeAndBase) {
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAddressReserve(&p, 4 * gran, 0, 0, 0));
    EXPECT_EQ(p % gran, 0u);
    EXPECT_EQ(cu->cuMemAddressFree(p, 2 * gran), CUDA_ERROR_INVALID_VALUE)
        << "the size must match the reservation's";
    CU_EXPECT_OK(cu->cuMemAddressFree(p, 4 * gran));
    // An alignment larger than the granularity is honoured.
    CU_ASSERT_OK(cu->cuMemAddressReserve(&p, gran, 8 * gran, 0, 0));
    EXPECT_EQ(p % (8 * gran), 0u);
    CU_EXPECT_OK(cu->cuMemAddressFree(p, gran));
}

TEST_F(CudaVmm, ReserveErrors) {
    CUdeviceptr p;
    EXPECT_EQ(cu->cuMemAddressReserve(nullptr, gran, 0, 0, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAddressReserve(&p, 0, 0, 0, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAddressReserve(&p, gran, 0, 0, 1),
              CUDA_ERROR_INVALID_VALUE)
        << "flags must be zero";
    EXPECT_EQ(cu->cuMemAddressReserve(&p, gran, 3 * gran, 0, 0),
              CUDA_ERROR_INVALID_VALUE)
        << "the alignment must be a power of two";
}

TEST_F(CudaVmm, MapSetAccessCopyAcrossMappingsUnmap) {
    // Two handles mapped back to back, as a growing segment is.
    CUdeviceptr base = reserve(4);
    CUmemGenericAllocationHandle a = create(1), b = create(1);
    CU_ASSERT_OK(cu->cuMemMap(base, gran, 0, a, 0));
    CU_ASSERT_OK(cu->cuMemMap(base + gran, gran, 0, b, 0));
    CU_ASSERT_OK(allow(base, 2 * gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));

    // One copy over the boundary of the two mappings.
    size_t span = 64 << 10;
    CUdeviceptr at = base + gran - span / 2;
    CU_ASSERT_OK(cuda_test_write_pattern(cu, at, span, 3));
    EXPECT_TRUE(cuda_test_check_pattern(cu, at, span, 3));
    // Device to device, from one mapping into the other.
    CU_ASSERT_OK(cu->cuMemcpyDtoD_v2(base, base + gran, 4096));
    std::vector<unsigned char> first(4096), second(4096);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(first.data(), base, 4096));
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(second.data(), base + gran, 4096));
    EXPECT_EQ(first, second);
    // A fill.
    CU_ASSERT_OK(cu->cuMemsetD8_v2(base + gran, 0x5c, 100));
    unsigned char byte = 0;
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(&byte, base + gran + 99, 1));
    EXPECT_EQ(byte, 0x5c);

    unsigned long long flags = 99;
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    CU_ASSERT_OK(cu->cuMemGetAccess(&flags, &loc, base + 17));
    EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    if (count > 1) {
        loc.id = 1;
        CU_ASSERT_OK(cu->cuMemGetAccess(&flags, &loc, base + 17));
        EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_NONE)
            << "access was given to device 0 only";
    }

    CU_EXPECT_OK(cu->cuMemUnmap(base, gran));
    CU_EXPECT_OK(cu->cuMemUnmap(base + gran, gran));
    CU_EXPECT_OK(cu->cuMemRelease(a));
    CU_EXPECT_OK(cu->cuMemRelease(b));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, 4 * gran));
}

TEST_F(CudaVmm, MappedAgainStartsWithoutAccessAndKeepsTheData) {
    CUdeviceptr base = reserve(2);
    CUmemGenericAllocationHandle h = create(1);
    CU_ASSERT_OK(cu->cuMemMap(base, gran, 0, h, 0));
    CU_ASSERT_OK(allow(base, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(cuda_test_write_pattern(cu, base, 8192, 7));
    CU_ASSERT_OK(cu->cuMemUnmap(base, gran));
    // Elsewhere in the reservation.
    CU_ASSERT_OK(cu->cuMemMap(base + gran, gran, 0, h, 0));
    unsigned long long flags = 99;
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    CU_ASSERT_OK(cu->cuMemGetAccess(&flags, &loc, base + gran));
    EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_NONE);
    CU_ASSERT_OK(allow(base + gran, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READ));
    EXPECT_TRUE(cuda_test_check_pattern(cu, base + gran, 8192, 7));
    CU_EXPECT_OK(cu->cuMemUnmap(base + gran, gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, 2 * gran));
}

TEST_F(CudaVmm, MapErrors) {
    CUdeviceptr base = reserve(2);
    CUmemGenericAllocationHandle h = create(1);
    EXPECT_EQ(cu->cuMemMap(base + 4096, gran, 0, h, 0),
              CUDA_ERROR_INVALID_VALUE)
        << "an address that is not a multiple of the granularity";
    EXPECT_EQ(cu->cuMemMap(base, gran / 2, 0, h, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemMap(base, gran, 0, h, 1), CUDA_ERROR_INVALID_VALUE)
        << "flags must be zero";
    EXPECT_NE(cu->cuMemMap(base, 2 * gran, 0, h, 0), CUDA_SUCCESS)
        << "larger than the allocation";
    CU_ASSERT_OK(cu->cuMemMap(base, gran, 0, h, 0));
    EXPECT_NE(cu->cuMemMap(base, gran, 0, h, 0), CUDA_SUCCESS)
        << "cuMemMap can only map ranges that are not mapped";
    // cuMemSetAccess wants a mapped range, cuMemGetAccess a mapped address.
    EXPECT_NE(allow(base, 2 * gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
              CUDA_SUCCESS);
    EXPECT_EQ(cu->cuMemSetAccess(base, gran, nullptr, 1),
              CUDA_ERROR_INVALID_VALUE);
    CUmemAccessDesc d = access_desc(count, CU_MEM_ACCESS_FLAGS_PROT_READ);
    EXPECT_EQ(cu->cuMemSetAccess(base, gran, &d, 1), CUDA_ERROR_INVALID_DEVICE);
    unsigned long long flags;
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    EXPECT_EQ(cu->cuMemGetAccess(nullptr, &loc, base),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemGetAccess(&flags, nullptr, base),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_NE(cu->cuMemGetAccess(&flags, &loc, base + gran), CUDA_SUCCESS)
        << "not mapped";
    CU_EXPECT_OK(cu->cuMemUnmap(base, gran));
    EXPECT_NE(cu->cuMemUnmap(base, gran), CUDA_SUCCESS) << "not mapped now";
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, 2 * gran));
}

TEST_F(CudaVmm, UnmapTakesWholeMappingsOnly) {
    CUdeviceptr base = reserve(2);
    CUmemGenericAllocationHandle h = create(2);
    CU_ASSERT_OK(cu->cuMemMap(base, 2 * gran, 0, h, 0));
    EXPECT_NE(cu->cuMemUnmap(base, gran), CUDA_SUCCESS)
        << "cuMemUnmap cannot unmap a sub-range";
    CU_EXPECT_OK(cu->cuMemUnmap(base, 2 * gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, 2 * gran));
}

TEST_F(CudaVmm, ReleasedHandleStaysMappedAndRetainGivesItBack) {
    CUdeviceptr base = reserve(1);
    CUmemGenericAllocationHandle h = create(1);
    CU_ASSERT_OK(cu->cuMemMap(base, gran, 0, h, 0));
    CU_ASSERT_OK(allow(base, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(cuda_test_write_pattern(cu, base, 4096, 11));
    // "The generic memory handle can be freed when there are still
    // outstanding mappings made with this handle."
    CU_ASSERT_OK(cu->cuMemRelease(h));
    EXPECT_TRUE(cuda_test_check_pattern(cu, base, 4096, 11));
    // "The handle is guaranteed to be the same handle value used to map the
    // memory", for any address of the mapping.
    CUmemGenericAllocationHandle back = 0;
    CU_ASSERT_OK(
        cu->cuMemRetainAllocationHandle(&back, (void *)(base + gran / 2)));
    EXPECT_EQ(back, h);
    CUmemAllocationProp prop;
    CU_EXPECT_OK(cu->cuMemGetAllocationPropertiesFromHandle(&prop, back));
    EXPECT_EQ(cu->cuMemRetainAllocationHandle(nullptr, (void *)base),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemRelease(back));
    CU_EXPECT_OK(cu->cuMemUnmap(base, gran));
    EXPECT_NE(cu->cuMemRetainAllocationHandle(&back, (void *)base),
              CUDA_SUCCESS)
        << "nothing is mapped there now";
    CU_EXPECT_OK(cu->cuMemAddressFree(base, gran));
}

TEST_F(CudaVmm, PointerQueriesOfMappedMemory) {
    CUdeviceptr base = reserve(2);
    CUmemGenericAllocationHandle h = create(2);
    CU_ASSERT_OK(cu->cuMemMap(base, 2 * gran, 0, h, 0));
    CU_ASSERT_OK(allow(base, 2 * gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CUdeviceptr range_base = 0;
    size_t range_size = 0;
    CU_ASSERT_OK(
        cu->cuMemGetAddressRange_v2(&range_base, &range_size, base + 100));
    EXPECT_EQ(range_base, base);
    EXPECT_EQ(range_size, 2 * gran);
    EXPECT_EQ(cuda_test_attr<unsigned int>(cu, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                           base + 100),
              static_cast<unsigned>(CU_MEMORYTYPE_DEVICE));
    EXPECT_EQ(cuda_test_attr<int>(cu, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                  base + gran),
              0);
    EXPECT_EQ(cuda_test_attr<CUdeviceptr>(
                  cu, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, base + gran),
              base);
    EXPECT_EQ(cuda_test_attr<size_t>(cu, CU_POINTER_ATTRIBUTE_MAPPING_SIZE,
                                     base + gran),
              2 * gran);
    EXPECT_EQ(cuda_test_attr<int>(
                  cu, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, base),
              0)
        << "VMM memory is shared through its handle, not cuIpcGetMemHandle";
    // Not cuMemAlloc memory: cuMemFree refuses it.
    EXPECT_NE(cu->cuMemFree_v2(base), CUDA_SUCCESS);
    CU_EXPECT_OK(cu->cuMemUnmap(base, 2 * gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, 2 * gran));
}

// ---------------------------------------------------------------------------
// Sharing as a POSIX file descriptor

TEST_F(CudaVmm, ExportNeedsTheRequestedHandleType) {
    CUmemGenericAllocationHandle h = create(1, false);
    int fd = -1;
    EXPECT_NE(cu->cuMemExportToShareableHandle(
                  &fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
              CUDA_SUCCESS);
    CU_EXPECT_OK(cu->cuMemRelease(h));
    h = create(1, true);
    EXPECT_EQ(cu->cuMemExportToShareableHandle(
                  nullptr, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemExportToShareableHandle(
                  &fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1),
              CUDA_ERROR_INVALID_VALUE)
        << "flags must be zero";
    CU_EXPECT_OK(cu->cuMemRelease(h));
}

TEST_F(CudaVmm, ImportInTheSameProcessSharesTheMemory) {
    CUmemGenericAllocationHandle h = create(1, true);
    int fd = -1;
    CU_ASSERT_OK(cu->cuMemExportToShareableHandle(
        &fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    ASSERT_GE(fd, 0);
    CUmemGenericAllocationHandle imp = 0;
    CU_ASSERT_OK(cu->cuMemImportFromShareableHandle(
        &imp, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    EXPECT_EQ(close(fd), 0) << "the caller owns the exported descriptor";
    CUdeviceptr a = reserve(1), b = reserve(1);
    CU_ASSERT_OK(cu->cuMemMap(a, gran, 0, h, 0));
    CU_ASSERT_OK(cu->cuMemMap(b, gran, 0, imp, 0));
    CU_ASSERT_OK(allow(a, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(allow(b, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(cuda_test_write_pattern(cu, a, 4096, 21));
    EXPECT_TRUE(cuda_test_check_pattern(cu, b, 4096, 21));
    CU_EXPECT_OK(cu->cuMemUnmap(a, gran));
    CU_EXPECT_OK(cu->cuMemUnmap(b, gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemRelease(imp));
    CU_EXPECT_OK(cu->cuMemAddressFree(a, gran));
    CU_EXPECT_OK(cu->cuMemAddressFree(b, gran));
}

TEST_F(CudaVmm, ImportErrors) {
    CUmemGenericAllocationHandle h;
    EXPECT_EQ(cu->cuMemImportFromShareableHandle(
                  nullptr, (void *)(intptr_t)0,
                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
              CUDA_ERROR_INVALID_VALUE);
    // Not memory of a driver: a pipe.
    int pipefd[2];
    ASSERT_EQ(pipe(pipefd), 0);
    EXPECT_NE(cu->cuMemImportFromShareableHandle(
                  &h, (void *)(intptr_t)pipefd[0],
                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
              CUDA_SUCCESS);
    close(pipefd[0]);
    close(pipefd[1]);
}

// An importer's part: maps the imported `h` (`size` bytes) with access for
// device 0, checks the exporter's pattern `expect`, writes the pattern
// `write`, then unmaps, releases and frees everything. False at the first
// failure.
bool map_check_write(const cuda_test_driver_t *cu,
                     CUmemGenericAllocationHandle h, uint64_t size,
                     unsigned expect, unsigned write) {
    CUdeviceptr p = 0;
    if (cu->cuMemAddressReserve(&p, size, 0, 0, 0) != CUDA_SUCCESS) {
        return false;
    }
    CUmemAccessDesc d = access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    bool mapped = cu->cuMemMap(p, size, 0, h, 0) == CUDA_SUCCESS;
    bool ok = mapped && cu->cuMemSetAccess(p, size, &d, 1) == CUDA_SUCCESS &&
              cuda_test_check_pattern(cu, p, size, expect) &&
              cuda_test_write_pattern(cu, p, size, write) == CUDA_SUCCESS;
    ok = (!mapped || cu->cuMemUnmap(p, size) == CUDA_SUCCESS) && ok;
    ok = cu->cuMemRelease(h) == CUDA_SUCCESS && ok;
    return cu->cuMemAddressFree(p, size) == CUDA_SUCCESS && ok;
}

// The importer: receives the descriptor, maps it, checks the exporter's
// data, writes its own, and unmaps everything.
UMF_TEST_CHILD(vmm_importer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    uint64_t size = 0;
    CHILD_ASSERT(umf_test_recv(sock, &size, sizeof(size)) == 0);
    int fd = umf_test_recv_fd(sock);
    CHILD_ASSERT(fd >= 0);
    CUmemGenericAllocationHandle h = 0;
    CHILD_CU(cu->cuMemImportFromShareableHandle(
        &h, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    CHILD_ASSERT(close(fd) == 0);
    CUmemAllocationProp prop;
    CHILD_CU(cu->cuMemGetAllocationPropertiesFromHandle(&prop, h));
    CHILD_ASSERT(prop.location.type == CU_MEM_LOCATION_TYPE_DEVICE);
    CHILD_ASSERT(prop.location.id == 0);
    CHILD_ASSERT(map_check_write(cu, h, size, 31, 32));
    char done = 'D';
    CHILD_ASSERT(umf_test_send(sock, &done, 1) == 0);
    CHILD_CU(cu->cuCtxPopCurrent_v2(&ctx));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

TEST_F(CudaVmm, ShareWithAnotherProcessOverAUnixSocket) {
    uint64_t size = 2 * gran;
    CUmemGenericAllocationHandle h = create(2, true);
    CUdeviceptr p = reserve(2);
    CU_ASSERT_OK(cu->cuMemMap(p, size, 0, h, 0));
    CU_ASSERT_OK(allow(p, size, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(cuda_test_write_pattern(cu, p, size, 31));
    int fd = -1;
    CU_ASSERT_OK(cu->cuMemExportToShareableHandle(
        &fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));

    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "vmm_importer", nullptr), 0);
    EXPECT_EQ(umf_test_send(child.sock, &size, sizeof(size)), 0);
    EXPECT_EQ(umf_test_send_fd(child.sock, fd), 0);
    EXPECT_EQ(close(fd), 0);
    char done = 0;
    EXPECT_EQ(umf_test_recv(child.sock, &done, 1), 0);
    EXPECT_EQ(done, 'D');
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    // The importer's writes are in our memory.
    EXPECT_TRUE(cuda_test_check_pattern(cu, p, size, 32));
    CU_EXPECT_OK(cu->cuMemUnmap(p, size));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(p, size));
}

// ---------------------------------------------------------------------------
// Fabric handles: 64 bytes, no fd, importable by any process of the machine
// while the exporter's allocation lives.

// The importer of a fabric handle: receives its bytes over a plain socket
// (no fd), maps it, checks the exporter's data and writes its own.
UMF_TEST_CHILD(vmm_fabric_importer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    uint64_t size = 0;
    CUmemFabricHandle fh;
    CHILD_ASSERT(umf_test_recv(sock, &size, sizeof(size)) == 0);
    CHILD_ASSERT(umf_test_recv(sock, &fh, sizeof(fh)) == 0);
    CUmemGenericAllocationHandle h = 0;
    CHILD_CU(
        cu->cuMemImportFromShareableHandle(&h, &fh, CU_MEM_HANDLE_TYPE_FABRIC));
    CHILD_ASSERT(map_check_write(cu, h, size, 41, 42));
    char done = 'D';
    CHILD_ASSERT(umf_test_send(sock, &done, 1) == 0);
    // The parent releases its allocation, then sends the handle again: the
    // import of a handle whose allocation is gone is refused.
    char go = 0;
    CHILD_ASSERT(umf_test_recv(sock, &go, 1) == 0);
    CUresult stale =
        cu->cuMemImportFromShareableHandle(&h, &fh, CU_MEM_HANDLE_TYPE_FABRIC);
    CHILD_ASSERT(umf_test_send(sock, &stale, sizeof(stale)) == 0);
    CHILD_CU(cu->cuCtxPopCurrent_v2(&ctx));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

// Over pidfd_getfd or, where that is refused, the exporter's fd server
// only; the allocation held by its mapping alone (its handle released, as
// allocators do right after cuMemMap) stays importable.
class CudaVmmFabric : public CudaVmm,
                      public ::testing::WithParamInterface<const char *> {};

TEST_P(CudaVmmFabric, HandleSharesWithAnotherProcessAsBytes) {
    int supported = 0;
    CU_ASSERT_OK(cu->cuDeviceGetAttribute(
        &supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0));
    if (!supported) {
        GTEST_SKIP() << "the device reports no fabric handles";
    }
    uint64_t size = 2 * gran;
    CUmemGenericAllocationHandle h = create_fabric(2);
    CUdeviceptr p = reserve(2);
    CU_ASSERT_OK(cu->cuMemMap(p, size, 0, h, 0));
    CU_ASSERT_OK(cu->cuMemRelease(h)); // the mapping holds the memory
    CU_ASSERT_OK(allow(p, size, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(cuda_test_write_pattern(cu, p, size, 41));
    CUmemFabricHandle fh;
    CU_ASSERT_OK(cu->cuMemRetainAllocationHandle(
        &h, reinterpret_cast<void *>(static_cast<uintptr_t>(p))));
    CU_ASSERT_OK(
        cu->cuMemExportToShareableHandle(&fh, h, CU_MEM_HANDLE_TYPE_FABRIC, 0));
    CU_ASSERT_OK(cu->cuMemRelease(h));

    umf_test_child_t child;
    const char *transfer = GetParam();
    const char *env[] = {transfer, nullptr};
    ASSERT_EQ(
        umf_test_child_start_env(&child, "vmm_fabric_importer", nullptr, env),
        0);
    EXPECT_EQ(umf_test_send(child.sock, &size, sizeof(size)), 0);
    EXPECT_EQ(umf_test_send(child.sock, &fh, sizeof(fh)), 0);
    char done = 0;
    EXPECT_EQ(umf_test_recv(child.sock, &done, 1), 0);
    EXPECT_EQ(done, 'D');
    // The importer's writes are in our memory.
    EXPECT_TRUE(cuda_test_check_pattern(cu, p, size, 42));
    CU_EXPECT_OK(cu->cuMemUnmap(p, size)); // the last reference
    CU_EXPECT_OK(cu->cuMemAddressFree(p, size));
    char go = 'G';
    EXPECT_EQ(umf_test_send(child.sock, &go, 1), 0);
    CUresult stale = CUDA_SUCCESS;
    EXPECT_EQ(umf_test_recv(child.sock, &stale, sizeof(stale)), 0);
    EXPECT_EQ(stale, CUDA_ERROR_INVALID_VALUE)
        << "a handle of a released allocation";
    EXPECT_EQ(umf_test_child_wait(&child), 0);
}

INSTANTIATE_TEST_SUITE_P(Transfer, CudaVmmFabric,
                         ::testing::Values("UMF_GPU_IPC_FD_TRANSFER=pidfd",
                                           "UMF_GPU_IPC_FD_TRANSFER=socket"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                             return std::string(i.index == 0 ? "Pidfd"
                                                             : "Socket");
                         });

TEST_F(CudaVmm, FabricHandlesForgedCorruptedOrStaleAreRefused) {
    int supported = 0;
    CU_ASSERT_OK(cu->cuDeviceGetAttribute(
        &supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0));
    if (!supported) {
        GTEST_SKIP() << "the device reports no fabric handles";
    }
    CUmemGenericAllocationHandle h = create_fabric(1);
    CUmemFabricHandle fh;
    CU_ASSERT_OK(
        cu->cuMemExportToShareableHandle(&fh, h, CU_MEM_HANDLE_TYPE_FABRIC, 0));
    // In the exporter itself, the import shares the memory.
    CUmemGenericAllocationHandle imp = 0;
    CU_ASSERT_OK(cu->cuMemImportFromShareableHandle(&imp, &fh,
                                                    CU_MEM_HANDLE_TYPE_FABRIC));
    CUdeviceptr a = reserve(1), b = reserve(1);
    CU_ASSERT_OK(cu->cuMemMap(a, gran, 0, h, 0));
    CU_ASSERT_OK(cu->cuMemMap(b, gran, 0, imp, 0));
    CU_ASSERT_OK(allow(a, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(allow(b, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CU_ASSERT_OK(cuda_test_write_pattern(cu, a, 4096, 43));
    EXPECT_TRUE(cuda_test_check_pattern(cu, b, 4096, 43));
    CU_EXPECT_OK(cu->cuMemUnmap(b, gran));
    CU_EXPECT_OK(cu->cuMemRelease(imp));
    // Every single byte changed, and bytes that were never a handle.
    for (size_t i = 0; i < sizeof(fh); i++) {
        CUmemFabricHandle bad = fh;
        bad.data[i] ^= 0x5a;
        EXPECT_EQ(cu->cuMemImportFromShareableHandle(&imp, &bad,
                                                     CU_MEM_HANDLE_TYPE_FABRIC),
                  CUDA_ERROR_INVALID_VALUE)
            << "byte " << i;
    }
    CUmemFabricHandle zero = {};
    EXPECT_EQ(cu->cuMemImportFromShareableHandle(&imp, &zero,
                                                 CU_MEM_HANDLE_TYPE_FABRIC),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemImportFromShareableHandle(&imp, nullptr,
                                                 CU_MEM_HANDLE_TYPE_FABRIC),
              CUDA_ERROR_INVALID_VALUE);
    // Stale: the allocation is gone once released and unmapped.
    CU_EXPECT_OK(cu->cuMemUnmap(a, gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    EXPECT_EQ(cu->cuMemImportFromShareableHandle(&imp, &fh,
                                                 CU_MEM_HANDLE_TYPE_FABRIC),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemAddressFree(a, gran));
    CU_EXPECT_OK(cu->cuMemAddressFree(b, gran));
}

// ---------------------------------------------------------------------------
// Threads: each maps, fills, reads and unmaps its own memory, at once.

TEST_F(CudaVmm, SeveralThreadsAtOnce) {
    const int threads = 4, rounds = 10;
    std::vector<std::thread> ts;
    std::vector<int> failures(threads, 0);
    for (int t = 0; t < threads; t++) {
        ts.emplace_back([&, t] {
            if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
                failures[t]++;
                return;
            }
            CUmemAllocationProp prop = device_prop(0, false);
            for (int r = 0; r < rounds; r++) {
                CUmemGenericAllocationHandle h;
                CUdeviceptr p;
                uint32_t want = static_cast<uint32_t>(t * 100 + r), got = 0;
                CUmemAccessDesc d =
                    access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
                bool ok = cu->cuMemCreate(&h, gran, &prop, 0) == CUDA_SUCCESS;
                ok = ok &&
                     cu->cuMemAddressReserve(&p, gran, 0, 0, 0) == CUDA_SUCCESS;
                ok =
                    ok && cu->cuMemMap(p, gran, 0, h, 0) == CUDA_SUCCESS &&
                    cu->cuMemSetAccess(p, gran, &d, 1) == CUDA_SUCCESS &&
                    cu->cuMemsetD32_v2(p + gran - 4, want, 1) == CUDA_SUCCESS &&
                    cu->cuMemcpyDtoH_v2(&got, p + gran - 4, 4) ==
                        CUDA_SUCCESS &&
                    got == want && cu->cuMemUnmap(p, gran) == CUDA_SUCCESS &&
                    cu->cuMemAddressFree(p, gran) == CUDA_SUCCESS &&
                    cu->cuMemRelease(h) == CUDA_SUCCESS;
                failures[t] += !ok;
            }
            cu->cuCtxSetCurrent(nullptr);
        });
    }
    for (auto &t : ts) {
        t.join();
    }
    for (int t = 0; t < threads; t++) {
        EXPECT_EQ(failures[t], 0) << "thread " << t;
    }
}

// ---------------------------------------------------------------------------
// The emulated driver's own promises

class CudaVmmEmulated : public CudaEmulatedOnly<CudaVmm> {
  protected:
    int64_t live(umf_gpu_mock_live_t what) {
        return cu->umfCudaMockGetLiveCount(what);
    }
};

TEST_F(CudaVmmEmulated, ExactCodesWhereCudaHNamesNone) {
    CUdeviceptr base = reserve(2);
    CUmemGenericAllocationHandle h = create(1);
    EXPECT_EQ(cu->cuMemMap(base, gran, gran, h, 0), CUDA_ERROR_INVALID_VALUE)
        << "offset: \"currently must be zero\"";
    EXPECT_EQ(cu->cuMemMap(base, 2 * gran, 0, h, 0), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuMemMap(base, gran, 0, h, 0));
    EXPECT_EQ(cu->cuMemMap(base, gran, 0, h, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(allow(base, 2 * gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READ),
              CUDA_ERROR_INVALID_VALUE);
    CUmemAccessDesc d = access_desc(0, static_cast<CUmemAccess_flags>(2));
    EXPECT_EQ(cu->cuMemSetAccess(base, gran, &d, 1), CUDA_ERROR_INVALID_VALUE);
    d.location.type = CU_MEM_LOCATION_TYPE_HOST;
    d.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    EXPECT_EQ(cu->cuMemSetAccess(base, gran, &d, 1), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuMemUnmap(base, gran));
    EXPECT_EQ(cu->cuMemUnmap(base, gran), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuMemRelease(h));
    // A released handle, a made-up one.
    EXPECT_EQ(cu->cuMemRelease(h), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemMap(base, gran, 0, h, 0), CUDA_ERROR_INVALID_VALUE);
    CUmemAllocationProp prop;
    EXPECT_EQ(cu->cuMemGetAllocationPropertiesFromHandle(&prop, 12345),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemRelease(0), CUDA_ERROR_INVALID_VALUE);
    // Export of a handle made without the POSIX type, import of garbage.
    h = create(1, false);
    int fd;
    EXPECT_EQ(cu->cuMemExportToShareableHandle(
                  &fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
              CUDA_ERROR_INVALID_VALUE);
    CUmemFabricHandle fh;
    EXPECT_EQ(
        cu->cuMemExportToShareableHandle(&fh, h, CU_MEM_HANDLE_TYPE_FABRIC, 0),
        CUDA_ERROR_INVALID_VALUE)
        << "made without CU_MEM_HANDLE_TYPE_FABRIC";
    CU_ASSERT_OK(cu->cuMemRelease(h));
    CUmemGenericAllocationHandle imp;
    EXPECT_EQ(cu->cuMemImportFromShareableHandle(
                  &imp, (void *)(intptr_t)-1,
                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
              CUDA_ERROR_INVALID_VALUE);
    int f = memfd_create("not-device-memory", MFD_CLOEXEC);
    ASSERT_GE(f, 0);
    ASSERT_EQ(ftruncate(f, static_cast<off_t>(gran)), 0);
    EXPECT_EQ(cu->cuMemImportFromShareableHandle(
                  &imp, (void *)(intptr_t)f,
                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
              CUDA_ERROR_INVALID_VALUE);
    close(f);
    EXPECT_EQ(cu->cuMemAddressFree(base + gran, gran),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemAddressFree(base, 2 * gran));
}

TEST_F(CudaVmmEmulated, CopiesNeedAccess) {
    CUdeviceptr base = reserve(1);
    CUmemGenericAllocationHandle h = create(1);
    CU_ASSERT_OK(cu->cuMemMap(base, gran, 0, h, 0));
    char buf[64] = {};
    // Mapped, no access yet: refused, never a fault.
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(base, buf, sizeof(buf)),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpyDtoH_v2(buf, base, sizeof(buf)),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD8_v2(base, 1, sizeof(buf)),
              CUDA_ERROR_INVALID_VALUE);
    // Read-only: reads pass, writes do not.
    CU_ASSERT_OK(allow(base, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READ));
    CU_EXPECT_OK(cu->cuMemcpyDtoH_v2(buf, base, sizeof(buf)));
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(base, buf, sizeof(buf)),
              CUDA_ERROR_INVALID_VALUE);
    // Past the mapping.
    CU_ASSERT_OK(allow(base, gran, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(base + gran - 8, buf, 16),
              CUDA_ERROR_INVALID_VALUE);
    if (count > 1) {
        // Another device's context has no access.
        CUcontext other;
        CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&other, 1));
        CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(other));
        EXPECT_EQ(cu->cuMemcpyDtoH_v2(buf, base, sizeof(buf)),
                  CUDA_ERROR_INVALID_VALUE);
        CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&other));
        CU_ASSERT_OK(cu->cuDevicePrimaryCtxRelease_v2(1));
    }
    CU_EXPECT_OK(cu->cuMemUnmap(base, gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, gran));
}

TEST_F(CudaVmmEmulated, LiveCountsAndDeviceMemory) {
    size_t free_before = 0, total = 0;
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_before, &total));
    int64_t phys = live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY);
    CUmemGenericAllocationHandle h = create(3);
    size_t free_now = 0;
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_now, &total));
    EXPECT_EQ(free_before - free_now, 3 * gran)
        << "physical memory counts against its device";
    CUdeviceptr base = reserve(3);
    CU_ASSERT_OK(cu->cuMemMap(base, 3 * gran, 0, h, 0));
    EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), phys + 1);
    EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS), 1);
    EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 1);
    CU_ASSERT_OK(cu->cuMemRelease(h));
    EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), phys);
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_now, &total));
    EXPECT_EQ(free_before - free_now, 3 * gran) << "still mapped";
    CU_ASSERT_OK(cu->cuMemUnmap(base, 3 * gran));
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_now, &total));
    EXPECT_EQ(free_now, free_before);
    CU_ASSERT_OK(cu->cuMemAddressFree(base, 3 * gran));
    EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS), 0);
    EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 0);
    // More than the device has.
    CUmemAllocationProp prop = device_prop(0, false);
    CUmemGenericAllocationHandle big;
    EXPECT_EQ(cu->cuMemCreate(&big, (total / gran + 1) * gran, &prop, 0),
              CUDA_ERROR_OUT_OF_MEMORY);
}

TEST_F(CudaVmmEmulated, FaultRulesByName) {
    ASSERT_EQ(
        cu->umfCudaMockInjectFaults("cuMemCreate:1=CUDA_ERROR_OUT_OF_MEMORY;"
                                    "cuMemMap:1=CUDA_ERROR_OUT_OF_MEMORY"),
        0);
    CUmemAllocationProp prop = device_prop(0, false);
    CUmemGenericAllocationHandle h = 0;
    EXPECT_EQ(cu->cuMemCreate(&h, gran, &prop, 0), CUDA_ERROR_OUT_OF_MEMORY);
    CU_ASSERT_OK(cu->cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr base = reserve(1);
    EXPECT_EQ(cu->cuMemMap(base, gran, 0, h, 0), CUDA_ERROR_OUT_OF_MEMORY);
    CU_EXPECT_OK(cu->cuMemMap(base, gran, 0, h, 0));
    cu->umfCudaMockClearFaults();
    CU_EXPECT_OK(cu->cuMemUnmap(base, gran));
    CU_EXPECT_OK(cu->cuMemRelease(h));
    CU_EXPECT_OK(cu->cuMemAddressFree(base, gran));
}

UMF_TEST_CHILD(vmm_leaker) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUmemAllocationProp prop = device_prop(0, false);
    size_t gran = 0;
    CHILD_CU(cu->cuMemGetAllocationGranularity(
        &gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h;
    CHILD_CU(cu->cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr p;
    CHILD_CU(cu->cuMemAddressReserve(&p, 2 * gran, 0, 0, 0));
    CHILD_CU(cu->cuMemMap(p, gran, 0, h, 0));
    return 0; // everything left alive
}

TEST_F(CudaVmmEmulated, LeakReportListsHandlesReservationsAndMappings) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child("vmm_leaker", {"UMF_GPU_MOCK_LEAKS=strict"},
                                    &status, &out));
    EXPECT_EQ(status, 86) << out;
    EXPECT_NE(out.find("physical memory #"), std::string::npos) << out;
    EXPECT_NE(out.find("never released"), std::string::npos) << out;
    EXPECT_NE(out.find("address reservation of"), std::string::npos) << out;
    EXPECT_NE(out.find("never unmapped"), std::string::npos) << out;
}

} // namespace
