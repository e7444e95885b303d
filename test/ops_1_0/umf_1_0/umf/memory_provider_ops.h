// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A stand-in for UMF 1.0's <umf/memory_provider_ops.h>: the 1.0 ops layout
// as the published 1.0 headers give it (one flat structure; the mandatory
// ops, then the ext_* ones), for the stand-in 1.x consumer. Not UMF's text.

#ifndef UMF_MEMORY_PROVIDER_OPS_H
#define UMF_MEMORY_PROVIDER_OPS_H 1

#include <stdarg.h>

#include <umf/base.h>

#define UMF_PROVIDER_OPS_VERSION_CURRENT UMF_MAKE_VERSION(1, 0)

typedef struct umf_memory_provider_ops_t {
    uint32_t version;
    umf_result_t (*initialize)(const void *params, void **provider);
    umf_result_t (*finalize)(void *provider);
    umf_result_t (*alloc)(void *provider, size_t size, size_t alignment,
                          void **ptr);
    umf_result_t (*free)(void *provider, void *ptr, size_t size);
    umf_result_t (*get_last_native_error)(void *provider,
                                          const char **ppMessage,
                                          int32_t *pError);
    umf_result_t (*get_recommended_page_size)(void *provider, size_t size,
                                              size_t *pageSize);
    umf_result_t (*get_min_page_size)(void *provider, const void *ptr,
                                      size_t *pageSize);
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
    umf_result_t (*ext_ctl)(void *provider, umf_ctl_query_source_t source,
                            const char *name, void *arg, size_t size,
                            umf_ctl_query_type_t queryType, va_list args);
} umf_memory_provider_ops_t;

#endif // UMF_MEMORY_PROVIDER_OPS_H
