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

#define DATA_WORDS (sizeof(umf_mock_rec_data_t) / sizeof(uint64_t))

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
// on (advancing *k), or NULL after the last: the entry of the page a block
// of order k holding addr would start at. The base case (k = 0) first; a
// record covers a whole block and blocks never overlap, so the first
// candidate that holds addr is its one.
static umf_mock_record_t *array_next(const array_t *a, uint64_t addr,
                                     unsigned *k) {
    uint64_t page = (addr - a->base) >> umf_mock_page_shift;
    uint64_t used = atomic_load_explicit(a->used, memory_order_acquire);
    for (; *k <= a->max_order; (*k)++) {
        uint64_t start = page & ~((UINT64_C(1) << *k) - 1);
        if (start < used) {
            umf_mock_record_t *records =
                atomic_load_explicit(&a->records, memory_order_relaxed);
            (*k)++;
            return &records[start];
        }
    }
    return NULL;
}

static bool in_array(const umf_mock_record_t *rec) {
    unsigned n = atomic_load_explicit(&array_count, memory_order_acquire);
    for (unsigned i = 0; i < n; i++) {
        const umf_mock_record_t *r =
            atomic_load_explicit(&arrays[i].records, memory_order_relaxed);
        if (r != NULL && rec >= r && rec < r + arrays[i].pages) {
            return true;
        }
    }
    return false;
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

static void data_copy_out(const umf_mock_record_t *rec,
                          umf_mock_rec_data_t *out) {
    const uint64_t *src = (const uint64_t *)&rec->data;
    uint64_t *dst = (uint64_t *)out;
    for (size_t i = 0; i < DATA_WORDS; i++) {
        dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
    }
}

static void data_copy_in(umf_mock_record_t *rec,
                         const umf_mock_rec_data_t *in) {
    uint64_t *dst = (uint64_t *)&rec->data;
    const uint64_t *src = (const uint64_t *)in;
    for (size_t i = 0; i < DATA_WORDS; i++) {
        __atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
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

bool umf_mock_record_read(umf_mock_record_t *rec, umf_mock_rec_data_t *out,
                          uint64_t *seq) {
    unsigned spins = 0;
    for (;;) {
        uint64_t s1 = atomic_load_explicit(&rec->seq, memory_order_acquire);
        if (s1 & 1) {
            wait_a_little(&spins);
            continue;
        }
        uint64_t live = atomic_load_explicit(&rec->live, memory_order_relaxed);
        data_copy_out(rec, out);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&rec->seq, memory_order_relaxed) == s1) {
            *seq = s1;
            return live != 0;
        }
    }
}

// Whether a snapshot of `rec` is live and holds addr.
static bool holds(umf_mock_record_t *rec, uint64_t addr,
                  umf_mock_rec_data_t *out, uint64_t *seq) {
    return umf_mock_record_read(rec, out, seq) && out->base <= addr &&
           addr - out->base < out->mapped;
}

bool umf_mock_registry_lookup(const void *ptr, umf_mock_record_t **rec_out,
                              umf_mock_rec_data_t *out, uint64_t *seq) {
    uint64_t addr = (uint64_t)(uintptr_t)ptr;
    const array_t *a = array_of(addr);
    if (a != NULL) {
        unsigned k = 0;
        for (umf_mock_record_t *rec; (rec = array_next(a, addr, &k)) != NULL;) {
            if (holds(rec, addr, out, seq)) {
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
        if (holds(rec, addr, out, seq)) {
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

// Claims `rec` and keeps the claim if it is live and holds addr (*data its
// data); else releases it. *busy: it was claimed by another writer.
static bool claim_holding(umf_mock_record_t *rec, uint64_t addr,
                          umf_mock_rec_data_t *data, bool *busy) {
    // The claim's compare-exchange holds back every later load until it is
    // done: ask for the data's second line first, so that the two misses
    // overlap instead of following each other.
    __builtin_prefetch((const char *)rec + 64);
    uint64_t seq = atomic_load_explicit(&rec->seq, memory_order_acquire);
    *busy = !umf_mock_record_claim(rec, seq);
    if (*busy) {
        return false;
    }
    // Ours now: no writer can change it, plain reads are consistent.
    data_copy_out(rec, data);
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
        for (umf_mock_record_t *rec; (rec = array_next(a, addr, &k)) != NULL;) {
            bool got;
            while (!(got = claim_holding(rec, addr, data, &busy)) && busy) {
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
        if (claim_holding(rec, addr, data, &busy)) {
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
    // Readers holding a stale pointer to this record must see the change.
    uint64_t s = atomic_load_explicit(&rec->seq, memory_order_relaxed);
    atomic_store_explicit(&rec->seq, s + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    data_copy_in(rec, data);
    atomic_store_explicit(&rec->live, 1, memory_order_relaxed);
    atomic_store_explicit(&rec->seq, s + 2, memory_order_release);
    if (in_array(rec)) {
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
    uint64_t base = __atomic_load_n(&rec->data.base, __ATOMIC_RELAXED);
    uint64_t mapped = __atomic_load_n(&rec->data.mapped, __ATOMIC_RELAXED);
    if (!in_array(rec)) {
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
