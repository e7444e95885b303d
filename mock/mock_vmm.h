// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Virtual memory management, shared by the emulated drivers (CUDA:
// cuMemCreate, cuMemAddressReserve, cuMemMap, cuMemSetAccess,
// cuMemExportToShareableHandle ...; Level Zero: zePhysicalMemCreate,
// zeVirtualMemReserve, zeVirtualMemMap, zeVirtualMemSetAccessAttribute ...).
// The drivers check their own arguments (granularity, flags, handle types)
// and map results; the model and its invariants live here:
//
// - A physical memory object is one memfd of its size, sealed against
//   shrinking and growing (so a mapping of it can never fault), counted
//   against its device's memory. Its handle is its address; a handle is
//   valid while the object is in the core's set of live objects, which is
//   checked before anything touches it. The object has handle references
//   (made by create or import, added by retain, dropped by release) and
//   mapping references; its memory goes when both are gone.
// - Export gives a new file descriptor of the memfd, which the caller owns
//   and may pass to another process (SCM_RIGHTS, pidfd_getfd). Import takes
//   such a descriptor (anything else is refused: hostile input) and makes a
//   new object of the same memory; the caller keeps its descriptor.
// - A reservation is a range of address space (PROT_NONE, no memory).
//   Mappings put (part of) a physical object at a page-aligned range of one
//   reservation, with no access for any device; access is set per device
//   (read, read-write) on any page range of mapped memory. The host sees a
//   range readable when some device may read it and writable when some
//   device may write it, so a stray host access to memory no device may
//   touch faults, as on a GPU.
// - Each mapping (what one umf_mock_va_map made, less what was unmapped
//   since) is registered in the allocation registry as a record of kind
//   UMF_MOCK_KIND_MAPPED (backend UMF_MOCK_BACKEND_VMM: b0 = the physical
//   object, b1 = the offset in it of the record's base, peer_id = the
//   physical object's id), so that umf_mock_lookup() resolves mapped
//   addresses like other driver memory.
// - A copy or fill that touches mapped memory asks umf_mock_vmm_check():
//   the range may span adjacent mappings, as on a GPU, and the device doing
//   the copy must have the access it needs.
//
// Every function here is thread-safe; one mutex guards the model (none of
// these is a hot path). Sizes and offsets are page multiples (the drivers
// enforce their coarser granularities).

#ifndef UMF_GPU_MOCK_VMM_H
#define UMF_GPU_MOCK_VMM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_status.h"

typedef struct umf_mock_phys_t umf_mock_phys_t;

// Device access to mapped memory, per device.
typedef enum umf_mock_access_t {
    UMF_MOCK_ACCESS_NONE = 0,
    UMF_MOCK_ACCESS_READ = 1,
    UMF_MOCK_ACCESS_READWRITE = 3,
} umf_mock_access_t;

// Every device of the process (for a driver whose access is not per
// device, such as Level Zero's).
#define UMF_MOCK_ALL_DEVICES UINT64_MAX

// ---- Physical memory -------------------------------------------------------

typedef struct umf_mock_phys_info_t {
    uint64_t id;   // unique in this process, never 0
    uint64_t size; // bytes
    int device;    // the device it is on
    uintptr_t owner;
    uint32_t user_flags; // the driver's, given at create or import
    bool imported;       // made by umf_mock_phys_import_fd
    uint64_t handle_refs;
    uint64_t mappings; // mapped ranges that use it
} umf_mock_phys_info_t;

// Makes `size` bytes (a page multiple) of physical memory on `device`.
// INVALID_ARGUMENT (bad device or out), UNSUPPORTED_SIZE (0, not a page
// multiple, or above UMF_MOCK_MAX_ALLOC_SIZE), OUT_OF_DEVICE_MEMORY,
// OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_phys_create(int device, uint64_t size,
                                       uintptr_t owner, uint32_t user_flags,
                                       umf_mock_phys_t **out);

// Adds a handle reference. NOT_FOUND: not a live handle (never made, or
// released).
umf_mock_status_t umf_mock_phys_retain(umf_mock_phys_t *phys);

// Drops a handle reference; the memory goes with the last reference and
// the last mapping. With `refuse_if_mapped`, a mapped object is
// ALREADY_MAPPED and keeps its reference (Level Zero's "in use").
// NOT_FOUND: not a live handle.
umf_mock_status_t umf_mock_phys_release(umf_mock_phys_t *phys,
                                        bool refuse_if_mapped);

// NOT_FOUND: not a live handle.
umf_mock_status_t umf_mock_phys_query(umf_mock_phys_t *phys,
                                      umf_mock_phys_info_t *info);

// The physical object mapped at `addr` (any address of a mapping), with a
// new handle reference: valid again even if every handle reference was
// dropped while it stayed mapped. NOT_FOUND: nothing mapped at `addr`.
umf_mock_status_t umf_mock_phys_retain_at(const void *addr,
                                          umf_mock_phys_t **out);

// A new file descriptor (close-on-exec) of the object's memory, owned by
// the caller. NOT_FOUND, OUT_OF_HOST_MEMORY (no descriptor left).
umf_mock_status_t umf_mock_phys_export_fd(umf_mock_phys_t *phys, int *fd);

// The id of `phys` while the object exists: while a handle reference or a
// mapping holds it (umf_mock_phys_query needs a handle reference).
// NOT_FOUND once it is gone.
umf_mock_status_t umf_mock_phys_id(umf_mock_phys_t *phys, uint64_t *id);

// The object's own fd of its memory (not a duplicate: it stays the
// object's, open while the object lives) and that file's inode number, for
// a handle that names the memory without an fd of its own (CUDA's fabric
// handles). NOT_FOUND.
umf_mock_status_t umf_mock_phys_own_fd(umf_mock_phys_t *phys, int *fd,
                                       uint64_t *ino);

// A new object of the memory behind `fd`, which must come from
// umf_mock_phys_export_fd (in any process); `fd` stays the caller's. The
// device is the exporter's. INVALID_ARGUMENT: not such a descriptor (not
// open, not a memory file of ours, not sealed, a bad size); NOT_SUPPORTED:
// its device does not exist in this process; OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_phys_import_fd(int fd, uintptr_t owner,
                                          uint32_t user_flags,
                                          umf_mock_phys_t **out);

// ---- Reservations and mappings ---------------------------------------------

// Reserves `size` bytes (a page multiple) of address space aligned to
// `alignment` (0 for a page, else a power of two), at `hint` when it is not
// 0 and that range is free and aligned, else anywhere. INVALID_ARGUMENT,
// UNSUPPORTED_SIZE, UNSUPPORTED_ALIGNMENT, OUT_OF_HOST_MEMORY (no address
// space).
umf_mock_status_t umf_mock_va_reserve(uint64_t size, uint64_t alignment,
                                      uintptr_t hint, uintptr_t owner,
                                      void **out);

// Frees the reservation that starts at `base` and has `size` bytes, and
// unmaps what is still mapped in it (its count goes to *unmapped when that
// is not NULL). NOT_FOUND: no such reservation.
umf_mock_status_t umf_mock_va_free(const void *base, uint64_t size,
                                   size_t *unmapped);

// Maps `size` bytes of `phys` from `offset` at `addr`, with no access for
// any device. The range must lie in one reservation (NOT_FOUND) and be
// unmapped (ALREADY_MAPPED); offset + size must not pass the object's size
// (INVALID_ARGUMENT); everything page-aligned (UNSUPPORTED_ALIGNMENT).
// NOT_FOUND also for a phys that is not a live handle. OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_va_map(const void *addr, uint64_t size,
                                  umf_mock_phys_t *phys, uint64_t offset,
                                  uintptr_t owner);

// Unmaps [addr, addr + size), which must be mapped throughout (NOT_FOUND).
// `whole_mappings`: the range must consist of whole mappings, as CUDA
// demands (INVALID_ARGUMENT otherwise); else any page range may be
// unmapped (Level Zero), splitting what it cuts. The range goes back to its
// reservation, with no access.
umf_mock_status_t umf_mock_va_unmap(const void *addr, uint64_t size,
                                    bool whole_mappings);

// Sets `access` for every device in the mask `devices` (bit d: device d)
// on [addr, addr + size), which must be mapped throughout (NOT_FOUND); the
// other devices keep theirs. INVALID_ARGUMENT for another access value.
umf_mock_status_t umf_mock_va_set_access(const void *addr, uint64_t size,
                                         uint64_t devices,
                                         umf_mock_access_t access);

// Level Zero's leniency (Intel's driver's): the same for a page range that
// need only lie in one reservation (NOT_FOUND otherwise). Unmap takes what
// is mapped in it and leaves the rest; set-access changes the mapped pages
// of it, and the unmapped ones keep the access for umf_mock_va_query to
// report (a later mapping is made with the access it is given, and an
// unmapped page holds none until set-access gives it one again).
umf_mock_status_t umf_mock_va_unmap_within(const void *addr, uint64_t size);
umf_mock_status_t umf_mock_va_set_access_within(const void *addr, uint64_t size,
                                                uint64_t devices,
                                                umf_mock_access_t access);

typedef struct umf_mock_va_info_t {
    void *reservation; // base of the reservation holding the address
    uint64_t reservation_size;
    bool mapped;
    // When mapped: the mapping holding the address (its registry record's
    // range), the physical object and the address's offset in it.
    void *mapping;
    uint64_t mapping_size;
    umf_mock_phys_t *phys;
    uint64_t phys_offset;
    // Devices that may read and write at the address (when unmapped: what
    // umf_mock_va_set_access_within left there, else 0), and the bytes
    // from the address on that share these masks and the mapped state.
    uint64_t read_devices, write_devices;
    uint64_t same_access;
} umf_mock_va_info_t;

// What is at `addr`. NOT_FOUND: not in a reservation.
umf_mock_status_t umf_mock_va_query(const void *addr, umf_mock_va_info_t *info);

// The rule for copies and fills that touch mapped memory: [ptr, ptr + n)
// is mapped throughout (adjacent mappings of one reservation are one
// range), and `device` may read it, or write it when `write`. NOT_FOUND:
// not mapped throughout; PERMISSION: the device lacks the access.
umf_mock_status_t umf_mock_vmm_check(const void *ptr, uint64_t n, int device,
                                     bool write);

// Whether [ptr, ptr + n) is mapped throughout, whatever the access
// (prefetch, advice): OK, or NOT_FOUND.
umf_mock_status_t umf_mock_vmm_mapped(const void *ptr, uint64_t n);

// Frees every reservation of `owner` (unmapping what is mapped in it) and
// drops every handle reference of its physical objects: what a driver does
// when a context is destroyed. Returns how many reservations and objects
// went.
size_t umf_mock_vmm_release_owner(uintptr_t owner);

// ---- Counts and the leak report -------------------------------------------

typedef enum umf_mock_vmm_count_t {
    UMF_MOCK_VMM_PHYS = 0,         // physical objects with a handle reference
    UMF_MOCK_VMM_RESERVATIONS = 1, // reservations
    UMF_MOCK_VMM_MAPPINGS = 2,     // mapped ranges (registry records)
} umf_mock_vmm_count_t;

uint64_t umf_mock_vmm_count(umf_mock_vmm_count_t what);

typedef struct umf_mock_vmm_leak_t {
    bool reservation; // else a physical object with a handle reference
    uint64_t id;      // physical objects
    uintptr_t base;   // reservations
    uint64_t size;
    int device; // physical objects
    bool imported;
} umf_mock_vmm_leak_t;

// Calls fn for every physical object with a handle reference and every
// reservation (the leak report; mappings are registry records).
void umf_mock_vmm_foreach_leak(void (*fn)(const umf_mock_vmm_leak_t *, void *),
                               void *ctx);

#endif // UMF_GPU_MOCK_VMM_H
