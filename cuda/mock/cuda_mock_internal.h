// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internals of the emulated CUDA driver (libcuda.so.1), shared by its files.
// The device-memory emulation itself (allocation registry, memory modes, IPC
// primitives, fault engine, control API, leak report) is the core in mock/;
// the files here add what is CUDA's own:
//
//   cuda_mock_driver.c   the driver's description for the core, cuInit,
//                        cuDriverGetVersion, the control API umfCudaMock*
//   cuda_mock_errors.c   the CUresult table, cuGetErrorName/String, and the
//                        mapping of the core's results to CUresult
//   cuda_mock_device.c   devices and their attributes
//   cuda_mock_context.c  primary and created contexts, per-thread stacks
//   cuda_mock_memory.c   allocation, free, queries, pointer attributes
//   cuda_mock_ipc.c      CUipcMemHandle export, open and close
//   cuda_mock_copy.c     copies, fills and synchronisation
//   cuda_mock_vmm.c      virtual memory management (cuMemCreate, cuMemMap
//                        ...) on the core's model (mock_vmm.h)
//   cuda_mock_proc.c     cuGetProcAddress_v2
//   cuda_mock_legacy.c   the legacy unversioned names
//
// cuda.h is included with __CUDA_API_VERSION_INTERNAL (set by CMake), as a
// driver sees it: the versioned names (cuMemAlloc_v2 ...), the per-thread
// default stream variants (_ptds) and the legacy prototypes are declared,
// and no cu* name is a macro.

#ifndef UMF_GPU_CUDA_MOCK_INTERNAL_H
#define UMF_GPU_CUDA_MOCK_INTERNAL_H 1

#include <cuda.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_core.h"

// Marks an exported entry point; everything else is hidden, and the version
// script (cuda_mock.map) lets only cu* and umfCudaMock* names out.
#define CUDA_MOCK_API __attribute__((visibility("default")))

// Created contexts that may be alive at once, and the depth of a thread's
// context stack.
#define CUDA_MOCK_MAX_CONTEXTS 1024
#define CUDA_MOCK_CTX_STACK_DEPTH 64

// ---------------------------------------------------------------------------
// Entry points: every exported cu* function, for call counts and fault rules
// (the names are what UMF_GPU_MOCK_FAULTS and umfCudaMockGetCallCount take).

#define CUDA_MOCK_ENTRIES(X)                                                   \
    X(cuInit)                                                                  \
    X(cuDriverGetVersion)                                                      \
    X(cuGetProcAddress)                                                        \
    X(cuGetProcAddress_v2)                                                     \
    X(cuGetErrorName)                                                          \
    X(cuGetErrorString)                                                        \
    X(cuDeviceGet)                                                             \
    X(cuDeviceGetCount)                                                        \
    X(cuDeviceGetName)                                                         \
    X(cuDeviceGetUuid)                                                         \
    X(cuDeviceGetUuid_v2)                                                      \
    X(cuDeviceTotalMem)                                                        \
    X(cuDeviceTotalMem_v2)                                                     \
    X(cuDeviceGetAttribute)                                                    \
    X(cuDevicePrimaryCtxRetain)                                                \
    X(cuDevicePrimaryCtxRelease)                                               \
    X(cuDevicePrimaryCtxRelease_v2)                                            \
    X(cuDevicePrimaryCtxGetState)                                              \
    X(cuCtxCreate)                                                             \
    X(cuCtxCreate_v2)                                                          \
    X(cuCtxCreate_v3)                                                          \
    X(cuCtxCreate_v4)                                                          \
    X(cuCtxDestroy)                                                            \
    X(cuCtxDestroy_v2)                                                         \
    X(cuCtxGetCurrent)                                                         \
    X(cuCtxSetCurrent)                                                         \
    X(cuCtxGetDevice)                                                          \
    X(cuCtxGetDevice_v2)                                                       \
    X(cuCtxPushCurrent)                                                        \
    X(cuCtxPushCurrent_v2)                                                     \
    X(cuCtxPopCurrent)                                                         \
    X(cuCtxPopCurrent_v2)                                                      \
    X(cuCtxSynchronize)                                                        \
    X(cuCtxSynchronize_v2)                                                     \
    X(cuMemAlloc)                                                              \
    X(cuMemAlloc_v2)                                                           \
    X(cuMemAllocHost)                                                          \
    X(cuMemAllocHost_v2)                                                       \
    X(cuMemHostAlloc)                                                          \
    X(cuMemAllocManaged)                                                       \
    X(cuMemFree)                                                               \
    X(cuMemFree_v2)                                                            \
    X(cuMemFreeHost)                                                           \
    X(cuMemGetInfo)                                                            \
    X(cuMemGetInfo_v2)                                                         \
    X(cuMemGetAddressRange)                                                    \
    X(cuMemGetAddressRange_v2)                                                 \
    X(cuPointerGetAttribute)                                                   \
    X(cuPointerGetAttributes)                                                  \
    X(cuIpcGetMemHandle)                                                       \
    X(cuIpcOpenMemHandle)                                                      \
    X(cuIpcOpenMemHandle_v2)                                                   \
    X(cuIpcCloseMemHandle)                                                     \
    X(cuMemcpy)                                                                \
    X(cuMemcpy_ptds)                                                           \
    X(cuMemcpyHtoD)                                                            \
    X(cuMemcpyHtoD_v2)                                                         \
    X(cuMemcpyHtoD_v2_ptds)                                                    \
    X(cuMemcpyDtoH)                                                            \
    X(cuMemcpyDtoH_v2)                                                         \
    X(cuMemcpyDtoH_v2_ptds)                                                    \
    X(cuMemcpyDtoD)                                                            \
    X(cuMemcpyDtoD_v2)                                                         \
    X(cuMemcpyDtoD_v2_ptds)                                                    \
    X(cuMemsetD8)                                                              \
    X(cuMemsetD8_v2)                                                           \
    X(cuMemsetD8_v2_ptds)                                                      \
    X(cuMemGetAllocationGranularity)                                           \
    X(cuMemCreate)                                                             \
    X(cuMemRelease)                                                            \
    X(cuMemRetainAllocationHandle)                                             \
    X(cuMemGetAllocationPropertiesFromHandle)                                  \
    X(cuMemExportToShareableHandle)                                            \
    X(cuMemImportFromShareableHandle)                                          \
    X(cuMemAddressReserve)                                                     \
    X(cuMemAddressFree)                                                        \
    X(cuMemMap)                                                                \
    X(cuMemUnmap)                                                              \
    X(cuMemSetAccess)                                                          \
    X(cuMemGetAccess)

#define CUDA_MOCK_ENTRY_ENUM(name) CUDA_MOCK_EP_##name,
typedef enum cuda_mock_entry_t {
    CUDA_MOCK_ENTRIES(CUDA_MOCK_ENTRY_ENUM) CUDA_MOCK_EP_COUNT
} cuda_mock_entry_t;
#undef CUDA_MOCK_ENTRY_ENUM

// The kinds of driver object the core tracks for this driver.
typedef enum cuda_mock_object_kind_t {
    CUDA_MOCK_OBJECT_CONTEXT = 0,
} cuda_mock_object_kind_t;

// ---------------------------------------------------------------------------
// Entering an entry point (cuda_mock_driver.c)

// True once cuInit succeeded; every entry point but cuInit,
// cuDriverGetVersion, cuGetProcAddress* and cuGetError* needs it.
extern _Atomic bool cuda_mock_initialized;

// Counts the call and applies the fault rules (the core), then checks
// cuInit. Returns CUDA_SUCCESS or the result the call must return.
static inline CUresult cuda_mock_enter(cuda_mock_entry_t entry,
                                       bool need_init) {
    int64_t fault;
    if (__builtin_expect(umf_mock_enter((unsigned)entry, &fault), 0)) {
        return (CUresult)fault;
    }
    if (need_init &&
        __builtin_expect(
            !atomic_load_explicit(&cuda_mock_initialized, memory_order_acquire),
            0)) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    return CUDA_SUCCESS;
}

#define CUDA_MOCK_ENTER_(name, need_init)                                      \
    do {                                                                       \
        CUresult cuda_mock_r_ =                                                \
            cuda_mock_enter(CUDA_MOCK_EP_##name, need_init);                   \
        if (__builtin_expect(cuda_mock_r_ != CUDA_SUCCESS, 0)) {               \
            return cuda_mock_r_;                                               \
        }                                                                      \
    } while (0)

// First statement of an entry point that needs cuInit.
#define CUDA_MOCK_ENTER(name) CUDA_MOCK_ENTER_(name, true)
// First statement of one that works before cuInit.
#define CUDA_MOCK_ENTER_ANYTIME(name) CUDA_MOCK_ENTER_(name, false)

// CUDA_ERROR_INVALID_DEVICE unless `dev` names a device.
#define CUDA_MOCK_CHECK_DEVICE(dev)                                            \
    do {                                                                       \
        if ((dev) < 0 || (unsigned)(dev) >= umf_mock_device_count()) {         \
            return CUDA_ERROR_INVALID_DEVICE;                                  \
        }                                                                      \
    } while (0)

// UMF_GPU_MOCK_CUDA_IPC_REOPEN, read by cuInit: how a second open of one
// handle in one context behaves.
umf_mock_import_mode_t cuda_mock_ipc_reopen_mode(void);

// ---------------------------------------------------------------------------
// Results (cuda_mock_errors.c)

// "CUDA_ERROR_..." for a known code, a fixed placeholder otherwise.
const char *cuda_mock_result_name(CUresult code);

// Every CUresult name and value, for the fault rules.
extern const umf_mock_name_value_t cuda_mock_result_names[];
extern const size_t cuda_mock_result_name_count;

// The CUresult for a result of the core, where the entry point has no more
// specific answer.
CUresult cuda_mock_result_of(umf_mock_status_t status);

// ---------------------------------------------------------------------------
// Contexts (cuda_mock_context.c)

typedef struct CUctx_st cuda_mock_ctx_t;

// Prepares the primary contexts; called once by cuInit.
void cuda_mock_ctx_setup(void);

// The calling thread's current context: CUDA_ERROR_INVALID_CONTEXT when it
// has none, CUDA_ERROR_CONTEXT_IS_DESTROYED when it was destroyed (or is a
// primary context released meanwhile).
CUresult cuda_mock_ctx_current(cuda_mock_ctx_t **out);

// The device of a context.
int cuda_mock_ctx_device(const cuda_mock_ctx_t *ctx);

// Frees the allocations and closes the imported mappings made in `ctx`,
// which is being destroyed (cuda_mock_memory.c).
void cuda_mock_mem_ctx_teardown(const cuda_mock_ctx_t *ctx);

#endif // UMF_GPU_CUDA_MOCK_INTERNAL_H
