// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver as the core sees it (its description: name, entry points,
// result names, object kinds), its initialisation (cuInit), and its control
// API (umfCudaMock*, include/umf/gpu_mock.h).
//
// Besides the core's variables (mock_config.h), cuInit reads one of its own:
//   UMF_GPU_MOCK_CUDA_IPC_REOPEN = share | already_mapped    (share)
// how cuIpcOpenMemHandle_v2 answers a handle already open in the calling
// context: `share` returns the same pointer and counts a reference (the
// driver's behaviour since CUDA 11), `already_mapped` fails with
// CUDA_ERROR_ALREADY_MAPPED (older drivers).

#include "cuda_mock_core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mock_control.h"
#include "mock_leaks.h"

#define CUDA_MOCK_ENTRY_NAME(name) #name,
static const char *const entry_names[] = {
    CUDA_MOCK_ENTRIES(CUDA_MOCK_ENTRY_NAME)};
#undef CUDA_MOCK_ENTRY_NAME
_Static_assert(CUDA_MOCK_EP_COUNT <= UMF_MOCK_MAX_ENTRIES,
               "the core counts at most UMF_MOCK_MAX_ENTRIES entry points");

static const char *const object_kinds[CUDA_MOCK_OBJECT_KIND_COUNT] = {
    [CUDA_MOCK_OBJECT_CONTEXT] = "context",
    [CUDA_MOCK_OBJECT_STREAM] = "stream",
    [CUDA_MOCK_OBJECT_EVENT] = "event",
    [CUDA_MOCK_OBJECT_POOL] = "memory pool",
    [CUDA_MOCK_OBJECT_HOST_REGISTRATION] = "host registration",
    [CUDA_MOCK_OBJECT_ARRAY] = "CUDA array",
    [CUDA_MOCK_OBJECT_GRAPH] = "graph",
    [CUDA_MOCK_OBJECT_GRAPH_NODE] = "graph node",
    [CUDA_MOCK_OBJECT_GRAPH_EXEC] = "executable graph",
    [CUDA_MOCK_OBJECT_USER_OBJECT] = "user object",
    [CUDA_MOCK_OBJECT_GREEN_CTX] = "green context",
};

const char umf_mock_log_name[] = "cuda-mock";

static umf_mock_driver_desc_t cuda_mock_desc = {
    .name = umf_mock_log_name,
    .faults =
        {
            .prefix = "cu",
            .entries = entry_names,
            .entry_count = CUDA_MOCK_EP_COUNT,
            .results = cuda_mock_result_names,
            // Set in the constructor below: not a constant expression.
            .result_count = 0,
        },
    .object_kinds = object_kinds,
    .object_kind_count = sizeof(object_kinds) / sizeof(object_kinds[0]),
    .select_devices = cuda_mock_visible_select,
};

__attribute__((constructor)) static void describe(void) {
    cuda_mock_desc.faults.result_count = cuda_mock_result_name_count;
}

UMF_MOCK_DEFINE_CONTROL_API(umfCudaMock, &cuda_mock_desc)

// A child forked after cuInit: CUDA cannot be used there without exec, and
// a real driver answers CUDA_ERROR_NOT_INITIALIZED to every call, cuInit
// included (numba and PyTorch tell a bad fork by it). The child's objects
// are its parent's, so the leak report at its exit is not made either.
static _Atomic bool forked_after_init;

static void fork_child(void) {
    atomic_store_explicit(&forked_after_init, true, memory_order_relaxed);
    atomic_store_explicit(&cuda_mock_initialized, false, memory_order_release);
    umf_mock_leaks_disown();
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CUresult init_result = CUDA_ERROR_NOT_INITIALIZED;
static umf_mock_import_mode_t reopen_mode = UMF_MOCK_IMPORT_SHARE;

umf_mock_import_mode_t cuda_mock_ipc_reopen_mode(void) {
    return reopen_mode;
}

static bool read_reopen_mode(void) {
    const char *v = getenv("UMF_GPU_MOCK_CUDA_IPC_REOPEN");
    if (v == NULL || v[0] == '\0' || strcmp(v, "share") == 0) {
        reopen_mode = UMF_MOCK_IMPORT_SHARE;
    } else if (strcmp(v, "already_mapped") == 0) {
        reopen_mode = UMF_MOCK_IMPORT_EXCLUSIVE;
    } else {
        UMF_MOCK_LOG_ERROR("UMF_GPU_MOCK_CUDA_IPC_REOPEN='%s' is not one of "
                           "share, already_mapped",
                           v);
        return false;
    }
    return true;
}

static void init_once_fn(void) {
    umf_mock_status_t status = umf_mock_init(&cuda_mock_desc);
    if (status != UMF_MOCK_OK) {
        // The core logged which variable and why.
        init_result = CUDA_ERROR_INVALID_VALUE;
        return;
    }
    if (!read_reopen_mode()) {
        init_result = CUDA_ERROR_INVALID_VALUE;
        return;
    }
    if (umf_mock_device_count() == 0) {
        // Hiding every device with CUDA_VISIBLE_DEVICES is a choice, not a
        // mistake to warn about.
        if (getenv("CUDA_VISIBLE_DEVICES") != NULL) {
            UMF_MOCK_LOG_INFO("CUDA_VISIBLE_DEVICES shows no device");
        } else {
            UMF_MOCK_LOG_WARN("UMF_GPU_MOCK_DEVICES=0: no device");
        }
        init_result = CUDA_ERROR_NO_DEVICE;
        return;
    }
    cuda_mock_ctx_setup();
    if (pthread_atfork(NULL, NULL, fork_child) != 0) {
        UMF_MOCK_LOG_WARN("pthread_atfork failed: a child forked after cuInit "
                          "will not be refused as a real driver refuses it");
    }
    init_result = CUDA_SUCCESS;
    atomic_store_explicit(&cuda_mock_initialized, true, memory_order_release);
}

// The first call decides; its result stays, as in the driver (a failed
// cuInit is not retried).
CUDA_MOCK_API CUresult cuInit(unsigned int Flags) {
    // The core first, so that the rules of UMF_GPU_MOCK_FAULTS are in force
    // for this very call: "cuInit:1=..." makes the first cuInit fail. (A
    // malformed variable fails again below, with the reason logged.)
    (void)umf_mock_init(&cuda_mock_desc);
    CUDA_MOCK_ENTER_ANYTIME(cuInit);
    if (Flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (atomic_load_explicit(&forked_after_init, memory_order_relaxed)) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    pthread_once(&init_once, init_once_fn);
    return init_result;
}

CUDA_MOCK_API CUresult cuDriverGetVersion(int *driverVersion) {
    CUDA_MOCK_ENTER_ANYTIME(cuDriverGetVersion);
    if (driverVersion == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // The API version of the cuda.h this driver was built with.
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}
