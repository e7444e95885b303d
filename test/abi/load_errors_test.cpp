// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Why a driver did not load, where the user looks: the log, and the native
// error that umfGpuMemoryProviderOpsGetLastNativeError returns after the
// failed params create (CUDA) or provider create (both). Each case runs in a
// child process, since a process loads each driver once.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <cuda.h>
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

#include "test_child.h"

namespace {

// Creates a provider of `kind`; returns the result, the native error in
// *code and *message.
umf_result_t try_create(const std::string &kind, int32_t *code,
                        std::string *message) {
    const umf_memory_provider_ops_t *ops;
    umf_result_t res;
    umf_memory_provider_handle_t h = nullptr;
    if (kind == "cuda") {
        ops = umfCUDAMemoryProviderOps();
        umf_cuda_memory_provider_params_handle_t params = nullptr;
        res = umfCUDAMemoryProviderParamsCreate(&params);
        if (res == UMF_RESULT_SUCCESS) {
            res = umfMemoryProviderCreate(ops, params, &h);
            umfCUDAMemoryProviderParamsDestroy(params);
        }
    } else {
        ops = umfLevelZeroMemoryProviderOps();
        umf_level_zero_memory_provider_params_handle_t params = nullptr;
        res = umfLevelZeroMemoryProviderParamsCreate(&params);
        // Any handles: the loader is loaded before they are used.
        (void)umfLevelZeroMemoryProviderParamsSetContext(
            params, reinterpret_cast<ze_context_handle_t>(0x10));
        (void)umfLevelZeroMemoryProviderParamsSetDevice(
            params, reinterpret_cast<ze_device_handle_t>(0x10));
        if (res == UMF_RESULT_SUCCESS) {
            res = umfMemoryProviderCreate(ops, params, &h);
            umfLevelZeroMemoryProviderParamsDestroy(params);
        }
    }
    if (h != nullptr) {
        umfMemoryProviderDestroy(h);
    }
    const char *msg = nullptr;
    *code = 0;
    if (umfGpuMemoryProviderOpsGetLastNativeError(ops, &msg, code) !=
        UMF_RESULT_SUCCESS) {
        msg = "(no native error)";
    }
    *message = msg != nullptr ? msg : "(NULL)";
    return res;
}

// argv[0]: "ze" or "cuda", then VAR=value settings. Tries to create a
// provider, then again in a new thread (the native error is per thread), and
// writes both outcomes after the log, all on stderr (the socket):
//   RESULT <res> CODE <code> MESSAGE <message>
UMF_TEST_CHILD(load_failure) {
    if (argc < 1) {
        return 100;
    }
    for (int i = 1; i < argc; i++) {
        std::string kv = argv[i];
        size_t eq = kv.find('=');
        if (eq == std::string::npos) {
            return 101;
        }
        setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    }
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 102;
    }
    std::string kind = argv[0], out;
    auto attempt = [&] {
        int32_t code;
        std::string message;
        umf_result_t res = try_create(kind, &code, &message);
        out += "RESULT " + std::to_string(res) + " CODE " +
               std::to_string(code) + " MESSAGE " + message + "\n";
    };
    attempt();
    std::thread(attempt).join();
    fputs(out.c_str(), stderr);
    return 0;
}

struct Outcome {
    std::string log;                  // before the RESULT lines
    std::vector<std::string> results; // "RESULT ... " lines
};

Outcome RunChild(const char *kind, std::vector<std::string> env) {
    std::vector<const char *> args = {kind};
    for (const auto &e : env) {
        args.push_back(e.c_str());
    }
    args.push_back(nullptr);
    char *text = nullptr;
    EXPECT_EQ(umf_test_child_output("load_failure", args.data(), &text), 0);
    std::string all = text != nullptr ? text : "";
    free(text);
    Outcome o;
    size_t at = all.find("RESULT ");
    o.log = all.substr(0, at);
    while (at != std::string::npos) {
        size_t end = all.find('\n', at);
        o.results.push_back(all.substr(at, end - at));
        at = all.find("RESULT ", end);
    }
    return o;
}

// Both attempts (main thread, new thread) failed with DEPENDENCY_UNAVAILABLE
// and `code`, and the message and the log hold every needle.
void Expect(const Outcome &o, int32_t code,
            const std::vector<std::string> &needles) {
    ASSERT_EQ(o.results.size(), 2u) << o.log;
    std::string head = "RESULT " +
                       std::to_string(UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE) +
                       " CODE " + std::to_string(code) + " MESSAGE ";
    for (const auto &r : o.results) {
        EXPECT_EQ(r.rfind(head, 0), 0u) << r;
        for (const auto &n : needles) {
            EXPECT_NE(r.find(n), std::string::npos)
                << "native error lacks '" << n << "': " << r;
            EXPECT_NE(o.log.find(n), std::string::npos)
                << "log lacks '" << n << "': " << o.log;
        }
    }
}

// One way for a driver not to load: the provider kind, the environment,
// the native code expected and what the message must say.
struct Case {
    const char *name;
    const char *kind;
    std::vector<std::string> env;
    int32_t code;
    std::vector<std::string> needles;
};

const std::string kNotADriver = UMF_TEST_NOT_A_DRIVER;

const Case kCases[] = {
    {"MissingCudaLibrary",
     "cuda",
     {"UMF_GPU_CUDA_LIB=/nonexistent/libcuda.so.1"},
     CUDA_ERROR_NOT_INITIALIZED,
     {"/nonexistent/libcuda.so.1",
      "cannot open shared object file: No such file or directory",
      "UMF_GPU_CUDA_LIB"}},
    {"CudaLibraryWithoutTheEntryPoints",
     "cuda",
     {"UMF_GPU_CUDA_LIB=" + kNotADriver},
     CUDA_ERROR_NOT_INITIALIZED,
     {kNotADriver + " lacks the entry point cuInit: ",
      "undefined symbol: cuInit; also missing: cuGetErrorName, "}},
    {"CudaInitFailing",
     "cuda",
     {"UMF_GPU_MOCK_FAULTS=cuInit:1+=CUDA_ERROR_NO_DEVICE",
      "UMF_GPU_MOCK_LOG=off"},
     CUDA_ERROR_NO_DEVICE,
     {"cuInit(0) in ", " failed: CUDA_ERROR_NO_DEVICE (100)"}},
    {"MissingLevelZeroLoader",
     "ze",
     {"UMF_GPU_ZE_LOADER=/nonexistent/libze_loader.so.1"},
     ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE,
     {"/nonexistent/libze_loader.so.1",
      "cannot open shared object file: No such file or directory",
      "UMF_GPU_ZE_LOADER"}},
    {"LevelZeroLoaderWithoutTheEntryPoints",
     "ze",
     {"UMF_GPU_ZE_LOADER=" + kNotADriver},
     ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE,
     {kNotADriver + " lacks the entry point zeInit: ",
      "undefined symbol: zeInit; also missing: "}},
    {"LevelZeroInitFailing",
     "ze",
     {"UMF_GPU_MOCK_FAULTS=zeInit:1+=ZE_RESULT_ERROR_DEVICE_LOST",
      "UMF_GPU_MOCK_LOG=off"},
     (int32_t)ZE_RESULT_ERROR_DEVICE_LOST,
     {"zeInit(0) of ", " failed: ZE_RESULT_ERROR_DEVICE_LOST"}},
};

class LoadErrors : public ::testing::TestWithParam<size_t> {};

TEST_P(LoadErrors, SaidInTheLogAndTheNativeError) {
    const Case &c = kCases[GetParam()];
    Expect(RunChild(c.kind, c.env), c.code, c.needles);
}

INSTANTIATE_TEST_SUITE_P(EachWay, LoadErrors,
                         ::testing::Range(size_t(0),
                                          sizeof(kCases) / sizeof(kCases[0])),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return std::string(kCases[info.param].name);
                         });

} // namespace
