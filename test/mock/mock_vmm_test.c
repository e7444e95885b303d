// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Virtual memory management (mock_vmm.h): physical memory objects and
// their handles, reservations, mappings, per-device access and what the
// host sees of it, the copy rule across adjacent mappings, unmapping whole
// and partial ranges, and export and import as a file descriptor, hostile
// descriptors included. UMF_GPU_MOCK_DEVICE_MEM=64M.

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_control.h"
#include "mock_test_util.h"

#define PAGE ((uint64_t)umf_mock_page_size)

static int64_t live(umf_gpu_mock_live_t what) {
    return umf_mock_control_get_live_count(&test_desc, what);
}

UMF_C_TEST(MockVmm, PhysicalMemoryCountsAgainstItsDevice) {
    if (!test_core_init()) {
        return;
    }
    uint64_t used = umf_mock_device_used(1);
    umf_mock_phys_t *phys = NULL;
    UMF_ASSERT_EQ(umf_mock_phys_create(1, 4 * PAGE, 0x77, 5, &phys),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_device_used(1), used + 4 * PAGE);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), 1);
    umf_mock_phys_info_t info;
    UMF_ASSERT_EQ(umf_mock_phys_query(phys, &info), UMF_MOCK_OK);
    UMF_EXPECT_EQ(info.size, 4 * PAGE);
    UMF_EXPECT_EQ(info.device, 1);
    UMF_EXPECT_EQ(info.owner, 0x77);
    UMF_EXPECT_EQ(info.user_flags, 5);
    UMF_EXPECT(!info.imported);
    UMF_EXPECT_EQ(info.handle_refs, 1);
    UMF_EXPECT_EQ(info.mappings, 0);
    UMF_EXPECT(info.id != 0);

    // Retain and release count.
    UMF_EXPECT_EQ(umf_mock_phys_retain(phys), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_query(phys, &info), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_device_used(1), used);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), 0);
    // A released handle is no handle.
    UMF_EXPECT_EQ(umf_mock_phys_query(phys, &info), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_phys_retain(phys), UMF_MOCK_ERR_NOT_FOUND);
    int garbage;
    UMF_EXPECT_EQ(umf_mock_phys_release((umf_mock_phys_t *)&garbage, false),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_phys_retain(NULL), UMF_MOCK_ERR_NOT_FOUND);
}

UMF_C_TEST(MockVmm, PhysicalMemoryArguments) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_phys_t *phys;
    UMF_EXPECT_EQ(umf_mock_phys_create(0, PAGE, 0, 0, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_phys_create(-1, PAGE, 0, 0, &phys),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_phys_create(2, PAGE, 0, 0, &phys),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_phys_create(0, 0, 0, 0, &phys),
                  UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(umf_mock_phys_create(0, PAGE + 1, 0, 0, &phys),
                  UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    // More than the device has (64 MiB), and nothing left counted.
    uint64_t used = umf_mock_device_used(0);
    UMF_EXPECT_EQ(umf_mock_phys_create(0, 128ull << 20, 0, 0, &phys),
                  UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY);
    UMF_EXPECT_EQ(umf_mock_device_used(0), used);
}

UMF_C_TEST(MockVmm, MapSetAccessUnmapFree) {
    if (!test_core_init()) {
        return;
    }
    void *base = NULL;
    UMF_ASSERT_EQ(umf_mock_va_reserve(8 * PAGE, 16 * PAGE, 0, 0, &base),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ((uintptr_t)base % (16 * PAGE), 0);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS), 1);
    umf_mock_phys_t *phys;
    UMF_ASSERT_EQ(umf_mock_phys_create(0, 4 * PAGE, 0, 0, &phys), UMF_MOCK_OK);
    char *at = (char *)base + 2 * PAGE;
    UMF_ASSERT_EQ(umf_mock_va_map(at, 4 * PAGE, phys, 0, 0x55), UMF_MOCK_OK);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 1);

    // The registry knows the mapping, base and interior.
    umf_mock_alloc_info_t info;
    UMF_ASSERT_EQ(umf_mock_lookup(at + PAGE + 3, &info), UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(info.base, at);
    UMF_EXPECT_EQ(info.size, 4 * PAGE);
    UMF_EXPECT_EQ(info.kind, UMF_MOCK_KIND_MAPPED);
    UMF_EXPECT_EQ(info.device, 0);
    UMF_EXPECT_EQ(info.owner, 0x55);
    UMF_EXPECT_EQ(umf_mock_lookup(base, &info), UMF_MOCK_ERR_NOT_FOUND);
    // ... and frees of it are refused.
    UMF_EXPECT_EQ(umf_mock_free(at, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_ERR_WRONG_KIND);

    // No access at first, for any device.
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 16, 0, false),
                  UMF_MOCK_ERR_PERMISSION);
    umf_mock_va_info_t va;
    UMF_ASSERT_EQ(umf_mock_va_query(at, &va), UMF_MOCK_OK);
    UMF_EXPECT(va.mapped);
    UMF_EXPECT_PTR_EQ(va.reservation, base);
    UMF_EXPECT_EQ(va.reservation_size, 8 * PAGE);
    UMF_EXPECT_PTR_EQ(va.mapping, at);
    UMF_EXPECT_EQ(va.mapping_size, 4 * PAGE);
    UMF_EXPECT_PTR_EQ(va.phys, phys);
    UMF_EXPECT_EQ(va.read_devices, 0);
    UMF_EXPECT_EQ(va.same_access, 4 * PAGE);

    // Read-write for device 0 only.
    UMF_ASSERT_EQ(
        umf_mock_va_set_access(at, 4 * PAGE, 1, UMF_MOCK_ACCESS_READWRITE),
        UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 4 * PAGE, 0, true), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 4 * PAGE, 1, false),
                  UMF_MOCK_ERR_PERMISSION);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 4 * PAGE + 1, 0, false),
                  UMF_MOCK_ERR_NOT_FOUND); // one byte past the mapping
    memset(at, 0x5a, 4 * PAGE); // the host may touch what a device may
    UMF_EXPECT_EQ((unsigned char)at[4 * PAGE - 1], 0x5a);

    // Read-only for device 0 on the second page: a split, merged back.
    UMF_ASSERT_EQ(
        umf_mock_va_set_access(at + PAGE, PAGE, 1, UMF_MOCK_ACCESS_READ),
        UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 4 * PAGE, 0, true),
                  UMF_MOCK_ERR_PERMISSION);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 4 * PAGE, 0, false), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_query(at, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.write_devices, 1);
    UMF_EXPECT_EQ(va.same_access, PAGE);
    UMF_ASSERT_EQ(umf_mock_va_query(at + PAGE + 5, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 1);
    UMF_EXPECT_EQ(va.write_devices, 0);
    UMF_EXPECT_EQ(va.same_access, PAGE - 5);
    UMF_EXPECT_PTR_EQ(va.mapping, at); // access splits no mapping
    UMF_EXPECT_EQ(va.mapping_size, 4 * PAGE);
    UMF_EXPECT_EQ(va.phys_offset, PAGE + 5);
    UMF_ASSERT_EQ(umf_mock_va_set_access(at, 4 * PAGE, UMF_MOCK_ALL_DEVICES,
                                         UMF_MOCK_ACCESS_READWRITE),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 4 * PAGE, 1, true), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_query(at, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 3);
    UMF_EXPECT_EQ(va.same_access, 4 * PAGE);

    // Unmapped memory of a reservation reads as such.
    UMF_ASSERT_EQ(umf_mock_va_query(base, &va), UMF_MOCK_OK);
    UMF_EXPECT(!va.mapped);
    UMF_EXPECT_EQ(va.same_access, 2 * PAGE);
    UMF_EXPECT_EQ(umf_mock_va_query((char *)base + 8 * PAGE, &va),
                  UMF_MOCK_ERR_NOT_FOUND);

    UMF_EXPECT_EQ(umf_mock_va_unmap(at, 4 * PAGE, true), UMF_MOCK_OK);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 0);
    UMF_EXPECT_EQ(umf_mock_lookup(at, &info), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_vmm_check(at, 1, 0, false), UMF_MOCK_ERR_NOT_FOUND);
    // Mapped again: the memory kept its contents, and starts with no access.
    UMF_ASSERT_EQ(umf_mock_va_map(base, 4 * PAGE, phys, 0, 0), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_vmm_check(base, 1, 0, false),
                  UMF_MOCK_ERR_PERMISSION);
    UMF_ASSERT_EQ(
        umf_mock_va_set_access(base, 4 * PAGE, 1, UMF_MOCK_ACCESS_READ),
        UMF_MOCK_OK);
    UMF_EXPECT_EQ(((unsigned char *)base)[3], 0x5a);
    // Freeing the reservation unmaps what is left.
    size_t unmapped = 0;
    UMF_EXPECT_EQ(umf_mock_va_free(base, 8 * PAGE, &unmapped), UMF_MOCK_OK);
    UMF_EXPECT_EQ(unmapped, 1);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS), 0);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 0);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
}

UMF_C_TEST(MockVmm, MappingErrors) {
    if (!test_core_init()) {
        return;
    }
    void *base;
    UMF_ASSERT_EQ(umf_mock_va_reserve(4 * PAGE, 0, 0, 0, &base), UMF_MOCK_OK);
    umf_mock_phys_t *phys;
    UMF_ASSERT_EQ(umf_mock_phys_create(0, 2 * PAGE, 0, 0, &phys), UMF_MOCK_OK);
    char *b = base;
    // Outside any reservation, or running past it.
    UMF_EXPECT_EQ(umf_mock_va_map(b + 4 * PAGE, PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_va_map(b + 3 * PAGE, 2 * PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_NOT_FOUND);
    // Past the physical memory.
    UMF_EXPECT_EQ(umf_mock_va_map(b, 3 * PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_va_map(b, 2 * PAGE, phys, PAGE, 0),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // Unaligned, empty, NULL.
    UMF_EXPECT_EQ(umf_mock_va_map(b + 1, PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(umf_mock_va_map(b, PAGE - 1, phys, 0, 0),
                  UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(umf_mock_va_map(b, PAGE, phys, 1, 0),
                  UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(umf_mock_va_map(b, 0, phys, 0, 0),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_va_map(NULL, PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    int garbage;
    UMF_EXPECT_EQ(umf_mock_va_map(b, PAGE, (umf_mock_phys_t *)&garbage, 0, 0),
                  UMF_MOCK_ERR_NOT_FOUND);
    // Over a mapping.
    UMF_ASSERT_EQ(umf_mock_va_map(b + PAGE, PAGE, phys, PAGE, 0), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_va_map(b, 2 * PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_ALREADY_MAPPED);
    UMF_EXPECT_EQ(umf_mock_va_map(b + PAGE, PAGE, phys, 0, 0),
                  UMF_MOCK_ERR_ALREADY_MAPPED);
    // Unmapping or setting access where nothing is mapped.
    UMF_EXPECT_EQ(umf_mock_va_unmap(b, PAGE, true), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_va_unmap(b, 2 * PAGE, false),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(
        umf_mock_va_set_access(b + PAGE, 2 * PAGE, 1, UMF_MOCK_ACCESS_READ),
        UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(
        umf_mock_va_set_access(b + PAGE, PAGE, 1, (umf_mock_access_t)2),
        UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_va_unmap(b + PAGE + 1, PAGE, true),
                  UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    // Freeing: the exact base and size only.
    UMF_EXPECT_EQ(umf_mock_va_free(b, 2 * PAGE, NULL), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_va_free(b + PAGE, 3 * PAGE, NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    // Level Zero's rule: a mapped object is in use.
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, true),
                  UMF_MOCK_ERR_ALREADY_MAPPED);
    UMF_EXPECT_EQ(umf_mock_va_free(b, 4 * PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_va_free(b, 4 * PAGE, NULL), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, true), UMF_MOCK_OK);
    // Reservation arguments.
    UMF_EXPECT_EQ(umf_mock_va_reserve(0, 0, 0, 0, &base),
                  UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(umf_mock_va_reserve(PAGE + 1, 0, 0, 0, &base),
                  UMF_MOCK_ERR_UNSUPPORTED_SIZE);
    UMF_EXPECT_EQ(umf_mock_va_reserve(PAGE, 3 * PAGE, 0, 0, &base),
                  UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT);
    UMF_EXPECT_EQ(umf_mock_va_reserve(PAGE, 0, 0, 0, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
}

UMF_C_TEST(MockVmm, ReservationAtAHint) {
    if (!test_core_init()) {
        return;
    }
    void *a, *b, *c;
    UMF_ASSERT_EQ(umf_mock_va_reserve(4 * PAGE, 0, 0, 0, &a), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_free(a, 4 * PAGE, NULL), UMF_MOCK_OK);
    // The range is free again: the hint is taken.
    UMF_ASSERT_EQ(umf_mock_va_reserve(2 * PAGE, 0, (uintptr_t)a, 0, &b),
                  UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(b, a);
    // Taken now: somewhere else.
    UMF_ASSERT_EQ(umf_mock_va_reserve(2 * PAGE, 0, (uintptr_t)a, 0, &c),
                  UMF_MOCK_OK);
    UMF_EXPECT(c != a);
    UMF_EXPECT_EQ(umf_mock_va_free(b, 2 * PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_va_free(c, 2 * PAGE, NULL), UMF_MOCK_OK);
}

// Two mappings side by side at the start of a reservation of 6 pages, of
// two physical objects of 2 pages (on device 0 and `second_device`); no
// access yet.
typedef struct two_maps_t {
    char *b;
    umf_mock_phys_t *p1, *p2;
} two_maps_t;

static void two_maps_make(two_maps_t *t, unsigned second_device) {
    void *base = NULL;
    t->b = NULL;
    UMF_ASSERT_EQ(umf_mock_va_reserve(6 * PAGE, 0, 0, 0, &base), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_phys_create(0, 2 * PAGE, 0, 0, &t->p1), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_phys_create(second_device, 2 * PAGE, 0, 0, &t->p2),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(base, 2 * PAGE, t->p1, 0, 0), UMF_MOCK_OK);
    UMF_ASSERT_EQ(
        umf_mock_va_map((char *)base + 2 * PAGE, 2 * PAGE, t->p2, 0, 0),
        UMF_MOCK_OK);
    t->b = base;
}

static void two_maps_free(two_maps_t *t) {
    UMF_EXPECT_EQ(umf_mock_va_unmap(t->b, 4 * PAGE, true), UMF_MOCK_OK);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 0);
    UMF_EXPECT_EQ(umf_mock_va_free(t->b, 6 * PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(t->p1, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(t->p2, false), UMF_MOCK_OK);
}

UMF_C_TEST(MockVmm, AdjacentMappingsAreOneRangeForCopies) {
    if (!test_core_init()) {
        return;
    }
    two_maps_t t;
    two_maps_make(&t, 1);
    UMF_ASSERT(t.b != NULL);
    char *b = t.b;
    UMF_ASSERT_EQ(umf_mock_va_set_access(b, 4 * PAGE, UMF_MOCK_ALL_DEVICES,
                                         UMF_MOCK_ACCESS_READWRITE),
                  UMF_MOCK_OK);
    // Two mappings (two records), one range.
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 2);
    UMF_EXPECT_EQ(umf_mock_vmm_check(b + PAGE, 2 * PAGE, 0, true), UMF_MOCK_OK);
    memset(b + PAGE, 1, 2 * PAGE);
    // Past the second: unmapped.
    UMF_EXPECT_EQ(umf_mock_vmm_check(b + PAGE, 3 * PAGE + 1, 0, true),
                  UMF_MOCK_ERR_NOT_FOUND);
    // Whole-mapping unmaps refuse a range that cuts a mapping.
    UMF_EXPECT_EQ(umf_mock_va_unmap(b + PAGE, 2 * PAGE, true),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    two_maps_free(&t);
}

// The drivers' one bounds rule (umf_mock_range_check, mock_memory.h)
// defers to the VMM's for mapped memory: across adjacent mappings, with the
// device's access, and "mapped" alone for prefetch and advice.
UMF_C_TEST(MockVmm, RangeCheckFollowsTheVmmRuleForMappedMemory) {
    if (!test_core_init()) {
        return;
    }
    two_maps_t t;
    two_maps_make(&t, 0);
    UMF_ASSERT(t.b != NULL);
    char *b = t.b;
    // No access yet: copies are refused, prefetch and advice are not.
    UMF_EXPECT_EQ(umf_mock_range_check(b, PAGE, 0, UMF_MOCK_USE_READ, "t",
                                       "source", NULL),
                  UMF_MOCK_ERR_PERMISSION);
    UMF_EXPECT_EQ(umf_mock_range_check(b, 4 * PAGE, 0, UMF_MOCK_USE_MAPPED, "t",
                                       "range", NULL),
                  UMF_MOCK_OK);
    // Device 0 reads both mappings, writes only the first.
    UMF_ASSERT_EQ(umf_mock_va_set_access(b, 4 * PAGE, 1, UMF_MOCK_ACCESS_READ),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(
        umf_mock_va_set_access(b, 2 * PAGE, 1, UMF_MOCK_ACCESS_READWRITE),
        UMF_MOCK_OK);
    umf_mock_alloc_info_t info;
    // Across the two records: one range (more than the first record holds).
    UMF_EXPECT_EQ(umf_mock_range_check(b + PAGE, 2 * PAGE, 0, UMF_MOCK_USE_READ,
                                       "t", "source", &info),
                  UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(info.base, b);
    UMF_EXPECT_EQ(info.kind, UMF_MOCK_KIND_MAPPED);
    UMF_EXPECT_EQ(umf_mock_range_check(b + PAGE, 2 * PAGE, 0,
                                       UMF_MOCK_USE_WRITE, "t", "destination",
                                       NULL),
                  UMF_MOCK_ERR_PERMISSION);
    UMF_EXPECT_EQ(umf_mock_range_check(b, 2 * PAGE, 0, UMF_MOCK_USE_WRITE, "t",
                                       "destination", NULL),
                  UMF_MOCK_OK);
    // Another device has no access.
    UMF_EXPECT_EQ(
        umf_mock_range_check(b, 16, 1, UMF_MOCK_USE_READ, "t", "source", NULL),
        UMF_MOCK_ERR_PERMISSION);
    // One byte past what is mapped: refused like a byte past an allocation.
    UMF_EXPECT_EQ(umf_mock_range_check(b + PAGE, 3 * PAGE + 1, 0,
                                       UMF_MOCK_USE_READ, "t", "source", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_range_check(b + PAGE, 3 * PAGE + 1, 0,
                                       UMF_MOCK_USE_MAPPED, "t", "range", NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_vmm_mapped(b + PAGE, 3 * PAGE), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_vmm_mapped(b + 4 * PAGE, 1), UMF_MOCK_ERR_NOT_FOUND);
    // The reservation's unmapped part is no driver memory to the rule.
    UMF_EXPECT_EQ(umf_mock_range_check(b + 4 * PAGE, 1, 0, UMF_MOCK_USE_READ,
                                       "t", "source", NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    two_maps_free(&t);
}

UMF_C_TEST(MockVmm, PartialUnmapSplitsTheMapping) {
    if (!test_core_init()) {
        return;
    }
    void *base;
    UMF_ASSERT_EQ(umf_mock_va_reserve(4 * PAGE, 0, 0, 0, &base), UMF_MOCK_OK);
    char *b = base;
    umf_mock_phys_t *phys;
    UMF_ASSERT_EQ(umf_mock_phys_create(0, 4 * PAGE, 0, 0, &phys), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(b, 4 * PAGE, phys, 0, 9), UMF_MOCK_OK);
    UMF_ASSERT_EQ(
        umf_mock_va_set_access(b, 4 * PAGE, 1, UMF_MOCK_ACCESS_READWRITE),
        UMF_MOCK_OK);
    for (int i = 0; i < 4; i++) {
        memset(b + i * PAGE, 'a' + i, PAGE);
    }
    // Level Zero's rule: any page range.
    UMF_ASSERT_EQ(umf_mock_va_unmap(b + PAGE, PAGE, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_MAPPINGS), 2);
    umf_mock_alloc_info_t info;
    UMF_ASSERT_EQ(umf_mock_lookup(b, &info), UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(info.base, b);
    UMF_EXPECT_EQ(info.size, PAGE);
    UMF_EXPECT_EQ(info.owner, 9);
    UMF_EXPECT_EQ(umf_mock_lookup(b + PAGE, &info), UMF_MOCK_ERR_NOT_FOUND);
    UMF_ASSERT_EQ(umf_mock_lookup(b + 3 * PAGE, &info), UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(info.base, b + 2 * PAGE);
    UMF_EXPECT_EQ(info.size, 2 * PAGE);
    // What is left keeps its access and contents.
    UMF_EXPECT_EQ(b[0], 'a');
    UMF_EXPECT_EQ(b[3 * PAGE], 'd');
    umf_mock_va_info_t va;
    UMF_ASSERT_EQ(umf_mock_va_query(b + 2 * PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.phys_offset, 2 * PAGE);
    UMF_EXPECT_EQ(va.write_devices, 1);
    // Release while mapped: the memory stays as long as a mapping does.
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), 0);
    UMF_EXPECT_EQ(b[2 * PAGE], 'c');
    // Taking a handle back from an address gives the same object.
    umf_mock_phys_t *back = NULL;
    UMF_ASSERT_EQ(umf_mock_phys_retain_at(b + 2 * PAGE + 17, &back),
                  UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(back, phys);
    UMF_EXPECT_EQ(umf_mock_phys_retain_at(b + PAGE, &back),
                  UMF_MOCK_ERR_NOT_FOUND);
    umf_mock_phys_info_t pi;
    UMF_ASSERT_EQ(umf_mock_phys_query(phys, &pi), UMF_MOCK_OK);
    UMF_EXPECT_EQ(pi.mappings, 2);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    uint64_t used = umf_mock_device_used(0);
    UMF_EXPECT_EQ(umf_mock_va_unmap(b, PAGE, true), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_va_unmap(b + 2 * PAGE, 2 * PAGE, true), UMF_MOCK_OK);
    // The last mapping took the memory with it.
    UMF_EXPECT_EQ(umf_mock_device_used(0), used - 4 * PAGE);
    UMF_EXPECT_EQ(umf_mock_va_free(b, 4 * PAGE, NULL), UMF_MOCK_OK);
}

// umf_mock_va_set_access_within keeps the access of unmapped pages, per
// device, for umf_mock_va_query; a mapping drops it, and unmapping leaves
// none. The host gets no access to unmapped pages from it.
UMF_C_TEST(MockVmm, UnmappedPagesHoldTheAccessSetWithin) {
    if (!test_core_init()) {
        return;
    }
    void *base;
    UMF_ASSERT_EQ(umf_mock_va_reserve(6 * PAGE, 0, 0, 0, &base), UMF_MOCK_OK);
    char *b = base;
    umf_mock_phys_t *phys;
    UMF_ASSERT_EQ(umf_mock_phys_create(0, PAGE, 0, 0, &phys), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(b + 2 * PAGE, PAGE, phys, 0, 0), UMF_MOCK_OK);
    // Device 0 reads [0, 5) (page 2 is mapped), device 1 writes [1, 4).
    UMF_ASSERT_EQ(
        umf_mock_va_set_access_within(b, 5 * PAGE, 1, UMF_MOCK_ACCESS_READ),
        UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_set_access_within(b + PAGE, 3 * PAGE, 2,
                                                UMF_MOCK_ACCESS_READWRITE),
                  UMF_MOCK_OK);
    umf_mock_va_info_t va;
    UMF_ASSERT_EQ(umf_mock_va_query(b, &va), UMF_MOCK_OK);
    UMF_EXPECT(!va.mapped);
    UMF_EXPECT_EQ(va.read_devices, 1);
    UMF_EXPECT_EQ(va.write_devices, 0);
    UMF_EXPECT_EQ(va.same_access, PAGE);
    UMF_ASSERT_EQ(umf_mock_va_query(b + PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 3);
    UMF_EXPECT_EQ(va.write_devices, 2);
    UMF_EXPECT_EQ(va.same_access, PAGE); // then the mapped page
    UMF_ASSERT_EQ(umf_mock_va_query(b + 2 * PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT(va.mapped);
    UMF_EXPECT_EQ(va.read_devices, 3);
    UMF_EXPECT_EQ(va.write_devices, 2);
    UMF_ASSERT_EQ(umf_mock_va_query(b + 4 * PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 1);
    UMF_EXPECT_EQ(va.write_devices, 0);
    UMF_EXPECT_EQ(va.same_access, PAGE);
    UMF_ASSERT_EQ(umf_mock_va_query(b + 5 * PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 0);
    UMF_EXPECT_EQ(va.same_access, PAGE);
    // Device 0 loses read on page 3 only: the held ranges split.
    UMF_ASSERT_EQ(umf_mock_va_set_access_within(b + 3 * PAGE, PAGE, 1,
                                                UMF_MOCK_ACCESS_NONE),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_query(b + 3 * PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 2);
    UMF_EXPECT_EQ(va.write_devices, 2);
    UMF_EXPECT_EQ(va.same_access, PAGE);
    // Nothing the host may touch: copies need a mapping.
    UMF_EXPECT_EQ(umf_mock_vmm_check(b + PAGE, PAGE, 1, false),
                  UMF_MOCK_ERR_NOT_FOUND);
    // A mapping over held pages starts with no access; unmapped, none.
    umf_mock_phys_t *two;
    UMF_ASSERT_EQ(umf_mock_phys_create(0, 2 * PAGE, 0, 0, &two), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(b, 2 * PAGE, two, 0, 0), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_query(b + PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT(va.mapped);
    UMF_EXPECT_EQ(va.read_devices, 0);
    UMF_EXPECT_EQ(umf_mock_va_unmap_within(b, 2 * PAGE), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_query(b, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.read_devices, 0);
    UMF_EXPECT_EQ(va.same_access, 2 * PAGE);
    // Past the reservation: NOT_FOUND, nothing changed.
    UMF_EXPECT_EQ(umf_mock_va_set_access_within(b + 4 * PAGE, 3 * PAGE, 1,
                                                UMF_MOCK_ACCESS_READWRITE),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_ASSERT_EQ(umf_mock_va_query(b + 4 * PAGE, &va), UMF_MOCK_OK);
    UMF_EXPECT_EQ(va.write_devices, 0);
    UMF_EXPECT_EQ(umf_mock_va_free(b, 6 * PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(two, false), UMF_MOCK_OK);
}

UMF_C_TEST(MockVmm, ExportAndImportAsFileDescriptor) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_phys_t *phys, *imp;
    UMF_ASSERT_EQ(umf_mock_phys_create(1, 2 * PAGE, 0, 3, &phys), UMF_MOCK_OK);
    int fd = -1;
    UMF_ASSERT_EQ(umf_mock_phys_export_fd(phys, &fd), UMF_MOCK_OK);
    UMF_EXPECT((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
    uint64_t used = umf_mock_device_used(1);
    UMF_ASSERT_EQ(umf_mock_phys_import_fd(fd, 0x42, 1, &imp), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_device_used(1), used); // the same memory
    UMF_EXPECT(close(fd) == 0);                   // the import has its own
    umf_mock_phys_info_t info;
    UMF_ASSERT_EQ(umf_mock_phys_query(imp, &info), UMF_MOCK_OK);
    UMF_EXPECT(info.imported);
    UMF_EXPECT_EQ(info.device, 1);
    UMF_EXPECT_EQ(info.size, 2 * PAGE);
    UMF_EXPECT_EQ(info.owner, 0x42);
    UMF_EXPECT_EQ(info.user_flags, 1);

    void *a, *b;
    UMF_ASSERT_EQ(umf_mock_va_reserve(2 * PAGE, 0, 0, 0, &a), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_reserve(2 * PAGE, 0, 0, 0, &b), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(a, 2 * PAGE, phys, 0, 0), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(b, 2 * PAGE, imp, 0, 0), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_set_access(a, 2 * PAGE, UMF_MOCK_ALL_DEVICES,
                                         UMF_MOCK_ACCESS_READWRITE),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_set_access(b, 2 * PAGE, UMF_MOCK_ALL_DEVICES,
                                         UMF_MOCK_ACCESS_READ),
                  UMF_MOCK_OK);
    strcpy((char *)a + PAGE, "through the exporter");
    UMF_EXPECT_STREQ((char *)b + PAGE, "through the exporter");
    // The exporter's handle goes; the importer's memory stays.
    UMF_EXPECT_EQ(umf_mock_va_unmap(a, 2 * PAGE, true), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    UMF_EXPECT_STREQ((char *)b + PAGE, "through the exporter");
    UMF_EXPECT_EQ(umf_mock_va_free(b, 2 * PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_va_free(a, 2 * PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(imp, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_export_fd(imp, &fd), UMF_MOCK_ERR_NOT_FOUND);
}

UMF_C_TEST(MockVmm, ImportRefusesForeignDescriptors) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_phys_t *imp = NULL;
    // Not open.
    UMF_EXPECT_EQ(umf_mock_phys_import_fd(-1, 0, 0, &imp),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_phys_import_fd(987654, 0, 0, &imp),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // Not a regular file.
    int pipefd[2];
    UMF_ASSERT_EQ(pipe(pipefd), 0);
    UMF_EXPECT_EQ(umf_mock_phys_import_fd(pipefd[0], 0, 0, &imp),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    close(pipefd[0]);
    close(pipefd[1]);
    // A memfd with our name but not sealed: it could shrink under a
    // mapping.
    int f = memfd_create("umf-gpu-mock-phys:d0", MFD_CLOEXEC);
    UMF_ASSERT(f >= 0);
    UMF_ASSERT_EQ(ftruncate(f, (off_t)PAGE), 0);
    UMF_EXPECT_EQ(umf_mock_phys_import_fd(f, 0, 0, &imp),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    close(f);
    // Sealed but not ours; ours but of a size that is no page multiple;
    // ours but of a device this process does not have.
    static const struct {
        const char *name;
        uint64_t size;
        umf_mock_status_t want;
    } cases[] = {
        {"something-else", 1, UMF_MOCK_ERR_INVALID_ARGUMENT},
        {"umf-gpu-mock-phys:d0", 0, UMF_MOCK_ERR_INVALID_ARGUMENT},
        {"umf-gpu-mock-phys:d9", 1, UMF_MOCK_ERR_NOT_SUPPORTED},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        f = memfd_create(cases[i].name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
        UMF_ASSERT(f >= 0);
        off_t size = cases[i].size != 0 ? (off_t)PAGE : (off_t)PAGE + 1;
        UMF_ASSERT_EQ(ftruncate(f, size), 0);
        UMF_ASSERT_EQ(fcntl(f, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0);
        UMF_EXPECT_EQ(umf_mock_phys_import_fd(f, 0, 0, &imp), cases[i].want);
        close(f);
    }
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), 0);
}

UMF_C_TEST(MockVmm, LeakReportListsHandlesReservationsAndMappings) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_phys_t *phys;
    void *base;
    UMF_ASSERT_EQ(umf_mock_phys_create(0, PAGE, 0, 0, &phys), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_reserve(PAGE, 0, 0, 0, &base), UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_va_map(base, PAGE, phys, 0, 0), UMF_MOCK_OK);
    int fd = memfd_create("leak-report", MFD_CLOEXEC);
    UMF_ASSERT(fd >= 0);
    UMF_EXPECT_EQ(umf_mock_control_write_leak_report(&test_desc, fd), 3);
    char text[2048] = {0};
    ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
    close(fd);
    UMF_ASSERT(n > 0);
    UMF_EXPECT(strstr(text, "physical memory #") != NULL);
    UMF_EXPECT(strstr(text, "never released") != NULL);
    UMF_EXPECT(strstr(text, "address reservation of") != NULL);
    UMF_EXPECT(strstr(text, "never unmapped") != NULL);
    UMF_EXPECT(strstr(text, "1 physical memory handles, 1 address "
                            "reservations, 1 mappings") != NULL);
    UMF_EXPECT_EQ(umf_mock_va_free(base, PAGE, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_phys_release(phys, false), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_control_write_leak_report(&test_desc, -1), 0);
}
