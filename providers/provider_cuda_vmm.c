// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA provider's VMM modes (UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD and
// _VMM_FABRIC): what initialize checks, and how an allocation is made and
// freed. The rest of the provider is the same in every mode: the ownership
// record holds the mapped range as it holds a cuMemAlloc allocation, so
// free, split, merge, properties and stats do not know the difference.
//
// An allocation: cuMemCreate of the size rounded up to the granularity (of
// the mode's handle type, the provider's page size), cuMemAddressReserve of
// that size at the alignment asked for, cuMemMap of the whole range,
// cuMemSetAccess read-write for the provider's device and the resident
// devices, and cuMemRelease of the handle: the mapping keeps the physical
// memory alive, and get_ipc_handle retains it again from the address
// (cuMemRetainAllocationHandle). A failed step undoes the steps before it.
// Free: cuMemUnmap (which releases the physical memory with its last
// mapping) and cuMemAddressFree; the size is the driver's (RANGE_SIZE).
// The reservation, mapping and access, and their reverse, are the same for
// an IPC import (provider_cuda_ipc.c): umf_cuda_vmm_map_in_ctx and
// umf_cuda_vmm_unmap.

#include <stdio.h>
#include <string.h>

#include "cuda/cuda_result.h"
#include "gpu_log.h"
#include "native_error.h"
#include "provider_cuda_internal.h"
#include "provider_kind.h"
#include "util_umf_log.h"

// The largest alignment a VMM mode honours: the reservation takes it, so
// no memory is spent on it; larger ones are refused as in the default mode.
#define VMM_MAX_ALIGNMENT ((size_t)1 << 30)

// A VMM mode cannot be used: the native error says why (CUDA_ERROR_NOT_
// SUPPORTED and `what`), and the result is UMF_RESULT_ERROR_NOT_SUPPORTED.
static umf_result_t mode_unsupported(const cu_provider_t *p, const char *what) {
    umf_native_error_set(UMF_GPU_PROVIDER_KIND_CUDA, CUDA_ERROR_NOT_SUPPORTED,
                         "%s: %s", p->who, what);
    UMF_GPU_LOG_RETURNED("%s: %s", p->who, what);
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

// Whether the device reports `attr` (named `name`) as supported.
static umf_result_t device_supports(const cu_provider_t *p,
                                    CUdevice_attribute attr, const char *name,
                                    bool *supported) {
    int value = 0;
    CUresult res = p->cu->DeviceGetAttribute(&value, attr, p->device);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(res, NULL,
                                    "cuDeviceGetAttribute(%s, device=%d)", name,
                                    (int)p->device);
    }
    *supported = value != 0;
    return UMF_RESULT_SUCCESS;
}

// Checks that the driver and the device support the VMM mode.
static umf_result_t check_support(cu_provider_t *p) {
    const char *missing = NULL;
    if (!umf_cuda_driver_has_vmm(&missing)) {
        char what[160];
        snprintf(what, sizeof(what),
                 "the VMM mode needs the driver's %s, which it lacks", missing);
        return mode_unsupported(p, what);
    }
    bool fabric = p->mode == UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC;
    const struct {
        CUdevice_attribute attr;
        const char *name;
    } needs[] = {
        {CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
         "CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"},
        {fabric
             ? CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED
             : CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
         fabric ? "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED"
                : "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_"
                  "SUPPORTED"},
    };
    for (size_t i = 0; i < UMF_ARRAY_SIZE(needs); i++) {
        bool supported = false;
        umf_result_t ret =
            device_supports(p, needs[i].attr, needs[i].name, &supported);
        if (ret != UMF_RESULT_SUCCESS) {
            return ret;
        }
        if (!supported) {
            char what[160];
            snprintf(what, sizeof(what), "device %d reports 0 for %s",
                     (int)p->device, needs[i].name);
            return mode_unsupported(p, what);
        }
    }
    p->vmm_handle_type = fabric ? CU_MEM_HANDLE_TYPE_FABRIC
                                : CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_cuda_vmm_init_in_ctx(cu_provider_t *p, const int *resident,
                                      size_t resident_count, int device_count) {
    if (p->mode != UMF_CUDA_ALLOCATION_MODE_DEFAULT) {
        umf_result_t ret = check_support(p);
        if (ret != UMF_RESULT_SUCCESS) {
            return ret;
        }
    }
    memset(p->access, 0, sizeof(p->access));
    p->access[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p->access[0].location.id = (int)p->device;
    p->access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    p->access_count = 1;
    for (size_t i = 0; i < resident_count; i++) {
        if (resident[i] >= device_count) {
            UMF_GPU_LOG_RETURNED("%s: resident device %d is out of range: the "
                                 "driver has %d device(s)",
                                 p->who, resident[i], device_count);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        if (resident[i] == (int)p->device) {
            continue; // the provider's own device has access already
        }
        p->access[p->access_count] = p->access[0];
        p->access[p->access_count].location.id = resident[i];
        p->access_count++;
    }
    return UMF_RESULT_SUCCESS;
}

void umf_cuda_vmm_release(const umf_cuda_driver_t *cu,
                          CUmemGenericAllocationHandle handle) {
    CUresult res = cu->MemRelease(handle);
    if (res != CUDA_SUCCESS && (res = cu->MemRelease(handle)) != CUDA_SUCCESS) {
        UMF_LOG_ERROR("CUDA provider: cuMemRelease(0x%llx) failed twice (%d); "
                      "its memory stays until the process ends",
                      (unsigned long long)handle, (int)res);
    }
}

void umf_cuda_vmm_address_free(const umf_cuda_driver_t *cu, CUdeviceptr va,
                               size_t size) {
    CUresult res = cu->MemAddressFree(va, size);
    if (res != CUDA_SUCCESS &&
        (res = cu->MemAddressFree(va, size)) != CUDA_SUCCESS) {
        UMF_LOG_ERROR("CUDA provider: cuMemAddressFree(0x%llx, %zu) failed "
                      "twice (%d); the address range leaks",
                      (unsigned long long)va, size, (int)res);
    }
}

umf_result_t umf_cuda_vmm_unmap(const umf_cuda_driver_t *cu, CUdeviceptr va,
                                size_t size, bool quiet) {
    CUresult res = cu->MemUnmap(va, size);
    if (res == CUDA_SUCCESS) {
        // Unmapped, the memory is gone: the range's release cannot undo it.
        umf_cuda_vmm_address_free(cu, va, size);
        return UMF_RESULT_SUCCESS;
    }
    if (quiet) {
        UMF_LOG_ERROR("CUDA provider: undoing a VMM mapping, "
                      "cuMemUnmap(0x%llx, %zu) failed (%d); it leaks",
                      (unsigned long long)va, size, (int)res);
        return umf_cuda_result_to_umf(res);
    }
    return umf_cuda_call_failed(res, NULL, "cuMemUnmap(0x%llx, size=%zu)",
                                (unsigned long long)va, size);
}

umf_result_t umf_cuda_vmm_map_in_ctx(const cu_provider_t *p,
                                     CUmemGenericAllocationHandle handle,
                                     size_t size, size_t alignment,
                                     CUdeviceptr *va) {
    size_t align = alignment > p->min_page_size ? alignment : p->min_page_size;
    CUresult res = p->cu->MemAddressReserve(va, size, align, 0, 0);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(res, NULL,
                                    "cuMemAddressReserve(size=%zu, "
                                    "alignment=%zu)",
                                    size, align);
    }
    res = p->cu->MemMap(*va, size, 0, handle, 0);
    if (res != CUDA_SUCCESS) {
        umf_result_t ret =
            umf_cuda_call_failed(res, NULL, "cuMemMap(0x%llx, size=%zu)",
                                 (unsigned long long)*va, size);
        umf_cuda_vmm_address_free(p->cu, *va, size);
        return ret;
    }
    res = p->cu->MemSetAccess(*va, size, p->access, p->access_count);
    if (res != CUDA_SUCCESS) {
        umf_result_t ret = umf_cuda_call_failed(
            res, NULL, "cuMemSetAccess(0x%llx, size=%zu, %zu device(s))",
            (unsigned long long)*va, size, p->access_count);
        (void)umf_cuda_vmm_unmap(p->cu, *va, size, true);
        return ret;
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_cuda_vmm_alloc_in_ctx(const cu_provider_t *p, size_t size,
                                       size_t alignment, void **base) {
    if (alignment > VMM_MAX_ALIGNMENT) {
        UMF_GPU_LOG_RETURNED("%s alloc: alignment %zu is above %zu", p->who,
                             alignment, VMM_MAX_ALIGNMENT);
        return UMF_RESULT_ERROR_INVALID_ALIGNMENT;
    }
    CUmemAllocationProp prop = umf_cuda_pinned_prop(p);
    CUmemGenericAllocationHandle handle = 0;
    CUresult res = p->cu->MemCreate(&handle, size, &prop, 0);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(
            res,
            res == CUDA_ERROR_OUT_OF_MEMORY ? "device memory ran out" : NULL,
            "cuMemCreate(size=%zu, device=%d)", size, (int)p->device);
    }
    CUdeviceptr va = 0;
    umf_result_t ret = umf_cuda_vmm_map_in_ctx(p, handle, size, alignment, &va);
    // Mapped, the physical memory lives as long as the mapping; unmapped
    // (a failure), this frees it.
    umf_cuda_vmm_release(p->cu, handle);
    if (ret == UMF_RESULT_SUCCESS) {
        *base = (void *)(uintptr_t)va;
    }
    return ret;
}

umf_result_t umf_cuda_vmm_free_in_ctx(const cu_provider_t *p, void *base,
                                      bool quiet) {
    uintptr_t start = 0;
    size_t size = 0;
    umf_result_t ret = umf_cuda_query_range_in_ctx(p, base, &start, &size);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    (void)start; // base is the start: only driver allocations are freed
    return umf_cuda_vmm_unmap(p->cu, (CUdeviceptr)(uintptr_t)base, size, quiet);
}
