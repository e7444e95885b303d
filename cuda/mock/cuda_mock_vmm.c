// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Virtual memory management: cuMemCreate and its handles, address
// reservations, cuMemMap / cuMemUnmap, per-device access, and export and
// import of a handle as a POSIX file descriptor, on the core's model
// (mock_vmm.h). This file checks CUDA's arguments and maps results:
//
// - Granularity: 2 MiB, minimum and recommended, as on NVIDIA GPUs. Sizes
//   of cuMemCreate and cuMemMap, mapping addresses, and reservations (their
//   base is aligned to at least the granularity) follow it.
// - Only pinned device memory (CU_MEM_ALLOCATION_TYPE_PINNED at a
//   CU_MEM_LOCATION_TYPE_DEVICE location) is emulated, exportable as a
//   POSIX file descriptor, as a fabric handle, or not at all; other
//   locations and handle types are CUDA_ERROR_NOT_SUPPORTED.
// - Fabric handles (CU_MEM_HANDLE_TYPE_FABRIC), as NVIDIA's driver makes
//   them for one NVLink domain, with the machine as the domain: 64 bytes
//   that any process of the machine (of a uid the exporter's fd server
//   allows) can import while the exporter's physical allocation lives, with
//   no fd passed by the caller. The handle names the allocation's own
//   memfd in the exporter (pid, identity, fd number, file inode), which the
//   importer takes as the legacy IPC handles' fds are taken (pidfd_getfd,
//   else the exporter's fd server) and proves to be the file exported.
//   The exporter serves it from the first export until the allocation is
//   gone (its last cuMemRelease or cuMemUnmap). A forged, corrupted or
//   stale handle is CUDA_ERROR_INVALID_VALUE. There is no IMEX channel to
//   check: access is the fd server's uid rule.
// - A handle (CUmemGenericAllocationHandle) is the address of the core's
//   physical object; anything that is not a live handle is
//   CUDA_ERROR_INVALID_VALUE, never a crash.
// - VMM memory belongs to no context; the calls need cuInit only.

#include "cuda_mock_core.h"
#include "util_hash_map.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define GRANULARITY ((size_t)2 << 20)

// The handle types this driver can export.
#define HANDLE_TYPES                                                           \
    ((unsigned)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR |                      \
     (unsigned)CU_MEM_HANDLE_TYPE_FABRIC)

// "UMFCUFAB": the magic number of a fabric handle.
#define FABRIC_MAGIC 0x4241465543464d55ull

// A fabric handle's 64 bytes.
typedef struct fabric_wire_t {
    int32_t fd;  // the physical allocation's own memfd in the exporter
    int32_t pid; // the exporter
    uint64_t magic;
    uint64_t id; // the physical allocation's id in the exporter
    uint64_t start_time, pidfs_ino; // who the exporter is
    uint64_t file_ino;              // the memfd's inode
    uint64_t reserved;              // 0
    uint8_t served;                 // umf_fd_socket_kind_t
    uint8_t pad[3];                 // 0
    uint32_t check;                 // of the bytes before it
} fabric_wire_t;
_Static_assert(sizeof(fabric_wire_t) == sizeof(CUmemFabricHandle),
               "a fabric handle is 64 bytes");

// The key the fd server serves a physical allocation's fd under: its id,
// with the top bit set so that no allocation's base (the legacy handles'
// key) is the same.
static uint64_t fabric_key(uint64_t phys_id) {
    return phys_id | (1ull << 63);
}

// What cuMemGetAllocationPropertiesFromHandle gives back, kept in the core's
// user flags: the requested handle types (bits 0-7), gpuDirectRDMACapable
// (bit 8), the usage bits (16-31).
static uint32_t prop_flags(const CUmemAllocationProp *prop) {
    return ((uint32_t)prop->requestedHandleTypes & 0xffu) |
           ((prop->allocFlags.gpuDirectRDMACapable != 0) ? 1u << 8 : 0u) |
           ((uint32_t)prop->allocFlags.usage << 16);
}

static bool aligned(uint64_t v) {
    return v % GRANULARITY == 0;
}

static umf_mock_phys_t *phys_of(CUmemGenericAllocationHandle handle) {
    return (umf_mock_phys_t *)(uintptr_t)handle;
}

// Checks a property structure of cuMemCreate and
// cuMemGetAllocationGranularity: CUDA_SUCCESS when this driver can make
// such memory.
static CUresult check_prop(const CUmemAllocationProp *prop, const char *call) {
    if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED) {
        UMF_MOCK_LOG_ERROR("%s: allocation type %d is not "
                           "CU_MEM_ALLOCATION_TYPE_PINNED",
                           call, (int)prop->type);
        return prop->type == CU_MEM_ALLOCATION_TYPE_MANAGED
                   ? CUDA_ERROR_NOT_SUPPORTED
                   : CUDA_ERROR_INVALID_VALUE;
    }
    if (prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
        UMF_MOCK_LOG_ERROR("%s: location type %d: the emulated devices make "
                           "device memory only",
                           call, (int)prop->location.type);
        return prop->location.type == CU_MEM_LOCATION_TYPE_HOST ||
                       prop->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA
                   ? CUDA_ERROR_NOT_SUPPORTED
                   : CUDA_ERROR_INVALID_VALUE;
    }
    if (prop->location.id < 0 ||
        (unsigned)prop->location.id >= umf_mock_device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    unsigned types = (unsigned)prop->requestedHandleTypes;
    if ((types & ~HANDLE_TYPES) != 0) {
        UMF_MOCK_LOG_ERROR("%s: handle types 0x%x: the emulated driver "
                           "exports POSIX file descriptors and fabric "
                           "handles only",
                           call, types);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (prop->win32HandleMetaData != NULL) {
        return CUDA_ERROR_INVALID_VALUE; // "required to be zero"
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemGetAllocationGranularity(
    size_t *granularity, const CUmemAllocationProp *prop,
    CUmemAllocationGranularity_flags option) {
    CUDA_MOCK_ENTER(cuMemGetAllocationGranularity);
    if (granularity == NULL || prop == NULL ||
        (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
         option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_prop(prop, "cuMemGetAllocationGranularity");
    if (res != CUDA_SUCCESS) {
        // cuda.h lists no CUDA_ERROR_INVALID_DEVICE here.
        return res == CUDA_ERROR_INVALID_DEVICE ? CUDA_ERROR_INVALID_VALUE
                                                : res;
    }
    *granularity = GRANULARITY;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemCreate(CUmemGenericAllocationHandle *handle,
                                   size_t size, const CUmemAllocationProp *prop,
                                   unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemCreate);
    if (handle == NULL || prop == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_prop(prop, "cuMemCreate");
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (size == 0 || !aligned(size)) {
        UMF_MOCK_LOG_ERROR("cuMemCreate: %zu bytes is not a multiple of the "
                           "granularity (%zu)",
                           size, GRANULARITY);
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_phys_t *phys;
    umf_mock_status_t status = umf_mock_phys_create(prop->location.id, size, 0,
                                                    prop_flags(prop), &phys);
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_INFO("cuMemCreate(%zu bytes on device %d): %s", size,
                          prop->location.id, umf_mock_status_name(status));
        return status == UMF_MOCK_ERR_UNSUPPORTED_SIZE
                   ? CUDA_ERROR_OUT_OF_MEMORY
                   : cuda_mock_result_of(status);
    }
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)phys;
    return CUDA_SUCCESS;
}

// After a release or unmap of `phys` (whose id was `id`): if it is gone,
// its fabric handles go unserved.
static void fabric_revoke_if_gone(umf_mock_phys_t *phys, uint64_t id) {
    uint64_t now;
    if (umf_mock_phys_id(phys, &now) != UMF_MOCK_OK || now != id) {
        umf_fd_server_revoke(0, fabric_key(id));
    }
}

CUDA_MOCK_API CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
    CUDA_MOCK_ENTER(cuMemRelease);
    umf_mock_phys_info_t info;
    if (umf_mock_phys_query(phys_of(handle), &info) != UMF_MOCK_OK ||
        umf_mock_phys_release(phys_of(handle), false) != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuMemRelease(0x%llx): not a live handle",
                           (unsigned long long)handle);
        return CUDA_ERROR_INVALID_VALUE;
    }
    fabric_revoke_if_gone(phys_of(handle), info.id); // still mapped: kept
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult
cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr) {
    CUDA_MOCK_ENTER(cuMemRetainAllocationHandle);
    if (handle == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_phys_t *phys;
    if (umf_mock_phys_retain_at(addr, &phys) != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuMemRetainAllocationHandle(%p): nothing is "
                           "mapped there",
                           addr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)phys;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemGetAllocationPropertiesFromHandle(
    CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle) {
    CUDA_MOCK_ENTER(cuMemGetAllocationPropertiesFromHandle);
    if (prop == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_phys_info_t info;
    if (umf_mock_phys_query(phys_of(handle), &info) != UMF_MOCK_OK) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUmemAllocationProp p = {0};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.requestedHandleTypes =
        (CUmemAllocationHandleType)(info.user_flags & 0xffu);
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = info.device;
    // No compression: callers are told to check this field.
    p.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_NONE;
    p.allocFlags.gpuDirectRDMACapable = (info.user_flags >> 8) & 1u;
    p.allocFlags.usage = (unsigned short)(info.user_flags >> 16);
    *prop = p;
    return CUDA_SUCCESS;
}

// The check of a fabric handle's bytes before `check`.
static uint32_t fabric_check(const fabric_wire_t *w) {
    const unsigned char *b = (const unsigned char *)w;
    uint64_t h = FABRIC_MAGIC;
    for (size_t i = 0; i < offsetof(fabric_wire_t, check); i += 4) {
        uint32_t word;
        memcpy(&word, b + i, sizeof(word));
        h = umf_hash_u64(h ^ word);
    }
    return (uint32_t)(h ^ (h >> 32));
}

// Writes the fabric handle of `phys` to `out` (a CUmemFabricHandle) and
// serves the allocation's fd.
static CUresult fabric_export(umf_mock_phys_t *phys, void *out) {
    umf_mock_phys_info_t info;
    int fd;
    uint64_t ino;
    if (umf_mock_phys_query(phys, &info) != UMF_MOCK_OK ||
        umf_mock_phys_own_fd(phys, &fd, &ino) != UMF_MOCK_OK) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_fd_origin_t o;
    umf_mock_fd_origin_self(&o);
    o.fd = fd;
    o.id = info.id;
    o.file_ino = ino;
    umf_mock_fd_serve(&o, fabric_key(info.id));
    fabric_wire_t w;
    memset(&w, 0, sizeof(w));
    w.fd = fd;
    w.pid = o.pid;
    w.magic = FABRIC_MAGIC;
    w.id = info.id;
    w.start_time = o.start_time;
    w.pidfs_ino = o.pidfs_ino;
    w.file_ino = ino;
    w.served = o.served;
    w.check = fabric_check(&w);
    memcpy(out, &w, sizeof(w));
    return CUDA_SUCCESS;
}

// Imports the fabric handle at `bytes`: its exporter's fd, proven to be the
// file exported, as a new physical object here.
static CUresult fabric_import(const void *bytes, umf_mock_phys_t **phys) {
    fabric_wire_t w;
    memcpy(&w, bytes, sizeof(w));
    static const uint8_t zero[sizeof(w.pad)];
    if (w.magic != FABRIC_MAGIC || w.check != fabric_check(&w) || w.pid <= 0 ||
        w.fd < 0 || w.file_ino == 0 || w.reserved != 0 ||
        w.served > UMF_FD_SOCKET_PATH || memcmp(w.pad, zero, sizeof(zero))) {
        UMF_MOCK_LOG_ERROR("cuMemImportFromShareableHandle: not a fabric "
                           "handle of this driver (forged or corrupted)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_fd_origin_t o = {
        .pid = w.pid,
        .fd = w.fd,
        .id = w.id,
        .start_time = w.start_time,
        .pidfs_ino = w.pidfs_ino,
        .file_ino = w.file_ino,
        .served = w.served,
    };
    int fd = -1;
    umf_mock_status_t status = umf_mock_fd_take(&o, &fd);
    if (status == UMF_MOCK_OK) {
        status = umf_mock_phys_import_fd(fd, 0, HANDLE_TYPES, phys);
        close(fd);
    }
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_INFO("cuMemImportFromShareableHandle(fabric handle of "
                          "allocation %" PRIu64 " of process %d): %s",
                          w.id, w.pid, umf_mock_status_name(status));
    }
    // cuda.h names no CUDA_ERROR_INVALID_HANDLE here: a handle whose
    // exporter or allocation is gone, or that names another file, is an
    // invalid value; everything else as the driver's one table says.
    bool stale = status == UMF_MOCK_ERR_STALE_HANDLE ||
                 status == UMF_MOCK_ERR_NO_PROCESS;
    return stale ? CUDA_ERROR_INVALID_VALUE : cuda_mock_result_of(status);
}

CUDA_MOCK_API CUresult cuMemExportToShareableHandle(
    void *shareableHandle, CUmemGenericAllocationHandle handle,
    CUmemAllocationHandleType handleType, unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemExportToShareableHandle);
    if (shareableHandle == NULL || flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    bool fabric = handleType == CU_MEM_HANDLE_TYPE_FABRIC;
    if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR && !fabric) {
        UMF_MOCK_LOG_ERROR("cuMemExportToShareableHandle: handle type 0x%x: "
                           "the emulated driver exports POSIX file "
                           "descriptors and fabric handles only",
                           (unsigned)handleType);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    umf_mock_phys_t *phys = phys_of(handle);
    umf_mock_phys_info_t info;
    if (umf_mock_phys_query(phys, &info) != UMF_MOCK_OK) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ((info.user_flags & (unsigned)handleType) == 0) {
        UMF_MOCK_LOG_ERROR("cuMemExportToShareableHandle: the allocation was "
                           "made without %s in requestedHandleTypes",
                           fabric ? "CU_MEM_HANDLE_TYPE_FABRIC"
                                  : "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (fabric) {
        return fabric_export(phys, shareableHandle);
    }
    int fd;
    umf_mock_status_t status = umf_mock_phys_export_fd(phys, &fd);
    if (status != UMF_MOCK_OK) {
        return status == UMF_MOCK_ERR_NOT_FOUND ? CUDA_ERROR_INVALID_VALUE
                                                : cuda_mock_result_of(status);
    }
    *(int *)shareableHandle = fd;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemImportFromShareableHandle(
    CUmemGenericAllocationHandle *handle, void *osHandle,
    CUmemAllocationHandleType shHandleType) {
    CUDA_MOCK_ENTER(cuMemImportFromShareableHandle);
    if (handle == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (shHandleType == CU_MEM_HANDLE_TYPE_FABRIC) {
        // osHandle points to the CUmemFabricHandle.
        if (osHandle == NULL) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        umf_mock_phys_t *phys;
        CUresult res = fabric_import(osHandle, &phys);
        if (res == CUDA_SUCCESS) {
            *handle = (CUmemGenericAllocationHandle)(uintptr_t)phys;
        }
        return res;
    }
    if (shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
        UMF_MOCK_LOG_ERROR("cuMemImportFromShareableHandle: handle type 0x%x: "
                           "the emulated driver imports POSIX file "
                           "descriptors and fabric handles only",
                           (unsigned)shHandleType);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    // For POSIX file descriptors the handle is the descriptor itself, cast
    // to a pointer (as NCCL and PyTorch pass it).
    intptr_t fd = (intptr_t)osHandle;
    if (fd < 0 || fd > INT32_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_phys_t *phys;
    umf_mock_status_t status =
        umf_mock_phys_import_fd((int)fd, 0, HANDLE_TYPES, &phys);
    if (status != UMF_MOCK_OK) {
        return status == UMF_MOCK_ERR_INVALID_ARGUMENT
                   ? CUDA_ERROR_INVALID_VALUE
                   : cuda_mock_result_of(status);
    }
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)phys;
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Reservations and mappings

CUDA_MOCK_API CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size,
                                           size_t alignment, CUdeviceptr addr,
                                           unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemAddressReserve);
    uint64_t page = umf_mock_page_size;
    if (ptr == NULL || size == 0 || flags != 0 || size % page != 0 ||
        addr % page != 0 || (alignment & (alignment - 1)) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // At least the granularity, so that the reservation's start can be
    // mapped.
    size_t align = alignment > GRANULARITY ? alignment : GRANULARITY;
    void *p;
    umf_mock_status_t status =
        umf_mock_va_reserve(size, align, (uintptr_t)addr, 0, &p);
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_INFO("cuMemAddressReserve(%zu bytes): %s", size,
                          umf_mock_status_name(status));
        return status == UMF_MOCK_ERR_OUT_OF_HOST_MEMORY ||
                       status == UMF_MOCK_ERR_UNSUPPORTED_SIZE
                   ? CUDA_ERROR_OUT_OF_MEMORY
                   : CUDA_ERROR_INVALID_VALUE;
    }
    *ptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
    CUDA_MOCK_ENTER(cuMemAddressFree);
    size_t unmapped = 0;
    if (umf_mock_va_free((const void *)(uintptr_t)ptr, size, &unmapped) !=
        UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuMemAddressFree(0x%llx, %zu): not a reservation "
                           "of this base and size",
                           (unsigned long long)ptr, size);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (unmapped > 0) {
        UMF_MOCK_LOG_WARN("cuMemAddressFree(0x%llx): %zu mappings were still "
                          "in the range; unmapped",
                          (unsigned long long)ptr, unmapped);
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                                CUmemGenericAllocationHandle handle,
                                unsigned long long flags) {
    CUDA_MOCK_ENTER(cuMemMap);
    if (ptr == 0 || size == 0 || flags != 0 || !aligned(ptr) ||
        !aligned(size)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (offset != 0) {
        UMF_MOCK_LOG_ERROR("cuMemMap: offset %zu; cuda.h: \"currently must "
                           "be zero\"",
                           offset);
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_status_t status = umf_mock_va_map(
        (const void *)(uintptr_t)ptr, size, phys_of(handle), offset, 0);
    switch (status) {
    case UMF_MOCK_OK:
        return CUDA_SUCCESS;
    case UMF_MOCK_ERR_NOT_FOUND:
        UMF_MOCK_LOG_ERROR("cuMemMap(0x%llx, %zu): not a live handle, or the "
                           "range is not inside one reservation",
                           (unsigned long long)ptr, size);
        return CUDA_ERROR_INVALID_VALUE;
    case UMF_MOCK_ERR_ALREADY_MAPPED:
        UMF_MOCK_LOG_ERROR("cuMemMap(0x%llx, %zu): the range is mapped "
                           "already",
                           (unsigned long long)ptr, size);
        return CUDA_ERROR_INVALID_VALUE;
    case UMF_MOCK_ERR_INVALID_ARGUMENT:
        UMF_MOCK_LOG_ERROR("cuMemMap(0x%llx, %zu): larger than the "
                           "allocation",
                           (unsigned long long)ptr, size);
        return CUDA_ERROR_INVALID_VALUE;
    default:
        return cuda_mock_result_of(status);
    }
}

CUDA_MOCK_API CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
    CUDA_MOCK_ENTER(cuMemUnmap);
    if (ptr == 0 || size == 0 || !aligned(ptr) || !aligned(size)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_va_info_t va;
    uint64_t id = 0;
    bool known =
        umf_mock_va_query((const void *)(uintptr_t)ptr, &va) == UMF_MOCK_OK &&
        va.mapped && umf_mock_phys_id(va.phys, &id) == UMF_MOCK_OK;
    umf_mock_status_t status =
        umf_mock_va_unmap((const void *)(uintptr_t)ptr, size, true);
    if (status == UMF_MOCK_OK && known) {
        fabric_revoke_if_gone(va.phys, id);
    }
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuMemUnmap(0x%llx, %zu): %s",
                           (unsigned long long)ptr, size,
                           status == UMF_MOCK_ERR_NOT_FOUND
                               ? "not mapped throughout"
                               : "cuts a mapping (unmap whole mappings)");
        return status == UMF_MOCK_ERR_NOT_FOUND ||
                       status == UMF_MOCK_ERR_INVALID_ARGUMENT
                   ? CUDA_ERROR_INVALID_VALUE
                   : cuda_mock_result_of(status);
    }
    return CUDA_SUCCESS;
}

// CUDA_SUCCESS when `location` names a device.
static CUresult check_location(const CUmemLocation *location) {
    if (location->type != CU_MEM_LOCATION_TYPE_DEVICE) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (location->id < 0 || (unsigned)location->id >= umf_mock_device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
                                      const CUmemAccessDesc *desc,
                                      size_t count) {
    CUDA_MOCK_ENTER(cuMemSetAccess);
    if (ptr == 0 || size == 0 || desc == NULL || count == 0 || !aligned(ptr) ||
        !aligned(size)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // All descriptions are checked before any is applied.
    for (size_t i = 0; i < count; i++) {
        CUresult res = check_location(&desc[i].location);
        if (res != CUDA_SUCCESS) {
            UMF_MOCK_LOG_ERROR("cuMemSetAccess: description %zu: location "
                               "type %d id %d is not a device",
                               i, (int)desc[i].location.type,
                               desc[i].location.id);
            return res;
        }
        if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
            desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
            desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (size_t i = 0; i < count; i++) {
        umf_mock_access_t access =
            desc[i].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                ? UMF_MOCK_ACCESS_READWRITE
            : desc[i].flags == CU_MEM_ACCESS_FLAGS_PROT_READ
                ? UMF_MOCK_ACCESS_READ
                : UMF_MOCK_ACCESS_NONE;
        umf_mock_status_t status =
            umf_mock_va_set_access((const void *)(uintptr_t)ptr, size,
                                   1ull << desc[i].location.id, access);
        if (status != UMF_MOCK_OK) {
            UMF_MOCK_LOG_ERROR("cuMemSetAccess(0x%llx, %zu): %s",
                               (unsigned long long)ptr, size,
                               status == UMF_MOCK_ERR_NOT_FOUND
                                   ? "not mapped throughout"
                                   : umf_mock_status_name(status));
            return status == UMF_MOCK_ERR_NOT_FOUND
                       ? CUDA_ERROR_INVALID_VALUE
                       : cuda_mock_result_of(status);
        }
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemGetAccess(unsigned long long *flags,
                                      const CUmemLocation *location,
                                      CUdeviceptr ptr) {
    CUDA_MOCK_ENTER(cuMemGetAccess);
    if (flags == NULL || location == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult res = check_location(location);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    umf_mock_va_info_t info;
    if (umf_mock_va_query((const void *)(uintptr_t)ptr, &info) != UMF_MOCK_OK ||
        !info.mapped) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t bit = 1ull << location->id;
    *flags = (info.write_devices & bit) != 0
                 ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
             : (info.read_devices & bit) != 0 ? CU_MEM_ACCESS_FLAGS_PROT_READ
                                              : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    return CUDA_SUCCESS;
}
