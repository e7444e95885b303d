// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Allocation, free and queries: cuMemAlloc_v2 and friends on the core's
// memory (mock_memory.h). An allocation is tagged with the context that made
// it (CU_POINTER_ATTRIBUTE_CONTEXT) and goes when that context does.
//
// Every allocation of the core is page-aligned, so cuMemAlloc_v2's results
// are aligned to at least 256 bytes as the driver guarantees. Device and
// managed memory count against their device's memory; going past it is
// CUDA_ERROR_OUT_OF_MEMORY. Pinned host memory is limited by the machine.

#include "cuda_mock_memory.h"
#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

// Allocates `size` bytes of `kind` for the current context.
static CUresult alloc_in_current(umf_mock_kind_t kind, size_t size,
                                 uint32_t flags, const char *call, void **out) {
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res == CUDA_SUCCESS) {
        // Potentially unsafe during stream capture (cuda_mock_capture.c).
        res = cuda_mock_order_unsafe(call);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    int device = kind == UMF_MOCK_KIND_HOST ? -1 : cuda_mock_ctx_device(ctx);
    // A green context's allocations are its primary context's.
    umf_mock_status_t status = umf_mock_alloc(
        kind, device, size, 0, (uintptr_t)cuda_mock_ctx_base(ctx), flags, out);
    if (status == UMF_MOCK_OK) {
        return CUDA_SUCCESS;
    }
    if (status == UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY) {
        UMF_MOCK_LOG_INFO(
            "%s(%zu): device %d has %" PRIu64 " of %" PRIu64 " bytes in use",
            call, size, device, umf_mock_device_used((unsigned)device),
            umf_mock_device_total((unsigned)device));
    } else {
        UMF_MOCK_LOG_INFO("%s(%zu) failed: %s", call, size,
                          umf_mock_status_name(status));
    }
    return cuda_mock_result_of(status);
}

CUDA_MOCK_API CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) {
    CUDA_MOCK_ENTER(cuMemAlloc_v2);
    if (dptr == NULL || bytesize == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    void *p;
    CUresult res = alloc_in_current(UMF_MOCK_KIND_DEVICE, bytesize, 0,
                                    "cuMemAlloc_v2", &p);
    if (res == CUDA_SUCCESS) {
        *dptr = (CUdeviceptr)(uintptr_t)p;
    }
    return res;
}

// Rows are aligned to 512 bytes, as cuMemAllocPitch returns them on
// current NVIDIA GPUs (a multiple of CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_
// ALIGNMENT); a row is at most CU_DEVICE_ATTRIBUTE_MAX_PITCH bytes.
#define PITCH_ALIGNMENT 512u
#define MAX_PITCH 2147483647u

CUDA_MOCK_API CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
                                          size_t WidthInBytes, size_t Height,
                                          unsigned int ElementSizeBytes) {
    CUDA_MOCK_ENTER(cuMemAllocPitch_v2);
    if (dptr == NULL || pPitch == NULL || WidthInBytes == 0 || Height == 0 ||
        WidthInBytes > MAX_PITCH ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
         ElementSizeBytes != 16)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    size_t pitch =
        (WidthInBytes + PITCH_ALIGNMENT - 1) & ~(size_t)(PITCH_ALIGNMENT - 1);
    if (Height > SIZE_MAX / pitch) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    void *p;
    CUresult res = alloc_in_current(UMF_MOCK_KIND_DEVICE, pitch * Height, 0,
                                    "cuMemAllocPitch_v2", &p);
    if (res == CUDA_SUCCESS) {
        *dptr = (CUdeviceptr)(uintptr_t)p;
        *pPitch = pitch;
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                                         unsigned int flags) {
    CUDA_MOCK_ENTER(cuMemAllocManaged);
    if (dptr == NULL || bytesize == 0 ||
        (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    void *p;
    CUresult res = alloc_in_current(UMF_MOCK_KIND_SHARED, bytesize, flags,
                                    "cuMemAllocManaged", &p);
    if (res == CUDA_SUCCESS) {
        *dptr = (CUdeviceptr)(uintptr_t)p;
    }
    return res;
}

static CUresult host_alloc(void **pp, size_t bytesize, unsigned int flags,
                           const char *call) {
    if (pp == NULL || bytesize == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return alloc_in_current(UMF_MOCK_KIND_HOST, bytesize, flags, call, pp);
}

CUDA_MOCK_API CUresult cuMemAllocHost_v2(void **pp, size_t bytesize) {
    CUDA_MOCK_ENTER(cuMemAllocHost_v2);
    return host_alloc(pp, bytesize, 0, "cuMemAllocHost_v2");
}

// CUDA 2's ABI: a 32-bit size (LLVM's OpenMP offload runtime calls it for
// llvm_omp_target_alloc_host).
CUDA_MOCK_API CUresult cuMemAllocHost(void **pp, unsigned int bytesize) {
    CUDA_MOCK_ENTER(cuMemAllocHost);
    return host_alloc(pp, bytesize, 0, "cuMemAllocHost");
}

CUDA_MOCK_API CUresult cuMemHostAlloc(void **pp, size_t bytesize,
                                      unsigned int Flags) {
    CUDA_MOCK_ENTER(cuMemHostAlloc);
    const unsigned known = CU_MEMHOSTALLOC_PORTABLE |
                           CU_MEMHOSTALLOC_DEVICEMAP |
                           CU_MEMHOSTALLOC_WRITECOMBINED;
    if ((Flags & ~known) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return host_alloc(pp, bytesize, Flags, "cuMemHostAlloc");
}

// The driver does not need a current context to free: the pointer says
// which context made it.
static CUresult free_kind(const void *p, unsigned kinds, const char *call) {
    umf_mock_alloc_info_t freed;
    umf_mock_status_t status = umf_mock_free(p, kinds, 0, &freed);
    if (status == UMF_MOCK_OK) {
        cuda_mock_range_freed(&freed);
        if ((freed.user_flags & CUDA_MOCK_POOL_MEMORY) != 0) {
            cuda_mock_pool_freed(&freed);
        }
        return CUDA_SUCCESS;
    }
    switch (status) {
    case UMF_MOCK_ERR_NOT_FOUND:
        UMF_MOCK_LOG_ERROR("%s(%p): not an allocation of this driver, or "
                           "freed already",
                           call, p);
        break;
    case UMF_MOCK_ERR_NOT_BASE:
        UMF_MOCK_LOG_ERROR("%s(%p): inside an allocation, not its start", call,
                           p);
        break;
    case UMF_MOCK_ERR_WRONG_KIND:
        UMF_MOCK_LOG_ERROR("%s(%p): %s", call, p,
                           kinds == UMF_MOCK_KIND_HOST
                               ? "not pinned host memory (cuMemFree_v2 frees "
                                 "device and managed memory)"
                               : "not device or managed memory (pinned host "
                                 "memory goes to cuMemFreeHost, imported "
                                 "memory to cuIpcCloseMemHandle)");
        break;
    default:
        UMF_MOCK_LOG_ERROR("%s(%p) failed: %s", call, p,
                           umf_mock_status_name(status));
        break;
    }
    return cuda_mock_result_of(status);
}

_Atomic(cuda_mock_graph_mem_free_fn) cuda_mock_graph_mem_free;

CUresult cuda_mock_mem_free_device(const void *p, const char *call) {
    // Graph memory stays reserved for its node: its hook ends the
    // allocation instead (a lookup only once graph memory was ever made).
    cuda_mock_graph_mem_free_fn gmem =
        atomic_load_explicit(&cuda_mock_graph_mem_free, memory_order_acquire);
    umf_mock_alloc_info_t info;
    if (gmem != NULL && umf_mock_lookup(p, &info) == UMF_MOCK_OK &&
        (info.user_flags & CUDA_MOCK_GRAPH_MEMORY) != 0 &&
        info.kind == UMF_MOCK_KIND_DEVICE) {
        if (info.base != p) {
            UMF_MOCK_LOG_ERROR("%s(%p): inside an allocation, not its start",
                               call, p);
            return CUDA_ERROR_INVALID_VALUE;
        }
        return gmem(&info, NULL, call);
    }
    return free_kind(p, UMF_MOCK_KIND_DEVICE | UMF_MOCK_KIND_SHARED, call);
}

// Memory of cuMemAllocAsync may go here too (it is then freed at once).
// Both synchronize, as on a GPU: queued work that may use the memory runs
// first (cuda_mock_queue.c).
CUDA_MOCK_API CUresult cuMemFree_v2(CUdeviceptr dptr) {
    CUDA_MOCK_ENTER(cuMemFree_v2);
    const void *p = (const void *)(uintptr_t)dptr;
    CUresult res = cuda_mock_order_before_free(p, "cuMemFree_v2");
    return res == CUDA_SUCCESS ? cuda_mock_mem_free_device(p, "cuMemFree_v2")
                               : res;
}

CUDA_MOCK_API CUresult cuMemFreeHost(void *p) {
    CUDA_MOCK_ENTER(cuMemFreeHost);
    CUresult res = cuda_mock_order_before_free(p, "cuMemFreeHost");
    return res == CUDA_SUCCESS
               ? free_kind(p, UMF_MOCK_KIND_HOST, "cuMemFreeHost")
               : res;
}

static CUresult mem_info(uint64_t *free, uint64_t *total) {
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    unsigned dev = (unsigned)cuda_mock_ctx_device(ctx);
    uint64_t all = umf_mock_device_total(dev);
    uint64_t used = umf_mock_device_used(dev);
    *total = all;
    *free = used < all ? all - used : 0;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
    CUDA_MOCK_ENTER(cuMemGetInfo_v2);
    if (free == NULL || total == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t f, t;
    CUresult res = mem_info(&f, &t);
    if (res == CUDA_SUCCESS) {
        *free = (size_t)f;
        *total = (size_t)t;
    }
    return res;
}

// CUDA 2's ABI: 32-bit sizes, so at most 4 GiB - 1 each (clamped).
CUDA_MOCK_API CUresult cuMemGetInfo(unsigned int *free, unsigned int *total) {
    CUDA_MOCK_ENTER(cuMemGetInfo);
    if (free == NULL || total == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t f, t;
    CUresult res = mem_info(&f, &t);
    if (res == CUDA_SUCCESS) {
        *free = f > UINT32_MAX ? UINT32_MAX : (unsigned int)f;
        *total = t > UINT32_MAX ? UINT32_MAX : (unsigned int)t;
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase,
                                               size_t *psize,
                                               CUdeviceptr dptr) {
    CUDA_MOCK_ENTER(cuMemGetAddressRange_v2);
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup((const void *)(uintptr_t)dptr, &info) != UMF_MOCK_OK) {
        return CUDA_ERROR_NOT_FOUND;
    }
    // Both are optional.
    if (pbase != NULL) {
        *pbase = (CUdeviceptr)(uintptr_t)info.base;
    }
    if (psize != NULL) {
        *psize = info.size;
    }
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Pointer attributes

// How one attribute is answered: a value, "no such value for this pointer"
// (an error from cuPointerGetAttribute, a zero from cuPointerGetAttributes),
// or an attribute this driver does not know.
typedef enum attr_answer_t {
    ATTR_VALUE,
    ATTR_NO_VALUE,
    ATTR_NO_CONTEXT,
    ATTR_UNKNOWN,
} attr_answer_t;

// Bytes written for `attr`, and a zero of that size. The driver documents
// the boolean attributes as "a boolean"; programs pass an int or unsigned
// int (XLA, NCCL, UR), so 4 bytes are written, as for the enumerations.
static size_t attr_size(CUpointer_attribute attr) {
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        return sizeof(void *);
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        return sizeof(CUdeviceptr);
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        return sizeof(unsigned long long);
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
        return sizeof(size_t);
    case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
        return sizeof(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS);
    default:
        return sizeof(unsigned int);
    }
}

static void put_u32(void *data, unsigned int v) {
    memcpy(data, &v, sizeof(v));
}

static void put_ptr(void *data, const void *v) {
    memcpy(data, &v, sizeof(v));
}

static void put_u64(void *data, uint64_t v) {
    memcpy(data, &v, sizeof(v));
}

// The device an allocation belongs to: its own, or for pinned host memory
// that of the context that made it.
static int info_device(const umf_mock_alloc_info_t *info) {
    if (info->device >= 0) {
        return info->device;
    }
    return cuda_mock_ctx_device((const cuda_mock_ctx_t *)info->owner);
}

// The memory holding `ptr`: an allocation, mapping or import of the core,
// or a registration of host memory. False when the driver knows none.
static bool lookup(CUdeviceptr ptr, umf_mock_alloc_info_t *info) {
    const void *p = (const void *)(uintptr_t)ptr;
    return umf_mock_lookup(p, info) == UMF_MOCK_OK ||
           cuda_mock_host_lookup(p, info);
}

static bool pool_memory(const umf_mock_alloc_info_t *info) {
    return info->kind == UMF_MOCK_KIND_DEVICE &&
           (info->user_flags & CUDA_MOCK_POOL_MEMORY) != 0;
}

// CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: what the current context's device may
// do with the memory (mapped VMM memory: its access; registered read-only
// memory: read).
static unsigned access_flags(const umf_mock_alloc_info_t *info, CUdeviceptr ptr,
                             bool *no_context) {
    if (info->kind == UMF_MOCK_KIND_MAPPED) {
        cuda_mock_ctx_t *ctx;
        umf_mock_va_info_t va;
        if (cuda_mock_ctx_current(&ctx) != CUDA_SUCCESS) {
            *no_context = true;
            return 0;
        }
        uint64_t bit = 1ull << cuda_mock_ctx_device(ctx);
        if (umf_mock_va_query((const void *)(uintptr_t)ptr, &va) !=
            UMF_MOCK_OK) {
            return CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
        }
        return (va.write_devices & bit) != 0
                   ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE
               : (va.read_devices & bit) != 0
                   ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ
                   : CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
    }
    if ((info->user_flags & CUDA_MOCK_HOST_REGISTERED) != 0 &&
        (info->user_flags & CU_MEMHOSTREGISTER_READ_ONLY) != 0) {
        return CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ;
    }
    return CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
}

// Answers `attr` for `ptr` inside the allocation `info`.
static attr_answer_t attr_get(const umf_mock_alloc_info_t *info,
                              CUpointer_attribute attr, CUdeviceptr ptr,
                              void *data) {
    bool host = info->kind == UMF_MOCK_KIND_HOST;
    bool managed = info->kind == UMF_MOCK_KIND_SHARED;
    bool mapped = info->kind == UMF_MOCK_KIND_MAPPED;
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        // Stream-ordered, graph and VMM memory belong to no context.
        if (pool_memory(info) || mapped ||
            (info->user_flags & CUDA_MOCK_GRAPH_MEMORY) != 0) {
            return ATTR_NO_VALUE;
        }
        put_ptr(data, (const void *)info->owner);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        // Managed memory reads as device memory (CU_POINTER_ATTRIBUTE_
        // IS_MANAGED tells it apart), imported memory too.
        put_u32(data, host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: {
        // Unified addressing: the same address on both sides.
        cuda_mock_ctx_t *ctx;
        if (cuda_mock_ctx_current(&ctx) != CUDA_SUCCESS) {
            return ATTR_NO_CONTEXT;
        }
        put_u64(data, ptr);
        return ATTR_VALUE;
    }
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!host && !managed) {
            return ATTR_NO_VALUE; // device memory has no host address
        }
        put_ptr(data, (const void *)(uintptr_t)ptr);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        put_u32(data, cuda_mock_range_sync_memops(info)); // cuPointerSet...
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        put_u64(data, info->id);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        put_u32(data, managed);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        put_u32(data, (unsigned int)info_device(info));
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
        put_u32(data, info->kind == UMF_MOCK_KIND_DEVICE &&
                          !pool_memory(info) &&
                          umf_mock_memory_mode() != UMF_MOCK_MEMORY_MALLOC);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        put_u64(data, (uint64_t)(uintptr_t)info->base);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: {
        size_t size = info->size;
        memcpy(data, &size, sizeof(size));
        return ATTR_VALUE;
    }
    case CU_POINTER_ATTRIBUTE_MAPPED:
        put_u32(data, 1);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
        put_u32(data, 0);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: {
        bool no_context = false;
        unsigned flags = access_flags(info, ptr, &no_context);
        if (no_context) {
            return ATTR_NO_CONTEXT;
        }
        put_u32(data, flags);
        return ATTR_VALUE;
    }
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        put_ptr(data, pool_memory(info) ? cuda_mock_pool_of(info) : NULL);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        // VMM memory: the handle types asked of cuMemCreate (the low bits of
        // the user flags, cuda_mock_vmm.c); nothing else is exportable as a
        // shareable handle.
        put_u32(data, mapped ? (info->user_flags & 0xffu)
                             : (unsigned)CU_MEM_HANDLE_TYPE_NONE);
        return ATTR_VALUE;
    case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
        // Kernel-interface tokens are not emulated.
        return ATTR_NO_VALUE;
    }
    return ATTR_UNKNOWN;
}

static bool attr_known(CUpointer_attribute attr) {
    return (int)attr >= (int)CU_POINTER_ATTRIBUTE_CONTEXT &&
           (int)attr <= (int)CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE;
}

CUDA_MOCK_API CUresult cuPointerGetAttribute(void *data,
                                             CUpointer_attribute attribute,
                                             CUdeviceptr ptr) {
    CUDA_MOCK_ENTER(cuPointerGetAttribute);
    if (data == NULL || !attr_known(attribute)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    if (!lookup(ptr, &info)) {
        return CUDA_ERROR_INVALID_VALUE; // not memory of this driver
    }
    switch (attr_get(&info, attribute, ptr, data)) {
    case ATTR_VALUE:
        return CUDA_SUCCESS;
    case ATTR_NO_CONTEXT:
        return CUDA_ERROR_INVALID_CONTEXT;
    case ATTR_NO_VALUE:
        if (attribute == CU_POINTER_ATTRIBUTE_P2P_TOKENS) {
            UMF_MOCK_LOG_ERROR("cuPointerGetAttribute: attribute %d is not "
                               "emulated",
                               (int)attribute);
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        return CUDA_ERROR_INVALID_VALUE;
    case ATTR_UNKNOWN:
        break;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

// Unlike cuPointerGetAttribute, a pointer the driver does not know is no
// error: every attribute reads as zero (NULL), as documented.
CUDA_MOCK_API CUresult cuPointerGetAttributes(unsigned int numAttributes,
                                              CUpointer_attribute *attributes,
                                              void **data, CUdeviceptr ptr) {
    CUDA_MOCK_ENTER(cuPointerGetAttributes);
    if (numAttributes == 0 || attributes == NULL || data == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (unsigned int i = 0; i < numAttributes; i++) {
        if (data[i] == NULL || !attr_known(attributes[i])) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    umf_mock_alloc_info_t info;
    bool known = lookup(ptr, &info);
    for (unsigned int i = 0; i < numAttributes; i++) {
        attr_answer_t a = known ? attr_get(&info, attributes[i], ptr, data[i])
                                : ATTR_NO_VALUE;
        if (a == ATTR_NO_CONTEXT) {
            return CUDA_ERROR_INVALID_CONTEXT;
        }
        if (a != ATTR_VALUE) {
            memset(data[i], 0, attr_size(attributes[i]));
        }
    }
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Context teardown

static void mem_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    umf_mock_owner_released_t released = {0};
    umf_mock_release_owner((uintptr_t)ctx, &released);
    if (released.allocations + released.imports > 0) {
        UMF_MOCK_LOG_INFO("context %p went with %zu allocations and %zu "
                          "imported mappings still alive; the driver freed "
                          "them",
                          (const void *)ctx, released.allocations,
                          released.imports);
    }
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_MEMORY, mem_ctx_teardown);
