// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ownership.h"

#include "gpu_log.h"
#include "util_umf_log.h"

// Pieces a walk visits between two takes of a segment lock: one batch of
// residency calls is the longest a free of a visited allocation waits.
#define WALK_BATCH 64

static uint64_t key_of(const void *ptr) {
    return (uint64_t)(uintptr_t)ptr;
}

umf_result_t umf_ownership_init(umf_ownership_t *o, const char *who,
                                umf_ownership_apply_fn apply, void *apply_arg) {
    o->who = who;
    o->apply = apply;
    o->apply_arg = apply_arg;
    umf_result_t ret = umf_own_table_init(&o->table);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    ret = umf_alloc_tracker_init(&o->pieces);
    if (ret != UMF_RESULT_SUCCESS) {
        umf_own_table_fini(&o->table);
    }
    return ret;
}

void umf_ownership_fini(umf_ownership_t *o) {
    umf_alloc_tracker_fini(&o->pieces);
    umf_own_table_fini(&o->table);
}

size_t umf_ownership_count(umf_ownership_t *o) {
    return umf_own_table_count(&o->table);
}

// ---- Allocation ------------------------------------------------------------

umf_result_t umf_ownership_add_failed(umf_ownership_t *o, void *ptr,
                                      umf_result_t ret) {
    if (ret == UMF_RESULT_ERROR_INVALID_ARGUMENT) {
        UMF_LOG_ERROR("%s: the driver returned %p, which is still allocated",
                      o->who, ptr);
        return UMF_RESULT_ERROR_UNKNOWN;
    }
    UMF_GPU_LOG_RETURNED("%s: out of host memory to record %p", o->who, ptr);
    return ret;
}

umf_result_t umf_ownership_add_held(umf_ownership_t *o, void *ptr, size_t size,
                                    uint64_t gen) {
    umf_result_t ret = o->apply != NULL ? o->apply(o->apply_arg, ptr, size, gen)
                                        : UMF_RESULT_SUCCESS;
    if (ret != UMF_RESULT_SUCCESS) {
        (void)umf_own_table_remove(&o->table, key_of(ptr));
        return ret;
    }
    umf_own_table_release(&o->table, key_of(ptr));
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_ownership_add_offset(umf_ownership_t *o, void *ptr,
                                      size_t size, void *base,
                                      size_t driver_size) {
    uintptr_t start = (uintptr_t)ptr, b = (uintptr_t)base;
    if (ptr == NULL || size == 0 || start < b || size > driver_size ||
        start - b > driver_size - size) {
        UMF_LOG_ERROR("%s: %p (%zu bytes) is not inside its driver "
                      "allocation %p (%zu bytes)",
                      o->who, ptr, size, base, driver_size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    bool held;
    uint64_t gen;
    umf_result_t ret = umf_own_table_insert(
        &o->table, key_of(base), driver_size, UMF_OWN_EXT, &held, &gen);
    if (ret != UMF_RESULT_SUCCESS) {
        return umf_ownership_add_failed(o, base, ret);
    }
    if (held) {
        ret = umf_ownership_add_held(o, base, driver_size, gen);
        if (ret != UMF_RESULT_SUCCESS) {
            return ret;
        }
    }
    ret = umf_alloc_tracker_add(&o->pieces, ptr, size, b, driver_size);
    if (ret != UMF_RESULT_SUCCESS) {
        (void)umf_own_table_remove(&o->table, key_of(base));
    }
    return ret;
}

// ---- Free ------------------------------------------------------------------

// Why ptr cannot be freed, logged once here.
static umf_result_t refuse_free(umf_ownership_t *o, void *ptr, size_t size,
                                umf_own_take_t took, uint64_t word) {
    switch (took) {
    case UMF_OWN_WRONG_SIZE:
        UMF_GPU_LOG_RETURNED(
            "%s free: the allocation at %p has %zu bytes, not %zu", o->who, ptr,
            (size_t)umf_own_size(word), size);
        break;
    case UMF_OWN_BEING_FREED:
        UMF_GPU_LOG_RETURNED("%s free: %p is being freed by another thread",
                             o->who, ptr);
        break;
    case UMF_OWN_EXT_ENTRY:
        UMF_GPU_LOG_RETURNED(
            "%s free: %p is a piece freed already; other pieces of "
            "its allocation are still in use",
            o->who, ptr);
        break;
    default:
        UMF_GPU_LOG_RETURNED(
            "%s free: %p is not an allocation of this provider (or "
            "was freed already)",
            o->who, ptr);
        break;
    }
    return UMF_RESULT_ERROR_INVALID_ARGUMENT;
}

umf_result_t umf_ownership_free_slow(umf_ownership_t *o, void *ptr, size_t size,
                                     umf_own_take_t took,
                                     umf_ownership_free_t *f) {
    uint64_t key = key_of(ptr);
    if (took == UMF_OWN_ABSENT && !umf_alloc_tracker_in_use(&o->pieces)) {
        return refuse_free(o, ptr, size, took, f->word);
    }
    if (took != UMF_OWN_ABSENT && took != UMF_OWN_EXT_ENTRY) {
        return refuse_free(o, ptr, size, took, f->word);
    }
    // A piece: in the middle of a driver allocation (absent from the table)
    // or at its start (the table marks the allocation UMF_OWN_EXT).
    bool found = false, release = false;
    umf_result_t ret = umf_alloc_tracker_remove(&o->pieces, ptr, size, &found,
                                                &release, &f->info);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret; // the piece has another size (logged)
    }
    if (!found) {
        return refuse_free(o, ptr, size, took, f->word);
    }
    f->piece = true;
    f->size = f->info.size;
    f->freeing = false;
    f->driver_base = NULL;
    if (!release) {
        return UMF_RESULT_SUCCESS; // other pieces keep the allocation
    }
    // The last piece: the driver allocation goes.
    key = (uint64_t)f->info.driver_base;
    took = umf_own_table_take(&o->table, key, 0, true, &f->word, &f->freeing,
                              &f->gen);
    if (took != UMF_OWN_TAKEN) {
        UMF_LOG_ERROR("%s free: the driver allocation 0x%zx of the piece %p is "
                      "not recorded",
                      o->who, (size_t)key, ptr);
        (void)umf_alloc_tracker_add(&o->pieces, f->info.ptr, f->info.size,
                                    f->info.driver_base, f->info.driver_size);
        return UMF_RESULT_ERROR_UNKNOWN;
    }
    f->driver_base = (void *)(uintptr_t)key;
    return UMF_RESULT_SUCCESS;
}

void umf_ownership_free_end_slow(umf_ownership_t *o,
                                 const umf_ownership_free_t *f, bool freed) {
    if (f->driver_base == NULL) {
        return; // a piece whose allocation other pieces keep
    }
    uint64_t key = key_of(f->driver_base);
    bool held = false;
    uint64_t gen = 0;
    umf_own_table_finish(&o->table, key, f->word, f->freeing, f->gen, freed,
                         &held, &gen);
    if (!freed && f->piece) {
        // The last piece goes back with its allocation, to be freed again.
        (void)umf_alloc_tracker_add(&o->pieces, f->info.ptr, f->info.size,
                                    f->info.driver_base, f->info.driver_size);
    }
    if (held) {
        // Put back after a residency change that did not see it: resident
        // as generation gen says, then released (a failure is logged; the
        // allocation stays, as the driver kept it).
        umf_result_t ret = o->apply != NULL
                               ? o->apply(o->apply_arg, f->driver_base,
                                          (size_t)umf_own_size(f->word), gen)
                               : UMF_RESULT_SUCCESS;
        if (ret != UMF_RESULT_SUCCESS) {
            UMF_LOG_ERROR("%s: %p, which the driver did not free, could not "
                          "be made resident on the current devices",
                          o->who, f->driver_base);
        }
        umf_own_table_release(&o->table, key);
    }
}

// ---- Split and merge -------------------------------------------------------

umf_result_t umf_ownership_split(umf_ownership_t *o, void *ptr,
                                 size_t total_size, size_t first_size) {
    if (!umf_alloc_split_sizes_ok(o->who, ptr, total_size, first_size)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (umf_alloc_tracker_in_use(&o->pieces)) {
        bool tracked = false;
        umf_result_t ret = umf_alloc_tracker_split(&o->pieces, ptr, total_size,
                                                   first_size, &tracked);
        if (tracked) {
            return ret; // a piece already: split (or refused, logged)
        }
    }
    // A whole allocation: marked first, so that a free of it from now on
    // looks for pieces, then cut.
    uint64_t word = 0;
    umf_own_take_t r =
        umf_own_table_mark_ext(&o->table, key_of(ptr), total_size, true, &word);
    if (r != UMF_OWN_TAKEN) {
        if (r == UMF_OWN_WRONG_SIZE) {
            UMF_GPU_LOG_RETURNED(
                "%s allocation_split of %p: the allocation has %zu "
                "bytes, not %zu",
                o->who, ptr, (size_t)umf_own_size(word), total_size);
        } else {
            UMF_GPU_LOG_RETURNED(
                "%s allocation_split: %p is not an allocation or "
                "piece of this provider",
                o->who, ptr);
        }
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret =
        umf_alloc_tracker_split_whole(&o->pieces, ptr, total_size, first_size);
    if (ret != UMF_RESULT_SUCCESS) {
        (void)umf_own_table_mark_ext(&o->table, key_of(ptr), total_size, false,
                                     &word);
    }
    return ret;
}

umf_result_t umf_ownership_merge(umf_ownership_t *o, void *low, void *high,
                                 size_t total_size) {
    if (!umf_alloc_tracker_in_use(&o->pieces)) {
        UMF_GPU_LOG_RETURNED(
            "%s allocation_merge: %p and %p are not pieces of one "
            "allocation of this provider (nothing was ever split)",
            o->who, low, high);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return umf_alloc_tracker_merge(&o->pieces, low, high, total_size);
}

// ---- Lookups ---------------------------------------------------------------

umf_result_t umf_ownership_find(umf_ownership_t *o, const void *driver_base,
                                const void *addr, umf_alloc_piece_info_t *out) {
    uint64_t word = 0;
    if (driver_base == NULL ||
        !umf_own_table_lookup(&o->table, key_of(driver_base), &word)) {
        UMF_GPU_LOG_RETURNED("%s: %p is not memory this provider allocated",
                             o->who, addr);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if ((word & UMF_OWN_EXT) != 0) {
        if (umf_alloc_tracker_find(&o->pieces, (uintptr_t)driver_base, addr,
                                   out)) {
            return UMF_RESULT_SUCCESS;
        }
    } else if ((uintptr_t)addr - (uintptr_t)driver_base < umf_own_size(word)) {
        out->ptr = (void *)driver_base;
        out->size = (size_t)umf_own_size(word);
        out->driver_base = (uintptr_t)driver_base;
        out->driver_size = out->size;
        return UMF_RESULT_SUCCESS;
    }
    UMF_GPU_LOG_RETURNED(
        "%s: %p is in allocation %p of the driver, but in nothing "
        "the provider handed out",
        o->who, addr, driver_base);
    return UMF_RESULT_ERROR_INVALID_ARGUMENT;
}

// ---- Residency -------------------------------------------------------------

uint64_t umf_ownership_residency_begin(umf_ownership_t *o) {
    return umf_own_table_gen_begin(&o->table);
}

umf_result_t umf_ownership_residency_walk(umf_ownership_t *o,
                                          umf_own_visit_fn visit, void *arg) {
    return umf_own_table_walk(&o->table, visit, arg, WALK_BATCH);
}

void umf_ownership_residency_end(umf_ownership_t *o, bool active) {
    umf_own_table_gen_end(&o->table, active);
}
