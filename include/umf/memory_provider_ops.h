// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The memory-provider ops table: the functions a provider implements and
// umfMemoryProviderCreate() dispatches to. The layout (fields, types, order)
// is the UMF 0.9 ABI, so a table made by this library works with any consumer
// of that layout and the other way round.

#ifndef UMF_MEMORY_PROVIDER_OPS_H
#define UMF_MEMORY_PROVIDER_OPS_H 1

#include <umf/base.h>

#ifdef __cplusplus
extern "C" {
#endif

///
/// @brief Optional operations. A provider may leave any of them NULL; the
/// core then answers UMF_RESULT_ERROR_NOT_SUPPORTED for it.
///
typedef struct umf_memory_provider_ext_ops_t {
    ///
    /// @brief Lets the provider drop the physical pages behind
    ///        [\p ptr, \p ptr + \p size) whenever it chooses; the call may
    ///        return before, or without, anything being released.
    /// @param provider the provider's private state
    /// @param ptr start of the range
    /// @param size length of the range in bytes
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_INVALID_ALIGNMENT when
    ///         \p ptr or \p size is not a multiple of the page size,
    ///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot purge,
    ///         or another error.
    ///
    umf_result_t (*purge_lazy)(void *provider, void *ptr, size_t size);

    ///
    /// @brief Drops the physical pages behind [\p ptr, \p ptr + \p size) before
    ///        returning; after success the range reads as zeros when next
    ///        touched.
    /// @param provider the provider's private state
    /// @param ptr start of the range
    /// @param size length of the range in bytes
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_INVALID_ALIGNMENT when
    ///         \p ptr or \p size is not a multiple of the page size,
    ///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot purge,
    ///         or another error.
    ///
    umf_result_t (*purge_force)(void *provider, void *ptr, size_t size);

    ///
    /// @brief Joins two adjacent allocations of this provider into one that is
    ///        then freed as a single allocation of \p totalSize bytes.
    ///        Set both allocation_merge and allocation_split, or neither. The
    ///        caller must not merge and split the same pointer concurrently.
    /// @param hProvider the provider's private state
    /// @param lowPtr the lower allocation
    /// @param highPtr the higher allocation, which must start where the lower
    ///        one ends (so \p highPtr > \p lowPtr)
    /// @param totalSize the sum of the two allocations' sizes
    /// @return UMF_RESULT_SUCCESS or an error.
    ///
    umf_result_t (*allocation_merge)(void *hProvider, void *lowPtr,
                                     void *highPtr, size_t totalSize);

    ///
    /// @brief Cuts one allocation of \p totalSize bytes at \p firstSize into
    ///        two adjacent allocations that are freed independently: the first
    ///        of \p firstSize bytes at \p ptr, the second of
    ///        \p totalSize - \p firstSize bytes right after it.
    ///        Set both allocation_merge and allocation_split, or neither. The
    ///        caller must not merge and split the same pointer concurrently.
    /// @param hProvider the provider's private state
    /// @param ptr start of the allocation
    /// @param totalSize size of the allocation
    /// @param firstSize size of the first piece, 0 < \p firstSize <
    ///        \p totalSize
    /// @return UMF_RESULT_SUCCESS or an error.
    ///
    umf_result_t (*allocation_split)(void *hProvider, void *ptr,
                                     size_t totalSize, size_t firstSize);

} umf_memory_provider_ext_ops_t;

///
/// @brief Optional inter-process sharing. A provider sets all five or none;
/// with none, the core answers UMF_RESULT_ERROR_NOT_SUPPORTED.
///
typedef struct umf_memory_provider_ipc_ops_t {
    ///
    /// @brief Tells how many bytes the caller must reserve for the IPC data
    ///        that get_ipc_handle writes.
    /// @param provider the provider's private state
    /// @param size [out] the size in bytes
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_NOT_SUPPORTED when the
    ///         provider cannot share memory, or another error.
    umf_result_t (*get_ipc_handle_size)(void *provider, size_t *size);

    ///
    /// @brief Writes, into caller-provided storage, the IPC data another
    ///        process needs to map the allocation that holds \p ptr.
    /// @param provider the provider's private state
    /// @param ptr start of the range to share
    /// @param size length of the range
    /// @param providerIpcData [out] storage of get_ipc_handle_size bytes
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_INVALID_ARGUMENT when
    ///         \p ptr is not memory of this provider,
    ///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot share
    ///         memory, or another error.
    umf_result_t (*get_ipc_handle)(void *provider, const void *ptr, size_t size,
                                   void *providerIpcData);

    ///
    /// @brief Gives back what get_ipc_handle took for \p providerIpcData.
    /// @param provider the provider's private state
    /// @param providerIpcData data written by get_ipc_handle
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_INVALID_ARGUMENT when
    ///         \p providerIpcData did not come from this provider,
    ///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot share
    ///         memory, or another error.
    umf_result_t (*put_ipc_handle)(void *provider, void *providerIpcData);

    ///
    /// @brief Maps, in the calling process, the memory that
    ///        \p providerIpcData describes.
    /// @param provider the provider's private state
    /// @param providerIpcData data written by get_ipc_handle, usually in
    ///        another process
    /// @param ptr [out] where the memory is mapped in this process
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_INVALID_ARGUMENT when
    ///         the provider cannot use \p providerIpcData,
    ///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot share
    ///         memory, or another error.
    umf_result_t (*open_ipc_handle)(void *provider, void *providerIpcData,
                                    void **ptr);

    ///
    /// @brief Unmaps memory that open_ipc_handle mapped.
    /// @param provider the provider's private state
    /// @param ptr the pointer open_ipc_handle returned
    /// @param size length of the mapped range
    /// @return UMF_RESULT_SUCCESS, UMF_RESULT_ERROR_INVALID_ARGUMENT when
    ///         \p ptr was not returned by open_ipc_handle,
    ///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot share
    ///         memory, or another error.
    umf_result_t (*close_ipc_handle)(void *provider, void *ptr, size_t size);
} umf_memory_provider_ipc_ops_t;

///
/// @brief The operations of a memory provider. Every field outside `ext` and
/// `ipc` is mandatory.
///
typedef struct umf_memory_provider_ops_t {
    /// The layout version of this table; set it to UMF_VERSION_CURRENT.
    uint32_t version;

    ///
    /// @brief Creates the provider's private state from \p params.
    /// @param params the provider's own parameters (may be NULL if the
    ///        provider accepts that)
    /// @param provider [out] the private state, passed to every other op
    /// @return UMF_RESULT_SUCCESS or an error, which umfMemoryProviderCreate
    ///         returns unchanged.
    ///
    umf_result_t (*initialize)(void *params, void **provider);

    ///
    /// @brief Releases the private state made by initialize.
    /// @param provider the provider's private state
    ///
    void (*finalize)(void *provider);

    ///
    /// @brief Allocates \p size bytes, not initialised, aligned to
    ///        \p alignment.
    /// @param provider the provider's private state
    /// @param size bytes to allocate
    /// @param alignment 0 for the provider's natural alignment, or a power of
    ///        two that is a multiple or a divisor of the minimum page size
    /// @param ptr [out] the allocation
    /// @return UMF_RESULT_SUCCESS or an error.
    ///
    umf_result_t (*alloc)(void *provider, size_t size, size_t alignment,
                          void **ptr);

    ///
    /// @brief Frees an allocation of this provider.
    /// @param provider the provider's private state
    /// @param ptr the allocation
    /// @param size its size, as passed to alloc (or as left by split/merge);
    ///        0 means that size, as the provider recorded it
    /// @return UMF_RESULT_SUCCESS or an error.
    ///
    umf_result_t (*free)(void *provider, void *ptr, size_t size);

    ///
    /// @brief Reports the driver's own result behind the last
    ///        UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC returned in the calling
    ///        thread.
    ///
    /// \details
    /// * A provider stores the native code and a message in thread-local
    ///   storage before it returns UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC,
    ///   so a failure in one thread never shows in another.
    ///
    /// * What this reports is meaningful only after a call in this thread
    ///   returned UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC.
    ///
    /// * The message is NUL-terminated and owned by the provider; the caller
    ///   neither frees nor modifies it.
    ///
    /// * Any number of threads may call this at once, and it should take no
    ///   lock.
    /// @param provider the provider's private state
    /// @param ppMessage [out] the message
    /// @param pError [out] the native error code
    ///
    void (*get_last_native_error)(void *provider, const char **ppMessage,
                                  int32_t *pError);

    ///
    /// @brief Tells the page size the provider recommends for allocations of
    ///        \p size bytes.
    /// @param provider the provider's private state
    /// @param size an allocation size
    /// @param pageSize [out] the recommended page size
    /// @return UMF_RESULT_SUCCESS or an error.
    ///
    umf_result_t (*get_recommended_page_size)(void *provider, size_t size,
                                              size_t *pageSize);

    ///
    /// @brief Tells the smallest page size of the allocation holding \p ptr,
    ///        or, when \p ptr is NULL, the smallest the provider ever uses.
    /// @param provider the provider's private state
    /// @param ptr [optional] memory of this provider, or NULL
    /// @param pageSize [out] the minimum page size
    /// @return UMF_RESULT_SUCCESS or an error.
    ///
    umf_result_t (*get_min_page_size)(void *provider, void *ptr,
                                      size_t *pageSize);

    ///
    /// @brief Names the provider.
    /// @param provider the provider's private state
    /// @return a NUL-terminated name that lives as long as the provider.
    ///
    const char *(*get_name)(void *provider);

    ///
    /// @brief Optional operations.
    ///
    umf_memory_provider_ext_ops_t ext;

    ///
    /// @brief Optional inter-process sharing of allocations.
    ///
    umf_memory_provider_ipc_ops_t ipc;
} umf_memory_provider_ops_t;

#ifdef __cplusplus
}
#endif

#endif // UMF_MEMORY_PROVIDER_OPS_H
