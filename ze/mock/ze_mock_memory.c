// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Memory allocation and queries, IPC.

#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

// The flags of ze_api.h's descriptors (its INVALID_ENUMERATION clauses).
#define DEVICE_ALLOC_FLAGS                                                     \
    ((ze_device_mem_alloc_flags_t)(ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED |      \
                                   ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED |    \
                                   ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT))
#define HOST_ALLOC_FLAGS                                                       \
    ((ze_host_mem_alloc_flags_t)(ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED |          \
                                 ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED |        \
                                 ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED |  \
                                 ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT))

// ---- Allocation -----------------------------------------------------------

// True when a descriptor chain holds the relaxed allocation limits
// extension asking for sizes above maxMemAllocSize.
static bool relaxed_max_size(const void *pNext) {
    const ze_base_desc_t *d = pNext;
    for (int i = 0; d != NULL && i < 32; i++, d = d->pNext) {
        if (d->stype == ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC &&
            (((const ze_relaxed_allocation_limits_exp_desc_t *)d)->flags &
             ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE)) {
            return true;
        }
    }
    return false;
}

static ze_result_t device_alloc(umf_mock_kind_t kind,
                                ze_context_handle_t hContext,
                                const ze_device_mem_alloc_desc_t *ddesc,
                                const ze_host_mem_alloc_desc_t *hdesc,
                                size_t size, size_t alignment,
                                ze_device_handle_t hDevice, void **pptr) {
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    int device = -1;
    ze_mock_device_t *dev = NULL;
    if (hDevice != NULL || kind == UMF_MOCK_KIND_DEVICE) {
        dev = ze_mock_device(hDevice);
        if (dev == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
        device = (int)dev->index;
    }
    if ((kind != UMF_MOCK_KIND_HOST && ddesc == NULL) ||
        (kind != UMF_MOCK_KIND_DEVICE && hdesc == NULL) || pptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if ((ddesc != NULL && (ddesc->flags & ~DEVICE_ALLOC_FLAGS)) ||
        (hdesc != NULL && (hdesc->flags & ~HOST_ALLOC_FLAGS))) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (dev != NULL && size > ze_mock_device_max_alloc(dev) &&
        !relaxed_max_size(ddesc != NULL ? ddesc->pNext : NULL) &&
        !relaxed_max_size(hdesc != NULL ? hdesc->pNext : NULL)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    // Memory of a sub-device is charged to its device; the flags keep
    // which sub-device (+1) it was allocated on, for the queries.
    uint32_t sub = dev != NULL ? (uint32_t)(dev->sub + 1) : 0;
    return ze_mock_result(umf_mock_alloc(kind, device, size, alignment,
                                         (uintptr_t)ctx, sub, pptr));
}

static ze_result_t ZE_APICALL mock_MemAllocDevice(
    ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t *desc,
    size_t size, size_t alignment, ze_device_handle_t hDevice, void **pptr) {
    ZE_MOCK_ENTER(zeMemAllocDevice);
    return device_alloc(UMF_MOCK_KIND_DEVICE, hContext, desc, NULL, size,
                        alignment, hDevice, pptr);
}

static ze_result_t ZE_APICALL mock_MemAllocHost(
    ze_context_handle_t hContext, const ze_host_mem_alloc_desc_t *desc,
    size_t size, size_t alignment, void **pptr) {
    ZE_MOCK_ENTER(zeMemAllocHost);
    return device_alloc(UMF_MOCK_KIND_HOST, hContext, NULL, desc, size,
                        alignment, NULL, pptr);
}

static ze_result_t ZE_APICALL mock_MemAllocShared(
    ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t *ddesc,
    const ze_host_mem_alloc_desc_t *hdesc, size_t size, size_t alignment,
    ze_device_handle_t hDevice, void **pptr) {
    ZE_MOCK_ENTER(zeMemAllocShared);
    return device_alloc(UMF_MOCK_KIND_SHARED, hContext, ddesc, hdesc, size,
                        alignment, hDevice, pptr);
}

static ze_result_t mem_free(ze_context_handle_t hContext, void *ptr) {
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_status_t s =
        umf_mock_free(ptr, UMF_MOCK_KIND_ALLOCATED, (uintptr_t)ctx, NULL);
    if (s != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN(
            "zeMemFree(%p): %s", ptr,
            s == UMF_MOCK_ERR_NOT_FOUND
                ? "not an allocation (never allocated, or "
                  "already freed)"
            : s == UMF_MOCK_ERR_NOT_BASE ? "inside an allocation, not its start"
            : s == UMF_MOCK_ERR_WRONG_KIND
                ? "not an allocation of zeMemAlloc* (an IPC mapping: "
                  "zeMemCloseIpcHandle; mapped physical memory: "
                  "zeVirtualMemUnmap)"
            : s == UMF_MOCK_ERR_WRONG_OWNER ? "allocated in another context"
                                            : umf_mock_status_name(s));
    }
    return ze_mock_result(s);
}

static ze_result_t ZE_APICALL mock_MemFree(ze_context_handle_t hContext,
                                           void *ptr) {
    ZE_MOCK_ENTER(zeMemFree);
    return mem_free(hContext, ptr);
}

static ze_result_t ZE_APICALL
mock_MemFreeExt(ze_context_handle_t hContext,
                const ze_memory_free_ext_desc_t *desc, void *ptr) {
    ZE_MOCK_ENTER(zeMemFreeExt);
    if (desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->freePolicy &
        ~(ze_driver_memory_free_policy_ext_flags_t)(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
                                                    ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    // Nothing runs in the background: every policy frees at once.
    return mem_free(hContext, ptr);
}

// ---- Queries --------------------------------------------------------------

static ze_result_t ZE_APICALL mock_MemGetAllocProperties(
    ze_context_handle_t hContext, const void *ptr,
    ze_memory_allocation_properties_t *props, ze_device_handle_t *phDevice) {
    ZE_MOCK_ENTER(zeMemGetAllocProperties);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL || props == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup(ptr, &info) != UMF_MOCK_OK) {
        props->type = ZE_MEMORY_TYPE_UNKNOWN;
        props->id = 0;
        props->pageSize = 0;
        if (phDevice != NULL) {
            *phDevice = NULL;
        }
        return ZE_RESULT_SUCCESS;
    }
    props->type = info.kind == UMF_MOCK_KIND_HOST     ? ZE_MEMORY_TYPE_HOST
                  : info.kind == UMF_MOCK_KIND_SHARED ? ZE_MEMORY_TYPE_SHARED
                                                      : ZE_MEMORY_TYPE_DEVICE;
    props->id = info.id;
    props->pageSize = umf_mock_page_size;
    if (phDevice != NULL) {
        *phDevice = info.device >= 0
                        ? ze_mock_device_handle_sub(info.device,
                                                    (int)info.user_flags - 1)
                        : NULL;
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_MemGetAddressRange(ze_context_handle_t hContext, const void *ptr,
                        void **pBase, size_t *pSize) {
    ZE_MOCK_ENTER(zeMemGetAddressRange);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup(ptr, &info) != UMF_MOCK_OK) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (pBase != NULL) {
        *pBase = info.base;
    }
    if (pSize != NULL) {
        *pSize = info.size;
    }
    return ZE_RESULT_SUCCESS;
}

// ---- IPC ------------------------------------------------------------------

static ze_result_t ZE_APICALL
mock_MemGetIpcHandle(ze_context_handle_t hContext, const void *ptr,
                     ze_ipc_mem_handle_t *pIpcHandle) {
    ZE_MOCK_ENTER(zeMemGetIpcHandle);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL || pIpcHandle == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_ipc_desc_t desc;
    umf_mock_status_t s = umf_mock_ipc_export(ptr, false, &desc, NULL);
    umf_mock_alloc_info_t info;
    if (s == UMF_MOCK_ERR_WRONG_KIND &&
        umf_mock_lookup(ptr, &info) == UMF_MOCK_OK &&
        info.kind == UMF_MOCK_KIND_MAPPED) {
        return ze_mock_vmm_get_ipc_handle(ptr, pIpcHandle);
    }
    if (s != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("zeMemGetIpcHandle(%p): %s", ptr,
                        s == UMF_MOCK_ERR_NOT_FOUND    ? "not an allocation"
                        : s == UMF_MOCK_ERR_WRONG_KIND ? "not device memory"
                        : s == UMF_MOCK_ERR_NOT_SUPPORTED
                            ? "no IPC in UMF_GPU_MOCK_MEMORY=malloc"
                            : umf_mock_status_name(s));
        return ze_mock_result(s);
    }
    _Static_assert(sizeof(pIpcHandle->data) == UMF_MOCK_IPC_HANDLE_BYTES,
                   "a Level Zero IPC handle holds the core's handle");
    umf_mock_ipc_pack(&desc, (unsigned char *)pIpcHandle->data);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_MemOpenIpcHandle(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    ze_ipc_mem_handle_t handle, ze_ipc_memory_flags_t flags, void **pptr) {
    ZE_MOCK_ENTER(zeMemOpenIpcHandle);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ze_mock_device_t *dev = ze_mock_device(hDevice);
    if (dev == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (pptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (flags & ~(ze_ipc_memory_flags_t)(ZE_IPC_MEMORY_FLAG_BIAS_CACHED |
                                         ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (ze_mock_vmm_handle((const unsigned char *)handle.data)) {
        return ze_mock_vmm_open_ipc_handle(
            ctx, (const unsigned char *)handle.data, pptr);
    }
    umf_mock_ipc_desc_t desc;
    umf_mock_status_t s =
        umf_mock_ipc_unpack((const unsigned char *)handle.data, &desc);
    if (s != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("zeMemOpenIpcHandle: not an IPC handle of this "
                        "driver (corrupt or truncated)");
        return ze_mock_result(s);
    }
    // Each open is a new mapping, as with a real driver.
    return ze_mock_result(umf_mock_ipc_import(
        &desc, (int)dev->index, (uintptr_t)ctx, UMF_MOCK_IMPORT_NEW, pptr));
}

static ze_result_t ZE_APICALL
mock_MemCloseIpcHandle(ze_context_handle_t hContext, const void *ptr) {
    ZE_MOCK_ENTER(zeMemCloseIpcHandle);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (ze_mock_vmm_close_ipc_handle(ctx, ptr)) {
        return ZE_RESULT_SUCCESS; // mapped memory opened from a handle
    }
    umf_mock_status_t s = umf_mock_ipc_close(ptr, (uintptr_t)ctx, NULL);
    if (s != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("zeMemCloseIpcHandle(%p): %s", ptr,
                        s == UMF_MOCK_ERR_WRONG_KIND
                            ? "not a mapping opened from an IPC handle"
                            : umf_mock_status_name(s));
    }
    return ze_mock_result(s);
}

// ---- IPC: the 1.6 entry points -----------------------------------------

// Unpacks a handle of this driver; INVALID_ARGUMENT (explained) otherwise.
static ze_result_t unpack_handle(const ze_ipc_mem_handle_t *h,
                                 umf_mock_ipc_desc_t *desc) {
    if (umf_mock_ipc_unpack((const unsigned char *)h->data, desc) !=
        UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("not an IPC handle of this driver (corrupt or "
                        "truncated)");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ZE_RESULT_SUCCESS;
}

// "Returns an IPC memory handle to the driver": the exporter's fd is
// closed (the next zeMemGetIpcHandle opens another); the allocation and
// what was imported from it stay. Any context may put, any number of times.
static ze_result_t ZE_APICALL mock_MemPutIpcHandle(ze_context_handle_t hContext,
                                                   ze_ipc_mem_handle_t handle) {
    ZE_MOCK_ENTER(zeMemPutIpcHandle);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ze_mock_vmm_handle((const unsigned char *)handle.data)) {
        return ze_mock_vmm_put_ipc_handle((const unsigned char *)handle.data);
    }
    umf_mock_ipc_desc_t desc;
    ze_result_t r = unpack_handle(&handle, &desc);
    return r != ZE_RESULT_SUCCESS
               ? r
               : ze_mock_result(umf_mock_ipc_put(&desc, NULL));
}

// The fd of this process's export as an IPC handle (what
// zeMemGetFileDescriptorFromIpcHandleExp gave).
static ze_result_t ZE_APICALL mock_MemGetIpcHandleFromFileDescriptorExp(
    ze_context_handle_t hContext, uint64_t handle,
    ze_ipc_mem_handle_t *pIpcHandle) {
    ZE_MOCK_ENTER(zeMemGetIpcHandleFromFileDescriptorExp);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (pIpcHandle == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_ipc_desc_t desc;
    if (handle <= INT32_MAX &&
        ze_mock_vmm_handle_of_fd((int)handle, pIpcHandle)) {
        return ZE_RESULT_SUCCESS; // mapped memory's export
    }
    if (handle > INT32_MAX ||
        umf_mock_ipc_describe_fd((int)handle, &desc) != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("fd %llu is not the fd of an IPC handle of this "
                        "process",
                        (unsigned long long)handle);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    umf_mock_ipc_pack(&desc, (unsigned char *)pIpcHandle->data);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_MemGetFileDescriptorFromIpcHandleExp(
    ze_context_handle_t hContext, ze_ipc_mem_handle_t ipcHandle,
    uint64_t *pHandle) {
    ZE_MOCK_ENTER(zeMemGetFileDescriptorFromIpcHandleExp);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (pHandle == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    int fd;
    if (ze_mock_vmm_handle((const unsigned char *)ipcHandle.data)) {
        if (!ze_mock_vmm_handle_fd((const unsigned char *)ipcHandle.data,
                                   &fd)) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
        *pHandle = (uint64_t)(uint32_t)fd;
        return ZE_RESULT_SUCCESS;
    }
    umf_mock_ipc_desc_t desc;
    ze_result_t r = unpack_handle(&ipcHandle, &desc);
    if (r == ZE_RESULT_SUCCESS) {
        *pHandle = (uint64_t)(uint32_t)desc.fd;
    }
    return r;
}

void ze_mock_fill_mem_exp(ze_mock_mem_exp_dditable_t *t) {
    t->pfnGetIpcHandleFromFileDescriptorExp =
        mock_MemGetIpcHandleFromFileDescriptorExp;
    t->pfnGetFileDescriptorFromIpcHandleExp =
        mock_MemGetFileDescriptorFromIpcHandleExp;
}

void ze_mock_fill_mem(ze_mock_mem_dditable_t *t) {
    t->v1_4.pfnAllocShared = mock_MemAllocShared;
    t->v1_4.pfnAllocDevice = mock_MemAllocDevice;
    t->v1_4.pfnAllocHost = mock_MemAllocHost;
    t->v1_4.pfnFree = mock_MemFree;
    t->v1_4.pfnGetAllocProperties = mock_MemGetAllocProperties;
    t->v1_4.pfnGetAddressRange = mock_MemGetAddressRange;
    t->v1_4.pfnGetIpcHandle = mock_MemGetIpcHandle;
    t->v1_4.pfnOpenIpcHandle = mock_MemOpenIpcHandle;
    t->v1_4.pfnCloseIpcHandle = mock_MemCloseIpcHandle;
    t->v1_4.pfnFreeExt = mock_MemFreeExt;
    t->pfnPutIpcHandle = mock_MemPutIpcHandle;
}
