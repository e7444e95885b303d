// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Event pools and events, and the IPC of event pools. An event's state is a
// slot of its pool's shared event memory (mock/mock_events.h): a pool made
// with ZE_EVENT_POOL_FLAG_IPC lives in a memfd that another process opens
// with zeEventPoolOpenIpcHandle, and a signal in one process is seen in the
// other. Each process makes its own event objects on a pool, by index; an
// event made on an opened pool takes the slot as it is (the exporter may
// have signalled it already), an event made on one's own pool starts reset.
//
// As on Intel's driver, the objects outlive their handles where programs
// rely on it: a pool destroyed before its events lives until the last of
// them goes; events at one index of a pool alias one slot; pools and
// events that zeContextDestroy released may still be destroyed (it
// succeeds and does nothing more). A command that waits for or signals an
// event holds it (its memory, and its pool's) until the command is gone.
//
// What the process knows of each slot, beside its state: how many live
// handles and how many commands that would signal it there are (none of
// either, in a pool no other process shares, and the slot can never be
// signalled again: the engine drops the commands that wait for it), and
// whether a command that would have signalled it was dropped (a host
// thread waiting for it stops).

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mock_events.h"
#include "ze_mock_engine.h"
#include "ze_mock_internal.h"

#define POOL_FLAGS                                                             \
    ((ze_event_pool_flags_t)(ZE_EVENT_POOL_FLAG_HOST_VISIBLE |                 \
                             ZE_EVENT_POOL_FLAG_IPC |                          \
                             ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |             \
                             ZE_MOCK_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP))
#define TIMESTAMP_FLAGS                                                        \
    ((ze_event_pool_flags_t)(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |             \
                             ZE_MOCK_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP))
#define SCOPE_FLAGS                                                            \
    ((ze_event_scope_flags_t)(ZE_EVENT_SCOPE_FLAG_SUBDEVICE |                  \
                              ZE_EVENT_SCOPE_FLAG_DEVICE |                     \
                              ZE_EVENT_SCOPE_FLAG_HOST))

typedef struct slot_info_t {
    _Atomic uint32_t handles;    // live event handles at the index
    _Atomic uint32_t signallers; // commands that would signal it
    _Atomic uint32_t queued;     // ... of them, waiting in streams
    _Atomic uint32_t abandoned;  // a queued signaller was dropped unrun
} slot_info_t;

typedef struct timestamps_t {
    _Atomic uint64_t start, end;
} timestamps_t;

typedef struct event_pool_t {
    ze_mock_object_t obj;
    ze_event_pool_flags_t flags;
    bool imported; // opened from an IPC handle
    umf_mock_events_t *slots;
    _Atomic uint32_t refs; // the handle, and each event made on it
    slot_info_t *info;
    timestamps_t *ts; // kernel timestamps, for pools that keep them
} event_pool_t;

struct ze_mock_event_t {
    ze_mock_object_t obj;
    event_pool_t *pool;
    uint32_t index;
    ze_event_scope_flags_t signal_scope, wait_scope;
    _Atomic uint32_t refs; // the handle, and each command holding it
    // Counter-based: alone in a pool of its own, which it owns.
    bool counter_based;
    _Atomic uint64_t gen; // its latest submission (ze_mock_event_arm)
};

static event_pool_t *as_pool(ze_event_pool_handle_t h) {
    event_pool_t *p = (event_pool_t *)h;
    return p != NULL && p->obj.magic == ZE_MOCK_MAGIC_EVENT_POOL ? p : NULL;
}

ze_mock_event_t *ze_mock_event(ze_event_handle_t h) {
    ze_mock_event_t *e = (ze_mock_event_t *)h;
    return e != NULL && e->obj.magic == ZE_MOCK_MAGIC_EVENT ? e : NULL;
}

// ---- Released by their context ----------------------------------------------
//
// The handles zeContextDestroy released, so that destroying one later
// succeeds once (Intel's driver lets a program destroy an event pool after
// its context, and the conformance suite and the Unified Runtime do). A
// handle leaves the set when an object is made at its address again, and
// the oldest go when the set is full.

#define ORPHANS_MAX 65536

static pthread_mutex_t orphan_lock = PTHREAD_MUTEX_INITIALIZER;
static const void **orphans;
static size_t orphan_count, orphan_cap;

static void orphan_add(const void *h) {
    pthread_mutex_lock(&orphan_lock);
    if (orphan_count == ORPHANS_MAX) {
        memmove(orphans, orphans + 1, (orphan_count - 1) * sizeof(*orphans));
        orphan_count--;
    }
    if (orphan_count == orphan_cap) {
        size_t cap = orphan_cap ? 2 * orphan_cap : 64;
        const void **n = realloc(orphans, cap * sizeof(*n));
        if (n != NULL) {
            orphans = n;
            orphan_cap = cap;
        }
    }
    if (orphan_count < orphan_cap) {
        orphans[orphan_count++] = h;
    }
    pthread_mutex_unlock(&orphan_lock);
}

// True (once) when zeContextDestroy released `h`.
static bool orphan_take(const void *h) {
    bool found = false;
    pthread_mutex_lock(&orphan_lock);
    for (size_t i = orphan_count; i-- > 0 && !found;) {
        if (orphans[i] == h) {
            memmove(&orphans[i], &orphans[i + 1],
                    (orphan_count - i - 1) * sizeof(*orphans));
            orphan_count--;
            found = true;
        }
    }
    pthread_mutex_unlock(&orphan_lock);
    return found;
}

// ---- Lifetimes --------------------------------------------------------------

static void pool_unref(event_pool_t *p) {
    if (atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    umf_mock_events_release(p->slots);
    free(p->info);
    free(p->ts);
    free(p);
}

static void event_unref(ze_mock_event_t *e) {
    if (atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    event_pool_t *p = e->pool;
    free(e);
    pool_unref(p);
}

static bool shared(const event_pool_t *p) {
    return umf_mock_events_shared(p->slots);
}

// One fewer handle or signaller of a slot: when none is left, waits for it
// may have become endless.
static void slot_release(event_pool_t *p, _Atomic uint32_t *count) {
    if (atomic_fetch_sub_explicit(count, 1, memory_order_seq_cst) == 1 &&
        !shared(p)) {
        ze_mock_engine_notify();
    }
}

// The handle of `e` goes (after ze_mock_object_drop).
static void event_destroy_handle(ze_mock_event_t *e) {
    slot_release(e->pool, &e->pool->info[e->index].handles);
    event_unref(e);
}

// ---- What commands use ------------------------------------------------------

void ze_mock_event_signal(ze_mock_event_t *e, uint64_t gen, uint64_t start,
                          uint64_t end) {
    event_pool_t *p = e->pool;
    if (e->counter_based &&
        gen != atomic_load_explicit(&e->gen, memory_order_acquire)) {
        return; // a later submission took the event
    }
    if (p->ts != NULL) {
        atomic_store_explicit(&p->ts[e->index].start, start,
                              memory_order_relaxed);
        atomic_store_explicit(&p->ts[e->index].end, end, memory_order_relaxed);
    }
    atomic_store_explicit(&p->info[e->index].abandoned, 0,
                          memory_order_relaxed);
    umf_mock_event_signal(p->slots, e->index); // releases the timestamps
    ze_mock_engine_notify();
}

uint64_t ze_mock_event_arm(ze_mock_event_t *e) {
    if (!e->counter_based) {
        return 0;
    }
    uint64_t gen = atomic_fetch_add_explicit(&e->gen, 1, memory_order_acq_rel);
    ze_mock_event_reset(e);
    return gen + 1;
}

bool ze_mock_event_counter_based(const ze_mock_event_t *e) {
    return e->counter_based;
}

void ze_mock_event_reset(ze_mock_event_t *e) {
    atomic_store_explicit(&e->pool->info[e->index].abandoned, 0,
                          memory_order_relaxed);
    umf_mock_event_reset(e->pool->slots, e->index);
}

bool ze_mock_event_signaled(const ze_mock_event_t *e) {
    return umf_mock_event_signaled(e->pool->slots, e->index);
}

bool ze_mock_event_timestamped(const ze_mock_event_t *e) {
    return e->pool->ts != NULL;
}

bool ze_mock_event_timestamps(const ze_mock_event_t *e, uint64_t *start,
                              uint64_t *end) {
    if (e->pool->ts == NULL || !ze_mock_event_signaled(e)) {
        return false;
    }
    *start = atomic_load_explicit(&e->pool->ts[e->index].start,
                                  memory_order_relaxed);
    *end =
        atomic_load_explicit(&e->pool->ts[e->index].end, memory_order_relaxed);
    return true;
}

void ze_mock_event_hold(ze_mock_event_t *e, unsigned how) {
    slot_info_t *i = &e->pool->info[e->index];
    atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
    if (how & ZE_MOCK_HOLD_SIGNALS) {
        atomic_fetch_add_explicit(&i->signallers, 1, memory_order_seq_cst);
        if (how & ZE_MOCK_HOLD_QUEUED) {
            atomic_fetch_add_explicit(&i->queued, 1, memory_order_seq_cst);
        }
    }
}

void ze_mock_event_unhold(ze_mock_event_t *e, unsigned how, bool abandoned) {
    slot_info_t *i = &e->pool->info[e->index];
    if (how & ZE_MOCK_HOLD_SIGNALS) {
        bool queued = (how & ZE_MOCK_HOLD_QUEUED) != 0;
        if (queued && abandoned) {
            atomic_store_explicit(&i->abandoned, 1, memory_order_seq_cst);
        }
        if (queued) {
            atomic_fetch_sub_explicit(&i->queued, 1, memory_order_seq_cst);
        }
        slot_release(e->pool, &i->signallers);
        if (queued && abandoned) {
            umf_mock_event_interrupt(e->pool->slots, e->index);
        }
    }
    event_unref(e);
}

bool ze_mock_event_dead(ze_mock_event_t *e) {
    const slot_info_t *i = &e->pool->info[e->index];
    // The counts first: a signal made before the last of them went is seen
    // by the look at the state after.
    return !shared(e->pool) &&
           atomic_load_explicit(&i->handles, memory_order_seq_cst) == 0 &&
           atomic_load_explicit(&i->signallers, memory_order_seq_cst) == 0 &&
           !ze_mock_event_signaled(e);
}

bool ze_mock_event_slot(const ze_mock_event_t *e, umf_mock_event_ref_t *slot) {
    if (!shared(e->pool)) {
        return false;
    }
    slot->pool = e->pool->slots;
    slot->index = e->index;
    return true;
}

// ---- Pools ------------------------------------------------------------------

static ze_result_t pool_make(ze_mock_context_t *ctx,
                             ze_event_pool_flags_t flags,
                             umf_mock_events_t *slots, bool imported,
                             ze_event_pool_handle_t *phEventPool) {
    uint32_t count = umf_mock_events_count(slots);
    slot_info_t *info = calloc(count, sizeof(*info));
    timestamps_t *ts = (flags & TIMESTAMP_FLAGS) != 0 && !imported
                           ? calloc(count, sizeof(*ts))
                           : NULL;
    event_pool_t *p = info == NULL || ((flags & TIMESTAMP_FLAGS) != 0 &&
                                       !imported && ts == NULL)
                          ? NULL
                          : ze_mock_object_new(sizeof(event_pool_t),
                                               ZE_MOCK_MAGIC_EVENT_POOL, ctx);
    if (p == NULL) {
        free(info);
        free(ts);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    p->flags = flags;
    p->imported = imported;
    p->slots = slots;
    p->info = info;
    p->ts = ts;
    atomic_init(&p->refs, 1);
    orphan_take(p); // an older handle at this address is gone for good
    if (!ze_mock_object_publish(p, imported ? ZE_MOCK_OBJ_IMPORTED_EVENT_POOL
                                            : ZE_MOCK_OBJ_EVENT_POOL)) {
        free(info);
        free(ts);
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

static ze_result_t ZE_APICALL
mock_EventPoolDestroy(ze_event_pool_handle_t hEventPool) {
    ZE_MOCK_ENTER(zeEventPoolDestroy);
    event_pool_t *p = (event_pool_t *)hEventPool;
    if (p == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (umf_mock_object_contains(ZE_MOCK_OBJ_IMPORTED_EVENT_POOL, p)) {
        ZE_MOCK_EXPLAIN("zeEventPoolDestroy(%p): an event pool opened "
                        "from an IPC handle: close it with "
                        "zeEventPoolCloseIpcHandle",
                        (void *)p);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    // Events of the pool may live on (the spec asks a program to destroy
    // them first; Intel's driver does not, and runtimes rely on it): the
    // pool's memory goes with the last of them.
    if (!ze_mock_object_drop(p, ZE_MOCK_OBJ_EVENT_POOL)) {
        return orphan_take(p)
                   ? ZE_RESULT_SUCCESS
                   : ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    pool_unref(p);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_EventPoolGetContextHandle(
    ze_event_pool_handle_t hEventPool, ze_context_handle_t *phContext) {
    ZE_MOCK_ENTER(zeEventPoolGetContextHandle);
    return ZE_MOCK_QUERY(event_pool_t, ZE_MOCK_MAGIC_EVENT_POOL, hEventPool,
                         phContext, obj.ctx);
}

static ze_result_t ZE_APICALL mock_EventPoolGetFlags(
    ze_event_pool_handle_t hEventPool, ze_event_pool_flags_t *pFlags) {
    ZE_MOCK_ENTER(zeEventPoolGetFlags);
    return ZE_MOCK_QUERY(event_pool_t, ZE_MOCK_MAGIC_EVENT_POOL, hEventPool,
                         pFlags, flags);
}

// ---- IPC of pools -----------------------------------------------------------

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

static bool of_pool(const void *obj, const void *pool) {
    return ((const ze_mock_event_t *)obj)->pool == pool;
}

// Destroys the events this process made on pool `p`.
static void drop_events_of(event_pool_t *p) {
    size_t count;
    void **events =
        ze_mock_objects_collect(ZE_MOCK_OBJ_EVENT, of_pool, p, &count);
    for (size_t i = 0; i < count; i++) {
        if (ze_mock_object_drop(events[i], ZE_MOCK_OBJ_EVENT)) {
            event_destroy_handle(events[i]);
        }
    }
    free(events);
}

static ze_result_t ZE_APICALL
mock_EventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool) {
    ZE_MOCK_ENTER(zeEventPoolCloseIpcHandle);
    event_pool_t *p = (event_pool_t *)hEventPool;
    if (p != NULL && umf_mock_object_contains(ZE_MOCK_OBJ_EVENT_POOL, p)) {
        ZE_MOCK_EXPLAIN("zeEventPoolCloseIpcHandle(%p): not opened from "
                        "an IPC handle: destroy it with zeEventPoolDestroy",
                        (void *)p);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (p == NULL ||
        !umf_mock_object_contains(ZE_MOCK_OBJ_IMPORTED_EVENT_POOL, p)) {
        return p != NULL && orphan_take(p)
                   ? ZE_RESULT_SUCCESS
                   : ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    // The spec: closing destroys the events made on it in this process.
    drop_events_of(p);
    if (!ze_mock_object_drop(p, ZE_MOCK_OBJ_IMPORTED_EVENT_POOL)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    pool_unref(p);
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

static void event_pool_release(void *obj); // zeContextDestroy (below)

void ze_mock_fill_event_pool(ze_mock_event_pool_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_EVENT_POOL, event_pool_release);
    ze_mock_object_kind_register(ZE_MOCK_OBJ_IMPORTED_EVENT_POOL,
                                 event_pool_release);
    t->v1_4.pfnCreate = mock_EventPoolCreate;
    t->v1_4.pfnDestroy = mock_EventPoolDestroy;
    t->v1_4.pfnGetIpcHandle = mock_EventPoolGetIpcHandle;
    t->v1_4.pfnOpenIpcHandle = mock_EventPoolOpenIpcHandle;
    t->v1_4.pfnCloseIpcHandle = mock_EventPoolCloseIpcHandle;
    t->pfnPutIpcHandle = mock_EventPoolPutIpcHandle;
    t->pfnGetContextHandle = mock_EventPoolGetContextHandle;
    t->pfnGetFlags = mock_EventPoolGetFlags;
}

// ---- Events -----------------------------------------------------------------

// An event of pool `p` at a valid index of `desc`.
static ze_result_t event_make(event_pool_t *p, const ze_event_desc_t *desc,
                              bool counter_based, ze_event_handle_t *phEvent) {
    ze_mock_event_t *e = ze_mock_object_new(sizeof(ze_mock_event_t),
                                            ZE_MOCK_MAGIC_EVENT, p->obj.ctx);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    e->pool = p;
    e->index = desc->index;
    e->signal_scope = desc->signal;
    e->wait_scope = desc->wait;
    e->counter_based = counter_based;
    atomic_init(&e->gen, 0);
    atomic_init(&e->refs, 1);
    atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
    // An index that has an event already: both alias its one state, as on
    // Intel's driver (the spec leaves it to the program).
    atomic_fetch_add_explicit(&p->info[e->index].handles, 1,
                              memory_order_seq_cst);
    orphan_take(e);
    if (!ze_mock_object_publish(e, ZE_MOCK_OBJ_EVENT)) {
        event_destroy_handle(e);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    if (!p->imported) {
        ze_mock_event_reset(e); // a new event is not signalled
    }
    *phEvent = (ze_event_handle_t)e;
    return ZE_RESULT_SUCCESS;
}

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
    return event_make(p, desc, false, phEvent);
}

static ze_result_t ZE_APICALL mock_EventDestroy(ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeEventDestroy);
    ze_mock_event_t *e = (ze_mock_event_t *)hEvent;
    if (!ze_mock_object_drop(e, ZE_MOCK_OBJ_EVENT)) {
        return e != NULL && orphan_take(e)
                   ? ZE_RESULT_SUCCESS
                   : ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    event_destroy_handle(e);
    return ZE_RESULT_SUCCESS;
}

// zeContextDestroy: events first, then their pools; their handles may
// still be destroyed.
static void event_release(void *obj) {
    orphan_add(obj);
    event_destroy_handle(obj);
}

static void event_pool_release(void *obj) {
    orphan_add(obj);
    pool_unref(obj);
}

// "Counter-based events must not be reset ... must not be signaled from
// host": UNSUPPORTED_FEATURE, as Intel's driver answers both.
static ze_result_t counter_based_refusal(const char *call) {
    ZE_MOCK_EXPLAIN("%s: a counter-based event is signalled by the commands "
                    "that take it, and never reset",
                    call);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL mock_EventHostSignal(ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeEventHostSignal);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (e->counter_based) {
        return counter_based_refusal("zeEventHostSignal");
    }
    uint64_t now = e->pool->ts != NULL ? ze_mock_timer_now() : 0;
    ze_mock_event_signal(e, 0, now, now);
    return ZE_RESULT_SUCCESS;
}

// The command that was to signal the event was dropped unrun, and no
// other waits in a stream to.
static bool signaller_dropped(void *arg) {
    const slot_info_t *i = arg;
    return atomic_load_explicit(&i->abandoned, memory_order_seq_cst) != 0 &&
           atomic_load_explicit(&i->queued, memory_order_seq_cst) == 0;
}

static ze_result_t ZE_APICALL
mock_EventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout) {
    ZE_MOCK_ENTER(zeEventHostSynchronize);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    slot_info_t *i = &e->pool->info[e->index];
    if (umf_mock_event_wait_until(e->pool->slots, e->index, timeout,
                                  signaller_dropped, i)) {
        return ZE_RESULT_SUCCESS;
    }
    // A wait without limit ends only when the command that was to signal
    // the event was dropped with its queue's lost work.
    if (timeout == UINT64_MAX || signaller_dropped(i)) {
        ZE_MOCK_EXPLAIN("zeEventHostSynchronize(%p): the command that was to "
                        "signal the event was dropped",
                        (void *)e);
        return timeout == UINT64_MAX ? ZE_MOCK_FAIL(ZE_RESULT_ERROR_DEVICE_LOST)
                                     : ZE_RESULT_NOT_READY;
    }
    return ZE_RESULT_NOT_READY;
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
    if (e->counter_based) {
        return counter_based_refusal("zeEventHostReset");
    }
    ze_mock_event_reset(e);
    return ZE_RESULT_SUCCESS;
}

// ---- Events alone in a pool ------------------------------------------------
//
// What zexCounterBasedEventCreate2 (ze_mock_counter_event.c) makes: an
// event alone in a pool of its own that the event owns (the pool's handle
// is dropped at once, so the pool goes with the event), process-local.

ze_result_t ze_mock_event_create_alone(ze_mock_context_t *ctx,
                                       ze_event_pool_flags_t pool_flags,
                                       ze_event_scope_flags_t signal,
                                       ze_event_scope_flags_t wait,
                                       bool counter_based,
                                       ze_event_handle_t *phEvent) {
    if ((signal & ~SCOPE_FLAGS) || (wait & ~SCOPE_FLAGS) ||
        (pool_flags & ~(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | TIMESTAMP_FLAGS))) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    umf_mock_events_t *slots;
    umf_mock_status_t s = umf_mock_events_create(1, false, &slots);
    if (s != UMF_MOCK_OK) {
        return ze_mock_result(s);
    }
    ze_event_pool_handle_t pool;
    ze_result_t r = pool_make(ctx, pool_flags, slots, false, &pool);
    if (r != ZE_RESULT_SUCCESS) {
        umf_mock_events_release(slots);
        return r;
    }
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, signal, wait};
    r = event_make(as_pool(pool), &ed, counter_based, phEvent);
    // The pool is the event's alone: it goes with it.
    event_pool_t *p = as_pool(pool);
    if (ze_mock_object_drop(p, ZE_MOCK_OBJ_EVENT_POOL)) {
        pool_unref(p);
    }
    return r;
}

// ---- Kernel timestamps ------------------------------------------------------
//
// An event of a pool made with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP (or
// KERNEL_MAPPED_TIMESTAMP) keeps the device timer when the command that
// signalled it started and ended (ze_mock_timer_now: the clock of
// zeDeviceGetGlobalTimestamps, so the two compare, and the host's time
// domain too); a signal without a command (the host's, zeCommandList-
// AppendSignalEvent) has no duration. The context-active clocks are the
// global ones: the device runs nothing else.

// The event's timestamps for the queries; NOT_READY while it is not
// signalled, INVALID_ARGUMENT for a pool without them.
static ze_result_t timestamps_of(ze_mock_event_t *e,
                                 ze_kernel_timestamp_result_t *r) {
    uint64_t start, end;
    if (e->pool->ts == NULL) {
        ZE_MOCK_EXPLAIN("event %p: its pool was created without "
                        "ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP",
                        (void *)e);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (!ze_mock_event_timestamps(e, &start, &end)) {
        return ZE_RESULT_NOT_READY;
    }
    r->global.kernelStart = r->context.kernelStart = start;
    r->global.kernelEnd = r->context.kernelEnd = end;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_EventQueryKernelTimestamp(
    ze_event_handle_t hEvent, ze_kernel_timestamp_result_t *dstptr) {
    ZE_MOCK_ENTER(zeEventQueryKernelTimestamp);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (dstptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_kernel_timestamp_result_t r;
    ze_result_t res = timestamps_of(e, &r);
    if (res == ZE_RESULT_SUCCESS) {
        *dstptr = r; // unmodified unless signalled
    }
    return res;
}

// "All timestamps for all sub-devices when device handle is parent
// device": one per sub-device (the same values: the emulated device runs a
// command once, for all of its sub-devices), else one. *filled gets how
// many results the caller takes (0: it asks for the count).
static ze_result_t
query_timestamps_common(ze_event_handle_t hEvent, ze_device_handle_t hDevice,
                        uint32_t *pCount, ze_kernel_timestamp_result_t *r,
                        ze_mock_event_t **event, uint32_t *filled) {
    ze_mock_event_t *e = ze_mock_event(hEvent);
    ze_mock_device_t *dev = ze_mock_device(hDevice);
    *filled = 0;
    if (e == NULL || dev == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (pCount == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *event = e;
    uint32_t available = dev->sub_count > 0 ? dev->sub_count : 1;
    if (*pCount == 0) {
        *pCount = available;
        return ZE_RESULT_SUCCESS;
    }
    ze_result_t res = timestamps_of(e, r);
    if (res == ZE_RESULT_SUCCESS) {
        *pCount = *pCount < available ? *pCount : available;
        *filled = *pCount;
    }
    return res;
}

static ze_result_t ZE_APICALL mock_EventQueryTimestampsExp(
    ze_event_handle_t hEvent, ze_device_handle_t hDevice, uint32_t *pCount,
    ze_kernel_timestamp_result_t *pTimestamps) {
    ZE_MOCK_ENTER(zeEventQueryTimestampsExp);
    ze_kernel_timestamp_result_t r;
    ze_mock_event_t *e;
    uint32_t n;
    ze_result_t res =
        query_timestamps_common(hEvent, hDevice, pCount, &r, &e, &n);
    for (uint32_t i = 0; pTimestamps != NULL && i < n; i++) {
        pTimestamps[i] = r;
    }
    return res;
}

_Static_assert(sizeof(ze_mock_synchronized_timestamp_result_t) ==
                   sizeof(ze_kernel_timestamp_result_t),
               "the same four clocks");

static ze_result_t ZE_APICALL mock_EventQueryKernelTimestampsExt(
    ze_event_handle_t hEvent, ze_device_handle_t hDevice, uint32_t *pCount,
    void *results) {
    ZE_MOCK_ENTER(zeEventQueryKernelTimestampsExt);
    ze_kernel_timestamp_result_t r;
    ze_mock_event_t *e;
    uint32_t n;
    ze_result_t res =
        query_timestamps_common(hEvent, hDevice, pCount, &r, &e, &n);
    ze_mock_kernel_timestamps_results_t *out = results;
    if (res != ZE_RESULT_SUCCESS || n == 0 || out == NULL) {
        return res;
    }
    if (out->pSynchronizedTimestampsBuffer != NULL &&
        (e->pool->flags & ZE_MOCK_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP) ==
            0) {
        ZE_MOCK_EXPLAIN("event %p: synchronized timestamps need a pool made "
                        "with ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP",
                        (void *)e);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (out->pKernelTimestampsBuffer != NULL) {
            out->pKernelTimestampsBuffer[i] = r;
        }
        // The device timer is the host's clock: synchronized timestamps
        // are the same values.
        if (out->pSynchronizedTimestampsBuffer != NULL) {
            memcpy(&out->pSynchronizedTimestampsBuffer[i], &r, sizeof(r));
        }
    }
    return ZE_RESULT_SUCCESS;
}

// ---- Queries of 1.9 ---------------------------------------------------------

static ze_result_t ZE_APICALL mock_EventGetEventPool(
    ze_event_handle_t hEvent, ze_event_pool_handle_t *phEventPool) {
    ZE_MOCK_ENTER(zeEventGetEventPool);
    return ZE_MOCK_QUERY(ze_mock_event_t, ZE_MOCK_MAGIC_EVENT, hEvent,
                         phEventPool, pool);
}

static ze_result_t ZE_APICALL mock_EventGetSignalScope(
    ze_event_handle_t hEvent, ze_event_scope_flags_t *pSignalScope) {
    ZE_MOCK_ENTER(zeEventGetSignalScope);
    return ZE_MOCK_QUERY(ze_mock_event_t, ZE_MOCK_MAGIC_EVENT, hEvent,
                         pSignalScope, signal_scope);
}

static ze_result_t ZE_APICALL mock_EventGetWaitScope(
    ze_event_handle_t hEvent, ze_event_scope_flags_t *pWaitScope) {
    ZE_MOCK_ENTER(zeEventGetWaitScope);
    return ZE_MOCK_QUERY(ze_mock_event_t, ZE_MOCK_MAGIC_EVENT, hEvent,
                         pWaitScope, wait_scope);
}

void ze_mock_fill_event(ze_mock_event_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_EVENT, event_release);
    t->v1_4.pfnCreate = mock_EventCreate;
    t->v1_4.pfnDestroy = mock_EventDestroy;
    t->v1_4.pfnHostSignal = mock_EventHostSignal;
    t->v1_4.pfnHostSynchronize = mock_EventHostSynchronize;
    t->v1_4.pfnQueryStatus = mock_EventQueryStatus;
    t->v1_4.pfnHostReset = mock_EventHostReset;
    t->v1_4.pfnQueryKernelTimestamp = mock_EventQueryKernelTimestamp;
    t->pfnQueryKernelTimestampsExt = mock_EventQueryKernelTimestampsExt;
    t->pfnGetEventPool = mock_EventGetEventPool;
    t->pfnGetSignalScope = mock_EventGetSignalScope;
    t->pfnGetWaitScope = mock_EventGetWaitScope;
}

void ze_mock_fill_event_exp(ze_event_exp_dditable_t *t) {
    t->pfnQueryTimestampsExp = mock_EventQueryTimestampsExp;
}
