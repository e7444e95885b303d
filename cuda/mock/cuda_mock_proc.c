// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// cuGetProcAddress_v2: the entry points of this driver by base name and
// CUDA version, as the CUDA runtime and other loaders ask for them. The
// versions are those of cudaTypedefs.h (PFN_cuMemAlloc_v3020 ...): the first
// CUDA version whose callers expect that variant.

#include "cuda_mock_internal.h"

#include <string.h>

#include "mock_log.h"

typedef struct proc_entry_t {
    const char *name; // base name, as callers ask
    int version;      // first CUDA version of this variant
    bool ptds;        // the per-thread default stream variant
    void *fn;
} proc_entry_t;

#define P(name, version, fn)                                                   \
    { #name, version, false, (void *)fn }
#define P_PTDS(name, version, fn)                                              \
    { #name, version, true, (void *)fn }

static const proc_entry_t entries[] = {
    P(cuInit, 2000, cuInit),
    P(cuDriverGetVersion, 2020, cuDriverGetVersion),
    P(cuGetProcAddress, 11030, cuGetProcAddress),
    P(cuGetProcAddress, 12000, cuGetProcAddress_v2),
    P(cuGetErrorName, 6000, cuGetErrorName),
    P(cuGetErrorString, 6000, cuGetErrorString),
    P(cuDeviceGet, 2000, cuDeviceGet),
    P(cuDeviceGetCount, 2000, cuDeviceGetCount),
    P(cuDeviceGetName, 2000, cuDeviceGetName),
    P(cuDeviceGetUuid, 9020, cuDeviceGetUuid),
    P(cuDeviceGetPCIBusId, 4010, cuDeviceGetPCIBusId),
    P(cuDeviceGetByPCIBusId, 4010, cuDeviceGetByPCIBusId),
    P(cuDeviceCanAccessPeer, 4000, cuDeviceCanAccessPeer),
    P(cuDeviceGetUuid, 11040, cuDeviceGetUuid_v2),
    P(cuDeviceTotalMem, 2000, cuDeviceTotalMem),
    P(cuDeviceTotalMem, 3020, cuDeviceTotalMem_v2),
    P(cuDeviceGetAttribute, 2000, cuDeviceGetAttribute),
    P(cuDevicePrimaryCtxRetain, 7000, cuDevicePrimaryCtxRetain),
    P(cuDevicePrimaryCtxRelease, 7000, cuDevicePrimaryCtxRelease),
    P(cuDevicePrimaryCtxRelease, 11000, cuDevicePrimaryCtxRelease_v2),
    P(cuDevicePrimaryCtxGetState, 7000, cuDevicePrimaryCtxGetState),
    P(cuCtxCreate, 2000, cuCtxCreate),
    P(cuCtxCreate, 3020, cuCtxCreate_v2),
    P(cuCtxCreate, 11040, cuCtxCreate_v3),
    P(cuCtxCreate, 12050, cuCtxCreate_v4),
    P(cuCtxDestroy, 2000, cuCtxDestroy),
    P(cuCtxDestroy, 4000, cuCtxDestroy_v2),
    P(cuCtxGetCurrent, 4000, cuCtxGetCurrent),
    P(cuCtxSetCurrent, 4000, cuCtxSetCurrent),
    P(cuCtxGetDevice, 2000, cuCtxGetDevice),
    P(cuCtxGetDevice, 13000, cuCtxGetDevice_v2),
    P(cuCtxPushCurrent, 2000, cuCtxPushCurrent),
    P(cuCtxPushCurrent, 4000, cuCtxPushCurrent_v2),
    P(cuCtxPopCurrent, 2000, cuCtxPopCurrent),
    P(cuCtxPopCurrent, 4000, cuCtxPopCurrent_v2),
    P(cuCtxSynchronize, 2000, cuCtxSynchronize),
    P(cuCtxSynchronize, 13000, cuCtxSynchronize_v2),
    P(cuMemAlloc, 2000, cuMemAlloc),
    P(cuMemAlloc, 3020, cuMemAlloc_v2),
    P(cuMemAllocHost, 2000, cuMemAllocHost),
    P(cuMemAllocHost, 3020, cuMemAllocHost_v2),
    P(cuMemHostAlloc, 2020, cuMemHostAlloc),
    P(cuMemAllocManaged, 6000, cuMemAllocManaged),
    P(cuMemFree, 2000, cuMemFree),
    P(cuMemFree, 3020, cuMemFree_v2),
    P(cuMemFreeHost, 2000, cuMemFreeHost),
    P(cuMemGetInfo, 2000, cuMemGetInfo),
    P(cuMemGetInfo, 3020, cuMemGetInfo_v2),
    P(cuMemGetAddressRange, 2000, cuMemGetAddressRange),
    P(cuMemGetAddressRange, 3020, cuMemGetAddressRange_v2),
    P(cuPointerGetAttribute, 4000, cuPointerGetAttribute),
    P(cuPointerGetAttributes, 7000, cuPointerGetAttributes),
    P(cuIpcGetMemHandle, 4010, cuIpcGetMemHandle),
    P(cuIpcOpenMemHandle, 4010, cuIpcOpenMemHandle),
    P(cuIpcOpenMemHandle, 11000, cuIpcOpenMemHandle_v2),
    P(cuIpcCloseMemHandle, 4010, cuIpcCloseMemHandle),
    P(cuMemcpy, 4000, cuMemcpy),
    P_PTDS(cuMemcpy, 7000, cuMemcpy_ptds),
    P(cuMemcpyHtoD, 2000, cuMemcpyHtoD),
    P(cuMemcpyHtoD, 3020, cuMemcpyHtoD_v2),
    P_PTDS(cuMemcpyHtoD, 7000, cuMemcpyHtoD_v2_ptds),
    P(cuMemcpyDtoH, 2000, cuMemcpyDtoH),
    P(cuMemcpyDtoH, 3020, cuMemcpyDtoH_v2),
    P_PTDS(cuMemcpyDtoH, 7000, cuMemcpyDtoH_v2_ptds),
    P(cuMemcpyDtoD, 2000, cuMemcpyDtoD),
    P(cuMemcpyDtoD, 3020, cuMemcpyDtoD_v2),
    P_PTDS(cuMemcpyDtoD, 7000, cuMemcpyDtoD_v2_ptds),
    P(cuMemsetD8, 2000, cuMemsetD8),
    P(cuMemsetD8, 3020, cuMemsetD8_v2),
    P_PTDS(cuMemsetD8, 7000, cuMemsetD8_v2_ptds),
    P(cuMemGetAllocationGranularity, 10020, cuMemGetAllocationGranularity),
    P(cuMemCreate, 10020, cuMemCreate),
    P(cuMemRelease, 10020, cuMemRelease),
    P(cuMemRetainAllocationHandle, 11000, cuMemRetainAllocationHandle),
    P(cuMemGetAllocationPropertiesFromHandle, 10020,
      cuMemGetAllocationPropertiesFromHandle),
    P(cuMemExportToShareableHandle, 10020, cuMemExportToShareableHandle),
    P(cuMemImportFromShareableHandle, 10020, cuMemImportFromShareableHandle),
    P(cuMemAddressReserve, 10020, cuMemAddressReserve),
    P(cuMemAddressFree, 10020, cuMemAddressFree),
    P(cuMemMap, 10020, cuMemMap),
    P(cuMemUnmap, 10020, cuMemUnmap),
    P(cuMemSetAccess, 10020, cuMemSetAccess),
    P(cuMemGetAccess, 10020, cuMemGetAccess),
    // Contexts
    P(cuCtxEnablePeerAccess, 4000, cuCtxEnablePeerAccess),
    P(cuCtxDisablePeerAccess, 4000, cuCtxDisablePeerAccess),
    P(cuCtxGetFlags, 7000, cuCtxGetFlags),
    P(cuCtxGetApiVersion, 3020, cuCtxGetApiVersion),
    P(cuCtxGetLimit, 3010, cuCtxGetLimit),
    P(cuCtxSetLimit, 3010, cuCtxSetLimit),
    P(cuCtxGetStreamPriorityRange, 5050, cuCtxGetStreamPriorityRange),
    // Streams
    P(cuStreamCreate, 2000, cuStreamCreate),
    P(cuStreamCreateWithPriority, 5050, cuStreamCreateWithPriority),
    P(cuStreamDestroy, 2000, cuStreamDestroy),
    P(cuStreamDestroy, 4000, cuStreamDestroy_v2),
    P(cuStreamSynchronize, 2000, cuStreamSynchronize),
    P_PTDS(cuStreamSynchronize, 7000, cuStreamSynchronize_ptsz),
    P(cuStreamQuery, 2000, cuStreamQuery),
    P_PTDS(cuStreamQuery, 7000, cuStreamQuery_ptsz),
    P(cuStreamWaitEvent, 3020, cuStreamWaitEvent),
    P_PTDS(cuStreamWaitEvent, 7000, cuStreamWaitEvent_ptsz),
    P(cuStreamGetCtx, 9020, cuStreamGetCtx),
    P_PTDS(cuStreamGetCtx, 9020, cuStreamGetCtx_ptsz),
    P(cuStreamGetCtx, 12050, cuStreamGetCtx_v2),
    P_PTDS(cuStreamGetCtx, 12050, cuStreamGetCtx_v2_ptsz),
    P(cuStreamGetFlags, 5050, cuStreamGetFlags),
    P_PTDS(cuStreamGetFlags, 7000, cuStreamGetFlags_ptsz),
    P(cuStreamGetPriority, 5050, cuStreamGetPriority),
    P_PTDS(cuStreamGetPriority, 7000, cuStreamGetPriority_ptsz),
    P(cuStreamGetId, 12000, cuStreamGetId),
    P_PTDS(cuStreamGetId, 12000, cuStreamGetId_ptsz),
    // Host functions in stream order
    P(cuStreamAddCallback, 5000, cuStreamAddCallback),
    P_PTDS(cuStreamAddCallback, 7000, cuStreamAddCallback_ptsz),
    P(cuLaunchHostFunc, 10000, cuLaunchHostFunc),
    P_PTDS(cuLaunchHostFunc, 10000, cuLaunchHostFunc_ptsz),
    // Managed memory: advice, prefetch, range attributes
    P(cuMemAdvise, 8000, cuMemAdvise),
    P(cuMemAdvise, 12020, cuMemAdvise_v2),
    P(cuMemPrefetchAsync, 8000, cuMemPrefetchAsync),
    P_PTDS(cuMemPrefetchAsync, 8000, cuMemPrefetchAsync_ptsz),
    P(cuMemPrefetchAsync, 12020, cuMemPrefetchAsync_v2),
    P_PTDS(cuMemPrefetchAsync, 12020, cuMemPrefetchAsync_v2_ptsz),
    P(cuMemRangeGetAttribute, 8000, cuMemRangeGetAttribute),
    P(cuMemRangeGetAttributes, 8000, cuMemRangeGetAttributes),
    P(cuPointerSetAttribute, 6000, cuPointerSetAttribute),
    // Events
    P(cuEventCreate, 2000, cuEventCreate),
    P(cuEventRecord, 2000, cuEventRecord),
    P_PTDS(cuEventRecord, 7000, cuEventRecord_ptsz),
    P(cuEventRecordWithFlags, 11010, cuEventRecordWithFlags),
    P_PTDS(cuEventRecordWithFlags, 11010, cuEventRecordWithFlags_ptsz),
    P(cuEventQuery, 2000, cuEventQuery),
    P(cuEventSynchronize, 2000, cuEventSynchronize),
    P(cuEventElapsedTime, 2000, cuEventElapsedTime),
    P(cuEventElapsedTime, 12080, cuEventElapsedTime_v2),
    P(cuEventDestroy, 2000, cuEventDestroy),
    P(cuEventDestroy, 4000, cuEventDestroy_v2),
    P(cuIpcGetEventHandle, 4010, cuIpcGetEventHandle),
    P(cuIpcOpenEventHandle, 4010, cuIpcOpenEventHandle),
    // Copies on streams, between contexts, in 2D
    P(cuMemcpyAsync, 4000, cuMemcpyAsync),
    P_PTDS(cuMemcpyAsync, 7000, cuMemcpyAsync_ptsz),
    P(cuMemcpyHtoDAsync, 2000, cuMemcpyHtoDAsync),
    P(cuMemcpyHtoDAsync, 3020, cuMemcpyHtoDAsync_v2),
    P_PTDS(cuMemcpyHtoDAsync, 7000, cuMemcpyHtoDAsync_v2_ptsz),
    P(cuMemcpyDtoHAsync, 2000, cuMemcpyDtoHAsync),
    P(cuMemcpyDtoHAsync, 3020, cuMemcpyDtoHAsync_v2),
    P_PTDS(cuMemcpyDtoHAsync, 7000, cuMemcpyDtoHAsync_v2_ptsz),
    P(cuMemcpyDtoDAsync, 3000, cuMemcpyDtoDAsync),
    P(cuMemcpyDtoDAsync, 3020, cuMemcpyDtoDAsync_v2),
    P_PTDS(cuMemcpyDtoDAsync, 7000, cuMemcpyDtoDAsync_v2_ptsz),
    P(cuMemcpyPeer, 4000, cuMemcpyPeer),
    P_PTDS(cuMemcpyPeer, 7000, cuMemcpyPeer_ptds),
    P(cuMemcpyPeerAsync, 4000, cuMemcpyPeerAsync),
    P_PTDS(cuMemcpyPeerAsync, 7000, cuMemcpyPeerAsync_ptsz),
    P(cuMemcpy2D, 2000, cuMemcpy2D),
    P(cuMemcpy2D, 3020, cuMemcpy2D_v2),
    P_PTDS(cuMemcpy2D, 7000, cuMemcpy2D_v2_ptds),
    P(cuMemcpy2DUnaligned, 2000, cuMemcpy2DUnaligned),
    P(cuMemcpy2DUnaligned, 3020, cuMemcpy2DUnaligned_v2),
    P_PTDS(cuMemcpy2DUnaligned, 7000, cuMemcpy2DUnaligned_v2_ptds),
    P(cuMemcpy2DAsync, 2000, cuMemcpy2DAsync),
    P(cuMemcpy2DAsync, 3020, cuMemcpy2DAsync_v2),
    P_PTDS(cuMemcpy2DAsync, 7000, cuMemcpy2DAsync_v2_ptsz),
    // CUDA arrays, 3D copies and copies with arrays
    P(cuArrayCreate, 2000, cuArrayCreate),
    P(cuArrayCreate, 3020, cuArrayCreate_v2),
    P(cuArray3DCreate, 2000, cuArray3DCreate),
    P(cuArray3DCreate, 3020, cuArray3DCreate_v2),
    P(cuArrayGetDescriptor, 2000, cuArrayGetDescriptor),
    P(cuArrayGetDescriptor, 3020, cuArrayGetDescriptor_v2),
    P(cuArray3DGetDescriptor, 2000, cuArray3DGetDescriptor),
    P(cuArray3DGetDescriptor, 3020, cuArray3DGetDescriptor_v2),
    P(cuArrayDestroy, 2000, cuArrayDestroy),
    P(cuArrayGetMemoryRequirements, 11060, cuArrayGetMemoryRequirements),
    P(cuArrayGetPlane, 11020, cuArrayGetPlane),
    P(cuArrayGetSparseProperties, 11010, cuArrayGetSparseProperties),
    P(cuMemcpyHtoA, 2000, cuMemcpyHtoA),
    P(cuMemcpyHtoA, 3020, cuMemcpyHtoA_v2),
    P_PTDS(cuMemcpyHtoA, 7000, cuMemcpyHtoA_v2_ptds),
    P(cuMemcpyAtoH, 2000, cuMemcpyAtoH),
    P(cuMemcpyAtoH, 3020, cuMemcpyAtoH_v2),
    P_PTDS(cuMemcpyAtoH, 7000, cuMemcpyAtoH_v2_ptds),
    P(cuMemcpyDtoA, 2000, cuMemcpyDtoA),
    P(cuMemcpyDtoA, 3020, cuMemcpyDtoA_v2),
    P_PTDS(cuMemcpyDtoA, 7000, cuMemcpyDtoA_v2_ptds),
    P(cuMemcpyAtoD, 2000, cuMemcpyAtoD),
    P(cuMemcpyAtoD, 3020, cuMemcpyAtoD_v2),
    P_PTDS(cuMemcpyAtoD, 7000, cuMemcpyAtoD_v2_ptds),
    P(cuMemcpyAtoA, 2000, cuMemcpyAtoA),
    P(cuMemcpyAtoA, 3020, cuMemcpyAtoA_v2),
    P_PTDS(cuMemcpyAtoA, 7000, cuMemcpyAtoA_v2_ptds),
    P(cuMemcpyHtoAAsync, 2000, cuMemcpyHtoAAsync),
    P(cuMemcpyHtoAAsync, 3020, cuMemcpyHtoAAsync_v2),
    P_PTDS(cuMemcpyHtoAAsync, 7000, cuMemcpyHtoAAsync_v2_ptsz),
    P(cuMemcpyAtoHAsync, 2000, cuMemcpyAtoHAsync),
    P(cuMemcpyAtoHAsync, 3020, cuMemcpyAtoHAsync_v2),
    P_PTDS(cuMemcpyAtoHAsync, 7000, cuMemcpyAtoHAsync_v2_ptsz),
    P(cuMemcpy3D, 2000, cuMemcpy3D),
    P(cuMemcpy3D, 3020, cuMemcpy3D_v2),
    P_PTDS(cuMemcpy3D, 7000, cuMemcpy3D_v2_ptds),
    P(cuMemcpy3DAsync, 2000, cuMemcpy3DAsync),
    P(cuMemcpy3DAsync, 3020, cuMemcpy3DAsync_v2),
    P_PTDS(cuMemcpy3DAsync, 7000, cuMemcpy3DAsync_v2_ptsz),
    P(cuMemcpy3DPeer, 4000, cuMemcpy3DPeer),
    P_PTDS(cuMemcpy3DPeer, 7000, cuMemcpy3DPeer_ptds),
    P(cuMemcpy3DPeerAsync, 4000, cuMemcpy3DPeerAsync),
    P_PTDS(cuMemcpy3DPeerAsync, 7000, cuMemcpy3DPeerAsync_ptsz),
    // Fills
    P(cuMemsetD16, 2000, cuMemsetD16),
    P(cuMemsetD16, 3020, cuMemsetD16_v2),
    P_PTDS(cuMemsetD16, 7000, cuMemsetD16_v2_ptds),
    P(cuMemsetD32, 2000, cuMemsetD32),
    P(cuMemsetD32, 3020, cuMemsetD32_v2),
    P_PTDS(cuMemsetD32, 7000, cuMemsetD32_v2_ptds),
    P(cuMemsetD2D8, 2000, cuMemsetD2D8),
    P(cuMemsetD2D8, 3020, cuMemsetD2D8_v2),
    P_PTDS(cuMemsetD2D8, 7000, cuMemsetD2D8_v2_ptds),
    P(cuMemsetD2D16, 2000, cuMemsetD2D16),
    P(cuMemsetD2D16, 3020, cuMemsetD2D16_v2),
    P_PTDS(cuMemsetD2D16, 7000, cuMemsetD2D16_v2_ptds),
    P(cuMemsetD2D32, 2000, cuMemsetD2D32),
    P(cuMemsetD2D32, 3020, cuMemsetD2D32_v2),
    P_PTDS(cuMemsetD2D32, 7000, cuMemsetD2D32_v2_ptds),
    P(cuMemsetD8Async, 3020, cuMemsetD8Async),
    P_PTDS(cuMemsetD8Async, 7000, cuMemsetD8Async_ptsz),
    P(cuMemsetD16Async, 3020, cuMemsetD16Async),
    P_PTDS(cuMemsetD16Async, 7000, cuMemsetD16Async_ptsz),
    P(cuMemsetD32Async, 3020, cuMemsetD32Async),
    P_PTDS(cuMemsetD32Async, 7000, cuMemsetD32Async_ptsz),
    P(cuMemsetD2D8Async, 3020, cuMemsetD2D8Async),
    P_PTDS(cuMemsetD2D8Async, 7000, cuMemsetD2D8Async_ptsz),
    P(cuMemsetD2D16Async, 3020, cuMemsetD2D16Async),
    P_PTDS(cuMemsetD2D16Async, 7000, cuMemsetD2D16Async_ptsz),
    P(cuMemsetD2D32Async, 3020, cuMemsetD2D32Async),
    P_PTDS(cuMemsetD2D32Async, 7000, cuMemsetD2D32Async_ptsz),
    // Host memory
    P(cuMemHostGetFlags, 2030, cuMemHostGetFlags),
    P(cuMemHostGetDevicePointer, 2020, cuMemHostGetDevicePointer),
    P(cuMemHostGetDevicePointer, 3020, cuMemHostGetDevicePointer_v2),
    P(cuMemHostRegister, 4000, cuMemHostRegister),
    P(cuMemHostRegister, 6050, cuMemHostRegister_v2),
    P(cuMemHostUnregister, 4000, cuMemHostUnregister),
    P(cuMemAllocPitch, 2000, cuMemAllocPitch),
    P(cuMemAllocPitch, 3020, cuMemAllocPitch_v2),
    // The stream-ordered allocator
    P(cuMemAllocAsync, 11020, cuMemAllocAsync),
    P_PTDS(cuMemAllocAsync, 11020, cuMemAllocAsync_ptsz),
    P(cuMemFreeAsync, 11020, cuMemFreeAsync),
    P_PTDS(cuMemFreeAsync, 11020, cuMemFreeAsync_ptsz),
    P(cuMemAllocFromPoolAsync, 11020, cuMemAllocFromPoolAsync),
    P_PTDS(cuMemAllocFromPoolAsync, 11020, cuMemAllocFromPoolAsync_ptsz),
    P(cuDeviceGetDefaultMemPool, 11020, cuDeviceGetDefaultMemPool),
    P(cuDeviceGetMemPool, 11020, cuDeviceGetMemPool),
    P(cuDeviceSetMemPool, 11020, cuDeviceSetMemPool),
    P(cuMemPoolCreate, 11020, cuMemPoolCreate),
    P(cuMemPoolDestroy, 11020, cuMemPoolDestroy),
    P(cuMemPoolSetAttribute, 11020, cuMemPoolSetAttribute),
    P(cuMemPoolGetAttribute, 11020, cuMemPoolGetAttribute),
    P(cuMemPoolTrimTo, 11020, cuMemPoolTrimTo),
    // Modules and kernels (refused)
    P(cuModuleLoad, 2000, cuModuleLoad),
    P(cuModuleLoadData, 2000, cuModuleLoadData),
    P(cuModuleLoadDataEx, 2010, cuModuleLoadDataEx),
    P(cuModuleLoadFatBinary, 2000, cuModuleLoadFatBinary),
    P(cuModuleUnload, 2000, cuModuleUnload),
    P(cuModuleGetFunction, 2000, cuModuleGetFunction),
    P(cuModuleGetGlobal, 2000, cuModuleGetGlobal),
    P(cuModuleGetGlobal, 3020, cuModuleGetGlobal_v2),
    P(cuLaunchKernel, 4000, cuLaunchKernel),
    P_PTDS(cuLaunchKernel, 7000, cuLaunchKernel_ptsz),
    P(cuLaunchKernelEx, 11060, cuLaunchKernelEx),
    P_PTDS(cuLaunchKernelEx, 11060, cuLaunchKernelEx_ptsz),
};

#undef P
#undef P_PTDS

// The variant for `version`: the newest one not newer than it, of the
// per-thread kind when asked for and there is one, else of the legacy kind.
static const proc_entry_t *find(const char *symbol, int version, bool ptds,
                                bool *known) {
    const proc_entry_t *best = NULL, *best_ptds = NULL;
    *known = false;
    for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
        const proc_entry_t *e = &entries[i];
        if (strcmp(e->name, symbol) != 0) {
            continue;
        }
        *known = true;
        if (e->version > version) {
            continue;
        }
        const proc_entry_t **slot = e->ptds ? &best_ptds : &best;
        if (*slot == NULL || (*slot)->version < e->version) {
            *slot = e;
        }
    }
    return ptds && best_ptds != NULL ? best_ptds : best;
}

CUDA_MOCK_API CUresult cuGetProcAddress_v2(
    const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
    CUdriverProcAddressQueryResult *symbolStatus) {
    CUDA_MOCK_ENTER_ANYTIME(cuGetProcAddress_v2);
    const cuuint64_t known_flags =
        CU_GET_PROC_ADDRESS_LEGACY_STREAM |
        CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    if (symbol == NULL || pfn == NULL || (flags & ~known_flags) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (cudaVersion > CUDA_VERSION) {
        UMF_MOCK_LOG_ERROR("cuGetProcAddress_v2(%s): CUDA version %d is newer "
                           "than this driver's (%d)",
                           symbol, cudaVersion, CUDA_VERSION);
        *pfn = NULL;
        return CUDA_ERROR_INVALID_VALUE;
    }
    // The driver cannot know how its caller was compiled, so the default
    // is the legacy default stream.
    bool ptds = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    bool known;
    const proc_entry_t *e = find(symbol, cudaVersion, ptds, &known);
    // As documented in cuda.h: CUDA_SUCCESS with *pfn NULL when there is no
    // such symbol or no variant for the version; symbolStatus says which.
    *pfn = e != NULL ? e->fn : NULL;
    if (symbolStatus != NULL) {
        *symbolStatus = e != NULL ? CU_GET_PROC_ADDRESS_SUCCESS
                        : known   ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                                  : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    }
    return CUDA_SUCCESS;
}
