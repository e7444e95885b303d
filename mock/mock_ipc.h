// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC: exporting an allocation as (fd, offset, size, id), and mapping such an
// export in another process (or the same one).
//
// The exporter's fd belongs to the driver: the first export of an
// allocation opens it (in the arena mode a duplicate of the arena's memfd,
// in the memfd mode the allocation's own memfd), later exports return the
// same fd, and freeing the allocation closes it. The first export in a
// process also lets any process of the user take its fds
// (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY)), for pidfd_getfd under Yama.
//
// An import maps the fd it is given and never takes ownership of it; each
// import is a new mapping unless the caller asks to share one. An imported
// mapping stays valid, with its contents, after the exporter frees the
// allocation, until it is closed (see mock_arena.h for the arena mode).

#ifndef UMF_GPU_MOCK_IPC_H
#define UMF_GPU_MOCK_IPC_H 1

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "mock_memory.h"
#include "mock_status.h"
#include "util_fd.h"
#include "util_fd_socket.h"

// Both drivers' IPC handles are 64 bytes.
#define UMF_MOCK_IPC_HANDLE_BYTES 64
#define UMF_MOCK_NO_SLOT UINT64_MAX
#define UMF_MOCK_NO_ARENA 0xffu

typedef struct umf_mock_ipc_desc_t {
    int fd;               // valid in the exporting process only
    int pid;              // the exporting process
    uint64_t start_time;  // its start time (clock ticks after boot), 0 when
                          // unknown or when pidfs_ino is known ...
    uint64_t pidfs_ino;   // ... its pidfd's inode (Linux 6.9+), or 0: with
                          // pid, who exported
    uint64_t file_ino;    // inode number of the file behind fd, not 0
    uint64_t offset;      // of the data in the file behind fd (whole pages)
    uint64_t size;        // bytes asked for by the allocation
    uint64_t id;          // the allocation's id in the exporting process
    unsigned arena_order; // arena mode: log2 of the arena's data pages, after
                          // which its slots lie; else UMF_MOCK_NO_ARENA
    uint8_t served;       // umf_fd_socket_kind_t: the exporting driver serves
                          // fd over its fd server (util_fd_socket.h) at the
                          // name umf_mock_fd_socket() derives, or NONE
    // Derived from the fields above by umf_mock_ipc_export and
    // umf_mock_ipc_unpack (umf_mock_ipc_pack ignores them):
    uint64_t mapped;      // size rounded up to whole pages: what is mapped
    uint64_t slot_offset; // arena mode: of the import slot in the file;
                          // else UMF_MOCK_NO_SLOT
} umf_mock_ipc_desc_t;

// The 64-byte handle: the fd in the first 4 bytes (as a real Level Zero
// driver puts it; bytes 4-7 stay zero), then a magic number, the fields and
// a checksum of everything but the fd, so that garbage or a truncated copy
// is rejected (the checksum is no protection against forgery: the import
// checks what it can against the file itself).
void umf_mock_ipc_pack(const umf_mock_ipc_desc_t *desc,
                       unsigned char handle[UMF_MOCK_IPC_HANDLE_BYTES]);
// INVALID_ARGUMENT for anything umf_mock_ipc_pack did not make, or whose
// fields make no sense together.
umf_mock_status_t
umf_mock_ipc_unpack(const unsigned char handle[UMF_MOCK_IPC_HANDLE_BYTES],
                    umf_mock_ipc_desc_t *desc);

// Exports the device (or device-bound shared) allocation holding `ptr`.
// `require_base`: an interior pointer is NOT_BASE (CUDA); otherwise it
// exports the whole allocation (Level Zero). NOT_FOUND, WRONG_KIND (host
// memory, imported mappings), NOT_SUPPORTED (malloc memory mode),
// OUT_OF_HOST_MEMORY (no fd left). *info (if not NULL) gets the
// allocation's info.
umf_mock_status_t umf_mock_ipc_export(const void *ptr, bool require_base,
                                      umf_mock_ipc_desc_t *desc,
                                      umf_mock_alloc_info_t *info);

// The export of this process whose fd is `fd` (the fd to handle conversion
// of Level Zero 1.6). NOT_FOUND when no live export holds that fd.
umf_mock_status_t umf_mock_ipc_describe_fd(int fd, umf_mock_ipc_desc_t *desc);

// Gives the exporter's fd of export `desc` back (zeMemPutIpcHandle): the
// allocation keeps its memory and stays published for the imports made
// from it; the next export opens a new fd. Repeated puts, another
// process's handles and those of freed allocations change nothing (OK,
// *released false). INVALID_ARGUMENT for a descriptor that makes no sense.
umf_mock_status_t umf_mock_ipc_put(const umf_mock_ipc_desc_t *desc,
                                   bool *released);

typedef enum umf_mock_import_mode_t {
    UMF_MOCK_IMPORT_NEW = 0,       // always a new mapping (Level Zero)
    UMF_MOCK_IMPORT_SHARE = 1,     // the same export (every field of the
                                   // handle but the fd) on the same owner
                                   // shares one mapping, counting
                                   // references (CUDA)
    UMF_MOCK_IMPORT_EXCLUSIVE = 2, // the same export on the same owner
                                   // again is ALREADY_MAPPED (older CUDA)
} umf_mock_import_mode_t;

// Maps the export `desc`, whose fd must be valid in this process, for
// device `device` (or -1) and owner `owner`. Whatever the handle claims,
// what is mapped lies inside what was exported: the fd must be the exported
// file (its inode), hold the range, and, in the arena mode, the block's
// slot must still hold the allocation, in a block as large as the range.
// INVALID_ARGUMENT for a bad descriptor or fd, STALE_HANDLE when the
// allocation was freed or the fd or range is not the one exported,
// ALREADY_MAPPED, OUT_OF_HOST_MEMORY (no memory or no fd left).
umf_mock_status_t umf_mock_ipc_import(const umf_mock_ipc_desc_t *desc,
                                      int device, uintptr_t owner,
                                      umf_mock_import_mode_t mode, void **out);

// Closes an import at its base `ptr` (one reference of a shared one).
// NOT_FOUND, NOT_BASE, WRONG_KIND (not an import), WRONG_OWNER (owner not 0
// and different). *unmapped (if not NULL) tells whether the mapping went.
umf_mock_status_t umf_mock_ipc_close(const void *ptr, uintptr_t owner,
                                     bool *unmapped);

// The tag of the emulated libcuda's fd server names (util_fd_socket.h): its
// handles have no room for a name, so the name is derived from the
// exporter's pid and identity.
#define UMF_MOCK_FD_SERVER_TAG "cu"

// An fd that an IPC handle names, valid in its exporter: who exported it
// (pid and identity), which file, and where the exporter serves it. Memory
// handles and the emulated libcuda's event handles (mock_events.h) both
// carry one; these functions are the one way either moves its fd.
typedef struct umf_mock_fd_origin_t {
    int pid;             // the exporting process
    int fd;              // its fd number
    uint64_t id;         // what the fd was exported for (allocation, pool)
    uint64_t start_time; // the exporter's start time, 0 when pidfs_ino is
                         // known (or, in old handles, nothing is)
    uint64_t pidfs_ino;  // the exporter's pidfd inode (Linux 6.9+), or 0
    uint64_t file_ino;   // inode number of the file behind fd; 0: unknown
                         // (old handles: then the file is not checked)
    uint8_t served;      // umf_fd_socket_kind_t: where the name that
                         // umf_mock_fd_socket() derives points, or NONE
} umf_mock_fd_origin_t;

// This process as an exporter: pid and identity; fd, id, file_ino unset,
// served NONE.
void umf_mock_fd_origin_self(umf_mock_fd_origin_t *o);

// Serves o->fd (exported by this process for o->id) over this driver's fd
// server until umf_fd_server_revoke(0, key), and sets o->served. Logged and
// left unserved when the server cannot start (pidfd_getfd only).
void umf_mock_fd_serve(umf_mock_fd_origin_t *o, uint64_t key);

// Where the exporter of `o` serves its fd (kind NONE: it does not).
void umf_mock_fd_socket(const umf_mock_fd_origin_t *o,
                        umf_fd_socket_name_t *name);

// Takes fd o->fd of the exporter of `o` into this one: pidfd_getfd and, as
// UMF_GPU_IPC_FD_TRANSFER says, the exporter's fd server; proving that the
// process is the exporter and the fd the exported file. Results as
// umf_mock_fd_from_process, and PERMISSION also for a uid the server
// refuses or serving disabled.
umf_mock_status_t umf_mock_fd_take(const umf_mock_fd_origin_t *o, int *out);

// The same for the export `desc` (made by umf_mock_ipc_export): serving
// keyed by the allocation's base, and marking desc->served.
void umf_mock_ipc_serve(umf_mock_ipc_desc_t *desc, uint64_t base);
umf_mock_status_t umf_mock_ipc_take_fd(const umf_mock_ipc_desc_t *desc,
                                       int *out);

// Whether `fd` (whose fstat is *st) is the memfd named `name` that an
// export made: its device must be the one every memfd of this kernel has
// (umf_fd_memfd_dev, measured here), and its /proc link, where /proc shows
// it, exactly "/memfd:<name> (deleted)". STALE_HANDLE otherwise (logged,
// with `what` naming the handle), OUT_OF_HOST_MEMORY where no fd is left to
// measure the device.
umf_mock_status_t umf_mock_check_memfd(int fd, const struct stat *st,
                                       const char *name, const char *what);

// Duplicates fd `fd` of process `pid` into this one (pidfd_getfd; a dup in
// this process), proving with `identity` (may be NULL) that the process is
// the exporter and the fd the exported file (util_fd.h). NO_PROCESS (gone,
// or another process has its pid now), STALE_HANDLE (no such fd there, or
// another file), PERMISSION (ptrace rules; logged with how to allow it),
// NOT_SUPPORTED (no pidfd), OUT_OF_HOST_MEMORY (no fd left).
umf_mock_status_t umf_mock_fd_from_process(int pid, int fd,
                                           const umf_fd_identity_t *identity,
                                           int *out);

#endif // UMF_GPU_MOCK_IPC_H
