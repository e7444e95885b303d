// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graph nodes by type: adding each kind of node (cuGraphAdd*Node and the
// generic cuGraphAddNode), reading and setting its parameters, and the
// kinds the emulation refuses. The parameters are checked when a node is
// added or set, as the operation they describe would be when enqueued
// (a memcpy node's copy on its context, cuda_mock_copy3d.c; a memset node's
// fill), so that a launch runs what was accepted.
//
// Emulated: memcpy, memset, host, child graph, empty, event record, event
// wait, memory allocation and free nodes. Refused when added, with
// CUDA_ERROR_NOT_SUPPORTED: kernel nodes (no kernels run), external
// semaphore nodes (no external semaphores can be imported), batch memory
// operation nodes
// (the device reports no stream memory operations) and conditional nodes
// (their handles need kernels to set them). No node of a refused kind can
// exist, so their getters and setters answer CUDA_ERROR_INVALID_VALUE for
// every node, as for a node of another type.

#include "cuda_mock_copy.h"
#include "cuda_mock_graph.h"

#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------
// Checks and operations of parameters

// The live context `ctx` names, or the current one for NULL.
static CUresult node_ctx(CUcontext ctx, const char *call,
                         cuda_mock_ctx_t **out) {
    return ctx != NULL ? cuda_mock_ctx_live(ctx, call, out)
                       : cuda_mock_ctx_current(out);
}

CUresult cuda_mock_node_check(node_params_t *p, const char *call) {
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_MEMCPY: {
        cuda_mock_ctx_t *ctx;
        CUresult res = node_ctx(p->ctx, call, &ctx);
        if (res != CUDA_SUCCESS) {
            return res;
        }
        const CUDA_MEMCPY3D *c = &p->u.copy;
        if (c->reserved0 != NULL || c->reserved1 != NULL) {
            UMF_MOCK_LOG_ERROR("%s: reserved0 and reserved1 must be NULL",
                               call);
            return CUDA_ERROR_INVALID_VALUE;
        }
        CUDA_MEMCPY3D_PEER peer;
        memcpy(&peer, c, sizeof(peer));
        int device = cuda_mock_ctx_device(ctx);
        cuda_mock_copy3d_devices(&peer, device, device, &p->dst_device,
                                 &p->src_device);
        p->ctx = ctx;
        return cuda_mock_copy3d_check(&peer, p->dst_device, p->src_device,
                                      call);
    }
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        cuda_mock_ctx_t *ctx;
        CUresult res = node_ctx(p->ctx, call, &ctx);
        if (res != CUDA_SUCCESS) {
            return res;
        }
        const CUDA_MEMSET_NODE_PARAMS *m = &p->u.memset;
        unsigned e = m->elementSize;
        if ((e != 1 && e != 2 && e != 4) || m->dst % e != 0 ||
            (m->height > 1 && (m->pitch % e != 0 || m->width > SIZE_MAX / e ||
                               m->pitch < m->width * e))) {
            UMF_MOCK_LOG_ERROR("%s: a memset of %zu x %zu elements of %u "
                               "bytes at 0x%llx, pitch %zu",
                               call, m->width, m->height, e,
                               (unsigned long long)m->dst, m->pitch);
            return CUDA_ERROR_INVALID_VALUE;
        }
        p->ctx = ctx;
        p->dst_device = cuda_mock_ctx_device(ctx);
        return cuda_mock_fill_check(p->dst_device, (uintptr_t)m->dst,
                                    m->height > 1 ? m->pitch : m->width * e, e,
                                    m->width, m->height, call);
    }
    case CU_GRAPH_NODE_TYPE_HOST:
        if (p->u.host.fn == NULL) {
            UMF_MOCK_LOG_ERROR("%s: a host node without a function", call);
            return CUDA_ERROR_INVALID_VALUE;
        }
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: {
        cuda_mock_ctx_t *ectx;
        uint32_t gen;
        return cuda_mock_event_order_of(p->u.event, call, &ectx, &gen) != NULL
                   ? CUDA_SUCCESS
                   : CUDA_ERROR_INVALID_VALUE;
    }
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        // Made by add_mem only; cuda.h has no setter for them.
        UMF_MOCK_LOG_ERROR("%s: the parameters of a memory allocation or "
                           "free node cannot be changed",
                           call);
        return CUDA_ERROR_INVALID_VALUE;
    default:
        UMF_MOCK_LOG_ERROR("%s: graph node type %d is not supported by the "
                           "emulated driver",
                           call, (int)p->type);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

cuda_mock_op_t cuda_mock_node_op(const node_params_t *p) {
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_EMPTY, .call = "cuGraphLaunch"};
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        op.kind = CUDA_MOCK_OP_COPY3D;
        memcpy(&op.u.copy3d.p, &p->u.copy, sizeof(op.u.copy3d.p));
        op.u.copy3d.dst_device = p->dst_device;
        op.u.copy3d.src_device = p->src_device;
        break;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        const CUDA_MEMSET_NODE_PARAMS *m = &p->u.memset;
        op.kind = CUDA_MOCK_OP_FILL;
        op.u.fill.dst = (uintptr_t)m->dst;
        op.u.fill.pitch = m->height > 1 ? m->pitch : m->width * m->elementSize;
        op.u.fill.value = m->value;
        op.u.fill.elem = m->elementSize;
        op.u.fill.width = m->width;
        op.u.fill.height = m->height;
        op.u.fill.device = p->dst_device;
        break;
    }
    case CU_GRAPH_NODE_TYPE_HOST:
        op.kind = CUDA_MOCK_OP_HOST;
        op.u.host.fn = p->u.host.fn;
        op.u.host.data = p->u.host.userData;
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: {
        cuda_mock_ctx_t *ectx;
        uint32_t gen = 0;
        if (cuda_mock_event_order_of(p->u.event, "cuGraphInstantiate", &ectx,
                                     &gen) != NULL) {
            op.kind = p->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD
                          ? CUDA_MOCK_OP_RECORD
                          : CUDA_MOCK_OP_WAIT;
            op.u.event.event = p->u.event;
            op.u.event.gen = gen;
            op.u.event.flags = 0;
        }
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        op = cuda_mock_gmem_op(p->u.alloc.mem, CUDA_MOCK_GMEM_BEGIN,
                               "cuGraphLaunch");
        break;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        op = cuda_mock_gmem_op(p->u.free.mem, CUDA_MOCK_GMEM_END,
                               "cuGraphLaunch");
        break;
    default:
        break;
    }
    return op;
}

void cuda_mock_node_params_free(node_params_t *p) {
    if (p->type == CU_GRAPH_NODE_TYPE_GRAPH && p->u.child != NULL) {
        cuda_mock_graph_free(p->u.child);
        p->u.child = NULL;
    } else if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
               p->u.alloc.mem != NULL) {
        free((void *)p->u.alloc.p.accessDescs);
        cuda_mock_gmem_unref(p->u.alloc.mem);
        p->u.alloc.mem = NULL;
    } else if (p->type == CU_GRAPH_NODE_TYPE_MEM_FREE &&
               p->u.free.mem != NULL) {
        cuda_mock_gmem_drop_free(p->u.free.mem, p->u.free.own);
        p->u.free.mem = NULL;
    }
}

// ---------------------------------------------------------------------------
// Adding nodes

// Adds a node of `p` (checked) to `graph` after `deps`; a child graph is
// cloned into the node, or moved into it (`move`).
static CUresult add(CUgraphNode *out, CUgraph graph, const CUgraphNode *deps,
                    size_t ndeps, const CUgraphEdgeData *data, node_params_t p,
                    bool move, const char *call) {
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUresult res = CUDA_SUCCESS;
    CUgraph g = cuda_mock_graph_of(graph, call);
    if (g == NULL) {
        res = CUDA_ERROR_INVALID_VALUE;
    }
    if (res == CUDA_SUCCESS) {
        res = cuda_mock_node_check(&p, call);
    }
    CUgraph child = NULL;
    if (res == CUDA_SUCCESS && p.type == CU_GRAPH_NODE_TYPE_GRAPH) {
        child = cuda_mock_graph_of(p.u.child, call);
        if (child == NULL || (move && (child->owner != NULL ||
                                       child->captures > 0 || child == g))) {
            UMF_MOCK_LOG_ERROR("%s: %p is no graph that can become a child "
                               "graph here",
                               call, (void *)p.u.child);
            res = CUDA_ERROR_INVALID_VALUE;
        } else if (!move) {
            res = cuda_mock_graph_clone(child, &p.u.child);
        }
    }
    if (res == CUDA_SUCCESS) {
        res = cuda_mock_graph_add(g, deps, ndeps, data, &p, call, out);
        if (res != CUDA_SUCCESS && !move) {
            cuda_mock_node_params_free(&p);
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

// ---------------------------------------------------------------------------
// Memory allocation and free nodes (their memory: cuda_mock_graph_mem.c)

static bool access_flags_ok(CUmemAccess_flags f) {
    return f == CU_MEM_ACCESS_FLAGS_PROT_NONE ||
           f == CU_MEM_ACCESS_FLAGS_PROT_READ ||
           f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
}

// CUDA_MEM_ALLOC_NODE_PARAMS: "location where the allocation should
// reside", pinned memory (CUmemPoolProps: "Currently must be specified as
// CU_MEM_ALLOCATION_TYPE_PINNED"), "handleTypes must be
// CU_MEM_HANDLE_TYPE_NONE. IPC is not supported", the access descriptors
// ("Must not exceed the number of GPUs") of devices, a size.
static CUresult check_alloc(const CUDA_MEM_ALLOC_NODE_PARAMS *a,
                            const char *call) {
    const CUmemPoolProps *pp = &a->poolProps;
    const char *why = NULL;
    if (pp->location.type == CU_MEM_LOCATION_TYPE_HOST ||
        pp->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
        pp->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT) {
        return cuda_mock_refuse(call, "graph allocations in host memory are "
                                      "not emulated");
    }
    if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED) {
        why = "poolProps.allocType must be CU_MEM_ALLOCATION_TYPE_PINNED";
    } else if (pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
               pp->location.id < 0 ||
               (unsigned)pp->location.id >= umf_mock_device_count()) {
        why = "poolProps.location is not a device";
    } else if (pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE ||
               pp->win32SecurityAttributes != NULL) {
        why = "poolProps.handleTypes must be CU_MEM_HANDLE_TYPE_NONE (IPC is "
              "not supported)";
    } else if (a->bytesize == 0) {
        why = "bytesize is 0";
    } else if (a->accessDescCount > umf_mock_device_count() ||
               (a->accessDescCount > 0 && a->accessDescs == NULL)) {
        why = "more access descriptors than devices, or none given";
    }
    for (size_t i = 0; why == NULL && i < a->accessDescCount; i++) {
        const CUmemAccessDesc *d = &a->accessDescs[i];
        if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
            d->location.id < 0 ||
            (unsigned)d->location.id >= umf_mock_device_count() ||
            !access_flags_ok(d->flags)) {
            why = "an access descriptor names no device or no valid access";
        } else if (d->location.id == pp->location.id &&
                   d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
            why = "the allocation's own device keeps read-write access";
        }
    }
    if (why != NULL) {
        UMF_MOCK_LOG_ERROR("%s: %s", call, why);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_node_add_mem(CUgraph g, const CUgraphNode *deps,
                                size_t ndeps, const CUgraphEdgeData *data,
                                node_params_t *p, const char *call,
                                CUgraphNode *out) {
    bool alloc = p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    // The memory core ends graph memory through this hook; set before any
    // such memory exists.
    atomic_store_explicit(&cuda_mock_graph_mem_free, cuda_mock_gmem_free_hook,
                          memory_order_release);
    CUresult res;
    if (g->owner != NULL) {
        // cuGraphChildGraphNodeGetGraph: "Allocation and free nodes cannot
        // be added to the returned graph"; a moved child graph "Cannot have
        // additional memory allocation or free nodes added".
        UMF_MOCK_LOG_ERROR("%s: graph %p is the child graph of node %p", call,
                           (void *)g, (void *)g->owner);
        res = CUDA_ERROR_INVALID_VALUE;
    } else if (alloc) {
        res = cuda_mock_gmem_reserve(p->u.alloc.p.poolProps.location.id,
                                     p->u.alloc.p.bytesize, g, &p->u.alloc.mem);
    } else {
        res = cuda_mock_gmem_add_free(p->u.free.dptr, g, call, &p->u.free.mem,
                                      &p->u.free.own);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (alloc) {
        p->u.alloc.p.dptr = cuda_mock_gmem_ptr(p->u.alloc.mem);
    }
    res = cuda_mock_graph_add(g, deps, ndeps, data, p, call, out);
    if (res != CUDA_SUCCESS) {
        // The access descriptors stay the caller's.
        if (alloc) {
            cuda_mock_gmem_unref(p->u.alloc.mem);
        } else {
            cuda_mock_gmem_drop_free(p->u.free.mem, p->u.free.own);
        }
    }
    return res;
}

// Adds an allocation node (its address to *dptr) or a free node of `p` to
// `graph` after `deps`.
static CUresult add_mem(CUgraphNode *out, CUgraph graph,
                        const CUgraphNode *deps, size_t ndeps,
                        const CUgraphEdgeData *data, node_params_t *p,
                        const char *call, CUdeviceptr *dptr) {
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    bool alloc = p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    CUresult res = alloc ? check_alloc(&p->u.alloc.p, call) : CUDA_SUCCESS;
    if (res != CUDA_SUCCESS) {
        return res;
    }
    CUmemAccessDesc *access = NULL;
    size_t naccess = alloc ? p->u.alloc.p.accessDescCount : 0;
    if (naccess > 0) {
        // "The poolProps and accessDescs returned in params_out, are owned
        // by the node."
        access = malloc(naccess * sizeof(*access));
        if (access == NULL) {
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        memcpy(access, p->u.alloc.p.accessDescs, naccess * sizeof(*access));
    }
    if (alloc) {
        p->u.alloc.p.accessDescs = access;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(graph, call);
    res = g != NULL ? cuda_mock_node_add_mem(g, deps, ndeps, data, p, call, out)
                    : CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (res != CUDA_SUCCESS) {
        free(access);
    } else if (alloc) {
        *dptr = p->u.alloc.p.dptr;
    }
    return res;
}

CUDA_MOCK_API CUresult cuGraphAddMemAllocNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphAddMemAllocNode);
    if (nodeParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    p.u.alloc.p = *nodeParams;
    return add_mem(phGraphNode, hGraph, dependencies, numDependencies, NULL, &p,
                   "cuGraphAddMemAllocNode", &nodeParams->dptr);
}

CUDA_MOCK_API CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode,
                                             CUgraph hGraph,
                                             const CUgraphNode *dependencies,
                                             size_t numDependencies,
                                             CUdeviceptr dptr) {
    CUDA_MOCK_ENTER(cuGraphAddMemFreeNode);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEM_FREE);
    p.u.free.dptr = dptr;
    CUdeviceptr unused;
    return add_mem(phGraphNode, hGraph, dependencies, numDependencies, NULL, &p,
                   "cuGraphAddMemFreeNode", &unused);
}

CUDA_MOCK_API CUresult cuGraphAddMemcpyNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx) {
    CUDA_MOCK_ENTER(cuGraphAddMemcpyNode);
    if (copyParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEMCPY);
    p.u.copy = *copyParams;
    p.ctx = ctx;
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL, p,
               false, "cuGraphAddMemcpyNode");
}

CUDA_MOCK_API CUresult cuGraphAddMemsetNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
    CUcontext ctx) {
    CUDA_MOCK_ENTER(cuGraphAddMemsetNode);
    if (memsetParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEMSET);
    p.u.memset = *memsetParams;
    p.ctx = ctx;
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL, p,
               false, "cuGraphAddMemsetNode");
}

CUDA_MOCK_API CUresult cuGraphAddHostNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphAddHostNode);
    if (nodeParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_HOST);
    p.u.host = *nodeParams;
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL, p,
               false, "cuGraphAddHostNode");
}

CUDA_MOCK_API CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode,
                                                CUgraph hGraph,
                                                const CUgraphNode *dependencies,
                                                size_t numDependencies,
                                                CUgraph childGraph) {
    CUDA_MOCK_ENTER(cuGraphAddChildGraphNode);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_GRAPH);
    p.u.child = childGraph;
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL, p,
               false, "cuGraphAddChildGraphNode");
}

CUDA_MOCK_API CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode,
                                           CUgraph hGraph,
                                           const CUgraphNode *dependencies,
                                           size_t numDependencies) {
    CUDA_MOCK_ENTER(cuGraphAddEmptyNode);
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL,
               cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_EMPTY), false,
               "cuGraphAddEmptyNode");
}

CUDA_MOCK_API CUresult cuGraphAddEventRecordNode(
    CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
    size_t numDependencies, CUevent event) {
    CUDA_MOCK_ENTER(cuGraphAddEventRecordNode);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    p.u.event = event;
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL, p,
               false, "cuGraphAddEventRecordNode");
}

CUDA_MOCK_API CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode,
                                               CUgraph hGraph,
                                               const CUgraphNode *dependencies,
                                               size_t numDependencies,
                                               CUevent event) {
    CUDA_MOCK_ENTER(cuGraphAddEventWaitNode);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    p.u.event = event;
    return add(phGraphNode, hGraph, dependencies, numDependencies, NULL, p,
               false, "cuGraphAddEventWaitNode");
}

// The parameters of a generic CUgraphNodeParams; `move`: a child graph
// moved into the node (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE).
CUresult cuda_mock_node_from_generic(const CUgraphNodeParams *g,
                                     node_params_t *p, bool *move,
                                     const char *call) {
    *move = false;
    if (g == NULL || g->reserved0[0] != 0 || g->reserved0[1] != 0 ||
        g->reserved0[2] != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *p = cuda_mock_node_params_of(g->type);
    switch (g->type) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        if (g->memcpy.flags != 0 || g->memcpy.reserved != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        p->u.copy = g->memcpy.copyParams;
        p->ctx = g->memcpy.copyCtx;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        p->u.memset.dst = g->memset.dst;
        p->u.memset.pitch = g->memset.pitch;
        p->u.memset.value = g->memset.value;
        p->u.memset.elementSize = g->memset.elementSize;
        p->u.memset.width = g->memset.width;
        p->u.memset.height = g->memset.height;
        p->ctx = g->memset.ctx;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_HOST:
        p->u.host.fn = g->host.fn;
        p->u.host.userData = g->host.userData;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        if (g->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE &&
            g->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        p->u.child = g->graph.graph;
        *move = g->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        p->u.event = g->eventRecord.event;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        p->u.event = g->eventWait.event;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        p->u.alloc.p.poolProps = g->alloc.poolProps;
        p->u.alloc.p.accessDescs = g->alloc.accessDescs;
        p->u.alloc.p.accessDescCount = g->alloc.accessDescCount;
        p->u.alloc.p.bytesize = g->alloc.bytesize;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        p->u.free.dptr = g->free.dptr;
        return CUDA_SUCCESS;
    default:
        UMF_MOCK_LOG_ERROR("%s: graph node type %d is not supported by the "
                           "emulated driver",
                           call, (int)g->type);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

static CUresult add_generic(CUgraphNode *out, CUgraph graph,
                            const CUgraphNode *deps,
                            const CUgraphEdgeData *data, size_t ndeps,
                            CUgraphNodeParams *params, const char *call) {
    node_params_t p;
    bool move;
    CUresult res = cuda_mock_node_from_generic(params, &p, &move, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (p.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
        p.type == CU_GRAPH_NODE_TYPE_MEM_FREE) {
        CUdeviceptr dptr = 0;
        res = add_mem(out, graph, deps, ndeps, data, &p, call, &dptr);
        if (res == CUDA_SUCCESS && p.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
            params->alloc.dptr = dptr; // "out: address of the allocation"
        }
        return res;
    }
    return add(out, graph, deps, ndeps, data, p, move, call);
}

CUDA_MOCK_API CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                      const CUgraphNode *dependencies,
                                      size_t numDependencies,
                                      CUgraphNodeParams *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphAddNode);
    return add_generic(phGraphNode, hGraph, dependencies, NULL, numDependencies,
                       nodeParams, "cuGraphAddNode");
}

CUDA_MOCK_API CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode,
                                         CUgraph hGraph,
                                         const CUgraphNode *dependencies,
                                         const CUgraphEdgeData *dependencyData,
                                         size_t numDependencies,
                                         CUgraphNodeParams *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphAddNode_v2);
    return add_generic(phGraphNode, hGraph, dependencies, dependencyData,
                       numDependencies, nodeParams, "cuGraphAddNode_v2");
}

// ---------------------------------------------------------------------------
// Reading and setting parameters

// The node `h` of type `type`, under graph_lock (NULL, logged, otherwise).
static CUgraphNode typed(CUgraphNode h, CUgraphNodeType type,
                         const char *call) {
    CUgraphNode n = cuda_mock_node_of(h, call);
    if (n != NULL && n->params.type != type) {
        UMF_MOCK_LOG_ERROR("%s: node %p is of type %d, not %d", call, (void *)h,
                           (int)n->params.type, (int)type);
        return NULL;
    }
    return n;
}

// Copies node h's parameters of `type` into `out` (`size` bytes at
// `offset` of its parameters).
static CUresult get(CUgraphNode h, CUgraphNodeType type, void *out, size_t size,
                    const char *call) {
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphNode n = typed(h, type, call);
    if (n != NULL) {
        memcpy(out, &n->params.u, size);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return n != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// Sets node h's parameters to `p` (of its type), checked on the node's
// context (memcpy and memset nodes keep theirs).
static CUresult set(CUgraphNode h, node_params_t p, const char *call) {
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphNode n = typed(h, p.type, call);
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    if (n != NULL) {
        if (p.ctx == NULL) {
            p.ctx = n->params.ctx;
        }
        res = cuda_mock_node_check(&p, call);
        if (res == CUDA_SUCCESS && p.type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraph child = cuda_mock_graph_of(p.u.child, call);
            res = child != NULL ? cuda_mock_graph_clone(child, &p.u.child)
                                : CUDA_ERROR_INVALID_VALUE;
            if (res == CUDA_SUCCESS) {
                p.u.child->owner = n;
            }
        }
        if (res == CUDA_SUCCESS) {
            cuda_mock_node_params_free(&n->params);
            n->params = p;
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode,
                                                  CUDA_MEMCPY3D *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphMemcpyNodeGetParams);
    return get(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams,
               sizeof(*nodeParams), "cuGraphMemcpyNodeGetParams");
}

CUDA_MOCK_API CUresult
cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphMemcpyNodeSetParams);
    if (nodeParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEMCPY);
    p.u.copy = *nodeParams;
    return set(hNode, p, "cuGraphMemcpyNodeSetParams");
}

CUDA_MOCK_API CUresult cuGraphMemsetNodeGetParams(
    CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphMemsetNodeGetParams);
    return get(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams,
               sizeof(*nodeParams), "cuGraphMemsetNodeGetParams");
}

CUDA_MOCK_API CUresult cuGraphMemsetNodeSetParams(
    CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphMemsetNodeSetParams);
    if (nodeParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEMSET);
    p.u.memset = *nodeParams;
    return set(hNode, p, "cuGraphMemsetNodeSetParams");
}

CUDA_MOCK_API CUresult
cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphHostNodeGetParams);
    return get(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams, sizeof(*nodeParams),
               "cuGraphHostNodeGetParams");
}

CUDA_MOCK_API CUresult cuGraphHostNodeSetParams(
    CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphHostNodeSetParams);
    if (nodeParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_HOST);
    p.u.host = *nodeParams;
    return set(hNode, p, "cuGraphHostNodeSetParams");
}

// "This call does not clone the graph. Changes to the graph will be
// reflected in the node, and the node retains ownership of the graph."
CUDA_MOCK_API CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode,
                                                     CUgraph *phGraph) {
    CUDA_MOCK_ENTER(cuGraphChildGraphNodeGetGraph);
    return get(hNode, CU_GRAPH_NODE_TYPE_GRAPH, phGraph, sizeof(*phGraph),
               "cuGraphChildGraphNodeGetGraph");
}

CUDA_MOCK_API CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode,
                                                      CUevent *event_out) {
    CUDA_MOCK_ENTER(cuGraphEventRecordNodeGetEvent);
    return get(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event_out,
               sizeof(*event_out), "cuGraphEventRecordNodeGetEvent");
}

CUDA_MOCK_API CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode,
                                                      CUevent event) {
    CUDA_MOCK_ENTER(cuGraphEventRecordNodeSetEvent);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    p.u.event = event;
    return set(hNode, p, "cuGraphEventRecordNodeSetEvent");
}

CUDA_MOCK_API CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode,
                                                    CUevent *event_out) {
    CUDA_MOCK_ENTER(cuGraphEventWaitNodeGetEvent);
    return get(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out,
               sizeof(*event_out), "cuGraphEventWaitNodeGetEvent");
}

CUDA_MOCK_API CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode,
                                                    CUevent event) {
    CUDA_MOCK_ENTER(cuGraphEventWaitNodeSetEvent);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    p.u.event = event;
    return set(hNode, p, "cuGraphEventWaitNodeSetEvent");
}

CUDA_MOCK_API CUresult cuGraphNodeSetParams(CUgraphNode hNode,
                                            CUgraphNodeParams *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphNodeSetParams);
    node_params_t p;
    bool move;
    CUresult res = cuda_mock_node_from_generic(nodeParams, &p, &move,
                                               "cuGraphNodeSetParams");
    if (res == CUDA_SUCCESS && move) {
        return CUDA_ERROR_INVALID_VALUE; // a child graph is set by cloning
    }
    return res == CUDA_SUCCESS ? set(hNode, p, "cuGraphNodeSetParams") : res;
}

// The parameters of memory nodes (no setters: they cannot change).

CUDA_MOCK_API CUresult cuGraphMemAllocNodeGetParams(
    CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out) {
    CUDA_MOCK_ENTER(cuGraphMemAllocNodeGetParams);
    return get(hNode, CU_GRAPH_NODE_TYPE_MEM_ALLOC, params_out,
               sizeof(*params_out), "cuGraphMemAllocNodeGetParams");
}

CUDA_MOCK_API CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode,
                                                   CUdeviceptr *dptr_out) {
    CUDA_MOCK_ENTER(cuGraphMemFreeNodeGetParams);
    return get(hNode, CU_GRAPH_NODE_TYPE_MEM_FREE, dptr_out, sizeof(*dptr_out),
               "cuGraphMemFreeNodeGetParams");
}

// ---------------------------------------------------------------------------
// The kinds the emulation refuses

static CUresult refused(const char *call, const char *why) {
    UMF_MOCK_LOG_ERROR("%s: %s", call, why);
    return CUDA_ERROR_NOT_SUPPORTED;
}

// Adding: the arguments a node of any kind needs, then the refusal.
static CUresult refuse_add(CUgraphNode *out, CUgraph graph, const void *params,
                           const char *call, const char *why) {
    if (out == NULL || params == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    bool valid = cuda_mock_graph_of(graph, call) != NULL;
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return valid ? refused(call, why) : CUDA_ERROR_INVALID_VALUE;
}

// A getter or setter of a refused kind: no node is of that kind.
static CUresult no_such_node(CUgraphNode h, const void *params,
                             const char *call) {
    if (params == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphNode n = cuda_mock_node_of(h, call);
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (n != NULL) {
        UMF_MOCK_LOG_ERROR("%s: node %p is not of that type (no node of it "
                           "can exist here)",
                           call, (void *)h);
    }
    return CUDA_ERROR_INVALID_VALUE;
}

#define NO_KERNELS "no kernels run on the emulated devices"
#define NO_SEMAPHORES "no external semaphores can be imported here"
#define NO_MEM_OPS "the emulated devices have no stream memory operations"

// The adding function of a refused kind, and a getter or setter of one.
#define REFUSED_ADD(name, params_t, why)                                       \
    CUDA_MOCK_API CUresult name(CUgraphNode *phGraphNode, CUgraph hGraph,      \
                                const CUgraphNode *dependencies,               \
                                size_t numDependencies, params_t nodeParams) { \
        CUDA_MOCK_ENTER(name);                                                 \
        (void)dependencies, (void)numDependencies;                             \
        return refuse_add(phGraphNode, hGraph, nodeParams, #name, why);        \
    }
#define NO_SUCH_NODE(name, params_t)                                           \
    CUDA_MOCK_API CUresult name(CUgraphNode hNode, params_t params) {          \
        CUDA_MOCK_ENTER(name);                                                 \
        return no_such_node(hNode, params, #name);                             \
    }

REFUSED_ADD(cuGraphAddKernelNode, const CUDA_KERNEL_NODE_PARAMS_v1 *,
            NO_KERNELS)
REFUSED_ADD(cuGraphAddKernelNode_v2, const CUDA_KERNEL_NODE_PARAMS *,
            NO_KERNELS)
NO_SUCH_NODE(cuGraphKernelNodeGetParams, CUDA_KERNEL_NODE_PARAMS_v1 *)
NO_SUCH_NODE(cuGraphKernelNodeGetParams_v2, CUDA_KERNEL_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphKernelNodeSetParams, const CUDA_KERNEL_NODE_PARAMS_v1 *)
NO_SUCH_NODE(cuGraphKernelNodeSetParams_v2, const CUDA_KERNEL_NODE_PARAMS *)

CUDA_MOCK_API CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst,
                                                       CUgraphNode src) {
    CUDA_MOCK_ENTER(cuGraphKernelNodeCopyAttributes);
    (void)no_such_node(src, &src, "cuGraphKernelNodeCopyAttributes");
    return no_such_node(dst, &dst, "cuGraphKernelNodeCopyAttributes");
}

CUDA_MOCK_API CUresult
cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                              CUkernelNodeAttrValue *value_out) {
    CUDA_MOCK_ENTER(cuGraphKernelNodeGetAttribute);
    (void)attr;
    return no_such_node(hNode, value_out, "cuGraphKernelNodeGetAttribute");
}

CUDA_MOCK_API CUresult
cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                              const CUkernelNodeAttrValue *value) {
    CUDA_MOCK_ENTER(cuGraphKernelNodeSetAttribute);
    (void)attr;
    return no_such_node(hNode, value, "cuGraphKernelNodeSetAttribute");
}

REFUSED_ADD(cuGraphAddExternalSemaphoresSignalNode,
            const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *, NO_SEMAPHORES)
NO_SUCH_NODE(cuGraphExternalSemaphoresSignalNodeGetParams,
             CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphExternalSemaphoresSignalNodeSetParams,
             const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)
REFUSED_ADD(cuGraphAddExternalSemaphoresWaitNode,
            const CUDA_EXT_SEM_WAIT_NODE_PARAMS *, NO_SEMAPHORES)
NO_SUCH_NODE(cuGraphExternalSemaphoresWaitNodeGetParams,
             CUDA_EXT_SEM_WAIT_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphExternalSemaphoresWaitNodeSetParams,
             const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)
REFUSED_ADD(cuGraphAddBatchMemOpNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS *,
            NO_MEM_OPS)
NO_SUCH_NODE(cuGraphBatchMemOpNodeGetParams, CUDA_BATCH_MEM_OP_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphBatchMemOpNodeSetParams,
             const CUDA_BATCH_MEM_OP_NODE_PARAMS *)

CUDA_MOCK_API CUresult cuGraphConditionalHandleCreate(
    CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx,
    unsigned int defaultLaunchValue, unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphConditionalHandleCreate);
    // A handle is a value (CUgraphConditionalHandle is 64 bits) that only a
    // kernel sets and only a conditional node reads; neither exists here
    // (cuGraphAddNode refuses conditional nodes), so a handle is made and
    // checked, unique in the process, and nothing holds on to it.
    static _Atomic uint64_t next_handle = 1;
    (void)defaultLaunchValue; // applied at launch by a conditional node
    if (pHandle_out == NULL || (flags & ~CU_GRAPH_COND_ASSIGN_DEFAULT) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *c;
    CUresult res = ctx == NULL ? cuda_mock_ctx_current(&c)
                               : cuda_mock_ctx_live(ctx, __func__, &c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    bool valid = cuda_mock_graph_of(hGraph, __func__) != NULL;
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (!valid) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pHandle_out = next_handle++;
    return CUDA_SUCCESS;
}
