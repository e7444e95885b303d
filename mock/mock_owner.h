// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Everything one owner holds, released at once: what a driver does when a
// context is destroyed (zeContextDestroy, cuCtxDestroy). The owner is the
// tag the driver gave umf_mock_alloc and umf_mock_ipc_import.
//
// Not for hot paths: it walks every allocation record ever made.

#ifndef UMF_GPU_MOCK_OWNER_H
#define UMF_GPU_MOCK_OWNER_H 1

#include <stddef.h>
#include <stdint.h>

typedef struct umf_mock_owner_released_t {
    size_t allocations; // freed (their IPC exports with them)
    size_t imports;     // imported mappings closed, every reference
} umf_mock_owner_released_t;

// Frees the allocations made with `owner` (not 0) and closes its imported
// mappings. Those another thread frees or closes meanwhile are skipped.
// *released (if not NULL) says how many went.
void umf_mock_release_owner(uintptr_t owner,
                            umf_mock_owner_released_t *released);

#endif // UMF_GPU_MOCK_OWNER_H
