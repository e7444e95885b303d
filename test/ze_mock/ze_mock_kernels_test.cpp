// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kernels on the emulated Level Zero driver: modules built from SPIR-V made
// of test/kernels/*.cl at build time, run on the CPU through pocl. Written
// from ze_api.h's words, with the driver's copy calls moving the data, so
// the test runs unchanged on a GPU. It skips where the SPIR-V could not be
// built (no clang-14 / llvm-spirv-14) or the driver says the CPU backend is
// missing (zeModuleCreate's build log).

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include "test_child.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

std::vector<char> read_spirv(const char *name) {
    const char *dir = std::getenv("UMF_GPU_TEST_KERNELS");
    if (dir == nullptr) {
        return {};
    }
    std::ifstream f(std::string(dir) + "/" + name, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(f), {});
}

ze_command_queue_desc_t queue_desc(ze_command_queue_mode_t mode) {
    return {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0, mode,
            ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
}

// The emulated driver (what the loader was told to use): what only holds
// for its CPU backend is checked there alone.
bool emulated() {
    const char *alt = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    return alt != nullptr && std::strstr(alt, "ze_mock") != nullptr;
}

std::string log_text(ze_module_build_log_handle_t log) {
    if (log == nullptr) {
        return "";
    }
    size_t size = 0;
    EXPECT_EQ(zeModuleBuildLogGetString(log, &size, nullptr),
              ZE_RESULT_SUCCESS);
    std::string s(size, '\0');
    EXPECT_EQ(zeModuleBuildLogGetString(log, &size, s.data()),
              ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleBuildLogDestroy(log), ZE_RESULT_SUCCESS);
    return s.c_str();
}

class ZeKernels : public ::testing::Test {
  protected:
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t dev = nullptr;
    ze_context_handle_t ctx = nullptr;
    ze_command_list_handle_t imm = nullptr;
    ze_module_handle_t mod = nullptr;
    std::vector<char> spirv;

    ze_result_t create(const std::vector<char> &il, ze_module_handle_t *m,
                       std::string *log_out,
                       ze_module_format_t format = ZE_MODULE_FORMAT_IL_SPIRV,
                       const char *flags = nullptr) {
        ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                              nullptr,
                              format,
                              il.size(),
                              reinterpret_cast<const uint8_t *>(il.data()),
                              flags,
                              nullptr};
        ze_module_build_log_handle_t log = nullptr;
        ze_result_t r = zeModuleCreate(ctx, dev, &d, m, &log);
        std::string text = log_text(log);
        if (log_out != nullptr) {
            *log_out = text;
        }
        return r;
    }

    void SetUp() override {
        ASSERT_EQ(zeInit(0), ZE_RESULT_SUCCESS);
        uint32_t n = 1;
        ASSERT_EQ(zeDriverGet(&n, &driver), ZE_RESULT_SUCCESS);
        n = 1;
        ASSERT_EQ(zeDeviceGet(driver, &n, &dev), ZE_RESULT_SUCCESS);
        ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
        ASSERT_EQ(zeContextCreate(driver, &cd, &ctx), ZE_RESULT_SUCCESS);
        ze_command_queue_desc_t qd =
            queue_desc(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
        ASSERT_EQ(zeCommandListCreateImmediate(ctx, dev, &qd, &imm),
                  ZE_RESULT_SUCCESS);
        spirv = read_spirv("kernels.spv");
        if (spirv.empty()) {
            GTEST_SKIP() << "no test kernels: clang-14 and llvm-spirv-14 "
                            "were missing at build time";
        }
        std::string log;
        ze_result_t r = create(spirv, &mod, &log);
        if (r != ZE_RESULT_SUCCESS &&
            log.find("kernels cannot run here") != std::string::npos) {
            GTEST_SKIP() << log;
        }
        ASSERT_EQ(r, ZE_RESULT_SUCCESS) << log;
    }

    void TearDown() override {
        if (mod != nullptr) {
            EXPECT_EQ(zeModuleDestroy(mod), ZE_RESULT_SUCCESS);
        }
        if (imm != nullptr) {
            EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
        }
        if (ctx != nullptr) {
            EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
        }
    }

    void *device_alloc(size_t size) {
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                        nullptr, 0, 0};
        void *p = nullptr;
        EXPECT_EQ(zeMemAllocDevice(ctx, &d, size, 64, dev, &p),
                  ZE_RESULT_SUCCESS);
        return p;
    }

    ze_kernel_handle_t kernel(const char *name) {
        ze_kernel_desc_t d = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
        ze_kernel_handle_t k = nullptr;
        EXPECT_EQ(zeKernelCreate(mod, &d, &k), ZE_RESULT_SUCCESS) << name;
        return k;
    }

    void copy(void *dst, const void *src, size_t size) {
        ASSERT_EQ(zeCommandListAppendMemoryCopy(imm, dst, src, size, nullptr, 0,
                                                nullptr),
                  ZE_RESULT_SUCCESS); // a synchronous immediate list
    }
};

TEST_F(ZeKernels, ModuleNamesPropertiesAndKernelProperties) {
    uint32_t n = 0;
    ASSERT_EQ(zeModuleGetKernelNames(mod, &n, nullptr), ZE_RESULT_SUCCESS);
    ASSERT_EQ(n, 6u);
    std::vector<const char *> names(n);
    ASSERT_EQ(zeModuleGetKernelNames(mod, &n, names.data()), ZE_RESULT_SUCCESS);
    bool found = false;
    for (const char *s : names) {
        found = found || std::strcmp(s, "vadd") == 0;
    }
    EXPECT_TRUE(found);
    ze_module_properties_t mp = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, nullptr,
                                 0};
    EXPECT_EQ(zeModuleGetProperties(mod, &mp), ZE_RESULT_SUCCESS);
    EXPECT_EQ(mp.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS, 0u);

    ze_kernel_handle_t k = kernel("fixed");
    ze_kernel_properties_t kp = {};
    kp.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ASSERT_EQ(zeKernelGetProperties(k, &kp), ZE_RESULT_SUCCESS);
    EXPECT_EQ(kp.numKernelArgs, 1u);
    EXPECT_EQ(kp.requiredGroupSizeX, 4u);
    EXPECT_EQ(kp.requiredGroupSizeY, 1u);
    EXPECT_EQ(zeKernelSetGroupSize(k, 8, 1, 1),
              ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    uint32_t gx = 0, gy = 0, gz = 0;
    EXPECT_EQ(zeKernelSuggestGroupSize(k, 64, 1, 1, &gx, &gy, &gz),
              ZE_RESULT_SUCCESS);
    EXPECT_EQ(gx, 4u);
    size_t size = 0;
    ASSERT_EQ(zeKernelGetName(k, &size, nullptr), ZE_RESULT_SUCCESS);
    std::string name(size, '\0');
    ASSERT_EQ(zeKernelGetName(k, &size, name.data()), ZE_RESULT_SUCCESS);
    EXPECT_STREQ(name.c_str(), "fixed");
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
}

TEST_F(ZeKernels, BadInputsAreRefused) {
    ze_kernel_desc_t d = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "nope"};
    ze_kernel_handle_t k = nullptr;
    EXPECT_EQ(zeKernelCreate(mod, &d, &k), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    k = kernel("ids3d");
    void *p = nullptr;
    uint32_t w = 1;
    uint64_t wide = 1;
    EXPECT_EQ(zeKernelSetArgumentValue(k, 3, sizeof(p), &p),
              ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 0, 4, &p),
              ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(wide), &wide),
              ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(w), &w), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);

    // Junk as SPIR-V and as a native binary, with a log that says why.
    std::vector<char> junk = {'n', 'o', 't', ' ', 's', 'p', 'i', 'r', 'v', '!',
                              '!', '!', '!', '!', '!', '!', '!', '!', '!', '!'};
    ze_module_handle_t m = nullptr;
    std::string log;
    EXPECT_EQ(create(junk, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_NE(log.find("not a SPIR-V module"), std::string::npos) << log;
    EXPECT_EQ(create(junk, &m, &log, ZE_MODULE_FORMAT_NATIVE),
              ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    EXPECT_FALSE(log.empty());
    // A truncated module: the translator's own words.
    std::vector<char> cut(spirv.begin(), spirv.begin() + spirv.size() / 2);
    EXPECT_EQ(create(cut, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_FALSE(log.empty());
    // No program-scope variable of that name; function pointers refused.
    size_t gsize = 0;
    void *gptr = nullptr;
    EXPECT_EQ(zeModuleGetGlobalPointer(mod, "nothing", &gsize, &gptr),
              ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
    void *fn = nullptr;
    EXPECT_NE(zeModuleGetFunctionPointer(mod, "vadd", &fn), ZE_RESULT_SUCCESS);
}

TEST_F(ZeKernels, VectorAddOnARegularListWithArgumentsCapturedAtAppend) {
    constexpr size_t N = 256;
    std::vector<int> a(N), b(N), c(N, 0);
    for (size_t i = 0; i < N; i++) {
        a[i] = (int)i;
        b[i] = (int)(1000 * i);
    }
    int *da = (int *)device_alloc(N * 4), *db = (int *)device_alloc(N * 4),
        *dc = (int *)device_alloc(N * 4), *dc2 = (int *)device_alloc(N * 4);
    copy(da, a.data(), N * 4);
    copy(db, b.data(), N * 4);
    ze_kernel_handle_t k = kernel("vadd");
    ASSERT_EQ(zeKernelSetGroupSize(k, 64, 1, 1), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(da), &da),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(db), &db),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k, 2, sizeof(dc), &dc),
              ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr,
                                 0, 0};
    ze_command_list_handle_t list = nullptr;
    ASSERT_EQ(zeCommandListCreate(ctx, dev, &ld, &list), ZE_RESULT_SUCCESS);
    ze_group_count_t groups = {N / 64, 1, 1};
    ASSERT_EQ(
        zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
        ZE_RESULT_SUCCESS);
    // Set after the append: the first launch keeps dc, this one dc2.
    ASSERT_EQ(zeKernelSetArgumentValue(k, 2, sizeof(dc2), &dc2),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(
        zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
        ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd = queue_desc(ZE_COMMAND_QUEUE_MODE_DEFAULT);
    ze_command_queue_handle_t q = nullptr;
    ASSERT_EQ(zeCommandQueueCreate(ctx, dev, &qd, &q), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandQueueSynchronize(q, UINT64_MAX), ZE_RESULT_SUCCESS);
    for (int *dst : {dc, dc2}) {
        copy(c.data(), dst, N * 4);
        for (size_t i = 0; i < N; i++) {
            ASSERT_EQ(c[i], a[i] + b[i]) << i;
        }
    }
    EXPECT_EQ(zeCommandQueueDestroy(q), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    for (void *p : {(void *)da, (void *)db, (void *)dc, (void *)dc2}) {
        EXPECT_EQ(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
    }
}

TEST_F(ZeKernels, LocalMemoryAtomicsAnd3DIdsWithOffset) {
    constexpr uint32_t N = 64;
    int *in = (int *)device_alloc(N * 4), *out = (int *)device_alloc(N * 4);
    std::vector<int> h(N);
    for (uint32_t i = 0; i < N; i++) {
        h[i] = (int)i;
    }
    copy(in, h.data(), N * 4);
    ze_kernel_handle_t rev = kernel("reverse_groups");
    ASSERT_EQ(zeKernelSetGroupSize(rev, 16, 1, 1), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(rev, 0, sizeof(in), &in),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(rev, 1, sizeof(out), &out),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(rev, 2, 16 * sizeof(int), nullptr),
              ZE_RESULT_SUCCESS);
    ze_group_count_t g = {N / 16, 1, 1};
    ASSERT_EQ(
        zeCommandListAppendLaunchKernel(imm, rev, &g, nullptr, 0, nullptr),
        ZE_RESULT_SUCCESS);
    copy(h.data(), out, N * 4);
    for (uint32_t i = 0; i < N; i++) {
        ASSERT_EQ(h[i], (int)((i / 16) * 16 + 15 - i % 16)) << i;
    }

    int zero = 0, got = 0;
    copy(out, &zero, sizeof(zero));
    ze_kernel_handle_t cnt = kernel("count");
    ASSERT_EQ(zeKernelSetGroupSize(cnt, 8, 2, 1), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(cnt, 0, sizeof(out), &out),
              ZE_RESULT_SUCCESS);
    ze_group_count_t g2 = {3, 2, 5};
    ASSERT_EQ(
        zeCommandListAppendLaunchKernel(imm, cnt, &g2, nullptr, 0, nullptr),
        ZE_RESULT_SUCCESS);
    copy(&got, out, sizeof(got));
    EXPECT_EQ(got, 8 * 2 * 3 * 2 * 5);

    // 4 x 2 x 3 work-items from offset (5, 6, 7), two groups in x.
    uint32_t *ids = (uint32_t *)device_alloc(24 * 4);
    ze_kernel_handle_t k3 = kernel("ids3d");
    uint32_t width = 4, height = 2;
    ASSERT_EQ(zeKernelSetGroupSize(k3, 2, 2, 1), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetGlobalOffsetExp(k3, 5, 6, 7), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k3, 0, sizeof(ids), &ids),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k3, 1, 4, &width), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k3, 2, 4, &height), ZE_RESULT_SUCCESS);
    ze_group_count_t g3 = {2, 1, 3};
    ASSERT_EQ(
        zeCommandListAppendLaunchKernel(imm, k3, &g3, nullptr, 0, nullptr),
        ZE_RESULT_SUCCESS);
    std::vector<uint32_t> hid(24);
    copy(hid.data(), ids, 24 * 4);
    for (uint32_t z = 0; z < 3; z++) {
        for (uint32_t y = 0; y < 2; y++) {
            for (uint32_t x = 0; x < 4; x++) {
                EXPECT_EQ(hid[(z * 2 + y) * 4 + x],
                          (x + 5) | (y + 6) << 10 | (z + 7) << 20);
            }
        }
    }
    for (ze_kernel_handle_t k : {rev, cnt, k3}) {
        EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    }
    for (void *p : {(void *)in, (void *)out, (void *)ids}) {
        EXPECT_EQ(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
    }
}

// zeModuleGetNativeBinary gives what a NATIVE zeModuleCreate takes.
TEST_F(ZeKernels, NativeBinaryBuildsAgain) {
    size_t size = 0;
    ASSERT_EQ(zeModuleGetNativeBinary(mod, &size, nullptr), ZE_RESULT_SUCCESS);
    std::vector<char> bin(size);
    ASSERT_EQ(zeModuleGetNativeBinary(mod, &size, (uint8_t *)bin.data()),
              ZE_RESULT_SUCCESS);
    ze_module_handle_t m = nullptr;
    std::string log;
    ASSERT_EQ(create(bin, &m, &log, ZE_MODULE_FORMAT_NATIVE), ZE_RESULT_SUCCESS)
        << log;
    uint32_t n = 0;
    EXPECT_EQ(zeModuleGetKernelNames(m, &n, nullptr), ZE_RESULT_SUCCESS);
    EXPECT_EQ(n, 6u);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
    bin.resize(bin.size() - 8);
    EXPECT_EQ(create(bin, &m, &log, ZE_MODULE_FORMAT_NATIVE),
              ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
}

// "zeCommandListAppendLaunchKernelIndirect ... pLaunchArgumentsBuffer:
// pointer to device buffer that will contain thread group launch
// arguments": read when the launch runs, here after a host-signalled
// event lets it, with a copy behind it that must see its result.
TEST_F(ZeKernels, IndirectLaunchWaitsForAHostSignalledEventThenACopy) {
    constexpr uint32_t N = 128;
    int *da = (int *)device_alloc(N * 4), *db = (int *)device_alloc(N * 4),
        *dc = (int *)device_alloc(N * 4), *back = (int *)device_alloc(N * 4);
    auto *groups = (ze_group_count_t *)device_alloc(sizeof(ze_group_count_t));
    std::vector<int> a(N), b(N), c(N, -1);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = (int)i;
        b[i] = 7;
    }
    copy(da, a.data(), N * 4);
    copy(db, b.data(), N * 4);
    ze_group_count_t none = {0, 0, 0};
    copy(groups, &none, sizeof(none));

    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_event_pool_handle_t pool = nullptr;
    ASSERT_EQ(zeEventPoolCreate(ctx, &pd, 1, &dev, &pool), ZE_RESULT_SUCCESS);
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0,
                          ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t go = nullptr, done = nullptr;
    ASSERT_EQ(zeEventCreate(pool, &ed, &go), ZE_RESULT_SUCCESS);
    ed.index = 1;
    ASSERT_EQ(zeEventCreate(pool, &ed, &done), ZE_RESULT_SUCCESS);

    ze_kernel_handle_t k = kernel("vadd");
    ASSERT_EQ(zeKernelSetGroupSize(k, 32, 1, 1), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(da), &da),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(db), &db),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k, 2, sizeof(dc), &dc),
              ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd = queue_desc(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_command_list_handle_t async = nullptr;
    ASSERT_EQ(zeCommandListCreateImmediate(ctx, dev, &qd, &async),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandListAppendLaunchKernelIndirect(async, k, groups, nullptr,
                                                      1, &go),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(
        zeCommandListAppendMemoryCopy(async, back, dc, N * 4, done, 0, nullptr),
        ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
    // The group count is written before the event lets the launch run.
    ze_group_count_t real = {N / 32, 1, 1};
    copy(groups, &real, sizeof(real));
    ASSERT_EQ(zeEventHostSignal(go), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
    copy(c.data(), back, N * 4);
    for (uint32_t i = 0; i < N; i++) {
        ASSERT_EQ(c[i], (int)i + 7) << i;
    }
    EXPECT_EQ(zeCommandListDestroy(async), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(go), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(done), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    for (void *p :
         {(void *)da, (void *)db, (void *)dc, (void *)back, (void *)groups}) {
        EXPECT_EQ(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
    }
}

// "pCountBuffer: pointer to device memory location that will contain the
// actual number of kernels to launch; value must be less than or equal to
// numKernels": two kernels given, one launched.
TEST_F(ZeKernels, MultipleKernelsIndirectLaunchesTheCountRead) {
    int *out = (int *)device_alloc(2 * sizeof(int));
    int init[2] = {0, 0};
    copy(out, init, sizeof(init));
    ze_kernel_handle_t k1 = kernel("count"), k2 = kernel("count");
    int *second = out + 1;
    ASSERT_EQ(zeKernelSetArgumentValue(k1, 0, sizeof(out), &out),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetArgumentValue(k2, 0, sizeof(second), &second),
              ZE_RESULT_SUCCESS);
    auto *count = (uint32_t *)device_alloc(sizeof(uint32_t));
    auto *groups =
        (ze_group_count_t *)device_alloc(2 * sizeof(ze_group_count_t));
    uint32_t one = 1;
    ze_group_count_t g[2] = {{4, 1, 1}, {8, 1, 1}};
    copy(count, &one, sizeof(one));
    copy(groups, g, sizeof(g));
    ze_kernel_handle_t ks[2] = {k1, k2};
    ASSERT_EQ(zeCommandListAppendLaunchMultipleKernelsIndirect(
                  imm, 2, ks, count, groups, nullptr, 0, nullptr),
              ZE_RESULT_SUCCESS);
    int got[2] = {-1, -1};
    copy(got, out, sizeof(got));
    EXPECT_EQ(got[0], 4); // four groups of one work-item
    EXPECT_EQ(got[1], 0); // not launched
    for (ze_kernel_handle_t k : ks) {
        EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    }
    for (void *p : {(void *)out, (void *)count, (void *)groups}) {
        EXPECT_EQ(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
    }
}

// "All module import requirements must be satisfied via linking before
// kernel objects can be created from them"; "Unsatisfiable import
// dependencies in the set of modules passed to zeModuleDynamicLink will
// result in ZE_RESULT_ERROR_MODULE_LINK_FAILURE"; "Modules will only be
// linked once".
TEST_F(ZeKernels, DynamicLinkGivesAnImportingModuleItsKernels) {
    ze_module_handle_t user = nullptr, lib = nullptr;
    std::string log;
    ASSERT_EQ(create(read_spirv("link_user.spv"), &user, &log),
              ZE_RESULT_SUCCESS)
        << log;
    ASSERT_EQ(create(read_spirv("link_lib.spv"), &lib, &log), ZE_RESULT_SUCCESS)
        << log;
    ze_module_properties_t mp = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, nullptr,
                                 0};
    EXPECT_EQ(zeModuleGetProperties(user, &mp), ZE_RESULT_SUCCESS);
    EXPECT_NE(mp.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS, 0u);
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0,
                           "use_twice"};
    ze_kernel_handle_t k = nullptr;
    EXPECT_EQ(zeKernelCreate(user, &kd, &k),
              ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
    // Alone, its import has no exporter: nothing is linked, and the log
    // names it.
    ze_module_build_log_handle_t link_log = nullptr;
    EXPECT_EQ(zeModuleDynamicLink(1, &user, &link_log),
              ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    log = log_text(link_log);
    EXPECT_NE(log.find("unresolved import twice"), std::string::npos) << log;
    EXPECT_EQ(zeKernelCreate(user, &kd, &k),
              ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
    ze_module_handle_t both[2] = {user, lib};
    ASSERT_EQ(zeModuleDynamicLink(2, both, &link_log), ZE_RESULT_SUCCESS)
        << log_text(link_log);
    log_text(link_log);
    EXPECT_EQ(zeModuleDynamicLink(2, both, nullptr), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelCreate(user, &kd, &k), ZE_RESULT_SUCCESS);
    constexpr uint32_t N = 32;
    int *out = (int *)device_alloc(N * sizeof(int));
    ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(out), &out),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSetGroupSize(k, 8, 1, 1), ZE_RESULT_SUCCESS);
    ze_group_count_t g = {N / 8, 1, 1};
    ASSERT_EQ(zeCommandListAppendLaunchKernel(imm, k, &g, nullptr, 0, nullptr),
              ZE_RESULT_SUCCESS);
    std::vector<int> h(N);
    copy(h.data(), out, N * sizeof(int));
    for (uint32_t i = 0; i < N; i++) {
        ASSERT_EQ(h[i], 2 * (int)i) << i;
    }
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(ctx, out), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleDestroy(user), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleDestroy(lib), ZE_RESULT_SUCCESS);
}

// "ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP: Indicates all events in pool will
// contain kernel timestamps": a launch that signals one times itself.
TEST_F(ZeKernels, ALaunchSignalsKernelTimestamps) {
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
                                   ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP,
                               1};
    ze_event_pool_handle_t pool = nullptr;
    ASSERT_EQ(zeEventPoolCreate(ctx, &pd, 1, &dev, &pool), ZE_RESULT_SUCCESS);
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0,
                          ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t ev = nullptr;
    ASSERT_EQ(zeEventCreate(pool, &ed, &ev), ZE_RESULT_SUCCESS);
    int *out = (int *)device_alloc(sizeof(int));
    ze_kernel_handle_t k = kernel("count");
    ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(out), &out),
              ZE_RESULT_SUCCESS);
    ze_group_count_t g = {1, 1, 1};
    ASSERT_EQ(zeCommandListAppendLaunchKernel(imm, k, &g, ev, 0, nullptr),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(ev, UINT64_MAX), ZE_RESULT_SUCCESS);
    ze_kernel_timestamp_result_t ts = {};
    ASSERT_EQ(zeEventQueryKernelTimestamp(ev, &ts), ZE_RESULT_SUCCESS);
    EXPECT_LE(ts.global.kernelStart, ts.global.kernelEnd);
    EXPECT_LE(ts.context.kernelStart, ts.context.kernelEnd);
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(ctx, out), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(ev), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
}

// "pConstants: pointer to specialization constants": SpecId 7 of spec.cl
// takes the value given, or keeps its default.
TEST_F(ZeKernels, SpecializationConstants) {
    std::vector<char> il = read_spirv("spec.spv");
    ASSERT_FALSE(il.empty());
    int *out = (int *)device_alloc(sizeof(int));
    auto run = [&](const ze_module_constants_t *c) {
        ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                              nullptr,
                              ZE_MODULE_FORMAT_IL_SPIRV,
                              il.size(),
                              reinterpret_cast<const uint8_t *>(il.data()),
                              nullptr,
                              c};
        ze_module_handle_t m = nullptr;
        ze_module_build_log_handle_t log = nullptr;
        EXPECT_EQ(zeModuleCreate(ctx, dev, &d, &m, &log), ZE_RESULT_SUCCESS)
            << log_text(log);
        if (m == nullptr) {
            return -1;
        }
        log_text(log);
        ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0,
                               "spec"};
        ze_kernel_handle_t k = nullptr;
        EXPECT_EQ(zeKernelCreate(m, &kd, &k), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(out), &out),
                  ZE_RESULT_SUCCESS);
        ze_group_count_t g = {1, 1, 1};
        EXPECT_EQ(
            zeCommandListAppendLaunchKernel(imm, k, &g, nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
        int v = 0;
        copy(&v, out, sizeof(v));
        EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
        return v;
    };
    EXPECT_EQ(run(nullptr), 12345);
    uint32_t id = 7;
    int32_t value = 99;
    const void *values[] = {&value};
    ze_module_constants_t c = {1, &id, values};
    EXPECT_EQ(run(&c), 99);
    EXPECT_EQ(zeMemFree(ctx, out), ZE_RESULT_SUCCESS);
}

// What the CPU backend cannot run is refused at zeModuleCreate, before
// anything runs, with a build log naming it: fp16 arithmetic, and
// program-scope variables (pocl keeps one copy per kernel, so no single
// variable could be shared by the kernels and zeModuleGetGlobalPointer).
TEST_F(ZeKernels, WhatTheBackendCannotRunIsRefusedAtBuild) {
    if (!emulated()) {
        GTEST_SKIP() << "a GPU runs fp16 and module globals";
    }
    ze_module_handle_t m = nullptr;
    std::string log;
    EXPECT_EQ(create(read_spirv("refused.spv"), &m, &log),
              ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_EQ(m, nullptr);
    EXPECT_NE(log.find("Float16"), std::string::npos) << log;
    EXPECT_EQ(create(read_spirv("globals.spv"), &m, &log),
              ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_EQ(m, nullptr);
    EXPECT_NE(log.find("total"), std::string::npos) << log;
}

// "ze_device_compute_properties_t": what the CPU backend runs, and the
// kernel's limits within it.
TEST_F(ZeKernels, ComputePropertiesAreTheBackends) {
    ze_device_compute_properties_t cp = {};
    cp.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
    ASSERT_EQ(zeDeviceGetComputeProperties(dev, &cp), ZE_RESULT_SUCCESS);
    EXPECT_GE(cp.maxTotalGroupSize, 64u);
    EXPECT_LE(cp.maxGroupSizeX, cp.maxTotalGroupSize);
    EXPECT_GT(cp.maxGroupCountX, 0u);
    EXPECT_GT(cp.maxSharedLocalMemory, 0u);
    ze_kernel_handle_t k = kernel("vadd");
    EXPECT_EQ(zeKernelSetGroupSize(k, cp.maxTotalGroupSize + 1, 1, 1),
              ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    ze_device_module_properties_t mp = {};
    mp.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
    ASSERT_EQ(zeDeviceGetModuleProperties(dev, &mp), ZE_RESULT_SUCCESS);
    EXPECT_GE(mp.spirvVersionSupported, ZE_MAKE_VERSION(1, 0));
    if (emulated()) {
        EXPECT_EQ(mp.fp16flags, 0u); // refused at build
        EXPECT_NE(mp.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS, 0u);
    }
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
}

// The consumer of an IPC buffer runs a kernel on it: "pattern" writes
// i * 3 to the buffer it opened from the producer's handle.
int ipc_consumer(int sock) {
    // The handle comes with its fd, as Level Zero 1.4 applications pass it
    // (the fd's number in the handle is the producer's, replaced by ours).
    ze_ipc_mem_handle_t h;
    int fd = -1;
    CHILD_ASSERT_EQ(umf_test_recv_msg(sock, &h, sizeof(h), 0, &fd),
                    (long)sizeof(h));
    CHILD_ASSERT(fd >= 0);
    std::memcpy(h.data, &fd, sizeof(fd));
    uint32_t count = 0;
    CHILD_ASSERT_EQ(zeInit(0), ZE_RESULT_SUCCESS);
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t dev = nullptr;
    count = 1;
    CHILD_ASSERT_EQ(zeDriverGet(&count, &driver), ZE_RESULT_SUCCESS);
    count = 1;
    CHILD_ASSERT_EQ(zeDeviceGet(driver, &count, &dev), ZE_RESULT_SUCCESS);
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t ctx = nullptr;
    CHILD_ASSERT_EQ(zeContextCreate(driver, &cd, &ctx), ZE_RESULT_SUCCESS);
    void *buf = nullptr;
    CHILD_ASSERT_EQ(zeMemOpenIpcHandle(ctx, dev, h, 0, &buf),
                    ZE_RESULT_SUCCESS);
    close(fd); // the mapping does not need it
    std::vector<char> il = read_spirv("kernels.spv");
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                          nullptr,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          il.size(),
                          reinterpret_cast<const uint8_t *>(il.data()),
                          nullptr,
                          nullptr};
    ze_module_handle_t mod = nullptr;
    CHILD_ASSERT_EQ(zeModuleCreate(ctx, dev, &d, &mod, nullptr),
                    ZE_RESULT_SUCCESS);
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0,
                           "pattern"};
    ze_kernel_handle_t k = nullptr;
    CHILD_ASSERT_EQ(zeKernelCreate(mod, &kd, &k), ZE_RESULT_SUCCESS);
    int factor = 3;
    CHILD_EXPECT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(buf), &buf),
                    ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(factor), &factor),
                    ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeKernelSetGroupSize(k, 16, 1, 1), ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd = queue_desc(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    ze_command_list_handle_t imm = nullptr;
    CHILD_ASSERT_EQ(zeCommandListCreateImmediate(ctx, dev, &qd, &imm),
                    ZE_RESULT_SUCCESS);
    ze_group_count_t g = {64 / 16, 1, 1};
    CHILD_EXPECT_EQ(
        zeCommandListAppendLaunchKernel(imm, k, &g, nullptr, 0, nullptr),
        ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeModuleDestroy(mod), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeMemCloseIpcHandle(ctx, buf), ZE_RESULT_SUCCESS);
    CHILD_EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
    char done = 1;
    CHILD_ASSERT_EQ(umf_test_send(sock, &done, 1), 0);
    return 0;
}

UMF_TEST_CHILD(kernel_ipc_consumer) {
    (void)argc, (void)argv;
    return ipc_consumer(sock);
}

// "zeMemOpenIpcHandle: Opens an IPC memory handle to retrieve a device
// pointer ... in the context of the calling process": a kernel of another
// process writes the producer's buffer, and the producer reads it back.
TEST_F(ZeKernels, AKernelInAnotherProcessWritesAnIpcBuffer) {
    ze_driver_ipc_properties_t ipc = {};
    ipc.stype = ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES;
    ASSERT_EQ(zeDriverGetIpcProperties(driver, &ipc), ZE_RESULT_SUCCESS);
    if ((ipc.flags & ZE_IPC_PROPERTY_FLAG_MEMORY) == 0) {
        GTEST_SKIP() << "this driver's memory has no IPC";
    }
    constexpr size_t N = 64;
    int *buf = (int *)device_alloc(N * sizeof(int));
    std::vector<int> h(N, -1);
    copy(buf, h.data(), N * sizeof(int));
    ze_ipc_mem_handle_t handle;
    ASSERT_EQ(zeMemGetIpcHandle(ctx, buf, &handle), ZE_RESULT_SUCCESS);
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "kernel_ipc_consumer", nullptr), 0);
    int fd;
    std::memcpy(&fd, handle.data, sizeof(fd));
    ASSERT_EQ(umf_test_send_fd_with(child.sock, &handle, sizeof(handle), fd),
              0);
    char done = 0;
    EXPECT_EQ(umf_test_recv(child.sock, &done, 1), 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    copy(h.data(), buf, N * sizeof(int));
    for (size_t i = 0; i < N; i++) {
        ASSERT_EQ(h[i], (int)i * 3) << i;
    }
    EXPECT_EQ(zeMemFree(ctx, buf), ZE_RESULT_SUCCESS);
}

} // namespace
