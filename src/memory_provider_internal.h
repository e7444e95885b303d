// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the providers of this library may know about a provider handle
// beyond the public API.

#ifndef UMF_GPU_MEMORY_PROVIDER_INTERNAL_H
#define UMF_GPU_MEMORY_PROVIDER_INTERNAL_H 1

#include <stdbool.h>

#include <umf/memory_provider.h>

// Whether this core made the handle and has not destroyed it yet. Never
// reads *hProvider: it may be another core's handle (another layout), or
// freed. Takes a lock: for the extensions, not for hot paths.
bool umf_memory_provider_is_ours(umf_memory_provider_handle_t hProvider);

// The handle's ops table (with the core's defaults filled in), or NULL for a
// handle that umf_memory_provider_is_ours() refuses (NULL included).
const umf_memory_provider_ops_t *
umf_memory_provider_get_ops(umf_memory_provider_handle_t hProvider);

// The private state its initialize returned, or NULL for a handle that
// umf_memory_provider_is_ours() refuses.
void *umf_memory_provider_get_priv(umf_memory_provider_handle_t hProvider);

// Records hProvider as the calling thread's last failed provider.
void umf_memory_provider_set_last_failed(
    umf_memory_provider_handle_t hProvider);

#endif // UMF_GPU_MEMORY_PROVIDER_INTERNAL_H
