// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ipc_cache.h"

#include <pthread.h>
#include <stdlib.h>

#include "log.h"
#include "utils_common.h"
#include "utils_hash_map.h"

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
    size_t refs;
    umf_ipc_cache_mapping_t mapping;
    umf_ipc_cache_unmap_fn unmap;
} cache_entry_t;

// One per (context, pointer returned by open): what close looks up.
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
    return umf_hash_u64(
        umf_hash_u64((uintptr_t)key->context ^ key->instance_id) ^
        key->alloc_id);
}

static uint64_t ptr_hash(const void *context, const void *ptr) {
    return umf_hash_u64((uintptr_t)context) ^ (uintptr_t)ptr;
}

static bool key_equal(const umf_ipc_cache_key_t *a,
                      const umf_ipc_cache_key_t *b) {
    return a->context == b->context && a->instance_id == b->instance_id &&
           a->alloc_id == b->alloc_id;
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

static ptr_record_t *record_find(ipc_cache_t *c, const void *context,
                                 const void *ptr, uint64_t hash) {
    for (ptr_record_t *r = umf_hash_map_get(&c->ptrs, hash); r != NULL;
         r = r->next) {
        if (r->context == context && r->ptr == ptr) {
            return r;
        }
    }
    return NULL;
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
    ptr_record_t *r = record_find(c, entry->key.context, ptr, hash);
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

umf_result_t umf_ipc_cache_open(umf_gpu_provider_kind_t kind,
                                const umf_ipc_cache_key_t *key, size_t size,
                                size_t offset, umf_ipc_cache_map_fn map,
                                void *map_arg, umf_ipc_cache_unmap_fn unmap,
                                void **ptr, bool *hit) {
    ipc_cache_t *c = cache_of(kind);
    if (c == NULL || key == NULL || size == 0 || offset >= size ||
        map == NULL || unmap == NULL || ptr == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // New records and entries are allocated without the lock held, and only
    // when needed: a hit on a pointer opened before allocates nothing.
    ptr_record_t *spare = NULL;
    cache_entry_t *fresh = NULL;
    umf_result_t ret;
    uint64_t hash = key_hash(key);
    cache_entry_t *e;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        e = entry_find(c, key, hash);
        if (e != NULL && e->state != ENTRY_OPEN) {
            pthread_cond_wait(&c->changed, &c->lock);
            continue;
        }
        bool need_entry = e == NULL && fresh == NULL;
        bool need_record = spare == NULL;
        if (need_record && e != NULL) {
            void *p = (char *)e->mapping.base + offset;
            need_record = record_find(c, key->context, p,
                                      ptr_hash(key->context, p)) == NULL;
        }
        if (!need_entry && !need_record) {
            break;
        }
        // Allocate, then look again: the cache may change meanwhile.
        pthread_mutex_unlock(&c->lock);
        if (need_entry) {
            fresh = malloc(sizeof(*fresh));
        }
        if (need_record) {
            spare = malloc(sizeof(*spare));
        }
        if ((need_entry && fresh == NULL) || (need_record && spare == NULL)) {
            ret = UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            goto err_free;
        }
        pthread_mutex_lock(&c->lock);
    }
    if (e != NULL) { // hit
        void *p = (char *)e->mapping.base + offset;
        ret = record_open(c, e, p, &spare);
        if (ret == UMF_RESULT_SUCCESS) {
            e->refs++;
            *ptr = p;
            if (hit != NULL) {
                *hit = true;
            }
        }
        pthread_mutex_unlock(&c->lock);
        free(fresh);
        free(spare);
        return ret;
    }

    // Miss: publish the entry as OPENING, then map without the lock.
    e = fresh;
    e->key = *key;
    e->hash = hash;
    e->state = ENTRY_OPENING;
    e->refs = 0;
    e->mapping.base = NULL;
    e->mapping.size = size;
    e->mapping.cookie = 0;
    e->unmap = unmap;
    ret = entry_insert(c, e);
    pthread_mutex_unlock(&c->lock);
    if (ret != UMF_RESULT_SUCCESS) {
        goto err_free;
    }

    ret = map(map_arg, &e->mapping);
    if (ret == UMF_RESULT_SUCCESS && e->mapping.base == NULL) {
        UMF_LOG_ERROR("IPC cache: the provider mapped the handle at NULL");
        ret = UMF_RESULT_ERROR_UNKNOWN;
    }

    pthread_mutex_lock(&c->lock);
    void *p = NULL;
    if (ret == UMF_RESULT_SUCCESS) {
        p = (char *)e->mapping.base + offset;
        ret = record_open(c, e, p, &spare);
        if (ret != UMF_RESULT_SUCCESS) {
            // No room to remember the pointer: undo the mapping.
            e->state = ENTRY_CLOSING;
            pthread_mutex_unlock(&c->lock);
            (void)unmap(&e->key, &e->mapping);
            pthread_mutex_lock(&c->lock);
        }
    }
    if (ret != UMF_RESULT_SUCCESS) {
        entry_remove(c, e);
        pthread_cond_broadcast(&c->changed);
        pthread_mutex_unlock(&c->lock);
        goto err_free;
    }
    e->state = ENTRY_OPEN;
    e->refs = 1;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
    free(spare);
    *ptr = p;
    if (hit != NULL) {
        *hit = false;
    }
    return UMF_RESULT_SUCCESS;

err_free:
    if (ret == UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY) {
        UMF_LOG_ERROR("IPC cache: out of host memory");
    }
    free(fresh);
    free(spare);
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
    ptr_record_t *r = record_find(c, context, ptr, hash);
    if (r == NULL) {
        pthread_mutex_unlock(&c->lock);
        UMF_LOG_ERROR("IPC cache: %p was not returned by an open IPC handle "
                      "on this context, or is already closed",
                      ptr);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    cache_entry_t *e = r->entry;
    if (e->refs > 1) {
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

    // The last reference (so r->opens is 1 too): unmap without the lock,
    // while opens of the key wait.
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
            free(r);
            r = NULL;
        } else {
            r = NULL;
            e = NULL;
        }
    }
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
    if (ret == UMF_RESULT_SUCCESS) {
        free(r);
        free(e);
    }
    return ret;
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
