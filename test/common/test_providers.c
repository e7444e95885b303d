// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "test_providers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *umf_test_op_name(umf_test_op_t op) {
    static const char *const names[UMF_TEST_OP_COUNT] = {
        "initialize",
        "finalize",
        "alloc",
        "free",
        "get_last_native_error",
        "get_recommended_page_size",
        "get_min_page_size",
        "get_name",
        "purge_lazy",
        "purge_force",
        "allocation_merge",
        "allocation_split",
        "get_ipc_handle_size",
        "get_ipc_handle",
        "put_ipc_handle",
        "open_ipc_handle",
        "close_ipc_handle",
    };
    return (unsigned)op < UMF_TEST_OP_COUNT ? names[op] : "none";
}

// The null provider.

static int null_state;

static umf_result_t null_initialize(void *params, void **provider) {
    (void)params;
    *provider = &null_state;
    return UMF_RESULT_SUCCESS;
}

static void null_finalize(void *provider) {
    (void)provider;
}

static umf_result_t null_alloc(void *provider, size_t size, size_t alignment,
                               void **ptr) {
    (void)provider, (void)size, (void)alignment;
    *ptr = (void *)(alignment ? alignment : 4096);
    return UMF_RESULT_SUCCESS;
}

static umf_result_t null_free(void *provider, void *ptr, size_t size) {
    (void)provider, (void)ptr, (void)size;
    return UMF_RESULT_SUCCESS;
}

static void null_last_error(void *provider, const char **msg, int32_t *err) {
    (void)provider;
    *msg = "no error";
    *err = 0;
}

static umf_result_t null_page_size(void *provider, size_t size, size_t *page) {
    (void)provider, (void)size;
    *page = 4096;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t null_min_page_size(void *provider, void *ptr,
                                       size_t *page) {
    (void)provider, (void)ptr;
    *page = 4096;
    return UMF_RESULT_SUCCESS;
}

static const char *null_name(void *provider) {
    (void)provider;
    return "null";
}

static const umf_memory_provider_ops_t null_ops = {
    .version = UMF_VERSION_CURRENT,
    .initialize = null_initialize,
    .finalize = null_finalize,
    .alloc = null_alloc,
    .free = null_free,
    .get_last_native_error = null_last_error,
    .get_recommended_page_size = null_page_size,
    .get_min_page_size = null_min_page_size,
    .get_name = null_name,
};

const umf_memory_provider_ops_t *umf_test_null_provider_ops(void) {
    return &null_ops;
}

// The tracing and failing providers share one implementation: a provider
// with a trace (always) and fail parameters (only the failing one).

typedef struct traced_t {
    umf_test_trace_t *trace;            // NULL for the failing provider
    const umf_test_fail_params_t *fail; // NULL for the tracing provider
    umf_test_trace_t own_trace;
} traced_t;

static _Thread_local struct {
    char message[128];
    int32_t code;
} last_native;

// Counts the call and returns the result the op must give.
static umf_result_t enter(traced_t *t, umf_test_op_t op) {
    __atomic_fetch_add(&t->trace->calls[op], 1, __ATOMIC_RELAXED);
    if (t->fail == NULL || t->fail->op != op ||
        t->fail->result == UMF_RESULT_SUCCESS) {
        return UMF_RESULT_SUCCESS;
    }
    if (t->fail->result == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC) {
        snprintf(last_native.message, sizeof(last_native.message),
                 "%s failed on demand (native %d)", umf_test_op_name(op),
                 (int)t->fail->native_code);
        last_native.code = t->fail->native_code;
    }
    return t->fail->result;
}

static umf_result_t traced_init(traced_t *t, void **provider) {
    if (t->trace == NULL) {
        t->trace = &t->own_trace;
    }
    umf_result_t ret = enter(t, UMF_TEST_OP_INITIALIZE);
    if (ret != UMF_RESULT_SUCCESS) {
        free(t);
        return ret;
    }
    *provider = t;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t tracing_initialize(void *params, void **provider) {
    if (params == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    traced_t *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    t->trace = params;
    return traced_init(t, provider);
}

static umf_result_t failing_initialize(void *params, void **provider) {
    if (params == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    traced_t *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    t->fail = params;
    return traced_init(t, provider);
}

static void traced_finalize(void *provider) {
    traced_t *t = provider;
    (void)enter(t, UMF_TEST_OP_FINALIZE);
    free(t);
}

static umf_result_t traced_alloc(void *provider, size_t size, size_t alignment,
                                 void **ptr) {
    umf_result_t ret = enter(provider, UMF_TEST_OP_ALLOC);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if (alignment < sizeof(void *)) {
        alignment = sizeof(void *);
    }
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    *ptr = aligned_alloc(alignment, rounded ? rounded : alignment);
    return *ptr ? UMF_RESULT_SUCCESS : UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

static umf_result_t traced_free(void *provider, void *ptr, size_t size) {
    (void)size;
    umf_result_t ret = enter(provider, UMF_TEST_OP_FREE);
    if (ret == UMF_RESULT_SUCCESS) {
        free(ptr);
    }
    return ret;
}

static void traced_last_error(void *provider, const char **msg, int32_t *err) {
    (void)enter(provider, UMF_TEST_OP_GET_LAST_NATIVE_ERROR);
    *msg = last_native.message;
    *err = last_native.code;
}

static umf_result_t traced_page_size(void *provider, size_t size,
                                     size_t *page) {
    (void)size;
    umf_result_t ret = enter(provider, UMF_TEST_OP_GET_RECOMMENDED_PAGE_SIZE);
    *page = 4096;
    return ret;
}

static umf_result_t traced_min_page_size(void *provider, void *ptr,
                                         size_t *page) {
    (void)ptr;
    umf_result_t ret = enter(provider, UMF_TEST_OP_GET_MIN_PAGE_SIZE);
    *page = 4096;
    return ret;
}

static const char *traced_name(void *provider) {
    traced_t *t = provider;
    (void)enter(t, UMF_TEST_OP_GET_NAME);
    return t->fail ? "failing" : "tracing";
}

static umf_result_t traced_purge_lazy(void *provider, void *ptr, size_t size) {
    (void)ptr, (void)size;
    return enter(provider, UMF_TEST_OP_PURGE_LAZY);
}

static umf_result_t traced_purge_force(void *provider, void *ptr, size_t size) {
    (void)ptr, (void)size;
    return enter(provider, UMF_TEST_OP_PURGE_FORCE);
}

static umf_result_t traced_merge(void *provider, void *low, void *high,
                                 size_t total) {
    (void)low, (void)high, (void)total;
    return enter(provider, UMF_TEST_OP_ALLOCATION_MERGE);
}

static umf_result_t traced_split(void *provider, void *ptr, size_t total,
                                 size_t first) {
    (void)ptr, (void)total, (void)first;
    return enter(provider, UMF_TEST_OP_ALLOCATION_SPLIT);
}

static umf_result_t traced_ipc_size(void *provider, size_t *size) {
    *size = sizeof(void *);
    return enter(provider, UMF_TEST_OP_GET_IPC_HANDLE_SIZE);
}

static umf_result_t traced_ipc_get(void *provider, const void *ptr, size_t size,
                                   void *data) {
    (void)size;
    umf_result_t ret = enter(provider, UMF_TEST_OP_GET_IPC_HANDLE);
    if (ret == UMF_RESULT_SUCCESS) {
        memcpy(data, &ptr, sizeof(ptr));
    }
    return ret;
}

static umf_result_t traced_ipc_put(void *provider, void *data) {
    (void)data;
    return enter(provider, UMF_TEST_OP_PUT_IPC_HANDLE);
}

static umf_result_t traced_ipc_open(void *provider, void *data, void **ptr) {
    umf_result_t ret = enter(provider, UMF_TEST_OP_OPEN_IPC_HANDLE);
    if (ret == UMF_RESULT_SUCCESS) {
        memcpy(ptr, data, sizeof(*ptr));
    }
    return ret;
}

static umf_result_t traced_ipc_close(void *provider, void *ptr, size_t size) {
    (void)ptr, (void)size;
    return enter(provider, UMF_TEST_OP_CLOSE_IPC_HANDLE);
}

#define TRACED_OPS(init)                                                       \
    {                                                                          \
        .version = UMF_VERSION_CURRENT, .initialize = init,                    \
        .finalize = traced_finalize, .alloc = traced_alloc,                    \
        .free = traced_free, .get_last_native_error = traced_last_error,       \
        .get_recommended_page_size = traced_page_size,                         \
        .get_min_page_size = traced_min_page_size, .get_name = traced_name,    \
        .ext = {traced_purge_lazy, traced_purge_force, traced_merge,           \
                traced_split},                                                 \
        .ipc = {traced_ipc_size, traced_ipc_get, traced_ipc_put,               \
                traced_ipc_open, traced_ipc_close},                            \
    }

static const umf_memory_provider_ops_t tracing_ops =
    TRACED_OPS(tracing_initialize);
static const umf_memory_provider_ops_t failing_ops =
    TRACED_OPS(failing_initialize);

const umf_memory_provider_ops_t *umf_test_tracing_provider_ops(void) {
    return &tracing_ops;
}

const umf_memory_provider_ops_t *umf_test_failing_provider_ops(void) {
    return &failing_ops;
}
