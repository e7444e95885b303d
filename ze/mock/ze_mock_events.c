// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Event pools and events, and the IPC of event pools. An event's state is a
// slot of its pool's shared event memory (mock/mock_events.h): a pool made
// with ZE_EVENT_POOL_FLAG_IPC lives in a memfd that another process opens
// with zeEventPoolOpenIpcHandle, and a signal in one process is seen in the
// other. Each process makes its own event objects on a pool, by index; an
// event made on an opened pool takes the slot as it is (the exporter may
// have signalled it already), an event made on one's own pool starts reset.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mock_events.h"
#include "ze_mock_internal.h"

#define POOL_FLAGS                                                             \
    ((ze_event_pool_flags_t)(ZE_EVENT_POOL_FLAG_HOST_VISIBLE |                 \
                             ZE_EVENT_POOL_FLAG_IPC |                          \
                             ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
#define SCOPE_FLAGS                                                            \
    ((ze_event_scope_flags_t)(ZE_EVENT_SCOPE_FLAG_SUBDEVICE |                  \
                              ZE_EVENT_SCOPE_FLAG_DEVICE |                     \
                              ZE_EVENT_SCOPE_FLAG_HOST))

typedef struct event_pool_t {
    ze_mock_object_t obj;
    ze_event_pool_flags_t flags;
    bool imported; // opened from an IPC handle
    umf_mock_events_t *slots;
    pthread_mutex_t lock; // used[]
    uint8_t *used;        // which indices have an event in this process
} event_pool_t;

struct ze_mock_event_t {
    ze_mock_object_t obj;
    event_pool_t *pool;
    uint32_t index;
};

static event_pool_t *as_pool(ze_event_pool_handle_t h) {
    event_pool_t *p = (event_pool_t *)h;
    return p != NULL && p->obj.magic == ZE_MOCK_MAGIC_EVENT_POOL ? p : NULL;
}

ze_mock_event_t *ze_mock_event(ze_event_handle_t h) {
    ze_mock_event_t *e = (ze_mock_event_t *)h;
    return e != NULL && e->obj.magic == ZE_MOCK_MAGIC_EVENT ? e : NULL;
}

void ze_mock_event_signal(ze_mock_event_t *e) {
    umf_mock_event_signal(e->pool->slots, e->index);
}

void ze_mock_event_reset(ze_mock_event_t *e) {
    umf_mock_event_reset(e->pool->slots, e->index);
}

bool ze_mock_event_signaled(const ze_mock_event_t *e) {
    return umf_mock_event_signaled(e->pool->slots, e->index);
}

bool ze_mock_event_await(ze_mock_event_t *e) {
    // Only another process can signal an event of a shared pool while this
    // thread executes commands: wait for it. Nothing runs in the background
    // here, so any other event nobody signalled would never be.
    return umf_mock_events_shared(e->pool->slots)
               ? umf_mock_event_wait(e->pool->slots, e->index, UINT64_MAX)
               : ze_mock_event_signaled(e);
}

// ---- Pools ----------------------------------------------------------------

static ze_result_t pool_make(ze_mock_context_t *ctx,
                             ze_event_pool_flags_t flags,
                             umf_mock_events_t *slots, bool imported,
                             ze_event_pool_handle_t *phEventPool) {
    uint32_t count = umf_mock_events_count(slots);
    uint8_t *used = calloc(count, 1);
    event_pool_t *p = used == NULL
                          ? NULL
                          : ze_mock_object_new(sizeof(event_pool_t),
                                               ZE_MOCK_MAGIC_EVENT_POOL, ctx);
    if (p == NULL) {
        free(used);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    p->flags = flags;
    p->imported = imported;
    p->slots = slots;
    p->used = used;
    pthread_mutex_init(&p->lock, NULL);
    if (!ze_mock_object_publish(p, imported ? ZE_MOCK_OBJ_IMPORTED_EVENT_POOL
                                            : ZE_MOCK_OBJ_EVENT_POOL)) {
        pthread_mutex_destroy(&p->lock);
        free(used);
        free(p);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phEventPool = (ze_event_pool_handle_t)p;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_EventPoolCreate(
    ze_context_handle_t hContext, const ze_event_pool_desc_t *desc,
    uint32_t numDevices, ze_device_handle_t *phDevices,
    ze_event_pool_handle_t *phEventPool) {
    ZE_MOCK_ENTER(zeEventPoolCreate);
    ze_mock_context_t *ctx = ze_mock_context(hContext);
    if (ctx == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (desc == NULL || phEventPool == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags & ~POOL_FLAGS) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->count == 0 || (phDevices == NULL && numDevices > 0)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    for (uint32_t i = 0; i < numDevices; i++) {
        if (ze_mock_device(phDevices[i]) == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
    }
    if (desc->count > UMF_MOCK_EVENTS_MAX) {
        ZE_MOCK_EXPLAIN("zeEventPoolCreate: %u events, more than the %u "
                        "of a pool",
                        desc->count, UMF_MOCK_EVENTS_MAX);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    }
    umf_mock_events_t *slots;
    umf_mock_status_t s = umf_mock_events_create(
        desc->count, (desc->flags & ZE_EVENT_POOL_FLAG_IPC) != 0, &slots);
    if (s != UMF_MOCK_OK) {
        return ze_mock_result(s);
    }
    ze_result_t r = pool_make(ctx, desc->flags, slots, false, phEventPool);
    if (r != ZE_RESULT_SUCCESS) {
        umf_mock_events_release(slots);
    }
    return r;
}

static bool pool_in_use(event_pool_t *p) {
    pthread_mutex_lock(&p->lock);
    bool in_use = false;
    for (uint32_t i = 0; i < umf_mock_events_count(p->slots) && !in_use; i++) {
        in_use = p->used[i] != 0;
    }
    pthread_mutex_unlock(&p->lock);
    return in_use;
}

static void pool_free(event_pool_t *p) {
    pthread_mutex_destroy(&p->lock);
    umf_mock_events_release(p->slots);
    free(p->used);
    free(p);
}

static ze_result_t ZE_APICALL
mock_EventPoolDestroy(ze_event_pool_handle_t hEventPool) {
    ZE_MOCK_ENTER(zeEventPoolDestroy);
    event_pool_t *p = (event_pool_t *)hEventPool;
    if (p == NULL || !umf_mock_object_contains(ZE_MOCK_OBJ_EVENT_POOL, p)) {
        if (p != NULL &&
            umf_mock_object_contains(ZE_MOCK_OBJ_IMPORTED_EVENT_POOL, p)) {
            ZE_MOCK_EXPLAIN("zeEventPoolDestroy(%p): an event pool opened "
                            "from an IPC handle: close it with "
                            "zeEventPoolCloseIpcHandle",
                            (void *)p);
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (pool_in_use(p)) {
        ZE_MOCK_EXPLAIN("zeEventPoolDestroy: events of the pool are alive");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    }
    if (!ze_mock_object_drop(p, ZE_MOCK_OBJ_EVENT_POOL)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    pool_free(p);
    return ZE_RESULT_SUCCESS;
}

// ---- IPC of pools ---------------------------------------------------------

static ze_result_t ZE_APICALL mock_EventPoolGetIpcHandle(
    ze_event_pool_handle_t hEventPool, ze_ipc_event_pool_handle_t *phIpc) {
    ZE_MOCK_ENTER(zeEventPoolGetIpcHandle);
    event_pool_t *p = as_pool(hEventPool);
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (phIpc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_events_desc_t d;
    if (p->imported || (p->flags & ZE_EVENT_POOL_FLAG_IPC) == 0 ||
        umf_mock_events_export(p->slots, &d) != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("zeEventPoolGetIpcHandle(%p): %s", (void *)p,
                        p->imported ? "the pool was opened from an IPC "
                                      "handle: export the original"
                                    : "the pool was created without "
                                      "ZE_EVENT_POOL_FLAG_IPC");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
    }
    _Static_assert(sizeof(phIpc->data) == UMF_MOCK_EVENTS_HANDLE_BYTES,
                   "a Level Zero event pool IPC handle holds the core's");
    umf_mock_events_pack(&d, (unsigned char *)phIpc->data);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_EventPoolOpenIpcHandle(
    ze_context_handle_t hContext, ze_ipc_event_pool_handle_t hIpc,
    ze_event_pool_handle_t *phEventPool) {
    ZE_MOCK_ENTER(zeEventPoolOpenIpcHandle);
    ze_mock_context_t *ctx = ze_mock_context(hContext);
    if (ctx == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (phEventPool == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_events_desc_t d;
    umf_mock_status_t s =
        umf_mock_events_unpack((const unsigned char *)hIpc.data, &d);
    if (s != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("zeEventPoolOpenIpcHandle: not an event pool IPC "
                        "handle of this driver (corrupt or truncated)");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    umf_mock_events_t *slots;
    s = umf_mock_events_import(&d, &slots);
    if (s != UMF_MOCK_OK) {
        return ze_mock_result(s);
    }
    // The exporter's flags are not in the handle: an opened pool is an IPC
    // pool, visible to the host.
    ze_result_t r =
        pool_make(ctx, ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
                  slots, true, phEventPool);
    if (r != ZE_RESULT_SUCCESS) {
        umf_mock_events_release(slots);
    }
    return r;
}

// Destroys the events this process made on pool `p`.
static void drop_events_of(event_pool_t *p);

static ze_result_t ZE_APICALL
mock_EventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool) {
    ZE_MOCK_ENTER(zeEventPoolCloseIpcHandle);
    event_pool_t *p = (event_pool_t *)hEventPool;
    if (p == NULL ||
        !umf_mock_object_contains(ZE_MOCK_OBJ_IMPORTED_EVENT_POOL, p)) {
        if (p != NULL && umf_mock_object_contains(ZE_MOCK_OBJ_EVENT_POOL, p)) {
            ZE_MOCK_EXPLAIN("zeEventPoolCloseIpcHandle(%p): not opened from "
                            "an IPC handle: destroy it with "
                            "zeEventPoolDestroy",
                            (void *)p);
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    // The spec: closing destroys the events made on it in this process.
    drop_events_of(p);
    if (!ze_mock_object_drop(p, ZE_MOCK_OBJ_IMPORTED_EVENT_POOL)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    pool_free(p);
    return ZE_RESULT_SUCCESS;
}

// Level Zero 1.6: the fd of a pool's handle is the pool's own memory, which
// lives as long as the pool: nothing to give back, but the handle must be
// one of this driver's.
static ze_result_t ZE_APICALL mock_EventPoolPutIpcHandle(
    ze_context_handle_t hContext, ze_ipc_event_pool_handle_t hIpc) {
    ZE_MOCK_ENTER(zeEventPoolPutIpcHandle);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    umf_mock_events_desc_t d;
    if (umf_mock_events_unpack((const unsigned char *)hIpc.data, &d) !=
        UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("not an event pool IPC handle of this driver "
                        "(corrupt or truncated)");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_event_pool_1_6(ze_event_pool_dditable_1_6_t *t) {
    t->pfnPutIpcHandle = mock_EventPoolPutIpcHandle;
}

void ze_mock_fill_event_pool(ze_event_pool_dditable_t *t) {
    t->pfnCreate = mock_EventPoolCreate;
    t->pfnDestroy = mock_EventPoolDestroy;
    t->pfnGetIpcHandle = mock_EventPoolGetIpcHandle;
    t->pfnOpenIpcHandle = mock_EventPoolOpenIpcHandle;
    t->pfnCloseIpcHandle = mock_EventPoolCloseIpcHandle;
}

// ---- Events ---------------------------------------------------------------

static ze_result_t ZE_APICALL
mock_EventCreate(ze_event_pool_handle_t hEventPool, const ze_event_desc_t *desc,
                 ze_event_handle_t *phEvent) {
    ZE_MOCK_ENTER(zeEventCreate);
    event_pool_t *p = as_pool(hEventPool);
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (desc == NULL || phEvent == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if ((desc->signal & ~SCOPE_FLAGS) || (desc->wait & ~SCOPE_FLAGS)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->index >= umf_mock_events_count(p->slots)) {
        ZE_MOCK_EXPLAIN("zeEventCreate: index %u of a pool of %u events",
                        desc->index, umf_mock_events_count(p->slots));
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    pthread_mutex_lock(&p->lock);
    bool taken = p->used[desc->index] != 0;
    p->used[desc->index] = 1;
    pthread_mutex_unlock(&p->lock);
    if (taken) {
        ZE_MOCK_EXPLAIN("zeEventCreate: index %u of the pool is taken",
                        desc->index);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    ze_mock_event_t *e = ze_mock_object_new(sizeof(ze_mock_event_t),
                                            ZE_MOCK_MAGIC_EVENT, p->obj.ctx);
    if (e != NULL) {
        e->pool = p;
        e->index = desc->index;
    }
    if (e == NULL || !ze_mock_object_publish(e, ZE_MOCK_OBJ_EVENT)) {
        free(e);
        pthread_mutex_lock(&p->lock);
        p->used[desc->index] = 0;
        pthread_mutex_unlock(&p->lock);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    if (!p->imported) {
        ze_mock_event_reset(e); // a new event is not signalled
    }
    *phEvent = (ze_event_handle_t)e;
    return ZE_RESULT_SUCCESS;
}

static void event_free(ze_mock_event_t *e) {
    pthread_mutex_lock(&e->pool->lock);
    e->pool->used[e->index] = 0;
    pthread_mutex_unlock(&e->pool->lock);
    free(e);
}

static ze_result_t ZE_APICALL mock_EventDestroy(ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeEventDestroy);
    ze_mock_event_t *e = (ze_mock_event_t *)hEvent;
    if (!ze_mock_object_drop(e, ZE_MOCK_OBJ_EVENT)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    event_free(e);
    return ZE_RESULT_SUCCESS;
}

static bool of_pool(const void *obj, const void *pool) {
    return ((const ze_mock_event_t *)obj)->pool == pool;
}

static void drop_events_of(event_pool_t *p) {
    size_t count;
    void **events =
        ze_mock_objects_collect(ZE_MOCK_OBJ_EVENT, of_pool, p, &count);
    for (size_t i = 0; i < count; i++) {
        if (ze_mock_object_drop(events[i], ZE_MOCK_OBJ_EVENT)) {
            event_free(events[i]);
        }
    }
    free(events);
}

// Context release: events first, then their pools.
void ze_mock_event_release(void *obj) {
    event_free(obj);
}

void ze_mock_event_pool_release(void *obj) {
    pool_free(obj);
}

static ze_result_t ZE_APICALL mock_EventHostSignal(ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeEventHostSignal);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_mock_event_signal(e);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_EventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout) {
    ZE_MOCK_ENTER(zeEventHostSynchronize);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    return umf_mock_event_wait(e->pool->slots, e->index, timeout)
               ? ZE_RESULT_SUCCESS
               : ZE_RESULT_NOT_READY;
}

static ze_result_t ZE_APICALL mock_EventQueryStatus(ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeEventQueryStatus);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    return ze_mock_event_signaled(e) ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

static ze_result_t ZE_APICALL mock_EventHostReset(ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeEventHostReset);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_mock_event_reset(e);
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_event(ze_event_dditable_t *t) {
    t->pfnCreate = mock_EventCreate;
    t->pfnDestroy = mock_EventDestroy;
    t->pfnHostSignal = mock_EventHostSignal;
    t->pfnHostSynchronize = mock_EventHostSynchronize;
    t->pfnQueryStatus = mock_EventQueryStatus;
    t->pfnHostReset = mock_EventHostReset;
}
