// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_objects.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

// An open-addressing hash set of (kind, handle), with tombstones.
typedef struct entry_t {
    const void *handle; // NULL: empty
    unsigned kind;      // UINT32_MAX with a NULL handle: tombstone
} entry_t;

#define TOMBSTONE UINT32_MAX

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry_t *table;
static size_t capacity, used; // used counts tombstones too
static size_t counts[UMF_MOCK_MAX_OBJECT_KINDS];

static size_t hash(unsigned kind, const void *handle) {
    uint64_t x = (uint64_t)(uintptr_t)handle ^ ((uint64_t)kind << 56);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static entry_t *find(unsigned kind, const void *handle) {
    if (capacity == 0) {
        return NULL;
    }
    for (size_t i = hash(kind, handle) & (capacity - 1);;
         i = (i + 1) & (capacity - 1)) {
        entry_t *e = &table[i];
        if (e->handle == NULL && e->kind != TOMBSTONE) {
            return NULL;
        }
        if (e->handle == handle && e->kind == kind) {
            return e;
        }
    }
}

static bool grow(void) {
    size_t live = 0;
    for (unsigned k = 0; k < UMF_MOCK_MAX_OBJECT_KINDS; k++) {
        live += counts[k];
    }
    size_t cap = 64;
    while (cap < 4 * (live + 1)) {
        cap *= 2;
    }
    entry_t *t = calloc(cap, sizeof(*t));
    if (t == NULL) {
        return false;
    }
    for (size_t i = 0; i < capacity; i++) {
        if (table[i].handle != NULL) {
            size_t j = hash(table[i].kind, table[i].handle) & (cap - 1);
            while (t[j].handle != NULL) {
                j = (j + 1) & (cap - 1);
            }
            t[j] = table[i];
        }
    }
    free(table);
    table = t;
    capacity = cap;
    used = live;
    return true;
}

bool umf_mock_object_add(unsigned kind, const void *handle) {
    if (kind >= UMF_MOCK_MAX_OBJECT_KINDS || handle == NULL) {
        return false;
    }
    bool ok = false;
    pthread_mutex_lock(&lock);
    if (find(kind, handle) != NULL) {
        goto out;
    }
    if ((used + 1) * 2 > capacity && !grow()) {
        goto out;
    }
    size_t i = hash(kind, handle) & (capacity - 1);
    while (table[i].handle != NULL) {
        i = (i + 1) & (capacity - 1);
    }
    if (table[i].kind != TOMBSTONE) {
        used++;
    }
    table[i].handle = handle;
    table[i].kind = kind;
    counts[kind]++;
    ok = true;
out:
    pthread_mutex_unlock(&lock);
    return ok;
}

bool umf_mock_object_remove(unsigned kind, const void *handle) {
    if (kind >= UMF_MOCK_MAX_OBJECT_KINDS || handle == NULL) {
        return false;
    }
    pthread_mutex_lock(&lock);
    entry_t *e = find(kind, handle);
    if (e != NULL) {
        e->handle = NULL;
        e->kind = TOMBSTONE;
        counts[kind]--;
    }
    pthread_mutex_unlock(&lock);
    return e != NULL;
}

bool umf_mock_object_contains(unsigned kind, const void *handle) {
    if (kind >= UMF_MOCK_MAX_OBJECT_KINDS || handle == NULL) {
        return false;
    }
    pthread_mutex_lock(&lock);
    bool found = find(kind, handle) != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

size_t umf_mock_object_count(unsigned kind) {
    if (kind >= UMF_MOCK_MAX_OBJECT_KINDS) {
        return 0;
    }
    pthread_mutex_lock(&lock);
    size_t n = counts[kind];
    pthread_mutex_unlock(&lock);
    return n;
}

void umf_mock_object_foreach(void (*fn)(unsigned kind, const void *handle,
                                        void *ctx),
                             void *ctx) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < capacity; i++) {
        if (table[i].handle != NULL) {
            fn(table[i].kind, table[i].handle, ctx);
        }
    }
    pthread_mutex_unlock(&lock);
}
