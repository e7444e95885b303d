// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_arena.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mock_log.h"
#include "mock_memory.h"
#include "mock_registry.h"
#include "util_huge.h"

#define NONE UINT32_MAX
#define MAX_ORDERS 40

// Thread caches hold blocks of orders below CACHE_ORDERS, at most
// CACHE_BYTES of each order per thread and arena.
#define CACHE_ORDERS 6
#define CACHE_BYTES (128u << 10)
#define CACHE_CAP 32

// Blocks of at least 2 MiB give their pages back when freed, unless the
// arena keeps them for reuse (see keep_extent).
#define PUNCH_BYTES (2u << 20)
// Freed blocks of at least PUNCH_BYTES kept with their pages: at most
// EXTENT_SLOTS of them, and at most an eighth of the device's memory (up to
// EXTENT_BUDGET_MAX bytes) together.
#define EXTENT_SLOTS 16
#define EXTENT_BUDGET_MAX (512ull << 20)

// A slot word: [tag: 34 bits][block order: 6 bits][imports: 24 bits]. The
// tag and order together are the export (see slot_export).
#define SLOT_COUNT_BITS 24
#define SLOT_COUNT_MASK ((1ull << SLOT_COUNT_BITS) - 1)
#define SLOT_ORDER_BITS 6
#define SLOT_TAG_MASK ((1ull << 34) - 1)

enum { BLOCK_NONE = 0, BLOCK_FREE = 1, BLOCK_USED = 2 };

typedef struct page_meta_t {
    uint32_t prev, next; // free-list links, for a free block's first page
    uint8_t order;       // a block's order, on its first page
    uint8_t state;       // BLOCK_*, on a block's first page
} page_meta_t;

typedef struct block_t {
    uint32_t page;
    uint8_t order;
} block_t;

struct umf_mock_arena_t {
    unsigned device;
    int fd;
    uint64_t ino;       // the file's inode number, which IPC handles name
    char *data;         // data pages, aligned to min(data size, 1 GiB)
    uint64_t data_size; // a power of two
    uint32_t pages;
    unsigned max_order;
    _Atomic uint64_t *slots; // one per data page, shared with importers
    uint64_t slots_size;
    page_meta_t *meta;
    uint64_t meta_size;
    umf_mock_record_t *records; // one per data page (see the header)
    uint64_t records_size;
    _Atomic uint64_t records_used; // pages below it may hold a record
    void *reserved;                // the address range reserved for the data
    uint64_t reserved_size;

    pthread_mutex_t lock; // everything below
    uint32_t free_head[MAX_ORDERS];
    uint64_t free_pages;
    block_t *quarantine;
    size_t quarantined, quarantine_cap;
    _Atomic size_t quarantine_size; // read without the lock
    // Freed large blocks whose pages were kept, oldest first: out of the
    // free lists, reused by an allocation of their order (see keep_extent).
    block_t extents[EXTENT_SLOTS];
    unsigned extent_count;
    uint64_t extent_pages, extent_budget; // pages kept; the most
};

typedef struct umf_mock_arena_cache_t {
    umf_mock_arena_t *arena;
    uint32_t count[CACHE_ORDERS];
    uint32_t page[CACHE_ORDERS][CACHE_CAP];
} arena_cache_t;

static unsigned cache_cap(unsigned order) {
    size_t blocks = CACHE_BYTES / (umf_mock_page_size << order);
    return blocks < 1 ? 1 : blocks > CACHE_CAP ? CACHE_CAP : (unsigned)blocks;
}

// ---- Slots ----------------------------------------------------------------

// The export a slot holds, above the import count: the allocation id's tag
// (never 0, which means "no export") and the block's order, which bounds
// what an importer may map whatever its handle claims.
static uint64_t slot_export(uint64_t id, unsigned order) {
    uint64_t tag = id & SLOT_TAG_MASK;
    tag = tag != 0 ? tag : 1;
    return (tag << SLOT_ORDER_BITS) | (order & ((1u << SLOT_ORDER_BITS) - 1));
}

uint64_t umf_mock_slot_imports(uint64_t word) {
    return word & SLOT_COUNT_MASK;
}

bool umf_mock_slot_publish(_Atomic uint64_t *slot, uint64_t id,
                           unsigned order) {
    uint64_t want = slot_export(id, order);
    uint64_t w = atomic_load_explicit(slot, memory_order_acquire);
    for (;;) {
        if ((w >> SLOT_COUNT_BITS) == want) {
            return true;
        }
        if ((w >> SLOT_COUNT_BITS) != 0) {
            return false; // another live export: cannot happen for our own
        }
        // A block's slot holds no count once it is free for reuse.
        if (atomic_compare_exchange_weak_explicit(
                slot, &w, want << SLOT_COUNT_BITS, memory_order_acq_rel,
                memory_order_acquire)) {
            return true;
        }
    }
}

int umf_mock_slot_lock(int own_fd, uint64_t slot_offset) {
    struct flock fl = {
        .l_type = F_RDLCK,
        .l_whence = SEEK_SET,
        .l_start = (off_t)slot_offset,
        .l_len = sizeof(uint64_t),
        .l_pid = 0,
    };
    return fcntl(own_fd, F_OFD_SETLK, &fl) == 0 ? 0 : errno;
}

uint64_t umf_mock_slot_retire(_Atomic uint64_t *slot) {
    uint64_t w = atomic_load_explicit(slot, memory_order_acquire);
    while (!atomic_compare_exchange_weak_explicit(slot, &w, w & SLOT_COUNT_MASK,
                                                  memory_order_acq_rel,
                                                  memory_order_acquire)) {
    }
    return w & SLOT_COUNT_MASK;
}

bool umf_mock_slot_acquire(_Atomic uint64_t *slot, uint64_t id,
                           uint64_t pages) {
    uint64_t w = atomic_load_explicit(slot, memory_order_acquire);
    for (;;) {
        uint64_t held = w >> SLOT_COUNT_BITS;
        unsigned order = (unsigned)(held & ((1u << SLOT_ORDER_BITS) - 1));
        if (held == 0 || held != slot_export(id, order) || pages == 0 ||
            pages > (1ull << order) ||
            (w & SLOT_COUNT_MASK) == SLOT_COUNT_MASK) {
            return false;
        }
        if (atomic_compare_exchange_weak_explicit(
                slot, &w, w + 1, memory_order_acq_rel, memory_order_acquire)) {
            return true;
        }
    }
}

bool umf_mock_slot_release(_Atomic uint64_t *slot) {
    uint64_t w = atomic_load_explicit(slot, memory_order_acquire);
    for (;;) {
        if ((w & SLOT_COUNT_MASK) == 0) {
            return false;
        }
        if (atomic_compare_exchange_weak_explicit(
                slot, &w, w - 1, memory_order_acq_rel, memory_order_acquire)) {
            return true;
        }
    }
}

// ---- The buddy allocator (under the arena's lock) -------------------------

static void list_push(umf_mock_arena_t *a, uint32_t page, unsigned order) {
    page_meta_t *m = &a->meta[page];
    m->order = (uint8_t)order;
    m->state = BLOCK_FREE;
    m->prev = NONE;
    m->next = a->free_head[order];
    if (m->next != NONE) {
        a->meta[m->next].prev = page;
    }
    a->free_head[order] = page;
    a->free_pages += 1ull << order;
}

static void list_remove(umf_mock_arena_t *a, uint32_t page) {
    page_meta_t *m = &a->meta[page];
    if (m->prev != NONE) {
        a->meta[m->prev].next = m->next;
    } else {
        a->free_head[m->order] = m->next;
    }
    if (m->next != NONE) {
        a->meta[m->next].prev = m->prev;
    }
    m->state = BLOCK_NONE;
    a->free_pages -= 1ull << m->order;
}

static uint32_t buddy_alloc(umf_mock_arena_t *a, unsigned order) {
    unsigned j = order;
    while (j <= a->max_order && a->free_head[j] == NONE) {
        j++;
    }
    if (j > a->max_order) {
        return NONE;
    }
    uint32_t page = a->free_head[j];
    list_remove(a, page);
    while (j > order) {
        j--;
        list_push(a, page + (1u << j), j);
    }
    a->meta[page].order = (uint8_t)order;
    a->meta[page].state = BLOCK_USED;
    return page;
}

static void buddy_free(umf_mock_arena_t *a, uint32_t page, unsigned order) {
    while (order < a->max_order) {
        uint32_t buddy = page ^ (1u << order);
        page_meta_t *b = &a->meta[buddy];
        if (b->state != BLOCK_FREE || b->order != order) {
            break;
        }
        list_remove(a, buddy);
        a->meta[page].state = BLOCK_NONE;
        page &= ~(1u << order);
        order++;
    }
    list_push(a, page, order);
}

static void punch(umf_mock_arena_t *a, uint32_t page, unsigned order) {
    uint64_t bytes = (uint64_t)umf_mock_page_size << order;
    if (bytes < PUNCH_BYTES) {
        return;
    }
    if (fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                  (off_t)umf_mock_arena_data_offset(a, page),
                  (off_t)bytes) != 0) {
        UMF_MOCK_LOG_DEBUG("cannot release %llu bytes of arena memory: %s",
                           (unsigned long long)bytes, strerror(errno));
    }
}

// Whether an importer still holds its liveness lock on the slot of `page`
// (see umf_mock_slot_lock). True when that cannot be told: keeping a block
// is safe, reusing it is not.
static bool slot_locked(const umf_mock_arena_t *a, uint32_t page) {
    struct flock fl = {
        .l_type = F_WRLCK,
        .l_whence = SEEK_SET,
        .l_start = (off_t)umf_mock_arena_slot_offset(a, page),
        .l_len = sizeof(uint64_t),
        .l_pid = 0,
    };
    if (fcntl(a->fd, F_OFD_GETLK, &fl) != 0) {
        return true;
    }
    return fl.l_type != F_UNLCK;
}

// Under the lock: releases quarantined blocks no longer imported, and those
// whose imports were counted by processes that have exited since (a slot
// counts imports, but a process killed with a mapping open never counts
// itself out; its liveness lock went with it).
static size_t reclaim_locked(umf_mock_arena_t *a) {
    size_t kept = 0;
    for (size_t i = 0; i < a->quarantined; i++) {
        block_t q = a->quarantine[i];
        uint64_t w =
            atomic_load_explicit(&a->slots[q.page], memory_order_acquire);
        if (umf_mock_slot_imports(w) > 0 && !slot_locked(a, q.page)) {
            // Retired, so no import can count itself in any more: only the
            // dead ones' counts are left.
            UMF_MOCK_LOG_INFO("arena of device %u: the %llu import(s) of the "
                              "block at page %u ended with their processes",
                              a->device,
                              (unsigned long long)umf_mock_slot_imports(w),
                              q.page);
            atomic_store_explicit(&a->slots[q.page], 0, memory_order_release);
            w = 0;
        }
        if (umf_mock_slot_imports(w) == 0) {
            punch(a, q.page, q.order);
            buddy_free(a, q.page, q.order);
        } else {
            a->quarantine[kept++] = q;
        }
    }
    a->quarantined = kept;
    atomic_store_explicit(&a->quarantine_size, kept, memory_order_relaxed);
    return kept;
}

// ---- Creation -------------------------------------------------------------

static uint64_t pow2_at_least(uint64_t x) {
    uint64_t p = 1;
    while (p < x) {
        p <<= 1;
    }
    return p;
}

umf_mock_status_t umf_mock_arena_create(unsigned device, uint64_t capacity,
                                        umf_mock_arena_t **out) {
    if (out == NULL || device >= UMF_MOCK_MAX_DEVICES || capacity == 0 ||
        capacity > (64ull << 40)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_status_t status = UMF_MOCK_ERR_OS;
    uint64_t cap = pow2_at_least(capacity);
    uint64_t data_size = cap <= (64ull << 30) ? cap * 4 : cap * 2;
    if (data_size < cap + (256ull << 20)) {
        data_size = pow2_at_least(cap + (256ull << 20));
    }
    uint64_t pages = data_size >> umf_mock_page_shift;
    if (pages > (1ull << 31)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_arena_t *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    a->device = device;
    a->data_size = data_size;
    a->pages = (uint32_t)pages;
    a->max_order = (unsigned)__builtin_ctzll(pages);
    a->slots_size = (pages * sizeof(uint64_t) + umf_mock_page_size - 1) &
                    ~((uint64_t)umf_mock_page_size - 1);
    a->meta_size = pages * sizeof(page_meta_t);
    uint64_t budget = capacity / 8;
    budget = budget < EXTENT_BUDGET_MAX ? budget : EXTENT_BUDGET_MAX;
    a->extent_budget = budget >> umf_mock_page_shift;
    for (unsigned i = 0; i < MAX_ORDERS; i++) {
        a->free_head[i] = NONE;
    }
    if (pthread_mutex_init(&a->lock, NULL) != 0) {
        goto err_free;
    }
    a->fd = memfd_create("umf-gpu-mock-arena", MFD_CLOEXEC);
    if (a->fd < 0) {
        UMF_MOCK_LOG_ERROR("memfd_create for the arena of device %u: %s",
                           device, strerror(errno));
        status = errno == EMFILE || errno == ENFILE
                     ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
                     : UMF_MOCK_ERR_OS;
        goto err_mutex;
    }
    struct stat st;
    if (ftruncate(a->fd, (off_t)(data_size + a->slots_size)) != 0 ||
        fstat(a->fd, &st) != 0) {
        UMF_MOCK_LOG_ERROR("cannot size the arena of device %u to %llu "
                           "bytes: %s",
                           device, (unsigned long long)data_size,
                           strerror(errno));
        goto err_fd;
    }
    a->ino = (uint64_t)st.st_ino;
    // Reserve room to align the data, so that a block of order k is
    // aligned to its size, up to UMF_MOCK_MAX_ALIGNMENT.
    uint64_t align =
        data_size < UMF_MOCK_MAX_ALIGNMENT ? data_size : UMF_MOCK_MAX_ALIGNMENT;
    a->reserved_size = data_size + align;
    a->reserved = mmap(NULL, a->reserved_size, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a->reserved == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot reserve %llu bytes of address space for "
                           "the arena of device %u: %s",
                           (unsigned long long)a->reserved_size, device,
                           strerror(errno));
        goto err_fd;
    }
    uintptr_t aligned =
        ((uintptr_t)a->reserved + align - 1) & ~(uintptr_t)(align - 1);
    a->data = mmap((void *)aligned, data_size, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED, a->fd, 0);
    if (a->data == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map the arena of device %u: %s", device,
                           strerror(errno));
        goto err_reserved;
    }
    a->slots = mmap(NULL, a->slots_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                    a->fd, (off_t)data_size);
    if (a->slots == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map the arena slots of device %u: %s",
                           device, strerror(errno));
        goto err_reserved;
    }
    a->meta = mmap(NULL, a->meta_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a->meta == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map the arena metadata of device %u: %s",
                           device, strerror(errno));
        goto err_slots;
    }
    a->records_size = umf_huge_size(pages * sizeof(umf_mock_record_t));
    a->records = umf_huge_map(a->records_size, 0);
    if (a->records == NULL) {
        UMF_MOCK_LOG_ERROR("cannot map the arena records of device %u", device);
        goto err_meta;
    }
    if (!umf_mock_registry_add_array(a->records, &a->records_used,
                                     (uintptr_t)a->data, pages, a->max_order)) {
        UMF_MOCK_LOG_ERROR("too many arenas for the registry");
        goto err_records;
    }
    list_push(a, 0, a->max_order);
    UMF_MOCK_LOG_DEBUG("arena of device %u: %llu bytes at %p", device,
                       (unsigned long long)data_size, (void *)a->data);
    *out = a;
    return UMF_MOCK_OK;

err_records:
    munmap(a->records, a->records_size);
err_meta:
    munmap(a->meta, a->meta_size);
err_slots:
    munmap((void *)a->slots, a->slots_size);
err_reserved:
    munmap(a->reserved, a->reserved_size); // also unmaps the data
err_fd:
    close(a->fd);
err_mutex:
    pthread_mutex_destroy(&a->lock);
err_free:
    free(a);
    return status;
}

void umf_mock_arena_destroy(umf_mock_arena_t *a) {
    if (a == NULL) {
        return;
    }
    umf_mock_thread_t *t = umf_mock_self;
    if (t != NULL && t->arena_cache[a->device] != NULL &&
        t->arena_cache[a->device]->arena == a) {
        free(t->arena_cache[a->device]);
        t->arena_cache[a->device] = NULL;
    }
    umf_mock_registry_remove_array(a->records);
    munmap(a->records, a->records_size);
    munmap(a->meta, a->meta_size);
    munmap((void *)a->slots, a->slots_size);
    munmap(a->reserved, a->reserved_size);
    close(a->fd);
    pthread_mutex_destroy(&a->lock);
    free(a->quarantine);
    free(a);
}

// ---- Allocation -----------------------------------------------------------

unsigned umf_mock_arena_order(uint64_t bytes, uint64_t alignment) {
    uint64_t pages = (bytes + umf_mock_page_size - 1) >> umf_mock_page_shift;
    uint64_t align_pages = alignment >> umf_mock_page_shift;
    if (pages < align_pages) {
        pages = align_pages;
    }
    unsigned order = 0;
    while ((1ull << order) < pages) {
        order++;
    }
    return order;
}

static void flush_cache(umf_mock_arena_t *a, arena_cache_t *c, unsigned order,
                        unsigned keep) {
    while (c->count[order] > keep) {
        buddy_free(a, c->page[order][--c->count[order]], order);
    }
}

static arena_cache_t *cache_of(umf_mock_arena_t *a, umf_mock_thread_t *t) {
    arena_cache_t *c = t->arena_cache[a->device];
    if (c != NULL && c->arena == a) {
        return c;
    }
    if (c == NULL) {
        c = calloc(1, sizeof(*c));
        if (c == NULL) {
            return NULL;
        }
        t->arena_cache[a->device] = c;
    }
    // A cache of another arena of this index (tests make several): return
    // its blocks first.
    if (c->arena != NULL) {
        pthread_mutex_lock(&c->arena->lock);
        for (unsigned o = 0; o < CACHE_ORDERS; o++) {
            flush_cache(c->arena, c, o, 0);
        }
        pthread_mutex_unlock(&c->arena->lock);
    }
    c->arena = a;
    return c;
}

static void *block_addr(umf_mock_arena_t *a, uint32_t page) {
    return a->data + ((uint64_t)page << umf_mock_page_shift);
}

// ---- Kept extents ---------------------------------------------------------
//
// Punching a freed large block and faulting its pages in again at its next
// use cost far more than the use itself: a fresh 100 MiB fill ran at a
// twentieth of the speed of the same fill of pages in place (each shared
// page is allocated, zeroed and mapped by its own fault, and the punch frees
// them one by one). So the arena keeps the most recently freed large blocks
// with their pages, and an allocation of the same order takes one back. It
// zeroes what the block holds first, so that a large allocation reads zero
// as it did when its pages came fresh from the system.

// Zeroes the pages of the block at `page` that hold data (the file's data
// extents there: resident or swapped out) and leaves its holes alone, so
// that no page is committed for nothing.
static void zero_data(umf_mock_arena_t *a, uint32_t page, unsigned order) {
    off_t start = (off_t)umf_mock_arena_data_offset(a, page);
    off_t end = start + (off_t)((uint64_t)umf_mock_page_size << order);
    char *base = block_addr(a, page);
    off_t at = start;
    while (at < end) {
        off_t data = lseek(a->fd, at, SEEK_DATA);
        if (data < 0 && errno == ENXIO) {
            return; // no data left in the file
        }
        if (data >= end) {
            return;
        }
        // Where the file cannot tell (it always can: memfd), all of it.
        off_t hole = data < 0 ? end : lseek(a->fd, data, SEEK_HOLE);
        data = data < 0 ? at : data;
        hole = hole < 0 || hole > end ? end : hole;
        memset(base + (data - start), 0, (size_t)(hole - data));
        at = hole;
    }
}

// Keeps a freed block of at least PUNCH_BYTES with its pages, giving the
// oldest kept ones back to make room; false if it is not kept.
static bool keep_extent(umf_mock_arena_t *a, uint32_t page, unsigned order) {
    uint64_t pages = 1ull << order;
    if (((uint64_t)umf_mock_page_size << order) < PUNCH_BYTES ||
        pages > a->extent_budget) {
        return false;
    }
    block_t gone[EXTENT_SLOTS];
    unsigned n = 0;
    pthread_mutex_lock(&a->lock);
    while (a->extent_count == EXTENT_SLOTS ||
           a->extent_pages + pages > a->extent_budget) {
        gone[n++] = a->extents[0];
        a->extent_pages -= 1ull << a->extents[0].order;
        a->extent_count--;
        memmove(a->extents, a->extents + 1,
                a->extent_count * sizeof(a->extents[0]));
    }
    // Still marked in use, so that no buddy merges with it.
    a->extents[a->extent_count++] = (block_t){page, (uint8_t)order};
    a->extent_pages += pages;
    pthread_mutex_unlock(&a->lock);
    if (n == 0) {
        return true;
    }
    for (unsigned i = 0; i < n; i++) {
        punch(a, gone[i].page, gone[i].order);
    }
    pthread_mutex_lock(&a->lock);
    for (unsigned i = 0; i < n; i++) {
        buddy_free(a, gone[i].page, gone[i].order);
    }
    pthread_mutex_unlock(&a->lock);
    return true;
}

// Under the lock: the newest kept block of `order`, taken; NONE if none.
static uint32_t take_extent(umf_mock_arena_t *a, unsigned order) {
    for (unsigned i = a->extent_count; i-- > 0;) {
        if (a->extents[i].order != order) {
            continue;
        }
        uint32_t page = a->extents[i].page;
        a->extent_count--;
        memmove(&a->extents[i], &a->extents[i + 1],
                (a->extent_count - i) * sizeof(a->extents[0]));
        a->extent_pages -= 1ull << order;
        return page;
    }
    return NONE;
}

// Under the lock: every kept block goes back to the free lists.
static void drop_extents_locked(umf_mock_arena_t *a) {
    for (unsigned i = 0; i < a->extent_count; i++) {
        punch(a, a->extents[i].page, a->extents[i].order);
        buddy_free(a, a->extents[i].page, a->extents[i].order);
    }
    a->extent_count = 0;
    a->extent_pages = 0;
}

umf_mock_status_t umf_mock_arena_alloc(umf_mock_arena_t *a,
                                       umf_mock_thread_t *t, unsigned order,
                                       void **ptr, uint32_t *page) {
    if (order > a->max_order) {
        return UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY;
    }
    arena_cache_t *c =
        t != NULL && order < CACHE_ORDERS ? cache_of(a, t) : NULL;
    if (c != NULL && c->count[order] > 0) {
        *page = c->page[order][--c->count[order]];
        *ptr = block_addr(a, *page);
        return UMF_MOCK_OK;
    }
    pthread_mutex_lock(&a->lock);
    if (a->quarantined > 0) {
        reclaim_locked(a);
    }
    uint32_t p = a->extent_count > 0 ? take_extent(a, order) : NONE;
    bool kept = p != NONE;
    if (p == NONE) {
        p = buddy_alloc(a, order);
    }
    if (p == NONE && a->extent_count > 0) {
        drop_extents_locked(a);
        p = buddy_alloc(a, order);
    }
    if (p == NONE && c != NULL) {
        // This thread's own caches may hold what is missing.
        for (unsigned o = 0; o < CACHE_ORDERS; o++) {
            flush_cache(a, c, o, 0);
        }
        p = buddy_alloc(a, order);
    }
    if (p != NONE && c != NULL) {
        // Refill in a batch, so that the next calls take no lock.
        unsigned want = cache_cap(order) / 2;
        while (c->count[order] < want) {
            uint32_t q = buddy_alloc(a, order);
            if (q == NONE) {
                break;
            }
            c->page[order][c->count[order]++] = q;
        }
    }
    pthread_mutex_unlock(&a->lock);
    if (p == NONE) {
        UMF_MOCK_LOG_WARN("the arena of device %u has no free block of %llu "
                          "bytes (fragmented, or held in quarantine)",
                          a->device,
                          (unsigned long long)umf_mock_page_size << order);
        return UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY;
    }
    if (kept) {
        zero_data(a, p, order);
    }
    *page = p;
    *ptr = block_addr(a, p);
    return UMF_MOCK_OK;
}

void umf_mock_arena_free(umf_mock_arena_t *a, umf_mock_thread_t *t,
                         uint32_t page, unsigned order, bool exported) {
    if (exported && umf_mock_slot_retire(&a->slots[page]) > 0) {
        pthread_mutex_lock(&a->lock);
        if (a->quarantined == a->quarantine_cap) {
            size_t cap = a->quarantine_cap ? a->quarantine_cap * 2 : 16;
            block_t *q = realloc(a->quarantine, cap * sizeof(*q));
            if (q == NULL) {
                pthread_mutex_unlock(&a->lock);
                // Keeping the block forever is safe; reusing it is not.
                UMF_MOCK_LOG_ERROR("out of host memory for the quarantine: "
                                   "block of page %u is never reused",
                                   page);
                return;
            }
            a->quarantine = q;
            a->quarantine_cap = cap;
        }
        a->quarantine[a->quarantined++] = (block_t){page, (uint8_t)order};
        atomic_store_explicit(&a->quarantine_size, a->quarantined,
                              memory_order_relaxed);
        pthread_mutex_unlock(&a->lock);
        return;
    }
    arena_cache_t *c =
        t != NULL && order < CACHE_ORDERS ? cache_of(a, t) : NULL;
    if (c != NULL) {
        unsigned cap = cache_cap(order);
        if (c->count[order] == cap) {
            pthread_mutex_lock(&a->lock);
            flush_cache(a, c, order, cap / 2);
            pthread_mutex_unlock(&a->lock);
        }
        c->page[order][c->count[order]++] = page;
        return;
    }
    if (keep_extent(a, page, order)) {
        return;
    }
    punch(a, page, order);
    pthread_mutex_lock(&a->lock);
    buddy_free(a, page, order);
    pthread_mutex_unlock(&a->lock);
}

void umf_mock_arena_publish(umf_mock_arena_t *a, uint32_t page, uint64_t id) {
    // The block is in use by the caller, so its order is stable.
    if (!umf_mock_slot_publish(&a->slots[page], id, a->meta[page].order)) {
        UMF_MOCK_LOG_ERROR("arena slot of page %u holds another export", page);
    }
}

size_t umf_mock_arena_reclaim(umf_mock_arena_t *a) {
    if (atomic_load_explicit(&a->quarantine_size, memory_order_relaxed) == 0) {
        return 0;
    }
    pthread_mutex_lock(&a->lock);
    size_t kept = reclaim_locked(a);
    pthread_mutex_unlock(&a->lock);
    return kept;
}

umf_mock_record_t *umf_mock_arena_record(umf_mock_arena_t *a, uint32_t page) {
    uint64_t used =
        atomic_load_explicit(&a->records_used, memory_order_relaxed);
    while (used <= page && !atomic_compare_exchange_weak_explicit(
                               &a->records_used, &used, (uint64_t)page + 1,
                               memory_order_release, memory_order_relaxed)) {
    }
    return &a->records[page];
}

int umf_mock_arena_fd(const umf_mock_arena_t *a) {
    return a->fd;
}

uint64_t umf_mock_arena_ino(const umf_mock_arena_t *a) {
    return a->ino;
}

unsigned umf_mock_arena_data_order(const umf_mock_arena_t *a) {
    return (unsigned)__builtin_ctzll(a->data_size >> umf_mock_page_shift);
}

uint64_t umf_mock_arena_data_offset(const umf_mock_arena_t *a, uint32_t page) {
    (void)a;
    return (uint64_t)page << umf_mock_page_shift;
}

uint64_t umf_mock_arena_slot_offset(const umf_mock_arena_t *a, uint32_t page) {
    return a->data_size + (uint64_t)page * sizeof(uint64_t);
}

uint64_t umf_mock_arena_free_pages(umf_mock_arena_t *a) {
    pthread_mutex_lock(&a->lock);
    uint64_t n = a->free_pages + a->extent_pages;
    pthread_mutex_unlock(&a->lock);
    return n;
}

uint64_t umf_mock_arena_pages(const umf_mock_arena_t *a) {
    return a->pages;
}

void umf_mock_arena_thread_exit(umf_mock_thread_t *t) {
    for (unsigned d = 0; d < UMF_MOCK_MAX_DEVICES; d++) {
        arena_cache_t *c = t->arena_cache[d];
        if (c == NULL) {
            continue;
        }
        if (c->arena != NULL) {
            pthread_mutex_lock(&c->arena->lock);
            for (unsigned o = 0; o < CACHE_ORDERS; o++) {
                flush_cache(c->arena, c, o, 0);
            }
            pthread_mutex_unlock(&c->arena->lock);
        }
        free(c);
        t->arena_cache[d] = NULL;
    }
}
