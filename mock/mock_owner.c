// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_owner.h"

#include <stdbool.h>
#include <stdlib.h>

#include "mock_ipc.h"
#include "mock_log.h"
#include "mock_memory.h"

typedef struct found_t {
    uint64_t base;
    bool imported;
} found_t;

typedef struct collect_t {
    uintptr_t owner;
    found_t *items;
    size_t count, cap;
    bool failed;
} collect_t;

static void collect(const umf_mock_rec_data_t *d, void *arg) {
    collect_t *c = arg;
    if (d->owner != (uint64_t)c->owner) {
        return;
    }
    if (c->count == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        found_t *n = realloc(c->items, cap * sizeof(*n));
        if (n == NULL) {
            c->failed = true;
            return;
        }
        c->items = n;
        c->cap = cap;
    }
    c->items[c->count++] =
        (found_t){d->base, d->kind == UMF_MOCK_KIND_IMPORTED};
}

void umf_mock_release_owner(uintptr_t owner,
                            umf_mock_owner_released_t *released) {
    umf_mock_owner_released_t n = {0, 0};
    collect_t c = {.owner = owner};
    if (owner != 0) {
        umf_mock_registry_foreach(collect, &c);
    }
    if (c.failed) {
        UMF_MOCK_LOG_ERROR("out of memory: some allocations of a destroyed "
                           "context stay");
    }
    for (size_t i = 0; i < c.count; i++) {
        const void *p = (const void *)(uintptr_t)c.items[i].base;
        if (!c.items[i].imported) {
            n.allocations += umf_mock_free(p, UMF_MOCK_KIND_ALLOCATED, owner,
                                           NULL) == UMF_MOCK_OK;
            continue;
        }
        // A shared import counts references: all of them are the owner's.
        bool unmapped = false;
        while (!unmapped &&
               umf_mock_ipc_close(p, owner, &unmapped) == UMF_MOCK_OK) {
        }
        n.imports += unmapped;
    }
    free(c.items);
    if (released != NULL) {
        *released = n;
    }
}
