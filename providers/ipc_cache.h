// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The consumer-side cache of opened IPC handles, one per provider kind for
// the whole process, so that every provider of a kind on one driver context
// shares a mapping (the CUDA driver allows one open of an allocation per
// context and process).
//
// An entry is keyed by the consumer's driver context and everything that
// tells two exports apart: the producer (pid, instance id, start time), the
// allocation (id, base and size in the producer) and the identity of the
// file behind the handle's fd. A hit therefore serves only a mapping made
// from the same export: when a producer frees an allocation and reuses its
// address, the new allocation has a new id; a record that claims another
// size is another key, mapped and checked on its own. A hit returns the
// same mapping and counts a reference; the last close releases the mapping
// through the provider's unmap callback. Close finds the entry from the
// exact pointer open returned (the mapping's base plus the offset asked
// for).
//
// Bounds: the map callback reports the range the driver actually mapped
// (asked of the driver, never taken from the IPC data), and a miss whose
// mapping is smaller than the key's size is undone and refused; so the
// pointer handed out and [base, base + size) always lie inside the mapping,
// on a miss and on every later hit.
//
// Opens in the producing process itself go through the cache too ("local"
// entries), with a map callback that returns the producer's own memory and
// an unmap callback that releases nothing: close then needs no special
// case. The caller validates such an open against the driver every time
// (the allocation may have been freed since), so a local hit never serves a
// freed allocation. Since a freed allocation's address can be handed out
// again, a local entry may share its pointer with another entry; close then
// drops a local entry's open first, which unmaps nothing.
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
    const void *context;   // the consumer's driver context
    uint64_t producer_pid; // the producer ...
    uint64_t instance_id;  // ... its umf_ipc_instance_id()
    uint64_t start_time;   // ... its start time (0: unknown)
    uint64_t pidfs_ino;    // ... and its pidfd's inode (0: unknown)
    uint64_t alloc_id;     // the driver's id of the producer's allocation
    uint64_t base;         // the allocation's base address in the producer
    uint64_t size;         // its size, as the IPC data claims it
    uint64_t fd_dev;       // identity of the file behind the handle's fd
    uint64_t fd_ino;       // (0, 0 without one)
} umf_ipc_cache_key_t;

// What a provider's map callback made, handed back to its unmap callback.
typedef struct umf_ipc_cache_mapping_t {
    void *base;      // start of the whole allocation in this process
    size_t size;     // bytes the driver mapped there, as the driver says
    uint64_t cookie; // anything the provider needs to unmap it
} umf_ipc_cache_mapping_t;

// Maps the allocation (a miss). Called without the cache's lock. Fills
// mapping->base (not NULL), mapping->size (what the driver reports it
// mapped at base) and, if it wants, mapping->cookie.
typedef umf_result_t (*umf_ipc_cache_map_fn)(void *arg,
                                             umf_ipc_cache_mapping_t *mapping);

// Releases a mapping (the last close, or a miss that is refused after the
// map). Called without the cache's lock; it must not depend on the provider
// that opened the mapping, which may be gone by then: everything it needs is
// in the key (the context) and the mapping. On failure at a close the entry
// stays open with one reference, so the close can be retried.
typedef umf_result_t (*umf_ipc_cache_unmap_fn)(
    const umf_ipc_cache_key_t *key, const umf_ipc_cache_mapping_t *mapping);

// Opens `key` in the cache of `kind`: a hit takes a reference on the existing
// mapping, a miss calls map(map_arg, ...), checks that the mapping holds
// key->size bytes, and stores it along with `unmap`. *ptr gets mapping base
// + `offset` (offset < key->size), which is what umf_ipc_cache_close()
// takes. `local`: the producer's own memory (see above). *hit (may be NULL)
// tells which happened.
// Results: the map callback's error on a miss;
// UMF_RESULT_ERROR_INVALID_ARGUMENT for bad arguments, for a mapping smaller
// than key->size, or for a remote mapping at a pointer that another
// export's open already returned on this context (the driver aliased two
// exports); UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
umf_result_t umf_ipc_cache_open(umf_gpu_provider_kind_t kind,
                                const umf_ipc_cache_key_t *key, size_t offset,
                                bool local, umf_ipc_cache_map_fn map,
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
