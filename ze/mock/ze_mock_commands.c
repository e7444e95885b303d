// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Command queues and lists, events and fences: enough for portable code to
// move data as on a GPU. Nothing runs in the background: an immediate list
// executes each command as it is appended, a regular list records them and
// executes them in zeCommandQueueExecuteCommandLists. A command that must
// wait for an event nobody signalled yet is refused (UNSUPPORTED_FEATURE)
// rather than blocking the caller forever.

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mock_vmm.h"
#include "ze_mock_internal.h"

#define MAX_FILL_PATTERN 128

typedef struct queue_t {
    ze_mock_object_t obj;
} queue_t;

typedef struct fence_t {
    ze_mock_object_t obj;
    _Atomic int signaled;
} fence_t;

typedef enum command_kind_t {
    CMD_COPY,
    CMD_FILL,
    CMD_BARRIER, // also: wait on events, signal an event
    CMD_RESET,
} command_kind_t;

typedef struct command_t {
    command_kind_t kind;
    void *dst;
    const void *src;
    size_t size;
    unsigned char pattern[MAX_FILL_PATTERN];
    size_t pattern_size;
    ze_mock_event_t *signal; // signalled after the command, or NULL
    ze_mock_event_t *reset;  // CMD_RESET
    uint32_t waits;          // events that must be signalled first
    ze_mock_event_t **wait;  // owned by the command
} command_t;

typedef struct list_t {
    ze_mock_object_t obj;
    int device; // the core's device of the list
    bool immediate;
    bool closed;
    command_t *cmds;
    size_t count, cap;
} list_t;

#define CHECKED(type, var, handle, magic_value)                                \
    type *var = (type *)(handle);                                              \
    if (var == NULL || var->obj.magic != (magic_value)) {                      \
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);              \
    }

// Polls `flag` until it is set or `timeout_ns` passed (UINT64_MAX: never).
static bool wait_flag(_Atomic int *flag, uint64_t timeout_ns) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (atomic_load_explicit(flag, memory_order_acquire)) {
            return true;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t spent = (uint64_t)(now.tv_sec - start.tv_sec) * 1000000000u +
                         (uint64_t)(now.tv_nsec - start.tv_nsec);
        if (timeout_ns != UINT64_MAX && spent >= timeout_ns) {
            return false;
        }
        struct timespec nap = {0, 20000};
        nanosleep(&nap, NULL);
    }
}

// ---- Commands -------------------------------------------------------------

// The drivers' one bounds rule (umf_mock_range_check): a copy, fill,
// prefetch or advice stays inside the bytes asked for of the allocation it
// starts in; in mapped VMM memory, it stays in what is mapped and the
// list's device has the access `use` asks for. Memory the driver does not
// know (the caller's own) is the caller's business.
static ze_result_t check_range(const list_t *l, const void *ptr, size_t size,
                               umf_mock_use_t use, const char *call,
                               const char *what) {
    switch (umf_mock_range_check(ptr, size, l->device, use, call, what, NULL)) {
    case UMF_MOCK_OK:
    case UMF_MOCK_ERR_NOT_FOUND:
        return ZE_RESULT_SUCCESS;
    case UMF_MOCK_ERR_PERMISSION:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    default:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
}

static ze_result_t run(const command_t *c) {
    for (uint32_t i = 0; i < c->waits; i++) {
        if (!ze_mock_event_await(c->wait[i])) {
            UMF_MOCK_LOG_ERROR("a command waits for an event nobody "
                               "signalled: the emulated driver executes "
                               "commands at once and cannot wait for one "
                               "that only a later command or call of this "
                               "process could signal");
            umf_mock_failure_explain("waits for an event nobody signalled");
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        }
    }
    switch (c->kind) {
    case CMD_COPY:
        memmove(c->dst, c->src, c->size);
        break;
    case CMD_FILL: {
        unsigned char *d = c->dst;
        for (size_t off = 0; off < c->size; off += c->pattern_size) {
            size_t n = c->size - off < c->pattern_size ? c->size - off
                                                       : c->pattern_size;
            memcpy(d + off, c->pattern, n);
        }
        break;
    }
    case CMD_RESET:
        ze_mock_event_reset(c->reset);
        break;
    case CMD_BARRIER:
        break;
    }
    if (c->signal != NULL) {
        ze_mock_event_signal(c->signal);
    }
    return ZE_RESULT_SUCCESS;
}

// Checks the events of a command and fills them in.
static ze_result_t set_events(command_t *c, ze_event_handle_t hSignal,
                              uint32_t numWait, ze_event_handle_t *phWait) {
    if (hSignal != NULL && (c->signal = ze_mock_event(hSignal)) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (numWait > 0 && phWait == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    for (uint32_t i = 0; i < numWait; i++) {
        if (ze_mock_event(phWait[i]) == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
    }
    c->waits = numWait;
    c->wait = (ze_mock_event_t **)phWait; // copied if the command is kept
    return ZE_RESULT_SUCCESS;
}

// Runs the command (immediate list) or records it (regular list).
static ze_result_t submit(list_t *l, command_t *c) {
    if (l->immediate) {
        return run(c);
    }
    if (l->closed) {
        ZE_MOCK_EXPLAIN("appending to a closed command list");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    ze_mock_event_t **wait = NULL;
    if (c->waits > 0) {
        wait = malloc(c->waits * sizeof(*wait));
        if (wait == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
        }
        memcpy(wait, c->wait, c->waits * sizeof(*wait));
    }
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        command_t *cmds = realloc(l->cmds, cap * sizeof(*cmds));
        if (cmds == NULL) {
            free(wait);
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
        }
        l->cmds = cmds;
        l->cap = cap;
    }
    c->wait = wait;
    l->cmds[l->count++] = *c;
    return ZE_RESULT_SUCCESS;
}

static void clear_commands(list_t *l) {
    for (size_t i = 0; i < l->count; i++) {
        free(l->cmds[i].wait);
    }
    l->count = 0;
}

// ---- Command queues -------------------------------------------------------

static ze_result_t check_queue_desc(const ze_command_queue_desc_t *desc) {
    if (desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags > ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY ||
        desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
        desc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->ordinal != 0 || desc->index != 0) {
        return ZE_MOCK_FAIL(
            ZE_RESULT_ERROR_INVALID_ARGUMENT); // one group, one queue
    }
    return ZE_RESULT_SUCCESS;
}

// The context of a command queue or list, after checking the device; NULL
// when either handle is bad.
static ze_mock_context_t *context_device(ze_context_handle_t hContext,
                                         ze_device_handle_t hDevice) {
    ze_mock_context_t *ctx = ze_mock_context(hContext);
    return ctx != NULL && ze_mock_device(hDevice) != NULL ? ctx : NULL;
}

static ze_result_t ZE_APICALL mock_CommandQueueCreate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_command_queue_desc_t *desc,
    ze_command_queue_handle_t *phCommandQueue) {
    ZE_MOCK_ENTER(zeCommandQueueCreate);
    ze_mock_context_t *ctx = context_device(hContext, hDevice);
    if (ctx == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_result_t r = check_queue_desc(desc);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    if (phCommandQueue == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    queue_t *q = ze_mock_object_new(sizeof(queue_t), ZE_MOCK_MAGIC_QUEUE, ctx);
    if (q == NULL || !ze_mock_object_publish(q, ZE_MOCK_OBJ_COMMAND_QUEUE)) {
        free(q);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phCommandQueue = (ze_command_queue_handle_t)q;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_CommandQueueDestroy(ze_command_queue_handle_t hCommandQueue) {
    ZE_MOCK_ENTER(zeCommandQueueDestroy);
    if (!ze_mock_object_drop(hCommandQueue, ZE_MOCK_OBJ_COMMAND_QUEUE)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    free(hCommandQueue);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_CommandQueueExecuteCommandLists(
    ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
    ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeCommandQueueExecuteCommandLists);
    CHECKED(queue_t, q, hCommandQueue, ZE_MOCK_MAGIC_QUEUE);
    (void)q;
    fence_t *fence = (fence_t *)hFence;
    if (fence != NULL && fence->obj.magic != ZE_MOCK_MAGIC_FENCE) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (phCommandLists == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (numCommandLists == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    for (uint32_t i = 0; i < numCommandLists; i++) {
        list_t *l = (list_t *)phCommandLists[i];
        if (l == NULL || l->obj.magic != ZE_MOCK_MAGIC_LIST) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
        if (l->immediate) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
        }
        if (!l->closed) {
            ZE_MOCK_EXPLAIN("executing a command list that is not closed");
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
    }
    for (uint32_t i = 0; i < numCommandLists; i++) {
        list_t *l = (list_t *)phCommandLists[i];
        for (size_t j = 0; j < l->count; j++) {
            ze_result_t r = run(&l->cmds[j]);
            if (r != ZE_RESULT_SUCCESS) {
                return r;
            }
        }
    }
    if (fence != NULL) {
        atomic_store_explicit(&fence->signaled, 1, memory_order_release);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_CommandQueueSynchronize(
    ze_command_queue_handle_t hCommandQueue, uint64_t timeout) {
    ZE_MOCK_ENTER(zeCommandQueueSynchronize);
    CHECKED(queue_t, q, hCommandQueue, ZE_MOCK_MAGIC_QUEUE);
    (void)q;
    (void)timeout; // everything submitted has completed
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_command_queue(ze_command_queue_dditable_t *t) {
    t->pfnCreate = mock_CommandQueueCreate;
    t->pfnDestroy = mock_CommandQueueDestroy;
    t->pfnExecuteCommandLists = mock_CommandQueueExecuteCommandLists;
    t->pfnSynchronize = mock_CommandQueueSynchronize;
}

// ---- Command lists --------------------------------------------------------

static ze_result_t list_create(ze_context_handle_t hContext,
                               ze_device_handle_t hDevice, bool immediate,
                               ze_command_list_handle_t *phCommandList) {
    ze_mock_context_t *ctx = context_device(hContext, hDevice);
    if (ctx == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (phCommandList == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    list_t *l = ze_mock_object_new(sizeof(list_t), ZE_MOCK_MAGIC_LIST, ctx);
    if (l != NULL) {
        l->immediate = immediate;
        l->device = (int)ze_mock_device(hDevice)->index;
    }
    if (l == NULL || !ze_mock_object_publish(l, ZE_MOCK_OBJ_COMMAND_LIST)) {
        free(l);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phCommandList = (ze_command_list_handle_t)l;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_CommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                       const ze_command_list_desc_t *desc,
                       ze_command_list_handle_t *phCommandList) {
    ZE_MOCK_ENTER(zeCommandListCreate);
    if (desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags &
        ~(ze_command_list_flags_t)(ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING |
                                   ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT |
                                   ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->commandQueueGroupOrdinal != 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return list_create(hContext, hDevice, false, phCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListCreateImmediate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_command_queue_desc_t *altdesc,
    ze_command_list_handle_t *phCommandList) {
    ZE_MOCK_ENTER(zeCommandListCreateImmediate);
    ze_result_t r = check_queue_desc(altdesc);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    return list_create(hContext, hDevice, true, phCommandList);
}

static ze_result_t ZE_APICALL
mock_CommandListDestroy(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_ENTER(zeCommandListDestroy);
    list_t *l = (list_t *)hCommandList;
    if (!ze_mock_object_drop(l, ZE_MOCK_OBJ_COMMAND_LIST)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_mock_command_list_release(l);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_CommandListClose(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_ENTER(zeCommandListClose);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    l->closed = true;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_CommandListReset(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_ENTER(zeCommandListReset);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    clear_commands(l);
    l->closed = false;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_CommandListAppendBarrier(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendBarrier);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    command_t c = {.kind = CMD_BARRIER};
    ze_result_t r = set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    return r != ZE_RESULT_SUCCESS ? r : submit(l, &c);
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemoryCopy(
    ze_command_list_handle_t hCommandList, void *dstptr, const void *srcptr,
    size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryCopy);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (dstptr == NULL || srcptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    command_t c = {
        .kind = CMD_COPY, .dst = dstptr, .src = srcptr, .size = size};
    ze_result_t r = set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(l, dstptr, size, UMF_MOCK_USE_WRITE,
                        "zeCommandListAppendMemoryCopy", "destination");
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(l, srcptr, size, UMF_MOCK_USE_READ,
                        "zeCommandListAppendMemoryCopy", "source");
    }
    return r != ZE_RESULT_SUCCESS ? r : submit(l, &c);
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemoryFill(
    ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
    size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryFill);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (ptr == NULL || pattern == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (pattern_size == 0 || pattern_size > MAX_FILL_PATTERN ||
        (pattern_size & (pattern_size - 1)) != 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    command_t c = {.kind = CMD_FILL,
                   .dst = ptr,
                   .size = size,
                   .pattern_size = pattern_size};
    memcpy(c.pattern, pattern, pattern_size);
    ze_result_t r = set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(l, ptr, size, UMF_MOCK_USE_WRITE,
                        "zeCommandListAppendMemoryFill", "destination");
    }
    return r != ZE_RESULT_SUCCESS ? r : submit(l, &c);
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemoryPrefetch(
    ze_command_list_handle_t hCommandList, const void *ptr, size_t size) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryPrefetch);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // The memory is where it needs to be.
    return check_range(l, ptr, size, UMF_MOCK_USE_MAPPED,
                       "zeCommandListAppendMemoryPrefetch", "range");
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemAdvise(
    ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice,
    const void *ptr, size_t size, ze_memory_advice_t advice) {
    ZE_MOCK_ENTER(zeCommandListAppendMemAdvise);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return check_range(l, ptr, size, UMF_MOCK_USE_MAPPED,
                       "zeCommandListAppendMemAdvise", "range");
}

// A command on one event: signal it, or reset it.
static ze_result_t append_event_command(ze_command_list_handle_t hCommandList,
                                        command_kind_t kind,
                                        ze_event_handle_t hEvent) {
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    command_t c = {.kind = kind};
    if (kind == CMD_RESET) {
        c.reset = e;
    } else {
        c.signal = e;
    }
    return submit(l, &c);
}

static ze_result_t ZE_APICALL mock_CommandListAppendSignalEvent(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeCommandListAppendSignalEvent);
    return append_event_command(hCommandList, CMD_BARRIER, hEvent);
}

static ze_result_t ZE_APICALL mock_CommandListAppendWaitOnEvents(
    ze_command_list_handle_t hCommandList, uint32_t numEvents,
    ze_event_handle_t *phEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendWaitOnEvents);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    command_t c = {.kind = CMD_BARRIER};
    ze_result_t r = set_events(&c, NULL, numEvents, phEvents);
    return r != ZE_RESULT_SUCCESS ? r : submit(l, &c);
}

static ze_result_t ZE_APICALL mock_CommandListAppendEventReset(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeCommandListAppendEventReset);
    return append_event_command(hCommandList, CMD_RESET, hEvent);
}

void ze_mock_fill_command_list(ze_command_list_dditable_t *t) {
    t->pfnCreate = mock_CommandListCreate;
    t->pfnCreateImmediate = mock_CommandListCreateImmediate;
    t->pfnDestroy = mock_CommandListDestroy;
    t->pfnClose = mock_CommandListClose;
    t->pfnReset = mock_CommandListReset;
    t->pfnAppendBarrier = mock_CommandListAppendBarrier;
    t->pfnAppendMemoryCopy = mock_CommandListAppendMemoryCopy;
    t->pfnAppendMemoryFill = mock_CommandListAppendMemoryFill;
    t->pfnAppendMemoryPrefetch = mock_CommandListAppendMemoryPrefetch;
    t->pfnAppendMemAdvise = mock_CommandListAppendMemAdvise;
    t->pfnAppendSignalEvent = mock_CommandListAppendSignalEvent;
    t->pfnAppendWaitOnEvents = mock_CommandListAppendWaitOnEvents;
    t->pfnAppendEventReset = mock_CommandListAppendEventReset;
}

// ---- Fences ---------------------------------------------------------------

static ze_result_t ZE_APICALL
mock_FenceCreate(ze_command_queue_handle_t hCommandQueue,
                 const ze_fence_desc_t *desc, ze_fence_handle_t *phFence) {
    ZE_MOCK_ENTER(zeFenceCreate);
    CHECKED(queue_t, q, hCommandQueue, ZE_MOCK_MAGIC_QUEUE);
    if (desc == NULL || phFence == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags > ZE_FENCE_FLAG_SIGNALED) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    fence_t *f =
        ze_mock_object_new(sizeof(fence_t), ZE_MOCK_MAGIC_FENCE, q->obj.ctx);
    if (f != NULL) {
        atomic_store(&f->signaled, (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0);
    }
    if (f == NULL || !ze_mock_object_publish(f, ZE_MOCK_OBJ_FENCE)) {
        free(f);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phFence = (ze_fence_handle_t)f;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_FenceDestroy(ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeFenceDestroy);
    if (!ze_mock_object_drop(hFence, ZE_MOCK_OBJ_FENCE)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    free(hFence);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_FenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout) {
    ZE_MOCK_ENTER(zeFenceHostSynchronize);
    CHECKED(fence_t, f, hFence, ZE_MOCK_MAGIC_FENCE);
    return wait_flag(&f->signaled, timeout) ? ZE_RESULT_SUCCESS
                                            : ZE_RESULT_NOT_READY;
}

static ze_result_t ZE_APICALL mock_FenceQueryStatus(ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeFenceQueryStatus);
    CHECKED(fence_t, f, hFence, ZE_MOCK_MAGIC_FENCE);
    return atomic_load_explicit(&f->signaled, memory_order_acquire)
               ? ZE_RESULT_SUCCESS
               : ZE_RESULT_NOT_READY;
}

static ze_result_t ZE_APICALL mock_FenceReset(ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeFenceReset);
    CHECKED(fence_t, f, hFence, ZE_MOCK_MAGIC_FENCE);
    atomic_store_explicit(&f->signaled, 0, memory_order_release);
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_fence(ze_fence_dditable_t *t) {
    t->pfnCreate = mock_FenceCreate;
    t->pfnDestroy = mock_FenceDestroy;
    t->pfnHostSynchronize = mock_FenceHostSynchronize;
    t->pfnQueryStatus = mock_FenceQueryStatus;
    t->pfnReset = mock_FenceReset;
}

// ---- Context release --------------------------------------------------------

void ze_mock_command_queue_release(void *obj) {
    free(obj);
}

void ze_mock_command_list_release(void *obj) {
    list_t *l = obj;
    clear_commands(l);
    free(l->cmds);
    free(l);
}

void ze_mock_fence_release(void *obj) {
    free(obj);
}
