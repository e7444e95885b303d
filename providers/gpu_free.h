// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The bookkeeping of a GPU provider's free around its driver call, the same
// in every provider: the allocation tracker tells what the driver frees
// (nothing to look up until a piece was ever recorded: one relaxed load),
// and the stats count the bytes. Inline, because it is on the free path.
//
//   umf_gpu_free_t f;
//   umf_result_t ret = umf_gpu_free_begin(&p->tracker, &p->stats, ptr, size,
//                                         &f);
//   if (ret != UMF_RESULT_SUCCESS || f.driver_base == NULL) {
//       return ret; // an error, or a piece whose driver allocation lives on
//   }
//   ... free f.driver_base at the driver; freed = whether it did ...
//   umf_gpu_free_end(&p->tracker, &p->stats, &f, freed);

#ifndef UMF_GPU_GPU_FREE_H
#define UMF_GPU_GPU_FREE_H 1

#include <stdbool.h>
#include <stddef.h>

#include <umf/base.h>

#include "alloc_tracker.h"
#include "gpu_stats.h"
#include "log.h"
#include "utils_common.h"

typedef struct umf_gpu_free_t {
    // The driver allocation to free, or NULL when the free is complete
    // already (a piece of a driver allocation that other pieces keep).
    void *driver_base;
    size_t size;  // the bytes the free counts
    bool tracked; // ptr was a tracked piece, described by `piece`
    umf_alloc_piece_info_t piece;
} umf_gpu_free_t;

// Forgets ptr in the tracker if it is a tracked piece and fills *f. An
// untracked ptr is a whole driver allocation: f->driver_base = ptr.
// UMF_RESULT_ERROR_INVALID_ARGUMENT for a tracked piece of another size
// than `size` (0 matches any), and for the base of a driver allocation
// whose remaining pieces start elsewhere (its first piece, freed already).
static inline umf_result_t umf_gpu_free_begin(umf_alloc_tracker_t *tracker,
                                              umf_gpu_stats_t *stats, void *ptr,
                                              size_t size, umf_gpu_free_t *f) {
    f->driver_base = ptr;
    f->size = size;
    f->tracked = false;
    if (UMF_LIKELY(!umf_alloc_tracker_in_use(tracker))) {
        return UMF_RESULT_SUCCESS;
    }
    bool release = false;
    umf_result_t ret = umf_alloc_tracker_remove(tracker, ptr, size, &f->tracked,
                                                &release, &f->piece);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (!f->tracked) {
        // A driver allocation with tracked pieces goes with its last piece,
        // never as a whole: its base, when no piece starts there, is a piece
        // freed already (freeing it again must not free the others).
        if (UMF_UNLIKELY(umf_alloc_tracker_tracks(tracker, (uintptr_t)ptr))) {
            UMF_LOG_ERROR("free: %p is a piece freed already; other pieces "
                          "of its allocation are still in use",
                          ptr);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
        return UMF_RESULT_SUCCESS;
    }
    f->size = f->piece.size;
    if (!release) {
        umf_gpu_stats_on_free(stats, f->size);
        f->driver_base = NULL;
        return UMF_RESULT_SUCCESS;
    }
    f->driver_base = (void *)f->piece.driver_base;
    return UMF_RESULT_SUCCESS;
}

// After the driver call: counts the free if the driver freed; otherwise a
// tracked piece goes back into the tracker, so that the free can be retried.
static inline void umf_gpu_free_end(umf_alloc_tracker_t *tracker,
                                    umf_gpu_stats_t *stats,
                                    const umf_gpu_free_t *f, bool freed) {
    if (UMF_LIKELY(freed)) {
        umf_gpu_stats_on_free(stats, f->size);
    } else if (f->tracked) {
        (void)umf_alloc_tracker_add(tracker, f->piece.ptr, f->piece.size,
                                    f->piece.driver_base, f->piece.driver_size);
    }
}

#endif // UMF_GPU_GPU_FREE_H
