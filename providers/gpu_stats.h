// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The counters behind umfGpuMemoryProviderGetStats, kept so that counting
// puts no shared cache line and no lock on the alloc/free path.
//
// Each provider has one shard of counters per thread slot, each on its own
// cache line. A thread takes a slot from a process-wide pool of
// UMF_GPU_STATS_SLOTS at its first count and gives it back when it exits, so
// while it lives it is the only writer of its shard in every provider: it
// updates it with relaxed atomic loads and stores (plain moves on x86, no
// lock prefix). Threads beyond the pool share one overflow shard and update
// it with atomic read-modify-writes. A read sums the shards.
//
// Bytes: each shard keeps the bytes allocated minus freed since it last
// flushed (its delta) and the highest that delta reached since (its high
// water mark). When the delta reaches +-UMF_GPU_STATS_FLUSH_BYTES, the
// thread adds it to the provider's flushed total with one atomic add and
// raises the provider's peak to (total before the add + high water mark).
// What a read reports:
//   allocated_bytes = flushed total + the sum of all deltas, exact whenever
//     no count runs concurrently with the read.
//   peak_bytes = max(peak, allocated_bytes + the most any shard's delta
//     fell since its high water mark). Exact while one thread allocates and
//     frees through the provider; also while one thread at a time does,
//     except that a flush raises the peak without the deltas that threads
//     before it left in their shards. With n threads counting concurrently,
//     it can be off the true peak by less than (n + 1) *
//     UMF_GPU_STATS_FLUSH_BYTES in either direction: the deltas other
//     threads have not flushed are not seen when one thread flushes (too
//     low), and a shard's fall is added to a total that other threads may
//     have changed since (too high).
// A reset of the peak (umf_gpu_stats_reset_peak) makes it allocated_bytes:
//   the peak and every shard's high water mark are set to what they hold
//   now. Exact while no count runs; a count racing with it is within the
//   same bound.
//   The event counts are exact sums; a read racing with counts sees each at
//   some recent value (and the net IPC counts never below 0).

#ifndef UMF_GPU_STATS_H
#define UMF_GPU_STATS_H 1

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>
#include <umf/memory_provider_gpu.h>

#include "util_common.h"

// Threads that get a shard of their own; further threads share one.
#define UMF_GPU_STATS_SLOTS 64
// Unflushed bytes a thread may hold before it updates the shared total.
#define UMF_GPU_STATS_FLUSH_BYTES ((int64_t)1 << 20)

typedef struct umf_gpu_stats_shard_t {
    int64_t delta_bytes; // allocated minus freed since the last flush
    int64_t delta_hwm;   // highest delta_bytes since the last flush
    uint64_t alloc_count;
    uint64_t free_count;
    int64_t ipc_exported; // gets minus puts
    int64_t ipc_open;     // opens minus closes
    uint64_t cache_hits;
    uint64_t cache_misses;
} __attribute__((aligned(64))) umf_gpu_stats_shard_t;

static_assert(sizeof(umf_gpu_stats_shard_t) == 64, "one cache line a shard");

typedef struct umf_gpu_stats_t {
    // UMF_GPU_STATS_SLOTS owned shards, then the shared overflow shard.
    umf_gpu_stats_shard_t *shards;
    // Written at flushes only, away from everything else of the provider.
    struct {
        int64_t flushed_bytes;
        int64_t peak_bytes;
    } __attribute__((aligned(64))) global;
} umf_gpu_stats_t;

// The calling thread's slot + 1 (0: none taken yet). Defined in gpu_stats.c,
// the one place of this thread-local state.
#ifdef __cplusplus
extern thread_local unsigned umf_gpu_stats_slot
    __attribute__((tls_model("initial-exec")));
#else
extern _Thread_local unsigned umf_gpu_stats_slot
    __attribute__((tls_model("initial-exec")));
#endif

umf_result_t umf_gpu_stats_init(umf_gpu_stats_t *stats);
void umf_gpu_stats_fini(umf_gpu_stats_t *stats);

// Takes a slot for the calling thread (the overflow one if the pool is
// empty) and returns slot + 1.
unsigned umf_gpu_stats_take_slot(void);

// Slow paths: a flush, and counting into the shared overflow shard.
void umf_gpu_stats_flush(umf_gpu_stats_t *stats, umf_gpu_stats_shard_t *shard);
void umf_gpu_stats_count_shared(umf_gpu_stats_t *stats, int64_t bytes,
                                size_t field_offset, int64_t delta);

// Sums the shards.
void umf_gpu_stats_read(const umf_gpu_stats_t *stats,
                        umf_gpu_provider_stats_t *out);

// The peak from now on is the bytes allocated now (UMF's
// stats.peak_memory.reset).
void umf_gpu_stats_reset_peak(umf_gpu_stats_t *stats);

#define UMF_GPU_STATS_LOAD_(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define UMF_GPU_STATS_STORE_(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

// The calling thread's own shard, or NULL if it must use the overflow one.
static inline umf_gpu_stats_shard_t *
umf_gpu_stats_own_shard(umf_gpu_stats_t *stats) {
    unsigned slot = umf_gpu_stats_slot;
    // One compare for both: no slot taken yet (0), or the overflow one.
    if (UMF_UNLIKELY(slot - 1u >= UMF_GPU_STATS_SLOTS)) {
        slot = slot == 0 ? umf_gpu_stats_take_slot() : slot;
        if (slot > UMF_GPU_STATS_SLOTS) {
            return NULL;
        }
    }
    return &stats->shards[slot - 1];
}

// Adds `delta` to the event counter at `field_offset` of the thread's shard.
static inline void umf_gpu_stats_count_event(umf_gpu_stats_t *stats,
                                             size_t field_offset,
                                             int64_t delta) {
    umf_gpu_stats_shard_t *sh = umf_gpu_stats_own_shard(stats);
    if (UMF_UNLIKELY(sh == NULL)) {
        umf_gpu_stats_count_shared(stats, 0, field_offset, delta);
        return;
    }
    int64_t *field = (int64_t *)((char *)sh + field_offset);
    UMF_GPU_STATS_STORE_(field, UMF_GPU_STATS_LOAD_(field) + delta);
}

// Counts one allocation (is_alloc) or one free of `size` bytes.
static inline void umf_gpu_stats_count_bytes(umf_gpu_stats_t *stats,
                                             bool is_alloc, size_t size) {
    int64_t bytes = is_alloc ? (int64_t)size : -(int64_t)size;
    size_t counter = is_alloc ? offsetof(umf_gpu_stats_shard_t, alloc_count)
                              : offsetof(umf_gpu_stats_shard_t, free_count);
    umf_gpu_stats_shard_t *sh = umf_gpu_stats_own_shard(stats);
    if (UMF_UNLIKELY(sh == NULL)) {
        umf_gpu_stats_count_shared(stats, bytes, counter, 1);
        return;
    }
    uint64_t *count = (uint64_t *)((char *)sh + counter);
    UMF_GPU_STATS_STORE_(count, UMF_GPU_STATS_LOAD_(count) + 1);
    int64_t delta = UMF_GPU_STATS_LOAD_(&sh->delta_bytes) + bytes;
    UMF_GPU_STATS_STORE_(&sh->delta_bytes, delta);
    // A free lowers the delta: only an allocation can raise the mark.
    if (is_alloc && delta > UMF_GPU_STATS_LOAD_(&sh->delta_hwm)) {
        UMF_GPU_STATS_STORE_(&sh->delta_hwm, delta);
    }
    // |delta| >= UMF_GPU_STATS_FLUSH_BYTES, in one unsigned compare.
    if (UMF_UNLIKELY((uint64_t)delta + (UMF_GPU_STATS_FLUSH_BYTES - 1) >=
                     2 * (uint64_t)UMF_GPU_STATS_FLUSH_BYTES - 1)) {
        umf_gpu_stats_flush(stats, sh);
    }
}

static inline void umf_gpu_stats_on_alloc(umf_gpu_stats_t *stats, size_t size) {
    umf_gpu_stats_count_bytes(stats, true, size);
}

static inline void umf_gpu_stats_on_free(umf_gpu_stats_t *stats, size_t size) {
    umf_gpu_stats_count_bytes(stats, false, size);
}

#define UMF_GPU_STATS_EVENT(stats, field, delta)                               \
    umf_gpu_stats_count_event((stats), offsetof(umf_gpu_stats_shard_t, field), \
                              (delta))

#endif // UMF_GPU_STATS_H
