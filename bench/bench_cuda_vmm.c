// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA provider's VMM modes (UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD and
// _VMM_FABRIC), in the arena mode's run of the CUDA provider, each written
// with the result mode "vmm_fd" or "vmm_fab":
//   vmm_alloc_free_provider / _raw / _added
//                       an alloc+free pair of 64 B through a provider in the
//                       VMM mode (one granule: cuMemCreate,
//                       cuMemAddressReserve, cuMemMap, cuMemSetAccess,
//                       cuMemRelease; then cuMemUnmap, cuMemAddressFree),
//                       against those raw driver calls; the default mode's pair
//                       is alloc_free_* of the same run (mode "arena")
//   ipc_*               the IPC measurements (bench_ipc.c) with the VMM
//                       provider as the producer: get+put, the first open
//                       (the consumer, a default-mode provider, imports,
//                       reserves, maps and sets access) and the cached one
// A device that does not support a mode (the provider refuses it) is
// reported on stderr and skipped.

#include <stdio.h>
#include <string.h>

#include "bench.h"

#ifdef UMF_GPU_BENCH_HAVE_CUDA

#include <cuda.h>
#include <umf/providers/provider_cuda.h>

typedef struct vmm_calls_t {
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t,
                       const CUmemAllocationProp *, unsigned long long);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                        unsigned long long);
    CUresult (*address_free)(CUdeviceptr, size_t);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                    unsigned long long);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *,
                           size_t);
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *,
                            CUmemAllocationGranularity_flags);
} vmm_calls_t;

typedef struct vmm_arg_t {
    const vmm_calls_t *cu;
    CUmemAllocationProp prop;
    CUmemAccessDesc access;
    size_t granule;
} vmm_arg_t;

// n allocations of one granule made and freed with the raw driver calls
// (what the provider's 64 B take).
static bool raw_pairs(void *arg, long n) {
    vmm_arg_t *a = arg;
    const vmm_calls_t *cu = a->cu;
    for (long i = 0; i < n; i++) {
        CUmemGenericAllocationHandle h = 0;
        CUdeviceptr va = 0;
        if (cu->create(&h, a->granule, &a->prop, 0) != CUDA_SUCCESS) {
            return false;
        }
        bool ok =
            cu->reserve(&va, a->granule, a->granule, 0, 0) == CUDA_SUCCESS &&
            cu->map(va, a->granule, 0, h, 0) == CUDA_SUCCESS &&
            cu->set_access(va, a->granule, &a->access, 1) == CUDA_SUCCESS;
        ok = cu->release(h) == CUDA_SUCCESS && ok;
        ok = ok && cu->unmap(va, a->granule) == CUDA_SUCCESS &&
             cu->address_free(va, a->granule) == CUDA_SUCCESS;
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool resolve(bench_driver_t *d, vmm_calls_t *cu) {
    const bench_symbol_t syms[] = {
        {"cuMemCreate", (void **)&cu->create},
        {"cuMemRelease", (void **)&cu->release},
        {"cuMemAddressReserve", (void **)&cu->reserve},
        {"cuMemAddressFree", (void **)&cu->address_free},
        {"cuMemMap", (void **)&cu->map},
        {"cuMemUnmap", (void **)&cu->unmap},
        {"cuMemSetAccess", (void **)&cu->set_access},
        {"cuMemGetAllocationGranularity", (void **)&cu->granularity},
    };
    return bench_cuda_resolve(d, syms, sizeof(syms) / sizeof(syms[0]));
}

// Every measurement of one mode; false after a failure was reported.
static bool measure_mode(const bench_run_t *run, const vmm_calls_t *cu,
                         umf_cuda_allocation_mode_t mode, const char *name) {
    umf_memory_provider_handle_t h = NULL;
    umf_result_t ret = bench_cuda_provider_create_mode(run->driver, mode, &h);
    if (ret == UMF_RESULT_ERROR_NOT_SUPPORTED) {
        fprintf(stderr,
                "umf-gpu-bench: cuda: the device does not support the %s "
                "mode: skipped\n",
                name);
        return true;
    }
    if (ret != UMF_RESULT_SUCCESS) {
        bench_fail("cuda", "cannot create a %s provider: %d", name, (int)ret);
        return false;
    }
    vmm_arg_t arg = {.cu = cu};
    bench_pair_arg_t pair = {run->backend, run->driver, h, 64,
                             UMF_RESULT_SUCCESS};
    arg.prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    arg.prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    arg.prop.location.id = bench_cuda_device(run->driver);
    arg.prop.requestedHandleTypes =
        mode == UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC
            ? CU_MEM_HANDLE_TYPE_FABRIC
            : CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    arg.access.location = arg.prop.location;
    arg.access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    bool ok = cu->granularity(&arg.granule, &arg.prop,
                              CU_MEM_ALLOC_GRANULARITY_MINIMUM) == CUDA_SUCCESS;
    bench_run_t vmm_run = *run;
    vmm_run.provider = h;
    vmm_run.mode = name;
    bench_paired_t m = {"vmm_alloc_free",     64,        1,       0,
                        bench_provider_pairs, raw_pairs, {&pair}, {&arg}};
    if (ok && !bench_measure_paired(&vmm_run, &m)) {
        if (pair.error != UMF_RESULT_SUCCESS) {
            bench_provider_error(&vmm_run, "VMM alloc+free", pair.error);
        } else {
            bench_fail("cuda", "the raw VMM calls failed (%s)", name);
        }
        ok = false;
    }
    ok = ok && bench_ipc_producer(run->o, run->backend, run->driver, h, name);
    umfMemoryProviderDestroy(h);
    return ok;
}

static bool run_vmm(const bench_run_t *run) {
    if (run->backend->bit != BENCH_PROVIDER_CUDA) {
        return true; // the CUDA provider's modes only
    }
    vmm_calls_t cu;
    return resolve(run->driver, &cu) &&
           measure_mode(run, &cu, UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD,
                        "vmm_fd") &&
           measure_mode(run, &cu, UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC,
                        "vmm_fab");
}

#else // a build without the CUDA headers

static bool run_vmm(const bench_run_t *run) {
    (void)run;
    return true;
}

#endif

const bench_measure_t bench_measure_cuda_vmm = {
    .name = "CUDA VMM modes",
    .modes = BENCH_MODE_FULL,
    .run = run_vmm,
};
