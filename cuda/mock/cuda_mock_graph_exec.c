// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Executable graphs: cuGraphInstantiate* makes one from a graph (its nodes
// and child graphs copied, each with the operation it runs, in a
// topological order found once: a cycle is CUDA_GRAPH_INSTANTIATE_INVALID_
// STRUCTURE), cuGraphLaunch enqueues the operations of its enabled nodes
// in that order on a stream (one CUDA_MOCK_OP_GRAPH, cuda_mock_queue.c:
// run at once in the calling thread while nothing is pending and no host
// node needs the driver thread, else queued, after the previous launch of
// the same executable graph), cuGraphExecUpdate and the cuGraphExec*Set*
// functions change what later launches run, with the restrictions cuda.h
// lists. An executable graph keeps the graph's user object references
// until its last queued launch ran.
//
// Nodes are paired with the graph's by their place in the order they were
// added (cuGraphExecUpdate, cuGraphExecChildGraphNodeSetParams), and the
// setters find a node by the graph node it was made from, which must still
// be alive.

#include "cuda_mock_graph.h"
#include "cuda_mock_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct exec_graph_t exec_graph_t;

typedef struct exec_node_t {
    CUgraphNode origin; // the graph node it was made from
    uint32_t origin_gen;
    node_params_t params; // a copy (a child graph's is not owned)
    cuda_mock_op_t op;
    bool enabled;
    exec_graph_t *child; // GRAPH nodes
    size_t *deps;        // positions of its dependencies, in edge order
    size_t ndeps;
} exec_node_t;

struct exec_graph_t {
    exec_node_t *nodes; // in the graph's order of addition
    size_t n;
    size_t *order; // a topological order (positions)
};

// What an executable graph holds until its last queued launch ran: user
// object references, and one reference to the graph memory of each of its
// memory nodes.
typedef struct exec_refs_t {
    uo_vec_t user_objects;
    cuda_mock_gmem_t **mem;
    size_t nmem;
} exec_refs_t;

struct CUgraphExec_st {
    cuda_mock_slot_t slot;
    exec_graph_t *g;
    cuuint64_t flags;
    bool needs_thread;     // a host node somewhere
    cuda_mock_mark_t last; // its last queued launch (the order lock)
    exec_refs_t refs;
    // With memory nodes: the graph it was made from (one executable graph
    // at a time), the allocations a launch leaves allocated (`begin`, not
    // freed in it) and those of other graphs it frees (`end`), both within
    // refs.mem.
    CUgraph graph;
    uint32_t graph_gen;
    cuda_mock_gmem_t **begin, **end;
    size_t nbegin, nend;
};

static cuda_mock_table_t execs =
    CUDA_MOCK_TABLE("executable graph", struct CUgraphExec_st,
                    CUDA_MOCK_MAX_GRAPH_EXECS, CUDA_MOCK_OBJECT_GRAPH_EXEC);

#define KNOWN_FLAGS                                                            \
    ((cuuint64_t)(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |            \
                  CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |                         \
                  CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |                  \
                  CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY))

static CUgraphExec exec_of(CUgraphExec h, const char *call) {
    CUgraphExec e = cuda_mock_table_get(&execs, h);
    if (e == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not an executable graph of this "
                           "driver, or was destroyed",
                           call, (void *)h);
    }
    return e;
}

// ---------------------------------------------------------------------------
// Building

static void exec_graph_free(exec_graph_t *e) {
    if (e == NULL) {
        return;
    }
    for (size_t i = 0; i < e->n; i++) {
        exec_graph_free(e->nodes[i].child);
        free(e->nodes[i].deps);
    }
    free(e->nodes);
    free(e->order);
    free(e);
}

// The position of node `n` in its graph: its nodes are in the order of
// their indices (added in that order, removals keep it).
static size_t position(CUgraphNode n) {
    const node_vec_t *v = &n->graph->nodes;
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->v[mid]->index < n->index) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// A topological order of `e` (Kahn's); false for a cycle.
static bool topo_order(exec_graph_t *e) {
    size_t *indeg = calloc(e->n + 1, sizeof(size_t));
    e->order = malloc((e->n + 1) * sizeof(size_t));
    if (indeg == NULL || e->order == NULL) {
        free(indeg);
        return false;
    }
    for (size_t i = 0; i < e->n; i++) {
        indeg[i] = e->nodes[i].ndeps;
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (indeg[i] == 0) {
            e->order[tail++] = i;
        }
    }
    // Dependents are found by scanning: graphs here are small, and this
    // runs once per instantiation.
    while (head < tail) {
        size_t done = e->order[head++];
        for (size_t i = 0; i < e->n; i++) {
            for (size_t k = 0; k < e->nodes[i].ndeps; k++) {
                if (e->nodes[i].deps[k] == done && --indeg[i] == 0) {
                    e->order[tail++] = i;
                }
            }
        }
    }
    free(indeg);
    return tail == e->n;
}

typedef struct build_error_t {
    CUresult res;
    CUgraphInstantiateResult result;
    CUgraphNode node;
    const char *why;
} build_error_t;

static void fail(build_error_t *err, CUresult res, CUgraphInstantiateResult r,
                 CUgraphNode node, const char *why) {
    if (err->res == CUDA_SUCCESS) {
        *err = (build_error_t){res, r, node, why};
    }
}

// The executable form of `g` (under graph_lock); NULL with *err set.
static exec_graph_t *build(CUgraph g, bool *needs_thread, build_error_t *err) {
    exec_graph_t *e = calloc(1, sizeof(*e));
    if (e == NULL ||
        (g->nodes.n > 0 &&
         (e->nodes = calloc(g->nodes.n, sizeof(exec_node_t))) == NULL)) {
        free(e);
        fail(err, CUDA_ERROR_OUT_OF_MEMORY, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             "out of host memory");
        return NULL;
    }
    e->n = g->nodes.n;
    for (size_t i = 0; i < e->n && err->res == CUDA_SUCCESS; i++) {
        CUgraphNode n = g->nodes.v[i];
        exec_node_t *x = &e->nodes[i];
        x->origin = n;
        x->origin_gen = cuda_mock_node_gen(n);
        x->params = n->params;
        x->enabled = true;
        x->op = cuda_mock_node_op(&n->params);
        if ((n->params.type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
             n->params.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) &&
            x->op.kind == CUDA_MOCK_OP_EMPTY) {
            fail(err, CUDA_ERROR_INVALID_VALUE, CUDA_GRAPH_INSTANTIATE_ERROR, n,
                 "the node's event was destroyed");
        }
        *needs_thread = *needs_thread || x->op.kind == CUDA_MOCK_OP_HOST;
        if (n->params.type == CU_GRAPH_NODE_TYPE_GRAPH) {
            x->child = build(n->params.u.child, needs_thread, err);
        }
        x->ndeps = n->deps.n;
        x->deps = x->ndeps > 0 ? malloc(x->ndeps * sizeof(size_t)) : NULL;
        if (x->ndeps > 0 && x->deps == NULL) {
            fail(err, CUDA_ERROR_OUT_OF_MEMORY, CUDA_GRAPH_INSTANTIATE_ERROR,
                 NULL, "out of host memory");
            break;
        }
        for (size_t k = 0; k < x->ndeps; k++) {
            x->deps[k] = position(n->deps.v[k]);
        }
    }
    if (err->res == CUDA_SUCCESS && !topo_order(e)) {
        fail(err, CUDA_ERROR_INVALID_VALUE,
             CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE, NULL,
             "the graph has a cycle");
    }
    if (err->res != CUDA_SUCCESS) {
        exec_graph_free(e);
        return NULL;
    }
    return e;
}

// The graph memory of the memory nodes of `g` (child graphs too): allocs
// (`free_nodes` false) or frees; `out` NULL counts them.
static size_t mem_of(const exec_graph_t *g, bool free_nodes,
                     cuda_mock_gmem_t **out, size_t n) {
    for (size_t i = 0; i < g->n; i++) {
        const exec_node_t *x = &g->nodes[i];
        if (x->child != NULL) {
            n = mem_of(x->child, free_nodes, out, n);
        } else if (x->params.type == (free_nodes
                                          ? CU_GRAPH_NODE_TYPE_MEM_FREE
                                          : CU_GRAPH_NODE_TYPE_MEM_ALLOC)) {
            if (out != NULL) {
                out[n] =
                    free_nodes ? x->params.u.free.mem : x->params.u.alloc.mem;
            }
            n++;
        }
    }
    return n;
}

static bool has(cuda_mock_gmem_t *const *v, size_t n,
                const cuda_mock_gmem_t *m) {
    for (size_t i = 0; i < n; i++) {
        if (v[i] == m) {
            return true;
        }
    }
    return false;
}

// Takes a reference to the graph memory of every memory node of `e`, and
// sorts it: allocations not freed by the graph itself (begin), frees of
// other graphs' allocations (end). Under graph_lock; false: out of memory.
static bool take_mem(CUgraphExec e) {
    size_t nalloc = mem_of(e->g, false, NULL, 0);
    size_t nfree = mem_of(e->g, true, NULL, 0);
    size_t n = nalloc + nfree;
    if (n == 0) {
        return true;
    }
    // One block: the references, then begin and end.
    cuda_mock_gmem_t **v = malloc(2 * n * sizeof(*v));
    if (v == NULL) {
        return false;
    }
    (void)mem_of(e->g, false, v, 0);
    (void)mem_of(e->g, true, v, nalloc);
    e->begin = v + n;
    for (size_t i = 0; i < nalloc; i++) {
        if (!has(v + nalloc, nfree, v[i])) {
            e->begin[e->nbegin++] = v[i];
        }
    }
    e->end = e->begin + e->nbegin;
    for (size_t i = nalloc; i < n; i++) {
        if (!has(v, nalloc, v[i])) {
            e->end[e->nend++] = v[i];
        }
    }
    for (size_t i = 0; i < n; i++) {
        cuda_mock_gmem_ref(v[i]);
    }
    e->refs.mem = v;
    e->refs.nmem = n;
    return true;
}

// CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH: "kernel nodes, memcpy nodes,
// memset nodes, and child graph nodes", at least one memcpy or memset (no
// kernel can exist), one context, no arrays.
static bool device_launchable(CUgraph g, CUcontext *ctx, bool *any,
                              build_error_t *err) {
    for (size_t i = 0; i < g->nodes.n; i++) {
        const node_params_t *p = &g->nodes.v[i]->params;
        switch (p->type) {
        case CU_GRAPH_NODE_TYPE_GRAPH:
            if (!device_launchable(p->u.child, ctx, any, err)) {
                return false;
            }
            continue;
        case CU_GRAPH_NODE_TYPE_MEMCPY:
            if (p->u.copy.srcMemoryType == CU_MEMORYTYPE_ARRAY ||
                p->u.copy.dstMemoryType == CU_MEMORYTYPE_ARRAY) {
                break;
            }
            // fall through
        case CU_GRAPH_NODE_TYPE_MEMSET:
            if (*ctx != NULL && *ctx != p->ctx) {
                fail(err, CUDA_ERROR_INVALID_VALUE,
                     CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED,
                     g->nodes.v[i], "nodes of several contexts");
                return false;
            }
            *ctx = p->ctx;
            *any = true;
            continue;
        default:
            break;
        }
        fail(err, CUDA_ERROR_INVALID_VALUE,
             CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED, g->nodes.v[i],
             "a node a device launch cannot run");
        return false;
    }
    return true;
}

static CUresult instantiate(CUgraphExec *out, CUgraph graph, cuuint64_t flags,
                            CUstream upload, build_error_t *err,
                            const char *call) {
    *err = (build_error_t){CUDA_SUCCESS, CUDA_GRAPH_INSTANTIATE_SUCCESS, NULL,
                           NULL};
    if (out == NULL || (flags & ~KNOWN_FLAGS) != 0 ||
        (flags & (CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                  CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)) ==
            (CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
             CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)) {
        fail(err, CUDA_ERROR_INVALID_VALUE, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             "invalid flags");
        return err->res;
    }
    if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) != 0) {
        cuda_mock_ctx_t *ctx;
        CUresult res = cuda_mock_stream_resolve(upload, call, &ctx);
        if (res != CUDA_SUCCESS) {
            fail(err, res, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
                 "not an upload stream");
            return res;
        }
    }
    CUgraphExec e;
    CUresult res = cuda_mock_table_alloc(&execs, (void **)&e);
    if (res != CUDA_SUCCESS) {
        fail(err, res, CUDA_GRAPH_INSTANTIATE_ERROR, NULL, "too many");
        return res;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(graph, call);
    if (g == NULL) {
        fail(err, CUDA_ERROR_INVALID_VALUE, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             "not a graph");
    } else if (g->captures > 0) {
        // "The graph will not be instantiable until the user calls
        // cuStreamEndCapture."
        fail(err, CUDA_ERROR_INVALID_VALUE, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             "a stream capture is capturing into it");
    } else if (cuda_mock_graph_has_mem(g) &&
               (g->owner != NULL || g->mem_execs > 0)) {
        // "If hGraph contains any allocation or free nodes, there can be at
        // most one executable graph in existence for that graph at a time."
        fail(err, CUDA_ERROR_INVALID_VALUE, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             g->owner != NULL ? "a child graph with memory nodes is "
                                "instantiated with its parent"
                              : "the graph has memory nodes and an "
                                "executable graph already");
    } else if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) != 0) {
        CUcontext ctx = NULL;
        bool any = false;
        if (device_launchable(g, &ctx, &any, err) && !any) {
            fail(err, CUDA_ERROR_INVALID_VALUE,
                 CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED, NULL,
                 "a device launch needs a memcpy or memset node");
        }
    }
    if (err->res == CUDA_SUCCESS) {
        e->g = build(g, &e->needs_thread, err);
    }
    if (err->res == CUDA_SUCCESS && !take_mem(e)) {
        fail(err, CUDA_ERROR_OUT_OF_MEMORY, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             "out of host memory");
    }
    if (err->res == CUDA_SUCCESS && e->refs.nmem > 0) {
        g->mem_execs++;
        e->graph = g;
        e->graph_gen = cuda_mock_graph_gen(g);
    }
    if (err->res == CUDA_SUCCESS &&
        !cuda_mock_uo_copy(&e->refs.user_objects, &g->user_objects)) {
        fail(err, CUDA_ERROR_OUT_OF_MEMORY, CUDA_GRAPH_INSTANTIATE_ERROR, NULL,
             "out of host memory");
    }
    if (err->res != CUDA_SUCCESS) {
        for (size_t i = 0; i < e->refs.nmem; i++) {
            cuda_mock_gmem_unref(e->refs.mem[i]);
        }
        free(e->refs.mem);
        if (e->refs.nmem > 0) {
            g->mem_execs--;
        }
        exec_graph_free(e->g);
        cuda_mock_uo_release_all(&e->refs.user_objects);
        free(e->refs.user_objects.v);
        (void)cuda_mock_table_free(&execs, e);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    cuda_mock_uo_flush();
    if (err->res != CUDA_SUCCESS) {
        UMF_MOCK_LOG_ERROR("%s: %s", call, err->why);
        return err->res;
    }
    e->flags = flags;
    *out = e;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
                                                   CUgraph hGraph,
                                                   unsigned long long flags) {
    CUDA_MOCK_ENTER(cuGraphInstantiateWithFlags);
    build_error_t err;
    // "CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD ... Only supported by
    // cuGraphInstantiateWithParams."
    if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return instantiate(phGraphExec, hGraph, flags, NULL, &err,
                       "cuGraphInstantiateWithFlags");
}

static CUresult with_params(CUgraphExec *out, CUgraph graph,
                            CUDA_GRAPH_INSTANTIATE_PARAMS *params,
                            const char *call) {
    if (params == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    build_error_t err;
    CUresult res = instantiate(out, graph, params->flags, params->hUploadStream,
                               &err, call);
    params->hErrNode_out = err.node;
    params->result_out = err.result;
    return res;
}

CUDA_MOCK_API CUresult
cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                             CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams) {
    CUDA_MOCK_ENTER(cuGraphInstantiateWithParams);
    return with_params(phGraphExec, hGraph, instantiateParams,
                       "cuGraphInstantiateWithParams");
}

CUDA_MOCK_API CUresult cuGraphInstantiateWithParams_ptsz(
    CUgraphExec *phGraphExec, CUgraph hGraph,
    CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams) {
    CUDA_MOCK_ENTER(cuGraphInstantiateWithParams_ptsz);
    return with_params(phGraphExec, hGraph, instantiateParams,
                       "cuGraphInstantiateWithParams_ptsz");
}

// CUDA 10's and 11's forms: the failing node and a log line.
static CUresult with_log(CUgraphExec *out, CUgraph graph, CUgraphNode *node,
                         char *log, size_t size, const char *call) {
    build_error_t err;
    CUresult res = instantiate(out, graph, 0, NULL, &err, call);
    if (node != NULL) {
        *node = err.node;
    }
    if (log != NULL && size > 0) {
        snprintf(log, size, "%s", res == CUDA_SUCCESS ? "" : err.why);
    }
    return res;
}

CUDA_MOCK_API CUresult cuGraphInstantiate(CUgraphExec *phGraphExec,
                                          CUgraph hGraph,
                                          CUgraphNode *phErrorNode,
                                          char *logBuffer, size_t bufferSize) {
    CUDA_MOCK_ENTER(cuGraphInstantiate);
    return with_log(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize,
                    "cuGraphInstantiate");
}

CUDA_MOCK_API CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec,
                                             CUgraph hGraph,
                                             CUgraphNode *phErrorNode,
                                             char *logBuffer,
                                             size_t bufferSize) {
    CUDA_MOCK_ENTER(cuGraphInstantiate_v2);
    return with_log(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize,
                    "cuGraphInstantiate_v2");
}

CUDA_MOCK_API CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec,
                                           cuuint64_t *flags) {
    CUDA_MOCK_ENTER(cuGraphExecGetFlags);
    if (flags == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUgraphExec e = exec_of(hGraphExec, "cuGraphExecGetFlags");
    if (e == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *flags = e->flags;
    return CUDA_SUCCESS;
}

// Releases what an executable graph kept (on the driver thread after its
// last queued launch, cuda_mock_order_after), if it could keep it (NULL:
// released already).
static void CUDA_CB release_refs(void *arg) {
    exec_refs_t *refs = arg;
    if (refs == NULL) {
        return;
    }
    cuda_mock_uo_release_all(&refs->user_objects);
    free(refs->user_objects.v);
    for (size_t i = 0; i < refs->nmem; i++) {
        cuda_mock_gmem_unref(refs->mem[i]);
    }
    free(refs->mem);
    free(refs);
    cuda_mock_uo_flush();
}

CUDA_MOCK_API CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) {
    CUDA_MOCK_ENTER(cuGraphExecDestroy);
    // Every change to the table of executable graphs is under the graph
    // lock: the one that finds it alive frees it.
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphExec e = exec_of(hGraphExec, "cuGraphExecDestroy");
    if (e == NULL) {
        pthread_mutex_unlock(&cuda_mock_graph_lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    exec_graph_t *g = e->g;
    // Its last launch's mark leaves the slot before the slot is free for
    // another executable graph (only a launch of this one writes it).
    cuda_mock_mark_t last = e->last;
    e->last = (cuda_mock_mark_t){0};
    // The graph it was made from may have another one now.
    CUgraph from =
        e->graph != NULL ? cuda_mock_graph_at(e->graph, e->graph_gen) : NULL;
    if (from != NULL && from->mem_execs > 0) {
        from->mem_execs--;
    }
    exec_refs_t *refs = malloc(sizeof(*refs));
    if (refs != NULL) {
        *refs = e->refs;
    } else {
        cuda_mock_uo_release_all(&e->refs.user_objects);
        free(e->refs.user_objects.v);
    }
    (void)cuda_mock_table_free(&execs, e);
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    exec_graph_free(g);
    // "If hGraphExec has been launched and is still executing, it will be
    // destroyed once its execution completes": its queued work holds copies
    // of its operations; its user objects and graph memory go after that
    // work.
    if (refs == NULL) {
        // Out of host memory: the graph memory stays (a leak, never a
        // record freed under queued work).
        UMF_MOCK_LOG_ERROR("cuGraphExecDestroy: out of host memory; its "
                           "graph memory stays");
    } else if (!cuda_mock_order_after(&last, release_refs, refs,
                                      "cuGraphExecDestroy")) {
        release_refs(refs);
    }
    cuda_mock_uo_flush();
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Launching (cuda_mock_queue.c walks the operations)

static CUresult walk(const exec_graph_t *g, cuda_mock_op_fn fn, void *arg) {
    for (size_t i = 0; i < g->n; i++) {
        const exec_node_t *x = &g->nodes[g->order[i]];
        CUresult res = CUDA_SUCCESS;
        if (x->child != NULL) {
            res = walk(x->child, fn, arg);
        } else if (x->enabled && x->op.kind != CUDA_MOCK_OP_EMPTY) {
            res = fn(&x->op, arg);
        }
        if (res != CUDA_SUCCESS) {
            return res;
        }
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_exec_walk(CUgraphExec exec, cuda_mock_op_fn fn, void *arg) {
    return walk(exec->g, fn, arg);
}

bool cuda_mock_exec_needs_thread(CUgraphExec exec) {
    return exec->needs_thread;
}

cuda_mock_mark_t *cuda_mock_exec_mark(CUgraphExec exec) {
    return &exec->last;
}

static CUresult launch(CUgraphExec hGraphExec, CUstream stream,
                       const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    CUgraphExec e = exec_of(hGraphExec, call);
    if (e == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (e->refs.nmem > 0) {
        // Graph memory is not captured here (as cuMemAllocAsync is not);
        // a launch allocates what it leaves allocated, in call order.
        res = cuda_mock_order_refuse_in_capture(&s, call);
        if (res == CUDA_SUCCESS) {
            res = cuda_mock_gmem_launch(
                e->begin, e->nbegin, e->end, e->nend,
                (e->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) !=
                    0,
                call);
        }
        if (res != CUDA_SUCCESS) {
            return res;
        }
    }
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_GRAPH, .call = call};
    op.u.graph.exec = e;
    return cuda_mock_order_submit(&s, &op);
}

CUDA_MOCK_API CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphLaunch);
    return launch(hGraphExec, hStream, "cuGraphLaunch");
}

CUDA_MOCK_API CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphLaunch_ptsz);
    return launch(hGraphExec, hStream, "cuGraphLaunch_ptsz");
}

// Nothing to upload: the devices share the host's memory.
static CUresult upload(CUgraphExec hGraphExec, CUstream stream,
                       const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return exec_of(hGraphExec, call) != NULL ? CUDA_SUCCESS
                                             : CUDA_ERROR_INVALID_VALUE;
}

CUDA_MOCK_API CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphUpload);
    return upload(hGraphExec, hStream, "cuGraphUpload");
}

CUDA_MOCK_API CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuGraphUpload_ptsz);
    return upload(hGraphExec, hStream, "cuGraphUpload_ptsz");
}

// ---------------------------------------------------------------------------
// Updating from a graph

// Whether a node's new parameters may replace the old ones in an
// executable graph (cuGraphExecUpdate's limitations).
static bool params_updatable(const node_params_t *old,
                             const node_params_t *now) {
    switch (old->type) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        // "The CUDA device(s) ... cannot change", nor the memory types.
        return old->dst_device == now->dst_device &&
               old->src_device == now->src_device &&
               old->u.copy.srcMemoryType == now->u.copy.srcMemoryType &&
               old->u.copy.dstMemoryType == now->u.copy.dstMemoryType;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        const CUDA_MEMSET_NODE_PARAMS *a = &old->u.memset, *b = &now->u.memset;
        if (old->dst_device != now->dst_device || a->height != b->height) {
            return false;
        }
        // "For 2d memsets, only address and assigned value may be updated."
        return a->height <= 1 ||
               (a->width == b->width && a->pitch == b->pitch &&
                a->elementSize == b->elementSize);
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        return old->u.alloc.mem == now->u.alloc.mem;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return old->u.free.mem == now->u.free.mem;
    default:
        return true;
    }
}

// Compares `e` with `g` (`apply`: and takes g's parameters); the first
// difference cuda.h names goes to *info.
static bool compare(exec_graph_t *e, CUgraph g, bool apply,
                    CUgraphExecUpdateResultInfo *info) {
    if (e->n != g->nodes.n) {
        *info = (CUgraphExecUpdateResultInfo){
            CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, NULL, NULL};
        return false;
    }
    for (size_t i = 0; i < e->n; i++) {
        exec_node_t *x = &e->nodes[i];
        CUgraphNode n = g->nodes.v[i];
        if (n->params.type != x->params.type) {
            *info = (CUgraphExecUpdateResultInfo){
                CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, n, NULL};
            return false;
        }
        if (n->deps.n != x->ndeps) {
            *info = (CUgraphExecUpdateResultInfo){
                CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, n, NULL};
            return false;
        }
        for (size_t k = 0; k < x->ndeps; k++) {
            if (position(n->deps.v[k]) != x->deps[k]) {
                *info = (CUgraphExecUpdateResultInfo){
                    CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, n,
                    n->deps.v[k]};
                return false;
            }
        }
        if (!params_updatable(&x->params, &n->params)) {
            *info = (CUgraphExecUpdateResultInfo){
                CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, n, NULL};
            return false;
        }
        cuda_mock_op_t op = cuda_mock_node_op(&n->params);
        if ((n->params.type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
             n->params.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) &&
            op.kind == CUDA_MOCK_OP_EMPTY) {
            *info = (CUgraphExecUpdateResultInfo){CU_GRAPH_EXEC_UPDATE_ERROR, n,
                                                  NULL};
            return false;
        }
        if (x->child != NULL &&
            !compare(x->child, n->params.u.child, apply, info)) {
            return false;
        }
        if (apply) {
            x->params = n->params;
            x->op = op;
        }
    }
    return true;
}

static CUresult update(CUgraphExec hGraphExec, CUgraph hGraph,
                       CUgraphExecUpdateResultInfo *info, const char *call) {
    *info =
        (CUgraphExecUpdateResultInfo){CU_GRAPH_EXEC_UPDATE_ERROR, NULL, NULL};
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphExec e = exec_of(hGraphExec, call);
    CUgraph g = cuda_mock_graph_of(hGraph, call);
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    if (e != NULL && g != NULL) {
        if (compare(e->g, g, false, info)) {
            (void)compare(e->g, g, true, info);
            *info = (CUgraphExecUpdateResultInfo){CU_GRAPH_EXEC_UPDATE_SUCCESS,
                                                  NULL, NULL};
            res = CUDA_SUCCESS;
        } else {
            UMF_MOCK_LOG_INFO("%s: not updated (result %d, node %p)", call,
                              (int)info->result, (void *)info->errorNode);
            res = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec,
                                            CUgraph hGraph,
                                            CUgraphExecUpdateResultInfo *info) {
    CUDA_MOCK_ENTER(cuGraphExecUpdate_v2);
    if (info == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return update(hGraphExec, hGraph, info, "cuGraphExecUpdate_v2");
}

// CUDA 10.2's form: the error node and the result.
CUDA_MOCK_API CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph,
                                         CUgraphNode *hErrorNode_out,
                                         CUgraphExecUpdateResult *result_out) {
    CUDA_MOCK_ENTER(cuGraphExecUpdate);
    if (hErrorNode_out == NULL || result_out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUgraphExecUpdateResultInfo info;
    CUresult res = update(hGraphExec, hGraph, &info, "cuGraphExecUpdate");
    *hErrorNode_out = info.errorNode;
    *result_out = info.result;
    return res;
}

// ---------------------------------------------------------------------------
// Setting one node of an executable graph

// The node of `g` made from graph node `origin` (of any depth).
static exec_node_t *find(exec_graph_t *g, CUgraphNode origin, uint32_t gen) {
    for (size_t i = 0; i < g->n; i++) {
        exec_node_t *x = &g->nodes[i];
        if (x->origin == origin && x->origin_gen == gen) {
            return x;
        }
        if (x->child != NULL) {
            exec_node_t *in = find(x->child, origin, gen);
            if (in != NULL) {
                return in;
            }
        }
    }
    return NULL;
}

// Under graph_lock: the node of executable graph `h` made from the live
// graph node `node`, of type `type`; NULL (logged) otherwise.
static exec_node_t *exec_node(CUgraphExec h, CUgraphNode node,
                              CUgraphNodeType type, const char *call) {
    CUgraphExec e = exec_of(h, call);
    CUgraphNode n = cuda_mock_node_of(node, call);
    exec_node_t *x =
        e != NULL && n != NULL ? find(e->g, n, cuda_mock_node_gen(n)) : NULL;
    if (x == NULL && e != NULL && n != NULL) {
        UMF_MOCK_LOG_ERROR("%s: node %p is not a node of the graph %p was "
                           "made from",
                           call, (void *)node, (void *)h);
    } else if (x != NULL && x->params.type != type) {
        UMF_MOCK_LOG_ERROR("%s: node %p is of type %d, not %d", call,
                           (void *)node, (int)x->params.type, (int)type);
        x = NULL;
    }
    return x;
}

// Whether a copy is "1-dimensional" (cuGraphExecMemcpyNodeSetParams).
static bool one_dimensional(const CUDA_MEMCPY3D *c) {
    return c->Height == 1 && c->Depth == 1 &&
           c->srcMemoryType != CU_MEMORYTYPE_ARRAY &&
           c->dstMemoryType != CU_MEMORYTYPE_ARRAY && c->WidthInBytes != 0;
}

static CUresult exec_set(CUgraphExec h, CUgraphNode node, node_params_t p,
                         const char *call) {
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    exec_node_t *x = exec_node(h, node, p.type, call);
    if (x != NULL) {
        if (p.ctx == NULL) {
            p.ctx = x->params.ctx;
        }
        res = cuda_mock_node_check(&p, call);
    }
    if (res == CUDA_SUCCESS) {
        bool ok = params_updatable(&x->params, &p) && p.ctx == x->params.ctx;
        if (p.type == CU_GRAPH_NODE_TYPE_MEMCPY) {
            ok = ok && one_dimensional(&x->params.u.copy) &&
                 one_dimensional(&p.u.copy);
        }
        if (!ok) {
            UMF_MOCK_LOG_ERROR("%s: the new parameters change what an "
                               "executable graph's node cannot change",
                               call);
            res = CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (res == CUDA_SUCCESS) {
        cuda_mock_op_t op = cuda_mock_node_op(&p);
        x->params = p;
        x->op = op;
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult
cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                               const CUDA_MEMCPY3D *copyParams, CUcontext ctx) {
    CUDA_MOCK_ENTER(cuGraphExecMemcpyNodeSetParams);
    if (copyParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEMCPY);
    p.u.copy = *copyParams;
    p.ctx = ctx;
    return exec_set(hGraphExec, hNode, p, "cuGraphExecMemcpyNodeSetParams");
}

CUDA_MOCK_API CUresult cuGraphExecMemsetNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode,
    const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx) {
    CUDA_MOCK_ENTER(cuGraphExecMemsetNodeSetParams);
    if (memsetParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_MEMSET);
    p.u.memset = *memsetParams;
    p.ctx = ctx;
    return exec_set(hGraphExec, hNode, p, "cuGraphExecMemsetNodeSetParams");
}

CUDA_MOCK_API CUresult
cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                             const CUDA_HOST_NODE_PARAMS *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphExecHostNodeSetParams);
    if (nodeParams == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_HOST);
    p.u.host = *nodeParams;
    return exec_set(hGraphExec, hNode, p, "cuGraphExecHostNodeSetParams");
}

CUDA_MOCK_API CUresult cuGraphExecEventRecordNodeSetEvent(
    CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event) {
    CUDA_MOCK_ENTER(cuGraphExecEventRecordNodeSetEvent);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    p.u.event = event;
    return exec_set(hGraphExec, hNode, p, "cuGraphExecEventRecordNodeSetEvent");
}

CUDA_MOCK_API CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec,
                                                        CUgraphNode hNode,
                                                        CUevent event) {
    CUDA_MOCK_ENTER(cuGraphExecEventWaitNodeSetEvent);
    node_params_t p = cuda_mock_node_params_of(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    p.u.event = event;
    return exec_set(hGraphExec, hNode, p, "cuGraphExecEventWaitNodeSetEvent");
}

// "The topology of childGraph, as well as the node insertion order, must
// match that of the graph contained in hNode."
CUDA_MOCK_API CUresult cuGraphExecChildGraphNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph) {
    CUDA_MOCK_ENTER(cuGraphExecChildGraphNodeSetParams);
    const char *call = "cuGraphExecChildGraphNodeSetParams";
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    exec_node_t *x =
        exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_GRAPH, call);
    CUgraph g = x != NULL ? cuda_mock_graph_of(childGraph, call) : NULL;
    CUgraphExecUpdateResultInfo info;
    if (g != NULL && compare(x->child, g, false, &info)) {
        (void)compare(x->child, g, true, &info);
        res = CUDA_SUCCESS;
    } else if (g != NULL) {
        UMF_MOCK_LOG_ERROR("%s: the graph's topology is not the child's", call);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec,
                                                CUgraphNode hNode,
                                                CUgraphNodeParams *nodeParams) {
    CUDA_MOCK_ENTER(cuGraphExecNodeSetParams);
    const char *call = "cuGraphExecNodeSetParams";
    node_params_t p;
    bool move;
    CUresult res = cuda_mock_node_from_generic(nodeParams, &p, &move, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (p.type != CU_GRAPH_NODE_TYPE_GRAPH) {
        return exec_set(hGraphExec, hNode, p, call);
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    res = CUDA_ERROR_INVALID_VALUE;
    exec_node_t *x = exec_node(hGraphExec, hNode, p.type, call);
    CUgraph g = x != NULL ? cuda_mock_graph_of(p.u.child, call) : NULL;
    CUgraphExecUpdateResultInfo info;
    if (g != NULL && compare(x->child, g, false, &info)) {
        (void)compare(x->child, g, true, &info);
        res = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

// "Currently only kernel, memset and memcpy nodes are supported."
static CUresult enabled(CUgraphExec h, CUgraphNode node, unsigned *get,
                        unsigned set, const char *call) {
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphExec e = exec_of(h, call);
    CUgraphNode n = cuda_mock_node_of(node, call);
    exec_node_t *x =
        e != NULL && n != NULL ? find(e->g, n, cuda_mock_node_gen(n)) : NULL;
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    if (x != NULL && (x->params.type == CU_GRAPH_NODE_TYPE_MEMCPY ||
                      x->params.type == CU_GRAPH_NODE_TYPE_MEMSET)) {
        if (get != NULL) {
            *get = x->enabled ? 1u : 0u;
        } else {
            x->enabled = set != 0;
        }
        res = CUDA_SUCCESS;
    } else if (x != NULL) {
        UMF_MOCK_LOG_ERROR("%s: only memcpy and memset nodes can be disabled "
                           "here",
                           call);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec,
                                             CUgraphNode hNode,
                                             unsigned int isEnabled) {
    CUDA_MOCK_ENTER(cuGraphNodeSetEnabled);
    return enabled(hGraphExec, hNode, NULL, isEnabled, "cuGraphNodeSetEnabled");
}

CUDA_MOCK_API CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec,
                                             CUgraphNode hNode,
                                             unsigned int *isEnabled) {
    CUDA_MOCK_ENTER(cuGraphNodeGetEnabled);
    if (isEnabled == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return enabled(hGraphExec, hNode, isEnabled, 0, "cuGraphNodeGetEnabled");
}

// No node of these kinds can exist (cuda_mock_graph_node.c refuses them).
static CUresult no_such_node(CUgraphExec h, CUgraphNode node,
                             const void *params, const char *call) {
    if (params == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    (void)exec_of(h, call);
    (void)cuda_mock_node_of(node, call);
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return CUDA_ERROR_INVALID_VALUE;
}

#define NO_SUCH_NODE(name, params_t)                                           \
    CUDA_MOCK_API CUresult name(CUgraphExec hGraphExec, CUgraphNode hNode,     \
                                params_t nodeParams) {                         \
        CUDA_MOCK_ENTER(name);                                                 \
        return no_such_node(hGraphExec, hNode, nodeParams, #name);             \
    }

NO_SUCH_NODE(cuGraphExecKernelNodeSetParams, const CUDA_KERNEL_NODE_PARAMS_v1 *)
NO_SUCH_NODE(cuGraphExecKernelNodeSetParams_v2, const CUDA_KERNEL_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphExecExternalSemaphoresSignalNodeSetParams,
             const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphExecExternalSemaphoresWaitNodeSetParams,
             const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)
NO_SUCH_NODE(cuGraphExecBatchMemOpNodeSetParams,
             const CUDA_BATCH_MEM_OP_NODE_PARAMS *)
