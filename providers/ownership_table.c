// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ownership_table.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gpu_log.h"
#include "util_huge.h"
#include "util_umf_log.h"

#define MIN_CAPACITY UMF_OWN_MIN_CAPACITY
// Spins before a waiter yields the processor.
#define SPINS 128

void umf_own_lock_wait(int *lock) {
    unsigned spins = 0;
    do {
        while (__atomic_load_n(lock, __ATOMIC_RELAXED) != 0) {
            if (++spins < SPINS) {
                umf_own_cpu_relax();
            } else {
                sched_yield();
            }
        }
    } while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) != 0);
}

static void wait_a_little(unsigned *spins) {
    if (++*spins < SPINS) {
        umf_own_cpu_relax();
    } else {
        sched_yield();
    }
}

umf_result_t umf_own_table_init(umf_own_table_t *t) {
    t->segments = aligned_alloc(64, sizeof(*t->segments) * UMF_OWN_SEGMENTS);
    if (t->segments == NULL) {
        UMF_GPU_LOG_RETURNED("ownership table: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    memset(t->segments, 0, sizeof(*t->segments) * UMF_OWN_SEGMENTS);
    t->gen = 0;
    t->active = 0;
    t->chunks = NULL;
    pthread_mutex_init(&t->chunk_lock, NULL);
    return UMF_RESULT_SUCCESS;
}

static void array_free(umf_own_table_t *t, void *array, size_t bytes);

void umf_own_table_fini(umf_own_table_t *t) {
    if (t->segments == NULL) {
        return;
    }
    for (unsigned i = 0; i < UMF_OWN_SEGMENTS; i++) {
        umf_own_segment_t *s = &t->segments[i];
        array_free(t, s->slots, (s->mask + 1) * sizeof(*s->slots));
    }
    pthread_mutex_destroy(&t->chunk_lock);
    free(t->segments);
    t->segments = NULL;
}

// ---- Segment arrays
// -----------------------------------------------------------
//
// With many allocations alive every take reads a random slot line; with 4
// KiB pages most of those reads would also miss the TLB (in a virtual
// machine a page walk costs more than the miss). So arrays of 64 KiB and
// more live in transparent huge pages: those below 2 MiB as equal pieces of
// a 2 MiB chunk kept for their size, larger ones in a mapping of their own.

#define CHUNK UMF_HUGE_PAGE
#define SMALL_ARRAY ((size_t)64 << 10)

typedef struct umf_own_chunk_t {
    struct umf_own_chunk_t *next;
    char *mem;
    size_t piece;       // bytes of each piece
    uint32_t free_mask; // bit i: piece i is free (at most 32 pieces)
} chunk_t;

// A zeroed array of `bytes` (a power of two).
static void *array_alloc(umf_own_table_t *t, size_t bytes) {
    if (bytes < SMALL_ARRAY) {
        return calloc(1, bytes);
    }
    if (bytes >= CHUNK) {
        return umf_huge_map(bytes, 1);
    }
    void *out = NULL;
    pthread_mutex_lock(&t->chunk_lock);
    chunk_t *c = t->chunks;
    while (c != NULL && (c->piece != bytes || c->free_mask == 0)) {
        c = c->next;
    }
    if (c == NULL && (c = malloc(sizeof(*c))) != NULL) {
        c->mem = umf_huge_map(CHUNK, 1);
        if (c->mem == NULL) {
            free(c);
            c = NULL;
        } else {
            size_t pieces = CHUNK / bytes;
            c->piece = bytes;
            c->free_mask = pieces >= 32 ? UINT32_MAX : (1u << pieces) - 1;
            c->next = t->chunks;
            t->chunks = c;
        }
    }
    if (c != NULL) {
        unsigned i = (unsigned)__builtin_ctz(c->free_mask);
        c->free_mask &= ~(1u << i);
        out = c->mem + (size_t)i * bytes;
        memset(out, 0, bytes); // a piece may be used again
    }
    pthread_mutex_unlock(&t->chunk_lock);
    return out;
}

static void array_free(umf_own_table_t *t, void *array, size_t bytes) {
    if (array == NULL || bytes < SMALL_ARRAY) {
        free(array);
        return;
    }
    if (bytes >= CHUNK) {
        munmap(array, umf_huge_size(bytes));
        return;
    }
    pthread_mutex_lock(&t->chunk_lock);
    for (chunk_t **pc = &t->chunks; *pc != NULL; pc = &(*pc)->next) {
        chunk_t *c = *pc;
        if ((char *)array >= c->mem && (char *)array < c->mem + CHUNK) {
            c->free_mask |= 1u << (((char *)array - c->mem) / c->piece);
            size_t pieces = CHUNK / c->piece;
            if (c->free_mask ==
                (pieces >= 32 ? UINT32_MAX : (1u << pieces) - 1)) {
                *pc = c->next;
                munmap(c->mem, CHUNK);
                free(c);
            }
            break;
        }
    }
    pthread_mutex_unlock(&t->chunk_lock);
}

static unsigned log2_of(size_t pow2) {
    return (unsigned)__builtin_ctzll((unsigned long long)pow2);
}

// Moves every entry of s into `slots` (capacity entries, zeroed) and makes
// it the segment's array; returns the old one. Locked.
static umf_own_slot_t *rehash_locked(umf_own_segment_t *s,
                                     umf_own_slot_t *slots, size_t capacity) {
    umf_own_slot_t *old = s->slots;
    size_t old_capacity = old != NULL ? s->mask + 1 : 0;
    s->slots = slots;
    s->mask = capacity - 1;
    // Grows at 3/4 load, shrinks below 1/16 (ownership_table.h).
    s->grow_at = capacity / 4 * 3;
    s->shrink_at = capacity > MIN_CAPACITY ? capacity / 16 : 0;
    s->shift = 64 - log2_of(capacity);
    s->walk_from = 0;
    for (size_t j = 0; j < old_capacity; j++) {
        if (old[j].key == 0) {
            continue;
        }
        uint64_t hash = umf_own_hash(old[j].key);
        size_t i = umf_own_home(s, hash);
        while (slots[i].key != 0) {
            i = (i + 1) & s->mask;
        }
        slots[i] = old[j];
    }
    return old;
}

// Grows (or shrinks) s to fit its entries: the array allocated unlocked,
// then filled locked if the segment still needs it. A failure to allocate
// leaves the segment as it is and returns false (a grow then fails the
// insert that needs it).
bool umf_own_resize(umf_own_table_t *t, umf_own_segment_t *s, bool grow) {
    for (;;) {
        umf_own_lock(&s->lock);
        size_t capacity = s->slots != NULL ? s->mask + 1 : 0;
        size_t want = capacity;
        if (grow) {
            while (want == 0 || (s->count + 1) * 4 > want * 3) {
                want = want == 0 ? MIN_CAPACITY : want * 2;
            }
        } else {
            while (want > MIN_CAPACITY && s->count * 16 < want) {
                want /= 4;
            }
            want = want < MIN_CAPACITY ? MIN_CAPACITY : want;
        }
        umf_own_unlock(&s->lock);
        if (want == capacity) {
            return true;
        }
        umf_own_slot_t *slots = array_alloc(t, want * sizeof(*slots));
        if (slots == NULL) {
            UMF_GPU_LOG_RETURNED(
                "ownership table: out of host memory for %zu slots", want);
            return false;
        }
        umf_own_lock(&s->lock);
        // Another thread may have resized meanwhile: only the size computed
        // under this same lock counts.
        size_t now = s->slots != NULL ? s->mask + 1 : 0;
        bool fits = (s->count + 1) * 4 <= want * 3;
        bool still = now == capacity && fits;
        size_t old_bytes = (still ? capacity : want) * sizeof(*slots);
        umf_own_slot_t *old = still ? rehash_locked(s, slots, want) : slots;
        umf_own_unlock(&s->lock);
        array_free(t, old, old_bytes);
        if (still) {
            return true;
        }
    }
}

umf_result_t umf_own_insert_slow(umf_own_table_t *t, uint64_t key,
                                 uint64_t size, unsigned flags, bool *held,
                                 uint64_t *gen) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    for (;;) {
        umf_own_lock(&s->lock);
        if (s->count < s->grow_at) {
            break;
        }
        umf_own_unlock(&s->lock);
        // Others may fill or empty it meanwhile: try again until it has
        // room, unless the memory for a larger array is not there.
        if (!umf_own_resize(t, s, true)) {
            return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    for (size_t i = umf_own_home(s, hash);; i = (i + 1) & s->mask) {
        umf_own_slot_t *slot = &s->slots[i];
        if (slot->key == 0) {
            umf_own_store_locked(t, s, slot, key, size, flags, held, gen);
            break;
        }
        if (slot->key == key) {
            umf_own_unlock(&s->lock);
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
    }
    umf_own_unlock(&s->lock);
    return UMF_RESULT_SUCCESS;
}

// A take that is not the common case: the table active, an entry pinned by
// a walk, flagged, or of another size.
umf_own_take_t umf_own_take_slow(umf_own_table_t *t, uint64_t key,
                                 uint64_t size, bool ext, uint64_t *word,
                                 bool *freeing, uint64_t *gen) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    unsigned spins = 0;
    for (;;) {
        umf_own_lock(&s->lock);
        umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
        umf_own_take_t ret = UMF_OWN_TAKEN;
        uint64_t w = slot != NULL ? slot->word : 0;
        if (slot == NULL || (w & UMF_OWN_HELD) != 0) {
            ret = UMF_OWN_ABSENT; // not handed out (yet)
        } else if ((w & UMF_OWN_FREEING) != 0) {
            ret = UMF_OWN_BEING_FREED;
        } else if ((w & UMF_OWN_PIN) != 0) {
            // A walk is making it resident or evicting it: the free comes
            // after that, within one batch of visits.
            umf_own_unlock(&s->lock);
            wait_a_little(&spins);
            continue;
        } else if ((w & UMF_OWN_EXT) != 0 && !ext) {
            ret = UMF_OWN_EXT_ENTRY;
        } else if (size != 0 && umf_own_size(w) != size) {
            ret = UMF_OWN_WRONG_SIZE;
        }
        *word = w;
        bool shrink = false;
        if (ret == UMF_OWN_TAKEN) {
            *gen = __atomic_load_n(&t->gen, __ATOMIC_ACQUIRE);
            *freeing = __atomic_load_n(&t->active, __ATOMIC_RELAXED) != 0;
            if (*freeing) {
                slot->word = w | UMF_OWN_FREEING;
            } else {
                shrink = umf_own_remove_locked(s, slot);
            }
        }
        umf_own_unlock(&s->lock);
        if (shrink) {
            (void)umf_own_resize(t, s, false);
        }
        return ret;
    }
}

// Puts an entry back that a take removed (its free failed). The quarter of
// every segment above 3/4 load is kept for this, so it needs no memory.
static void restore(umf_own_table_t *t, uint64_t key, uint64_t word,
                    uint64_t take_gen, bool *held, uint64_t *gen) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    umf_own_lock(&s->lock);
    if (s->slots == NULL || s->count + 1 > s->mask) {
        umf_own_unlock(&s->lock);
        UMF_LOG_ERROR("ownership table: no room to put %p back; the "
                      "allocation is forgotten",
                      (void *)(uintptr_t)key);
        *held = false;
        *gen = take_gen;
        return;
    }
    size_t i = umf_own_home(s, hash);
    while (s->slots[i].key != 0) {
        i = (i + 1) & s->mask;
    }
    uint64_t g = __atomic_load_n(&t->gen, __ATOMIC_ACQUIRE);
    umf_own_slot_t *slot = &s->slots[i];
    if (g == take_gen) {
        // No change started since the take (the table was idle then, and
        // still is): the entry is as it was.
        slot->key = key;
        slot->word =
            word & ~(uint64_t)(UMF_OWN_HELD | UMF_OWN_PIN | UMF_OWN_FREEING);
        umf_own_count_add(s, 1);
        *held = false;
        *gen = g;
    } else {
        // A change ran while it was out, and the walk did not see it:
        // held, so that its caller makes it resident for generation g.
        umf_own_store_locked(t, s, slot, key, umf_own_size(word),
                             (unsigned)(word & UMF_OWN_EXT), held, gen);
        slot->word |= UMF_OWN_HELD;
        *held = true;
    }
    umf_own_unlock(&s->lock);
}

void umf_own_table_finish(umf_own_table_t *t, uint64_t key, uint64_t word,
                          bool freeing, uint64_t take_gen, bool freed,
                          bool *held, uint64_t *gen) {
    *held = false;
    *gen = take_gen;
    if (!freeing) {
        if (!freed) {
            restore(t, key, word, take_gen, held, gen);
        }
        return;
    }
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    umf_own_lock(&s->lock);
    umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
    bool shrink = false;
    if (slot != NULL) {
        if (freed) {
            shrink = umf_own_remove_locked(s, slot);
        } else {
            slot->word &= ~(uint64_t)UMF_OWN_FREEING;
        }
    }
    umf_own_unlock(&s->lock);
    if (shrink) {
        (void)umf_own_resize(t, s, false);
    }
}

void umf_own_table_release(umf_own_table_t *t, uint64_t key) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    umf_own_lock(&s->lock);
    umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
    if (slot != NULL) {
        slot->word &= ~(uint64_t)UMF_OWN_HELD;
    }
    umf_own_unlock(&s->lock);
}

bool umf_own_table_remove(umf_own_table_t *t, uint64_t key) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    unsigned spins = 0;
    for (;;) {
        umf_own_lock(&s->lock);
        umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
        if (slot != NULL && (slot->word & UMF_OWN_PIN) != 0) {
            umf_own_unlock(&s->lock);
            wait_a_little(&spins);
            continue;
        }
        bool shrink = slot != NULL && umf_own_remove_locked(s, slot);
        umf_own_unlock(&s->lock);
        if (shrink) {
            (void)umf_own_resize(t, s, false);
        }
        return slot != NULL;
    }
}

bool umf_own_table_lookup(umf_own_table_t *t, uint64_t key, uint64_t *word) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    umf_own_lock(&s->lock);
    umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
    bool live =
        slot != NULL && (slot->word & (UMF_OWN_HELD | UMF_OWN_FREEING)) == 0;
    if (live) {
        *word = slot->word;
    }
    umf_own_unlock(&s->lock);
    return live;
}

umf_own_take_t umf_own_table_mark_ext(umf_own_table_t *t, uint64_t key,
                                      uint64_t size, bool on_off,
                                      uint64_t *word) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    umf_own_lock(&s->lock);
    umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
    umf_own_take_t ret = UMF_OWN_TAKEN;
    uint64_t w = slot != NULL ? slot->word : 0;
    if (slot == NULL || (w & (UMF_OWN_HELD | UMF_OWN_FREEING)) != 0) {
        ret = UMF_OWN_ABSENT;
    } else if (on_off && (w & UMF_OWN_EXT) != 0) {
        ret = UMF_OWN_EXT_ENTRY;
    } else if (on_off && umf_own_size(w) != size) {
        ret = UMF_OWN_WRONG_SIZE;
    } else if (on_off) {
        slot->word = w | UMF_OWN_EXT;
    } else {
        slot->word = w & ~(uint64_t)UMF_OWN_EXT;
    }
    *word = w;
    umf_own_unlock(&s->lock);
    return ret;
}

size_t umf_own_table_count(umf_own_table_t *t) {
    size_t n = 0;
    for (unsigned i = 0; i < UMF_OWN_SEGMENTS; i++) {
        // Unlocked (no revocation): a snapshot while nothing else runs.
        n += __atomic_load_n(&t->segments[i].count, __ATOMIC_RELAXED);
    }
    return n;
}

// ---- Residency generations -------------------------------------------------

uint64_t umf_own_table_gen_begin(umf_own_table_t *t) {
    // Both with every insert's and take's lock ordered after them by the
    // walk, which locks each segment afterwards; seq_cst for readers that
    // look without a lock.
    __atomic_store_n(&t->active, 1, __ATOMIC_SEQ_CST);
    uint64_t g = __atomic_load_n(&t->gen, __ATOMIC_RELAXED) + 1;
    __atomic_store_n(&t->gen, g, __ATOMIC_SEQ_CST);
    return g;
}

void umf_own_table_gen_end(umf_own_table_t *t, bool active) {
    __atomic_store_n(&t->active, active ? 1 : 0, __ATOMIC_SEQ_CST);
}

typedef struct walk_item_t {
    uint64_t key;
    uint64_t size;
} walk_item_t;

// Pins up to `batch` entries of the old parity in s (the segment locked),
// from where the last batch stopped; returns how many, and in *waiting
// whether held or FREEING ones were left for later.
static size_t collect_locked(umf_own_segment_t *s, unsigned old,
                             walk_item_t *items, size_t batch, bool *waiting) {
    size_t n = 0, capacity = s->mask + 1;
    *waiting = false;
    size_t i = s->walk_from & s->mask;
    for (size_t seen = 0; seen < capacity && n < batch; seen++) {
        umf_own_slot_t *slot = &s->slots[i];
        uint64_t w = slot->word;
        if (slot->key != 0 && (w & UMF_OWN_EPOCH) == old) {
            if ((w & (UMF_OWN_HELD | UMF_OWN_FREEING)) != 0) {
                *waiting = true;
            } else if ((w & UMF_OWN_PIN) == 0) {
                slot->word = w | UMF_OWN_PIN;
                items[n++] = (walk_item_t){slot->key, umf_own_size(w)};
            }
        }
        i = (i + 1) & s->mask;
    }
    s->walk_from = i;
    return n;
}

// Unpins the first `done` items with the new parity, the rest with the old
// one (their visit failed or did not happen). Locked.
static void settle_locked(umf_own_segment_t *s, const walk_item_t *items,
                          size_t n, size_t done) {
    for (size_t k = 0; k < n; k++) {
        uint64_t hash = umf_own_hash(items[k].key);
        umf_own_slot_t *slot = umf_own_find_locked(s, hash, items[k].key);
        if (slot == NULL) {
            continue; // cannot happen: a take waits for the pin
        }
        uint64_t w = slot->word & ~(uint64_t)UMF_OWN_PIN;
        if (k < done) {
            w ^= UMF_OWN_EPOCH;
        }
        slot->word = w;
    }
}

umf_result_t umf_own_table_walk(umf_own_table_t *t, umf_own_visit_fn visit,
                                void *arg, size_t batch) {
    walk_item_t stack_items[64];
    walk_item_t *items = stack_items;
    if (batch > 64) {
        items = malloc(batch * sizeof(*items));
        if (items == NULL) {
            UMF_GPU_LOG_RETURNED(
                "ownership table: out of host memory for a walk");
            return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    if (batch == 0) {
        batch = 1;
    }
    unsigned old =
        (unsigned)((__atomic_load_n(&t->gen, __ATOMIC_RELAXED) & 1u) ^ 1u);
    umf_result_t ret = UMF_RESULT_SUCCESS;
    for (unsigned i = 0; i < UMF_OWN_SEGMENTS && ret == UMF_RESULT_SUCCESS;
         i++) {
        umf_own_segment_t *s = &t->segments[i];
        unsigned spins = 0;
        for (;;) {
            umf_own_lock(&s->lock);
            if (s->slots == NULL) {
                umf_own_unlock(&s->lock);
                break;
            }
            bool waiting;
            size_t n = collect_locked(s, old, items, batch, &waiting);
            umf_own_unlock(&s->lock);
            if (n == 0) {
                // A look that collects nothing saw every slot: the segment
                // is done, unless held or FREEING entries of the old
                // generation are left (their owners are in a driver call):
                // then look again shortly.
                if (!waiting) {
                    break;
                }
                wait_a_little(&spins);
                continue;
            }
            size_t done = 0;
            while (done < n && ret == UMF_RESULT_SUCCESS) {
                ret = visit(arg, items[done].key, items[done].size);
                done += ret == UMF_RESULT_SUCCESS;
            }
            umf_own_lock(&s->lock);
            settle_locked(s, items, n, done);
            umf_own_unlock(&s->lock);
            if (ret != UMF_RESULT_SUCCESS) {
                break;
            }
        }
    }
    if (items != stack_items) {
        free(items);
    }
    return ret;
}
