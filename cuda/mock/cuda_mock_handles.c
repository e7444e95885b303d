// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tables of driver objects (cuda_mock_core.h): one zeroed heap block
// per table, made at first use and never freed, holding fixed-size slots
// (a large calloc is fresh pages that cost nothing until touched; and what
// the slots point to stays reachable for leak checkers). A handle is valid when
// it points at a slot of its table that is alive, which is decided without
// touching memory that is not the table's; a slot destroyed meanwhile (by
// another thread) is still memory of the table, so a racing reader reads stale
// data, never a freed page.

#include "cuda_mock_core.h"

#include <stdlib.h>
#include <string.h>

#define SLOT_FREE 0u
#define SLOT_LIVE 1u

// Makes the table's block (once).
static char *table_base(cuda_mock_table_t *t) {
    char *base = atomic_load_explicit(&t->base, memory_order_acquire);
    if (base != NULL) {
        return base;
    }
    pthread_mutex_lock(&t->lock);
    base = atomic_load_explicit(&t->base, memory_order_relaxed);
    if (base == NULL) {
        base = calloc(t->capacity, t->slot_size);
        if (base != NULL) {
            atomic_store_explicit(&t->base, base, memory_order_release);
        } else {
            UMF_MOCK_LOG_ERROR("cannot make the table of %ss", t->what);
        }
    }
    pthread_mutex_unlock(&t->lock);
    return base;
}

CUresult cuda_mock_table_alloc(cuda_mock_table_t *t, void **out) {
    char *base = table_base(t);
    if (base == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cuda_mock_slot_t *slot = NULL;
    pthread_mutex_lock(&t->lock);
    // Round robin, so that a destroyed object's handle is reused late.
    for (uint32_t i = 0; i < t->capacity && slot == NULL; i++) {
        uint32_t at = (t->cursor + i) % t->capacity;
        cuda_mock_slot_t *s = (cuda_mock_slot_t *)(base + at * t->slot_size);
        if (atomic_load_explicit(&s->state, memory_order_relaxed) ==
            SLOT_FREE) {
            slot = s;
            t->cursor = (at + 1) % t->capacity;
            if (at >= atomic_load_explicit(&t->high, memory_order_relaxed)) {
                atomic_store_explicit(&t->high, at + 1, memory_order_release);
            }
        }
    }
    bool tracked = slot != NULL && umf_mock_object_add(t->object_kind, slot);
    if (tracked) {
        // Everything but the header starts zeroed.
        memset((char *)slot + sizeof(*slot), 0, t->slot_size - sizeof(*slot));
        atomic_fetch_add_explicit(&slot->gen, 1, memory_order_relaxed);
        atomic_store_explicit(&slot->state, SLOT_LIVE, memory_order_release);
    }
    pthread_mutex_unlock(&t->lock);
    if (!tracked) {
        if (slot == NULL) {
            UMF_MOCK_LOG_ERROR("cannot make a %s: all %u are alive", t->what,
                               t->capacity);
        } else {
            UMF_MOCK_LOG_ERROR("cannot make a %s: out of host memory", t->what);
        }
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = slot;
    return CUDA_SUCCESS;
}

bool cuda_mock_table_holds(cuda_mock_table_t *t, const void *handle) {
    char *base = atomic_load_explicit(&t->base, memory_order_acquire);
    uintptr_t h = (uintptr_t)handle, b = (uintptr_t)base;
    return base != NULL && h >= b &&
           h - b < (uintptr_t)t->capacity * t->slot_size &&
           (h - b) % t->slot_size == 0;
}

void *cuda_mock_table_get(cuda_mock_table_t *t, const void *handle) {
    if (!cuda_mock_table_holds(t, handle)) {
        return NULL;
    }
    cuda_mock_slot_t *s = (cuda_mock_slot_t *)handle;
    return atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_LIVE
               ? s
               : NULL;
}

bool cuda_mock_table_free(cuda_mock_table_t *t, void *slot) {
    cuda_mock_slot_t *s = slot;
    uint32_t live = SLOT_LIVE;
    pthread_mutex_lock(&t->lock);
    bool ours = atomic_compare_exchange_strong_explicit(
        &s->state, &live, SLOT_FREE, memory_order_acq_rel,
        memory_order_relaxed);
    if (ours) {
        (void)umf_mock_object_remove(t->object_kind, slot);
    }
    pthread_mutex_unlock(&t->lock);
    return ours;
}

void cuda_mock_table_foreach(cuda_mock_table_t *t,
                             void (*fn)(void *slot, void *arg), void *arg) {
    char *base = atomic_load_explicit(&t->base, memory_order_acquire);
    if (base == NULL) {
        return;
    }
    uint32_t high = atomic_load_explicit(&t->high, memory_order_acquire);
    for (uint32_t i = 0; i < high; i++) {
        cuda_mock_slot_t *s = (cuda_mock_slot_t *)(base + i * t->slot_size);
        if (atomic_load_explicit(&s->state, memory_order_acquire) ==
            SLOT_LIVE) {
            fn(s, arg);
        }
    }
}
