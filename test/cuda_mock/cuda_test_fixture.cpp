// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "cuda_test_fixture.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

std::string cuda_test_read_all(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return out;
        }
        out.append(buf, static_cast<size_t>(n));
    }
}

bool cuda_test_run_child(const char *role, const std::vector<std::string> &env,
                         int *status, std::string *output) {
    std::vector<const char *> args;
    for (const std::string &e : env) {
        args.push_back(e.c_str());
    }
    args.push_back(nullptr);
    umf_test_child_t child;
    if (umf_test_child_start(&child, role, args.data()) != 0) {
        return false;
    }
    std::string text = cuda_test_read_all(child.sock);
    if (output != nullptr) {
        *output = text;
    }
    *status = umf_test_child_wait(&child);
    return true;
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
