// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Event state that processes share: the emulated drivers' event pools
// (Level Zero) and events (CUDA), and their IPC.
//
// A pool is a set of `count` event slots. A pool made shareable lives in a
// memfd that another process maps from an IPC handle, so that a signal in
// one process is seen in every process that has the pool mapped; other
// pools live in private memory. Each slot is signalled, reset, queried and
// waited for, from any thread of any process that maps it; a waiter sleeps
// on a futex in the shared page (a non-private futex works across
// processes) and a signal wakes it.
//
// The exporter's pool owns its memfd: the IPC handle carries that fd, valid
// in the exporter only. The importer must hold its own copy of the fd (a
// Level Zero application passes it in the handle's first bytes, as for
// memory; the emulated libcuda takes it with umf_mock_fd_from_process) and
// keeps ownership of it: an import maps the file and never closes the fd.
// An imported pool stays valid after the exporter released its pool, until
// the importer releases the import.
//
// The handle is untrusted: it is checked field by field and by checksum,
// the fd must be one of this module's memfds for the exported pool (its
// name carries the pool id), and the file's own header must agree with the
// handle before a slot is touched.

#ifndef UMF_GPU_MOCK_EVENTS_H
#define UMF_GPU_MOCK_EVENTS_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_status.h"

typedef struct umf_mock_events_t umf_mock_events_t;

// The most slots of one pool.
#define UMF_MOCK_EVENTS_MAX (1u << 20)
// Both drivers' IPC event handles are 64 bytes.
#define UMF_MOCK_EVENTS_HANDLE_BYTES 64

// A pool of `count` (1..UMF_MOCK_EVENTS_MAX) slots, every one reset.
// `shareable`: in a memfd, exportable. INVALID_ARGUMENT for a bad count,
// OUT_OF_HOST_MEMORY (also: no fd left).
umf_mock_status_t umf_mock_events_create(uint32_t count, bool shareable,
                                         umf_mock_events_t **out);

// Releases a pool made by umf_mock_events_create (closing its memfd, and
// no longer serving it: umf_fd_server_revoke(0, the pool's address)) or an
// import (unmapping it). NULL is ignored.
void umf_mock_events_release(umf_mock_events_t *pool);

uint32_t umf_mock_events_count(const umf_mock_events_t *pool);
// True for a pool opened from an IPC handle.
bool umf_mock_events_imported(const umf_mock_events_t *pool);
// True for a pool that other processes may map (shareable or imported).
bool umf_mock_events_shared(const umf_mock_events_t *pool);

// Slot `index` (< count) of a pool. Lock-free; a signal is visible to every
// process that maps the pool, with the writes made before it (release /
// acquire order).
void umf_mock_event_signal(umf_mock_events_t *pool, uint32_t index);
void umf_mock_event_reset(umf_mock_events_t *pool, uint32_t index);
bool umf_mock_event_signaled(const umf_mock_events_t *pool, uint32_t index);
// CLOCK_MONOTONIC time of the last signal in ns (0 before the first). Every
// process of a machine reads the same clock.
uint64_t umf_mock_event_signal_time(const umf_mock_events_t *pool,
                                    uint32_t index);
// Waits until the slot is signalled, at most `timeout_ns` (UINT64_MAX:
// without limit; 0: only looks). True when it is signalled.
bool umf_mock_event_wait(umf_mock_events_t *pool, uint32_t index,
                         uint64_t timeout_ns);
// The same, and false as soon as give_up(arg) holds: a wait that can never
// end. The condition is asked once the waiter is marked as waiting, so a
// umf_mock_event_interrupt made after the condition became true (with
// sequentially consistent order) always ends the wait.
bool umf_mock_event_wait_until(umf_mock_events_t *pool, uint32_t index,
                               uint64_t timeout_ns, bool (*give_up)(void *arg),
                               void *arg);
// Wakes every waiter of the slot in this process without signalling it,
// so that each asks its give_up condition again.
void umf_mock_event_interrupt(umf_mock_events_t *pool, uint32_t index);

// ---- One sleeper, many slots -----------------------------------------------
//
// A thread that waits for whichever of several things happens first (the
// emulated Level Zero driver's thread, which runs the commands that wait
// for events) sleeps on a bell: a word of its process that others ring to
// wake it, and on the slots of shared pools, which other processes
// signal. It reads the bell, looks at what it waits for, then sleeps until
// the bell rang since it read it or one of the slots is signalled. Where
// the kernel cannot wait for several words (futex_waitv, Linux 5.16) or
// there are more slots than it takes, it looks at the slots every
// millisecond.

typedef struct umf_mock_event_ref_t {
    umf_mock_events_t *pool;
    uint32_t index;
} umf_mock_event_ref_t;

// Changes the bell and wakes its sleepers (release order).
void umf_mock_bell_ring(_Atomic uint32_t *bell);
// Sleeps until *bell differs from `seen`, one of the `n` slots is
// signalled, or `timeout_ns` passed (UINT64_MAX: without limit); it may
// return early.
void umf_mock_bell_sleep(_Atomic uint32_t *bell, uint32_t seen,
                         const umf_mock_event_ref_t *slots, size_t n,
                         uint64_t timeout_ns);

// ---- IPC -------------------------------------------------------------------

typedef struct umf_mock_events_desc_t {
    int fd;         // the exporter's memfd; valid in the exporting process
    int pid;        // the exporting process
    uint32_t count; // slots
    uint64_t id;    // the pool's id, unique among the exporter's pools
    // Who exported, for an importer that takes the fd itself (the emulated
    // libcuda: mock_ipc.h, umf_mock_fd_origin_t); 0 in version 1 handles.
    uint64_t start_time; // the exporter's start time, 0 when pidfs_ino is
                         // known
    uint64_t pidfs_ino;  // the exporter's pidfd inode (Linux 6.9+), or 0
    uint64_t file_ino;   // inode number of the memfd
    uint8_t served;      // umf_fd_socket_kind_t: where the exporter serves
                         // the fd (set by its driver; NONE by export)
} umf_mock_events_desc_t;

// Describes a shareable pool for another process, this process's identity
// and the memfd's inode included. NOT_SUPPORTED for a pool made without
// `shareable` (and for imports: export the original).
umf_mock_status_t umf_mock_events_export(const umf_mock_events_t *pool,
                                         umf_mock_events_desc_t *desc);

// The 64-byte handle: the fd in the first 4 bytes (bytes 4-7 zero), as in a
// memory handle, then a magic number, the fields and a checksum of all but
// the fd (which an importer replaces with its own). Version 2 carries the
// exporter's identity and where it serves the fd; version 1 handles (none
// of that) are still read.
void umf_mock_events_pack(const umf_mock_events_desc_t *desc,
                          unsigned char handle[UMF_MOCK_EVENTS_HANDLE_BYTES]);
// INVALID_ARGUMENT for anything umf_mock_events_pack did not make.
umf_mock_status_t
umf_mock_events_unpack(const unsigned char handle[UMF_MOCK_EVENTS_HANDLE_BYTES],
                       umf_mock_events_desc_t *desc);

// Maps the pool of `desc`, whose fd must be valid in this process (it stays
// the caller's). INVALID_ARGUMENT for a bad descriptor or an fd that is not
// open, STALE_HANDLE for an fd that is not the exported pool's memory,
// OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_events_import(const umf_mock_events_desc_t *desc,
                                         umf_mock_events_t **out);

#endif // UMF_GPU_MOCK_EVENTS_H
