// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Command queues, command lists and fences. A regular list records its
// commands (owned copies, ze_mock_engine.h); zeCommandQueueExecuteCommand-
// Lists submits them to the queue's stream. An immediate list has a
// stream of its own and submits each command as it is appended. Either
// way a command runs at once when nothing is pending before it and its
// events are signalled, and later, on the driver's thread, when they are
// (ze_mock_engine.c). The appends themselves are in ze_mock_append.c.
//
// Every list and queue runs its commands in order: the in-order flags of
// newer APIs (ZE_COMMAND_QUEUE_FLAG_IN_ORDER, ZE_COMMAND_LIST_FLAG_IN_ORDER)
// are accepted and change nothing.

#include <stdlib.h>
#include <string.h>

#include "ze_mock_commands.h"
#include "ze_mock_internal.h"

#define QUEUE_FLAGS                                                            \
    ((ze_command_queue_flags_t)(ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY |          \
                                ZE_MOCK_COMMAND_QUEUE_FLAG_IN_ORDER))
#define LIST_FLAGS                                                             \
    ((ze_command_list_flags_t)(ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING |         \
                               ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT |      \
                               ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY |            \
                               ZE_MOCK_COMMAND_LIST_FLAG_IN_ORDER |            \
                               ZE_MOCK_COMMAND_LIST_FLAG_EXP_CLONEABLE))

typedef struct queue_t {
    ze_mock_object_t obj;
    ze_mock_stream_t *stream;
    uint32_t ordinal, index; // of its group: 0, the device has one queue
} queue_t;

struct ze_mock_list_t {
    ze_mock_object_t obj;
    ze_device_handle_t device_handle;
    int device; // the core's device of the list
    ze_bool_t immediate;
    uint32_t ordinal, index;       // of its queue group: 0
    ze_command_list_flags_t flags; // of a regular list
    bool in_order; // made with IN_ORDER (the list's, or its queue's flag)
    // Immediate: its stream. Regular: its recorded commands, owned.
    ze_mock_stream_t *stream;
    bool closed;
    ze_mock_cmd_t *cmds;
    size_t count, cap;
};

typedef ze_mock_list_t list_t;

#define CHECKED(type, var, handle, magic_value)                                \
    type *var = (type *)(handle);                                              \
    if (var == NULL || var->obj.magic != (magic_value)) {                      \
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);              \
    }

ze_mock_list_t *ze_mock_list(ze_command_list_handle_t handle) {
    list_t *l = (list_t *)handle;
    return l != NULL && l->obj.magic == ZE_MOCK_MAGIC_LIST ? l : NULL;
}

int ze_mock_list_device(const ze_mock_list_t *l) {
    return l->device;
}

static void clear_commands(list_t *l) {
    for (size_t i = 0; i < l->count; i++) {
        ze_mock_cmd_drop(&l->cmds[i], false);
    }
    l->count = 0;
}

ze_result_t ze_mock_list_add(ze_mock_list_t *l, const ze_mock_cmd_t *cmd) {
    // "Counter-based events can be used only with in-orders lists", and
    // "must not be reset".
    if ((cmd->signal != NULL && ze_mock_event_counter_based(cmd->signal) &&
         !l->in_order) ||
        (cmd->kind == ZE_MOCK_CMD_RESET &&
         ze_mock_event_counter_based(cmd->event))) {
        ZE_MOCK_EXPLAIN("%s: a counter-based event is %s", cmd->call,
                        cmd->kind == ZE_MOCK_CMD_RESET
                            ? "never reset"
                            : "signalled by in-order command lists only");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (l->immediate) {
        size_t one = 1;
        return ze_mock_stream_submit(l->stream, &cmd, &one, 1, NULL);
    }
    if (l->closed) {
        ZE_MOCK_EXPLAIN("%s: appending to a closed command list", cmd->call);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        ze_mock_cmd_t *cmds = realloc(l->cmds, cap * sizeof(*cmds));
        if (cmds == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
        }
        l->cmds = cmds;
        l->cap = cap;
    }
    if (!ze_mock_cmd_keep(cmd, &l->cmds[l->count], false)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    l->count++;
    return ZE_RESULT_SUCCESS;
}

// ---- Command queues ---------------------------------------------------------

static ze_result_t check_queue_desc(const ze_command_queue_desc_t *desc) {
    if (desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if ((desc->flags & ~QUEUE_FLAGS) != 0 ||
        desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
        desc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->ordinal != 0 || desc->index != 0) {
        ZE_MOCK_EXPLAIN("command queue group %u, queue %u: the device has one "
                        "group of one queue",
                        desc->ordinal, desc->index);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
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
    if (q != NULL) {
        q->stream =
            ze_mock_stream_new((int)ze_mock_device(hDevice)->index,
                               desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    }
    if (q == NULL || q->stream == NULL ||
        !ze_mock_object_publish(q, ZE_MOCK_OBJ_COMMAND_QUEUE)) {
        if (q != NULL && q->stream != NULL) {
            ze_mock_stream_unref(q->stream);
        }
        free(q);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phCommandQueue = (ze_command_queue_handle_t)q;
    return ZE_RESULT_SUCCESS;
}

// Drops what still waits in a stream that goes, and says so.
static void stream_close(ze_mock_stream_t *s, const char *what) {
    size_t dropped = ze_mock_stream_clear(s, true);
    if (dropped > 0) {
        UMF_MOCK_LOG_WARN("%s destroyed with %zu commands still waiting for "
                          "events: they never run",
                          what, dropped);
    }
    ze_mock_stream_unref(s);
}

static void command_queue_release(void *obj) {
    queue_t *q = obj;
    stream_close(q->stream, "a command queue");
    free(q);
}

static ze_result_t ZE_APICALL
mock_CommandQueueDestroy(ze_command_queue_handle_t hCommandQueue) {
    ZE_MOCK_ENTER(zeCommandQueueDestroy);
    if (!ze_mock_object_drop(hCommandQueue, ZE_MOCK_OBJ_COMMAND_QUEUE)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    command_queue_release(hCommandQueue);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_CommandQueueExecuteCommandLists(
    ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
    ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeCommandQueueExecuteCommandLists);
    CHECKED(queue_t, q, hCommandQueue, ZE_MOCK_MAGIC_QUEUE);
    ze_mock_fence_t *fence = (ze_mock_fence_t *)hFence;
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
        list_t *l = ze_mock_list(phCommandLists[i]);
        if (l == NULL) {
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
    if (fence != NULL && fence->stream != q->stream) {
        ZE_MOCK_EXPLAIN("zeCommandQueueExecuteCommandLists: the fence was "
                        "created on another command queue");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
    }
    enum { ON_STACK = 16 };
    const ze_mock_cmd_t *stack_groups[ON_STACK];
    size_t stack_counts[ON_STACK];
    const ze_mock_cmd_t **groups = stack_groups;
    size_t *counts = stack_counts;
    if (numCommandLists > ON_STACK) {
        groups = malloc(numCommandLists * sizeof(*groups));
        counts = malloc(numCommandLists * sizeof(*counts));
        if (groups == NULL || counts == NULL) {
            free(groups);
            free(counts);
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
        }
    }
    for (uint32_t i = 0; i < numCommandLists; i++) {
        list_t *l = (list_t *)phCommandLists[i];
        groups[i] = l->cmds;
        counts[i] = l->count;
    }
    ze_result_t r = ze_mock_stream_submit(q->stream, groups, counts,
                                          numCommandLists, fence);
    if (groups != stack_groups) {
        free(groups);
        free(counts);
    }
    return r;
}

static ze_result_t ZE_APICALL mock_CommandQueueSynchronize(
    ze_command_queue_handle_t hCommandQueue, uint64_t timeout) {
    ZE_MOCK_ENTER(zeCommandQueueSynchronize);
    CHECKED(queue_t, q, hCommandQueue, ZE_MOCK_MAGIC_QUEUE);
    return ze_mock_stream_synchronize(q->stream, timeout);
}

static ze_result_t ZE_APICALL mock_CommandQueueGetOrdinal(
    ze_command_queue_handle_t hCommandQueue, uint32_t *pOrdinal) {
    ZE_MOCK_ENTER(zeCommandQueueGetOrdinal);
    return ZE_MOCK_QUERY(queue_t, ZE_MOCK_MAGIC_QUEUE, hCommandQueue, pOrdinal,
                         ordinal);
}

static ze_result_t ZE_APICALL mock_CommandQueueGetIndex(
    ze_command_queue_handle_t hCommandQueue, uint32_t *pIndex) {
    ZE_MOCK_ENTER(zeCommandQueueGetIndex);
    return ZE_MOCK_QUERY(queue_t, ZE_MOCK_MAGIC_QUEUE, hCommandQueue, pIndex,
                         index);
}

void ze_mock_fill_command_queue(ze_mock_command_queue_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_COMMAND_QUEUE,
                                 command_queue_release);
    t->v1_4.pfnCreate = mock_CommandQueueCreate;
    t->v1_4.pfnDestroy = mock_CommandQueueDestroy;
    t->v1_4.pfnExecuteCommandLists = mock_CommandQueueExecuteCommandLists;
    t->v1_4.pfnSynchronize = mock_CommandQueueSynchronize;
    t->pfnGetOrdinal = mock_CommandQueueGetOrdinal;
    t->pfnGetIndex = mock_CommandQueueGetIndex;
}

// ---- Command lists ----------------------------------------------------------

static ze_result_t list_create(ze_context_handle_t hContext,
                               ze_device_handle_t hDevice,
                               const ze_command_queue_desc_t *immediate,
                               ze_command_list_flags_t flags,
                               ze_command_list_handle_t *phCommandList) {
    ze_mock_context_t *ctx = context_device(hContext, hDevice);
    if (ctx == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (phCommandList == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    list_t *l = ze_mock_object_new(sizeof(list_t), ZE_MOCK_MAGIC_LIST, ctx);
    bool ok = l != NULL;
    if (ok) {
        l->device_handle = hDevice;
        l->device = (int)ze_mock_device(hDevice)->index;
        l->immediate = immediate != NULL;
        l->flags = flags;
        l->in_order =
            immediate != NULL
                ? (immediate->flags & ZE_MOCK_COMMAND_QUEUE_FLAG_IN_ORDER) != 0
                : (flags & ZE_MOCK_COMMAND_LIST_FLAG_IN_ORDER) != 0;
        if (immediate != NULL) {
            l->stream = ze_mock_stream_new(
                l->device,
                immediate->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
            ok = l->stream != NULL;
        }
    }
    if (!ok || !ze_mock_object_publish(l, ZE_MOCK_OBJ_COMMAND_LIST)) {
        if (l != NULL && l->stream != NULL) {
            ze_mock_stream_unref(l->stream);
        }
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
    if (context_device(hContext, hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags & ~LIST_FLAGS) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->commandQueueGroupOrdinal != 0) {
        ZE_MOCK_EXPLAIN("command queue group %u: the device has one",
                        desc->commandQueueGroupOrdinal);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return list_create(hContext, hDevice, NULL, desc->flags, phCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListCreateImmediate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_command_queue_desc_t *altdesc,
    ze_command_list_handle_t *phCommandList) {
    ZE_MOCK_ENTER(zeCommandListCreateImmediate);
    if (context_device(hContext, hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_result_t r = check_queue_desc(altdesc);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    return list_create(hContext, hDevice, altdesc, 0, phCommandList);
}

static void command_list_release(void *obj) {
    list_t *l = obj;
    if (l->stream != NULL) {
        stream_close(l->stream, "an immediate command list");
    }
    clear_commands(l);
    free(l->cmds);
    free(l);
}

static ze_result_t ZE_APICALL
mock_CommandListDestroy(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_ENTER(zeCommandListDestroy);
    list_t *l = (list_t *)hCommandList;
    if (!ze_mock_object_drop(l, ZE_MOCK_OBJ_COMMAND_LIST)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    command_list_release(l);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_CommandListClose(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_ENTER(zeCommandListClose);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    l->closed = !l->immediate; // an immediate list never needs closing
    return ZE_RESULT_SUCCESS;
}

// A regular list forgets its commands (copies of them in queues still run);
// an immediate one drops what still waits in it, and is usable again after
// its work was lost.
static ze_result_t ZE_APICALL
mock_CommandListReset(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_ENTER(zeCommandListReset);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (l->immediate) {
        size_t dropped = ze_mock_stream_clear(l->stream, false);
        if (dropped > 0) {
            UMF_MOCK_LOG_WARN("zeCommandListReset of an immediate list drops "
                              "%zu commands that waited for events",
                              dropped);
        }
        return ZE_RESULT_SUCCESS;
    }
    clear_commands(l);
    l->closed = false;
    return ZE_RESULT_SUCCESS;
}

// Level Zero 1.6.
static ze_result_t ZE_APICALL mock_CommandListHostSynchronize(
    ze_command_list_handle_t hCommandList, uint64_t timeout) {
    ZE_MOCK_ENTER(zeCommandListHostSynchronize);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (!l->immediate) {
        ZE_MOCK_EXPLAIN("zeCommandListHostSynchronize: not an immediate "
                        "command list");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ze_mock_stream_synchronize(l->stream, timeout);
}

// ---- Queries of 1.9 ---------------------------------------------------------

static ze_result_t ZE_APICALL mock_CommandListGetDeviceHandle(
    ze_command_list_handle_t hCommandList, ze_device_handle_t *phDevice) {
    ZE_MOCK_ENTER(zeCommandListGetDeviceHandle);
    return ZE_MOCK_QUERY(list_t, ZE_MOCK_MAGIC_LIST, hCommandList, phDevice,
                         device_handle);
}

static ze_result_t ZE_APICALL mock_CommandListGetContextHandle(
    ze_command_list_handle_t hCommandList, ze_context_handle_t *phContext) {
    ZE_MOCK_ENTER(zeCommandListGetContextHandle);
    return ZE_MOCK_QUERY(list_t, ZE_MOCK_MAGIC_LIST, hCommandList, phContext,
                         obj.ctx);
}

static ze_result_t ZE_APICALL mock_CommandListGetOrdinal(
    ze_command_list_handle_t hCommandList, uint32_t *pOrdinal) {
    ZE_MOCK_ENTER(zeCommandListGetOrdinal);
    return ZE_MOCK_QUERY(list_t, ZE_MOCK_MAGIC_LIST, hCommandList, pOrdinal,
                         ordinal);
}

static ze_result_t ZE_APICALL mock_CommandListImmediateGetIndex(
    ze_command_list_handle_t hCommandListImmediate, uint32_t *pIndex) {
    ZE_MOCK_ENTER(zeCommandListImmediateGetIndex);
    list_t *l = ze_mock_list(hCommandListImmediate);
    if (l != NULL && pIndex != NULL && !l->immediate) {
        ZE_MOCK_EXPLAIN("zeCommandListImmediateGetIndex: not an immediate "
                        "command list");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ZE_MOCK_QUERY(list_t, ZE_MOCK_MAGIC_LIST, hCommandListImmediate,
                         pIndex, index);
}

static ze_result_t ZE_APICALL mock_CommandListIsImmediate(
    ze_command_list_handle_t hCommandList, ze_bool_t *pIsImmediate) {
    ZE_MOCK_ENTER(zeCommandListIsImmediate);
    return ZE_MOCK_QUERY(list_t, ZE_MOCK_MAGIC_LIST, hCommandList, pIsImmediate,
                         immediate);
}

void ze_mock_fill_command_list(ze_mock_command_list_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_COMMAND_LIST,
                                 command_list_release);
    t->v1_4.pfnCreate = mock_CommandListCreate;
    t->v1_4.pfnCreateImmediate = mock_CommandListCreateImmediate;
    t->v1_4.pfnDestroy = mock_CommandListDestroy;
    t->v1_4.pfnClose = mock_CommandListClose;
    t->v1_4.pfnReset = mock_CommandListReset;
    t->pfnHostSynchronize = mock_CommandListHostSynchronize;
    t->pfnGetDeviceHandle = mock_CommandListGetDeviceHandle;
    t->pfnGetContextHandle = mock_CommandListGetContextHandle;
    t->pfnGetOrdinal = mock_CommandListGetOrdinal;
    t->pfnImmediateGetIndex = mock_CommandListImmediateGetIndex;
    t->pfnIsImmediate = mock_CommandListIsImmediate;
}

// ---- Experimental command lists (1.9)
// ----------------------------------------

// Runs closed regular lists on an immediate one: after the wait events,
// and the signal event after them all.
static ze_result_t ZE_APICALL mock_CommandListImmediateAppendCommandListsExp(
    ze_command_list_handle_t hCommandListImmediate, uint32_t numCommandLists,
    ze_command_list_handle_t *phCommandLists, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListImmediateAppendCommandListsExp);
    CHECKED(list_t, imm, hCommandListImmediate, ZE_MOCK_MAGIC_LIST);
    if (phCommandLists == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (!imm->immediate) {
        ZE_MOCK_EXPLAIN("zeCommandListImmediateAppendCommandListsExp: not an "
                        "immediate command list");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    ze_mock_cmd_t first = {.kind = ZE_MOCK_CMD_BARRIER,
                           .device = imm->device,
                           .call =
                               "zeCommandListImmediateAppendCommandListsExp"};
    ze_mock_cmd_t last = first;
    ze_result_t r = ze_mock_cmd_set_events(&last, hSignalEvent, 0, NULL);
    if (r == ZE_RESULT_SUCCESS) {
        r = ze_mock_cmd_set_events(&first, NULL, numWaitEvents, phWaitEvents);
    }
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    size_t ngroups = (size_t)numCommandLists + 2;
    const ze_mock_cmd_t **groups = malloc(ngroups * sizeof(*groups));
    size_t *counts = malloc(ngroups * sizeof(*counts));
    if (groups == NULL || counts == NULL) {
        free(groups);
        free(counts);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    groups[0] = &first;
    counts[0] = 1;
    for (uint32_t i = 0; i < numCommandLists && r == ZE_RESULT_SUCCESS; i++) {
        list_t *l = ze_mock_list(phCommandLists[i]);
        if (l == NULL) {
            r = ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        } else if (l->immediate || !l->closed) {
            ZE_MOCK_EXPLAIN("zeCommandListImmediateAppendCommandListsExp: "
                            "list %u is %s",
                            i, l->immediate ? "immediate" : "not closed");
            r = ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        } else {
            groups[i + 1] = l->cmds;
            counts[i + 1] = l->count;
        }
    }
    groups[ngroups - 1] = &last;
    counts[ngroups - 1] = 1;
    if (r == ZE_RESULT_SUCCESS) {
        r = ze_mock_stream_submit(imm->stream, groups, counts, ngroups, NULL);
    }
    free(groups);
    free(counts);
    return r;
}

// A closed regular list made cloneable: a new closed list with the same
// commands.
static ze_result_t ZE_APICALL
mock_CommandListCreateCloneExp(ze_command_list_handle_t hCommandList,
                               ze_command_list_handle_t *phClonedCommandList) {
    ZE_MOCK_ENTER(zeCommandListCreateCloneExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (phClonedCommandList == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (l->immediate || !l->closed ||
        (l->flags & ZE_MOCK_COMMAND_LIST_FLAG_EXP_CLONEABLE) == 0) {
        ZE_MOCK_EXPLAIN("zeCommandListCreateCloneExp: the list must be a "
                        "closed regular list created with "
                        "ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    ze_command_list_handle_t h;
    ze_result_t r = list_create((ze_context_handle_t)l->obj.ctx,
                                l->device_handle, NULL, l->flags, &h);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    list_t *c = (list_t *)h;
    for (size_t i = 0; i < l->count && r == ZE_RESULT_SUCCESS; i++) {
        r = ze_mock_list_add(c, &l->cmds[i]);
    }
    if (r != ZE_RESULT_SUCCESS) {
        if (ze_mock_object_drop(c, ZE_MOCK_OBJ_COMMAND_LIST)) {
            command_list_release(c);
        }
        return r;
    }
    c->closed = true;
    *phClonedCommandList = h;
    return ZE_RESULT_SUCCESS;
}

// Mutable command lists (1.9, ZE_experimental_mutable_command_list) are
// not emulated, and the driver does not report the extension: no list is
// ever mutable. The arguments are checked as ze_api.h documents them, then
// the call is refused.
static ze_result_t not_mutable(ze_command_list_handle_t hCommandList,
                               const char *call) {
    ZE_MOCK_EXPLAIN("%s(%p): mutable command lists are not emulated (no list "
                    "is made mutable; ZE_experimental_mutable_command_list is "
                    "not reported)",
                    call, (void *)hCommandList);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// ze_mutable_command_id_exp_desc_t, as far as it is checked.
typedef struct mutable_id_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint32_t flags; // ze_mutable_command_exp_flags_t: 8 bits
} mutable_id_desc_t;

static ze_result_t check_id_desc(const void *desc, const uint64_t *pCommandId) {
    if (desc == NULL || pCommandId == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (((const mutable_id_desc_t *)desc)->flags > 0xffu) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_CommandListGetNextCommandIdExp(ze_command_list_handle_t hCommandList,
                                    const void *desc, uint64_t *pCommandId) {
    ZE_MOCK_ENTER(zeCommandListGetNextCommandIdExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    ze_result_t r = check_id_desc(desc, pCommandId);
    return r != ZE_RESULT_SUCCESS
               ? r
               : not_mutable(hCommandList, "zeCommandListGetNextCommandIdExp");
}

static ze_result_t ZE_APICALL mock_CommandListGetNextCommandIdWithKernelsExp(
    ze_command_list_handle_t hCommandList, const void *desc,
    uint32_t numKernels, ze_kernel_handle_t *phKernels, uint64_t *pCommandId) {
    ZE_MOCK_ENTER(zeCommandListGetNextCommandIdWithKernelsExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    (void)numKernels;
    (void)phKernels;
    ze_result_t r = check_id_desc(desc, pCommandId);
    return r != ZE_RESULT_SUCCESS
               ? r
               : not_mutable(hCommandList,
                             "zeCommandListGetNextCommandIdWithKernelsExp");
}

static ze_result_t ZE_APICALL mock_CommandListUpdateMutableCommandsExp(
    ze_command_list_handle_t hCommandList, const void *desc) {
    ZE_MOCK_ENTER(zeCommandListUpdateMutableCommandsExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    if (desc == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    return not_mutable(hCommandList, "zeCommandListUpdateMutableCommandsExp");
}

static ze_result_t ZE_APICALL
mock_CommandListUpdateMutableCommandSignalEventExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId,
    ze_event_handle_t hSignalEvent) {
    ZE_MOCK_ENTER(zeCommandListUpdateMutableCommandSignalEventExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    (void)commandId;
    (void)hSignalEvent;
    return not_mutable(hCommandList,
                       "zeCommandListUpdateMutableCommandSignalEventExp");
}

static ze_result_t ZE_APICALL mock_CommandListUpdateMutableCommandWaitEventsExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListUpdateMutableCommandWaitEventsExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    (void)commandId;
    if (phWaitEvents == NULL && numWaitEvents > 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    return not_mutable(hCommandList,
                       "zeCommandListUpdateMutableCommandWaitEventsExp");
}

static ze_result_t ZE_APICALL mock_CommandListUpdateMutableCommandKernelsExp(
    ze_command_list_handle_t hCommandList, uint32_t numKernels,
    uint64_t *pCommandId, ze_kernel_handle_t *phKernels) {
    ZE_MOCK_ENTER(zeCommandListUpdateMutableCommandKernelsExp);
    CHECKED(list_t, l, hCommandList, ZE_MOCK_MAGIC_LIST);
    (void)numKernels;
    if (pCommandId == NULL || phKernels == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    return not_mutable(hCommandList,
                       "zeCommandListUpdateMutableCommandKernelsExp");
}

void ze_mock_fill_command_list_exp(ze_mock_command_list_exp_dditable_t *t) {
    t->pfnCreateCloneExp = mock_CommandListCreateCloneExp;
    t->pfnImmediateAppendCommandListsExp =
        mock_CommandListImmediateAppendCommandListsExp;
    t->pfnGetNextCommandIdExp = mock_CommandListGetNextCommandIdExp;
    t->pfnUpdateMutableCommandsExp = mock_CommandListUpdateMutableCommandsExp;
    t->pfnUpdateMutableCommandSignalEventExp =
        mock_CommandListUpdateMutableCommandSignalEventExp;
    t->pfnUpdateMutableCommandWaitEventsExp =
        mock_CommandListUpdateMutableCommandWaitEventsExp;
    t->pfnGetNextCommandIdWithKernelsExp =
        mock_CommandListGetNextCommandIdWithKernelsExp;
    t->pfnUpdateMutableCommandKernelsExp =
        mock_CommandListUpdateMutableCommandKernelsExp;
}

// ---- zeDeviceSynchronize (1.14) ---------------------------------------------

// The streams of a device's queues and immediate lists, held: found while
// the object registry is locked (ze_mock_objects_collect asks `match`
// under it), so that none is freed before it is held.
typedef struct device_streams_t {
    int device;
    ze_mock_stream_t **streams;
    size_t count, cap;
} device_streams_t;

static void hold_stream(device_streams_t *d, ze_mock_stream_t *s) {
    if (d->count == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 16;
        ze_mock_stream_t **n = realloc(d->streams, cap * sizeof(*n));
        if (n == NULL) {
            return; // synchronized less; logged by the caller
        }
        d->streams = n;
        d->cap = cap;
    }
    ze_mock_stream_ref(s);
    d->streams[d->count++] = s;
}

static bool queue_of_device(const void *obj, const void *arg) {
    queue_t *q = (queue_t *)obj;
    device_streams_t *d = (device_streams_t *)arg;
    if (ze_mock_stream_device(q->stream) == d->device) {
        hold_stream(d, q->stream);
    }
    return false; // nothing to collect: held here
}

static bool list_of_device(const void *obj, const void *arg) {
    list_t *l = (list_t *)obj;
    device_streams_t *d = (device_streams_t *)arg;
    if (l->immediate && l->device == d->device) {
        hold_stream(d, l->stream);
    }
    return false;
}

// Waits for the work of every queue and immediate list of the device.
static ze_result_t ZE_APICALL
mock_DeviceSynchronize(ze_device_handle_t hDevice) {
    ZE_MOCK_ENTER(zeDeviceSynchronize);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    device_streams_t d = {.device = (int)dev->index};
    size_t none;
    free(ze_mock_objects_collect(ZE_MOCK_OBJ_COMMAND_QUEUE, queue_of_device, &d,
                                 &none));
    free(ze_mock_objects_collect(ZE_MOCK_OBJ_COMMAND_LIST, list_of_device, &d,
                                 &none));
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (size_t i = 0; i < d.count; i++) {
        ze_result_t ri = ze_mock_stream_synchronize(d.streams[i], UINT64_MAX);
        r = r == ZE_RESULT_SUCCESS ? ri : r;
        ze_mock_stream_unref(d.streams[i]);
    }
    free(d.streams);
    return r;
}

void ze_mock_fill_device_synchronize(ze_mock_device_dditable_t *t) {
    t->pfnSynchronize = mock_DeviceSynchronize;
}

// ---- Fences -----------------------------------------------------------------

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
    ze_mock_fence_t *f = ze_mock_object_new(sizeof(ze_mock_fence_t),
                                            ZE_MOCK_MAGIC_FENCE, q->obj.ctx);
    if (f != NULL) {
        f->stream = q->stream;
        ze_mock_stream_ref(f->stream);
        f->signaled = (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0;
    }
    if (f == NULL || !ze_mock_object_publish(f, ZE_MOCK_OBJ_FENCE)) {
        if (f != NULL) {
            ze_mock_stream_unref(f->stream);
        }
        free(f);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phFence = (ze_fence_handle_t)f;
    return ZE_RESULT_SUCCESS;
}

static void fence_release(void *obj) {
    ze_mock_fence_t *f = obj;
    ze_mock_fence_forget(f);
    ze_mock_stream_unref(f->stream);
    free(f);
}

static ze_result_t ZE_APICALL mock_FenceDestroy(ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeFenceDestroy);
    if (!ze_mock_object_drop(hFence, ZE_MOCK_OBJ_FENCE)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    fence_release(hFence);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_FenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout) {
    ZE_MOCK_ENTER(zeFenceHostSynchronize);
    CHECKED(ze_mock_fence_t, f, hFence, ZE_MOCK_MAGIC_FENCE);
    return ze_mock_fence_wait(f, timeout);
}

static ze_result_t ZE_APICALL mock_FenceQueryStatus(ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeFenceQueryStatus);
    CHECKED(ze_mock_fence_t, f, hFence, ZE_MOCK_MAGIC_FENCE);
    ze_result_t r = ze_mock_fence_wait(f, 0);
    return r == ZE_RESULT_SUCCESS ? r : ZE_RESULT_NOT_READY;
}

static ze_result_t ZE_APICALL mock_FenceReset(ze_fence_handle_t hFence) {
    ZE_MOCK_ENTER(zeFenceReset);
    CHECKED(ze_mock_fence_t, f, hFence, ZE_MOCK_MAGIC_FENCE);
    ze_mock_fence_set(f, false);
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_fence(ze_fence_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_FENCE, fence_release);
    t->pfnCreate = mock_FenceCreate;
    t->pfnDestroy = mock_FenceDestroy;
    t->pfnHostSynchronize = mock_FenceHostSynchronize;
    t->pfnQueryStatus = mock_FenceQueryStatus;
    t->pfnReset = mock_FenceReset;
}
