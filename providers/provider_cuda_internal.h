// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the CUDA provider's files share: the provider's state, the guard
// that makes its context current around driver calls, and the one way a
// failed driver call is reported.
//
// Context rule: every driver call runs with the provider's context current,
// and the caller's context is current again when the provider returns, on
// success and on failure alike. cuda_ctx_enter() reads the caller's context
// and switches only if it differs (the common case costs one
// cuCtxGetCurrent); cuda_ctx_leave() switches back, and tries a second time
// if the first switch back fails. Only if both fail does leave fail; then
// an operation that can be undone (alloc, IPC open) is undone and returns
// that error, a query returns it, and one that cannot be undone (free, IPC
// close) returns success, because what it was asked to do was done (the
// context left current is logged as an error).

#ifndef UMF_GPU_PROVIDER_CUDA_INTERNAL_H
#define UMF_GPU_PROVIDER_CUDA_INTERNAL_H 1

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <umf/providers/provider_cuda.h>

#include "cuda/cuda_driver.h"
#include "gpu_ipc_fd.h"
#include "gpu_stats.h"
#include "ownership.h"
#include "util_common.h"

// Names kept, including the terminating NUL; longer ones are cut.
#define UMF_CUDA_NAME_MAX 64

typedef struct cu_provider_t {
    // Read on every alloc and free.
    const umf_cuda_driver_t *cu;
    CUcontext context;
    umf_usm_memory_type_t memory_type;
    unsigned int alloc_flags;
    bool host_alloc_with_flags; // HOST: cuMemHostAlloc, else cuMemAllocHost
    umf_cuda_allocation_mode_t mode;
    // Alignments below it take alloc's inline path: CUDA_NATURAL_ALIGNMENT
    // + 1 in the default mode, 0 in a VMM mode (no allocation takes it).
    size_t inline_alignment_end;
    umf_ownership_t own; // what the provider handed out
    umf_gpu_stats_t stats;

    // VMM modes (DEFAULT: none of it is used).
    CUmemAllocationHandleType vmm_handle_type; // POSIX_FILE_DESCRIPTOR, FABRIC
    size_t access_count; // entries of access: the device and the resident
    CUmemAccessDesc access[UMF_CUDA_MAX_RESIDENT_DEVICES + 1];
    umf_gpu_ipc_fd_exporter_t ipc_fd; // VMM_POSIX_FD: the fd server

    CUdevice device;
    size_t min_page_size;         // CU_MEM_ALLOC_GRANULARITY_MINIMUM
    size_t recommended_page_size; // CU_MEM_ALLOC_GRANULARITY_RECOMMENDED
    char name[UMF_CUDA_NAME_MAX];
    char who[UMF_CUDA_NAME_MAX + 32]; // "CUDA provider 'name'"
} cu_provider_t;

// Stores the native error of a failed driver call for the calling thread
// ("<call> failed: NAME (description)[: hint]", the call formatted from fmt),
// logs it, and returns the call's umf_result_t. `hint` may be NULL.
umf_result_t umf_cuda_call_failed(CUresult res, const char *hint,
                                  const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// Makes `ctx` current; *saved gets the caller's context for
// cuda_ctx_leave(). On failure nothing changed and the error is stored.
static inline umf_result_t cuda_ctx_enter(const umf_cuda_driver_t *cu,
                                          CUcontext ctx, CUcontext *saved) {
    CUresult res = cu->CtxGetCurrent(saved);
    if (UMF_UNLIKELY(res != CUDA_SUCCESS)) {
        return umf_cuda_call_failed(res, NULL, "cuCtxGetCurrent()");
    }
    if (UMF_LIKELY(*saved == ctx)) {
        return UMF_RESULT_SUCCESS;
    }
    res = cu->CtxSetCurrent(ctx);
    if (UMF_UNLIKELY(res != CUDA_SUCCESS)) {
        return umf_cuda_call_failed(res, NULL, "cuCtxSetCurrent(ctx=%p)",
                                    (void *)ctx);
    }
    return UMF_RESULT_SUCCESS;
}

// The slow path of cuda_ctx_leave(): the first switch back failed with res.
umf_result_t umf_cuda_ctx_restore_failed(const umf_cuda_driver_t *cu,
                                         CUcontext saved, CUresult res);

// Makes `saved` current again if cuda_ctx_enter(cu, ctx, &saved) switched.
// Fails (and stores the error) only if two tries failed.
static inline umf_result_t cuda_ctx_leave(const umf_cuda_driver_t *cu,
                                          CUcontext ctx, CUcontext saved) {
    if (UMF_LIKELY(saved == ctx)) {
        return UMF_RESULT_SUCCESS;
    }
    CUresult res = cu->CtxSetCurrent(saved);
    if (UMF_UNLIKELY(res != CUDA_SUCCESS)) {
        return umf_cuda_ctx_restore_failed(cu, saved, res);
    }
    return UMF_RESULT_SUCCESS;
}

// RANGE_START_ADDR and RANGE_SIZE of ptr, with the provider's context
// already current.
umf_result_t umf_cuda_query_range_in_ctx(const cu_provider_t *p,
                                         const void *ptr, uintptr_t *base,
                                         size_t *size);

// The driver allocation holding ptr: RANGE_START_ADDR and RANGE_SIZE, asked
// with the provider's context current.
umf_result_t umf_cuda_query_range(void *provider, const void *ptr,
                                  uintptr_t *base, size_t *size);

// One pointer attribute of ptr (the context must be current).
umf_result_t umf_cuda_pointer_attribute(const umf_cuda_driver_t *cu, void *data,
                                        CUpointer_attribute attr,
                                        const void *ptr, const char *attr_name);

// Pinned memory on the provider's device, exportable as the VMM mode's
// handle type (none in the default mode): what cuMemCreate and
// cuMemGetAllocationGranularity are asked about.
static inline CUmemAllocationProp umf_cuda_pinned_prop(const cu_provider_t *p) {
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = (int)p->device;
    prop.requestedHandleTypes = p->vmm_handle_type;
    return prop;
}

// VMM modes (provider_cuda_vmm.c), with the provider's context current:
// alloc maps `size` bytes (a multiple of the granularity) aligned to
// `alignment`; free unmaps and frees the range at `base` (its whole
// mapping). `quiet`: only log a failure (undoing).
umf_result_t umf_cuda_vmm_alloc_in_ctx(const cu_provider_t *p, size_t size,
                                       size_t alignment, void **base);
umf_result_t umf_cuda_vmm_free_in_ctx(const cu_provider_t *p, void *base,
                                      bool quiet);
// What both an allocation and an IPC import do with physical memory:
// reserve `size` bytes at `alignment` (at least the granularity), map
// `handle` there and give the provider's access list read-write access;
// on failure nothing stays reserved. And the reverse: unmap the range and
// free it (`quiet`: only log a failure, for undoing).
umf_result_t umf_cuda_vmm_map_in_ctx(const cu_provider_t *p,
                                     CUmemGenericAllocationHandle handle,
                                     size_t size, size_t alignment,
                                     CUdeviceptr *va);
umf_result_t umf_cuda_vmm_unmap(const umf_cuda_driver_t *cu, CUdeviceptr va,
                                size_t size, bool quiet);
// What cannot be undone once the step before it was made (the release of
// a handle whose memory is mapped, or of a range unmapped): tried twice,
// as the caller's context is restored; a second failure is logged (what it
// held leaks) and the operation goes on.
void umf_cuda_vmm_release(const umf_cuda_driver_t *cu,
                          CUmemGenericAllocationHandle handle);
void umf_cuda_vmm_address_free(const umf_cuda_driver_t *cu, CUdeviceptr va,
                               size_t size);

// In a VMM mode, checks that the device and driver support it; in every
// mode, fills the access list (the device, and the resident devices, each
// below the driver's `device_count`) that VMM allocations and imports get.
umf_result_t umf_cuda_vmm_init_in_ctx(cu_provider_t *p, const int *resident,
                                      size_t resident_count, int device_count);

// The IPC ops (provider_cuda_ipc.c).
umf_result_t umf_cuda_ipc_get_handle_size(void *provider, size_t *size);
umf_result_t umf_cuda_ipc_get_handle(void *provider, const void *ptr,
                                     size_t size, void *providerIpcData);
umf_result_t umf_cuda_ipc_put_handle(void *provider, void *providerIpcData);
umf_result_t umf_cuda_ipc_open_handle(void *provider, void *providerIpcData,
                                      void **ptr);
umf_result_t umf_cuda_ipc_close_handle(void *provider, void *ptr, size_t size);

#endif // UMF_GPU_PROVIDER_CUDA_INTERNAL_H
