// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "alloc_registry.h"

#include <sched.h>
#include <stdlib.h>

#include "log.h"
#include "utils_common.h"

// A shard's table: linear probing at most half full, backward-shift
// deletion (no tombstones). The hash is one multiplication (Fibonacci
// hashing): its top bits pick the shard, the bits below them the bucket.
#define MIN_BITS 4

static inline uint64_t hash_of(uintptr_t base) {
    // Allocations are at least 16-byte aligned: skip bits that never vary.
    return (uint64_t)(base >> 4) * 0x9e3779b97f4a7c15ull;
}

static inline size_t bucket_of(uint64_t hash, unsigned bits) {
    return (size_t)((hash << UMF_ALLOC_REGISTRY_SHARD_BITS) >> (64 - bits));
}

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
                                                   uint64_t hash) {
    return &reg->shards[hash >> (64 - UMF_ALLOC_REGISTRY_SHARD_BITS)];
}

// The slot holding base, or NULL.
static umf_alloc_registry_slot_t *find(const umf_alloc_registry_shard_t *s,
                                       uintptr_t base, uint64_t hash) {
    if (s->slots == NULL) {
        return NULL;
    }
    size_t mask = ((size_t)1 << s->bits) - 1;
    for (size_t i = bucket_of(hash, s->bits);; i = (i + 1) & mask) {
        if (s->slots[i].base == base) {
            return &s->slots[i];
        }
        if (s->slots[i].base == 0) {
            return NULL;
        }
    }
}

static void place(umf_alloc_registry_slot_t *slots, unsigned bits,
                  uintptr_t base, size_t size) {
    size_t mask = ((size_t)1 << bits) - 1;
    size_t i = bucket_of(hash_of(base), bits);
    while (slots[i].base != 0) {
        i = (i + 1) & mask;
    }
    slots[i].base = base;
    slots[i].size = size;
}

// Makes room for one more entry (load at most 1/2).
static umf_result_t reserve_one(umf_alloc_registry_shard_t *s) {
    if (s->slots != NULL && (s->count + 1) * 2 <= ((size_t)1 << s->bits)) {
        return UMF_RESULT_SUCCESS;
    }
    unsigned bits = s->slots != NULL ? s->bits + 1 : MIN_BITS;
    if (bits > 40) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    umf_alloc_registry_slot_t *slots =
        calloc((size_t)1 << bits, sizeof(*slots));
    if (slots == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (s->slots != NULL) {
        for (size_t i = 0; i < ((size_t)1 << s->bits); i++) {
            if (s->slots[i].base != 0) {
                place(slots, bits, s->slots[i].base, s->slots[i].size);
            }
        }
        free(s->slots);
    }
    s->slots = slots;
    s->bits = bits;
    return UMF_RESULT_SUCCESS;
}

// Empties `slot`, moving later members of its run back so that every entry
// stays reachable from its bucket.
static void erase(umf_alloc_registry_shard_t *s,
                  umf_alloc_registry_slot_t *slot) {
    size_t mask = ((size_t)1 << s->bits) - 1;
    size_t hole = (size_t)(slot - s->slots);
    for (size_t j = (hole + 1) & mask; s->slots[j].base != 0;
         j = (j + 1) & mask) {
        size_t home = bucket_of(hash_of(s->slots[j].base), s->bits);
        // Movable unless its bucket lies cyclically in (hole, j].
        bool stays =
            hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            s->slots[hole] = s->slots[j];
            hole = j;
        }
    }
    s->slots[hole].base = 0;
    s->slots[hole].size = 0;
    s->count--;
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
        reg->shards[i].bits = 0;
        reg->shards[i].count = 0;
        reg->shards[i].slots = NULL;
    }
    return UMF_RESULT_SUCCESS;
}

void umf_alloc_registry_fini(umf_alloc_registry_t *reg) {
    if (reg->shards == NULL) {
        return;
    }
    for (unsigned i = 0; i < UMF_ALLOC_REGISTRY_SHARDS; i++) {
        free(reg->shards[i].slots);
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
    uintptr_t key = (uintptr_t)base;
    uint64_t hash = hash_of(key);
    umf_alloc_registry_shard_t *s = shard_of(reg, hash);
    spin_lock(&s->lock);
    umf_result_t ret = reserve_one(s);
    if (UMF_LIKELY(ret == UMF_RESULT_SUCCESS)) {
        size_t mask = ((size_t)1 << s->bits) - 1;
        size_t i = bucket_of(hash, s->bits);
        for (; s->slots[i].base != 0; i = (i + 1) & mask) {
            if (UMF_UNLIKELY(s->slots[i].base == key)) {
                ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
                break;
            }
        }
        if (UMF_LIKELY(ret == UMF_RESULT_SUCCESS)) {
            s->slots[i].base = key;
            s->slots[i].size = size;
            s->count++;
            if (on_insert != NULL) {
                ret = on_insert(arg, base, size);
                if (ret != UMF_RESULT_SUCCESS) {
                    erase(s, &s->slots[i]);
                }
            }
        }
    }
    spin_unlock(&s->lock);
    return ret;
}

bool umf_alloc_registry_remove(umf_alloc_registry_t *reg, void *base,
                               size_t *size) {
    uintptr_t key = (uintptr_t)base;
    uint64_t hash = hash_of(key);
    umf_alloc_registry_shard_t *s = shard_of(reg, hash);
    spin_lock(&s->lock);
    // Key 0 marks empty slots: never an entry.
    umf_alloc_registry_slot_t *slot = key != 0 ? find(s, key, hash) : NULL;
    if (slot != NULL) {
        if (size != NULL) {
            *size = slot->size;
        }
        erase(s, slot);
    }
    spin_unlock(&s->lock);
    return slot != NULL;
}

bool umf_alloc_registry_lookup(umf_alloc_registry_t *reg, const void *base,
                               size_t *size) {
    uintptr_t key = (uintptr_t)base;
    uint64_t hash = hash_of(key);
    umf_alloc_registry_shard_t *s = shard_of(reg, hash);
    spin_lock(&s->lock);
    umf_alloc_registry_slot_t *slot = key != 0 ? find(s, key, hash) : NULL;
    if (slot != NULL && size != NULL) {
        *size = slot->size;
    }
    spin_unlock(&s->lock);
    return slot != NULL;
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
        const umf_alloc_registry_shard_t *s = &reg->shards[i];
        if (s->slots == NULL) {
            continue;
        }
        for (size_t j = 0; j < ((size_t)1 << s->bits) && done < limit; j++) {
            if (s->slots[j].base == 0) {
                continue;
            }
            ret = visit(arg, (void *)s->slots[j].base, s->slots[j].size);
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
        n += reg->shards[i].count;
    }
    umf_alloc_registry_unlock_all(reg);
    return n;
}
