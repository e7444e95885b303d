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
// Green contexts themselves are refused (CUDA_ERROR_NOT_SUPPORTED after the
// argument checks): a context whose streams and events are confined to a
// set of SMs is not emulated, so no green context can exist
// (CUDA_ERROR_INVALID_HANDLE). cuStreamGetGreenCtx answers NULL: no stream
// belongs to a green context.

#include "cuda_mock_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "green contexts are not emulated"

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

static CUresult no_green_ctx(const char *call, CUgreenCtx g) {
    return cuda_mock_refuse_handle(call, "green context", (uintptr_t)g, WHY);
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
    // A context that is not green has every SM of its device.
    device_resource(cuda_mock_ctx_device(ctx), resource);
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
    return cuda_mock_refuse(__func__, WHY);
}

CUDA_MOCK_API CUresult cuGreenCtxDestroy(CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuGreenCtxDestroy);
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuCtxFromGreenCtx(CUcontext *pContext, CUgreenCtx hCtx) {
    CUDA_MOCK_ENTER(cuCtxFromGreenCtx);
    if (pContext == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxGetDevResource(CUgreenCtx hCtx,
                                                CUdevResource *resource,
                                                CUdevResourceType type) {
    CUDA_MOCK_ENTER(cuGreenCtxGetDevResource);
    if (resource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxRecordEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxRecordEvent);
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxWaitEvent(CUgreenCtx hCtx, CUevent hEvent) {
    CUDA_MOCK_ENTER(cuGreenCtxWaitEvent);
    return no_green_ctx(__func__, hCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxStreamCreate(CUstream *phStream,
                                              CUgreenCtx greenCtx,
                                              unsigned int flags,
                                              int priority) {
    CUDA_MOCK_ENTER(cuGreenCtxStreamCreate);
    if (phStream == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, greenCtx);
}

CUDA_MOCK_API CUresult cuGreenCtxGetId(CUgreenCtx greenCtx,
                                       unsigned long long *greenCtxId) {
    CUDA_MOCK_ENTER(cuGreenCtxGetId);
    if (greenCtxId == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_green_ctx(__func__, greenCtx);
}

// Emulated: every stream (the default ones of a context too) belongs to a
// context, none to a green context.
CUDA_MOCK_API CUresult cuStreamGetGreenCtx(CUstream hStream,
                                           CUgreenCtx *phCtx) {
    CUDA_MOCK_ENTER(cuStreamGetGreenCtx);
    if (phCtx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_stream_resolve(hStream, __func__, &ctx);
    if (res == CUDA_SUCCESS) {
        *phCtx = NULL;
    }
    return res;
}
