// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Living next to another UMF core: our providers' ops tables work under the
// stand-in second core (other_core.c, a different handle layout, loaded
// RTLD_LOCAL as a runtime would), and our extension functions refuse its
// handles with INVALID_ARGUMENT instead of reading them as ours, as they
// refuse a handle our core destroyed.

#include <cstdint>
#include <string>

#include <dlfcn.h>

#include <gtest/gtest.h>

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

#include "abi_drivers.h"

namespace {

#define FN(name) decltype(&::umf##name) name

// The stand-in's core API, from dlsym.
struct OtherCore {
    void *lib = nullptr;
    FN(MemoryProviderCreate) = nullptr;
    FN(MemoryProviderDestroy) = nullptr;
    FN(MemoryProviderAlloc) = nullptr;
    FN(MemoryProviderFree) = nullptr;
    FN(MemoryProviderGetName) = nullptr;

    std::string Load() {
        lib = dlopen(UMF_TEST_OTHER_CORE, RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            return dlerror();
        }
        const struct {
            const char *name;
            void **slot;
        } symbols[] = {
            {"umfMemoryProviderCreate", (void **)&MemoryProviderCreate},
            {"umfMemoryProviderDestroy", (void **)&MemoryProviderDestroy},
            {"umfMemoryProviderAlloc", (void **)&MemoryProviderAlloc},
            {"umfMemoryProviderFree", (void **)&MemoryProviderFree},
            {"umfMemoryProviderGetName", (void **)&MemoryProviderGetName},
        };
        for (const auto &s : symbols) {
            *s.slot = dlsym(lib, s.name);
            if (*s.slot == nullptr) {
                return std::string("no ") + s.name;
            }
        }
        return "";
    }
};

class SecondCore : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string why = other.Load();
        ASSERT_EQ(why, "");
        char buf[512];
        ASSERT_EQ(abi_ze_open(&ze, buf, sizeof(buf)), 0) << buf;
        ASSERT_EQ(abi_cuda_open(&cu, buf, sizeof(buf)), 0) << buf;
    }
    void TearDown() override {
        abi_cuda_close(&cu);
        abi_ze_close(&ze);
    }

    // A provider of `kind` made by `create` (the stand-in's or ours).
    umf_memory_provider_handle_t
    Make(const std::string &kind, decltype(&::umfMemoryProviderCreate) create) {
        umf_memory_provider_handle_t h = nullptr;
        if (kind == "ze") {
            umf_level_zero_memory_provider_params_handle_t p = nullptr;
            EXPECT_EQ(umfLevelZeroMemoryProviderParamsCreate(&p),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetContext(p, ze.context),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfLevelZeroMemoryProviderParamsSetDevice(p, ze.device),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(create(umfLevelZeroMemoryProviderOps(), p, &h),
                      UMF_RESULT_SUCCESS);
            umfLevelZeroMemoryProviderParamsDestroy(p);
        } else {
            umf_cuda_memory_provider_params_handle_t p = nullptr;
            EXPECT_EQ(umfCUDAMemoryProviderParamsCreate(&p),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfCUDAMemoryProviderParamsSetContext(p, cu.context),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(umfCUDAMemoryProviderParamsSetDevice(p, cu.device),
                      UMF_RESULT_SUCCESS);
            EXPECT_EQ(create(umfCUDAMemoryProviderOps(), p, &h),
                      UMF_RESULT_SUCCESS);
            umfCUDAMemoryProviderParamsDestroy(p);
        }
        return h;
    }

    OtherCore other;
    abi_ze_t ze = {};
    abi_cuda_t cu = {};
};

// Every extension that takes a handle refuses `h`, and says why.
void ExpectRefused(umf_memory_provider_handle_t h, void *ptr,
                   ze_device_handle_t device) {
    umf_gpu_provider_stats_t stats = {};
    stats.alloc_count = 12345;
    testing::internal::CaptureStderr();
    EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &stats),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_gpu_allocation_properties_t props = {};
    EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, ptr, &props),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umfLevelZeroMemoryProviderResidentDeviceChange(h, device, true),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    std::string log = testing::internal::GetCapturedStderr();
    EXPECT_EQ(stats.alloc_count, 12345u) << "nothing written";
    EXPECT_EQ(props.base, nullptr) << "nothing written";
    EXPECT_NE(log.find("not a provider handle of umf-gpu's core"),
              std::string::npos)
        << log;
    EXPECT_EQ(umfGetLastFailedMemoryProvider(), h);
}

TEST_F(SecondCore, OurProvidersWorkUnderItAndItsHandlesAreRefused) {
    for (std::string kind : {"ze", "cuda"}) {
        SCOPED_TRACE(kind);
        umf_memory_provider_handle_t h = Make(kind, other.MemoryProviderCreate);
        ASSERT_NE(h, nullptr);
        std::string name = other.MemoryProviderGetName(h);
        EXPECT_EQ(name,
                  kind == "ze" ? "other-core:LEVEL_ZERO" : "other-core:CUDA")
            << "the stand-in core, not ours, dispatches";
        void *p = nullptr;
        ASSERT_EQ(other.MemoryProviderAlloc(h, 4096, 0, &p),
                  UMF_RESULT_SUCCESS);
        ASSERT_NE(p, nullptr);
        ExpectRefused(h, p, ze.device);
        EXPECT_EQ(other.MemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
        other.MemoryProviderDestroy(h);
    }
}

TEST_F(SecondCore, OurHandlesAreServedAndRefusedOnceDestroyed) {
    for (std::string kind : {"ze", "cuda"}) {
        SCOPED_TRACE(kind);
        umf_memory_provider_handle_t h = Make(kind, umfMemoryProviderCreate);
        ASSERT_NE(h, nullptr);
        void *p = nullptr;
        ASSERT_EQ(umfMemoryProviderAlloc(h, 4096, 0, &p), UMF_RESULT_SUCCESS);
        umf_gpu_provider_stats_t stats = {};
        EXPECT_EQ(umfGpuMemoryProviderGetStats(h, &stats), UMF_RESULT_SUCCESS);
        EXPECT_EQ(stats.alloc_count, 1u);
        umf_gpu_allocation_properties_t props = {};
        EXPECT_EQ(umfGpuMemoryProviderGetAllocationProperties(h, p, &props),
                  UMF_RESULT_SUCCESS);
        EXPECT_EQ(props.base, p);
        EXPECT_EQ(umfMemoryProviderFree(h, p, 4096), UMF_RESULT_SUCCESS);
        umfMemoryProviderDestroy(h);
        // The handle is gone: looked up, never read.
        ExpectRefused(h, p, ze.device);
    }
}

} // namespace
