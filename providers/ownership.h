// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a GPU provider handed out, and the one set of rules both providers
// apply to every pointer a caller gives back.
//
// The rules (the same in both providers; every refusal is
// UMF_RESULT_ERROR_INVALID_ARGUMENT, logged, and changes nothing):
// - free(ptr, size): ptr is the start of a live allocation or split piece of
//   this provider, and size is 0 or its recorded size: the size asked of
//   alloc, or what split/merge left. A second free, an interior pointer, a
//   pointer of another provider (even on the same context) or one the
//   driver made for someone else is refused.
// - split(ptr, total, first): ptr is a live allocation or piece of exactly
//   total bytes, and 0 < first < total.
// - merge(low, high, total): two live pieces of one driver allocation,
//   low + size(low) == high, total == size(low) + size(high).
// - get_ipc_handle and allocation properties: the address lies inside a live
//   allocation or piece of this provider (umf_ownership_find).
//
// The record has two parts:
// - the table of live driver allocations (ownership_table.h): base ->
//   size, on every alloc and free, built to cost a few ns at any scale;
// - the pieces (alloc_tracker.h): split pieces and allocations handed out
//   at an offset in their driver allocation (CUDA's over-aligned ones). A
//   driver allocation with pieces is marked in the table (UMF_OWN_EXT); it
//   is freed with its last piece. Nothing consults the pieces until one
//   was ever made.
//
// Residency (Level Zero resident devices): a provider that has any passes
// callbacks; see umf_ownership_residency_t and ownership_table.h for how a
// change visits every allocation while allocations and frees go on.

#ifndef UMF_GPU_OWNERSHIP_H
#define UMF_GPU_OWNERSHIP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#include "alloc_tracker.h"
#include "ownership_table.h"

// Makes the driver allocation [ptr, ptr + size) resident on every device
// of generation gen's list (the provider keeps a list per generation
// parity); on failure it undoes what it did and returns the error.
typedef umf_result_t (*umf_ownership_apply_fn)(void *arg, void *ptr,
                                               size_t size, uint64_t gen);

typedef struct umf_ownership_t {
    umf_own_table_t table;        // live driver allocations
    umf_alloc_tracker_t pieces;   // split pieces, offset allocations
    umf_ownership_apply_fn apply; // NULL: no residency
    void *apply_arg;
    const char *who; // for messages: "Level Zero provider 'name'"
} umf_ownership_t;

// `who` must outlive o; apply may be NULL.
umf_result_t umf_ownership_init(umf_ownership_t *o, const char *who,
                                umf_ownership_apply_fn apply, void *apply_arg);
// Forgets everything; the driver allocations are the caller's.
void umf_ownership_fini(umf_ownership_t *o);

// Live driver allocations.
size_t umf_ownership_count(umf_ownership_t *o);

// The slow path of umf_ownership_add: the new entry is held for residency.
umf_result_t umf_ownership_add_held(umf_ownership_t *o, void *ptr, size_t size,
                                    uint64_t gen);
// Logs why an insert failed and maps the result.
umf_result_t umf_ownership_add_failed(umf_ownership_t *o, void *ptr,
                                      umf_result_t ret);

// Records the driver allocation ptr, handed out whole with `size` bytes
// (what the caller asked for); with residency, makes it resident first.
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY; UMF_RESULT_ERROR_UNKNOWN if ptr is
// recorded already (the driver returned a live address); the residency's
// error. Nothing is recorded on failure: the caller frees the allocation.
static inline umf_result_t umf_ownership_add(umf_ownership_t *o, void *ptr,
                                             size_t size) {
    bool held;
    uint64_t gen;
    umf_result_t ret = umf_own_table_insert(&o->table, (uint64_t)(uintptr_t)ptr,
                                            size, 0, &held, &gen);
    if (UMF_UNLIKELY(ret != UMF_RESULT_SUCCESS)) {
        return umf_ownership_add_failed(o, ptr, ret);
    }
    if (UMF_UNLIKELY(held)) {
        return umf_ownership_add_held(o, ptr, size, gen);
    }
    return UMF_RESULT_SUCCESS;
}

// Records [ptr, ptr + size) handed out inside the driver allocation
// [base, base + driver_size) (an over-aligned allocation: ptr >= base).
// Errors as umf_ownership_add, and UMF_RESULT_ERROR_INVALID_ARGUMENT if the
// piece is not inside. No residency (CUDA only).
umf_result_t umf_ownership_add_offset(umf_ownership_t *o, void *ptr,
                                      size_t size, void *base,
                                      size_t driver_size);

// A free in progress: what to free at the driver, and what to count.
typedef struct umf_ownership_free_t {
    void *driver_base; // free this at the driver; NULL: nothing to free
    size_t size;       // the bytes the free counts (the recorded size)
    // Private: how to finish.
    uint64_t word, gen;
    bool freeing, piece;
    umf_alloc_piece_info_t info;
} umf_ownership_free_t;

// The slow path of umf_ownership_free_begin.
umf_result_t umf_ownership_free_slow(umf_ownership_t *o, void *ptr, size_t size,
                                     umf_own_take_t took,
                                     umf_ownership_free_t *f);

// Checks and takes ptr for a free (the rules above; size 0: the recorded
// size). On success f->driver_base is the driver allocation to free (or
// NULL when other pieces keep it), f->size the bytes to count, and the
// caller must call umf_ownership_free_end once the driver answered.
static inline umf_result_t umf_ownership_free_begin(umf_ownership_t *o,
                                                    void *ptr, size_t size,
                                                    umf_ownership_free_t *f) {
    umf_own_take_t took =
        umf_own_table_take(&o->table, (uint64_t)(uintptr_t)ptr, size, false,
                           &f->word, &f->freeing, &f->gen);
    if (UMF_LIKELY(took == UMF_OWN_TAKEN)) {
        f->driver_base = ptr;
        f->size = (size_t)umf_own_size(f->word);
        f->piece = false;
        return UMF_RESULT_SUCCESS;
    }
    return umf_ownership_free_slow(o, ptr, size, took, f);
}

// The slow path of umf_ownership_free_end.
void umf_ownership_free_end_slow(umf_ownership_t *o,
                                 const umf_ownership_free_t *f, bool freed);

// After the driver's free of f->driver_base: `freed` tells whether it
// freed. If not, everything is as before umf_ownership_free_begin.
static inline void umf_ownership_free_end(umf_ownership_t *o,
                                          const umf_ownership_free_t *f,
                                          bool freed) {
    if (UMF_LIKELY(freed && !f->freeing && !f->piece)) {
        return; // the entry went at the take
    }
    umf_ownership_free_end_slow(o, f, freed);
}

// allocation_split and allocation_merge, by the rules above.
umf_result_t umf_ownership_split(umf_ownership_t *o, void *ptr,
                                 size_t total_size, size_t first_size);
umf_result_t umf_ownership_merge(umf_ownership_t *o, void *low, void *high,
                                 size_t total_size);

// What the provider handed out that holds addr, in the driver allocation
// that starts at driver_base (the caller asked the driver): a piece, or the
// whole allocation with its recorded size. UMF_RESULT_ERROR_INVALID_ARGUMENT
// (logged) if the provider has no live allocation at driver_base, or addr is
// in none of what it handed out there (past the recorded size, a freed
// piece, the slack before an over-aligned one).
umf_result_t umf_ownership_find(umf_ownership_t *o, const void *driver_base,
                                const void *addr, umf_alloc_piece_info_t *out);

// Residency changes: begin a generation (the caller's list for the
// returned generation must be in place), visit what the generation does not
// cover yet (ownership_table.h, umf_own_table_walk), end it: `active` tells
// whether the new list has devices. The caller serialises changes.
uint64_t umf_ownership_residency_begin(umf_ownership_t *o);
umf_result_t umf_ownership_residency_walk(umf_ownership_t *o,
                                          umf_own_visit_fn visit, void *arg);
void umf_ownership_residency_end(umf_ownership_t *o, bool active);

#endif // UMF_GPU_OWNERSHIP_H
