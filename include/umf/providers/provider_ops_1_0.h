// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The providers' ops tables in the UMF 1.0 layout, for current UMF cores.
//
// UMF 1.x cores refuse the 0.9 layout of umfLevelZeroMemoryProviderOps() and
// umfCUDAMemoryProviderOps() ("Unsupported Memory Provider ops version");
// they accept a table in the 1.0 layout (version UMF_MAKE_VERSION(1, 0)) and
// upgrade it internally. The getters below return such a table for each
// provider, made on the same implementation as the 0.9 one: a provider made
// from either table behaves the same. Which table to pass:
//
//   umfMemoryProviderCreate of   table
//   umf-gpu, UMF 0.9             umfLevelZeroMemoryProviderOps(),
//                                umfCUDAMemoryProviderOps()
//   UMF 1.x                      umfLevelZeroMemoryProviderOps_1_0(),
//                                umfCUDAMemoryProviderOps_1_0()
//
// The parameters are the same in both cases (umf*MemoryProviderParams*).
//
// The structure is declared here under our own names, so that a program can
// include UMF 1.x's headers (which declare its own umf_memory_provider_ops_t
// in this layout) and this one together; it needs nothing from
// <umf/memory_provider_ops.h>. Its layout is the one of UMF's published 1.0
// headers, field for field; the result codes are the same values as 0.9's.
//
// docs/umf-1x.md has an example under a UMF 1.x pool.
//
// ext_ctl answers, as the provider receives them (after the core matched
// "umf.provider.by_handle.<handle>."), with source CTL_QUERY_PROGRAMMATIC or
// any other:
//   "name"                    READ: arg is a char buffer of `size` bytes; the
//                             provider's name, NUL-terminated
//                             (INVALID_ARGUMENT if it does not fit)
//   "stats.allocated_memory"  READ: arg is a size_t; bytes allocated and not
//                             freed (as umfGpuMemoryProviderGetStats's
//                             allocated_bytes)
//   "stats.peak_memory"       READ: arg is a size_t; the highest of those
//                             since the provider was made or the last reset
//                             (peak_bytes)
//   "stats.peak_memory.reset" RUNNABLE (umfCtlExec): the peak becomes the
//                             bytes allocated now; arg is ignored
//   "params.allocation_mode"  READ (CUDA only; Level Zero: NOT_SUPPORTED):
//                             arg is an int; the provider's
//                             umf_cuda_allocation_mode_t
// Every other name or query type is UMF_RESULT_ERROR_NOT_SUPPORTED. (A UMF
// 1.x core returns success to its caller whatever ext_ctl answered: see
// docs/umf-1x.md.)

#ifndef UMF_PROVIDERS_PROVIDER_OPS_1_0_H
#define UMF_PROVIDERS_PROVIDER_OPS_1_0_H 1

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief The ops version of the tables below: UMF_MAKE_VERSION(1, 0).
#define UMF_GPU_OPS_VERSION_1_0 UMF_MAKE_VERSION(1, 0)

/// @brief Where a ctl query comes from (UMF 1.0's umf_ctl_query_source_t,
///        same values).
typedef enum umf_gpu_ctl_query_source_t {
    UMF_GPU_CTL_UNKNOWN_QUERY_SOURCE = 0,
    UMF_GPU_CTL_QUERY_PROGRAMMATIC = 1, ///< umfCtlGet/Set/Exec
    UMF_GPU_CTL_QUERY_CONFIG_INPUT = 2, ///< the configuration (environment)
} umf_gpu_ctl_query_source_t;

/// @brief What a ctl query does (UMF 1.0's umf_ctl_query_type_t, same
///        values).
typedef enum umf_gpu_ctl_query_type_t {
    UMF_GPU_CTL_QUERY_READ = 0,
    UMF_GPU_CTL_QUERY_WRITE = 1,
    UMF_GPU_CTL_QUERY_RUNNABLE = 2,
    UMF_GPU_CTL_QUERY_SUBTREE = 3,
} umf_gpu_ctl_query_type_t;

/// @brief A memory provider's ops in the UMF 1.0 layout (UMF 1.0's
///        umf_memory_provider_ops_t). One flat structure: the mandatory ops,
///        then the optional ext_* ones. Every op returns umf_result_t.
typedef struct umf_gpu_memory_provider_ops_1_0_t {
    /// UMF_GPU_OPS_VERSION_1_0.
    uint32_t version;
    /// Makes the provider from its params (umf*MemoryProviderParamsCreate).
    umf_result_t (*initialize)(const void *params, void **provider);
    umf_result_t (*finalize)(void *provider);
    umf_result_t (*alloc)(void *provider, size_t size, size_t alignment,
                          void **ptr);
    umf_result_t (*free)(void *provider, void *ptr, size_t size);
    /// The calling thread's last native error (see the 0.9 table).
    umf_result_t (*get_last_native_error)(void *provider,
                                          const char **ppMessage,
                                          int32_t *pError);
    umf_result_t (*get_recommended_page_size)(void *provider, size_t size,
                                              size_t *pageSize);
    umf_result_t (*get_min_page_size)(void *provider, const void *ptr,
                                      size_t *pageSize);
    /// The provider's name; with provider NULL, the default name
    /// ("LEVEL_ZERO", "CUDA").
    umf_result_t (*get_name)(void *provider, const char **name);
    umf_result_t (*ext_purge_lazy)(void *provider, void *ptr, size_t size);
    umf_result_t (*ext_purge_force)(void *provider, void *ptr, size_t size);
    umf_result_t (*ext_allocation_merge)(void *hProvider, void *lowPtr,
                                         void *highPtr, size_t totalSize);
    umf_result_t (*ext_allocation_split)(void *hProvider, void *ptr,
                                         size_t totalSize, size_t firstSize);
    umf_result_t (*ext_get_ipc_handle_size)(void *provider, size_t *size);
    umf_result_t (*ext_get_ipc_handle)(void *provider, const void *ptr,
                                       size_t size, void *providerIpcData);
    umf_result_t (*ext_put_ipc_handle)(void *provider, void *providerIpcData);
    umf_result_t (*ext_open_ipc_handle)(void *provider, void *providerIpcData,
                                        void **ptr);
    umf_result_t (*ext_close_ipc_handle)(void *provider, void *ptr,
                                         size_t size);
    /// Control queries (see the top of this header for what is answered).
    umf_result_t (*ext_ctl)(void *provider, umf_gpu_ctl_query_source_t source,
                            const char *name, void *arg, size_t size,
                            umf_gpu_ctl_query_type_t queryType, va_list args);
} umf_gpu_memory_provider_ops_1_0_t;

///
/// @brief The Level Zero provider's ops in the UMF 1.0 layout, for
///        umfMemoryProviderCreate of a UMF 1.x core, with params from
///        umfLevelZeroMemoryProviderParamsCreate.
/// @return the table (always the same), or NULL in a build without Level
///         Zero.
///
const umf_gpu_memory_provider_ops_1_0_t *
umfLevelZeroMemoryProviderOps_1_0(void);

///
/// @brief The CUDA provider's ops in the UMF 1.0 layout, for
///        umfMemoryProviderCreate of a UMF 1.x core, with params from
///        umfCUDAMemoryProviderParamsCreate.
/// @return the table (always the same), or NULL in a build without CUDA.
///
const umf_gpu_memory_provider_ops_1_0_t *umfCUDAMemoryProviderOps_1_0(void);

#ifdef __cplusplus
}
#endif

#endif // UMF_PROVIDERS_PROVIDER_OPS_1_0_H
