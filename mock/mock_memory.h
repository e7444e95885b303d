// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Device memory: the emulated devices and their limits, allocation and free
// in the configured memory mode, and pointer queries.
//
// Device allocations (and shared ones tied to a device) count against their
// device's memory, by their size rounded up to whole pages; going past it is
// OUT_OF_DEVICE_MEMORY. To keep atomics off the allocation path, each thread
// reserves device memory in small batches (at most 256 KiB, or 1/256 of the
// device) and allocates from its reservation: the limit is never exceeded,
// but while several threads are alive an allocation may fail up to two
// batches per other thread early. A thread's own reservation never blocks it.
// Host allocations (and device-less shared ones) come from the C heap and are
// limited only by the machine. Every allocation is page-aligned and owns its
// pages (see mock_registry.h).

#ifndef UMF_GPU_MOCK_MEMORY_H
#define UMF_GPU_MOCK_MEMORY_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_config.h"
#include "mock_registry.h"
#include "mock_status.h"

// The largest alignment any allocation can ask for.
#define UMF_MOCK_MAX_ALIGNMENT (1ull << 30)
// Sizes above this are UNSUPPORTED_SIZE (no machine has them).
#define UMF_MOCK_MAX_ALLOC_SIZE (1ull << 46)

// What a driver learns about an allocation or imported mapping.
typedef struct umf_mock_alloc_info_t {
    void *base;
    size_t size;   // bytes asked for (imports: the exported size)
    size_t mapped; // bytes of the range: size rounded up to pages
    uint64_t id;   // unique in this process, never 0
    umf_mock_kind_t kind;
    int device;          // -1 for none
    uintptr_t owner;     // the tag given when it was made
    uint32_t user_flags; // the flags given when it was made
    bool exported;       // an IPC handle is open for it
    int peer_pid;        // imports: the exporting process
    uint64_t peer_id;    // imports: the allocation id there
} umf_mock_alloc_info_t;

// Sets the devices up from the configuration; once, from umf_mock_init().
umf_mock_status_t umf_mock_memory_setup(const umf_mock_config_t *cfg);

unsigned umf_mock_device_count(void);
// Sub-devices of each device (UMF_GPU_MOCK_SUBDEVICES; Level Zero's).
unsigned umf_mock_subdevice_count(void);
// Memory of device `device` (< count): its size, and the bytes in use.
uint64_t umf_mock_device_total(unsigned device);
uint64_t umf_mock_device_used(unsigned device);
umf_mock_memory_mode_t umf_mock_memory_mode(void);

// Allocates `size` bytes at `alignment` (0 or a power of two):
//   DEVICE: on `device`; SHARED: on `device`, or host memory if it is -1;
//   HOST: `device` must be -1.
// `owner` and `user_flags` are kept for the driver (queries, free checks).
// UNSUPPORTED_SIZE for 0 or above UMF_MOCK_MAX_ALLOC_SIZE,
// UNSUPPORTED_ALIGNMENT, INVALID_ARGUMENT for a bad kind or device,
// OUT_OF_DEVICE_MEMORY, OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_alloc(umf_mock_kind_t kind, int device, size_t size,
                                 size_t alignment, uintptr_t owner,
                                 uint32_t user_flags, void **out);

// Frees the allocation that starts at `ptr`, if its kind is in the mask
// `kinds` and (when `owner` is not 0) it was made with `owner`. NOT_FOUND
// (unknown or already freed), NOT_BASE, WRONG_KIND, WRONG_OWNER. The freed
// allocation's info goes to *freed when it is not NULL.
umf_mock_status_t umf_mock_free(const void *ptr, unsigned kinds,
                                uintptr_t owner, umf_mock_alloc_info_t *freed);

// The allocation or imported mapping holding `ptr` (base or interior).
// NOT_FOUND if none.
umf_mock_status_t umf_mock_lookup(const void *ptr, umf_mock_alloc_info_t *info);

// Counts `bytes` of device memory against `device` for memory that the
// caller makes itself (VMM physical memory); false when that would pass the
// device's limit. umf_mock_device_uncharge gives it back (from any thread).
bool umf_mock_device_charge(unsigned device, uint64_t bytes);
void umf_mock_device_uncharge(unsigned device, uint64_t bytes);

// Releases quarantined blocks no longer imported; returns those that stay.
size_t umf_mock_quarantined(void);

// Internal to the core: a thread is exiting; its unused reservation of
// device memory goes back.
void umf_mock_memory_thread_exit(umf_mock_thread_t *t);
// The arena of a device, made at first use.
struct umf_mock_arena_t;
umf_mock_status_t umf_mock_device_arena(unsigned device,
                                        struct umf_mock_arena_t **out);
void umf_mock_info_from_data(const umf_mock_rec_data_t *d,
                             umf_mock_alloc_info_t *info);

#endif // UMF_GPU_MOCK_MEMORY_H
