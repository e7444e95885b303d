// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "alloc_registry.h"

#include <sched.h>
#include <stdlib.h>

#include "log.h"
#include "utils_common.h"

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// A test-and-test-and-set lock. Held for a few table operations on the hot
// path; only umf_alloc_registry_lock_all() holds it longer, so a waiter spins
// briefly and then yields the processor.
static inline void spin_lock(int *lock) {
    unsigned spins = 0;
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) != 0) {
        while (__atomic_load_n(lock, __ATOMIC_RELAXED) != 0) {
            if (++spins < 128) {
                cpu_relax();
            } else {
                sched_yield();
            }
        }
    }
}

static inline void spin_unlock(int *lock) {
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

// The shard of an address: the top bits of its hash (the map inside indexes
// with the low bits, so the two choices are independent).
static inline umf_alloc_registry_shard_t *shard_of(umf_alloc_registry_t *reg,
                                                   uintptr_t base) {
    return &reg->shards[umf_hash_u64(base) >>
                        (64 - UMF_ALLOC_REGISTRY_SHARD_BITS)];
}

// A size as a map value: sizes are never 0, so never NULL.
static inline void *size_value(size_t size) {
    return (void *)(uintptr_t)size;
}

umf_result_t umf_alloc_registry_init(umf_alloc_registry_t *reg) {
    reg->shards =
        aligned_alloc(64, sizeof(*reg->shards) * UMF_ALLOC_REGISTRY_SHARDS);
    if (reg->shards == NULL) {
        UMF_LOG_ERROR("allocation registry: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS; i++) {
        reg->shards[i].lock = 0;
        reg->shards[i].map = (umf_hash_map_t)UMF_HASH_MAP_INIT;
    }
    return UMF_RESULT_SUCCESS;
}

void umf_alloc_registry_fini(umf_alloc_registry_t *reg) {
    if (reg->shards == NULL) {
        return;
    }
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS; i++) {
        umf_hash_map_clear(&reg->shards[i].map);
    }
    free(reg->shards);
    reg->shards = NULL;
}

umf_result_t umf_alloc_registry_insert(umf_alloc_registry_t *reg, void *base,
                                       size_t size,
                                       umf_alloc_registry_insert_fn on_insert,
                                       void *arg) {
    if (UMF_UNLIKELY(base == NULL || size == 0)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_alloc_registry_shard_t *s = shard_of(reg, (uintptr_t)base);
    spin_lock(&s->lock);
    umf_result_t ret =
        umf_hash_map_put_new(&s->map, (uintptr_t)base, size_value(size));
    if (UMF_LIKELY(ret == UMF_RESULT_SUCCESS) && on_insert != NULL) {
        ret = on_insert(arg, base, size);
        if (ret != UMF_RESULT_SUCCESS) {
            (void)umf_hash_map_remove(&s->map, (uintptr_t)base);
        }
    }
    spin_unlock(&s->lock);
    return ret;
}

bool umf_alloc_registry_remove(umf_alloc_registry_t *reg, void *base,
                               size_t *size) {
    umf_alloc_registry_shard_t *s = shard_of(reg, (uintptr_t)base);
    spin_lock(&s->lock);
    void *value = umf_hash_map_remove(&s->map, (uintptr_t)base);
    spin_unlock(&s->lock);
    if (value != NULL && size != NULL) {
        *size = (size_t)(uintptr_t)value;
    }
    return value != NULL;
}

bool umf_alloc_registry_lookup(umf_alloc_registry_t *reg, const void *base,
                               size_t *size) {
    umf_alloc_registry_shard_t *s = shard_of(reg, (uintptr_t)base);
    spin_lock(&s->lock);
    void *value = umf_hash_map_get(&s->map, (uintptr_t)base);
    spin_unlock(&s->lock);
    if (value != NULL && size != NULL) {
        *size = (size_t)(uintptr_t)value;
    }
    return value != NULL;
}

void umf_alloc_registry_lock_all(umf_alloc_registry_t *reg) {
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS; i++) {
        spin_lock(&reg->shards[i].lock);
    }
}

void umf_alloc_registry_unlock_all(umf_alloc_registry_t *reg) {
    for (unsigned i = UMF_ALLOC_REGISTRY_SHARDS; i > 0; i--) {
        spin_unlock(&reg->shards[i - 1].lock);
    }
}

umf_result_t umf_alloc_registry_walk_locked(umf_alloc_registry_t *reg,
                                            umf_alloc_registry_visit_fn visit,
                                            void *arg, size_t limit,
                                            size_t *visited) {
    size_t done = 0;
    umf_result_t ret = UMF_RESULT_SUCCESS;
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS && done < limit; i++) {
        const umf_hash_map_t *map = &reg->shards[i].map;
        if (map->slots == NULL) {
            continue;
        }
        // The slots in table order, not umf_hash_map_foreach: the walk stops
        // at an error or at `limit`.
        for (size_t j = 0; j <= map->mask && done < limit; j++) {
            const umf_hash_map_slot_t *slot = &map->slots[j];
            if (slot->value == NULL) {
                continue;
            }
            ret = visit(arg, (void *)(uintptr_t)slot->key,
                        (size_t)(uintptr_t)slot->value);
            if (ret != UMF_RESULT_SUCCESS) {
                goto out;
            }
            done++;
        }
    }
out:
    if (visited != NULL) {
        *visited = done;
    }
    return ret;
}

size_t umf_alloc_registry_count(umf_alloc_registry_t *reg) {
    size_t n = 0;
    umf_alloc_registry_lock_all(reg);
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS; i++) {
        n += umf_hash_map_count(&reg->shards[i].map);
    }
    umf_alloc_registry_unlock_all(reg);
    return n;
}
