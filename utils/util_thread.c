// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_thread.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Each thread's state follows a node on the next cache line: a state never
// shares a line with another thread's, nor with its node.
#define NODE_BYTES 64

typedef struct umf_thread_state_node_t {
    struct umf_thread_state_node_t *prev, *next;
    umf_thread_state_t *owner;
} node_t;

_Static_assert(sizeof(node_t) <= NODE_BYTES, "a node fits before its state");

// Guards making keys and every kind's list of states; taken only when a
// thread makes or releases a state, and at unload.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static node_t *node_of(void *state) {
    return (node_t *)(void *)((char *)state - NODE_BYTES);
}

static void *state_of(node_t *node) {
    return (char *)node + NODE_BYTES;
}

static void unlink_locked(node_t *node) {
    if (node->prev != NULL) {
        node->prev->next = node->next;
    } else {
        node->owner->states = node->next;
    }
    if (node->next != NULL) {
        node->next->prev = node->prev;
    }
}

// The key's destructor: the thread exits.
static void release(void *state) {
    node_t *node = node_of(state);
    umf_thread_state_t *ts = node->owner;
    if (ts->at_exit != NULL) {
        ts->at_exit(state);
    }
    pthread_mutex_lock(&lock);
    unlink_locked(node);
    pthread_mutex_unlock(&lock);
    free(node);
}

static int make_key(umf_thread_state_t *ts) {
    pthread_mutex_lock(&lock);
    int st = __atomic_load_n(&ts->key_state, __ATOMIC_RELAXED);
    if (st == 0) {
        st = pthread_key_create(&ts->key, release) == 0 ? 1 : -1;
        __atomic_store_n(&ts->key_state, st, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return st;
}

static void *create(umf_thread_state_t *ts) {
    size_t size = (ts->size + 63) & ~(size_t)63;
    if (size < ts->size || size > SIZE_MAX - NODE_BYTES) {
        return NULL;
    }
    node_t *node = aligned_alloc(64, NODE_BYTES + size);
    if (node == NULL) {
        return NULL;
    }
    memset(node, 0, NODE_BYTES + size);
    node->owner = ts;
    void *state = state_of(node);
    if (pthread_setspecific(ts->key, state) != 0) {
        free(node);
        return NULL;
    }
    pthread_mutex_lock(&lock);
    node->next = ts->states;
    if (ts->states != NULL) {
        ts->states->prev = node;
    }
    ts->states = node;
    pthread_mutex_unlock(&lock);
    return state;
}

void *umf_thread_state_get(umf_thread_state_t *ts) {
    int st = __atomic_load_n(&ts->key_state, __ATOMIC_ACQUIRE);
    if (__builtin_expect(st == 1, 1)) {
        void *state = pthread_getspecific(ts->key);
        if (__builtin_expect(state != NULL, 1)) {
            return state;
        }
    } else if (st == 0) {
        st = make_key(ts);
    }
    return st == 1 ? create(ts) : NULL;
}

void umf_thread_state_fini(umf_thread_state_t *ts) {
    pthread_mutex_lock(&lock);
    if (__atomic_load_n(&ts->key_state, __ATOMIC_RELAXED) == 1) {
        pthread_key_delete(ts->key);
    }
    __atomic_store_n(&ts->key_state, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
}

size_t umf_thread_state_count(umf_thread_state_t *ts) {
    size_t n = 0;
    pthread_mutex_lock(&lock);
    for (node_t *node = ts->states; node != NULL; node = node->next) {
        n++;
    }
    pthread_mutex_unlock(&lock);
    return n;
}
