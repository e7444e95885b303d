// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero memory provider. This header needs no Level Zero header: it
// declares the two handle types it uses the way ze_api.h does, so either may
// be included first.
//
// What the provider does:
// - Loading: at the first initialize, the Level Zero loader named by the
//   environment variable UMF_GPU_ZE_LOADER (else libze_loader.so.1) is
//   opened, reusing the instance the process already loaded, and zeInit(0)
//   is called (a no-op if the application called it). A missing loader or
//   entry point is UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, with a log line
//   naming it. zeMemFreeExt and zeMemPutIpcHandle may be missing.
// - alloc: zeMemAllocDevice (DEVICE), zeMemAllocHost (HOST),
//   zeMemAllocShared (SHARED), with the device ordinal set here and any
//   power-of-two alignment (0: the driver's). Sizes above the device's
//   maxMemAllocSize are asked for with relaxed allocation limits. Size 0 is
//   UMF_RESULT_ERROR_INVALID_ARGUMENT. DEVICE and SHARED allocations are
//   made resident on every resident device; if that fails, the allocation
//   is freed before the error returns.
// - free: zeMemFree, or zeMemFreeExt under a non-default free policy.
// - Ownership, the same rules as the CUDA provider's: free takes the start
//   of a live allocation or split piece of this provider and its size (the
//   size asked of alloc, or left by split/merge; 0 means that size);
//   allocation_split takes an allocation or piece and exactly its size;
//   allocation_merge two adjacent pieces of one allocation and the sum of
//   their sizes; get_ipc_handle and
//   umfGpuMemoryProviderGetAllocationProperties an address inside one.
//   Anything else (another provider's memory, even on the same context; a
//   raw driver allocation; a pointer freed already; an interior pointer;
//   another size) is UMF_RESULT_ERROR_INVALID_ARGUMENT and changes nothing.
//   A free the driver refused leaves the allocation as it was, to be freed
//   again.
// - get_min_page_size: for NULL, the page size of a probe allocation made at
//   initialize; for a pointer, the page size of its allocation.
//   get_recommended_page_size: the minimum page size (the driver uses one
//   for every size).
// - allocation_split / allocation_merge: the pieces are freed
//   independently; the driver allocation is released with its last piece.
//   purge_lazy / purge_force: UMF_RESULT_ERROR_NOT_SUPPORTED (Level Zero
//   cannot drop the pages of a USM allocation).
// - Native errors: every failed driver call stores its ze_result_t and a
//   message (the call, its key arguments, the result's name and
//   description) for the calling thread; umfMemoryProviderGetLastNativeError
//   returns them without a lock. Device memory running out is
//   UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC with
//   ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY; host memory running out is
//   UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
// - IPC: the IPC data is self-describing (checked before any driver call)
//   and carries the ze_ipc_mem_handle_t; a handle of any pointer inside an
//   allocation opens the whole allocation and returns the matching address.
//   Another process takes the handle's fd with pidfd_getfd (which needs
//   ptrace permission over the producer; a refusal is
//   UMF_RESULT_ERROR_NOT_SUPPORTED with a log line saying how to allow it).
//   Repeated opens share one mapping and count references; the last close
//   unmaps it. An open in the producing process returns its own memory. put
//   releases what get took (zeMemPutIpcHandle where the loader has it; the
//   driver otherwise keeps the fd until the allocation is freed). A
//   consumer provider needs a device (DEVICE or SHARED memory).

#ifndef UMF_PROVIDER_LEVEL_ZERO_H
#define UMF_PROVIDER_LEVEL_ZERO_H 1

#include <stdbool.h>
#include <stdint.h>

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _ze_context_handle_t *ze_context_handle_t;
typedef struct _ze_device_handle_t *ze_device_handle_t;

/// @brief Parameters of a Level Zero provider, made by
/// umfLevelZeroMemoryProviderParamsCreate().
typedef struct umf_level_zero_memory_provider_params_t
    *umf_level_zero_memory_provider_params_handle_t;

/// @brief How the provider frees memory that the device may still use.
typedef enum umf_level_zero_memory_provider_free_policy_t {
    /// zeMemFree: the driver decides.
    UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFAULT = 0,
    /// zeMemFreeExt, blocking until the device no longer uses the memory.
    UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_BLOCKING_FREE,
    /// zeMemFreeExt, deferring the release until the device is done.
    UMF_LEVEL_ZERO_MEMORY_PROVIDER_FREE_POLICY_DEFER_FREE,
} umf_level_zero_memory_provider_free_policy_t;

///
/// @brief Makes parameters with the defaults: no context, no device, DEVICE
///        memory, no resident devices, the DEFAULT free policy, ordinal 0,
///        the name "LEVEL_ZERO". Needs no driver.
/// @param hParams [out] the new parameters, to be destroyed with
///        umfLevelZeroMemoryProviderParamsDestroy()
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams; UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
///
umf_result_t umfLevelZeroMemoryProviderParamsCreate(
    umf_level_zero_memory_provider_params_handle_t *hParams);

///
/// @brief Frees parameters. A provider made from them does not need them.
/// @param hParams the parameters
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for NULL.
///
umf_result_t umfLevelZeroMemoryProviderParamsDestroy(
    umf_level_zero_memory_provider_params_handle_t hParams);

///
/// @brief Sets the context the memory belongs to (required).
/// @param hParams the parameters
/// @param hContext a ze_context_handle_t, not NULL
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetContext(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_context_handle_t hContext);

///
/// @brief Sets the device that DEVICE and SHARED memory belongs to (and that
///        opens IPC handles). HOST memory takes none: leave it NULL.
/// @param hParams the parameters
/// @param hDevice a ze_device_handle_t, or NULL for none
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetDevice(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t hDevice);

///
/// @brief Sets the kind of memory to allocate (default DEVICE).
/// @param hParams the parameters
/// @param memoryType HOST, DEVICE or SHARED; UNKNOWN is kept and refused by
///        initialize
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams or a value that is no umf_usm_memory_type_t.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetMemoryType(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType);

///
/// @brief Sets the devices every DEVICE and SHARED allocation is made
///        resident on (zeContextMakeMemoryResident). HOST memory, which
///        every device of the context reaches, keeps the list but makes no
///        residency calls.
/// @param hParams the parameters
/// @param hDevices the devices; copied, so the array need not outlive the
///        call
/// @param deviceCount their number; 0 clears the list
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams, a NULL \p hDevices with a count above 0, a NULL
///         device, or a device listed twice;
///         UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetResidentDevices(
    umf_level_zero_memory_provider_params_handle_t hParams,
    ze_device_handle_t *hDevices, uint32_t deviceCount);

///
/// @brief Sets how memory is freed (default DEFAULT). A policy other than
///        DEFAULT needs zeMemFreeExt in the loader and the driver; initialize
///        checks both, and answers UMF_RESULT_ERROR_NOT_SUPPORTED without.
/// @param hParams the parameters
/// @param policy the free policy
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams or an unknown policy.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetFreePolicy(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_level_zero_memory_provider_free_policy_t policy);

///
/// @brief Sets the ordinal of the device memory to allocate from (the index
///        into zeDeviceGetMemoryProperties; default 0).
/// @param hParams the parameters
/// @param deviceOrdinal the ordinal
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetDeviceOrdinal(
    umf_level_zero_memory_provider_params_handle_t hParams,
    uint32_t deviceOrdinal);

///
/// @brief Sets the provider's name (umfMemoryProviderGetName).
/// @param hParams the parameters
/// @param name the name; its first 63 characters are kept
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetName(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *name);

///
/// @brief How this provider's IPC handles' fds move between processes
///        (umf_gpu_ipc_fd_transfer_t): as exporter, whether its fd server
///        serves them; as consumer, how it takes them. Default: DEFAULT (the
///        environment's UMF_GPU_IPC_FD_TRANSFER, else AUTO).
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or a value out of the enum.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetIpcFdTransfer(
    umf_level_zero_memory_provider_params_handle_t hParams,
    umf_gpu_ipc_fd_transfer_t transfer);

///
/// @brief The user ids whose processes this provider's fd server serves
///        (checked with SO_PEERCRED). Default (count 0): the environment's
///        UMF_GPU_IPC_ALLOWED_UIDS, else this process's effective uid only.
/// @param uids \p count uids (may be NULL when count is 0)
/// @param count at most 16
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle, NULL uids with a count, or more than 16.
///
umf_result_t umfLevelZeroMemoryProviderParamsSetIpcAllowedUids(
    umf_level_zero_memory_provider_params_handle_t hParams,
    const uint32_t *uids, size_t count);

///
/// @brief Serve this provider's fds on a socket file in directory \p dir
///        (for consumers in another network namespace that share the
///        directory), instead of the abstract namespace. NULL or "": the
///        environment's UMF_GPU_IPC_SOCKET_DIR, else the abstract namespace.
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle, a relative path, or one longer than 39 bytes (the socket's
///         name travels in the 80-byte field of the IPC data).
///
umf_result_t umfLevelZeroMemoryProviderParamsSetIpcSocketDirectory(
    umf_level_zero_memory_provider_params_handle_t hParams, const char *dir);

///
/// @brief The Level Zero provider's ops table, for umfMemoryProviderCreate()
///        with a umf_level_zero_memory_provider_params_handle_t as params.
///
///        initialize requires a context; HOST memory takes no device and
///        DEVICE and SHARED memory require one; UNKNOWN memory is refused
///        (all UMF_RESULT_ERROR_INVALID_ARGUMENT). It reads the device's
///        maxMemAllocSize and the page size of a probe allocation. The UMF
///        0.9 layout, for umf-gpu's core and UMF 0.9; for UMF 1.x, see
///        umfLevelZeroMemoryProviderOps_1_0() (provider_ops_1_0.h).
/// @return the table, or NULL in a build without Level Zero.
///
const umf_memory_provider_ops_t *umfLevelZeroMemoryProviderOps(void);

///
/// @brief Adds a resident device and makes every live allocation of the
///        provider resident on it, or removes one and evicts every live
///        allocation from it; allocations made from the start of the call on
///        follow the new list. Allocations and frees in other threads go on
///        meanwhile: the live allocations are visited in batches of at most
///        64, with no lock held over the driver calls (a free of an
///        allocation being visited waits for its batch). One change runs at a
///        time per provider. A failure part-way undoes what was done and
///        leaves the list as it was.
/// @param hProvider a Level Zero provider
/// @param hDevice the device
/// @param isAdding true to add, false to remove
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument, a provider that is not a Level Zero provider, adding a
///         device already resident or removing one that is not;
///         UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY; or the driver's error
///         (UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC, with the native error
///         stored).
///
umf_result_t umfLevelZeroMemoryProviderResidentDeviceChange(
    umf_memory_provider_handle_t hProvider, ze_device_handle_t hDevice,
    bool isAdding);

#ifdef __cplusplus
}
#endif

#endif // UMF_PROVIDER_LEVEL_ZERO_H
