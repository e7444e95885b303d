// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a program of NVIDIA's runtime API (libcudart) gets on the emulated
// libcuda: the runtime needs the undocumented tables of cuGetExportTable,
// which the emulated driver refuses, so its first call fails with
// cudaErrorNotSupported, with the driver's log line naming
// cuGetExportTable (and, though that is the first call, "cuda-mock" as the
// driver that speaks), and nothing crashes; cudaDriverGetVersion, which asks
// the driver directly, works (docs/emulated-cuda.md, "NVIDIA's runtime").
// Exit status 0 when all of that holds.

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    // The driver logs on stderr: catch it in a pipe.
    int fds[2], saved = dup(STDERR_FILENO);
    if (saved < 0 || pipe(fds) != 0 || dup2(fds[1], STDERR_FILENO) < 0) {
        perror("pipe");
        return 2;
    }
    close(fds[1]);
    int count = -1, version = 0;
    void *p = NULL;
    cudaError_t e = cudaGetDeviceCount(&count);
    cudaError_t m = cudaMalloc(&p, 1024);
    cudaError_t v = cudaDriverGetVersion(&version);
    fflush(stderr);
    dup2(saved, STDERR_FILENO); // closes the pipe's last write end
    char log[16384] = "";
    size_t len = 0;
    ssize_t n;
    while (len < sizeof(log) - 1 &&
           (n = read(fds[0], log + len, sizeof(log) - 1 - len)) > 0) {
        len += (size_t)n;
    }
    log[len] = '\0';
    fprintf(stderr, "%s", log);
    printf("cudaGetDeviceCount: %s\ncudaMalloc: %s\n"
           "cudaDriverGetVersion: %s, %d\n",
           cudaGetErrorName(e), cudaGetErrorName(m), cudaGetErrorName(v),
           version);
    int ok = e == cudaErrorNotSupported && m == cudaErrorNotSupported &&
             v == cudaSuccess && version > 0 &&
             strstr(log, "cuGetExportTable: not supported by the emulated "
                         "driver") != NULL &&
             // the first call was cuGetExportTable, before any cuInit: the
             // line names the emulated libcuda all the same
             strstr(log, "umf-gpu/cuda-mock[") != NULL &&
             strstr(log, "umf-gpu/gpu-mock[") == NULL;
    printf("%s\n", ok ? "as documented" : "NOT as documented");
    return ok ? 0 : 1;
}
