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
// Bump on any change of the layout or of a field's meaning.
#define UMF_IPC_DATA_VERSION 1
// Room for the driver's native handle (ze_ipc_mem_handle_t and
// CUipcMemHandle are both 64 bytes).
#define UMF_IPC_NATIVE_HANDLE_MAX 64

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
    uint64_t checksum; // umf_ipc_data_checksum() of all the bytes before it
} umf_ipc_data_t;

static_assert(sizeof(umf_ipc_data_t) == 136, "umf_ipc_data_t has no padding");
static_assert(offsetof(umf_ipc_data_t, checksum) ==
                  sizeof(umf_ipc_data_t) - sizeof(uint64_t),
              "the checksum is last");

// This process's random instance id: drawn from getrandom(2) at first use,
// never 0, and drawn again in the child after fork(), so that two processes
// (even with the same pid, one after the other) never share it.
uint64_t umf_ipc_instance_id(void);

// getpid(), without the system call after the first: kept, and forgotten in
// the child of a fork (a process made by a bare clone(2), which runs no fork
// handlers, must exec before it uses the library).
int32_t umf_ipc_process_id(void);

// Fills `out` for an allocation of this process: magic, version, this
// process's pid and instance id, the given fields, the handle (copied) and the
// checksum. UMF_RESULT_ERROR_INVALID_ARGUMENT (and `out` untouched) if a
// field could not pass umf_ipc_data_validate().
umf_result_t umf_ipc_data_init(umf_ipc_data_t *out,
                               umf_gpu_provider_kind_t kind,
                               umf_usm_memory_type_t memory_type,
                               uint64_t alloc_id, uint64_t base, uint64_t size,
                               uint64_t offset, const void *handle,
                               size_t handle_size);

// The checksum of the record's bytes before the checksum field.
uint64_t umf_ipc_data_checksum(const umf_ipc_data_t *data);

// Checks `len` bytes at `bytes` (any alignment) as IPC data of a provider of
// `kind`, and copies the record into *out on success. Every failure is
// UMF_RESULT_ERROR_INVALID_ARGUMENT, after one log line that names the field
// at fault: too short, magic, version, kind, memory type, handle size or
// padding, pid, instance id, size, offset, base + size overflow, checksum.
umf_result_t umf_ipc_data_validate(const void *bytes, size_t len,
                                   umf_gpu_provider_kind_t kind,
                                   umf_ipc_data_t *out);

// True if the data was produced by this process (same pid and instance id).
bool umf_ipc_data_is_local(const umf_ipc_data_t *data);

#endif // UMF_GPU_IPC_DATA_H
