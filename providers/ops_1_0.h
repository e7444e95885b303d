// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Inside the library: what stands behind a provider made by a UMF 1.0-layout
// table (ops_1_0.c). Not exported.

#ifndef UMF_GPU_OPS_1_0_H
#define UMF_GPU_OPS_1_0_H 1

#include <umf/memory_provider_ops.h>

// The 0.9 table and the provider state that `provider`, a pointer returned
// by a 1.0 table's initialize, forwards to; UMF_RESULT_ERROR_INVALID_ARGUMENT
// for NULL. The library's own code never needs it: it is the way in for a
// test that observes such a provider with the GPU extensions' functions
// (stats, allocation properties), which a 1.0 consumer does not have.
umf_result_t umf_gpu_ops_1_0_provider_state(
    void *provider, const umf_memory_provider_ops_t **ops, void **state);

#endif // UMF_GPU_OPS_1_0_H
