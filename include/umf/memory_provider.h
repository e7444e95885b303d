// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Provider handles: create one from an ops table, then allocate, free, query
// and share memory through it. Every function checks its arguments and, when
// it returns an error, records the provider as this thread's "last failed
// provider" (umfGetLastFailedMemoryProvider).

#ifndef UMF_MEMORY_PROVIDER_H
#define UMF_MEMORY_PROVIDER_H 1

#include <umf/base.h>
#include <umf/memory_provider_ops.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief A memory provider made by umfMemoryProviderCreate().
typedef struct umf_memory_provider_t *umf_memory_provider_handle_t;

///
/// @brief Makes a provider from an ops table and the provider's parameters.
/// @param ops the table; it is copied, so it need not outlive the call
/// @param params passed unchanged to ops->initialize
/// @param hProvider [out] the new provider
/// @return UMF_RESULT_SUCCESS;
///         UMF_RESULT_ERROR_INVALID_ARGUMENT when \p ops or \p hProvider is
///         NULL, ops->version is not UMF_VERSION_CURRENT, a mandatory op is
///         NULL, only one of split/merge is set, or only some IPC ops are set;
///         UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
///         or the error of ops->initialize, unchanged.
///
umf_result_t umfMemoryProviderCreate(const umf_memory_provider_ops_t *ops,
                                     void *params,
                                     umf_memory_provider_handle_t *hProvider);

///
/// @brief Finalizes and frees a provider. NULL is ignored.
/// @param hProvider the provider
///
void umfMemoryProviderDestroy(umf_memory_provider_handle_t hProvider);

///
/// @brief Allocates \p size bytes aligned to \p alignment.
/// @param hProvider the provider
/// @param size bytes to allocate
/// @param alignment 0 (the provider's natural alignment) or a power of two
/// @param ptr [out] the allocation
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p ptr; UMF_RESULT_ERROR_INVALID_ALIGNMENT when
///         \p alignment is not 0 or a power of two; or the provider's error.
///
umf_result_t umfMemoryProviderAlloc(umf_memory_provider_handle_t hProvider,
                                    size_t size, size_t alignment, void **ptr);

///
/// @brief Frees an allocation of the provider.
/// @param hProvider the provider
/// @param ptr the allocation (not NULL)
/// @param size its size, or 0 for the size the provider recorded
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p ptr; or the provider's error.
///
umf_result_t umfMemoryProviderFree(umf_memory_provider_handle_t hProvider,
                                   void *ptr, size_t size);

///
/// @brief Reports the native code and message behind this thread's last
///        UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC from \p hProvider.
///        With a NULL handle, *ppMessage is set to NULL and *pError to 0.
/// @param hProvider the provider
/// @param ppMessage [out] the message, owned by the provider
/// @param pError [out] the native code
///
void umfMemoryProviderGetLastNativeError(umf_memory_provider_handle_t hProvider,
                                         const char **ppMessage,
                                         int32_t *pError);

///
/// @brief Tells the page size recommended for allocations of \p size bytes.
/// @param hProvider the provider
/// @param size an allocation size
/// @param pageSize [out] the page size
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p pageSize; or the provider's error.
///
umf_result_t
umfMemoryProviderGetRecommendedPageSize(umf_memory_provider_handle_t hProvider,
                                        size_t size, size_t *pageSize);

///
/// @brief Tells the minimum page size of the allocation holding \p ptr, or of
///        the provider when \p ptr is NULL.
/// @param hProvider the provider
/// @param ptr [optional] memory of the provider
/// @param pageSize [out] the page size
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p pageSize; or the provider's error.
///
umf_result_t
umfMemoryProviderGetMinPageSize(umf_memory_provider_handle_t hProvider,
                                void *ptr, size_t *pageSize);

///
/// @brief Names the provider.
/// @param hProvider the provider
/// @return the name, or NULL for a NULL handle.
///
const char *umfMemoryProviderGetName(umf_memory_provider_handle_t hProvider);

///
/// @brief Lets the provider release the pages of a range when it chooses.
/// @param hProvider the provider
/// @param ptr start of the range (not NULL)
/// @param size length of the range
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p ptr; UMF_RESULT_ERROR_NOT_SUPPORTED when the provider
///         does not purge; or the provider's error.
///
umf_result_t umfMemoryProviderPurgeLazy(umf_memory_provider_handle_t hProvider,
                                        void *ptr, size_t size);

///
/// @brief Releases the pages of a range now; they read as zeros afterwards.
/// @param hProvider the provider
/// @param ptr start of the range (not NULL)
/// @param size length of the range
/// @return as umfMemoryProviderPurgeLazy().
///
umf_result_t umfMemoryProviderPurgeForce(umf_memory_provider_handle_t hProvider,
                                         void *ptr, size_t size);

///
/// @brief Cuts an allocation in two that are freed independently.
/// @param hProvider the provider
/// @param ptr start of the allocation (not NULL)
/// @param totalSize size of the allocation
/// @param firstSize size of the first piece, 0 < \p firstSize < \p totalSize
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p ptr or a \p firstSize out of range;
///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot split; or
///         the provider's error.
///
umf_result_t
umfMemoryProviderAllocationSplit(umf_memory_provider_handle_t hProvider,
                                 void *ptr, size_t totalSize, size_t firstSize);

///
/// @brief Joins two adjacent allocations into one.
/// @param hProvider the provider
/// @param lowPtr the lower allocation (not NULL)
/// @param highPtr the higher allocation, \p lowPtr < \p highPtr
/// @param totalSize the sum of both sizes, more than \p highPtr - \p lowPtr
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or pointers and size out of that order;
///         UMF_RESULT_ERROR_NOT_SUPPORTED when the provider cannot merge; or
///         the provider's error.
///
umf_result_t
umfMemoryProviderAllocationMerge(umf_memory_provider_handle_t hProvider,
                                 void *lowPtr, void *highPtr, size_t totalSize);

///
/// @brief Tells how many bytes of storage umfMemoryProviderGetIPCHandle()
///        writes.
/// @param hProvider the provider
/// @param size [out] the size
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or \p size; UMF_RESULT_ERROR_NOT_SUPPORTED when the
///         provider cannot share memory; or the provider's error.
///
umf_result_t
umfMemoryProviderGetIPCHandleSize(umf_memory_provider_handle_t hProvider,
                                  size_t *size);

///
/// @brief Writes the IPC data that lets another process map the allocation
///        holding \p ptr.
/// @param hProvider the provider
/// @param ptr memory of the provider (not NULL)
/// @param size length of the range to share
/// @param providerIpcData [out] storage of umfMemoryProviderGetIPCHandleSize()
///        bytes
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or memory the provider does not own;
///         UMF_RESULT_ERROR_NOT_SUPPORTED; or the provider's error.
///
umf_result_t
umfMemoryProviderGetIPCHandle(umf_memory_provider_handle_t hProvider,
                              const void *ptr, size_t size,
                              void *providerIpcData);

///
/// @brief Releases what umfMemoryProviderGetIPCHandle() took.
/// @param hProvider the provider
/// @param providerIpcData the data it wrote (not NULL)
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or data from elsewhere; UMF_RESULT_ERROR_NOT_SUPPORTED;
///         or the provider's error.
///
umf_result_t
umfMemoryProviderPutIPCHandle(umf_memory_provider_handle_t hProvider,
                              void *providerIpcData);

///
/// @brief Maps in this process the memory described by IPC data.
/// @param hProvider the provider
/// @param providerIpcData the data (not NULL)
/// @param ptr [out] the mapped memory
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or data the provider cannot use;
///         UMF_RESULT_ERROR_NOT_SUPPORTED; or the provider's error.
///
umf_result_t
umfMemoryProviderOpenIPCHandle(umf_memory_provider_handle_t hProvider,
                               void *providerIpcData, void **ptr);

///
/// @brief Unmaps memory mapped by umfMemoryProviderOpenIPCHandle().
/// @param hProvider the provider
/// @param ptr the pointer it returned (not NULL)
/// @param size length of the mapping
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument or a pointer that was not opened;
///         UMF_RESULT_ERROR_NOT_SUPPORTED; or the provider's error.
///
umf_result_t
umfMemoryProviderCloseIPCHandle(umf_memory_provider_handle_t hProvider,
                                void *ptr, size_t size);

///
/// @brief The provider whose call last returned an error in this thread, or
///        NULL if none has (a call with a NULL handle records NULL).
///
umf_memory_provider_handle_t umfGetLastFailedMemoryProvider(void);

#ifdef __cplusplus
}
#endif

#endif // UMF_MEMORY_PROVIDER_H
