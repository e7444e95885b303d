// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_memory.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mock_arena.h"
#include "mock_log.h"
#include "util_fd_socket.h"

typedef struct device_t {
    _Alignas(64) _Atomic uint64_t used; // reserved by threads; own line
    uint64_t total;
    uint64_t batch; // what a thread reserves at once beyond its need
    _Atomic(umf_mock_arena_t *) arena;
} device_t;

#define QUOTA_BATCH_MAX (256u << 10)

static device_t devices[UMF_MOCK_MAX_DEVICES];
static unsigned device_count;
static unsigned subdevice_count;
static umf_mock_memory_mode_t memory_mode;
static _Atomic int memory_ready;
static pthread_mutex_t arena_create_lock = PTHREAD_MUTEX_INITIALIZER;

umf_mock_status_t umf_mock_memory_setup(const umf_mock_config_t *cfg) {
    device_count = cfg->devices;
    subdevice_count = cfg->subdevices;
    memory_mode = cfg->memory;
    for (unsigned i = 0; i < device_count; i++) {
        uint64_t batch = cfg->device_mem / 256;
        batch = batch > QUOTA_BATCH_MAX ? QUOTA_BATCH_MAX : batch;
        devices[i].total = cfg->device_mem;
        devices[i].batch = batch & ~((uint64_t)umf_mock_page_size - 1);
    }
    if (memory_mode == UMF_MOCK_MEMORY_MEMFD) {
        // One fd per allocation: the default soft limit (often 1024) would
        // cap the live allocations, so use what the hard limit allows.
        struct rlimit rl;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
            rlim_t old = rl.rlim_cur;
            rl.rlim_cur = rl.rlim_max;
            if (setrlimit(RLIMIT_NOFILE, &rl) == 0) {
                UMF_MOCK_LOG_DEBUG("memfd mode: open file limit raised from "
                                   "%llu to %llu",
                                   (unsigned long long)old,
                                   (unsigned long long)rl.rlim_max);
            }
        }
    }
    atomic_store_explicit(&memory_ready, 1, memory_order_release);
    return UMF_MOCK_OK;
}

unsigned umf_mock_device_count(void) {
    return device_count;
}

unsigned umf_mock_subdevice_count(void) {
    return subdevice_count;
}

uint64_t umf_mock_device_total(unsigned device) {
    return device < device_count ? devices[device].total : 0;
}

uint64_t umf_mock_device_used(unsigned device) {
    if (device >= device_count) {
        return 0;
    }
    uint64_t reserved =
        atomic_load_explicit(&devices[device].used, memory_order_relaxed);
    uint64_t unused = umf_mock_threads_quota(device);
    return reserved > unused ? reserved - unused : 0;
}

// ---- Reservations ---------------------------------------------------------

// Takes `bytes` from the device counter; false if that passes the limit.
// The counter never holds more than the limit, not even for a moment: a
// request that does not fit (a huge one, say) must not make another
// thread's concurrent request fail. Only batch refills come here.
static bool take(device_t *dev, uint64_t bytes) {
    uint64_t used = atomic_load_explicit(&dev->used, memory_order_relaxed);
    do {
        if (bytes > dev->total || used > dev->total - bytes) {
            return false;
        }
    } while (!atomic_compare_exchange_weak_explicit(
        &dev->used, &used, used + bytes, memory_order_relaxed,
        memory_order_relaxed));
    return true;
}

static bool reserve_slow(umf_mock_thread_t *t, unsigned device,
                         uint64_t bytes) {
    device_t *dev = &devices[device];
    uint64_t have =
        atomic_load_explicit(&t->quota[device], memory_order_relaxed);
    uint64_t missing = bytes - have;
    if (take(dev, missing + dev->batch)) {
        atomic_store_explicit(&t->quota[device], dev->batch,
                              memory_order_relaxed);
        return true;
    }
    // Near the limit: only what is missing.
    if (take(dev, missing)) {
        atomic_store_explicit(&t->quota[device], 0, memory_order_relaxed);
        return true;
    }
    return false;
}

// Reserves `bytes` of device memory for this thread's allocation.
static inline bool reserve(umf_mock_thread_t *t, unsigned device,
                           uint64_t bytes) {
    uint64_t have =
        atomic_load_explicit(&t->quota[device], memory_order_relaxed);
    if (__builtin_expect(have >= bytes, 1)) {
        atomic_store_explicit(&t->quota[device], have - bytes,
                              memory_order_relaxed);
        return true;
    }
    return reserve_slow(t, device, bytes);
}

// Gives `bytes` back to this thread's reservation; beyond two batches, the
// excess goes back to the device.
static inline void unreserve(umf_mock_thread_t *t, unsigned device,
                             uint64_t bytes) {
    device_t *dev = &devices[device];
    uint64_t have =
        atomic_load_explicit(&t->quota[device], memory_order_relaxed) + bytes;
    if (have > 2 * dev->batch) {
        atomic_fetch_sub_explicit(&dev->used, have - dev->batch,
                                  memory_order_relaxed);
        have = dev->batch;
    }
    atomic_store_explicit(&t->quota[device], have, memory_order_relaxed);
}

void umf_mock_memory_thread_exit(umf_mock_thread_t *t) {
    for (unsigned i = 0; i < device_count; i++) {
        uint64_t have =
            atomic_exchange_explicit(&t->quota[i], 0, memory_order_relaxed);
        if (have > 0) {
            atomic_fetch_sub_explicit(&devices[i].used, have,
                                      memory_order_relaxed);
        }
    }
}

bool umf_mock_device_charge(unsigned device, uint64_t bytes) {
    umf_mock_thread_t *t = umf_mock_thread();
    return t != NULL && device < device_count && reserve(t, device, bytes);
}

void umf_mock_device_uncharge(unsigned device, uint64_t bytes) {
    umf_mock_thread_t *t = umf_mock_thread();
    if (device >= device_count) {
        return;
    }
    if (t != NULL) {
        unreserve(t, device, bytes);
    } else {
        atomic_fetch_sub_explicit(&devices[device].used, bytes,
                                  memory_order_relaxed);
    }
}

umf_mock_memory_mode_t umf_mock_memory_mode(void) {
    return memory_mode;
}

umf_mock_status_t umf_mock_device_arena(unsigned device,
                                        umf_mock_arena_t **out) {
    device_t *d = &devices[device];
    umf_mock_arena_t *a = atomic_load_explicit(&d->arena, memory_order_acquire);
    if (a != NULL) {
        *out = a;
        return UMF_MOCK_OK;
    }
    umf_mock_status_t status = UMF_MOCK_OK;
    pthread_mutex_lock(&arena_create_lock);
    a = atomic_load_explicit(&d->arena, memory_order_relaxed);
    if (a == NULL) {
        status = umf_mock_arena_create(device, d->total, &a);
        if (status == UMF_MOCK_OK) {
            atomic_store_explicit(&d->arena, a, memory_order_release);
        }
    }
    pthread_mutex_unlock(&arena_create_lock);
    *out = a;
    return status;
}

void umf_mock_info_from_data(const umf_mock_rec_data_t *d,
                             umf_mock_alloc_info_t *info) {
    info->base = (void *)(uintptr_t)d->base;
    info->size = (size_t)d->size;
    info->mapped = (size_t)d->mapped;
    info->id = d->id;
    info->kind = (umf_mock_kind_t)d->kind;
    info->device = (int)d->device;
    info->owner = (uintptr_t)d->owner;
    info->user_flags = (uint32_t)d->user_flags;
    info->exported = d->export_fd >= 0;
    info->peer_pid = (int)d->peer_pid;
    info->peer_id = d->peer_id;
}

// ---- Backends -------------------------------------------------------------

// Maps `bytes` of `fd` at an address aligned to `alignment`.
static void *map_aligned(int fd, size_t bytes, size_t alignment) {
    if (alignment <= umf_mock_page_size) {
        return mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    size_t span = bytes + alignment;
    char *r = mmap(NULL, span, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
        return MAP_FAILED;
    }
    char *a = (char *)(((uintptr_t)r + alignment - 1) & ~(alignment - 1));
    void *p =
        mmap(a, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    if (p == MAP_FAILED) {
        munmap(r, span);
        return MAP_FAILED;
    }
    if (a > r) {
        munmap(r, (size_t)(a - r));
    }
    if (a + bytes < r + span) {
        munmap(a + bytes, (size_t)(r + span - (a + bytes)));
    }
    return p;
}

static umf_mock_status_t memfd_alloc(uint64_t id, size_t mapped,
                                     size_t alignment, void **ptr, int *fd) {
    char name[48];
    snprintf(name, sizeof(name), "umf-gpu-mock:%" PRIu64, id);
    int f = memfd_create(name, MFD_CLOEXEC);
    if (f < 0) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("memfd_create for a %zu-byte allocation: %s", mapped,
                           strerror(err));
        return err == EMFILE || err == ENFILE || err == ENOMEM
                   ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
                   : UMF_MOCK_ERR_OS;
    }
    if (ftruncate(f, (off_t)mapped) != 0) {
        UMF_MOCK_LOG_ERROR("cannot size a memfd to %zu bytes: %s", mapped,
                           strerror(errno));
        close(f);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    void *p = map_aligned(f, mapped, alignment);
    if (p == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map a %zu-byte memfd: %s", mapped,
                           strerror(errno));
        close(f);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    *ptr = p;
    *fd = f;
    return UMF_MOCK_OK;
}

static void backend_release(umf_mock_thread_t *t,
                            const umf_mock_rec_data_t *d) {
    switch ((umf_mock_backend_t)d->backend) {
    case UMF_MOCK_BACKEND_ARENA: {
        umf_mock_arena_t *a = atomic_load_explicit(&devices[d->device].arena,
                                                   memory_order_acquire);
        if (d->export_fd != -1) {
            umf_fd_server_revoke(0, d->base); // served no more
        }
        if (d->export_fd >= 0) {
            close((int)d->export_fd);
        }
        // Published once exported, even when the fd was put back.
        umf_mock_arena_free(a, t, (uint32_t)d->b0, (unsigned)d->b1,
                            d->export_fd != -1);
        break;
    }
    case UMF_MOCK_BACKEND_MEMFD:
        if (d->export_fd != -1) {
            umf_fd_server_revoke(0, d->base); // served no more
        }
        // The export, if any, handed out this same fd.
        munmap((void *)(uintptr_t)d->base, (size_t)d->mapped);
        close((int)d->b0);
        break;
    case UMF_MOCK_BACKEND_MALLOC:
        free((void *)(uintptr_t)d->b0);
        break;
    case UMF_MOCK_BACKEND_IMPORT:
    case UMF_MOCK_BACKEND_VMM:
        break; // closed by mock_ipc.c, unmapped by mock_vmm.c; never here
    }
}

// ---- Allocation -----------------------------------------------------------

static umf_mock_status_t check_request(umf_mock_kind_t kind, int device,
                                       size_t size, size_t alignment,
                                       void **out) {
    if (!atomic_load_explicit(&memory_ready, memory_order_acquire)) {
        return UMF_MOCK_ERR_NOT_INITIALIZED;
    }
    if (out == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    switch (kind) {
    case UMF_MOCK_KIND_DEVICE:
        if (device < 0 || (unsigned)device >= device_count) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
        break;
    case UMF_MOCK_KIND_SHARED:
        if (device < -1 || (device >= 0 && (unsigned)device >= device_count)) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
        break;
    case UMF_MOCK_KIND_HOST:
        if (device != -1) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
        break;
    default:
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (size == 0 || size > UMF_MOCK_MAX_ALLOC_SIZE) {
        return UMF_MOCK_ERR_UNSUPPORTED_SIZE;
    }
    if ((alignment & (alignment - 1)) != 0 ||
        alignment > UMF_MOCK_MAX_ALIGNMENT) {
        return UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT;
    }
    return UMF_MOCK_OK;
}

umf_mock_status_t umf_mock_alloc(umf_mock_kind_t kind, int device, size_t size,
                                 size_t alignment, uintptr_t owner,
                                 uint32_t user_flags, void **out) {
    umf_mock_status_t status =
        check_request(kind, device, size, alignment, out);
    if (status != UMF_MOCK_OK) {
        return status;
    }
    umf_mock_thread_t *t = umf_mock_thread();
    if (t == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    size_t mapped = (size + umf_mock_page_size - 1) & ~(umf_mock_page_size - 1);
    umf_mock_rec_data_t d = {
        .size = size,
        .mapped = mapped,
        .kind = kind,
        .device = device,
        .owner = owner,
        .user_flags = user_flags,
        .export_fd = -1,
        .peer_pid = 0,
    };
    if (device >= 0 && !reserve(t, (unsigned)device, mapped)) {
        return UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY;
    }
    // The arena keeps the records of its blocks; the rest come from the pool.
    bool arena = device >= 0 && memory_mode == UMF_MOCK_MEMORY_ARENA;
    umf_mock_record_t *rec = NULL;
    if (!arena) {
        rec = umf_mock_record_get(t);
        if (rec == NULL) {
            status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
            goto err_unaccount;
        }
    }
    d.id = umf_mock_thread_new_id(t);
    void *ptr = NULL;
    if (device < 0 || memory_mode == UMF_MOCK_MEMORY_MALLOC) {
        size_t align =
            alignment > umf_mock_page_size ? alignment : umf_mock_page_size;
        // posix_memalign: aligned_alloc wants the size a multiple of the
        // alignment.
        if (posix_memalign(&ptr, align, mapped) != 0) {
            status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
            goto err_record;
        }
        d.backend = UMF_MOCK_BACKEND_MALLOC;
        d.b0 = (uint64_t)(uintptr_t)ptr;
    } else if (arena) {
        umf_mock_arena_t *a;
        status = umf_mock_device_arena((unsigned)device, &a);
        if (status != UMF_MOCK_OK) {
            goto err_record;
        }
        unsigned order = umf_mock_arena_order(mapped, alignment);
        uint32_t page;
        status = umf_mock_arena_alloc(a, t, order, &ptr, &page);
        if (status != UMF_MOCK_OK) {
            goto err_record;
        }
        d.backend = UMF_MOCK_BACKEND_ARENA;
        d.b0 = page;
        d.b1 = order;
        rec = umf_mock_arena_record(a, page);
    } else {
        int fd;
        status = memfd_alloc(d.id, mapped, alignment, &ptr, &fd);
        if (status != UMF_MOCK_OK) {
            goto err_record;
        }
        d.backend = UMF_MOCK_BACKEND_MEMFD;
        d.b0 = (uint64_t)fd;
    }
    d.base = (uint64_t)(uintptr_t)ptr;
    if (!umf_mock_registry_insert(rec, &d)) {
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto err_backend;
    }
    umf_mock_stat_add(t, UMF_MOCK_STAT_ALLOCATIONS, 1);
    *out = ptr;
    return UMF_MOCK_OK;

err_backend:
    backend_release(t, &d);
err_record:
    if (!arena) {
        umf_mock_record_put(t, rec);
    }
err_unaccount:
    if (device >= 0) {
        unreserve(t, (unsigned)device, mapped);
    }
    return status;
}

umf_mock_status_t umf_mock_free(const void *ptr, unsigned kinds,
                                uintptr_t owner, umf_mock_alloc_info_t *freed) {
    if (!atomic_load_explicit(&memory_ready, memory_order_acquire)) {
        return UMF_MOCK_ERR_NOT_INITIALIZED;
    }
    umf_mock_thread_t *t = umf_mock_thread();
    if (t == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    umf_mock_record_t *rec;
    umf_mock_rec_data_t d;
    // Claimed first, checked then: a second free of the same pointer (even
    // in another thread at the same moment) finds nothing to claim.
    if (ptr == NULL || !umf_mock_registry_claim_at(ptr, &rec, &d)) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    umf_mock_status_t status = UMF_MOCK_OK;
    if (d.base != (uint64_t)(uintptr_t)ptr) {
        status = UMF_MOCK_ERR_NOT_BASE;
    } else if ((d.kind & kinds) == 0) {
        status = UMF_MOCK_ERR_WRONG_KIND;
    } else if (owner != 0 && d.owner != owner) {
        status = UMF_MOCK_ERR_WRONG_OWNER;
    }
    if (status != UMF_MOCK_OK) {
        umf_mock_record_release(rec);
        return status;
    }
    umf_mock_registry_remove(rec);
    backend_release(t, &d);
    if (d.device >= 0) {
        unreserve(t, (unsigned)d.device, d.mapped);
    }
    umf_mock_stat_add(t, UMF_MOCK_STAT_ALLOCATIONS, -1);
    if (d.export_fd >= 0) {
        umf_mock_stat_add(t, UMF_MOCK_STAT_IPC_HANDLES, -1);
    }
    if (d.backend != UMF_MOCK_BACKEND_ARENA) {
        umf_mock_record_put(t, rec);
    }
    if (freed != NULL) {
        umf_mock_info_from_data(&d, freed);
    }
    return UMF_MOCK_OK;
}

umf_mock_status_t umf_mock_lookup(const void *ptr,
                                  umf_mock_alloc_info_t *info) {
    umf_mock_rec_data_t d;
    uint64_t seq;
    if (info == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (ptr == NULL || !umf_mock_registry_lookup(ptr, NULL, &d, &seq)) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    umf_mock_info_from_data(&d, info);
    return UMF_MOCK_OK;
}

size_t umf_mock_quarantined(void) {
    size_t n = 0;
    for (unsigned i = 0; i < device_count; i++) {
        umf_mock_arena_t *a =
            atomic_load_explicit(&devices[i].arena, memory_order_acquire);
        if (a != NULL) {
            n += umf_mock_arena_reclaim(a);
        }
    }
    return n;
}
