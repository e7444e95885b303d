// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA_VISIBLE_DEVICES, as NVIDIA documents it: indices and "GPU-" UUID
// prefixes, the devices enumerated in the order given, the list ending at
// its first invalid entry, an empty value showing no device. Every case
// runs a child process with its own value (the driver reads the variable
// once, at cuInit) and compares what it sees with what a child without the
// variable sees. With UMF_GPU_CUDA_LIB naming an NVIDIA libcuda.so.1 the
// cases run unchanged on a GPU (those that need two devices skip on one);
// the emulated driver's own rules (duplicates, spaces, its device count
// UMF_GPU_MOCK_DEVICES underneath) are checked there alone.

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

// What a process sees: cuInit's result, then one line per device.
struct seen_t {
    int init = -1;
    std::vector<std::string> uuids; // "GPU-xxxxxxxx-..."
    std::vector<std::string> buses; // "0000:01:00.0"
};

std::string uuid_text(const CUuuid &u) {
    const unsigned char *b = reinterpret_cast<const unsigned char *>(u.bytes);
    char s[64];
    std::snprintf(s, sizeof(s),
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                  "%02x%02x%02x%02x%02x%02x",
                  b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
                  b[10], b[11], b[12], b[13], b[14], b[15]);
    return s;
}

// Prints "init=<cuInit>" and "dev <i> <uuid> <bus>" lines, and checks on
// the way that every device works: memory, a copy in and out.
UMF_TEST_CHILD(describe_visible) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, false);
    CHILD_ASSERT(cu != nullptr);
    CUresult r = cu->cuInit(0);
    std::fprintf(stderr, "init=%d\n", static_cast<int>(r));
    if (r != CUDA_SUCCESS) {
        return 0;
    }
    int count = 0;
    CHILD_CU(cu->cuDeviceGetCount(&count));
    auto get_bus = reinterpret_cast<CUresult (*)(char *, int, CUdevice)>(
        cuda_test_driver_symbol("cuDeviceGetPCIBusId"));
    auto by_bus = reinterpret_cast<CUresult (*)(CUdevice *, const char *)>(
        cuda_test_driver_symbol("cuDeviceGetByPCIBusId"));
    CHILD_ASSERT(get_bus != nullptr && by_bus != nullptr);
    for (int d = 0; d < count; d++) {
        CUuuid u;
        CHILD_CU(cu->cuDeviceGetUuid_v2(&u, d));
        char bus[32] = "";
        CHILD_CU(get_bus(bus, sizeof(bus), d));
        CUdevice back = -1;
        CHILD_CU(by_bus(&back, bus));
        CHILD_EXPECT_EQ(back, d);
        CUcontext ctx;
        CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, d));
        CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
        CUdeviceptr p = 0;
        CHILD_CU(cu->cuMemAlloc_v2(&p, 4096));
        CHILD_CU(cuda_test_write_pattern(cu, p, 4096, d));
        CHILD_EXPECT(cuda_test_check_pattern(cu, p, 4096, d));
        CHILD_CU(cu->cuMemFree_v2(p));
        CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));
        CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(d));
        std::fprintf(stderr, "dev %d %s %s\n", d, uuid_text(u).c_str(), bus);
    }
    CUdevice none;
    CHILD_EXPECT_EQ(cu->cuDeviceGet(&none, count), CUDA_ERROR_INVALID_DEVICE);
    return 0;
}

// Runs describe_visible with `env` ("NAME=value", or "NAME" to unset).
seen_t describe(const std::vector<std::string> &env) {
    std::vector<const char *> e;
    for (const std::string &s : env) {
        e.push_back(s.c_str());
    }
    e.push_back(nullptr);
    char *text = nullptr;
    int status =
        umf_test_child_run("describe_visible", nullptr, e.data(), &text);
    std::string out = text != nullptr ? text : "";
    std::free(text);
    EXPECT_EQ(status, 0) << out;
    seen_t seen;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        int d;
        char uuid[64], bus[32];
        if (std::sscanf(line.c_str(), "init=%d", &seen.init) == 1) {
            continue;
        }
        if (std::sscanf(line.c_str(), "dev %d %63s %31s", &d, uuid, bus) == 3) {
            seen.uuids.push_back(uuid);
            seen.buses.push_back(bus);
        }
    }
    return seen;
}

class CudaVisible : public CudaLoaded {
  protected:
    seen_t all; // without CUDA_VISIBLE_DEVICES

    void SetUp() override {
        CudaLoaded::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        all = describe({"CUDA_VISIBLE_DEVICES"});
        ASSERT_EQ(all.init, CUDA_SUCCESS);
        ASSERT_GE(all.uuids.size(), 1u);
    }

    // The devices seen with CUDA_VISIBLE_DEVICES=value, as indices of `all`
    // (-1 for a device `all` does not have).
    std::vector<int> visible(const std::string &value, int *init = nullptr) {
        seen_t s = describe({"CUDA_VISIBLE_DEVICES=" + value});
        if (init != nullptr) {
            *init = s.init;
        }
        std::vector<int> out;
        for (size_t i = 0; i < s.uuids.size(); i++) {
            int found = -1;
            for (size_t j = 0; j < all.uuids.size(); j++) {
                if (all.uuids[j] == s.uuids[i]) {
                    found = static_cast<int>(j);
                    EXPECT_EQ(s.buses[i], all.buses[j])
                        << "a device keeps its PCI bus id";
                }
            }
            out.push_back(found);
        }
        return out;
    }

    // The shortest "GPU-..." prefix of device d's UUID that no other device
    // shares.
    std::string unique_prefix(size_t d) {
        const std::string &u = all.uuids[d];
        for (size_t len = 5; len <= u.size(); len++) {
            bool shared = false;
            for (size_t j = 0; j < all.uuids.size(); j++) {
                shared |=
                    j != d && all.uuids[j].compare(0, len, u, 0, len) == 0;
            }
            if (!shared && u[len - 1] != '-') {
                return u.substr(0, len);
            }
        }
        return u;
    }
};

using V = std::vector<int>;

TEST_F(CudaVisible, IndicesInTheirOrder) {
    EXPECT_EQ(visible("0"), V({0}));
    if (all.uuids.size() < 2) {
        GTEST_SKIP() << "one device: reordering needs two";
    }
    EXPECT_EQ(visible("1"), V({1}));
    EXPECT_EQ(visible("1,0"), V({1, 0}));
    EXPECT_EQ(visible("0,1"), V({0, 1}));
}

TEST_F(CudaVisible, TheListEndsAtTheFirstInvalidEntry) {
    int init = -1;
    std::string n = std::to_string(all.uuids.size());
    EXPECT_EQ(visible("0,-1"), V({0}));
    EXPECT_EQ(visible("0," + n), V({0}));
    EXPECT_EQ(visible("0,x,1"), V({0}));
    EXPECT_EQ(visible(n, &init), V());
    EXPECT_EQ(init, CUDA_ERROR_NO_DEVICE);
    EXPECT_EQ(visible("-1,0", &init), V());
    EXPECT_EQ(init, CUDA_ERROR_NO_DEVICE);
    if (all.uuids.size() >= 2) {
        // NVIDIA's own example: "0,2,-1,1" shows 0 and 2.
        EXPECT_EQ(visible("1,-1,0"), V({1}));
    }
}

TEST_F(CudaVisible, EmptyMeansNoDevice) {
    int init = -1;
    EXPECT_EQ(visible("", &init), V());
    EXPECT_EQ(init, CUDA_ERROR_NO_DEVICE);
}

TEST_F(CudaVisible, UuidsAndTheirPrefixes) {
    size_t last = all.uuids.size() - 1;
    EXPECT_EQ(visible(all.uuids[last]), V({static_cast<int>(last)}));
    EXPECT_EQ(visible(unique_prefix(last)), V({static_cast<int>(last)}));
    // Mixed with an index.
    if (last > 0) {
        EXPECT_EQ(visible(unique_prefix(last) + ",0"),
                  V({static_cast<int>(last), 0}));
    }
    int init = -1;
    EXPECT_EQ(visible("GPU-zzzz", &init), V());
    EXPECT_EQ(init, CUDA_ERROR_NO_DEVICE);
}

// ---------------------------------------------------------------------------
// The emulated driver's own rules, on UMF_GPU_MOCK_DEVICES devices.

class CudaVisibleEmulated : public CudaVisible {
  protected:
    void SetUp() override {
        CudaLoaded::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        CUDA_TEST_REQUIRE_EMULATED();
    }

    seen_t on4(const std::string &value) {
        return describe(
            {"UMF_GPU_MOCK_DEVICES=4", "CUDA_VISIBLE_DEVICES=" + value});
    }
};

TEST_F(CudaVisibleEmulated, OnTopOfTheEmulatedDevices) {
    seen_t s = on4("3,1");
    ASSERT_EQ(s.init, CUDA_SUCCESS);
    ASSERT_EQ(s.uuids.size(), 2u);
    // The physical devices' identities: UUID ends in the physical index,
    // bus = physical + 1.
    EXPECT_EQ(s.uuids[0].substr(s.uuids[0].size() - 2), "03");
    EXPECT_EQ(s.buses[0], "0000:04:00.0");
    EXPECT_EQ(s.uuids[1].substr(s.uuids[1].size() - 2), "01");
    EXPECT_EQ(s.buses[1], "0000:02:00.0");
    EXPECT_EQ(on4("4").init, CUDA_ERROR_NO_DEVICE) << "only 4 exist";
    seen_t none =
        describe({"UMF_GPU_MOCK_DEVICES=0", "CUDA_VISIBLE_DEVICES=0"});
    EXPECT_EQ(none.init, CUDA_ERROR_NO_DEVICE);
}

TEST_F(CudaVisibleEmulated, DuplicatesSpacesPrefixesMig) {
    EXPECT_EQ(on4("2,2,1").uuids.size(), 1u) << "a device named twice ends it";
    EXPECT_EQ(on4(" 2 , 1 ").uuids.size(), 2u) << "spaces around entries";
    EXPECT_EQ(on4("0,,1").uuids.size(), 1u) << "an empty entry ends it";
    EXPECT_EQ(on4("1,").uuids.size(), 1u);
    // All four share "GPU-756d662d" ("umf-gpu-cuda" and the index): a
    // prefix that several devices share names none.
    EXPECT_EQ(on4("GPU-756d662d").init, CUDA_ERROR_NO_DEVICE);
    seen_t s = on4("GPU-756D662D-6770-752D-6375-646100000002");
    ASSERT_EQ(s.uuids.size(), 1u) << "hex digits of either case";
    EXPECT_EQ(s.buses[0], "0000:03:00.0");
    EXPECT_EQ(on4("MIG-GPU-756d662d-6770-752d-6375-646100000000/1/0").init,
              CUDA_ERROR_NO_DEVICE)
        << "no MIG instances";
    EXPECT_EQ(on4("0x1").init, CUDA_ERROR_NO_DEVICE) << "decimal indices";
}

} // namespace
