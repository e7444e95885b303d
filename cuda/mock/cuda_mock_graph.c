// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA graphs: the graph objects, their nodes and edges (cuda_mock_graph.h
// says how the graph files divide the work). A graph keeps its nodes in
// the order they were added (that order is what cuGraphGetNodes reports,
// what cuGraphExecUpdate pairs nodes by, and what a clone keeps); each
// node keeps the nodes it depends on, in edge order, and those that depend
// on it. Edges carry no data but the default: the _v2 functions take edge
// data, which must be zeroed (ports and programmatic dependencies are for
// kernel nodes, which cannot exist here), and report it zeroed.
//
// Graphs are independent of contexts (a node names its context, checked
// when it is added and when it runs), so they outlive a context; a child
// graph belongs to its node and goes with it.

#include "cuda_mock_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pthread_mutex_t cuda_mock_graph_lock = PTHREAD_MUTEX_INITIALIZER;

static cuda_mock_table_t graphs = CUDA_MOCK_TABLE(
    "graph", struct CUgraph_st, CUDA_MOCK_MAX_GRAPHS, CUDA_MOCK_OBJECT_GRAPH);
static cuda_mock_table_t nodes =
    CUDA_MOCK_TABLE("graph node", struct CUgraphNode_st,
                    CUDA_MOCK_MAX_GRAPH_NODES, CUDA_MOCK_OBJECT_GRAPH_NODE);

// ---------------------------------------------------------------------------
// Node vectors

bool cuda_mock_node_vec_push(node_vec_t *vec, CUgraphNode node) {
    if (vec->n == vec->cap) {
        size_t cap = vec->cap != 0 ? 2 * vec->cap : 4;
        CUgraphNode *v = realloc(vec->v, cap * sizeof(*v));
        if (v == NULL) {
            return false;
        }
        vec->v = v;
        vec->cap = cap;
    }
    vec->v[vec->n++] = node;
    return true;
}

void cuda_mock_node_vec_remove(node_vec_t *vec, CUgraphNode node) {
    for (size_t i = 0; i < vec->n; i++) {
        if (vec->v[i] == node) {
            memmove(&vec->v[i], &vec->v[i + 1],
                    (vec->n - i - 1) * sizeof(vec->v[0]));
            vec->n--;
            return;
        }
    }
}

bool cuda_mock_node_vec_has(const node_vec_t *vec, CUgraphNode node) {
    for (size_t i = 0; i < vec->n; i++) {
        if (vec->v[i] == node) {
            return true;
        }
    }
    return false;
}

static void node_vec_free(node_vec_t *vec) {
    free(vec->v);
    vec->v = NULL;
    vec->n = vec->cap = 0;
}

// ---------------------------------------------------------------------------
// Handles

CUgraph cuda_mock_graph_of(CUgraph h, const char *call) {
    CUgraph g = cuda_mock_table_get(&graphs, h);
    if (g == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a graph of this driver, or was "
                           "destroyed",
                           call, (void *)h);
    }
    return g;
}

CUgraphNode cuda_mock_node_of(CUgraphNode h, const char *call) {
    CUgraphNode n = cuda_mock_table_get(&nodes, h);
    if (n == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a graph node of this driver, or was "
                           "destroyed",
                           call, (void *)h);
    }
    return n;
}

uint32_t cuda_mock_node_gen(CUgraphNode node) {
    return atomic_load_explicit(&node->slot.gen, memory_order_acquire);
}

uint32_t cuda_mock_graph_gen(CUgraph g) {
    return atomic_load_explicit(&g->slot.gen, memory_order_acquire);
}

CUgraph cuda_mock_graph_at(CUgraph g, uint32_t gen) {
    return cuda_mock_table_get(&graphs, g) == g && cuda_mock_graph_gen(g) == gen
               ? g
               : NULL;
}

bool cuda_mock_graph_has_mem(CUgraph g) {
    if (g->mem_nodes > 0) {
        return true;
    }
    for (size_t i = 0; i < g->nodes.n; i++) {
        const node_params_t *p = &g->nodes.v[i]->params;
        if (p->type == CU_GRAPH_NODE_TYPE_GRAPH &&
            cuda_mock_graph_has_mem(p->u.child)) {
            return true;
        }
    }
    return false;
}

// ---------------------------------------------------------------------------
// Making and freeing (under graph_lock)

CUresult cuda_mock_graph_make(CUgraph *out) {
    CUgraph g;
    CUresult res = cuda_mock_table_alloc(&graphs, (void **)&g);
    if (res == CUDA_SUCCESS) {
        *out = g;
    }
    return res;
}

static void node_free(CUgraphNode n) {
    for (size_t i = 0; i < n->deps.n; i++) {
        cuda_mock_node_vec_remove(&n->deps.v[i]->dependents, n);
    }
    for (size_t i = 0; i < n->dependents.n; i++) {
        cuda_mock_node_vec_remove(&n->dependents.v[i]->deps, n);
    }
    node_vec_free(&n->deps);
    node_vec_free(&n->dependents);
    cuda_mock_node_params_free(&n->params);
    (void)cuda_mock_table_free(&nodes, n);
}

void cuda_mock_graph_free(CUgraph g) {
    // The last node first: no edge is searched twice.
    while (g->nodes.n > 0) {
        CUgraphNode n = g->nodes.v[--g->nodes.n];
        node_free(n);
    }
    node_vec_free(&g->nodes);
    g->mem_nodes = g->mem_execs = 0;
    cuda_mock_uo_release_all(&g->user_objects);
    free(g->user_objects.v);
    g->user_objects.v = NULL;
    (void)cuda_mock_table_free(&graphs, g);
}

// Checks `deps` (nodes of `g`, no duplicates) and `data` (default edges).
static CUresult check_deps(CUgraph g, const CUgraphNode *deps, size_t n,
                           const CUgraphEdgeData *data, const char *call) {
    if (n > 0 && deps == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %zu dependencies at NULL", call, n);
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; i < n; i++) {
        CUgraphNode d = cuda_mock_node_of(deps[i], call);
        if (d == NULL || d->graph != g) {
            UMF_MOCK_LOG_ERROR("%s: dependency %zu is not a node of graph %p",
                               call, i, (void *)g);
            return CUDA_ERROR_INVALID_VALUE;
        }
        for (size_t j = 0; j < i; j++) {
            if (deps[j] == deps[i]) {
                UMF_MOCK_LOG_ERROR("%s: dependency %zu is listed twice", call,
                                   i);
                return CUDA_ERROR_INVALID_VALUE;
            }
        }
        if (data != NULL) {
            static const CUgraphEdgeData zero = {0};
            if (memcmp(&data[i], &zero, sizeof(zero)) != 0) {
                UMF_MOCK_LOG_ERROR("%s: edge %zu has data other than the "
                                   "default (ports and programmatic edges are "
                                   "for kernel nodes)",
                                   call, i);
                return CUDA_ERROR_INVALID_VALUE;
            }
        }
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_graph_add(CUgraph g, const CUgraphNode *deps, size_t ndeps,
                             const CUgraphEdgeData *edge_data,
                             const node_params_t *params, const char *call,
                             CUgraphNode *out) {
    CUresult res = check_deps(g, deps, ndeps, edge_data, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    CUgraphNode n;
    res = cuda_mock_table_alloc(&nodes, (void **)&n);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    n->graph = g;
    n->params = *params;
    bool ok = cuda_mock_node_vec_push(&g->nodes, n);
    for (size_t i = 0; ok && i < ndeps; i++) {
        ok = cuda_mock_node_vec_push(&n->deps, deps[i]) &&
             cuda_mock_node_vec_push(&deps[i]->dependents, n);
    }
    if (!ok) {
        cuda_mock_node_vec_remove(&g->nodes, n);
        n->params.type = CU_GRAPH_NODE_TYPE_EMPTY; // the caller keeps its own
        node_free(n);
        UMF_MOCK_LOG_ERROR("%s: out of host memory", call);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    n->index = g->next_index++;
    if (params->type == CU_GRAPH_NODE_TYPE_GRAPH) {
        params->u.child->owner = n;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
        params->type == CU_GRAPH_NODE_TYPE_MEM_FREE) {
        g->mem_nodes++;
    }
    *out = n;
    return CUDA_SUCCESS;
}

// The index of `n` in the nodes of its graph.
static size_t position(const CUgraphNode n) {
    const node_vec_t *v = &n->graph->nodes;
    for (size_t i = 0; i < v->n; i++) {
        if (v->v[i] == n) {
            return i;
        }
    }
    return SIZE_MAX;
}

CUresult cuda_mock_graph_clone(CUgraph g, CUgraph *out) {
    // "Cloning is not supported for graphs which contain memory allocation
    // nodes, memory free nodes, or conditional nodes."
    if (cuda_mock_graph_has_mem(g)) {
        UMF_MOCK_LOG_ERROR("graph %p has memory allocation or free nodes: it "
                           "cannot be cloned",
                           (void *)g);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUgraph c;
    CUresult res = cuda_mock_graph_make(&c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    for (size_t i = 0; i < g->nodes.n && res == CUDA_SUCCESS; i++) {
        CUgraphNode o = g->nodes.v[i];
        node_params_t p = o->params;
        if (p.type == CU_GRAPH_NODE_TYPE_GRAPH) {
            res = cuda_mock_graph_clone(o->params.u.child, &p.u.child);
            if (res != CUDA_SUCCESS) {
                break;
            }
        }
        // The dependencies' clones are the nodes at their positions.
        CUgraphNode deps_local[8];
        CUgraphNode *deps = o->deps.n <= 8
                                ? deps_local
                                : malloc(o->deps.n * sizeof(CUgraphNode));
        if (deps == NULL) {
            cuda_mock_node_params_free(&p);
            res = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        for (size_t k = 0; k < o->deps.n; k++) {
            deps[k] = c->nodes.v[position(o->deps.v[k])];
        }
        CUgraphNode n;
        res = cuda_mock_graph_add(c, deps, o->deps.n, NULL, &p, "cuGraphClone",
                                  &n);
        if (deps != deps_local) {
            free(deps);
        }
        if (res != CUDA_SUCCESS) {
            cuda_mock_node_params_free(&p);
            break;
        }
        n->index = o->index;
        n->original = o;
        n->original_gen = cuda_mock_node_gen(o);
    }
    if (res == CUDA_SUCCESS) {
        c->next_index = g->next_index;
        if (!cuda_mock_uo_copy(&c->user_objects, &g->user_objects)) {
            res = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    if (res != CUDA_SUCCESS) {
        cuda_mock_graph_free(c);
        return res;
    }
    *out = c;
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Graphs

CUDA_MOCK_API CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphCreate);
    if (phGraph == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUresult res = cuda_mock_graph_make(phGraph);
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphDestroy(CUgraph hGraph) {
    CUDA_MOCK_ENTER(cuGraphDestroy);
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(hGraph, "cuGraphDestroy");
    if (g == NULL) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else if (g->owner != NULL) {
        UMF_MOCK_LOG_ERROR("cuGraphDestroy(%p): the graph belongs to child "
                           "graph node %p",
                           (void *)g, (void *)g->owner);
        res = CUDA_ERROR_INVALID_VALUE;
    } else if (g->captures > 0) {
        UMF_MOCK_LOG_ERROR("cuGraphDestroy(%p): a stream capture is capturing "
                           "into it",
                           (void *)g);
        res = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    } else {
        cuda_mock_graph_free(g);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    cuda_mock_uo_flush();
    return res;
}

CUDA_MOCK_API CUresult cuGraphClone(CUgraph *phGraphClone,
                                    CUgraph originalGraph) {
    CUDA_MOCK_ENTER(cuGraphClone);
    if (phGraphClone == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(originalGraph, "cuGraphClone");
    CUresult res = g != NULL ? cuda_mock_graph_clone(g, phGraphClone)
                             : CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

// The clone of `original` among the nodes of `g` and of its child graphs.
static CUgraphNode find_clone(CUgraph g, CUgraphNode original, uint32_t gen) {
    for (size_t i = 0; i < g->nodes.n; i++) {
        CUgraphNode n = g->nodes.v[i];
        if (n->original == original && n->original_gen == gen) {
            return n;
        }
        if (n->params.type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraphNode in = find_clone(n->params.u.child, original, gen);
            if (in != NULL) {
                return in;
            }
        }
    }
    return NULL;
}

CUDA_MOCK_API CUresult cuGraphNodeFindInClone(CUgraphNode *phNode,
                                              CUgraphNode hOriginalNode,
                                              CUgraph hClonedGraph) {
    CUDA_MOCK_ENTER(cuGraphNodeFindInClone);
    const char *call = "cuGraphNodeFindInClone";
    if (phNode == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(hClonedGraph, call);
    CUgraphNode o = cuda_mock_node_of(hOriginalNode, call);
    CUgraphNode n =
        g != NULL && o != NULL ? find_clone(g, o, cuda_mock_node_gen(o)) : NULL;
    if (n != NULL) {
        *phNode = n;
        res = CUDA_SUCCESS;
    } else if (g != NULL && o != NULL) {
        UMF_MOCK_LOG_ERROR("%s: node %p has no clone in graph %p", call,
                           (void *)o, (void *)g);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphNodeGetType(CUgraphNode hNode,
                                          CUgraphNodeType *type) {
    CUDA_MOCK_ENTER(cuGraphNodeGetType);
    if (type == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphNode n = cuda_mock_node_of(hNode, "cuGraphNodeGetType");
    if (n != NULL) {
        *type = n->params.type;
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return n != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// ---------------------------------------------------------------------------
// Queries of nodes and edges: with NULL arrays, the count; else up to
// *count entries, the rest of the arrays NULL (and zeroed edge data), and
// the number written in *count.

typedef struct list_t {
    CUgraphNode *a, *b;    // the (first and second) arrays, or NULL
    CUgraphEdgeData *data; // edge data, or NULL
    size_t cap, n;         // room, and entries found
} list_t;

static void list_add(list_t *l, CUgraphNode a, CUgraphNode b) {
    if (l->a != NULL && l->n < l->cap) {
        l->a[l->n] = a;
        if (l->b != NULL) {
            l->b[l->n] = b;
        }
        if (l->data != NULL) {
            memset(&l->data[l->n], 0, sizeof(CUgraphEdgeData));
        }
    }
    l->n++;
}

// What a query wrote: the entries found, the rest of the room NULL.
static size_t list_end(list_t *l) {
    if (l->a == NULL) {
        return l->n;
    }
    for (size_t i = l->n; i < l->cap; i++) {
        l->a[i] = NULL;
        if (l->b != NULL) {
            l->b[i] = NULL;
        }
        if (l->data != NULL) {
            memset(&l->data[i], 0, sizeof(CUgraphEdgeData));
        }
    }
    return l->n < l->cap ? l->n : l->cap;
}

typedef enum query_t {
    Q_NODES,
    Q_ROOTS,
    Q_EDGES,
    Q_DEPS,
    Q_DEPENDENTS
} query_t;

static CUresult query(const void *handle, query_t what, CUgraphNode *a,
                      CUgraphNode *b, CUgraphEdgeData *data, size_t *count,
                      const char *call) {
    if (count == NULL || (what == Q_EDGES && (a == NULL) != (b == NULL)) ||
        (data != NULL && a == NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    list_t l = {a, b, data, a != NULL ? *count : 0, 0};
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    if (what == Q_DEPS || what == Q_DEPENDENTS) {
        CUgraphNode n = cuda_mock_node_of((CUgraphNode)handle, call);
        if (n == NULL) {
            res = CUDA_ERROR_INVALID_VALUE;
        } else {
            const node_vec_t *v = what == Q_DEPS ? &n->deps : &n->dependents;
            for (size_t i = 0; i < v->n; i++) {
                list_add(&l, v->v[i], NULL);
            }
        }
    } else {
        CUgraph g = cuda_mock_graph_of((CUgraph)handle, call);
        if (g == NULL) {
            res = CUDA_ERROR_INVALID_VALUE;
        }
        for (size_t i = 0; g != NULL && i < g->nodes.n; i++) {
            CUgraphNode n = g->nodes.v[i];
            if (what == Q_NODES || (what == Q_ROOTS && n->deps.n == 0)) {
                list_add(&l, n, NULL);
            } else if (what == Q_EDGES) {
                for (size_t k = 0; k < n->deps.n; k++) {
                    list_add(&l, n->deps.v[k], n);
                }
            }
        }
    }
    if (res == CUDA_SUCCESS) {
        *count = list_end(&l);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes_out,
                                       size_t *numNodes) {
    CUDA_MOCK_ENTER(cuGraphGetNodes);
    return query(hGraph, Q_NODES, nodes_out, NULL, NULL, numNodes,
                 "cuGraphGetNodes");
}

CUDA_MOCK_API CUresult cuGraphGetRootNodes(CUgraph hGraph,
                                           CUgraphNode *rootNodes,
                                           size_t *numRootNodes) {
    CUDA_MOCK_ENTER(cuGraphGetRootNodes);
    return query(hGraph, Q_ROOTS, rootNodes, NULL, NULL, numRootNodes,
                 "cuGraphGetRootNodes");
}

CUDA_MOCK_API CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from,
                                       CUgraphNode *to, size_t *numEdges) {
    CUDA_MOCK_ENTER(cuGraphGetEdges);
    return query(hGraph, Q_EDGES, from, to, NULL, numEdges, "cuGraphGetEdges");
}

CUDA_MOCK_API CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from,
                                          CUgraphNode *to,
                                          CUgraphEdgeData *edgeData,
                                          size_t *numEdges) {
    CUDA_MOCK_ENTER(cuGraphGetEdges_v2);
    return query(hGraph, Q_EDGES, from, to, edgeData, numEdges,
                 "cuGraphGetEdges_v2");
}

CUDA_MOCK_API CUresult cuGraphNodeGetDependencies(CUgraphNode hNode,
                                                  CUgraphNode *dependencies,
                                                  size_t *numDependencies) {
    CUDA_MOCK_ENTER(cuGraphNodeGetDependencies);
    return query(hNode, Q_DEPS, dependencies, NULL, NULL, numDependencies,
                 "cuGraphNodeGetDependencies");
}

CUDA_MOCK_API CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode,
                                                     CUgraphNode *dependencies,
                                                     CUgraphEdgeData *edgeData,
                                                     size_t *numDependencies) {
    CUDA_MOCK_ENTER(cuGraphNodeGetDependencies_v2);
    return query(hNode, Q_DEPS, dependencies, NULL, edgeData, numDependencies,
                 "cuGraphNodeGetDependencies_v2");
}

CUDA_MOCK_API CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode,
                                                    CUgraphNode *dependentNodes,
                                                    size_t *numDependentNodes) {
    CUDA_MOCK_ENTER(cuGraphNodeGetDependentNodes);
    return query(hNode, Q_DEPENDENTS, dependentNodes, NULL, NULL,
                 numDependentNodes, "cuGraphNodeGetDependentNodes");
}

CUDA_MOCK_API CUresult cuGraphNodeGetDependentNodes_v2(
    CUgraphNode hNode, CUgraphNode *dependentNodes, CUgraphEdgeData *edgeData,
    size_t *numDependentNodes) {
    CUDA_MOCK_ENTER(cuGraphNodeGetDependentNodes_v2);
    return query(hNode, Q_DEPENDENTS, dependentNodes, NULL, edgeData,
                 numDependentNodes, "cuGraphNodeGetDependentNodes_v2");
}

// ---------------------------------------------------------------------------
// Edges: every pair is checked before any is changed.

static CUresult edges(CUgraph hGraph, const CUgraphNode *from,
                      const CUgraphNode *to, const CUgraphEdgeData *data,
                      size_t n, bool add, const char *call) {
    if (n > 0 && (from == NULL || to == NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(hGraph, call);
    if (g == NULL) {
        res = CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; res == CUDA_SUCCESS && i < n; i++) {
        res = check_deps(g, &from[i], 1, data != NULL ? &data[i] : NULL, call);
        if (res == CUDA_SUCCESS) {
            res = check_deps(g, &to[i], 1, NULL, call);
        }
        if (res != CUDA_SUCCESS) {
            break;
        }
        bool exists = cuda_mock_node_vec_has(&to[i]->deps, from[i]);
        bool repeated = false;
        for (size_t j = 0; j < i; j++) {
            repeated = repeated || (from[j] == from[i] && to[j] == to[i]);
        }
        if (from[i] == to[i] || (add ? exists || repeated : !exists)) {
            UMF_MOCK_LOG_ERROR("%s: edge %zu (%p -> %p) %s", call, i,
                               (void *)from[i], (void *)to[i],
                               from[i] == to[i] ? "is a loop"
                               : add            ? "exists already"
                                                : "does not exist");
            res = CUDA_ERROR_INVALID_VALUE;
        }
    }
    // "Dependencies cannot be removed from graphs which contain allocation
    // or free nodes."
    if (res == CUDA_SUCCESS && !add && n > 0 && g->mem_nodes > 0) {
        UMF_MOCK_LOG_ERROR("%s: the graph has memory allocation or free "
                           "nodes",
                           call);
        res = CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; res == CUDA_SUCCESS && i < n; i++) {
        if (add) {
            if (!cuda_mock_node_vec_push(&to[i]->deps, from[i]) ||
                !cuda_mock_node_vec_push(&from[i]->dependents, to[i])) {
                cuda_mock_node_vec_remove(&to[i]->deps, from[i]);
                res = CUDA_ERROR_OUT_OF_MEMORY;
            }
        } else {
            cuda_mock_node_vec_remove(&to[i]->deps, from[i]);
            cuda_mock_node_vec_remove(&from[i]->dependents, to[i]);
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphAddDependencies(CUgraph hGraph,
                                              const CUgraphNode *from,
                                              const CUgraphNode *to,
                                              size_t numDependencies) {
    CUDA_MOCK_ENTER(cuGraphAddDependencies);
    return edges(hGraph, from, to, NULL, numDependencies, true,
                 "cuGraphAddDependencies");
}

CUDA_MOCK_API CUresult cuGraphAddDependencies_v2(
    CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
    const CUgraphEdgeData *edgeData, size_t numDependencies) {
    CUDA_MOCK_ENTER(cuGraphAddDependencies_v2);
    return edges(hGraph, from, to, edgeData, numDependencies, true,
                 "cuGraphAddDependencies_v2");
}

CUDA_MOCK_API CUresult cuGraphRemoveDependencies(CUgraph hGraph,
                                                 const CUgraphNode *from,
                                                 const CUgraphNode *to,
                                                 size_t numDependencies) {
    CUDA_MOCK_ENTER(cuGraphRemoveDependencies);
    return edges(hGraph, from, to, NULL, numDependencies, false,
                 "cuGraphRemoveDependencies");
}

CUDA_MOCK_API CUresult cuGraphRemoveDependencies_v2(
    CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
    const CUgraphEdgeData *edgeData, size_t numDependencies) {
    CUDA_MOCK_ENTER(cuGraphRemoveDependencies_v2);
    return edges(hGraph, from, to, edgeData, numDependencies, false,
                 "cuGraphRemoveDependencies_v2");
}

CUDA_MOCK_API CUresult cuGraphDestroyNode(CUgraphNode hNode) {
    CUDA_MOCK_ENTER(cuGraphDestroyNode);
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraphNode n = cuda_mock_node_of(hNode, "cuGraphDestroyNode");
    if (n == NULL) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else if (n->graph->captures > 0) {
        UMF_MOCK_LOG_ERROR("cuGraphDestroyNode(%p): a stream capture is "
                           "capturing into its graph",
                           (void *)n);
        res = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    } else if (n->graph->mem_nodes > 0) {
        // "Nodes which belong to a graph which contains allocation or free
        // nodes cannot be destroyed."
        UMF_MOCK_LOG_ERROR("cuGraphDestroyNode(%p): its graph has memory "
                           "allocation or free nodes",
                           (void *)n);
        res = CUDA_ERROR_INVALID_VALUE;
    } else {
        cuda_mock_node_vec_remove(&n->graph->nodes, n);
        node_free(n);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    cuda_mock_uo_flush();
    return res;
}

// ---------------------------------------------------------------------------
// cuGraphDebugDotPrint: the nodes (with their parameters when the flags
// ask, all of them with CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE) and edges, child
// graphs as clusters.

static const char *type_name(CUgraphNodeType t) {
    switch (t) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return "MEMCPY";
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return "MEMSET";
    case CU_GRAPH_NODE_TYPE_HOST:
        return "HOST";
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return "GRAPH";
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return "EMPTY";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return "WAIT_EVENT";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return "EVENT_RECORD";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        return "MEM_ALLOC";
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return "MEM_FREE";
    default:
        return "NODE";
    }
}

static void dot_node(FILE *f, CUgraphNode n, unsigned flags) {
    bool all = (flags & CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE) != 0;
    const node_params_t *p = &n->params;
    fprintf(f, "  n%p [label=\"%s %llu", (void *)n, type_name(p->type),
            (unsigned long long)n->index);
    if ((all || (flags & CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES) != 0)) {
        fprintf(f, "\\nnode %p", (void *)n);
    }
    if (p->type == CU_GRAPH_NODE_TYPE_MEMCPY &&
        (all || (flags & CU_GRAPH_DEBUG_DOT_FLAGS_MEMCPY_NODE_PARAMS) != 0)) {
        const CUDA_MEMCPY3D *c = &p->u.copy;
        fprintf(f, "\\n%zu x %zu x %zu bytes\\ntypes %d <- %d", c->WidthInBytes,
                c->Height, c->Depth, (int)c->dstMemoryType,
                (int)c->srcMemoryType);
    } else if (p->type == CU_GRAPH_NODE_TYPE_MEMSET &&
               (all ||
                (flags & CU_GRAPH_DEBUG_DOT_FLAGS_MEMSET_NODE_PARAMS) != 0)) {
        const CUDA_MEMSET_NODE_PARAMS *m = &p->u.memset;
        fprintf(f, "\\ndst 0x%llx value 0x%x\\n%zu x %zu of %u bytes",
                (unsigned long long)m->dst, m->value, m->width, m->height,
                m->elementSize);
    } else if (p->type == CU_GRAPH_NODE_TYPE_HOST &&
               (all ||
                (flags & CU_GRAPH_DEBUG_DOT_FLAGS_HOST_NODE_PARAMS) != 0)) {
        fprintf(f, "\\nfn %p data %p", (void *)(uintptr_t)p->u.host.fn,
                p->u.host.userData);
    } else if ((p->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
                p->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) &&
               (all ||
                (flags & CU_GRAPH_DEBUG_DOT_FLAGS_EVENT_NODE_PARAMS) != 0)) {
        fprintf(f, "\\nevent %p", (void *)p->u.event);
    } else if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
               (all || (flags &
                        CU_GRAPH_DEBUG_DOT_FLAGS_MEM_ALLOC_NODE_PARAMS) != 0)) {
        fprintf(f, "\\n%zu bytes at 0x%llx on device %d", p->u.alloc.p.bytesize,
                (unsigned long long)p->u.alloc.p.dptr,
                p->u.alloc.p.poolProps.location.id);
    } else if (p->type == CU_GRAPH_NODE_TYPE_MEM_FREE &&
               (all ||
                (flags & CU_GRAPH_DEBUG_DOT_FLAGS_MEM_FREE_NODE_PARAMS) != 0)) {
        fprintf(f, "\\nfree 0x%llx", (unsigned long long)p->u.free.dptr);
    }
    fprintf(f, "\"];\n");
}

static void dot_graph(FILE *f, CUgraph g, unsigned flags) {
    for (size_t i = 0; i < g->nodes.n; i++) {
        CUgraphNode n = g->nodes.v[i];
        dot_node(f, n, flags);
        if (n->params.type == CU_GRAPH_NODE_TYPE_GRAPH) {
            fprintf(f, "  subgraph cluster_%p {\n  label=\"child of %llu\";\n",
                    (void *)n, (unsigned long long)n->index);
            dot_graph(f, n->params.u.child, flags);
            fprintf(f, "  }\n");
        }
    }
    for (size_t i = 0; i < g->nodes.n; i++) {
        CUgraphNode n = g->nodes.v[i];
        for (size_t k = 0; k < n->deps.n; k++) {
            fprintf(f, "  n%p -> n%p;\n", (void *)n->deps.v[k], (void *)n);
        }
    }
}

CUDA_MOCK_API CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path,
                                            unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphDebugDotPrint);
    if (path == NULL || flags >= (1u << 16)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(hGraph, "cuGraphDebugDotPrint");
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    if (g != NULL) {
        FILE *f = fopen(path, "w");
        if (f == NULL) {
            UMF_MOCK_LOG_ERROR("cuGraphDebugDotPrint: cannot write %s", path);
            res = CUDA_ERROR_OPERATING_SYSTEM;
        } else {
            fprintf(f, "digraph graph_%p {\n", (void *)g);
            dot_graph(f, g, flags);
            fprintf(f, "}\n");
            res = fclose(f) == 0 ? CUDA_SUCCESS : CUDA_ERROR_OPERATING_SYSTEM;
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

// ---------------------------------------------------------------------------
// Graph memory (the accounts: cuda_mock_graph_mem.c)

// "Blocks which are not in use by a graph that is either currently
// executing or scheduled to execute are freed back to the operating
// system": the emulation keeps no such blocks (an allocation node's
// reservation goes back as soon as nothing holds it), so nothing is left
// to free.
CUDA_MOCK_API CUresult cuDeviceGraphMemTrim(CUdevice device) {
    CUDA_MOCK_ENTER(cuDeviceGraphMemTrim);
    CUDA_MOCK_CHECK_DEVICE(device);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceGetGraphMemAttribute(CUdevice device,
                                                    CUgraphMem_attribute attr,
                                                    void *value) {
    CUDA_MOCK_ENTER(cuDeviceGetGraphMemAttribute);
    CUDA_MOCK_CHECK_DEVICE(device);
    if (value == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuuint64_t v;
    CUresult res = cuda_mock_gmem_attribute(device, attr, false, &v);
    if (res != CUDA_SUCCESS) {
        UMF_MOCK_LOG_ERROR("cuDeviceGetGraphMemAttribute: attribute %d",
                           (int)attr);
        return res;
    }
    memcpy(value, &v, sizeof(v));
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDeviceSetGraphMemAttribute(CUdevice device,
                                                    CUgraphMem_attribute attr,
                                                    void *value) {
    CUDA_MOCK_ENTER(cuDeviceSetGraphMemAttribute);
    CUDA_MOCK_CHECK_DEVICE(device);
    if (value == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuuint64_t v;
    memcpy(&v, value, sizeof(v));
    // "High watermark can only be reset to zero"; the current amounts are
    // read-only. A reset starts the watermark again from the current
    // amount, as the memory pools' do.
    if ((attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
         attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) ||
        v != 0) {
        UMF_MOCK_LOG_ERROR("cuDeviceSetGraphMemAttribute: attribute %d cannot "
                           "be set to %llu",
                           (int)attr, (unsigned long long)v);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_gmem_attribute(device, attr, true, &v);
}
