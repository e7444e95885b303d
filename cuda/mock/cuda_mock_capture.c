// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Stream capture: between cuStreamBeginCapture_v2 (or ...ToGraph) and
// cuStreamEndCapture, the operations enqueued on a capturing stream are not
// run but become nodes of the capture's graph (cuda_mock_queue.c hands
// them here, under the order lock), each depending on the stream's current
// set of nodes, which it then replaces:
//
//   copies -> memcpy nodes, fills -> memset nodes, host functions -> host
//   nodes, records and waits with CU_EVENT_RECORD_EXTERNAL /
//   CU_EVENT_WAIT_EXTERNAL -> event record / wait nodes;
//   a plain cuEventRecord marks the event with the stream's set (no node),
//   and a cuStreamWaitEvent on such an event adds that set to the waiting
//   stream's, joining that stream to the capture if it was not capturing:
//   the fork and join of cross-stream capture;
//   cuStreamAddCallback, stream-ordered allocation and free, prefetches and
//   graph launches cannot be captured here: CUDA_ERROR_STREAM_CAPTURE_
//   UNSUPPORTED, and the capture is invalidated.
//
// The rules of cuda.h: only a created stream captures (the default streams,
// legacy and per-thread, are CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED here),
// and work on the legacy stream while a blocking stream of its context
// captures is CUDA_ERROR_STREAM_CAPTURE_IMPLICIT; synchronizing or querying
// a capturing stream, synchronizing its context, waiting on an event from
// outside the capture (CUDA_ERROR_STREAM_CAPTURE_ISOLATION) or of another
// capture (CUDA_ERROR_STREAM_CAPTURE_MERGE) invalidate it; a capture that
// is not relaxed prohibits "potentially unsafe" calls (allocations, frees,
// synchronous copies and fills) in the threads cuThreadExchangeStream-
// CaptureMode describes; cuStreamEndCapture must be called on the origin
// stream (CUDA_ERROR_STREAM_CAPTURE_UNMATCHED), from the thread that began a
// capture that is not relaxed (CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD), with
// every forked stream joined back (CUDA_ERROR_STREAM_CAPTURE_UNJOINED: a
// stream's nodes that the origin's do not depend on); an invalidated
// capture ends with CUDA_ERROR_STREAM_CAPTURE_INVALIDATED and no graph.
//
// Everything here is under the order lock; graphs under graph_lock, taken
// inside it.

#include "cuda_mock_capture.h"
#include "cuda_mock_graph.h"

#include <stdlib.h>
#include <string.h>

#include "util_thread.h"

typedef struct member_t {
    CUstream handle;
    cuda_mock_stream_order_t *order;
    const cuda_mock_ctx_t *ctx;
    bool blocking;
} member_t;

struct cuda_mock_capture_t {
    unsigned long long id;
    CUgraph graph;
    bool own_graph; // made by BeginCapture: freed if no one takes it
    CUstreamCaptureMode mode;
    pthread_t thread; // the thread that began it
    CUresult invalid; // CUDA_SUCCESS while valid
    cuda_mock_stream_order_t *origin;
    member_t *members; // the origin first
    size_t nmembers, members_cap;
    struct cuda_mock_capture_t *next; // the live captures
};

typedef struct cuda_mock_capture_t capture_t;

static capture_t *live;
static unsigned long long next_id = 1;

// Each thread's capture interaction mode (cuThreadExchangeStreamCaptureMode;
// zeroed: CU_STREAM_CAPTURE_MODE_GLOBAL, the default).
typedef struct thread_mode_t {
    CUstreamCaptureMode mode;
} thread_mode_t;

static umf_thread_state_t modes =
    UMF_THREAD_STATE_INIT(sizeof(thread_mode_t), NULL);

__attribute__((destructor)) static void modes_unload(void) {
    umf_thread_state_fini(&modes);
}

static CUstreamCaptureMode thread_mode(void) {
    const thread_mode_t *t = umf_thread_state_peek(&modes);
    return t != NULL ? t->mode : CU_STREAM_CAPTURE_MODE_GLOBAL;
}

bool cuda_mock_capture_live(unsigned long long id) {
    for (const capture_t *c = live; id != 0 && c != NULL; c = c->next) {
        if (c->id == id) {
            return true;
        }
    }
    return false;
}

static capture_t *capture_by_id(unsigned long long id) {
    for (capture_t *c = live; id != 0 && c != NULL; c = c->next) {
        if (c->id == id) {
            return c;
        }
    }
    return NULL;
}

void cuda_mock_capture_invalidate_locked(capture_t *c) {
    if (c->invalid == CUDA_SUCCESS) {
        c->invalid = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        UMF_MOCK_LOG_WARN("stream capture %llu invalidated", c->id);
    }
}

// ---------------------------------------------------------------------------
// A stream's dependency set

static bool deps_reserve(cuda_mock_stream_order_t *o, size_t n) {
    if (n <= o->deps_cap) {
        return true;
    }
    size_t cap = o->deps_cap != 0 ? o->deps_cap : 4;
    while (cap < n) {
        cap *= 2;
    }
    CUgraphNode *d = realloc(o->deps, cap * sizeof(*d));
    if (d == NULL) {
        return false;
    }
    o->deps = d;
    CUgraphEdgeData *e = realloc(o->dep_data, cap * sizeof(*e));
    if (e == NULL) {
        return false;
    }
    o->dep_data = e;
    memset(&o->dep_data[o->deps_cap], 0,
           (cap - o->deps_cap) * sizeof(CUgraphEdgeData));
    o->deps_cap = cap;
    return true;
}

static bool deps_set(cuda_mock_stream_order_t *o, const CUgraphNode *nodes,
                     size_t n) {
    if (!deps_reserve(o, n)) {
        return false;
    }
    if (n > 0) {
        memcpy(o->deps, nodes, n * sizeof(*nodes));
    }
    o->ndeps = n;
    return true;
}

// Adds the nodes not in the set yet.
static bool deps_add(cuda_mock_stream_order_t *o, const CUgraphNode *nodes,
                     size_t n) {
    for (size_t i = 0; i < n; i++) {
        bool has = false;
        for (size_t k = 0; k < o->ndeps && !has; k++) {
            has = o->deps[k] == nodes[i];
        }
        if (!has) {
            if (!deps_reserve(o, o->ndeps + 1)) {
                return false;
            }
            o->deps[o->ndeps++] = nodes[i];
        }
    }
    return true;
}

static void deps_clear(cuda_mock_stream_order_t *o) {
    free(o->deps);
    free(o->dep_data);
    o->deps = NULL;
    o->dep_data = NULL;
    o->ndeps = o->deps_cap = 0;
}

// ---------------------------------------------------------------------------
// Starting and ending

static bool add_member(capture_t *c, const cuda_mock_stream_ref_t *s) {
    if (c->nmembers == c->members_cap) {
        size_t cap = c->members_cap != 0 ? 2 * c->members_cap : 4;
        member_t *m = realloc(c->members, cap * sizeof(*m));
        if (m == NULL) {
            return false;
        }
        c->members = m;
        c->members_cap = cap;
    }
    c->members[c->nmembers++] =
        (member_t){s->handle, s->order, s->ctx, s->blocking};
    s->order->capture = c;
    return true;
}

// Ends capture `c` for all its streams; its own graph is freed unless
// `keep`.
static void end(capture_t *c, bool keep) {
    for (size_t i = 0; i < c->nmembers; i++) {
        c->members[i].order->capture = NULL;
        deps_clear(c->members[i].order);
    }
    for (capture_t **p = &live; *p != NULL; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    if (c->graph != NULL && cuda_mock_graph_of(c->graph, "capture") != NULL) {
        c->graph->captures--;
        if (c->own_graph && !keep) {
            cuda_mock_graph_free(c->graph);
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    free(c->members);
    free(c);
    atomic_fetch_sub_explicit(&cuda_mock_order_busy, 1, memory_order_release);
}

static CUresult begin(CUstream stream, CUgraph into, const CUgraphNode *deps,
                      const CUgraphEdgeData *data, size_t ndeps,
                      CUstreamCaptureMode mode, const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
        mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        mode != CU_STREAM_CAPTURE_MODE_RELAXED) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (s.order == NULL) {
        UMF_MOCK_LOG_ERROR("%s: a default stream cannot capture here (the "
                           "legacy stream cannot at all; the per-thread "
                           "default streams are ordered as the legacy one)",
                           call);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    capture_t *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    if (s.order->capture != NULL) {
        pthread_mutex_unlock(&cuda_mock_order_lock);
        free(c);
        UMF_MOCK_LOG_ERROR("%s: the stream is capturing already", call);
        return CUDA_ERROR_ILLEGAL_STATE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    if (into != NULL) {
        c->graph = cuda_mock_graph_of(into, call);
        res = c->graph == NULL || c->graph->owner != NULL
                  ? CUDA_ERROR_INVALID_VALUE
                  : CUDA_SUCCESS;
        for (size_t i = 0; res == CUDA_SUCCESS && i < ndeps; i++) {
            CUgraphNode n =
                deps != NULL ? cuda_mock_node_of(deps[i], call) : NULL;
            static const CUgraphEdgeData zero = {0};
            if (n == NULL || n->graph != c->graph ||
                (data != NULL && memcmp(&data[i], &zero, sizeof(zero)) != 0)) {
                res = CUDA_ERROR_INVALID_VALUE;
            }
        }
    } else {
        res = cuda_mock_graph_make(&c->graph);
        c->own_graph = true;
    }
    if (res == CUDA_SUCCESS) {
        c->graph->captures++;
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (res == CUDA_SUCCESS &&
        (!add_member(c, &s) || !deps_set(s.order, deps, ndeps))) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (res == CUDA_SUCCESS) {
        c->id = next_id++;
        c->mode = mode;
        c->thread = pthread_self();
        c->origin = s.order;
        c->next = live;
        live = c;
        atomic_fetch_add_explicit(&cuda_mock_order_busy, 1,
                                  memory_order_release);
    } else if (c->graph != NULL) {
        // Not started: undo what was set up.
        s.order->capture = NULL;
        deps_clear(s.order);
        pthread_mutex_lock(&cuda_mock_graph_lock);
        if (cuda_mock_graph_of(c->graph, call) != NULL) {
            c->graph->captures--;
            if (c->own_graph) {
                cuda_mock_graph_free(c->graph);
            }
        }
        pthread_mutex_unlock(&cuda_mock_graph_lock);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    if (res != CUDA_SUCCESS) {
        free(c->members);
        free(c);
    }
    return res;
}

CUDA_MOCK_API CUresult cuStreamBeginCapture_v2(CUstream hStream,
                                               CUstreamCaptureMode mode) {
    CUDA_MOCK_ENTER(cuStreamBeginCapture_v2);
    return begin(hStream, NULL, NULL, NULL, 0, mode, "cuStreamBeginCapture_v2");
}

CUDA_MOCK_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream,
                                                    CUstreamCaptureMode mode) {
    CUDA_MOCK_ENTER(cuStreamBeginCapture_v2_ptsz);
    return begin(hStream, NULL, NULL, NULL, 0, mode,
                 "cuStreamBeginCapture_v2_ptsz");
}

// CUDA 10.0's form, before modes: global.
CUDA_MOCK_API CUresult cuStreamBeginCapture(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamBeginCapture);
    return begin(hStream, NULL, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL,
                 "cuStreamBeginCapture");
}

CUDA_MOCK_API CUresult cuStreamBeginCapture_ptsz(CUstream hStream) {
    CUDA_MOCK_ENTER(cuStreamBeginCapture_ptsz);
    return begin(hStream, NULL, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL,
                 "cuStreamBeginCapture_ptsz");
}

CUDA_MOCK_API CUresult cuStreamBeginCaptureToGraph(
    CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
    const CUgraphEdgeData *dependencyData, size_t numDependencies,
    CUstreamCaptureMode mode) {
    CUDA_MOCK_ENTER(cuStreamBeginCaptureToGraph);
    if (hGraph == NULL || (numDependencies > 0 && dependencies == NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return begin(hStream, hGraph, dependencies, dependencyData, numDependencies,
                 mode, "cuStreamBeginCaptureToGraph");
}

CUDA_MOCK_API CUresult cuStreamBeginCaptureToGraph_ptsz(
    CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
    const CUgraphEdgeData *dependencyData, size_t numDependencies,
    CUstreamCaptureMode mode) {
    CUDA_MOCK_ENTER(cuStreamBeginCaptureToGraph_ptsz);
    if (hGraph == NULL || (numDependencies > 0 && dependencies == NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return begin(hStream, hGraph, dependencies, dependencyData, numDependencies,
                 mode, "cuStreamBeginCaptureToGraph_ptsz");
}

// Whether `node` is one of `set` or an ancestor of one (under graph_lock).
static bool reaches(const CUgraphNode *set, size_t n, CUgraphNode node,
                    node_vec_t *seen) {
    for (size_t i = 0; i < n; i++) {
        CUgraphNode s = set[i];
        if (s == node) {
            return true;
        }
        if (cuda_mock_node_vec_has(seen, s)) {
            continue;
        }
        if (!cuda_mock_node_vec_push(seen, s)) {
            return true; // out of memory: do not call it unjoined
        }
        if (reaches(s->deps.v, s->deps.n, node, seen)) {
            return true;
        }
    }
    return false;
}

// Every other stream's set is reached from the origin's.
static bool joined(const capture_t *c) {
    bool ok = true;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    for (size_t i = 1; ok && i < c->nmembers; i++) {
        const cuda_mock_stream_order_t *o = c->members[i].order;
        for (size_t k = 0; ok && k < o->ndeps; k++) {
            node_vec_t seen = {0};
            ok = reaches(c->origin->deps, c->origin->ndeps, o->deps[k], &seen);
            free(seen.v);
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return ok;
}

static CUresult end_capture(CUstream stream, CUgraph *out, const char *call) {
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    capture_t *c = s.order != NULL ? s.order->capture : NULL;
    if (c == NULL) {
        res = CUDA_ERROR_ILLEGAL_STATE;
        UMF_MOCK_LOG_ERROR("%s: the stream is not capturing", call);
    } else if (c->origin != s.order) {
        cuda_mock_capture_invalidate_locked(c);
        res = CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
        UMF_MOCK_LOG_ERROR("%s: the capture began on another stream", call);
    } else if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
               !pthread_equal(c->thread, pthread_self())) {
        res = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
        UMF_MOCK_LOG_ERROR("%s: the capture began in another thread", call);
    } else if (c->invalid != CUDA_SUCCESS) {
        *out = NULL;
        end(c, false);
        res = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    } else if (!joined(c)) {
        *out = NULL;
        end(c, false);
        res = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
        UMF_MOCK_LOG_ERROR("%s: a forked stream was not joined back", call);
    } else {
        *out = c->graph;
        end(c, true);
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    cuda_mock_uo_flush();
    return res;
}

CUDA_MOCK_API CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) {
    CUDA_MOCK_ENTER(cuStreamEndCapture);
    return end_capture(hStream, phGraph, "cuStreamEndCapture");
}

CUDA_MOCK_API CUresult cuStreamEndCapture_ptsz(CUstream hStream,
                                               CUgraph *phGraph) {
    CUDA_MOCK_ENTER(cuStreamEndCapture_ptsz);
    return end_capture(hStream, phGraph, "cuStreamEndCapture_ptsz");
}

// ---------------------------------------------------------------------------
// Queries

// A blocking stream of `ctx` captures (the legacy stream then may not be
// used).
static capture_t *implicit(const cuda_mock_ctx_t *ctx) {
    for (capture_t *c = live; c != NULL; c = c->next) {
        for (size_t i = 0; i < c->nmembers; i++) {
            if (c->members[i].blocking && c->members[i].ctx == ctx) {
                return c;
            }
        }
    }
    return NULL;
}

typedef struct info_t {
    CUstreamCaptureStatus *status;
    cuuint64_t *id;
    CUgraph *graph;
    const CUgraphNode **deps;
    const CUgraphEdgeData **data;
    size_t *ndeps;
} info_t;

static CUresult capture_info(CUstream stream, info_t in, const char *call) {
    if (in.status == NULL || (in.data != NULL && in.deps == NULL)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    const capture_t *c = s.order != NULL ? s.order->capture : NULL;
    if (s.order == NULL && s.handle != CU_STREAM_PER_THREAD &&
        implicit(s.ctx) != NULL) {
        // "The blocking stream capture is not invalidated."
        res = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    } else {
        *in.status = c == NULL ? CU_STREAM_CAPTURE_STATUS_NONE
                     : c->invalid != CUDA_SUCCESS
                         ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                         : CU_STREAM_CAPTURE_STATUS_ACTIVE;
        bool active = *in.status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
        if (in.id != NULL) {
            *in.id = active ? c->id : 0;
        }
        if (in.graph != NULL) {
            *in.graph = active ? c->graph : NULL;
        }
        if (in.deps != NULL) {
            *in.deps = active ? s.order->deps : NULL;
        }
        if (in.data != NULL) {
            *in.data = active ? s.order->dep_data : NULL;
        }
        if (in.ndeps != NULL) {
            *in.ndeps = active ? s.order->ndeps : 0;
        }
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUDA_MOCK_API CUresult cuStreamIsCapturing(CUstream hStream,
                                           CUstreamCaptureStatus *status) {
    CUDA_MOCK_ENTER(cuStreamIsCapturing);
    return capture_info(hStream, (info_t){status, NULL, NULL, NULL, NULL, NULL},
                        "cuStreamIsCapturing");
}

CUDA_MOCK_API CUresult cuStreamIsCapturing_ptsz(CUstream hStream,
                                                CUstreamCaptureStatus *status) {
    CUDA_MOCK_ENTER(cuStreamIsCapturing_ptsz);
    return capture_info(hStream, (info_t){status, NULL, NULL, NULL, NULL, NULL},
                        "cuStreamIsCapturing_ptsz");
}

CUDA_MOCK_API CUresult cuStreamGetCaptureInfo(CUstream hStream,
                                              CUstreamCaptureStatus *status,
                                              cuuint64_t *id) {
    CUDA_MOCK_ENTER(cuStreamGetCaptureInfo);
    return capture_info(hStream, (info_t){status, id, NULL, NULL, NULL, NULL},
                        "cuStreamGetCaptureInfo");
}

CUDA_MOCK_API CUresult cuStreamGetCaptureInfo_ptsz(
    CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id) {
    CUDA_MOCK_ENTER(cuStreamGetCaptureInfo_ptsz);
    return capture_info(hStream, (info_t){status, id, NULL, NULL, NULL, NULL},
                        "cuStreamGetCaptureInfo_ptsz");
}

CUDA_MOCK_API CUresult cuStreamGetCaptureInfo_v2(CUstream hStream,
                                                 CUstreamCaptureStatus *status,
                                                 cuuint64_t *id, CUgraph *graph,
                                                 const CUgraphNode **deps,
                                                 size_t *ndeps) {
    CUDA_MOCK_ENTER(cuStreamGetCaptureInfo_v2);
    return capture_info(hStream, (info_t){status, id, graph, deps, NULL, ndeps},
                        "cuStreamGetCaptureInfo_v2");
}

CUDA_MOCK_API CUresult cuStreamGetCaptureInfo_v2_ptsz(
    CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id,
    CUgraph *graph, const CUgraphNode **deps, size_t *ndeps) {
    CUDA_MOCK_ENTER(cuStreamGetCaptureInfo_v2_ptsz);
    return capture_info(hStream, (info_t){status, id, graph, deps, NULL, ndeps},
                        "cuStreamGetCaptureInfo_v2_ptsz");
}

CUDA_MOCK_API CUresult cuStreamGetCaptureInfo_v3(CUstream hStream,
                                                 CUstreamCaptureStatus *status,
                                                 cuuint64_t *id, CUgraph *graph,
                                                 const CUgraphNode **deps,
                                                 const CUgraphEdgeData **data,
                                                 size_t *ndeps) {
    CUDA_MOCK_ENTER(cuStreamGetCaptureInfo_v3);
    return capture_info(hStream, (info_t){status, id, graph, deps, data, ndeps},
                        "cuStreamGetCaptureInfo_v3");
}

CUDA_MOCK_API CUresult cuStreamGetCaptureInfo_v3_ptsz(
    CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id,
    CUgraph *graph, const CUgraphNode **deps, const CUgraphEdgeData **data,
    size_t *ndeps) {
    CUDA_MOCK_ENTER(cuStreamGetCaptureInfo_v3_ptsz);
    return capture_info(hStream, (info_t){status, id, graph, deps, data, ndeps},
                        "cuStreamGetCaptureInfo_v3_ptsz");
}

static CUresult update_deps(CUstream stream, CUgraphNode *deps,
                            const CUgraphEdgeData *data, size_t n,
                            unsigned flags, const char *call) {
    if ((n > 0 && deps == NULL) ||
        (flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES &&
         flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    pthread_mutex_lock(&cuda_mock_order_lock);
    capture_t *c = s.order != NULL ? s.order->capture : NULL;
    if (c == NULL) {
        res = CUDA_ERROR_ILLEGAL_STATE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    for (size_t i = 0; res == CUDA_SUCCESS && i < n; i++) {
        CUgraphNode node = cuda_mock_node_of(deps[i], call);
        static const CUgraphEdgeData zero = {0};
        if (node == NULL || node->graph != c->graph ||
            (data != NULL && memcmp(&data[i], &zero, sizeof(zero)) != 0)) {
            res = CUDA_ERROR_INVALID_VALUE;
        }
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (res == CUDA_SUCCESS && !(flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES
                                     ? deps_set(s.order, deps, n)
                                     : deps_add(s.order, deps, n))) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_unlock(&cuda_mock_order_lock);
    return res;
}

CUDA_MOCK_API CUresult cuStreamUpdateCaptureDependencies(CUstream hStream,
                                                         CUgraphNode *deps,
                                                         size_t n,
                                                         unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamUpdateCaptureDependencies);
    return update_deps(hStream, deps, NULL, n, flags,
                       "cuStreamUpdateCaptureDependencies");
}

CUDA_MOCK_API CUresult cuStreamUpdateCaptureDependencies_ptsz(
    CUstream hStream, CUgraphNode *deps, size_t n, unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamUpdateCaptureDependencies_ptsz);
    return update_deps(hStream, deps, NULL, n, flags,
                       "cuStreamUpdateCaptureDependencies_ptsz");
}

CUDA_MOCK_API CUresult cuStreamUpdateCaptureDependencies_v2(
    CUstream hStream, CUgraphNode *deps, const CUgraphEdgeData *data, size_t n,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamUpdateCaptureDependencies_v2);
    return update_deps(hStream, deps, data, n, flags,
                       "cuStreamUpdateCaptureDependencies_v2");
}

CUDA_MOCK_API CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(
    CUstream hStream, CUgraphNode *deps, const CUgraphEdgeData *data, size_t n,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuStreamUpdateCaptureDependencies_v2_ptsz);
    return update_deps(hStream, deps, data, n, flags,
                       "cuStreamUpdateCaptureDependencies_v2_ptsz");
}

CUDA_MOCK_API CUresult
cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode) {
    CUDA_MOCK_ENTER(cuThreadExchangeStreamCaptureMode);
    if (mode == NULL || (*mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
                         *mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
                         *mode != CU_STREAM_CAPTURE_MODE_RELAXED)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    thread_mode_t *t = umf_thread_state_get(&modes);
    if (t == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUstreamCaptureMode old = t->mode;
    t->mode = *mode;
    *mode = old;
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Operations on streams (cuda_mock_queue.c, under the order lock)

// Adds the node of `p` after the stream's set, which it then replaces.
static CUresult add_node(capture_t *c, cuda_mock_stream_order_t *o,
                         node_params_t *p, const char *call) {
    CUgraphNode n;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUresult res =
        cuda_mock_graph_add(c->graph, o->deps, o->ndeps, NULL, p, call, &n);
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (res == CUDA_SUCCESS && !deps_set(o, &n, 1)) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (res != CUDA_SUCCESS) {
        cuda_mock_capture_invalidate_locked(c);
    }
    return res;
}

static node_params_t node_of_op(const cuda_mock_op_t *op,
                                cuda_mock_ctx_t *ctx) {
    node_params_t p;
    memset(&p, 0, sizeof(p));
    p.ctx = ctx;
    switch (op->kind) {
    case CUDA_MOCK_OP_COPY: {
        CUDA_MEMCPY3D *c = &p.u.copy;
        p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
        c->srcMemoryType = op->u.copy.src_type;
        if (op->u.copy.src_type == CU_MEMORYTYPE_HOST) {
            c->srcHost = (const void *)op->u.copy.src;
        } else {
            c->srcDevice = (CUdeviceptr)op->u.copy.src;
        }
        c->srcPitch = op->u.copy.src_pitch;
        c->dstMemoryType = op->u.copy.dst_type;
        if (op->u.copy.dst_type == CU_MEMORYTYPE_HOST) {
            c->dstHost = (void *)op->u.copy.dst;
        } else {
            c->dstDevice = (CUdeviceptr)op->u.copy.dst;
        }
        c->dstPitch = op->u.copy.dst_pitch;
        c->WidthInBytes = op->u.copy.width;
        c->Height = op->u.copy.height;
        c->Depth = 1;
        p.dst_device = op->u.copy.dst_device;
        p.src_device = op->u.copy.src_device;
        break;
    }
    case CUDA_MOCK_OP_COPY3D:
        p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
        memcpy(&p.u.copy, &op->u.copy3d.p, sizeof(p.u.copy));
        p.u.copy.reserved0 = NULL; // the contexts of a peer copy
        p.u.copy.reserved1 = NULL;
        p.dst_device = op->u.copy3d.dst_device;
        p.src_device = op->u.copy3d.src_device;
        break;
    case CUDA_MOCK_OP_FILL:
        p.type = CU_GRAPH_NODE_TYPE_MEMSET;
        p.u.memset.dst = (CUdeviceptr)op->u.fill.dst;
        p.u.memset.pitch = op->u.fill.pitch;
        p.u.memset.value = op->u.fill.value;
        p.u.memset.elementSize = op->u.fill.elem;
        p.u.memset.width = op->u.fill.width;
        p.u.memset.height = op->u.fill.height;
        p.dst_device = op->u.fill.device;
        break;
    case CUDA_MOCK_OP_HOST:
        p.type = CU_GRAPH_NODE_TYPE_HOST;
        p.u.host.fn = op->u.host.fn;
        p.u.host.userData = op->u.host.data;
        break;
    case CUDA_MOCK_OP_RECORD:
        p.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
        p.u.event = op->u.event.event;
        break;
    case CUDA_MOCK_OP_WAIT:
        p.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
        p.u.event = op->u.event.event;
        break;
    default:
        p.type = CU_GRAPH_NODE_TYPE_EMPTY;
        break;
    }
    return p;
}

// An operation on capturing stream `s` of capture `c`.
static CUresult capture_op(capture_t *c, const cuda_mock_stream_ref_t *s,
                           const cuda_mock_op_t *op) {
    if (c->invalid != CUDA_SUCCESS) {
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    cuda_mock_stream_order_t *o = s->order;
    switch (op->kind) {
    case CUDA_MOCK_OP_EMPTY:
        return CUDA_SUCCESS;
    case CUDA_MOCK_OP_COPY:
    case CUDA_MOCK_OP_COPY3D:
    case CUDA_MOCK_OP_FILL:
    case CUDA_MOCK_OP_HOST: {
        node_params_t p = node_of_op(op, s->ctx);
        return add_node(c, o, &p, op->call);
    }
    case CUDA_MOCK_OP_RECORD: {
        if ((op->u.event.flags & CU_EVENT_RECORD_EXTERNAL) != 0) {
            node_params_t p = node_of_op(op, s->ctx);
            return add_node(c, o, &p, op->call);
        }
        cuda_mock_event_order_t *e =
            cuda_mock_event_order_at(op->u.event.event, op->u.event.gen);
        if (e == NULL) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        CUgraphNode *nodes = NULL;
        if (o->ndeps > 0) {
            nodes = malloc(o->ndeps * sizeof(*nodes));
            if (nodes == NULL) {
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
            memcpy(nodes, o->deps, o->ndeps * sizeof(*nodes));
        }
        free(e->nodes);
        e->nodes = nodes;
        e->nnodes = o->ndeps;
        e->capture_id = c->id;
        return CUDA_SUCCESS;
    }
    case CUDA_MOCK_OP_WAIT: {
        if ((op->u.event.flags & CU_EVENT_WAIT_EXTERNAL) != 0) {
            node_params_t p = node_of_op(op, s->ctx);
            return add_node(c, o, &p, op->call);
        }
        cuda_mock_event_order_t *e =
            cuda_mock_event_order_at(op->u.event.event, op->u.event.gen);
        capture_t *ec = e != NULL ? capture_by_id(e->capture_id) : NULL;
        if (ec == c) {
            return deps_add(o, e->nodes, e->nnodes) ? CUDA_SUCCESS
                                                    : CUDA_ERROR_OUT_OF_MEMORY;
        }
        cuda_mock_capture_invalidate_locked(c);
        if (ec != NULL) {
            cuda_mock_capture_invalidate_locked(ec);
            UMF_MOCK_LOG_ERROR("%s: the event was recorded in another capture",
                               op->call);
            return CUDA_ERROR_STREAM_CAPTURE_MERGE;
        }
        UMF_MOCK_LOG_ERROR("%s: the event was not recorded in this capture "
                           "(CU_EVENT_WAIT_EXTERNAL makes a wait node)",
                           op->call);
        return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
    }
    default:
        cuda_mock_capture_invalidate_locked(c);
        UMF_MOCK_LOG_ERROR("%s cannot be captured by the emulated driver",
                           op->call);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
}

bool cuda_mock_capture_submit_locked(const cuda_mock_stream_ref_t *s,
                                     const cuda_mock_op_t *op, CUresult *res) {
    if (live == NULL) {
        return false;
    }
    if (s->order != NULL && s->order->capture != NULL) {
        *res = capture_op(s->order->capture, s, op);
        return true;
    }
    if (s->order == NULL) {
        capture_t *c = implicit(s->ctx);
        if (c != NULL) {
            cuda_mock_capture_invalidate_locked(c);
            UMF_MOCK_LOG_ERROR("%s on the legacy stream while a blocking "
                               "stream of its context captures",
                               op->call);
            *res = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
            return true;
        }
        return false;
    }
    // A wait on an event recorded in a capture joins the stream to it.
    if (op->kind == CUDA_MOCK_OP_WAIT) {
        cuda_mock_event_order_t *e =
            cuda_mock_event_order_at(op->u.event.event, op->u.event.gen);
        capture_t *c = e != NULL ? capture_by_id(e->capture_id) : NULL;
        if (c != NULL) {
            *res = add_member(c, s) && deps_set(s->order, e->nodes, e->nnodes)
                       ? (c->invalid != CUDA_SUCCESS
                              ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
                              : CUDA_SUCCESS)
                       : CUDA_ERROR_OUT_OF_MEMORY;
            return true;
        }
    }
    return false;
}

// The captures whose rules prohibit a potentially unsafe call in this
// thread (cuThreadExchangeStreamCaptureMode): invalidated; true if any.
static bool prohibit(void) {
    CUstreamCaptureMode mode = thread_mode();
    if (mode == CU_STREAM_CAPTURE_MODE_RELAXED) {
        return false;
    }
    bool any = false;
    pthread_t self = pthread_self();
    for (capture_t *c = live; c != NULL; c = c->next) {
        bool mine = pthread_equal(c->thread, self);
        if ((mine && c->mode != CU_STREAM_CAPTURE_MODE_RELAXED) ||
            (!mine && mode == CU_STREAM_CAPTURE_MODE_GLOBAL &&
             c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL)) {
            cuda_mock_capture_invalidate_locked(c);
            any = true;
        }
    }
    return any;
}

CUresult cuda_mock_capture_unsafe_locked(const char *call) {
    if (live != NULL && prohibit()) {
        UMF_MOCK_LOG_ERROR("%s is not permitted during stream capture (see "
                           "cuThreadExchangeStreamCaptureMode)",
                           call);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_capture_sync_locked(const cuda_mock_ctx_t *ctx,
                                       const char *call) {
    CUresult res = cuda_mock_capture_unsafe_locked(call);
    capture_t *c = live != NULL ? implicit(ctx) : NULL;
    if (res == CUDA_SUCCESS && c != NULL) {
        cuda_mock_capture_invalidate_locked(c);
        UMF_MOCK_LOG_ERROR("%s on the legacy stream while a blocking stream of "
                           "its context captures",
                           call);
        res = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    }
    return res;
}

CUresult cuda_mock_capture_stream_sync_locked(const cuda_mock_stream_ref_t *s,
                                              const char *call) {
    if (live == NULL) {
        return CUDA_SUCCESS;
    }
    if (s->order != NULL && s->order->capture != NULL) {
        cuda_mock_capture_invalidate_locked(s->order->capture);
        UMF_MOCK_LOG_ERROR("%s on a capturing stream", call);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return s->order == NULL ? cuda_mock_capture_sync_locked(s->ctx, call)
                            : CUDA_SUCCESS;
}

CUresult cuda_mock_capture_ctx_sync_locked(const cuda_mock_ctx_t *ctx,
                                           const char *call) {
    CUresult res = cuda_mock_capture_unsafe_locked(call);
    for (capture_t *c = live; res == CUDA_SUCCESS && c != NULL; c = c->next) {
        for (size_t i = 0; i < c->nmembers; i++) {
            if (c->members[i].ctx == ctx) {
                cuda_mock_capture_invalidate_locked(c);
                UMF_MOCK_LOG_ERROR("%s while a stream of the context "
                                   "captures",
                                   call);
                res = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
                break;
            }
        }
    }
    return res;
}

// cuMemAllocAsync, cuMemAllocFromPoolAsync ("During stream capture, this
// function results in the creation of an allocation node. In this case,
// the allocation is owned by the graph instead of the memory pool") and
// cuMemFreeAsync ("results in the creation of a free node and must
// therefore be passed the address of a graph allocation") on a capturing
// stream: a node of the capture's graph after the stream's set.
CUresult cuda_mock_capture_mem_locked(const cuda_mock_stream_ref_t *s,
                                      int device, size_t size,
                                      CUdeviceptr *dptr, bool *captured,
                                      const char *call) {
    *captured = s->order != NULL && s->order->capture != NULL;
    if (!*captured) {
        return CUDA_SUCCESS;
    }
    capture_t *c = s->order->capture;
    if (c->invalid != CUDA_SUCCESS) {
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    node_params_t p = cuda_mock_node_params_of(
        size > 0 ? CU_GRAPH_NODE_TYPE_MEM_ALLOC : CU_GRAPH_NODE_TYPE_MEM_FREE);
    if (size > 0) {
        CUmemPoolProps *pp = &p.u.alloc.p.poolProps;
        pp->allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        pp->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        pp->location.id = device;
        p.u.alloc.p.bytesize = size;
    } else {
        p.u.free.dptr = *dptr;
    }
    CUgraphNode n;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUresult res = cuda_mock_node_add_mem(c->graph, s->order->deps,
                                          s->order->ndeps, NULL, &p, call, &n);
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    if (res == CUDA_SUCCESS && !deps_set(s->order, &n, 1)) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (res != CUDA_SUCCESS) {
        cuda_mock_capture_invalidate_locked(c);
        return res;
    }
    if (size > 0) {
        *dptr = p.u.alloc.p.dptr;
    }
    return CUDA_SUCCESS;
}

CUresult cuda_mock_capture_refuse_locked(const cuda_mock_stream_ref_t *s,
                                         const char *call) {
    if (s->order != NULL && s->order->capture != NULL) {
        cuda_mock_capture_invalidate_locked(s->order->capture);
        UMF_MOCK_LOG_ERROR("%s cannot be captured by the emulated driver",
                           call);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return CUDA_SUCCESS;
}

// A stream leaves its capture (destroyed with its context): the capture is
// invalidated; without its origin it can never end, so it ends here.
void cuda_mock_capture_leave_locked(cuda_mock_stream_order_t *o) {
    capture_t *c = o->capture;
    if (c == NULL) {
        return;
    }
    cuda_mock_capture_invalidate_locked(c);
    if (c->origin == o) {
        end(c, false);
        return;
    }
    for (size_t i = 0; i < c->nmembers; i++) {
        if (c->members[i].order == o) {
            c->members[i] = c->members[--c->nmembers];
            break;
        }
    }
    o->capture = NULL;
    deps_clear(o);
}
