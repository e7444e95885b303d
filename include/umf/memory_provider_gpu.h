// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the GPU providers (Level Zero, CUDA) have in common beyond the ops
// table: the kinds of memory they allocate, and extensions that work on a
// provider handle of either kind.

#ifndef UMF_MEMORY_PROVIDER_GPU_H
#define UMF_MEMORY_PROVIDER_GPU_H 1

#include <umf/base.h>
#include <umf/memory_provider.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief The kind of memory a GPU provider allocates (unified shared memory
/// terms, as in SYCL and Level Zero).
typedef enum umf_usm_memory_type_t {
    /// Not set, or not known; a provider rejects it.
    UMF_MEMORY_TYPE_UNKNOWN = 0,
    /// Host memory that the device can reach (pinned).
    UMF_MEMORY_TYPE_HOST,
    /// Memory on the device.
    UMF_MEMORY_TYPE_DEVICE,
    /// Memory that migrates between host and device (managed).
    UMF_MEMORY_TYPE_SHARED,
} umf_usm_memory_type_t;

/// @brief Counters of a GPU provider (umfGpuMemoryProviderGetStats). Threads
/// count into their own shards, which are summed when read, so counting puts
/// no shared cache line or lock on the allocation path; a read that races
/// with allocations in other threads sees each counter at some recent value.
typedef struct umf_gpu_provider_stats_t {
    /// Bytes allocated and not yet freed: the sizes asked of alloc (and left
    /// by split and merge); a free subtracts the size the provider recorded,
    /// which is the size the caller must pass (or 0).
    uint64_t allocated_bytes;
    /// The highest allocated_bytes reached (since the provider was made, or
    /// since UMF 1.x's control query stats.peak_memory.reset through the 1.0
    /// table, which makes it allocated_bytes). Exact while one thread at a
    /// time allocates and frees through the provider; with n threads doing
    /// so concurrently, off the true peak by less than (n + 1) MiB either
    /// way (each thread publishes its bytes in steps of up to 1 MiB).
    uint64_t peak_bytes;
    /// Successful allocations.
    uint64_t alloc_count;
    /// Successful frees (of allocations or split pieces).
    uint64_t free_count;
    /// IPC handles taken with get_ipc_handle and not yet put (a handle put
    /// twice is counted twice: the providers keep no list of handles).
    uint64_t ipc_handles_exported;
    /// IPC handles opened and not yet closed (each open counts once).
    uint64_t ipc_handles_open;
    /// Opens served by the cache of opened handles.
    uint64_t ipc_cache_hits;
    /// Opens that had to map the memory through the driver.
    uint64_t ipc_cache_misses;
} umf_gpu_provider_stats_t;

/// @brief What a GPU provider knows about one of its allocations
/// (umfGpuMemoryProviderGetAllocationProperties).
typedef struct umf_gpu_allocation_properties_t {
    /// HOST, DEVICE or SHARED.
    umf_usm_memory_type_t memory_type;
    /// Start of the allocation as the provider handed it out (after any
    /// split or merge, the piece that holds the pointer).
    void *base;
    /// Its size in bytes.
    size_t size;
    /// The device: a ze_device_handle_t for Level Zero (NULL for HOST
    /// memory), the CUdevice ordinal cast to a pointer for CUDA.
    void *device;
    /// The ze_context_handle_t or CUcontext the memory belongs to.
    void *context;
    /// The driver's unique id of the underlying allocation.
    uint64_t driver_id;
} umf_gpu_allocation_properties_t;

///
/// @brief Reads the counters of a GPU provider. Lock-free: it sums the
///        threads' shards while they go on counting.
/// @param hProvider a Level Zero or CUDA provider
/// @param stats [out] the counters
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or a provider that is not a GPU provider of this library.
///
umf_result_t
umfGpuMemoryProviderGetStats(umf_memory_provider_handle_t hProvider,
                             umf_gpu_provider_stats_t *stats);

///
/// @brief Describes the allocation of a GPU provider that holds \p ptr:
///        after a split or merge, the piece that holds it. It asks the
///        driver (which can fail), so it is no call for a hot path.
/// @param hProvider a Level Zero or CUDA provider
/// @param ptr any address inside an allocation of that provider
/// @param props [out] the allocation's properties
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument, a provider that is not a GPU provider of this library, or
///         a pointer it did not allocate; or
///         UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC if the driver's query
///         failed.
///
umf_result_t umfGpuMemoryProviderGetAllocationProperties(
    umf_memory_provider_handle_t hProvider, const void *ptr,
    umf_gpu_allocation_properties_t *props);

///
/// @brief Reports the native error behind this thread's last
///        UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC from a GPU provider of the
///        kind \p ops makes, without a provider handle: after
///        umfMemoryProviderCreate() failed with that result (no handle exists,
///        and umfGetLastFailedMemoryProvider() is NULL), pass the ops table
///        that was passed to it.
/// @param ops umfLevelZeroMemoryProviderOps() or umfCUDAMemoryProviderOps()
///        (or a copy of either)
/// @param ppMessage [out] the message, owned by the library, valid until this
///        thread's next failure of that provider kind
/// @param pError [out] the native error code
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or a table that is not a GPU provider's of this library.
///
umf_result_t
umfGpuMemoryProviderOpsGetLastNativeError(const umf_memory_provider_ops_t *ops,
                                          const char **ppMessage,
                                          int32_t *pError);

///
/// @brief How the file descriptor behind an IPC handle reaches a consumer in
///        another process (a Level Zero handle's fd is valid only in its
///        exporter). Both ends use it: the exporter serves its fds over a
///        Unix socket unless it is PIDFD; the consumer chooses how it takes
///        them. See docs/ipc.md.
///
typedef enum umf_gpu_ipc_fd_transfer_t {
    /// UMF_GPU_IPC_FD_TRANSFER from the environment ("auto", "socket",
    /// "pidfd"), else AUTO
    UMF_GPU_IPC_FD_TRANSFER_DEFAULT = 0,
    /// pidfd_getfd, and the exporter's fd server (SCM_RIGHTS over a Unix
    /// socket) when the OS refuses it (EPERM, EACCES, ENOSYS)
    UMF_GPU_IPC_FD_TRANSFER_AUTO = 1,
    /// the exporter's fd server only
    UMF_GPU_IPC_FD_TRANSFER_SOCKET = 2,
    /// pidfd_getfd only; an exporter serves nothing
    UMF_GPU_IPC_FD_TRANSFER_PIDFD = 3,
} umf_gpu_ipc_fd_transfer_t;

#ifdef __cplusplus
}
#endif

#endif // UMF_MEMORY_PROVIDER_GPU_H
