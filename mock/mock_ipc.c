// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mock_arena.h"
#include "mock_bytes.h"
#include "mock_log.h"
#include "util_fd.h"

#define HANDLE_MAGIC 0x4b4d4755u // "UGMK"
#define HANDLE_VERSION 2u
#define HANDLE_PIDFS 1u       // byte 56 holds the exporter's pidfd inode
#define HANDLE_SERVED 2u      // the exporter serves the fd over a socket ...
#define HANDLE_SERVED_PATH 4u // ... a path one (UMF_GPU_IPC_SOCKET_DIR)
#define HANDLE_FLAGS (HANDLE_PIDFS | HANDLE_SERVED | HANDLE_SERVED_PATH)

// The names of our memfds (mock_memory.c, mock_arena.c).
#define MEMFD_NAME "umf-gpu-mock"

// ---- Handle packing -------------------------------------------------------
//
// Bytes: 0 fd | 4 zero | 8 magic | 12 version | 13 arena order | 14 flags |
//        15 zero | 16 pid | 20 checksum | 24 offset | 32 size | 40 file inode |
//        48 id | 56 the exporter: its pidfd's inode (flag HANDLE_PIDFS) or
//        its start time
// The checksum covers bytes 4-19 and 24-63: everything but the fd, which a
// consumer overwrites with its own.

static uint32_t checksum(const unsigned char *h) {
    return umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 4, 16), h + 24,
                          40);
}

void umf_mock_ipc_pack(const umf_mock_ipc_desc_t *d,
                       unsigned char h[UMF_MOCK_IPC_HANDLE_BYTES]) {
    memset(h, 0, UMF_MOCK_IPC_HANDLE_BYTES);
    umf_mock_put32(h + 0, (uint32_t)d->fd);
    umf_mock_put32(h + 8, HANDLE_MAGIC);
    h[12] = (unsigned char)HANDLE_VERSION;
    h[13] = (unsigned char)d->arena_order;
    h[14] =
        (unsigned char)((d->pidfs_ino != 0 ? HANDLE_PIDFS : 0) |
                        (d->served != UMF_FD_SOCKET_NONE ? HANDLE_SERVED : 0) |
                        (d->served == UMF_FD_SOCKET_PATH ? HANDLE_SERVED_PATH
                                                         : 0));
    umf_mock_put32(h + 16, (uint32_t)d->pid);
    umf_mock_put64(h + 24, d->offset);
    umf_mock_put64(h + 32, d->size);
    umf_mock_put64(h + 40, d->file_ino);
    umf_mock_put64(h + 48, d->id);
    umf_mock_put64(h + 56, d->pidfs_ino != 0 ? d->pidfs_ino : d->start_time);
    umf_mock_put32(h + 20, checksum(h));
}

// Fills the derived fields from the packed ones; false if they make no
// sense together.
static bool desc_derive(umf_mock_ipc_desc_t *d) {
    uint64_t page = umf_mock_page_size;
    if (d->size == 0 || d->size > UMF_MOCK_MAX_ALLOC_SIZE ||
        d->offset % page != 0 || d->id == 0 || d->pid <= 0 ||
        d->file_ino == 0) {
        return false;
    }
    d->mapped = (d->size + page - 1) & ~(page - 1);
    if (d->offset > INT64_MAX - d->mapped) {
        return false;
    }
    if (d->arena_order == UMF_MOCK_NO_ARENA) {
        d->slot_offset = UMF_MOCK_NO_SLOT;
        return true;
    }
    // The arena's data pages, then one slot word per data page.
    if (d->arena_order > 31) {
        return false;
    }
    uint64_t data_size = page << d->arena_order;
    if (d->offset + d->mapped > data_size) {
        return false;
    }
    d->slot_offset = data_size + (d->offset / page) * sizeof(uint64_t);
    return true;
}

umf_mock_status_t
umf_mock_ipc_unpack(const unsigned char h[UMF_MOCK_IPC_HANDLE_BYTES],
                    umf_mock_ipc_desc_t *d) {
    if (h == NULL || d == NULL || umf_mock_get32(h + 4) != 0 ||
        umf_mock_get32(h + 8) != HANDLE_MAGIC || h[12] != HANDLE_VERSION ||
        (h[14] & ~HANDLE_FLAGS) != 0 ||
        (h[14] & (HANDLE_SERVED | HANDLE_SERVED_PATH)) == HANDLE_SERVED_PATH ||
        h[15] != 0 || umf_mock_get32(h + 20) != checksum(h)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    d->fd = (int)umf_mock_get32(h + 0);
    d->pid = (int)umf_mock_get32(h + 16);
    d->offset = umf_mock_get64(h + 24);
    d->size = umf_mock_get64(h + 32);
    d->file_ino = umf_mock_get64(h + 40);
    d->id = umf_mock_get64(h + 48);
    d->pidfs_ino = (h[14] & HANDLE_PIDFS) ? umf_mock_get64(h + 56) : 0;
    d->start_time = (h[14] & HANDLE_PIDFS) ? 0 : umf_mock_get64(h + 56);
    d->arena_order = h[13];
    d->served = (h[14] & HANDLE_SERVED_PATH) ? UMF_FD_SOCKET_PATH
                : (h[14] & HANDLE_SERVED)    ? UMF_FD_SOCKET_ABSTRACT
                                             : UMF_FD_SOCKET_NONE;
    return desc_derive(d) ? UMF_MOCK_OK : UMF_MOCK_ERR_INVALID_ARGUMENT;
}

// ---- Export ---------------------------------------------------------------

static pthread_once_t ptracer_once = PTHREAD_ONCE_INIT;

static void allow_ptracers(void) {
    // Without Yama the call fails with EINVAL, and nothing needs allowing.
    if (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) != 0) {
        UMF_MOCK_LOG_DEBUG("prctl(PR_SET_PTRACER, ANY): %s", strerror(errno));
    }
}

// `ino`: the inode of the exported file (memfd mode; the arena knows its
// own).
static void fill_desc(const umf_mock_rec_data_t *d, int fd, uint64_t ino,
                      umf_mock_arena_t *arena, umf_mock_ipc_desc_t *out) {
    out->fd = fd;
    out->served = UMF_FD_SOCKET_NONE;
    umf_mock_fd_origin_t self;
    umf_mock_fd_origin_self(&self);
    out->pid = self.pid;
    out->pidfs_ino = self.pidfs_ino;
    out->start_time = self.start_time;
    out->size = d->size;
    out->id = d->id;
    if (arena != NULL) {
        out->file_ino = umf_mock_arena_ino(arena);
        out->offset = umf_mock_arena_data_offset(arena, (uint32_t)d->b0);
        out->arena_order = umf_mock_arena_data_order(arena);
    } else {
        out->file_ino = ino;
        out->offset = 0;
        out->arena_order = UMF_MOCK_NO_ARENA;
    }
    (void)desc_derive(out); // cannot fail for a live allocation of ours
}

// The first export of an allocation: the fd it keeps until the free (a
// duplicate of the arena's, or its own memfd) and, for a memfd, its inode.
static umf_mock_status_t open_export_fd(const umf_mock_rec_data_t *d,
                                        umf_mock_arena_t *arena, int *fd,
                                        uint64_t *ino) {
    if (arena == NULL) {
        struct stat st;
        if (fstat((int)d->b0, &st) != 0) {
            UMF_MOCK_LOG_ERROR("cannot read the memfd of allocation %" PRIu64
                               ": %s",
                               d->id, strerror(errno));
            return UMF_MOCK_ERR_OS;
        }
        *fd = (int)d->b0;
        *ino = (uint64_t)st.st_ino;
        return UMF_MOCK_OK;
    }
    *fd = fcntl(umf_mock_arena_fd(arena), F_DUPFD_CLOEXEC, 0);
    if (*fd < 0) {
        UMF_MOCK_LOG_ERROR("cannot open an fd for an IPC handle: %s",
                           strerror(errno));
        return errno == EMFILE || errno == ENFILE
                   ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
                   : UMF_MOCK_ERR_OS;
    }
    *ino = umf_mock_arena_ino(arena);
    return UMF_MOCK_OK;
}

// The record whose export opened each fd (the exporter side of
// zeMemPutIpcHandle and of the fd to handle conversion), by fd number.
// Entries are never cleared: a record is never returned to the system, and
// a lookup checks that the record still holds the fd for the same export.
static pthread_mutex_t exports_lock = PTHREAD_MUTEX_INITIALIZER;
static umf_mock_record_t **export_of_fd;
static size_t export_fds;

static void remember_export(int fd, umf_mock_record_t *rec) {
    pthread_mutex_lock(&exports_lock);
    if ((size_t)fd >= export_fds) {
        size_t n = export_fds ? export_fds : 64;
        while (n <= (size_t)fd) {
            n *= 2;
        }
        umf_mock_record_t **grown = realloc(export_of_fd, n * sizeof(*grown));
        if (grown != NULL) {
            memset(grown + export_fds, 0, (n - export_fds) * sizeof(*grown));
            export_of_fd = grown;
            export_fds = n;
        }
    }
    if ((size_t)fd < export_fds) {
        export_of_fd[fd] = rec; // else: no put, the free closes it
    }
    pthread_mutex_unlock(&exports_lock);
}

static umf_mock_record_t *export_of(int fd) {
    pthread_mutex_lock(&exports_lock);
    umf_mock_record_t *rec =
        fd >= 0 && (size_t)fd < export_fds ? export_of_fd[fd] : NULL;
    pthread_mutex_unlock(&exports_lock);
    return rec;
}

umf_mock_status_t umf_mock_ipc_export(const void *ptr, bool require_base,
                                      umf_mock_ipc_desc_t *desc,
                                      umf_mock_alloc_info_t *info) {
    if (desc == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_thread_t *t = umf_mock_thread();
    if (t == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    for (;;) {
        umf_mock_record_t *rec;
        umf_mock_rec_data_t d;
        uint64_t seq;
        if (ptr == NULL || !umf_mock_registry_lookup(ptr, &rec, &d, &seq)) {
            return UMF_MOCK_ERR_NOT_FOUND;
        }
        if (require_base && d.base != (uint64_t)(uintptr_t)ptr) {
            return UMF_MOCK_ERR_NOT_BASE;
        }
        if ((d.kind & (UMF_MOCK_KIND_DEVICE | UMF_MOCK_KIND_SHARED)) == 0 ||
            d.device < 0) {
            return UMF_MOCK_ERR_WRONG_KIND;
        }
        umf_mock_arena_t *arena = NULL;
        switch ((umf_mock_backend_t)d.backend) {
        case UMF_MOCK_BACKEND_ARENA:
            if (umf_mock_device_arena((unsigned)d.device, &arena) !=
                UMF_MOCK_OK) {
                return UMF_MOCK_ERR_OS; // cannot be: it holds this block
            }
            break;
        case UMF_MOCK_BACKEND_MEMFD:
            break;
        default:
            return UMF_MOCK_ERR_NOT_SUPPORTED;
        }
        if (info != NULL) {
            umf_mock_info_from_data(&d, info);
        }
        if (d.export_fd >= 0) {
            // Exported before: the memfd's inode was kept in b1.
            fill_desc(&d, (int)d.export_fd, d.b1, arena, desc);
            return UMF_MOCK_OK;
        }
        int fd;
        uint64_t ino;
        umf_mock_status_t status = open_export_fd(&d, arena, &fd, &ino);
        if (status != UMF_MOCK_OK) {
            return status;
        }
        if (!umf_mock_record_claim(rec, seq)) {
            // Freed or exported by another thread meanwhile: look again.
            if (arena != NULL) {
                close(fd);
            }
            continue;
        }
        if (arena != NULL) {
            umf_mock_arena_publish(arena, (uint32_t)d.b0, d.id);
        } else {
            umf_mock_record_store(&rec->b1, ino);
        }
        umf_mock_record_store((uint64_t *)&rec->export_fd, (uint64_t)fd);
        umf_mock_record_release(rec);
        remember_export(fd, rec);
        umf_mock_stat_add(t, UMF_MOCK_STAT_IPC_HANDLES, 1);
        pthread_once(&ptracer_once, allow_ptracers);
        d.export_fd = fd;
        if (info != NULL) {
            info->exported = true;
        }
        fill_desc(&d, fd, ino, arena, desc);
        return UMF_MOCK_OK;
    }
}

umf_mock_status_t umf_mock_ipc_describe_fd(int fd, umf_mock_ipc_desc_t *desc) {
    umf_mock_record_t *rec = export_of(fd);
    umf_mock_rec_data_t d;
    uint64_t seq;
    if (desc == NULL || rec == NULL || !umf_mock_record_read(rec, &d, &seq) ||
        d.export_fd != fd) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    umf_mock_arena_t *arena = NULL;
    if (d.backend == UMF_MOCK_BACKEND_ARENA &&
        umf_mock_device_arena((unsigned)d.device, &arena) != UMF_MOCK_OK) {
        return UMF_MOCK_ERR_OS; // cannot be: it holds this block
    }
    // The memfd mode's inode was kept in b1 at the first export.
    fill_desc(&d, fd, d.b1, arena, desc);
    return UMF_MOCK_OK;
}

umf_mock_status_t umf_mock_ipc_put(const umf_mock_ipc_desc_t *desc,
                                   bool *released) {
    if (released != NULL) {
        *released = false;
    }
    umf_mock_ipc_desc_t checked;
    if (desc == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    checked = *desc;
    if (!desc_derive(&checked)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_thread_t *t = umf_mock_thread();
    if (t == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    umf_mock_record_t *rec =
        desc->pid == (int)getpid() ? export_of(desc->fd) : NULL;
    for (;;) {
        umf_mock_rec_data_t d;
        uint64_t seq;
        // Put back before, or another export's fd by now, or freed (which
        // closed the fd), or another process's handle: nothing of this
        // export holds an fd any more.
        if (rec == NULL || !umf_mock_record_read(rec, &d, &seq) ||
            d.id != desc->id || d.export_fd != desc->fd) {
            return UMF_MOCK_OK;
        }
        if (!umf_mock_record_claim(rec, seq)) {
            continue; // changed meanwhile: look again
        }
        umf_mock_record_store((uint64_t *)&rec->export_fd,
                              (uint64_t)(int64_t)UMF_MOCK_EXPORT_PUT);
        umf_mock_record_release(rec);
        umf_fd_server_revoke(0, d.base); // before the fd goes
        umf_mock_stat_add(t, UMF_MOCK_STAT_IPC_HANDLES, -1);
        // The arena's export fd is a duplicate; the memfd mode's is the
        // allocation's own memory, which stays with it.
        if (d.backend == UMF_MOCK_BACKEND_ARENA) {
            close(desc->fd);
        }
        if (released != NULL) {
            *released = true;
        }
        return UMF_MOCK_OK;
    }
}

// ---- Import ---------------------------------------------------------------

typedef struct import_t {
    struct import_t *next;
    umf_mock_record_t *rec;
    umf_mock_ipc_desc_t desc; // the export, fd left out
    void *base;
    void *slot_page; // the mapped page holding the import slot, or NULL
    _Atomic uint64_t *slot;
    uint64_t refs;
    uintptr_t owner;
} import_t;

static pthread_mutex_t imports_lock = PTHREAD_MUTEX_INITIALIZER;
static import_t *imports;

// Two handles name one export when every field but the fd agrees: a
// process with a recycled pid, or an allocation with a recycled id, makes
// another export.
static bool same_export(const umf_mock_ipc_desc_t *a,
                        const umf_mock_ipc_desc_t *b) {
    return a->pid == b->pid && a->start_time == b->start_time &&
           a->pidfs_ino == b->pidfs_ino && a->file_ino == b->file_ino &&
           a->offset == b->offset && a->size == b->size && a->id == b->id &&
           a->arena_order == b->arena_order;
}

// The import of the export `d` on `owner`, or NULL. Under imports_lock.
static import_t *find_import(uintptr_t owner, const umf_mock_ipc_desc_t *d) {
    for (import_t *i = imports; i != NULL; i = i->next) {
        if (i->owner == owner && same_export(&i->desc, d)) {
            return i;
        }
    }
    return NULL;
}

// Checks that `fd` is the exported file: the inode the handle names (so
// another process's fd with the same number, or another file of the
// exporter, is refused), a memfd of ours large enough for the range and its
// slot and, in the memfd mode, the allocation's own (its name carries the
// id).
static umf_mock_status_t check_fd(const umf_mock_ipc_desc_t *d) {
    struct stat st;
    if (fstat(d->fd, &st) != 0) {
        UMF_MOCK_LOG_WARN("IPC handle fd %d is not open in this process: %s",
                          d->fd, strerror(errno));
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if ((uint64_t)st.st_ino != d->file_ino) {
        UMF_MOCK_LOG_WARN("IPC handle fd %d is another file than the one "
                          "exported by process %d (inode %llu, not %" PRIu64
                          "): the exporter has exited or released it",
                          d->fd, d->pid, (unsigned long long)st.st_ino,
                          d->file_ino);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    uint64_t need = d->offset + d->mapped;
    if (d->slot_offset != UMF_MOCK_NO_SLOT &&
        d->slot_offset + sizeof(uint64_t) > need) {
        need = d->slot_offset + sizeof(uint64_t);
    }
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < need) {
        UMF_MOCK_LOG_WARN("IPC handle fd %d is not a memory file of %" PRIu64
                          " bytes",
                          d->fd, need);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    char name[48];
    if (d->slot_offset != UMF_MOCK_NO_SLOT) {
        snprintf(name, sizeof(name), MEMFD_NAME "-arena");
    } else {
        snprintf(name, sizeof(name), MEMFD_NAME ":%" PRIu64, d->id);
    }
    return umf_mock_check_memfd(d->fd, &st, name, "IPC handle");
}

// The arena mode: counts the import in the block's slot, through an open
// file description of our own (*own_fd), which carries the liveness lock on
// the slot (mock_arena.h) and which the mappings keep open after the caller
// closes own_fd. Only a slot that still holds the allocation, in a block at
// least as large as the range, counts the import in.
static umf_mock_status_t import_slot(const umf_mock_ipc_desc_t *d,
                                     import_t *imp, int *own_fd) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", d->fd);
    *own_fd = open(path, O_RDWR | O_CLOEXEC);
    int err = *own_fd < 0 ? errno : umf_mock_slot_lock(*own_fd, d->slot_offset);
    if (err != 0) {
        UMF_MOCK_LOG_ERROR("IPC import of allocation %" PRIu64
                           " of process %d: cannot lock its slot through "
                           "%s: %s",
                           d->id, d->pid, path, strerror(err));
        return err == EMFILE || err == ENFILE ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
                                              : UMF_MOCK_ERR_OS;
    }
    uint64_t page_off = d->slot_offset & ~((uint64_t)umf_mock_page_size - 1);
    void *page = mmap(NULL, umf_mock_page_size, PROT_READ | PROT_WRITE,
                      MAP_SHARED, *own_fd, (off_t)page_off);
    if (page == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map an IPC import slot: %s",
                           strerror(errno));
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    _Atomic uint64_t *slot =
        (_Atomic uint64_t *)((char *)page + (d->slot_offset - page_off));
    if (!umf_mock_slot_acquire(slot, d->id, d->mapped >> umf_mock_page_shift)) {
        UMF_MOCK_LOG_WARN("IPC handle of allocation %" PRIu64
                          " of process %d: the allocation was freed, or is "
                          "smaller than the %" PRIu64 " bytes the handle "
                          "claims",
                          d->id, d->pid, d->size);
        munmap(page, umf_mock_page_size);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    imp->slot_page = page;
    imp->slot = slot;
    return UMF_MOCK_OK;
}

// Undoes import_slot.
static void release_slot(import_t *imp) {
    if (imp->slot == NULL) {
        return;
    }
    if (!umf_mock_slot_release(imp->slot)) {
        UMF_MOCK_LOG_WARN("IPC import slot of allocation %" PRIu64
                          " of process %d counted no import",
                          imp->desc.id, imp->desc.pid);
    }
    munmap(imp->slot_page, umf_mock_page_size);
    imp->slot = NULL;
    imp->slot_page = NULL;
}

// A new mapping of the export `d` (its fd checked), registered as an
// imported range of `owner`. Under imports_lock.
static umf_mock_status_t import_new(umf_mock_thread_t *t,
                                    const umf_mock_ipc_desc_t *d, int device,
                                    uintptr_t owner, import_t **out) {
    umf_mock_status_t status = check_fd(d);
    if (status != UMF_MOCK_OK) {
        return status;
    }
    import_t *imp = calloc(1, sizeof(*imp));
    umf_mock_record_t *rec = umf_mock_record_get(t);
    int map_fd = d->fd, own_fd = -1;
    if (imp == NULL || rec == NULL) {
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto err_alloc;
    }
    if (d->slot_offset != UMF_MOCK_NO_SLOT) {
        status = import_slot(d, imp, &own_fd);
        if (status != UMF_MOCK_OK) {
            goto err_alloc;
        }
        map_fd = own_fd;
    }
    imp->base = mmap(NULL, d->mapped, PROT_READ | PROT_WRITE, MAP_SHARED,
                     map_fd, (off_t)d->offset);
    if (imp->base == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot map %" PRIu64 " bytes of an IPC handle: %s",
                           d->mapped, strerror(errno));
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto err_slot;
    }
    imp->rec = rec;
    imp->desc = *d;
    imp->desc.fd = -1;
    imp->refs = 1;
    imp->owner = owner;
    umf_mock_rec_data_t data = {
        .base = (uint64_t)(uintptr_t)imp->base,
        .size = d->size,
        .mapped = d->mapped,
        .id = umf_mock_thread_new_id(t),
        .kind = UMF_MOCK_KIND_IMPORTED,
        .device = device,
        .owner = owner,
        .export_fd = -1,
        .backend = UMF_MOCK_BACKEND_IMPORT,
        .b0 = (uint64_t)(uintptr_t)imp,
        .peer_pid = d->pid,
        .peer_id = d->id,
    };
    if (!umf_mock_registry_insert(rec, &data)) {
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto err_map;
    }
    if (own_fd >= 0) {
        close(own_fd); // the mappings hold the description, and its lock
    }
    *out = imp;
    return UMF_MOCK_OK;

err_map:
    munmap(imp->base, d->mapped);
err_slot:
    release_slot(imp);
err_alloc:
    if (own_fd >= 0) {
        close(own_fd);
    }
    if (rec != NULL) {
        umf_mock_record_put(t, rec);
    }
    free(imp);
    return status;
}

umf_mock_status_t umf_mock_ipc_import(const umf_mock_ipc_desc_t *d, int device,
                                      uintptr_t owner,
                                      umf_mock_import_mode_t mode, void **out) {
    umf_mock_ipc_desc_t desc;
    if (d == NULL || out == NULL || d->fd < 0 ||
        mode > UMF_MOCK_IMPORT_EXCLUSIVE) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    // The derived fields are derived again: only the packed ones count.
    desc = *d;
    if (!desc_derive(&desc)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_thread_t *t = umf_mock_thread();
    if (t == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    umf_mock_status_t status = UMF_MOCK_OK;
    pthread_mutex_lock(&imports_lock);
    import_t *imp =
        mode != UMF_MOCK_IMPORT_NEW ? find_import(owner, &desc) : NULL;
    if (imp != NULL) {
        // The same export on the same owner: the handle matched field by
        // field, so the mapping is of the memory this handle names.
        if (mode == UMF_MOCK_IMPORT_EXCLUSIVE) {
            status = UMF_MOCK_ERR_ALREADY_MAPPED;
        } else {
            imp->refs++;
            *out = imp->base;
        }
    } else {
        status = import_new(t, &desc, device, owner, &imp);
        if (status == UMF_MOCK_OK) {
            imp->next = imports;
            imports = imp;
            umf_mock_stat_add(t, UMF_MOCK_STAT_IMPORTS, 1);
            *out = imp->base;
        }
    }
    pthread_mutex_unlock(&imports_lock);
    return status;
}

umf_mock_status_t umf_mock_ipc_close(const void *ptr, uintptr_t owner,
                                     bool *unmapped) {
    umf_mock_thread_t *t = umf_mock_thread();
    if (t == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    umf_mock_status_t status = UMF_MOCK_OK;
    bool gone = false;
    pthread_mutex_lock(&imports_lock);
    umf_mock_record_t *rec;
    umf_mock_rec_data_t d;
    uint64_t seq;
    if (ptr == NULL || !umf_mock_registry_lookup(ptr, &rec, &d, &seq)) {
        status = UMF_MOCK_ERR_NOT_FOUND;
        goto out;
    }
    if (d.base != (uint64_t)(uintptr_t)ptr) {
        status = UMF_MOCK_ERR_NOT_BASE;
        goto out;
    }
    if (d.kind != UMF_MOCK_KIND_IMPORTED) {
        status = UMF_MOCK_ERR_WRONG_KIND;
        goto out;
    }
    if (owner != 0 && d.owner != owner) {
        status = UMF_MOCK_ERR_WRONG_OWNER;
        goto out;
    }
    // Imports change only under imports_lock, which we hold: the record is
    // stable and its import alive.
    import_t *imp = (import_t *)(uintptr_t)d.b0;
    if (--imp->refs > 0) {
        goto out;
    }
    while (!umf_mock_record_claim(rec, seq)) {
        if (!umf_mock_record_read(rec, &d, &seq)) {
            status = UMF_MOCK_ERR_NOT_FOUND; // cannot be: we hold the lock
            goto out;
        }
    }
    umf_mock_registry_remove(rec);
    for (import_t **p = &imports; *p != NULL; p = &(*p)->next) {
        if (*p == imp) {
            *p = imp->next;
            break;
        }
    }
    munmap(imp->base, imp->desc.mapped);
    release_slot(imp);
    free(imp);
    umf_mock_record_put(t, rec);
    umf_mock_stat_add(t, UMF_MOCK_STAT_IMPORTS, -1);
    gone = true;
out:
    pthread_mutex_unlock(&imports_lock);
    if (unmapped != NULL) {
        *unmapped = gone;
    }
    return status;
}

// ---- Taking an fd from another process -------------------------------------

umf_mock_status_t umf_mock_check_memfd(int fd, const struct stat *st,
                                       const char *name, const char *what) {
    uint64_t dev = umf_fd_memfd_dev();
    if (dev == 0) {
        UMF_MOCK_LOG_WARN("%s fd %d: no fd left to measure the device of "
                          "memfds",
                          what, fd);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    if ((uint64_t)st->st_dev != dev) {
        // A file with the exported inode number on another file system (a
        // tmpfs of its own, in a mount namespace of its own) is not it.
        UMF_MOCK_LOG_WARN("%s fd %d is not a memfd (device %llu, memfds' "
                          "%llu)",
                          what, fd, (unsigned long long)st->st_dev,
                          (unsigned long long)dev);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    // The link only confirms: a file can be named to read like it; the
    // device is what proves.
    char path[64], link[128], want[128];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, link, sizeof(link) - 1);
    if (n < 0) {
        return UMF_MOCK_OK; // no /proc: the device and inode have to do
    }
    link[n] = '\0';
    snprintf(want, sizeof(want), "/memfd:%s (deleted)", name);
    if (strcmp(link, want) != 0) {
        UMF_MOCK_LOG_WARN("%s fd %d is %s, not the exported memory (%s)", what,
                          fd, link, want);
        return UMF_MOCK_ERR_STALE_HANDLE;
    }
    return UMF_MOCK_OK;
}

// What each failure of utils/util_fd.c is to the drivers, and how loud:
// a refusal needs the user to act, the rest the caller handles.
static umf_mock_status_t fd_status(umf_fd_status_t status,
                                   const umf_fd_failure_t *why) {
    static const struct {
        umf_mock_status_t status;
        umf_log_level_t level;
    } of_fd[] = {
        [UMF_FD_OK] = {UMF_MOCK_OK, UMF_LOG_LEVEL_DEBUG},
        [UMF_FD_INVALID_ARGUMENT] = {UMF_MOCK_ERR_INVALID_ARGUMENT,
                                     UMF_LOG_LEVEL_DEBUG},
        [UMF_FD_NO_PROCESS] = {UMF_MOCK_ERR_NO_PROCESS, UMF_LOG_LEVEL_WARN},
        [UMF_FD_NO_SUCH_FD] = {UMF_MOCK_ERR_STALE_HANDLE, UMF_LOG_LEVEL_WARN},
        [UMF_FD_PERMISSION] = {UMF_MOCK_ERR_PERMISSION, UMF_LOG_LEVEL_ERROR},
        [UMF_FD_NOT_SUPPORTED] = {UMF_MOCK_ERR_NOT_SUPPORTED,
                                  UMF_LOG_LEVEL_WARN},
        [UMF_FD_NO_FDS] = {UMF_MOCK_ERR_OUT_OF_HOST_MEMORY, UMF_LOG_LEVEL_WARN},
        [UMF_FD_OS_ERROR] = {UMF_MOCK_ERR_OS, UMF_LOG_LEVEL_WARN},
        [UMF_FD_NOT_EXPORTER] = {UMF_MOCK_ERR_NO_PROCESS, UMF_LOG_LEVEL_WARN},
        [UMF_FD_OTHER_FILE] = {UMF_MOCK_ERR_STALE_HANDLE, UMF_LOG_LEVEL_WARN},
        [UMF_FD_UID_REFUSED] = {UMF_MOCK_ERR_PERMISSION, UMF_LOG_LEVEL_ERROR},
        [UMF_FD_NOT_SERVED] = {UMF_MOCK_ERR_PERMISSION, UMF_LOG_LEVEL_ERROR},
        [UMF_FD_REVOKED] = {UMF_MOCK_ERR_STALE_HANDLE, UMF_LOG_LEVEL_WARN},
        [UMF_FD_WRONG_PEER] = {UMF_MOCK_ERR_STALE_HANDLE, UMF_LOG_LEVEL_WARN},
        [UMF_FD_UNVERIFIED] = {UMF_MOCK_ERR_NOT_SUPPORTED, UMF_LOG_LEVEL_ERROR},
        [UMF_FD_BUSY] = {UMF_MOCK_ERR_BUSY, UMF_LOG_LEVEL_WARN},
    };
    if ((unsigned)status >= sizeof(of_fd) / sizeof(of_fd[0])) {
        return UMF_MOCK_ERR_OS;
    }
    if (status == UMF_FD_OK || status == UMF_FD_INVALID_ARGUMENT) {
        return of_fd[status].status;
    }
    if (umf_logger_may_write(&umf_mock_logger, of_fd[status].level)) {
        char message[768];
        umf_fd_failure_describe(why, message, sizeof(message));
        umf_logger_write(&umf_mock_logger, of_fd[status].level, __FILE_NAME__,
                         __LINE__, "%s", message);
    }
    return of_fd[status].status;
}

umf_mock_status_t umf_mock_fd_from_process(int pid, int fd,
                                           const umf_fd_identity_t *identity,
                                           int *out) {
    umf_fd_failure_t why;
    return fd_status(umf_fd_from_process(pid, fd, identity, out, &why), &why);
}

void umf_mock_fd_origin_self(umf_mock_fd_origin_t *o) {
    memset(o, 0, sizeof(*o));
    o->fd = -1;
    o->pid = (int)getpid();
    o->pidfs_ino = umf_proc_self_pidfs_ino();
    o->start_time = o->pidfs_ino != 0 ? 0 : umf_proc_self_start_time();
    o->served = UMF_FD_SOCKET_NONE;
}

void umf_mock_fd_socket(const umf_mock_fd_origin_t *o,
                        umf_fd_socket_name_t *name) {
    memset(name, 0, sizeof(*name));
    if (o->served != UMF_FD_SOCKET_NONE) {
        umf_fd_socket_derived_name(
            o->pid, o->pidfs_ino != 0 ? o->pidfs_ino : o->start_time,
            UMF_MOCK_FD_SERVER_TAG, o->served == UMF_FD_SOCKET_PATH, name);
    }
}

void umf_mock_fd_serve(umf_mock_fd_origin_t *o, uint64_t key) {
    umf_fd_serve_policy_t policy = {.tag = UMF_MOCK_FD_SERVER_TAG};
    umf_fd_socket_name_t name;
    int err = umf_fd_server_export(0, key, o->id, o->fd, &policy, &name);
    if (err != 0) {
        UMF_MOCK_LOG_WARN("IPC export %" PRIu64 ": cannot serve its fd over a "
                          "socket (%s); importers need pidfd_getfd",
                          o->id, strerror(err));
        name.kind = UMF_FD_SOCKET_NONE;
    }
    o->served = (uint8_t)name.kind;
}

umf_mock_status_t umf_mock_fd_take(const umf_mock_fd_origin_t *o, int *out) {
    // The process behind the pid must be the exporter, and the fd the file
    // it exported: pids and fd numbers are reused. The handle has no room
    // for the file's device: every fd this driver exports is a memfd, whose
    // device this process measures itself (never the exporter's word, nor
    // whoever answers for it).
    uint64_t dev = umf_fd_memfd_dev();
    if (dev == 0) {
        UMF_MOCK_LOG_WARN("cannot take the fd of export %" PRIu64
                          " of process %d: no fd left here to measure the "
                          "device of memfds",
                          o->id, o->pid);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    umf_fd_identity_t identity = {o->start_time, o->pidfs_ino, dev,
                                  o->file_ino};
    bool known = o->start_time != 0 || o->pidfs_ino != 0 || o->file_ino != 0;
    umf_fd_socket_name_t name;
    umf_mock_fd_socket(o, &name);
    umf_fd_source_t src = {o->pid, o->fd,
                           o->id,  known ? &identity : NULL,
                           &name,  UMF_FD_TRANSFER_DEFAULT};
    umf_fd_failure_t why;
    return fd_status(umf_fd_take(&src, out, &why), &why);
}

static umf_mock_fd_origin_t origin_of(const umf_mock_ipc_desc_t *desc) {
    umf_mock_fd_origin_t o = {desc->pid,        desc->fd,        desc->id,
                              desc->start_time, desc->pidfs_ino, desc->file_ino,
                              desc->served};
    return o;
}

void umf_mock_ipc_serve(umf_mock_ipc_desc_t *desc, uint64_t base) {
    umf_mock_fd_origin_t o = origin_of(desc);
    umf_mock_fd_serve(&o, base);
    desc->served = o.served;
}

umf_mock_status_t umf_mock_ipc_take_fd(const umf_mock_ipc_desc_t *desc,
                                       int *out) {
    umf_mock_fd_origin_t o = origin_of(desc);
    return umf_mock_fd_take(&o, out);
}
