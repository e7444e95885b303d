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
//   cuda_mock_graph_mem.c    graph memory: allocation nodes' reservations,
//                            their lifetimes, the devices' accounts
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

#include "cuda_mock_core.h"
#include "cuda_mock_graph_exec.h"
#include "cuda_mock_memory.h"
#include "cuda_mock_queue.h"

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
    unsigned mem_nodes;    // its allocation and free nodes (not children's)
    unsigned mem_execs;    // its executable graphs, when it has memory nodes
};

// Graph memory (cuda_mock_graph_mem.c): the record of one allocation
// node's allocation, reference counted (its node, free nodes and
// executable graphs naming it, and its allocation while a launch began it
// and nothing freed it since).
typedef struct cuda_mock_gmem_t cuda_mock_gmem_t;

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
        // MEM_ALLOC, MEM_FREE: what their getters return first.
        struct {
            CUDA_MEM_ALLOC_NODE_PARAMS p; // p.accessDescs owned by the node
            cuda_mock_gmem_t *mem;        // a reference of the node
        } alloc;
        struct {
            CUdeviceptr dptr;
            cuda_mock_gmem_t *mem; // a reference of the node
            bool own;              // in the allocation node's graph
        } free;
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

// Adds a memory allocation node (checked parameters; its address to
// p->u.alloc.p.dptr) or free node of `p` to `g` after `deps`, under
// graph_lock; on failure the parameters' access descriptors stay the
// caller's.
CUresult cuda_mock_node_add_mem(CUgraph g, const CUgraphNode *deps,
                                size_t ndeps, const CUgraphEdgeData *data,
                                node_params_t *p, const char *call,
                                CUgraphNode *out);

// A generic CUgraphNodeParams as a node's parameters; `move`: a child graph
// moved into the node (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE).
CUresult cuda_mock_node_from_generic(const CUgraphNodeParams *g,
                                     node_params_t *p, bool *move,
                                     const char *call);

// The graph `g` still is (a live graph of generation `gen`), or NULL.
CUgraph cuda_mock_graph_at(CUgraph g, uint32_t gen);
uint32_t cuda_mock_graph_gen(CUgraph g);
// Whether `g` or a child graph of it has allocation or free nodes.
bool cuda_mock_graph_has_mem(CUgraph g);

// Graph memory (cuda_mock_graph_mem.c). What a launch does to an
// allocation (cuda_mock_gmem_run, in stream order).
enum {
    CUDA_MOCK_GMEM_BEGIN = 1,     // its allocation node ran
    CUDA_MOCK_GMEM_END = 2,       // a free node ran
    CUDA_MOCK_GMEM_END_UNREF = 3, // cuMemFreeAsync: and drops a reference
};
// Reserves `size` bytes of `device` for an allocation node of `graph`:
// one reference, the node's.
CUresult cuda_mock_gmem_reserve(int device, size_t size, const void *graph,
                                cuda_mock_gmem_t **out);
CUdeviceptr cuda_mock_gmem_ptr(const cuda_mock_gmem_t *m);
void cuda_mock_gmem_ref(cuda_mock_gmem_t *m);
void cuda_mock_gmem_unref(cuda_mock_gmem_t *m);
// A free node of `graph` for `dptr` (cuGraphAddMemFreeNode's rules): a
// reference of the node in *out, *own when it is in the allocation's own
// graph; cuda_mock_gmem_drop_free when it goes.
CUresult cuda_mock_gmem_add_free(CUdeviceptr dptr, const void *graph,
                                 const char *call, cuda_mock_gmem_t **out,
                                 bool *own);
void cuda_mock_gmem_drop_free(cuda_mock_gmem_t *m, bool own);
// A launch, in call order: `begin` are allocated after it, `end` (of other
// graphs) freed by it; CUDA_ERROR_INVALID_VALUE (nothing changed) when
// one of `begin` is still allocated (unless `auto_free`) or one of `end`
// is not.
CUresult cuda_mock_gmem_launch(cuda_mock_gmem_t *const *begin, size_t nbegin,
                               cuda_mock_gmem_t *const *end, size_t nend,
                               bool auto_free, const char *call);
void cuda_mock_gmem_run(void *mem, unsigned what);
// The operation that does `what` to `m` in stream order.
cuda_mock_op_t cuda_mock_gmem_op(cuda_mock_gmem_t *m, unsigned what,
                                 const char *call);
// The memory core's hook (cuda_mock_graph_mem_free).
CUresult cuda_mock_gmem_free_hook(const umf_mock_alloc_info_t *info,
                                  cuda_mock_op_t *op, const char *call);
// Reads (or, `reset`, resets then reads) a CU_GRAPH_MEM_ATTR_* of `device`.
CUresult cuda_mock_gmem_attribute(int device, CUgraphMem_attribute attr,
                                  bool reset, cuuint64_t *value);

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
