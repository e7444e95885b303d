// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ipc_cache.h"

#include <pthread.h>
#include <stdlib.h>

#include "util_common.h"
#include "util_hash_map.h"
#include "util_umf_log.h"

typedef enum entry_state_t {
    ENTRY_OPENING, // the map callback runs; others wait
    ENTRY_OPEN,
    ENTRY_CLOSING, // the unmap callback runs; others wait
} entry_state_t;

typedef struct cache_entry_t {
    umf_ipc_cache_key_t key;
    uint64_t hash;
    struct cache_entry_t *next; // the next entry whose key has the same hash
    entry_state_t state;
    bool local; // the producer's own memory: its unmap releases nothing
    size_t refs;
    umf_ipc_cache_mapping_t mapping;
    umf_ipc_cache_unmap_fn unmap;
} cache_entry_t;

// One per (context, pointer returned by open, entry): what close looks up.
// Two entries share a pointer only where one of them is local (a freed
// allocation's address handed out again).
typedef struct ptr_record_t {
    const void *context;
    void *ptr;
    uint64_t hash;
    struct ptr_record_t *next; // the next record whose key has the same hash
    cache_entry_t *entry;
    size_t opens; // opens that returned this pointer and are not closed
} ptr_record_t;

typedef struct ipc_cache_t {
    pthread_mutex_t lock;
    pthread_cond_t changed; // an entry left OPENING or CLOSING
    umf_hash_map_t entries; // key hash -> chain of cache_entry_t
    umf_hash_map_t ptrs;    // (context, ptr) hash -> chain of ptr_record_t
    size_t entry_count;
} ipc_cache_t;

#define CACHE_INIT                                                             \
    {                                                                          \
        PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,                   \
            UMF_HASH_MAP_INIT, UMF_HASH_MAP_INIT, 0                            \
    }

static ipc_cache_t caches[UMF_GPU_PROVIDER_KIND_COUNT] = {CACHE_INIT,
                                                          CACHE_INIT};

static ipc_cache_t *cache_of(umf_gpu_provider_kind_t kind) {
    unsigned index = umf_gpu_provider_kind_index(kind);
    return index < UMF_GPU_PROVIDER_KIND_COUNT ? &caches[index] : NULL;
}

static uint64_t key_hash(const umf_ipc_cache_key_t *key) {
    uint64_t h = umf_hash_u64((uintptr_t)key->context ^ key->instance_id);
    h = umf_hash_u64(h ^ key->alloc_id ^ (key->producer_pid << 40));
    return umf_hash_u64(h ^ key->base ^ key->size ^ key->start_time ^
                        key->pidfs_ino ^ key->fd_ino);
}

static uint64_t ptr_hash(const void *context, const void *ptr) {
    return umf_hash_u64((uintptr_t)context) ^ (uintptr_t)ptr;
}

static bool key_equal(const umf_ipc_cache_key_t *a,
                      const umf_ipc_cache_key_t *b) {
    return a->context == b->context && a->instance_id == b->instance_id &&
           a->alloc_id == b->alloc_id && a->producer_pid == b->producer_pid &&
           a->start_time == b->start_time && a->pidfs_ino == b->pidfs_ino &&
           a->base == b->base && a->size == b->size && a->fd_dev == b->fd_dev &&
           a->fd_ino == b->fd_ino;
}

// --- chains of equal hashes inside the maps (the caller holds the lock)

static cache_entry_t *entry_find(ipc_cache_t *c, const umf_ipc_cache_key_t *key,
                                 uint64_t hash) {
    for (cache_entry_t *e = umf_hash_map_get(&c->entries, hash); e != NULL;
         e = e->next) {
        if (key_equal(&e->key, key)) {
            return e;
        }
    }
    return NULL;
}

static umf_result_t entry_insert(ipc_cache_t *c, cache_entry_t *e) {
    e->next = umf_hash_map_get(&c->entries, e->hash);
    umf_result_t ret = umf_hash_map_put(&c->entries, e->hash, e);
    if (ret == UMF_RESULT_SUCCESS) {
        c->entry_count++;
    }
    return ret;
}

static void entry_remove(ipc_cache_t *c, cache_entry_t *e) {
    cache_entry_t *head = umf_hash_map_get(&c->entries, e->hash);
    if (head == e) {
        if (e->next != NULL) {
            // Replacing an existing key's value never allocates.
            (void)umf_hash_map_put(&c->entries, e->hash, e->next);
        } else {
            (void)umf_hash_map_remove(&c->entries, e->hash);
        }
    } else {
        for (cache_entry_t *p = head; p != NULL; p = p->next) {
            if (p->next == e) {
                p->next = e->next;
                break;
            }
        }
    }
    c->entry_count--;
}

// The record of `entry`'s opens that returned `ptr` on `context`, or NULL.
static ptr_record_t *record_find(ipc_cache_t *c, const void *context,
                                 const void *ptr, const cache_entry_t *entry,
                                 uint64_t hash) {
    for (ptr_record_t *r = umf_hash_map_get(&c->ptrs, hash); r != NULL;
         r = r->next) {
        if (r->context == context && r->ptr == ptr && r->entry == entry) {
            return r;
        }
    }
    return NULL;
}

// The record a close of `ptr` on `context` drops an open of: a local
// entry's first, whose last close unmaps nothing, so that no close unmaps
// memory that an open of another entry at the same pointer still uses.
static ptr_record_t *record_for_close(ipc_cache_t *c, const void *context,
                                      const void *ptr, uint64_t hash) {
    ptr_record_t *found = NULL;
    for (ptr_record_t *r = umf_hash_map_get(&c->ptrs, hash); r != NULL;
         r = r->next) {
        if (r->context == context && r->ptr == ptr) {
            if (r->entry->local) {
                return r;
            }
            found = r;
        }
    }
    return found;
}

// Whether a new remote entry `e` would return `ptr` where another remote
// entry's open already did: the driver mapped two exports at one address,
// and a close could not tell them apart.
static bool record_aliases(ipc_cache_t *c, const cache_entry_t *e,
                           const void *ptr) {
    if (e->local) {
        return false;
    }
    uint64_t hash = ptr_hash(e->key.context, ptr);
    for (ptr_record_t *r = umf_hash_map_get(&c->ptrs, hash); r != NULL;
         r = r->next) {
        if (r->context == e->key.context && r->ptr == ptr && r->entry != e &&
            !r->entry->local) {
            return true;
        }
    }
    return false;
}

static umf_result_t record_insert(ipc_cache_t *c, ptr_record_t *r) {
    r->next = umf_hash_map_get(&c->ptrs, r->hash);
    return umf_hash_map_put(&c->ptrs, r->hash, r);
}

static void record_remove(ipc_cache_t *c, ptr_record_t *r) {
    ptr_record_t *head = umf_hash_map_get(&c->ptrs, r->hash);
    if (head == r) {
        if (r->next != NULL) {
            (void)umf_hash_map_put(&c->ptrs, r->hash, r->next);
        } else {
            (void)umf_hash_map_remove(&c->ptrs, r->hash);
        }
    } else {
        for (ptr_record_t *p = head; p != NULL; p = p->next) {
            if (p->next == r) {
                p->next = r->next;
                break;
            }
        }
    }
}

// Counts one more open of `entry` that returned `ptr`, using *spare for a new
// record (and clearing *spare if it did). The caller holds the lock.
static umf_result_t record_open(ipc_cache_t *c, cache_entry_t *entry, void *ptr,
                                ptr_record_t **spare) {
    uint64_t hash = ptr_hash(entry->key.context, ptr);
    ptr_record_t *r = record_find(c, entry->key.context, ptr, entry, hash);
    if (r != NULL) {
        r->opens++;
        return UMF_RESULT_SUCCESS;
    }
    r = *spare;
    r->context = entry->key.context;
    r->ptr = ptr;
    r->hash = hash;
    r->entry = entry;
    r->opens = 1;
    umf_result_t ret = record_insert(c, r);
    if (ret == UMF_RESULT_SUCCESS) {
        *spare = NULL;
    }
    return ret;
}

// --- open

// What an open may need to allocate. It allocates without the lock held,
// and only what the path it takes needs: a hit on a pointer opened before
// allocates nothing.
typedef struct spares_t {
    cache_entry_t *entry;
    ptr_record_t *record;
} spares_t;

static void spares_free(spares_t *s) {
    free(s->entry);
    free(s->record);
}

// The OPEN entry of `key`, or NULL if there is none; waits (the lock held,
// and released while waiting) for an entry that is being mapped or unmapped.
static cache_entry_t *
entry_find_open(ipc_cache_t *c, const umf_ipc_cache_key_t *key, uint64_t hash) {
    for (;;) {
        cache_entry_t *e = entry_find(c, key, hash);
        if (e == NULL || e->state == ENTRY_OPEN) {
            return e;
        }
        pthread_cond_wait(&c->changed, &c->lock);
    }
}

// A hit. Relies on: `e` is OPEN, its mapping holds e->key.size bytes (its
// miss checked that) and offset < e->key.size (the caller checked that), so
// the pointer lies inside what the driver mapped; *spare is a record if no
// open of `e` returned this pointer before.
static umf_result_t open_hit(ipc_cache_t *c, cache_entry_t *e, size_t offset,
                             spares_t *spares, void **ptr) {
    void *p = (char *)e->mapping.base + offset;
    umf_result_t ret = record_open(c, e, p, &spares->record);
    if (ret == UMF_RESULT_SUCCESS) {
        e->refs++;
        *ptr = p;
    }
    return ret;
}

// The mapping a miss made holds what the key claims.
static umf_result_t check_mapping(const umf_ipc_cache_key_t *key,
                                  const umf_ipc_cache_mapping_t *m) {
    if (m->base == NULL) {
        UMF_LOG_ERROR("IPC cache: the provider mapped the handle at NULL");
        return UMF_RESULT_ERROR_UNKNOWN;
    }
    if (key->size > m->size) {
        UMF_LOG_ERROR("IPC cache: the IPC data claims an allocation of %llu "
                      "bytes, but the driver mapped %zu bytes at %p: the data "
                      "is forged or corrupted, and is refused",
                      (unsigned long long)key->size, m->size, m->base);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

// A miss: publishes an OPENING entry, maps without the lock, and either
// makes it OPEN with one open or undoes everything. Relies on: the lock is
// held (and is again on return), `key` has no entry, and spares hold an
// entry and a record. A failed entry goes back to spares->entry, for the
// caller to free once it released the lock.
static umf_result_t open_miss(ipc_cache_t *c, const umf_ipc_cache_key_t *key,
                              uint64_t hash, size_t offset, bool local,
                              umf_ipc_cache_map_fn map, void *map_arg,
                              umf_ipc_cache_unmap_fn unmap, spares_t *spares,
                              void **ptr) {
    cache_entry_t *e = spares->entry;
    spares->entry = NULL;
    e->key = *key;
    e->hash = hash;
    e->state = ENTRY_OPENING;
    e->local = local;
    e->refs = 0;
    e->mapping.base = NULL;
    e->mapping.size = 0;
    e->mapping.cookie = 0;
    e->unmap = unmap;
    umf_result_t ret = entry_insert(c, e);
    if (ret != UMF_RESULT_SUCCESS) {
        spares->entry = e;
        return ret;
    }
    pthread_mutex_unlock(&c->lock);
    ret = map(map_arg, &e->mapping);
    bool mapped = ret == UMF_RESULT_SUCCESS;
    if (mapped) {
        ret = check_mapping(key, &e->mapping);
    }
    pthread_mutex_lock(&c->lock);

    void *p =
        ret == UMF_RESULT_SUCCESS ? (char *)e->mapping.base + offset : NULL;
    if (ret == UMF_RESULT_SUCCESS && record_aliases(c, e, p)) {
        UMF_LOG_ERROR("IPC cache: the driver mapped an export at %p, where "
                      "the open of another export returned the same pointer; "
                      "refused",
                      p);
        ret = UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (ret == UMF_RESULT_SUCCESS) {
        ret = record_open(c, e, p, &spares->record);
    }
    if (ret != UMF_RESULT_SUCCESS) {
        if (mapped) {
            // Undo the mapping; opens of the key wait meanwhile.
            e->state = ENTRY_CLOSING;
            pthread_mutex_unlock(&c->lock);
            (void)unmap(&e->key, &e->mapping);
            pthread_mutex_lock(&c->lock);
        }
        entry_remove(c, e);
        pthread_cond_broadcast(&c->changed);
        spares->entry = e;
        return ret;
    }
    e->state = ENTRY_OPEN;
    e->refs = 1;
    pthread_cond_broadcast(&c->changed);
    *ptr = p;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_ipc_cache_open(umf_gpu_provider_kind_t kind,
                                const umf_ipc_cache_key_t *key, size_t offset,
                                bool local, umf_ipc_cache_map_fn map,
                                void *map_arg, umf_ipc_cache_unmap_fn unmap,
                                void **ptr, bool *hit) {
    ipc_cache_t *c = cache_of(kind);
    if (c == NULL || key == NULL || key->size == 0 || offset >= key->size ||
        map == NULL || unmap == NULL || ptr == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    spares_t spares = {NULL, NULL};
    uint64_t hash = key_hash(key);
    umf_result_t ret;
    bool was_hit;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        cache_entry_t *e = entry_find_open(c, key, hash);
        bool need_entry = e == NULL && spares.entry == NULL;
        bool need_record = spares.record == NULL;
        if (need_record && e != NULL) {
            void *p = (char *)e->mapping.base + offset;
            need_record = record_find(c, key->context, p, e,
                                      ptr_hash(key->context, p)) == NULL;
        }
        if (!need_entry && !need_record) {
            was_hit = e != NULL;
            ret = was_hit ? open_hit(c, e, offset, &spares, ptr)
                          : open_miss(c, key, hash, offset, local, map, map_arg,
                                      unmap, &spares, ptr);
            break;
        }
        // Allocate, then look again: the cache may change meanwhile.
        pthread_mutex_unlock(&c->lock);
        if (need_entry) {
            spares.entry = malloc(sizeof(*spares.entry));
        }
        if (need_record) {
            spares.record = malloc(sizeof(*spares.record));
        }
        if ((need_entry && spares.entry == NULL) ||
            (need_record && spares.record == NULL)) {
            UMF_LOG_ERROR("IPC cache: out of host memory");
            spares_free(&spares);
            return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        pthread_mutex_lock(&c->lock);
    }
    pthread_mutex_unlock(&c->lock);
    spares_free(&spares);
    if (ret == UMF_RESULT_SUCCESS && hit != NULL) {
        *hit = was_hit;
    }
    return ret;
}

// --- close

// The last open of `e` (so r->opens is 1 too): unmaps without the lock,
// while opens of the key wait. Relies on: the lock is held, and is released
// on return.
static umf_result_t close_last(ipc_cache_t *c, cache_entry_t *e,
                               ptr_record_t *r) {
    e->state = ENTRY_CLOSING;
    record_remove(c, r);
    pthread_mutex_unlock(&c->lock);

    umf_result_t ret = e->unmap(&e->key, &e->mapping);

    pthread_mutex_lock(&c->lock);
    if (ret == UMF_RESULT_SUCCESS) {
        entry_remove(c, e);
    } else {
        // Still mapped: keep it open so the close can be retried. Putting
        // back a record whose hash slot was just removed may need to grow
        // the map; if even that fails, the mapping stays, unreachable.
        e->state = ENTRY_OPEN;
        if (record_insert(c, r) != UMF_RESULT_SUCCESS) {
            UMF_LOG_ERROR("IPC cache: out of host memory after a failed "
                          "unmap; the mapping at %p is lost",
                          e->mapping.base);
        } else {
            r = NULL;
        }
        e = NULL;
    }
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
    free(r);
    free(e);
    return ret;
}

umf_result_t umf_ipc_cache_close(umf_gpu_provider_kind_t kind,
                                 const void *context, void *ptr) {
    ipc_cache_t *c = cache_of(kind);
    if (c == NULL || ptr == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    uint64_t hash = ptr_hash(context, ptr);
    pthread_mutex_lock(&c->lock);
    ptr_record_t *r = record_for_close(c, context, ptr, hash);
    if (r == NULL) {
        pthread_mutex_unlock(&c->lock);
        UMF_LOG_ERROR("IPC cache: %p was not returned by an open IPC handle "
                      "on this context, or is already closed",
                      ptr);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    cache_entry_t *e = r->entry;
    if (e->refs == 1) {
        return close_last(c, e, r);
    }
    // Not the last open of the entry: a count, and the record if this was
    // its last open.
    e->refs--;
    if (--r->opens == 0) {
        record_remove(c, r);
    } else {
        r = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    free(r);
    return UMF_RESULT_SUCCESS;
}

size_t umf_ipc_cache_entry_count(umf_gpu_provider_kind_t kind) {
    ipc_cache_t *c = cache_of(kind);
    if (c == NULL) {
        return 0;
    }
    pthread_mutex_lock(&c->lock);
    size_t n = c->entry_count;
    pthread_mutex_unlock(&c->lock);
    return n;
}
