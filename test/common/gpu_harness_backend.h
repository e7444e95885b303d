// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Inside the harness: what each kind's file (gpu_harness_ze.cpp,
// gpu_harness_cuda.cpp) gives the kind-independent part (gpu_harness.cpp).
// A kind left out of the build has no backend.

#ifndef UMF_GPU_TEST_GPU_HARNESS_BACKEND_H
#define UMF_GPU_TEST_GPU_HARNESS_BACKEND_H 1

#include <functional>
#include <string>

#include "gpu_harness.h"

struct umf_test_gpu_backend_t {
    // Fills in g's driver fields (g->kind, g->name and g->title are set); on
    // failure returns why.
    std::string (*bring_up)(umf_test_gpu_t *g);
    // Releases what bring_up made.
    void (*release)(umf_test_gpu_t *g);
    void *(*context_create)(const umf_test_gpu_t *g, int device);
    bool (*context_destroy)(const umf_test_gpu_t *g, void *context);
    // The kind's parameters from `opts` (complete: type and context set),
    // handed to create.
    umf_result_t (*provider)(const umf_test_gpu_t *g,
                             const umf_test_provider_opts_t &opts,
                             umf_test_gpu_create_fn create, void *arg);
    bool (*copy)(const umf_test_gpu_t *g, void *context, void *dst,
                 const void *src, size_t size);
    bool (*driver_alloc)(const umf_test_gpu_t *g, void *context, size_t size,
                         void **ptr);
    bool (*driver_free)(const umf_test_gpu_t *g, void *context, void *ptr);
};

// Defined only where the build has the kind (UMF_TEST_HAVE_LEVEL_ZERO,
// UMF_TEST_HAVE_CUDA: 0 or 1, always defined).
extern const umf_test_gpu_backend_t umf_test_ze_backend;
extern const umf_test_gpu_backend_t umf_test_cuda_backend;

// The control API of an emulated driver: its functions `prefix`InjectFaults,
// `prefix`ClearFaults, ... (include/umf/gpu_mock.h), each looked up with
// lookup(name); a missing one stays NULL.
umf_test_gpu_mock_t
umf_test_gpu_mock_resolve(const char *prefix,
                          const std::function<void *(const char *)> &lookup);

// Resolves `name` in the library at `path` (NULL: none), if the process has
// it loaded (RTLD_NOLOAD); NULL otherwise.
void *umf_test_gpu_loaded_symbol(const char *path, const char *name);

#endif // UMF_GPU_TEST_GPU_HARNESS_BACKEND_H
