// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Event pools in shared memory: slots, waits woken by other threads and
// processes, the IPC handle and its checks, an import outliving its
// exporter.

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_bytes.h"
#include "mock_events.h"
#include "mock_ipc.h"
#include "mock_test_util.h"
#include "test_child.h"

UMF_C_TEST(MockEvents, SlotsSignalResetAndWait) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_events_t *p = NULL;
    UMF_EXPECT_EQ(umf_mock_events_create(0, false, &p),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_events_create(UMF_MOCK_EVENTS_MAX + 1, false, &p),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_events_create(4, false, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    for (int shareable = 0; shareable < 2; shareable++) {
        UMF_ASSERT_EQ(umf_mock_events_create(4, shareable, &p), UMF_MOCK_OK);
        UMF_EXPECT_EQ(umf_mock_events_count(p), 4);
        UMF_EXPECT(!umf_mock_events_imported(p));
        UMF_EXPECT_EQ(umf_mock_events_shared(p), shareable);
        for (uint32_t i = 0; i < 4; i++) {
            UMF_EXPECT(!umf_mock_event_signaled(p, i)); // made reset
            UMF_EXPECT_EQ(umf_mock_event_signal_time(p, i), 0);
        }
        UMF_EXPECT(!umf_mock_event_wait(p, 2, 0));
        UMF_EXPECT(!umf_mock_event_wait(p, 2, 1000)); // 1 us, nobody signals
        umf_mock_event_signal(p, 2);
        UMF_EXPECT(umf_mock_event_signaled(p, 2));
        UMF_EXPECT(!umf_mock_event_signaled(p, 1)); // slots are apart
        UMF_EXPECT(umf_mock_event_wait(p, 2, 0));
        UMF_EXPECT(umf_mock_event_wait(p, 2, UINT64_MAX));
        uint64_t t = umf_mock_event_signal_time(p, 2);
        UMF_EXPECT(t != 0);
        umf_mock_event_signal(p, 2); // again: still signalled, later time
        UMF_EXPECT(umf_mock_event_signal_time(p, 2) >= t);
        umf_mock_event_reset(p, 2);
        UMF_EXPECT(!umf_mock_event_signaled(p, 2));
        umf_mock_event_reset(p, 2); // a reset slot stays reset
        UMF_EXPECT(!umf_mock_event_wait(p, 2, 0));
        umf_mock_events_release(p);
    }
    umf_mock_events_release(NULL);
}

typedef struct waiter_t {
    umf_mock_events_t *pool;
    uint32_t index;
    bool woken;
} waiter_t;

static void *wait_forever(void *arg) {
    waiter_t *w = arg;
    w->woken = umf_mock_event_wait(w->pool, w->index, UINT64_MAX);
    return NULL;
}

UMF_C_TEST(MockEvents, SignalWakesWaitersOfOtherThreads) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_events_t *p;
    UMF_ASSERT_EQ(umf_mock_events_create(2, true, &p), UMF_MOCK_OK);
    enum { N = 4 };
    waiter_t w[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        w[i] = (waiter_t){.pool = p, .index = 1};
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, wait_forever, &w[i]), 0);
    }
    // Whether they sleep already or not, the signal ends every wait.
    umf_mock_event_signal(p, 1);
    for (int i = 0; i < N; i++) {
        UMF_EXPECT_EQ(pthread_join(th[i], NULL), 0);
        UMF_EXPECT(w[i].woken);
    }
    umf_mock_events_release(p);
}

// A wait that can never end gives up: the condition is asked after the
// waiter is marked, so an interrupt after the condition always ends it.
typedef struct give_up_t {
    umf_mock_events_t *pool;
    _Atomic int flag;
    bool result;
} give_up_t;

static bool flag_set(void *arg) {
    return atomic_load_explicit(&((give_up_t *)arg)->flag,
                                memory_order_seq_cst) != 0;
}

static void *wait_until_given_up(void *arg) {
    give_up_t *g = arg;
    g->result = umf_mock_event_wait_until(g->pool, 0, UINT64_MAX, flag_set, g);
    return NULL;
}

UMF_C_TEST(MockEvents, InterruptEndsAWaitThatGivesUp) {
    if (!test_core_init()) {
        return;
    }
    for (int shareable = 0; shareable < 2; shareable++) {
        umf_mock_events_t *p;
        UMF_ASSERT_EQ(umf_mock_events_create(1, shareable, &p), UMF_MOCK_OK);
        give_up_t g = {.pool = p, .result = true};
        pthread_t th;
        UMF_ASSERT_EQ(pthread_create(&th, NULL, wait_until_given_up, &g), 0);
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
        atomic_store_explicit(&g.flag, 1, memory_order_seq_cst);
        umf_mock_event_interrupt(p, 0);
        UMF_EXPECT_EQ(pthread_join(th, NULL), 0);
        UMF_EXPECT(!g.result); // given up, not signalled
        UMF_EXPECT(!umf_mock_event_signaled(p, 0));
        // An interrupt leaves a signalled slot signalled.
        umf_mock_event_signal(p, 0);
        umf_mock_event_interrupt(p, 0);
        UMF_EXPECT(umf_mock_event_signaled(p, 0));
        umf_mock_events_release(p);
    }
}

// One sleeper, many slots: a ring, a slot another thread signals (through
// futex_waitv where the kernel has it), and more slots than the kernel
// takes at once (looked at every millisecond).
typedef struct ringer_t {
    _Atomic uint32_t *bell;
    umf_mock_events_t *pool;
    uint32_t index; // UINT32_MAX: ring the bell
} ringer_t;

static void *ring_or_signal(void *arg) {
    ringer_t *r = arg;
    struct timespec nap = {0, 5 * 1000 * 1000};
    nanosleep(&nap, NULL);
    if (r->index == UINT32_MAX) {
        umf_mock_bell_ring(r->bell);
    } else {
        umf_mock_event_signal(r->pool, r->index);
    }
    return NULL;
}

UMF_C_TEST(MockEvents, BellSleepEndsOnARingOrASignal) {
    if (!test_core_init()) {
        return;
    }
    enum { SLOTS = 200 };
    static umf_mock_event_ref_t refs[SLOTS];
    umf_mock_events_t *p;
    UMF_ASSERT_EQ(umf_mock_events_create(SLOTS, true, &p), UMF_MOCK_OK);
    for (uint32_t i = 0; i < SLOTS; i++) {
        refs[i] = (umf_mock_event_ref_t){p, i};
    }
    _Atomic uint32_t bell = 0;
    const size_t counts[] = {0, 3, SLOTS};
    for (size_t k = 0; k < 3; k++) {
        for (int ring = 0; ring < 2; ring++) {
            if (counts[k] == 0 && !ring) {
                continue; // nothing to signal
            }
            uint32_t seen = atomic_load(&bell);
            ringer_t r = {&bell, p,
                          ring ? UINT32_MAX : (uint32_t)counts[k] - 1};
            pthread_t th;
            UMF_ASSERT_EQ(pthread_create(&th, NULL, ring_or_signal, &r), 0);
            // Until woken; a spurious return looks again.
            while (atomic_load(&bell) == seen &&
                   !umf_mock_event_signaled(
                       p, r.index == UINT32_MAX ? 0 : r.index)) {
                umf_mock_bell_sleep(&bell, seen, refs, counts[k], UINT64_MAX);
            }
            UMF_EXPECT_EQ(pthread_join(th, NULL), 0);
            if (!ring) {
                umf_mock_event_reset(p, r.index);
            }
        }
    }
    // A timeout ends a sleep nothing ends.
    umf_mock_bell_sleep(&bell, atomic_load(&bell), refs, 3, 1000000);
    umf_mock_events_release(p);
}

static bool same_desc(const umf_mock_events_desc_t *a,
                      const umf_mock_events_desc_t *b) {
    return a->fd == b->fd && a->pid == b->pid && a->count == b->count &&
           a->id == b->id && a->start_time == b->start_time &&
           a->pidfs_ino == b->pidfs_ino && a->file_ino == b->file_ino &&
           a->served == b->served;
}

// Whether the handle of `d` is refused as malformed.
static bool unpack_refuses(umf_mock_events_desc_t d) {
    unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES];
    umf_mock_events_pack(&d, h);
    umf_mock_events_desc_t out;
    return umf_mock_events_unpack(h, &out) == UMF_MOCK_ERR_INVALID_ARGUMENT;
}

UMF_C_TEST(MockEvents, HandlePackAndChecks) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_events_desc_t d = {.fd = 9,
                                .pid = 4321,
                                .count = 7,
                                .id = 5,
                                .start_time = 77,
                                .file_ino = 88,
                                .served = UMF_FD_SOCKET_PATH};
    unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES];
    umf_mock_events_pack(&d, h);
    int fd;
    memcpy(&fd, h, sizeof(fd));
    UMF_EXPECT_EQ(fd, 9); // the fd first, as in a memory handle
    umf_mock_events_desc_t out;
    UMF_ASSERT_EQ(umf_mock_events_unpack(h, &out), UMF_MOCK_OK);
    UMF_EXPECT(same_desc(&out, &d));
    int mine = 3; // an importer's own fd
    memcpy(h, &mine, sizeof(mine));
    UMF_ASSERT_EQ(umf_mock_events_unpack(h, &out), UMF_MOCK_OK);
    UMF_EXPECT_EQ(out.fd, 3);
    for (size_t i = 4; i < UMF_MOCK_EVENTS_HANDLE_BYTES; i++) {
        unsigned char bad[UMF_MOCK_EVENTS_HANDLE_BYTES];
        memcpy(bad, h, sizeof(bad));
        bad[i] ^= 0x10;
        UMF_EXPECT_EQ(umf_mock_events_unpack(bad, &out),
                      UMF_MOCK_ERR_INVALID_ARGUMENT);
    }
    // A memory handle is no event pool handle.
    umf_mock_ipc_desc_t md = {.fd = 9,
                              .pid = 4321,
                              .size = 1,
                              .mapped = umf_mock_page_size,
                              .id = 5,
                              .slot_offset = UMF_MOCK_NO_SLOT};
    umf_mock_ipc_pack(&md, h);
    UMF_EXPECT_EQ(umf_mock_events_unpack(h, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    memset(h, 0, sizeof(h));
    UMF_EXPECT_EQ(umf_mock_events_unpack(h, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_events_unpack(NULL, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // Fields out of range, with a good checksum; and version 2 names its
    // exporter and file.
    umf_mock_events_desc_t odd = d;
    odd.count = UMF_MOCK_EVENTS_MAX + 1;
    UMF_EXPECT(unpack_refuses(odd));
    odd = d;
    odd.pid = 0;
    UMF_EXPECT(unpack_refuses(odd));
    odd = d;
    odd.start_time = 0;
    UMF_EXPECT(unpack_refuses(odd));
    odd = d;
    odd.file_ino = 0;
    UMF_EXPECT(unpack_refuses(odd));
    odd = d;
    odd.start_time = 0;
    odd.pidfs_ino = 99;
    odd.served = UMF_FD_SOCKET_NONE;
    umf_mock_events_pack(&odd, h);
    UMF_ASSERT_EQ(umf_mock_events_unpack(h, &out), UMF_MOCK_OK);
    UMF_EXPECT_EQ(out.pidfs_ino, 99);
    UMF_EXPECT_EQ(out.start_time, 0);
    UMF_EXPECT_EQ(out.served, UMF_FD_SOCKET_NONE);
}

// A version 1 handle (no identity: bytes 36..63 zero) as the first
// releases packed it, with its checksum (FNV-1a of bytes 8-31 and 36-63).
UMF_C_TEST(MockEvents, VersionOneHandlesAreStillRead) {
    unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES] = {0};
    umf_mock_put32(h + 0, 9);
    umf_mock_put32(h + 8, 0x564b4755u);
    umf_mock_put32(h + 12, 1);
    umf_mock_put32(h + 16, 4321);
    umf_mock_put32(h + 20, 7);
    umf_mock_put64(h + 24, 5);
    umf_mock_put32(h + 32,
                   umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 8, 24),
                                  h + 36, 28));
    umf_mock_events_desc_t out;
    UMF_ASSERT_EQ(umf_mock_events_unpack(h, &out), UMF_MOCK_OK);
    umf_mock_events_desc_t v1 = {.fd = 9, .pid = 4321, .count = 7, .id = 5};
    UMF_EXPECT(same_desc(&out, &v1)); // no identity, not served
    // Version 1 has nothing after the id.
    h[40] = 1;
    umf_mock_put32(h + 32,
                   umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 8, 24),
                                  h + 36, 28));
    UMF_EXPECT_EQ(umf_mock_events_unpack(h, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
}

UMF_C_TEST(MockEvents, ImportInThisProcess) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_events_t *priv, *p, *imp;
    umf_mock_events_desc_t d;
    UMF_ASSERT_EQ(umf_mock_events_create(3, false, &priv), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_events_export(priv, &d), UMF_MOCK_ERR_NOT_SUPPORTED);
    umf_mock_events_release(priv);
    UMF_ASSERT_EQ(umf_mock_events_create(3, true, &p), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_events_export(p, &d), UMF_MOCK_OK);
    UMF_EXPECT_EQ(d.count, 3);
    UMF_EXPECT_EQ(d.pid, getpid());
    int fds = umf_test_count_open_fds();
    int mine = fcntl(d.fd, F_DUPFD_CLOEXEC, 0);
    UMF_ASSERT(mine >= 0);
    umf_mock_events_desc_t local = d;
    local.fd = mine;
    UMF_ASSERT_EQ(umf_mock_events_import(&local, &imp), UMF_MOCK_OK);
    UMF_EXPECT(umf_mock_events_imported(imp));
    UMF_EXPECT(umf_mock_events_shared(imp));
    UMF_EXPECT_EQ(umf_mock_events_export(imp, &d), UMF_MOCK_ERR_NOT_SUPPORTED);
    UMF_EXPECT_EQ(close(mine), 0); // the import does not need it
    UMF_EXPECT_EQ(umf_test_count_open_fds(), fds);
    umf_mock_event_signal(p, 0);
    UMF_EXPECT(umf_mock_event_signaled(imp, 0));
    UMF_EXPECT_EQ(umf_mock_event_signal_time(imp, 0),
                  umf_mock_event_signal_time(p, 0));
    umf_mock_event_signal(imp, 2);
    UMF_EXPECT(umf_mock_event_wait(p, 2, UINT64_MAX));
    umf_mock_event_reset(imp, 0);
    UMF_EXPECT(!umf_mock_event_signaled(p, 0));
    // The exporter goes; the import keeps working.
    umf_mock_events_release(p);
    umf_mock_event_signal(imp, 1);
    UMF_EXPECT(umf_mock_event_signaled(imp, 1));
    umf_mock_events_release(imp);
}

UMF_C_TEST(MockEvents, ImportRefusesWhatIsNotThePool) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_events_t *p, *imp = NULL;
    umf_mock_events_desc_t d;
    UMF_ASSERT_EQ(umf_mock_events_create(2, true, &p), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_events_export(p, &d), UMF_MOCK_OK);
    umf_mock_events_desc_t bad = d;
    bad.fd = STDERR_FILENO;
    UMF_EXPECT_EQ(umf_mock_events_import(&bad, &imp),
                  UMF_MOCK_ERR_STALE_HANDLE);
    bad.fd = 1000000; // not open
    UMF_EXPECT_EQ(umf_mock_events_import(&bad, &imp),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // A memfd of the right size but unsealed and of another name.
    int other = memfd_create("not-an-event-pool", MFD_CLOEXEC);
    UMF_ASSERT(other >= 0);
    UMF_ASSERT_EQ(ftruncate(other, 1 << 20), 0);
    bad.fd = other;
    UMF_EXPECT_EQ(umf_mock_events_import(&bad, &imp),
                  UMF_MOCK_ERR_STALE_HANDLE);
    close(other);
    // Another pool's memory, and a count or id the pool does not have.
    umf_mock_events_t *q;
    umf_mock_events_desc_t qd;
    UMF_ASSERT_EQ(umf_mock_events_create(2, true, &q), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_events_export(q, &qd), UMF_MOCK_OK);
    bad = d;
    bad.fd = qd.fd;
    UMF_EXPECT_EQ(umf_mock_events_import(&bad, &imp),
                  UMF_MOCK_ERR_STALE_HANDLE);
    bad = d;
    bad.count = 1;
    UMF_EXPECT_EQ(umf_mock_events_import(&bad, &imp),
                  UMF_MOCK_ERR_STALE_HANDLE);
    bad.count = 100000; // more than the file holds
    UMF_EXPECT_EQ(umf_mock_events_import(&bad, &imp),
                  UMF_MOCK_ERR_STALE_HANDLE);
    UMF_EXPECT(imp == NULL);
    umf_mock_events_release(q);
    umf_mock_events_release(p);
}

// ---- Across processes ------------------------------------------------------

// Takes the exporter's fd, opens the pool, waits for slot 0 (the parent
// signals it after "ready"), signals slot 1, and reports the time the
// parent's signal carried.
UMF_TEST_CHILD(mock_events_peer) {
    (void)argc;
    (void)argv;
    if (umf_mock_init(&test_desc) != UMF_MOCK_OK) {
        return 10;
    }
    unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES];
    umf_mock_events_desc_t d;
    if (umf_test_recv(sock, h, sizeof(h)) ||
        umf_mock_events_unpack(h, &d) != UMF_MOCK_OK) {
        return 11;
    }
    int fd;
    if (umf_mock_fd_from_process(d.pid, d.fd, NULL, &fd) != UMF_MOCK_OK) {
        return 12;
    }
    d.fd = fd;
    umf_mock_events_t *p;
    if (umf_mock_events_import(&d, &p) != UMF_MOCK_OK) {
        return 13;
    }
    close(fd);
    if (umf_mock_event_signaled(p, 0)) {
        return 14; // not before the parent signals
    }
    char c = 'r';
    if (umf_test_send(sock, &c, 1)) {
        return 15;
    }
    if (!umf_mock_event_wait(p, 0, UINT64_MAX)) {
        return 16;
    }
    uint64_t t = umf_mock_event_signal_time(p, 0);
    umf_mock_event_signal(p, 1);
    if (umf_test_send(sock, &t, sizeof(t))) {
        return 17;
    }
    umf_mock_events_release(p);
    return 0;
}

UMF_C_TEST(MockEvents, SignalsCrossProcesses) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_events_t *p;
    umf_mock_events_desc_t d;
    UMF_ASSERT_EQ(umf_mock_events_create(2, true, &p), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_events_export(p, &d), UMF_MOCK_OK);
    unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES];
    umf_mock_events_pack(&d, h);
    umf_test_child_t child;
    UMF_ASSERT_EQ(umf_test_child_start(&child, "mock_events_peer", NULL), 0);
    char c = 0;
    uint64_t t = 0;
    UMF_EXPECT_EQ(umf_test_send(child.sock, h, sizeof(h)), 0);
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &c, 1), 0);
    umf_mock_event_signal(p, 0);
    // The child's signal wakes this process's wait.
    UMF_EXPECT(umf_mock_event_wait(p, 1, UINT64_MAX));
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &t, sizeof(t)), 0);
    UMF_EXPECT_EQ(t, umf_mock_event_signal_time(p, 0));
    UMF_EXPECT_EQ(umf_test_child_wait(&child), 0);
    umf_mock_events_release(p);
}
