// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Memory (cuda_mock_memory.c, cuda_mock_pool.c, cuda_mock_host.c)

#ifndef UMF_GPU_CUDA_MOCK_MEMORY_H
#define UMF_GPU_CUDA_MOCK_MEMORY_H 1

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

// Frees device or managed memory at its base `p`, as cuMemFree_v2 does
// (pool memory settles its pool's accounts).
CUresult cuda_mock_mem_free_device(const void *p, const char *call);

// Graph memory (CUDA_MOCK_GRAPH_MEMORY): the hook that cuMemFree_v2 and
// cuMemFreeAsync call for it, set by the graph files when they make the
// first allocation node (NULL before: no such memory exists). With `op`
// NULL it frees now (cuMemFree_v2, after the device's queued work); else it
// fills *op, to be run in stream order (cuMemFreeAsync).
typedef CUresult (*cuda_mock_graph_mem_free_fn)(
    const umf_mock_alloc_info_t *info, cuda_mock_op_t *op, const char *call);
extern _Atomic(cuda_mock_graph_mem_free_fn) cuda_mock_graph_mem_free;

// Memory of a pool was freed (`info`: what umf_mock_free said of it).
void cuda_mock_pool_freed(const umf_mock_alloc_info_t *info);
// The pool that memory `info` came from.
CUmemoryPool cuda_mock_pool_of(const umf_mock_alloc_info_t *info);

// What a program said of its memory (cuda_mock_advise.c): advice and
// prefetch locations of managed memory, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS.
// Records exist for memory something was said of; they go when it is
// freed.
extern _Atomic size_t cuda_mock_range_records;
void cuda_mock_range_freed_slow(const umf_mock_alloc_info_t *info);
static inline void cuda_mock_range_freed(const umf_mock_alloc_info_t *info) {
    if (atomic_load_explicit(&cuda_mock_range_records, memory_order_relaxed) !=
        0) {
        cuda_mock_range_freed_slow(info);
    }
}
bool cuda_mock_range_sync_memops(const umf_mock_alloc_info_t *info);

// The registration holding `p` as an allocation's info (kind HOST, owner
// the registering context, user flags the registration's flags |
// CUDA_MOCK_HOST_REGISTERED); false if none holds it.
bool cuda_mock_host_lookup(const void *p, umf_mock_alloc_info_t *info);

#endif // UMF_GPU_CUDA_MOCK_MEMORY_H
