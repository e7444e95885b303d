// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The stream-ordered allocator: memory pools (one default pool per device,
// and pools made with cuMemPoolCreate), the current pool of each device,
// cuMemAllocAsync / cuMemAllocFromPoolAsync and cuMemFreeAsync, the pools'
// attributes and cuMemPoolTrimTo.
//
// An allocation runs when it is enqueued (it may be used earlier than
// stream order allows, which no correct program notices), and is an
// allocation of the core tagged with its pool (owner = the pool's state,
// user flags CUDA_MOCK_POOL_MEMORY); cuMemFreeAsync gives it back to the
// core in stream order (at once unless work is queued before it:
// cuda_mock_queue.c), cuMemFree_v2, which may free it too, after the
// device's queued work. So a pool holds
// no memory of its own beyond its allocations: its reserved memory is its
// used memory (in whole pages), cuMemPoolTrimTo has nothing to release, and
// the release threshold is kept and reported but changes nothing.
//
// A created pool's state is reference counted: one reference for its
// handle, one per live allocation (the default pools never go, and count
// nothing). cuMemPoolDestroy
// ends the handle at once; the state goes with the last allocation, as
// documented ("released automatically once there are no more outstanding
// allocations").

#include "cuda_mock_core.h"
#include "cuda_mock_memory.h"
#include "cuda_mock_queue.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct pool_state_t {
    CUmemoryPool handle; // for CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE
    int device;
    bool is_default;
    size_t max_size; // 0: the device's memory
    _Atomic uint64_t refs;
    // Attributes (int ones 0 or 1; the threshold in bytes).
    _Atomic int reuse_follow_event_dependencies;
    _Atomic int reuse_allow_opportunistic;
    _Atomic int reuse_allow_internal_dependencies;
    _Atomic uint64_t release_threshold;
    // Bytes: used = sizes asked for, reserved = page-rounded.
    _Atomic uint64_t used, used_high, reserved, reserved_high;
    // cuMemPoolSetAccess of the other devices (CUmemAccess_flags; the
    // owner's is read-write always).
    _Atomic unsigned char access[UMF_MOCK_MAX_DEVICES];
} pool_state_t;

// A handle: a table slot (cuMemPoolCreate) or one of the default pools.
struct CUmemPoolHandle_st {
    cuda_mock_slot_t slot;
    pool_state_t *state;
};

static cuda_mock_table_t pools =
    CUDA_MOCK_TABLE("memory pool", struct CUmemPoolHandle_st,
                    CUDA_MOCK_MAX_POOLS, CUDA_MOCK_OBJECT_POOL);

static struct CUmemPoolHandle_st default_pool[UMF_MOCK_MAX_DEVICES];
static pool_state_t default_state[UMF_MOCK_MAX_DEVICES];
static _Atomic(CUmemoryPool) current_pool[UMF_MOCK_MAX_DEVICES];
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void state_init(pool_state_t *s, int device, size_t max_size) {
    s->device = device;
    s->max_size = max_size;
    atomic_store(&s->refs, 1);
    atomic_store(&s->reuse_follow_event_dependencies, 1);
    atomic_store(&s->reuse_allow_opportunistic, 1);
    atomic_store(&s->reuse_allow_internal_dependencies, 1);
}

static void defaults_init(void) {
    for (unsigned i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        state_init(&default_state[i], (int)i, 0);
        default_state[i].is_default = true;
        default_pool[i].state = &default_state[i];
        default_state[i].handle = &default_pool[i];
    }
}

static CUmemoryPool default_of(int device) {
    pthread_once(&defaults_once, defaults_init);
    return &default_pool[device];
}

// References count only for created pools: a default pool never goes.
static void state_ref(pool_state_t *s) {
    if (!s->is_default) {
        atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    }
}

static void state_unref(pool_state_t *s) {
    if (!s->is_default &&
        atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1) {
        free(s);
    }
}

// The state of a live pool handle, or NULL.
static pool_state_t *state_of(CUmemoryPool pool) {
    uintptr_t h = (uintptr_t)pool, d = (uintptr_t)&default_pool[0];
    if (h >= d && h < d + sizeof(default_pool) &&
        (h - d) % sizeof(default_pool[0]) == 0) {
        pthread_once(&defaults_once, defaults_init);
        struct CUmemPoolHandle_st *p = (struct CUmemPoolHandle_st *)h;
        return (unsigned)(p - default_pool) < umf_mock_device_count() ? p->state
                                                                      : NULL;
    }
    struct CUmemPoolHandle_st *p = cuda_mock_table_get(&pools, pool);
    return p != NULL ? p->state : NULL;
}

static CUmemoryPool current_of(int device) {
    CUmemoryPool p =
        atomic_load_explicit(&current_pool[device], memory_order_acquire);
    return p != NULL ? p : default_of(device);
}

// ---------------------------------------------------------------------------
// Pools

static CUresult check_location(const CUmemLocation *loc, const char *call) {
    if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE) {
        UMF_MOCK_LOG_ERROR("%s: location type %d: the emulated driver has "
                           "device memory pools only",
                           call, (int)loc->type);
        return loc->type == CU_MEM_LOCATION_TYPE_HOST ||
                       loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA
                   ? CUDA_ERROR_NOT_SUPPORTED
                   : CUDA_ERROR_INVALID_VALUE;
    }
    if (loc->id < 0 || (unsigned)loc->id >= umf_mock_device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemPoolCreate(CUmemoryPool *pool,
                                       const CUmemPoolProps *poolProps) {
    CUDA_MOCK_ENTER(cuMemPoolCreate);
    if (pool == NULL || poolProps == NULL ||
        poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        poolProps->win32SecurityAttributes != NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_location(&poolProps->location, "cuMemPoolCreate");
    if (res != CUDA_SUCCESS) {
        // cuda.h lists no CUDA_ERROR_INVALID_DEVICE here.
        return res == CUDA_ERROR_INVALID_DEVICE ? CUDA_ERROR_INVALID_VALUE
                                                : res;
    }
    if (poolProps->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
        UMF_MOCK_LOG_ERROR("cuMemPoolCreate: handle types 0x%x: pools for "
                           "IPC are not emulated",
                           (unsigned)poolProps->handleTypes);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    pool_state_t *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    state_init(s, poolProps->location.id, poolProps->maxSize);
    struct CUmemPoolHandle_st *p;
    res = cuda_mock_table_alloc(&pools, (void **)&p);
    if (res != CUDA_SUCCESS) {
        free(s);
        return res;
    }
    p->state = s;
    s->handle = p;
    *pool = p;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemPoolDestroy(CUmemoryPool pool) {
    CUDA_MOCK_ENTER(cuMemPoolDestroy);
    pool_state_t *s = state_of(pool);
    if (s == NULL || s->is_default) {
        UMF_MOCK_LOG_ERROR("cuMemPoolDestroy(%p): %s", (void *)pool,
                           s == NULL ? "not a memory pool of this driver"
                                     : "a device's default pool stays");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!cuda_mock_table_free(&pools, pool)) {
        return CUDA_ERROR_INVALID_VALUE; // destroyed by another thread
    }
    // Destroying a device's current pool makes its default pool current.
    CUmemoryPool expected = pool;
    (void)atomic_compare_exchange_strong(&current_pool[s->device], &expected,
                                         NULL);
    state_unref(s);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out,
                                                 CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetDefaultMemPool);
    if (pool_out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    *pool_out = default_of(dev);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDeviceGetMemPool);
    if (pool == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    *pool = current_of(dev);
    return CUDA_SUCCESS;
}

// Makes `pool`, which must be of device `dev`, the device's current pool.
static CUresult set_current(int dev, CUmemoryPool pool, const char *call) {
    pool_state_t *s = state_of(pool);
    if (s == NULL || s->device != dev) {
        UMF_MOCK_LOG_ERROR("%s(%d, %p): %s", call, dev, (void *)pool,
                           s == NULL ? "not a memory pool of this driver"
                                     : "a pool of another device");
        return CUDA_ERROR_INVALID_VALUE;
    }
    atomic_store_explicit(&current_pool[dev], s->is_default ? NULL : pool,
                          memory_order_release);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
    CUDA_MOCK_ENTER(cuDeviceSetMemPool);
    CUDA_MOCK_CHECK_DEVICE(dev);
    return set_current(dev, pool, "cuDeviceSetMemPool");
}

// The pools of a location (CUDA 13): a device's pinned memory, as the
// cuDevice*MemPool calls; host locations and managed pools are not
// emulated (CUDA_ERROR_NOT_SUPPORTED, logged).
static CUresult location_of(const CUmemLocation *location,
                            CUmemAllocationType type, const char *call,
                            int *device) {
    if (location == NULL || type == CU_MEM_ALLOCATION_TYPE_INVALID ||
        type > CU_MEM_ALLOCATION_TYPE_MANAGED) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_location(location, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (type == CU_MEM_ALLOCATION_TYPE_MANAGED) {
        return cuda_mock_refuse(call, "managed memory pools are not emulated");
    }
    *device = location->id;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool_out,
                                              CUmemLocation *location,
                                              CUmemAllocationType type) {
    CUDA_MOCK_ENTER(cuMemGetDefaultMemPool);
    int dev = 0;
    CUresult res =
        pool_out == NULL
            ? CUDA_ERROR_INVALID_VALUE
            : location_of(location, type, "cuMemGetDefaultMemPool", &dev);
    if (res == CUDA_SUCCESS) {
        *pool_out = default_of(dev);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemGetMemPool(CUmemoryPool *pool,
                                       CUmemLocation *location,
                                       CUmemAllocationType type) {
    CUDA_MOCK_ENTER(cuMemGetMemPool);
    int dev = 0;
    CUresult res = pool == NULL
                       ? CUDA_ERROR_INVALID_VALUE
                       : location_of(location, type, "cuMemGetMemPool", &dev);
    if (res == CUDA_SUCCESS) {
        *pool = current_of(dev);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemSetMemPool(CUmemLocation *location,
                                       CUmemAllocationType type,
                                       CUmemoryPool pool) {
    CUDA_MOCK_ENTER(cuMemSetMemPool);
    int dev = 0;
    CUresult res = location_of(location, type, "cuMemSetMemPool", &dev);
    return res == CUDA_SUCCESS ? set_current(dev, pool, "cuMemSetMemPool")
                               : res;
}

// ---------------------------------------------------------------------------
// Access from other devices: recorded and reported; as with peer access,
// copies between devices work whatever it says (the memory is the host's).

static bool access_flags_ok(CUmemAccess_flags f) {
    return f == CU_MEM_ACCESS_FLAGS_PROT_NONE ||
           f == CU_MEM_ACCESS_FLAGS_PROT_READ ||
           f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
}

CUDA_MOCK_API CUresult cuMemPoolSetAccess(CUmemoryPool pool,
                                          const CUmemAccessDesc *map,
                                          size_t count) {
    CUDA_MOCK_ENTER(cuMemPoolSetAccess);
    pool_state_t *s = state_of(pool);
    if (s == NULL || (map == NULL && count > 0)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // All checked before any is applied.
    for (size_t i = 0; i < count; i++) {
        CUresult res = check_location(&map[i].location, "cuMemPoolSetAccess");
        if (res != CUDA_SUCCESS) {
            return res;
        }
        if (!access_flags_ok(map[i].flags) ||
            (map[i].location.id == s->device &&
             map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)) {
            UMF_MOCK_LOG_ERROR("cuMemPoolSetAccess(%p): access 0x%x for "
                               "device %d (the pool's own device keeps "
                               "read-write access)",
                               (void *)pool, (unsigned)map[i].flags,
                               map[i].location.id);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (size_t i = 0; i < count; i++) {
        atomic_store_explicit(&s->access[map[i].location.id],
                              (unsigned char)map[i].flags,
                              memory_order_relaxed);
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags,
                                          CUmemoryPool memPool,
                                          CUmemLocation *location) {
    CUDA_MOCK_ENTER(cuMemPoolGetAccess);
    pool_state_t *s = state_of(memPool);
    if (flags == NULL || location == NULL || s == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_location(location, "cuMemPoolGetAccess");
    if (res != CUDA_SUCCESS) {
        return res;
    }
    *flags = location->id == s->device
                 ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                 : (CUmemAccess_flags)atomic_load_explicit(
                       &s->access[location->id], memory_order_relaxed);
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Sharing pools between processes: refused (cuda_mock_refuse.c), since no
// pool can be made with a shareable handle type (cuMemPoolCreate refuses
// them, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES is 0).

#define NO_POOL_IPC "no memory pool has a shareable handle type"

CUDA_MOCK_API CUresult cuMemPoolExportToShareableHandle(
    void *handle_out, CUmemoryPool pool, CUmemAllocationHandleType handleType,
    unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemPoolExportToShareableHandle);
    (void)handleType;
    if (handle_out == NULL || state_of(pool) == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse("cuMemPoolExportToShareableHandle", NO_POOL_IPC);
}

CUDA_MOCK_API CUresult cuMemPoolImportFromShareableHandle(
    CUmemoryPool *pool_out, void *handle, CUmemAllocationHandleType handleType,
    unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemPoolImportFromShareableHandle);
    (void)handle, (void)handleType;
    if (pool_out == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse("cuMemPoolImportFromShareableHandle", NO_POOL_IPC);
}

CUDA_MOCK_API CUresult
cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out, CUdeviceptr ptr) {
    CUDA_MOCK_ENTER(cuMemPoolExportPointer);
    if (shareData_out == NULL || ptr == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse("cuMemPoolExportPointer", NO_POOL_IPC);
}

CUDA_MOCK_API CUresult
cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool,
                       CUmemPoolPtrExportData *shareData) {
    CUDA_MOCK_ENTER(cuMemPoolImportPointer);
    if (ptr_out == NULL || shareData == NULL || state_of(pool) == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse("cuMemPoolImportPointer", NO_POOL_IPC);
}

// ---------------------------------------------------------------------------
// Attributes

static void raise_high(_Atomic uint64_t *high, uint64_t value) {
    uint64_t h = atomic_load_explicit(high, memory_order_relaxed);
    while (value > h &&
           !atomic_compare_exchange_weak_explicit(
               high, &h, value, memory_order_relaxed, memory_order_relaxed)) {
    }
}

CUDA_MOCK_API CUresult cuMemPoolSetAttribute(CUmemoryPool pool,
                                             CUmemPool_attribute attr,
                                             void *value) {
    CUDA_MOCK_ENTER(cuMemPoolSetAttribute);
    pool_state_t *s = state_of(pool);
    if (s == NULL || value == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
        atomic_store(&s->reuse_follow_event_dependencies,
                     *(const int *)value != 0);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
        atomic_store(&s->reuse_allow_opportunistic, *(const int *)value != 0);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
        atomic_store(&s->reuse_allow_internal_dependencies,
                     *(const int *)value != 0);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        atomic_store(&s->release_threshold, *(const cuuint64_t *)value);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: {
        // "It is illegal to set this attribute to a non-zero value": a
        // reset, which starts the watermark again from the current value.
        if (*(const cuuint64_t *)value != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        bool reserved = attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH;
        atomic_store(reserved ? &s->reserved_high : &s->used_high,
                     atomic_load(reserved ? &s->reserved : &s->used));
        return CUDA_SUCCESS;
    }
    default:
        // Read-only (the current amounts) or unknown.
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUDA_MOCK_API CUresult cuMemPoolGetAttribute(CUmemoryPool pool,
                                             CUmemPool_attribute attr,
                                             void *value) {
    CUDA_MOCK_ENTER(cuMemPoolGetAttribute);
    pool_state_t *s = state_of(pool);
    if (s == NULL || value == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
        *(int *)value = atomic_load(&s->reuse_follow_event_dependencies);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
        *(int *)value = atomic_load(&s->reuse_allow_opportunistic);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
        *(int *)value = atomic_load(&s->reuse_allow_internal_dependencies);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        *(cuuint64_t *)value = atomic_load(&s->release_threshold);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
        *(cuuint64_t *)value = atomic_load(&s->reserved);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
        *(cuuint64_t *)value = atomic_load(&s->reserved_high);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        *(cuuint64_t *)value = atomic_load(&s->used);
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
        *(cuuint64_t *)value = atomic_load(&s->used_high);
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUDA_MOCK_API CUresult cuMemPoolTrimTo(CUmemoryPool pool,
                                       size_t minBytesToKeep) {
    CUDA_MOCK_ENTER(cuMemPoolTrimTo);
    (void)minBytesToKeep;
    // Nothing is held beyond the live allocations, which stay.
    return state_of(pool) != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// ---------------------------------------------------------------------------
// Allocation and free

static uint64_t page_round(size_t n) {
    uint64_t page = umf_mock_page_size;
    return ((uint64_t)n + page - 1) & ~(page - 1);
}

static CUresult alloc_from(pool_state_t *s, CUdeviceptr *dptr, size_t size,
                           CUstream stream, const char *call) {
    if (dptr == NULL || size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t mapped = page_round(size);
    if (s->max_size != 0 &&
        atomic_load_explicit(&s->reserved, memory_order_relaxed) + mapped >
            s->max_size) {
        UMF_MOCK_LOG_INFO("%s(%zu): the pool's maximum size (%zu) would be "
                          "passed",
                          call, size, s->max_size);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    state_ref(s);
    void *p;
    umf_mock_status_t status =
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, s->device, size, 0, (uintptr_t)s,
                       CUDA_MOCK_POOL_MEMORY, &p);
    if (status != UMF_MOCK_OK) {
        state_unref(s);
        UMF_MOCK_LOG_INFO("%s(%zu) on device %d: %s", call, size, s->device,
                          umf_mock_status_name(status));
        return cuda_mock_result_of(status);
    }
    raise_high(&s->used_high, atomic_fetch_add(&s->used, size) + size);
    raise_high(&s->reserved_high,
               atomic_fetch_add(&s->reserved, mapped) + mapped);
    (void)stream;
    *dptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUmemoryPool cuda_mock_pool_of(const umf_mock_alloc_info_t *info) {
    return ((const pool_state_t *)info->owner)->handle;
}

void cuda_mock_pool_freed(const umf_mock_alloc_info_t *info) {
    pool_state_t *s = (pool_state_t *)info->owner;
    atomic_fetch_sub(&s->used, info->size);
    atomic_fetch_sub(&s->reserved, info->mapped);
    state_unref(s);
}

// On a capturing stream, an allocation is a memory allocation node of the
// capture's graph (cuda_mock_capture.c): *captured, with its address.
static CUresult capture_alloc(const cuda_mock_stream_ref_t *st,
                              const pool_state_t *s, CUdeviceptr *dptr,
                              size_t size, bool *captured, const char *call) {
    *captured = false;
    if (dptr == NULL || size == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_order_capture_mem(st, s->device, size, dptr, captured,
                                       call);
}

static CUresult alloc_async(CUdeviceptr *dptr, size_t size, CUstream stream,
                            const char *call) {
    cuda_mock_stream_ref_t st;
    CUresult res = cuda_mock_stream_get(stream, call, &st);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // The pool current to the stream's device.
    pool_state_t *s = state_of(current_of(cuda_mock_ctx_device(st.ctx)));
    if (s == NULL) {
        return CUDA_ERROR_INVALID_VALUE; // destroyed meanwhile
    }
    bool captured;
    res = capture_alloc(&st, s, dptr, size, &captured, call);
    return res != CUDA_SUCCESS || captured
               ? res
               : alloc_from(s, dptr, size, stream, call);
}

CUDA_MOCK_API CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize,
                                       CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemAllocAsync);
    return alloc_async(dptr, bytesize, hStream, "cuMemAllocAsync");
}

CUDA_MOCK_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemAllocAsync_ptsz);
    return alloc_async(dptr, bytesize, hStream, "cuMemAllocAsync_ptsz");
}

static CUresult alloc_from_pool(CUdeviceptr *dptr, size_t size,
                                CUmemoryPool pool, CUstream stream,
                                const char *call) {
    cuda_mock_stream_ref_t st;
    CUresult res = cuda_mock_stream_get(stream, call, &st);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // "The specified memory pool may be from a device different than that
    // of the specified hStream."
    pool_state_t *s = state_of(pool);
    if (s == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a memory pool of this driver", call,
                           (void *)pool);
        return CUDA_ERROR_INVALID_VALUE;
    }
    bool captured;
    res = capture_alloc(&st, s, dptr, size, &captured, call);
    return res != CUDA_SUCCESS || captured
               ? res
               : alloc_from(s, dptr, size, stream, call);
}

CUDA_MOCK_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr,
                                               size_t bytesize,
                                               CUmemoryPool pool,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemAllocFromPoolAsync);
    return alloc_from_pool(dptr, bytesize, pool, hStream,
                           "cuMemAllocFromPoolAsync");
}

CUDA_MOCK_API CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr,
                                                    size_t bytesize,
                                                    CUmemoryPool pool,
                                                    CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemAllocFromPoolAsync_ptsz);
    return alloc_from_pool(dptr, bytesize, pool, hStream,
                           "cuMemAllocFromPoolAsync_ptsz");
}

static CUresult free_async(CUdeviceptr dptr, CUstream stream,
                           const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // On a capturing stream: a free node of the capture's graph.
    bool captured;
    res = cuda_mock_order_capture_mem(&s, -1, 0, &dptr, &captured, call);
    if (res != CUDA_SUCCESS || captured) {
        return res;
    }
    const void *p = (const void *)(uintptr_t)dptr;
    umf_mock_alloc_info_t info;
    cuda_mock_graph_mem_free_fn gmem =
        atomic_load_explicit(&cuda_mock_graph_mem_free, memory_order_acquire);
    if (gmem != NULL && umf_mock_lookup(p, &info) == UMF_MOCK_OK &&
        (info.user_flags & CUDA_MOCK_GRAPH_MEMORY) != 0 && info.base == p) {
        // A graph allocation: ended in stream order (its hook checks and
        // makes the operation).
        cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_EMPTY, .call = call};
        res = gmem(&info, &op, call);
        return res == CUDA_SUCCESS ? cuda_mock_order_submit(&s, &op) : res;
    }
    if (umf_mock_lookup(p, &info) != UMF_MOCK_OK ||
        (info.user_flags & CUDA_MOCK_POOL_MEMORY) == 0 ||
        info.kind != UMF_MOCK_KIND_DEVICE) {
        UMF_MOCK_LOG_ERROR("%s(%p): not memory of cuMemAllocAsync or "
                           "cuMemAllocFromPoolAsync, or freed already",
                           call, p);
        return CUDA_ERROR_INVALID_VALUE;
    }
    // Freed as by cuMemFree_v2 (which settles the pool's accounts), in
    // stream order: after the work queued before it.
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_FREE, .call = call};
    op.u.free.ptr = dptr;
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemFreeAsync);
    return free_async(dptr, hStream, "cuMemFreeAsync");
}

CUDA_MOCK_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemFreeAsync_ptsz);
    return free_async(dptr, hStream, "cuMemFreeAsync_ptsz");
}
