// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A provider's live driver allocations (base -> size), for what needs to
// know all of them or to tell whether an address is one of them: making
// every live allocation resident on a device added later, evicting them, and
// refusing pointers the provider did not allocate.
//
// It is on the alloc/free path, so it is built for that: entries are spread
// over shards by address, each shard has a spinlock (one atomic exchange to
// take, one store to release) and its own hash map (src/utils_hash_map.h,
// base -> size); an insert or remove touches one shard and allocates nothing
// but when a table grows.
//
// Operations over all entries take every shard's lock, in order, for their
// whole duration (umf_alloc_registry_lock_all), so they are atomic with
// respect to inserts and removes: state that such an operation changes
// (e.g. a list of resident devices) and that inserts read may be guarded by
// the registry itself: written with every lock held, read with one.

#ifndef UMF_GPU_ALLOC_REGISTRY_H
#define UMF_GPU_ALLOC_REGISTRY_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#include "utils_hash_map.h"

#define UMF_ALLOC_REGISTRY_SHARD_BITS 6
#define UMF_ALLOC_REGISTRY_SHARDS (1u << UMF_ALLOC_REGISTRY_SHARD_BITS)

typedef struct umf_alloc_registry_shard_t {
    int lock;
    umf_hash_map_t map; // base -> size, the size stored as the value
} __attribute__((aligned(64))) umf_alloc_registry_shard_t;

typedef struct umf_alloc_registry_t {
    umf_alloc_registry_shard_t *shards;
} umf_alloc_registry_t;

// Called under the lock of the shard that holds `base`, right after it was
// inserted; an error removes the entry again and is returned by insert.
typedef umf_result_t (*umf_alloc_registry_insert_fn)(void *arg, void *base,
                                                     size_t size);

// Called for each entry, with every shard locked. Returning an error stops
// the walk; the walk returns it.
typedef umf_result_t (*umf_alloc_registry_visit_fn)(void *arg, void *base,
                                                    size_t size);

umf_result_t umf_alloc_registry_init(umf_alloc_registry_t *reg);

// Forgets every entry (the allocations themselves are the caller's).
void umf_alloc_registry_fini(umf_alloc_registry_t *reg);

// Records base (not NULL) with size (not 0), then calls on_insert (may be
// NULL) under the shard's lock. UMF_RESULT_ERROR_INVALID_ARGUMENT if base is
// already recorded; UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY; or on_insert's
// error. Nothing is recorded on failure.
umf_result_t umf_alloc_registry_insert(umf_alloc_registry_t *reg, void *base,
                                       size_t size,
                                       umf_alloc_registry_insert_fn on_insert,
                                       void *arg);

// Forgets base; false (and nothing changes) if it was not recorded. *size
// (may be NULL) gets its size.
bool umf_alloc_registry_remove(umf_alloc_registry_t *reg, void *base,
                               size_t *size);

// Whether base is recorded; *size (may be NULL) gets its size.
bool umf_alloc_registry_lookup(umf_alloc_registry_t *reg, const void *base,
                               size_t *size);

// Takes or releases every shard's lock (in ascending order / in reverse).
void umf_alloc_registry_lock_all(umf_alloc_registry_t *reg);
void umf_alloc_registry_unlock_all(umf_alloc_registry_t *reg);

// Visits the entries in a fixed order, with every lock already held by the
// caller: two walks between one lock_all and its unlock_all see the same
// entries in the same order. *visited (may be NULL) gets the number of
// entries for which visit returned success; `limit` stops the walk after that
// many entries (SIZE_MAX for all).
umf_result_t umf_alloc_registry_walk_locked(umf_alloc_registry_t *reg,
                                            umf_alloc_registry_visit_fn visit,
                                            void *arg, size_t limit,
                                            size_t *visited);

// Number of entries (takes every lock).
size_t umf_alloc_registry_count(umf_alloc_registry_t *reg);

#endif // UMF_GPU_ALLOC_REGISTRY_H
