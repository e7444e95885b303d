// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Device resources and green contexts: the partitioning of a device's
// streaming multiprocessors among contexts.
//
// The resources are emulated as cuda.h describes them: a device (and any
// context on it) has an SM resource of the device's
// CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT SMs, with the partition rules of
// compute capability 9.0 (groups of at least 8 SMs, a multiple of 8; with
// CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING, of 2); a split makes
// disjoint groups and a remainder, and a descriptor holds the SMs of one or
// more groups of one split. The driver recognises its own resources (the
// structure's internal bytes name the device, the SMs and the split) and
// refuses anything else as an invalid value.
//
// A green context holds the SMs of its descriptor and a context of the
// core (cuda_mock_context.c): a created context's slot that retains the
// device's primary context and shares its memory, is not made current by
// cuGreenCtxCreate, and is what cuCtxFromGreenCtx answers. Its streams,
// events and default stream are that context's, so every call that takes a
// CUcontext or a stream works on it; cuCtxGetDevResource and
// cuGreenCtxGetDevResource report its SMs. The SMs are bookkeeping only:
// the emulated devices run no kernels, so nothing is confined to them.

#include "cuda_mock_array.h"
#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"
#include "cuda_mock_stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// ---- SM resources ----------------------------------------------------------

#define SM_WORDS 4                 // up to 256 SMs
#define RESOURCE_MAGIC 0x756d6653u // "umfS"
// Compute capability 9.0's partitions, and those that ignore co-scheduling.
#define SM_GROUP_MIN 8
#define SM_GROUP_ALIGN 8
#define SM_FINE_MIN 2
#define SM_FINE_ALIGN 2

// What the driver keeps in a resource's internal bytes.
typedef struct sm_set_t {
    uint32_t magic;
    uint32_t device;
    uint64_t split; // the split that made it; 0: a device's or context's
    uint64_t sms[SM_WORDS];
} sm_set_t;

_Static_assert(sizeof(sm_set_t) <=
                   sizeof(((CUdevResource *)0)->_internal_padding),
               "a resource's internal bytes hold the SM set");

static unsigned device_sms(void) {
    int n = cuda_mock_device_limit(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    return n < 0                         ? 0
           : (unsigned)n > 64 * SM_WORDS ? 64 * SM_WORDS
                                         : (unsigned)n;
}

static unsigned set_count(const sm_set_t *set) {
    unsigned n = 0;
    for (unsigned i = 0; i < SM_WORDS; i++) {
        n += (unsigned)__builtin_popcountll(set->sms[i]);
    }
    return n;
}

static void resource_write(CUdevResource *r, const sm_set_t *set,
                           unsigned min_size, unsigned align) {
    memset(r, 0, sizeof(*r));
    r->type = CU_DEV_RESOURCE_TYPE_SM;
    memcpy(r->_internal_padding, set, sizeof(*set));
    r->sm.smCount = set_count(set);
    r->sm.minSmPartitionSize = min_size;
    r->sm.smCoscheduledAlignment = align;
}

// The whole device: every SM.
static void device_resource(CUdevice dev, CUdevResource *r) {
    sm_set_t set = {.magic = RESOURCE_MAGIC, .device = (uint32_t)dev};
    unsigned n = device_sms();
    for (unsigned i = 0; i < n; i++) {
        set.sms[i / 64] |= 1ull << (i % 64);
    }
    resource_write(r, &set, SM_GROUP_MIN, SM_FINE_ALIGN);
}

// A resource this driver made, read back: CUDA_ERROR_INVALID_RESOURCE_TYPE
// for another type, CUDA_ERROR_INVALID_VALUE for bytes it did not write.
static CUresult resource_read(const char *call, const CUdevResource *r,
                              sm_set_t *set) {
    if (r->type != CU_DEV_RESOURCE_TYPE_SM) {
        UMF_MOCK_LOG_ERROR("%s: resource type %d is not "
                           "CU_DEV_RESOURCE_TYPE_SM, the only one",
                           call, (int)r->type);
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    memcpy(set, r->_internal_padding, sizeof(*set));
    unsigned n = device_sms();
    bool ok = set->magic == RESOURCE_MAGIC &&
              set->device < umf_mock_device_count() &&
              set_count(set) == r->sm.smCount;
    for (unsigned i = n; ok && i < 64 * SM_WORDS; i++) {
        ok = (set->sms[i / 64] & (1ull << (i % 64))) == 0;
    }
    if (!ok) {
        UMF_MOCK_LOG_ERROR("%s: not an SM resource of this driver (made by "
                           "cuDeviceGetDevResource, cuCtxGetDevResource or a "
                           "split, and not changed since)",
                           call);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static void green_resource(CUgreenCtx h, CUdevResource *r);

static bool type_ok(CUdevResourceType type) {
    return type > CU_DEV_RESOURCE_TYPE_INVALID &&
           type < CU_DEV_RESOURCE_TYPE_MAX;
}

CUDA_MOCK_API CUresult cuDeviceGetDevResource(CUdevice device,
                                              CUdevResource *resource,
                                              CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuDeviceGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    if (!type_ok(type)) {
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    device_resource(device, resource);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuCtxGetDevResource(CUcontext hCtx,
                                           CUdevResource *resource,
                                           CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuCtxGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_live(hCtx, __func__, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (!type_ok(type)) {
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    CUgreenCtx green = cuda_mock_ctx_green(ctx);
    if (green != NULL) {
        green_resource(green, resource);
    } else {
        // A context that is not green has every SM of its device.
        device_resource(cuda_mock_ctx_device(ctx), resource);
    }
    return CUDA_SUCCESS;
}

// result may be NULL, to count the groups.
CUDA_MOCK_API CUresult cuDevSmResourceSplitByCount(
    CUdevResource *result, unsigned int *nbGroups, const CUdevResource *input,
    CUdevResource *remaining, unsigned int useFlags, unsigned int minCount) {
    CUDA_MOCK_ENTER(cuDevSmResourceSplitByCount);
    if (nbGroups == NULL || input == NULL ||
        (result != NULL && *nbGroups == 0)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const unsigned known = CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING |
                           CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE;
    if ((useFlags & ~known) != 0) {
        UMF_MOCK_LOG_ERROR("%s: unknown flags 0x%x", __func__, useFlags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    sm_set_t in;
    CUresult res = resource_read(__func__, input, &in);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (in.split != 0) {
        UMF_MOCK_LOG_ERROR("%s: the result of a split cannot be split again "
                           "(cuda.h: make a descriptor and a green context "
                           "of it first)",
                           __func__);
        return CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    }
    unsigned total = set_count(&in);
    if (minCount > total) {
        UMF_MOCK_LOG_ERROR("%s: minCount %u is more than the resource's %u "
                           "SMs",
                           __func__, minCount, total);
        return CUDA_ERROR_INVALID_VALUE;
    }
    bool fine = useFlags & CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING;
    unsigned min_size = fine ? SM_FINE_MIN : SM_GROUP_MIN;
    unsigned align = fine ? SM_FINE_ALIGN : SM_GROUP_ALIGN;
    // minCount rounded up to the alignment, at least the minimum.
    unsigned size = (minCount + align - 1) / align * align;
    size = size < min_size ? min_size : size;
    unsigned groups = total / size;
    if (result == NULL) {
        *nbGroups = groups;
        return CUDA_SUCCESS;
    }
    if (groups == 0) {
        UMF_MOCK_LOG_ERROR("%s: %u SMs make no group of %u", __func__, total,
                           size);
        return CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    }
    groups = groups < *nbGroups ? groups : *nbGroups;
    static _Atomic uint64_t splits;
    uint64_t split =
        atomic_fetch_add_explicit(&splits, 1, memory_order_relaxed) + 1;
    // The input's SMs in order: `size` to each group, the rest remains.
    sm_set_t rest = in;
    rest.split = split;
    for (unsigned g = 0; g < groups; g++) {
        sm_set_t set = {
            .magic = RESOURCE_MAGIC, .device = in.device, .split = split};
        for (unsigned taken = 0, i = 0; taken < size; i++) {
            uint64_t bit = 1ull << (i % 64);
            if (rest.sms[i / 64] & bit) {
                rest.sms[i / 64] &= ~bit;
                set.sms[i / 64] |= bit;
                taken++;
            }
        }
        resource_write(&result[g], &set, min_size, align);
    }
    if (remaining != NULL) {
        resource_write(remaining, &rest, min_size, SM_FINE_ALIGN);
    }
    *nbGroups = groups;
    return CUDA_SUCCESS;
}

// ---- Descriptors -----------------------------------------------------------
//
// cuda.h has no call that frees a descriptor: they live as long as the
// process, in a list that tells the driver's from any other pointer.

typedef struct CUdevResourceDesc_st {
    struct CUdevResourceDesc_st *next;
    sm_set_t set;
} desc_t;

static pthread_mutex_t descs_lock = PTHREAD_MUTEX_INITIALIZER;
static desc_t *descs;

static bool desc_known(CUdevResourceDesc d, sm_set_t *set) {
    bool found = false;
    pthread_mutex_lock(&descs_lock);
    for (desc_t *it = descs; it != NULL && !found; it = it->next) {
        if (it == d) {
            *set = it->set;
            found = true;
        }
    }
    pthread_mutex_unlock(&descs_lock);
    return found;
}

CUDA_MOCK_API CUresult cuDevResourceGenerateDesc(CUdevResourceDesc *phDesc,
                                                 CUdevResource *resources,
                                                 unsigned int nbResources) {
    CUDA_MOCK_ENTER(cuDevResourceGenerateDesc);
    if (phDesc == NULL || resources == NULL || nbResources == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    sm_set_t all;
    for (unsigned r = 0; r < nbResources; r++) {
        sm_set_t set;
        CUresult res = resource_read(__func__, &resources[r], &set);
        if (res != CUDA_SUCCESS) {
            return res;
        }
        if (r == 0) {
            all = set;
            continue;
        }
        // Several: of one device, outputs of one split, each SM once.
        bool overlap = false;
        for (unsigned i = 0; i < SM_WORDS; i++) {
            overlap |= (all.sms[i] & set.sms[i]) != 0;
            all.sms[i] |= set.sms[i];
        }
        if (set.device != all.device || set.split == 0 ||
            set.split != all.split || overlap) {
            UMF_MOCK_LOG_ERROR("%s: resources %u and 0 are not distinct "
                               "outputs of one split of one device",
                               __func__, r);
            return CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
        }
    }
    desc_t *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    d->set = all;
    pthread_mutex_lock(&descs_lock);
    d->next = descs;
    descs = d;
    pthread_mutex_unlock(&descs_lock);
    *phDesc = d;
    return CUDA_SUCCESS;
}

// ---- Green contexts --------------------------------------------------------

typedef struct CUgreenCtx_st {
    cuda_mock_slot_t slot;
    cuda_mock_ctx_ref_t ref; // its context (cuCtxFromGreenCtx), for its life
    sm_set_t set;            // the descriptor's SMs
    unsigned long long id;
} green_t;

static cuda_mock_table_t greens =
    CUDA_MOCK_TABLE("green context", green_t, CUDA_MOCK_MAX_CONTEXTS,
                    CUDA_MOCK_OBJECT_GREEN_CTX);

// The live green context `h` names: CUDA_ERROR_CONTEXT_IS_DESTROYED for a
// destroyed one, CUDA_ERROR_INVALID_CONTEXT for anything else (a CUcontext
// included: cuda.h's INVALID_CONTEXT "if the green context passed to an API
// call was not converted").
static CUresult green_live(CUgreenCtx h, const char *call, green_t **out) {
    green_t *g = cuda_mock_table_get(&greens, h);
    if (g != NULL && cuda_mock_ctx_ref_alive(g->ref)) {
        *out = g;
        return CUDA_SUCCESS;
    }
    // (alive in the table, its context not: being destroyed)
    if (h != NULL && cuda_mock_table_holds(&greens, h)) {
        UMF_MOCK_LOG_ERROR("%s: green context %p was destroyed", call,
                           (void *)h);
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    UMF_MOCK_LOG_ERROR("%s: %p is not a green context of this driver", call,
                       (void *)h);
    return CUDA_ERROR_INVALID_CONTEXT;
}

// A green context's SMs, as a resource that may be split again.
static void green_resource(CUgreenCtx h, CUdevResource *r) {
    const green_t *g = (const green_t *)h;
    sm_set_t set = g->set;
    set.split = 0;
    resource_write(r, &set, SM_GROUP_MIN, SM_FINE_ALIGN);
}

CUDA_MOCK_API CUresult cuGreenCtxCreate(CUgreenCtx *phCtx,
                                        CUdevResourceDesc desc, CUdevice dev,
                                        unsigned int flags) {
    CUDA_MOCK_ENTER(cuGreenCtxCreate);
    if (phCtx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (flags != CU_GREEN_CTX_DEFAULT_STREAM) {
        UMF_MOCK_LOG_ERROR("%s: flags 0x%x: CU_GREEN_CTX_DEFAULT_STREAM is "
                           "required, and the only flag",
                           __func__, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    sm_set_t set;
    if (!desc_known(desc, &set)) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a descriptor of "
                           "cuDevResourceGenerateDesc",
                           __func__, (void *)desc);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (set.device != (uint32_t)dev) {
        UMF_MOCK_LOG_ERROR("%s: the descriptor holds SMs of device %u, not "
                           "of device %d",
                           __func__, set.device, (int)dev);
        return CUDA_ERROR_INVALID_VALUE;
    }
    green_t *g = NULL;
    CUresult res = cuda_mock_table_alloc(&greens, (void **)&g);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    static _Atomic unsigned long long next_id = 1;
    g->set = set;
    g->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
    cuda_mock_ctx_t *ctx;
    res = cuda_mock_ctx_green_create(dev, g, __func__, &ctx);
    if (res != CUDA_SUCCESS) {
        (void)cuda_mock_table_free(&greens, g);
        return res;
    }
    g->ref = cuda_mock_ctx_ref(ctx);
    *phCtx = g;
    return CUDA_SUCCESS;
}

// Its context goes, with the objects made in it but its streams (detached,
// cuda_mock_stream.c); its memory is the primary context's and stays.
CUDA_MOCK_API CUresult cuGreenCtxDestroy(CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuGreenCtxDestroy);
    green_t *g = NULL;
    CUresult res = green_live(hCtx, __func__, &g);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    res = cuda_mock_ctx_green_destroy(g->ref, __func__);
    if (res == CUDA_ERROR_CONTEXT_IS_DESTROYED) {
        return res; // another thread's destroy won
    }
    (void)cuda_mock_table_free(&greens, g);
    return res;
}

CUDA_MOCK_API CUresult cuCtxFromGreenCtx(CUcontext *pContext, CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuCtxFromGreenCtx);
    if (pContext == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    green_t *g = NULL;
    CUresult res = green_live(hCtx, __func__, &g);
    if (res == CUDA_SUCCESS) {
        *pContext = g->ref.ctx;
    }
    return res;
}

CUDA_MOCK_API CUresult cuGreenCtxGetDevResource(CUgreenCtx hCtx,
                                                CUdevResource *resource,
                                                CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuGreenCtxGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    green_t *g = NULL;
    CUresult res = green_live(hCtx, __func__, &g);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (!type_ok(type)) {
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    green_resource(g, resource);
    return CUDA_SUCCESS;
}

// As cuCtxRecordEvent on the green context's context: the event must be of
// it or of its primary context, and captures the green context's work.
CUDA_MOCK_API CUresult cuGreenCtxRecordEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxRecordEvent);
    green_t *g = NULL;
    CUresult res = green_live(hCtx, __func__, &g);
    return res == CUDA_SUCCESS
               ? cuda_mock_event_record_ctx(g->ref.ctx, hEvent, __func__)
               : res;
}

// As cuCtxWaitEvent: the event may be of any context; the green context's
// later work follows what it captured.
CUDA_MOCK_API CUresult cuGreenCtxWaitEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxWaitEvent);
    green_t *g = NULL;
    CUresult res = green_live(hCtx, __func__, &g);
    return res == CUDA_SUCCESS
               ? cuda_mock_order_event_sync(hEvent, true, __func__)
               : res;
}

// In the green context whatever is current; CU_STREAM_NON_BLOCKING "must be
// specified".
CUDA_MOCK_API CUresult cuGreenCtxStreamCreate(CUstream *phStream,
                                              CUgreenCtx greenCtx,
                                              unsigned int flags,
                                              int priority) {
    CUDA_MOCK_ENTER(cuGreenCtxStreamCreate);
    if (phStream == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    green_t *g = NULL;
    CUresult res = green_live(greenCtx, __func__, &g);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (flags != CU_STREAM_NON_BLOCKING) {
        UMF_MOCK_LOG_ERROR("%s: flags 0x%x: CU_STREAM_NON_BLOCKING must be "
                           "specified, and is the only flag",
                           __func__, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_stream_create_in(g->ref.ctx, phStream, flags, priority,
                                      __func__);
}

// NULL: the current context's green context (CUDA_ERROR_INVALID_CONTEXT
// when it is not one).
CUDA_MOCK_API CUresult cuGreenCtxGetId(CUgreenCtx greenCtx,
                                       unsigned long long *greenCtxId) {
    CUDA_MOCK_ENTER(cuGreenCtxGetId);
    if (greenCtxId == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (greenCtx == NULL) {
        cuda_mock_ctx_t *ctx;
        CUresult res = cuda_mock_ctx_current(&ctx);
        if (res != CUDA_SUCCESS) {
            return res;
        }
        greenCtx = cuda_mock_ctx_green(ctx);
        if (greenCtx == NULL) {
            UMF_MOCK_LOG_ERROR("%s: the current context is not a green "
                               "context",
                               __func__);
            return CUDA_ERROR_INVALID_CONTEXT;
        }
    }
    green_t *g = NULL;
    CUresult res = green_live(greenCtx, __func__, &g);
    if (res == CUDA_SUCCESS) {
        *greenCtxId = g->id;
    }
    return res;
}

// The green context a stream was made in; for the default streams the
// current context's; NULL for a context that is not green.
CUDA_MOCK_API CUresult cuStreamGetGreenCtx(CUstream hStream,
                                           CUgreenCtx *phCtx) {
    CUDA_MOCK_ENTER(cuStreamGetGreenCtx);
    if (phCtx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(hStream, __func__, &ctx);
    if (res == CUDA_SUCCESS) {
        *phCtx = cuda_mock_ctx_green(ctx);
    }
    return res;
}
