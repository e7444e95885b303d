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

static inline umf_alloc_registry_shard_t *shard_of(umf_alloc_registry_t *reg,
                                                   const void *base) {
    // Allocations are at least 8-byte aligned: skip the bits that never vary.
    uint64_t h = umf_hash_u64((uintptr_t)base >> 3);
    return &reg->shards[h % UMF_ALLOC_REGISTRY_SHARDS];
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
        reg->shards[i].entries = (umf_hash_map_t)UMF_HASH_MAP_INIT;
    }
    return UMF_RESULT_SUCCESS;
}

void umf_alloc_registry_fini(umf_alloc_registry_t *reg) {
    if (reg->shards == NULL) {
        return;
    }
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS; i++) {
        umf_hash_map_clear(&reg->shards[i].entries);
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
    umf_alloc_registry_shard_t *s = shard_of(reg, base);
    uint64_t key = (uintptr_t)base;
    spin_lock(&s->lock);
    umf_result_t ret;
    if (UMF_UNLIKELY(umf_hash_map_get(&s->entries, key) != NULL)) {
        ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
    } else {
        ret = umf_hash_map_put(&s->entries, key, (void *)(uintptr_t)size);
    }
    if (UMF_LIKELY(ret == UMF_RESULT_SUCCESS) && on_insert != NULL) {
        ret = on_insert(arg, base, size);
        if (ret != UMF_RESULT_SUCCESS) {
            (void)umf_hash_map_remove(&s->entries, key);
        }
    }
    spin_unlock(&s->lock);
    return ret;
}

bool umf_alloc_registry_remove(umf_alloc_registry_t *reg, void *base,
                               size_t *size) {
    umf_alloc_registry_shard_t *s = shard_of(reg, base);
    spin_lock(&s->lock);
    void *value = umf_hash_map_remove(&s->entries, (uintptr_t)base);
    spin_unlock(&s->lock);
    if (size != NULL && value != NULL) {
        *size = (size_t)(uintptr_t)value;
    }
    return value != NULL;
}

bool umf_alloc_registry_lookup(umf_alloc_registry_t *reg, const void *base,
                               size_t *size) {
    umf_alloc_registry_shard_t *s = shard_of(reg, base);
    spin_lock(&s->lock);
    void *value = umf_hash_map_get(&s->entries, (uintptr_t)base);
    spin_unlock(&s->lock);
    if (size != NULL && value != NULL) {
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
        const umf_hash_map_t *m = &reg->shards[i].entries;
        if (m->slots == NULL) {
            continue;
        }
        for (size_t j = 0; j <= m->mask && done < limit; j++) {
            const umf_hash_map_slot_t *slot = &m->slots[j];
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
        n += umf_hash_map_count(&reg->shards[i].entries);
    }
    umf_alloc_registry_unlock_all(reg);
    return n;
}
