// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero memory provider: parameters, initialisation, allocation and
// free, residency, page sizes, split/merge, allocation properties and native
// errors. IPC is in provider_level_zero_ipc.c.
//
// Allocation: zeMemAllocDevice (DEVICE), zeMemAllocHost (HOST),
// zeMemAllocShared (SHARED), with the configured ordinal, any power-of-two
// alignment (the driver honours it), and relaxed allocation limits chained
// when the size exceeds the device's maxMemAllocSize. Every allocation is
// recorded in the ownership module shared with the CUDA provider
// (ownership.h: the rules of free, split, merge and lookups), and made
// resident on the resident devices; umfLevelZeroMemoryProviderResident
// DeviceChange walks what it recorded, in batches, while allocations and
// frees go on.
//
// Resident devices: DEVICE and SHARED allocations are made resident on each
// (zeContextMakeMemoryResident) when allocated and when a device is added,
// and evicted when it is removed. HOST memory lives in system memory that
// every device of the context reaches; its provider keeps the list but makes
// no residency calls (the emulated driver refuses them for host memory).
//
// Free: zeMemFree, or zeMemFreeExt with the policy's flag (BLOCKING_FREE,
// DEFER_FREE); initialize probes that the driver supports it.
//
// Purge: Level Zero has no call that drops the pages of a USM allocation, so
// purge_lazy and purge_force are left out and answer
// UMF_RESULT_ERROR_NOT_SUPPORTED.

#include "provider_level_zero_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_log.h"
#include "gpu_params.h"
#include "gpu_provider.h"
#include "memory_provider_internal.h"
#include "native_error.h"
#include "provider_kind.h"
#include "util_umf_log.h"
#include "ze/ze_result.h"

#define DEFAULT_NAME "LEVEL_ZERO"

struct umf_level_zero_memory_provider_params_t {
    ze_context_handle_t context;
    ze_device_handle_t device;
    umf_usm_memory_type_t memory_type;
    ze_device_handle_t *resident; // owned copy
    uint32_t resident_count;
    umf_level_zero_memory_provider_free_policy_t free_policy;
    uint32_t ordinal;
    char name[UMF_ZE_NAME_MAX];
    umf_gpu_ipc_fd_params_t ipc_fd;
};

// ---------------------------------------------------------------------------
// Failures

umf_result_t umf_ze_call_failed(ze_result_t res, const char *fmt, ...) {
    char result[160];
    umf_ze_result_describe(res, result, sizeof(result));
    // The driver's own words, where the loader lets us ask (Level Zero 1.6).
    const umf_ze_loader_t *ze = NULL;
    const char *own = NULL;
    if (umf_ze_loader_get(&ze) == UMF_RESULT_SUCCESS &&
        ze->error_driver != NULL &&
        ze->zeDriverGetLastErrorDescription(ze->error_driver, &own) !=
            ZE_RESULT_SUCCESS) {
        own = NULL;
    }
    va_list args;
    va_start(args, fmt);
    umf_native_error_report_v(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, (int32_t)res,
                              result, own, fmt, args);
    va_end(args);
    return umf_ze_result_to_umf(res);
}

// ---------------------------------------------------------------------------
// Parameters

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsCreate(
    umf_level_zero_memory_provider_params_handle_t *hParams) {
    if (hParams == NULL) {
        UMF_GPU_LOG_RETURNED("%s: NULL hParams", __func__);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_level_zero_memory_provider_params_handle_t params =
        calloc(1, sizeof(*params));
    if (params == NULL) {
        UMF_GPU_LOG_RETURNED("%s: out of host memory", __func__);
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    params->memory_type = UMF_MEMORY_TYPE_DEVICE;
    params->free_policy = UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT;
    snprintf(params->name, sizeof(params->name), "%s", DEFAULT_NAME);
    *hParams = params;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsDestroy(
    umf_level_zero_memory_provider_params_handle_t hParams) {
    UMF_GPU_CHECK_PARAMS(hParams);
    free(hParams->resident);
    free(hParams);
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetContext(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_context_handle_t hContext) {
    UMF_GPU_CHECK_PARAMS(hParams);
    if (hContext == NULL) {
        UMF_GPU_LOG_RETURNED("%s: NULL context", __func__);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    hParams->context = hContext;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetDevice(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t hDevice) {
    UMF_GPU_CHECK_PARAMS(hParams);
    hParams->device = hDevice; // NULL: no device (HOST memory)
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetMemoryType(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType) {
    UMF_GPU_CHECK_PARAMS(hParams);
    umf_result_t ret = umf_gpu_params_check_memory_type(__func__, memoryType);
    if (ret == UMF_RESULT_SUCCESS) {
        hParams->memory_type = memoryType;
    }
    return ret;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetResidentDevices(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t *hDevices, uint32_t deviceCount) {
    UMF_GPU_CHECK_PARAMS(hParams);
    if (deviceCount > 0 && hDevices == NULL) {
        UMF_GPU_LOG_RETURNED("%s: %u devices but a NULL array", __func__,
                             deviceCount);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < deviceCount; i++) {
        if (hDevices[i] == NULL) {
            UMF_GPU_LOG_RETURNED("%s: device %u is NULL", __func__, i);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        for (uint32_t j = 0; j < i; j++) {
            if (hDevices[j] == hDevices[i]) {
                UMF_GPU_LOG_RETURNED(
                    "%s: device %p is listed twice (%u and %u)", __func__,
                    (void *)hDevices[i], j, i);
                return UMF_RESULT_ERROR_INVALID_ARGUMENT;
            }
        }
    }
    ze_device_handle_t *copy = NULL;
    if (deviceCount > 0) {
        copy = malloc(sizeof(*copy) * deviceCount);
        if (copy == NULL) {
            UMF_GPU_LOG_RETURNED("%s: out of host memory", __func__);
            return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(copy, hDevices, sizeof(*copy) * deviceCount);
    }
    free(hParams->resident);
    hParams->resident = copy;
    hParams->resident_count = deviceCount;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetFreePolicy(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_level_zero_memory_provider_free_policy_t policy) {
    UMF_GPU_CHECK_PARAMS(hParams);
    switch (policy) {
    case UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT:
    case UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE:
    case UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE:
        hParams->free_policy = policy;
        return UMF_RESULT_SUCCESS;
    default:
        UMF_GPU_LOG_RETURNED("%s: %d is not a free policy", __func__,
                             (int)policy);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(
    umf_level_zero_memory_provider_params_handle_t hParams,
    uint32_t deviceOrdinal) {
    UMF_GPU_CHECK_PARAMS(hParams);
    hParams->ordinal = deviceOrdinal;
    return UMF_RESULT_SUCCESS;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetName(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *name) {
    UMF_GPU_CHECK_PARAMS(hParams);
    return umf_gpu_params_set_name(__func__, hParams->name,
                                   sizeof(hParams->name), name);
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetIpcFdTransfer(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_gpu_ipc_fd_transfer_t transfer) {
    UMF_GPU_CHECK_PARAMS(hParams);
    return umf_gpu_ipc_fd_set_transfer(__func__, &hParams->ipc_fd, transfer);
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetIpcAllowedUids(
    umf_level_zero_memory_provider_params_handle_t hParams,
    const uint32_t *uids, size_t count) {
    UMF_GPU_CHECK_PARAMS(hParams);
    return umf_gpu_ipc_fd_set_uids(__func__, &hParams->ipc_fd, uids, count);
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderParamsSetIpcSocketDirectory(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *dir) {
    UMF_GPU_CHECK_PARAMS(hParams);
    return umf_gpu_ipc_fd_set_socket_dir(__func__, &hParams->ipc_fd, dir);
}

// ---------------------------------------------------------------------------
// Allocation and free (the driver calls)

static ze_driver_memory_free_policy_ext_flags_t
free_policy_flag(umf_level_zero_memory_provider_free_policy_t policy) {
    switch (policy) {
    case UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE:
        return ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
    case UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE:
        return ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
    default:
        return 0;
    }
}

// The allocation call of the provider's memory type.
UMF_HOT_INLINE umf_result_t driver_alloc(const ze_provider_t *p, size_t size,
                                         size_t alignment, void **ptr) {
    const umf_ze_loader_t *ze = p->ze;
    // The provider's descriptors, made once; a size above maxMemAllocSize
    // chains the relaxed limits to a copy.
    const ze_device_mem_alloc_desc_t *device_desc = &p->device_desc;
    const ze_host_mem_alloc_desc_t *host_desc = &p->host_desc;
    ze_relaxed_allocation_limits_exp_desc_t relaxed;
    ze_device_mem_alloc_desc_t relaxed_desc;
    if (UMF_UNLIKELY(size > p->max_alloc_size)) {
        relaxed = (ze_relaxed_allocation_limits_exp_desc_t){
            .stype = ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC,
            .pNext = NULL,
            .flags = ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE,
        };
        relaxed_desc = p->device_desc;
        relaxed_desc.pNext = &relaxed;
        device_desc = &relaxed_desc;
    }
    ze_result_t res;
    switch (p->memory_type) {
    case UMF_MEMORY_TYPE_DEVICE:
        res = ze->zeMemAllocDevice(p->context, device_desc, size, alignment,
                                   p->device, ptr);
        if (UMF_LIKELY(res == ZE_RESULT_SUCCESS)) {
            return UMF_RESULT_SUCCESS;
        }
        return umf_ze_call_failed(res,
                                  "zeMemAllocDevice(size=%zu, alignment=%zu, "
                                  "ordinal=%u%s)",
                                  size, alignment, p->ordinal,
                                  device_desc->pNext ? ", relaxed limits" : "");
    case UMF_MEMORY_TYPE_HOST:
        res = ze->zeMemAllocHost(p->context, host_desc, size, alignment, ptr);
        if (UMF_LIKELY(res == ZE_RESULT_SUCCESS)) {
            return UMF_RESULT_SUCCESS;
        }
        return umf_ze_call_failed(
            res, "zeMemAllocHost(size=%zu, alignment=%zu)", size, alignment);
    default: // SHARED; initialize allows nothing else
        res = ze->zeMemAllocShared(p->context, device_desc, host_desc, size,
                                   alignment, p->device, ptr);
        if (UMF_LIKELY(res == ZE_RESULT_SUCCESS)) {
            return UMF_RESULT_SUCCESS;
        }
        return umf_ze_call_failed(res,
                                  "zeMemAllocShared(size=%zu, alignment=%zu, "
                                  "ordinal=%u%s)",
                                  size, alignment, p->ordinal,
                                  device_desc->pNext ? ", relaxed limits" : "");
    }
}

// The free call of the policy `flags` (0: zeMemFree). Stores the native
// error on failure, unless `quiet` (when undoing after another failure,
// whose error is the one to report).
UMF_HOT_INLINE umf_result_t
driver_free(const ze_provider_t *p, void *ptr,
            ze_driver_memory_free_policy_ext_flags_t flags, bool quiet) {
    ze_result_t res;
    if (UMF_LIKELY(flags == 0)) {
        res = p->ze->zeMemFree(p->context, ptr);
    } else {
        ze_memory_free_ext_desc_t desc = {
            .stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
            .pNext = NULL,
            .freePolicy = flags,
        };
        res = p->ze->zeMemFreeExt(p->context, &desc, ptr);
    }
    if (UMF_LIKELY(res == ZE_RESULT_SUCCESS)) {
        return UMF_RESULT_SUCCESS;
    }
    const char *call = flags == 0 ? "zeMemFree" : "zeMemFreeExt";
    if (quiet) {
        UMF_LOG_ERROR("Level Zero provider: undoing an allocation, "
                      "%s(ptr=%p) failed (0x%x); the memory leaks",
                      call, ptr, (unsigned)res);
        return umf_ze_result_to_umf(res);
    }
    return umf_ze_call_failed(res, "%s(ptr=%p, policy=0x%x)", call, ptr,
                              (unsigned)flags);
}

// Evicts [ptr, ptr + size) from devices[0 .. count - 1]; for undoing, so
// failures are only logged.
static void evict_quietly(const ze_provider_t *p, void *ptr, size_t size,
                          const ze_device_handle_t *devices, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        ze_result_t res =
            p->ze->zeContextEvictMemory(p->context, devices[i], ptr, size);
        if (res != ZE_RESULT_SUCCESS) {
            UMF_LOG_ERROR("Level Zero provider: undoing residency, "
                          "zeContextEvictMemory(device=%p, ptr=%p) failed "
                          "(0x%x)",
                          (void *)devices[i], ptr, (unsigned)res);
        }
    }
}

// The ownership module's residency callback: makes a new allocation (or
// one put back) resident on every device of generation gen's list.
static umf_result_t make_resident_on_all(void *arg, void *ptr, size_t size,
                                         uint64_t gen) {
    const ze_provider_t *p = arg;
    if (p->memory_type == UMF_MEMORY_TYPE_HOST) {
        return UMF_RESULT_SUCCESS; // see the top of this file
    }
    const ze_device_handle_t *devices = p->res[gen & 1].devices;
    uint32_t count = p->res[gen & 1].count;
    for (uint32_t i = 0; i < count; i++) {
        ze_result_t res = p->ze->zeContextMakeMemoryResident(
            p->context, devices[i], ptr, size);
        if (res != ZE_RESULT_SUCCESS) {
            umf_result_t ret = umf_ze_call_failed(
                res, "zeContextMakeMemoryResident(device=%p, ptr=%p, size=%zu)",
                (void *)devices[i], ptr, size);
            evict_quietly(p, ptr, size, devices, i);
            return ret;
        }
    }
    return UMF_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------
// Initialisation

static umf_result_t
check_params(const struct umf_level_zero_memory_provider_params_t *in) {
    if (in->context == NULL) {
        UMF_GPU_LOG_RETURNED("Level Zero provider: no context set "
                             "(umfLevelZeroMemoryProviderParamsSetContext)");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    switch (in->memory_type) {
    case UMF_MEMORY_TYPE_HOST:
        if (in->device != NULL) {
            UMF_GPU_LOG_RETURNED(
                "Level Zero provider: HOST memory takes no device, "
                "but device %p is set",
                (void *)in->device);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        break;
    case UMF_MEMORY_TYPE_DEVICE:
    case UMF_MEMORY_TYPE_SHARED:
        if (in->device == NULL) {
            UMF_GPU_LOG_RETURNED(
                "Level Zero provider: %s memory needs a device "
                "(umfLevelZeroMemoryProviderParamsSetDevice)",
                umf_gpu_memory_type_name(in->memory_type));
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        break;
    default:
        UMF_GPU_LOG_RETURNED("Level Zero provider: memory type %s (%d) is not "
                             "HOST, DEVICE or SHARED",
                             umf_gpu_memory_type_name(in->memory_type),
                             (int)in->memory_type);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if ((in->resident_count > 0) != (in->resident != NULL)) {
        UMF_GPU_LOG_RETURNED(
            "Level Zero provider: %u resident devices but %s array",
            in->resident_count, in->resident ? "an" : "no");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

// A probe allocation the driver failed to free: the page size is known, so
// initialisation goes on, and the probe is freed again when the provider is
// finalized (or right away if initialisation fails later).
static void keep_probe(ze_provider_t *p, void *probe) {
    UMF_LOG_WARN("Level Zero provider: freeing the probe allocation %p "
                 "failed; trying again at finalize",
                 probe);
    p->probe = probe;
}

static void free_probe(ze_provider_t *p) {
    if (p->probe != NULL) {
        if (driver_free(p, p->probe, 0, false) == UMF_RESULT_SUCCESS) {
            p->probe = NULL;
        }
    }
}

// Reads maxMemAllocSize, and the page size and free-policy support from a
// probe allocation.
static umf_result_t query_driver(ze_provider_t *p) {
    const umf_ze_loader_t *ze = p->ze;
    p->max_alloc_size = SIZE_MAX;
    if (p->device != NULL) {
        ze_device_properties_t props = {
            .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
            .pNext = NULL,
        };
        ze_result_t res = ze->zeDeviceGetProperties(p->device, &props);
        if (res != ZE_RESULT_SUCCESS) {
            return umf_ze_call_failed(res, "zeDeviceGetProperties(device=%p)",
                                      (void *)p->device);
        }
        if (props.maxMemAllocSize > 0 && props.maxMemAllocSize < SIZE_MAX) {
            p->max_alloc_size = (size_t)props.maxMemAllocSize;
        }
    }

    void *probe = NULL;
    umf_result_t ret = driver_alloc(p, 1, 0, &probe);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ze_memory_allocation_properties_t props = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
        .pNext = NULL,
    };
    ze_result_t res =
        ze->zeMemGetAllocProperties(p->context, probe, &props, NULL);
    if (res != ZE_RESULT_SUCCESS) {
        ret = umf_ze_call_failed(res, "zeMemGetAllocProperties(ptr=%p)", probe);
        (void)driver_free(p, probe, 0, true);
        return ret;
    }
    p->min_page_size = props.pageSize > 0 ? (size_t)props.pageSize : 4096;

    if (p->free_policy == 0) {
        if (driver_free(p, probe, 0, false) != UMF_RESULT_SUCCESS) {
            keep_probe(p, probe);
        }
        return UMF_RESULT_SUCCESS;
    }
    // The policy needs zeMemFreeExt in the loader and in the driver (the
    // loader answers ZE_RESULT_ERROR_UNINITIALIZED for a driver without it).
    if (ze->zeMemFreeExt == NULL) {
        UMF_GPU_LOG_RETURNED(
            "Level Zero provider: a free policy other than DEFAULT "
            "needs zeMemFreeExt, which the Level Zero loader lacks");
        (void)driver_free(p, probe, 0, true);
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    ret = driver_free(p, probe, p->free_policy, false);
    if (ret == UMF_RESULT_ERROR_NOT_SUPPORTED ||
        ret == UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE) {
        UMF_GPU_LOG_RETURNED(
            "Level Zero provider: the driver does not support free "
            "policy 0x%x (zeMemFreeExt)",
            (unsigned)p->free_policy);
        if (driver_free(p, probe, 0, true) != UMF_RESULT_SUCCESS) {
            keep_probe(p, probe);
        }
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    if (ret != UMF_RESULT_SUCCESS) {
        keep_probe(p, probe);
    }
    return UMF_RESULT_SUCCESS;
}

static umf_result_t ze_initialize(void *params, void **provider) {
    const struct umf_level_zero_memory_provider_params_t *in = params;
    if (in == NULL || provider == NULL) {
        UMF_GPU_LOG_RETURNED("Level Zero provider: NULL %s",
                             in == NULL ? "params" : "provider");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret = check_params(in);
    if (ret == UMF_RESULT_SUCCESS) {
        ret = umf_gpu_ipc_fd_check_env("Level Zero provider");
    }
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    const umf_ze_loader_t *ze = NULL;
    ret = umf_ze_loader_get(&ze);
    if (ret != UMF_RESULT_SUCCESS) {
        return umf_native_error_set_load_failure(
            UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, ret, umf_ze_loader_error());
    }
    ze_provider_t *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        UMF_GPU_LOG_RETURNED("Level Zero provider: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->ze = ze;
    p->device_desc = (ze_device_mem_alloc_desc_t){
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
        .pNext = NULL,
        .flags = 0,
        .ordinal = in->ordinal,
    };
    p->host_desc = (ze_host_mem_alloc_desc_t){
        .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
        .pNext = NULL,
        .flags = 0,
    };
    p->context = in->context;
    p->device = in->device;
    p->memory_type = in->memory_type;
    p->ordinal = in->ordinal;
    p->free_policy_param = in->free_policy;
    p->free_policy = free_policy_flag(in->free_policy);
    p->ipc_fd.params = in->ipc_fd;
    snprintf(p->name, sizeof(p->name), "%s", in->name);
    snprintf(p->who, sizeof(p->who), "Level Zero provider '%s'", p->name);
    if (in->resident_count > 0) {
        p->res[0].devices =
            malloc(sizeof(*p->res[0].devices) * in->resident_count);
        if (p->res[0].devices == NULL) {
            UMF_GPU_LOG_RETURNED("Level Zero provider: out of host memory");
            ret = UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            goto err_free;
        }
        memcpy(p->res[0].devices, in->resident,
               sizeof(*p->res[0].devices) * in->resident_count);
        p->res[0].count = p->res[0].capacity = in->resident_count;
    }

    ret = query_driver(p);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }
    ret = umf_ownership_init(&p->own, p->who, make_resident_on_all, p);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }
    // New allocations are made resident while the list has devices.
    umf_ownership_residency_end(
        &p->own, p->res[0].count > 0 && p->memory_type != UMF_MEMORY_TYPE_HOST);
    ret = umf_gpu_stats_init(&p->stats);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_own;
    }
    if (pthread_mutex_init(&p->res_lock, NULL) != 0) {
        UMF_GPU_LOG_RETURNED("Level Zero provider: cannot make a mutex");
        ret = UMF_RESULT_ERROR_OUT_OF_RESOURCES;
        goto err_stats;
    }
    UMF_LOG_INFO("Level Zero provider '%s': %s memory, context %p, device %p, "
                 "ordinal %u, %u resident devices, pages of %zu bytes",
                 p->name, umf_gpu_memory_type_name(p->memory_type),
                 (void *)p->context, (void *)p->device, p->ordinal,
                 p->res[0].count, p->min_page_size);
    *provider = p;
    return UMF_RESULT_SUCCESS;

err_stats:
    umf_gpu_stats_fini(&p->stats);
err_own:
    umf_ownership_fini(&p->own);
err_free:
    free_probe(p);
    free(p->res[0].devices);
    free(p);
    return ret;
}

static void ze_finalize(void *provider) {
    ze_provider_t *p = provider;
    if (p == NULL) {
        return;
    }
    size_t live = umf_ownership_count(&p->own);
    if (live > 0) {
        UMF_LOG_WARN("Level Zero provider '%s': finalized with %zu "
                     "allocations not freed; they stay with the driver",
                     p->name, live);
    }
    umf_gpu_ipc_fd_finalize(&p->ipc_fd);
    free_probe(p);
    pthread_mutex_destroy(&p->res_lock);
    umf_gpu_stats_fini(&p->stats);
    umf_ownership_fini(&p->own);
    free(p->res[0].devices);
    free(p->res[1].devices);
    free(p);
}

// ---------------------------------------------------------------------------
// Allocation and free (the ops)

static umf_result_t ze_alloc(void *provider, size_t size, size_t alignment,
                             void **resultPtr) {
    ze_provider_t *p = provider;
    if (UMF_UNLIKELY(resultPtr == NULL || size == 0)) {
        UMF_GPU_LOG_RETURNED("Level Zero provider alloc: %s",
                             resultPtr == NULL ? "NULL result pointer"
                                               : "size 0");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (UMF_UNLIKELY((alignment & (alignment - 1)) != 0)) {
        UMF_GPU_LOG_RETURNED(
            "Level Zero provider alloc: alignment %zu is not a "
            "power of two",
            alignment);
        return UMF_RESULT_ERROR_INVALID_ALIGNMENT;
    }
    void *ptr = NULL;
    umf_result_t ret = driver_alloc(p, size, alignment, &ptr);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return ret;
    }
    ret = umf_ownership_add(&p->own, ptr, size);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        (void)driver_free(p, ptr, 0, true);
        return ret;
    }
    umf_gpu_stats_on_alloc(&p->stats, size);
    *resultPtr = ptr;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t ze_free(void *provider, void *ptr, size_t size) {
    ze_provider_t *p = provider;
    if (UMF_UNLIKELY(ptr == NULL)) {
        UMF_GPU_LOG_RETURNED("Level Zero provider free: NULL pointer");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_ownership_free_t f;
    umf_result_t ret = umf_ownership_free_begin(&p->own, ptr, size, &f);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return ret; // not this provider's, or another size (logged)
    }
    if (UMF_LIKELY(f.driver_base != NULL)) {
        umf_gpu_ipc_fd_on_free(&p->ipc_fd, f.driver_base);
        ret = driver_free(p, f.driver_base, p->free_policy, false);
        // The driver kept it: so does the record, for a later try.
        umf_ownership_free_end(&p->own, &f, ret == UMF_RESULT_SUCCESS);
    }
    if (UMF_LIKELY(ret == UMF_RESULT_SUCCESS)) {
        umf_gpu_stats_on_free(&p->stats, f.size);
    }
    return ret;
}

// ---------------------------------------------------------------------------
// Native errors, page sizes, name

static void ze_get_last_native_error(void *provider, const char **ppMessage,
                                     int32_t *pError) {
    (void)provider;
    umf_native_error_get(UMF_GPU_PROVIDER_KIND_LEVEL_ZERO, ppMessage, pError);
}

static umf_result_t ze_get_recommended_page_size(void *provider, size_t size,
                                                 size_t *pageSize) {
    const ze_provider_t *p = provider;
    (void)size; // the driver uses one page size for every size it is asked
    if (pageSize == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    *pageSize = p->min_page_size;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t ze_get_min_page_size(void *provider, void *ptr,
                                         size_t *pageSize) {
    const ze_provider_t *p = provider;
    if (pageSize == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (ptr == NULL) {
        *pageSize = p->min_page_size;
        return UMF_RESULT_SUCCESS;
    }
    ze_memory_allocation_properties_t props = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
        .pNext = NULL,
    };
    ze_result_t res =
        p->ze->zeMemGetAllocProperties(p->context, ptr, &props, NULL);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemGetAllocProperties(ptr=%p)", ptr);
    }
    if (props.type == ZE_MEMORY_TYPE_UNKNOWN) {
        UMF_GPU_LOG_RETURNED(
            "Level Zero provider '%s': %p is not memory of its "
            "context",
            p->name, ptr);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    *pageSize = props.pageSize > 0 ? (size_t)props.pageSize : p->min_page_size;
    return UMF_RESULT_SUCCESS;
}

static const char *ze_get_name(void *provider) {
    const ze_provider_t *p = provider;
    return p != NULL ? p->name : DEFAULT_NAME;
}

// ---------------------------------------------------------------------------
// Split and merge: the ownership module's rules and pieces.

static umf_result_t ze_allocation_split(void *provider, void *ptr,
                                        size_t totalSize, size_t firstSize) {
    ze_provider_t *p = provider;
    return umf_ownership_split(&p->own, ptr, totalSize, firstSize);
}

static umf_result_t ze_allocation_merge(void *provider, void *lowPtr,
                                        void *highPtr, size_t totalSize) {
    ze_provider_t *p = provider;
    return umf_ownership_merge(&p->own, lowPtr, highPtr, totalSize);
}

// ---------------------------------------------------------------------------
// Allocation properties and the GPU extensions

umf_result_t umf_ze_find_allocation(ze_provider_t *p, const void *ptr,
                                    umf_alloc_piece_info_t *held, void **base,
                                    size_t *size,
                                    ze_memory_allocation_properties_t *props,
                                    ze_device_handle_t *device) {
    ze_result_t res = p->ze->zeMemGetAddressRange(p->context, ptr, base, size);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemGetAddressRange(ptr=%p)", ptr);
    }
    umf_result_t ret = umf_ownership_find(&p->own, *base, ptr, held);
    if (ret != UMF_RESULT_SUCCESS || props == NULL) {
        return ret;
    }
    props->stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
    props->pNext = NULL;
    res = p->ze->zeMemGetAllocProperties(p->context, *base, props, device);
    if (res != ZE_RESULT_SUCCESS) {
        return umf_ze_call_failed(res, "zeMemGetAllocProperties(ptr=%p)",
                                  *base);
    }
    return UMF_RESULT_SUCCESS;
}

static umf_gpu_stats_t *ze_stats(void *provider) {
    return &((ze_provider_t *)provider)->stats;
}

static umf_result_t
ze_get_allocation_properties(void *provider, const void *ptr,
                             umf_gpu_allocation_properties_t *out) {
    ze_provider_t *p = provider;
    void *base = NULL;
    size_t size = 0;
    umf_alloc_piece_info_t held;
    ze_memory_allocation_properties_t props;
    ze_device_handle_t device = NULL;
    umf_result_t ret =
        umf_ze_find_allocation(p, ptr, &held, &base, &size, &props, &device);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    out->base = held.ptr;
    out->size = held.size;
    out->memory_type = p->memory_type;
    out->device = p->memory_type == UMF_MEMORY_TYPE_HOST ? NULL
                  : device != NULL                       ? (void *)device
                                                         : (void *)p->device;
    out->context = (void *)p->context;
    out->driver_id = props.id;
    return UMF_RESULT_SUCCESS;
}

const umf_gpu_provider_class_t umf_gpu_provider_class_level_zero = {
    .kind = UMF_GPU_PROVIDER_KIND_LEVEL_ZERO,
    .initialize = ze_initialize,
    .stats = ze_stats,
    .get_allocation_properties = ze_get_allocation_properties,
};

// ---------------------------------------------------------------------------
// Resident devices

typedef struct residency_walk_t {
    const ze_provider_t *provider;
    ze_device_handle_t device;
    bool evict;
} residency_walk_t;

static umf_result_t change_residency(void *arg, uint64_t key, uint64_t size) {
    const residency_walk_t *w = arg;
    const ze_provider_t *p = w->provider;
    void *ptr = (void *)(uintptr_t)key;
    ze_result_t res;
    if (w->evict) {
        res = p->ze->zeContextEvictMemory(p->context, w->device, ptr, size);
        if (res != ZE_RESULT_SUCCESS) {
            return umf_ze_call_failed(
                res, "zeContextEvictMemory(device=%p, ptr=%p, size=%zu)",
                (void *)w->device, ptr, (size_t)size);
        }
    } else {
        res = p->ze->zeContextMakeMemoryResident(p->context, w->device, ptr,
                                                 size);
        if (res != ZE_RESULT_SUCCESS) {
            return umf_ze_call_failed(
                res, "zeContextMakeMemoryResident(device=%p, ptr=%p, size=%zu)",
                (void *)w->device, ptr, (size_t)size);
        }
    }
    return UMF_RESULT_SUCCESS;
}

// Undoes change_residency for what a failed change did; failures are only
// logged (the first error is the one reported).
static umf_result_t undo_residency(void *arg, uint64_t key, uint64_t size) {
    const residency_walk_t *w = arg;
    const ze_provider_t *p = w->provider;
    void *ptr = (void *)(uintptr_t)key;
    ze_result_t res =
        w->evict
            ? p->ze->zeContextMakeMemoryResident(p->context, w->device, ptr,
                                                 size)
            : p->ze->zeContextEvictMemory(p->context, w->device, ptr, size);
    if (res != ZE_RESULT_SUCCESS) {
        UMF_LOG_ERROR("Level Zero provider: undoing a residency change of %p "
                      "on device %p failed (0x%x)",
                      ptr, (void *)w->device, (unsigned)res);
    }
    return UMF_RESULT_SUCCESS;
}

// Writes the list of generation `gen` (the next one): the current list with
// hDevice added or removed (at `at`). Under res_lock.
static umf_result_t next_list(ze_provider_t *p, uint64_t gen,
                              ze_device_handle_t hDevice, bool isAdding,
                              uint32_t at) {
    const umf_ze_resident_list_t *cur = &p->res[(gen - 1) & 1];
    umf_ze_resident_list_t *next = &p->res[gen & 1];
    uint32_t need = cur->count + (isAdding ? 1 : 0);
    if (need > next->capacity) {
        uint32_t capacity = need < 4 ? 4 : 2 * need;
        ze_device_handle_t *grown =
            realloc(next->devices, sizeof(*grown) * capacity);
        if (grown == NULL) {
            UMF_GPU_LOG_RETURNED(
                "%s: resident device change: out of host memory", p->who);
            return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        next->devices = grown;
        next->capacity = capacity;
    }
    next->count = 0;
    for (uint32_t i = 0; i < cur->count; i++) {
        if (isAdding || i != at) {
            next->devices[next->count++] = cur->devices[i];
        }
    }
    if (isAdding) {
        next->devices[next->count++] = hDevice;
    }
    return UMF_RESULT_SUCCESS;
}

// The change: the new list becomes the next generation's, which every new
// allocation follows from then on; the walk brings every older allocation
// to it, in batches, holding no lock over a driver call. If it fails, a
// generation with the old list again undoes what was done.
static umf_result_t change_locked(ze_provider_t *p, ze_device_handle_t hDevice,
                                  bool isAdding) {
    uint64_t gen = p->res_gen;
    const umf_ze_resident_list_t *cur = &p->res[gen & 1];
    uint32_t at = cur->count;
    for (uint32_t i = 0; i < cur->count; i++) {
        if (cur->devices[i] == hDevice) {
            at = i;
        }
    }
    if (isAdding == (at < cur->count)) {
        UMF_GPU_LOG_RETURNED(
            "umfLevelZeroMemoryProviderResidentDeviceChange: device "
            "%p is %s resident device of %s",
            (void *)hDevice, isAdding ? "already a" : "not a", p->who);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret = next_list(p, gen + 1, hDevice, isAdding, at);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    bool host = p->memory_type == UMF_MEMORY_TYPE_HOST;
    p->res_gen = umf_ownership_residency_begin(&p->own);
    residency_walk_t walk = {p, hDevice, !isAdding};
    if (!host) {
        ret = umf_ownership_residency_walk(&p->own, change_residency, &walk);
    }
    if (ret == UMF_RESULT_SUCCESS) {
        umf_ownership_residency_end(&p->own,
                                    !host && p->res[p->res_gen & 1].count > 0);
        return ret;
    }
    // The list of the generation after is the old one, untouched.
    p->res_gen = umf_ownership_residency_begin(&p->own);
    (void)umf_ownership_residency_walk(&p->own, undo_residency, &walk);
    umf_ownership_residency_end(&p->own, p->res[p->res_gen & 1].count > 0);
    return ret;
}

UMF_EXPORT umf_result_t umfLevelZeroMemoryProviderResidentDeviceChange(
    umf_memory_provider_handle_t hProvider, ze_device_handle_t hDevice,
    bool isAdding) {
    const umf_memory_provider_ops_t *ops =
        umf_memory_provider_get_ops(hProvider);
    if (ops == NULL || ops->initialize != ze_initialize || hDevice == NULL) {
        UMF_GPU_LOG_RETURNED("%s: %s", __func__,
                             hDevice == NULL     ? "NULL device"
                             : hProvider == NULL ? "NULL provider handle"
                             : ops == NULL
                                 ? "not a provider handle of umf-gpu's "
                                   "core (one that another UMF core made, "
                                   "or destroyed)"
                                 : "not a Level Zero provider");
        if (hProvider != NULL) {
            umf_memory_provider_set_last_failed(hProvider);
        }
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    ze_provider_t *p = umf_memory_provider_get_priv(hProvider);
    pthread_mutex_lock(&p->res_lock);
    umf_result_t ret = change_locked(p, hDevice, isAdding);
    pthread_mutex_unlock(&p->res_lock);
    if (ret != UMF_RESULT_SUCCESS) {
        umf_memory_provider_set_last_failed(hProvider);
    }
    return ret;
}

// ---------------------------------------------------------------------------
// The ops table

static const umf_memory_provider_ops_t ze_ops = {
    .version = UMF_VERSION_CURRENT,
    .initialize = ze_initialize,
    .finalize = ze_finalize,
    .alloc = ze_alloc,
    .free = ze_free,
    .get_last_native_error = ze_get_last_native_error,
    .get_recommended_page_size = ze_get_recommended_page_size,
    .get_min_page_size = ze_get_min_page_size,
    .get_name = ze_get_name,
    .ext =
        {
            .purge_lazy = NULL,
            .purge_force = NULL,
            .allocation_merge = ze_allocation_merge,
            .allocation_split = ze_allocation_split,
        },
    .ipc =
        {
            .get_ipc_handle_size = umf_ze_ipc_get_handle_size,
            .get_ipc_handle = umf_ze_ipc_get_handle,
            .put_ipc_handle = umf_ze_ipc_put_handle,
            .open_ipc_handle = umf_ze_ipc_open_handle,
            .close_ipc_handle = umf_ze_ipc_close_handle,
        },
};

UMF_EXPORT const umf_memory_provider_ops_t *
umfLevelZeroMemoryProviderOps(void) {
    return &ze_ops;
}
