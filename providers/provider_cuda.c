// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA memory provider: parameters, initialisation, allocation and free
// (with over-alignment), page sizes, split/merge, allocation properties and
// native errors. IPC is in provider_cuda_ipc.c; the VMM modes' allocation
// calls in provider_cuda_vmm.c.
//
// Allocation: cuMemAlloc_v2 (DEVICE), cuMemHostAlloc or cuMemAllocHost_v2
// (HOST), cuMemAllocManaged (SHARED). The driver aligns allocations to at
// least CUDA_NATURAL_ALIGNMENT; a larger power-of-two alignment, up to
// UMF_CUDA_MAX_ALIGNMENT, is honoured by over-allocating and handing out
// the first aligned address. Every allocation is recorded in the ownership
// module shared with the Level Zero provider (ownership.h: the rules of
// free, split, merge and lookups); an over-aligned one as a piece at an
// offset in its driver allocation. In a VMM mode, alloc and free leave the
// inline path for provider_cuda_vmm.c; the mapped range is recorded as a
// driver allocation, so the rest of the provider is the same.

#include "provider_cuda_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_result.h"
#include "gpu_log.h"
#include "gpu_params.h"
#include "gpu_provider.h"
#include "native_error.h"
#include "provider_kind.h"
#include "util_umf_log.h"

// cuMemAlloc's documented minimum alignment; also what the provider expects
// of the other allocation calls (checked on every allocation).
#define CUDA_NATURAL_ALIGNMENT ((size_t)256)
// The largest alignment honoured (by over-allocating up to this much).
#define UMF_CUDA_MAX_ALIGNMENT ((size_t)2 << 20)

#define DEFAULT_NAME "CUDA"

struct umf_cuda_memory_provider_params_t {
    CUcontext context; // NULL: none
    int device;        // -1: none
    umf_usm_memory_type_t memory_type;
    unsigned int alloc_flags;
    bool alloc_flags_set;
    umf_cuda_allocation_mode_t mode;
    uint32_t resident_count;
    int resident[UMF_CUDA_MAX_RESIDENT_DEVICES];
    char name[UMF_CUDA_NAME_MAX];
};

// ---------------------------------------------------------------------------
// Failures and the context guard

umf_result_t umf_cuda_call_failed(CUresult res, const char *hint,
                                  const char *fmt, ...) {
    char result[192];
    umf_cuda_result_describe(res, result, sizeof(result));
    va_list args;
    va_start(args, fmt);
    umf_native_error_report_v(UMF_GPU_PROVIDER_KIND_CUDA, (int32_t)res, result,
                              hint, fmt, args);
    va_end(args);
    return umf_cuda_result_to_umf(res);
}

umf_result_t umf_cuda_ctx_restore_failed(const umf_cuda_driver_t *cu,
                                         CUcontext saved, CUresult res) {
    CUresult again = cu->CtxSetCurrent(saved);
    if (again == CUDA_SUCCESS) {
        UMF_LOG_WARN("CUDA provider: making the caller's context %p current "
                     "again failed once (%d), then worked",
                     (void *)saved, (int)res);
        return UMF_RESULT_SUCCESS;
    }
    // The caller's thread is left with another context current, whatever
    // the call returns: an error the result does not tell.
    UMF_LOG_ERROR("CUDA provider: the caller's context %p could not be made "
                  "current again (%d, then %d); the provider's is current",
                  (void *)saved, (int)res, (int)again);
    return umf_cuda_call_failed(
        again, "the caller's context could not be made current again",
        "cuCtxSetCurrent(ctx=%p)", (void *)saved);
}

umf_result_t umf_cuda_pointer_attribute(const umf_cuda_driver_t *cu, void *data,
                                        CUpointer_attribute attr,
                                        const void *ptr,
                                        const char *attr_name) {
    CUresult res = cu->PointerGetAttribute(data, attr, (CUdeviceptr)ptr);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(
            res, NULL, "cuPointerGetAttribute(%s, ptr=%p)", attr_name, ptr);
    }
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_cuda_query_range_in_ctx(const cu_provider_t *p,
                                         const void *ptr, uintptr_t *base,
                                         size_t *size) {
    CUdeviceptr start = 0;
    size_t range = 0;
    umf_result_t ret = umf_cuda_pointer_attribute(
        p->cu, &start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr,
        "RANGE_START_ADDR");
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umf_cuda_pointer_attribute(
            p->cu, &range, CU_POINTER_ATTRIBUTE_RANGE_SIZE, ptr, "RANGE_SIZE");
    }
    if (ret == UMF_RESULT_SUCCESS) {
        *base = (uintptr_t)start;
        *size = range;
    }
    return ret;
}

umf_result_t umf_cuda_query_range(void *provider, const void *ptr,
                                  uintptr_t *base, size_t *size) {
    const cu_provider_t *p = provider;
    CUcontext saved;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ret = umf_cuda_query_range_in_ctx(p, ptr, base, size);
    umf_result_t left = cuda_ctx_leave(p->cu, p->context, saved);
    return ret != UMF_RESULT_SUCCESS ? ret : left;
}

// ---------------------------------------------------------------------------
// Parameters

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsCreate(
    umf_cuda_memory_provider_params_handle_t *hParams) {
    if (hParams == NULL) {
        UMF_GPU_LOG_RETURNED("%s: NULL hParams", __func__);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    const umf_cuda_driver_t *cu = NULL;
    umf_result_t ret = umf_cuda_driver_get(&cu);
    if (ret != UMF_RESULT_SUCCESS) {
        return umf_native_error_set_load_failure(UMF_GPU_PROVIDER_KIND_CUDA,
                                                 ret, umf_cuda_driver_error());
    }
    // The defaults: the calling thread's context and its device, if any.
    CUcontext ctx = NULL;
    CUdevice device = -1;
    CUresult res = cu->CtxGetCurrent(&ctx);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(res, NULL, "cuCtxGetCurrent()");
    }
    if (ctx != NULL) {
        res = cu->CtxGetDevice(&device);
        if (res != CUDA_SUCCESS) {
            return umf_cuda_call_failed(res, NULL, "cuCtxGetDevice()");
        }
    }
    umf_cuda_memory_provider_params_handle_t params =
        calloc(1, sizeof(*params));
    if (params == NULL) {
        UMF_GPU_LOG_RETURNED("%s: out of host memory", __func__);
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    params->context = ctx;
    params->device = ctx != NULL ? (int)device : -1;
    params->memory_type = UMF_MEMORY_TYPE_DEVICE;
    snprintf(params->name, sizeof(params->name), "%s", DEFAULT_NAME);
    *hParams = params;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsDestroy(
    umf_cuda_memory_provider_params_handle_t hParams) {
    UMF_GPU_CHECK_PARAMS(hParams);
    free(hParams);
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetContext(
    umf_cuda_memory_provider_params_handle_t hParams, void *hContext) {
    UMF_GPU_CHECK_PARAMS(hParams);
    if (hContext == NULL) {
        UMF_GPU_LOG_RETURNED("%s: NULL context", __func__);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    hParams->context = (CUcontext)hContext;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetDevice(
    umf_cuda_memory_provider_params_handle_t hParams, int hDevice) {
    UMF_GPU_CHECK_PARAMS(hParams);
    if (hDevice < 0) {
        UMF_GPU_LOG_RETURNED("%s: negative device ordinal %d", __func__,
                             hDevice);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    hParams->device = hDevice;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetMemoryType(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType) {
    UMF_GPU_CHECK_PARAMS(hParams);
    umf_result_t ret = umf_gpu_params_check_memory_type(__func__, memoryType);
    if (ret == UMF_RESULT_SUCCESS) {
        hParams->memory_type = memoryType;
    }
    return ret;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetAllocFlags(
    umf_cuda_memory_provider_params_handle_t hParams, unsigned int flags) {
    UMF_GPU_CHECK_PARAMS(hParams);
    // Checked against the memory type by initialize, which knows both.
    hParams->alloc_flags = flags;
    hParams->alloc_flags_set = true;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetAllocationMode(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_cuda_allocation_mode_t mode) {
    UMF_GPU_CHECK_PARAMS(hParams);
    if ((int)mode < (int)UMF_CUDA_ALLOCATION_MODE_DEFAULT ||
        (int)mode > (int)UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC) {
        UMF_GPU_LOG_RETURNED("%s: %d is not a umf_cuda_allocation_mode_t",
                             __func__, (int)mode);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    hParams->mode = mode;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetResidentDevices(
    umf_cuda_memory_provider_params_handle_t hParams, const int *devices,
    uint32_t count) {
    UMF_GPU_CHECK_PARAMS(hParams);
    if ((count > 0 && devices == NULL) ||
        count > UMF_CUDA_MAX_RESIDENT_DEVICES) {
        UMF_GPU_LOG_RETURNED("%s: %u devices %s", __func__, count,
                             devices == NULL ? "but a NULL array"
                                             : "are more than 64");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < count; i++) {
        if (devices[i] < 0) {
            UMF_GPU_LOG_RETURNED("%s: device %u is the negative ordinal %d",
                                 __func__, i, devices[i]);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        for (uint32_t j = 0; j < i; j++) {
            if (devices[j] == devices[i]) {
                UMF_GPU_LOG_RETURNED("%s: device %d is listed twice (%u and "
                                     "%u)",
                                     __func__, devices[i], j, i);
                return UMF_RESULT_ERROR_INVALID_ARGUMENT;
            }
        }
    }
    if (count > 0) {
        memcpy(hParams->resident, devices, count * sizeof(int));
    }
    hParams->resident_count = count;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfCUDAMemoryProviderParamsSetName(
    umf_cuda_memory_provider_params_handle_t hParams, const char *name) {
    UMF_GPU_CHECK_PARAMS(hParams);
    return umf_gpu_params_set_name(__func__, hParams->name,
                                   sizeof(hParams->name), name);
}

// ---------------------------------------------------------------------------
// Initialize and finalize

// Checks the allocation flags against the memory type and stores what the
// allocation calls take.
static umf_result_t
check_alloc_flags(const struct umf_cuda_memory_provider_params_t *in,
                  cu_provider_t *p) {
    const unsigned int host_flags = CU_MEMHOSTALLOC_PORTABLE |
                                    CU_MEMHOSTALLOC_DEVICEMAP |
                                    CU_MEMHOSTALLOC_WRITECOMBINED;
    switch (in->memory_type) {
    case UMF_MEMORY_TYPE_DEVICE:
        if (in->alloc_flags_set && in->alloc_flags != 0) {
            UMF_GPU_LOG_RETURNED(
                "CUDA provider: DEVICE memory (cuMemAlloc) takes no "
                "allocation flags, got 0x%x",
                in->alloc_flags);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        p->alloc_flags = 0;
        return UMF_RESULT_SUCCESS;
    case UMF_MEMORY_TYPE_HOST:
        if (in->alloc_flags & ~host_flags) {
            UMF_GPU_LOG_RETURNED(
                "CUDA provider: HOST allocation flags 0x%x are not "
                "a combination of CU_MEMHOSTALLOC_PORTABLE, "
                "_DEVICEMAP and _WRITECOMBINED",
                in->alloc_flags);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        p->alloc_flags = in->alloc_flags;
        p->host_alloc_with_flags = in->alloc_flags_set;
        return UMF_RESULT_SUCCESS;
    case UMF_MEMORY_TYPE_SHARED:
        p->alloc_flags =
            in->alloc_flags_set ? in->alloc_flags : CU_MEM_ATTACH_GLOBAL;
        if (p->alloc_flags != CU_MEM_ATTACH_GLOBAL &&
            p->alloc_flags != CU_MEM_ATTACH_HOST) {
            UMF_GPU_LOG_RETURNED(
                "CUDA provider: SHARED allocation flags 0x%x are "
                "neither CU_MEM_ATTACH_GLOBAL nor "
                "CU_MEM_ATTACH_HOST",
                in->alloc_flags);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        return UMF_RESULT_SUCCESS;
    default:
        UMF_GPU_LOG_RETURNED(
            "CUDA provider: memory type %d is not HOST, DEVICE or "
            "SHARED",
            (int)in->memory_type);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
}

// Checks the allocation mode and the resident devices against the memory
// type, and the fd settings of the POSIX fd mode.
static umf_result_t
check_mode(const struct umf_cuda_memory_provider_params_t *in,
           cu_provider_t *p) {
    p->mode = in->mode;
    p->inline_alignment_end = in->mode == UMF_CUDA_ALLOCATION_MODE_DEFAULT
                                  ? CUDA_NATURAL_ALIGNMENT + 1
                                  : 0;
    if (in->mode == UMF_CUDA_ALLOCATION_MODE_DEFAULT) {
        if (in->resident_count > 0) {
            UMF_GPU_LOG_RETURNED(
                "%s: resident devices need a VMM allocation mode "
                "(cuMemSetAccess); cuMemAlloc memory reaches peers "
                "through cuCtxEnablePeerAccess",
                p->who);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        return UMF_RESULT_SUCCESS;
    }
    if (in->memory_type != UMF_MEMORY_TYPE_DEVICE) {
        UMF_GPU_LOG_RETURNED("%s: a VMM allocation mode makes DEVICE memory "
                             "only, not %s",
                             p->who, umf_gpu_memory_type_name(in->memory_type));
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return in->mode == UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD
               ? umf_gpu_ipc_fd_check_env(p->who)
               : UMF_RESULT_SUCCESS;
}

// The granularity of pinned device memory, exportable as the VMM mode's
// handle type (none in the default mode).
static umf_result_t granularity(const cu_provider_t *p,
                                CUmemAllocationGranularity_flags option,
                                size_t *out) {
    const umf_cuda_driver_t *cu = p->cu;
    CUdevice device = p->device;
    CUmemAllocationProp prop = umf_cuda_pinned_prop(p);
    CUresult res = cu->MemGetAllocationGranularity(out, &prop, option);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(
            res, NULL, "cuMemGetAllocationGranularity(device=%d, %s)",
            (int)device,
            option == CU_MEM_ALLOC_GRANULARITY_MINIMUM ? "MINIMUM"
                                                       : "RECOMMENDED");
    }
    if (!umf_is_pow2(*out)) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider: the driver's allocation granularity of "
            "device %d is %zu bytes, not a power of two",
            (int)device, *out);
        return UMF_RESULT_ERROR_UNKNOWN;
    }
    return UMF_RESULT_SUCCESS;
}

// What initialize asks the driver, with the provider's context current.
static umf_result_t
query_device(const struct umf_cuda_memory_provider_params_t *in,
             cu_provider_t *p) {
    const umf_cuda_driver_t *cu = p->cu;
    int count = 0;
    CUresult res = cu->DeviceGetCount(&count);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(res, NULL, "cuDeviceGetCount()");
    }
    if (in->device >= count) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider: device %d is out of range: the driver "
            "has %d device(s)",
            in->device, count);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    CUdevice ctx_device = -1;
    res = cu->CtxGetDevice(&ctx_device);
    if (res != CUDA_SUCCESS) {
        return umf_cuda_call_failed(res, NULL, "cuCtxGetDevice(ctx=%p)",
                                    (void *)p->context);
    }
    if ((int)ctx_device != in->device) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider: context %p belongs to device %d, not to "
            "device %d",
            (void *)p->context, (int)ctx_device, in->device);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret =
        umf_cuda_vmm_init_in_ctx(p, in->resident, in->resident_count, count);
    if (ret == UMF_RESULT_SUCCESS) {
        ret =
            granularity(p, CU_MEM_ALLOC_GRANULARITY_MINIMUM, &p->min_page_size);
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = granularity(p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                          &p->recommended_page_size);
    }
    if (ret == UMF_RESULT_SUCCESS &&
        p->recommended_page_size < p->min_page_size) {
        p->recommended_page_size = p->min_page_size;
    }
    return ret;
}

static umf_result_t cu_initialize(void *params, void **provider) {
    if (params == NULL || provider == NULL) {
        UMF_GPU_LOG_RETURNED("CUDA provider: NULL %s; make params with "
                             "umfCUDAMemoryProviderParamsCreate",
                             params == NULL ? "params" : "provider");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    const struct umf_cuda_memory_provider_params_t *in = params;
    const umf_cuda_driver_t *cu = NULL;
    umf_result_t ret = umf_cuda_driver_get(&cu);
    if (ret != UMF_RESULT_SUCCESS) {
        return umf_native_error_set_load_failure(UMF_GPU_PROVIDER_KIND_CUDA,
                                                 ret, umf_cuda_driver_error());
    }
    if (in->context == NULL) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider: no context: set one with "
            "umfCUDAMemoryProviderParamsSetContext, or make one "
            "current before umfCUDAMemoryProviderParamsCreate");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (in->device < 0) {
        UMF_GPU_LOG_RETURNED("CUDA provider: no device: set one with "
                             "umfCUDAMemoryProviderParamsSetDevice");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }

    cu_provider_t *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        UMF_GPU_LOG_RETURNED("CUDA provider: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->cu = cu;
    p->context = in->context;
    p->device = (CUdevice)in->device;
    p->memory_type = in->memory_type;
    snprintf(p->name, sizeof(p->name), "%s", in->name);
    snprintf(p->who, sizeof(p->who), "CUDA provider '%s'", p->name);
    ret = check_alloc_flags(in, p);
    if (ret == UMF_RESULT_SUCCESS) {
        ret = check_mode(in, p);
    }
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }

    CUcontext saved;
    ret = cuda_ctx_enter(cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }
    ret = query_device(in, p);
    umf_result_t left = cuda_ctx_leave(cu, p->context, saved);
    ret = ret != UMF_RESULT_SUCCESS ? ret : left;
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }

    ret = umf_ownership_init(&p->own, p->who, NULL, NULL);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }
    ret = umf_gpu_stats_init(&p->stats);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_own;
    }
    UMF_LOG_INFO("CUDA provider '%s': %s memory, context %p, device %d, "
                 "pages %zu (recommended %zu) bytes",
                 p->name, umf_gpu_memory_type_name(p->memory_type),
                 (void *)p->context, (int)p->device, p->min_page_size,
                 p->recommended_page_size);
    *provider = p;
    return UMF_RESULT_SUCCESS;

err_own:
    umf_ownership_fini(&p->own);
err_free:
    free(p);
    return ret;
}

static void cu_finalize(void *provider) {
    cu_provider_t *p = provider;
    if (p == NULL) {
        return;
    }
    size_t live = umf_ownership_count(&p->own);
    if (live > 0) {
        UMF_LOG_WARN("%s: finalized with %zu allocations not freed; they "
                     "stay with the driver",
                     p->who, live);
    }
    umf_gpu_ipc_fd_finalize(&p->ipc_fd);
    umf_gpu_stats_fini(&p->stats);
    umf_ownership_fini(&p->own);
    free(p);
}

// ---------------------------------------------------------------------------
// Allocation and free

static const char *oom_hint(CUresult res, umf_usm_memory_type_t type) {
    if (res != CUDA_ERROR_OUT_OF_MEMORY) {
        return NULL;
    }
    return type == UMF_MEMORY_TYPE_HOST ? "pinned host memory ran out"
                                        : "device memory ran out";
}

// The allocation call of the provider's memory type; the context must be
// current.
UMF_HOT_INLINE umf_result_t driver_alloc(const cu_provider_t *p, size_t size,
                                         void **base) {
    const umf_cuda_driver_t *cu = p->cu;
    CUdeviceptr dptr = 0;
    CUresult res;
    if (UMF_LIKELY(p->memory_type == UMF_MEMORY_TYPE_DEVICE)) {
        res = cu->MemAlloc(&dptr, size);
        if (UMF_LIKELY(res == CUDA_SUCCESS)) {
            *base = (void *)(uintptr_t)dptr;
            return UMF_RESULT_SUCCESS;
        }
        return umf_cuda_call_failed(res, oom_hint(res, p->memory_type),
                                    "cuMemAlloc_v2(size=%zu)", size);
    }
    switch (p->memory_type) {
    case UMF_MEMORY_TYPE_HOST:
        if (p->host_alloc_with_flags) {
            res = cu->MemHostAlloc(base, size, p->alloc_flags);
            if (UMF_LIKELY(res == CUDA_SUCCESS)) {
                return UMF_RESULT_SUCCESS;
            }
            return umf_cuda_call_failed(res, oom_hint(res, p->memory_type),
                                        "cuMemHostAlloc(size=%zu, "
                                        "flags=0x%x)",
                                        size, p->alloc_flags);
        }
        res = cu->MemAllocHost(base, size);
        if (UMF_LIKELY(res == CUDA_SUCCESS)) {
            return UMF_RESULT_SUCCESS;
        }
        return umf_cuda_call_failed(res, oom_hint(res, p->memory_type),
                                    "cuMemAllocHost_v2(size=%zu)", size);
    default: // SHARED; initialize allows nothing else
        res = cu->MemAllocManaged(&dptr, size, p->alloc_flags);
        if (UMF_LIKELY(res == CUDA_SUCCESS)) {
            *base = (void *)(uintptr_t)dptr;
            return UMF_RESULT_SUCCESS;
        }
        return umf_cuda_call_failed(res, oom_hint(res, p->memory_type),
                                    "cuMemAllocManaged(size=%zu, flags=0x%x)",
                                    size, p->alloc_flags);
    }
}

// The free call of the provider's memory type.
UMF_HOT_INLINE CUresult driver_free_call(const cu_provider_t *p, void *base) {
    return p->memory_type == UMF_MEMORY_TYPE_HOST
               ? p->cu->MemFreeHost(base)
               : p->cu->MemFree((CUdeviceptr)base);
}

// What a failed free call `res` tells: logged and stored as the native error
// (only logged when `quiet`, for undoing).
static umf_result_t driver_free_failed(const cu_provider_t *p, void *base,
                                       CUresult res, bool quiet) {
    const char *call = p->memory_type == UMF_MEMORY_TYPE_HOST ? "cuMemFreeHost"
                                                              : "cuMemFree_v2";
    if (quiet) {
        UMF_LOG_ERROR("CUDA provider: undoing an allocation, %s(ptr=%p) "
                      "failed (%d); the memory leaks",
                      call, base, (int)res);
        return umf_cuda_result_to_umf(res);
    }
    return umf_cuda_call_failed(res, NULL, "%s(ptr=%p)", call, base);
}

// The free call of the provider's memory type; the context must be current.
UMF_HOT_INLINE umf_result_t driver_free(const cu_provider_t *p, void *base,
                                        bool quiet) {
    CUresult res = driver_free_call(p, base);
    if (UMF_LIKELY(res == CUDA_SUCCESS)) {
        return UMF_RESULT_SUCCESS;
    }
    return driver_free_failed(p, base, res, quiet);
}

// Allocates `size` bytes with the provider's context current for the call.
UMF_HOT_INLINE umf_result_t alloc_in_ctx(const cu_provider_t *p, size_t size,
                                         void **base) {
    CUcontext saved;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return ret;
    }
    ret = driver_alloc(p, size, base);
    umf_result_t left = cuda_ctx_leave(p->cu, p->context, saved);
    if (UMF_LIKELY(left == UMF_RESULT_SUCCESS)) {
        return ret;
    }
    if (ret == UMF_RESULT_SUCCESS) {
        (void)driver_free(p, *base, true); // our context is still current
    }
    return ret != UMF_RESULT_SUCCESS ? ret : left;
}

// The slow path of free_in_ctx(): the free in the caller's context failed
// with `res`. A failure about the context (none current, or a destroyed
// one) while the provider's context is not current is tried again with the
// provider's context current; any other failure, or one in the provider's
// own context, is the answer.
static umf_result_t free_retry_in_ctx(const cu_provider_t *p, void *base,
                                      CUresult res, bool *freed) {
    CUcontext current;
    if ((res != CUDA_ERROR_INVALID_CONTEXT &&
         res != CUDA_ERROR_CONTEXT_IS_DESTROYED) ||
        p->cu->CtxGetCurrent(&current) != CUDA_SUCCESS ||
        current == p->context) {
        return driver_free_failed(p, base, res, false);
    }
    CUcontext saved;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return ret;
    }
    ret = driver_free(p, base, false);
    *freed = ret == UMF_RESULT_SUCCESS;
    // A free cannot be undone: once the driver freed, it succeeded, even if
    // the caller's context could not be restored (which is logged).
    (void)cuda_ctx_leave(p->cu, p->context, saved);
    return ret;
}

// A VMM mode's free, with the provider's context current; its fds go
// unserved first.
static umf_result_t free_vmm(cu_provider_t *p, void *base, bool *freed) {
    umf_gpu_ipc_fd_on_free(&p->ipc_fd, base);
    CUcontext saved;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        *freed = false;
        return ret;
    }
    ret = umf_cuda_vmm_free_in_ctx(p, base, false);
    *freed = ret == UMF_RESULT_SUCCESS;
    (void)cuda_ctx_leave(p->cu, p->context, saved); // cannot be undone
    return ret;
}

// Frees a driver allocation. The driver finds an allocation by its address
// whichever context is current (unified addressing: cuMemFree and
// cuMemFreeHost take no context), so the free is first made in the
// caller's context, which saves reading the current context on every free;
// only a failure there pays for the switch (free_retry_in_ctx). *freed
// tells whether the driver released it.
UMF_HOT_INLINE umf_result_t free_in_ctx(cu_provider_t *p, void *base,
                                        bool *freed) {
    if (UMF_UNLIKELY(p->mode != UMF_CUDA_ALLOCATION_MODE_DEFAULT)) {
        return free_vmm(p, base, freed);
    }
    CUresult res = driver_free_call(p, base);
    *freed = res == CUDA_SUCCESS;
    if (UMF_LIKELY(*freed)) {
        return UMF_RESULT_SUCCESS;
    }
    return free_retry_in_ctx(p, base, res, freed);
}

// Alignments above the driver's: over-allocate by alignment - 1 bytes and
// hand out the first aligned address.
static umf_result_t alloc_over_aligned(cu_provider_t *p, size_t size,
                                       size_t alignment, void **result) {
    if (size > SIZE_MAX - (alignment - 1)) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider: %zu bytes aligned to %zu overflow the "
            "address space",
            size, alignment);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    size_t driver_size = size + (alignment - 1);
    void *base = NULL;
    umf_result_t ret = alloc_in_ctx(p, driver_size, &base);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    // Recorded as a piece even when the base happens to be aligned, so
    // that free releases the driver allocation and properties tell the
    // size handed out, not the driver's.
    uintptr_t aligned = umf_align_up((uintptr_t)base, alignment);
    ret = umf_ownership_add_offset(&p->own, (void *)aligned, size, base,
                                   driver_size);
    if (ret != UMF_RESULT_SUCCESS) {
        bool freed;
        (void)free_in_ctx(p, base, &freed);
        return ret;
    }
    umf_gpu_stats_on_alloc(&p->stats, size);
    *result = (void *)aligned;
    return UMF_RESULT_SUCCESS;
}

// A VMM mode's allocation: the size rounded up to the granularity.
static umf_result_t alloc_vmm(cu_provider_t *p, size_t size, size_t alignment,
                              void **result) {
    if (size > SIZE_MAX - (p->min_page_size - 1)) {
        UMF_GPU_LOG_RETURNED("%s alloc: %zu bytes overflow the address space",
                             p->who, size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    size_t mapped = umf_align_up(size, p->min_page_size);
    CUcontext saved;
    void *base = NULL;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ret = umf_cuda_vmm_alloc_in_ctx(p, mapped, alignment, &base);
    umf_result_t left = cuda_ctx_leave(p->cu, p->context, saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (left != UMF_RESULT_SUCCESS) {
        (void)umf_cuda_vmm_free_in_ctx(p, base, true); // ours is current
        return left;
    }
    ret = umf_ownership_add(&p->own, base, size);
    if (ret != UMF_RESULT_SUCCESS) {
        bool freed;
        (void)free_vmm(p, base, &freed);
        return ret;
    }
    umf_gpu_stats_on_alloc(&p->stats, size);
    *result = base;
    return UMF_RESULT_SUCCESS;
}

// What cu_alloc does not do inline: refuse bad arguments, and honour an
// alignment above the driver's (or one the driver's allocation at `base`,
// of `size` bytes, fell short of; NULL: none made yet).
static umf_result_t alloc_unusual(cu_provider_t *p, size_t size,
                                  size_t alignment, void **resultPtr,
                                  void *base) {
    if (resultPtr == NULL || size == 0) {
        UMF_GPU_LOG_RETURNED("CUDA provider alloc: %s",
                             resultPtr == NULL ? "NULL result pointer"
                                               : "size 0");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if ((alignment & (alignment - 1)) == 0 &&
        p->mode != UMF_CUDA_ALLOCATION_MODE_DEFAULT) {
        return alloc_vmm(p, size, alignment, resultPtr);
    }
    if ((alignment & (alignment - 1)) != 0 ||
        alignment > UMF_CUDA_MAX_ALIGNMENT) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider alloc: alignment %zu is not a power of "
            "two up to %zu",
            alignment, UMF_CUDA_MAX_ALIGNMENT);
        return UMF_RESULT_ERROR_INVALID_ALIGNMENT;
    }
    if (base != NULL) {
        // The driver aligned less than documented: over-allocate instead.
        UMF_LOG_WARN("CUDA provider: the driver returned %p, not aligned to "
                     "%zu bytes",
                     base, alignment);
        bool freed;
        umf_result_t ret = free_in_ctx(p, base, &freed);
        if (ret != UMF_RESULT_SUCCESS) {
            return ret;
        }
    }
    return alloc_over_aligned(p, size, alignment, resultPtr);
}

static umf_result_t cu_alloc(void *provider, size_t size, size_t alignment,
                             void **resultPtr) {
    cu_provider_t *p = provider;
    // The common case, in one test: a result pointer, a size, and an
    // alignment that the driver's own covers (0, or a power of two up to
    // CUDA_NATURAL_ALIGNMENT), in the default mode (inline_alignment_end is
    // 0 in a VMM mode, whose allocations take alloc_unusual).
    if (UMF_UNLIKELY(resultPtr == NULL || size == 0 ||
                     alignment >= p->inline_alignment_end ||
                     (alignment & (alignment - 1)) != 0)) {
        return alloc_unusual(p, size, alignment, resultPtr, NULL);
    }
    void *base = NULL;
    umf_result_t ret = alloc_in_ctx(p, size, &base);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return ret;
    }
    size_t mask = alignment - (alignment != 0);
    if (UMF_UNLIKELY(((uintptr_t)base & mask) != 0)) {
        return alloc_unusual(p, size, alignment, resultPtr, base);
    }
    ret = umf_ownership_add(&p->own, base, size);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        bool freed;
        (void)free_in_ctx(p, base, &freed);
        return ret;
    }
    umf_gpu_stats_on_alloc(&p->stats, size);
    *resultPtr = base;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t cu_free(void *provider, void *ptr, size_t size) {
    cu_provider_t *p = provider;
    if (UMF_UNLIKELY(ptr == NULL)) {
        UMF_GPU_LOG_RETURNED("CUDA provider free: NULL pointer");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_ownership_free_t f;
    umf_result_t ret = umf_ownership_free_begin(&p->own, ptr, size, &f);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return ret; // not this provider's, or another size (logged)
    }
    if (UMF_LIKELY(f.driver_base != NULL)) {
        bool freed;
        ret = free_in_ctx(p, f.driver_base, &freed);
        // The driver kept it: so does the record, for a later try.
        umf_ownership_free_end(&p->own, &f, freed);
        if (UMF_UNLIKELY(!freed)) {
            return ret;
        }
    }
    umf_gpu_stats_on_free(&p->stats, f.size);
    return UMF_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------
// Native errors, page sizes, name

static void cu_get_last_native_error(void *provider, const char **ppMessage,
                                     int32_t *pError) {
    (void)provider;
    umf_native_error_get(UMF_GPU_PROVIDER_KIND_CUDA, ppMessage, pError);
}

static umf_result_t cu_get_recommended_page_size(void *provider, size_t size,
                                                 size_t *pageSize) {
    const cu_provider_t *p = provider;
    if (pageSize == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // Small allocations gain nothing from the large recommended pages.
    *pageSize = size < p->recommended_page_size ? p->min_page_size
                                                : p->recommended_page_size;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t cu_get_min_page_size(void *provider, void *ptr,
                                         size_t *pageSize) {
    cu_provider_t *p = provider;
    if (pageSize == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (ptr == NULL) {
        *pageSize = p->min_page_size;
        return UMF_RESULT_SUCCESS;
    }
    uintptr_t base = 0;
    size_t size = 0;
    umf_result_t ret = umf_cuda_query_range(p, ptr, &base, &size);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    // The largest page, at most the granularity, that the driver allocation
    // starts on and that is no larger than the allocation: small
    // allocations share the driver's larger pages with others.
    size_t page = p->min_page_size;
    if (base != 0) {
        size_t base_align = (size_t)(base & (~base + 1));
        page = base_align < page ? base_align : page;
    }
    while (page > 1 && page > size) {
        page >>= 1;
    }
    *pageSize = page;
    return UMF_RESULT_SUCCESS;
}

static const char *cu_get_name(void *provider) {
    return provider ? ((const cu_provider_t *)provider)->name : DEFAULT_NAME;
}

// ---------------------------------------------------------------------------
// Split and merge: the ownership module's rules and pieces. Purge: the driver
// API has no way to drop the pages of a cuMemAlloc allocation, so both purge
// ops are left out and answer UMF_RESULT_ERROR_NOT_SUPPORTED.

static umf_result_t cu_allocation_split(void *provider, void *ptr,
                                        size_t totalSize, size_t firstSize) {
    cu_provider_t *p = provider;
    return umf_ownership_split(&p->own, ptr, totalSize, firstSize);
}

static umf_result_t cu_allocation_merge(void *provider, void *lowPtr,
                                        void *highPtr, size_t totalSize) {
    cu_provider_t *p = provider;
    return umf_ownership_merge(&p->own, lowPtr, highPtr, totalSize);
}

// ---------------------------------------------------------------------------
// GPU extensions

static umf_gpu_stats_t *cu_stats(void *provider) {
    return &((cu_provider_t *)provider)->stats;
}

static umf_result_t
cu_get_allocation_properties(void *provider, const void *ptr,
                             umf_gpu_allocation_properties_t *props) {
    cu_provider_t *p = provider;
    CUcontext saved, owner = NULL;
    uintptr_t base = 0;
    size_t size = 0;
    unsigned long long id = 0;
    umf_result_t ret = cuda_ctx_enter(p->cu, p->context, &saved);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ret = umf_cuda_query_range_in_ctx(p, ptr, &base, &size);
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umf_cuda_pointer_attribute(
            p->cu, &id, CU_POINTER_ATTRIBUTE_BUFFER_ID, ptr, "BUFFER_ID");
    }
    // VMM memory belongs to no context: the ownership record alone says
    // whose it is.
    owner = p->context;
    if (ret == UMF_RESULT_SUCCESS &&
        p->mode == UMF_CUDA_ALLOCATION_MODE_DEFAULT) {
        ret = umf_cuda_pointer_attribute(
            p->cu, &owner, CU_POINTER_ATTRIBUTE_CONTEXT, ptr, "CONTEXT");
    }
    umf_result_t left = cuda_ctx_leave(p->cu, p->context, saved);
    ret = ret != UMF_RESULT_SUCCESS ? ret : left;
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (owner != p->context) {
        UMF_GPU_LOG_RETURNED(
            "CUDA provider '%s': %p belongs to context %p, not to "
            "the provider's %p",
            p->name, ptr, (void *)owner, (void *)p->context);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_alloc_piece_info_t held;
    ret = umf_ownership_find(&p->own, (void *)base, ptr, &held);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    props->memory_type = p->memory_type;
    props->base = held.ptr;
    props->size = held.size;
    props->device = (void *)(intptr_t)p->device;
    props->context = (void *)p->context;
    props->driver_id = id;
    return UMF_RESULT_SUCCESS;
}

static int cu_allocation_mode(void *provider) {
    return (int)((const cu_provider_t *)provider)->mode;
}

const umf_gpu_provider_class_t umf_gpu_provider_class_cuda = {
    .kind = UMF_GPU_PROVIDER_KIND_CUDA,
    .initialize = cu_initialize,
    .stats = cu_stats,
    .get_allocation_properties = cu_get_allocation_properties,
    .allocation_mode = cu_allocation_mode,
};

// ---------------------------------------------------------------------------
// The ops table

static const umf_memory_provider_ops_t cu_ops = {
    .version = UMF_VERSION_CURRENT,
    .initialize = cu_initialize,
    .finalize = cu_finalize,
    .alloc = cu_alloc,
    .free = cu_free,
    .get_last_native_error = cu_get_last_native_error,
    .get_recommended_page_size = cu_get_recommended_page_size,
    .get_min_page_size = cu_get_min_page_size,
    .get_name = cu_get_name,
    .ext =
        {
            .purge_lazy = NULL,
            .purge_force = NULL,
            .allocation_merge = cu_allocation_merge,
            .allocation_split = cu_allocation_split,
        },
    .ipc =
        {
            .get_ipc_handle_size = umf_cuda_ipc_get_handle_size,
            .get_ipc_handle = umf_cuda_ipc_get_handle,
            .put_ipc_handle = umf_cuda_ipc_put_handle,
            .open_ipc_handle = umf_cuda_ipc_open_handle,
            .close_ipc_handle = umf_cuda_ipc_close_handle,
        },
};

UMF_EXPORT const umf_memory_provider_ops_t *umfCUDAMemoryProviderOps(void) {
    return &cu_ops;
}
