// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Bookkeeping for provider allocations that are not one whole driver
// allocation: the pieces made by allocation_split / allocation_merge, and
// pointers handed out above the driver's base (over-aligned allocations).
//
// Part of the ownership module (ownership.h), which the providers use: they
// never call it directly.
//
// A "piece" is what the provider handed out and will get back in free: a
// start and a size inside one driver allocation. Each driver allocation with
// tracked pieces has a record that counts them; the driver allocation is
// released only when its last piece is freed, so pieces can be freed in any
// order.
//
// An allocation that was never split and is not over-aligned is not tracked
// here at all: it is a whole driver allocation, which the ownership table
// records. Nothing here is looked up until the first piece was ever
// recorded (umf_alloc_tracker_in_use(): one relaxed load). That is safe
// because a piece can only reach free after the split (or alloc) that made
// it, and the caller's hand-over of the pointer orders the flag's store
// before the load.
//
// Thread-safe without a global lock: pieces and records are spread over
// shards by address, each with its own mutex; a record has its own mutex for
// its list of pieces. Lock order: shards in ascending index, then a record.

#ifndef UMF_GPU_ALLOC_TRACKER_H
#define UMF_GPU_ALLOC_TRACKER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

typedef struct umf_alloc_tracker_shard_t umf_alloc_tracker_shard_t;

typedef struct umf_alloc_tracker_t {
    int in_use; // set before the first piece is recorded, never cleared
    umf_alloc_tracker_shard_t *shards;
} umf_alloc_tracker_t;

// A tracked piece and the driver allocation it belongs to.
typedef struct umf_alloc_piece_info_t {
    void *ptr;
    size_t size;
    uintptr_t driver_base;
    size_t driver_size;
} umf_alloc_piece_info_t;

umf_result_t umf_alloc_tracker_init(umf_alloc_tracker_t *t);

// Forgets every piece; the driver allocations are the caller's.
void umf_alloc_tracker_fini(umf_alloc_tracker_t *t);

// True once any piece was recorded; until then every pointer is untracked.
static inline bool umf_alloc_tracker_in_use(const umf_alloc_tracker_t *t) {
    return __atomic_load_n(&t->in_use, __ATOMIC_RELAXED) != 0;
}

// Records [ptr, ptr + size) as the only piece of the driver allocation
// [driver_base, driver_base + driver_size): an over-aligned allocation, or a
// last piece put back after its driver free failed.
// UMF_RESULT_ERROR_INVALID_ARGUMENT if the piece lies outside the driver
// allocation or the driver allocation already has pieces;
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
umf_result_t umf_alloc_tracker_add(umf_alloc_tracker_t *t, void *ptr,
                                   size_t size, uintptr_t driver_base,
                                   size_t driver_size);

// Whether a split of [ptr, ptr + total_size) at first_size is in range: ptr
// not NULL, 0 < first_size < total_size, no wrap; logged (as `who`) if not.
bool umf_alloc_split_sizes_ok(const char *who, const void *ptr,
                              size_t total_size, size_t first_size);

// Cuts the tracked piece [ptr, ptr + total_size) at first_size. *tracked
// tells whether ptr is a tracked piece; if not, nothing changes and the
// result is UMF_RESULT_ERROR_INVALID_ARGUMENT, unlogged (the caller knows
// what else it may be). UMF_RESULT_ERROR_INVALID_ARGUMENT (logged) for a
// size out of range or a piece of another size;
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY. Nothing changes on failure.
umf_result_t umf_alloc_tracker_split(umf_alloc_tracker_t *t, void *ptr,
                                     size_t total_size, size_t first_size,
                                     bool *tracked);

// Records the whole driver allocation [ptr, ptr + total_size), which has
// no pieces yet, as two pieces cut at first_size.
// UMF_RESULT_ERROR_INVALID_ARGUMENT if it has pieces already or a size is
// out of range; UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
umf_result_t umf_alloc_tracker_split_whole(umf_alloc_tracker_t *t, void *ptr,
                                           size_t total_size,
                                           size_t first_size);

// Joins the adjacent pieces at low and high (low + its size == high) of one
// driver allocation into one piece of total_size bytes at low.
// UMF_RESULT_ERROR_INVALID_ARGUMENT if either is not a tracked piece, they
// belong to different driver allocations, are not adjacent, or total_size is
// not the sum of their sizes. Nothing changes on failure.
umf_result_t umf_alloc_tracker_merge(umf_alloc_tracker_t *t, void *low,
                                     void *high, size_t total_size);

// Forgets the piece at ptr for a free. *found is false (and nothing changes)
// for an untracked pointer: the caller frees it as a whole driver allocation.
// Otherwise *info describes the piece and *release is true if it was the
// last piece of its driver allocation, which the caller then frees (and, if
// that fails, puts back with umf_alloc_tracker_add).
// UMF_RESULT_ERROR_INVALID_ARGUMENT if size is neither 0 nor the piece's.
umf_result_t umf_alloc_tracker_remove(umf_alloc_tracker_t *t, void *ptr,
                                      size_t size, bool *found, bool *release,
                                      umf_alloc_piece_info_t *info);

// Finds the tracked piece holding ptr in the driver allocation that starts at
// driver_base (which the caller learnt from the driver). false if that driver
// allocation has no tracked pieces (it is one untracked piece) or none of
// them holds ptr.
bool umf_alloc_tracker_find(umf_alloc_tracker_t *t, uintptr_t driver_base,
                            const void *ptr, umf_alloc_piece_info_t *info);

// True if the driver allocation that starts at driver_base has tracked
// pieces: then only they are memory handed out, and an address of it that
// no piece holds (freed, or slack of an over-aligned allocation) is not.
bool umf_alloc_tracker_tracks(umf_alloc_tracker_t *t, uintptr_t driver_base);

#endif // UMF_GPU_ALLOC_TRACKER_H
