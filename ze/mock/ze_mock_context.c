// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Contexts, the objects they own, and residency. zeContextDestroy releases
// everything that belongs to the context and is still alive: its objects
// (events, fences, event pools, command lists and queues), its allocations
// (and their IPC exports) and its imported mappings. The spec allows an
// implementation to free a context's allocations at once; a real program
// (the conformance suite opens one handle 2,000 times and destroys the
// context without closing them) relies on it, and the leak report counts
// none of it.

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

ze_mock_context_t *ze_mock_context(ze_context_handle_t handle) {
    ze_mock_context_t *c = (ze_mock_context_t *)handle;
    return c != NULL && c->magic == ZE_MOCK_MAGIC_CONTEXT ? c : NULL;
}

// ---- Objects ----------------------------------------------------------------

void *ze_mock_object_new(size_t size, uint32_t magic, ze_mock_context_t *ctx) {
    ze_mock_object_t *obj = calloc(1, size);
    if (obj != NULL) {
        obj->magic = magic;
        obj->ctx = ctx;
    }
    return obj;
}

bool ze_mock_object_publish(void *obj, ze_mock_object_kind_t kind) {
    return umf_mock_object_add(kind, obj);
}

bool ze_mock_object_drop(void *obj, ze_mock_object_kind_t kind) {
    if (obj == NULL || !umf_mock_object_remove(kind, obj)) {
        return false;
    }
    ((ze_mock_object_t *)obj)->magic = 0;
    return true;
}

// How a context's objects of each kind are freed, and what else of it a
// family keeps: each API family registers its own when its tables are
// filled (before any program can make an object of it), so that the core
// never calls into a family.
typedef void (*release_fn)(void *obj);
static _Atomic(release_fn) family_release[ZE_MOCK_OBJ_KIND_COUNT];
static _Atomic(ze_mock_context_release_fn) context_release;

void ze_mock_object_kind_register(ze_mock_object_kind_t kind,
                                  void (*release)(void *obj)) {
    atomic_store(&family_release[kind], release);
}

void ze_mock_context_release_register(ze_mock_context_release_fn release) {
    atomic_store(&context_release, release);
}

// What a context owns, in the order it goes: command lists and queues
// first (what still waits in them is dropped, before its events go),
// events before their pools.
static const ze_mock_object_kind_t owned[] = {
    ZE_MOCK_OBJ_COMMAND_LIST, ZE_MOCK_OBJ_KERNEL,
    ZE_MOCK_OBJ_MODULE,       ZE_MOCK_OBJ_COMMAND_QUEUE,
    ZE_MOCK_OBJ_FENCE,        ZE_MOCK_OBJ_EVENT,
    ZE_MOCK_OBJ_EVENT_POOL,   ZE_MOCK_OBJ_IMPORTED_EVENT_POOL,
    ZE_MOCK_OBJ_BUILD_LOG,
};

typedef struct collect_t {
    unsigned kind;
    bool (*match)(const void *obj, const void *arg);
    const void *arg;
    void **objs;
    size_t count, cap;
    bool failed;
} collect_t;

static void collect(unsigned kind, const void *handle, void *arg) {
    collect_t *c = arg;
    if (kind != c->kind || !c->match(handle, c->arg)) {
        return;
    }
    if (c->count == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        void **n = realloc(c->objs, cap * sizeof(*n));
        if (n == NULL) {
            c->failed = true;
            return;
        }
        c->objs = n;
        c->cap = cap;
    }
    c->objs[c->count++] = (void *)handle;
}

void **ze_mock_objects_collect(ze_mock_object_kind_t kind,
                               bool (*match)(const void *obj, const void *arg),
                               const void *arg, size_t *count) {
    collect_t c = {.kind = kind, .match = match, .arg = arg};
    umf_mock_object_foreach(collect, &c);
    if (c.failed) {
        UMF_MOCK_LOG_ERROR("out of memory: %zu objects found, more missed",
                           c.count);
    }
    *count = c.count;
    return c.objs;
}

static bool of_context(const void *obj, const void *ctx) {
    return ((const ze_mock_object_t *)obj)->ctx == ctx;
}

// Releases the objects of `ctx` still alive; returns how many.
static size_t release_objects(const ze_mock_context_t *ctx) {
    size_t n = 0;
    for (size_t k = 0; k < sizeof(owned) / sizeof(owned[0]); k++) {
        release_fn release = atomic_load(&family_release[owned[k]]);
        if (release == NULL) {
            continue; // the family made none of them
        }
        size_t count;
        void **objs =
            ze_mock_objects_collect(owned[k], of_context, ctx, &count);
        for (size_t i = 0; i < count; i++) {
            if (ze_mock_object_drop(objs[i], owned[k])) {
                release(objs[i]);
                n++;
            }
        }
        free(objs);
    }
    return n;
}

// ---- Contexts ---------------------------------------------------------------

static ze_result_t context_create(ze_driver_handle_t hDriver,
                                  const ze_context_desc_t *desc,
                                  uint32_t numDevices,
                                  ze_device_handle_t *phDevices,
                                  ze_context_handle_t *phContext) {
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (desc == NULL || phContext == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags & ~(ze_context_flags_t)ZE_CONTEXT_FLAG_TBD) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (phDevices == NULL && numDevices > 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    for (uint32_t i = 0; i < numDevices; i++) {
        if (ze_mock_device(phDevices[i]) == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
    }
    ze_mock_context_t *ctx = malloc(sizeof(*ctx));
    if (ctx == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    ctx->magic = ZE_MOCK_MAGIC_CONTEXT;
    if (!umf_mock_object_add(ZE_MOCK_OBJ_CONTEXT, ctx)) {
        free(ctx);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phContext = (ze_context_handle_t)ctx;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_ContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                   ze_context_handle_t *phContext) {
    ZE_MOCK_ENTER(zeContextCreate);
    return context_create(hDriver, desc, 0, NULL, phContext);
}

static ze_result_t ZE_APICALL
mock_ContextCreateEx(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                     uint32_t numDevices, ze_device_handle_t *phDevices,
                     ze_context_handle_t *phContext) {
    ZE_MOCK_ENTER(zeContextCreateEx);
    return context_create(hDriver, desc, numDevices, phDevices, phContext);
}

// Level Zero 1.14: the context of every device of the driver. It lives as
// long as the driver: it is no object of the registry, and zeContextDestroy
// refuses it.
static ze_mock_context_t default_context = {ZE_MOCK_MAGIC_CONTEXT};

static ze_context_handle_t ZE_APICALL
mock_DriverGetDefaultContext(ze_driver_handle_t hDriver) {
    int64_t fault;
    if (umf_mock_enter(ZE_MOCK_E_zeDriverGetDefaultContext, &fault)) {
        umf_mock_failure_explain("injected by a fault rule");
        ZE_MOCK_FAIL(fault);
        return NULL;
    }
    if (!ze_mock_initialized()) {
        ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED);
        return NULL;
    }
    if (!ze_mock_is_driver(hDriver)) {
        ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        return NULL;
    }
    return (ze_context_handle_t)&default_context;
}

void ze_mock_fill_driver_context(ze_mock_driver_dditable_t *t) {
    t->pfnGetDefaultContext = mock_DriverGetDefaultContext;
}

static ze_result_t ZE_APICALL
mock_ContextDestroy(ze_context_handle_t hContext) {
    ZE_MOCK_ENTER(zeContextDestroy);
    if (hContext == (ze_context_handle_t)&default_context) {
        ZE_MOCK_EXPLAIN("the default context (zeDriverGetDefaultContext) "
                        "lives as long as the driver");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    // Checked in the registry first: a destroyed handle is never read.
    if (hContext == NULL ||
        !umf_mock_object_remove(ZE_MOCK_OBJ_CONTEXT, hContext)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_mock_context_t *ctx = (ze_mock_context_t *)hContext;
    size_t objects = release_objects(ctx);
    ze_mock_context_release_fn release_rest = atomic_load(&context_release);
    size_t vm = release_rest != NULL ? release_rest(ctx) : 0;
    umf_mock_owner_released_t mem;
    umf_mock_release_owner((uintptr_t)ctx, &mem);
    if (objects + mem.allocations + mem.imports + vm > 0) {
        UMF_MOCK_LOG_INFO("zeContextDestroy(%p) released what the context "
                          "still held: %zu allocations, %zu imported "
                          "mappings, %zu virtual memory reservations, "
                          "physical memory objects and their imports, %zu "
                          "other objects",
                          (void *)ctx, mem.allocations, mem.imports, vm,
                          objects);
    }
    ctx->magic = 0;
    free(ctx);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_ContextGetStatus(ze_context_handle_t hContext) {
    ZE_MOCK_ENTER(zeContextGetStatus);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    return ZE_RESULT_SUCCESS;
}

// ---- Residency --------------------------------------------------------------

// The range must lie in one device or shared allocation; nothing else to
// do, all memory is resident.
static ze_result_t check_resident_range(ze_context_handle_t hContext,
                                        ze_device_handle_t hDevice, void *ptr,
                                        size_t size) {
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup(ptr, &info) != UMF_MOCK_OK ||
        info.kind == UMF_MOCK_KIND_HOST ||
        size > info.size - (size_t)((char *)ptr - (char *)info.base)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_ContextMakeMemoryResident(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, void *ptr,
    size_t size) {
    ZE_MOCK_ENTER(zeContextMakeMemoryResident);
    return check_resident_range(hContext, hDevice, ptr, size);
}

static ze_result_t ZE_APICALL
mock_ContextEvictMemory(ze_context_handle_t hContext,
                        ze_device_handle_t hDevice, void *ptr, size_t size) {
    ZE_MOCK_ENTER(zeContextEvictMemory);
    return check_resident_range(hContext, hDevice, ptr, size);
}

void ze_mock_fill_context(ze_context_dditable_t *t) {
    t->pfnCreate = mock_ContextCreate;
    t->pfnCreateEx = mock_ContextCreateEx;
    t->pfnDestroy = mock_ContextDestroy;
    t->pfnGetStatus = mock_ContextGetStatus;
    t->pfnMakeMemoryResident = mock_ContextMakeMemoryResident;
    t->pfnEvictMemory = mock_ContextEvictMemory;
}
