// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA driver API as a program uses it: every entry point's success and
// error cases, devices, primary context reference counts, contexts per
// thread, allocation, frees, pointer attributes on interior pointers, copies
// and fills, and what IPC does within one process. Written against the
// documented behaviour of the real driver: with UMF_GPU_CUDA_LIB pointing at
// an NVIDIA libcuda.so.1, these tests run unchanged on a GPU. Checks of the
// emulated driver alone are in cuda_emulated_test.cpp.

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

// ---------------------------------------------------------------------------
// Before cuInit (in a fresh process: this one has called cuInit)

UMF_TEST_CHILD(before_init) {
    (void)sock;
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, false);
    CHILD_ASSERT(cu != nullptr);
    int count = -1;
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr p;
    CHILD_ASSERT(cu->cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED);
    CHILD_ASSERT(cu->cuDeviceGet(&dev, 0) == CUDA_ERROR_NOT_INITIALIZED);
    CHILD_ASSERT(cu->cuCtxGetCurrent(&ctx) == CUDA_ERROR_NOT_INITIALIZED);
    CHILD_ASSERT(cu->cuDevicePrimaryCtxRetain(&ctx, 0) ==
                 CUDA_ERROR_NOT_INITIALIZED);
    CHILD_ASSERT(cu->cuMemAlloc_v2(&p, 64) == CUDA_ERROR_NOT_INITIALIZED);
    // These work before cuInit.
    int version = 0;
    const char *name = nullptr;
    CHILD_ASSERT(cu->cuDriverGetVersion(&version) == CUDA_SUCCESS);
    CHILD_ASSERT(version > 0);
    CHILD_ASSERT(cu->cuGetErrorName(CUDA_ERROR_NOT_INITIALIZED, &name) ==
                 CUDA_SUCCESS);
    CHILD_ASSERT(std::strcmp(name, "CUDA_ERROR_NOT_INITIALIZED") == 0);
    void *fn = nullptr;
    CHILD_ASSERT(cu->cuGetProcAddress_v2("cuInit", &fn, 12000,
                                         CU_GET_PROC_ADDRESS_DEFAULT,
                                         nullptr) == CUDA_SUCCESS);
    CHILD_ASSERT(fn == cuda_test_driver_symbol("cuInit"));
    // cuInit takes no flags.
    CHILD_ASSERT(cu->cuInit(1) == CUDA_ERROR_INVALID_VALUE);
    CHILD_ASSERT(cu->cuInit(0) == CUDA_SUCCESS);
    CHILD_ASSERT(cu->cuDeviceGetCount(&count) == CUDA_SUCCESS);
    CHILD_ASSERT(count > 0);
    CHILD_ASSERT(cu->cuInit(0) == CUDA_SUCCESS); // again: no effect
    return 0;
}

TEST(CudaInit, EverythingButVersionAndErrorsNeedsCuInit) {
    int status = -1;
    ASSERT_TRUE(cuda_test_run_child("before_init", {}, &status, nullptr));
    EXPECT_EQ(status, 0);
}

// ---------------------------------------------------------------------------
// fork(): CUDA cannot be used in a child forked after cuInit without exec.
// A real driver answers CUDA_ERROR_NOT_INITIALIZED to every call there,
// cuInit included, and what works before cuInit still works (numba and
// PyTorch tell a bad fork by this).

// Runs `child` in a forked child; true if it returned true there.
template <typename F> static bool in_forked_child(F child) {
    fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0) {
        return false;
    }
    if (pid == 0) {
        _exit(child() ? 0 : 1);
    }
    int status = -1;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

static bool refused_after_fork(const cuda_test_driver_t *cu) {
    int count = -1, version = 0;
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr p;
    const char *name = nullptr;
    return cu->cuInit(0) == CUDA_ERROR_NOT_INITIALIZED &&
           cu->cuInit(1) == CUDA_ERROR_INVALID_VALUE &&
           cu->cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED &&
           cu->cuDeviceGet(&dev, 0) == CUDA_ERROR_NOT_INITIALIZED &&
           cu->cuCtxGetCurrent(&ctx) == CUDA_ERROR_NOT_INITIALIZED &&
           cu->cuDevicePrimaryCtxRetain(&ctx, 0) ==
               CUDA_ERROR_NOT_INITIALIZED &&
           cu->cuMemAlloc_v2(&p, 64) == CUDA_ERROR_NOT_INITIALIZED &&
           cu->cuDriverGetVersion(&version) == CUDA_SUCCESS && version > 0 &&
           cu->cuGetErrorName(CUDA_ERROR_NOT_INITIALIZED, &name) ==
               CUDA_SUCCESS &&
           std::strcmp(name, "CUDA_ERROR_NOT_INITIALIZED") == 0;
}

TEST_F(CudaCtxTest, ForkedChildAfterCuInitGetsNotInitializedEvenFromCuInit) {
    // The parent holds memory and a current context while it forks.
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    EXPECT_TRUE(in_forked_child([&] {
        CUdeviceptr q = 0;
        return refused_after_fork(cu) &&
               cu->cuMemcpyHtoD_v2(p, &q, sizeof(q)) ==
                   CUDA_ERROR_NOT_INITIALIZED &&
               cu->cuMemFree_v2(p) == CUDA_ERROR_NOT_INITIALIZED &&
               // A grandchild is no better off.
               in_forked_child([&] { return refused_after_fork(cu); });
    }));
    // The parent goes on as before, its memory intact.
    uint64_t in = 0x0123456789abcdefull, out = 0;
    CU_EXPECT_OK(cu->cuMemcpyHtoD_v2(p, &in, sizeof(in)));
    CU_EXPECT_OK(cu->cuMemcpyDtoH_v2(&out, p, sizeof(out)));
    EXPECT_EQ(out, in);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_TRUE(in_forked_child([&] { return refused_after_fork(cu); }));
}

// In a fresh process: a child forked before cuInit initialises CUDA as any
// process does, and so does the parent after it.
UMF_TEST_CHILD(fork_before_init) {
    (void)sock;
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, false);
    CHILD_ASSERT(cu != nullptr);
    auto use_cuda = [cu] {
        CUdevice dev;
        CUcontext ctx;
        CUdeviceptr p;
        uint32_t in = 42, out = 0;
        bool ok = cu->cuInit(0) == CUDA_SUCCESS &&
                  cu->cuDeviceGet(&dev, 0) == CUDA_SUCCESS &&
                  cu->cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS;
        ok = ok && cu->cuCtxSetCurrent(ctx) == CUDA_SUCCESS &&
             cu->cuMemAlloc_v2(&p, sizeof(in)) == CUDA_SUCCESS;
        if (ok) {
            ok = cu->cuMemcpyHtoD_v2(p, &in, sizeof(in)) == CUDA_SUCCESS &&
                 cu->cuMemcpyDtoH_v2(&out, p, sizeof(out)) == CUDA_SUCCESS &&
                 out == in;
            ok = cu->cuMemFree_v2(p) == CUDA_SUCCESS && ok;
        }
        return ok && cu->cuCtxSetCurrent(nullptr) == CUDA_SUCCESS &&
               cu->cuDevicePrimaryCtxRelease_v2(dev) == CUDA_SUCCESS;
    };
    CHILD_ASSERT(in_forked_child(use_cuda));
    CHILD_ASSERT(use_cuda());
    return 0;
}

TEST(CudaFork, ChildForkedBeforeCuInitInitialisesNormally) {
    int status = -1;
    ASSERT_TRUE(cuda_test_run_child("fork_before_init", {}, &status, nullptr));
    EXPECT_EQ(status, 0);
}

// ---------------------------------------------------------------------------
// Version and errors

TEST_F(CudaTest, DriverGetVersion) {
    int version = 0;
    CU_EXPECT_OK(cu->cuDriverGetVersion(&version));
    EXPECT_GE(version, 12000);
    EXPECT_EQ(cu->cuDriverGetVersion(nullptr), CUDA_ERROR_INVALID_VALUE);
}

// Every enumerator of CUresult in the cuda.h the suite was built with, read
// from the header itself: the driver names each one.
static std::vector<std::pair<std::string, int>> cuda_h_results() {
    std::ifstream in(UMF_GPU_TEST_CUDA_H);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    size_t begin = s.find("typedef enum cudaError_enum");
    size_t end = s.find("} CUresult;", begin);
    std::vector<std::pair<std::string, int>> out;
    if (begin == std::string::npos || end == std::string::npos) {
        return out;
    }
    std::string body = s.substr(begin, end - begin);
    std::regex re("(CUDA_[A-Z0-9_]+)\\s*=\\s*([0-9]+)");
    for (std::sregex_iterator it(body.begin(), body.end(), re), last;
         it != last; ++it) {
        out.emplace_back((*it)[1].str(), std::stoi((*it)[2].str()));
    }
    return out;
}

TEST_F(CudaTest, GetErrorNameAndStringKnowEveryResultOfCudaH) {
    auto results = cuda_h_results();
    ASSERT_GE(results.size(), 90u) << "cannot read " UMF_GPU_TEST_CUDA_H;
    for (const auto &r : results) {
        const char *name = nullptr, *text = nullptr;
        CUresult code = static_cast<CUresult>(r.second);
        EXPECT_EQ(cu->cuGetErrorName(code, &name), CUDA_SUCCESS) << r.first;
        EXPECT_STREQ(name, r.first.c_str());
        EXPECT_EQ(cu->cuGetErrorString(code, &text), CUDA_SUCCESS) << r.first;
        ASSERT_NE(text, nullptr) << r.first;
        EXPECT_GT(std::strlen(text), 0u) << r.first;
    }
    const char *text = nullptr;
    CU_EXPECT_OK(cu->cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &text));
    EXPECT_STREQ(text, "out of memory");
    CU_EXPECT_OK(cu->cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text));
    EXPECT_STREQ(text, "invalid argument");
}

TEST_F(CudaTest, GetErrorNameOfUnknownCodeIsInvalidValueAndNull) {
    auto results = cuda_h_results();
    std::set<int> known;
    for (const auto &r : results) {
        known.insert(r.second);
    }
    for (int code : {-1, 9, 35, 103, 999 + 1, 12345, 0x7fffffff}) {
        if (known.count(code) != 0) {
            continue;
        }
        const char *name = "sentinel", *text = "sentinel";
        EXPECT_EQ(cu->cuGetErrorName(static_cast<CUresult>(code), &name),
                  CUDA_ERROR_INVALID_VALUE)
            << code;
        EXPECT_EQ(name, nullptr) << code;
        EXPECT_EQ(cu->cuGetErrorString(static_cast<CUresult>(code), &text),
                  CUDA_ERROR_INVALID_VALUE)
            << code;
        EXPECT_EQ(text, nullptr) << code;
    }
    EXPECT_EQ(cu->cuGetErrorName(CUDA_SUCCESS, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuGetErrorString(CUDA_SUCCESS, nullptr),
              CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// cuGetProcAddress_v2

struct proc_case_t {
    const char *symbol;
    int version;
    cuuint64_t flags;
    const char *expect; // the exported name it must resolve to
};

TEST_F(CudaTest, GetProcAddressAnswersForEveryEntryPoint) {
    const cuuint64_t L = CU_GET_PROC_ADDRESS_LEGACY_STREAM;
    const cuuint64_t D = CU_GET_PROC_ADDRESS_DEFAULT;
    const cuuint64_t P = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    const proc_case_t cases[] = {
        {"cuInit", 12000, D, "cuInit"},
        {"cuDriverGetVersion", 12000, D, "cuDriverGetVersion"},
        {"cuGetProcAddress", 12000, D, "cuGetProcAddress_v2"},
        {"cuGetErrorName", 12000, D, "cuGetErrorName"},
        {"cuGetErrorString", 12000, D, "cuGetErrorString"},
        {"cuDeviceGet", 12000, D, "cuDeviceGet"},
        {"cuDeviceGetCount", 12000, D, "cuDeviceGetCount"},
        {"cuDeviceGetName", 12000, D, "cuDeviceGetName"},
        {"cuDeviceGetUuid", 12000, D, "cuDeviceGetUuid_v2"},
        {"cuDeviceTotalMem", 12000, D, "cuDeviceTotalMem_v2"},
        {"cuDeviceGetAttribute", 12000, D, "cuDeviceGetAttribute"},
        {"cuDevicePrimaryCtxRetain", 12000, D, "cuDevicePrimaryCtxRetain"},
        {"cuDevicePrimaryCtxRelease", 12000, D, "cuDevicePrimaryCtxRelease_v2"},
        {"cuDevicePrimaryCtxGetState", 12000, D, "cuDevicePrimaryCtxGetState"},
        {"cuCtxCreate", 3020, D, "cuCtxCreate_v2"},
        {"cuCtxCreate", 12000, D, "cuCtxCreate_v3"},
        {"cuCtxCreate", 12050, D, "cuCtxCreate_v4"},
        {"cuCtxDestroy", 12000, D, "cuCtxDestroy_v2"},
        {"cuCtxGetCurrent", 12000, D, "cuCtxGetCurrent"},
        {"cuCtxSetCurrent", 12000, D, "cuCtxSetCurrent"},
        {"cuCtxGetDevice", 12000, D, "cuCtxGetDevice"},
        {"cuCtxPushCurrent", 12000, D, "cuCtxPushCurrent_v2"},
        {"cuCtxPopCurrent", 12000, D, "cuCtxPopCurrent_v2"},
        {"cuCtxSynchronize", 12000, D, "cuCtxSynchronize"},
        {"cuMemAlloc", 12000, D, "cuMemAlloc_v2"},
        {"cuMemAlloc", 3000, D, "cuMemAlloc"},
        {"cuMemAllocHost", 12000, D, "cuMemAllocHost_v2"},
        {"cuMemHostAlloc", 12000, D, "cuMemHostAlloc"},
        {"cuMemAllocManaged", 12000, D, "cuMemAllocManaged"},
        {"cuMemFree", 12000, D, "cuMemFree_v2"},
        {"cuMemFreeHost", 12000, D, "cuMemFreeHost"},
        {"cuMemGetInfo", 12000, D, "cuMemGetInfo_v2"},
        {"cuMemGetAddressRange", 12000, D, "cuMemGetAddressRange_v2"},
        {"cuMemGetAllocationGranularity", 12000, D,
         "cuMemGetAllocationGranularity"},
        {"cuPointerGetAttribute", 12000, D, "cuPointerGetAttribute"},
        {"cuPointerGetAttributes", 12000, D, "cuPointerGetAttributes"},
        {"cuIpcGetMemHandle", 12000, D, "cuIpcGetMemHandle"},
        {"cuIpcOpenMemHandle", 12000, D, "cuIpcOpenMemHandle_v2"},
        {"cuIpcCloseMemHandle", 12000, D, "cuIpcCloseMemHandle"},
        {"cuMemcpy", 12000, L, "cuMemcpy"},
        {"cuMemcpy", 12000, P, "cuMemcpy_ptds"},
        {"cuMemcpyHtoD", 12000, D, "cuMemcpyHtoD_v2"},
        {"cuMemcpyHtoD", 12000, P, "cuMemcpyHtoD_v2_ptds"},
        {"cuMemcpyDtoH", 12000, L, "cuMemcpyDtoH_v2"},
        {"cuMemcpyDtoH", 12000, P, "cuMemcpyDtoH_v2_ptds"},
        {"cuMemcpyDtoD", 12000, L, "cuMemcpyDtoD_v2"},
        {"cuMemcpyDtoD", 12000, P, "cuMemcpyDtoD_v2_ptds"},
        {"cuMemsetD8", 12000, D, "cuMemsetD8_v2"},
        {"cuMemsetD8", 12000, P, "cuMemsetD8_v2_ptds"},
        // Before the per-thread variants existed, the legacy one.
        {"cuMemsetD8", 6050, P, "cuMemsetD8_v2"},
    };
    for (const proc_case_t &c : cases) {
        void *fn = nullptr;
        CUdriverProcAddressQueryResult status =
            CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        EXPECT_EQ(
            cu->cuGetProcAddress_v2(c.symbol, &fn, c.version, c.flags, &status),
            CUDA_SUCCESS)
            << c.symbol << " " << c.version;
        EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS)
            << c.symbol << " " << c.version;
        void *want = cuda_test_driver_symbol(c.expect);
        ASSERT_NE(want, nullptr) << c.expect;
        EXPECT_EQ(fn, want)
            << c.symbol << " " << c.version << " should be " << c.expect;
    }
}

TEST_F(CudaTest, GetProcAddressErrors) {
    void *fn = &fn;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
    // No such symbol: success with NULL, as cuda.h documents.
    EXPECT_EQ(cu->cuGetProcAddress_v2("cuNoSuchFunction", &fn, 12000,
                                      CU_GET_PROC_ADDRESS_DEFAULT, &status),
              CUDA_SUCCESS);
    EXPECT_EQ(fn, nullptr);
    EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    // Older than the symbol.
    fn = &fn;
    EXPECT_EQ(cu->cuGetProcAddress_v2("cuMemAllocManaged", &fn, 5000,
                                      CU_GET_PROC_ADDRESS_DEFAULT, &status),
              CUDA_SUCCESS);
    EXPECT_EQ(fn, nullptr);
    EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    // status is optional
    EXPECT_EQ(cu->cuGetProcAddress_v2("cuInit", &fn, 12000,
                                      CU_GET_PROC_ADDRESS_DEFAULT, nullptr),
              CUDA_SUCCESS);
    EXPECT_EQ(fn, cuda_test_driver_symbol("cuInit"));
    EXPECT_EQ(cu->cuGetProcAddress_v2(nullptr, &fn, 12000,
                                      CU_GET_PROC_ADDRESS_DEFAULT, &status),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuGetProcAddress_v2("cuInit", nullptr, 12000,
                                      CU_GET_PROC_ADDRESS_DEFAULT, &status),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuGetProcAddress_v2("cuInit", &fn, 12000, 1u << 5, &status),
              CUDA_ERROR_INVALID_VALUE);
    int version = 0;
    CU_ASSERT_OK(cu->cuDriverGetVersion(&version));
    EXPECT_EQ(cu->cuGetProcAddress_v2("cuInit", &fn, version + 1000,
                                      CU_GET_PROC_ADDRESS_DEFAULT, &status),
              CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// Devices

TEST_F(CudaTest, DeviceCountAndGet) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    ASSERT_GE(count, 1);
    EXPECT_EQ(cu->cuDeviceGetCount(nullptr), CUDA_ERROR_INVALID_VALUE);
    for (int i = 0; i < count; i++) {
        CUdevice d = -1;
        CU_EXPECT_OK(cu->cuDeviceGet(&d, i));
        EXPECT_EQ(d, i);
    }
    CUdevice d;
    EXPECT_EQ(cu->cuDeviceGet(&d, count), CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDeviceGet(&d, -1), CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDeviceGet(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaTest, DeviceNameUuidAndTotalMem) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    char name[256];
    CU_ASSERT_OK(cu->cuDeviceGetName(name, sizeof(name), 0));
    EXPECT_GT(std::strlen(name), 0u);
    // At most len bytes are written.
    char small[16];
    std::memset(small, 'x', sizeof(small));
    CU_ASSERT_OK(cu->cuDeviceGetName(small, 5, 0));
    EXPECT_EQ(std::strncmp(small, name, 4), 0);
    for (size_t i = 5; i < sizeof(small); i++) {
        EXPECT_EQ(small[i], 'x') << i;
    }
    EXPECT_EQ(cu->cuDeviceGetName(nullptr, 16, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetName(name, sizeof(name), count),
              CUDA_ERROR_INVALID_DEVICE);

    std::set<std::string> uuids;
    for (int i = 0; i < count; i++) {
        CUuuid uuid;
        CU_ASSERT_OK(cu->cuDeviceGetUuid_v2(&uuid, i));
        uuids.insert(std::string(uuid.bytes, sizeof(uuid.bytes)));
        size_t total = 0;
        CU_ASSERT_OK(cu->cuDeviceTotalMem_v2(&total, i));
        EXPECT_GT(total, 0u);
    }
    EXPECT_EQ(uuids.size(), static_cast<size_t>(count)) << "UUIDs differ";
    CUuuid uuid;
    EXPECT_EQ(cu->cuDeviceGetUuid_v2(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetUuid_v2(&uuid, count), CUDA_ERROR_INVALID_DEVICE);
    size_t total;
    EXPECT_EQ(cu->cuDeviceTotalMem_v2(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceTotalMem_v2(&total, count),
              CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaTest, DeviceAttributes) {
    int v = 0;
    CU_EXPECT_OK(
        cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    EXPECT_EQ(v, 32);
    CU_EXPECT_OK(cu->cuDeviceGetAttribute(
        &v, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0));
    EXPECT_EQ(v, 1);
    CU_EXPECT_OK(cu->cuDeviceGetAttribute(
        &v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    EXPECT_GE(v, 3);
    CU_EXPECT_OK(cu->cuDeviceGetAttribute(
        &v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    EXPECT_GE(v, 1);
    CU_EXPECT_OK(cu->cuDeviceGetAttribute(
        &v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
    EXPECT_GE(v, 512);
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    EXPECT_EQ(
        cu->cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, count),
        CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(
        cu->cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(0), 0),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0),
              CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaTest, AllocationGranularity) {
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t min = 0, rec = 0;
    CU_ASSERT_OK(cu->cuMemGetAllocationGranularity(
        &min, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CU_ASSERT_OK(cu->cuMemGetAllocationGranularity(
        &rec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    EXPECT_GE(min, 4096u);
    EXPECT_EQ(min & (min - 1), 0u) << "a power of two";
    EXPECT_GE(rec, min);
    EXPECT_EQ(cu->cuMemGetAllocationGranularity(
                  nullptr, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemGetAllocationGranularity(
                  &min, nullptr, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        cu->cuMemGetAllocationGranularity(
            &min, &prop, static_cast<CUmemAllocationGranularity_flags>(7)),
        CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// Primary contexts

TEST_F(CudaTest, PrimaryContextIsReferenceCounted) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    CUdevice d = count - 1; // the fixtures of other tests use device 0
    unsigned flags = 0;
    int active = -1;
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxGetState(d, &flags, &active));
    ASSERT_EQ(active, 0) << "another test left the primary context retained";
    EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(d), CUDA_ERROR_INVALID_CONTEXT)
        << "releasing what was never retained";

    CUcontext a = nullptr, b = nullptr;
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&a, d));
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&b, d));
    EXPECT_NE(a, nullptr);
    EXPECT_EQ(a, b) << "one primary context per device";
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxGetState(d, &flags, &active));
    EXPECT_EQ(active, 1);

    // Usable while retained; its memory goes with its last release.
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(a));
    CUdevice got = -1;
    CU_EXPECT_OK(cu->cuCtxGetDevice(&got));
    EXPECT_EQ(got, d);
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));

    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRelease_v2(d));
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxGetState(d, &flags, &active));
    EXPECT_EQ(active, 1) << "one reference left";
    unsigned type = 0;
    CU_EXPECT_OK(
        cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));

    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRelease_v2(d));
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxGetState(d, &flags, &active));
    EXPECT_EQ(active, 0);
    EXPECT_EQ(
        cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p),
        CUDA_ERROR_INVALID_VALUE)
        << "the reset freed the context's memory";
    // Still current to this thread, but reset.
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, 4096), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(d), CUDA_ERROR_INVALID_CONTEXT);

    // Retained again, the same handle works again.
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&b, d));
    EXPECT_EQ(a, b);
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    CUcontext top = nullptr;
    CU_EXPECT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(top, a);
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(d));
}

TEST_F(CudaTest, PrimaryContextArguments) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    CUcontext c;
    unsigned flags;
    int active;
    EXPECT_EQ(cu->cuDevicePrimaryCtxRetain(nullptr, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDevicePrimaryCtxRetain(&c, count),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDevicePrimaryCtxRetain(&c, -1), CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDevicePrimaryCtxRelease_v2(count),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDevicePrimaryCtxGetState(count, &flags, &active),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDevicePrimaryCtxGetState(0, nullptr, &active),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDevicePrimaryCtxGetState(0, &flags, nullptr),
              CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// Contexts

TEST_F(CudaCtxTest, CreateMakesCurrentAndDestroyPops) {
    CUcontext c = nullptr, cur = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    ASSERT_NE(c, nullptr);
    EXPECT_NE(c, ctx);
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, c);
    CUdevice d = -1;
    CU_EXPECT_OK(cu->cuCtxGetDevice(&d));
    EXPECT_EQ(d, dev);
    CU_EXPECT_OK(cu->cuCtxSynchronize());
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx) << "the destroyed context was popped";

    // _v4, with and without parameters.
    CU_ASSERT_OK(cu->cuCtxCreate_v4(&c, nullptr, CU_CTX_SCHED_YIELD, dev));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
    CUctxCreateParams params = {};
    CU_ASSERT_OK(cu->cuCtxCreate_v4(&c, &params, 0, dev));
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, c);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
}

TEST_F(CudaCtxTest, CreateVersion3WithoutAffinity) {
    typedef CUresult (*create_v3_t)(CUcontext *, CUexecAffinityParam *, int,
                                    unsigned int, CUdevice);
    auto create_v3 = reinterpret_cast<create_v3_t>(
        cuda_test_driver_symbol("cuCtxCreate_v3"));
    ASSERT_NE(create_v3, nullptr);
    CUcontext c = nullptr, cur = nullptr;
    CU_ASSERT_OK(create_v3(&c, nullptr, 0, 0, dev));
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, c);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(create_v3(nullptr, nullptr, 0, 0, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(create_v3(&c, nullptr, 0, 0, -1), CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaCtxTest, CreateErrors) {
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    CUcontext c = nullptr;
    EXPECT_EQ(cu->cuCtxCreate_v2(nullptr, 0, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuCtxCreate_v2(&c, 0, count), CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuCtxCreate_v2(&c, 0x100, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuCtxCreate_v4(nullptr, nullptr, 0, dev),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuCtxCreate_v4(&c, nullptr, 0, -1),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuCtxDestroy_v2(nullptr), CUDA_ERROR_INVALID_VALUE);
    CUcontext cur = nullptr;
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx) << "failed creates leave the stack alone";
}

TEST_F(CudaCtxTest, PushPopAndSetCurrent) {
    CUcontext a = nullptr, b = nullptr, cur = nullptr, popped = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&a, 0, dev));  // stack: ctx a
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&popped)); // stack: ctx
    EXPECT_EQ(popped, a);
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx);
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&b, 0, dev)); // stack: ctx b
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(a));     // stack: ctx b a
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, a);
    CU_ASSERT_OK(cu->cuCtxSetCurrent(b)); // stack: ctx b b
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, b);
    CU_ASSERT_OK(cu->cuCtxSetCurrent(nullptr)); // stack: ctx b
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, b);
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(nullptr)); // popped is optional
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(a));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(b));
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx) << "destroying contexts not current pops nothing";
    EXPECT_EQ(cu->cuCtxGetCurrent(nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuCtxGetDevice(nullptr), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaCtxTest, ContextsArePerThread) {
    CUdeviceptr outer = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&outer, 64));
    CUcontext mine = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&mine, 0, dev));
    CUcontext other_created = nullptr;
    std::thread t([&] {
        // The device address is what kernels of the current context see:
        // without one there is none.
        CUdeviceptr dptr = 0;
        EXPECT_EQ(cu->cuPointerGetAttribute(
                      &dptr, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, outer),
                  CUDA_ERROR_INVALID_CONTEXT);
        // A new thread starts with no context.
        CUcontext cur = reinterpret_cast<CUcontext>(&cur);
        CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
        EXPECT_EQ(cur, nullptr);
        CUdevice d;
        EXPECT_EQ(cu->cuCtxGetDevice(&d), CUDA_ERROR_INVALID_CONTEXT);
        EXPECT_EQ(cu->cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
        EXPECT_EQ(cu->cuCtxPopCurrent_v2(&cur), CUDA_ERROR_INVALID_CONTEXT);
        CUdeviceptr p;
        EXPECT_EQ(cu->cuMemAlloc_v2(&p, 64), CUDA_ERROR_INVALID_CONTEXT);
        size_t free_b, total_b;
        EXPECT_EQ(cu->cuMemGetInfo_v2(&free_b, &total_b),
                  CUDA_ERROR_INVALID_CONTEXT);
        char host[8];
        EXPECT_EQ(cu->cuMemcpyDtoH_v2(host, 0, sizeof(host)),
                  CUDA_ERROR_INVALID_CONTEXT);
        // Contexts are not tied to a thread: the main thread's can be made
        // current here too.
        CU_EXPECT_OK(cu->cuCtxSetCurrent(mine));
        CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
        CUcontext owner = nullptr;
        CU_EXPECT_OK(
            cu->cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, p));
        EXPECT_EQ(owner, mine);
        CU_EXPECT_OK(cu->cuMemFree_v2(p));
        CU_EXPECT_OK(cu->cuCtxCreate_v2(&other_created, 0, dev));
        CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
        EXPECT_EQ(cur, other_created);
        CU_EXPECT_OK(cu->cuCtxPopCurrent_v2(&cur));
        CU_EXPECT_OK(cu->cuCtxPopCurrent_v2(&cur));
        EXPECT_EQ(cur, mine);
    });
    t.join();
    CUcontext cur = nullptr;
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, mine) << "the other thread did not change this one's";
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(other_created));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(mine));
    CU_EXPECT_OK(cu->cuMemFree_v2(outer));
}

TEST_F(CudaCtxTest, ContextDestroyedByAnotherThread) {
    CUcontext c = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 1 << 16));
    CUcontext popped;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&popped));
    std::thread t([&] {
        CU_EXPECT_OK(cu->cuCtxPushCurrent_v2(c));
        CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
        CUcontext cur = reinterpret_cast<CUcontext>(&cur);
        CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
        EXPECT_EQ(cur, nullptr) << "destroy popped it from this thread";
    });
    t.join();
    // Its memory went with it.
    unsigned type = 0;
    EXPECT_EQ(
        cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p),
        CUDA_ERROR_INVALID_VALUE);

    // Current in this thread, destroyed in another.
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    std::thread t2([&] { CU_EXPECT_OK(cu->cuCtxDestroy_v2(c)); });
    t2.join();
    CUdevice d;
    EXPECT_EQ(cu->cuCtxGetDevice(&d), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, 64), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CU_EXPECT_OK(cu->cuCtxPopCurrent_v2(&popped));
    EXPECT_EQ(popped, c);
}

TEST_F(CudaCtxTest, ContextVersion2Queries) {
    if (cu->cuCtxGetDevice_v2 == nullptr ||
        cu->cuCtxSynchronize_v2 == nullptr) {
        GTEST_SKIP() << cu->path << " predates CUDA 13";
    }
    CUcontext c = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUcontext popped;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&popped));
    CUdevice d = -1;
    CU_EXPECT_OK(cu->cuCtxGetDevice_v2(&d, c));
    EXPECT_EQ(d, dev);
    CU_EXPECT_OK(cu->cuCtxGetDevice_v2(&d, nullptr)); // the current one
    EXPECT_EQ(d, dev);
    CU_EXPECT_OK(cu->cuCtxSynchronize_v2(c));
    CU_EXPECT_OK(cu->cuCtxSynchronize_v2(nullptr));
    EXPECT_EQ(cu->cuCtxGetDevice_v2(nullptr, c), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
}

// ---------------------------------------------------------------------------
// Allocation and free

TEST_F(CudaCtxTest, MemAllocIsAlignedTo256Bytes) {
    std::vector<CUdeviceptr> ptrs;
    for (size_t size :
         {1ul, 3ul, 64ul, 255ul, 257ul, 4097ul, 1ul << 20, (1ul << 20) + 1}) {
        for (int i = 0; i < 4; i++) {
            CUdeviceptr p = 0;
            CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, size));
            EXPECT_EQ(p % 256, 0u) << size;
            ptrs.push_back(p);
        }
    }
    std::set<CUdeviceptr> distinct(ptrs.begin(), ptrs.end());
    EXPECT_EQ(distinct.size(), ptrs.size());
    for (CUdeviceptr p : ptrs) {
        CU_EXPECT_OK(cu->cuMemFree_v2(p));
    }
}

TEST_F(CudaCtxTest, MemAllocErrors) {
    CUdeviceptr p = 0;
    EXPECT_EQ(cu->cuMemAlloc_v2(nullptr, 64), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, 0), CUDA_ERROR_INVALID_VALUE);
    // More than any device has.
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, size_t{1} << 60), CUDA_ERROR_OUT_OF_MEMORY);
    size_t total = 0;
    CU_ASSERT_OK(cu->cuDeviceTotalMem_v2(&total, dev));
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, total + (size_t{1} << 30)),
              CUDA_ERROR_OUT_OF_MEMORY);
}

TEST_F(CudaCtxTest, BadAndDoubleFrees) {
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 8192));
    EXPECT_EQ(cu->cuMemFree_v2(p + 256), CUDA_ERROR_INVALID_VALUE)
        << "an interior pointer";
    int on_stack = 0;
    EXPECT_EQ(cu->cuMemFree_v2(reinterpret_cast<CUdeviceptr>(&on_stack)),
              CUDA_ERROR_INVALID_VALUE);
    void *host = nullptr;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&host, 4096));
    EXPECT_EQ(cu->cuMemFree_v2(reinterpret_cast<CUdeviceptr>(host)),
              CUDA_ERROR_INVALID_VALUE)
        << "pinned host memory is freed with cuMemFreeHost";
    EXPECT_EQ(cu->cuMemFreeHost(reinterpret_cast<void *>(p)),
              CUDA_ERROR_INVALID_VALUE)
        << "device memory is freed with cuMemFree";
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_EQ(cu->cuMemFree_v2(p), CUDA_ERROR_INVALID_VALUE) << "double free";
    CU_EXPECT_OK(cu->cuMemFreeHost(host));
    EXPECT_EQ(cu->cuMemFreeHost(host), CUDA_ERROR_INVALID_VALUE)
        << "double free";
}

TEST_F(CudaCtxTest, HostAndManagedAllocations) {
    void *a = nullptr, *b = nullptr;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&a, 1000));
    CU_ASSERT_OK(cu->cuMemHostAlloc(
        &b, 5000, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
    std::memset(a, 1, 1000); // pinned host memory is host memory
    std::memset(b, 2, 5000);
    CUdeviceptr m = 0;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, 3000, CU_MEM_ATTACH_GLOBAL));
    CUdeviceptr m2 = 0;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m2, 3000, CU_MEM_ATTACH_HOST));
    EXPECT_EQ(cu->cuMemHostAlloc(&b, 64, 0x80), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemHostAlloc(nullptr, 64, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocHost_v2(nullptr, 64), CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr bad;
    EXPECT_EQ(cu->cuMemAllocManaged(&bad, 64, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocManaged(&bad, 0, CU_MEM_ATTACH_GLOBAL),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemAllocManaged(nullptr, 64, CU_MEM_ATTACH_GLOBAL),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFreeHost(a));
    CU_EXPECT_OK(cu->cuMemFreeHost(b));
    CU_EXPECT_OK(cu->cuMemFree_v2(m));
    CU_EXPECT_OK(cu->cuMemFree_v2(m2));
}

TEST_F(CudaCtxTest, MemGetInfoAndAddressRange) {
    size_t free_b = 0, total_b = 0, total_dev = 0;
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free_b, &total_b));
    CU_ASSERT_OK(cu->cuDeviceTotalMem_v2(&total_dev, dev));
    EXPECT_EQ(total_b, total_dev);
    EXPECT_LE(free_b, total_b);
    EXPECT_EQ(cu->cuMemGetInfo_v2(nullptr, &total_b), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemGetInfo_v2(&free_b, nullptr), CUDA_ERROR_INVALID_VALUE);

    const size_t size = 3 * 4096 + 100;
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, size));
    size_t range = 0;
    for (size_t off : {size_t{0}, size_t{1}, size_t{4096}, size - 1}) {
        CUdeviceptr base = 0;
        size_t got = 0;
        CU_EXPECT_OK(cu->cuMemGetAddressRange_v2(&base, &got, p + off));
        EXPECT_EQ(base, p) << off;
        EXPECT_GE(got, size) << off;
        range = got;
    }
    CUdeviceptr base = 0;
    size_t got = 0;
    CU_EXPECT_OK(cu->cuMemGetAddressRange_v2(&base, nullptr, p + 5));
    EXPECT_EQ(base, p);
    CU_EXPECT_OK(cu->cuMemGetAddressRange_v2(nullptr, &got, p + 5));
    EXPECT_EQ(got, range);
    int on_stack = 0;
    EXPECT_EQ(cu->cuMemGetAddressRange_v2(
                  &base, &got, reinterpret_cast<CUdeviceptr>(&on_stack)),
              CUDA_ERROR_NOT_FOUND);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_EQ(cu->cuMemGetAddressRange_v2(&base, &got, p), CUDA_ERROR_NOT_FOUND)
        << "freed";
}

// ---------------------------------------------------------------------------
// Pointer attributes

TEST_F(CudaCtxTest, PointerAttributesOfInteriorPointers) {
    const size_t size = 64 * 1024 + 8;
    CUdeviceptr p = 0, q = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, size));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&q, size));
    unsigned long long id_p = 0, id_q = 0;
    CU_ASSERT_OK(
        cu->cuPointerGetAttribute(&id_q, CU_POINTER_ATTRIBUTE_BUFFER_ID, q));
    for (size_t off : {size_t{0}, size_t{8}, size_t{4096}, size - 1}) {
        CUdeviceptr ptr = p + off;
        EXPECT_EQ(
            cuda_test_attr<CUcontext>(cu, CU_POINTER_ATTRIBUTE_CONTEXT, ptr),
            ctx);
        EXPECT_EQ(
            cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr),
            static_cast<unsigned>(CU_MEMORYTYPE_DEVICE));
        EXPECT_EQ(cuda_test_attr<CUdeviceptr>(
                      cu, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, ptr),
                  ptr);
        void *host = nullptr;
        EXPECT_EQ(cu->cuPointerGetAttribute(
                      &host, CU_POINTER_ATTRIBUTE_HOST_POINTER, ptr),
                  CUDA_ERROR_INVALID_VALUE)
            << "device memory has no host address";
        auto id = cuda_test_attr<unsigned long long>(
            cu, CU_POINTER_ATTRIBUTE_BUFFER_ID, ptr);
        if (off == 0) {
            id_p = id;
        }
        EXPECT_EQ(id, id_p) << "one buffer id for the whole allocation";
        EXPECT_EQ(
            cuda_test_attr<unsigned>(cu, CU_POINTER_ATTRIBUTE_IS_MANAGED, ptr),
            0u);
        EXPECT_EQ(
            cuda_test_attr<int>(cu, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr),
            dev);
        EXPECT_NE(cuda_test_attr<unsigned>(
                      cu, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, ptr),
                  0u);
        EXPECT_EQ(cuda_test_attr<CUdeviceptr>(
                      cu, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr),
                  p);
        EXPECT_GE(
            cuda_test_attr<size_t>(cu, CU_POINTER_ATTRIBUTE_RANGE_SIZE, ptr),
            size);
    }
    EXPECT_NE(id_p, id_q);

    // The same through cuPointerGetAttributes.
    CUpointer_attribute attrs[] = {
        CU_POINTER_ATTRIBUTE_CONTEXT,
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        CU_POINTER_ATTRIBUTE_BUFFER_ID,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
        CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
        CU_POINTER_ATTRIBUTE_IS_MANAGED,
    };
    CUcontext owner = nullptr;
    unsigned type = 0, managed = 9;
    unsigned long long id = 0;
    int ordinal = -1;
    CUdeviceptr start = 0;
    void *data[] = {&owner, &type, &id, &ordinal, &start, &managed};
    CU_ASSERT_OK(cu->cuPointerGetAttributes(6, attrs, data, p + 100));
    EXPECT_EQ(owner, ctx);
    EXPECT_EQ(type, static_cast<unsigned>(CU_MEMORYTYPE_DEVICE));
    EXPECT_EQ(id, id_p);
    EXPECT_EQ(ordinal, dev);
    EXPECT_EQ(start, p);
    EXPECT_EQ(managed, 0u);

    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    CU_EXPECT_OK(cu->cuMemFree_v2(q));
    // A freed allocation is no longer known.
    EXPECT_EQ(cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                        p + 8),
              CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaCtxTest, PointerAttributesOfHostAndManagedMemory) {
    void *host = nullptr;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&host, 10000));
    CUdeviceptr h = reinterpret_cast<CUdeviceptr>(host);
    unsigned type = 0, managed = 7;
    void *hp = nullptr;
    CU_EXPECT_OK(cu->cuPointerGetAttribute(
        &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, h + 5000));
    EXPECT_EQ(type, static_cast<unsigned>(CU_MEMORYTYPE_HOST));
    CU_EXPECT_OK(cu->cuPointerGetAttribute(
        &hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, h + 5000));
    EXPECT_EQ(hp, static_cast<char *>(host) + 5000);
    CUcontext owner = nullptr;
    CU_EXPECT_OK(
        cu->cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, h));
    EXPECT_EQ(owner, ctx);

    CUdeviceptr m = 0;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, 10000, CU_MEM_ATTACH_GLOBAL));
    CU_EXPECT_OK(cu->cuPointerGetAttribute(
        &managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m + 9999));
    EXPECT_EQ(managed, 1u);
    CU_EXPECT_OK(cu->cuPointerGetAttribute(
        &hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, m + 1));
    EXPECT_EQ(hp, reinterpret_cast<void *>(m + 1));

    // Memory the driver does not know.
    int on_stack = 0;
    CUdeviceptr s = reinterpret_cast<CUdeviceptr>(&on_stack);
    EXPECT_EQ(
        cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, s),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        cu->cuPointerGetAttribute(nullptr, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, m),
        CUDA_ERROR_INVALID_VALUE);
    // ... is no error for cuPointerGetAttributes: the values read as zero.
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                   CU_POINTER_ATTRIBUTE_CONTEXT};
    type = 77;
    owner = ctx;
    void *data[] = {&type, &owner};
    CU_EXPECT_OK(cu->cuPointerGetAttributes(2, attrs, data, s));
    EXPECT_EQ(type, 0u);
    EXPECT_EQ(owner, nullptr);
    EXPECT_EQ(cu->cuPointerGetAttributes(0, attrs, data, m),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuPointerGetAttributes(2, nullptr, data, m),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuPointerGetAttributes(2, attrs, nullptr, m),
              CUDA_ERROR_INVALID_VALUE);

    CU_EXPECT_OK(cu->cuMemFreeHost(host));
    CU_EXPECT_OK(cu->cuMemFree_v2(m));
}

// ---------------------------------------------------------------------------
// Copies and fills

static std::vector<unsigned char> pattern(size_t n, unsigned seed) {
    std::vector<unsigned char> v(n);
    for (size_t i = 0; i < n; i++) {
        v[i] = static_cast<unsigned char>((i * 131 + seed * 7 + 1) & 0xff);
    }
    return v;
}

TEST_F(CudaCtxTest, CopiesAndFills) {
    const size_t size = 3 * 4096 + 77;
    CUdeviceptr a = 0, b = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, size));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, size));
    auto src = pattern(size, 1);
    std::vector<unsigned char> out(size);

    CU_ASSERT_OK(cu->cuMemcpyHtoD_v2(a, src.data(), size));
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(out.data(), a, size));
    EXPECT_EQ(out, src);

    // Interior pointers on both sides.
    CU_ASSERT_OK(cu->cuMemsetD8_v2(b, 0xab, size));
    CU_ASSERT_OK(cu->cuMemcpyDtoD_v2(b + 100, a + 200, 1000));
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(out.data(), b, size));
    for (size_t i = 0; i < size; i++) {
        unsigned char want = i >= 100 && i < 1100 ? src[i + 100] : 0xab;
        ASSERT_EQ(out[i], want) << i;
    }
    CU_ASSERT_OK(cu->cuMemsetD8_v2(b + 10, 0x5c, 20));
    unsigned char small[40];
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(small, b, sizeof(small)));
    for (size_t i = 0; i < sizeof(small); i++) {
        EXPECT_EQ(small[i], i >= 10 && i < 30 ? 0x5c : 0xab) << i;
    }

    // cuMemcpy: unified addressing, either side host or device.
    auto src2 = pattern(size, 2);
    CU_ASSERT_OK(
        cu->cuMemcpy(a, reinterpret_cast<CUdeviceptr>(src2.data()), size));
    CU_ASSERT_OK(cu->cuMemcpy(b, a, size));
    std::fill(out.begin(), out.end(), 0);
    CU_ASSERT_OK(
        cu->cuMemcpy(reinterpret_cast<CUdeviceptr>(out.data()), b, size));
    EXPECT_EQ(out, src2);

    // Nothing to copy is no error.
    CU_EXPECT_OK(cu->cuMemcpyHtoD_v2(a, src.data(), 0));
    CU_EXPECT_OK(cu->cuMemcpyDtoH_v2(out.data(), a, 0));
    CU_EXPECT_OK(cu->cuMemcpyDtoD_v2(a, b, 0));
    CU_EXPECT_OK(cu->cuMemsetD8_v2(a, 0, 0));
    CU_EXPECT_OK(cu->cuCtxSynchronize());

    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaCtxTest, CopiesWithPinnedAndManagedMemory) {
    void *host = nullptr;
    CUdeviceptr m = 0, d = 0;
    const size_t size = 5000;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&host, size));
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, size, CU_MEM_ATTACH_GLOBAL));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, size));
    auto src = pattern(size, 3);
    std::memcpy(host, src.data(), size);
    CU_ASSERT_OK(cu->cuMemcpyHtoD_v2(d, host, size));
    CU_ASSERT_OK(cu->cuMemcpyDtoD_v2(m, d, size));
    std::vector<unsigned char> out(size);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(out.data(), m, size));
    EXPECT_EQ(out, src);
    EXPECT_EQ(std::memcmp(reinterpret_cast<void *>(m), src.data(), size), 0)
        << "managed memory is readable from the host";
    CU_EXPECT_OK(cu->cuMemFreeHost(host));
    CU_EXPECT_OK(cu->cuMemFree_v2(m));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
}

TEST_F(CudaCtxTest, PerThreadDefaultStreamVariants) {
    using htod_t = decltype(&::cuMemcpyHtoD_v2);
    using dtoh_t = decltype(&::cuMemcpyDtoH_v2);
    using dtod_t = decltype(&::cuMemcpyDtoD_v2);
    using memcpy_t = decltype(&::cuMemcpy);
    using set_t = decltype(&::cuMemsetD8_v2);
    auto htod = reinterpret_cast<htod_t>(
        cuda_test_driver_symbol("cuMemcpyHtoD_v2_ptds"));
    auto dtoh = reinterpret_cast<dtoh_t>(
        cuda_test_driver_symbol("cuMemcpyDtoH_v2_ptds"));
    auto dtod = reinterpret_cast<dtod_t>(
        cuda_test_driver_symbol("cuMemcpyDtoD_v2_ptds"));
    auto any =
        reinterpret_cast<memcpy_t>(cuda_test_driver_symbol("cuMemcpy_ptds"));
    auto set =
        reinterpret_cast<set_t>(cuda_test_driver_symbol("cuMemsetD8_v2_ptds"));
    ASSERT_TRUE(htod && dtoh && dtod && any && set);
    CUdeviceptr a = 0, b = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 256));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, 256));
    auto src = pattern(256, 4);
    std::vector<unsigned char> out(256);
    CU_ASSERT_OK(htod(a, src.data(), 256));
    CU_ASSERT_OK(dtod(b, a, 256));
    CU_ASSERT_OK(dtoh(out.data(), b, 256));
    EXPECT_EQ(out, src);
    CU_ASSERT_OK(set(b, 0x11, 16));
    CU_ASSERT_OK(any(reinterpret_cast<CUdeviceptr>(out.data()), b, 256));
    EXPECT_EQ(out[0], 0x11);
    EXPECT_EQ(out[16], src[16]);
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaCtxTest, CopyArgumentErrors) {
    CUdeviceptr a = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 4096));
    char buf[16];
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(a, nullptr, sizeof(buf)),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpyDtoH_v2(nullptr, a, sizeof(buf)),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

// ---------------------------------------------------------------------------
// IPC within one process

TEST_F(CudaCtxTest, IpcHandleOfInteriorPointerIsTheAllocations) {
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 1 << 20));
    CUipcMemHandle base, inner;
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&base, p));
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&inner, p + (1 << 19)));
    EXPECT_EQ(std::memcmp(&base, &inner, sizeof(base)), 0);
    CUipcMemHandle again;
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&again, p));
    EXPECT_EQ(std::memcmp(&base, &again, sizeof(base)), 0);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

TEST_F(CudaCtxTest, IpcOpenInTheExportingProcessFails) {
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    CUipcMemHandle h;
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&h, p));
    CUdeviceptr q = 0;
    EXPECT_EQ(
        cu->cuIpcOpenMemHandle_v2(&q, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
        CUDA_ERROR_INVALID_CONTEXT);
    // Also in another context of this process.
    CUcontext other = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&other, 0, dev));
    EXPECT_EQ(
        cu->cuIpcOpenMemHandle_v2(&q, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
        CUDA_ERROR_INVALID_CONTEXT);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(other));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

TEST_F(CudaCtxTest, IpcGetMemHandleErrors) {
    CUipcMemHandle h = {};
    CUdeviceptr p = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    EXPECT_EQ(cu->cuIpcGetMemHandle(nullptr, p), CUDA_ERROR_INVALID_VALUE);
    void *host = nullptr;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&host, 4096));
    EXPECT_EQ(cu->cuIpcGetMemHandle(&h, reinterpret_cast<CUdeviceptr>(host)),
              CUDA_ERROR_INVALID_VALUE)
        << "pinned host memory";
    CUdeviceptr m = 0;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
    EXPECT_EQ(cu->cuIpcGetMemHandle(&h, m), CUDA_ERROR_INVALID_VALUE)
        << "managed memory";
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    EXPECT_EQ(cu->cuIpcGetMemHandle(&h, p), CUDA_ERROR_INVALID_VALUE)
        << "freed memory";
    CU_EXPECT_OK(cu->cuMemFreeHost(host));
    CU_EXPECT_OK(cu->cuMemFree_v2(m));
    EXPECT_EQ(cu->cuIpcCloseMemHandle(m), CUDA_ERROR_INVALID_VALUE)
        << "not opened by cuIpcOpenMemHandle";
    CUdeviceptr q;
    EXPECT_EQ(cu->cuIpcOpenMemHandle_v2(nullptr, h, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuIpcOpenMemHandle_v2(&q, h, 0x10), CUDA_ERROR_INVALID_VALUE);
}

} // namespace

// Copies and fills stop at the size asked for, not at the end of the
// allocation's last page (the rule the Level Zero driver follows too).
TEST_F(CudaCtxTest, CopiesAndFillsStopAtTheRequestedSizeNotThePage) {
    const size_t size = 1000;
    CUdeviceptr a = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, size));
    std::vector<unsigned char> host(8192);
    CU_EXPECT_OK(cu->cuMemcpyHtoD_v2(a, host.data(), size));
    EXPECT_EQ(cu->cuMemcpyHtoD_v2(a, host.data(), size + 1),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpyDtoH_v2(host.data(), a, 4096),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpyDtoH_v2(host.data(), a + size - 1, 2),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpy(a + size + 8, a, 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD8_v2(a, 0, size + 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD8_v2(a + size, 0, 1), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}
