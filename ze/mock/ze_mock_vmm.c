// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Virtual and physical memory (zeVirtualMem*, zePhysicalMem*) on the VMM
// emulation both drivers share (mock/mock_vmm.h), and the IPC of memory
// mapped from physical memory.
//
// A physical memory handle is the core's object; reservations and mappings
// carry the context as their owner, so that zeContextDestroy releases them.
// Access is not per device in Level Zero: an access attribute applies to
// every device. Page sizes are those zeVirtualMemQueryPageSize reports: 2
// MiB for sizes from 2 MiB on, the system page below.
//
// zeMemGetIpcHandle of mapped memory shares the mapping (the whole mapped
// range holding the pointer): its handle, told apart from an allocation's
// by its magic, holds a file descriptor of the physical memory (the
// driver's, one per physical object, kept until the object is destroyed or
// the handle is put back), the offset of the mapping in it and its size.
// zeMemOpenIpcHandle of such a handle makes a physical object of the same
// memory in the importing process, reserves address space and maps it, as
// a real driver does; zeMemCloseIpcHandle undoes all three.

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mock_bytes.h"
#include "mock_vmm.h"
#include "ze_mock_internal.h"

#define BIG_PAGE (2u << 20)

size_t ze_mock_vmm_page_size(size_t size) {
    return size >= BIG_PAGE ? BIG_PAGE : umf_mock_page_size;
}

static bool aligned(uint64_t v, uint64_t page) {
    return v % page == 0;
}

static umf_mock_access_t access_of(ze_memory_access_attribute_t a) {
    return a == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE ? UMF_MOCK_ACCESS_READWRITE
           : a == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY ? UMF_MOCK_ACCESS_READ
                                                      : UMF_MOCK_ACCESS_NONE;
}

// ---- Physical memory --------------------------------------------------------

// The physical object of a handle, with what it is; NULL when the handle is
// not a live object.
static umf_mock_phys_t *phys_of(ze_physical_mem_handle_t h,
                                umf_mock_phys_info_t *info) {
    umf_mock_phys_t *phys = (umf_mock_phys_t *)h;
    return phys != NULL && umf_mock_phys_query(phys, info) == UMF_MOCK_OK
               ? phys
               : NULL;
}

static ze_result_t ZE_APICALL mock_PhysicalMemCreate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    ze_physical_mem_desc_t *desc, ze_physical_mem_handle_t *phPhysicalMemory) {
    ZE_MOCK_ENTER(zePhysicalMemCreate);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    if (desc == NULL || phPhysicalMemory == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->flags & ~(ze_physical_mem_flags_t)ZE_PHYSICAL_MEM_FLAG_TBD) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->size == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    // ze_api.h lists UNSUPPORTED_ALIGNMENT among the results, but Intel's
    // driver answers a size that is not a multiple of the page size with
    // UNSUPPORTED_SIZE (compute-runtime's Context::createPhysicalMem), and
    // the Unified Runtime's tests expect that: so does this one.
    if (!aligned(desc->size, ze_mock_vmm_page_size(desc->size))) {
        ZE_MOCK_EXPLAIN("zePhysicalMemCreate: %zu bytes, not a multiple of "
                        "the page size zeVirtualMemQueryPageSize gives (%zu)",
                        desc->size, ze_mock_vmm_page_size(desc->size));
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    umf_mock_phys_t *phys;
    ze_result_t r = ze_mock_result(umf_mock_phys_create(
        (int)dev->index, desc->size, (uintptr_t)ctx, 0, &phys));
    if (r == ZE_RESULT_SUCCESS) {
        *phPhysicalMemory = (ze_physical_mem_handle_t)phys;
    }
    return r;
}

// Forgets the export fd of a physical object (ze_mock_vmm_ipc below).
static void forget_export(umf_mock_phys_t *phys);
static size_t release_context(ze_mock_context_t *ctx);

static ze_result_t ZE_APICALL mock_PhysicalMemDestroy(
    ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMemory) {
    ZE_MOCK_ENTER(zePhysicalMemDestroy);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    umf_mock_phys_info_t info;
    umf_mock_phys_t *phys = phys_of(hPhysicalMemory, &info);
    if (phys == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    umf_mock_status_t s = umf_mock_phys_release(phys, true);
    if (s == UMF_MOCK_ERR_ALREADY_MAPPED) {
        ZE_MOCK_EXPLAIN("zePhysicalMemDestroy: physical memory #%" PRIu64
                        " is still mapped",
                        info.id);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    }
    if (s == UMF_MOCK_OK) {
        forget_export(phys);
    }
    return s == UMF_MOCK_ERR_NOT_FOUND
               ? ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
               : ze_mock_result(s);
}

// 1.15: "unique identifier for the physical memory object" (the core's id,
// unique in the process and never reused) and its size. The stype is not
// checked, as no other properties query of the driver checks it; a
// structure chained on pNext is left as it is (no extension of it is
// implemented: an export fd stays as the caller set it).
static ze_result_t ZE_APICALL mock_PhysicalMemGetProperties(
    ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
    ze_mock_physical_mem_properties_t *pMemProperties) {
    ZE_MOCK_ENTER(zePhysicalMemGetProperties);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    umf_mock_phys_info_t info;
    umf_mock_phys_t *phys = phys_of(hPhysicalMem, &info);
    if (phys == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (pMemProperties == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    pMemProperties->id = info.id;
    pMemProperties->size = info.size;
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_physical_mem(ze_mock_physical_mem_dditable_t *t) {
    ze_mock_context_release_register(release_context);
    t->v1_4.pfnCreate = mock_PhysicalMemCreate;
    t->v1_4.pfnDestroy = mock_PhysicalMemDestroy;
    t->pfnGetProperties = mock_PhysicalMemGetProperties;
}

// ---- Reservations -----------------------------------------------------------

static ze_result_t ZE_APICALL
mock_VirtualMemReserve(ze_context_handle_t hContext, const void *pStart,
                       size_t size, void **pptr) {
    ZE_MOCK_ENTER(zeVirtualMemReserve);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    // pStart may be NULL ("the implementation will choose a start
    // address"), whatever its INVALID_NULL_POINTER clause says.
    if (pptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    size_t page = ze_mock_vmm_page_size(size);
    if (size == 0 || !aligned(size, page)) {
        if (size != 0) {
            ZE_MOCK_EXPLAIN("zeVirtualMemReserve: %zu bytes, not a multiple "
                            "of the page size (%zu)",
                            size, page);
        }
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    // A start that is not free (or not aligned) is a hint the driver
    // passes over, as the spec allows.
    uintptr_t hint = (uintptr_t)pStart;
    if (!aligned(hint, page)) {
        hint = 0;
    }
    return ze_mock_result(
        umf_mock_va_reserve(size, page, hint, (uintptr_t)ctx, pptr));
}

static ze_result_t ZE_APICALL mock_VirtualMemFree(ze_context_handle_t hContext,
                                                  const void *ptr,
                                                  size_t size) {
    ZE_MOCK_ENTER(zeVirtualMemFree);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (size == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (!aligned((uintptr_t)ptr, umf_mock_page_size) ||
        !aligned(size, umf_mock_page_size)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    }
    umf_mock_status_t s = umf_mock_va_free(ptr, size, NULL);
    if (s == UMF_MOCK_ERR_NOT_FOUND) {
        ZE_MOCK_EXPLAIN("zeVirtualMemFree(%p, %zu): no reservation starts "
                        "there with that size",
                        ptr, size);
    }
    return ze_mock_result(s);
}

static ze_result_t ZE_APICALL mock_VirtualMemQueryPageSize(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, size_t size,
    size_t *pagesize) {
    ZE_MOCK_ENTER(zeVirtualMemQueryPageSize);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    if (pagesize == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (size == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    *pagesize = ze_mock_vmm_page_size(size);
    return ZE_RESULT_SUCCESS;
}

// ---- Mappings ---------------------------------------------------------------

// The checks of a range operation: ptr, size (0 and alignment) as the spec
// orders them.
static ze_result_t check_range(const void *ptr, size_t size) {
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (!aligned((uintptr_t)ptr, umf_mock_page_size)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    }
    if (size == 0 || !aligned(size, umf_mock_page_size)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_VirtualMemMap(ze_context_handle_t hContext, const void *ptr, size_t size,
                   ze_physical_mem_handle_t hPhysicalMemory, size_t offset,
                   ze_memory_access_attribute_t access) {
    ZE_MOCK_ENTER(zeVirtualMemMap);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    umf_mock_phys_info_t info;
    umf_mock_phys_t *phys = phys_of(hPhysicalMemory, &info);
    if (phys == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (size == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (!aligned((uintptr_t)ptr, umf_mock_page_size) ||
        !aligned(size, umf_mock_page_size) ||
        !aligned(offset, umf_mock_page_size)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    }
    umf_mock_status_t s =
        umf_mock_va_map(ptr, size, phys, offset, (uintptr_t)ctx);
    if (s == UMF_MOCK_OK) {
        s = umf_mock_va_set_access(ptr, size, UMF_MOCK_ALL_DEVICES,
                                   access_of(access));
        if (s != UMF_MOCK_OK) {
            (void)umf_mock_va_unmap(ptr, size, false);
        }
    }
    if (s != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN(
            "zeVirtualMemMap(%p, %zu bytes of physical memory #%" PRIu64
            " from %zu): %s",
            ptr, size, info.id, offset,
            s == UMF_MOCK_ERR_NOT_FOUND ? "not inside one reservation"
            : s == UMF_MOCK_ERR_ALREADY_MAPPED
                ? "part of the range is mapped already"
            : s == UMF_MOCK_ERR_INVALID_ARGUMENT
                ? "past the end of the physical memory"
                : umf_mock_status_name(s));
    }
    return ze_mock_result(s);
}

static ze_result_t ZE_APICALL mock_VirtualMemUnmap(ze_context_handle_t hContext,
                                                   const void *ptr,
                                                   size_t size) {
    ZE_MOCK_ENTER(zeVirtualMemUnmap);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    ze_result_t r = check_range(ptr, size);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    // Any page range of a reservation, cutting mappings where it must; what
    // is not mapped (any more) is left as it is, as Intel's driver does.
    umf_mock_status_t s = umf_mock_va_unmap_within(ptr, size);
    if (s == UMF_MOCK_ERR_NOT_FOUND) {
        ZE_MOCK_EXPLAIN("zeVirtualMemUnmap(%p, %zu): not inside one "
                        "reservation",
                        ptr, size);
    }
    return ze_mock_result(s);
}

static ze_result_t ZE_APICALL mock_VirtualMemSetAccessAttribute(
    ze_context_handle_t hContext, const void *ptr, size_t size,
    ze_memory_access_attribute_t access) {
    ZE_MOCK_ENTER(zeVirtualMemSetAccessAttribute);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    ze_result_t r = check_range(ptr, size);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    // Any page range of a reservation ("a reserved virtual address
    // region"), as on Intel's driver: its mapped pages change, and the
    // others keep the attribute (zeVirtualMemGetAccessAttribute reads it)
    // until they are mapped, with the access the mapping gives them.
    umf_mock_status_t s = umf_mock_va_set_access_within(
        ptr, size, UMF_MOCK_ALL_DEVICES, access_of(access));
    if (s == UMF_MOCK_ERR_NOT_FOUND) {
        ZE_MOCK_EXPLAIN("zeVirtualMemSetAccessAttribute(%p, %zu): not inside "
                        "one reservation",
                        ptr, size);
    }
    return ze_mock_result(s);
}

// Every device has the same access here: any device's mask tells.
static ze_memory_access_attribute_t
attribute_of(const umf_mock_va_info_t *info) {
    return info->write_devices != 0  ? ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE
           : info->read_devices != 0 ? ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY
                                     : ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
}

static ze_result_t ZE_APICALL mock_VirtualMemGetAccessAttribute(
    ze_context_handle_t hContext, const void *ptr, size_t size,
    ze_memory_access_attribute_t *access, size_t *outSize) {
    ZE_MOCK_ENTER(zeVirtualMemGetAccessAttribute);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL || access == NULL || outSize == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_result_t r = check_range(ptr, size);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    umf_mock_va_info_t info;
    if (umf_mock_va_query(ptr, &info) != UMF_MOCK_OK) {
        ZE_MOCK_EXPLAIN("zeVirtualMemGetAccessAttribute(%p): not in a "
                        "reservation",
                        ptr);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    *access = attribute_of(&info);
    // "If size and outSize are equal then the pages in the specified
    // virtual address range have the same access attributes": the run goes
    // on over mapped and unmapped pages alike while the attribute stays.
    const char *end = (const char *)info.reservation + info.reservation_size;
    size_t same = 0;
    do {
        same += (size_t)info.same_access;
    } while (same < size && (const char *)ptr + same < end &&
             umf_mock_va_query((const char *)ptr + same, &info) ==
                 UMF_MOCK_OK &&
             attribute_of(&info) == *access);
    *outSize = same < size ? same : size;
    return ZE_RESULT_SUCCESS;
}

void ze_mock_fill_virtual_mem(ze_virtual_mem_dditable_t *t) {
    ze_mock_context_release_register(release_context);
    t->pfnReserve = mock_VirtualMemReserve;
    t->pfnFree = mock_VirtualMemFree;
    t->pfnQueryPageSize = mock_VirtualMemQueryPageSize;
    t->pfnMap = mock_VirtualMemMap;
    t->pfnUnmap = mock_VirtualMemUnmap;
    t->pfnSetAccessAttribute = mock_VirtualMemSetAccessAttribute;
    t->pfnGetAccessAttribute = mock_VirtualMemGetAccessAttribute;
}

// ---- IPC of mapped memory ---------------------------------------------------
//
// Handle bytes: 0 fd | 4 zero | 8 magic | 12 version | 16 pid | 20 checksum
//               | 24 offset | 32 size | 40 physical size | 48 physical id
//               | 56 zero
// The checksum covers bytes 8-19 and 24-63.

#define VMM_HANDLE_MAGIC 0x4d564755u // "UGVM"
#define VMM_HANDLE_VERSION 1u

typedef struct vmm_desc_t {
    int fd, pid;
    uint64_t offset, size, phys_size, phys_id;
} vmm_desc_t;

static uint32_t vmm_checksum(const unsigned char *h) {
    return umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 8, 12), h + 24,
                          40);
}

static void vmm_pack(const vmm_desc_t *d, unsigned char h[64]) {
    memset(h, 0, 64);
    umf_mock_put32(h + 0, (uint32_t)d->fd);
    umf_mock_put32(h + 8, VMM_HANDLE_MAGIC);
    umf_mock_put32(h + 12, VMM_HANDLE_VERSION);
    umf_mock_put32(h + 16, (uint32_t)d->pid);
    umf_mock_put64(h + 24, d->offset);
    umf_mock_put64(h + 32, d->size);
    umf_mock_put64(h + 40, d->phys_size);
    umf_mock_put64(h + 48, d->phys_id);
    umf_mock_put32(h + 20, vmm_checksum(h));
}

bool ze_mock_vmm_handle(const unsigned char h[64]) {
    return umf_mock_get32(h + 8) == VMM_HANDLE_MAGIC;
}

static bool vmm_unpack(const unsigned char h[64], vmm_desc_t *d) {
    if (umf_mock_get32(h + 8) != VMM_HANDLE_MAGIC ||
        umf_mock_get32(h + 12) != VMM_HANDLE_VERSION ||
        umf_mock_get32(h + 20) != vmm_checksum(h) ||
        umf_mock_get32(h + 4) != 0 || umf_mock_get64(h + 56) != 0) {
        return false;
    }
    d->fd = (int)umf_mock_get32(h + 0);
    d->pid = (int)umf_mock_get32(h + 16);
    d->offset = umf_mock_get64(h + 24);
    d->size = umf_mock_get64(h + 32);
    d->phys_size = umf_mock_get64(h + 40);
    d->phys_id = umf_mock_get64(h + 48);
    return d->fd >= 0 && d->pid > 0 && d->size > 0 &&
           aligned(d->offset, umf_mock_page_size) &&
           aligned(d->size, umf_mock_page_size) &&
           d->size <= UMF_MOCK_MAX_ALLOC_SIZE && d->offset <= d->phys_size &&
           d->size <= d->phys_size - d->offset;
}

// The driver's export fds (one per exported physical object) and the
// imports of this process, under one lock.
typedef struct vmm_export_t {
    struct vmm_export_t *next;
    umf_mock_phys_t *phys;
    uint64_t phys_id;
    int fd;
    vmm_desc_t last; // the handle it last made (for the fd -> handle call)
} vmm_export_t;

typedef struct vmm_import_t {
    struct vmm_import_t *next;
    void *base;
    uint64_t size;
    umf_mock_phys_t *phys;
    ze_mock_context_t *ctx;
} vmm_import_t;

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static vmm_export_t *exports;
static vmm_import_t *imports;

static void forget_export(umf_mock_phys_t *phys) {
    pthread_mutex_lock(&vmm_lock);
    for (vmm_export_t **p = &exports; *p != NULL; p = &(*p)->next) {
        if ((*p)->phys == phys) {
            vmm_export_t *e = *p;
            *p = e->next;
            close(e->fd);
            free(e);
            break;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
}

ze_result_t ze_mock_vmm_get_ipc_handle(const void *ptr,
                                       ze_ipc_mem_handle_t *h) {
    umf_mock_va_info_t va;
    if (umf_mock_va_query(ptr, &va) != UMF_MOCK_OK || !va.mapped) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    umf_mock_phys_info_t info;
    if (umf_mock_phys_query(va.phys, &info) != UMF_MOCK_OK) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    vmm_desc_t d = {
        .fd = -1,
        .pid = (int)getpid(),
        .offset = va.phys_offset - ((uintptr_t)ptr - (uintptr_t)va.mapping),
        .size = va.mapping_size,
        .phys_size = info.size,
        .phys_id = info.id,
    };
    ze_result_t r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&vmm_lock);
    vmm_export_t *e = exports;
    while (e != NULL && !(e->phys == va.phys && e->phys_id == info.id)) {
        e = e->next;
    }
    if (e == NULL) {
        e = calloc(1, sizeof(*e));
        umf_mock_status_t s = e == NULL
                                  ? UMF_MOCK_ERR_OUT_OF_HOST_MEMORY
                                  : umf_mock_phys_export_fd(va.phys, &d.fd);
        if (s != UMF_MOCK_OK) {
            free(e);
            e = NULL;
            r = ze_mock_result(s);
        } else {
            *e = (vmm_export_t){exports, va.phys, info.id, d.fd, d};
            exports = e;
        }
    }
    if (e != NULL) {
        d.fd = e->fd;
        e->last = d;
    }
    pthread_mutex_unlock(&vmm_lock);
    if (r == ZE_RESULT_SUCCESS) {
        vmm_pack(&d, (unsigned char *)h->data);
    }
    return r;
}

bool ze_mock_vmm_handle_fd(const unsigned char h[64], int *fd) {
    vmm_desc_t d;
    if (!vmm_unpack(h, &d)) {
        return false;
    }
    *fd = d.fd;
    return true;
}

bool ze_mock_vmm_handle_of_fd(int fd, ze_ipc_mem_handle_t *h) {
    vmm_desc_t d = {.fd = -1};
    pthread_mutex_lock(&vmm_lock);
    for (vmm_export_t *e = exports; e != NULL; e = e->next) {
        if (e->fd == fd) {
            d = e->last;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    if (d.fd < 0) {
        return false;
    }
    vmm_pack(&d, (unsigned char *)h->data);
    return true;
}

ze_result_t ze_mock_vmm_put_ipc_handle(const unsigned char h[64]) {
    vmm_desc_t d;
    if (!vmm_unpack(h, &d)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    pthread_mutex_lock(&vmm_lock);
    for (vmm_export_t **p = &exports; *p != NULL; p = &(*p)->next) {
        if ((*p)->fd == d.fd && (*p)->phys_id == d.phys_id &&
            d.pid == (int)getpid()) {
            vmm_export_t *e = *p;
            *p = e->next;
            close(e->fd);
            free(e);
            break;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ze_mock_vmm_open_ipc_handle(ze_mock_context_t *ctx,
                                        const unsigned char h[64],
                                        void **pptr) {
    vmm_desc_t d;
    if (!vmm_unpack(h, &d)) {
        ZE_MOCK_EXPLAIN("zeMemOpenIpcHandle: not an IPC handle of this "
                        "driver (corrupt or truncated)");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    vmm_import_t *imp = calloc(1, sizeof(*imp));
    if (imp == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    umf_mock_status_t s =
        umf_mock_phys_import_fd(d.fd, (uintptr_t)ctx, 0, &imp->phys);
    if (s != UMF_MOCK_OK) {
        free(imp);
        ZE_MOCK_EXPLAIN("zeMemOpenIpcHandle: fd %d is not the physical "
                        "memory of an IPC handle",
                        d.fd);
        return ze_mock_result(s);
    }
    s = umf_mock_va_reserve(d.size, ze_mock_vmm_page_size(d.size), 0,
                            (uintptr_t)ctx, &imp->base);
    if (s == UMF_MOCK_OK) {
        s = umf_mock_va_map(imp->base, d.size, imp->phys, d.offset,
                            (uintptr_t)ctx);
        if (s == UMF_MOCK_OK) {
            s = umf_mock_va_set_access(imp->base, d.size, UMF_MOCK_ALL_DEVICES,
                                       UMF_MOCK_ACCESS_READWRITE);
        }
        if (s != UMF_MOCK_OK) {
            (void)umf_mock_va_free(imp->base, d.size, NULL);
        }
    }
    if (s != UMF_MOCK_OK) {
        (void)umf_mock_phys_release(imp->phys, false);
        free(imp);
        return ze_mock_result(s);
    }
    imp->size = d.size;
    imp->ctx = ctx;
    pthread_mutex_lock(&vmm_lock);
    imp->next = imports;
    imports = imp;
    pthread_mutex_unlock(&vmm_lock);
    *pptr = imp->base;
    return ZE_RESULT_SUCCESS;
}

static void import_release(vmm_import_t *imp) {
    (void)umf_mock_va_free(imp->base, imp->size, NULL);
    (void)umf_mock_phys_release(imp->phys, false);
    free(imp);
}

bool ze_mock_vmm_close_ipc_handle(ze_mock_context_t *ctx, const void *ptr) {
    vmm_import_t *found = NULL;
    pthread_mutex_lock(&vmm_lock);
    for (vmm_import_t **p = &imports; *p != NULL; p = &(*p)->next) {
        if ((*p)->base == ptr && (*p)->ctx == ctx) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    if (found != NULL) {
        import_release(found);
    }
    return found != NULL;
}

// Releases what `ctx` reserved, mapped, made and opened (zeContextDestroy,
// registered with the core); returns how many.
static size_t release_context(ze_mock_context_t *ctx) {
    size_t n = 0;
    for (;;) {
        vmm_import_t *found = NULL;
        pthread_mutex_lock(&vmm_lock);
        for (vmm_import_t **p = &imports; *p != NULL; p = &(*p)->next) {
            if ((*p)->ctx == ctx) {
                found = *p;
                *p = found->next;
                break;
            }
        }
        pthread_mutex_unlock(&vmm_lock);
        if (found == NULL) {
            break;
        }
        import_release(found);
        n++;
    }
    // Then the reservations (and what is mapped in them) and the physical
    // objects the application made.
    return n + umf_mock_vmm_release_owner((uintptr_t)ctx);
}
