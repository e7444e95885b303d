// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "alloc_tracker.h"

#include <pthread.h>
#include <stdlib.h>

#include "gpu_log.h"
#include "util_common.h"
#include "util_hash_map.h"
#include "util_umf_log.h"

#define SHARD_COUNT 16
#define SHARD_BITS 4
_Static_assert((1 << SHARD_BITS) == SHARD_COUNT, "shard bits match count");

typedef struct record_t record_t;

typedef struct piece_t {
    uintptr_t start;
    size_t size;
    record_t *record;
    struct piece_t *prev, *next; // neighbours in the record, by address
} piece_t;

// One per driver allocation with tracked pieces.
struct record_t {
    pthread_mutex_t lock; // guards pieces, head and every piece's links
    uintptr_t driver_base;
    size_t driver_size;
    size_t pieces;
    piece_t *head; // the lowest piece
};

struct umf_alloc_tracker_shard_t {
    pthread_mutex_t lock;   // guards both maps and the size of their pieces
    umf_hash_map_t pieces;  // piece start -> piece_t
    umf_hash_map_t records; // driver base -> record_t
} __attribute__((aligned(64)));

static unsigned shard_index(uintptr_t key) {
    return (unsigned)(umf_hash_u64(key) >> (64 - SHARD_BITS));
}

static umf_alloc_tracker_shard_t *shard_of(umf_alloc_tracker_t *t,
                                           uintptr_t key) {
    return &t->shards[shard_index(key)];
}

// Locks the shards of up to three keys, each once, in ascending order.
typedef struct shard_set_t {
    unsigned idx[3];
    unsigned n;
} shard_set_t;

static void shards_lock(umf_alloc_tracker_t *t, shard_set_t *set,
                        const uintptr_t *keys, unsigned nkeys) {
    set->n = 0;
    for (unsigned k = 0; k < nkeys; k++) {
        unsigned idx = shard_index(keys[k]), pos = set->n;
        bool dup = false;
        for (unsigned j = 0; j < set->n; j++) {
            dup |= set->idx[j] == idx;
        }
        if (dup) {
            continue;
        }
        while (pos > 0 && set->idx[pos - 1] > idx) {
            set->idx[pos] = set->idx[pos - 1];
            pos--;
        }
        set->idx[pos] = idx;
        set->n++;
    }
    for (unsigned j = 0; j < set->n; j++) {
        pthread_mutex_lock(&t->shards[set->idx[j]].lock);
    }
}

static void shards_unlock(umf_alloc_tracker_t *t, const shard_set_t *set) {
    for (unsigned j = set->n; j > 0; j--) {
        pthread_mutex_unlock(&t->shards[set->idx[j - 1]].lock);
    }
}

static void mark_in_use(umf_alloc_tracker_t *t) {
    __atomic_store_n(&t->in_use, 1, __ATOMIC_RELAXED);
}

umf_result_t umf_alloc_tracker_init(umf_alloc_tracker_t *t) {
    t->in_use = 0;
    t->shards = aligned_alloc(64, sizeof(*t->shards) * SHARD_COUNT);
    if (t->shards == NULL) {
        UMF_GPU_LOG_RETURNED("allocation tracker: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (unsigned i = 0; i < SHARD_COUNT; i++) {
        pthread_mutex_init(&t->shards[i].lock, NULL);
        t->shards[i].pieces = (umf_hash_map_t)UMF_HASH_MAP_INIT;
        t->shards[i].records = (umf_hash_map_t)UMF_HASH_MAP_INIT;
    }
    return UMF_RESULT_SUCCESS;
}

static void free_piece(uint64_t key, void *value, void *arg) {
    (void)key, (void)arg;
    free(value);
}

static void free_record(uint64_t key, void *value, void *arg) {
    (void)key, (void)arg;
    record_t *r = value;
    pthread_mutex_destroy(&r->lock);
    free(r);
}

void umf_alloc_tracker_fini(umf_alloc_tracker_t *t) {
    if (t->shards == NULL) {
        return;
    }
    for (unsigned i = 0; i < SHARD_COUNT; i++) {
        umf_alloc_tracker_shard_t *s = &t->shards[i];
        umf_hash_map_foreach(&s->pieces, free_piece, NULL);
        umf_hash_map_foreach(&s->records, free_record, NULL);
        umf_hash_map_clear(&s->pieces);
        umf_hash_map_clear(&s->records);
        pthread_mutex_destroy(&s->lock);
    }
    free(t->shards);
    t->shards = NULL;
}

static void fill_info(umf_alloc_piece_info_t *info, const piece_t *p) {
    info->ptr = (void *)p->start;
    info->size = p->size;
    info->driver_base = p->record->driver_base;
    info->driver_size = p->record->driver_size;
}

// Records a new driver allocation with its pieces (1 or 2, linked in address
// order by the caller) under the shards of every key involved.
static umf_result_t insert_new_record(umf_alloc_tracker_t *t, record_t *rec,
                                      piece_t **pieces, unsigned npieces) {
    uintptr_t keys[3] = {rec->driver_base, pieces[0]->start,
                         npieces > 1 ? pieces[1]->start : pieces[0]->start};
    shard_set_t set;
    shards_lock(t, &set, keys, 3);
    umf_result_t ret = UMF_RESULT_SUCCESS;
    umf_alloc_tracker_shard_t *rs = shard_of(t, rec->driver_base);
    if (umf_hash_map_get(&rs->records, rec->driver_base) != NULL) {
        UMF_LOG_ERROR("allocation tracker: the driver allocation at 0x%zx is "
                      "already tracked",
                      (size_t)rec->driver_base);
        ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
        goto out;
    }
    for (unsigned i = 0; i < npieces; i++) {
        umf_alloc_tracker_shard_t *s = shard_of(t, pieces[i]->start);
        if (umf_hash_map_get(&s->pieces, pieces[i]->start) != NULL) {
            UMF_LOG_ERROR("allocation tracker: a piece at %p is already "
                          "tracked",
                          (void *)pieces[i]->start);
            ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
            goto out;
        }
    }
    // Reserve first, so that the inserts below cannot fail half-way.
    ret = umf_hash_map_reserve(&rs->records, 1);
    for (unsigned i = 0; i < npieces && ret == UMF_RESULT_SUCCESS; i++) {
        ret = umf_hash_map_reserve(&shard_of(t, pieces[i]->start)->pieces,
                                   npieces);
    }
    if (ret != UMF_RESULT_SUCCESS) {
        UMF_GPU_LOG_RETURNED("allocation tracker: out of host memory");
        goto out;
    }
    mark_in_use(t);
    (void)umf_hash_map_put(&rs->records, rec->driver_base, rec);
    for (unsigned i = 0; i < npieces; i++) {
        (void)umf_hash_map_put(&shard_of(t, pieces[i]->start)->pieces,
                               pieces[i]->start, pieces[i]);
    }
out:
    shards_unlock(t, &set);
    return ret;
}

static record_t *new_record(uintptr_t driver_base, size_t driver_size) {
    record_t *rec = malloc(sizeof(*rec));
    if (rec != NULL) {
        pthread_mutex_init(&rec->lock, NULL);
        rec->driver_base = driver_base;
        rec->driver_size = driver_size;
        rec->pieces = 0;
        rec->head = NULL;
    }
    return rec;
}

static bool inside(uintptr_t start, size_t size, uintptr_t base,
                   size_t base_size) {
    return start >= base && size <= base_size &&
           start - base <= base_size - size;
}

umf_result_t umf_alloc_tracker_add(umf_alloc_tracker_t *t, void *ptr,
                                   size_t size, uintptr_t driver_base,
                                   size_t driver_size) {
    uintptr_t start = (uintptr_t)ptr;
    if (ptr == NULL || size == 0 ||
        !inside(start, size, driver_base, driver_size)) {
        UMF_LOG_ERROR("allocation tracker: piece %p (%zu bytes) is not inside "
                      "the driver allocation at 0x%zx (%zu bytes)",
                      ptr, size, (size_t)driver_base, driver_size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    record_t *rec = new_record(driver_base, driver_size);
    piece_t *p = malloc(sizeof(*p));
    if (rec == NULL || p == NULL) {
        UMF_GPU_LOG_RETURNED("allocation tracker: out of host memory");
        goto err_free;
    }
    *p = (piece_t){start, size, rec, NULL, NULL};
    rec->head = p;
    rec->pieces = 1;
    umf_result_t ret = insert_new_record(t, rec, &p, 1);
    if (ret != UMF_RESULT_SUCCESS) {
        free(p);
        free_record(0, rec, NULL);
    }
    return ret;

err_free:
    free(p);
    if (rec != NULL) {
        free_record(0, rec, NULL);
    }
    return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

bool umf_alloc_split_sizes_ok(const char *who, const void *ptr,
                              size_t total_size, size_t first_size) {
    if (ptr == NULL || first_size == 0 || first_size >= total_size ||
        (uintptr_t)ptr > UINTPTR_MAX - total_size) {
        UMF_GPU_LOG_RETURNED("%s: %p, total %zu, first %zu: sizes out of range",
                             who, ptr, total_size, first_size);
        return false;
    }
    return true;
}

umf_result_t umf_alloc_tracker_split_whole(umf_alloc_tracker_t *t, void *ptr,
                                           size_t total_size,
                                           size_t first_size) {
    uintptr_t start = (uintptr_t)ptr;
    if (!umf_alloc_split_sizes_ok("allocation split", ptr, total_size,
                                  first_size)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    record_t *rec = new_record(start, total_size);
    piece_t *first = malloc(sizeof(*first));
    piece_t *second = malloc(sizeof(*second));
    umf_result_t ret = UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (rec == NULL || first == NULL || second == NULL) {
        UMF_GPU_LOG_RETURNED("allocation split: out of host memory");
        goto err_free;
    }
    *first = (piece_t){start, first_size, rec, NULL, second};
    *second = (piece_t){start + first_size, total_size - first_size, rec, first,
                        NULL};
    rec->head = first;
    rec->pieces = 2;
    piece_t *pieces[2] = {first, second};
    ret = insert_new_record(t, rec, pieces, 2);
    if (ret == UMF_RESULT_SUCCESS) {
        return ret;
    }
err_free:
    free(first);
    free(second);
    if (rec != NULL) {
        free_record(0, rec, NULL);
    }
    return ret;
}

umf_result_t umf_alloc_tracker_split(umf_alloc_tracker_t *t, void *ptr,
                                     size_t total_size, size_t first_size,
                                     bool *tracked) {
    uintptr_t start = (uintptr_t)ptr;
    *tracked = false;
    if (!umf_alloc_split_sizes_ok("allocation split", ptr, total_size,
                                  first_size)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    piece_t *second = malloc(sizeof(*second));
    if (second == NULL) {
        UMF_GPU_LOG_RETURNED("allocation split: out of host memory");
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    uintptr_t second_start = start + first_size;
    uintptr_t keys[2] = {start, second_start};
    shard_set_t set;
    shards_lock(t, &set, keys, 2);
    umf_alloc_tracker_shard_t *s = shard_of(t, start);
    umf_alloc_tracker_shard_t *s2 = shard_of(t, second_start);
    piece_t *p = umf_hash_map_get(&s->pieces, start);
    umf_result_t ret = UMF_RESULT_SUCCESS;
    if (p == NULL) {
        shards_unlock(t, &set);
        free(second);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT; // not a piece: the caller's
    }
    *tracked = true;
    if (p->size != total_size) {
        UMF_GPU_LOG_RETURNED(
            "allocation split: the piece at %p has %zu bytes, not "
            "%zu",
            ptr, p->size, total_size);
        ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
        goto out;
    }
    if (umf_hash_map_get(&s2->pieces, second_start) != NULL ||
        umf_hash_map_reserve(&s2->pieces, 1) != UMF_RESULT_SUCCESS) {
        // A second piece there would mean overlapping pieces.
        ret = umf_hash_map_get(&s2->pieces, second_start) != NULL
                  ? UMF_RESULT_ERROR_INVALID_ARGUMENT
                  : UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        UMF_GPU_LOG_RETURNED("allocation split: cannot record the piece at %p",
                             (void *)second_start);
        goto out;
    }
    record_t *rec = p->record;
    pthread_mutex_lock(&rec->lock);
    *second = (piece_t){second_start, total_size - first_size, rec, p, p->next};
    if (p->next != NULL) {
        p->next->prev = second;
    }
    p->next = second;
    p->size = first_size;
    rec->pieces++;
    pthread_mutex_unlock(&rec->lock);
    (void)umf_hash_map_put(&s2->pieces, second_start, second);
    second = NULL;
out:
    shards_unlock(t, &set);
    free(second);
    return ret;
}

umf_result_t umf_alloc_tracker_merge(umf_alloc_tracker_t *t, void *low,
                                     void *high, size_t total_size) {
    uintptr_t lo = (uintptr_t)low, hi = (uintptr_t)high;
    if (low == NULL || high == NULL || hi <= lo) {
        UMF_GPU_LOG_RETURNED("allocation merge: %p and %p are not in order",
                             low, high);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    uintptr_t keys[2] = {lo, hi};
    shard_set_t set;
    shards_lock(t, &set, keys, 2);
    umf_alloc_tracker_shard_t *sh = shard_of(t, hi);
    piece_t *pl = umf_hash_map_get(&shard_of(t, lo)->pieces, lo);
    piece_t *ph = umf_hash_map_get(&sh->pieces, hi);
    umf_result_t ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
    if (pl == NULL || ph == NULL || pl->record != ph->record) {
        UMF_GPU_LOG_RETURNED(
            "allocation merge: %p and %p are not pieces of one "
            "driver allocation",
            low, high);
        goto out;
    }
    record_t *rec = pl->record;
    pthread_mutex_lock(&rec->lock);
    if (pl->next != ph || lo + pl->size != hi ||
        total_size != pl->size + ph->size) {
        pthread_mutex_unlock(&rec->lock);
        UMF_GPU_LOG_RETURNED(
            "allocation merge: %p (%zu bytes) and %p (%zu bytes) "
            "are not adjacent or do not total %zu bytes",
            low, pl->size, high, ph->size, total_size);
        goto out;
    }
    pl->size = total_size;
    pl->next = ph->next;
    if (ph->next != NULL) {
        ph->next->prev = pl;
    }
    rec->pieces--;
    pthread_mutex_unlock(&rec->lock);
    (void)umf_hash_map_remove(&sh->pieces, hi);
    free(ph);
    ret = UMF_RESULT_SUCCESS;
out:
    shards_unlock(t, &set);
    return ret;
}

umf_result_t umf_alloc_tracker_remove(umf_alloc_tracker_t *t, void *ptr,
                                      size_t size, bool *found, bool *release,
                                      umf_alloc_piece_info_t *info) {
    uintptr_t start = (uintptr_t)ptr;
    umf_alloc_tracker_shard_t *s = shard_of(t, start);
    *found = false;
    *release = false;
    pthread_mutex_lock(&s->lock);
    piece_t *p = umf_hash_map_get(&s->pieces, start);
    if (p == NULL) {
        pthread_mutex_unlock(&s->lock);
        return UMF_RESULT_SUCCESS;
    }
    if (size != 0 && size != p->size) {
        pthread_mutex_unlock(&s->lock);
        UMF_GPU_LOG_RETURNED(
            "free: the allocation at %p has %zu bytes, not %zu", ptr, p->size,
            size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    (void)umf_hash_map_remove(&s->pieces, start);
    record_t *rec = p->record;
    pthread_mutex_lock(&rec->lock);
    fill_info(info, p);
    if (p->prev != NULL) {
        p->prev->next = p->next;
    } else {
        rec->head = p->next;
    }
    if (p->next != NULL) {
        p->next->prev = p->prev;
    }
    bool last = --rec->pieces == 0;
    pthread_mutex_unlock(&rec->lock);
    pthread_mutex_unlock(&s->lock);
    free(p);
    *found = true;
    if (last) {
        // No piece is left to reach the record but through the records map,
        // whose readers hold this shard's lock while they use it.
        umf_alloc_tracker_shard_t *rs = shard_of(t, rec->driver_base);
        pthread_mutex_lock(&rs->lock);
        (void)umf_hash_map_remove(&rs->records, rec->driver_base);
        pthread_mutex_unlock(&rs->lock);
        free_record(0, rec, NULL);
        *release = true;
    }
    return UMF_RESULT_SUCCESS;
}

bool umf_alloc_tracker_tracks(umf_alloc_tracker_t *t, uintptr_t driver_base) {
    if (!umf_alloc_tracker_in_use(t)) {
        return false;
    }
    umf_alloc_tracker_shard_t *rs = shard_of(t, driver_base);
    pthread_mutex_lock(&rs->lock);
    bool tracked = umf_hash_map_get(&rs->records, driver_base) != NULL;
    pthread_mutex_unlock(&rs->lock);
    return tracked;
}

bool umf_alloc_tracker_find(umf_alloc_tracker_t *t, uintptr_t driver_base,
                            const void *ptr, umf_alloc_piece_info_t *info) {
    if (!umf_alloc_tracker_in_use(t)) {
        return false;
    }
    uintptr_t addr = (uintptr_t)ptr;
    umf_alloc_tracker_shard_t *rs = shard_of(t, driver_base);
    bool found = false;
    pthread_mutex_lock(&rs->lock);
    record_t *rec = umf_hash_map_get(&rs->records, driver_base);
    if (rec != NULL) {
        pthread_mutex_lock(&rec->lock);
        for (piece_t *p = rec->head; p != NULL && p->start <= addr;
             p = p->next) {
            if (addr - p->start < p->size) {
                fill_info(info, p);
                found = true;
                break;
            }
        }
        pthread_mutex_unlock(&rec->lock);
    }
    pthread_mutex_unlock(&rs->lock);
    return found;
}
