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
