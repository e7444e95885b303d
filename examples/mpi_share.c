// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: MPI ranks share one device buffer through a provider's IPC data.
//
// Rank 0 allocates a device buffer with a provider (Level Zero or CUDA,
// chosen by the first argument; for CUDA, a second argument picks the
// allocation mode: default (cuMemAlloc, CUDA IPC handles), vmm_fd
// (cuMemCreate, POSIX fds) or vmm_fabric (cuMemCreate, fabric handles)),
// fills it with a marker, and broadcasts the
// provider's IPC data with MPI_Bcast: the data is plain bytes. Every rank
// opens it, writes its own slice with the driver's copy call and closes it;
// after a barrier rank 0 reads the whole buffer back and checks every slice.
//
// Build and run against an installed umf-gpu (one line each):
//   mpicc mpi_share.c $(pkg-config --cflags --libs umf-gpu) -lze_loader
//      -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda
//   eval "$(umf-gpu-mock-env)" && mpirun -n 4 --oversubscribe ./a.out cuda
// (add --allow-run-as-root as root; "level_zero" for the other provider,
// "cuda vmm_fabric" for fabric handles).
//
// The IPC data of the default mode and of vmm_fd names memory on this
// machine: the ranks that open it must run on the node of rank 0. With
// vmm_fabric the data carries a fabric handle and no fd, so the same
// program shares across the nodes of one NVLink domain (NVIDIA's IMEX
// service resolves the handle; the emulated driver treats the machine as
// the domain); elsewhere MPI moves the bytes themselves (an MPI_Send of a
// device buffer with a GPU-aware MPI, or a copy through host memory).

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <level_zero/ze_api.h>
#include <mpi.h>
#include <umf/memory_provider.h>
#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

#define SLICE 4096

// One rank's device: a provider, and the driver's copy call.
typedef struct gpu_t {
    umf_memory_provider_handle_t provider;
    int (*copy)(struct gpu_t *gpu, void *dst, const void *src, size_t size);
    ze_context_handle_t ze_context;
    ze_command_list_handle_t ze_list; // immediate, synchronous
    CUdevice cu_device;
    CUcontext cu_context; // the device's primary context
} gpu_t;

static int ze_copy(gpu_t *gpu, void *dst, const void *src, size_t size) {
    return zeCommandListAppendMemoryCopy(gpu->ze_list, dst, src, size, NULL, 0,
                                         NULL) == ZE_RESULT_SUCCESS
               ? 0
               : -1;
}

static int cu_copy(gpu_t *gpu, void *dst, const void *src, size_t size) {
    (void)gpu;
    // cuMemcpy takes unified addresses: device and host memory alike.
    return cuMemcpy((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                    size) == CUDA_SUCCESS
               ? 0
               : -1;
}

static int ze_open(gpu_t *gpu) {
    ze_driver_handle_t driver = NULL;
    ze_device_handle_t device = NULL;
    uint32_t drivers = 1, devices = 1;
    if (zeInit(0) != ZE_RESULT_SUCCESS ||
        zeDriverGet(&drivers, &driver) != ZE_RESULT_SUCCESS || drivers == 0 ||
        zeDeviceGet(driver, &devices, &device) != ZE_RESULT_SUCCESS ||
        devices == 0) {
        fprintf(stderr, "no Level Zero driver or device\n");
        return -1;
    }
    ze_context_desc_t context_desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_command_queue_desc_t queue_desc = {
        .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
        .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
    };
    if (zeContextCreate(driver, &context_desc, &gpu->ze_context) !=
            ZE_RESULT_SUCCESS ||
        zeCommandListCreateImmediate(gpu->ze_context, device, &queue_desc,
                                     &gpu->ze_list) != ZE_RESULT_SUCCESS) {
        fprintf(stderr, "cannot make a context and a command list\n");
        return -1;
    }
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfLevelZeroMemoryProviderParamsCreate(&params);
    if (res == UMF_RESULT_SUCCESS) {
        umfLevelZeroMemoryProviderParamsSetContext(params, gpu->ze_context);
        umfLevelZeroMemoryProviderParamsSetDevice(params, device);
        umfLevelZeroMemoryProviderParamsSetMemoryType(params,
                                                      UMF_MEMORY_TYPE_DEVICE);
        res = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params,
                                      &gpu->provider);
        umfLevelZeroMemoryProviderParamsDestroy(params);
    }
    gpu->copy = ze_copy;
    return res == UMF_RESULT_SUCCESS ? 0 : -1;
}

static int cu_open(gpu_t *gpu, umf_cuda_allocation_mode_t mode) {
    if (cuInit(0) != CUDA_SUCCESS ||
        cuDeviceGet(&gpu->cu_device, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&gpu->cu_context, gpu->cu_device) !=
            CUDA_SUCCESS) {
        fprintf(stderr, "no CUDA device\n");
        return -1;
    }
    if (cuCtxSetCurrent(gpu->cu_context) != CUDA_SUCCESS) {
        fprintf(stderr, "cuCtxSetCurrent failed\n");
        return -1;
    }
    // The parameters start with the current context, its device and
    // DEVICE memory.
    umf_cuda_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfCUDAMemoryProviderParamsCreate(&params);
    if (res == UMF_RESULT_SUCCESS) {
        res = umfCUDAMemoryProviderParamsSetAllocationMode(params, mode);
        if (res == UMF_RESULT_SUCCESS) {
            res = umfMemoryProviderCreate(umfCUDAMemoryProviderOps(), params,
                                          &gpu->provider);
        }
        umfCUDAMemoryProviderParamsDestroy(params);
    }
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "the CUDA provider (mode %d): %d\n", (int)mode,
                (int)res);
    }
    gpu->copy = cu_copy;
    return res == UMF_RESULT_SUCCESS ? 0 : -1;
}

static void gpu_close(gpu_t *gpu) {
    if (gpu->provider != NULL) {
        umfMemoryProviderDestroy(gpu->provider);
    }
    if (gpu->ze_list != NULL) {
        zeCommandListDestroy(gpu->ze_list);
    }
    if (gpu->ze_context != NULL) {
        zeContextDestroy(gpu->ze_context);
    }
    if (gpu->cu_context != NULL) {
        cuCtxSetCurrent(NULL);
        cuDevicePrimaryCtxRelease(gpu->cu_device);
    }
}

// Opens the broadcast IPC data, writes this rank's slice (every byte the
// rank's number plus one) and closes it.
static int write_slice(gpu_t *gpu, void *ipc_data, size_t buffer_size,
                       int rank) {
    void *shared = NULL;
    umf_result_t res =
        umfMemoryProviderOpenIPCHandle(gpu->provider, ipc_data, &shared);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "rank %d: umfMemoryProviderOpenIPCHandle: %d\n", rank,
                (int)res);
        return -1;
    }
    unsigned char slice[SLICE];
    memset(slice, rank + 1, sizeof(slice));
    int ret = gpu->copy(gpu, (char *)shared + (size_t)rank * SLICE, slice,
                        sizeof(slice));
    if (ret != 0) {
        fprintf(stderr, "rank %d: the copy into the shared buffer failed\n",
                rank);
    }
    res = umfMemoryProviderCloseIPCHandle(gpu->provider, shared, buffer_size);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "rank %d: umfMemoryProviderCloseIPCHandle: %d\n", rank,
                (int)res);
        ret = -1;
    }
    return ret;
}

// Rank 0, after every rank wrote: each slice holds its rank's bytes.
static int check_slices(gpu_t *gpu, const void *buffer, int ranks) {
    unsigned char *all = malloc((size_t)ranks * SLICE);
    int ret =
        all != NULL && gpu->copy(gpu, all, buffer, (size_t)ranks * SLICE) == 0
            ? 0
            : -1;
    for (int r = 0; ret == 0 && r < ranks; r++) {
        for (size_t i = 0; i < SLICE; i++) {
            if (all[(size_t)r * SLICE + i] != (unsigned char)(r + 1)) {
                fprintf(stderr, "rank 0: slice %d byte %zu is %u, not %d\n", r,
                        i, all[(size_t)r * SLICE + i], r + 1);
                ret = -1;
                break;
            }
        }
    }
    free(all);
    return ret;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const char *which = argc > 1 ? argv[1] : "";
    const char *how = argc > 2 ? argv[2] : "default";
    static const char *const modes[] = {"default", "vmm_fd", "vmm_fabric"};
    int mode = -1;
    for (int m = 0; m < 3; m++) {
        mode = strcmp(how, modes[m]) == 0 ? m : mode;
    }
    bool cuda = strcmp(which, "cuda") == 0;
    if ((!cuda && strcmp(which, "level_zero") != 0) || mode < 0 ||
        (!cuda && mode != 0)) {
        if (rank == 0) {
            fprintf(stderr,
                    "usage: %s level_zero | cuda [default|vmm_fd|vmm_fabric]\n",
                    argv[0]);
        }
        MPI_Finalize();
        return 2;
    }

    gpu_t gpu = {0};
    int failed = (cuda ? cu_open(&gpu, (umf_cuda_allocation_mode_t)mode)
                       : ze_open(&gpu)) != 0;
    void *buffer = NULL, *ipc_data = NULL;
    size_t buffer_size = (size_t)ranks * SLICE;
    unsigned long long ipc_size = 0;

    // Rank 0: the buffer, a marker in it, and its IPC data.
    if (rank == 0 && !failed) {
        size_t size = 0;
        failed = umfMemoryProviderAlloc(gpu.provider, buffer_size, 0,
                                        &buffer) != UMF_RESULT_SUCCESS ||
                 umfMemoryProviderGetIPCHandleSize(gpu.provider, &size) !=
                     UMF_RESULT_SUCCESS ||
                 (ipc_data = malloc(size)) == NULL;
        if (!failed) {
            unsigned char *marker = calloc(1, buffer_size);
            failed =
                marker == NULL ||
                gpu.copy(&gpu, buffer, marker, buffer_size) != 0 ||
                umfMemoryProviderGetIPCHandle(gpu.provider, buffer, buffer_size,
                                              ipc_data) != UMF_RESULT_SUCCESS;
            free(marker);
            ipc_size = size;
        }
        if (failed) {
            fprintf(stderr, "rank 0: cannot allocate and export the buffer\n");
        }
    }
    // Every rank learns whether all set up; then the IPC data, size first.
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (!failed) {
        MPI_Bcast(&ipc_size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        if (rank != 0) {
            ipc_data = malloc(ipc_size);
        }
        failed = ipc_data == NULL;
        MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR,
                      MPI_COMM_WORLD);
    }
    if (!failed) {
        MPI_Bcast(ipc_data, (int)ipc_size, MPI_BYTE, 0, MPI_COMM_WORLD);
        failed = write_slice(&gpu, ipc_data, buffer_size, rank) != 0;
        // Every slice written (and closed) before rank 0 reads.
        MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR,
                      MPI_COMM_WORLD);
    }
    if (!failed && rank == 0) {
        failed = check_slices(&gpu, buffer, ranks) != 0;
        if (!failed) {
            printf("%s: %d ranks each wrote their slice of one device buffer "
                   "shared through %llu bytes of IPC data\n",
                   which, ranks, ipc_size);
        }
    }
    if (rank == 0 && ipc_data != NULL && ipc_size != 0 &&
        umfMemoryProviderPutIPCHandle(gpu.provider, ipc_data) !=
            UMF_RESULT_SUCCESS) {
        failed = 1;
    }
    if (buffer != NULL &&
        umfMemoryProviderFree(gpu.provider, buffer, buffer_size) !=
            UMF_RESULT_SUCCESS) {
        failed = 1;
    }
    free(ipc_data);
    gpu_close(&gpu);
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed ? 1 : 0;
}
