// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUresult table: every value of the CUresult enumeration in cuda.h with
// its name and a description, for cuGetErrorName / cuGetErrorString, for the
// driver's own log lines, and for parsing result names in fault rules.

#include "cuda_mock_core.h"

typedef struct result_info_t {
    CUresult code;
    const char *name;
    const char *text;
} result_info_t;

// Every value of CUresult, sorted by code (the lookup below is a binary
// search; a test checks that every enumerator of cuda.h is found).
#define CUDA_MOCK_RESULTS(R)                                                   \
    R(CUDA_SUCCESS, "no error")                                                \
    R(CUDA_ERROR_INVALID_VALUE, "invalid argument")                            \
    R(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")                               \
    R(CUDA_ERROR_NOT_INITIALIZED, "initialization error")                      \
    R(CUDA_ERROR_DEINITIALIZED, "driver shutting down")                        \
    R(CUDA_ERROR_PROFILER_DISABLED,                                            \
      "profiler disabled while using external profiling tool")                 \
    R(CUDA_ERROR_PROFILER_NOT_INITIALIZED, "profiler not initialized")         \
    R(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started")         \
    R(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped")         \
    R(CUDA_ERROR_STUB_LIBRARY, "CUDA driver is a stub library")                \
    R(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER,                                   \
      "the API call requires a newer CUDA driver")                             \
    R(CUDA_ERROR_DEVICE_UNAVAILABLE,                                           \
      "CUDA-capable device(s) is/are busy or unavailable")                     \
    R(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected")              \
    R(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")                     \
    R(CUDA_ERROR_DEVICE_NOT_LICENSED,                                          \
      "the device does not have a valid Grid license")                         \
    R(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid")              \
    R(CUDA_ERROR_INVALID_CONTEXT, "invalid device context")                    \
    R(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current")           \
    R(CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed")                \
    R(CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed")            \
    R(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped")                           \
    R(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped")                    \
    R(CUDA_ERROR_NO_BINARY_FOR_GPU,                                            \
      "no kernel image is available for execution on the device")              \
    R(CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired")                \
    R(CUDA_ERROR_NOT_MAPPED, "resource not mapped")                            \
    R(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "resource not mapped as array")          \
    R(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "resource not mapped as pointer")      \
    R(CUDA_ERROR_ECC_UNCORRECTABLE, "uncorrectable ECC error encountered")     \
    R(CUDA_ERROR_UNSUPPORTED_LIMIT,                                            \
      "limit is not supported on this architecture")                           \
    R(CUDA_ERROR_CONTEXT_ALREADY_IN_USE,                                       \
      "exclusive-thread device already in use by a different thread")          \
    R(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,                                      \
      "peer access is not supported between these two devices")                \
    R(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed")                  \
    R(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,                                     \
      "invalid OpenGL or DirectX context")                                     \
    R(CUDA_ERROR_NVLINK_UNCORRECTABLE, "uncorrectable NVLink error detected")  \
    R(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "PTX JIT compiler library not found") \
    R(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,                                      \
      "the PTX was compiled with an unsupported toolchain")                    \
    R(CUDA_ERROR_JIT_COMPILATION_DISABLED, "PTX JIT compilation was disabled") \
    R(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,                                    \
      "the execution affinity is not supported")                               \
    R(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC,                                     \
      "the code uses device-side synchronization, which is not supported")     \
    R(CUDA_ERROR_CONTAINED,                                                    \
      "an exception occurred on the device and the device was contained")      \
    R(CUDA_ERROR_INVALID_SOURCE, "device kernel source is invalid")            \
    R(CUDA_ERROR_FILE_NOT_FOUND, "file not found")                             \
    R(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND,                               \
      "shared object symbol not found")                                        \
    R(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED,                                    \
      "shared object initialization failed")                                   \
    R(CUDA_ERROR_OPERATING_SYSTEM,                                             \
      "OS call failed or operation not supported on this OS")                  \
    R(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle")                    \
    R(CUDA_ERROR_ILLEGAL_STATE,                                                \
      "the operation cannot be performed in the present state")                \
    R(CUDA_ERROR_LOSSY_QUERY,                                                  \
      "the attribute query would lose information and was refused")            \
    R(CUDA_ERROR_NOT_FOUND, "named symbol not found")                          \
    R(CUDA_ERROR_NOT_READY, "device not ready")                                \
    R(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered")  \
    R(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,                                      \
      "too many resources requested for launch")                               \
    R(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated")    \
    R(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,                                \
      "launch uses incompatible texturing mode")                               \
    R(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,                                  \
      "peer access is already enabled")                                        \
    R(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled")  \
    R(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,                                       \
      "cannot set while device is active in this process")                     \
    R(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed")                 \
    R(CUDA_ERROR_ASSERT, "device-side assert triggered")                       \
    R(CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted")           \
    R(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,                               \
      "part or all of the requested memory range is already mapped")           \
    R(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,                                   \
      "pointer does not correspond to a registered memory region")             \
    R(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error")                 \
    R(CUDA_ERROR_ILLEGAL_INSTRUCTION,                                          \
      "an illegal instruction was encountered")                                \
    R(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address")                     \
    R(CUDA_ERROR_INVALID_ADDRESS_SPACE,                                        \
      "operation not supported on global/shared address space")                \
    R(CUDA_ERROR_INVALID_PC, "invalid program counter")                        \
    R(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure")                  \
    R(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,                                 \
      "too many blocks in cooperative launch")                                 \
    R(CUDA_ERROR_TENSOR_MEMORY_LEAK,                                           \
      "tensor memory was not freed before the kernel exited")                  \
    R(CUDA_ERROR_NOT_PERMITTED, "operation not permitted")                     \
    R(CUDA_ERROR_NOT_SUPPORTED, "operation not supported")                     \
    R(CUDA_ERROR_SYSTEM_NOT_READY, "system not yet initialized")               \
    R(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,                                       \
      "system has unsupported display driver / cuda driver combination")       \
    R(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,                               \
      "forward compatibility was attempted on non supported hardware")         \
    R(CUDA_ERROR_MPS_CONNECTION_FAILED,                                        \
      "MPS client failed to connect to the MPS control daemon or server")      \
    R(CUDA_ERROR_MPS_RPC_FAILURE,                                              \
      "the remote procedure call between the MPS server and client failed")    \
    R(CUDA_ERROR_MPS_SERVER_NOT_READY,                                         \
      "the MPS server is not ready to accept new MPS client requests")         \
    R(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED,                                      \
      "the hardware resources required to create an MPS client have been "     \
      "exhausted")                                                             \
    R(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,                                  \
      "the hardware resources required to support device connections have "    \
      "been exhausted")                                                        \
    R(CUDA_ERROR_MPS_CLIENT_TERMINATED,                                        \
      "the MPS client has been terminated by the server")                      \
    R(CUDA_ERROR_CDP_NOT_SUPPORTED,                                            \
      "CUDA Dynamic Parallelism is not supported in this configuration")       \
    R(CUDA_ERROR_CDP_VERSION_MISMATCH,                                         \
      "CUDA Dynamic Parallelism was used across incompatible toolchain "       \
      "versions")                                                              \
    R(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,                                   \
      "operation not permitted when stream is capturing")                      \
    R(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,                                   \
      "operation failed due to a previous error during capture")               \
    R(CUDA_ERROR_STREAM_CAPTURE_MERGE,                                         \
      "operation would result in a merge of separate capture sequences")       \
    R(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,                                     \
      "capture was not ended in the same stream as it began")                  \
    R(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,                                      \
      "capturing stream has unjoined work")                                    \
    R(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,                                     \
      "dependency created on uncaptured work in another stream")               \
    R(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,                                      \
      "operation would make the legacy stream depend on a capturing blocking " \
      "stream")                                                                \
    R(CUDA_ERROR_CAPTURED_EVENT,                                               \
      "operation not permitted on an event last recorded in a capturing "      \
      "stream")                                                                \
    R(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,                                  \
      "attempt to terminate a thread-local capture sequence from another "     \
      "thread")                                                                \
    R(CUDA_ERROR_TIMEOUT, "wait operation timed out")                          \
    R(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,                                    \
      "the graph update was not performed because it included changes which "  \
      "violated constraints specific to instantiated graph update")            \
    R(CUDA_ERROR_EXTERNAL_DEVICE,                                              \
      "an async error has occurred in an external entity outside of CUDA")     \
    R(CUDA_ERROR_INVALID_CLUSTER_SIZE,                                         \
      "a kernel launch error has occurred due to cluster misconfiguration")    \
    R(CUDA_ERROR_FUNCTION_NOT_LOADED,                                          \
      "the function handle is not loaded when calling an API that requires a " \
      "loaded function")                                                       \
    R(CUDA_ERROR_INVALID_RESOURCE_TYPE,                                        \
      "one or more resources are not valid resource types for the operation")  \
    R(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION,                               \
      "one or more resources are insufficient or non-applicable for the "      \
      "operation")                                                             \
    R(CUDA_ERROR_KEY_ROTATION, "an error happened during the key rotation "    \
                               "sequence")                                     \
    R(CUDA_ERROR_UNKNOWN, "unknown error")

#define CUDA_MOCK_RESULT_INFO(code, text) {code, #code, text},
static const result_info_t results[] = {
    CUDA_MOCK_RESULTS(CUDA_MOCK_RESULT_INFO)};
#undef CUDA_MOCK_RESULT_INFO

#define CUDA_MOCK_RESULT_NAME(code, text) {#code, code},
const umf_mock_name_value_t cuda_mock_result_names[] = {
    CUDA_MOCK_RESULTS(CUDA_MOCK_RESULT_NAME)};
#undef CUDA_MOCK_RESULT_NAME
const size_t cuda_mock_result_name_count =
    sizeof(cuda_mock_result_names) / sizeof(cuda_mock_result_names[0]);

static const result_info_t *find_result(CUresult code) {
    size_t lo = 0, hi = sizeof(results) / sizeof(results[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (results[mid].code == code) {
            return &results[mid];
        }
        if ((unsigned)results[mid].code < (unsigned)code) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

const char *cuda_mock_result_name(CUresult code) {
    const result_info_t *r = find_result(code);
    return r != NULL ? r->name : "CUDA_ERROR_<unknown>";
}

// The one table from the core's results to CUresult. Entry points with a
// more specific answer (CUDA_ERROR_NOT_FOUND from cuMemGetAddressRange, the
// IPC open's CUDA_ERROR_INVALID_CONTEXT ...) decide before asking here.
CUresult cuda_mock_result_of(umf_mock_status_t status) {
    switch (status) {
    case UMF_MOCK_OK:
        return CUDA_SUCCESS;
    case UMF_MOCK_ERR_INVALID_ARGUMENT:
    case UMF_MOCK_ERR_NOT_FOUND:
    case UMF_MOCK_ERR_NOT_BASE:
    case UMF_MOCK_ERR_WRONG_KIND:
    case UMF_MOCK_ERR_WRONG_OWNER:
    case UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT:
        return CUDA_ERROR_INVALID_VALUE;
    case UMF_MOCK_ERR_UNSUPPORTED_SIZE: // 0 is refused before: too large
    case UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY:
    case UMF_MOCK_ERR_OUT_OF_HOST_MEMORY:
        return CUDA_ERROR_OUT_OF_MEMORY;
    case UMF_MOCK_ERR_NOT_SUPPORTED:
        return CUDA_ERROR_NOT_SUPPORTED;
    case UMF_MOCK_ERR_STALE_HANDLE:
    case UMF_MOCK_ERR_NO_PROCESS:
        return CUDA_ERROR_INVALID_HANDLE;
    case UMF_MOCK_ERR_ALREADY_MAPPED:
        return CUDA_ERROR_ALREADY_MAPPED;
    case UMF_MOCK_ERR_PERMISSION: // the OS refused to hand over an fd
        return CUDA_ERROR_NOT_PERMITTED;
    case UMF_MOCK_ERR_NOT_INITIALIZED:
        return CUDA_ERROR_NOT_INITIALIZED;
    case UMF_MOCK_ERR_OS:
        return CUDA_ERROR_OPERATING_SYSTEM;
    case UMF_MOCK_ERR_BUSY: // the exporter's fd server: a retry may work
        return CUDA_ERROR_TIMEOUT;
    }
    return CUDA_ERROR_UNKNOWN;
}

// Both work before cuInit, as in the real driver. An unknown code is
// CUDA_ERROR_INVALID_VALUE with *pStr = NULL (the real driver's answer, which
// callers such as the provider must handle). Like every entry point they
// count their calls and take fault rules, so that a caller's handling of
// their failure can be tested.
CUDA_MOCK_API CUresult cuGetErrorName(CUresult error, const char **pStr) {
    CUDA_MOCK_ENTER_ANYTIME(cuGetErrorName);
    if (pStr == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const result_info_t *r = find_result(error);
    *pStr = r != NULL ? r->name : NULL;
    return r != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_MOCK_API CUresult cuGetErrorString(CUresult error, const char **pStr) {
    CUDA_MOCK_ENTER_ANYTIME(cuGetErrorString);
    if (pStr == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const result_info_t *r = find_result(error);
    *pStr = r != NULL ? r->text : NULL;
    return r != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
