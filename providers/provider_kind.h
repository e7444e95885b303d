// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kinds of GPU provider this library has. The shared modules keep one
// instance of their state per kind (native errors, opened IPC handles), and
// the IPC data names the kind that produced it.

#ifndef UMF_GPU_PROVIDER_KIND_H
#define UMF_GPU_PROVIDER_KIND_H 1

// The values travel in IPC data: never renumber them.
typedef enum umf_gpu_provider_kind_t {
    UMF_GPU_PROVIDER_KIND_LEVEL_ZERO = 1,
    UMF_GPU_PROVIDER_KIND_CUDA = 2,
} umf_gpu_provider_kind_t;

// Number of kinds, for arrays indexed by umf_gpu_provider_kind_index().
#define UMF_GPU_PROVIDER_KIND_COUNT 2

static inline int umf_gpu_provider_kind_valid(int kind) {
    return kind == UMF_GPU_PROVIDER_KIND_LEVEL_ZERO ||
           kind == UMF_GPU_PROVIDER_KIND_CUDA;
}

// "Level Zero" or "CUDA", for messages.
static inline const char *
umf_gpu_provider_kind_name(umf_gpu_provider_kind_t k) {
    return k == UMF_GPU_PROVIDER_KIND_CUDA ? "CUDA" : "Level Zero";
}

// 0 .. UMF_GPU_PROVIDER_KIND_COUNT - 1 for a valid kind.
static inline unsigned umf_gpu_provider_kind_index(umf_gpu_provider_kind_t k) {
    return (unsigned)k - 1u;
}

#endif // UMF_GPU_PROVIDER_KIND_H
