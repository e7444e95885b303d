// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ze_mock_alloc_bench: the cost of a zeMemAllocDevice + zeMemFree pair of
// 64 bytes through the real loader, one thread, in the memory mode of the
// environment (UMF_GPU_MOCK_MEMORY). Prints the median of several runs, and
// the runs. Not a test: numbers are for people.
//
//   eval "$(<build>/bin/umf-gpu-mock-env --ze)"
//   UMF_GPU_MOCK_MEMORY=arena <build>/bin/ze_mock_alloc_bench [pairs] [runs]

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <level_zero/ze_api.h>

static double now_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    long pairs = argc > 1 ? atol(argv[1]) : 200000;
    int runs = argc > 2 ? atoi(argv[2]) : 9;
    if (pairs <= 0 || runs <= 0 || runs > 99) {
        fprintf(stderr, "usage: ze_mock_alloc_bench [pairs] [runs<100]\n");
        return 2;
    }
    uint32_t n = 1;
    ze_driver_handle_t drv;
    ze_device_handle_t dev;
    ze_context_handle_t ctx;
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&n, &drv) != 0 ||
        zeDeviceGet(drv, &n, &dev) != 0 ||
        zeContextCreate(drv, &cd, &ctx) != 0) {
        fprintf(stderr, "no Level Zero driver (ZE_ENABLE_ALT_DRIVERS?)\n");
        return 1;
    }
    ze_device_mem_alloc_desc_t dd = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    // Wall time, and this thread's CPU time (which leaves out the time other
    // processes held the CPU: the number to trust on a busy machine).
    double ns[100], cpu[100];
    for (int r = -1; r < runs; r++) { // run -1 warms up
        double start = now_ns(CLOCK_MONOTONIC);
        double start_cpu = now_ns(CLOCK_THREAD_CPUTIME_ID);
        for (long i = 0; i < pairs; i++) {
            void *p;
            if (zeMemAllocDevice(ctx, &dd, 64, 0, dev, &p) != 0 ||
                zeMemFree(ctx, p) != 0) {
                fprintf(stderr, "allocation failed\n");
                return 1;
            }
        }
        if (r >= 0) {
            ns[r] = (now_ns(CLOCK_MONOTONIC) - start) / (double)pairs;
            cpu[r] =
                (now_ns(CLOCK_THREAD_CPUTIME_ID) - start_cpu) / (double)pairs;
        }
    }
    qsort(ns, (size_t)runs, sizeof(double), compare);
    qsort(cpu, (size_t)runs, sizeof(double), compare);
    const char *mode = getenv("UMF_GPU_MOCK_MEMORY");
    printf("%-6s 64 B alloc+free through the loader, median of %d runs of "
           "%ld: %.1f ns/pair CPU (%.1f..%.1f), %.1f ns/pair wall\n",
           mode != NULL && mode[0] != '\0' ? mode : "arena", runs, pairs,
           cpu[runs / 2], cpu[0], cpu[runs - 1], ns[runs / 2]);
    zeContextDestroy(ctx);
    return 0;
}
