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
// A green context is a context of its own (cuCtxFromGreenCtx gives it;
// cuda_mock_ctx_create_green), current nowhere when made, holding a
// retain of its device's primary context, and the SMs of its descriptor,
// which cuGreenCtxGetDevResource and cuCtxGetDevResource report. The
// emulated devices run no kernels, so nothing is confined to those SMs:
// its memory, streams and events are those of any context. A handle is
// looked up in the list of live green contexts, never followed.

#include "cuda_mock_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

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

// ---- Green contexts: the list -----------------------------------------

struct CUgreenCtx_st {
    struct CUgreenCtx_st *next;
    CUcontext ctx;
    CUcontext primary; // of its device, which it retains
    CUdevice dev;
    sm_set_t set;
    unsigned long long id; // unique in the process, from 1
};

static pthread_mutex_t greens_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUgreenCtx_st *greens;
static unsigned long long green_ids;

// The live green context `h` (under greens_lock), or NULL.
static struct CUgreenCtx_st *green_of(CUgreenCtx h) {
    for (struct CUgreenCtx_st *g = greens; g != NULL; g = g->next) {
        if (g == h) {
            return g;
        }
    }
    return NULL;
}

// The green context whose context is `ctx` (under greens_lock), or NULL.
static struct CUgreenCtx_st *green_with_ctx(CUcontext ctx) {
    for (struct CUgreenCtx_st *g = greens; g != NULL; g = g->next) {
        if (g->ctx == ctx) {
            return g;
        }
    }
    return NULL;
}

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
    // A green context's context has its SMs; any other, every SM of its
    // device.
    pthread_mutex_lock(&greens_lock);
    struct CUgreenCtx_st *g = green_with_ctx(hCtx);
    if (g != NULL) {
        resource_write(resource, &g->set, SM_GROUP_MIN, SM_FINE_ALIGN);
    }
    pthread_mutex_unlock(&greens_lock);
    if (g == NULL) {
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

// ---- Green contexts -----------------------------------------------------

// What a call on green context `h` needs: its context and device, or
// CUDA_ERROR_INVALID_CONTEXT (logged).
static CUresult green_get(CUgreenCtx h, const char *call, CUcontext *ctx,
                          CUdevice *dev, sm_set_t *set) {
    pthread_mutex_lock(&greens_lock);
    struct CUgreenCtx_st *g = green_of(h);
    if (g != NULL) {
        *ctx = g->ctx;
        if (dev != NULL) {
            *dev = g->dev;
        }
        if (set != NULL) {
            *set = g->set;
        }
    }
    pthread_mutex_unlock(&greens_lock);
    if (g == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a live green context", call,
                           (void *)h);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuGreenCtxCreate(CUgreenCtx *phCtx,
                                        CUdevResourceDesc desc, CUdevice dev,
                                        unsigned int flags) {
    CUDA_MOCK_ENTER(cuGreenCtxCreate);
    if (phCtx == NULL || flags != CU_GREEN_CTX_DEFAULT_STREAM) {
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
    struct CUgreenCtx_st *g = calloc(1, sizeof(*g));
    if (g == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    // "creates a green context ... will retain the primary context".
    CUcontext primary;
    CUresult res = cuDevicePrimaryCtxRetain(&primary, dev);
    if (res == CUDA_SUCCESS) {
        res = cuda_mock_ctx_create_green(dev, &g->ctx, __func__);
        if (res != CUDA_SUCCESS) {
            (void)cuDevicePrimaryCtxRelease_v2(dev);
        }
    }
    if (res != CUDA_SUCCESS) {
        free(g);
        return res;
    }
    g->dev = dev;
    g->primary = primary;
    g->set = set;
    g->set.split = 0; // its own SMs, which may be split again
    pthread_mutex_lock(&greens_lock);
    g->id = ++green_ids;
    g->next = greens;
    greens = g;
    pthread_mutex_unlock(&greens_lock);
    *phCtx = g;
    return CUDA_SUCCESS;
}

// "The API does not destroy streams created via cuGreenCtxStreamCreate":
// its context's objects go as a destroyed context's do (memory, streams,
// events), which later calls see as CUDA_ERROR_CONTEXT_IS_DESTROYED or
// invalid handles.
CUDA_MOCK_API CUresult cuGreenCtxDestroy(CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuGreenCtxDestroy);
    pthread_mutex_lock(&greens_lock);
    struct CUgreenCtx_st *g = green_of(hCtx);
    if (g != NULL) {
        struct CUgreenCtx_st **at = &greens;
        while (*at != g) {
            at = &(*at)->next;
        }
        *at = g->next;
    }
    pthread_mutex_unlock(&greens_lock);
    if (g == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a live green context", __func__,
                           (void *)hCtx);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    CUresult res = cuda_mock_ctx_destroy_green(g->ctx, __func__);
    CUresult released = cuDevicePrimaryCtxRelease_v2(g->dev);
    free(g);
    return res != CUDA_SUCCESS ? res : released;
}

CUDA_MOCK_API CUresult cuCtxFromGreenCtx(CUcontext *pContext, CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuCtxFromGreenCtx);
    if (pContext == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return green_get(hCtx, __func__, pContext, NULL, NULL);
}

CUDA_MOCK_API CUresult cuGreenCtxGetDevResource(CUgreenCtx hCtx,
                                                CUdevResource *resource,
                                                CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuGreenCtxGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUcontext ctx;
    sm_set_t set;
    CUresult res = green_get(hCtx, __func__, &ctx, NULL, &set);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (!type_ok(type)) {
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    }
    resource_write(resource, &set, SM_GROUP_MIN, SM_FINE_ALIGN);
    return CUDA_SUCCESS;
}

// "Captures in hEvent all the activities of the green context": those of
// its context (cuCtxRecordEvent), the event being of the same one.
CUDA_MOCK_API CUresult cuGreenCtxRecordEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxRecordEvent);
    CUcontext ctx;
    CUresult res = green_get(hCtx, __func__, &ctx, NULL, NULL);
    return res != CUDA_SUCCESS ? res : cuCtxRecordEvent(ctx, hEvent);
}

CUDA_MOCK_API CUresult cuGreenCtxWaitEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxWaitEvent);
    CUcontext ctx;
    CUresult res = green_get(hCtx, __func__, &ctx, NULL, NULL);
    return res != CUDA_SUCCESS ? res : cuCtxWaitEvent(ctx, hEvent);
}

// "ignores the context that is current to the calling thread and creates
// a stream in the specified green context"; CU_STREAM_NON_BLOCKING "must
// be specified".
CUDA_MOCK_API CUresult cuGreenCtxStreamCreate(CUstream *phStream,
                                              CUgreenCtx greenCtx,
                                              unsigned int flags,
                                              int priority) {
    CUDA_MOCK_ENTER(cuGreenCtxStreamCreate);
    if (phStream == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUcontext ctx;
    CUresult res = green_get(greenCtx, __func__, &ctx, NULL, NULL);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (!(flags & CU_STREAM_NON_BLOCKING)) {
        UMF_MOCK_LOG_ERROR("%s: flags 0x%x lack CU_STREAM_NON_BLOCKING, "
                           "which must be given",
                           __func__, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    res = cuCtxPushCurrent_v2(ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    res = cuStreamCreateWithPriority(phStream, flags, priority);
    CUcontext popped;
    (void)cuCtxPopCurrent_v2(&popped);
    return res;
}

// "If green context is supplied as NULL and the current context is set to
// a green context, the Id of the current green context is returned."
CUDA_MOCK_API CUresult cuGreenCtxGetId(CUgreenCtx greenCtx,
                                       unsigned long long *greenCtxId) {
    CUDA_MOCK_ENTER(cuGreenCtxGetId);
    if (greenCtxId == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUcontext current = NULL;
    if (greenCtx == NULL && cuCtxGetCurrent(&current) != CUDA_SUCCESS) {
        current = NULL;
    }
    pthread_mutex_lock(&greens_lock);
    struct CUgreenCtx_st *g = greenCtx != NULL  ? green_of(greenCtx)
                              : current != NULL ? green_with_ctx(current)
                                                : NULL;
    if (g != NULL) {
        *greenCtxId = g->id;
    }
    pthread_mutex_unlock(&greens_lock);
    if (g == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a live green context (nor is the "
                           "current context one)",
                           __func__, (void *)greenCtx);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    return CUDA_SUCCESS;
}

// The green context whose context `ctx` is, or NULL: the stream's, or for
// the NULL and legacy streams the current context's.
CUDA_MOCK_API CUresult cuStreamGetGreenCtx(CUstream hStream,
                                           CUgreenCtx *phCtx) {
    CUDA_MOCK_ENTER(cuStreamGetGreenCtx);
    if (phCtx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(hStream, __func__, &ctx);
    if (res == CUDA_SUCCESS) {
        pthread_mutex_lock(&greens_lock);
        *phCtx = green_with_ctx(ctx);
        pthread_mutex_unlock(&greens_lock);
    }
    return res;
}

// "If the stream is associated with a green context, the API returns the
// green context in pGreenCtx and the primary context of the associated
// device in pCtx"; the special streams tell of the current context.
static CUresult get_ctx_v2(CUstream h, CUcontext *pctx, CUgreenCtx *pgreen,
                           const char *call) {
    if (pctx == NULL && pgreen == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(h, call, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    pthread_mutex_lock(&greens_lock);
    struct CUgreenCtx_st *g = green_with_ctx(ctx);
    if (pctx != NULL) {
        *pctx = g != NULL ? g->primary : ctx;
    }
    if (pgreen != NULL) {
        *pgreen = g;
    }
    pthread_mutex_unlock(&greens_lock);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx,
                                         CUgreenCtx *pGreenCtx) {
    CUDA_MOCK_ENTER(cuStreamGetCtx_v2);
    return get_ctx_v2(hStream, pCtx, pGreenCtx, "cuStreamGetCtx_v2");
}

CUDA_MOCK_API CUresult cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx,
                                              CUgreenCtx *pGreenCtx) {
    CUDA_MOCK_ENTER(cuStreamGetCtx_v2_ptsz);
    return get_ctx_v2(hStream, pCtx, pGreenCtx, "cuStreamGetCtx_v2_ptsz");
}
