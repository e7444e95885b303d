// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "core_1_0.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// UMF 1.0's declarations (the include path puts umf_1_0/ first) and ours,
// in one translation unit: a program may include both.
#include <umf/memory_provider_ops.h>
#include <umf/providers/provider_ops_1_0.h>

// ---- The layout, as UMF 1.0 publishes it, on x86-64 ----------------------

typedef umf_memory_provider_ops_t umf1;             // UMF 1.0's
typedef umf_gpu_memory_provider_ops_1_0_t ours_1_0; // ours

#define SAME_OFFSET(field, at)                                                 \
    _Static_assert(offsetof(umf1, field) == (at) &&                            \
                       offsetof(ours_1_0, field) == (at),                      \
                   #field " at offset " #at)
SAME_OFFSET(version, 0);
SAME_OFFSET(initialize, 8);
SAME_OFFSET(finalize, 16);
SAME_OFFSET(alloc, 24);
SAME_OFFSET(free, 32);
SAME_OFFSET(get_last_native_error, 40);
SAME_OFFSET(get_recommended_page_size, 48);
SAME_OFFSET(get_min_page_size, 56);
SAME_OFFSET(get_name, 64);
SAME_OFFSET(ext_purge_lazy, 72);
SAME_OFFSET(ext_purge_force, 80);
SAME_OFFSET(ext_allocation_merge, 88);
SAME_OFFSET(ext_allocation_split, 96);
SAME_OFFSET(ext_get_ipc_handle_size, 104);
SAME_OFFSET(ext_get_ipc_handle, 112);
SAME_OFFSET(ext_put_ipc_handle, 120);
SAME_OFFSET(ext_open_ipc_handle, 128);
SAME_OFFSET(ext_close_ipc_handle, 136);
SAME_OFFSET(ext_ctl, 144);
_Static_assert(sizeof(umf1) == 152 && sizeof(ours_1_0) == 152,
               "152 bytes: a version and 19 ops");
_Static_assert(UMF_GPU_OPS_VERSION_1_0 == UMF_MAKE_VERSION(1, 0),
               "the 1.0 version");
_Static_assert((int)UMF_GPU_CTL_QUERY_READ == (int)CTL_QUERY_READ &&
                   (int)UMF_GPU_CTL_QUERY_WRITE == (int)CTL_QUERY_WRITE &&
                   (int)UMF_GPU_CTL_QUERY_RUNNABLE == (int)CTL_QUERY_RUNNABLE &&
                   (int)UMF_GPU_CTL_QUERY_SUBTREE == (int)CTL_QUERY_SUBTREE,
               "query types");
_Static_assert(
    (int)UMF_GPU_CTL_UNKNOWN_QUERY_SOURCE == (int)CTL_UNKNOWN_QUERY_SOURCE &&
        (int)UMF_GPU_CTL_QUERY_PROGRAMMATIC == (int)CTL_QUERY_PROGRAMMATIC &&
        (int)UMF_GPU_CTL_QUERY_CONFIG_INPUT == (int)CTL_QUERY_CONFIG_INPUT,
    "query sources");

// ---- The core --------------------------------------------------------------

struct c10_provider_t {
    umf1 ops; // a copy, as a core keeps it
    void *priv;
};

umf_result_t c10_create(const void *table, const void *params,
                        c10_provider_t **out) {
    const umf1 *ops = table;
    if (ops == NULL || out == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (UMF_MAJOR_VERSION(ops->version) != 1 ||
        UMF_MINOR_VERSION(ops->version) > 0) {
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    if (ops->initialize == NULL || ops->finalize == NULL ||
        ops->alloc == NULL || ops->free == NULL ||
        ops->get_last_native_error == NULL ||
        ops->get_recommended_page_size == NULL ||
        ops->get_min_page_size == NULL || ops->get_name == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if ((ops->ext_allocation_split == NULL) !=
        (ops->ext_allocation_merge == NULL)) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    int ipc = (ops->ext_get_ipc_handle_size != NULL) +
              (ops->ext_get_ipc_handle != NULL) +
              (ops->ext_put_ipc_handle != NULL) +
              (ops->ext_open_ipc_handle != NULL) +
              (ops->ext_close_ipc_handle != NULL);
    if (ipc != 0 && ipc != 5) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    c10_provider_t *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->ops = *ops;
    umf_result_t r = ops->initialize(params, &p->priv);
    if (r != UMF_RESULT_SUCCESS) {
        free(p);
        return r;
    }
    *out = p;
    return UMF_RESULT_SUCCESS;
}

umf_result_t c10_destroy(c10_provider_t *p) {
    if (p == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t r = p->ops.finalize(p->priv);
    free(p);
    return r;
}

void *c10_state(const c10_provider_t *p) {
    return p != NULL ? p->priv : NULL;
}

umf_result_t c10_alloc(c10_provider_t *p, size_t size, size_t alignment,
                       void **ptr) {
    if (p == NULL || ptr == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return p->ops.alloc(p->priv, size, alignment, ptr);
}

umf_result_t c10_free(c10_provider_t *p, void *ptr, size_t size) {
    return p->ops.free(p->priv, ptr, size);
}

umf_result_t c10_last_native_error(c10_provider_t *p, const char **message,
                                   int32_t *code) {
    return p->ops.get_last_native_error(p->priv, message, code);
}

umf_result_t c10_recommended_page_size(c10_provider_t *p, size_t size,
                                       size_t *page) {
    return p->ops.get_recommended_page_size(p->priv, size, page);
}

umf_result_t c10_min_page_size(c10_provider_t *p, const void *ptr,
                               size_t *page) {
    return p->ops.get_min_page_size(p->priv, ptr, page);
}

umf_result_t c10_name(c10_provider_t *p, const char **name) {
    return p->ops.get_name(p->priv, name);
}

umf_result_t c10_default_name(const void *table, const char **name) {
    const umf1 *ops = table;
    return ops->get_name(NULL, name);
}

// An optional op: NOT_SUPPORTED where the table has none.
#define OPTIONAL(p, op, ...)                                                   \
    ((p)->ops.op != NULL ? (p)->ops.op((p)->priv, __VA_ARGS__)                 \
                         : UMF_RESULT_ERROR_NOT_SUPPORTED)

umf_result_t c10_purge_lazy(c10_provider_t *p, void *ptr, size_t size) {
    return OPTIONAL(p, ext_purge_lazy, ptr, size);
}

umf_result_t c10_purge_force(c10_provider_t *p, void *ptr, size_t size) {
    return OPTIONAL(p, ext_purge_force, ptr, size);
}

umf_result_t c10_split(c10_provider_t *p, void *ptr, size_t total,
                       size_t first) {
    return OPTIONAL(p, ext_allocation_split, ptr, total, first);
}

umf_result_t c10_merge(c10_provider_t *p, void *low, void *high, size_t total) {
    return OPTIONAL(p, ext_allocation_merge, low, high, total);
}

umf_result_t c10_ipc_handle_size(c10_provider_t *p, size_t *size) {
    return OPTIONAL(p, ext_get_ipc_handle_size, size);
}

umf_result_t c10_ipc_get(c10_provider_t *p, const void *ptr, size_t size,
                         void *data) {
    return OPTIONAL(p, ext_get_ipc_handle, ptr, size, data);
}

umf_result_t c10_ipc_put(c10_provider_t *p, void *data) {
    return OPTIONAL(p, ext_put_ipc_handle, data);
}

umf_result_t c10_ipc_open(c10_provider_t *p, void *data, void **ptr) {
    return OPTIONAL(p, ext_open_ipc_handle, data, ptr);
}

umf_result_t c10_ipc_close(c10_provider_t *p, void *ptr, size_t size) {
    return OPTIONAL(p, ext_close_ipc_handle, ptr, size);
}

#define BY_HANDLE "umf.provider.by_handle.{}."

umf_result_t c10_ctl(const char *path, void *arg, size_t size, int query_type,
                     ...) {
    if (path == NULL || strncmp(path, BY_HANDLE, strlen(BY_HANDLE)) != 0) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    va_list args;
    va_start(args, query_type);
    c10_provider_t *p = va_arg(args, c10_provider_t *);
    umf_result_t r = UMF_RESULT_ERROR_INVALID_ARGUMENT;
    if (p != NULL) {
        r = p->ops.ext_ctl != NULL
                ? p->ops.ext_ctl(p->priv, CTL_QUERY_PROGRAMMATIC,
                                 path + strlen(BY_HANDLE), arg, size,
                                 (umf_ctl_query_type_t)query_type, args)
                : UMF_RESULT_ERROR_NOT_SUPPORTED;
    }
    va_end(args);
    return r;
}
