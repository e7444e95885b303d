// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A stand-in UMF 1.x consumer of ops tables: a minimal core that drives a
// table in the UMF 1.0 layout the way a UMF 1.x core does. It is compiled
// against (a transcription of) UMF 1.0's own declarations (umf_1_0/), not
// ours: it sees the table as UMF 1.x's umf_memory_provider_ops_t. Its API
// takes the table as `const void *`, so that a test can pass ours without
// including UMF 1.x's headers.
//
// As a UMF 1.x core: create refuses a table of another major version, or a
// newer minor one, with UMF_RESULT_ERROR_NOT_SUPPORTED ("Unsupported Memory
// Provider ops version"), and one that lacks a mandatory op, sets only one
// of split/merge, or only some IPC ops, with INVALID_ARGUMENT; a NULL
// optional op answers NOT_SUPPORTED. Control queries take UMF's path form
// "umf.provider.by_handle.{}.<name>", the handle as the variadic argument;
// the provider receives <name>.

#ifndef UMF_GPU_TEST_CORE_1_0_H
#define UMF_GPU_TEST_CORE_1_0_H 1

#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct c10_provider_t c10_provider_t;

umf_result_t c10_create(const void *ops, const void *params,
                        c10_provider_t **out);
// finalize's result.
umf_result_t c10_destroy(c10_provider_t *p);
// What the table's initialize returned: the pointer every op gets.
void *c10_state(const c10_provider_t *p);

umf_result_t c10_alloc(c10_provider_t *p, size_t size, size_t alignment,
                       void **ptr);
umf_result_t c10_free(c10_provider_t *p, void *ptr, size_t size);
umf_result_t c10_last_native_error(c10_provider_t *p, const char **message,
                                   int32_t *code);
umf_result_t c10_recommended_page_size(c10_provider_t *p, size_t size,
                                       size_t *page);
umf_result_t c10_min_page_size(c10_provider_t *p, const void *ptr,
                               size_t *page);
umf_result_t c10_name(c10_provider_t *p, const char **name);
// get_name without a provider: the table's default name.
umf_result_t c10_default_name(const void *ops, const char **name);
umf_result_t c10_purge_lazy(c10_provider_t *p, void *ptr, size_t size);
umf_result_t c10_purge_force(c10_provider_t *p, void *ptr, size_t size);
umf_result_t c10_split(c10_provider_t *p, void *ptr, size_t total,
                       size_t first);
umf_result_t c10_merge(c10_provider_t *p, void *low, void *high, size_t total);
umf_result_t c10_ipc_handle_size(c10_provider_t *p, size_t *size);
umf_result_t c10_ipc_get(c10_provider_t *p, const void *ptr, size_t size,
                         void *data);
umf_result_t c10_ipc_put(c10_provider_t *p, void *data);
umf_result_t c10_ipc_open(c10_provider_t *p, void *data, void **ptr);
umf_result_t c10_ipc_close(c10_provider_t *p, void *ptr, size_t size);

// The control query at `path` of type `query_type` (0 read, 1 write,
// 2 runnable, as UMF's), e.g.
//   c10_ctl("umf.provider.by_handle.{}.stats.peak_memory", &v, sizeof(v),
//           0, p);
// UMF_RESULT_ERROR_INVALID_ARGUMENT for a path this core does not route.
umf_result_t c10_ctl(const char *path, void *arg, size_t size, int query_type,
                     ...);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_TEST_CORE_1_0_H
