// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Allocation, free, the registry and the device limits, in the memory mode
// the environment selects (ctest runs this suite in each mode), with
// UMF_GPU_MOCK_DEVICE_MEM=64M.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "mock_arena.h"
#include "mock_registry.h"
#include "mock_test_util.h"

#define MiB (1ull << 20)

UMF_C_TEST(MockMemory, DevicesFromTheEnvironment) {
    if (!test_core_init()) {
        return;
    }
    UMF_EXPECT_EQ(umf_mock_device_count(), 2);
    UMF_EXPECT_EQ(umf_mock_device_total(0), 64 * MiB);
    UMF_EXPECT_EQ(umf_mock_device_total(1), 64 * MiB);
    UMF_EXPECT_EQ(umf_mock_device_total(2), 0);
}

// Blocks of many orders side by side (the arena finds a block's record
// from its first page, and an interior address's among the pages a block of
// each order could start at): every address resolves to its own
// allocation, the slack of none, and each frees once.
UMF_C_TEST(MockMemory, ManySizesResolveToTheirOwn) {
    if (!test_core_init()) {
        return;
    }
    enum { N = 48 };
    void *p[N];
    size_t size[N];
    for (int i = 0; i < N; i++) {
        size[i] = (size_t)(1 + (i * 37) % 600) * umf_mock_page_size - i;
        UMF_ASSERT_EQ(
            umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, size[i], 0, 0, 0, &p[i]),
            UMF_MOCK_OK);
    }
    for (int i = 0; i < N; i++) {
        const char *probes[] = {p[i], (char *)p[i] + size[i] / 2,
                                (char *)p[i] + size[i] - 1};
        for (int j = 0; j < 3; j++) {
            umf_mock_alloc_info_t info;
            UMF_ASSERT_EQ(umf_mock_lookup(probes[j], &info), UMF_MOCK_OK);
            UMF_EXPECT_PTR_EQ(info.base, p[i]);
            UMF_EXPECT_EQ(info.size, size[i]);
        }
        if (size[i] > umf_mock_page_size) {
            UMF_EXPECT_EQ(umf_mock_free((char *)p[i] + umf_mock_page_size,
                                        UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                          UMF_MOCK_ERR_NOT_BASE);
        }
    }
    for (int i = 0; i < N; i++) {
        int k = (i * 29) % N; // every index once (29 and 48 are coprime)
        UMF_EXPECT_EQ(umf_mock_free(p[k], UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                      UMF_MOCK_OK);
        UMF_EXPECT_EQ(umf_mock_free(p[k], UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                      UMF_MOCK_ERR_NOT_FOUND);
    }
}

UMF_C_TEST(MockMemory, AllocLookupFree) {
    if (!test_core_init()) {
        return;
    }
    static const umf_mock_kind_t kinds[] = {
        UMF_MOCK_KIND_DEVICE, UMF_MOCK_KIND_SHARED, UMF_MOCK_KIND_SHARED,
        UMF_MOCK_KIND_HOST};
    static const int devs[] = {1, 0, -1, -1};
    for (int k = 0; k < 4; k++) {
        void *p = NULL;
        uint64_t used = devs[k] >= 0 ? umf_mock_device_used(devs[k]) : 0;
        UMF_ASSERT_EQ(
            umf_mock_alloc(kinds[k], devs[k], 10000, 0, 0x1234, 5, &p),
            UMF_MOCK_OK);
        UMF_ASSERT(p != NULL);
        UMF_EXPECT_EQ((uintptr_t)p % umf_mock_page_size, 0);
        memset(p, 0xab, 10000); // the memory is usable from the host
        if (devs[k] >= 0) {
            UMF_EXPECT_EQ(umf_mock_device_used(devs[k]),
                          used + 3 * umf_mock_page_size);
        }
        umf_mock_alloc_info_t info;
        // Base, interior and last byte resolve to the allocation.
        const char *probes[] = {p, (char *)p + 4097, (char *)p + 9999};
        for (int i = 0; i < 3; i++) {
            UMF_ASSERT_EQ(umf_mock_lookup(probes[i], &info), UMF_MOCK_OK);
            UMF_EXPECT_PTR_EQ(info.base, p);
            UMF_EXPECT_EQ(info.size, 10000);
            UMF_EXPECT_EQ(info.mapped, 3 * umf_mock_page_size);
            UMF_EXPECT_EQ(info.kind, kinds[k]);
            UMF_EXPECT_EQ(info.device, devs[k]);
            UMF_EXPECT_EQ(info.owner, 0x1234);
            UMF_EXPECT_EQ(info.user_flags, 5);
            UMF_EXPECT(info.id != 0);
            UMF_EXPECT(!info.exported);
        }
        // The rounding belongs to the allocation too; past it, nothing.
        UMF_EXPECT_EQ(
            umf_mock_lookup((char *)p + 3 * umf_mock_page_size, &info),
            UMF_MOCK_ERR_NOT_FOUND);
        UMF_EXPECT_EQ(
            umf_mock_free((char *)p + 1, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
            UMF_MOCK_ERR_NOT_BASE);
        UMF_EXPECT_EQ(umf_mock_free(p, UMF_MOCK_KIND_ALLOCATED, 0x999, NULL),
                      UMF_MOCK_ERR_WRONG_OWNER);
        UMF_EXPECT_EQ(umf_mock_free(p, UMF_MOCK_KIND_IMPORTED, 0, NULL),
                      UMF_MOCK_ERR_WRONG_KIND);
        umf_mock_alloc_info_t freed;
        UMF_EXPECT_EQ(umf_mock_free(p, kinds[k], 0x1234, &freed), UMF_MOCK_OK);
        UMF_EXPECT_PTR_EQ(freed.base, p);
        UMF_EXPECT_EQ(umf_mock_lookup(p, &info), UMF_MOCK_ERR_NOT_FOUND);
        UMF_EXPECT_EQ(umf_mock_free(p, kinds[k], 0, NULL),
                      UMF_MOCK_ERR_NOT_FOUND); // double free
        if (devs[k] >= 0) {
            UMF_EXPECT_EQ(umf_mock_device_used(devs[k]), used);
        }
    }
}

// What RecordsKeepEveryFieldWhole made: 6 pages' worth, the widest owner
// and user flags, no peer.
static void expect_widest(const umf_mock_alloc_info_t *i, const void *p,
                          size_t size, umf_mock_kind_t kind, int dev,
                          uintptr_t owner) {
    UMF_EXPECT_PTR_EQ(i->base, p);
    UMF_EXPECT_EQ(i->size, size);
    UMF_EXPECT_EQ(i->mapped, 6 * umf_mock_page_size);
    UMF_EXPECT_EQ(i->kind, kind);
    UMF_EXPECT_EQ(i->device, dev);
    UMF_EXPECT_EQ(i->owner, owner);
    UMF_EXPECT_EQ(i->user_flags, UINT32_MAX);
    UMF_EXPECT(i->id != 0);
    UMF_EXPECT(!i->exported);
    UMF_EXPECT_EQ(i->peer_pid, 0);
    UMF_EXPECT_EQ(i->peer_id, 0);
}

// A record packs some fields together, and a record of the arena keeps
// only its first line: every field still comes back whole, at its largest
// too, from a lookup and from the free.
UMF_C_TEST(MockMemory, RecordsKeepEveryFieldWhole) {
    if (!test_core_init()) {
        return;
    }
    static const umf_mock_kind_t kinds[] = {
        UMF_MOCK_KIND_DEVICE, UMF_MOCK_KIND_SHARED, UMF_MOCK_KIND_HOST};
    static const int devs[] = {1, 1, -1};
    const uintptr_t owner = (uintptr_t)0xfedcba9876543210ull;
    const size_t size = 5 * umf_mock_page_size + 3;
    for (int k = 0; k < 3; k++) {
        void *p = NULL;
        // 64 KiB aligned: an arena block of a higher order than its size.
        UMF_ASSERT_EQ(umf_mock_alloc(kinds[k], devs[k], size, 64 << 10, owner,
                                     UINT32_MAX, &p),
                      UMF_MOCK_OK);
        UMF_EXPECT_EQ((uintptr_t)p % (64 << 10), 0);
        umf_mock_alloc_info_t info;
        UMF_ASSERT_EQ(umf_mock_lookup((char *)p + size - 1, &info),
                      UMF_MOCK_OK);
        expect_widest(&info, p, size, kinds[k], devs[k], owner);
        uint64_t id = info.id;
        // The slack up to the alignment is not the allocation's.
        UMF_EXPECT_EQ(
            umf_mock_lookup((char *)p + 6 * umf_mock_page_size, &info),
            UMF_MOCK_ERR_NOT_FOUND);
        UMF_ASSERT_EQ(umf_mock_free(p, UMF_MOCK_KIND_ALLOCATED, owner, &info),
                      UMF_MOCK_OK);
        expect_widest(&info, p, size, kinds[k], devs[k], owner);
        UMF_EXPECT_EQ(info.id, id);
    }
}

// Data a record cannot hold are refused whole, and nothing is registered:
// too wide a field for a pool record; for an arena record, anything but
// the arena block of its own page.
UMF_C_TEST(MockMemory, RecordsRefuseWhatTheyCannotHold) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_thread_t *t = umf_mock_thread();
    UMF_ASSERT(t != NULL);
    static char target[1];
    uint64_t base =
        ((uint64_t)(uintptr_t)target) & ~(uint64_t)(umf_mock_page_size - 1);
    const umf_mock_rec_data_t good = {
        .base = base,
        .size = 1,
        .mapped = umf_mock_page_size,
        .id = 77,
        .kind = UMF_MOCK_KIND_HOST,
        .device = -1,
        .export_fd = -1,
        .backend = UMF_MOCK_BACKEND_MALLOC,
    };
    umf_mock_rec_data_t bad[4] = {good, good, good, good};
    bad[0].user_flags = UINT64_C(1) << 32;
    bad[1].device = 1 << 14;
    bad[2].kind = 0x100;
    bad[3].device = INT64_MAX;
    umf_mock_record_t *rec = umf_mock_record_get(t);
    UMF_ASSERT(rec != NULL);
    for (int i = 0; i < 4; i++) {
        UMF_EXPECT(!umf_mock_registry_insert(rec, &bad[i]));
        umf_mock_alloc_info_t info;
        UMF_EXPECT_EQ(umf_mock_lookup(target, &info), UMF_MOCK_ERR_NOT_FOUND);
    }
    umf_mock_record_put(t, rec);
    if (umf_mock_memory_mode() != UMF_MOCK_MEMORY_ARENA) {
        return;
    }
    // A block of the arena of device 0, taken from the arena itself: its
    // record is unused.
    umf_mock_arena_t *a;
    UMF_ASSERT_EQ(umf_mock_device_arena(0, &a), UMF_MOCK_OK);
    void *block = NULL;
    uint32_t page = 0;
    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, 1, &block, &page), UMF_MOCK_OK);
    umf_mock_rec_data_t arena_good = {
        .base = (uint64_t)(uintptr_t)block,
        .size = umf_mock_page_size + 1,
        .mapped = 2 * umf_mock_page_size,
        .id = 78,
        .kind = UMF_MOCK_KIND_DEVICE,
        .device = 0,
        .export_fd = -1,
        .backend = UMF_MOCK_BACKEND_ARENA,
        .b0 = page,
        .b1 = 1,
    };
    umf_mock_rec_data_t arena_bad[5] = {arena_good, arena_good, arena_good,
                                        arena_good, arena_good};
    arena_bad[0].b0 = page + 1;
    arena_bad[1].mapped = 4 * umf_mock_page_size;
    arena_bad[2].backend = UMF_MOCK_BACKEND_MALLOC;
    arena_bad[3].b1 = 64;
    arena_bad[4].peer_pid = 1;
    rec = umf_mock_arena_record(a, page);
    for (int i = 0; i < 5; i++) {
        UMF_EXPECT(!umf_mock_registry_insert(rec, &arena_bad[i]));
        umf_mock_alloc_info_t info;
        UMF_EXPECT_EQ(umf_mock_lookup(block, &info), UMF_MOCK_ERR_NOT_FOUND);
    }
    // The block itself fits; the record gives back what went in.
    UMF_ASSERT(umf_mock_registry_insert(rec, &arena_good));
    umf_mock_rec_data_t out;
    uint64_t seq;
    UMF_ASSERT(umf_mock_record_read(rec, &out, &seq));
    UMF_EXPECT_EQ(memcmp(&out, &arena_good, sizeof(out)), 0);
    UMF_ASSERT(umf_mock_record_claim(rec, seq));
    umf_mock_registry_remove(rec);
    umf_mock_arena_free(a, NULL, page, 1, false);
}

UMF_C_TEST(MockMemory, BadFrees) {
    if (!test_core_init()) {
        return;
    }
    int on_stack;
    void *heap = malloc(64);
    UMF_EXPECT_EQ(umf_mock_free(NULL, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_free(&on_stack, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_free(heap, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_free((void *)(uintptr_t)0xdeadbeef000ull,
                                UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(
        umf_mock_free((void *)UINTPTR_MAX, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
        UMF_MOCK_ERR_NOT_FOUND);
    umf_mock_alloc_info_t info;
    UMF_EXPECT_EQ(umf_mock_lookup(&on_stack, &info), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_lookup(NULL, &info), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_lookup(heap, NULL), UMF_MOCK_ERR_INVALID_ARGUMENT);
    free(heap);
}

UMF_C_TEST(MockMemory, BadRequests) {
    if (!test_core_init()) {
        return;
    }
    void *p = NULL;
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 0, 0, 0, 0, &p),
                  UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, SIZE_MAX, 0, 0, 0, &p),
        UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_HOST, -1, SIZE_MAX - 10, 0, 0, 0, &p),
        UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 3, 0, 0, &p),
                  UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 1ull << 31, 0, 0, &p),
        UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 2, 64, 0, 0, 0, &p),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, -1, 64, 0, 0, 0, &p),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_HOST, 0, 64, 0, 0, 0, &p),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_IMPORTED, 0, 64, 0, 0, 0, &p),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 0, 0, 0, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT(p == NULL);
}

UMF_C_TEST(MockMemory, Alignments) {
    if (!test_core_init()) {
        return;
    }
    for (size_t align = 1; align <= 16 * MiB; align *= 4) {
        void *p;
        UMF_ASSERT_EQ(
            umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 100, align, 0, 0, &p),
            UMF_MOCK_OK);
        UMF_EXPECT_EQ((uintptr_t)p % align, 0);
        void *h;
        UMF_ASSERT_EQ(
            umf_mock_alloc(UMF_MOCK_KIND_HOST, -1, 100, align, 0, 0, &h),
            UMF_MOCK_OK);
        UMF_EXPECT_EQ((uintptr_t)h % align, 0);
        UMF_EXPECT_EQ(umf_mock_free(p, UMF_MOCK_KIND_DEVICE, 0, NULL),
                      UMF_MOCK_OK);
        UMF_EXPECT_EQ(umf_mock_free(h, UMF_MOCK_KIND_HOST, 0, NULL),
                      UMF_MOCK_OK);
    }
}

UMF_C_TEST(MockMemory, DeviceLimit) {
    if (!test_core_init()) {
        return;
    }
    uint64_t total = umf_mock_device_total(1);
    uint64_t used = umf_mock_device_used(1);
    void *big, *rest, *more;
    UMF_ASSERT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, total / 2, 0, 0, 0, &big),
        UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1,
                                 total - total / 2 - used, 0, 0, 0, &rest),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_device_used(1), total);
    // Full: even one byte more fails, on this device only.
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, 1, 0, 0, 0, &more),
                  UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY);
    UMF_EXPECT_EQ(umf_mock_alloc(UMF_MOCK_KIND_SHARED, 1, 1, 0, 0, 0, &more),
                  UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY);
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 1, 0, 0, 0, &more),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(more, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    // Host memory has no such limit.
    UMF_ASSERT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_HOST, -1, 2 * total, 0, 0, 0, &more),
        UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(more, UMF_MOCK_KIND_HOST, 0, NULL),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, total + 1, 0, 0, 0, &more),
        UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY);
    UMF_EXPECT_EQ(umf_mock_free(big, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, 4096, 0, 0, 0, &more),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(more, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(rest, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_device_used(1), used);
}

UMF_C_TEST(MockMemory, ManySmallAllocationsHaveUniqueIdsAndRanges) {
    if (!test_core_init()) {
        return;
    }
    enum { N = 2000 };
    void **ptrs = calloc(N, sizeof(void *));
    uint64_t *ids = calloc(N, sizeof(uint64_t));
    UMF_ASSERT(ptrs != NULL && ids != NULL);
    for (int i = 0; i < N; i++) {
        UMF_ASSERT_EQ(
            umf_mock_alloc(i % 3 ? UMF_MOCK_KIND_DEVICE : UMF_MOCK_KIND_HOST,
                           i % 3 ? i % 2 : -1, 1 + (size_t)i * 7, 0, 0, 0,
                           &ptrs[i]),
            UMF_MOCK_OK);
        memset(ptrs[i], i & 0xff, 1 + (size_t)i * 7);
        umf_mock_alloc_info_t info;
        UMF_ASSERT_EQ(umf_mock_lookup(ptrs[i], &info), UMF_MOCK_OK);
        ids[i] = info.id;
    }
    for (int i = 0; i < N; i++) {
        // Nothing overwrote anything: ranges are disjoint.
        const unsigned char *b = ptrs[i];
        UMF_EXPECT_EQ(b[0], i & 0xff);
        UMF_EXPECT_EQ(b[(size_t)i * 7], i & 0xff);
        for (int j = i + 1; j < N && j < i + 50; j++) {
            UMF_EXPECT_NE(ids[i], ids[j]);
        }
    }
    for (int i = 0; i < N; i++) {
        UMF_EXPECT_EQ(umf_mock_free(ptrs[i], UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                      UMF_MOCK_OK);
    }
    free(ptrs);
    free(ids);
    UMF_EXPECT_EQ(umf_mock_device_used(0), 0);
    UMF_EXPECT_EQ(umf_mock_device_used(1), 0);
}

// ---- Threads --------------------------------------------------------------

typedef struct race_t {
    void *_Atomic ptr;
    _Atomic int freed_ok;
} race_t;

static void *free_racer(void *arg) {
    race_t *r = arg;
    void *p;
    while ((p = atomic_load(&r->ptr)) == NULL) {
    }
    if (umf_mock_free(p, UMF_MOCK_KIND_DEVICE, 0, NULL) == UMF_MOCK_OK) {
        atomic_fetch_add(&r->freed_ok, 1);
    }
    return NULL;
}

UMF_C_TEST(MockMemory, ConcurrentDoubleFreeSucceedsOnce) {
    if (!test_core_init()) {
        return;
    }
    for (int round = 0; round < 50; round++) {
        race_t race = {NULL, 0};
        pthread_t th[4];
        for (int i = 0; i < 4; i++) {
            UMF_ASSERT_EQ(pthread_create(&th[i], NULL, free_racer, &race), 0);
        }
        void *p;
        UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 0, 0, 0, &p),
                      UMF_MOCK_OK);
        atomic_store(&race.ptr, p);
        for (int i = 0; i < 4; i++) {
            pthread_join(th[i], NULL);
        }
        UMF_EXPECT_EQ(atomic_load(&race.freed_ok), 1);
    }
}

typedef struct worker_t {
    int index;
    int errors;
} worker_t;

static void *churn(void *arg) {
    worker_t *w = arg;
    void *mine[16] = {0};
    unsigned seed = (unsigned)w->index * 7919u + 1;
    for (int i = 0; i < 3000; i++) {
        int slot = rand_r(&seed) % 16;
        if (mine[slot] != NULL) {
            umf_mock_alloc_info_t info;
            if (umf_mock_lookup((char *)mine[slot] + 1, &info) != UMF_MOCK_OK ||
                info.base != mine[slot] ||
                *(unsigned char *)mine[slot] != (unsigned char)w->index) {
                w->errors++;
            }
            if (umf_mock_free(mine[slot], UMF_MOCK_KIND_ALLOCATED, 0, NULL) !=
                UMF_MOCK_OK) {
                w->errors++;
            }
            mine[slot] = NULL;
        } else {
            size_t size = 1 + (size_t)(rand_r(&seed) % 40000);
            int kind = rand_r(&seed) % 4;
            umf_mock_status_t s = umf_mock_alloc(
                kind == 0 ? UMF_MOCK_KIND_HOST : UMF_MOCK_KIND_DEVICE,
                kind == 0 ? -1 : w->index % 2, size, 0, 0, 0, &mine[slot]);
            if (s != UMF_MOCK_OK) {
                w->errors++;
                mine[slot] = NULL;
                continue;
            }
            *(unsigned char *)mine[slot] = (unsigned char)w->index;
        }
    }
    for (int slot = 0; slot < 16; slot++) {
        if (mine[slot] != NULL &&
            umf_mock_free(mine[slot], UMF_MOCK_KIND_ALLOCATED, 0, NULL) !=
                UMF_MOCK_OK) {
            w->errors++;
        }
    }
    return NULL;
}

UMF_C_TEST(MockMemory, EightThreadsChurn) {
    if (!test_core_init()) {
        return;
    }
    int64_t live =
        umf_mock_counter_sum(UMF_MOCK_MAX_ENTRIES + UMF_MOCK_STAT_ALLOCATIONS);
    pthread_t th[8];
    worker_t w[8];
    for (int i = 0; i < 8; i++) {
        w[i] = (worker_t){i, 0};
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, churn, &w[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        UMF_EXPECT_EQ(w[i].errors, 0);
    }
    UMF_EXPECT_EQ(
        umf_mock_counter_sum(UMF_MOCK_MAX_ENTRIES + UMF_MOCK_STAT_ALLOCATIONS),
        live);
    UMF_EXPECT_EQ(umf_mock_device_used(0), 0);
    UMF_EXPECT_EQ(umf_mock_device_used(1), 0);
}

// ---- Per-thread reservations of device memory ------------------------------

typedef struct filler_t {
    pthread_barrier_t *start;
    void *ptrs[20000];
    int count;
} filler_t;

static void *fill_device(void *arg) {
    filler_t *f = arg;
    pthread_barrier_wait(f->start);
    while (f->count < 20000 &&
           umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, 4096, 0, 0, 0,
                          &f->ptrs[f->count]) == UMF_MOCK_OK) {
        f->count++;
    }
    return NULL;
}

UMF_C_TEST(MockMemory, LimitHoldsUnderThreads) {
    if (!test_core_init()) {
        return;
    }
    uint64_t total = umf_mock_device_total(1);
    uint64_t used = umf_mock_device_used(1);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 4);
    static filler_t f[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        f[i].start = &start;
        f[i].count = 0;
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, fill_device, &f[i]), 0);
    }
    uint64_t got = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        got += (uint64_t)f[i].count * 4096;
    }
    pthread_barrier_destroy(&start);
    // Never past the limit; short of it by at most the reservations of the
    // other threads (two batches of at most 256 KiB each).
    UMF_EXPECT(used + got <= total);
    UMF_EXPECT(used + got + 3 * 2 * (256u << 10) >= total);
    UMF_EXPECT_EQ(umf_mock_device_used(1), used + got);
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < f[i].count; j++) {
            UMF_EXPECT_EQ(
                umf_mock_free(f[i].ptrs[j], UMF_MOCK_KIND_DEVICE, 0, NULL),
                UMF_MOCK_OK);
        }
    }
    UMF_EXPECT_EQ(umf_mock_device_used(1), used);
    // With the other threads gone, this one reaches the limit exactly.
    void *all;
    UMF_ASSERT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, total - used, 0, 0, 0, &all),
        UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(all, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
}

typedef struct holder_t {
    pthread_barrier_t *step;
    int errors;
} holder_t;

static void *alloc_free_and_wait(void *arg) {
    holder_t *h = arg;
    void *p;
    if (umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64 << 10, 0, 0, 0, &p) !=
            UMF_MOCK_OK ||
        umf_mock_free(p, UMF_MOCK_KIND_DEVICE, 0, NULL) != UMF_MOCK_OK) {
        h->errors++;
    }
    pthread_barrier_wait(h->step); // freed; still alive, still reserving
    pthread_barrier_wait(h->step); // the main thread looked
    return NULL;
}

UMF_C_TEST(MockMemory, UnusedReservationsAreNotUse) {
    if (!test_core_init()) {
        return;
    }
    uint64_t used = umf_mock_device_used(0);
    pthread_barrier_t step;
    pthread_barrier_init(&step, NULL, 2);
    holder_t h = {&step, 0};
    pthread_t th;
    UMF_ASSERT_EQ(pthread_create(&th, NULL, alloc_free_and_wait, &h), 0);
    pthread_barrier_wait(&step);
    UMF_EXPECT_EQ(umf_mock_device_used(0), used);
    pthread_barrier_wait(&step);
    pthread_join(th, NULL);
    UMF_EXPECT_EQ(h.errors, 0);
    UMF_EXPECT_EQ(umf_mock_device_used(0), used);
}

// The one bounds rule of both drivers' copies and fills: the bytes asked
// for, not the page-rounded mapping.
UMF_C_TEST(MockMemory, RangeCheckStopsAtTheRequestedSize) {
    if (!test_core_init()) {
        return;
    }
    enum { N = 1000 };
    char *p = NULL;
    UMF_ASSERT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, N, 0, 0, 0, (void **)&p),
        UMF_MOCK_OK);
    umf_mock_alloc_info_t info;
    UMF_EXPECT_EQ(
        umf_mock_range_check(p, N, 0, UMF_MOCK_USE_READ, "t", "range", &info),
        UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(info.base, p);
    UMF_EXPECT_EQ(umf_mock_range_check(p + 10, N - 10, 0, UMF_MOCK_USE_READ,
                                       "t", "range", NULL),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_range_check(p + N, 0, 0, UMF_MOCK_USE_READ, "t",
                                       "range", NULL),
                  UMF_MOCK_OK);
    // One byte past the size, though inside the allocation's page.
    UMF_EXPECT_EQ(umf_mock_range_check(p, N + 1, 0, UMF_MOCK_USE_READ, "t",
                                       "range", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_range_check(p + N - 1, 2, 0, UMF_MOCK_USE_READ, "t",
                                       "range", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_range_check(p, umf_mock_page_size, 0,
                                       UMF_MOCK_USE_READ, "t", "range", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // Starting in the page-rounding tail, even with nothing to copy.
    UMF_EXPECT_EQ(umf_mock_range_check(p + N + 1, 0, 0, UMF_MOCK_USE_READ, "t",
                                       "range", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_range_check(p + 10, SIZE_MAX, 0, UMF_MOCK_USE_READ,
                                       "t", "range", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    int on_stack = 0;
    UMF_EXPECT_EQ(umf_mock_range_check(&on_stack, 4, 0, UMF_MOCK_USE_READ, "t",
                                       "range", NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_free(p, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_OK);
}
