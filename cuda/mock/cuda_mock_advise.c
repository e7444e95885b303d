// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a program tells the driver about its memory, kept where it can read
// it back: cuMemAdvise (read-mostly, preferred location, accessed-by) and
// cuMemPrefetchAsync (the last prefetch location) on managed memory, which
// cuMemRangeGetAttribute(s) answer from, and cuPointerSetAttribute's
// CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, which cuPointerGetAttribute reads.
// The emulated devices share the host's memory, so none of it moves data:
// what is kept is what the program said, as the driver reports it.
//
// Advice and prefetches apply to whole pages ("rounded down and rounded up
// respectively to be aligned to CPU page size"); the range asked for must
// lie in one managed allocation (cuMemAllocManaged; the emulated devices
// have no pageable memory access, so system memory is not advisable).
// Each allocation that was advised (or had an attribute set) has a record
// of page segments, made at the first advice and dropped when the memory
// is freed (cuda_mock_memory.c calls cuda_mock_range_freed) or its context
// goes. One mutex guards the records: none of this is on a hot path, and
// a free pays one atomic read while no record exists.
//
// Locations: a device (valid ordinal: CUDA_ERROR_INVALID_DEVICE
// otherwise), the host, and host NUMA node 0 (the emulation's one node;
// CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT is that node).

#include "cuda_mock_core.h"
#include "cuda_mock_memory.h"
#include "cuda_mock_queue.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct loc_t {
    CUmemLocationType type; // CU_MEM_LOCATION_TYPE_INVALID: none
    int id;
} loc_t;

// Pages [start, end) of an allocation, with what was said of them.
typedef struct seg_t {
    size_t start, end;
    bool read_mostly;
    loc_t preferred;
    uint64_t accessed_by; // a bit per device
    bool accessed_by_host;
    loc_t last_prefetch;
} seg_t;

typedef struct record_t {
    uintptr_t base;
    uint64_t id; // the allocation's: a freed one's record is stale
    uintptr_t owner;
    size_t pages;
    bool sync_memops;
    seg_t *segs; // sorted, covering [0, pages)
    size_t nsegs;
} record_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static record_t *records;
static size_t nrecords, records_cap;
_Atomic size_t cuda_mock_range_records;

// ---------------------------------------------------------------------------
// Records (under `lock`)

static size_t page_size(void) {
    return (size_t)umf_mock_page_size;
}

static record_t *record_find(const umf_mock_alloc_info_t *info) {
    for (size_t i = 0; i < nrecords; i++) {
        if (records[i].base == (uintptr_t)info->base &&
            records[i].id == info->id) {
            return &records[i];
        }
    }
    return NULL;
}

static void record_remove(size_t i) {
    free(records[i].segs);
    records[i] = records[--nrecords];
    atomic_store_explicit(&cuda_mock_range_records, nrecords,
                          memory_order_relaxed);
}

// The record of `info`, made (one segment, nothing said) if there is none;
// NULL when out of memory.
static record_t *record_get(const umf_mock_alloc_info_t *info) {
    record_t *r = record_find(info);
    if (r != NULL) {
        return r;
    }
    if (nrecords == records_cap) {
        size_t cap = records_cap != 0 ? 2 * records_cap : 16;
        record_t *grown = realloc(records, cap * sizeof(*grown));
        if (grown == NULL) {
            return NULL;
        }
        records = grown;
        records_cap = cap;
    }
    size_t pages = (info->mapped + page_size() - 1) / page_size();
    seg_t *seg = calloc(1, sizeof(*seg));
    if (seg == NULL) {
        return NULL;
    }
    seg->start = 0;
    seg->end = pages != 0 ? pages : 1;
    r = &records[nrecords++];
    atomic_store_explicit(&cuda_mock_range_records, nrecords,
                          memory_order_relaxed);
    *r = (record_t){.base = (uintptr_t)info->base,
                    .id = info->id,
                    .owner = info->owner,
                    .pages = seg->end,
                    .segs = seg,
                    .nsegs = 1};
    return r;
}

// Splits the segment holding page `at` so that a segment starts there.
static bool split_at(record_t *r, size_t at) {
    if (at == 0 || at >= r->pages) {
        return true;
    }
    for (size_t i = 0; i < r->nsegs; i++) {
        seg_t *s = &r->segs[i];
        if (s->start == at) {
            return true;
        }
        if (s->start < at && at < s->end) {
            seg_t *grown = realloc(r->segs, (r->nsegs + 1) * sizeof(*grown));
            if (grown == NULL) {
                return false;
            }
            r->segs = grown;
            memmove(&r->segs[i + 2], &r->segs[i + 1],
                    (r->nsegs - i - 1) * sizeof(seg_t));
            r->segs[i + 1] = r->segs[i];
            r->segs[i].end = at;
            r->segs[i + 1].start = at;
            r->nsegs++;
            return true;
        }
    }
    return true;
}

// Merges neighbours that say the same (keeps records short).
static void merge(record_t *r) {
    size_t out = 0;
    for (size_t i = 1; i < r->nsegs; i++) {
        seg_t *a = &r->segs[out], *b = &r->segs[i];
        seg_t cmp = *b;
        cmp.start = a->start;
        cmp.end = a->end;
        if (memcmp(a, &cmp, sizeof(cmp)) == 0) {
            a->end = b->end;
        } else {
            r->segs[++out] = *b;
        }
    }
    r->nsegs = out + 1;
}

// ---------------------------------------------------------------------------
// Checks of the arguments

// The managed allocation holding [ptr, ptr + count), as pages [*first,
// *last) of it.
static CUresult managed_range(CUdeviceptr ptr, size_t count,
                              umf_mock_alloc_info_t *info, size_t *first,
                              size_t *last, const char *call) {
    const void *p = (const void *)(uintptr_t)ptr;
    if (ptr == 0 || count == 0) {
        UMF_MOCK_LOG_ERROR("%s: an empty range at 0x%llx", call,
                           (unsigned long long)ptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (umf_mock_lookup(p, info) != UMF_MOCK_OK ||
        info->kind != UMF_MOCK_KIND_SHARED) {
        UMF_MOCK_LOG_ERROR("%s: 0x%llx is not managed memory "
                           "(cuMemAllocManaged)",
                           call, (unsigned long long)ptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    uintptr_t base = (uintptr_t)info->base;
    uintptr_t off = (uintptr_t)ptr - base;
    if (count > info->mapped - off) {
        UMF_MOCK_LOG_ERROR("%s: %zu bytes at 0x%llx run past the managed "
                           "allocation [%p, +%zu)",
                           call, count, (unsigned long long)ptr, info->base,
                           info->size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *first = off / page_size();
    *last = (off + count + page_size() - 1) / page_size();
    return CUDA_SUCCESS;
}

static bool valid_device(int id) {
    return id >= 0 && (unsigned)id < umf_mock_device_count();
}

// A location of advice or prefetch: a device, the host or host NUMA node 0
// (`numa`: whether the host NUMA types are allowed).
static CUresult check_location(CUmemLocation loc, bool numa, loc_t *out,
                               const char *call) {
    switch (loc.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        if (!valid_device(loc.id)) {
            UMF_MOCK_LOG_ERROR("%s: device %d does not exist", call, loc.id);
            return CUDA_ERROR_INVALID_DEVICE;
        }
        *out = (loc_t){CU_MEM_LOCATION_TYPE_DEVICE, loc.id};
        return CUDA_SUCCESS;
    case CU_MEM_LOCATION_TYPE_HOST:
        *out = (loc_t){CU_MEM_LOCATION_TYPE_HOST, 0};
        return CUDA_SUCCESS;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
        if (numa && loc.id == 0) {
            *out = (loc_t){CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
            return CUDA_SUCCESS;
        }
        break;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
        if (numa) {
            *out = (loc_t){CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
            return CUDA_SUCCESS;
        }
        break;
    default:
        break;
    }
    UMF_MOCK_LOG_ERROR("%s: location type %d, id %d is not a location here "
                       "(a device, the host, host NUMA node 0)",
                       call, (int)loc.type, loc.id);
    return CUDA_ERROR_INVALID_VALUE;
}

// The location of the legacy calls' device argument.
static CUmemLocation location_of_device(CUdevice dev) {
    CUmemLocation loc = {0};
    if (dev == CU_DEVICE_CPU) {
        loc.type = CU_MEM_LOCATION_TYPE_HOST;
    } else {
        loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
        loc.id = dev;
    }
    return loc;
}

// ---------------------------------------------------------------------------
// cuMemAdvise

static void apply(seg_t *s, CUmem_advise advice, loc_t loc) {
    switch (advice) {
    case CU_MEM_ADVISE_SET_READ_MOSTLY:
        s->read_mostly = true;
        break;
    case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
        s->read_mostly = false;
        break;
    case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
        s->preferred = loc;
        break;
    case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        s->preferred = (loc_t){CU_MEM_LOCATION_TYPE_INVALID, 0};
        break;
    case CU_MEM_ADVISE_SET_ACCESSED_BY:
    case CU_MEM_ADVISE_UNSET_ACCESSED_BY: {
        bool set = advice == CU_MEM_ADVISE_SET_ACCESSED_BY;
        if (loc.type == CU_MEM_LOCATION_TYPE_HOST) {
            s->accessed_by_host = set;
        } else if (set) {
            s->accessed_by |= 1ull << loc.id;
        } else {
            s->accessed_by &= ~(1ull << loc.id);
        }
        break;
    }
    }
}

// Applies `advice` (or, for a prefetch, the last prefetch location `loc`)
// to pages [first, last) of the record of `info`.
static CUresult update(const umf_mock_alloc_info_t *info, size_t first,
                       size_t last, CUmem_advise advice, loc_t loc,
                       bool prefetch) {
    CUresult res = CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    record_t *r = record_get(info);
    if (r != NULL && split_at(r, first) && split_at(r, last)) {
        for (size_t i = 0; i < r->nsegs; i++) {
            seg_t *s = &r->segs[i];
            if (s->start >= first && s->end <= last) {
                if (prefetch) {
                    s->last_prefetch = loc;
                } else {
                    apply(s, advice, loc);
                }
            }
        }
        merge(r);
        res = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    if (res != CUDA_SUCCESS) {
        UMF_MOCK_LOG_ERROR("out of host memory for the advice of %p",
                           info->base);
    }
    return res;
}

static CUresult advise(CUdeviceptr ptr, size_t count, CUmem_advise advice,
                       CUmemLocation location, const char *call) {
    umf_mock_alloc_info_t info;
    size_t first, last;
    CUresult res = managed_range(ptr, count, &info, &first, &last, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    loc_t loc = {CU_MEM_LOCATION_TYPE_INVALID, 0};
    switch (advice) {
    case CU_MEM_ADVISE_SET_READ_MOSTLY:
    case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
    case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        break; // "The location argument is ignored for this advice."
    case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
        res = check_location(location, true, &loc, call);
        break;
    case CU_MEM_ADVISE_SET_ACCESSED_BY:
    case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
        // "either CU_MEM_LOCATION_TYPE_DEVICE ... or CU_MEM_LOCATION_TYPE_
        // HOST ... All other location types are invalid."
        res = check_location(location, false, &loc, call);
        break;
    default:
        UMF_MOCK_LOG_ERROR("%s: advice %d is not a CUmem_advise", call,
                           (int)advice);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return update(&info, first, last, advice, loc, false);
}

CUDA_MOCK_API CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count,
                                      CUmem_advise advice,
                                      CUmemLocation location) {
    CUDA_MOCK_ENTER(cuMemAdvise_v2);
    return advise(devPtr, count, advice, location, "cuMemAdvise_v2");
}

// CUDA 8's form: a device ordinal, or CU_DEVICE_CPU for the host.
CUDA_MOCK_API CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count,
                                   CUmem_advise advice, CUdevice device) {
    CUDA_MOCK_ENTER(cuMemAdvise);
    return advise(devPtr, count, advice, location_of_device(device),
                  "cuMemAdvise");
}

// ---------------------------------------------------------------------------
// cuMemPrefetchAsync: an operation of its stream that moves nothing (the
// devices share the host's memory). The range's last prefetch location is
// the one asked for, from the call on ("the last location that the
// application requested to prefetch the memory range to. It gives no
// indication as to whether the prefetch operation ... has completed or even
// begun").

static CUresult prefetch(CUdeviceptr ptr, size_t count, CUmemLocation location,
                         unsigned flags, CUstream stream, const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (flags != 0) {
        UMF_MOCK_LOG_ERROR("%s: flags must be 0", call);
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    size_t first, last;
    loc_t loc;
    res = managed_range(ptr, count, &info, &first, &last, call);
    if (res == CUDA_SUCCESS) {
        res = check_location(location, true, &loc, call);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_PREFETCH, .call = call};
    op.u.prefetch.ptr = ptr;
    op.u.prefetch.count = count;
    op.u.prefetch.loc = location;
    res = cuda_mock_order_submit(&s, &op);
    if (res == CUDA_SUCCESS) {
        res = update(&info, first, last, (CUmem_advise)0, loc, true);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count,
                                             CUmemLocation location,
                                             unsigned int flags,
                                             CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemPrefetchAsync_v2);
    return prefetch(devPtr, count, location, flags, hStream,
                    "cuMemPrefetchAsync_v2");
}

CUDA_MOCK_API CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr,
                                                  size_t count,
                                                  CUmemLocation location,
                                                  unsigned int flags,
                                                  CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemPrefetchAsync_v2_ptsz);
    return prefetch(devPtr, count, location, flags, hStream,
                    "cuMemPrefetchAsync_v2_ptsz");
}

CUDA_MOCK_API CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
                                          CUdevice dstDevice,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemPrefetchAsync);
    return prefetch(devPtr, count, location_of_device(dstDevice), 0, hStream,
                    "cuMemPrefetchAsync");
}

CUDA_MOCK_API CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count,
                                               CUdevice dstDevice,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemPrefetchAsync_ptsz);
    return prefetch(devPtr, count, location_of_device(dstDevice), 0, hStream,
                    "cuMemPrefetchAsync_ptsz");
}

// ---------------------------------------------------------------------------
// cuMemRangeGetAttribute(s)

// What every page of [first, last) has in common (under `lock`).
typedef struct common_t {
    bool read_mostly;
    loc_t preferred, last_prefetch; // INVALID where pages differ
    uint64_t accessed_by;
    bool accessed_by_host;
} common_t;

static bool loc_eq(loc_t a, loc_t b) {
    return a.type == b.type && a.id == b.id;
}

static void common_of(const umf_mock_alloc_info_t *info, size_t first,
                      size_t last, common_t *c) {
    const loc_t none = {CU_MEM_LOCATION_TYPE_INVALID, 0};
    *c = (common_t){false, none, none, 0, false};
    pthread_mutex_lock(&lock);
    const record_t *r = record_find(info);
    bool any = false;
    for (size_t i = 0; r != NULL && i < r->nsegs; i++) {
        const seg_t *s = &r->segs[i];
        if (s->end <= first || s->start >= last) {
            continue;
        }
        if (!any) {
            c->read_mostly = s->read_mostly;
            c->preferred = s->preferred;
            c->last_prefetch = s->last_prefetch;
            c->accessed_by = s->accessed_by;
            c->accessed_by_host = s->accessed_by_host;
            any = true;
            continue;
        }
        c->read_mostly = c->read_mostly && s->read_mostly;
        if (!loc_eq(c->preferred, s->preferred)) {
            c->preferred = none;
        }
        if (!loc_eq(c->last_prefetch, s->last_prefetch)) {
            c->last_prefetch = none;
        }
        c->accessed_by &= s->accessed_by;
        c->accessed_by_host = c->accessed_by_host && s->accessed_by_host;
    }
    pthread_mutex_unlock(&lock);
}

// The legacy form of a location: a device ordinal, CU_DEVICE_CPU for the
// host (a host NUMA node too), CU_DEVICE_INVALID for none.
static int legacy_id(loc_t l) {
    switch (l.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        return l.id;
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
        return CU_DEVICE_CPU;
    default:
        return CU_DEVICE_INVALID;
    }
}

static int location_id(loc_t l) {
    return l.type == CU_MEM_LOCATION_TYPE_DEVICE ||
                   l.type == CU_MEM_LOCATION_TYPE_HOST_NUMA
               ? l.id
               : CU_DEVICE_INVALID;
}

static void put_int(void *data, int v) {
    memcpy(data, &v, sizeof(v));
}

// The location attributes: which location, in which form (the legacy
// device ordinal, the type, the id).
enum { FORM_LEGACY, FORM_TYPE, FORM_ID };
static const struct {
    CUmem_range_attribute attr;
    bool preferred; // else the last prefetch's
    int form;
} locations[] = {
    {CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, true, FORM_LEGACY},
    {CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, true, FORM_TYPE},
    {CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, true, FORM_ID},
    {CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, false, FORM_LEGACY},
    {CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, false, FORM_TYPE},
    {CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, false, FORM_ID},
};

// A location attribute's value, if `size` is its size.
static bool put_location(void *data, size_t size, CUmem_range_attribute attr,
                         const common_t *c, bool *known) {
    for (size_t i = 0; i < sizeof(locations) / sizeof(locations[0]); i++) {
        if (locations[i].attr != attr) {
            continue;
        }
        *known = true;
        loc_t l = locations[i].preferred ? c->preferred : c->last_prefetch;
        CUmemLocationType type = l.type;
        if (size != (locations[i].form == FORM_TYPE ? sizeof(type) : 4)) {
            return false;
        }
        if (locations[i].form == FORM_TYPE) {
            memcpy(data, &type, sizeof(type));
        } else {
            put_int(data, locations[i].form == FORM_ID ? location_id(l)
                                                       : legacy_id(l));
        }
        return true;
    }
    return false;
}

// CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, in "a non-zero multiple of 4" bytes:
// as many devices as fit, then CU_DEVICE_INVALID.
static bool put_accessed_by(void *data, size_t size, const common_t *c) {
    if (size == 0 || size % 4 != 0) {
        return false;
    }
    size_t n = size / 4, k = 0;
    for (int d = 0; d < UMF_MOCK_MAX_DEVICES && k < n; d++) {
        if ((c->accessed_by & (1ull << d)) != 0) {
            put_int((char *)data + 4 * k++, d);
        }
    }
    if (c->accessed_by_host && k < n) {
        put_int((char *)data + 4 * k++, CU_DEVICE_CPU);
    }
    while (k < n) {
        put_int((char *)data + 4 * k++, CU_DEVICE_INVALID);
    }
    return true;
}

// One attribute's value; INVALID_VALUE for an unknown attribute or a size
// the attribute does not take.
static CUresult range_attribute(void *data, size_t size,
                                CUmem_range_attribute attr, const common_t *c,
                                const char *call) {
    bool known = true, fits;
    if (attr == CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY) {
        fits = size == 4;
        if (fits) {
            put_int(data, c->read_mostly);
        }
    } else if (attr == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
        fits = put_accessed_by(data, size, c);
    } else {
        known = false;
        fits = put_location(data, size, attr, c, &known);
    }
    if (!known) {
        UMF_MOCK_LOG_ERROR("%s: attribute %d is not a CUmem_range_attribute",
                           call, (int)attr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!fits) {
        UMF_MOCK_LOG_ERROR("%s: attribute %d does not take %zu bytes", call,
                           (int)attr, size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

// The attributes of [devPtr, devPtr + count), all or none.
static CUresult range_attributes(void **data, size_t *sizes,
                                 CUmem_range_attribute *attrs, size_t n,
                                 CUdeviceptr devPtr, size_t count,
                                 const char *call) {
    for (size_t i = 0; i < n; i++) {
        if (data[i] == NULL) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    umf_mock_alloc_info_t info;
    size_t first, last;
    CUresult res = managed_range(devPtr, count, &info, &first, &last, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    common_t c;
    common_of(&info, first, last, &c);
    for (size_t i = 0; i < n && res == CUDA_SUCCESS; i++) {
        res = range_attribute(data[i], sizes[i], attrs[i], &c, call);
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemRangeGetAttribute(void *data, size_t dataSize,
                                              CUmem_range_attribute attribute,
                                              CUdeviceptr devPtr,
                                              size_t count) {
    CUDA_MOCK_ENTER(cuMemRangeGetAttribute);
    return range_attributes(&data, &dataSize, &attribute, 1, devPtr, count,
                            "cuMemRangeGetAttribute");
}

CUDA_MOCK_API CUresult cuMemRangeGetAttributes(
    void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
    size_t numAttributes, CUdeviceptr devPtr, size_t count) {
    CUDA_MOCK_ENTER(cuMemRangeGetAttributes);
    if (data == NULL || dataSizes == NULL || attributes == NULL ||
        numAttributes == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return range_attributes(data, dataSizes, attributes, numAttributes, devPtr,
                            count, "cuMemRangeGetAttributes");
}

// ---------------------------------------------------------------------------
// CU_POINTER_ATTRIBUTE_SYNC_MEMOPS

bool cuda_mock_range_sync_memops(const umf_mock_alloc_info_t *info) {
    if (atomic_load_explicit(&cuda_mock_range_records, memory_order_relaxed) ==
        0) {
        return false;
    }
    pthread_mutex_lock(&lock);
    const record_t *r = record_find(info);
    bool on = r != NULL && r->sync_memops;
    pthread_mutex_unlock(&lock);
    return on;
}

CUDA_MOCK_API CUresult cuPointerSetAttribute(const void *value,
                                             CUpointer_attribute attribute,
                                             CUdeviceptr ptr) {
    CUDA_MOCK_ENTER(cuPointerSetAttribute);
    if (value == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) {
        UMF_MOCK_LOG_ERROR("cuPointerSetAttribute: attribute %d cannot be set "
                           "(only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)",
                           (int)attribute);
        return CUDA_ERROR_INVALID_VALUE;
    }
    const void *p = (const void *)(uintptr_t)ptr;
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup(p, &info) != UMF_MOCK_OK &&
        !cuda_mock_host_lookup(p, &info)) {
        UMF_MOCK_LOG_ERROR("cuPointerSetAttribute: 0x%llx is not memory of "
                           "this driver",
                           (unsigned long long)ptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    unsigned int on;
    memcpy(&on, value, sizeof(on));
    // Synchronous memory operations always complete before they return
    // here, so setting it waits for nothing.
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    record_t *r = record_get(&info);
    if (r != NULL) {
        r->sync_memops = on != 0;
    } else {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_unlock(&lock);
    return res;
}

// ---------------------------------------------------------------------------
// Freed memory and context teardown: the records go.

void cuda_mock_range_freed_slow(const umf_mock_alloc_info_t *info) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nrecords; i++) {
        if (records[i].base == (uintptr_t)info->base &&
            records[i].id == info->id) {
            record_remove(i);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

// Before the context's memory is released (by the memory hook).
static void range_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    pthread_mutex_lock(&lock);
    for (size_t i = nrecords; i > 0; i--) {
        if (records[i - 1].owner == (uintptr_t)ctx) {
            record_remove(i - 1);
        }
    }
    pthread_mutex_unlock(&lock);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_RANGES, range_ctx_teardown);
