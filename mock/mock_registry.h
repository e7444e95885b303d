// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The registry of live allocations and imported mappings.
//
// Every registered range is page-aligned and owns its pages, so a two-level
// page map (page number -> record) finds the record of any pointer inside a
// range, base or interior, in two loads and no lock. Records come from a
// pool (per-thread caches over a shared list), or from an array of their
// own that covers an address range (the arena's: one record per data page,
// that of a block's first page). Ranges with an array are not in the page
// map: the record of a block's base is the array's entry for its page, one
// load (with a million allocations alive, one cache miss instead of two, and
// no page-map line written per alloc and free); an interior pointer is
// found among the entries of the pages a buddy block holding it could start
// at (one per block order). No record is ever returned to the system, so a
// stale record pointer is always safe to read. The arrays live in
// transparent huge pages: they are read at random, and with 4 KiB pages
// most such reads would miss the TLB too.
//
// Concurrency: a record's data is read under a sequence lock (a snapshot is
// consistent or retried); a writer (free, first IPC export) first claims the
// record by moving its sequence from even to odd. Only one claim succeeds,
// which is what makes a double free from two threads fail in one of them.

#ifndef UMF_GPU_MOCK_REGISTRY_H
#define UMF_GPU_MOCK_REGISTRY_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_thread.h"

typedef enum umf_mock_kind_t {
    UMF_MOCK_KIND_DEVICE = 1,
    UMF_MOCK_KIND_HOST = 2,
    UMF_MOCK_KIND_SHARED = 4,   // shared (managed) memory
    UMF_MOCK_KIND_IMPORTED = 8, // a mapping opened from an IPC handle
    UMF_MOCK_KIND_MAPPED = 16,  // physical memory mapped into a reservation
                                // (mock_vmm.h)
} umf_mock_kind_t;

#define UMF_MOCK_KIND_ALLOCATED                                                \
    (UMF_MOCK_KIND_DEVICE | UMF_MOCK_KIND_HOST | UMF_MOCK_KIND_SHARED)

// How the memory of a record was made (for the release).
typedef enum umf_mock_backend_t {
    UMF_MOCK_BACKEND_ARENA = 0,  // b0 = block page, b1 = block order
    UMF_MOCK_BACKEND_MEMFD = 1,  // b0 = the allocation's memfd
    UMF_MOCK_BACKEND_MALLOC = 2, // b0 = the pointer malloc returned
    UMF_MOCK_BACKEND_IMPORT = 3, // b0 = the import's bookkeeping
    UMF_MOCK_BACKEND_VMM = 4,    // b0 = the physical object, b1 = the offset
                                 // in it (mock_vmm.h)
} umf_mock_backend_t;

// export_fd of an allocation that was exported and whose fd was given back
// (zeMemPutIpcHandle): still published for the imports' sake (an arena
// block stays in quarantine), no fd open; the next export opens a new one.
#define UMF_MOCK_EXPORT_PUT (-2)

// A record's data: 64-bit words only, read and written word by word.
typedef struct umf_mock_rec_data_t {
    uint64_t base;       // start address (what alloc returned)
    uint64_t size;       // bytes asked for
    uint64_t mapped;     // bytes the range owns: size rounded up to pages
    uint64_t id;         // unique in this process, never 0
    uint64_t kind;       // umf_mock_kind_t
    int64_t device;      // device index, -1 for none
    uint64_t owner;      // the driver's tag (e.g. its context)
    uint64_t user_flags; // the driver's flags (e.g. cuMemHostAlloc flags)
    int64_t export_fd;   // the fd of the IPC export, -1 before the first,
                         // UMF_MOCK_EXPORT_PUT once it was put back
    uint64_t backend;    // umf_mock_backend_t
    uint64_t b0, b1;     // see umf_mock_backend_t
    int64_t peer_pid;    // imports: the exporting process
    uint64_t peer_id;    // imports: the allocation id in that process
} umf_mock_rec_data_t;

// A record as it is stored: the data's words, some packed together, in two
// cache lines. The first holds everything a free of an arena block reads:
// in a record of an array (the arena's) the second line's fields follow
// from the first and from the record's place in the array, and are neither
// written nor read, so that a free with a million allocations alive misses
// on one line, not two. The data go in and out through the registry's
// functions (umf_mock_registry_insert, umf_mock_record_read, ...), which
// pack and unpack them; umf_mock_record_store writes one field in place.
typedef struct umf_mock_record_t {
    _Atomic uint64_t seq;  // even: stable; odd: claimed by a writer
    _Atomic uint64_t live; // 1 while registered
    uint64_t base, size, owner;
    int64_t export_fd;
    uint64_t meta; // kind, backend, device + 1, user flags, the arena order
    uint64_t id;
    // The second line: not used by a record of an array.
    uint64_t mapped, b0, b1;
    int64_t peer_pid;
    uint64_t peer_id;
    struct umf_mock_record_t *next_free; // pool records only
} __attribute__((aligned(64))) umf_mock_record_t;

// Records of the address range [base, base + (pages << page shift)): the
// record of a block starting at page i is records[i]; blocks of order k
// start at multiples of 2^k pages, for k <= max_order. `used` (read
// atomically) bounds the entries ever registered. Up to UMF_MOCK_MAX_DEVICES
// arrays; false if full.
bool umf_mock_registry_add_array(umf_mock_record_t *records,
                                 _Atomic uint64_t *used, uintptr_t base,
                                 uint64_t pages, unsigned max_order);
void umf_mock_registry_remove_array(umf_mock_record_t *records);

// The system page size and its log2; set by umf_mock_registry_setup().
extern size_t umf_mock_page_size;
extern unsigned umf_mock_page_shift;

void umf_mock_registry_setup(void);

// A free record from this thread's cache; NULL when out of memory.
umf_mock_record_t *umf_mock_record_get(umf_mock_thread_t *t);
// Back to the cache; the record must not be registered.
void umf_mock_record_put(umf_mock_thread_t *t, umf_mock_record_t *rec);

// Registers `rec` with `data` for [data->base, data->base + data->mapped).
// False (nothing registered) when the page map could not grow, or when the
// data do not fit the record (logged): a kind, backend or user flags wider
// than 8, 4 or 32 bits, a device outside -1 .. 16382; for a record of an
// array, data that are not an arena block of order up to 63 at the record's
// own page, `mapped` its size rounded up to pages, no peer.
bool umf_mock_registry_insert(umf_mock_record_t *rec,
                              const umf_mock_rec_data_t *data);

// The page map: page number >> UMF_MOCK_MAP_LEAF_BITS selects a leaf (made
// at first use), the low bits an entry in it. 48-bit addresses.
#define UMF_MOCK_MAP_VA_BITS 48
#define UMF_MOCK_MAP_LEAF_BITS 18
#define UMF_MOCK_MAP_TOP_MAX                                                   \
    (1u << (UMF_MOCK_MAP_VA_BITS - 12 - UMF_MOCK_MAP_LEAF_BITS))
// Entries and leaves are read and written with __atomic builtins.
extern umf_mock_record_t **umf_mock_page_map[UMF_MOCK_MAP_TOP_MAX];
extern unsigned umf_mock_page_map_top;

// The record whose range holds `ptr`, at the moment of the call; NULL if
// none. Read it with umf_mock_record_read before trusting it.
static inline umf_mock_record_t *umf_mock_registry_find(const void *ptr) {
    uint64_t page = (uint64_t)(uintptr_t)ptr >> umf_mock_page_shift;
    uint64_t top = page >> UMF_MOCK_MAP_LEAF_BITS;
    if (top >= umf_mock_page_map_top) {
        return NULL;
    }
    umf_mock_record_t **leaf =
        __atomic_load_n(&umf_mock_page_map[top], __ATOMIC_ACQUIRE);
    if (leaf == NULL) {
        return NULL;
    }
    return __atomic_load_n(&leaf[page & ((1u << UMF_MOCK_MAP_LEAF_BITS) - 1)],
                           __ATOMIC_ACQUIRE);
}

// A consistent snapshot of a registered record and its sequence number;
// false when the record is not registered (freed meanwhile).
bool umf_mock_record_read(umf_mock_record_t *rec, umf_mock_rec_data_t *out,
                          uint64_t *seq);

// Finds and snapshots the record holding `ptr`; false if none holds it.
bool umf_mock_registry_lookup(const void *ptr, umf_mock_record_t **rec,
                              umf_mock_rec_data_t *out, uint64_t *seq);

// Finds and claims the record whose range holds `ptr` (the free path: no
// snapshot first). On success *data holds the record's data; the caller
// either removes it or releases the claim. False if no live record holds
// `ptr`.
bool umf_mock_registry_claim_at(const void *ptr, umf_mock_record_t **rec,
                                umf_mock_rec_data_t *data);

// Claims `rec` for a writer if it is still at sequence `seq`.
bool umf_mock_record_claim(umf_mock_record_t *rec, uint64_t seq);
// Ends a claim that changed nothing, or only the word at `field`.
void umf_mock_record_release(umf_mock_record_t *rec);
// Writes one word of a claimed record: &rec->export_fd, or &rec->b1 of a
// record that is in no array.
void umf_mock_record_store(uint64_t *field, uint64_t value);
// Unregisters a claimed record and ends the claim.
void umf_mock_registry_remove(umf_mock_record_t *rec);

// Calls fn for a snapshot of every registered record (the leak report).
// Not for hot paths: it walks every record ever made.
void umf_mock_registry_foreach(void (*fn)(const umf_mock_rec_data_t *, void *),
                               void *ctx);

// This thread is exiting: its cached records go back to the shared list.
void umf_mock_registry_thread_exit(umf_mock_thread_t *t);

#endif // UMF_GPU_MOCK_REGISTRY_H
