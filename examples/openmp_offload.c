// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: an OpenMP offload program on the emulated libcuda, as an OpenMP
// project's CI runs it on a machine without a GPU. Built with Debian's clang
// and its offload runtime (libomp-14-dev):
//
//   clang -fopenmp -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_75 \
//       --cuda-path=/usr/local/cuda openmp_offload.c -o openmp_offload
//
// and run with the emulated libcuda.so first on the library path (LLVM's
// CUDA plugin opens "libcuda.so"): eval "$(umf-gpu-mock-env)".
//
//   openmp_offload [devices]   the device memory API on every device: the
//                              runtime must see `devices` devices (default:
//                              at least one); exit status 0 when all is well
//   openmp_offload --target    a target region, which needs a kernel: the
//                              emulated devices run none, so the runtime
//                              reports the driver's refusal and stops the
//                              program (OpenMP's mandatory offload failure)
//
// Everything below is plain OpenMP 5.0 but for LLVM's two allocators
// (llvm_allocators); nothing here knows the driver is emulated.

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096 // ints per buffer

static int failures;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
            failures++;                                                        \
        }                                                                      \
    } while (0)

// Host to device, device to device (within the device), device to host,
// each checked; then a host buffer associated with device memory is
// present, and no longer once disassociated.
static void device_memory(int dev, int host) {
    size_t bytes = N * sizeof(int);
    int *in = malloc(bytes), *out = malloc(bytes);
    int *d = omp_target_alloc(2 * bytes, dev);
    CHECK(in != NULL && out != NULL && d != NULL);
    if (in == NULL || out == NULL || d == NULL) {
        goto out;
    }
    for (int i = 0; i < N; i++) {
        in[i] = i * 7 + dev;
    }
    CHECK(omp_target_memcpy(d, in, bytes, 0, 0, dev, host) == 0);
    // The second half of the device buffer from its first half.
    CHECK(omp_target_memcpy(d, d, bytes, bytes, 0, dev, dev) == 0);
    memset(out, 0, bytes);
    CHECK(omp_target_memcpy(out, d, bytes, 0, bytes, host, dev) == 0);
    CHECK(memcmp(in, out, bytes) == 0);

    CHECK(!omp_target_is_present(in, dev));
    CHECK(omp_target_associate_ptr(in, d, bytes, 0, dev) == 0);
    CHECK(omp_target_is_present(in, dev));
    CHECK(omp_target_disassociate_ptr(in, dev) == 0);
    CHECK(!omp_target_is_present(in, dev));
out:
    omp_target_free(d, dev);
    free(in);
    free(out);
}

// LLVM's own allocators (its offload runtime exports them; omp.h of LLVM 14
// does not declare them): pinned host memory (the driver's cuMemAllocHost)
// and managed memory (cuMemAllocManaged) of a device. Both are host memory
// the program may touch; the copies treat the managed buffer as the
// device's.
void *llvm_omp_target_alloc_host(size_t size, int device_num);
void *llvm_omp_target_alloc_shared(size_t size, int device_num);

static void llvm_allocators(int dev, int host) {
    size_t bytes = N * sizeof(int);
    int *pinned = llvm_omp_target_alloc_host(bytes, dev);
    int *managed = llvm_omp_target_alloc_shared(bytes, dev);
    int *out = calloc(N, sizeof(int));
    CHECK(pinned != NULL && managed != NULL && out != NULL);
    if (pinned != NULL && managed != NULL && out != NULL) {
        for (int i = 0; i < N; i++) {
            pinned[i] = 3 * i;
        }
        CHECK(omp_target_memcpy(managed, pinned, bytes, 0, 0, dev, host) == 0);
        CHECK(omp_target_memcpy(out, managed, bytes, 0, 0, host, dev) == 0);
        CHECK(memcmp(pinned, out, bytes) == 0 && managed[N - 1] == 3 * (N - 1));
    }
    omp_target_free(pinned, dev);
    omp_target_free(managed, dev);
    free(out);
}

// A copy from one device's memory to another's.
static void between_devices(int a, int b, int host) {
    size_t bytes = N * sizeof(int);
    int *in = malloc(bytes), *out = calloc(N, sizeof(int));
    int *da = omp_target_alloc(bytes, a), *db = omp_target_alloc(bytes, b);
    CHECK(in != NULL && out != NULL && da != NULL && db != NULL);
    if (in != NULL && out != NULL && da != NULL && db != NULL) {
        for (int i = 0; i < N; i++) {
            in[i] = ~i;
        }
        CHECK(omp_target_memcpy(da, in, bytes, 0, 0, a, host) == 0);
        CHECK(omp_target_memcpy(db, da, bytes, 0, 0, b, a) == 0);
        CHECK(omp_target_memcpy(out, db, bytes, 0, 0, host, b) == 0);
        CHECK(memcmp(in, out, bytes) == 0);
    }
    omp_target_free(da, a);
    omp_target_free(db, b);
    free(in);
    free(out);
}

static int target_region(void) {
    int x = 1, on_host = 1;
#pragma omp target map(tofrom : x, on_host)
    {
        x = 42;
        on_host = omp_is_initial_device();
    }
    // Reached where the region ran: on a GPU, or on the host where
    // offloading is off (OMP_TARGET_OFFLOAD=DISABLED).
    printf("the target region ran on the %s: x = %d\n",
           on_host ? "host" : "device", x);
    return x == 42 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--target") == 0) {
        return target_region();
    }
    int want = argc > 1 ? atoi(argv[1]) : 0;
    int devices = omp_get_num_devices();
    int host = omp_get_initial_device();
    printf("%d offload devices\n", devices);
    CHECK(want > 0 ? devices == want : devices > 0);
    for (int dev = 0; dev < devices; dev++) {
        device_memory(dev, host);
        llvm_allocators(dev, host);
    }
    if (devices > 1) {
        between_devices(0, devices - 1, host);
    }
    if (failures > 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("device memory: ok on %d devices\n", devices);
    return 0;
}
