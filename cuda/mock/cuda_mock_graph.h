// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internals of CUDA graphs, shared by the graph files of the emulated
// libcuda:
//
//   cuda_mock_graph.c        graphs and their nodes and edges, clones,
//                            queries, the DOT print, graph memory
//   cuda_mock_graph_node.c   the nodes' parameters: checks, getters and
//                            setters of every node type, the refusals
//   cuda_mock_user_object.c  user objects and graphs' references to them
//   cuda_mock_graph_exec.c   executable graphs: instantiate, launch,
//                            update, their setters
//   cuda_mock_capture.c      stream capture into graphs
//
// A graph, a node, an executable graph and a user object each live in a
// table slot (cuda_mock_handles.c), so that a destroyed or made-up handle is
// an error, never a crash. Graph objects "are not internally synchronized"
// (cuda.h): the API wants each graph used by one thread at a time, but stream
// capture adds nodes from any thread that captures into it, so every graph
// structure is read and written under graph_lock (lock order: the order lock
// of cuda_mock_queue.c, then graph_lock; nothing under graph_lock takes the
// order lock).

#ifndef UMF_GPU_CUDA_MOCK_GRAPH_H
#define UMF_GPU_CUDA_MOCK_GRAPH_H 1

#include <string.h>

#include "cuda_mock_internal.h"

extern pthread_mutex_t cuda_mock_graph_lock;

// A growable array of node handles.
typedef struct node_vec_t {
    CUgraphNode *v;
    size_t n, cap;
} node_vec_t;

bool cuda_mock_node_vec_push(node_vec_t *vec, CUgraphNode node);
void cuda_mock_node_vec_remove(node_vec_t *vec, CUgraphNode node);
bool cuda_mock_node_vec_has(const node_vec_t *vec, CUgraphNode node);

// A graph's references to a user object.
typedef struct uo_ref_t {
    CUuserObject object;
    unsigned count;
} uo_ref_t;

typedef struct uo_vec_t {
    uo_ref_t *v;
    size_t n, cap;
} uo_vec_t;

struct CUgraph_st {
    cuda_mock_slot_t slot;
    node_vec_t nodes;      // in the order they were added
    uint64_t next_index;   // of the next node added
    CUgraphNode owner;     // a child graph: the node that owns it
    unsigned captures;     // capture sequences capturing into it
    uo_vec_t user_objects; // the references it owns
};

// What a node does (by type); memcpy and memset nodes also run on a
// context, whose devices read and write.
typedef struct node_params_t {
    CUgraphNodeType type;
    union {
        CUDA_MEMCPY3D copy;
        CUDA_MEMSET_NODE_PARAMS memset;
        CUDA_HOST_NODE_PARAMS host;
        CUevent event; // EVENT_RECORD, WAIT_EVENT
        CUgraph child; // GRAPH: owned by the node
    } u;
    CUcontext ctx;              // MEMCPY, MEMSET (NULL when captured)
    int dst_device, src_device; // MEMCPY, MEMSET (dst_device only)
} node_params_t;

// The empty parameters of a node of `type`.
static inline node_params_t cuda_mock_node_params_of(CUgraphNodeType type) {
    node_params_t p;
    memset(&p, 0, sizeof(p));
    p.type = type;
    return p;
}

struct CUgraphNode_st {
    cuda_mock_slot_t slot;
    CUgraph graph;
    uint64_t index; // its place in the graph's order of addition
    node_params_t params;
    node_vec_t deps;       // the nodes it depends on, in edge order
    node_vec_t dependents; // the nodes that depend on it
    // In a clone: the node it was cloned from (cuGraphNodeFindInClone).
    CUgraphNode original;
    uint32_t original_gen;
};

// The live graph (node) `h` names, or NULL (logged with `call`).
CUgraph cuda_mock_graph_of(CUgraph h, const char *call);
CUgraphNode cuda_mock_node_of(CUgraphNode h, const char *call);
uint32_t cuda_mock_node_gen(CUgraphNode node);

// Makes an empty graph (under graph_lock).
CUresult cuda_mock_graph_make(CUgraph *out);
// Destroys a graph, its nodes and their child graphs, and drops its user
// object references (under graph_lock; the destructors that become due run
// later, on the driver thread).
void cuda_mock_graph_free(CUgraph g);
// Adds a node of `params` to `g` after `deps` (checked: nodes of `g`, no
// duplicates); under graph_lock.
CUresult cuda_mock_graph_add(CUgraph g, const CUgraphNode *deps, size_t ndeps,
                             const CUgraphEdgeData *edge_data,
                             const node_params_t *params, const char *call,
                             CUgraphNode *out);
// A deep copy of `g` (child graphs too), whose nodes remember their
// originals; under graph_lock.
CUresult cuda_mock_graph_clone(CUgraph g, CUgraph *out);

// Checks the parameters of a node (cuda_mock_graph_node.c): a memcpy's
// copy on its context, a memset's fill, a host function, an event; the
// devices of the context go to `params`.
CUresult cuda_mock_node_check(node_params_t *params, const char *call);
// The operation of a node's parameters (GRAPH nodes: EMPTY).
cuda_mock_op_t cuda_mock_node_op(const node_params_t *params);
// Frees what a node's parameters own (a child graph).
void cuda_mock_node_params_free(node_params_t *params);

// A generic CUgraphNodeParams as a node's parameters; `move`: a child graph
// moved into the node (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE).
CUresult cuda_mock_node_from_generic(const CUgraphNodeParams *g,
                                     node_params_t *p, bool *move,
                                     const char *call);

// User objects (cuda_mock_user_object.c), under graph_lock: a graph (or an
// executable graph) takes `count` references; drops them all (the
// destructors that become due wait for cuda_mock_uo_flush, to be called
// without graph_lock, which hands them to the driver thread).
CUresult cuda_mock_uo_retain(uo_vec_t *refs, CUuserObject object,
                             unsigned count, bool move, const char *call);
bool cuda_mock_uo_copy(uo_vec_t *to, const uo_vec_t *from);
void cuda_mock_uo_release_all(uo_vec_t *refs);
void cuda_mock_uo_flush(void);

#endif // UMF_GPU_CUDA_MOCK_GRAPH_H
