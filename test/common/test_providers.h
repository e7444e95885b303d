// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Providers for testing the core: a null provider, a tracing provider that
// counts each op, and one that fails on demand.

#ifndef UMF_GPU_TEST_PROVIDERS_H
#define UMF_GPU_TEST_PROVIDERS_H 1

#include <umf/memory_provider.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum umf_test_op_t {
    UMF_TEST_OP_INITIALIZE,
    UMF_TEST_OP_FINALIZE,
    UMF_TEST_OP_ALLOC,
    UMF_TEST_OP_FREE,
    UMF_TEST_OP_GET_LAST_NATIVE_ERROR,
    UMF_TEST_OP_GET_RECOMMENDED_PAGE_SIZE,
    UMF_TEST_OP_GET_MIN_PAGE_SIZE,
    UMF_TEST_OP_GET_NAME,
    UMF_TEST_OP_PURGE_LAZY,
    UMF_TEST_OP_PURGE_FORCE,
    UMF_TEST_OP_ALLOCATION_MERGE,
    UMF_TEST_OP_ALLOCATION_SPLIT,
    UMF_TEST_OP_GET_IPC_HANDLE_SIZE,
    UMF_TEST_OP_GET_IPC_HANDLE,
    UMF_TEST_OP_PUT_IPC_HANDLE,
    UMF_TEST_OP_OPEN_IPC_HANDLE,
    UMF_TEST_OP_CLOSE_IPC_HANDLE,
    UMF_TEST_OP_COUNT,
    UMF_TEST_OP_NONE = UMF_TEST_OP_COUNT,
} umf_test_op_t;

const char *umf_test_op_name(umf_test_op_t op);

// Mandatory ops only (ext and ipc left NULL); each succeeds and does
// nothing. alloc returns a non-NULL address that must not be dereferenced.
// params are ignored.
const umf_memory_provider_ops_t *umf_test_null_provider_ops(void);

// Every op set; each counts its calls (atomically) in the umf_test_trace_t
// passed as params, which must outlive the provider, and succeeds. alloc
// returns real host memory (aligned_alloc).
typedef struct umf_test_trace_t {
    unsigned long calls[UMF_TEST_OP_COUNT];
} umf_test_trace_t;
const umf_memory_provider_ops_t *umf_test_tracing_provider_ops(void);

// Every op set. The op named by params->op fails with params->result (read
// at each call, so a test may change it between calls); the others succeed
// as in the tracing provider. When the result is
// UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, the failing op first stores
// params->native_code and a message naming the op in thread-local storage,
// which get_last_native_error reports.
typedef struct umf_test_fail_params_t {
    umf_test_op_t op;
    umf_result_t result;
    int32_t native_code;
} umf_test_fail_params_t;
const umf_memory_provider_ops_t *umf_test_failing_provider_ops(void);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_TEST_PROVIDERS_H
