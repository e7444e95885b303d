// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A small open-addressing hash map from 64-bit keys to non-NULL pointers,
// for the providers' bookkeeping (split pieces, opened IPC handles). It takes
// no lock: its user serialises access (typically one map per lock shard).
//
// Linear probing with backward-shift deletion, so there are no tombstones and
// a lookup never scans more than the run of its bucket. The table grows at
// 3/4 load and never shrinks.

#ifndef UMF_GPU_UTIL_HASH_MAP_H
#define UMF_GPU_UTIL_HASH_MAP_H 1

#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

typedef struct umf_hash_map_slot_t {
    uint64_t key;
    void *value; // NULL marks an empty slot
} umf_hash_map_slot_t;

typedef struct umf_hash_map_t {
    umf_hash_map_slot_t *slots; // NULL until the first insertion
    size_t mask;                // capacity - 1 (capacity is a power of two)
    size_t count;
} umf_hash_map_t;

// A map that holds nothing and owns no memory.
#define UMF_HASH_MAP_INIT                                                      \
    { NULL, 0, 0 }

// Mixes a key into a well-distributed hash (also useful for choosing shards):
// pointers and sequential ids differ mostly in low bits.
static inline uint64_t umf_hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

// The value stored under `key`, or NULL.
void *umf_hash_map_get(const umf_hash_map_t *map, uint64_t key);

// Stores `value` (not NULL) under `key`, replacing any value there.
// UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL value,
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY if the table could not grow (the map
// is unchanged then).
umf_result_t umf_hash_map_put(umf_hash_map_t *map, uint64_t key, void *value);

// Stores `value` (not NULL) under `key` unless `key` is already stored: one
// probe, for maps whose keys must be unique. UMF_RESULT_ERROR_INVALID_ARGUMENT
// for a NULL value or a key already stored (the map is unchanged then),
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY if the table could not grow.
umf_result_t umf_hash_map_put_new(umf_hash_map_t *map, uint64_t key,
                                  void *value);

// Makes sure `extra` more keys fit without growing, so that a later put of
// that many new keys cannot fail. UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY if not.
umf_result_t umf_hash_map_reserve(umf_hash_map_t *map, size_t extra);

// Removes `key` and returns its value, or NULL if it was absent.
void *umf_hash_map_remove(umf_hash_map_t *map, uint64_t key);

// Number of keys stored.
static inline size_t umf_hash_map_count(const umf_hash_map_t *map) {
    return map->count;
}

// Calls fn(key, value, arg) for every entry, in no particular order. The map
// must not change during the walk.
void umf_hash_map_foreach(const umf_hash_map_t *map,
                          void (*fn)(uint64_t key, void *value, void *arg),
                          void *arg);

// Frees the table; the values are the caller's. The map is empty afterwards
// and may be used again.
void umf_hash_map_clear(umf_hash_map_t *map);

#endif // UMF_GPU_UTIL_HASH_MAP_H
