// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The model of mock_vmm.h. Reservations are kept in an array sorted by
// base; each holds its mapped segments in an array sorted by address. A
// segment is a page range with one physical object (at consecutive
// offsets), one mapping and one access per device; setting access on part
// of a segment splits it, and neighbours that agree again are merged. A
// mapping is a run of segments that one umf_mock_va_map made (less what was
// unmapped since), and it is what the registry record covers. Pages that
// are not mapped may hold an access of their own (`held`, set by
// umf_mock_va_set_access_within: Level Zero keeps it); a held range never
// overlaps a segment, since mapping a page drops what it held and
// unmapping gives it none. Everything happens under `lock`.

#include "mock_vmm.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mock_log.h"
#include "mock_memory.h"
#include "mock_objects.h"
#include "mock_registry.h"

// What /proc/self/fd/N reads for a physical object's memfd (followed by
// "d<device>:<id>").
#define PHYS_NAME "umf-gpu-mock-phys:"
#define PHYS_LINK "/memfd:" PHYS_NAME

#define SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

struct umf_mock_phys_t {
    uint64_t id;
    uint64_t size;
    int device;
    int fd;
    uintptr_t owner;
    uint32_t user_flags;
    bool imported;
    uint64_t refs; // handle references
    uint64_t maps; // segments that map it
};

typedef struct seg_t {
    uintptr_t va;
    uint64_t size;
    umf_mock_phys_t *phys;
    uint64_t offset;      // of va in phys
    uint64_t read, write; // device masks
    // The mapping it belongs to: its registry record (NULL only when the
    // record could not be made, which was logged).
    umf_mock_record_t *rec;
    uint64_t map;    // the mapping's number, shared by its segments
    uintptr_t owner; // the mapping's owner tag
} seg_t;

// An access held by unmapped pages.
typedef struct held_t {
    uintptr_t va;
    uint64_t size;
    uint64_t read, write; // device masks, not both 0
} held_t;

typedef struct resv_t {
    uintptr_t base;
    uint64_t size;
    uintptr_t owner;
    seg_t *segs;
    size_t nsegs, cap;
    held_t *held; // sorted by address, disjoint
    size_t nheld, held_cap;
} resv_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static resv_t **resvs; // sorted by base
static size_t nresvs, resvs_cap;
static uint64_t next_phys_id, next_map;
static uint64_t live_phys, live_mappings;

static uint64_t page_size(void) {
    return (uint64_t)umf_mock_page_size;
}

static bool page_multiple(uint64_t v) {
    return (v & (page_size() - 1)) == 0;
}

static int prot_of(uint64_t read, uint64_t write) {
    return (read != 0 ? PROT_READ : 0) |
           (write != 0 ? PROT_READ | PROT_WRITE : 0);
}

static uint64_t device_mask(uint64_t devices) {
    unsigned n = umf_mock_device_count();
    return n >= 64 ? devices : devices & ((1ull << n) - 1);
}

// ---- Physical memory -------------------------------------------------------

// A live handle: in the set and with a handle reference (under `lock`).
static bool phys_live(umf_mock_phys_t *phys) {
    return phys != NULL &&
           umf_mock_object_contains(UMF_MOCK_OBJECT_CORE_PHYS, phys) &&
           phys->refs > 0;
}

// Frees `phys` once nothing refers to it any more (under `lock`).
static void phys_maybe_free(umf_mock_phys_t *phys) {
    if (phys->refs > 0 || phys->maps > 0) {
        return;
    }
    (void)umf_mock_object_remove(UMF_MOCK_OBJECT_CORE_PHYS, phys);
    close(phys->fd);
    if (!phys->imported) {
        umf_mock_device_uncharge((unsigned)phys->device, phys->size);
    }
    free(phys);
}

static void phys_unref(umf_mock_phys_t *phys) {
    if (--phys->refs == 0) {
        live_phys--;
    }
    phys_maybe_free(phys);
}

static void phys_ref(umf_mock_phys_t *phys) {
    if (phys->refs++ == 0) {
        live_phys++;
    }
}

// Adds a new object (refs 1) to the set; false when out of memory.
static bool phys_publish(umf_mock_phys_t *phys) {
    pthread_mutex_lock(&lock);
    phys->id = ++next_phys_id;
    bool ok = umf_mock_object_add(UMF_MOCK_OBJECT_CORE_PHYS, phys);
    if (ok) {
        phys_ref(phys);
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

static umf_mock_status_t os_status(int err) {
    return err == EMFILE || err == ENFILE || err == ENOMEM || err == ENOSPC
               ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
               : UMF_MOCK_ERR_OS;
}

umf_mock_status_t umf_mock_phys_create(int device, uint64_t size,
                                       uintptr_t owner, uint32_t user_flags,
                                       umf_mock_phys_t **out) {
    if (out == NULL || device < 0 ||
        (unsigned)device >= umf_mock_device_count()) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (size == 0 || !page_multiple(size) || size > UMF_MOCK_MAX_ALLOC_SIZE) {
        return UMF_MOCK_ERR_UNSUPPORTED_SIZE;
    }
    if (!umf_mock_device_charge((unsigned)device, size)) {
        return UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY;
    }
    umf_mock_status_t status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    umf_mock_phys_t *phys = calloc(1, sizeof(*phys));
    if (phys == NULL) {
        goto err_charge;
    }
    char name[64];
    snprintf(name, sizeof(name), PHYS_NAME "d%d", device);
    phys->fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (phys->fd < 0) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("memfd_create for %" PRIu64
                           " bytes of physical memory: %s",
                           size, strerror(err));
        status = os_status(err);
        goto err_free;
    }
    // Sealed, so that no process can shrink the file under a mapping.
    if (ftruncate(phys->fd, (off_t)size) != 0 ||
        fcntl(phys->fd, F_ADD_SEALS, SEALS) != 0) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("cannot size and seal a memfd of %" PRIu64
                           " bytes: %s",
                           size, strerror(err));
        status = os_status(err);
        goto err_fd;
    }
    phys->size = size;
    phys->device = device;
    phys->owner = owner;
    phys->user_flags = user_flags;
    if (!phys_publish(phys)) {
        goto err_fd;
    }
    *out = phys;
    return UMF_MOCK_OK;

err_fd:
    close(phys->fd);
err_free:
    free(phys);
err_charge:
    umf_mock_device_uncharge((unsigned)device, size);
    return status;
}

umf_mock_status_t umf_mock_phys_retain(umf_mock_phys_t *phys) {
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    if (phys_live(phys)) {
        phys_ref(phys);
        status = UMF_MOCK_OK;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_phys_release(umf_mock_phys_t *phys,
                                        bool refuse_if_mapped) {
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    if (phys_live(phys)) {
        if (refuse_if_mapped && phys->maps > 0) {
            status = UMF_MOCK_ERR_ALREADY_MAPPED;
        } else {
            phys_unref(phys);
            status = UMF_MOCK_OK;
        }
    }
    pthread_mutex_unlock(&lock);
    return status;
}

static void phys_info(const umf_mock_phys_t *phys, umf_mock_phys_info_t *info) {
    info->id = phys->id;
    info->size = phys->size;
    info->device = phys->device;
    info->owner = phys->owner;
    info->user_flags = phys->user_flags;
    info->imported = phys->imported;
    info->handle_refs = phys->refs;
    info->mappings = 0;
}

umf_mock_status_t umf_mock_phys_export_fd(umf_mock_phys_t *phys, int *fd) {
    if (fd == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    if (phys_live(phys)) {
        int f = fcntl(phys->fd, F_DUPFD_CLOEXEC, 0);
        if (f < 0) {
            int err = errno;
            UMF_MOCK_LOG_ERROR("cannot export physical memory #%" PRIu64 ": %s",
                               phys->id, strerror(err));
            status = os_status(err);
        } else {
            *fd = f;
            status = UMF_MOCK_OK;
        }
    }
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_phys_id(umf_mock_phys_t *phys, uint64_t *id) {
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    if (phys != NULL &&
        umf_mock_object_contains(UMF_MOCK_OBJECT_CORE_PHYS, phys)) {
        *id = phys->id;
        status = UMF_MOCK_OK;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_phys_own_fd(umf_mock_phys_t *phys, int *fd,
                                       uint64_t *ino) {
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    struct stat st;
    if (phys_live(phys) && fstat(phys->fd, &st) == 0) {
        *fd = phys->fd;
        *ino = (uint64_t)st.st_ino;
        status = UMF_MOCK_OK;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

// The device named by the memfd behind `fd` ("/memfd:umf-gpu-mock-phys:dN
// (deleted)"); -1 when the name is not ours, -2 when /proc cannot tell.
static int fd_device(int fd) {
    char path[64], link[256];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, link, sizeof(link) - 1);
    if (n < 0) {
        return -2;
    }
    link[n] = '\0';
    size_t prefix = strlen(PHYS_LINK);
    if (strncmp(link, PHYS_LINK, prefix) != 0 || link[prefix] != 'd') {
        return -1;
    }
    char *end;
    long dev = strtol(link + prefix + 1, &end, 10);
    if (end == link + prefix + 1 || dev < 0 || dev >= UMF_MOCK_MAX_DEVICES ||
        (*end != '\0' && *end != ' ')) {
        return -1;
    }
    return (int)dev;
}

umf_mock_status_t umf_mock_phys_import_fd(int fd, uintptr_t owner,
                                          uint32_t user_flags,
                                          umf_mock_phys_t **out) {
    if (out == NULL || fd < 0) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    // The descriptor is untrusted: it must be a sealed memfd of ours of a
    // sane size, so that mapping it can never fault.
    struct stat st;
    if (fstat(fd, &st) != 0) {
        UMF_MOCK_LOG_WARN("import of physical memory: fd %d is not open: %s",
                          fd, strerror(errno));
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    int seals = fcntl(fd, F_GET_SEALS);
    uint64_t size = (uint64_t)st.st_size;
    int device = fd_device(fd);
    if (!S_ISREG(st.st_mode) || size == 0 || !page_multiple(size) ||
        size > UMF_MOCK_MAX_ALLOC_SIZE || seals < 0 ||
        (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) !=
            (F_SEAL_SHRINK | F_SEAL_GROW) ||
        device == -1) {
        UMF_MOCK_LOG_WARN("import of physical memory: fd %d is not memory "
                          "exported by an emulated driver",
                          fd);
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (device == -2) {
        device = 0; // no /proc: the seals and size have to do
    }
    if ((unsigned)device >= umf_mock_device_count()) {
        UMF_MOCK_LOG_WARN("import of physical memory: it is on device %d, "
                          "which this process does not have (%u devices)",
                          device, umf_mock_device_count());
        return UMF_MOCK_ERR_NOT_SUPPORTED;
    }
    umf_mock_phys_t *phys = calloc(1, sizeof(*phys));
    if (phys == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    phys->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (phys->fd < 0) {
        int err = errno;
        free(phys);
        return os_status(err);
    }
    phys->size = size;
    phys->device = device;
    phys->owner = owner;
    phys->user_flags = user_flags;
    phys->imported = true;
    if (!phys_publish(phys)) {
        close(phys->fd);
        free(phys);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    *out = phys;
    return UMF_MOCK_OK;
}

// ---- Reservations ----------------------------------------------------------

// The reservation holding `addr`, or NULL (under `lock`). *index gets the
// position where a reservation at `addr` would go.
static resv_t *resv_find(uintptr_t addr, size_t *index) {
    size_t lo = 0, hi = nresvs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (resvs[mid]->base <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (index != NULL) {
        *index = lo;
    }
    if (lo == 0) {
        return NULL;
    }
    resv_t *r = resvs[lo - 1];
    return addr - r->base < r->size ? r : NULL;
}

// Reserves address space: PROT_NONE, no memory behind it.
static void *map_none(void *at, uint64_t size, int extra_flags) {
    return mmap(at, size, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | extra_flags, -1,
                0);
}

static void *reserve_aligned(uint64_t size, uint64_t alignment,
                             uintptr_t hint) {
    if (hint != 0 && hint % alignment == 0) {
        void *p = map_none((void *)hint, size, MAP_FIXED_NOREPLACE);
        if (p != MAP_FAILED && (uintptr_t)p == hint) {
            return p;
        }
        if (p != MAP_FAILED) {
            munmap(p, size); // an old kernel took it as a hint elsewhere
        }
    }
    if (alignment <= page_size()) {
        void *p = map_none(NULL, size, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    if (size > UINT64_MAX - alignment) {
        return NULL;
    }
    uint64_t span = size + alignment;
    char *r = map_none(NULL, span, 0);
    if (r == MAP_FAILED) {
        return NULL;
    }
    char *a = (char *)(((uintptr_t)r + alignment - 1) & ~(alignment - 1));
    if (a > r) {
        munmap(r, (size_t)(a - r));
    }
    if (a + size < r + span) {
        munmap(a + size, (size_t)(r + span - (a + size)));
    }
    return a;
}

umf_mock_status_t umf_mock_va_reserve(uint64_t size, uint64_t alignment,
                                      uintptr_t hint, uintptr_t owner,
                                      void **out) {
    if (out == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (size == 0 || !page_multiple(size) || size > UMF_MOCK_MAX_ALLOC_SIZE) {
        return UMF_MOCK_ERR_UNSUPPORTED_SIZE;
    }
    if ((alignment & (alignment - 1)) != 0 ||
        alignment > UMF_MOCK_MAX_ALLOC_SIZE) {
        return UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT;
    }
    if (alignment < page_size()) {
        alignment = page_size();
    }
    resv_t *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    void *p = reserve_aligned(size, alignment, hint);
    if (p == NULL) {
        UMF_MOCK_LOG_ERROR("cannot reserve %" PRIu64 " bytes of address "
                           "space: %s",
                           size, strerror(errno));
        free(r);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    r->base = (uintptr_t)p;
    r->size = size;
    r->owner = owner;
    pthread_mutex_lock(&lock);
    if (nresvs == resvs_cap) {
        size_t cap = resvs_cap != 0 ? 2 * resvs_cap : 16;
        resv_t **n = realloc(resvs, cap * sizeof(*n));
        if (n == NULL) {
            pthread_mutex_unlock(&lock);
            munmap(p, size);
            free(r);
            return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        }
        resvs = n;
        resvs_cap = cap;
    }
    size_t at;
    (void)resv_find(r->base, &at);
    memmove(&resvs[at + 1], &resvs[at], (nresvs - at) * sizeof(*resvs));
    resvs[at] = r;
    nresvs++;
    pthread_mutex_unlock(&lock);
    *out = p;
    return UMF_MOCK_OK;
}

// ---- Segments and their records --------------------------------------------

// The index of the segment holding `addr`, or of the first one after it
// (under `lock`).
static size_t seg_index(const resv_t *r, uintptr_t addr) {
    size_t lo = 0, hi = r->nsegs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->segs[mid].va + r->segs[mid].size <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bool seg_holds(const resv_t *r, size_t i, uintptr_t addr) {
    return i < r->nsegs && r->segs[i].va <= addr &&
           addr - r->segs[i].va < r->segs[i].size;
}

// The segment holding `va`: its reservation and index (under `lock`); false
// when nothing is mapped there.
static bool seg_at(uintptr_t va, resv_t **r, size_t *i) {
    *r = resv_find(va, NULL);
    if (*r == NULL) {
        return false;
    }
    *i = seg_index(*r, va);
    return seg_holds(*r, *i, va);
}

// True when [addr, addr + size) is mapped throughout; *first gets the
// index of the segment holding addr.
static bool mapped_throughout(const resv_t *r, uintptr_t addr, uint64_t size,
                              size_t *first) {
    size_t i = seg_index(r, addr);
    *first = i;
    uintptr_t cursor = addr, end = addr + size;
    for (; cursor < end; i++) {
        if (!seg_holds(r, i, cursor)) {
            return false;
        }
        cursor = r->segs[i].va + r->segs[i].size;
    }
    return true;
}

static bool segs_reserve(resv_t *r, size_t more) {
    if (r->nsegs + more <= r->cap) {
        return true;
    }
    size_t cap = r->cap != 0 ? 2 * r->cap : 8;
    while (cap < r->nsegs + more) {
        cap *= 2;
    }
    seg_t *n = realloc(r->segs, cap * sizeof(*n));
    if (n == NULL) {
        return false;
    }
    r->segs = n;
    r->cap = cap;
    return true;
}

// The reservation in which [va, va + size) is mapped throughout, with the
// index of the segment holding va (under `lock`). NOT_FOUND if there is
// none.
static umf_mock_status_t mapped_range(uintptr_t va, uint64_t size, resv_t **out,
                                      size_t *first) {
    resv_t *r = resv_find(va, NULL);
    if (r == NULL || size > r->base + r->size - va ||
        !mapped_throughout(r, va, size, first)) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    *out = r;
    return UMF_MOCK_OK;
}

// Splits the segment holding `addr` so that one starts there; the room for
// one more segment must be reserved.
static void seg_split(resv_t *r, uintptr_t addr) {
    size_t i = seg_index(r, addr);
    if (!seg_holds(r, i, addr) || r->segs[i].va == addr) {
        return;
    }
    memmove(&r->segs[i + 2], &r->segs[i + 1],
            (r->nsegs - i - 1) * sizeof(*r->segs));
    seg_t *a = &r->segs[i], *b = &r->segs[i + 1];
    *b = *a;
    a->size = addr - a->va;
    b->va = addr;
    b->size -= a->size;
    b->offset += a->size;
    b->phys->maps++;
    r->nsegs++;
}

// Splits the segments of the mapped range [va, va + size) of `r` so that
// segments start at both ends; *first and *last get the segments of the
// range (under `lock`). OUT_OF_HOST_MEMORY when there was no room.
static umf_mock_status_t split_range(resv_t *r, uintptr_t va, uint64_t size,
                                     size_t *first, size_t *last) {
    if (!segs_reserve(r, 2)) {
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    seg_split(r, va);
    seg_split(r, va + size);
    *first = seg_index(r, va);
    *last = seg_index(r, va + size - 1);
    return UMF_MOCK_OK;
}

// Merges segments [from, to] with their right neighbours where nothing
// tells them apart.
static void seg_merge(resv_t *r, size_t from, size_t to) {
    if (to + 1 >= r->nsegs) {
        to = r->nsegs - 1;
    }
    for (size_t i = to; i > from && i < r->nsegs; i--) {
        seg_t *a = &r->segs[i - 1], *b = &r->segs[i];
        if (a->va + a->size == b->va && a->phys == b->phys &&
            a->offset + a->size == b->offset && a->map == b->map &&
            a->rec == b->rec && a->read == b->read && a->write == b->write) {
            a->size += b->size;
            b->phys->maps--;
            memmove(b, b + 1, (r->nsegs - i - 1) * sizeof(*r->segs));
            r->nsegs--;
        }
    }
}

// True when segment i starts a mapped range (a record's run).
static bool run_starts(const resv_t *r, size_t i) {
    return i == 0 || r->segs[i].rec != r->segs[i - 1].rec ||
           r->segs[i].map != r->segs[i - 1].map ||
           r->segs[i].va != r->segs[i - 1].va + r->segs[i - 1].size;
}

// Registers the mapping [va, va + size) of `phys` (from `offset`).
static umf_mock_record_t *rec_add(uintptr_t va, uint64_t size,
                                  umf_mock_phys_t *phys, uint64_t offset,
                                  uintptr_t owner) {
    umf_mock_thread_t *t = umf_mock_thread();
    umf_mock_record_t *rec = t != NULL ? umf_mock_record_get(t) : NULL;
    if (rec == NULL) {
        return NULL;
    }
    umf_mock_rec_data_t d = {
        .base = va,
        .size = size,
        .mapped = size,
        .id = umf_mock_thread_new_id(t),
        .kind = UMF_MOCK_KIND_MAPPED,
        .device = phys->device,
        .owner = owner,
        .user_flags = phys->user_flags,
        .export_fd = -1,
        .backend = UMF_MOCK_BACKEND_VMM,
        .b0 = (uint64_t)(uintptr_t)phys,
        .b1 = offset,
        .peer_id = phys->id,
    };
    if (!umf_mock_registry_insert(rec, &d)) {
        umf_mock_record_put(t, rec);
        return NULL;
    }
    live_mappings++;
    return rec;
}

static void rec_remove(umf_mock_record_t *rec) {
    umf_mock_rec_data_t d;
    uint64_t seq;
    // Another thread may hold a claim for a moment (a free of this address,
    // which refuses it): retry until ours succeeds.
    while (umf_mock_record_read(rec, &d, &seq) &&
           !umf_mock_record_claim(rec, seq)) {
    }
    umf_mock_registry_remove(rec);
    umf_mock_thread_t *t = umf_mock_thread();
    if (t != NULL) {
        umf_mock_record_put(t, rec);
    }
    live_mappings--;
}

// Registers segments [i, j] of `r` (one contiguous run of one mapping) as
// one record, or logs why it could not.
static void run_register(resv_t *r, size_t i, size_t j) {
    const seg_t *s = &r->segs[i];
    uint64_t size = r->segs[j].va + r->segs[j].size - s->va;
    umf_mock_record_t *rec = rec_add(s->va, size, s->phys, s->offset, s->owner);
    if (rec == NULL) {
        UMF_MOCK_LOG_ERROR("out of host memory: mapped memory at 0x%" PRIxPTR
                           " (%" PRIu64 " bytes) is no longer registered",
                           s->va, size);
    }
    for (size_t k = i; k <= j; k++) {
        r->segs[k].rec = rec;
    }
}

// ---- Mapping ---------------------------------------------------------------

// ---- Access held by unmapped pages ----------------------------------------

// Makes [va, va + size) hold `read` and `write` (nothing when both are 0),
// replacing what it held (under `lock`). False: out of host memory, and
// nothing changed.
static bool held_set(resv_t *r, uintptr_t va, uint64_t size, uint64_t read,
                     uint64_t write) {
    if (r->nheld + 2 > r->held_cap) {
        size_t cap = r->held_cap != 0 ? 2 * r->held_cap : 4;
        held_t *n = realloc(r->held, cap * sizeof(*n));
        if (n == NULL) {
            return false;
        }
        r->held = n;
        r->held_cap = cap;
    }
    uintptr_t end = va + size;
    size_t i = 0;
    while (i < r->nheld && r->held[i].va + r->held[i].size <= va) {
        i++;
    }
    // [i, j): the held ranges that overlap; their pieces outside stay.
    size_t j = i;
    while (j < r->nheld && r->held[j].va < end) {
        j++;
    }
    held_t left = {0}, right = {0};
    if (i < j && r->held[i].va < va) {
        left = r->held[i];
        left.size = va - left.va;
    }
    if (i < j && r->held[j - 1].va + r->held[j - 1].size > end) {
        right = r->held[j - 1];
        right.size = right.va + right.size - end;
        right.va = end;
    }
    held_t put[3];
    size_t nput = 0;
    if (left.size != 0) {
        put[nput++] = left;
    }
    if (read != 0 || write != 0) {
        put[nput++] = (held_t){va, size, read, write};
    }
    if (right.size != 0) {
        put[nput++] = right;
    }
    memmove(&r->held[i + nput], &r->held[j], (r->nheld - j) * sizeof(*r->held));
    memcpy(&r->held[i], put, nput * sizeof(*put));
    r->nheld = r->nheld - (j - i) + nput;
    return true;
}

// The held range holding `va`, or NULL; *next gets the start of the next
// held range after `va` (or UINTPTR_MAX). Under `lock`.
static const held_t *held_at(const resv_t *r, uintptr_t va, uintptr_t *next) {
    *next = UINTPTR_MAX;
    for (size_t i = 0; i < r->nheld; i++) {
        if (r->held[i].va > va) {
            *next = r->held[i].va;
            return NULL;
        }
        if (va - r->held[i].va < r->held[i].size) {
            return &r->held[i];
        }
    }
    return NULL;
}

umf_mock_status_t umf_mock_va_map(const void *addr, uint64_t size,
                                  umf_mock_phys_t *phys, uint64_t offset,
                                  uintptr_t owner) {
    uintptr_t va = (uintptr_t)addr;
    if (addr == NULL || size == 0) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (!page_multiple(va) || !page_multiple(size) || !page_multiple(offset)) {
        return UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT;
    }
    umf_mock_status_t status = UMF_MOCK_OK;
    pthread_mutex_lock(&lock);
    resv_t *r = resv_find(va, NULL);
    if (!phys_live(phys) || r == NULL || size > r->base + r->size - va) {
        status = UMF_MOCK_ERR_NOT_FOUND;
        goto out;
    }
    if (offset > phys->size || size > phys->size - offset) {
        status = UMF_MOCK_ERR_INVALID_ARGUMENT;
        goto out;
    }
    size_t i = seg_index(r, va);
    if (i < r->nsegs && r->segs[i].va < va + size) {
        status = UMF_MOCK_ERR_ALREADY_MAPPED;
        goto out;
    }
    // What the pages held goes: the mapping has the access it is given.
    if (!segs_reserve(r, 1) || !held_set(r, va, size, 0, 0)) {
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto out;
    }
    void *p = mmap((void *)va, size, PROT_NONE, MAP_SHARED | MAP_FIXED,
                   phys->fd, (off_t)offset);
    if (p == MAP_FAILED) {
        int err = errno;
        UMF_MOCK_LOG_ERROR("cannot map %" PRIu64
                           " bytes of physical memory #%" PRIu64 " at %p: %s",
                           size, phys->id, addr, strerror(err));
        (void)map_none((void *)va, size, MAP_FIXED);
        status = os_status(err);
        goto out;
    }
    umf_mock_record_t *rec = rec_add(va, size, phys, offset, owner);
    if (rec == NULL) {
        (void)map_none((void *)va, size, MAP_FIXED);
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto out;
    }
    memmove(&r->segs[i + 1], &r->segs[i], (r->nsegs - i) * sizeof(*r->segs));
    r->segs[i] = (seg_t){
        .va = va,
        .size = size,
        .phys = phys,
        .offset = offset,
        .rec = rec,
        .map = ++next_map,
        .owner = owner,
    };
    r->nsegs++;
    phys->maps++;
out:
    pthread_mutex_unlock(&lock);
    return status;
}

// Unmaps segments [first, last] of `r` (whole segments) and unregisters
// the mappings they belong to; what is left of a mapping cut at either end
// is registered again (under `lock`). A record covers one contiguous run
// of segments, so only the neighbours of the range can be such leftovers.
static void unmap_segments(resv_t *r, size_t first, size_t last) {
    uintptr_t va = r->segs[first].va;
    uintptr_t end = r->segs[last].va + r->segs[last].size;
    umf_mock_record_t *left = r->segs[first].rec, *right = r->segs[last].rec;
    for (size_t i = first; i <= last; i++) {
        if (r->segs[i].rec != NULL &&
            (i == first || r->segs[i].rec != r->segs[i - 1].rec)) {
            rec_remove(r->segs[i].rec);
        }
    }
    size_t left_from = first;
    while (left != NULL && left_from > 0 &&
           r->segs[left_from - 1].rec == left) {
        r->segs[--left_from].rec = NULL;
    }
    size_t right_to = last;
    while (right != NULL && right_to + 1 < r->nsegs &&
           r->segs[right_to + 1].rec == right) {
        r->segs[++right_to].rec = NULL;
    }
    for (size_t i = first; i <= last; i++) {
        umf_mock_phys_t *phys = r->segs[i].phys;
        phys->maps--;
        phys_maybe_free(phys);
    }
    size_t gone = last - first + 1;
    memmove(&r->segs[first], &r->segs[last + 1],
            (r->nsegs - last - 1) * sizeof(*r->segs));
    r->nsegs -= gone;
    if (map_none((void *)va, end - va, MAP_FIXED) == MAP_FAILED) {
        UMF_MOCK_LOG_ERROR("cannot return [0x%" PRIxPTR ", 0x%" PRIxPTR
                           ") to its reservation: %s",
                           va, end, strerror(errno));
    }
    if (left_from < first) {
        run_register(r, left_from, first - 1);
    }
    if (right_to > last) {
        run_register(r, first, right_to - gone);
    }
}

umf_mock_status_t umf_mock_va_free(const void *base, uint64_t size,
                                   size_t *unmapped) {
    uintptr_t va = (uintptr_t)base;
    umf_mock_status_t status = UMF_MOCK_OK;
    size_t count = 0;
    pthread_mutex_lock(&lock);
    size_t at;
    resv_t *r = resv_find(va, &at);
    if (r == NULL || r->base != va || r->size != size) {
        status = UMF_MOCK_ERR_NOT_FOUND;
        goto out;
    }
    // Count the mapped ranges before they go.
    for (size_t i = 0; i < r->nsegs; i++) {
        count += run_starts(r, i);
    }
    if (r->nsegs > 0) {
        unmap_segments(r, 0, r->nsegs - 1);
    }
    munmap((void *)r->base, r->size);
    memmove(&resvs[at - 1], &resvs[at], (nresvs - at) * sizeof(*resvs));
    nresvs--;
    free(r->segs);
    free(r->held);
    free(r);
out:
    pthread_mutex_unlock(&lock);
    if (unmapped != NULL) {
        *unmapped = count;
    }
    return status;
}

// ---- Access ----------------------------------------------------------------

// The segments of [va, va + size), split so that segments start at both
// ends: *first and *last (last < first when none lies there), in the
// reservation that holds the range. `within`: the range need only lie in
// the reservation, else it must be mapped throughout (NOT_FOUND). Under
// `lock`.
static umf_mock_status_t range_segments(uintptr_t va, uint64_t size,
                                        bool within, resv_t **out,
                                        size_t *first, size_t *last) {
    resv_t *r = resv_find(va, NULL);
    if (r == NULL || size > r->base + r->size - va ||
        (!within && !mapped_throughout(r, va, size, first))) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    umf_mock_status_t status = split_range(r, va, size, first, last);
    if (status != UMF_MOCK_OK) {
        return status;
    }
    // split_range's ends are those of a mapped range; unmapped ends move in.
    *first = seg_index(r, va);
    size_t end = *first;
    while (end < r->nsegs && r->segs[end].va < va + size) {
        end++;
    }
    *last = end - 1; // wraps below *first when there is none
    *out = r;
    return UMF_MOCK_OK;
}

// What an unmap asks of its range.
typedef enum unmap_rule_t {
    UNMAP_MAPPED, // mapped throughout
    UNMAP_WHOLE,  // ... and of whole mappings (CUDA)
    UNMAP_WITHIN, // in one reservation (Level Zero)
} unmap_rule_t;

// True when every mapping [va, va + size) touches lies inside it, from
// segment `first` on (under `lock`).
static bool whole_mappings(const resv_t *r, size_t first, uintptr_t va,
                           uint64_t size) {
    for (size_t i = first; i < r->nsegs && r->segs[i].va < va + size; i++) {
        umf_mock_alloc_info_t info;
        if (umf_mock_lookup((void *)r->segs[i].va, &info) != UMF_MOCK_OK ||
            (uintptr_t)info.base < va ||
            (uintptr_t)info.base + info.size > va + size) {
            return false;
        }
    }
    return true;
}

static umf_mock_status_t unmap_range(const void *addr, uint64_t size,
                                     unmap_rule_t rule) {
    uintptr_t va = (uintptr_t)addr;
    if (addr == NULL || size == 0) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (!page_multiple(va) || !page_multiple(size)) {
        return UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT;
    }
    pthread_mutex_lock(&lock);
    resv_t *r;
    size_t first, last;
    umf_mock_status_t status = UMF_MOCK_OK;
    // Checked before anything is split.
    if (rule != UNMAP_WITHIN &&
        (status = mapped_range(va, size, &r, &first)) == UMF_MOCK_OK &&
        rule == UNMAP_WHOLE && !whole_mappings(r, first, va, size)) {
        status = UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (status == UMF_MOCK_OK) {
        status = range_segments(va, size, true, &r, &first, &last);
    }
    if (status == UMF_MOCK_OK && first <= last && last < r->nsegs) {
        unmap_segments(r, first, last);
    }
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_va_unmap(const void *addr, uint64_t size,
                                    bool whole) {
    return unmap_range(addr, size, whole ? UNMAP_WHOLE : UNMAP_MAPPED);
}

umf_mock_status_t umf_mock_va_unmap_within(const void *addr, uint64_t size) {
    return unmap_range(addr, size, UNMAP_WITHIN);
}

// The unmapped pages of [va, va + size) in `r` get `access` for `devices`
// (under `lock`). False: out of host memory (some may have changed).
static bool hold_gaps(resv_t *r, uintptr_t va, uint64_t size, uint64_t devices,
                      umf_mock_access_t access) {
    uintptr_t cursor = va, end = va + size;
    for (size_t i = seg_index(r, va); cursor < end; i++) {
        uintptr_t gap_end =
            i < r->nsegs && r->segs[i].va < end ? r->segs[i].va : end;
        // One held range at a time: the devices outside the mask keep what
        // each part of the gap held.
        while (cursor < gap_end) {
            uintptr_t next;
            const held_t *h = held_at(r, cursor, &next);
            uint64_t read = h != NULL ? h->read : 0;
            uint64_t write = h != NULL ? h->write : 0;
            uintptr_t to = h != NULL ? h->va + h->size : next;
            to = to < gap_end ? to : gap_end;
            read = (access & UMF_MOCK_ACCESS_READ) != 0 ? read | devices
                                                        : read & ~devices;
            write = access == UMF_MOCK_ACCESS_READWRITE ? write | devices
                                                        : write & ~devices;
            if (!held_set(r, cursor, to - cursor, read, write)) {
                return false;
            }
            cursor = to;
        }
        if (i < r->nsegs && r->segs[i].va < end) {
            cursor = r->segs[i].va + r->segs[i].size;
        }
    }
    return true;
}

static umf_mock_status_t set_access(const void *addr, uint64_t size,
                                    uint64_t devices, umf_mock_access_t access,
                                    bool within) {
    uintptr_t va = (uintptr_t)addr;
    if (addr == NULL || size == 0 ||
        (access != UMF_MOCK_ACCESS_NONE && access != UMF_MOCK_ACCESS_READ &&
         access != UMF_MOCK_ACCESS_READWRITE)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    if (!page_multiple(va) || !page_multiple(size)) {
        return UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT;
    }
    devices = device_mask(devices);
    pthread_mutex_lock(&lock);
    resv_t *r;
    size_t first, last;
    umf_mock_status_t status =
        range_segments(va, size, within, &r, &first, &last);
    if (status != UMF_MOCK_OK) {
        goto out;
    }
    if (within && !hold_gaps(r, va, size, devices, access)) {
        status = UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        goto out;
    }
    if (first > last || last >= r->nsegs) {
        goto out;
    }
    for (size_t i = first; i <= last; i++) {
        seg_t *s = &r->segs[i];
        s->read = (access & UMF_MOCK_ACCESS_READ) != 0 ? s->read | devices
                                                       : s->read & ~devices;
        s->write = access == UMF_MOCK_ACCESS_READWRITE ? s->write | devices
                                                       : s->write & ~devices;
        if (mprotect((void *)s->va, s->size, prot_of(s->read, s->write)) != 0) {
            UMF_MOCK_LOG_ERROR("mprotect of mapped memory at 0x%" PRIxPTR
                               ": %s",
                               s->va, strerror(errno));
            status = UMF_MOCK_ERR_OS;
        }
    }
    seg_merge(r, first > 0 ? first - 1 : 0, last + 1);
out:
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_va_set_access(const void *addr, uint64_t size,
                                         uint64_t devices,
                                         umf_mock_access_t access) {
    return set_access(addr, size, devices, access, false);
}

umf_mock_status_t umf_mock_va_set_access_within(const void *addr, uint64_t size,
                                                uint64_t devices,
                                                umf_mock_access_t access) {
    return set_access(addr, size, devices, access, true);
}

umf_mock_status_t umf_mock_va_query(const void *addr,
                                    umf_mock_va_info_t *info) {
    uintptr_t va = (uintptr_t)addr;
    if (info == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_status_t status = UMF_MOCK_OK;
    pthread_mutex_lock(&lock);
    resv_t *r = resv_find(va, NULL);
    if (r == NULL) {
        status = UMF_MOCK_ERR_NOT_FOUND;
        goto out;
    }
    memset(info, 0, sizeof(*info));
    info->reservation = (void *)r->base;
    info->reservation_size = r->size;
    size_t i = seg_index(r, va);
    uintptr_t end = r->base + r->size;
    if (!seg_holds(r, i, va)) {
        // Unmapped up to the next segment or the reservation's end.
        // ... or to where what the pages hold changes.
        uintptr_t next = i < r->nsegs ? r->segs[i].va : end;
        uintptr_t held_next;
        const held_t *h = held_at(r, va, &held_next);
        if (h != NULL) {
            info->read_devices = h->read;
            info->write_devices = h->write;
            held_next = h->va + h->size;
        }
        next = held_next < next ? held_next : next;
        info->same_access = next - va;
        goto out;
    }
    const seg_t *s = &r->segs[i];
    info->mapped = true;
    info->phys = s->phys;
    info->phys_offset = s->offset + (va - s->va);
    info->read_devices = s->read;
    info->write_devices = s->write;
    umf_mock_alloc_info_t mapping;
    if (umf_mock_lookup(addr, &mapping) == UMF_MOCK_OK) {
        info->mapping = mapping.base;
        info->mapping_size = mapping.size;
    }
    uintptr_t cursor = s->va + s->size;
    for (size_t k = i + 1;
         k < r->nsegs && r->segs[k].va == cursor &&
         r->segs[k].read == s->read && r->segs[k].write == s->write;
         k++) {
        cursor += r->segs[k].size;
    }
    info->same_access = cursor - va;
out:
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_phys_query(umf_mock_phys_t *phys,
                                      umf_mock_phys_info_t *info) {
    if (info == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    if (phys_live(phys)) {
        phys_info(phys, info);
        // Mapped ranges using it: runs of its segments.
        for (size_t k = 0; k < nresvs; k++) {
            const resv_t *r = resvs[k];
            for (size_t i = 0; i < r->nsegs; i++) {
                if (r->segs[i].phys == phys && run_starts(r, i)) {
                    info->mappings++;
                }
            }
        }
        status = UMF_MOCK_OK;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_phys_retain_at(const void *addr,
                                          umf_mock_phys_t **out) {
    if (out == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    umf_mock_status_t status = UMF_MOCK_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    resv_t *r;
    size_t i;
    if (seg_at((uintptr_t)addr, &r, &i)) {
        phys_ref(r->segs[i].phys);
        *out = r->segs[i].phys;
        status = UMF_MOCK_OK;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_vmm_check(const void *ptr, uint64_t n, int device,
                                     bool write) {
    uintptr_t va = (uintptr_t)ptr;
    if (device < 0 || device >= 64 || n == 0) {
        return n == 0 ? UMF_MOCK_OK : UMF_MOCK_ERR_PERMISSION;
    }
    uint64_t bit = 1ull << device;
    umf_mock_status_t status = UMF_MOCK_OK;
    pthread_mutex_lock(&lock);
    resv_t *r;
    size_t i;
    status = mapped_range(va, n, &r, &i);
    if (status != UMF_MOCK_OK) {
        goto out;
    }
    for (; i < r->nsegs && r->segs[i].va < va + n; i++) {
        if (((write ? r->segs[i].write : r->segs[i].read) & bit) == 0) {
            status = UMF_MOCK_ERR_PERMISSION;
            break;
        }
    }
out:
    pthread_mutex_unlock(&lock);
    return status;
}

umf_mock_status_t umf_mock_vmm_mapped(const void *ptr, uint64_t n) {
    if (n == 0) {
        return UMF_MOCK_OK;
    }
    pthread_mutex_lock(&lock);
    resv_t *r;
    size_t i;
    umf_mock_status_t status = mapped_range((uintptr_t)ptr, n, &r, &i);
    pthread_mutex_unlock(&lock);
    return status;
}

// ---- Counts and the leak report -------------------------------------------

uint64_t umf_mock_vmm_count(umf_mock_vmm_count_t what) {
    uint64_t n = 0;
    pthread_mutex_lock(&lock);
    switch (what) {
    case UMF_MOCK_VMM_PHYS:
        n = live_phys;
        break;
    case UMF_MOCK_VMM_RESERVATIONS:
        n = nresvs;
        break;
    case UMF_MOCK_VMM_MAPPINGS:
        n = live_mappings;
        break;
    }
    pthread_mutex_unlock(&lock);
    return n;
}

typedef struct leak_walk_t {
    void (*fn)(const umf_mock_vmm_leak_t *, void *);
    void *ctx;
} leak_walk_t;

static void on_phys(unsigned kind, const void *handle, void *arg) {
    const leak_walk_t *w = arg;
    const umf_mock_phys_t *phys = handle;
    if (kind != UMF_MOCK_OBJECT_CORE_PHYS || phys->refs == 0) {
        return;
    }
    umf_mock_vmm_leak_t leak = {
        .id = phys->id,
        .size = phys->size,
        .device = phys->device,
        .imported = phys->imported,
    };
    w->fn(&leak, w->ctx);
}

void umf_mock_vmm_foreach_leak(void (*fn)(const umf_mock_vmm_leak_t *, void *),
                               void *ctx) {
    leak_walk_t w = {fn, ctx};
    pthread_mutex_lock(&lock);
    umf_mock_object_foreach(on_phys, &w);
    for (size_t k = 0; k < nresvs; k++) {
        umf_mock_vmm_leak_t leak = {
            .reservation = true,
            .base = resvs[k]->base,
            .size = resvs[k]->size,
            .device = -1,
        };
        fn(&leak, ctx);
    }
    pthread_mutex_unlock(&lock);
}

// ---- Releasing an owner
// ------------------------------------------------------

typedef struct owner_walk_t {
    uintptr_t owner;
    umf_mock_phys_t **found;
    size_t count, cap;
    bool failed;
} owner_walk_t;

static void on_owned_phys(unsigned kind, const void *handle, void *arg) {
    owner_walk_t *w = arg;
    umf_mock_phys_t *phys = (umf_mock_phys_t *)handle;
    if (kind != UMF_MOCK_OBJECT_CORE_PHYS || phys->refs == 0 ||
        phys->owner != w->owner) {
        return;
    }
    if (w->count == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 16;
        umf_mock_phys_t **n = realloc(w->found, cap * sizeof(*n));
        if (n == NULL) {
            w->failed = true;
            return;
        }
        w->found = n;
        w->cap = cap;
    }
    w->found[w->count++] = phys;
}

size_t umf_mock_vmm_release_owner(uintptr_t owner) {
    size_t n = 0;
    pthread_mutex_lock(&lock);
    // Reservations first: what is mapped in them goes with them.
    for (size_t k = nresvs; k-- > 0;) {
        resv_t *r = resvs[k];
        if (r->owner != owner) {
            continue;
        }
        if (r->nsegs > 0) {
            unmap_segments(r, 0, r->nsegs - 1);
        }
        munmap((void *)r->base, r->size);
        memmove(&resvs[k], &resvs[k + 1], (nresvs - k - 1) * sizeof(*resvs));
        nresvs--;
        free(r->segs);
        free(r->held);
        free(r);
        n++;
    }
    // Then every handle reference of the owner's physical objects (one
    // still mapped in another owner's reservation lives until unmapped).
    owner_walk_t w = {.owner = owner};
    umf_mock_object_foreach(on_owned_phys, &w);
    if (w.failed) {
        UMF_MOCK_LOG_ERROR("out of host memory: physical memory of a "
                           "destroyed context stays");
    }
    for (size_t i = 0; i < w.count; i++) {
        for (uint64_t refs = w.found[i]->refs; refs > 0; refs--) {
            phys_unref(w.found[i]); // the last one may free it
        }
        n++;
    }
    pthread_mutex_unlock(&lock);
    free(w.found);
    return n;
}
