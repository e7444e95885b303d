// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a program asks the driver before it works: every device attribute,
// UUIDs and PCI bus ids, peer capability and peer access between contexts,
// a context's flags, API version and limits, modules and kernels, and
// cuGetProcAddress_v2 for every ABI version of every entry point that
// cudaTypedefs.h lists. The CudaQuery cases run unchanged on a real
// libcuda.so.1; CudaQueryEmulated checks the emulated driver's own model.

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

class CudaQuery : public CudaCtxTest {
  protected:
    int count = 0;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (!HasFatalFailure()) {
            CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
        }
    }
};

// ---------------------------------------------------------------------------
// Devices

TEST_F(CudaQuery, EveryDeviceAttributeHasAValue) {
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int v = INT32_MIN;
        EXPECT_EQ(cu->cuDeviceGetAttribute(
                      &v, static_cast<CUdevice_attribute>(a), dev),
                  CUDA_SUCCESS)
            << "attribute " << a;
        EXPECT_NE(v, INT32_MIN) << "attribute " << a;
    }
}

TEST_F(CudaQuery, MemoryFeatureAttributes) {
    auto attr = [&](CUdevice_attribute a) {
        int v = -1;
        EXPECT_EQ(cu->cuDeviceGetAttribute(&v, a, dev), CUDA_SUCCESS) << a;
        return v;
    };
    // What the other suites use: they must be there.
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING), 1);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY), 1);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED), 1);
    EXPECT_EQ(
        attr(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED),
        1);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED), 1);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED), 1);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED), 1);
    EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT), 1);
    EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT), 1);
    int least = 0, greatest = 0;
    CU_ASSERT_OK(cu->cuCtxGetStreamPriorityRange(&least, &greatest));
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
              least != greatest ? 1 : 0);
}

TEST_F(CudaQuery, UuidBothVersionsAgree) {
    CUuuid a, b;
    CU_ASSERT_OK(cu->cuDeviceGetUuid_v1(&a, dev));
    CU_ASSERT_OK(cu->cuDeviceGetUuid_v2(&b, dev));
    EXPECT_EQ(std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)), 0);
    EXPECT_EQ(cu->cuDeviceGetUuid_v1(nullptr, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetUuid_v1(&a, count), CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaQuery, PciBusIdRoundTrip) {
    for (int d = 0; d < count; d++) {
        char id[32] = {};
        CU_ASSERT_OK(cu->cuDeviceGetPCIBusId(id, sizeof(id), d));
        EXPECT_EQ(std::strlen(id), 12u) << id; // "0000:01:00.0"
        std::regex form(
            "[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
        EXPECT_TRUE(std::regex_match(id, form)) << id;
        CUdevice back = -1;
        CU_ASSERT_OK(cu->cuDeviceGetByPCIBusId(&back, id));
        EXPECT_EQ(back, d) << id;
        // "[bus]:[device].[function]": without the domain.
        CU_ASSERT_OK(
            cu->cuDeviceGetByPCIBusId(&back, std::strchr(id, ':') + 1));
        EXPECT_EQ(back, d) << id;
        int bus = -1;
        CU_ASSERT_OK(
            cu->cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d));
        EXPECT_EQ(std::strtol(id + 5, nullptr, 16), bus) << id;
    }
    char small[5];
    std::memset(small, 'x', sizeof(small));
    CU_ASSERT_OK(cu->cuDeviceGetPCIBusId(small, 4, dev));
    EXPECT_EQ(small[3], '\0') << "at most len bytes, terminated";
    EXPECT_EQ(small[4], 'x');
    EXPECT_EQ(cu->cuDeviceGetPCIBusId(nullptr, 16, dev),
              CUDA_ERROR_INVALID_VALUE);
    char id[16];
    EXPECT_EQ(cu->cuDeviceGetPCIBusId(id, sizeof(id), count),
              CUDA_ERROR_INVALID_DEVICE);
    CUdevice d;
    EXPECT_EQ(cu->cuDeviceGetByPCIBusId(nullptr, "0000:01:00.0"),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceGetByPCIBusId(&d, nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_NE(cu->cuDeviceGetByPCIBusId(&d, "not a bus id"), CUDA_SUCCESS);
    EXPECT_NE(cu->cuDeviceGetByPCIBusId(&d, "ffff:ff:1f.7"), CUDA_SUCCESS)
        << "no device there";
}

// ---------------------------------------------------------------------------
// Peers

TEST_F(CudaQuery, CanAccessPeer) {
    int can = -1;
    CU_ASSERT_OK(cu->cuDeviceCanAccessPeer(&can, dev, dev));
    EXPECT_EQ(can, 0) << "a device is not its own peer";
    EXPECT_EQ(cu->cuDeviceCanAccessPeer(nullptr, dev, dev),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuDeviceCanAccessPeer(&can, dev, count),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDeviceCanAccessPeer(&can, count, dev),
              CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaQuery, EnableAndDisablePeerAccess) {
    int can = 0;
    if (count > 1) {
        CU_ASSERT_OK(cu->cuDeviceCanAccessPeer(&can, 0, 1));
    }
    if (can == 0) {
        GTEST_SKIP() << "no pair of devices that can access each other";
    }
    CUcontext peer;
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&peer, 1));
    EXPECT_EQ(cu->cuCtxDisablePeerAccess(peer),
              CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    EXPECT_EQ(cu->cuCtxEnablePeerAccess(peer, 1), CUDA_ERROR_INVALID_VALUE)
        << "Flags must be 0";
    CU_ASSERT_OK(cu->cuCtxEnablePeerAccess(peer, 0));
    EXPECT_EQ(cu->cuCtxEnablePeerAccess(peer, 0),
              CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
    // With access, memory of the peer's device is copied directly.
    CUdeviceptr here, there;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&here, 256));
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(peer));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&there, 256));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(there, 0x2b, 256));
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&c));
    CU_ASSERT_OK(cu->cuMemcpyDtoD_v2(here, there, 256));
    unsigned char b = 0;
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(&b, here + 255, 1));
    EXPECT_EQ(b, 0x2b);
    CU_ASSERT_OK(cu->cuCtxDisablePeerAccess(peer));
    EXPECT_EQ(cu->cuCtxDisablePeerAccess(peer),
              CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    CU_EXPECT_OK(cu->cuMemFree_v2(here));
    CU_EXPECT_OK(cu->cuMemFree_v2(there));
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(1));
}

TEST_F(CudaQuery, PeerAccessErrors) {
    // "Returns CUDA_ERROR_INVALID_CONTEXT if ... peerContext is not a valid
    // context, or if the current context is peerContext."
    EXPECT_EQ(cu->cuCtxEnablePeerAccess(ctx, 0), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxEnablePeerAccess(nullptr, 0),
              CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuCtxDisablePeerAccess(nullptr), CUDA_ERROR_INVALID_CONTEXT);
    // Another context on the same device: the device cannot be its own peer.
    CUcontext same;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&same, 0, dev));
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&c));
    EXPECT_EQ(cu->cuCtxEnablePeerAccess(same, 0),
              CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(same));
    // No current context.
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&c));
    EXPECT_EQ(cu->cuCtxEnablePeerAccess(ctx, 0), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(c));
}

// ---------------------------------------------------------------------------
// Contexts

TEST_F(CudaQuery, ContextFlagsAndApiVersion) {
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, CU_CTX_SCHED_BLOCKING_SYNC, dev));
    unsigned flags = 0;
    CU_ASSERT_OK(cu->cuCtxGetFlags(&flags));
    EXPECT_EQ(flags & CU_CTX_SCHED_MASK,
              static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
    EXPECT_EQ(cu->cuCtxGetFlags(nullptr), CUDA_ERROR_INVALID_VALUE);
    unsigned version = 0;
    CU_ASSERT_OK(cu->cuCtxGetApiVersion(c, &version));
    EXPECT_GE(version, 3020u);
    unsigned current = 0;
    CU_ASSERT_OK(cu->cuCtxGetApiVersion(nullptr, &current))
        << "NULL: the current context";
    EXPECT_EQ(current, version);
    EXPECT_EQ(cu->cuCtxGetApiVersion(c, nullptr), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    CUcontext none;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&none));
    EXPECT_EQ(cu->cuCtxGetFlags(&flags), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(none));
}

TEST_F(CudaQuery, Limits) {
    size_t stack = 0;
    CU_ASSERT_OK(cu->cuCtxGetLimit(&stack, CU_LIMIT_STACK_SIZE));
    EXPECT_GT(stack, 0u);
    CU_ASSERT_OK(cu->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, stack * 2));
    size_t got = 0;
    CU_ASSERT_OK(cu->cuCtxGetLimit(&got, CU_LIMIT_STACK_SIZE));
    EXPECT_GE(got, stack * 2) << "the driver may round it up";
    CU_ASSERT_OK(cu->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, stack));
    size_t heap = 0, fifo = 0;
    CU_ASSERT_OK(cu->cuCtxGetLimit(&heap, CU_LIMIT_MALLOC_HEAP_SIZE));
    CU_ASSERT_OK(cu->cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE));
    EXPECT_GT(heap, 0u);
    EXPECT_GT(fifo, 0u);
    EXPECT_EQ(cu->cuCtxGetLimit(nullptr, CU_LIMIT_STACK_SIZE),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_NE(cu->cuCtxGetLimit(&got, static_cast<CUlimit>(0x7fff)),
              CUDA_SUCCESS);
    EXPECT_NE(cu->cuCtxSetLimit(static_cast<CUlimit>(0x7fff), 1), CUDA_SUCCESS);
    // "This limit is only applicable to devices of compute capability < 9.0."
    int major = 0;
    CU_ASSERT_OK(cu->cuDeviceGetAttribute(
        &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    if (major >= 9) {
        EXPECT_EQ(cu->cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 4),
                  CUDA_ERROR_UNSUPPORTED_LIMIT);
    }
}

// ---------------------------------------------------------------------------
// Modules and kernels

TEST_F(CudaQuery, ModuleLoadOfNothingFails) {
    CUmodule m = nullptr;
    EXPECT_NE(cu->cuModuleLoad(&m, "/nonexistent/umf-gpu-test.cubin"),
              CUDA_SUCCESS);
    static const char junk[64] = "not a module image";
    EXPECT_NE(cu->cuModuleLoadData(&m, junk), CUDA_SUCCESS);
    EXPECT_EQ(cu->cuModuleLoad(nullptr, "x"), CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// cuGetProcAddress_v2 against cudaTypedefs.h: every ABI version of every
// entry point that the driver resolves (PFN_<name>_v<version>[_ptds|_ptsz]).

struct pfn_t {
    std::string name;
    int version;
    bool per_thread;
};

// cudaTypedefs.h, and cudaProfilerTypedefs.h for cudaProfiler.h.
std::vector<pfn_t> typedefs_pfns() {
    std::stringstream text;
    std::vector<std::string> paths = {UMF_GPU_TEST_CUDA_TYPEDEFS_H,
                                      UMF_GPU_TEST_CUDA_PROFILER_TYPEDEFS_H};
#ifdef UMF_GPU_TEST_CUDA_INTEROP
    for (const char *h :
         {"/cudaGLTypedefs.h", "/cudaEGLTypedefs.h", "/cudaVDPAUTypedefs.h"}) {
        paths.push_back(std::string(UMF_GPU_TEST_CUDA_INCLUDE) + h);
    }
#endif
    for (const std::string &path : paths) {
        std::ifstream in(path);
        text << in.rdbuf();
    }
    std::string s = text.str();
    std::regex re("PFN_(cu[A-Za-z0-9]+)_v([0-9]+)(_pt[ds][sz])?\\b");
    std::set<std::string> seen;
    std::vector<pfn_t> out;
    for (std::sregex_iterator it(s.begin(), s.end(), re), last; it != last;
         ++it) {
        if ((*it)[1].str() == "cuWGLGetDevice") {
            continue; // cudaGL.h declares it on Windows only
        }
        if (seen.insert((*it)[0].str()).second) {
            out.push_back(
                {(*it)[1].str(), std::stoi((*it)[2].str()), (*it)[3].matched});
        }
    }
    return out;
}

// What cuda.h and cudaProfiler.h declare to a driver, read at run time: the
// compiler preprocesses them with __CUDA_API_VERSION_INTERNAL, so every
// name they map a function to (_v2, _ptds, _ptsz ...) and every legacy name
// is there (cuda_mock_exports compares the same list with nm -D).
std::set<std::string> cuda_h_declarations() {
    std::string cmd = std::string(UMF_GPU_TEST_CC) +
                      " -E -P -D__CUDA_API_VERSION_INTERNAL -I" +
                      UMF_GPU_TEST_CUDA_INCLUDE +
                      " -include cuda.h -include cudaProfiler.h"
#ifdef UMF_GPU_TEST_CUDA_INTEROP
                      " -include cudaGL.h -include cudaEGL.h"
                      " -include vdpau/vdpau.h -include cudaVDPAU.h"
#endif
                      " -x c /dev/null";
    std::string text;
    if (FILE *f = popen(cmd.c_str(), "r")) {
        char buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) {
            text.append(buf, n);
        }
        pclose(f);
    }
    std::regex re("CUresult\\s+(cu[A-Za-z0-9_]+)\\s*\\(");
    std::set<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), re), last;
         it != last; ++it) {
        out.insert((*it)[1].str());
    }
    return out;
}

// A declared name without its version and stream suffixes: what
// cuGetProcAddress_v2 is asked for.
std::string base_name(const std::string &name) {
    static const std::regex suffix("(_v[0-9]+)?(_pt[ds][sz])?$");
    return std::regex_replace(name, suffix, "");
}

bool per_thread_name(const std::string &name) {
    return name.size() > 5 && (name.compare(name.size() - 5, 5, "_ptds") == 0 ||
                               name.compare(name.size() - 5, 5, "_ptsz") == 0);
}

// Every PFN of cudaTypedefs.h (cudaProfilerTypedefs.h) at or below the
// driver's version resolves, through cuGetProcAddress_v2 and the legacy
// cuGetProcAddress alike, to a function cuda.h declares under that base
// name, of the per-thread kind exactly when the PFN is; different versions
// of one name are different functions. On the emulated driver, every PFN
// resolves and every declared function is reached.
TEST_F(CudaQuery, ProcAddressOfEveryVersionInCudaTypedefs) {
    std::vector<pfn_t> pfns = typedefs_pfns();
    ASSERT_GT(pfns.size(), 600u) << "cannot read " UMF_GPU_TEST_CUDA_TYPEDEFS_H;
    std::set<std::string> declared = cuda_h_declarations();
    ASSERT_GT(declared.size(), 600u)
        << "cannot preprocess cuda.h with " << UMF_GPU_TEST_CC;
    std::map<void *, std::string> declared_fn;
    for (const std::string &n : declared) {
        if (void *fn = cuda_test_driver_symbol(n.c_str())) {
            declared_fn[fn] = n;
        }
    }
    auto legacy =
        reinterpret_cast<CUresult (*)(const char *, void **, int, cuuint64_t)>(
            cuda_test_driver_symbol("cuGetProcAddress"));
    int version = 0;
    CU_ASSERT_OK(cu->cuDriverGetVersion(&version));
    std::map<std::string, std::map<int, void *>> got;
    std::set<void *> reached;
    size_t checked = 0;
    for (const pfn_t &p : pfns) {
        if (p.version > version) {
            continue;
        }
        std::string what = p.name + " " + std::to_string(p.version) +
                           (p.per_thread ? " per-thread" : "");
        void *fn = nullptr;
        CUdriverProcAddressQueryResult status =
            CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        cuuint64_t flags = p.per_thread
                               ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                               : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
        EXPECT_EQ(cu->cuGetProcAddress_v2(p.name.c_str(), &fn, p.version, flags,
                                          &status),
                  CUDA_SUCCESS)
            << what;
        if (fn == nullptr && !cu->emulated()) {
            continue; // a real driver may lack some
        }
        EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS) << what;
        ASSERT_NE(fn, nullptr) << what;
        auto d = declared_fn.find(fn);
        ASSERT_NE(d, declared_fn.end()) << what << " is no function of cuda.h";
        EXPECT_EQ(base_name(d->second), p.name) << what << ": " << d->second;
        EXPECT_EQ(per_thread_name(d->second), p.per_thread)
            << what << ": " << d->second;
        if (legacy != nullptr) {
            void *old = nullptr;
            EXPECT_EQ(legacy(p.name.c_str(), &old, p.version, flags),
                      CUDA_SUCCESS)
                << what;
            EXPECT_EQ(old, fn) << what << " through cuGetProcAddress";
        }
        got[p.name + (p.per_thread ? "/pt" : "")][p.version] = fn;
        reached.insert(fn);
        checked++;
    }
    EXPECT_GT(checked, 150u);
    // Each ABI version is a function of its own: the newest version of an
    // entry point must not resolve to an older variant (a driver that
    // lacked it would hand out a function of another signature).
    for (const auto &entry : got) {
        std::set<void *> fns;
        for (const auto &v : entry.second) {
            fns.insert(v.second);
        }
        EXPECT_EQ(fns.size(), entry.second.size())
            << entry.first << ": two ABI versions resolve to one function";
    }
    if (cu->emulated()) {
        EXPECT_EQ(checked, pfns.size()) << "every PFN resolves";
        for (const auto &d : declared_fn) {
            EXPECT_EQ(reached.count(d.first), 1u)
                << d.second << " is reached by no version of "
                << base_name(d.second);
        }
        EXPECT_EQ(declared_fn.size(), declared.size())
            << "every declared function is exported";
    }
}

// ---------------------------------------------------------------------------
// The emulated driver's own model

using CudaQueryEmulated = CudaEmulatedOnly<CudaQuery>;

TEST_F(CudaQueryEmulated, TheDeviceModel) {
    auto attr = [&](CUdevice_attribute a) {
        int v = -1;
        EXPECT_EQ(cu->cuDeviceGetAttribute(&v, a, dev), CUDA_SUCCESS) << a;
        return v;
    };
    // An H100 SXM5 (cuda_mock_device.c, docs/emulated-cuda.md).
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), 9);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), 0);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), 132);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID),
              static_cast<int>(0x233010deu));
    // What the emulation does not do.
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED), 0);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES), 0);
    EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED), 0);
    EXPECT_EQ(
        attr(CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED), 0);
    // Out of range.
    int v;
    EXPECT_EQ(cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, dev),
              CUDA_ERROR_INVALID_VALUE);
    CUdevice d;
    EXPECT_EQ(cu->cuDeviceGetByPCIBusId(&d, "0000:00:00.0"),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(cu->cuDeviceGetByPCIBusId(&d, "0000:01:00"), CUDA_SUCCESS)
        << "[domain]:[bus]:[device]";
    EXPECT_EQ(d, 0);
    EXPECT_EQ(cu->cuDeviceGetByPCIBusId(&d, "0000:01:00.0x"),
              CUDA_ERROR_INVALID_VALUE);
}

// Loading is refused; no module or function can exist, so every handle of
// one is invalid (docs/emulated-cuda.md, "Refused families").
TEST_F(CudaQueryEmulated, ModulesAndKernelsAreNotSupported) {
    CUmodule m;
    EXPECT_EQ(cu->cuModuleLoad(&m, "/nonexistent"), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(cu->cuModuleLoadData(&m, "x"), CUDA_ERROR_NOT_SUPPORTED);
    CUfunction f;
    CUmodule fake = reinterpret_cast<CUmodule>(&m);
    EXPECT_EQ(cu->cuModuleGetFunction(&f, fake, "k"),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuModuleGetFunction(nullptr, fake, "k"),
              CUDA_ERROR_INVALID_VALUE);
    CUfunction ff = reinterpret_cast<CUfunction>(&m);
    EXPECT_EQ(
        cu->cuLaunchKernel(ff, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
        CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                                 nullptr),
              CUDA_ERROR_INVALID_HANDLE);
    void *p1 = nullptr, *p2 = nullptr;
    EXPECT_EQ(cu->cuLaunchKernel(ff, 1, 1, 1, 1, 1, 1, 0, nullptr, &p1, &p2),
              CUDA_ERROR_INVALID_VALUE)
        << "kernelParams and extra both given";
    for (const char *name :
         {"cuModuleLoadDataEx", "cuModuleLoadFatBinary", "cuModuleUnload",
          "cuModuleGetGlobal_v2", "cuLaunchKernelEx", "cuLaunchKernel_ptsz",
          "cuLaunchKernelEx_ptsz"}) {
        EXPECT_NE(cuda_test_driver_symbol(name), nullptr) << name;
    }
}

TEST_F(CudaQueryEmulated, LimitsOfTheModel) {
    size_t v = 0;
    CU_ASSERT_OK(cu->cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    EXPECT_EQ(v, 1024u);
    CU_ASSERT_OK(cu->cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 1000));
    CU_ASSERT_OK(cu->cuCtxGetLimit(&v, CU_LIMIT_MAX_L2_FETCH_GRANULARITY));
    EXPECT_EQ(v, 128u) << "clamped";
    CU_ASSERT_OK(cu->cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 64));
    EXPECT_EQ(cu->cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH),
              CUDA_ERROR_UNSUPPORTED_LIMIT);
    CU_ASSERT_OK(cu->cuCtxGetLimit(&v, CU_LIMIT_CIG_ENABLED));
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(cu->cuCtxSetLimit(CU_LIMIT_CIG_ENABLED, 1),
              CUDA_ERROR_INVALID_VALUE);
    // A context made anew has the defaults again.
    CU_ASSERT_OK(cu->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CU_ASSERT_OK(cu->cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    EXPECT_EQ(v, 1024u);
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    CU_ASSERT_OK(cu->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1024));
}

TEST_F(CudaQueryEmulated, ProcAddressNamesTheVariant) {
    struct {
        const char *symbol;
        int version;
        cuuint64_t flags;
        const char *expect;
    } cases[] = {
        {"cuStreamDestroy", 13000, 0, "cuStreamDestroy_v2"},
        {"cuStreamDestroy", 3020, 0, "cuStreamDestroy"},
        {"cuEventElapsedTime", 12000, 0, "cuEventElapsedTime"},
        {"cuEventElapsedTime", 13000, 0, "cuEventElapsedTime_v2"},
        {"cuStreamSynchronize", 13000,
         CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
         "cuStreamSynchronize_ptsz"},
        {"cuMemcpyAsync", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
         "cuMemcpyAsync_ptsz"},
        {"cuMemcpyPeer", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
         "cuMemcpyPeer_ptds"},
        {"cuMemcpy2D", 13000, 0, "cuMemcpy2D_v2"},
        {"cuMemsetD2D32Async", 13000,
         CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
         "cuMemsetD2D32Async_ptsz"},
        {"cuMemHostRegister", 13000, 0, "cuMemHostRegister_v2"},
        {"cuStreamGetCtx", 13000, 0, "cuStreamGetCtx_v2"},
        {"cuStreamGetCtx", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
         "cuStreamGetCtx_ptsz"},
        {"cuMemAllocAsync", 13000, 0, "cuMemAllocAsync"},
        {"cuMemAllocAsync", 13000,
         CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, "cuMemAllocAsync_ptsz"},
        {"cuDeviceGetUuid", 10000, 0, "cuDeviceGetUuid"},
        {"cuModuleGetGlobal", 13000, 0, "cuModuleGetGlobal_v2"},
    };
    for (const auto &c : cases) {
        void *fn = nullptr;
        CU_ASSERT_OK(cu->cuGetProcAddress_v2(c.symbol, &fn, c.version, c.flags,
                                             nullptr));
        EXPECT_EQ(fn, cuda_test_driver_symbol(c.expect))
            << c.symbol << " " << c.version << " should be " << c.expect;
    }
}

// Every exported entry point (the table of docs/emulated-cuda.md, which
// cuda_mock_exports checks against nm -D) takes fault rules by its name and
// is reached by cuGetProcAddress_v2 for some ABI version of its base name.
TEST_F(CudaQueryEmulated, EveryExportIsAnEntryAndResolvable) {
    std::ifstream in(UMF_GPU_TEST_CUDA_DOC);
    std::string line;
    std::vector<std::string> names;
    std::regex name_re("`(cu[A-Za-z0-9_]+)`");
    while (std::getline(in, line)) {
        if (line.rfind("| `cu", 0) != 0) {
            continue;
        }
        std::string cell = line.substr(1, line.find('|', 1) - 1);
        for (std::sregex_iterator it(cell.begin(), cell.end(), name_re), end;
             it != end; ++it) {
            names.push_back((*it)[1].str());
        }
    }
    ASSERT_GT(names.size(), 150u) << "cannot read " UMF_GPU_TEST_CUDA_DOC;
    // Every function cuGetProcAddress_v2 hands out, per base name, over the
    // versions of cudaTypedefs.h.
    std::map<std::string, std::set<void *>> reachable;
    for (const pfn_t &p : typedefs_pfns()) {
        for (cuuint64_t flags :
             {static_cast<cuuint64_t>(CU_GET_PROC_ADDRESS_LEGACY_STREAM),
              static_cast<cuuint64_t>(
                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)}) {
            void *fn = nullptr;
            if (cu->cuGetProcAddress_v2(p.name.c_str(), &fn, p.version, flags,
                                        nullptr) == CUDA_SUCCESS &&
                fn != nullptr) {
                reachable[p.name].insert(fn);
            }
        }
    }
    std::regex suffix("(_v[0-9]+)?(_pt[ds][sz])?$");
#ifndef UMF_GPU_TEST_CUDA_INTEROP
    // A driver built without the GL, EGL and VDPAU headers lacks the interop
    // functions that the documentation names (they alone have these words).
    std::regex interop("GL|Egl|VDPAU");
#endif
    for (const std::string &n : names) {
#ifndef UMF_GPU_TEST_CUDA_INTEROP
        if (std::regex_search(n, interop)) {
            continue;
        }
#endif
        EXPECT_GE(cu->umfCudaMockGetCallCount(n.c_str()), 0)
            << n << " is not an entry point of the fault rules";
        void *fn = cuda_test_driver_symbol(n.c_str());
        ASSERT_NE(fn, nullptr) << n;
        std::string base = std::regex_replace(n, suffix, "");
        EXPECT_EQ(reachable[base].count(fn), 1u)
            << n << " is not what cuGetProcAddress_v2(\"" << base
            << "\") gives for any version";
    }
}

} // namespace
