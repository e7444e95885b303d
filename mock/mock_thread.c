// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_thread.h"

#include <pthread.h>
#include <stdlib.h>

#include "mock_log.h"
#include "util_thread.h"

#define ID_BLOCK 4096

// The hot path's pointer to this thread's state (8 of the 64 bytes of
// static TLS a driver may keep, utils/util_thread.h).
_Thread_local umf_mock_thread_t *umf_mock_self UMF_TLS_HOT;

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static umf_mock_thread_t *threads;                  // living threads
static int64_t retired[UMF_MOCK_COUNTERS];          // sums of exited ones
static int64_t call_baseline[UMF_MOCK_MAX_ENTRIES]; // sums at the last reset
static _Atomic uint64_t next_id_block = 1;

static void thread_exit(void *arg);

// What the layers above keep per thread and give back when it exits, in the
// order they registered (umf_mock_thread_on_exit).
#define EXIT_HOOKS_MAX 4
static _Atomic(umf_mock_thread_exit_fn) exit_hooks[EXIT_HOOKS_MAX];

// The states themselves, made at a thread's first call and released when it
// exits, after thread_exit folded them into the shared state.
static umf_thread_state_t states =
    UMF_THREAD_STATE_INIT(sizeof(umf_mock_thread_t), thread_exit);

static void thread_exit(void *arg) {
    umf_mock_thread_t *t = arg;
    for (unsigned i = 0; i < EXIT_HOOKS_MAX; i++) {
        umf_mock_thread_exit_fn fn =
            atomic_load_explicit(&exit_hooks[i], memory_order_acquire);
        if (fn != NULL) {
            fn(t);
        }
    }
    free(t->failure);
    t->failure = NULL;
    pthread_mutex_lock(&threads_lock);
    for (unsigned i = 0; i < UMF_MOCK_COUNTERS; i++) {
        retired[i] +=
            atomic_load_explicit(&t->counters[i], memory_order_relaxed);
    }
    if (t->prev != NULL) {
        t->prev->next = t->next;
    } else {
        threads = t->next;
    }
    if (t->next != NULL) {
        t->next->prev = t->prev;
    }
    pthread_mutex_unlock(&threads_lock);
    umf_mock_self = NULL;
}

bool umf_mock_thread_on_exit(umf_mock_thread_exit_fn fn) {
    for (unsigned i = 0; i < EXIT_HOOKS_MAX; i++) {
        umf_mock_thread_exit_fn seen = NULL;
        if (atomic_compare_exchange_strong_explicit(&exit_hooks[i], &seen, fn,
                                                    memory_order_acq_rel,
                                                    memory_order_acquire) ||
            seen == fn) {
            return true;
        }
    }
    return false;
}

int umf_mock_threads_setup(void) {
    return umf_mock_thread() != NULL ? 0 : -1;
}

void umf_mock_threads_teardown(void) {
    // After this no thread-exit hook runs into code about to be unmapped.
    umf_thread_state_fini(&states);
}

umf_mock_thread_t *umf_mock_thread_create(void) {
    umf_mock_thread_t *t = umf_thread_state_get(&states);
    if (t == NULL) {
        UMF_MOCK_LOG_ERROR("out of host memory for a thread's state");
        return NULL;
    }
    pthread_mutex_lock(&threads_lock);
    t->next = threads;
    if (threads != NULL) {
        threads->prev = t;
    }
    threads = t;
    pthread_mutex_unlock(&threads_lock);
    umf_mock_self = t;
    return t;
}

uint64_t umf_mock_thread_new_id(umf_mock_thread_t *t) {
    if (t->next_id == t->id_end) {
        t->next_id = atomic_fetch_add_explicit(&next_id_block, ID_BLOCK,
                                               memory_order_relaxed);
        t->id_end = t->next_id + ID_BLOCK;
    }
    return t->next_id++;
}

int64_t umf_mock_counter_sum(unsigned counter) {
    if (counter >= UMF_MOCK_COUNTERS) {
        return 0;
    }
    pthread_mutex_lock(&threads_lock);
    int64_t sum = retired[counter];
    for (umf_mock_thread_t *t = threads; t != NULL; t = t->next) {
        sum +=
            atomic_load_explicit(&t->counters[counter], memory_order_relaxed);
    }
    pthread_mutex_unlock(&threads_lock);
    return sum;
}

uint64_t umf_mock_threads_quota(unsigned device) {
    uint64_t sum = 0;
    pthread_mutex_lock(&threads_lock);
    for (umf_mock_thread_t *t = threads; t != NULL; t = t->next) {
        sum += atomic_load_explicit(&t->quota[device], memory_order_relaxed);
    }
    pthread_mutex_unlock(&threads_lock);
    return sum;
}

int64_t umf_mock_call_count(unsigned entry) {
    if (entry >= UMF_MOCK_MAX_ENTRIES) {
        return -1;
    }
    int64_t sum = umf_mock_counter_sum(entry);
    pthread_mutex_lock(&threads_lock);
    sum -= call_baseline[entry];
    pthread_mutex_unlock(&threads_lock);
    return sum;
}

void umf_mock_call_counts_reset(void) {
    int64_t sums[UMF_MOCK_MAX_ENTRIES];
    for (unsigned i = 0; i < UMF_MOCK_MAX_ENTRIES; i++) {
        sums[i] = umf_mock_counter_sum(i);
    }
    pthread_mutex_lock(&threads_lock);
    for (unsigned i = 0; i < UMF_MOCK_MAX_ENTRIES; i++) {
        call_baseline[i] = sums[i];
    }
    pthread_mutex_unlock(&threads_lock);
}
