// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Per-thread state of the core, in one place: counters that only their
// thread writes (call counts and live-object deltas, summed when read, so
// that no cache line bounces between threads), the caches of free arena
// blocks and of allocation records, and a private range of allocation ids.
// A thread's state is made at its first call and folded back into the
// shared state when the thread exits.

#ifndef UMF_GPU_MOCK_THREAD_H
#define UMF_GPU_MOCK_THREAD_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "mock_config.h"
#include "mock_faults.h"
#include "util_thread.h"

// Counters after the call counts of the UMF_MOCK_MAX_ENTRIES entry points.
typedef enum umf_mock_stat_t {
    UMF_MOCK_STAT_ALLOCATIONS = 0,
    UMF_MOCK_STAT_IPC_HANDLES = 1,
    UMF_MOCK_STAT_IMPORTS = 2,
    UMF_MOCK_STAT_COUNT = 3,
} umf_mock_stat_t;

#define UMF_MOCK_COUNTERS (UMF_MOCK_MAX_ENTRIES + UMF_MOCK_STAT_COUNT)

struct umf_mock_arena_cache_t;
struct umf_mock_record_t;
struct umf_mock_failure_t;

typedef struct umf_mock_thread_t {
    _Atomic int64_t counters[UMF_MOCK_COUNTERS]; // written by the owner only
    // Device memory this thread reserved and has not used yet (owner
    // writes, others read; mock_memory.c).
    _Atomic uint64_t quota[UMF_MOCK_MAX_DEVICES];
    struct umf_mock_arena_cache_t *arena_cache[UMF_MOCK_MAX_DEVICES];
    struct umf_mock_record_t *free_records;
    unsigned free_record_count;
    uint64_t next_id, id_end; // ids [next_id, id_end) are this thread's
    // The driver call in progress (umf_mock_enter): its entry point, and
    // the number of calls so far; the last failure's description, made at
    // the first (mock_failure.h).
    unsigned call_entry;
    uint64_t call_seq;
    struct umf_mock_failure_t *failure;
    struct umf_mock_thread_t *prev, *next; // all threads' states
} umf_mock_thread_t;

extern _Thread_local umf_mock_thread_t *umf_mock_self UMF_TLS_HOT;

// Makes this thread's state; NULL when out of memory.
umf_mock_thread_t *umf_mock_thread_create(void);

// This thread's state; NULL only when it could not be made.
static inline umf_mock_thread_t *umf_mock_thread(void) {
    umf_mock_thread_t *t = umf_mock_self;
    return __builtin_expect(t != NULL, 1) ? t : umf_mock_thread_create();
}

static inline void umf_mock_thread_count(umf_mock_thread_t *t, unsigned counter,
                                         int64_t delta) {
    // Only this thread writes its counters: a plain load and store (atomic
    // for readers in other threads) is enough.
    int64_t v =
        atomic_load_explicit(&t->counters[counter], memory_order_relaxed);
    atomic_store_explicit(&t->counters[counter], v + delta,
                          memory_order_relaxed);
}

static inline void umf_mock_stat_add(umf_mock_thread_t *t, umf_mock_stat_t s,
                                     int64_t delta) {
    umf_mock_thread_count(t, UMF_MOCK_MAX_ENTRIES + (unsigned)s, delta);
}

// A new allocation id, unique in this process and never 0.
uint64_t umf_mock_thread_new_id(umf_mock_thread_t *t);

// The sum of counter `counter` over all threads, living and gone.
int64_t umf_mock_counter_sum(unsigned counter);

// The device memory the living threads reserved and did not use yet.
uint64_t umf_mock_threads_quota(unsigned device);

// Call counts are reported relative to the sums at the last reset.
int64_t umf_mock_call_count(unsigned entry);
void umf_mock_call_counts_reset(void);

// What a layer above gives back when a thread exits (its share of the
// device quota, its caches), called with the thread's state before the
// state is released.
typedef void (*umf_mock_thread_exit_fn)(umf_mock_thread_t *t);
// Adds `fn` to what runs at each thread's exit, after those added before it
// (adding it again changes nothing); false if the few slots are taken. So
// the thread layer calls no layer above it by name.
bool umf_mock_thread_on_exit(umf_mock_thread_exit_fn fn);

// Makes the calling thread's state, and with the first one the thread-exit
// hook; -1 if it cannot.
int umf_mock_threads_setup(void);
// Removes it (the driver is being unloaded).
void umf_mock_threads_teardown(void);

#endif // UMF_GPU_MOCK_THREAD_H
