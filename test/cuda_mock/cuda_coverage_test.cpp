// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The entry points that complete cuda.h's coverage (issue 25): the calls the
// emulated driver answers itself (context and device queries, stream
// attributes, pools by location and their access, batched copies, managed
// memory hints, the profiler, the module loading mode), written from cuda.h
// so that they run unchanged on a real libcuda.so.1, and the refusals of
// what the emulated devices cannot do (modules, functions, textures,
// graphics, external memory, green contexts ...), checked on the emulated
// driver alone: the error cuda.h documents, a log line naming the call, and
// no crash whatever the arguments.

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <cudaProfiler.h>

#include "cuda_test_fixture.h"

// The deprecated queries are among those tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

class CudaCoverage : public CudaCtxTest {
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
// Contexts

TEST_F(CudaCoverage, ContextIdsAndFlags) {
    auto get_id = CU_SYM(cuCtxGetId);
    auto set_flags = CU_SYM(cuCtxSetFlags);
    auto get_flags = CU_SYM(cuCtxGetFlags);
    ASSERT_TRUE(get_id && set_flags && get_flags);
    unsigned long long id = 0, again = 0, other = 0;
    CU_ASSERT_OK(get_id(nullptr, &id));
    CU_ASSERT_OK(get_id(ctx, &again));
    EXPECT_EQ(id, again) << "NULL is the current context";
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CU_ASSERT_OK(get_id(c, &other));
    EXPECT_NE(other, id);
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(get_id(nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);

    unsigned before = 0, now = 0;
    CU_ASSERT_OK(get_flags(&before));
    CU_ASSERT_OK(set_flags(CU_CTX_SCHED_BLOCKING_SYNC));
    CU_ASSERT_OK(get_flags(&now));
    EXPECT_EQ(now & CU_CTX_SCHED_MASK, CU_CTX_SCHED_BLOCKING_SYNC);
    EXPECT_EQ(set_flags(CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(set_flags(before & CU_CTX_FLAGS_MASK));
}

// Coredump settings, as cuda.h documents them: the process-wide ones start
// at their defaults and read back what was set; a context reads them until
// it sets its own, which go with it; a NULL value asks for the size.
TEST_F(CudaCoverage, CoredumpSettings) {
    auto get = CU_SYM(cuCoredumpGetAttribute);
    auto get_global = CU_SYM(cuCoredumpGetAttributeGlobal);
    auto set = CU_SYM(cuCoredumpSetAttribute);
    auto set_global = CU_SYM(cuCoredumpSetAttributeGlobal);
    size_t size = 0;
    CU_ASSERT_OK(get_global(CU_COREDUMP_FILE, nullptr, &size));
    EXPECT_EQ(size, 1024u) << "up to 1023 characters";
    CU_ASSERT_OK(get_global(CU_COREDUMP_ENABLE_ON_EXCEPTION, nullptr, &size));
    EXPECT_EQ(size, sizeof(bool));
    CU_ASSERT_OK(get_global(CU_COREDUMP_GENERATION_FLAGS, nullptr, &size));
    EXPECT_EQ(size, sizeof(int));

    bool b = true;
    size = sizeof(b);
    CU_ASSERT_OK(get_global(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    EXPECT_FALSE(b) << "default false";
    CU_ASSERT_OK(get_global(CU_COREDUMP_TRIGGER_HOST, &b, &size));
    EXPECT_TRUE(b) << "default true";
    char path[1024] = "";
    size = sizeof(path);
    CU_ASSERT_OK(get_global(CU_COREDUMP_FILE, path, &size));
    std::string pid = "." + std::to_string(getpid());
    EXPECT_EQ(std::string(path).rfind("core.cuda.", 0), 0u) << path;
    EXPECT_NE(std::string(path).find(pid), std::string::npos) << path;
    CU_ASSERT_OK(get_global(CU_COREDUMP_PIPE, path, &size));
    EXPECT_EQ(std::string(path).rfind("corepipe.cuda.", 0), 0u) << path;

    // Process-wide settings read back, in every context.
    b = true;
    size = sizeof(b);
    CU_ASSERT_OK(set_global(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    char file[] = "/tmp/umf-gpu-core";
    size = sizeof(file);
    CU_ASSERT_OK(set_global(CU_COREDUMP_FILE, file, &size));
    int flags = CU_COREDUMP_SKIP_ABORT | CU_COREDUMP_SKIP_GLOBAL_MEMORY;
    size = sizeof(flags);
    CU_ASSERT_OK(set_global(CU_COREDUMP_GENERATION_FLAGS, &flags, &size));
    b = false;
    size = sizeof(b);
    CU_ASSERT_OK(get(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    EXPECT_TRUE(b) << "the context reads the process-wide setting";
    size = sizeof(path);
    CU_ASSERT_OK(get(CU_COREDUMP_FILE, path, &size));
    EXPECT_STREQ(path, file);
    int got = 0;
    size = sizeof(got);
    CU_ASSERT_OK(get_global(CU_COREDUMP_GENERATION_FLAGS, &got, &size));
    EXPECT_EQ(got, flags);

    // A context's own setting is its own.
    b = false;
    size = sizeof(b);
    CU_ASSERT_OK(set(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    b = true;
    CU_ASSERT_OK(get(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    EXPECT_FALSE(b);
    CU_ASSERT_OK(get_global(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    EXPECT_TRUE(b);
    CUcontext other;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&other, 0, dev));
    b = false;
    CU_ASSERT_OK(get(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    EXPECT_TRUE(b) << "another context reads the process-wide one";
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(other));

    // "cannot be set on a per-context basis"
    EXPECT_EQ(set(CU_COREDUMP_ENABLE_USER_TRIGGER, &b, &size),
              CUDA_ERROR_NOT_PERMITTED);
    size = sizeof(file);
    EXPECT_EQ(set(CU_COREDUMP_PIPE, file, &size), CUDA_ERROR_NOT_PERMITTED);

    // Bad input.
    size = sizeof(b);
    EXPECT_EQ(get_global(CU_COREDUMP_MAX, &b, &size), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_global(static_cast<CUcoredumpSettings>(0), &b, &size),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_global(CU_COREDUMP_TRIGGER_HOST, &b, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    size = 1;
    EXPECT_EQ(get_global(CU_COREDUMP_FILE, path, &size),
              CUDA_ERROR_INVALID_VALUE)
        << "too small for the path";
    flags = 1 << 20;
    size = sizeof(flags);
    EXPECT_EQ(set_global(CU_COREDUMP_GENERATION_FLAGS, &flags, &size),
              CUDA_ERROR_INVALID_VALUE);
    size = 2;
    EXPECT_EQ(set_global(CU_COREDUMP_TRIGGER_HOST, &b, &size),
              CUDA_ERROR_INVALID_VALUE);
    char unterminated[4] = {'a', 'b', 'c', 'd'};
    size = sizeof(unterminated);
    EXPECT_EQ(set_global(CU_COREDUMP_FILE, unterminated, &size),
              CUDA_ERROR_INVALID_VALUE);

    // Back to the defaults for the tests after this one.
    b = false;
    size = sizeof(b);
    CU_EXPECT_OK(set_global(CU_COREDUMP_ENABLE_ON_EXCEPTION, &b, &size));
    flags = 0;
    size = sizeof(flags);
    CU_EXPECT_OK(set_global(CU_COREDUMP_GENERATION_FLAGS, &flags, &size));
}

TEST_F(CudaCoverage, ContextPreferences) {
    auto get_cache = CU_SYM(cuCtxGetCacheConfig);
    auto set_cache = CU_SYM(cuCtxSetCacheConfig);
    auto get_shmem = CU_SYM(cuCtxGetSharedMemConfig);
    auto set_shmem = CU_SYM(cuCtxSetSharedMemConfig);
    auto reset_l2 = CU_SYM(cuCtxResetPersistingL2Cache);
    ASSERT_TRUE(get_cache && set_cache && get_shmem && set_shmem && reset_l2);
    CUfunc_cache cache = CU_FUNC_CACHE_PREFER_EQUAL;
    CU_ASSERT_OK(get_cache(&cache));
    CU_ASSERT_OK(set_cache(CU_FUNC_CACHE_PREFER_L1));
    CU_ASSERT_OK(get_cache(&cache));
    EXPECT_EQ(cache, CU_FUNC_CACHE_PREFER_L1);
    CU_EXPECT_OK(set_cache(CU_FUNC_CACHE_PREFER_NONE));
    EXPECT_EQ(set_cache(static_cast<CUfunc_cache>(7)),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_cache(nullptr), CUDA_ERROR_INVALID_VALUE);
    CUsharedconfig shmem;
    CU_ASSERT_OK(get_shmem(&shmem));
    CU_EXPECT_OK(set_shmem(CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE));
    EXPECT_EQ(set_shmem(static_cast<CUsharedconfig>(9)),
              CUDA_ERROR_INVALID_VALUE);
    if (cu->emulated()) {
        CU_ASSERT_OK(set_shmem(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
        CU_ASSERT_OK(get_shmem(&shmem));
        EXPECT_EQ(shmem, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE);
        CU_EXPECT_OK(set_shmem(CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));
    }
    CU_EXPECT_OK(reset_l2());
}

TEST_F(CudaCoverage, ContextEvents) {
    auto record = CU_SYM(cuCtxRecordEvent);
    auto wait = CU_SYM(cuCtxWaitEvent);
    ASSERT_TRUE(record && wait);
    CUevent e, other_e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CU_EXPECT_OK(record(ctx, e));
    CU_EXPECT_OK(cu->cuEventSynchronize(e));
    CU_EXPECT_OK(wait(ctx, e));
    // An event of another context: not recordable in this one, but waited
    // for.
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CU_ASSERT_OK(cu->cuEventCreate(&other_e, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(nullptr));
    EXPECT_EQ(record(ctx, other_e), CUDA_ERROR_INVALID_HANDLE);
    CU_EXPECT_OK(wait(ctx, other_e));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(other_e));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(c));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
}

// ---------------------------------------------------------------------------
// Devices

TEST_F(CudaCoverage, DeviceQueries) {
    auto cc = CU_SYM(cuDeviceComputeCapability);
    auto props = CU_SYM(cuDeviceGetProperties);
    auto affinity = CU_SYM(cuDeviceGetExecAffinitySupport);
    auto tex_width = CU_SYM(cuDeviceGetTexture1DLinearMaxWidth);
    ASSERT_TRUE(cc && props && affinity && tex_width);
    auto attr = [&](CUdevice_attribute a) {
        int v = -1;
        EXPECT_EQ(cu->cuDeviceGetAttribute(&v, a, dev), CUDA_SUCCESS) << a;
        return v;
    };
    int major = -1, minor = -1;
    CU_ASSERT_OK(cc(&major, &minor, dev));
    EXPECT_EQ(major, attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
    EXPECT_EQ(minor, attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    EXPECT_EQ(cc(nullptr, &minor, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cc(&major, &minor, count), CUDA_ERROR_INVALID_DEVICE);
    CUdevprop p;
    std::memset(&p, 0, sizeof(p));
    CU_ASSERT_OK(props(&p, dev));
    EXPECT_EQ(p.maxThreadsPerBlock,
              attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
    EXPECT_EQ(p.maxGridSize[1], attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
    EXPECT_EQ(p.SIMDWidth, attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
    EXPECT_EQ(p.textureAlign, attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
    int supported = -1;
    CU_ASSERT_OK(affinity(&supported, CU_EXEC_AFFINITY_TYPE_SM_COUNT, dev));
    EXPECT_TRUE(supported == 0 || supported == 1);
    size_t width = 0;
    CU_ASSERT_OK(tex_width(&width, CU_AD_FORMAT_FLOAT, 4, dev));
    EXPECT_GT(width, 0u);
    EXPECT_EQ(tex_width(nullptr, CU_AD_FORMAT_FLOAT, 4, dev),
              CUDA_ERROR_INVALID_VALUE);
    if (cu->emulated()) {
        EXPECT_EQ(supported, 0);
        EXPECT_EQ(width, 268435456u);
        EXPECT_EQ(tex_width(&width, CU_AD_FORMAT_FLOAT, 3, dev),
                  CUDA_ERROR_INVALID_VALUE);
    }
}

// ---------------------------------------------------------------------------
// Device resources (cuda.h, "Green Contexts"): an SM resource per device and
// context, split into disjoint groups of at least minSmPartitionSize SMs, a
// multiple of the alignment; a descriptor of groups of one split. Written
// against what the device reports, so that it holds on a GPU too.

static unsigned sm_union_count(const CUdevResource *r, unsigned n) {
    unsigned sum = 0;
    for (unsigned i = 0; i < n; i++) {
        sum += r[i].sm.smCount;
    }
    return sum;
}

TEST_F(CudaCoverage, SmResourcesOfDevicesAndContexts) {
    auto dev_res = CU_SYM(cuDeviceGetDevResource);
    auto ctx_res = CU_SYM(cuCtxGetDevResource);
    ASSERT_TRUE(dev_res && ctx_res);
    int sms = 0;
    CU_ASSERT_OK(cu->cuDeviceGetAttribute(
        &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CUdevResource r, c;
    CU_ASSERT_OK(dev_res(dev, &r, CU_DEV_RESOURCE_TYPE_SM));
    EXPECT_EQ(r.type, CU_DEV_RESOURCE_TYPE_SM);
    EXPECT_EQ(r.sm.smCount, static_cast<unsigned>(sms));
    EXPECT_GE(r.sm.minSmPartitionSize, 1u);
    ASSERT_GE(r.sm.smCoscheduledAlignment, 1u);
    EXPECT_EQ(r.sm.smCount % r.sm.smCoscheduledAlignment, 0u)
        << "smCount is a multiple of smCoscheduledAlignment";
    CU_ASSERT_OK(ctx_res(ctx, &c, CU_DEV_RESOURCE_TYPE_SM));
    EXPECT_EQ(c.sm.smCount, r.sm.smCount) << "a context has the device's SMs";

    EXPECT_EQ(dev_res(dev, nullptr, CU_DEV_RESOURCE_TYPE_SM),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(dev_res(count, &r, CU_DEV_RESOURCE_TYPE_SM),
              CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ(dev_res(dev, &r, CU_DEV_RESOURCE_TYPE_INVALID),
              CUDA_ERROR_INVALID_RESOURCE_TYPE);
    EXPECT_EQ(ctx_res(ctx, nullptr, CU_DEV_RESOURCE_TYPE_SM),
              CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaCoverage, SmResourceSplitByCount) {
    auto dev_res = CU_SYM(cuDeviceGetDevResource);
    auto split = CU_SYM(cuDevSmResourceSplitByCount);
    auto desc = CU_SYM(cuDevResourceGenerateDesc);
    ASSERT_TRUE(dev_res && split && desc);
    CUdevResource whole;
    CU_ASSERT_OK(dev_res(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
    const unsigned total = whole.sm.smCount;
    const unsigned min = whole.sm.minSmPartitionSize;

    // "If result is NULL, the API simulates a split and provides the amount
    // of groups that would be created in nbGroups."
    unsigned n = 0;
    CU_ASSERT_OK(split(nullptr, &n, &whole, nullptr, 0, min));
    ASSERT_GE(n, 1u);
    EXPECT_LE(n, total / min);

    // Two groups of at least min SMs each, disjoint, the rest remaining.
    std::vector<CUdevResource> groups(n + 2);
    CUdevResource rest;
    unsigned asked = 2;
    CU_ASSERT_OK(split(groups.data(), &asked, &whole, &rest, 0, min));
    EXPECT_EQ(asked, n < 2 ? n : 2u) << "nbGroups: the amount created";
    for (unsigned g = 0; g < asked; g++) {
        EXPECT_EQ(groups[g].type, CU_DEV_RESOURCE_TYPE_SM);
        EXPECT_GE(groups[g].sm.smCount, min);
        EXPECT_EQ(groups[g].sm.smCount, groups[0].sm.smCount)
            << "symmetrical partitions";
    }
    EXPECT_EQ(sm_union_count(groups.data(), asked) + rest.sm.smCount, total);

    // More groups asked than fit: as many as fit.
    asked = n + 2;
    CU_ASSERT_OK(split(groups.data(), &asked, &whole, nullptr, 0, 0));
    EXPECT_GE(asked, 1u);
    EXPECT_LE(sm_union_count(groups.data(), asked), total);

    // A descriptor of two groups of one split; the same group twice, or a
    // group with the device's whole resource, is not one.
    unsigned two = 2;
    CU_ASSERT_OK(split(groups.data(), &two, &whole, &rest, 0, min));
    CUdevResourceDesc d = nullptr;
    if (two == 2) {
        CU_EXPECT_OK(desc(&d, groups.data(), 2));
        EXPECT_NE(d, nullptr);
        CUdevResource same[2] = {groups[0], groups[0]};
        EXPECT_EQ(desc(&d, same, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    }
    CU_EXPECT_OK(desc(&d, &groups[0], 1));
    CUdevResource mixed[2] = {groups[0], whole};
    EXPECT_EQ(desc(&d, mixed, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);

    // Bad input, per the header's rules.
    EXPECT_EQ(split(nullptr, nullptr, &whole, nullptr, 0, min),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(split(nullptr, &n, nullptr, nullptr, 0, min),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(split(nullptr, &n, &whole, nullptr, 0, total + 1),
              CUDA_ERROR_INVALID_VALUE)
        << "minCount must be between 0 and the input's SM count";
    CUdevResource wrong = whole;
    wrong.type = CU_DEV_RESOURCE_TYPE_INVALID;
    EXPECT_EQ(split(nullptr, &n, &wrong, nullptr, 0, min),
              CUDA_ERROR_INVALID_RESOURCE_TYPE);
    EXPECT_EQ(desc(nullptr, groups.data(), 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(desc(&d, groups.data(), 0), CUDA_ERROR_INVALID_VALUE);
}

using CudaEmulatedCoverage = CudaEmulatedOnly<CudaCoverage>;

TEST_F(CudaEmulatedCoverage, SmResourcesThatTheDriverDidNotMakeAreRefused) {
    auto dev_res = CU_SYM(cuDeviceGetDevResource);
    auto split = CU_SYM(cuDevSmResourceSplitByCount);
    auto desc = CU_SYM(cuDevResourceGenerateDesc);
    auto green = CU_SYM(cuGreenCtxCreate);
    ASSERT_TRUE(dev_res && split && desc && green);
    CUdevResource whole, forged;
    CU_ASSERT_OK(dev_res(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
    // Counts claimed that the SMs behind them do not make, and junk.
    forged = whole;
    forged.sm.smCount = whole.sm.smCount + 8;
    unsigned n = 0;
    EXPECT_EQ(split(nullptr, &n, &forged, nullptr, 0, 8),
              CUDA_ERROR_INVALID_VALUE);
    std::memset(&forged, 0x5a, sizeof(forged));
    forged.type = CU_DEV_RESOURCE_TYPE_SM;
    EXPECT_EQ(split(nullptr, &n, &forged, nullptr, 0, 8),
              CUDA_ERROR_INVALID_VALUE);
    CUdevResourceDesc d = nullptr;
    EXPECT_EQ(desc(&d, &forged, 1), CUDA_ERROR_INVALID_VALUE);
    // A group cannot be split again without a green context.
    CUdevResource group;
    unsigned one = 1;
    CU_ASSERT_OK(split(&group, &one, &whole, nullptr, 0, 0));
    EXPECT_EQ(split(nullptr, &n, &group, nullptr, 0, 0),
              CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    // A green context needs a descriptor of cuDevResourceGenerateDesc.
    CUgreenCtx g = nullptr;
    EXPECT_EQ(green(&g, reinterpret_cast<CUdevResourceDesc>(&forged), dev,
                    CU_GREEN_CTX_DEFAULT_STREAM),
              CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// Green contexts (cuda.h, "Green Contexts"): a context of a descriptor's SMs,
// created not current, used through the CUcontext of cuCtxFromGreenCtx.
// Written from the header, so that they hold on a GPU too.

class CudaGreen : public CudaCoverage {
  protected:
    decltype(&::cuGreenCtxCreate) create = nullptr;
    decltype(&::cuGreenCtxDestroy) destroy = nullptr;
    decltype(&::cuCtxFromGreenCtx) to_ctx = nullptr;
    decltype(&::cuGreenCtxStreamCreate) stream_create = nullptr;
    decltype(&::cuStreamGetGreenCtx) stream_green = nullptr;
    unsigned whole_sms = 0, group_sms = 0;
    CUdevResourceDesc desc = nullptr;

    void SetUp() override {
        CudaCoverage::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        create = CU_SYM(cuGreenCtxCreate);
        destroy = CU_SYM(cuGreenCtxDestroy);
        to_ctx = CU_SYM(cuCtxFromGreenCtx);
        stream_create = CU_SYM(cuGreenCtxStreamCreate);
        stream_green = CU_SYM(cuStreamGetGreenCtx);
        auto dev_res = CU_SYM(cuDeviceGetDevResource);
        auto split = CU_SYM(cuDevSmResourceSplitByCount);
        auto gen = CU_SYM(cuDevResourceGenerateDesc);
        ASSERT_TRUE(create && destroy && to_ctx && stream_create &&
                    stream_green && dev_res && split && gen);
        // Steps (1) to (3) of the header: the device's SMs, one group of
        // the smallest partition, its descriptor.
        CUdevResource whole, group, rest;
        CU_ASSERT_OK(dev_res(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
        unsigned one = 1;
        CU_ASSERT_OK(
            split(&group, &one, &whole, &rest, 0, whole.sm.minSmPartitionSize));
        ASSERT_EQ(one, 1u);
        whole_sms = whole.sm.smCount;
        group_sms = group.sm.smCount;
        ASSERT_GE(group_sms, whole.sm.minSmPartitionSize);
        CU_ASSERT_OK(gen(&desc, &group, 1));
    }
};

TEST_F(CudaGreen, CreatedNotCurrentWithTheDescriptorsSms) {
    auto green_res = CU_SYM(cuGreenCtxGetDevResource);
    auto ctx_res = CU_SYM(cuCtxGetDevResource);
    auto get_id = CU_SYM(cuGreenCtxGetId);
    ASSERT_TRUE(green_res && ctx_res && get_id);
    CUgreenCtx g = nullptr;
    CU_ASSERT_OK(create(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    ASSERT_NE(g, nullptr);
    CUcontext cur = nullptr;
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx) << "the API does not set the green context current";
    CUcontext gc = nullptr;
    CU_ASSERT_OK(to_ctx(&gc, g));
    ASSERT_NE(gc, nullptr);
    EXPECT_NE(gc, ctx) << "a primary context with the green context's SMs";

    // Its resources: the descriptor's SMs, through either handle; the
    // primary context keeps the device's.
    CUdevResource r;
    CU_EXPECT_OK(green_res(g, &r, CU_DEV_RESOURCE_TYPE_SM));
    EXPECT_EQ(r.type, CU_DEV_RESOURCE_TYPE_SM);
    EXPECT_EQ(r.sm.smCount, group_sms);
    CU_EXPECT_OK(ctx_res(gc, &r, CU_DEV_RESOURCE_TYPE_SM));
    EXPECT_EQ(r.sm.smCount, group_sms);
    CU_EXPECT_OK(ctx_res(ctx, &r, CU_DEV_RESOURCE_TYPE_SM));
    EXPECT_EQ(r.sm.smCount, whole_sms);

    // Current through the converted context: of the device, synchronizable,
    // and the green context of cuGreenCtxGetId(NULL).
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(gc));
    CUdevice d = -1;
    CU_EXPECT_OK(cu->cuCtxGetDevice(&d));
    EXPECT_EQ(d, dev);
    CU_EXPECT_OK(cu->cuCtxSynchronize());
    unsigned long long id = 0, current_id = 0, other_id = 0;
    CU_EXPECT_OK(get_id(g, &id));
    CU_EXPECT_OK(get_id(nullptr, &current_id));
    EXPECT_EQ(current_id, id) << "NULL: the current green context";
    CUcontext top = nullptr;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(top, gc);
    CU_EXPECT_OK(cu->cuCtxSetCurrent(gc));
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, gc);
    CU_EXPECT_OK(cu->cuCtxSetCurrent(ctx));

    // Another green context of the same descriptor: another id.
    CUgreenCtx g2 = nullptr;
    CU_ASSERT_OK(create(&g2, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    CU_EXPECT_OK(get_id(g2, &other_id));
    EXPECT_NE(other_id, id) << "unique for the life of the program";
    CU_EXPECT_OK(destroy(g2));
    CU_EXPECT_OK(destroy(g));
}

TEST_F(CudaGreen, MemoryStreamsAndEvents) {
    auto get_ctx_v2 = CU_SYM(cuStreamGetCtx_v2);
    auto record = CU_SYM(cuGreenCtxRecordEvent);
    auto wait = CU_SYM(cuGreenCtxWaitEvent);
    ASSERT_TRUE(get_ctx_v2 && record && wait);
    CUgreenCtx g = nullptr;
    CU_ASSERT_OK(create(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    CUcontext gc = nullptr;
    CU_ASSERT_OK(to_ctx(&gc, g));

    // A stream of the green context while the primary context is current
    // ("the API ignores the context that is current").
    CUstream s = nullptr;
    CU_ASSERT_OK(stream_create(&s, g, CU_STREAM_NON_BLOCKING, 0));
    CUgreenCtx got = nullptr;
    CU_EXPECT_OK(stream_green(s, &got));
    EXPECT_EQ(got, g);
    CUcontext sc = nullptr, pc = nullptr;
    CU_EXPECT_OK(cu->cuStreamGetCtx(s, &sc));
    EXPECT_EQ(sc, gc) << "equivalent to the one of cuCtxFromGreenCtx";
    got = nullptr;
    CU_EXPECT_OK(get_ctx_v2(s, &pc, &got));
    EXPECT_EQ(pc, ctx) << "the primary context of the device";
    EXPECT_EQ(got, g);
    got = g;
    CU_EXPECT_OK(stream_green(nullptr, &got));
    EXPECT_EQ(got, nullptr) << "the current context is not green";

    // Memory and work while the green context is current.
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(gc));
    CU_EXPECT_OK(stream_green(nullptr, &got));
    EXPECT_EQ(got, g) << "the default stream of a current green context";
    const size_t n = 1 << 16;
    std::vector<uint8_t> in(n), out(n, 0);
    for (size_t i = 0; i < n; i++) {
        in[i] = static_cast<uint8_t>(i * 7 + 1);
    }
    CUdeviceptr a = 0, b = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    CU_EXPECT_OK(cu->cuMemcpyHtoD_v2(a, in.data(), n));
    CU_EXPECT_OK(cu->cuMemcpyDtoDAsync_v2(b, a, n, s));
    CUevent e = nullptr;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    CU_EXPECT_OK(record(g, e)) << "captures the green context's copy";
    CU_EXPECT_OK(cu->cuEventSynchronize(e));
    CU_EXPECT_OK(cu->cuEventQuery(e));
    CU_EXPECT_OK(wait(g, e));
    CU_EXPECT_OK(cu->cuMemcpyDtoHAsync_v2(out.data(), b, n, s));
    CU_EXPECT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(out, in);
    CUcontext top = nullptr;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));

    // The memory is the device's address space: the primary context reads
    // it; an event of the primary context is of the same primary context.
    std::fill(out.begin(), out.end(), 0);
    CU_EXPECT_OK(cu->cuMemcpyDtoH_v2(out.data(), b, n));
    EXPECT_EQ(out, in);
    CUevent pe = nullptr;
    CU_ASSERT_OK(cu->cuEventCreate(&pe, 0));
    CU_EXPECT_OK(record(g, pe));
    CU_EXPECT_OK(cu->cuMemsetD8Async(a, 0x3c, n, s));
    CU_EXPECT_OK(cu->cuEventRecord(pe, s));
    CU_EXPECT_OK(cu->cuStreamWaitEvent(nullptr, pe, 0));
    // The primary context's synchronize covers its green contexts.
    CU_EXPECT_OK(cu->cuCtxSynchronize());
    CU_EXPECT_OK(cu->cuEventQuery(pe));
    CU_EXPECT_OK(cu->cuMemcpyDtoH_v2(out.data(), a, n));
    EXPECT_EQ(out, std::vector<uint8_t>(n, 0x3c));

    // An event of another context cannot be recorded, but can be waited for.
    CUcontext other = nullptr;
    CU_ASSERT_OK(cu->cuCtxCreate_v4(&other, nullptr, 0, dev));
    CUevent oe = nullptr;
    CU_ASSERT_OK(cu->cuEventCreate(&oe, 0));
    CU_ASSERT_OK(cu->cuEventRecord(oe, nullptr));
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(record(g, oe), CUDA_ERROR_INVALID_HANDLE)
        << "hEvent and hCtx must be from the same primary context";
    CU_EXPECT_OK(wait(g, oe)) << "hEvent may be from a different context";

    CU_EXPECT_OK(cu->cuEventDestroy_v2(oe));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(other));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(pe));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(destroy(g));
}

TEST_F(CudaGreen, BadArgumentsAreRefused) {
    auto green_res = CU_SYM(cuGreenCtxGetDevResource);
    auto get_id = CU_SYM(cuGreenCtxGetId);
    ASSERT_TRUE(green_res && get_id);
    CUgreenCtx g = nullptr;
    EXPECT_EQ(create(nullptr, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(create(&g, desc, dev, 0), CUDA_ERROR_INVALID_VALUE)
        << "CU_GREEN_CTX_DEFAULT_STREAM is required";
    EXPECT_EQ(create(&g, desc, count, CU_GREEN_CTX_DEFAULT_STREAM),
              CUDA_ERROR_INVALID_DEVICE);
    CU_ASSERT_OK(create(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    CUcontext c = nullptr;
    EXPECT_EQ(to_ctx(nullptr, g), CUDA_ERROR_INVALID_VALUE);
    CUdevResource r;
    EXPECT_EQ(green_res(g, nullptr, CU_DEV_RESOURCE_TYPE_SM),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(green_res(g, &r, CU_DEV_RESOURCE_TYPE_INVALID),
              CUDA_ERROR_INVALID_RESOURCE_TYPE);
    CUstream s = nullptr;
    EXPECT_EQ(stream_create(nullptr, g, CU_STREAM_NON_BLOCKING, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(stream_create(&s, g, CU_STREAM_DEFAULT, 0),
              CUDA_ERROR_INVALID_VALUE)
        << "CU_STREAM_NON_BLOCKING must be specified";
    EXPECT_EQ(get_id(g, nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(stream_green(nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
    // A priority out of the range is clamped.
    CU_ASSERT_OK(stream_create(&s, g, CU_STREAM_NON_BLOCKING, -1000));
    int least = 0, greatest = 0, prio = 1;
    CU_EXPECT_OK(cu->cuCtxGetStreamPriorityRange(&least, &greatest));
    CU_EXPECT_OK(cu->cuStreamGetPriority(s, &prio));
    EXPECT_EQ(prio, greatest);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(to_ctx(&c, g));
    CU_EXPECT_OK(destroy(g));
}

// Two threads, each with a green context of its own group of one split
// current: their memory, streams and events work at once.
TEST_F(CudaGreen, GreenContextsOfTwoThreads) {
    auto dev_res = CU_SYM(cuDeviceGetDevResource);
    auto split = CU_SYM(cuDevSmResourceSplitByCount);
    auto gen = CU_SYM(cuDevResourceGenerateDesc);
    auto record = CU_SYM(cuGreenCtxRecordEvent);
    ASSERT_TRUE(dev_res && split && gen && record);
    CUdevResource whole, groups[2];
    CU_ASSERT_OK(dev_res(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
    unsigned two = 2;
    CU_ASSERT_OK(
        split(groups, &two, &whole, nullptr, 0, whole.sm.minSmPartitionSize));
    if (two < 2) {
        GTEST_SKIP() << "the device's SMs make one group";
    }
    CUgreenCtx g[2] = {nullptr, nullptr};
    for (int i = 0; i < 2; i++) {
        CUdevResourceDesc d = nullptr;
        CU_ASSERT_OK(gen(&d, &groups[i], 1));
        CU_ASSERT_OK(create(&g[i], d, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    }
    CUresult failed[2] = {CUDA_SUCCESS, CUDA_SUCCESS};
    auto work = [&](int i) {
        CUcontext gc = nullptr;
        CUresult r = to_ctx(&gc, g[i]);
        r = r != CUDA_SUCCESS ? r : cu->cuCtxSetCurrent(gc);
        const size_t n = 1 << 14;
        std::vector<uint8_t> in(n, static_cast<uint8_t>(i + 1)), out(n, 0);
        CUdeviceptr a = 0;
        CUstream s = nullptr;
        CUevent e = nullptr;
        for (int round = 0; r == CUDA_SUCCESS && round < 8; round++) {
            r = cu->cuMemAlloc_v2(&a, n);
            r = r != CUDA_SUCCESS
                    ? r
                    : stream_create(&s, g[i], CU_STREAM_NON_BLOCKING, 0);
            r = r != CUDA_SUCCESS ? r : cu->cuEventCreate(&e, 0);
            r = r != CUDA_SUCCESS
                    ? r
                    : cu->cuMemcpyHtoDAsync_v2(a, in.data(), n, s);
            r = r != CUDA_SUCCESS ? r : record(g[i], e);
            r = r != CUDA_SUCCESS ? r : cu->cuEventSynchronize(e);
            r = r != CUDA_SUCCESS ? r : cu->cuMemcpyDtoH_v2(out.data(), a, n);
            if (r == CUDA_SUCCESS && out != in) {
                r = CUDA_ERROR_UNKNOWN;
            }
            (void)cu->cuEventDestroy_v2(e);
            (void)cu->cuStreamDestroy_v2(s);
            (void)cu->cuMemFree_v2(a);
        }
        (void)cu->cuCtxSetCurrent(nullptr);
        failed[i] = r;
    };
    std::thread t0(work, 0), t1(work, 1);
    t0.join();
    t1.join();
    EXPECT_EQ(failed[0], CUDA_SUCCESS);
    EXPECT_EQ(failed[1], CUDA_SUCCESS);
    CU_EXPECT_OK(destroy(g[0]));
    CU_EXPECT_OK(destroy(g[1]));
}

using CudaEmulatedGreen = CudaEmulatedOnly<CudaGreen>;

// What cuda.h leaves to the driver, as the emulated one does it: the
// converted context is not cuCtxDestroy's, a destroyed green context is
// CUDA_ERROR_CONTEXT_IS_DESTROYED, its streams stay (detached) until
// cuStreamDestroy, its memory is the primary context's, and nothing leaks.
TEST_F(CudaEmulatedGreen, DestroyAndUseAfterDestroy) {
    auto get_id = CU_SYM(cuGreenCtxGetId);
    ASSERT_TRUE(get_id);
    const int64_t greens = cu->umfCudaMockGetObjectCount("green context");
    const int64_t contexts = cu->umfCudaMockGetObjectCount("context");
    const int64_t streams = cu->umfCudaMockGetObjectCount("stream");
    const int64_t events = cu->umfCudaMockGetObjectCount("event");
    const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(null_fd, 0);
    const int64_t leaks = cu->umfCudaMockWriteLeakReport(null_fd);

    CUgreenCtx g = nullptr;
    CU_ASSERT_OK(create(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("green context"), greens + 1);
    CUcontext gc = nullptr;
    CU_ASSERT_OK(to_ctx(&gc, g));
    CUgreenCtx none = nullptr;
    EXPECT_EQ(to_ctx(&gc, reinterpret_cast<CUgreenCtx>(ctx)),
              CUDA_ERROR_INVALID_CONTEXT)
        << "a CUcontext is not a green context";
    EXPECT_EQ(to_ctx(&gc, none), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(to_ctx(&gc, g));
    unsigned long long id = 0;
    EXPECT_EQ(get_id(nullptr, &id), CUDA_ERROR_INVALID_CONTEXT)
        << "the current context is not green";
    EXPECT_EQ(cu->cuCtxDestroy_v2(gc), CUDA_ERROR_INVALID_CONTEXT)
        << "destroyed with cuGreenCtxDestroy";

    CUstream s = nullptr;
    CU_ASSERT_OK(stream_create(&s, g, CU_STREAM_NON_BLOCKING, 0));
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(gc));
    CUdeviceptr a = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 4096));
    CU_EXPECT_OK(cu->cuMemsetD8Async(a, 0x5a, 4096, s));
    CUevent e = nullptr;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    // Destroyed while current: popped, as cuCtxDestroy pops.
    CU_ASSERT_OK(destroy(g));
    CUcontext cur = nullptr;
    CU_EXPECT_OK(cu->cuCtxGetCurrent(&cur));
    EXPECT_EQ(cur, ctx);

    EXPECT_EQ(destroy(g), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    EXPECT_EQ(to_ctx(&gc, g), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    EXPECT_EQ(get_id(g, &id), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CUstream s2 = nullptr;
    EXPECT_EQ(stream_create(&s2, g, CU_STREAM_NON_BLOCKING, 0),
              CUDA_ERROR_CONTEXT_IS_DESTROYED);
    EXPECT_EQ(cu->cuCtxPushCurrent_v2(gc), CUDA_ERROR_INVALID_CONTEXT);
    // Its streams: every call refused but cuStreamDestroy, which frees it.
    EXPECT_EQ(cu->cuStreamSynchronize(s), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CUgreenCtx got = nullptr;
    EXPECT_EQ(stream_green(s, &got), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    EXPECT_EQ(cu->cuStreamDestroy_v2(s), CUDA_ERROR_INVALID_HANDLE);
    // Its events went with it; its memory is the primary context's.
    EXPECT_EQ(cu->cuEventQuery(e), CUDA_ERROR_INVALID_HANDLE);
    uint8_t byte = 0;
    CU_EXPECT_OK(cu->cuMemcpyDtoH_v2(&byte, a, 1));
    EXPECT_EQ(byte, 0x5a) << "the queued memset ran before the destroy";
    CU_EXPECT_OK(cu->cuMemFree_v2(a));

    EXPECT_EQ(cu->umfCudaMockGetObjectCount("green context"), greens);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("context"), contexts);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("stream"), streams);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("event"), events);
    EXPECT_EQ(cu->umfCudaMockWriteLeakReport(null_fd), leaks);
    close(null_fd);
}

// Of two threads that destroy one green context, one does; the other is
// told it was destroyed. A thread that converts it meanwhile gets its
// context or CUDA_ERROR_CONTEXT_IS_DESTROYED, never a crash.
TEST_F(CudaEmulatedGreen, RacingDestroys) {
    for (int round = 0; round < 32; round++) {
        CUgreenCtx g = nullptr;
        CU_ASSERT_OK(create(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
        CUresult r[3] = {CUDA_ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN,
                         CUDA_ERROR_UNKNOWN};
        std::thread a([&] { r[0] = destroy(g); });
        std::thread b([&] { r[1] = destroy(g); });
        std::thread c([&] {
            CUcontext gc = nullptr;
            r[2] = to_ctx(&gc, g);
        });
        a.join();
        b.join();
        c.join();
        EXPECT_EQ((r[0] == CUDA_SUCCESS) + (r[1] == CUDA_SUCCESS), 1);
        EXPECT_TRUE(r[0] == CUDA_ERROR_CONTEXT_IS_DESTROYED ||
                    r[1] == CUDA_ERROR_CONTEXT_IS_DESTROYED);
        EXPECT_TRUE(r[2] == CUDA_SUCCESS ||
                    r[2] == CUDA_ERROR_CONTEXT_IS_DESTROYED);
    }
}

TEST_F(CudaCoverage, PeerAttributesAndAtomics) {
    auto p2p = CU_SYM(cuDeviceGetP2PAttribute);
    auto host_atomics = CU_SYM(cuDeviceGetHostAtomicCapabilities);
    auto p2p_atomics = CU_SYM(cuDeviceGetP2PAtomicCapabilities);
    ASSERT_TRUE(p2p && host_atomics && p2p_atomics);
    int v = -1;
    EXPECT_EQ(p2p(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, dev, dev),
              CUDA_ERROR_INVALID_DEVICE)
        << "a device and itself";
    const CUatomicOperation ops[] = {CU_ATOMIC_OPERATION_INTEGER_ADD,
                                     CU_ATOMIC_OPERATION_CAS};
    unsigned caps[2] = {~0u, ~0u};
    CU_EXPECT_OK(host_atomics(caps, ops, 2, dev));
    EXPECT_EQ(host_atomics(caps, ops, 0, dev), CUDA_ERROR_INVALID_VALUE);
    const CUatomicOperation bad[] = {CU_ATOMIC_OPERATION_MAX};
    EXPECT_EQ(host_atomics(caps, bad, 1, dev), CUDA_ERROR_INVALID_VALUE);
    if (cu->emulated()) {
        EXPECT_EQ(caps[0] | caps[1], 0u) << "no kernels, no atomics";
    }
    if (count < 2) {
        GTEST_SKIP() << "one device: peers need two";
    }
    int can = -1;
    CU_ASSERT_OK(cu->cuDeviceCanAccessPeer(&can, 0, 1));
    CU_ASSERT_OK(p2p(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
    EXPECT_EQ(v, can);
    CU_EXPECT_OK(p2p(&v, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1));
    EXPECT_EQ(p2p(nullptr, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(p2p_atomics(caps, ops, 2, 0, 1));
}

// ---------------------------------------------------------------------------
// Streams

TEST_F(CudaCoverage, StreamDeviceAndAttributes) {
    auto get_device = CU_SYM(cuStreamGetDevice);
    auto get_attr = CU_SYM(cuStreamGetAttribute);
    auto set_attr = CU_SYM(cuStreamSetAttribute);
    auto copy_attrs = CU_SYM(cuStreamCopyAttributes);
    auto green = CU_SYM(cuStreamGetGreenCtx);
    ASSERT_TRUE(get_device && get_attr && set_attr && copy_attrs && green);
    CUstream s, t;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_ASSERT_OK(cu->cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
    CUdevice d = -1;
    CU_EXPECT_OK(get_device(s, &d));
    EXPECT_EQ(d, dev);
    CU_EXPECT_OK(get_device(nullptr, &d));
    EXPECT_EQ(d, dev);
    EXPECT_EQ(get_device(s, nullptr), CUDA_ERROR_INVALID_VALUE);
    CUgreenCtx g = reinterpret_cast<CUgreenCtx>(&d);
    CU_EXPECT_OK(green(s, &g));
    EXPECT_EQ(g, nullptr) << "a stream of a context that is not green";

    CUstreamAttrValue v;
    std::memset(&v, 0, sizeof(v));
    v.syncPolicy = CU_SYNC_POLICY_YIELD;
    CU_ASSERT_OK(set_attr(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    std::memset(&v, 0, sizeof(v));
    v.priority = -1;
    CU_ASSERT_OK(set_attr(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v));
    CUstreamAttrValue out;
    CU_ASSERT_OK(get_attr(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &out));
    EXPECT_EQ(out.syncPolicy, CU_SYNC_POLICY_YIELD);
    CU_ASSERT_OK(get_attr(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &out));
    EXPECT_EQ(out.priority, -1);
    int prio = 0;
    CU_ASSERT_OK(cu->cuStreamGetPriority(s, &prio));
    EXPECT_EQ(prio, -1) << "the priority attribute is the stream's priority";
    // An access policy window of no bytes: valid everywhere.
    std::memset(&v, 0, sizeof(v));
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
    CU_EXPECT_OK(set_attr(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
    CU_ASSERT_OK(copy_attrs(t, s));
    CU_ASSERT_OK(get_attr(t, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &out));
    EXPECT_EQ(out.syncPolicy, CU_SYNC_POLICY_YIELD) << "copied";
    CU_ASSERT_OK(get_attr(t, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &out));
    EXPECT_EQ(out.accessPolicyWindow.hitProp, CU_ACCESS_PROPERTY_PERSISTING);
    // Not valid for streams, or not a value of its kind.
    EXPECT_EQ(get_attr(s, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &out),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_attr(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    std::memset(&v, 0, sizeof(v));
    v.syncPolicy = static_cast<CUsynchronizationPolicy>(99);
    EXPECT_EQ(set_attr(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    EXPECT_EQ(get_device(s, &d), CUDA_ERROR_INVALID_HANDLE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(t));
    if (cu->emulated()) {
        // The emulated default streams have fixed attributes.
        CU_ASSERT_OK(get_attr(nullptr, CU_LAUNCH_ATTRIBUTE_PRIORITY, &out));
        EXPECT_EQ(out.priority, 0);
        v.priority = 0;
        EXPECT_EQ(set_attr(nullptr, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v),
                  CUDA_ERROR_INVALID_HANDLE);
    }
}

// ---------------------------------------------------------------------------
// Memory

TEST_F(CudaCoverage, PoolsByLocationAndTheirAccess) {
    auto get_default = CU_SYM(cuMemGetDefaultMemPool);
    auto get_pool = CU_SYM(cuMemGetMemPool);
    auto set_pool = CU_SYM(cuMemSetMemPool);
    auto set_access = CU_SYM(cuMemPoolSetAccess);
    auto get_access = CU_SYM(cuMemPoolGetAccess);
    ASSERT_TRUE(get_default && get_pool && set_pool && set_access &&
                get_access);
    CUmemLocation loc = {};
    loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
    loc.id = dev;
    CUmemoryPool a = nullptr, b = nullptr;
    CU_ASSERT_OK(get_default(&a, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
    CU_ASSERT_OK(cu->cuDeviceGetDefaultMemPool(&b, dev));
    EXPECT_EQ(a, b);
    CU_ASSERT_OK(get_pool(&a, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
    CU_ASSERT_OK(cu->cuDeviceGetMemPool(&b, dev));
    EXPECT_EQ(a, b);
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location = loc;
    CUmemoryPool mine;
    CU_ASSERT_OK(cu->cuMemPoolCreate(&mine, &props));
    CU_ASSERT_OK(set_pool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, mine));
    CU_ASSERT_OK(cu->cuDeviceGetMemPool(&b, dev));
    EXPECT_EQ(b, mine);
    CU_ASSERT_OK(set_pool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, a));
    EXPECT_EQ(get_pool(nullptr, &loc, CU_MEM_ALLOCATION_TYPE_PINNED),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_pool(&b, nullptr, CU_MEM_ALLOCATION_TYPE_PINNED),
              CUDA_ERROR_INVALID_VALUE);

    CUmemAccess_flags flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    CU_ASSERT_OK(get_access(&flags, mine, &loc));
    EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE) << "its own device";
    if (count > 1) {
        CUmemAccessDesc desc = {};
        desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        desc.location.id = dev == 0 ? 1 : 0;
        desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        CU_ASSERT_OK(set_access(mine, &desc, 1));
        CU_ASSERT_OK(get_access(&flags, mine, &desc.location));
        EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        desc.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
        CU_ASSERT_OK(set_access(mine, &desc, 1));
        CU_ASSERT_OK(get_access(&flags, mine, &desc.location));
        EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_NONE);
    }
    CU_EXPECT_OK(cu->cuMemPoolDestroy(mine));
    if (cu->emulated()) {
        CUmemLocation host = {};
        host.type = CU_MEM_LOCATION_TYPE_HOST;
        EXPECT_EQ(get_default(&a, &host, CU_MEM_ALLOCATION_TYPE_PINNED),
                  CUDA_ERROR_NOT_SUPPORTED);
        EXPECT_EQ(get_default(&a, &loc, CU_MEM_ALLOCATION_TYPE_MANAGED),
                  CUDA_ERROR_NOT_SUPPORTED);
    }
}

TEST_F(CudaCoverage, BatchedCopies) {
    // CUDA 12.8's variant, with failIdx (cuda.h maps the name to _v2's).
    auto batch = reinterpret_cast<CUresult (*)(
        CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
        size_t *, size_t, size_t *, CUstream)>(
        cuda_test_driver_symbol("cuMemcpyBatchAsync"));
    auto batch_v2 = CU_SYM(cuMemcpyBatchAsync);
    ASSERT_TRUE(batch && batch_v2);
    const size_t n = 4096;
    std::vector<unsigned char> in(n), out(n, 0);
    for (size_t i = 0; i < n; i++) {
        in[i] = cuda_test_pattern_byte(i, 3);
    }
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    // Host to device, then (another set of attributes) device to device;
    // then device to host in a second batch.
    CUdeviceptr dsts[2] = {a, b};
    CUdeviceptr srcs[2] = {reinterpret_cast<CUdeviceptr>(in.data()), a};
    size_t sizes[2] = {n, n};
    CUmemcpyAttributes attrs[2] = {};
    attrs[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
    attrs[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    size_t idxs[2] = {0, 1};
    size_t fail = 0;
    CU_ASSERT_OK(batch(dsts, srcs, sizes, 2, attrs, idxs, 2, &fail, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CUdeviceptr back_dst[1] = {reinterpret_cast<CUdeviceptr>(out.data())};
    CUdeviceptr back_src[1] = {b};
    if (batch_v2 != nullptr) {
        CU_ASSERT_OK(
            batch_v2(back_dst, back_src, sizes, 1, attrs + 1, idxs, 1, s));
    } else {
        CU_ASSERT_OK(
            batch(back_dst, back_src, sizes, 1, attrs + 1, idxs, 1, &fail, s));
    }
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(in, out);
    // The batch's own rules.
    size_t bad_idxs[2] = {1, 0};
    EXPECT_EQ(batch(dsts, srcs, sizes, 2, attrs, bad_idxs, 2, &fail, s),
              CUDA_ERROR_INVALID_VALUE)
        << "the first attribute set applies from copy 0";
    EXPECT_EQ(
        batch(dsts, srcs, sizes, 2, attrs, idxs, 2, &fail, CU_STREAM_LEGACY),
        CUDA_ERROR_INVALID_VALUE)
        << "not the legacy NULL stream";
    CUmemcpyAttributes no_order[1] = {};
    EXPECT_EQ(batch(dsts, srcs, sizes, 2, no_order, idxs, 1, &fail, s),
              CUDA_ERROR_INVALID_VALUE)
        << "a source access order is required";
    if (cu->emulated()) {
        // A copy past its allocation ends the batch and is named.
        size_t too_big[2] = {n, n + 1};
        EXPECT_EQ(batch(dsts, srcs, too_big, 2, attrs, idxs, 2, &fail, s),
                  CUDA_ERROR_INVALID_VALUE);
        EXPECT_EQ(fail, 1u);
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaCoverage, ManagedMemoryHints) {
    auto attach = CU_SYM(cuStreamAttachMemAsync);
    auto discard = CU_SYM(cuMemDiscardBatchAsync);
    ASSERT_TRUE(attach && discard);
    int managed = 0;
    CU_ASSERT_OK(cu->cuDeviceGetAttribute(
        &managed, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev));
    if (managed == 0) {
        GTEST_SKIP() << "no concurrent managed access on this device";
    }
    const size_t n = 1 << 16;
    CUdeviceptr m, d;
    CU_ASSERT_OK(cu->cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, n));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_EXPECT_OK(attach(s, m, 0, CU_MEM_ATTACH_SINGLE));
    CU_EXPECT_OK(attach(s, m, n, CU_MEM_ATTACH_GLOBAL));
    CU_EXPECT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(attach(s, m, n / 2, CU_MEM_ATTACH_GLOBAL),
              CUDA_ERROR_INVALID_VALUE)
        << "a part of an allocation";
    EXPECT_EQ(attach(s, m, 0, 0x10), CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr ptrs[1] = {m};
    size_t sizes[1] = {n};
    CU_EXPECT_OK(discard(ptrs, sizes, 1, 0, s));
    CU_EXPECT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(discard(ptrs, sizes, 1, 1, s), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(discard(ptrs, sizes, 0, 0, s), CUDA_ERROR_INVALID_VALUE);
    if (cu->emulated()) {
        EXPECT_EQ(attach(s, d, 0, CU_MEM_ATTACH_GLOBAL),
                  CUDA_ERROR_INVALID_VALUE)
            << "device memory is not managed";
        ptrs[0] = d;
        EXPECT_EQ(discard(ptrs, sizes, 1, 0, s), CUDA_ERROR_INVALID_VALUE);
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(m));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
}

// ---------------------------------------------------------------------------
// Profiler, module loading mode

TEST_F(CudaCoverage, ProfilerAndLoadingMode) {
    auto start = CU_SYM(cuProfilerStart);
    auto stop = CU_SYM(cuProfilerStop);
    auto mode = CU_SYM(cuModuleGetLoadingMode);
    ASSERT_TRUE(start && stop && mode);
    CU_EXPECT_OK(start());
    CU_EXPECT_OK(start()); // "no effect"
    CU_EXPECT_OK(stop());
    CU_EXPECT_OK(stop());
    CUmoduleLoadingMode m = static_cast<CUmoduleLoadingMode>(0);
    CU_ASSERT_OK(mode(&m));
    EXPECT_TRUE(m == CU_MODULE_EAGER_LOADING || m == CU_MODULE_LAZY_LOADING);
    EXPECT_EQ(mode(nullptr), CUDA_ERROR_INVALID_VALUE);
    if (cu->emulated()) {
        CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(nullptr));
        EXPECT_EQ(start(), CUDA_ERROR_INVALID_CONTEXT);
        CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(ctx));
    }
}

// ---------------------------------------------------------------------------
// The refusals (the emulated driver's answers: a real driver does these)

using CudaRefused = CudaEmulatedOnly<CudaCoverage>;

// No module, library, function or kernel can exist, so every handle of
// one is invalid, NULL included (but where cuda.h documents NULL as
// CUDA_ERROR_INVALID_VALUE); what would make one is not supported.
TEST_F(CudaRefused, FunctionsAndKernelsRefuseEveryHandle) {
    int on_stack = 0;
    CUfunction f = reinterpret_cast<CUfunction>(&on_stack);
    CUkernel k = reinterpret_cast<CUkernel>(&on_stack);
    int v = 0;
    const char *name = nullptr;
    auto func_attr = CU_SYM(cuFuncGetAttribute);
    auto func_name = CU_SYM(cuFuncGetName);
    auto kernel_name = CU_SYM(cuKernelGetName);
    auto occupancy = CU_SYM(cuOccupancyMaxActiveBlocksPerMultiprocessor);
    auto lib_load = CU_SYM(cuLibraryLoadData);
    auto link_destroy = CU_SYM(cuLinkDestroy);
    ASSERT_TRUE(func_attr && func_name && kernel_name && occupancy &&
                lib_load && link_destroy);
    for (CUfunction h : {f, static_cast<CUfunction>(nullptr)}) {
        EXPECT_EQ(func_attr(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, h),
                  CUDA_ERROR_INVALID_HANDLE);
    }
    EXPECT_EQ(occupancy(&v, f, 128, 0), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(func_name(&name, f), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(kernel_name(&name, k), CUDA_ERROR_INVALID_HANDLE);
    // cuda.h: a NULL name or handle is CUDA_ERROR_INVALID_VALUE for both.
    EXPECT_EQ(func_name(&name, nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(kernel_name(&name, nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(kernel_name(nullptr, k), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(func_attr(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, f),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(func_attr(&v, CU_FUNC_ATTRIBUTE_MAX, f),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(func_name(nullptr, f), CUDA_ERROR_INVALID_VALUE);
    CUlibrary lib;
    static const char image[] = "not an image";
    EXPECT_EQ(lib_load(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0),
              CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(link_destroy(reinterpret_cast<CUlinkState>(&on_stack)),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuFuncGetAttribute"), 4);
}

// Where cuda.h lists no CUDA_ERROR_INVALID_HANDLE among a call's results,
// a NULL handle is CUDA_ERROR_INVALID_VALUE, as the header says of
// cuFuncGetName and cuKernelGetName ("If either **name or hfunc is NULL");
// a handle that cannot exist stays CUDA_ERROR_INVALID_HANDLE.
TEST_F(CudaRefused, NullHandlesWhereTheHeaderListsNoInvalidHandle) {
    int on_stack = 0;
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    CUdeviceptr d = 0;
    size_t bytes = 0, offset = 0;
    int blocks = 0, grid = 0, block = 0;
    struct row_t {
        const char *call;
        CUresult got;
    };
    const row_t rows[] = {
        {"cuModuleUnload", CU_SYM(cuModuleUnload)(nullptr)},
        {"cuModuleGetFunction",
         CU_SYM(cuModuleGetFunction)(&f, nullptr, "kernel")},
        {"cuModuleGetGlobal_v2",
         CU_SYM(cuModuleGetGlobal_v2)(&d, &bytes, nullptr, "global")},
        {"cuLibraryUnload", CU_SYM(cuLibraryUnload)(nullptr)},
        {"cuKernelGetParamInfo",
         CU_SYM(cuKernelGetParamInfo)(nullptr, 0, &offset, nullptr)},
        {"cuFuncSetCacheConfig",
         CU_SYM(cuFuncSetCacheConfig)(nullptr, CU_FUNC_CACHE_PREFER_NONE)},
        {"cuFuncGetModule", CU_SYM(cuFuncGetModule)(&m, nullptr)},
        {"cuFuncGetParamInfo",
         CU_SYM(cuFuncGetParamInfo)(nullptr, 0, &offset, nullptr)},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
         CU_SYM(cuOccupancyMaxActiveBlocksPerMultiprocessor)(&blocks, nullptr,
                                                             128, 0)},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
         CU_SYM(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)(
             &blocks, nullptr, 128, 0, 0)},
        {"cuOccupancyMaxPotentialBlockSize",
         CU_SYM(cuOccupancyMaxPotentialBlockSize)(&grid, &block, nullptr,
                                                  nullptr, 0, 0)},
        {"cuOccupancyMaxPotentialBlockSizeWithFlags",
         CU_SYM(cuOccupancyMaxPotentialBlockSizeWithFlags)(
             &grid, &block, nullptr, nullptr, 0, 0, 0)},
        {"cuOccupancyAvailableDynamicSMemPerBlock",
         CU_SYM(cuOccupancyAvailableDynamicSMemPerBlock)(&bytes, nullptr, 1,
                                                         128)},
    };
    for (const row_t &r : rows) {
        EXPECT_EQ(r.got, CUDA_ERROR_INVALID_VALUE) << r.call;
    }
    // A handle that is not NULL is one that cannot exist here.
    EXPECT_EQ(CU_SYM(cuModuleUnload)(reinterpret_cast<CUmodule>(&on_stack)),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(CU_SYM(cuLibraryUnload)(reinterpret_cast<CUlibrary>(&on_stack)),
              CUDA_ERROR_INVALID_HANDLE);
}

// One call of each refused family with good arguments, and its checks.
TEST_F(CudaRefused, EachFamilyAnswersItsDocumentedError) {
    int on_stack = 0;
    void *fake = &on_stack;
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    struct case_t {
        const char *what;
        CUresult want;
        CUresult got;
    };
    std::vector<case_t> cases;
    auto check = [&](const char *what, CUresult want, CUresult got) {
        cases.push_back({what, want, got});
    };

    CUDA_RESOURCE_DESC res = {};
    res.resType = CU_RESOURCE_TYPE_LINEAR;
    CUDA_TEXTURE_DESC tex = {};
    CUtexObject to = 0;
    check("cuTexObjectCreate", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuTexObjectCreate)(&to, &res, &tex, nullptr));
    check("cuTexObjectCreate NULL", CUDA_ERROR_INVALID_VALUE,
          CU_SYM(cuTexObjectCreate)(nullptr, &res, &tex, nullptr));
    check("cuTexObjectDestroy", CUDA_ERROR_INVALID_HANDLE,
          CU_SYM(cuTexObjectDestroy)(1));
    check("cuTexRefSetFlags", CUDA_ERROR_INVALID_HANDLE,
          CU_SYM(cuTexRefSetFlags)(static_cast<CUtexref>(fake), 0));

    CUtensorMap map; // aligned as its type requires (64 bytes at least)
    cuuint64_t dims[2] = {64, 64}, strides[1] = {256};
    cuuint32_t box[2] = {8, 8}, elem[2] = {1, 1};
    check("cuTensorMapEncodeTiled", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuTensorMapEncodeTiled)(
              &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
              reinterpret_cast<void *>(d), dims, strides, box, elem,
              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
              CU_TENSOR_MAP_L2_PROMOTION_NONE,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    check("cuTensorMapEncodeTiled rank 6", CUDA_ERROR_INVALID_VALUE,
          CU_SYM(cuTensorMapEncodeTiled)(
              &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 6,
              reinterpret_cast<void *>(d), dims, strides, box, elem,
              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
              CU_TENSOR_MAP_L2_PROMOTION_NONE,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));

    CUgraphicsResource gr = static_cast<CUgraphicsResource>(fake);
    check("cuGraphicsMapResources", CUDA_ERROR_INVALID_HANDLE,
          CU_SYM(cuGraphicsMapResources)(1, &gr, s));
    check("cuGraphicsMapResources 0", CUDA_ERROR_INVALID_VALUE,
          CU_SYM(cuGraphicsMapResources)(0, &gr, s));

    CUDA_EXTERNAL_MEMORY_HANDLE_DESC emd = {};
    emd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    emd.handle.fd = 0;
    emd.size = 4096;
    CUexternalMemory em;
    check("cuImportExternalMemory", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuImportExternalMemory)(&em, &emd));
    check("cuDestroyExternalMemory", CUDA_ERROR_INVALID_HANDLE,
          CU_SYM(cuDestroyExternalMemory)(static_cast<CUexternalMemory>(fake)));

    CUdevResource dr;
    check(
        "cuDeviceGetDevResource type", CUDA_ERROR_INVALID_RESOURCE_TYPE,
        CU_SYM(cuDeviceGetDevResource)(dev, &dr, CU_DEV_RESOURCE_TYPE_INVALID));
    check("cuGreenCtxDestroy", CUDA_ERROR_INVALID_CONTEXT,
          CU_SYM(cuGreenCtxDestroy)(static_cast<CUgreenCtx>(fake)));

    CUprocessState ps;
    check("cuCheckpointProcessGetState", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuCheckpointProcessGetState)(getpid(), &ps));
    check("cuCheckpointProcessGetState pid 0", CUDA_ERROR_INVALID_VALUE,
          CU_SYM(cuCheckpointProcessGetState)(0, &ps));
    CUmulticastObjectProp mp = {};
    mp.numDevices = 1;
    mp.size = 2 << 20;
    size_t gran;
    check("cuMulticastGetGranularity", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuMulticastGetGranularity)(&gran, &mp,
                                            CU_MULTICAST_GRANULARITY_MINIMUM));
    CUlogIterator it;
    check("cuLogsCurrent", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuLogsCurrent)(&it, 0));

    check("cuStreamWriteValue32_v2", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuStreamWriteValue32)(s, d, 1, 0));
    check("cuStreamWriteValue32_v2 addr 0", CUDA_ERROR_INVALID_VALUE,
          CU_SYM(cuStreamWriteValue32)(s, 0, 1, 0));
    check("cuStreamWriteValue32_v2 stream", CUDA_ERROR_INVALID_HANDLE,
          CU_SYM(cuStreamWriteValue32)(static_cast<CUstream>(fake), d, 1, 0));

    int handle_fd = -1;
    check("cuMemGetHandleForAddressRange", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuMemGetHandleForAddressRange)(
              &handle_fd, d, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0));
    CUmemPoolPtrExportData share;
    check("cuMemPoolExportPointer", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuMemPoolExportPointer)(&share, d));
    CUcontext attached;
    check("cuCtxAttach", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuCtxAttach)(&attached, 0));
    const void *table = fake;
    CUuuid id = {};
    check("cuGetExportTable", CUDA_ERROR_NOT_SUPPORTED,
          CU_SYM(cuGetExportTable)(&table, &id));
    EXPECT_EQ(table, nullptr);

    for (const case_t &c : cases) {
        EXPECT_EQ(c.got, c.want) << c.what;
        std::string entry(c.what, std::strcspn(c.what, " "));
        EXPECT_GE(cu->umfCudaMockGetCallCount(entry.c_str()), 1) << entry;
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
}

// The log line of a refusal names the function and why.
UMF_TEST_CHILD(refusal_log) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    CUmodule m;
    static const char image[] = "not an image";
    CHILD_EXPECT(cu->cuModuleLoadData(&m, image) == CUDA_ERROR_NOT_SUPPORTED);
    int v;
    CHILD_EXPECT(
        CU_SYM(cuFuncGetAttribute)(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, nullptr) ==
        CUDA_ERROR_INVALID_HANDLE);
    CUtexref ref;
    CHILD_EXPECT(CU_SYM(cuTexRefCreate)(&ref) == CUDA_ERROR_NOT_SUPPORTED);
    CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

TEST_F(CudaRefused, TheLogNamesTheFunction) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child("refusal_log", {}, &status, &out));
    EXPECT_EQ(status, 0) << out;
    for (const char *want :
         {"cuModuleLoadData: not supported by the emulated driver: the "
          "emulated devices run no code",
          "cuFuncGetAttribute: function 0 is not valid: no function can "
          "exist",
          "cuTexRefCreate: not supported by the emulated driver: the "
          "emulated devices have no texture units"}) {
        EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
    }
}

// Every entry point the driver exports (the table of docs/emulated-cuda.md,
// which cuda_mock_exports holds to nm -D), called with every argument 0 or
// NULL, answers a result of cuda.h, never crashes. In a child: some of the
// calls change the driver's state (they pop contexts, reset devices).
UMF_TEST_CHILD(zero_arguments) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
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
    CHILD_ASSERT(names.size() > 600);
    // More zeros than any entry point takes, so that arguments passed on
    // the stack (by-value handles of 64 bytes) are zeros too.
    typedef CUresult (*any_fn)(
        uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
        uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
        uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
        uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);
    for (const std::string &n : names) {
        auto fn = reinterpret_cast<any_fn>(cuda_test_driver_symbol(n.c_str()));
        CHILD_ASSERT(fn != nullptr);
        CUresult r = fn(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        0, 0, 0, 0, 0);
        const char *rname = nullptr;
        CHILD_CHECK_(cu->cuGetErrorName(r, &rname) == CUDA_SUCCESS, (void)0,
                     "%s: result %d is not of cuda.h", n.c_str(), (int)r);
    }
    return 0;
}

TEST_F(CudaRefused, EveryEntryPointSurvivesZeroArguments) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child("zero_arguments", {"UMF_GPU_MOCK_LOG=off"},
                                    &status, &out));
    EXPECT_EQ(status, 0) << out;
}

} // namespace
