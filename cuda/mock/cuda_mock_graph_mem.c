// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graph memory: the allocations of graph allocation nodes, their lifetimes
// and the devices' graph memory accounts (CU_GRAPH_MEM_ATTR_*).
//
// An allocation node's address is fixed when the node is added and stays
// for the node's life ("The allocation's address remains fixed across
// instantiations and launches"), so the memory is reserved then: an
// allocation of the core (user flag CUDA_MOCK_GRAPH_MEMORY, owner its
// record) that counts as reserved graph memory of its device. It counts as
// used from the time the node runs until the allocation ends, in stream
// order: a free node, cuMemFreeAsync, cuMemFree_v2 (at once, after the
// device's queued work), or the next launch of an executable graph made
// with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH.
//
// Two states per allocation: `outstanding`, in the order of the calls
// (a launch began it and no free of it was launched or called since: what
// decides whether a launch or a free is allowed), and `live`, in stream
// order (what the attributes count). A record is reference counted: one
// reference for its allocation node, one per free node and executable
// graph naming it, one while it is outstanding (moved to the queued
// operation that ends it). The reservation goes back to the core with the
// last reference, so an allocation that a launch began outlives its graph
// until it is freed, as on a GPU ("Graph destruction does not automatically
// free any live graph-allocated memory").
//
// This file uses only the core (mock/) and its own lock, which is taken
// last: nothing is called under it but the core's allocator. The graph
// files call it; the memory core reaches it only through the hook they set
// (cuda_mock_graph_mem_free).

#include "cuda_mock_graph.h"

#include <pthread.h>
#include <stdlib.h>

struct cuda_mock_gmem_t {
    CUdeviceptr dptr;
    int device;
    uint64_t mapped;   // the page-rounded size, what the accounts count
    const void *graph; // the graph of its allocation node (identity only)
    unsigned refs;
    unsigned foreign_frees; // free nodes in other graphs
    bool freed_in_graph;    // a free node in its own graph
    bool outstanding;       // call order (see above)
    bool live;              // stream order
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// The accounts of each device, under `lock` (bytes, page-rounded).
typedef struct account_t {
    uint64_t used, used_high, reserved, reserved_high;
} account_t;
static account_t accounts[UMF_MOCK_MAX_DEVICES];

static void raise_to(uint64_t *high, uint64_t now) {
    if (now > *high) {
        *high = now;
    }
}

CUresult cuda_mock_gmem_reserve(int device, size_t size, const void *graph,
                                cuda_mock_gmem_t **out) {
    cuda_mock_gmem_t *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    void *p;
    umf_mock_status_t status =
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, device, size, 0, (uintptr_t)m,
                       CUDA_MOCK_GRAPH_MEMORY, &p);
    if (status != UMF_MOCK_OK) {
        free(m);
        UMF_MOCK_LOG_INFO("cuGraphAddMemAllocNode(%zu) on device %d: %s", size,
                          device, umf_mock_status_name(status));
        return status == UMF_MOCK_ERR_UNSUPPORTED_SIZE
                   ? CUDA_ERROR_INVALID_VALUE
                   : CUDA_ERROR_OUT_OF_MEMORY;
    }
    umf_mock_alloc_info_t info;
    (void)umf_mock_lookup(p, &info);
    m->dptr = (CUdeviceptr)(uintptr_t)p;
    m->device = device;
    m->mapped = info.mapped;
    m->graph = graph;
    m->refs = 1;
    pthread_mutex_lock(&lock);
    account_t *a = &accounts[device];
    a->reserved += m->mapped;
    raise_to(&a->reserved_high, a->reserved);
    pthread_mutex_unlock(&lock);
    *out = m;
    return CUDA_SUCCESS;
}

CUdeviceptr cuda_mock_gmem_ptr(const cuda_mock_gmem_t *m) {
    return m->dptr;
}

void cuda_mock_gmem_ref(cuda_mock_gmem_t *m) {
    pthread_mutex_lock(&lock);
    m->refs++;
    pthread_mutex_unlock(&lock);
}

// Under `lock`: drops a reference; the last one gives the reservation back.
static void unref_locked(cuda_mock_gmem_t *m) {
    if (--m->refs > 0) {
        return;
    }
    account_t *a = &accounts[m->device];
    if (m->live) {
        a->used -= m->mapped;
    }
    a->reserved -= m->mapped;
    umf_mock_status_t status =
        umf_mock_free((const void *)(uintptr_t)m->dptr, UMF_MOCK_KIND_DEVICE,
                      (uintptr_t)m, NULL);
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("graph memory %p: its reservation could not be "
                           "given back: %s",
                           (void *)(uintptr_t)m->dptr,
                           umf_mock_status_name(status));
    }
    free(m);
}

void cuda_mock_gmem_unref(cuda_mock_gmem_t *m) {
    pthread_mutex_lock(&lock);
    unref_locked(m);
    pthread_mutex_unlock(&lock);
}

// Under `lock`: the record of the graph allocation that starts at `dptr`.
static cuda_mock_gmem_t *find_locked(CUdeviceptr dptr) {
    umf_mock_alloc_info_t info;
    const void *p = (const void *)(uintptr_t)dptr;
    if (dptr == 0 || umf_mock_lookup(p, &info) != UMF_MOCK_OK ||
        (info.user_flags & CUDA_MOCK_GRAPH_MEMORY) == 0 || info.base != p ||
        info.kind != UMF_MOCK_KIND_DEVICE) {
        return NULL;
    }
    return (cuda_mock_gmem_t *)info.owner;
}

// cuGraphAddMemFreeNode's rules: "an allocation twice in the same graph",
// "an address that was not returned by an allocation node", "an invalid
// address"; "If the allocation is freed in the same graph, a free node
// cannot be added to another graph. If the allocation is freed in another
// graph, a free node can no longer be added to the owning graph."
CUresult cuda_mock_gmem_add_free(CUdeviceptr dptr, const void *graph,
                                 const char *call, cuda_mock_gmem_t **out,
                                 bool *own) {
    pthread_mutex_lock(&lock);
    cuda_mock_gmem_t *m = find_locked(dptr);
    const char *why = NULL;
    if (m == NULL) {
        why = "not the address of a graph allocation node";
    } else if (m->freed_in_graph) {
        why = "its allocation is freed in its own graph already";
    } else if (m->graph == graph && m->foreign_frees > 0) {
        why = "its allocation is freed in another graph";
    }
    if (why == NULL) {
        if (m->graph == graph) {
            m->freed_in_graph = true;
        } else {
            m->foreign_frees++;
        }
        m->refs++;
        *out = m;
        *own = m->graph == graph;
    }
    pthread_mutex_unlock(&lock);
    if (why != NULL) {
        UMF_MOCK_LOG_ERROR("%s(%p): %s", call, (void *)(uintptr_t)dptr, why);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

void cuda_mock_gmem_drop_free(cuda_mock_gmem_t *m, bool own) {
    pthread_mutex_lock(&lock);
    if (own) {
        m->freed_in_graph = false;
    } else {
        m->foreign_frees--;
    }
    unref_locked(m);
    pthread_mutex_unlock(&lock);
}

// cuGraphLaunch: "If any allocations created by hGraphExec remain unfreed
// (from a previous launch) and hGraphExec was not instantiated with
// CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, the launch will fail
// with CUDA_ERROR_INVALID_VALUE." `begin`: the allocations the launch
// leaves allocated; `end`: those of other graphs it frees, which must be
// allocated. All checked before any changes.
CUresult cuda_mock_gmem_launch(cuda_mock_gmem_t *const *begin, size_t nbegin,
                               cuda_mock_gmem_t *const *end, size_t nend,
                               bool auto_free, const char *call) {
    pthread_mutex_lock(&lock);
    const cuda_mock_gmem_t *bad = NULL;
    const char *why = NULL;
    for (size_t i = 0; i < nbegin && bad == NULL; i++) {
        if (begin[i]->outstanding && !auto_free) {
            bad = begin[i];
            why = "is not freed since the previous launch (and the graph "
                  "was not instantiated with "
                  "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)";
        }
    }
    for (size_t i = 0; i < nend && bad == NULL; i++) {
        if (!end[i]->outstanding) {
            bad = end[i];
            why = "that the graph frees is not allocated (its graph was "
                  "not launched since it was last freed)";
        }
    }
    if (bad == NULL) {
        for (size_t i = 0; i < nbegin; i++) {
            if (!begin[i]->outstanding) {
                begin[i]->outstanding = true;
                begin[i]->refs++;
            }
        }
        // The executable graph's own references keep these until its
        // operations ran.
        for (size_t i = 0; i < nend; i++) {
            end[i]->outstanding = false;
            unref_locked(end[i]);
        }
    }
    pthread_mutex_unlock(&lock);
    if (bad != NULL) {
        UMF_MOCK_LOG_ERROR("%s: graph allocation %p %s", call,
                           (void *)(uintptr_t)bad->dptr, why);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

// An allocation node or an end of the allocation runs (in stream order).
void cuda_mock_gmem_run(void *mem, unsigned what) {
    cuda_mock_gmem_t *m = mem;
    pthread_mutex_lock(&lock);
    account_t *a = &accounts[m->device];
    if (what == CUDA_MOCK_GMEM_BEGIN) {
        // Again after an automatic free: it stays allocated.
        if (!m->live) {
            m->live = true;
            a->used += m->mapped;
            raise_to(&a->used_high, a->used);
        }
    } else {
        if (m->live) {
            m->live = false;
            a->used -= m->mapped;
        }
        if (what == CUDA_MOCK_GMEM_END_UNREF) {
            unref_locked(m);
        }
    }
    pthread_mutex_unlock(&lock);
}

cuda_mock_op_t cuda_mock_gmem_op(cuda_mock_gmem_t *m, unsigned what,
                                 const char *call) {
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_GMEM, .call = call};
    op.u.gmem.fn = cuda_mock_gmem_run;
    op.u.gmem.mem = m;
    op.u.gmem.what = what;
    return op;
}

// The hook of cuMemFree_v2 (`op` NULL) and cuMemFreeAsync: "Allocations
// which are not freed in the same graph can be freed by passing the
// allocation to cuMemFreeAsync or cuMemFree"; "These allocations [freed in
// the same graph] cannot be freed outside the owning graph".
CUresult cuda_mock_gmem_free_hook(const umf_mock_alloc_info_t *info,
                                  cuda_mock_op_t *op, const char *call) {
    CUdeviceptr dptr = (CUdeviceptr)(uintptr_t)info->base;
    pthread_mutex_lock(&lock);
    // Found again under the lock: the record may have gone meanwhile.
    cuda_mock_gmem_t *m = find_locked(dptr);
    const char *why = NULL;
    if (m == NULL) {
        why = "not graph memory any more";
    } else if (m->freed_in_graph) {
        why = "graph memory freed by a free node of its graph cannot be "
              "freed outside it";
    } else if (!m->outstanding) {
        why = "graph memory that is not allocated (its graph was not "
              "launched since it was last freed)";
    } else {
        m->outstanding = false;
        if (op != NULL) {
            // The outstanding reference goes with the operation.
            *op = cuda_mock_gmem_op(m, CUDA_MOCK_GMEM_END_UNREF, call);
        } else {
            if (m->live) {
                m->live = false;
                accounts[m->device].used -= m->mapped;
            }
            unref_locked(m);
        }
    }
    pthread_mutex_unlock(&lock);
    if (why != NULL) {
        UMF_MOCK_LOG_ERROR("%s(%p): %s", call, (void *)(uintptr_t)dptr, why);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_gmem_attribute(int device, CUgraphMem_attribute attr,
                                  bool reset, cuuint64_t *value) {
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    account_t *a = &accounts[device];
    switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
        *value = a->used;
        res = reset ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
        break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
        *value = a->reserved;
        res = reset ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
        break;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
        if (reset) {
            // Starts again from the current amount.
            a->used_high = a->used;
        }
        *value = a->used_high;
        break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
        if (reset) {
            a->reserved_high = a->reserved;
        }
        *value = a->reserved_high;
        break;
    default:
        res = CUDA_ERROR_INVALID_VALUE;
        break;
    }
    pthread_mutex_unlock(&lock);
    return res;
}
