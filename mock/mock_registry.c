// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_registry.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mock_log.h"

#define LEAF_BITS UMF_MOCK_MAP_LEAF_BITS
#define LEAF_ENTRIES (1u << LEAF_BITS)

// Pool records (imports, and every allocation outside the arena mode).
#define SLAB_RECORDS 256
#define CACHE_MAX 64
#define CACHE_BATCH 32

// A record's meta word: [user flags: 32][device + 1: 14][arena order: 6]
// [backend: 4][kind: 8].
#define META_BACKEND_SHIFT 8
#define META_ORDER_SHIFT 12
#define META_DEVICE_SHIFT 18
#define META_FLAGS_SHIFT 32
#define META_KIND_MAX 0xffu
#define META_BACKEND_MAX 0xfu
#define META_ORDER_MAX 0x3fu
#define META_DEVICE_MAX 0x3fffu // device + 1

_Static_assert(UMF_MOCK_MAX_DEVICES < META_DEVICE_MAX, "devices fit the meta");
_Static_assert(offsetof(umf_mock_record_t, mapped) == 64,
               "a free of an arena block reads one line");
_Static_assert(sizeof(umf_mock_record_t) == 128, "two lines a record");

typedef umf_mock_record_t *map_entry_t;

size_t umf_mock_page_size = 4096;
unsigned umf_mock_page_shift = 12;

map_entry_t *umf_mock_page_map[UMF_MOCK_MAP_TOP_MAX];
unsigned umf_mock_page_map_top = UMF_MOCK_MAP_TOP_MAX;

typedef struct slab_t {
    struct slab_t *next;
    umf_mock_record_t records[SLAB_RECORDS];
} slab_t;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static slab_t *slabs;
static umf_mock_record_t *pool_free;

// Record arrays outside the pool. Written under pool_lock; read without it
// on every lookup (an array is added before any of its records is used, and
// removed after the last).
typedef struct array_t {
    umf_mock_record_t *_Atomic records; // NULL: unused entry
    _Atomic uint64_t *used;
    uintptr_t base;
    uint64_t pages;
    unsigned max_order;
} array_t;

static array_t arrays[UMF_MOCK_MAX_DEVICES];
static _Atomic unsigned array_count; // entries ever used

bool umf_mock_registry_add_array(umf_mock_record_t *records,
                                 _Atomic uint64_t *used, uintptr_t base,
                                 uint64_t pages, unsigned max_order) {
    bool added = false;
    pthread_mutex_lock(&pool_lock);
    for (unsigned i = 0; i < UMF_MOCK_MAX_DEVICES && !added; i++) {
        array_t *a = &arrays[i];
        if (atomic_load_explicit(&a->records, memory_order_relaxed) != NULL) {
            continue;
        }
        a->used = used;
        a->base = base;
        a->pages = pages;
        a->max_order = max_order;
        atomic_store_explicit(&a->records, records, memory_order_release);
        if (atomic_load_explicit(&array_count, memory_order_relaxed) <= i) {
            atomic_store_explicit(&array_count, i + 1, memory_order_release);
        }
        added = true;
    }
    pthread_mutex_unlock(&pool_lock);
    return added;
}

void umf_mock_registry_remove_array(umf_mock_record_t *records) {
    pthread_mutex_lock(&pool_lock);
    for (size_t i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        if (atomic_load_explicit(&arrays[i].records, memory_order_relaxed) ==
            records) {
            atomic_store_explicit(&arrays[i].records, NULL,
                                  memory_order_release);
        }
    }
    pthread_mutex_unlock(&pool_lock);
}

// The array whose range holds addr, or NULL (then the page map tells).
static const array_t *array_of(uint64_t addr) {
    unsigned n = atomic_load_explicit(&array_count, memory_order_acquire);
    for (unsigned i = 0; i < n; i++) {
        const array_t *a = &arrays[i];
        if (atomic_load_explicit(&a->records, memory_order_acquire) != NULL &&
            addr - a->base < (a->pages << umf_mock_page_shift) &&
            addr >= a->base) {
            return a;
        }
    }
    return NULL;
}

// The next record of array a that could hold addr, from block order *k
// on (advancing *k; its page in *page_out), or NULL after the last: the
// entry of the page a block of order k holding addr would start at. The
// base case (k = 0) first; a record covers a whole block and blocks never
// overlap, so the first candidate that holds addr is its one.
static umf_mock_record_t *array_next(const array_t *a, uint64_t addr,
                                     unsigned *k, uint64_t *page_out) {
    uint64_t page = (addr - a->base) >> umf_mock_page_shift;
    uint64_t used = atomic_load_explicit(a->used, memory_order_acquire);
    for (; *k <= a->max_order; (*k)++) {
        uint64_t start = page & ~((UINT64_C(1) << *k) - 1);
        if (start < used) {
            umf_mock_record_t *records =
                atomic_load_explicit(&a->records, memory_order_relaxed);
            (*k)++;
            *page_out = start;
            return &records[start];
        }
    }
    return NULL;
}

// The array that holds rec, and rec's page in it (*page); NULL for a pool
// record.
static const array_t *array_holding(const umf_mock_record_t *rec,
                                    uint64_t *page) {
    unsigned n = atomic_load_explicit(&array_count, memory_order_acquire);
    for (unsigned i = 0; i < n; i++) {
        const umf_mock_record_t *r =
            atomic_load_explicit(&arrays[i].records, memory_order_relaxed);
        if (r != NULL && rec >= r && rec < r + arrays[i].pages) {
            *page = (uint64_t)(rec - r);
            return &arrays[i];
        }
    }
    return NULL;
}

void umf_mock_registry_setup(void) {
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || (page & (page - 1)) != 0) {
        page = 4096;
    }
    umf_mock_page_size = (size_t)page;
    umf_mock_page_shift = (unsigned)__builtin_ctzl((unsigned long)page);
    umf_mock_page_map_top =
        1u << (UMF_MOCK_MAP_VA_BITS - umf_mock_page_shift - LEAF_BITS);
}

static map_entry_t *leaf_of(uint64_t page, bool create) {
    uint64_t top = page >> LEAF_BITS;
    if (top >= umf_mock_page_map_top) {
        return NULL;
    }
    map_entry_t *leaf =
        __atomic_load_n(&umf_mock_page_map[top], __ATOMIC_ACQUIRE);
    if (leaf != NULL || !create) {
        return leaf;
    }
    // Untouched pages of a leaf cost nothing; most leaves stay sparse.
    void *mem =
        mmap(NULL, LEAF_ENTRIES * sizeof(map_entry_t), PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map a page-map leaf for the registry");
        return NULL;
    }
    map_entry_t *expected = NULL;
    if (!__atomic_compare_exchange_n(&umf_mock_page_map[top], &expected,
                                     (map_entry_t *)mem, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        munmap(mem, LEAF_ENTRIES * sizeof(map_entry_t));
        return expected;
    }
    return mem;
}

// Stores `rec` into the entries of pages [first, end).
static bool map_set(uint64_t first, uint64_t end, umf_mock_record_t *rec) {
    uint64_t p = first;
    while (p < end) {
        map_entry_t *leaf = leaf_of(p, rec != NULL);
        uint64_t leaf_end = ((p >> LEAF_BITS) + 1) << LEAF_BITS;
        uint64_t stop = end < leaf_end ? end : leaf_end;
        if (leaf == NULL) {
            if (rec != NULL) {
                return false;
            }
            p = stop;
            continue;
        }
        for (; p < stop; p++) {
            __atomic_store_n(&leaf[p & (LEAF_ENTRIES - 1)], rec,
                             __ATOMIC_RELEASE);
        }
    }
    return true;
}

// ---- Packing ------------------------------------------------------------

static uint64_t load_word(const uint64_t *w) {
    return __atomic_load_n(w, __ATOMIC_RELAXED);
}

static void store_word(uint64_t *w, uint64_t value) {
    __atomic_store_n(w, value, __ATOMIC_RELAXED);
}

static uint64_t meta_field(uint64_t meta, unsigned shift, uint64_t max) {
    return (meta >> shift) & max;
}

static uint64_t pages_of(uint64_t bytes) {
    return (bytes + umf_mock_page_size - 1) &
           ~((uint64_t)umf_mock_page_size - 1);
}

// Whether `in` fits a record (of array a at `page`, or a pool record when a
// is NULL); if not, logs why.
static bool data_fit(const umf_mock_rec_data_t *in, const array_t *a,
                     uint64_t page) {
    const char *why = NULL;
    if (in->kind > META_KIND_MAX || in->backend > META_BACKEND_MAX ||
        in->user_flags > UINT32_MAX) {
        why = "kind, backend or user flags too large";
    } else if (in->device < -1 || in->device >= (int64_t)META_DEVICE_MAX) {
        why = "device out of range";
    } else if (a != NULL &&
               (in->backend != UMF_MOCK_BACKEND_ARENA || in->b0 != page ||
                in->b1 > META_ORDER_MAX || in->mapped != pages_of(in->size) ||
                in->peer_pid != 0 || in->peer_id != 0)) {
        why = "not an arena block at the record's page";
    }
    if (why != NULL) {
        UMF_MOCK_LOG_ERROR("cannot record allocation %llu at 0x%llx: %s",
                           (unsigned long long)in->id,
                           (unsigned long long)in->base, why);
    }
    return why == NULL;
}

// Reads the record's data word by word (under its sequence lock, or a
// claim). A record of array a at `page` reads its first line only.
static void data_copy_out(const umf_mock_record_t *rec, const array_t *a,
                          uint64_t page, umf_mock_rec_data_t *out) {
    uint64_t meta = load_word(&rec->meta);
    out->base = load_word(&rec->base);
    out->size = load_word(&rec->size);
    out->owner = load_word(&rec->owner);
    out->export_fd = (int64_t)load_word((const uint64_t *)&rec->export_fd);
    out->id = load_word(&rec->id);
    out->kind = meta_field(meta, 0, META_KIND_MAX);
    out->backend = meta_field(meta, META_BACKEND_SHIFT, META_BACKEND_MAX);
    out->device =
        (int64_t)meta_field(meta, META_DEVICE_SHIFT, META_DEVICE_MAX) - 1;
    out->user_flags = meta >> META_FLAGS_SHIFT;
    if (a != NULL) {
        out->mapped = pages_of(out->size);
        out->b0 = page;
        out->b1 = meta_field(meta, META_ORDER_SHIFT, META_ORDER_MAX);
        out->peer_pid = 0;
        out->peer_id = 0;
        return;
    }
    out->mapped = load_word(&rec->mapped);
    out->b0 = load_word(&rec->b0);
    out->b1 = load_word(&rec->b1);
    out->peer_pid = (int64_t)load_word((const uint64_t *)&rec->peer_pid);
    out->peer_id = load_word(&rec->peer_id);
}

// Writes data that fit (data_fit) into the record, word by word.
static void data_copy_in(umf_mock_record_t *rec, const array_t *a,
                         const umf_mock_rec_data_t *in) {
    uint64_t order = a != NULL ? in->b1 : 0;
    uint64_t meta = in->kind | in->backend << META_BACKEND_SHIFT |
                    order << META_ORDER_SHIFT |
                    (uint64_t)(in->device + 1) << META_DEVICE_SHIFT |
                    in->user_flags << META_FLAGS_SHIFT;
    store_word(&rec->base, in->base);
    store_word(&rec->size, in->size);
    store_word(&rec->owner, in->owner);
    store_word((uint64_t *)&rec->export_fd, (uint64_t)in->export_fd);
    store_word(&rec->meta, meta);
    store_word(&rec->id, in->id);
    if (a == NULL) {
        store_word(&rec->mapped, in->mapped);
        store_word(&rec->b0, in->b0);
        store_word(&rec->b1, in->b1);
        store_word((uint64_t *)&rec->peer_pid, (uint64_t)in->peer_pid);
        store_word(&rec->peer_id, in->peer_id);
    }
}

void umf_mock_record_store(uint64_t *field, uint64_t value) {
    __atomic_store_n(field, value, __ATOMIC_RELAXED);
}

static void wait_a_little(unsigned *spins) {
    if (++*spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        sched_yield();
    }
}

// umf_mock_record_read of a record of array a at `page` (a NULL: a pool
// record).
static bool read_in(umf_mock_record_t *rec, const array_t *a, uint64_t page,
                    umf_mock_rec_data_t *out, uint64_t *seq) {
    unsigned spins = 0;
    for (;;) {
        uint64_t s1 = atomic_load_explicit(&rec->seq, memory_order_acquire);
        if (s1 & 1) {
            wait_a_little(&spins);
            continue;
        }
        uint64_t live = atomic_load_explicit(&rec->live, memory_order_relaxed);
        data_copy_out(rec, a, page, out);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&rec->seq, memory_order_relaxed) == s1) {
            *seq = s1;
            return live != 0;
        }
    }
}

bool umf_mock_record_read(umf_mock_record_t *rec, umf_mock_rec_data_t *out,
                          uint64_t *seq) {
    uint64_t page = 0;
    const array_t *a = array_holding(rec, &page);
    return read_in(rec, a, page, out, seq);
}

// Whether a snapshot of `rec` (of array a at `page`, or a pool record) is
// live and holds addr.
static bool holds(umf_mock_record_t *rec, const array_t *a, uint64_t page,
                  uint64_t addr, umf_mock_rec_data_t *out, uint64_t *seq) {
    return read_in(rec, a, page, out, seq) && out->base <= addr &&
           addr - out->base < out->mapped;
}

bool umf_mock_registry_lookup(const void *ptr, umf_mock_record_t **rec_out,
                              umf_mock_rec_data_t *out, uint64_t *seq) {
    uint64_t addr = (uint64_t)(uintptr_t)ptr;
    const array_t *a = array_of(addr);
    if (a != NULL) {
        unsigned k = 0;
        uint64_t page;
        for (umf_mock_record_t *rec;
             (rec = array_next(a, addr, &k, &page)) != NULL;) {
            if (holds(rec, a, page, addr, out, seq)) {
                if (rec_out != NULL) {
                    *rec_out = rec;
                }
                return true;
            }
        }
        return false;
    }
    umf_mock_record_t *rec = umf_mock_registry_find(ptr);
    // A record found in the map may be freed and reused before it is read;
    // then the map has changed too, and another round finds the new one.
    for (int round = 0; rec != NULL && round < 1000; round++) {
        if (holds(rec, NULL, 0, addr, out, seq)) {
            if (rec_out != NULL) {
                *rec_out = rec;
            }
            return true;
        }
        umf_mock_record_t *again = umf_mock_registry_find(ptr);
        if (again == rec) {
            return false;
        }
        rec = again;
    }
    return false;
}

// Claims `rec` (of array a at `page`, or a pool record) and keeps the claim
// if it is live and holds addr (*data its data); else releases it. *busy:
// it was claimed by another writer.
static bool claim_holding(umf_mock_record_t *rec, const array_t *a,
                          uint64_t page, uint64_t addr,
                          umf_mock_rec_data_t *data, bool *busy) {
    if (a == NULL) {
        // The claim's compare-exchange holds back every later load until it
        // is done: ask for the second line first, so that the two misses
        // overlap instead of following each other.
        __builtin_prefetch((const char *)rec + 64);
    }
    uint64_t seq = atomic_load_explicit(&rec->seq, memory_order_acquire);
    *busy = !umf_mock_record_claim(rec, seq);
    if (*busy) {
        return false;
    }
    // Ours now: no writer can change it, plain reads are consistent.
    data_copy_out(rec, a, page, data);
    if (atomic_load_explicit(&rec->live, memory_order_relaxed) &&
        data->base <= addr && addr - data->base < data->mapped) {
        return true;
    }
    umf_mock_record_release(rec);
    return false;
}

bool umf_mock_registry_claim_at(const void *ptr, umf_mock_record_t **rec_out,
                                umf_mock_rec_data_t *data) {
    uint64_t addr = (uint64_t)(uintptr_t)ptr;
    unsigned spins = 0;
    bool busy = false;
    const array_t *a = array_of(addr);
    if (a != NULL) {
        unsigned k = 0;
        uint64_t page;
        for (umf_mock_record_t *rec;
             (rec = array_next(a, addr, &k, &page)) != NULL;) {
            bool got;
            while (!(got = claim_holding(rec, a, page, addr, data, &busy)) &&
                   busy) {
                wait_a_little(&spins); // another writer holds it
            }
            if (got) {
                *rec_out = rec;
                return true;
            }
        }
        return false;
    }
    for (;;) {
        umf_mock_record_t *rec = umf_mock_registry_find(ptr);
        if (rec == NULL) {
            return false;
        }
        if (claim_holding(rec, NULL, 0, addr, data, &busy)) {
            *rec_out = rec;
            return true;
        }
        if (busy) {
            wait_a_little(&spins);
            continue;
        }
        // Freed (and maybe reused) before the claim: the map tells.
        if (umf_mock_registry_find(ptr) == rec) {
            return false;
        }
    }
}

bool umf_mock_record_claim(umf_mock_record_t *rec, uint64_t seq) {
    return (seq & 1) == 0 && atomic_compare_exchange_strong_explicit(
                                 &rec->seq, &seq, seq + 1, memory_order_acq_rel,
                                 memory_order_relaxed);
}

void umf_mock_record_release(umf_mock_record_t *rec) {
    uint64_t s = atomic_load_explicit(&rec->seq, memory_order_relaxed);
    atomic_store_explicit(&rec->seq, s + 1, memory_order_release);
}

bool umf_mock_registry_insert(umf_mock_record_t *rec,
                              const umf_mock_rec_data_t *data) {
    uint64_t first = data->base >> umf_mock_page_shift;
    uint64_t end = (data->base + data->mapped) >> umf_mock_page_shift;
    uint64_t page = 0;
    const array_t *a = array_holding(rec, &page);
    if (!data_fit(data, a, page)) {
        return false;
    }
    // Readers holding a stale pointer to this record must see the change.
    uint64_t s = atomic_load_explicit(&rec->seq, memory_order_relaxed);
    atomic_store_explicit(&rec->seq, s + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    data_copy_in(rec, a, data);
    atomic_store_explicit(&rec->live, 1, memory_order_relaxed);
    atomic_store_explicit(&rec->seq, s + 2, memory_order_release);
    if (a != NULL) {
        return true; // found from the address, not the page map
    }
    if (!map_set(first, end, rec)) {
        map_set(first, end, NULL);
        atomic_store_explicit(&rec->seq, s + 3, memory_order_relaxed);
        atomic_store_explicit(&rec->live, 0, memory_order_relaxed);
        atomic_store_explicit(&rec->seq, s + 4, memory_order_release);
        return false;
    }
    return true;
}

void umf_mock_registry_remove(umf_mock_record_t *rec) {
    uint64_t page;
    if (array_holding(rec, &page) == NULL) {
        uint64_t base = load_word(&rec->base);
        uint64_t mapped = load_word(&rec->mapped);
        map_set(base >> umf_mock_page_shift,
                (base + mapped) >> umf_mock_page_shift, NULL);
    }
    atomic_store_explicit(&rec->live, 0, memory_order_relaxed);
    umf_mock_record_release(rec);
}

umf_mock_record_t *umf_mock_record_get(umf_mock_thread_t *t) {
    if (t->free_records == NULL) {
        pthread_mutex_lock(&pool_lock);
        if (pool_free == NULL) {
            slab_t *slab = calloc(1, sizeof(*slab));
            if (slab == NULL) {
                pthread_mutex_unlock(&pool_lock);
                UMF_MOCK_LOG_ERROR("out of host memory for allocation records");
                return NULL;
            }
            slab->next = slabs;
            slabs = slab;
            for (size_t i = 0; i < SLAB_RECORDS; i++) {
                slab->records[i].next_free = pool_free;
                pool_free = &slab->records[i];
            }
        }
        for (unsigned i = 0; i < CACHE_BATCH && pool_free != NULL; i++) {
            umf_mock_record_t *rec = pool_free;
            pool_free = rec->next_free;
            rec->next_free = t->free_records;
            t->free_records = rec;
            t->free_record_count++;
        }
        pthread_mutex_unlock(&pool_lock);
    }
    umf_mock_record_t *rec = t->free_records;
    t->free_records = rec->next_free;
    t->free_record_count--;
    return rec;
}

static void give_back(umf_mock_thread_t *t, unsigned keep) {
    pthread_mutex_lock(&pool_lock);
    while (t->free_record_count > keep) {
        umf_mock_record_t *rec = t->free_records;
        t->free_records = rec->next_free;
        t->free_record_count--;
        rec->next_free = pool_free;
        pool_free = rec;
    }
    pthread_mutex_unlock(&pool_lock);
}

void umf_mock_record_put(umf_mock_thread_t *t, umf_mock_record_t *rec) {
    rec->next_free = t->free_records;
    t->free_records = rec;
    if (++t->free_record_count > CACHE_MAX) {
        give_back(t, CACHE_MAX - CACHE_BATCH);
    }
}

void umf_mock_registry_thread_exit(umf_mock_thread_t *t) {
    give_back(t, 0);
}

void umf_mock_registry_foreach(void (*fn)(const umf_mock_rec_data_t *, void *),
                               void *ctx) {
    pthread_mutex_lock(&pool_lock);
    slab_t *list = slabs;
    umf_mock_record_t *arr[UMF_MOCK_MAX_DEVICES];
    uint64_t used[UMF_MOCK_MAX_DEVICES];
    size_t n = 0;
    for (size_t i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        umf_mock_record_t *r =
            atomic_load_explicit(&arrays[i].records, memory_order_relaxed);
        if (r != NULL) {
            arr[n] = r;
            used[n++] =
                atomic_load_explicit(arrays[i].used, memory_order_acquire);
        }
    }
    pthread_mutex_unlock(&pool_lock);
    // Slabs are only ever added at the head, so the list from `list` on is
    // stable without the lock; arrays stay mapped while their arena lives.
    for (slab_t *slab = list; slab != NULL; slab = slab->next) {
        for (size_t i = 0; i < SLAB_RECORDS; i++) {
            umf_mock_rec_data_t data;
            uint64_t seq;
            if (umf_mock_record_read(&slab->records[i], &data, &seq)) {
                fn(&data, ctx);
            }
        }
    }
    for (size_t a = 0; a < n; a++) {
        for (uint64_t i = 0; i < used[a]; i++) {
            umf_mock_rec_data_t data;
            uint64_t seq;
            if (umf_mock_record_read(&arr[a][i], &data, &seq)) {
                fn(&data, ctx);
            }
        }
    }
}
