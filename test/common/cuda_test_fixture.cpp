// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "cuda_test_fixture.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <vector>

unsigned char cuda_test_pattern_byte(size_t i, int seed) {
    return static_cast<unsigned char>(
        (i * 31 + static_cast<size_t>(seed) * 97 + 5) & 0xff);
}

CUresult cuda_test_write_pattern(const cuda_test_driver_t *cu, CUdeviceptr p,
                                 size_t size, int seed) {
    std::vector<unsigned char> v(size);
    for (size_t i = 0; i < size; i++) {
        v[i] = cuda_test_pattern_byte(i, seed);
    }
    return cu->cuMemcpyHtoD_v2(p, v.data(), size);
}

bool cuda_test_check_pattern(const cuda_test_driver_t *cu, CUdeviceptr p,
                             size_t size, int seed) {
    std::vector<unsigned char> out(size);
    if (cu->cuMemcpyDtoH_v2(out.data(), p, size) != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuMemcpyDtoH_v2 of %zu bytes failed\n", size);
        return false;
    }
    for (size_t i = 0; i < size; i++) {
        if (out[i] != cuda_test_pattern_byte(i, seed)) {
            std::fprintf(stderr, "byte %zu: %u, want %u\n", i, out[i],
                         cuda_test_pattern_byte(i, seed));
            return false;
        }
    }
    return true;
}

bool cuda_test_run_child(const char *role, const std::vector<std::string> &env,
                         int *status, std::string *output) {
    std::vector<const char *> args;
    for (const std::string &e : env) {
        args.push_back(e.c_str());
    }
    args.push_back(nullptr);
    char *text = nullptr;
    *status = umf_test_child_output(role, args.data(), &text);
    if (output != nullptr) {
        *output = text != nullptr ? text : "";
    }
    std::free(text);
    return *status != -1;
}

void cuda_test_child_stderr_to_socket(int sock) {
    fflush(stderr);
    dup2(sock, STDERR_FILENO);
}

const cuda_test_driver_t *cuda_test_child_setup(int argc, char **argv,
                                                bool init) {
    if (!cuda_test_apply_env(argc, argv)) {
        std::fprintf(stderr, "child: malformed NAME=value argument\n");
        return nullptr;
    }
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    if (cu == nullptr) {
        std::fprintf(stderr, "child: %s\n", why.c_str());
        return nullptr;
    }
    if (init) {
        CUresult r = cu->cuInit(0);
        if (r != CUDA_SUCCESS) {
            std::fprintf(stderr, "child: cuInit: %s\n",
                         cuda_test_result(r).c_str());
            return nullptr;
        }
    }
    return cu;
}
