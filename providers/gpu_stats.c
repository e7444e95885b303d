// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "gpu_stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util_umf_log.h"

// The only thread-local state of the counters. initial-exec: the hot path
// reads it with one instruction, and 4 bytes fit the static TLS surplus that
// a dlopen()ed library may use.
_Thread_local unsigned umf_gpu_stats_slot
    __attribute__((tls_model("initial-exec")));

#define OVERFLOW_SLOT (UMF_GPU_STATS_SLOTS + 1)

_Static_assert(UMF_GPU_STATS_SLOTS == 64, "the slot pool is one 64-bit mask");

// Bit i set: slot i is taken by a live thread.
static uint64_t slots_taken;
static pthread_key_t slot_key;
static bool slot_key_made;
static umf_once_t slot_once = UMF_ONCE_INIT;

static void give_back_slot(void *value) {
    unsigned slot = (unsigned)(uintptr_t)value;
    umf_gpu_stats_slot = 0;
    if (slot >= 1 && slot <= UMF_GPU_STATS_SLOTS) {
        __atomic_fetch_and(&slots_taken, ~(1ull << (slot - 1)),
                           __ATOMIC_RELEASE);
    }
}

// In the child of a fork only the forking thread lives on: the other
// threads' slots are free again.
static void reset_slots_in_child(void) {
    unsigned slot = umf_gpu_stats_slot;
    uint64_t mine =
        slot >= 1 && slot <= UMF_GPU_STATS_SLOTS ? 1ull << (slot - 1) : 0;
    __atomic_store_n(&slots_taken, mine, __ATOMIC_RELAXED);
}

static void make_slot_key(void) {
    if (pthread_key_create(&slot_key, give_back_slot) != 0) {
        UMF_LOG_WARN("pthread_key_create failed: threads keep their stats "
                     "slots when they exit");
        return;
    }
    slot_key_made = true;
    (void)pthread_atfork(NULL, NULL, reset_slots_in_child);
}

// If the library is unloaded, exiting threads must not call back into it.
__attribute__((destructor)) static void delete_slot_key(void) {
    if (slot_key_made) {
        pthread_key_delete(slot_key);
        slot_key_made = false;
    }
}

unsigned umf_gpu_stats_take_slot(void) {
    umf_once(&slot_once, make_slot_key);
    uint64_t taken = __atomic_load_n(&slots_taken, __ATOMIC_RELAXED);
    unsigned slot = OVERFLOW_SLOT;
    while (~taken != 0) {
        unsigned bit = (unsigned)__builtin_ctzll(~taken);
        // Acquire: the previous owner's last stores to the shards happen
        // before ours.
        if (__atomic_compare_exchange_n(&slots_taken, &taken,
                                        taken | (1ull << bit), false,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            slot = bit + 1;
            break;
        }
    }
    if (slot != OVERFLOW_SLOT && slot_key_made &&
        pthread_setspecific(slot_key, (void *)(uintptr_t)slot) != 0) {
        // Without the destructor the slot would never come back: use the
        // shared shard instead.
        give_back_slot((void *)(uintptr_t)slot);
        slot = OVERFLOW_SLOT;
    }
    umf_gpu_stats_slot = slot;
    return slot;
}

umf_result_t umf_gpu_stats_init(umf_gpu_stats_t *stats) {
    size_t bytes = sizeof(umf_gpu_stats_shard_t) * (UMF_GPU_STATS_SLOTS + 1);
    stats->shards = aligned_alloc(64, bytes);
    if (stats->shards == NULL) {
        UMF_LOG_ERROR("provider statistics: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    memset(stats->shards, 0, bytes);
    stats->global.flushed_bytes = 0;
    stats->global.peak_bytes = 0;
    return UMF_RESULT_SUCCESS;
}

void umf_gpu_stats_fini(umf_gpu_stats_t *stats) {
    free(stats->shards);
    stats->shards = NULL;
}

static void raise_peak(umf_gpu_stats_t *stats, int64_t candidate) {
    int64_t peak = __atomic_load_n(&stats->global.peak_bytes, __ATOMIC_RELAXED);
    while (candidate > peak && !__atomic_compare_exchange_n(
                                   &stats->global.peak_bytes, &peak, candidate,
                                   true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

void umf_gpu_stats_flush(umf_gpu_stats_t *stats, umf_gpu_stats_shard_t *sh) {
    int64_t delta = UMF_GPU_STATS_LOAD_(&sh->delta_bytes);
    int64_t hwm = UMF_GPU_STATS_LOAD_(&sh->delta_hwm);
    UMF_GPU_STATS_STORE_(&sh->delta_bytes, 0);
    UMF_GPU_STATS_STORE_(&sh->delta_hwm, 0);
    int64_t before = __atomic_fetch_add(&stats->global.flushed_bytes, delta,
                                        __ATOMIC_RELAXED);
    raise_peak(stats, before + hwm);
}

void umf_gpu_stats_count_shared(umf_gpu_stats_t *stats, int64_t bytes,
                                size_t field_offset, int64_t delta) {
    umf_gpu_stats_shard_t *sh = &stats->shards[UMF_GPU_STATS_SLOTS];
    int64_t *field = (int64_t *)((char *)sh + field_offset);
    __atomic_fetch_add(field, delta, __ATOMIC_RELAXED);
    if (bytes != 0) {
        int64_t after = __atomic_add_fetch(&stats->global.flushed_bytes, bytes,
                                           __ATOMIC_RELAXED);
        raise_peak(stats, after);
    }
}

void umf_gpu_stats_reset_peak(umf_gpu_stats_t *stats) {
    int64_t current =
        __atomic_load_n(&stats->global.flushed_bytes, __ATOMIC_RELAXED);
    for (unsigned i = 0; i <= UMF_GPU_STATS_SLOTS; i++) {
        umf_gpu_stats_shard_t *sh = &stats->shards[i];
        int64_t delta = UMF_GPU_STATS_LOAD_(&sh->delta_bytes);
        // A shard's owner raises its mark with a plain store; one racing
        // with this store is a count during the reset (see the header).
        UMF_GPU_STATS_STORE_(&sh->delta_hwm, delta);
        current += delta;
    }
    __atomic_store_n(&stats->global.peak_bytes, current > 0 ? current : 0,
                     __ATOMIC_RELAXED);
}

static uint64_t clamp(int64_t v) {
    return v > 0 ? (uint64_t)v : 0;
}

void umf_gpu_stats_read(const umf_gpu_stats_t *stats,
                        umf_gpu_provider_stats_t *out) {
    int64_t flushed =
        __atomic_load_n(&stats->global.flushed_bytes, __ATOMIC_RELAXED);
    int64_t peak = __atomic_load_n(&stats->global.peak_bytes, __ATOMIC_RELAXED);
    int64_t deltas = 0, fall = 0, exported = 0, open = 0;
    uint64_t allocs = 0, frees = 0, hits = 0, misses = 0;
    for (unsigned i = 0; i <= UMF_GPU_STATS_SLOTS; i++) {
        const umf_gpu_stats_shard_t *sh = &stats->shards[i];
        int64_t delta = UMF_GPU_STATS_LOAD_(&sh->delta_bytes);
        int64_t f = UMF_GPU_STATS_LOAD_(&sh->delta_hwm) - delta;
        deltas += delta;
        fall = f > fall ? f : fall;
        allocs += UMF_GPU_STATS_LOAD_(&sh->alloc_count);
        frees += UMF_GPU_STATS_LOAD_(&sh->free_count);
        exported += UMF_GPU_STATS_LOAD_(&sh->ipc_exported);
        open += UMF_GPU_STATS_LOAD_(&sh->ipc_open);
        hits += UMF_GPU_STATS_LOAD_(&sh->cache_hits);
        misses += UMF_GPU_STATS_LOAD_(&sh->cache_misses);
    }
    int64_t current = flushed + deltas;
    // The total when a shard was at its high water mark, the others as now.
    if (current + fall > peak) {
        peak = current + fall;
    }
    out->allocated_bytes = clamp(current);
    out->peak_bytes = clamp(peak);
    out->alloc_count = allocs;
    out->free_count = frees;
    out->ipc_handles_exported = clamp(exported);
    out->ipc_handles_open = clamp(open);
    out->ipc_cache_hits = hits;
    out->ipc_cache_misses = misses;
}
