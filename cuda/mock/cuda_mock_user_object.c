// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// User objects: a destructor and a reference count, whose references the
// program, graphs and executable graphs own (cuUserObjectCreate, Retain,
// Release, cuGraphRetainUserObject, cuGraphReleaseUserObject). When the
// count reaches zero the destructor runs "from an internal thread": the
// driver thread (cuda_mock_queue.c), never the thread that released, and
// the object's handle ends then ("undefined behavior ... to use a user
// object handle after all references are released": here it is
// CUDA_ERROR_INVALID_VALUE while the slot is not reused).
//
// Counts are under their own leaf lock. A release under graph_lock (a graph
// destroyed, an executable graph gone) only queues the destructors that
// became due; cuda_mock_uo_flush, called after graph_lock is released, hands
// them to the driver thread (whose queues take the order lock, which comes
// before graph_lock).

#include "cuda_mock_graph.h"

#include <limits.h>
#include <stdlib.h>

struct CUuserObject_st {
    cuda_mock_slot_t slot;
    void *ptr;
    CUhostFn destroy;
    uint64_t refs; // under `lock`
};

static cuda_mock_table_t objects =
    CUDA_MOCK_TABLE("user object", struct CUuserObject_st,
                    CUDA_MOCK_MAX_USER_OBJECTS, CUDA_MOCK_OBJECT_USER_OBJECT);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// Destructors due, not handed to the driver thread yet (under `lock`).
typedef struct due_t {
    struct due_t *next;
    CUhostFn fn;
    void *ptr;
} due_t;
static due_t *due;

static CUuserObject object_of(CUuserObject h, const char *call) {
    CUuserObject o = cuda_mock_table_get(&objects, h);
    if (o == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a user object of this driver, or "
                           "its last reference was released",
                           call, (void *)h);
    }
    return o;
}

static bool count_valid(unsigned count) {
    return count != 0 && count <= INT_MAX;
}

// Drops `count` references of `o` (under `lock`); at zero the object ends
// and its destructor is due.
static void drop(CUuserObject o, uint64_t count) {
    o->refs -= count;
    if (o->refs != 0) {
        return;
    }
    due_t *d = malloc(sizeof(*d));
    if (d != NULL) {
        d->fn = o->destroy;
        d->ptr = o->ptr;
        d->next = due;
        due = d;
    } else {
        UMF_MOCK_LOG_ERROR("out of host memory: the destructor of user object "
                           "%p runs in the releasing thread",
                           (void *)o);
        o->destroy(o->ptr);
    }
    (void)cuda_mock_table_free(&objects, o);
}

void cuda_mock_uo_flush(void) {
    pthread_mutex_lock(&lock);
    due_t *list = due;
    due = NULL;
    pthread_mutex_unlock(&lock);
    while (list != NULL) {
        due_t *d = list;
        list = d->next;
        if (cuda_mock_order_internal(d->fn, d->ptr, "user object destructor") !=
            CUDA_SUCCESS) {
            d->fn(d->ptr); // no driver thread: here, rather than never
        }
        free(d);
    }
}

CUresult cuda_mock_uo_retain(uo_vec_t *refs, CUuserObject object,
                             unsigned count, bool move, const char *call) {
    if (!count_valid(count)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    size_t i = 0;
    while (i < refs->n && refs->v[i].object != object) {
        i++;
    }
    if (i == refs->n && refs->n == refs->cap) {
        size_t cap = refs->cap != 0 ? 2 * refs->cap : 4;
        uo_ref_t *v = realloc(refs->v, cap * sizeof(*v));
        if (v == NULL) {
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        refs->v = v;
        refs->cap = cap;
    }
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    CUuserObject o = object_of(object, call);
    if (o == NULL) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else if ((uint64_t)(i < refs->n ? refs->v[i].count : 0) + count >
               UINT_MAX) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else {
        // MOVE: "transfers references from the calling thread".
        if (!move) {
            o->refs += count;
        }
        if (i == refs->n) {
            refs->v[refs->n++] = (uo_ref_t){object, 0};
        }
        refs->v[i].count += count;
    }
    pthread_mutex_unlock(&lock);
    return res;
}

bool cuda_mock_uo_copy(uo_vec_t *to, const uo_vec_t *from) {
    for (size_t i = 0; i < from->n; i++) {
        if (cuda_mock_uo_retain(to, from->v[i].object, from->v[i].count, false,
                                "graph clone") != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

void cuda_mock_uo_release_all(uo_vec_t *refs) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < refs->n; i++) {
        CUuserObject o = cuda_mock_table_get(&objects, refs->v[i].object);
        if (o != NULL) {
            drop(o, refs->v[i].count);
        }
    }
    pthread_mutex_unlock(&lock);
    refs->n = 0;
}

// ---------------------------------------------------------------------------
// The program's references

CUDA_MOCK_API CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr,
                                          CUhostFn destroy,
                                          unsigned int initialRefcount,
                                          unsigned int flags) {
    CUDA_MOCK_ENTER(cuUserObjectCreate);
    // "it is required to pass CU_USER_OBJECT_NO_DESTRUCTOR_SYNC"
    if (object_out == NULL || destroy == NULL ||
        !count_valid(initialRefcount) ||
        flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUuserObject o;
    CUresult res = cuda_mock_table_alloc(&objects, (void **)&o);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    pthread_mutex_lock(&lock);
    o->ptr = ptr;
    o->destroy = destroy;
    o->refs = initialRefcount;
    pthread_mutex_unlock(&lock);
    *object_out = o;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuUserObjectRetain(CUuserObject object,
                                          unsigned int count) {
    CUDA_MOCK_ENTER(cuUserObjectRetain);
    if (!count_valid(count)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&lock);
    CUuserObject o = object_of(object, "cuUserObjectRetain");
    if (o != NULL) {
        o->refs += count;
    }
    pthread_mutex_unlock(&lock);
    return o != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_MOCK_API CUresult cuUserObjectRelease(CUuserObject object,
                                           unsigned int count) {
    CUDA_MOCK_ENTER(cuUserObjectRelease);
    if (!count_valid(count)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    CUuserObject o = object_of(object, "cuUserObjectRelease");
    if (o == NULL) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else if (o->refs < count) {
        // More than are alive: never the caller's to release.
        UMF_MOCK_LOG_ERROR("cuUserObjectRelease(%p, %u): only %llu "
                           "references are alive",
                           (void *)object, count, (unsigned long long)o->refs);
        res = CUDA_ERROR_INVALID_VALUE;
    } else {
        drop(o, count);
    }
    pthread_mutex_unlock(&lock);
    cuda_mock_uo_flush();
    return res;
}

// ---------------------------------------------------------------------------
// A graph's references

CUDA_MOCK_API CUresult cuGraphRetainUserObject(CUgraph graph,
                                               CUuserObject object,
                                               unsigned int count,
                                               unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphRetainUserObject);
    if ((flags & ~(unsigned)CU_GRAPH_USER_OBJECT_MOVE) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(graph, "cuGraphRetainUserObject");
    CUresult res = g != NULL
                       ? cuda_mock_uo_retain(&g->user_objects, object, count,
                                             flags == CU_GRAPH_USER_OBJECT_MOVE,
                                             "cuGraphRetainUserObject")
                       : CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    return res;
}

CUDA_MOCK_API CUresult cuGraphReleaseUserObject(CUgraph graph,
                                                CUuserObject object,
                                                unsigned int count) {
    CUDA_MOCK_ENTER(cuGraphReleaseUserObject);
    if (!count_valid(count)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&cuda_mock_graph_lock);
    CUgraph g = cuda_mock_graph_of(graph, "cuGraphReleaseUserObject");
    for (size_t i = 0; g != NULL && i < g->user_objects.n; i++) {
        uo_ref_t *r = &g->user_objects.v[i];
        if (r->object != object) {
            continue;
        }
        if (r->count < count) {
            break; // more than the graph owns
        }
        pthread_mutex_lock(&lock);
        CUuserObject o = cuda_mock_table_get(&objects, object);
        if (o != NULL) {
            drop(o, count);
        }
        pthread_mutex_unlock(&lock);
        r->count -= count;
        if (r->count == 0) {
            *r = g->user_objects.v[--g->user_objects.n];
        }
        res = CUDA_SUCCESS;
        break;
    }
    if (g != NULL && res != CUDA_SUCCESS) {
        UMF_MOCK_LOG_ERROR("cuGraphReleaseUserObject(%p, %p, %u): the graph "
                           "does not own as many references",
                           (void *)graph, (void *)object, count);
    }
    pthread_mutex_unlock(&cuda_mock_graph_lock);
    cuda_mock_uo_flush();
    return res;
}
