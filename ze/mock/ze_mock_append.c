// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The zeCommandListAppend* entry points: each checks its arguments as
// ze_api.h documents them, builds a command (ze_mock_engine.h) and hands it
// to its list (ze_mock_commands.c). The memory a command reads or writes is
// checked when it is appended, by the drivers' one bounds rule, and again
// when it runs later (recorded, or waiting for events): memory freed in
// between is never written.

#include <string.h>

#include "mock_vmm.h"
#include "ze_mock_commands.h"
#include "ze_mock_internal.h"

// ---- Checks -----------------------------------------------------------------

#define LIST_OR_FAIL(var, handle)                                              \
    ze_mock_list_t *var = ze_mock_list(handle);                                \
    if (var == NULL) {                                                         \
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);              \
    }

// A command of list `l` for entry point `call`.
static ze_mock_cmd_t cmd_of(const ze_mock_list_t *l, ze_mock_cmd_kind_t kind,
                            const char *call) {
    ze_mock_cmd_t c;
    memset(&c, 0, sizeof(c));
    c.kind = kind;
    c.device = ze_mock_list_device(l);
    c.call = call;
    return c;
}

// The drivers' one bounds rule (umf_mock_range_check) for range `slot` of
// the command: it stays inside the bytes asked for of the allocation it
// starts in; in mapped VMM memory, it stays in what is mapped and the
// list's device has the access `use` asks for. Memory the driver does not
// know (the caller's own) is the caller's business.
static ze_result_t check_range(ze_mock_cmd_t *c, unsigned slot, const void *ptr,
                               size_t size, umf_mock_use_t use,
                               const char *what) {
    umf_mock_alloc_info_t info;
    umf_mock_status_t s =
        umf_mock_range_check(ptr, size, c->device, use, c->call, what, &info);
    c->ranges[slot] = (ze_mock_range_t){.ptr = ptr,
                                        .size = size,
                                        .use = use,
                                        .known = s == UMF_MOCK_OK,
                                        .id = s == UMF_MOCK_OK ? info.id : 0};
    switch (s) {
    case UMF_MOCK_OK:
    case UMF_MOCK_ERR_NOT_FOUND:
        return ZE_RESULT_SUCCESS;
    case UMF_MOCK_ERR_PERMISSION:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    default:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
}

// Events checked, then each step while they succeed, then the list takes
// the command.
static ze_result_t add(ze_mock_list_t *l, ze_mock_cmd_t *c, ze_result_t r) {
    return r != ZE_RESULT_SUCCESS ? r : ze_mock_list_add(l, c);
}

// ---- Barriers and events ----------------------------------------------------

static ze_result_t ZE_APICALL mock_CommandListAppendBarrier(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendBarrier);
    LIST_OR_FAIL(l, hCommandList);
    ze_mock_cmd_t c =
        cmd_of(l, ZE_MOCK_CMD_BARRIER, "zeCommandListAppendBarrier");
    return add(
        l, &c,
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents));
}

// The ranges need no flush: the emulated device's writes are the host's.
static ze_result_t ZE_APICALL mock_CommandListAppendMemoryRangesBarrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges,
    const size_t *pRangeSizes, const void **pRanges,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryRangesBarrier);
    LIST_OR_FAIL(l, hCommandList);
    (void)numRanges;
    if (pRangeSizes == NULL || pRanges == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c = cmd_of(l, ZE_MOCK_CMD_BARRIER,
                             "zeCommandListAppendMemoryRangesBarrier");
    return add(
        l, &c,
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents));
}

// A command on one event: signal it, or reset it.
static ze_result_t append_event_command(ze_command_list_handle_t hCommandList,
                                        ze_mock_cmd_kind_t kind,
                                        ze_event_handle_t hEvent,
                                        const char *call) {
    LIST_OR_FAIL(l, hCommandList);
    ze_mock_event_t *e = ze_mock_event(hEvent);
    if (e == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_mock_cmd_t c = cmd_of(l, kind, call);
    if (kind == ZE_MOCK_CMD_RESET) {
        c.event = e;
    } else {
        c.signal = e;
    }
    return ze_mock_list_add(l, &c);
}

static ze_result_t ZE_APICALL mock_CommandListAppendSignalEvent(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeCommandListAppendSignalEvent);
    return append_event_command(hCommandList, ZE_MOCK_CMD_BARRIER, hEvent,
                                "zeCommandListAppendSignalEvent");
}

static ze_result_t ZE_APICALL mock_CommandListAppendEventReset(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
    ZE_MOCK_ENTER(zeCommandListAppendEventReset);
    return append_event_command(hCommandList, ZE_MOCK_CMD_RESET, hEvent,
                                "zeCommandListAppendEventReset");
}

static ze_result_t ZE_APICALL mock_CommandListAppendWaitOnEvents(
    ze_command_list_handle_t hCommandList, uint32_t numEvents,
    ze_event_handle_t *phEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendWaitOnEvents);
    LIST_OR_FAIL(l, hCommandList);
    if (phEvents == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c =
        cmd_of(l, ZE_MOCK_CMD_BARRIER, "zeCommandListAppendWaitOnEvents");
    return add(l, &c, ze_mock_cmd_set_events(&c, NULL, numEvents, phEvents));
}

// ---- Copies and fills -------------------------------------------------------

static ze_result_t
append_copy(ze_mock_list_t *l, void *dstptr, const void *srcptr, size_t size,
            ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
            ze_event_handle_t *phWaitEvents, const char *call) {
    if (dstptr == NULL || srcptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c = cmd_of(l, ZE_MOCK_CMD_COPY, call);
    c.u.copy.dst = dstptr;
    c.u.copy.src = srcptr;
    c.u.copy.size = size;
    ze_result_t r =
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(&c, 0, dstptr, size, UMF_MOCK_USE_WRITE, "destination");
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(&c, 1, srcptr, size, UMF_MOCK_USE_READ, "source");
    }
    return add(l, &c, r);
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemoryCopy(
    ze_command_list_handle_t hCommandList, void *dstptr, const void *srcptr,
    size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryCopy);
    LIST_OR_FAIL(l, hCommandList);
    return append_copy(l, dstptr, srcptr, size, hSignalEvent, numWaitEvents,
                       phWaitEvents, "zeCommandListAppendMemoryCopy");
}

// Memory of another context of this driver is the same host memory.
static ze_result_t ZE_APICALL mock_CommandListAppendMemoryCopyFromContext(
    ze_command_list_handle_t hCommandList, void *dstptr,
    ze_context_handle_t hContextSrc, const void *srcptr, size_t size,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryCopyFromContext);
    LIST_OR_FAIL(l, hCommandList);
    if (ze_mock_context(hContextSrc) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    return append_copy(l, dstptr, srcptr, size, hSignalEvent, numWaitEvents,
                       phWaitEvents,
                       "zeCommandListAppendMemoryCopyFromContext");
}

// One side of a region copy: its first byte and the bytes from there to
// the end of its last row, for a region of `width` x `height` x `depth`
// (depth 0: 2D, one slice, the slice pitch ignored). False on overflow.
static bool region_side(const char *base, const ze_copy_region_t *r,
                        uint32_t pitch, uint32_t slice_pitch, size_t depth,
                        const char **first, size_t *span) {
    uint64_t slice = r->depth != 0 ? slice_pitch : 0;
    uint64_t origin, rows, last;
    if (__builtin_mul_overflow((uint64_t)r->originZ, slice, &origin) ||
        __builtin_add_overflow(origin, (uint64_t)r->originY * pitch, &origin) ||
        __builtin_add_overflow(origin, (uint64_t)r->originX, &origin) ||
        __builtin_mul_overflow((uint64_t)(depth - 1), slice, &rows) ||
        __builtin_add_overflow(rows, (uint64_t)(r->height - 1) * pitch,
                               &last) ||
        __builtin_add_overflow(last, (uint64_t)r->width, &last) ||
        origin > UINTPTR_MAX - (uintptr_t)base ||
        last > UINTPTR_MAX - ((uintptr_t)base + origin)) {
        return false;
    }
    *first = base + origin;
    *span = (size_t)last;
    return true;
}

// True when some row of one region shares a byte with some row of the
// other. Regions of the same layout (pitches) are compared row against
// row; others are taken to overlap when the bytes they span do.
static bool regions_overlap(const ze_mock_cmd_t *c, size_t dst_span,
                            size_t src_span) {
    uintptr_t d = (uintptr_t)c->u.region.dst, s = (uintptr_t)c->u.region.src;
    if (d + dst_span <= s || s + src_span <= d) {
        return false;
    }
    if (c->u.region.dst_pitch != c->u.region.src_pitch ||
        c->u.region.dst_slice != c->u.region.src_slice) {
        return true;
    }
    // Row (z1, y1) of dst is row (z1, y1) of src moved by delta: it meets
    // row (z2, y2) of src when |delta + dz * slice + dy * pitch| < width.
    int64_t delta = (int64_t)(d - s);
    int64_t w = (int64_t)c->u.region.width;
    int64_t pitch = (int64_t)c->u.region.dst_pitch;
    int64_t slice = (int64_t)c->u.region.dst_slice;
    int64_t h = (int64_t)c->u.region.height, depth = (int64_t)c->u.region.depth;
    for (int64_t dz = -(depth - 1); dz <= depth - 1; dz++) {
        int64_t at = delta + dz * slice;
        if (pitch == 0 || h == 1) {
            if (at > -w && at < w) {
                return true;
            }
            continue;
        }
        // The dy nearest to -at / pitch, and its neighbours.
        int64_t dy0 = -at / pitch;
        for (int64_t dy = dy0 - 1; dy <= dy0 + 1; dy++) {
            int64_t off = at + dy * pitch;
            if (dy > -h && dy < h && off > -w && off < w) {
                return true;
            }
        }
    }
    return false;
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemoryCopyRegion(
    ze_command_list_handle_t hCommandList, void *dstptr,
    const ze_copy_region_t *dstRegion, uint32_t dstPitch,
    uint32_t dstSlicePitch, const void *srcptr,
    const ze_copy_region_t *srcRegion, uint32_t srcPitch,
    uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryCopyRegion);
    static const char call[] = "zeCommandListAppendMemoryCopyRegion";
    LIST_OR_FAIL(l, hCommandList);
    if (dstptr == NULL || dstRegion == NULL || srcptr == NULL ||
        srcRegion == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c = cmd_of(l, ZE_MOCK_CMD_COPY_REGION, call);
    ze_result_t r =
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    if (dstRegion->width != srcRegion->width ||
        dstRegion->height != srcRegion->height ||
        dstRegion->depth != srcRegion->depth) {
        ZE_MOCK_EXPLAIN("%s: regions of %ux%ux%u and %ux%ux%u bytes: the "
                        "width, height and depth must be the same",
                        call, dstRegion->width, dstRegion->height,
                        dstRegion->depth, srcRegion->width, srcRegion->height,
                        srcRegion->depth);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    size_t depth = dstRegion->depth != 0 ? dstRegion->depth : 1;
    if (dstRegion->width == 0 || dstRegion->height == 0) {
        return ze_mock_list_add(l, &c); // nothing to copy; still signals
    }
    const char *dst, *src;
    size_t dst_span, src_span;
    if (!region_side(dstptr, dstRegion, dstPitch, dstSlicePitch, depth, &dst,
                     &dst_span) ||
        !region_side(srcptr, srcRegion, srcPitch, srcSlicePitch, depth, &src,
                     &src_span)) {
        ZE_MOCK_EXPLAIN("%s: a region passes the end of the address space",
                        call);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    c.u.region.dst = (char *)dst;
    c.u.region.src = src;
    c.u.region.width = dstRegion->width;
    c.u.region.height = dstRegion->height;
    c.u.region.depth = depth;
    c.u.region.dst_pitch = dstPitch;
    c.u.region.src_pitch = srcPitch;
    c.u.region.dst_slice = dstRegion->depth != 0 ? dstSlicePitch : 0;
    c.u.region.src_slice = srcRegion->depth != 0 ? srcSlicePitch : 0;
    if (regions_overlap(&c, dst_span, src_span)) {
        ZE_MOCK_EXPLAIN("%s: the source and destination regions overlap", call);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
    }
    // Every row lies in the span from the first to the end of the last.
    r = check_range(&c, 0, dst, dst_span, UMF_MOCK_USE_WRITE, "destination");
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(&c, 1, src, src_span, UMF_MOCK_USE_READ, "source");
    }
    return add(l, &c, r);
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemoryFill(
    ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
    size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryFill);
    LIST_OR_FAIL(l, hCommandList);
    if (ptr == NULL || pattern == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    // A power of two up to maxMemoryFillPatternSize.
    if (pattern_size == 0 || pattern_size > UMF_MOCK_FILL_MAX_PATTERN ||
        (pattern_size & (pattern_size - 1)) != 0) {
        ZE_MOCK_EXPLAIN("zeCommandListAppendMemoryFill: a pattern of %zu "
                        "bytes; a power of two up to %u bytes",
                        pattern_size, UMF_MOCK_FILL_MAX_PATTERN);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    ze_mock_cmd_t c =
        cmd_of(l, ZE_MOCK_CMD_FILL, "zeCommandListAppendMemoryFill");
    c.u.fill.dst = ptr;
    c.u.fill.size = size;
    c.u.fill.pattern_size = pattern_size;
    memcpy(c.u.fill.pattern, pattern, pattern_size);
    ze_result_t r =
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(&c, 0, ptr, size, UMF_MOCK_USE_WRITE, "destination");
    }
    return add(l, &c, r);
}

// Prefetch and advice only check the range: the memory is where it needs
// to be, and there is nothing to run.
static ze_result_t ZE_APICALL mock_CommandListAppendMemoryPrefetch(
    ze_command_list_handle_t hCommandList, const void *ptr, size_t size) {
    ZE_MOCK_ENTER(zeCommandListAppendMemoryPrefetch);
    LIST_OR_FAIL(l, hCommandList);
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c =
        cmd_of(l, ZE_MOCK_CMD_BARRIER, "zeCommandListAppendMemoryPrefetch");
    return check_range(&c, 0, ptr, size, UMF_MOCK_USE_MAPPED, "range");
}

static ze_result_t ZE_APICALL mock_CommandListAppendMemAdvise(
    ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice,
    const void *ptr, size_t size, ze_memory_advice_t advice) {
    ZE_MOCK_ENTER(zeCommandListAppendMemAdvise);
    LIST_OR_FAIL(l, hCommandList);
    if (ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    ze_mock_cmd_t c =
        cmd_of(l, ZE_MOCK_CMD_BARRIER, "zeCommandListAppendMemAdvise");
    return check_range(&c, 0, ptr, size, UMF_MOCK_USE_MAPPED, "range");
}

// ---- Timestamps -------------------------------------------------------------

static ze_result_t ZE_APICALL mock_CommandListAppendWriteGlobalTimestamp(
    ze_command_list_handle_t hCommandList, uint64_t *dstptr,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendWriteGlobalTimestamp);
    static const char call[] = "zeCommandListAppendWriteGlobalTimestamp";
    LIST_OR_FAIL(l, hCommandList);
    if (dstptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c = cmd_of(l, ZE_MOCK_CMD_WRITE_TIMESTAMP, call);
    c.u.timestamp.dst = dstptr;
    ze_result_t r =
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS && (uintptr_t)dstptr % sizeof(uint64_t) != 0) {
        ZE_MOCK_EXPLAIN("%s: destination %p is not 8-byte aligned", call,
                        (void *)dstptr);
        r = ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = check_range(&c, 0, dstptr, sizeof(*dstptr), UMF_MOCK_USE_WRITE,
                        "destination");
    }
    return add(l, &c, r);
}

static ze_result_t ZE_APICALL mock_CommandListAppendQueryKernelTimestamps(
    ze_command_list_handle_t hCommandList, uint32_t numEvents,
    ze_event_handle_t *phEvents, void *dstptr, const size_t *pOffsets,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendQueryKernelTimestamps);
    LIST_OR_FAIL(l, hCommandList);
    if (phEvents == NULL || dstptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_mock_cmd_t c = cmd_of(l, ZE_MOCK_CMD_QUERY_TIMESTAMPS,
                             "zeCommandListAppendQueryKernelTimestamps");
    ze_result_t r =
        ze_mock_cmd_set_events(&c, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    // The results lie between the lowest offset and the end of the highest.
    size_t lo = SIZE_MAX, hi = 0;
    for (uint32_t i = 0; i < numEvents; i++) {
        if (ze_mock_event(phEvents[i]) == NULL) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
        size_t at = pOffsets != NULL ? pOffsets[i]
                                     : i * sizeof(ze_kernel_timestamp_result_t);
        if (at > SIZE_MAX - sizeof(ze_kernel_timestamp_result_t) ||
            at > UINTPTR_MAX - (uintptr_t)dstptr -
                     sizeof(ze_kernel_timestamp_result_t)) {
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
        }
        lo = at < lo ? at : lo;
        hi = at + sizeof(ze_kernel_timestamp_result_t) > hi
                 ? at + sizeof(ze_kernel_timestamp_result_t)
                 : hi;
    }
    c.u.query.count = numEvents;
    c.u.query.events = (ze_mock_event_t **)phEvents;
    c.u.query.dst = dstptr;
    c.u.query.offsets = (size_t *)pOffsets;
    if (numEvents > 0) {
        r = check_range(&c, 0, (char *)dstptr + lo, hi - lo, UMF_MOCK_USE_WRITE,
                        "destination");
    }
    return add(l, &c, r);
}

void ze_mock_fill_command_list_append(ze_mock_command_list_dditable_t *t) {
    ze_command_list_dditable_t *v = &t->v1_4;
    v->pfnAppendBarrier = mock_CommandListAppendBarrier;
    v->pfnAppendMemoryRangesBarrier = mock_CommandListAppendMemoryRangesBarrier;
    v->pfnAppendMemoryCopy = mock_CommandListAppendMemoryCopy;
    v->pfnAppendMemoryFill = mock_CommandListAppendMemoryFill;
    v->pfnAppendMemoryCopyRegion = mock_CommandListAppendMemoryCopyRegion;
    v->pfnAppendMemoryCopyFromContext =
        mock_CommandListAppendMemoryCopyFromContext;
    v->pfnAppendMemoryPrefetch = mock_CommandListAppendMemoryPrefetch;
    v->pfnAppendMemAdvise = mock_CommandListAppendMemAdvise;
    v->pfnAppendSignalEvent = mock_CommandListAppendSignalEvent;
    v->pfnAppendWaitOnEvents = mock_CommandListAppendWaitOnEvents;
    v->pfnAppendEventReset = mock_CommandListAppendEventReset;
    v->pfnAppendWriteGlobalTimestamp =
        mock_CommandListAppendWriteGlobalTimestamp;
    v->pfnAppendQueryKernelTimestamps =
        mock_CommandListAppendQueryKernelTimestamps;
}

// ---- The system barrier -----------------------------------------------------

// Writes that reach the emulated device are the host's own: a full memory
// fence makes them visible.
static ze_result_t ZE_APICALL mock_ContextSystemBarrier(
    ze_context_handle_t hContext, ze_device_handle_t hDevice) {
    ZE_MOCK_ENTER(zeContextSystemBarrier);
    if (ze_mock_context(hContext) == NULL || ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    atomic_thread_fence(memory_order_seq_cst);
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_context_barrier(ze_context_dditable_t *t) {
    t->pfnSystemBarrier = mock_ContextSystemBarrier;
}
