// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA driver as the tests see it: loaded the way an application loads
// it, with dlopen of $UMF_GPU_CUDA_LIB (the build registers the emulated
// libcuda.so.1 there), or of "libcuda.so.1" through the library path when
// the variable is unset. Pointing UMF_GPU_CUDA_LIB at a real NVIDIA
// libcuda.so.1 runs the same tests on a GPU; the checks that only make
// sense on the emulated driver skip there, saying why.

#ifndef UMF_GPU_TEST_CUDA_TEST_DRIVER_H
#define UMF_GPU_TEST_CUDA_TEST_DRIVER_H 1

#include <cuda.h>
#include <umf/gpu_mock.h>

#include <string>

// cuda.h of CUDA 13 declares these only for drivers (cuCtxCreate maps to
// _v4 and the per-thread variants need CUDA_API_PER_THREAD_DEFAULT_STREAM).
typedef CUresult (*cu_ctx_create_v2_fn)(CUcontext *pctx, unsigned int flags,
                                        CUdevice dev);

#define CUDA_TEST_ENTRY_POINTS(X)                                              \
    X(cuInit)                                                                  \
    X(cuDriverGetVersion)                                                      \
    X(cuGetProcAddress_v2)                                                     \
    X(cuGetErrorName)                                                          \
    X(cuGetErrorString)                                                        \
    X(cuDeviceGet)                                                             \
    X(cuDeviceGetCount)                                                        \
    X(cuDeviceGetName)                                                         \
    X(cuDeviceGetUuid_v2)                                                      \
    X(cuDeviceTotalMem_v2)                                                     \
    X(cuDeviceGetAttribute)                                                    \
    X(cuDevicePrimaryCtxRetain)                                                \
    X(cuDevicePrimaryCtxRelease_v2)                                            \
    X(cuDevicePrimaryCtxGetState)                                              \
    X(cuCtxCreate_v4)                                                          \
    X(cuCtxDestroy_v2)                                                         \
    X(cuCtxGetCurrent)                                                         \
    X(cuCtxSetCurrent)                                                         \
    X(cuCtxGetDevice)                                                          \
    X(cuCtxPushCurrent_v2)                                                     \
    X(cuCtxPopCurrent_v2)                                                      \
    X(cuCtxSynchronize)                                                        \
    X(cuMemAlloc_v2)                                                           \
    X(cuMemAllocHost_v2)                                                       \
    X(cuMemHostAlloc)                                                          \
    X(cuMemAllocManaged)                                                       \
    X(cuMemFree_v2)                                                            \
    X(cuMemFreeHost)                                                           \
    X(cuMemGetInfo_v2)                                                         \
    X(cuMemGetAddressRange_v2)                                                 \
    X(cuMemGetAllocationGranularity)                                           \
    X(cuPointerGetAttribute)                                                   \
    X(cuPointerGetAttributes)                                                  \
    X(cuIpcGetMemHandle)                                                       \
    X(cuIpcOpenMemHandle_v2)                                                   \
    X(cuIpcCloseMemHandle)                                                     \
    X(cuMemcpy)                                                                \
    X(cuMemcpyHtoD_v2)                                                         \
    X(cuMemcpyDtoH_v2)                                                         \
    X(cuMemcpyDtoD_v2)                                                         \
    X(cuMemsetD8_v2)                                                           \
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
    X(cuMemGetAccess)                                                          \
    X(cuDeviceGetPCIBusId)                                                     \
    X(cuDeviceGetByPCIBusId)                                                   \
    X(cuDeviceCanAccessPeer)                                                   \
    X(cuCtxEnablePeerAccess)                                                   \
    X(cuCtxDisablePeerAccess)                                                  \
    X(cuCtxGetFlags)                                                           \
    X(cuCtxGetApiVersion)                                                      \
    X(cuCtxGetLimit)                                                           \
    X(cuCtxSetLimit)                                                           \
    X(cuCtxGetStreamPriorityRange)                                             \
    X(cuStreamCreate)                                                          \
    X(cuStreamCreateWithPriority)                                              \
    X(cuStreamDestroy_v2)                                                      \
    X(cuStreamSynchronize)                                                     \
    X(cuStreamQuery)                                                           \
    X(cuStreamWaitEvent)                                                       \
    X(cuStreamGetCtx)                                                          \
    X(cuStreamGetFlags)                                                        \
    X(cuStreamGetPriority)                                                     \
    X(cuEventCreate)                                                           \
    X(cuEventRecord)                                                           \
    X(cuEventQuery)                                                            \
    X(cuEventSynchronize)                                                      \
    X(cuEventDestroy_v2)                                                       \
    X(cuIpcGetEventHandle)                                                     \
    X(cuIpcOpenEventHandle)                                                    \
    X(cuMemcpyAsync)                                                           \
    X(cuMemcpyHtoDAsync_v2)                                                    \
    X(cuMemcpyDtoHAsync_v2)                                                    \
    X(cuMemcpyDtoDAsync_v2)                                                    \
    X(cuMemcpyPeer)                                                            \
    X(cuMemcpyPeerAsync)                                                       \
    X(cuMemcpy2D_v2)                                                           \
    X(cuMemcpy2DUnaligned_v2)                                                  \
    X(cuMemcpy2DAsync_v2)                                                      \
    X(cuMemsetD16_v2)                                                          \
    X(cuMemsetD32_v2)                                                          \
    X(cuMemsetD2D8_v2)                                                         \
    X(cuMemsetD2D16_v2)                                                        \
    X(cuMemsetD2D32_v2)                                                        \
    X(cuMemsetD8Async)                                                         \
    X(cuMemsetD16Async)                                                        \
    X(cuMemsetD32Async)                                                        \
    X(cuMemsetD2D8Async)                                                       \
    X(cuMemsetD2D16Async)                                                      \
    X(cuMemsetD2D32Async)                                                      \
    X(cuMemHostGetFlags)                                                       \
    X(cuMemHostGetDevicePointer_v2)                                            \
    X(cuMemHostRegister_v2)                                                    \
    X(cuMemHostUnregister)                                                     \
    X(cuMemAllocPitch_v2)                                                      \
    X(cuMemAllocAsync)                                                         \
    X(cuMemFreeAsync)                                                          \
    X(cuMemAllocFromPoolAsync)                                                 \
    X(cuDeviceGetDefaultMemPool)                                               \
    X(cuDeviceGetMemPool)                                                      \
    X(cuDeviceSetMemPool)                                                      \
    X(cuMemPoolCreate)                                                         \
    X(cuMemPoolDestroy)                                                        \
    X(cuMemPoolSetAttribute)                                                   \
    X(cuMemPoolGetAttribute)                                                   \
    X(cuMemPoolTrimTo)                                                         \
    X(cuModuleLoad)                                                            \
    X(cuModuleLoadData)                                                        \
    X(cuModuleGetFunction)                                                     \
    X(cuLaunchKernel)

// The control API of the emulated driver (include/umf/gpu_mock.h).
#define CUDA_TEST_MOCK_CONTROL(X)                                              \
    X(umfCudaMockInjectFaults)                                                 \
    X(umfCudaMockClearFaults)                                                  \
    X(umfCudaMockGetCallCount)                                                 \
    X(umfCudaMockResetCallCounts)                                              \
    X(umfCudaMockGetLiveCount)                                                 \
    X(umfCudaMockGetObjectCount)                                               \
    X(umfCudaMockWriteLeakReport)

struct cuda_test_driver_t {
    void *lib;
    std::string path;
#define CUDA_TEST_MEMBER(name) decltype(&::name) name;
    CUDA_TEST_ENTRY_POINTS(CUDA_TEST_MEMBER)
    // NULL where the loaded driver is not the emulated one.
    CUDA_TEST_MOCK_CONTROL(CUDA_TEST_MEMBER)
#undef CUDA_TEST_MEMBER
    cu_ctx_create_v2_fn cuCtxCreate_v2;
    // Newer than some drivers (CUDA 13); NULL where missing.
    decltype(&::cuCtxGetDevice_v2) cuCtxGetDevice_v2;
    decltype(&::cuCtxSynchronize_v2) cuCtxSynchronize_v2;
    // cuda.h names cuEventElapsedTime_v2 (CUDA 12.8) cuEventElapsedTime:
    // the newer one where the driver has it, else the older one (the same
    // arguments).
    decltype(&::cuEventElapsedTime_v2) cuEventElapsedTime_v2;
    // cuDeviceGetUuid of CUDA 9.2, which cuda.h names cuDeviceGetUuid_v2
    // now (the same arguments).
    decltype(&::cuDeviceGetUuid_v2) cuDeviceGetUuid_v1;

    // True when the driver is the emulated one (it has the control API).
    bool emulated() const {
        return umfCudaMockGetCallCount != nullptr;
    }
};

// Loads the driver once per process (not thread-safe on the first call:
// make it from the test's main thread). NULL on failure, with the reason in
// *why.
const cuda_test_driver_t *cuda_test_driver_load(std::string *why);

// Any other symbol of the loaded driver, or NULL.
void *cuda_test_driver_symbol(const char *name);

// "CUDA_ERROR_INVALID_VALUE (1)", for messages.
std::string cuda_test_result(CUresult r);

// Sets `name=value` for each "name=value" argument (the environment a child
// process should load the driver with). False on a malformed argument.
bool cuda_test_apply_env(int argc, char **argv);

#endif // UMF_GPU_TEST_CUDA_TEST_DRIVER_H
