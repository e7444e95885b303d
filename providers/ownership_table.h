// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The table of a provider's live driver allocations: base address -> size
// and a few flags. Both providers' alloc/free hot path goes through it (by
// way of ownership.h), so it is built for that:
//
// - Segments: a key's hash picks one of UMF_OWN_SEGMENTS segments (its top
//   bits) and a home slot in it (the next bits). Each segment is an
//   open-addressing table (linear probing; backward-shift deletion, so no
//   tombstones) of 16-byte slots, four to a cache line, behind a spinlock
//   in a header line of its own. An insert or a take locks one segment (one
//   atomic exchange, and a store to unlock) and touches the lines of its
//   probe, usually one. Two threads meet on a lock only when their keys
//   share a segment; nothing is ever held across a call out of the table.
// - No allocation per call: a segment doubles at 3/4 load and shrinks to a
//   quarter below 1/16; the new array is allocated with the lock released
//   and filled with it held (one segment is 1/256th of the table).
// - Residency generations (Level Zero resident devices). Each entry carries
//   the parity of the generation it was recorded under or last visited for.
//   A change starts a generation (umf_own_table_gen_begin) and then visits
//   every entry of the other parity, in bounded batches, with no lock held
//   during the visits (umf_own_table_walk). An insert reads the generation
//   under its segment lock; the walk locks every segment after the
//   generation changed, so each entry is either visited or was recorded
//   under the new generation. An entry being visited is pinned: a take of
//   it waits (at most one batch). While the table is active (resident
//   devices exist, or a change runs):
//   - an insert is held until its caller, having made the allocation
//     resident, releases it; the walk waits for it, so their calls on one
//     allocation never interleave, and a take does not see it;
//   - a take leaves the entry in place, flagged as being freed, until the
//     caller reports the driver's answer (umf_own_table_finish): the walk
//     waits for that too, and a free the driver refused leaves the entry as
//     it was.
//   While the table is not active, a take removes the entry at once; if the
//   driver then refuses the free, the caller puts it back (restore), which
//   holds it for new residency if a change started meanwhile.

#ifndef UMF_GPU_OWNERSHIP_TABLE_H
#define UMF_GPU_OWNERSHIP_TABLE_H 1

#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#include "util_common.h"

#define UMF_OWN_SEGMENT_BITS 8
#define UMF_OWN_SEGMENTS (1u << UMF_OWN_SEGMENT_BITS)
// Slots of a segment's first array, and the fewest it shrinks to.
#define UMF_OWN_MIN_CAPACITY 16

// An entry's word: size << UMF_OWN_FLAG_BITS | flags.
#define UMF_OWN_EPOCH 0x01u   // parity of its generation
#define UMF_OWN_EXT 0x02u     // the caller's mark (ownership.h: has pieces)
#define UMF_OWN_HELD 0x04u    // inserted while active, not released yet
#define UMF_OWN_PIN 0x08u     // a walk is visiting it
#define UMF_OWN_FREEING 0x10u // taken while active; the driver frees it
#define UMF_OWN_FLAG_BITS 8
#define UMF_OWN_MAX_SIZE (UINT64_MAX >> UMF_OWN_FLAG_BITS)

static inline uint64_t umf_own_size(uint64_t word) {
    return word >> UMF_OWN_FLAG_BITS;
}

typedef struct umf_own_slot_t {
    uint64_t key; // 0: empty (0 is never a key)
    uint64_t word;
} umf_own_slot_t;

typedef struct umf_own_segment_t {
    int lock;
    unsigned shift;        // home slot = (hash << SEGMENT_BITS) >> shift
    uint32_t walk_from;    // where the walk's next batch starts looking
    umf_own_slot_t *slots; // NULL while the segment never held an entry
    size_t mask;           // capacity - 1
    size_t count;          // entries (written atomically: read unlocked)
    size_t grow_at;        // the array is full at this count (0: no array)
    size_t shrink_at;      // below this count it shrinks
} __attribute__((aligned(64))) umf_own_segment_t;

static_assert(sizeof(umf_own_segment_t) <= 64, "one line a segment");

typedef struct umf_own_table_t {
    umf_own_segment_t *segments;
    pthread_mutex_t chunk_lock; // the huge-page chunks of segment arrays
    struct umf_own_chunk_t *chunks;
    // Written by gen_begin and gen_end (one change at a time: their caller
    // serialises them), read by inserts and takes under a segment lock.
    uint64_t gen;
    int active;
} umf_own_table_t;

// What a take found.
typedef enum umf_own_take_t {
    UMF_OWN_TAKEN = 0,   // yours: removed, or flagged FREEING (*freeing)
    UMF_OWN_ABSENT,      // no such entry (or one not handed out yet)
    UMF_OWN_EXT_ENTRY,   // an UMF_OWN_EXT entry, and ext was false: kept
    UMF_OWN_WRONG_SIZE,  // size was neither 0 nor the entry's: kept
    UMF_OWN_BEING_FREED, // another take has it (a double free): kept
} umf_own_take_t;

umf_result_t umf_own_table_init(umf_own_table_t *t);
// Forgets every entry.
void umf_own_table_fini(umf_own_table_t *t);

// Whether inserts are held now (resident devices, or a change running).
static inline bool umf_own_table_active(const umf_own_table_t *t) {
    return __atomic_load_n(&t->active, __ATOMIC_ACQUIRE) != 0;
}

// ---- The hot path (inline) -------------------------------------------------

static inline void umf_own_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// The slow path of the lock: spins a while, then yields.
void umf_own_lock_wait(int *lock);

static inline void umf_own_lock(int *lock) {
    if (UMF_UNLIKELY(__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) != 0)) {
        umf_own_lock_wait(lock);
    }
}

static inline void umf_own_unlock(int *lock) {
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

// A key's hash: its top bits choose the segment, the next ones the home
// slot. Fibonacci hashing (a multiply by 2^64 over the golden ratio) spreads
// a dense range of integers as evenly as can be, every key in its home
// slot, so that a take reads one line and no branch of its probe or of the
// deletion mispredicts. Keys at a stride of 2^k, though, are multiplied in
// effect by 2^k times that, whose top bits cluster once the range is long:
// 400 000 pages of 4 KiB sat 1.1 slots from home on average, 100 000 blocks
// of 64 KiB 6.4 (random keys: about 0.4), and at a million live a take read
// about 1.3 missing lines, a deletion scanning its run. Drivers hand out
// page-aligned ranges, so the address is rotated right by a page's 12 bits
// first: a range of pages, or of larger blocks, is then a range of
// integers (times 2^(k - 12)); the bits below a page, of smaller strides,
// land at the top, where they pick the segment. One rotate and one
// multiply: the hash is on the critical path of every insert and take.
static inline uint64_t umf_own_hash(uint64_t key) {
    return ((key >> 12) | (key << 52)) * 0x9e3779b97f4a7c15ull;
}

static inline umf_own_segment_t *umf_own_segment_of(const umf_own_table_t *t,
                                                    uint64_t hash) {
    return &t->segments[hash >> (64 - UMF_OWN_SEGMENT_BITS)];
}

static inline size_t umf_own_home(const umf_own_segment_t *s, uint64_t hash) {
    return (size_t)((hash << UMF_OWN_SEGMENT_BITS) >> s->shift);
}

// The slot holding key, or NULL; the segment locked.
static inline umf_own_slot_t *umf_own_find_locked(umf_own_segment_t *s,
                                                  uint64_t hash, uint64_t key) {
    if (UMF_UNLIKELY(s->slots == NULL)) {
        return NULL;
    }
    for (size_t i = umf_own_home(s, hash);; i = (i + 1) & s->mask) {
        umf_own_slot_t *slot = &s->slots[i];
        if (slot->key == key) {
            return slot;
        }
        if (slot->key == 0) {
            return NULL;
        }
    }
}

static inline void umf_own_count_add(umf_own_segment_t *s, long delta) {
    __atomic_store_n(&s->count, s->count + (size_t)delta, __ATOMIC_RELAXED);
}

// Backward-shift deletion: the entries after the hole that would be found
// from their home slot through it move into it.
static inline void umf_own_delete_slot(umf_own_segment_t *s, size_t hole) {
    size_t i = hole;
    for (;;) {
        i = (i + 1) & s->mask;
        umf_own_slot_t *slot = &s->slots[i];
        if (slot->key == 0) {
            break;
        }
        size_t home = umf_own_home(s, umf_own_hash(slot->key));
        // Movable unless its home lies cyclically in (hole, i].
        bool stays =
            hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
        if (!stays) {
            s->slots[hole] = *slot;
            hole = i;
        }
    }
    s->slots[hole].key = 0;
    s->slots[hole].word = 0;
}

static inline bool umf_own_remove_locked(umf_own_segment_t *s,
                                         umf_own_slot_t *slot) {
    umf_own_count_add(s, -1);
    umf_own_delete_slot(s, (size_t)(slot - s->slots));
    return s->count < s->shrink_at;
}

// The slow paths (ownership_table.c).
bool umf_own_resize(umf_own_table_t *t, umf_own_segment_t *s, bool grow);
umf_result_t umf_own_insert_slow(umf_own_table_t *t, uint64_t key,
                                 uint64_t size, unsigned flags, bool *held,
                                 uint64_t *gen);
umf_own_take_t umf_own_take_slow(umf_own_table_t *t, uint64_t key,
                                 uint64_t size, bool ext, uint64_t *word,
                                 bool *freeing, uint64_t *gen);

// Stores an entry in the free slot the probe for key ends at, which the
// caller found to be free; the segment locked, with room for it.
static inline void umf_own_store_locked(const umf_own_table_t *t,
                                        umf_own_segment_t *s,
                                        umf_own_slot_t *slot, uint64_t key,
                                        uint64_t size, unsigned flags,
                                        bool *held, uint64_t *gen) {
    // The generation first: gen_begin sets `active` before it, so an insert
    // that sees the new generation also holds.
    uint64_t g = __atomic_load_n(&t->gen, __ATOMIC_ACQUIRE);
    unsigned epoch = (unsigned)(g & 1u);
    bool hold = __atomic_load_n(&t->active, __ATOMIC_RELAXED) != 0;
    slot->key = key;
    slot->word = size << UMF_OWN_FLAG_BITS | (flags & UMF_OWN_EXT) | epoch |
                 (hold ? UMF_OWN_HELD : 0u);
    umf_own_count_add(s, 1);
    *held = hold;
    *gen = g;
}

// Records key (not 0) with size (at most UMF_OWN_MAX_SIZE) and flags
// (UMF_OWN_EXT or 0). If the table is active the entry is held: *held is
// true and the caller releases it (umf_own_table_release). *gen gets the
// generation it was recorded under.
// UMF_RESULT_ERROR_INVALID_ARGUMENT if key is recorded already;
// UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY if the segment could not grow.
static inline umf_result_t umf_own_table_insert(umf_own_table_t *t,
                                                uint64_t key, uint64_t size,
                                                unsigned flags, bool *held,
                                                uint64_t *gen) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    if (UMF_UNLIKELY(key == 0 || size > UMF_OWN_MAX_SIZE)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_own_lock(&s->lock);
    // Room for one more below 3/4 load, else the slow path grows first.
    if (UMF_LIKELY(s->count < s->grow_at)) {
        for (size_t i = umf_own_home(s, hash);; i = (i + 1) & s->mask) {
            umf_own_slot_t *slot = &s->slots[i];
            if (slot->key == 0) {
                umf_own_store_locked(t, s, slot, key, size, flags, held, gen);
                umf_own_unlock(&s->lock);
                return UMF_RESULT_SUCCESS;
            }
            if (UMF_UNLIKELY(slot->key == key)) {
                umf_own_unlock(&s->lock);
                return UMF_RESULT_ERROR_INVALID_ARGUMENT;
            }
        }
    }
    umf_own_unlock(&s->lock);
    return umf_own_insert_slow(t, key, size, flags, held, gen);
}

// Takes key for a free: if its size is `size` (0: any) and it is no
// UMF_OWN_EXT entry (unless ext). While the table is not active the entry
// is removed; while it is, it stays flagged FREEING and *freeing is true.
// Either way the caller then reports the driver's answer with
// umf_own_table_finish. Waits while a walk visits the entry. *word gets the
// entry's word (also for UMF_OWN_WRONG_SIZE and UMF_OWN_EXT_ENTRY), *gen the
// generation at the take.
static inline umf_own_take_t umf_own_table_take(umf_own_table_t *t,
                                                uint64_t key, uint64_t size,
                                                bool ext, uint64_t *word,
                                                bool *freeing, uint64_t *gen) {
    uint64_t hash = umf_own_hash(key);
    umf_own_segment_t *s = umf_own_segment_of(t, hash);
    umf_own_lock(&s->lock);
    umf_own_slot_t *slot = umf_own_find_locked(s, hash, key);
    if (UMF_LIKELY(slot != NULL)) {
        uint64_t w = slot->word;
        *word = w;
        // The generation before `active` (see umf_own_store_locked): a
        // take that finds the table idle under an old generation is put
        // back held if its free fails (restore).
        uint64_t g = __atomic_load_n(&t->gen, __ATOMIC_ACQUIRE);
        // The common case: a plain entry of the right size, table idle.
        if (UMF_LIKELY((w & (UMF_OWN_EXT | UMF_OWN_HELD | UMF_OWN_PIN |
                             UMF_OWN_FREEING)) == 0 &&
                       (size == 0 || umf_own_size(w) == size) &&
                       __atomic_load_n(&t->active, __ATOMIC_RELAXED) == 0)) {
            *gen = g;
            *freeing = false;
            bool shrink = umf_own_remove_locked(s, slot);
            umf_own_unlock(&s->lock);
            if (UMF_UNLIKELY(shrink)) {
                (void)umf_own_resize(t, s, false);
            }
            return UMF_OWN_TAKEN;
        }
    }
    umf_own_unlock(&s->lock);
    if (slot == NULL) {
        return UMF_OWN_ABSENT;
    }
    return umf_own_take_slow(t, key, size, ext, word, freeing, gen);
}

// ---- The rest (ownership_table.c) ------------------------------------------

// After umf_own_table_take: `freed` tells whether the driver freed it. A
// FREEING entry is removed, or unflagged; an entry removed already is put
// back if not freed (restore): held for new residency if the generation
// changed since the take (*held true: the caller makes it resident for
// *gen and releases it). Putting back needs no memory.
void umf_own_table_finish(umf_own_table_t *t, uint64_t key, uint64_t word,
                          bool freeing, uint64_t take_gen, bool freed,
                          bool *held, uint64_t *gen);

// Releases an entry inserted held (after its caller's residency calls).
void umf_own_table_release(umf_own_table_t *t, uint64_t key);

// Removes an entry that is held or an UMF_OWN_EXT one the caller gives up
// (undoing an insert). False if there is none.
bool umf_own_table_remove(umf_own_table_t *t, uint64_t key);

// The word of key if it is a live entry (not held, not being freed).
bool umf_own_table_lookup(umf_own_table_t *t, uint64_t key, uint64_t *word);

// Marks key UMF_OWN_EXT if it is a live plain entry of `size` bytes (a whole
// allocation being split); or clears the mark again (on_off false). *word
// gets the entry's word. UMF_OWN_ABSENT, UMF_OWN_EXT_ENTRY (already marked),
// UMF_OWN_WRONG_SIZE, or UMF_OWN_TAKEN when done.
umf_own_take_t umf_own_table_mark_ext(umf_own_table_t *t, uint64_t key,
                                      uint64_t size, bool on_off,
                                      uint64_t *word);

// Live entries (every segment locked in turn; a snapshot only if no insert
// or take runs).
size_t umf_own_table_count(umf_own_table_t *t);

// The bytes of the slot arrays of a table that holds `entries` spread evenly
// over its segments (for the benchmark, which sizes its cache-miss
// measurement by it): each segment's capacity as the inserts grow it.
static inline size_t umf_own_table_bytes(size_t entries) {
    size_t per = (entries + UMF_OWN_SEGMENTS - 1) / UMF_OWN_SEGMENTS;
    size_t capacity = UMF_OWN_MIN_CAPACITY;
    while (per * 4 > capacity * 3) {
        capacity *= 2;
    }
    return UMF_OWN_SEGMENTS * capacity * sizeof(umf_own_slot_t);
}

// Residency: starts generation gen + 1 (which the caller's list for it
// must already describe); from then on every insert is held, until
// gen_end(active): whether inserts stay held (the new list is not empty).
// The caller serialises changes.
uint64_t umf_own_table_gen_begin(umf_own_table_t *t);
void umf_own_table_gen_end(umf_own_table_t *t, bool active);

// Visits (key, size) of every entry recorded under an older generation than
// the current one, in batches of at most `batch` entries, with no lock held
// during the visits; an entry visited successfully takes the current
// generation. Returns the first error of visit (entries not visited keep
// their generation). Waits for held and FREEING entries of the older
// generation to be released or freed.
typedef umf_result_t (*umf_own_visit_fn)(void *arg, uint64_t key,
                                         uint64_t size);
umf_result_t umf_own_table_walk(umf_own_table_t *t, umf_own_visit_fn visit,
                                void *arg, size_t batch);

#endif // UMF_GPU_OWNERSHIP_TABLE_H
