// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: virtual and physical memory (zeVirtualMem*, zePhysicalMem*),
// one test per clause of ze_api.h, and the IPC of memory mapped from
// physical memory between real processes. Data moves with copies only.
// They run unchanged on a real GPU; what only the emulated driver can tell
// (live counts, refusals a real driver may leave undefined) is checked when
// its control API is there.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_test_util.h"

static const umf_test_mock_control_t *emulated(void) {
    return ze_test_control_if_emulated();
}

static size_t page_for(ze_test_t *t, size_t size) {
    size_t page = 0;
    if (zeVirtualMemQueryPageSize(t->ctx, t->devices[0], size, &page) !=
        ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeVirtualMemQueryPageSize");
        return 0;
    }
    return page;
}

static ze_physical_mem_handle_t make_phys(ze_test_t *t, size_t size) {
    ze_physical_mem_desc_t d = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0,
                                size};
    ze_physical_mem_handle_t ph = NULL;
    ze_result_t r = zePhysicalMemCreate(t->ctx, t->devices[0], &d, &ph);
    if (r != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zePhysicalMemCreate(%zu): 0x%x",
                        size, r);
        return NULL;
    }
    return ph;
}

// A start address to ask for that no one can have (the first page); the
// driver reserves elsewhere. Not NULL: the loader's validation layer
// applies the spec's `nullptr == pStart` clause, although the text says a
// NULL start lets the driver choose (which the emulated driver, as real
// ones, accepts).
#define ANYWHERE ((const void *)(uintptr_t)4096)

static void *reserve(ze_test_t *t, size_t size) {
    void *va = NULL;
    ze_result_t r = zeVirtualMemReserve(t->ctx, ANYWHERE, size, &va);
    if (r != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeVirtualMemReserve(%zu): 0x%x",
                        size, r);
        return NULL;
    }
    return va;
}

// `phys_pages` pages of new physical memory mapped with `access` at the
// start of a new reservation of `va_pages` pages; NULL (a test failure) if
// a step fails.
static char *map_new(ze_test_t *t, size_t page, size_t phys_pages,
                     size_t va_pages, ze_memory_access_attribute_t access,
                     ze_physical_mem_handle_t *ph) {
    *ph = make_phys(t, phys_pages * page);
    void *va = *ph != NULL ? reserve(t, va_pages * page) : NULL;
    if (va != NULL && zeVirtualMemMap(t->ctx, va, phys_pages * page, *ph, 0,
                                      access) != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeVirtualMemMap");
        return NULL;
    }
    return va;
}

// Frees a reservation (what is still mapped in it with it) and the
// physical memory.
static void free_both(ze_test_t *t, void *va, size_t size,
                      ze_physical_mem_handle_t ph) {
    UMF_EXPECT_EQ(zeVirtualMemFree(t->ctx, va, size), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t->ctx, ph), ZE_RESULT_SUCCESS);
}

static ze_memory_access_attribute_t access_at(ze_test_t *t, void *va,
                                              size_t size, size_t *same) {
    ze_memory_access_attribute_t a = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
    *same = 0;
    ze_result_t r = zeVirtualMemGetAccessAttribute(t->ctx, va, size, &a, same);
    if (r != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__,
                        "zeVirtualMemGetAccessAttribute: 0x%x", r);
    }
    return a;
}

// "Queries page size to use for aligning virtual memory reservations and
// physical memory allocations": UNSUPPORTED_SIZE `0 == size`,
// INVALID_NULL_POINTER `nullptr == pagesize`.
UMF_C_TEST(zeVirtualMemQueryPageSize, PowerOfTwoForEverySize) {
    ZE_TEST_SETUP(t);
    const size_t sizes[] = {1, 4096, 65536, 2u << 20, 100u << 20};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t page = page_for(&t, sizes[i]);
        UMF_EXPECT(page >= 4096 && (page & (page - 1)) == 0);
    }
    size_t page;
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, t.devices[0], 0, &page),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, t.devices[0], 1, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeVirtualMemQueryPageSize(t.ctx, NULL, 1, &page),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// "The size must be page aligned": UNSUPPORTED_SIZE `0 == desc->size`,
// the NULL pointers, and the object counts against its device's memory.
UMF_C_TEST(zePhysicalMemCreate, ArgumentsAndDeviceMemory) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 2u << 20);
    UMF_ASSERT(page > 0);
    ze_physical_mem_desc_t d = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0,
                                0};
    ze_physical_mem_handle_t ph;
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zePhysicalMemCreate(t.ctx, t.devices[0], &d, &ph),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    d.size = page;
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zePhysicalMemCreate(t.ctx, t.devices[0], NULL, &ph),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zePhysicalMemCreate(t.ctx, t.devices[0], &d, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    const umf_test_mock_control_t *ctl = emulated();
    if (ctl != NULL) {
        int64_t phys = ctl->get_live_count(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY);
        // Not a multiple of the page it asks for: UNSUPPORTED_SIZE, as Intel's
        // driver answers (ze_api.h also lists UNSUPPORTED_ALIGNMENT).
        d.size = page + 4096;
        UMF_EXPECT_EQ(zePhysicalMemCreate(t.ctx, t.devices[0], &d, &ph),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        d.size = 2ull << 30; // more than the device has (1G)
        UMF_EXPECT_EQ(zePhysicalMemCreate(t.ctx, t.devices[0], &d, &ph),
                      ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
        UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY),
                      phys);
    }
    ph = make_phys(&t, page);
    UMF_ASSERT(ph != NULL);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph), ZE_RESULT_SUCCESS);
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zePhysicalMemCreate(NULL, t.devices[0], &d, &ph),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// "The access attributes will default to none"; UNSUPPORTED_SIZE
// `0 == size`; INVALID_NULL_POINTER `nullptr == pptr`. A start that is free
// is taken ("will attempt to reserve starting from that address").
UMF_C_TEST(zeVirtualMemReserve, StartsInaccessibleAtTheAskedAddress) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 2u << 20);
    void *va = reserve(&t, 4 * page);
    UMF_ASSERT(va != NULL);
    UMF_EXPECT_EQ((uintptr_t)va % page, 0);
    size_t same;
    UMF_EXPECT_EQ(access_at(&t, va, 4 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    UMF_EXPECT_EQ(same, 4 * page);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 4 * page), ZE_RESULT_SUCCESS);
    void *again = NULL;
    UMF_ASSERT_EQ(zeVirtualMemReserve(t.ctx, va, 2 * page, &again),
                  ZE_RESULT_SUCCESS);
    if (emulated() != NULL) {
        UMF_EXPECT_PTR_EQ(again, va); // it was free
    }
    void *elsewhere = NULL; // taken now: another address
    UMF_ASSERT_EQ(zeVirtualMemReserve(t.ctx, again, 2 * page, &elsewhere),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(elsewhere != again);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, elsewhere, 2 * page),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, again, 2 * page), ZE_RESULT_SUCCESS);
    void *none;
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemReserve(t.ctx, ANYWHERE, 0, &none),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        UMF_EXPECT_EQ(zeVirtualMemReserve(t.ctx, ANYWHERE, page, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (!ze_test_validation_layer()) { // "If nullptr then implementation will
                                       // choose a start address."
        UMF_EXPECT_EQ(zeVirtualMemReserve(t.ctx, NULL, page, &none),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, none, page), ZE_RESULT_SUCCESS);
    }
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, page),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT); // freed already
    }
    ze_test_teardown(&t);
}

// zeVirtualMemFree: INVALID_NULL_HANDLE `nullptr == hContext`,
// INVALID_NULL_POINTER `nullptr == ptr`, UNSUPPORTED_SIZE `0 == size`,
// UNSUPPORTED_ALIGNMENT. A refused free leaves the reservation as it was.
UMF_C_TEST(zeVirtualMemFree, ArgumentClauses) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    void *va = reserve(&t, 4 * page);
    UMF_ASSERT(va != NULL);
    char *p = va;
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeVirtualMemFree(NULL, va, 4 * page),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, NULL, 4 * page),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 0),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    const umf_test_mock_control_t *ctl = emulated();
    if (ctl != NULL) {
        int64_t resv =
            ctl->get_live_count(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS);
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, p + 1, 4 * page),
                      ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 4 * page - 1),
                      ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        // Not a reservation as it was made: a part of it, or more.
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, p + page, 3 * page),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 2 * page),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 8 * page),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(
            ctl->get_live_count(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS), resv);
    }
    // Still whole: it maps and holds data.
    ze_physical_mem_handle_t ph = make_phys(&t, 4 * page);
    UMF_ASSERT(ph != NULL);
    UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, 4 * page, ph, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_fill_byte(&t, p + 3 * page, 0x7a, page));
    UMF_EXPECT(ze_test_all_bytes(&t, p + 3 * page, 0x7a, page));
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 4 * page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// zePhysicalMemDestroy: INVALID_NULL_HANDLE `nullptr == hContext`,
// `nullptr == hPhysicalMemory`; HANDLE_OBJECT_IN_USE while it is mapped
// (the device may be referencing it). A handle destroyed already is no
// handle (emulated: refused, never a crash).
UMF_C_TEST(zePhysicalMemDestroy, InUseWhileMapped) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    ze_physical_mem_handle_t ph = make_phys(&t, page);
    void *va = reserve(&t, page);
    UMF_ASSERT(ph != NULL && va != NULL);
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zePhysicalMemDestroy(NULL, ph),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, va, page, ph, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    const umf_test_mock_control_t *ctl = emulated();
    if (ctl != NULL) {
        UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph),
                      ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
        UMF_EXPECT(ze_test_fill_byte(&t, va, 0x11, page)); // still there
        UMF_EXPECT(ze_test_all_bytes(&t, va, 0x11, page));
    }
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, page), ZE_RESULT_SUCCESS);
    int64_t phys = ctl != NULL
                       ? ctl->get_live_count(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY)
                       : 0;
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph), ZE_RESULT_SUCCESS);
    if (ctl != NULL) {
        UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY),
                      phys - 1);
        if (!ze_test_intercept()) { // there the loader reads the handle
            UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph),
                          ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
            UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, page, ph, 0,
                                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                          ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        }
    }
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, page), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// Mapped memory holds data that copies move, through every mapping of the
// same physical memory; "Physical allocations objects that were mapped to
// this range will not be destroyed" by zeVirtualMemFree.
UMF_C_TEST(zeVirtualMemMap, MappingsOfOnePhysicalObjectShareIt) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 2u << 20);
    ze_physical_mem_handle_t ph = make_phys(&t, 2 * page);
    void *a = reserve(&t, 2 * page), *b = reserve(&t, 2 * page);
    UMF_ASSERT(ph != NULL && a != NULL && b != NULL);
    UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, a, 2 * page, ph, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, b, page, ph, page,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT(ze_test_fill_byte(&t, a, 0x21, page));
    UMF_ASSERT(ze_test_fill_byte(&t, (char *)a + page, 0x42, page));
    UMF_EXPECT(ze_test_all_bytes(&t, b, 0x42, page)); // the second page
    UMF_EXPECT(ze_test_fill_byte(&t, b, 0x43, 100));
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)a + page, 0x43, 100));
    ze_memory_allocation_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    UMF_EXPECT_EQ(zeMemGetAllocProperties(t.ctx, (char *)a + 10, &mp, NULL),
                  ZE_RESULT_SUCCESS);
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(mp.type, ZE_MEMORY_TYPE_DEVICE);
    }
    // The physical object is mapped: it is in use.
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph),
                      ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    }
    // Freeing a reservation unmaps it, and the physical memory stays.
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, a, 2 * page), ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, b, 0x43, 100));
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, b, page), ZE_RESULT_SUCCESS);
    void *c = reserve(&t, 2 * page);
    UMF_ASSERT(c != NULL);
    UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, c, 2 * page, ph, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, c, 0x21, page));
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)c + page, 0x43, 100));
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, c, 2 * page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, b, 2 * page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, c, 2 * page), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// The map's clauses: INVALID_NULL_HANDLE `nullptr == hPhysicalMemory`,
// INVALID_NULL_POINTER `nullptr == ptr`, UNSUPPORTED_SIZE `0 == size`,
// UNSUPPORTED_ALIGNMENT; "The virtual address range must have been
// reserved".
UMF_C_TEST(zeVirtualMemMap, ArgumentClauses) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 2u << 20);
    ze_physical_mem_handle_t ph = make_phys(&t, page);
    void *va = reserve(&t, 2 * page);
    UMF_ASSERT(ph != NULL && va != NULL);
    const ze_memory_access_attribute_t rw =
        ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, page, NULL, 0, rw),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, NULL, page, ph, 0, rw),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, 0, ph, 0, rw),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, (char *)va + 1, page, ph, 0, rw),
                      ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, page, ph, 1, rw),
                      ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        // Past the physical memory, outside the reservation, twice.
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, 2 * page, ph, 0, rw),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(
            zeVirtualMemMap(t.ctx, (char *)va + page, 2 * page, ph, 0, rw),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
        int on_stack;
        void *unreserved = (void *)((uintptr_t)&on_stack & ~(page - 1));
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, unreserved, page, ph, 0, rw),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, va, page, ph, 0, rw),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va, page, ph, 0, rw),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, page), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 2 * page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// zeVirtualMemUnmap: INVALID_NULL_HANDLE `nullptr == hContext`,
// INVALID_NULL_POINTER `nullptr == ptr`, UNSUPPORTED_SIZE `0 == size` and
// "Size must be page aligned", UNSUPPORTED_ALIGNMENT "Address must be page
// aligned". A refused unmap leaves the mapping as it was.
UMF_C_TEST(zeVirtualMemUnmap, ArgumentClauses) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    ze_physical_mem_handle_t ph;
    char *va =
        map_new(&t, page, 2, 4, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, &ph);
    char *p = va;
    UMF_ASSERT(va != NULL);
    UMF_ASSERT(ze_test_fill_byte(&t, va, 0x2d, 2 * page));
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeVirtualMemUnmap(NULL, va, page),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, NULL, page),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, 0),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, p + 1, page),
                      ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, page + 1),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        // Past the reservation, in part or wholly.
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, 5 * page),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, p + 4 * page, page),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    // Reserved, never mapped: nothing to do (Intel's driver succeeds too).
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, p + 3 * page, page),
                  ZE_RESULT_SUCCESS);
    size_t same;
    UMF_EXPECT_EQ(access_at(&t, va, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    UMF_EXPECT_EQ(same, 2 * page);
    UMF_EXPECT(ze_test_all_bytes(&t, va, 0x2d, 2 * page));
    // A range that is mapped in part: what is mapped goes; an unmap of it
    // again has nothing left to do.
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, 3 * page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, va, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, 2 * page), ZE_RESULT_SUCCESS);
    free_both(&t, va, 4 * page, ph);
    ze_test_teardown(&t);
}

// zeVirtualMemSetAccessAttribute: INVALID_NULL_HANDLE `nullptr ==
// hContext`, INVALID_NULL_POINTER `nullptr == ptr`, UNSUPPORTED_SIZE `0 ==
// size` and "Size must be page aligned", UNSUPPORTED_ALIGNMENT "Address
// must be page aligned" (the enumeration clause: ZeConfFlags). What it sets
// is what zeVirtualMemGetAccessAttribute reports and what copies meet.
UMF_C_TEST(zeVirtualMemSetAccessAttribute, ArgumentClauses) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    ze_physical_mem_handle_t ph;
    char *va =
        map_new(&t, page, 2, 2, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, &ph);
    char *p = va;
    UMF_ASSERT(va != NULL);
    const ze_memory_access_attribute_t rw =
        ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(NULL, va, page, rw),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(t.ctx, NULL, page, rw),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(t.ctx, va, 0, rw),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(t.ctx, p + 1, page, rw),
                      ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(t.ctx, va, page + 1, rw),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        // Past the mapped memory.
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(t.ctx, va, 4 * page, rw),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    // Nothing refused changed anything: read-only throughout.
    size_t same;
    UMF_EXPECT_EQ(access_at(&t, va, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    UMF_EXPECT_EQ(same, 2 * page);
    UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(t.ctx, va, 2 * page, rw),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, va, 2 * page, &same), rw);
    UMF_EXPECT_EQ(same, 2 * page);
    UMF_EXPECT(ze_test_fill_byte(&t, p + page, 0x5f, page));
    UMF_EXPECT(ze_test_all_bytes(&t, p + page, 0x5f, page));
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, 2 * page), ZE_RESULT_SUCCESS);
    free_both(&t, va, 2 * page, ph);
    ze_test_teardown(&t);
}

// The range is "a reserved virtual address region": pages of it that are
// not mapped may be part of it (Intel's driver takes them; programs set the
// access of a whole reservation before or after mapping parts of it). They
// keep the attribute ("page access attributes to apply to the virtual
// address range"), and a mapping made later has the access it is given
// (zeVirtualMemMap's own "page access attributes to apply").
UMF_C_TEST(zeVirtualMemSetAccessAttribute, UnmappedPagesOfTheReservation) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    ze_physical_mem_handle_t ph;
    char *va =
        map_new(&t, page, 1, 3, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, &ph);
    UMF_ASSERT(va != NULL);
    UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(
                      t.ctx, va, 3 * page, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY),
                  ZE_RESULT_SUCCESS);
    // One attribute over mapped and unmapped pages: one run.
    size_t same;
    UMF_EXPECT_EQ(access_at(&t, va, 3 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    UMF_EXPECT_EQ(same, 3 * page);
    UMF_EXPECT_EQ(access_at(&t, va + page, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    UMF_EXPECT_EQ(same, 2 * page);
    // Wholly unmapped pages, one of two changed.
    UMF_EXPECT_EQ(
        zeVirtualMemSetAccessAttribute(t.ctx, va + 2 * page, page,
                                       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, va + page, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    UMF_EXPECT_EQ(same, page);
    UMF_EXPECT_EQ(access_at(&t, va + 2 * page, page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    UMF_EXPECT_EQ(same, page);
    // A mapping over a page that kept read-only: the mapping's access.
    ze_physical_mem_handle_t ph2 = make_phys(&t, page);
    UMF_ASSERT(ph2 != NULL);
    UMF_EXPECT_EQ(zeVirtualMemMap(t.ctx, va + page, page, ph2, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, va + page, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    UMF_EXPECT_EQ(same, 2 * page);
    UMF_EXPECT(ze_test_fill_byte(&t, va + page, 0x3c, page));
    UMF_EXPECT(ze_test_all_bytes(&t, va + page, 0x3c, page));
    // "The page access attributes for virtual address range will revert
    // back to none" on unmap, whatever was set before the mapping.
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va + page, page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, va + page, page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    UMF_EXPECT_EQ(same, page);
    if (emulated() != NULL) {
        // Past the reservation: refused, and nothing changed.
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(
                          t.ctx, va, 4 * page, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE),
                      ZE_RESULT_ERROR_INVALID_ARGUMENT);
        UMF_EXPECT_EQ(access_at(&t, va + 2 * page, page, &same),
                      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    }
    free_both(&t, va, 3 * page, ph);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph2), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// Intel's conformance suite
// (GivenVirtualMemoryReservationThenSettingTheMemoryAccessAttributeReturnsSuccess):
// a reservation with nothing mapped takes each attribute and reads it back,
// over the whole reservation.
UMF_C_TEST(zeVirtualMemSetAccessAttribute, ReservationWithNothingMapped) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    void *va = reserve(&t, 4 * page);
    UMF_ASSERT(va != NULL);
    size_t same;
    UMF_EXPECT_EQ(access_at(&t, va, 4 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    UMF_EXPECT_EQ(same, 4 * page);
    const ze_memory_access_attribute_t each[] = {
        ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE,
        ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE};
    for (size_t i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
        UMF_EXPECT_EQ(
            zeVirtualMemSetAccessAttribute(t.ctx, va, 4 * page, each[i]),
            ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(access_at(&t, va, 4 * page, &same), each[i]);
        UMF_EXPECT_EQ(same, 4 * page);
    }
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, 4 * page), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "If size and outSize are equal then the pages in the specified virtual
// address range have the same access attributes"; "The page access
// attributes for virtual address range will revert back to none" on unmap.
UMF_C_TEST(zeVirtualMemGetAccessAttribute, RunsOfOneAttribute) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    ze_physical_mem_handle_t ph;
    char *va =
        map_new(&t, page, 4, 4, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, &ph);
    char *p = va;
    UMF_ASSERT(va != NULL);
    size_t same;
    UMF_EXPECT_EQ(access_at(&t, va, 4 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    UMF_EXPECT_EQ(same, 4 * page);
    UMF_EXPECT_EQ(
        zeVirtualMemSetAccessAttribute(t.ctx, p + page, page,
                                       ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, va, 4 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    UMF_EXPECT_EQ(same, page);
    UMF_EXPECT_EQ(access_at(&t, p + page, 3 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    UMF_EXPECT_EQ(same, page);
    // A page in the middle unmapped: it reverts to none.
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, p + 2 * page, page),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(access_at(&t, p + 2 * page, 2 * page, &same),
                  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    UMF_EXPECT_EQ(same, page);
    UMF_EXPECT(ze_test_fill_byte(&t, p + 3 * page, 0x19, page));
    UMF_EXPECT(ze_test_all_bytes(&t, p + 3 * page, 0x19, page));
    // The clauses.
    ze_memory_access_attribute_t a;
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemGetAccessAttribute(t.ctx, va, 0, &a, &same),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        UMF_EXPECT_EQ(
            zeVirtualMemGetAccessAttribute(t.ctx, va, page, NULL, &same),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(zeVirtualMemGetAccessAttribute(t.ctx, va, page, &a, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        UMF_EXPECT_EQ(
            zeVirtualMemGetAccessAttribute(t.ctx, NULL, page, &a, &same),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeVirtualMemGetAccessAttribute(NULL, va, page, &a, &same),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeVirtualMemSetAccessAttribute(
                          t.ctx, va, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    }
    if (emulated() != NULL) {
        UMF_EXPECT_EQ(
            zeVirtualMemGetAccessAttribute(t.ctx, p + 1, page, &a, &same),
            ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
        UMF_EXPECT_EQ(
            zeVirtualMemGetAccessAttribute(t.ctx, va, page + 1, &a, &same),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        // A read-only page takes no copy into it; a read does.
        UMF_EXPECT(ze_test_copy(&t, p + page, p + 3 * page, 16) !=
                   ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(ze_test_copy(&t, p + 3 * page, p + page, 16),
                      ZE_RESULT_SUCCESS);
    }
    free_both(&t, va, 4 * page, ph);
    ze_test_teardown(&t);
}

// "The application may call this function from simultaneous threads" and
// "must be thread-safe" (reserve, create, map, unmap, free; the access
// calls): threads run whole cycles on their own objects at once, and each
// finds what it set.
enum { VMM_THREADS = 4, VMM_ROUNDS = 25 };

typedef struct vmm_thread_t {
    ze_test_t *t;
    size_t page;
    int failures;
} vmm_thread_t;

static bool vmm_cycle(ze_test_t *t, size_t page) {
    ze_physical_mem_desc_t d = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0,
                                2 * page};
    ze_physical_mem_handle_t ph = NULL;
    void *va = NULL;
    bool ok = zePhysicalMemCreate(t->ctx, t->devices[0], &d, &ph) ==
                  ZE_RESULT_SUCCESS &&
              zeVirtualMemReserve(t->ctx, ANYWHERE, 2 * page, &va) ==
                  ZE_RESULT_SUCCESS &&
              zeVirtualMemMap(t->ctx, va, 2 * page, ph, 0,
                              ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
                  ZE_RESULT_SUCCESS &&
              zeVirtualMemSetAccessAttribute(
                  t->ctx, (char *)va + page, page,
                  ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) == ZE_RESULT_SUCCESS;
    ze_memory_access_attribute_t a = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
    size_t same = 0;
    ok = ok &&
         zeVirtualMemGetAccessAttribute(t->ctx, va, 2 * page, &a, &same) ==
             ZE_RESULT_SUCCESS &&
         a == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE && same == page &&
         zeVirtualMemUnmap(t->ctx, va, 2 * page) == ZE_RESULT_SUCCESS;
    if (va != NULL && zeVirtualMemFree(t->ctx, va, 2 * page) !=
                          ZE_RESULT_SUCCESS) { // unmaps what is left
        ok = false;
    }
    if (ph != NULL && zePhysicalMemDestroy(t->ctx, ph) != ZE_RESULT_SUCCESS) {
        ok = false;
    }
    return ok;
}

static void *vmm_cycles(void *arg) {
    vmm_thread_t *w = arg;
    for (int i = 0; i < VMM_ROUNDS; i++) {
        w->failures += !vmm_cycle(w->t, w->page);
    }
    return NULL;
}

UMF_C_TEST(zeVirtualMemMap, FromSimultaneousThreads) {
    ZE_TEST_SETUP(t);
    size_t page = page_for(&t, 4096);
    UMF_ASSERT(page > 0);
    const umf_test_mock_control_t *ctl = emulated();
    int64_t maps =
        ctl != NULL ? ctl->get_live_count(UMF_GPU_MOCK_LIVE_MAPPINGS) : 0;
    vmm_thread_t w[VMM_THREADS];
    pthread_t th[VMM_THREADS];
    for (int i = 0; i < VMM_THREADS; i++) {
        w[i] = (vmm_thread_t){&t, page, 0};
        UMF_ASSERT_EQ(pthread_create(&th[i], NULL, vmm_cycles, &w[i]), 0);
    }
    for (int i = 0; i < VMM_THREADS; i++) {
        UMF_EXPECT_EQ(pthread_join(th[i], NULL), 0);
        UMF_EXPECT_EQ(w[i].failures, 0);
    }
    if (ctl != NULL) {
        UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_MAPPINGS), maps);
    }
    ze_test_teardown(&t);
}

// What a destroyed context reserved and made goes with it.
UMF_C_TEST(zeContextDestroy, FreesItsVirtualAndPhysicalMemory) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = emulated();
    if (ctl == NULL) {
        ze_test_teardown(&t);
        return;
    }
    int64_t phys = ctl->get_live_count(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY);
    int64_t resv = ctl->get_live_count(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS);
    int64_t maps = ctl->get_live_count(UMF_GPU_MOCK_LIVE_MAPPINGS);
    ze_test_t other = t;
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &other.ctx),
                  ZE_RESULT_SUCCESS);
    size_t page = page_for(&other, 4096);
    ze_physical_mem_handle_t ph = make_phys(&other, 2 * page);
    void *va = reserve(&other, 2 * page);
    UMF_ASSERT(ph != NULL && va != NULL);
    UMF_ASSERT_EQ(zeVirtualMemMap(other.ctx, va, page, ph, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_MAPPINGS), maps + 1);
    UMF_EXPECT_EQ(zeContextDestroy(other.ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY), phys);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS),
                  resv);
    UMF_EXPECT_EQ(ctl->get_live_count(UMF_GPU_MOCK_LIVE_MAPPINGS), maps);
    ze_test_teardown(&t);
}

// ---- IPC of mapped memory, between processes -----------------------------

typedef struct vmm_msg_t {
    ze_ipc_mem_handle_t handle;
    pid_t pid;
    size_t size;
} vmm_msg_t;

// Opens the parent's mapped memory, checks it, writes, closes.
UMF_TEST_CHILD(ze_conf_vmm_consumer) {
    (void)argc;
    (void)argv;
    ze_test_t t;
    vmm_msg_t msg;
    if (!ze_test_setup(&t) || umf_test_recv(sock, &msg, sizeof(msg))) {
        return 10;
    }
    int mine = ze_test_take_handle_fd(msg.handle.data, msg.pid);
    if (mine < 0) {
        return 11;
    }
    void *p;
    if (zeMemOpenIpcHandle(t.ctx, t.devices[0], msg.handle, 0, &p) !=
        ZE_RESULT_SUCCESS) {
        return 12;
    }
    close(mine);
    if (!ze_test_all_bytes(&t, p, 0x6b, msg.size / 2) ||
        !ze_test_all_bytes(&t, (char *)p + msg.size / 2, 0x6c, msg.size / 2)) {
        return 13;
    }
    if (!ze_test_fill_byte(&t, (char *)p + 8, 0x01, 8)) {
        return 14;
    }
    if (zeMemCloseIpcHandle(t.ctx, p) != ZE_RESULT_SUCCESS) {
        return 15;
    }
    ze_test_teardown(&t);
    char ok = 'k';
    return umf_test_send(sock, &ok, 1) ? 16 : 0;
}

// The conformance suite's IPC memory case: memory mapped from physical
// memory, shared with zeMemGetIpcHandle, opened in another process.
UMF_C_TEST(zeMemGetIpcHandle, MemoryMappedFromPhysicalMemoryAcrossProcesses) {
    ZE_TEST_SETUP(t);
    if (!ze_test_ipc_capable()) {
        ze_test_teardown(&t);
        return;
    }
    size_t page = page_for(&t, 4096);
    size_t size = 4 * page;
    ze_physical_mem_handle_t ph = make_phys(&t, size);
    void *va = reserve(&t, size);
    UMF_ASSERT(ph != NULL && va != NULL);
    UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, va, size, ph, 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT(ze_test_fill_byte(&t, va, 0x6b, size / 2));
    UMF_ASSERT(ze_test_fill_byte(&t, (char *)va + size / 2, 0x6c, size / 2));
    vmm_msg_t msg = {.pid = getpid(), .size = size};
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, va, &msg.handle), ZE_RESULT_SUCCESS);
    ze_ipc_mem_handle_t again;
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, (char *)va + page, &again),
                  ZE_RESULT_SUCCESS);
    if (emulated() != NULL) { // the driver keeps one fd, as for allocations
        UMF_EXPECT(memcmp(&again, &msg.handle, sizeof(again)) == 0);
    }
    umf_test_child_t child;
    UMF_ASSERT_EQ(umf_test_child_start(&child, "ze_conf_vmm_consumer", NULL),
                  0);
    char ok = 0;
    UMF_EXPECT_EQ(umf_test_send(child.sock, &msg, sizeof(msg)), 0);
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &ok, 1), 0);
    UMF_EXPECT_EQ(umf_test_child_wait(&child), 0);
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)va + 8, 0x01, 8));
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)va + 16, 0x6b, 100));
    // In this process too.
    void *p;
    UMF_ASSERT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[1], msg.handle, 0, &p),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(p != va);
    UMF_EXPECT(ze_test_all_bytes(&t, (char *)p + 8, 0x01, 8));
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, p), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, size), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, size), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}
