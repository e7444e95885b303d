// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA memory provider. This header needs no CUDA header: contexts are
// passed as void * (a CUcontext) and devices as int (a CUdevice ordinal).
//
// The provider opens the CUDA driver at first use: the library named by the
// environment variable UMF_GPU_CUDA_LIB, else libcuda.so.1, and calls
// cuInit(0) itself. A driver that cannot be loaded, lacks an entry point or
// fails cuInit gives UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE and a log line
// that names what is missing.
//
// Every driver call runs with the provider's context current, and the
// calling thread's current context is restored before any function returns,
// on success and on failure.
//
// What the provider does:
// - alloc: cuMemAlloc_v2 (DEVICE), cuMemHostAlloc with the flags set by
//   umfCUDAMemoryProviderParamsSetAllocFlags or else cuMemAllocHost_v2
//   (HOST), cuMemAllocManaged (SHARED). Size 0 is
//   UMF_RESULT_ERROR_INVALID_ARGUMENT. Any power-of-two alignment up to
//   2 MiB is honoured (above the driver's 256 bytes, by over-allocating);
//   a larger one is UMF_RESULT_ERROR_INVALID_ALIGNMENT.
// - free: cuMemFree_v2 (or cuMemFreeHost). Ownership, the same rules as the
//   Level Zero provider's: free takes the start of a live allocation or
//   split piece of this provider and its size (the size asked of alloc, or
//   left by split/merge; 0 means that size); allocation_split takes an
//   allocation or piece and exactly its size; allocation_merge two adjacent
//   pieces of one allocation and the sum of their sizes; get_ipc_handle and
//   umfGpuMemoryProviderGetAllocationProperties an address inside one.
//   Anything else (another provider's memory, even on the same context; a
//   raw cuMemAlloc pointer; a pointer freed already; an interior pointer;
//   another size) is UMF_RESULT_ERROR_INVALID_ARGUMENT and changes nothing.
//   A free the driver refused leaves the allocation as it was.
// - get_min_page_size: for NULL, the device's minimum allocation
//   granularity; for a pointer, the largest power of two not above it that
//   the pointer's driver allocation starts on and that does not exceed its
//   size. get_recommended_page_size: the recommended granularity, or the
//   minimum for sizes below it.
// - allocation_split / allocation_merge: the pieces are freed
//   independently; the driver allocation is released with its last piece.
//   purge_lazy / purge_force: UMF_RESULT_ERROR_NOT_SUPPORTED (the driver API
//   cannot drop the pages of a cuMemAlloc allocation).
// - Native errors: every failed driver call stores its CUresult and a
//   message (the call, its key arguments, the result's name and
//   description, and a hint such as "device memory ran out") for the
//   calling thread; umfMemoryProviderGetLastNativeError returns them.
//   Device memory running out is UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC
//   with CUDA_ERROR_OUT_OF_MEMORY.
// - IPC (DEVICE memory only; HOST and SHARED providers answer
//   UMF_RESULT_ERROR_NOT_SUPPORTED): the IPC data is self-describing and
//   carries the CUipcMemHandle; a handle of any pointer inside an
//   allocation opens to the matching address. Opening in the process that
//   made the handle returns the original pointer; repeated opens on one
//   context share one mapping (and count references) until the last close.
//   put_ipc_handle calls nothing in the driver. Opens use
//   CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS.
// - VMM modes (umfCUDAMemoryProviderParamsSetAllocationMode, DEVICE memory
//   only): alloc makes a physical allocation with cuMemCreate, of the
//   device's granularity for the mode's handle type (the size rounded up to
//   it), reserves a range with cuMemAddressReserve aligned to the alignment
//   asked for (any power of two up to 1 GiB; at least the granularity),
//   maps it with cuMemMap and gives the provider's device and the resident
//   devices read-write access (cuMemSetAccess). free unmaps, releases and
//   frees the range. Page sizes are the granularity. IPC exports the
//   physical allocation with cuMemExportToShareableHandle: a POSIX fd,
//   which reaches the consumer as Level Zero's fds do (pidfd_getfd, else
//   the exporter's fd server), or a 64-byte fabric handle carried in the
//   IPC data itself (no fd: any process of the NVLink domain can import
//   it). The consumer imports, reserves, maps and sets access for its
//   provider's device. Everything else (ownership, split/merge, stats,
//   native errors, the IPC cache) is as in the default mode.
// - umfGpuMemoryProviderGetStats and
// umfGpuMemoryProviderGetAllocationProperties
//   (<umf/memory_provider_gpu.h>) work on CUDA providers.

#ifndef UMF_PROVIDER_CUDA_H
#define UMF_PROVIDER_CUDA_H 1

#include <umf/memory_provider.h>
#include <umf/memory_provider_gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief Parameters of a CUDA provider, made by
/// umfCUDAMemoryProviderParamsCreate().
typedef struct umf_cuda_memory_provider_params_t
    *umf_cuda_memory_provider_params_handle_t;

///
/// @brief Makes parameters for a CUDA provider. The defaults: the calling
///        thread's current context and its device (none if no context is
///        current), DEVICE memory, no allocation flags (SHARED memory then
///        uses CU_MEM_ATTACH_GLOBAL), the name "CUDA". Loads the driver.
/// @param hParams [out] the new parameters
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         \p hParams; UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE without a
///         usable driver; UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY; or the mapped
///         error of cuCtxGetCurrent / cuCtxGetDevice.
///
umf_result_t umfCUDAMemoryProviderParamsCreate(
    umf_cuda_memory_provider_params_handle_t *hParams);

///
/// @brief Frees parameters made by umfCUDAMemoryProviderParamsCreate().
/// @param hParams the parameters
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for NULL.
///
umf_result_t umfCUDAMemoryProviderParamsDestroy(
    umf_cuda_memory_provider_params_handle_t hParams);

///
/// @brief Sets the context the provider allocates in.
/// @param hParams the parameters
/// @param hContext a CUcontext, not NULL; it must outlive the provider
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument.
///
umf_result_t umfCUDAMemoryProviderParamsSetContext(
    umf_cuda_memory_provider_params_handle_t hParams, void *hContext);

///
/// @brief Sets the device: the ordinal of the context's device. Initialize
///        checks that it is below the driver's device count and that the
///        context belongs to it.
/// @param hParams the parameters
/// @param hDevice a CUdevice ordinal, 0 or more
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or a negative ordinal.
///
umf_result_t umfCUDAMemoryProviderParamsSetDevice(
    umf_cuda_memory_provider_params_handle_t hParams, int hDevice);

///
/// @brief Sets the kind of memory: HOST, DEVICE (the default) or SHARED.
///        UMF_MEMORY_TYPE_UNKNOWN is accepted here and rejected by
///        umfMemoryProviderCreate().
/// @param hParams the parameters
/// @param memoryType the memory type
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or a value that is no umf_usm_memory_type_t.
///
umf_result_t umfCUDAMemoryProviderParamsSetMemoryType(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_usm_memory_type_t memoryType);

///
/// @brief Sets the flags of the allocation call: for HOST memory a
///        combination of CU_MEMHOSTALLOC_PORTABLE, _DEVICEMAP and
///        _WRITECOMBINED for cuMemHostAlloc (once set, even to 0,
///        cuMemHostAlloc is used instead of cuMemAllocHost_v2); for SHARED
///        memory CU_MEM_ATTACH_GLOBAL (the default) or CU_MEM_ATTACH_HOST
///        for cuMemAllocManaged; for DEVICE memory only 0.
///        umfMemoryProviderCreate() checks them against the memory type
///        (UMF_RESULT_ERROR_INVALID_ARGUMENT).
/// @param hParams the parameters
/// @param flags the flags
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle.
///
umf_result_t umfCUDAMemoryProviderParamsSetAllocFlags(
    umf_cuda_memory_provider_params_handle_t hParams, unsigned int flags);

///
/// @brief Sets the provider's name (umfMemoryProviderGetName); up to 63
///        characters are kept.
/// @param hParams the parameters
/// @param name the name, not NULL; copied
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         argument.
///
umf_result_t umfCUDAMemoryProviderParamsSetName(
    umf_cuda_memory_provider_params_handle_t hParams, const char *name);

/// @brief How a CUDA provider allocates and shares its memory.
typedef enum umf_cuda_allocation_mode_t {
    /// cuMemAlloc / cuMemAllocHost / cuMemAllocManaged; IPC by
    /// cuIpcGetMemHandle.
    UMF_CUDA_ALLOCATION_MODE_DEFAULT = 0,
    /// cuMemCreate + cuMemMap; IPC by a POSIX fd
    /// (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR).
    UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD,
    /// cuMemCreate + cuMemMap; IPC by a fabric handle
    /// (CU_MEM_HANDLE_TYPE_FABRIC).
    UMF_CUDA_ALLOCATION_MODE_VMM_FABRIC,
} umf_cuda_allocation_mode_t;

///
/// @brief Sets the allocation mode (the default:
///        UMF_CUDA_ALLOCATION_MODE_DEFAULT). umfMemoryProviderCreate()
///        refuses a VMM mode with HOST or SHARED memory
///        (UMF_RESULT_ERROR_INVALID_ARGUMENT), and fails with
///        UMF_RESULT_ERROR_NOT_SUPPORTED, and a native error naming the
///        device attribute, where the device reports no
///        CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
///        _HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED (POSIX_FD) or
///        _HANDLE_TYPE_FABRIC_SUPPORTED (FABRIC), or where the driver lacks
///        the VMM entry points.
/// @param hParams the parameters
/// @param mode the mode
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle or a value that is no umf_cuda_allocation_mode_t.
///
umf_result_t umfCUDAMemoryProviderParamsSetAllocationMode(
    umf_cuda_memory_provider_params_handle_t hParams,
    umf_cuda_allocation_mode_t mode);

/// The most resident devices a CUDA provider takes.
#define UMF_CUDA_MAX_RESIDENT_DEVICES 64

///
/// @brief Sets the devices, besides the provider's own, that get read-write
///        access to every allocation (cuMemSetAccess): VMM modes only;
///        umfMemoryProviderCreate() refuses them in the default mode
///        (UMF_RESULT_ERROR_INVALID_ARGUMENT: cuMemAlloc memory reaches
///        peers through cuCtxEnablePeerAccess instead) and checks each
///        ordinal against the driver's device count. The provider's own
///        device may be listed; it changes nothing.
/// @param hParams the parameters
/// @param devices CUdevice ordinals; copied; NULL only with count 0
/// @param count how many, up to UMF_CUDA_MAX_RESIDENT_DEVICES; 0 clears
/// @return UMF_RESULT_SUCCESS; UMF_RESULT_ERROR_INVALID_ARGUMENT for a NULL
///         handle, NULL devices with a count, too many devices, a negative
///         ordinal or one listed twice.
///
umf_result_t umfCUDAMemoryProviderParamsSetResidentDevices(
    umf_cuda_memory_provider_params_handle_t hParams, const int *devices,
    uint32_t count);

///
/// @brief The CUDA provider's ops table, for umfMemoryProviderCreate() with
///        parameters from umfCUDAMemoryProviderParamsCreate(), which
///        initialize requires (UMF_RESULT_ERROR_INVALID_ARGUMENT for NULL
///        parameters, no context, no device, a device out of range or not
///        the context's, memory type UNKNOWN, or flags the memory type does
///        not take). NULL in a build without CUDA. The UMF 0.9 layout, for
///        umf-gpu's core and UMF 0.9; for UMF 1.x, see
///        umfCUDAMemoryProviderOps_1_0() (provider_ops_1_0.h).
///
const umf_memory_provider_ops_t *umfCUDAMemoryProviderOps(void);

#ifdef __cplusplus
}
#endif

#endif // UMF_PROVIDER_CUDA_H
