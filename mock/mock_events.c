// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_events.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mock_bytes.h"
#include "mock_ipc.h"
#include "mock_log.h"
#include "util_fd_socket.h"

#define FILE_MAGIC 0x5354564b4d475554ull // "TUGMKVTS"
#define FILE_VERSION 1u
#define HANDLE_MAGIC 0x564b4755u // "UGKV"
#define HANDLE_VERSION 2u
// Version 2 flags (byte 52).
#define HANDLE_PIDFS 0x01u       // the identity is a pidfd inode, not a start
#define HANDLE_SERVED 0x02u      // the fd is served over a socket ...
#define HANDLE_SERVED_PATH 0x04u // ... at a filesystem path, not abstract
#define HANDLE_FLAGS (HANDLE_PIDFS | HANDLE_SERVED | HANDLE_SERVED_PATH)
#define MEMFD_NAME "umf-gpu-mock-events"

// A slot's state word, the futex:
enum {
    RESET = 0,    // not signalled, nobody sleeps on it
    SIGNALED = 1, // signalled
    WAITED = 2,   // not signalled, a waiter may sleep on it
};

typedef struct slot_t {
    _Atomic uint32_t state;
    uint32_t reserved;
    _Atomic uint64_t time; // CLOCK_MONOTONIC ns of the last signal
} slot_t;

// The start of a shareable pool's file; the slots follow it.
typedef struct file_header_t {
    uint64_t magic;
    uint32_t version;
    uint32_t count;
    uint64_t id;
    int32_t pid;
    uint32_t reserved[9];
} file_header_t;

_Static_assert(sizeof(file_header_t) == 64, "one cache line of header");
_Static_assert(sizeof(slot_t) == 16, "slots of 16 bytes");

struct umf_mock_events_t {
    slot_t *slots;
    uint32_t count;
    bool imported;
    int fd;       // the exporter's memfd, or -1
    void *map;    // the file's mapping, or NULL (private pool)
    size_t bytes; // of the mapping
    uint64_t id;  // the exporter's id of the pool
};

static _Atomic uint64_t next_pool_id = 1;

static size_t file_bytes(uint32_t count) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t n = sizeof(file_header_t) + (size_t)count * sizeof(slot_t);
    return (n + page - 1) / page * page;
}

static umf_mock_status_t errno_status(int err) {
    return err == EMFILE || err == ENFILE || err == ENOMEM
               ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
               : UMF_MOCK_ERR_OS;
}

// Makes the sealed memfd of a shareable pool and maps it.
static umf_mock_status_t make_file(umf_mock_events_t *p) {
    char name[64];
    snprintf(name, sizeof(name), MEMFD_NAME ":%" PRIu64, p->id);
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("memfd_create for an event pool: %s", strerror(err));
        return errno_status(err);
    }
    size_t bytes = file_bytes(p->count);
    // Sealed against resizing: an importer's mapping can never lose its
    // pages (SIGBUS), and an importer can check that.
    if (ftruncate(fd, (off_t)bytes) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) !=
            0) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("cannot size and seal an event pool's memfd: %s",
                           strerror(err));
        close(fd);
        return errno_status(err);
    }
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("cannot map an event pool: %s", strerror(err));
        close(fd);
        return errno_status(err);
    }
    file_header_t *h = map;
    h->magic = FILE_MAGIC;
    h->version = FILE_VERSION;
    h->count = p->count;
    h->id = p->id;
    h->pid = (int32_t)getpid();
    p->fd = fd;
    p->map = map;
    p->bytes = bytes;
    p->slots = (slot_t *)((char *)map + sizeof(file_header_t));
    return UMF_MOCK_OK;
}

umf_mock_status_t umf_mock_events_create(uint32_t count, bool shareable,
                                         umf_mock_events_t **out) {
    if (out == NULL || count == 0 || count > UMF_MOCK_EVENTS_MAX) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_events_t *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    p->count = count;
    p->fd = -1;
    p->id = atomic_fetch_add_explicit(&next_pool_id, 1, memory_order_relaxed);
    if (shareable) {
        umf_mock_status_t s = make_file(p);
        if (s != UMF_MOCK_OK) {
            free(p);
            return s;
        }
    } else {
        p->slots = calloc(count, sizeof(slot_t));
        if (p->slots == NULL) {
            free(p);
            return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        }
    }
    *out = p;
    return UMF_MOCK_OK;
}

void umf_mock_events_release(umf_mock_events_t *p) {
    if (p == NULL) {
        return;
    }
    if (p->map != NULL) {
        munmap(p->map, p->bytes);
    } else {
        free(p->slots);
    }
    if (p->fd >= 0) {
        umf_fd_server_revoke(0, (uint64_t)(uintptr_t)p); // before the fd goes
        close(p->fd);
    }
    free(p);
}

uint32_t umf_mock_events_count(const umf_mock_events_t *p) {
    return p->count;
}

bool umf_mock_events_imported(const umf_mock_events_t *p) {
    return p->imported;
}

bool umf_mock_events_shared(const umf_mock_events_t *p) {
    return p->map != NULL;
}

// ---- Slots -----------------------------------------------------------------

static long futex(_Atomic uint32_t *word, int op, uint32_t value,
                  const struct timespec *deadline) {
    // FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline; no
    // FUTEX_PRIVATE_FLAG, so that other processes' waiters are woken.
    return syscall(SYS_futex, (uint32_t *)word, op, value, deadline, NULL,
                   FUTEX_BITSET_MATCH_ANY);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void umf_mock_event_signal(umf_mock_events_t *p, uint32_t index) {
    slot_t *s = &p->slots[index];
    atomic_store_explicit(&s->time, now_ns(), memory_order_relaxed);
    if (atomic_exchange_explicit(&s->state, SIGNALED, memory_order_acq_rel) ==
        WAITED) {
        futex(&s->state, FUTEX_WAKE_BITSET, INT_MAX, NULL);
    }
}

void umf_mock_event_reset(umf_mock_events_t *p, uint32_t index) {
    uint32_t expected = SIGNALED;
    // Only a signalled slot changes: a waiter's mark stays.
    atomic_compare_exchange_strong_explicit(&p->slots[index].state, &expected,
                                            RESET, memory_order_acq_rel,
                                            memory_order_relaxed);
}

bool umf_mock_event_signaled(const umf_mock_events_t *p, uint32_t index) {
    return atomic_load_explicit(&p->slots[index].state, memory_order_acquire) ==
           SIGNALED;
}

uint64_t umf_mock_event_signal_time(const umf_mock_events_t *p,
                                    uint32_t index) {
    const slot_t *s = &p->slots[index];
    if (atomic_load_explicit(&s->state, memory_order_acquire) != SIGNALED) {
        return 0;
    }
    return atomic_load_explicit(&s->time, memory_order_relaxed);
}

// The CLOCK_MONOTONIC time `timeout_ns` from now, saturated.
static struct timespec deadline_of(uint64_t timeout_ns) {
    uint64_t end = now_ns();
    end = end > UINT64_MAX - timeout_ns ? UINT64_MAX : end + timeout_ns;
    struct timespec ts = {(time_t)(end / 1000000000u),
                          (long)(end % 1000000000u)};
    return ts;
}

bool umf_mock_event_wait(umf_mock_events_t *p, uint32_t index,
                         uint64_t timeout_ns) {
    return umf_mock_event_wait_until(p, index, timeout_ns, NULL, NULL);
}

// Marks the slot as waited for unless it is signalled; false when it is.
static bool mark_waited(slot_t *s) {
    uint32_t state = atomic_load_explicit(&s->state, memory_order_seq_cst);
    while (state == RESET) {
        if (atomic_compare_exchange_weak_explicit(&s->state, &state, WAITED,
                                                  memory_order_seq_cst,
                                                  memory_order_seq_cst)) {
            return true;
        }
    }
    return state != SIGNALED;
}

bool umf_mock_event_wait_until(umf_mock_events_t *p, uint32_t index,
                               uint64_t timeout_ns, bool (*give_up)(void *arg),
                               void *arg) {
    slot_t *s = &p->slots[index];
    bool limited = timeout_ns != UINT64_MAX;
    struct timespec deadline = deadline_of(limited ? timeout_ns : 0);
    for (;;) {
        if (atomic_load_explicit(&s->state, memory_order_acquire) == SIGNALED) {
            return true;
        }
        if (timeout_ns == 0) {
            return false;
        }
        if (!mark_waited(s)) {
            continue; // signalled meanwhile
        }
        if (give_up != NULL && give_up(arg)) {
            return umf_mock_event_signaled(p, index);
        }
        long r = futex(&s->state, FUTEX_WAIT_BITSET, WAITED,
                       limited ? &deadline : NULL);
        if (r != 0 && errno == ETIMEDOUT) {
            return umf_mock_event_signaled(p, index);
        }
        // Woken, interrupted, or the word changed before we slept: look
        // again.
    }
}

void umf_mock_event_interrupt(umf_mock_events_t *p, uint32_t index) {
    slot_t *s = &p->slots[index];
    uint32_t expected = WAITED;
    // A waiter that marked the slot before this sleeps or is about to: the
    // word changes under it and it is woken; one that marks it later asks
    // its condition after.
    if (atomic_compare_exchange_strong_explicit(&s->state, &expected, RESET,
                                                memory_order_seq_cst,
                                                memory_order_seq_cst)) {
        futex(&s->state, FUTEX_WAKE_BITSET, INT_MAX, NULL);
    }
}

// ---- One sleeper, many slots -----------------------------------------------

void umf_mock_bell_ring(_Atomic uint32_t *bell) {
    atomic_fetch_add_explicit(bell, 1, memory_order_seq_cst);
    syscall(SYS_futex, (uint32_t *)bell, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
            NULL, 0);
}

// How long a sleeper that cannot wait for its slots looks at them again.
#define POLL_NS 1000000u

#if defined(SYS_futex_waitv)
// Sleeps on the bell and the slots together; false when the kernel cannot.
static bool sleep_waitv(_Atomic uint32_t *bell, uint32_t seen,
                        const umf_mock_event_ref_t *slots, size_t n,
                        const struct timespec *deadline) {
    static _Atomic int unsupported;
    if (n + 1 > FUTEX_WAITV_MAX ||
        atomic_load_explicit(&unsupported, memory_order_relaxed)) {
        return false;
    }
    struct futex_waitv w[FUTEX_WAITV_MAX];
    memset(w, 0, (n + 1) * sizeof(w[0]));
    w[0].val = seen;
    w[0].uaddr = (uint64_t)(uintptr_t)bell;
    w[0].flags = FUTEX_32 | FUTEX_PRIVATE_FLAG;
    for (size_t i = 0; i < n; i++) {
        w[i + 1].val = WAITED;
        w[i + 1].uaddr =
            (uint64_t)(uintptr_t)&slots[i].pool->slots[slots[i].index].state;
        w[i + 1].flags = FUTEX_32; // shared: other processes wake it
    }
    long r = syscall(SYS_futex_waitv, w, (unsigned)(n + 1), 0u, deadline,
                     CLOCK_MONOTONIC);
    if (r < 0 && errno == ENOSYS) {
        atomic_store_explicit(&unsupported, 1, memory_order_relaxed);
        return false;
    }
    return true;
}
#endif

void umf_mock_bell_sleep(_Atomic uint32_t *bell, uint32_t seen,
                         const umf_mock_event_ref_t *slots, size_t n,
                         uint64_t timeout_ns) {
    for (size_t i = 0; i < n; i++) {
        if (!mark_waited(&slots[i].pool->slots[slots[i].index])) {
            return; // signalled already
        }
    }
    if (atomic_load_explicit(bell, memory_order_seq_cst) != seen) {
        return;
    }
    bool limited = timeout_ns != UINT64_MAX;
#if defined(SYS_futex_waitv)
    if (n > 0) {
        struct timespec deadline = deadline_of(limited ? timeout_ns : 0);
        if (sleep_waitv(bell, seen, slots, n, limited ? &deadline : NULL)) {
            return;
        }
    }
#endif
    // The bell alone; slots are looked at again after a while.
    uint64_t wait_ns = n > 0 && timeout_ns > POLL_NS ? POLL_NS : timeout_ns;
    struct timespec rel = {(time_t)(wait_ns / 1000000000u),
                           (long)(wait_ns % 1000000000u)};
    syscall(SYS_futex, (uint32_t *)bell, FUTEX_WAIT_PRIVATE, seen,
            wait_ns != UINT64_MAX ? &rel : NULL, NULL, 0);
}

// ---- IPC -------------------------------------------------------------------
//
// Handle bytes: 0 fd | 4 zero | 8 magic | 12 version | 16 pid | 20 count |
//               24 id | 32 checksum | 36 identity (pidfd inode or start
//               time) | 44 file inode | 52 flags | 53..63 zero
// (version 1: 36..63 zero). The checksum covers bytes 8-31 and 36-63.

static uint32_t checksum(const unsigned char *h) {
    return umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 8, 24), h + 36,
                          28);
}

umf_mock_status_t umf_mock_events_export(const umf_mock_events_t *p,
                                         umf_mock_events_desc_t *d) {
    if (p == NULL || d == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (p->fd < 0) {
        return UMF_MOCK_ERR_NOT_SUPPORTED;
    }
    struct stat st;
    if (fstat(p->fd, &st) != 0) {
        return UMF_MOCK_ERR_OS;
    }
    memset(d, 0, sizeof(*d));
    d->fd = p->fd;
    d->pid = (int)getpid();
    d->count = p->count;
    d->id = p->id;
    umf_mock_fd_origin_t self;
    umf_mock_fd_origin_self(&self);
    d->pidfs_ino = self.pidfs_ino;
    d->start_time = self.start_time;
    d->file_ino = (uint64_t)st.st_ino;
    d->served = UMF_FD_SOCKET_NONE;
    return UMF_MOCK_OK;
}

void umf_mock_events_pack(const umf_mock_events_desc_t *d,
                          unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES]) {
    memset(h, 0, UMF_MOCK_EVENTS_HANDLE_BYTES);
    umf_mock_put32(h + 0, (uint32_t)d->fd);
    umf_mock_put32(h + 8, HANDLE_MAGIC);
    umf_mock_put32(h + 12, HANDLE_VERSION);
    umf_mock_put32(h + 16, (uint32_t)d->pid);
    umf_mock_put32(h + 20, d->count);
    memcpy(h + 24, &d->id, sizeof(d->id));
    umf_mock_put64(h + 36, d->pidfs_ino != 0 ? d->pidfs_ino : d->start_time);
    umf_mock_put64(h + 44, d->file_ino);
    h[52] =
        (unsigned char)((d->pidfs_ino != 0 ? HANDLE_PIDFS : 0) |
                        (d->served != UMF_FD_SOCKET_NONE ? HANDLE_SERVED : 0) |
                        (d->served == UMF_FD_SOCKET_PATH ? HANDLE_SERVED_PATH
                                                         : 0));
    umf_mock_put32(h + 32, checksum(h));
}

umf_mock_status_t
umf_mock_events_unpack(const unsigned char h[UMF_MOCK_EVENTS_HANDLE_BYTES],
                       umf_mock_events_desc_t *d) {
    if (h == NULL || d == NULL || umf_mock_get32(h + 8) != HANDLE_MAGIC ||
        umf_mock_get32(h + 32) != checksum(h) || umf_mock_get32(h + 4) != 0) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    uint32_t version = umf_mock_get32(h + 12);
    // What must be zero: everything after the id in version 1, after the
    // flags in version 2.
    unsigned zero_from = version == 1 ? 36 : 53;
    if (version != 1 && version != HANDLE_VERSION) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    for (unsigned i = zero_from; i < UMF_MOCK_EVENTS_HANDLE_BYTES; i++) {
        if (h[i] != 0) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
    }
    memset(d, 0, sizeof(*d));
    d->fd = (int)umf_mock_get32(h + 0);
    d->pid = (int)umf_mock_get32(h + 16);
    d->count = umf_mock_get32(h + 20);
    memcpy(&d->id, h + 24, sizeof(d->id));
    d->served = UMF_FD_SOCKET_NONE;
    if (d->pid <= 0 || d->count == 0 || d->count > UMF_MOCK_EVENTS_MAX ||
        d->id == 0) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (version == 1) {
        return UMF_MOCK_OK;
    }
    uint64_t ident = umf_mock_get64(h + 36);
    unsigned flags = h[52];
    d->file_ino = umf_mock_get64(h + 44);
    if (ident == 0 || d->file_ino == 0 || (flags & ~HANDLE_FLAGS) != 0 ||
        (flags & (HANDLE_SERVED | HANDLE_SERVED_PATH)) == HANDLE_SERVED_PATH) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    d->pidfs_ino = (flags & HANDLE_PIDFS) ? ident : 0;
    d->start_time = (flags & HANDLE_PIDFS) ? 0 : ident;
    d->served = (flags & HANDLE_SERVED) == 0   ? UMF_FD_SOCKET_NONE
                : (flags & HANDLE_SERVED_PATH) ? UMF_FD_SOCKET_PATH
                                               : UMF_FD_SOCKET_ABSTRACT;
    return UMF_MOCK_OK;
}

// Checks that `fd` is the sealed memfd of pool `d->id`, big enough for it.
static umf_mock_status_t check_file(const umf_mock_events_desc_t *d,
                                    size_t bytes) {
    struct stat st;
    if (fstat(d->fd, &st) != 0) {
        UMF_MOCK_LOG_WARN("event pool IPC handle: fd %d is not open in this "
                          "process: %s",
                          d->fd, strerror(errno));
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    int seals = fcntl(d->fd, F_GET_SEALS);
    // Version 2 handles name the file: another one is not the pool's.
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < bytes || seals < 0 ||
        (seals & F_SEAL_SHRINK) == 0 ||
        (d->file_ino != 0 && (uint64_t)st.st_ino != d->file_ino)) {
        UMF_MOCK_LOG_WARN("event pool IPC handle: fd %d is not the memory of "
                          "an event pool of %" PRIu32 " events",
                          d->fd, d->count);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    char name[64];
    snprintf(name, sizeof(name), MEMFD_NAME ":%" PRIu64, d->id);
    return umf_mock_check_memfd(d->fd, &st, name, "event pool IPC handle");
}

umf_mock_status_t umf_mock_events_import(const umf_mock_events_desc_t *d,
                                         umf_mock_events_t **out) {
    if (d == NULL || out == NULL || d->fd < 0 || d->pid <= 0 || d->count == 0 ||
        d->count > UMF_MOCK_EVENTS_MAX) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    size_t bytes = file_bytes(d->count);
    umf_mock_status_t s = check_file(d, bytes);
    if (s != UMF_MOCK_OK) {
        return s;
    }
    umf_mock_events_t *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, 0);
    if (map == MAP_FAILED) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("cannot map an imported event pool: %s",
                           strerror(err));
        free(p);
        return err == EACCES || err == EINVAL ? UMF_MOCK_ERR_STALE_HANDLE
                                              : errno_status(err);
    }
    const file_header_t *h = map;
    if (h->magic != FILE_MAGIC || h->version != FILE_VERSION ||
        h->count != d->count || h->id != d->id || h->pid != d->pid) {
        UMF_MOCK_LOG_WARN("event pool IPC handle: the pool's memory describes "
                          "another pool than the handle");
        munmap(map, bytes);
        free(p);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    p->slots = (slot_t *)((char *)map + sizeof(file_header_t));
    p->count = d->count;
    p->imported = true;
    p->fd = -1;
    p->map = map;
    p->bytes = bytes;
    p->id = d->id;
    *out = p;
    return UMF_MOCK_OK;
}
