// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-table-compare: the ownership table (providers/ownership_table.h)
// against the concurrent hash tables of two Debian libraries, on what a
// provider does with its record of live allocations: an insert after each
// driver allocation, a checked remove before each free. Built only where
// liburcu-dev and libck-dev are installed; a measuring tool for the choice
// of the table, not part of the library (which links neither).
//
//   - ours: ownership_table, 256 open-addressing segments with a spinlock
//     each;
//   - liburcu: cds_lfht (RCU lock-free resizable hash table, the memb
//     flavour), sized for 2^20 buckets from the start, a node allocated per
//     insert and freed after a grace period (call_rcu), lookups and removes
//     inside rcu_read_lock;
//   - libck: ck_ht in direct mode (keys and values in the table, nothing
//     allocated per call), single writer: writes under a ck spinlock.
//
// Workloads (thread CPU time, median of 11 repetitions):
//   hot      insert + remove of one key, repeated (the provider's hot loop);
//   random L L keys live (addresses 4 KiB apart, as the emulated arena
//            hands them out); each step removes a random one and inserts it
//            again with a new size (the driver hands the freed address out
//            again), as the benchmark's random pattern does;
//   2 thr    the hot loop on two threads at once, each its own key.
// Usage: umf-gpu-table-compare [--quick]

#define _GNU_SOURCE
#include <ck_ht.h>
#include <ck_spinlock.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu.h>
#include <urcu/rculfhash.h>

#include "ownership_table.h"

#define REPS 11
#define BASE_ADDR 0x7f0000000000ull
#define PAGE 4096u

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return v[n / 2];
}

// For cds_lfht, which takes buckets from the hash's low bits: a full mix
// (ours takes the high bits of one multiply; ck_ht hashes on its own).
static uint64_t hash64(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    return key ^ (key >> 33);
}

// ---- The tables behind one interface
// ------------------------------------------

typedef struct table_ops_t {
    const char *name;
    void *(*create)(void);
    void (*destroy)(void *t);
    void (*thread_enter)(void);
    void (*thread_exit)(void);
    bool (*insert)(void *t, uint64_t key, uint64_t size);
    bool (*remove)(void *t, uint64_t key, uint64_t size); // checks the size
} table_ops_t;

// ours
static void *own_create(void) {
    umf_own_table_t *t = malloc(sizeof(*t));
    if (t != NULL && umf_own_table_init(t) != UMF_RESULT_SUCCESS) {
        free(t);
        t = NULL;
    }
    return t;
}
static void own_destroy(void *t) {
    umf_own_table_fini(t);
    free(t);
}
static void own_enter(void) {}
static void own_exit(void) {}
static bool own_insert(void *t, uint64_t key, uint64_t size) {
    bool held;
    uint64_t gen;
    return umf_own_table_insert(t, key, size, 0, &held, &gen) ==
           UMF_RESULT_SUCCESS;
}
static bool own_remove(void *t, uint64_t key, uint64_t size) {
    uint64_t word, gen;
    bool freeing;
    return umf_own_table_take(t, key, size, false, &word, &freeing, &gen) ==
           UMF_OWN_TAKEN;
}

// liburcu
typedef struct urcu_node_t {
    struct cds_lfht_node node;
    uint64_t key, size;
    struct rcu_head rcu;
} urcu_node_t;

static int urcu_match(struct cds_lfht_node *node, const void *key) {
    return caa_container_of(node, urcu_node_t, node)->key ==
           *(const uint64_t *)key;
}
static void *urcu_create(void) {
    // Sized for a million entries from the start: its automatic resize runs
    // in a worker thread, and until it catches up lookups walk long chains.
    return cds_lfht_new(1u << 20, 1u << 20, 1u << 22,
                        CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
}
static void urcu_destroy(void *t) {
    rcu_barrier();
    // Left entries are the benchmark's last live set: dropped with the
    // process (cds_lfht_destroy needs an empty table).
    (void)t;
}
static void urcu_enter(void) {
    rcu_register_thread();
}
static void urcu_exit(void) {
    rcu_unregister_thread();
}
static bool urcu_insert(void *t, uint64_t key, uint64_t size) {
    urcu_node_t *n = malloc(sizeof(*n));
    if (n == NULL) {
        return false;
    }
    cds_lfht_node_init(&n->node);
    n->key = key;
    n->size = size;
    rcu_read_lock();
    struct cds_lfht_node *got =
        cds_lfht_add_unique(t, hash64(key), urcu_match, &n->key, &n->node);
    rcu_read_unlock();
    if (got != &n->node) {
        free(n);
        return false;
    }
    return true;
}
static void urcu_free_node(struct rcu_head *head) {
    free(caa_container_of(head, urcu_node_t, rcu));
}
static bool urcu_remove(void *t, uint64_t key, uint64_t size) {
    struct cds_lfht_iter it;
    bool ok = false;
    rcu_read_lock();
    cds_lfht_lookup(t, hash64(key), urcu_match, &key, &it);
    struct cds_lfht_node *node = cds_lfht_iter_get_node(&it);
    if (node != NULL) {
        urcu_node_t *n = caa_container_of(node, urcu_node_t, node);
        // The size check, then the removal: only one remover wins.
        if ((size == 0 || n->size == size) && cds_lfht_del(t, node) == 0) {
            call_rcu(&n->rcu, urcu_free_node);
            ok = true;
        }
    }
    rcu_read_unlock();
    return ok;
}

// libck
typedef struct ck_table_t {
    ck_ht_t ht;
    ck_spinlock_fas_t lock; // ck_ht is single-writer
} ck_table_t;

static void *ck_malloc(size_t r) {
    return malloc(r);
}
static void ck_free(void *p, size_t b, bool r) {
    (void)b;
    (void)r;
    free(p);
}
static struct ck_malloc ck_allocator = {.malloc = ck_malloc, .free = ck_free};

static void *ck_create(void) {
    ck_table_t *t = malloc(sizeof(*t));
    if (t == NULL) {
        return NULL;
    }
    ck_spinlock_fas_init(&t->lock);
    if (!ck_ht_init(&t->ht, CK_HT_MODE_DIRECT, NULL, &ck_allocator, 1024,
                    0x5bd1e995)) {
        free(t);
        return NULL;
    }
    return t;
}
static void ck_destroy(void *t) {
    ck_ht_destroy(&((ck_table_t *)t)->ht);
    free(t);
}
static void ck_nop(void) {}
static bool ck_insert(void *tt, uint64_t key, uint64_t size) {
    ck_table_t *t = tt;
    ck_ht_entry_t e;
    ck_ht_hash_t h;
    ck_ht_hash_direct(&h, &t->ht, (uintptr_t)key);
    ck_ht_entry_set_direct(&e, h, (uintptr_t)key, (uintptr_t)size);
    ck_spinlock_fas_lock(&t->lock);
    bool ok = ck_ht_put_spmc(&t->ht, h, &e);
    ck_spinlock_fas_unlock(&t->lock);
    return ok;
}
static bool ck_remove(void *tt, uint64_t key, uint64_t size) {
    ck_table_t *t = tt;
    ck_ht_entry_t e;
    ck_ht_hash_t h;
    ck_ht_hash_direct(&h, &t->ht, (uintptr_t)key);
    ck_ht_entry_key_set_direct(&e, (uintptr_t)key);
    ck_spinlock_fas_lock(&t->lock);
    bool ok = ck_ht_get_spmc(&t->ht, h, &e) &&
              (size == 0 || ck_ht_entry_value_direct(&e) == size);
    if (ok) {
        ck_ht_entry_key_set_direct(&e, (uintptr_t)key);
        ok = ck_ht_remove_spmc(&t->ht, h, &e);
    }
    ck_spinlock_fas_unlock(&t->lock);
    return ok;
}

static const table_ops_t tables[] = {
    {"ours (ownership_table)", own_create, own_destroy, own_enter, own_exit,
     own_insert, own_remove},
    {"liburcu cds_lfht", urcu_create, urcu_destroy, urcu_enter, urcu_exit,
     urcu_insert, urcu_remove},
    {"libck ck_ht + spinlock", ck_create, ck_destroy, ck_nop, ck_nop, ck_insert,
     ck_remove},
};

// ---- Workloads
// -------------------------------------------------------------------

static bool hot(const table_ops_t *ops, void *t, uint64_t key, long n) {
    for (long i = 0; i < n; i++) {
        if (!ops->insert(t, key, 64) || !ops->remove(t, key, 64)) {
            return false;
        }
    }
    return true;
}

// ns per hot pair on this thread
static double measure_hot(const table_ops_t *ops, void *t, uint64_t key,
                          long n) {
    double s[REPS];
    hot(ops, t, key, n / 4); // warm
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns();
        if (!hot(ops, t, key, n)) {
            return -1;
        }
        s[r] = (now_ns() - t0) / (double)n;
    }
    return median(s, REPS);
}

static double measure_random(const table_ops_t *ops, void *t, size_t live,
                             long n) {
    uint64_t *sizes = calloc(live, sizeof(*sizes));
    double s[REPS], result = -1;
    uint64_t x = 88172645463325252ull;
    if (sizes == NULL) {
        return -1;
    }
    for (size_t i = 0; i < live; i++) {
        sizes[i] = 64 + i % 4033;
        if (!ops->insert(t, BASE_ADDR + i * PAGE, sizes[i])) {
            goto out;
        }
    }
    for (int r = -1; r < REPS; r++) { // r = -1: warm-up
        double t0 = now_ns();
        for (long i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            size_t k = (size_t)(((unsigned __int128)(x >> 16) * live) >> 48);
            uint64_t key = BASE_ADDR + k * PAGE;
            if (!ops->remove(t, key, sizes[k])) {
                goto out;
            }
            sizes[k] = 64 + (x & 0xffff) % 4033;
            if (!ops->insert(t, key, sizes[k])) {
                goto out;
            }
        }
        if (r >= 0) {
            s[r] = (now_ns() - t0) / (double)n;
        }
    }
    result = median(s, REPS);
    for (size_t i = 0; i < live; i++) {
        (void)ops->remove(t, BASE_ADDR + i * PAGE, 0);
    }
out:
    free(sizes);
    return result;
}

typedef struct two_arg_t {
    const table_ops_t *ops;
    void *t;
    uint64_t key;
    long n;
    pthread_barrier_t *start;
    double ns;
} two_arg_t;

static void *two_thread(void *p) {
    two_arg_t *a = p;
    a->ops->thread_enter();
    pthread_barrier_wait(a->start);
    a->ns = measure_hot(a->ops, a->t, a->key, a->n);
    a->ops->thread_exit();
    return NULL;
}

int main(int argc, char **argv) {
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    long n_hot = quick ? 200000 : 2000000, n_rand = quick ? 50000 : 400000;
    size_t levels[] = {1000, 100000, 1000000};
    printf("umf-gpu-table-compare: ns per operation pair, thread CPU time, "
           "median of %d\n",
           REPS);
    printf("%-24s %8s %8s %8s %8s %12s\n", "table", "hot", "rnd 1k", "rnd 100k",
           "rnd 1M", "2 thr (each)");
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        const table_ops_t *ops = &tables[i];
        ops->thread_enter();
        void *t = ops->create();
        if (t == NULL) {
            fprintf(stderr, "%s: cannot create\n", ops->name);
            return 1;
        }
        double h = measure_hot(ops, t, BASE_ADDR + 0x1000000, n_hot);
        double r[3];
        for (int l = 0; l < 3; l++) {
            r[l] = measure_random(ops, t, quick ? levels[l] / 10 : levels[l],
                                  n_rand);
        }
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, 2);
        two_arg_t a[2] = {
            {ops, t, BASE_ADDR + 0x2000000, n_hot, &start, 0},
            {ops, t, BASE_ADDR + 0x3000000 + 12345 * PAGE, n_hot, &start, 0}};
        pthread_t tid[2];
        for (int k = 0; k < 2; k++) {
            pthread_create(&tid[k], NULL, two_thread, &a[k]);
        }
        for (int k = 0; k < 2; k++) {
            pthread_join(tid[k], NULL);
        }
        pthread_barrier_destroy(&start);
        printf("%-24s %8.1f %8.1f %8.1f %8.1f %6.1f/%-5.1f\n", ops->name, h,
               r[0], r[1], r[2], a[0].ns, a[1].ns);
        fflush(stdout);
        ops->destroy(t);
        ops->thread_exit();
    }
    return 0;
}
