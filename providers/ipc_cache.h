// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The consumer-side cache of opened IPC handles, one per provider kind for
// the whole process, so that every provider of a kind on one driver context
// shares a mapping (the CUDA driver allows one open of an allocation per
// context and process).
//
// An entry is keyed by (driver context, producer instance id, allocation id):
// when a producer frees an allocation and reuses its address, the new
// allocation has a new id, so an old mapping is never served for it. A hit
// returns the same mapping and counts a reference; the last close releases
// the mapping through the provider's unmap callback. Close finds the entry
// from the exact pointer open returned (the mapping's base plus the offset
// asked for).
//
// Opens in the producing process itself go through the cache too, with a map
// callback that returns the producer's own memory and an unmap callback that
// releases nothing: close then needs no special case.
//
// Thread-safe. The hit path is one lock, a hash lookup and a reference
// count; the driver is called without the lock held, and opens of an entry
// being mapped or unmapped by another thread wait for that to finish, so a
// key is never mapped twice at once.

#ifndef UMF_GPU_IPC_CACHE_H
#define UMF_GPU_IPC_CACHE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#include "provider_kind.h"

typedef struct umf_ipc_cache_key_t {
    const void *context;  // the consumer's driver context
    uint64_t instance_id; // the producer's umf_ipc_instance_id()
    uint64_t alloc_id;    // the driver's id of the producer's allocation
} umf_ipc_cache_key_t;

// What a provider's map callback made, handed back to its unmap callback.
typedef struct umf_ipc_cache_mapping_t {
    void *base;      // start of the whole allocation in this process
    size_t size;     // its size
    uint64_t cookie; // anything the provider needs to unmap it
} umf_ipc_cache_mapping_t;

// Maps the allocation (a miss). Called without the cache's lock. Fills
// mapping->base (not NULL) and, if it wants, mapping->cookie; mapping->size
// arrives set to the size passed to umf_ipc_cache_open().
typedef umf_result_t (*umf_ipc_cache_map_fn)(void *arg,
                                             umf_ipc_cache_mapping_t *mapping);

// Releases a mapping (the last close). Called without the cache's lock; it
// must not depend on the provider that opened the mapping, which may be gone
// by then: everything it needs is in the key (the context) and the mapping.
// On failure the entry stays open with one reference, so the close can be
// retried.
typedef umf_result_t (*umf_ipc_cache_unmap_fn)(
    const umf_ipc_cache_key_t *key, const umf_ipc_cache_mapping_t *mapping);

// Opens `key` in the cache of `kind`: a hit takes a reference on the existing
// mapping, a miss calls map(map_arg, ...) and stores what it made along with
// `unmap`. *ptr gets mapping base + `offset` (offset < size), which is what
// umf_ipc_cache_close() takes. *hit (may be NULL) tells which happened.
// Results: the map callback's error on a miss;
// UMF_RESULT_ERROR_INVALID_ARGUMENT for bad arguments;
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
umf_result_t umf_ipc_cache_open(umf_gpu_provider_kind_t kind,
                                const umf_ipc_cache_key_t *key, size_t size,
                                size_t offset, umf_ipc_cache_map_fn map,
                                void *map_arg, umf_ipc_cache_unmap_fn unmap,
                                void **ptr, bool *hit);

// Drops one reference taken by an open on `context` that returned `ptr`; the
// last one unmaps. UMF_RESULT_ERROR_INVALID_ARGUMENT if no open on that
// context returned `ptr` (or all were closed); else the unmap callback's
// result.
umf_result_t umf_ipc_cache_close(umf_gpu_provider_kind_t kind,
                                 const void *context, void *ptr);

// Number of entries (mappings, open or being opened or closed) in the cache
// of `kind`; for tests and diagnostics.
size_t umf_ipc_cache_entry_count(umf_gpu_provider_kind_t kind);

#endif // UMF_GPU_IPC_CACHE_H
