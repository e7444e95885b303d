// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The buddy arena on its own (whatever the memory mode), and its quarantine
// of freed blocks that are still imported.

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_arena.h"
#include "mock_test_util.h"

// Device indices unused by the memory tests' devices, so that thread caches
// never mix arenas.
#define ARENA_DEV 40

static umf_mock_arena_t *make(unsigned dev, uint64_t capacity) {
    umf_mock_arena_t *a = NULL;
    if (umf_mock_arena_create(dev, capacity, &a) != UMF_MOCK_OK) {
        umf_c_test_fail(__FILE__, __LINE__, "cannot create an arena");
        return NULL;
    }
    return a;
}

UMF_C_TEST(MockArena, Orders) {
    if (!test_core_init()) {
        return;
    }
    size_t pg = umf_mock_page_size;
    UMF_EXPECT_EQ(umf_mock_arena_order(1, 0), 0);
    UMF_EXPECT_EQ(umf_mock_arena_order(pg, 0), 0);
    UMF_EXPECT_EQ(umf_mock_arena_order(pg + 1, 0), 1);
    UMF_EXPECT_EQ(umf_mock_arena_order(3 * pg, 0), 2);
    UMF_EXPECT_EQ(umf_mock_arena_order(1, 8 * pg), 3);
    UMF_EXPECT_EQ(umf_mock_arena_order(1, 64), 0);
}

UMF_C_TEST(MockArena, BlocksAreDisjointAlignedAndReturn) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV, 8 << 20);
    UMF_ASSERT(a != NULL);
    uint64_t pages = umf_mock_arena_pages(a);
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), pages);
    umf_mock_thread_t *t = umf_mock_thread();
    enum { N = 300 };
    void *ptr[N];
    uint32_t page[N];
    unsigned order[N];
    for (int i = 0; i < N; i++) {
        order[i] = (unsigned)(i % 9);
        UMF_ASSERT_EQ(umf_mock_arena_alloc(a, i % 2 ? t : NULL, order[i],
                                           &ptr[i], &page[i]),
                      UMF_MOCK_OK);
        size_t bytes = umf_mock_page_size << order[i];
        UMF_EXPECT_EQ((uintptr_t)ptr[i] % bytes, 0);
        UMF_EXPECT_EQ(page[i] % (1u << order[i]), 0);
        ((unsigned char *)ptr[i])[0] = (unsigned char)i;
        ((unsigned char *)ptr[i])[bytes - 1] = (unsigned char)i;
    }
    for (int i = 0; i < N; i++) {
        const unsigned char *b = ptr[i];
        size_t bytes = umf_mock_page_size << order[i];
        UMF_EXPECT_EQ(b[0], i & 0xff);
        UMF_EXPECT_EQ(b[bytes - 1], i & 0xff);
    }
    for (int i = 0; i < N; i++) {
        umf_mock_arena_free(a, i % 3 ? t : NULL, page[i], order[i], false);
    }
    // What the thread caches hold goes back when the thread exits; here,
    // when the arena is destroyed. Blocks freed without a cache merge.
    UMF_EXPECT(umf_mock_arena_free_pages(a) <= pages);
    umf_mock_arena_destroy(a);
}

static void *alloc_free_in_thread(void *arg) {
    umf_mock_arena_t *a = arg;
    umf_mock_thread_t *t = umf_mock_thread();
    void *p[64];
    uint32_t pg[64];
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 64; i++) {
            if (umf_mock_arena_alloc(a, t, (unsigned)(i % 6), &p[i], &pg[i]) !=
                UMF_MOCK_OK) {
                return (void *)1;
            }
        }
        for (int i = 0; i < 64; i++) {
            umf_mock_arena_free(a, t, pg[i], (unsigned)(i % 6), false);
        }
    }
    return NULL;
}

UMF_C_TEST(MockArena, ThreadCachesGoBackAtThreadExit) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV + 1, 4 << 20);
    UMF_ASSERT(a != NULL);
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, alloc_free_in_thread, a), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        UMF_EXPECT(ret == NULL);
    }
    // Every block merged back into one.
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), umf_mock_arena_pages(a));
    void *p;
    uint32_t pg;
    unsigned top = (unsigned)__builtin_ctzll(umf_mock_arena_pages(a));
    UMF_EXPECT_EQ(umf_mock_arena_alloc(a, NULL, top, &p, &pg), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_arena_alloc(a, NULL, 0, &p, &pg),
                  UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY);
    UMF_EXPECT_EQ(umf_mock_arena_alloc(a, NULL, top + 1, &p, &pg),
                  UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY);
    umf_mock_arena_free(a, NULL, 0, top, false);
    umf_mock_arena_destroy(a);
}

// The slot of a block as an importer in another process sees it.
// Maps the slot of `page` as an importer does: through an open file
// description of its own that holds the slot's liveness lock for as long as
// the mapping lives (munmap drops it, as an importer's death would).
static _Atomic uint64_t *slot_of(umf_mock_arena_t *a, uint32_t page,
                                 void **map) {
    uint64_t off = umf_mock_arena_slot_offset(a, page);
    uint64_t page_off = off & ~((uint64_t)umf_mock_page_size - 1);
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", umf_mock_arena_fd(a));
    int own = open(path, O_RDWR | O_CLOEXEC);
    if (own < 0 || umf_mock_slot_lock(own, off) != 0) {
        if (own >= 0) {
            close(own);
        }
        return NULL;
    }
    *map = mmap(NULL, umf_mock_page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                own, (off_t)page_off);
    close(own);
    if (*map == MAP_FAILED) {
        return NULL;
    }
    return (_Atomic uint64_t *)((char *)*map + (off - page_off));
}

UMF_C_TEST(MockArena, QuarantineKeepsImportedBlocks) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV + 2, 4 << 20);
    UMF_ASSERT(a != NULL);
    umf_mock_thread_t *t = umf_mock_thread();
    void *p;
    uint32_t page;
    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, t, 0, &p, &page), UMF_MOCK_OK);
    memset(p, 0x5a, umf_mock_page_size);
    void *map;
    _Atomic uint64_t *slot = slot_of(a, page, &map);
    UMF_ASSERT(slot != NULL);
    // Not published: nobody can import.
    UMF_EXPECT(!umf_mock_slot_acquire(slot, 77, 1));
    umf_mock_arena_publish(a, page, 77);
    UMF_EXPECT(!umf_mock_slot_acquire(slot, 78, 1)); // another allocation's id
    // A handle that claims more pages than the block has.
    UMF_EXPECT(!umf_mock_slot_acquire(slot, 77, 2));
    UMF_EXPECT(!umf_mock_slot_acquire(slot, 77, 0));
    UMF_EXPECT(umf_mock_slot_acquire(slot, 77, 1));
    UMF_EXPECT(umf_mock_slot_acquire(slot, 77, 1));
    UMF_EXPECT_EQ(umf_mock_slot_imports(atomic_load(slot)), 2);

    umf_mock_arena_free(a, t, page, 0, true);
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 1);
    // Freed: no new import may start...
    UMF_EXPECT(!umf_mock_slot_acquire(slot, 77, 1));
    // ...and the block is never handed out while imported.
    enum { N = 200 };
    uint32_t got[N];
    void *gp;
    for (int i = 0; i < N; i++) {
        UMF_ASSERT_EQ(
            umf_mock_arena_alloc(a, i % 2 ? t : NULL, 0, &gp, &got[i]),
            UMF_MOCK_OK);
        UMF_EXPECT_NE(got[i], page);
    }
    UMF_EXPECT_EQ(((unsigned char *)p)[100], 0x5a); // contents kept
    UMF_EXPECT(umf_mock_slot_release(slot));
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 1);
    UMF_EXPECT(umf_mock_slot_release(slot));
    UMF_EXPECT(!umf_mock_slot_release(slot)); // nothing left to release
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 0);
    for (int i = 0; i < N; i++) {
        umf_mock_arena_free(a, i % 2 ? t : NULL, got[i], 0, false);
    }
    // The block is back in circulation.
    bool seen = false;
    for (int i = 0; i < N && !seen; i++) {
        UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, 0, &gp, &got[i]),
                      UMF_MOCK_OK);
        seen = got[i] == page;
    }
    UMF_EXPECT(seen);
    munmap(map, umf_mock_page_size);
    umf_mock_arena_destroy(a);
}

// An importer that dies with the block imported never counts itself out;
// its liveness lock goes with its mappings, and the block comes back.
UMF_C_TEST(MockArena, ImportsOfDeadImportersDoNotHoldBlocks) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV + 4, 4 << 20);
    UMF_ASSERT(a != NULL);
    void *p;
    uint32_t page;
    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, 0, &p, &page), UMF_MOCK_OK);
    umf_mock_arena_publish(a, page, 91);
    void *alive_map, *dead_map;
    _Atomic uint64_t *alive = slot_of(a, page, &alive_map);
    _Atomic uint64_t *dead = slot_of(a, page, &dead_map);
    UMF_ASSERT(alive != NULL && dead != NULL);
    UMF_EXPECT(umf_mock_slot_acquire(alive, 91, 1));
    UMF_EXPECT(umf_mock_slot_acquire(dead, 91, 1));
    umf_mock_arena_free(a, NULL, page, 0, true);
    munmap(dead_map, umf_mock_page_size);        // died without counting out
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 1); // one importer still lives
    UMF_EXPECT(umf_mock_slot_release(alive));
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 1); // the dead one's count
    munmap(alive_map, umf_mock_page_size);
    uint64_t free_pages = umf_mock_arena_free_pages(a);
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 0); // no lock left: taken back
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), free_pages + 1);
    umf_mock_arena_destroy(a);
}

UMF_C_TEST(MockArena, ExportedButNotImportedIsReusedAtOnce) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV + 3, 4 << 20);
    UMF_ASSERT(a != NULL);
    void *p;
    uint32_t page;
    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, 2, &p, &page), UMF_MOCK_OK);
    umf_mock_arena_publish(a, page, 5);
    umf_mock_arena_free(a, NULL, page, 2, true);
    UMF_EXPECT_EQ(umf_mock_arena_reclaim(a), 0);
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), umf_mock_arena_pages(a));
    umf_mock_arena_destroy(a);
}

UMF_C_TEST(MockArena, BadCreation) {
    umf_mock_arena_t *a;
    UMF_EXPECT_EQ(umf_mock_arena_create(UMF_MOCK_MAX_DEVICES, 1 << 20, &a),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_arena_create(0, 0, &a),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_arena_create(0, 1 << 20, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
}

// Whether the arena's file holds data (a page, resident or swapped out)
// anywhere in the `bytes` at `page`.
static bool holds_data(umf_mock_arena_t *a, uint32_t page, uint64_t bytes) {
    off_t start = (off_t)umf_mock_arena_data_offset(a, page);
    off_t data = lseek(umf_mock_arena_fd(a), start, SEEK_DATA);
    return data >= 0 && data < start + (off_t)bytes;
}

// A freed large block keeps its pages for the next allocation of its order,
// which reads zero as fresh pages do, without pages where there were none.
UMF_C_TEST(MockArena, FreedLargeBlocksAreReusedZeroed) {
    if (!test_core_init()) {
        return;
    }
    // 64 MiB: up to 8 MiB of freed large blocks kept.
    umf_mock_arena_t *a = make(ARENA_DEV + 5, 64 << 20);
    UMF_ASSERT(a != NULL);
    unsigned order = umf_mock_arena_order(4 << 20, 0);
    uint64_t bytes = (uint64_t)umf_mock_page_size << order;
    void *p, *q;
    uint32_t page, again;
    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, order, &p, &page), UMF_MOCK_OK);
    unsigned char *b = p;
    // Data in the first and last pages and one in the middle; none between.
    memset(b, 0xa5, umf_mock_page_size);
    b[bytes / 2 + 7] = 0x3c;
    memset(b + bytes - umf_mock_page_size, 0x5a, umf_mock_page_size);
    umf_mock_arena_free(a, NULL, page, order, false);
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), umf_mock_arena_pages(a));
    UMF_EXPECT(holds_data(a, page, bytes)); // kept, not given back

    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, order, &q, &again),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(again, page);
    // The pages between held nothing and still hold nothing (checked
    // first: reading a page of the file gives it one).
    UMF_EXPECT(!holds_data(a, page + 1, bytes / 2 - 2 * umf_mock_page_size));
    b = q;
    size_t nonzero = 0;
    for (uint64_t i = 0; i < bytes; i++) {
        nonzero += b[i] != 0;
    }
    UMF_EXPECT_EQ(nonzero, 0);
    umf_mock_arena_free(a, NULL, again, order, false);
    umf_mock_arena_destroy(a);
}

// Kept blocks stay within their budget (the oldest are given back), and give
// way to an allocation that needs their room.
UMF_C_TEST(MockArena, KeptBlocksAreBoundedAndGiveWay) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV + 6, 64 << 20);
    UMF_ASSERT(a != NULL);
    unsigned order = umf_mock_arena_order(4 << 20, 0);
    uint64_t bytes = (uint64_t)umf_mock_page_size << order;
    enum { N = 3 };
    void *p[N];
    uint32_t page[N];
    for (int i = 0; i < N; i++) {
        UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, order, &p[i], &page[i]),
                      UMF_MOCK_OK);
        memset(p[i], 0x11 * (i + 1), bytes);
    }
    for (int i = 0; i < N; i++) {
        umf_mock_arena_free(a, NULL, page[i], order, false);
    }
    // Three blocks of 4 MiB in a budget of 8: the first went back.
    UMF_EXPECT(!holds_data(a, page[0], bytes));
    UMF_EXPECT(holds_data(a, page[1], bytes));
    UMF_EXPECT(holds_data(a, page[2], bytes));
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), umf_mock_arena_pages(a));

    // The whole arena in one block: the kept ones give their room.
    unsigned top = (unsigned)__builtin_ctzll(umf_mock_arena_pages(a));
    void *all;
    uint32_t at;
    UMF_ASSERT_EQ(umf_mock_arena_alloc(a, NULL, top, &all, &at), UMF_MOCK_OK);
    UMF_EXPECT_EQ(at, 0);
    UMF_EXPECT(!holds_data(
        a, 0, umf_mock_arena_pages(a) * (uint64_t)umf_mock_page_size));
    umf_mock_arena_free(a, NULL, at, top, false);
    umf_mock_arena_destroy(a);
}

static void *large_blocks_in_thread(void *arg) {
    umf_mock_arena_t *a = arg;
    umf_mock_thread_t *t = umf_mock_thread();
    unsigned order = umf_mock_arena_order(2 << 20, 0);
    for (int round = 0; round < 50; round++) {
        unsigned o = order + (unsigned)(round % 2);
        void *p;
        uint32_t page;
        if (umf_mock_arena_alloc(a, t, o, &p, &page) != UMF_MOCK_OK) {
            return (void *)1;
        }
        unsigned char *b = p;
        size_t last = ((size_t)umf_mock_page_size << o) - 1;
        if (b[0] != 0 || b[last] != 0) {
            return (void *)2; // a kept block handed out unzeroed
        }
        b[0] = b[last] = (unsigned char)(round + 1);
        umf_mock_arena_free(a, t, page, o, false);
    }
    return NULL;
}

// Threads that take and keep large blocks at once get them whole and zeroed,
// and every block comes back.
UMF_C_TEST(MockArena, KeptBlocksAcrossThreads) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_arena_t *a = make(ARENA_DEV + 7, 64 << 20);
    UMF_ASSERT(a != NULL);
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, large_blocks_in_thread, a),
                      0);
    }
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        UMF_EXPECT(ret == NULL);
    }
    UMF_EXPECT_EQ(umf_mock_arena_free_pages(a), umf_mock_arena_pages(a));
    umf_mock_arena_destroy(a);
}
