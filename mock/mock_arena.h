// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The arena memory mode: one sparse memfd per device, split into
// page-granular blocks by a buddy allocator, so that an allocation costs no
// system call yet every byte of device memory lives in a file that another
// process can map (IPC). Untouched pages cost nothing.
//
// File layout: [data: 2^k pages][slots: one 64-bit word per data page].
// The slot of a block's first page is shared between processes: it holds
// the export (a 34-bit tag of the allocation's id and the block's order) of
// the allocation currently exported from that block and the number of live
// imports of it (low 24 bits). An importer counts
// itself in only if the id still matches; the exporter, freeing the block,
// clears the id and, if imports remain, quarantines the block instead of
// reusing it, until the count drops to zero. So an importer's view stays
// valid and intact after the exporter frees, and no new allocation gets
// those pages meanwhile.
//
// Records: the arena holds the allocation record of every block, indexed
// by its first page, and registers them with the registry
// (mock_registry.h), so that a free finds a block's record from its address
// in one load.
//
// Speed: each thread keeps small caches of free blocks of the small orders
// (up to 32 pages); only refills and flushes, in batches, take the arena's
// lock. Small blocks are kept for reuse as they are. Large blocks (2 MiB and
// up) give their pages back to the system when freed, except the most
// recently freed ones (up to an eighth of the device's memory, at most
// 512 MiB), which keep their pages for the next allocation of their order:
// it zeroes the pages that hold data, so that it reads zero as a block with
// fresh pages does, without a page fault per page.

#ifndef UMF_GPU_MOCK_ARENA_H
#define UMF_GPU_MOCK_ARENA_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_registry.h"
#include "mock_status.h"
#include "mock_thread.h"

typedef struct umf_mock_arena_t umf_mock_arena_t;

// Makes the arena of device `device` (an index below UMF_MOCK_MAX_DEVICES,
// used for the thread caches), with room for at least 4 times `capacity`
// bytes of blocks (slack against fragmentation; address space only).
umf_mock_status_t umf_mock_arena_create(unsigned device, uint64_t capacity,
                                        umf_mock_arena_t **out);
// Unmaps and closes everything; no block may be in use. For tests.
void umf_mock_arena_destroy(umf_mock_arena_t *arena);

// The order of a block for `bytes` at `alignment` (0 or a power of two).
unsigned umf_mock_arena_order(uint64_t bytes, uint64_t alignment);

// A block of `order`; its first page index in *page. `t` may be NULL (no
// cache). OUT_OF_DEVICE_MEMORY when no block is free.
umf_mock_status_t umf_mock_arena_alloc(umf_mock_arena_t *arena,
                                       umf_mock_thread_t *t, unsigned order,
                                       void **ptr, uint32_t *page);

// Frees a block. `exported`: the block was published for IPC
// (umf_mock_arena_publish), so imports may keep it in quarantine.
void umf_mock_arena_free(umf_mock_arena_t *arena, umf_mock_thread_t *t,
                         uint32_t page, unsigned order, bool exported);

// Marks the block at `page` as exported under allocation `id`, so that
// importers can count themselves in.
void umf_mock_arena_publish(umf_mock_arena_t *arena, uint32_t page,
                            uint64_t id);

// Gives quarantined blocks no longer imported back; returns how many stay.
size_t umf_mock_arena_reclaim(umf_mock_arena_t *arena);

// The record of the block that starts at `page` (to register it).
umf_mock_record_t *umf_mock_arena_record(umf_mock_arena_t *arena,
                                         uint32_t page);

int umf_mock_arena_fd(const umf_mock_arena_t *arena);
// The inode number of the arena's file (what an IPC handle names).
uint64_t umf_mock_arena_ino(const umf_mock_arena_t *arena);
// log2 of the data pages: the slots start at page_size << data order.
unsigned umf_mock_arena_data_order(const umf_mock_arena_t *arena);
// File offsets of a block's data and of its slot.
uint64_t umf_mock_arena_data_offset(const umf_mock_arena_t *arena,
                                    uint32_t page);
uint64_t umf_mock_arena_slot_offset(const umf_mock_arena_t *arena,
                                    uint32_t page);
// Pages in the arena's free lists and in the freed large blocks it keeps
// (not those in thread caches). For tests.
uint64_t umf_mock_arena_free_pages(umf_mock_arena_t *arena);
// Pages in the arena.
uint64_t umf_mock_arena_pages(const umf_mock_arena_t *arena);

// This thread is exiting: its cached blocks go back to their arenas.
void umf_mock_arena_thread_exit(umf_mock_thread_t *t);

// ---- The shared import slot protocol (both sides) -------------------------

// The exporter publishes allocation `id` of a block of `order` (2^order
// pages) in a slot holding no export; true if the slot now holds it.
bool umf_mock_slot_publish(_Atomic uint64_t *slot, uint64_t id, unsigned order);
// The exporter frees: clears the id; returns the imports still counted.
uint64_t umf_mock_slot_retire(_Atomic uint64_t *slot);
// An importer's liveness lock on a slot: a shared OFD lock on the slot's
// bytes, taken through the importer's own open file description of the
// arena (not the exporter's, which pidfd_getfd shares) before it counts
// itself in. The lock lives as long as that description, which the
// importer's mappings keep after it closes its fd, so it goes when the
// import is unmapped or its process dies. The exporter takes a slot that
// counts imports but is not locked for one whose importers all died.
// 0, or an errno value.
int umf_mock_slot_lock(int own_fd, uint64_t slot_offset);
// An importer of `pages` pages counts itself in; false if the slot no
// longer holds `id` (the allocation was freed), if the block is smaller than
// `pages` (a handle that claims more than was exported), or if it counts
// too many imports.
bool umf_mock_slot_acquire(_Atomic uint64_t *slot, uint64_t id, uint64_t pages);
// An importer closes; false if the slot counted no import (corrupt).
bool umf_mock_slot_release(_Atomic uint64_t *slot);
// The imports counted in a slot word.
uint64_t umf_mock_slot_imports(uint64_t word);

#endif // UMF_GPU_MOCK_ARENA_H
