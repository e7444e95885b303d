// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The emulated CUDA driver's cost of one cuMemAlloc_v2 + cuMemFree_v2 pair
// (64 bytes, one thread) in each memory mode: the median of several timed
// runs, each in a fresh process with UMF_GPU_MOCK_MEMORY set. Not a test:
// a measurement to run by hand (timings never decide a test).
//
//   export UMF_GPU_CUDA_LIB=build/lib/mock-cuda/libcuda.so.1
//   build/bin/cuda_mock_bench [runs]

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_test_driver.h"

namespace {

using clock_type = std::chrono::steady_clock;

// Nanoseconds per pair over `pairs` pairs, or a negative number on failure.
double time_pairs(const cuda_test_driver_t *cu, long pairs) {
    auto start = clock_type::now();
    for (long i = 0; i < pairs; i++) {
        CUdeviceptr p;
        if (cu->cuMemAlloc_v2(&p, 64) != CUDA_SUCCESS ||
            cu->cuMemFree_v2(p) != CUDA_SUCCESS) {
            return -1;
        }
    }
    std::chrono::duration<double, std::nano> d = clock_type::now() - start;
    return d.count() / static_cast<double>(pairs);
}

// In the child: prints the median over `runs` runs of about 0.2 s each.
int measure(int runs) {
    std::string why;
    const cuda_test_driver_t *cu = cuda_test_driver_load(&why);
    CUcontext ctx;
    if (cu == nullptr || cu->cuInit(0) != CUDA_SUCCESS ||
        cu->cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
        cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
        std::fprintf(stderr, "cannot set the driver up: %s\n", why.c_str());
        return 1;
    }
    double warm = time_pairs(cu, 2000); // also sizes the runs
    if (warm <= 0) {
        std::fprintf(stderr, "cuMemAlloc_v2/cuMemFree_v2 failed\n");
        return 1;
    }
    long pairs = std::max(1000L, static_cast<long>(2e8 / warm));
    std::vector<double> ns;
    for (int r = 0; r < runs; r++) {
        double t = time_pairs(cu, pairs);
        if (t <= 0) {
            return 1;
        }
        ns.push_back(t);
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%.1f %.1f %.1f %ld\n", ns[ns.size() / 2], ns.front(),
                ns.back(), pairs);
    cu->cuCtxSetCurrent(nullptr);
    cu->cuDevicePrimaryCtxRelease_v2(0);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    int runs = 7;
    if (argc > 2 && std::strcmp(argv[1], "--measure") == 0) {
        return measure(std::atoi(argv[2]));
    }
    if (argc > 1) {
        runs = std::max(1, std::atoi(argv[1]));
    }
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        std::perror("readlink /proc/self/exe");
        return 1;
    }
    self[n] = '\0';
    std::printf("cuMemAlloc_v2 + cuMemFree_v2, 64 B, one thread, %d runs\n",
                runs);
    std::printf("%-8s %12s %10s %10s %10s\n", "mode", "median ns", "min", "max",
                "pairs/run");
    int status = 0;
    for (const char *mode : {"arena", "memfd", "malloc"}) {
        std::string cmd = std::string("UMF_GPU_MOCK_MEMORY=") + mode + " '" +
                          self + "' --measure " + std::to_string(runs);
        FILE *p = popen(cmd.c_str(), "r");
        char line[256] = "";
        if (p == nullptr || std::fgets(line, sizeof(line), p) == nullptr) {
            std::printf("%-8s failed\n", mode);
            status = 1;
        } else {
            double med = 0, lo = 0, hi = 0;
            long pairs = 0;
            if (std::sscanf(line, "%lf %lf %lf %ld", &med, &lo, &hi, &pairs) ==
                4) {
                std::printf("%-8s %12.1f %10.1f %10.1f %10ld\n", mode, med, lo,
                            hi, pairs);
            } else {
                std::printf("%-8s failed: %s", mode, line);
                status = 1;
            }
        }
        if (p != nullptr && pclose(p) != 0) {
            status = 1;
        }
    }
    return status;
}
