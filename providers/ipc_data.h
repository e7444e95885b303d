// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The IPC data both GPU providers write in get_ipc_handle and read in
// open_ipc_handle: a fixed-size, self-describing, versioned record. It names
// the producer (pid and a random per-process instance id, so that a reused
// pid is told apart), the driver allocation (unique id, base address and
// size in the producer), the offset of the shared pointer inside it, the
// memory type, and the driver's native handle, and it ends with a checksum
// over everything before it.
//
// umf_ipc_data_validate() checks every field before a provider touches a
// driver with the data, so malformed, truncated, foreign or corrupted data is
// refused with UMF_RESULT_ERROR_INVALID_ARGUMENT, never a crash, whatever the
// bytes. The checksum catches corruption, not forgery: the data is as
// trustworthy as the channel it came through.
//
// The record is in the host's byte order; producer and consumer run on one
// machine.

#ifndef UMF_GPU_IPC_DATA_H
#define UMF_GPU_IPC_DATA_H 1

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>
#include <umf/memory_provider_gpu.h>

#include "provider_kind.h"

// "UMFGPIPC" in little-endian byte order.
#define UMF_IPC_DATA_MAGIC 0x4350495047464d55ull
// Bump on any change of the layout or of a field's meaning. Version 1 (136
// bytes, without the exporter's start time, the fd's identity and the fd
// server's socket) is still read.
#define UMF_IPC_DATA_VERSION 2
#define UMF_IPC_DATA_V1_SIZE 136
// Room for the driver's native handle (ze_ipc_mem_handle_t and
// CUipcMemHandle are both 64 bytes).
#define UMF_IPC_NATIVE_HANDLE_MAX 64
// Room for the name of the exporter's fd server socket (issue 17): an
// abstract name or a filesystem path, without a terminating NUL.
#define UMF_IPC_SOCKET_NAME_MAX 80

// How a consumer may reach the exporter's fd server (socket_kind).
typedef enum umf_ipc_socket_kind_t {
    UMF_IPC_SOCKET_NONE = 0,     // no server: pidfd_getfd only
    UMF_IPC_SOCKET_ABSTRACT = 1, // an abstract Unix socket name
    UMF_IPC_SOCKET_PATH = 2,     // a filesystem path
} umf_ipc_socket_kind_t;

// What the native handle is (handle_type). A version 1 record is DRIVER.
typedef enum umf_ipc_handle_type_t {
    // The driver's IPC handle (ze_ipc_mem_handle_t, CUipcMemHandle).
    UMF_IPC_HANDLE_DRIVER = 0,
    // CUDA VMM: the int fd of cuMemExportToShareableHandle(POSIX_FD) in the
    // producer (4 bytes); the fd's identity is required.
    UMF_IPC_HANDLE_POSIX_FD = 1,
    // CUDA VMM: a CUmemFabricHandle (64 bytes), no fd.
    UMF_IPC_HANDLE_FABRIC = 2,
} umf_ipc_handle_type_t;

typedef struct umf_ipc_data_t {
    uint64_t magic;       // UMF_IPC_DATA_MAGIC
    uint16_t version;     // UMF_IPC_DATA_VERSION
    uint16_t kind;        // umf_gpu_provider_kind_t of the producer
    uint16_t memory_type; // umf_usm_memory_type_t: HOST, DEVICE or SHARED
    uint16_t handle_size; // bytes of `handle` used, 1..64; the rest are 0
    int32_t producer_pid;
    uint32_t reserved;    // 0
    uint64_t instance_id; // umf_ipc_instance_id() of the producer, not 0
    uint64_t alloc_id;    // the driver's unique id of the allocation
    uint64_t base;        // the allocation's base address in the producer
    uint64_t size;        // the allocation's size, not 0
    uint64_t offset;      // of the shared pointer from base, < size
    uint8_t handle[UMF_IPC_NATIVE_HANDLE_MAX];
    // Version 2: who exported, for the consumer to prove it (all 0 in data
    // read from version 1: unknown).
    uint64_t producer_start_time; // the producer's start time in clock
                                  // ticks after boot, 0 if unknown
    uint64_t producer_pidfs_ino;  // the inode of a pidfd of the producer
                                  // (Linux 6.9+: unique per process), or 0
    uint64_t fd_dev;              // st_dev and st_ino of the file behind the
    uint64_t fd_ino;              // handle's fd (Level Zero), 0 for none
    uint8_t socket_kind;          // umf_ipc_socket_kind_t
    uint8_t handle_type;          // umf_ipc_handle_type_t
    uint16_t socket_len;          // bytes of socket_name used; the rest 0
    uint32_t reserved3;           // 0
    char socket_name[UMF_IPC_SOCKET_NAME_MAX];
    uint64_t checksum; // umf_ipc_data_checksum() of all the bytes before it
} umf_ipc_data_t;

static_assert(sizeof(umf_ipc_data_t) == 256, "umf_ipc_data_t has no padding");
static_assert(offsetof(umf_ipc_data_t, checksum) ==
                  sizeof(umf_ipc_data_t) - sizeof(uint64_t),
              "the checksum is last");
static_assert(offsetof(umf_ipc_data_t, producer_start_time) ==
                  UMF_IPC_DATA_V1_SIZE - sizeof(uint64_t),
              "version 2 keeps version 1's fields where they were");

// This process's random instance id: drawn from getrandom(2) at first use,
// never 0, and drawn again in the child after fork(), so that two processes
// (even with the same pid, one after the other) never share it.
uint64_t umf_ipc_instance_id(void);

// getpid(), without the system call after the first: kept, and forgotten in
// the child of a fork (a process made by a bare clone(2), which runs no fork
// handlers, must exec before it uses the library).
int32_t umf_ipc_process_id(void);

// Fills `out` for an allocation of this process: magic, version, this
// process's pid, instance id and start time (umf_proc_self_start_time), the
// given fields, the handle
// (copied), the identity of `handle_fd` (the fd inside the handle, valid in
// this process; -1 for none) and the checksum.
// UMF_RESULT_ERROR_INVALID_ARGUMENT (and `out` untouched) if a field could
// not pass umf_ipc_data_validate() or handle_fd is not an open fd.
umf_result_t umf_ipc_data_init(umf_ipc_data_t *out,
                               umf_gpu_provider_kind_t kind,
                               umf_usm_memory_type_t memory_type,
                               uint64_t alloc_id, uint64_t base, uint64_t size,
                               uint64_t offset, const void *handle,
                               size_t handle_size, int handle_fd);

// Sets the handle type of data made by umf_ipc_data_init (DRIVER) and renews
// the checksum. UMF_RESULT_ERROR_INVALID_ARGUMENT (the data untouched) if
// the record does not fit the type: see umf_ipc_handle_type_t.
umf_result_t umf_ipc_data_set_handle_type(umf_ipc_data_t *data,
                                          umf_ipc_handle_type_t type);

// The checksum of the record's bytes before the checksum field (of a
// version 1 record: before its checksum, at UMF_IPC_DATA_V1_SIZE - 8).
uint64_t umf_ipc_data_checksum(const umf_ipc_data_t *data);

// Checks the bytes at `bytes` (any alignment; `len` of them can be read) as
// IPC data of a provider of `kind`, and copies the record into *out on
// success; a version 1 record is read from its 136 bytes and gets the
// version 2 fields as 0. Every failure is UMF_RESULT_ERROR_INVALID_ARGUMENT,
// after one log line that names the field at fault: too short, magic,
// version, kind, memory type, handle size or padding, pid, instance id,
// size, offset, base + size overflow, socket name, handle type, reserved
// bytes, checksum.
umf_result_t umf_ipc_data_validate(const void *bytes, size_t len,
                                   umf_gpu_provider_kind_t kind,
                                   umf_ipc_data_t *out);

// The record's length in bytes by its layout version: what a consumer reads.
size_t umf_ipc_data_size(const umf_ipc_data_t *data);

// True if the data was produced by this process (same pid and instance id).
bool umf_ipc_data_is_local(const umf_ipc_data_t *data);

#endif // UMF_GPU_IPC_DATA_H
