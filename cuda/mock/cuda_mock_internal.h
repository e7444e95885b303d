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
//   cuda_mock_visible.c  CUDA_VISIBLE_DEVICES, the devices' identities
//   cuda_mock_context.c  primary and created contexts, per-thread stacks
//   cuda_mock_memory.c   allocation, free, queries, pointer attributes
//   cuda_mock_host.c     pinned host memory: flags, device pointers,
//                        registration of user memory
//   cuda_mock_pool.c     the stream-ordered allocator (memory pools)
//   cuda_mock_ipc.c      CUipcMemHandle export, open and close
//   cuda_mock_copy.c     the copy and fill engine, synchronous 1D copies
//   cuda_mock_copy_stream.c  copies on streams and between contexts
//   cuda_mock_copy2d.c   2D copies
//   cuda_mock_copy3d.c   3D copies, copies with CUDA arrays
//   cuda_mock_array.c    CUDA arrays
//   cuda_mock_graph*.c   CUDA graphs (cuda_mock_graph.h)
//   cuda_mock_user_object.c  user objects
//   cuda_mock_capture.c  stream capture
//   cuda_mock_memset.c   fills (cuMemsetD8/16/32, 2D, async)
//   cuda_mock_handles.c  tables of driver objects (streams, events, pools)
//   cuda_mock_stream.c   streams
//   cuda_mock_queue.c    the order of work on streams: queues behind host
//                        functions, the driver thread that runs them
//   cuda_mock_callback.c cuLaunchHostFunc, cuStreamAddCallback
//   cuda_mock_advise.c   memory advice, prefetch, range attributes,
//                        cuPointerSetAttribute
//   cuda_mock_event.c    events
//   cuda_mock_vmm.c      virtual memory management (cuMemCreate, cuMemMap
//                        ...) on the core's model (mock_vmm.h)
//   cuda_mock_copy_batch.c  batches of copies (cuMemcpyBatchAsync)
//   cuda_mock_managed.c  managed memory hints (attach, discard)
//   cuda_mock_profiler.c cuProfilerStart/Stop
//   cuda_mock_proc.c     cuGetProcAddress_v2 (every PFN of cudaTypedefs.h),
//                        cuGetExportTable
//   cuda_mock_legacy.c   the legacy names with 32-bit device pointers
//   cuda_mock_refuse.c   the one refusal of what cannot be emulated, which
//                        the refused families use, one file each:
//                        cuda_mock_module.c (modules, linker),
//                        cuda_mock_library.c, cuda_mock_function.c
//                        (functions, occupancy, launches),
//                        cuda_mock_texture.c, cuda_mock_tensor_map.c,
//                        cuda_mock_graphics.c, cuda_mock_interop.c,
//                        cuda_mock_external.c,
//                        cuda_mock_green.c, cuda_mock_checkpoint.c,
//                        cuda_mock_coredump.c, cuda_mock_multicast.c,
//                        cuda_mock_logs.c, cuda_mock_stream_memop.c,
//                        cuda_mock_memory_refused.c
//
// cuda.h is included with __CUDA_API_VERSION_INTERNAL (set by CMake), as a
// driver sees it: the versioned names (cuMemAlloc_v2 ...), the per-thread
// default stream variants (_ptds) and the legacy prototypes are declared,
// and no cu* name is a macro.

#ifndef UMF_GPU_CUDA_MOCK_INTERNAL_H
#define UMF_GPU_CUDA_MOCK_INTERNAL_H 1

#include <cuda.h>
#include <pthread.h>
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
// Streams, events and memory pools that may be alive at once (their tables
// reserve address space for as many, and use what is touched), and peers
// per context.
#define CUDA_MOCK_MAX_STREAMS (1u << 14)
#define CUDA_MOCK_MAX_EVENTS (1u << 18)
#define CUDA_MOCK_MAX_POOLS (1u << 12)
#define CUDA_MOCK_MAX_ARRAYS (1u << 14)
#define CUDA_MOCK_MAX_GRAPHS (1u << 14)
#define CUDA_MOCK_MAX_GRAPH_NODES (1u << 17)
#define CUDA_MOCK_MAX_GRAPH_EXECS (1u << 14)
#define CUDA_MOCK_MAX_USER_OBJECTS (1u << 14)
#define CUDA_MOCK_MAX_PEERS 8
#define CUDA_MOCK_CTX_STACK_DEPTH 64

// ---------------------------------------------------------------------------
// Entry points: every exported cu* function, for call counts and fault rules
// (the names are what UMF_GPU_MOCK_FAULTS and umfCudaMockGetCallCount take).

// The entry points of work in stream order, arrays, graphs and capture
// (grouped by family; part of CUDA_MOCK_ENTRIES).
#define CUDA_MOCK_ENTRIES_HOST_FUNCS(X)                                        \
    X(cuLaunchHostFunc)                                                        \
    X(cuLaunchHostFunc_ptsz)                                                   \
    X(cuStreamAddCallback)                                                     \
    X(cuStreamAddCallback_ptsz)

#define CUDA_MOCK_ENTRIES_MANAGED(X)                                           \
    X(cuMemAdvise)                                                             \
    X(cuMemAdvise_v2)                                                          \
    X(cuMemPrefetchAsync)                                                      \
    X(cuMemPrefetchAsync_ptsz)                                                 \
    X(cuMemPrefetchAsync_v2)                                                   \
    X(cuMemPrefetchAsync_v2_ptsz)                                              \
    X(cuMemRangeGetAttribute)                                                  \
    X(cuMemRangeGetAttributes)                                                 \
    X(cuPointerSetAttribute)

#define CUDA_MOCK_ENTRIES_ARRAYS(X)                                            \
    X(cuArrayCreate)                                                           \
    X(cuArrayCreate_v2)                                                        \
    X(cuArray3DCreate)                                                         \
    X(cuArray3DCreate_v2)                                                      \
    X(cuArrayDestroy)                                                          \
    X(cuArrayGetDescriptor)                                                    \
    X(cuArrayGetDescriptor_v2)                                                 \
    X(cuArray3DGetDescriptor)                                                  \
    X(cuArray3DGetDescriptor_v2)                                               \
    X(cuArrayGetMemoryRequirements)                                            \
    X(cuArrayGetPlane)                                                         \
    X(cuArrayGetSparseProperties)                                              \
    X(cuMemcpyHtoA)                                                            \
    X(cuMemcpyHtoA_v2)                                                         \
    X(cuMemcpyHtoA_v2_ptds)                                                    \
    X(cuMemcpyAtoH)                                                            \
    X(cuMemcpyAtoH_v2)                                                         \
    X(cuMemcpyAtoH_v2_ptds)                                                    \
    X(cuMemcpyDtoA)                                                            \
    X(cuMemcpyDtoA_v2)                                                         \
    X(cuMemcpyDtoA_v2_ptds)                                                    \
    X(cuMemcpyAtoD)                                                            \
    X(cuMemcpyAtoD_v2)                                                         \
    X(cuMemcpyAtoD_v2_ptds)                                                    \
    X(cuMemcpyAtoA)                                                            \
    X(cuMemcpyAtoA_v2)                                                         \
    X(cuMemcpyAtoA_v2_ptds)                                                    \
    X(cuMemcpyHtoAAsync)                                                       \
    X(cuMemcpyHtoAAsync_v2)                                                    \
    X(cuMemcpyHtoAAsync_v2_ptsz)                                               \
    X(cuMemcpyAtoHAsync)                                                       \
    X(cuMemcpyAtoHAsync_v2)                                                    \
    X(cuMemcpyAtoHAsync_v2_ptsz)                                               \
    X(cuMemcpy3D)                                                              \
    X(cuMemcpy3D_v2)                                                           \
    X(cuMemcpy3D_v2_ptds)                                                      \
    X(cuMemcpy3DAsync)                                                         \
    X(cuMemcpy3DAsync_v2)                                                      \
    X(cuMemcpy3DAsync_v2_ptsz)                                                 \
    X(cuMemcpy3DPeer)                                                          \
    X(cuMemcpy3DPeer_ptds)                                                     \
    X(cuMemcpy3DPeerAsync)                                                     \
    X(cuMemcpy3DPeerAsync_ptsz)                                                \
    X(cuMemcpy3DBatchAsync)                                                    \
    X(cuMemcpy3DBatchAsync_ptsz)                                               \
    X(cuMemcpy3DBatchAsync_v2)                                                 \
    X(cuMemcpy3DBatchAsync_v2_ptsz)

#define CUDA_MOCK_ENTRIES_GRAPHS(X)                                            \
    X(cuDeviceGetGraphMemAttribute)                                            \
    X(cuDeviceGraphMemTrim)                                                    \
    X(cuDeviceSetGraphMemAttribute)                                            \
    X(cuGraphAddBatchMemOpNode)                                                \
    X(cuGraphAddChildGraphNode)                                                \
    X(cuGraphAddDependencies)                                                  \
    X(cuGraphAddDependencies_v2)                                               \
    X(cuGraphAddEmptyNode)                                                     \
    X(cuGraphAddEventRecordNode)                                               \
    X(cuGraphAddEventWaitNode)                                                 \
    X(cuGraphAddExternalSemaphoresSignalNode)                                  \
    X(cuGraphAddExternalSemaphoresWaitNode)                                    \
    X(cuGraphAddHostNode)                                                      \
    X(cuGraphAddKernelNode)                                                    \
    X(cuGraphAddKernelNode_v2)                                                 \
    X(cuGraphAddMemAllocNode)                                                  \
    X(cuGraphAddMemFreeNode)                                                   \
    X(cuGraphAddMemcpyNode)                                                    \
    X(cuGraphAddMemsetNode)                                                    \
    X(cuGraphAddNode)                                                          \
    X(cuGraphAddNode_v2)                                                       \
    X(cuGraphBatchMemOpNodeGetParams)                                          \
    X(cuGraphBatchMemOpNodeSetParams)                                          \
    X(cuGraphChildGraphNodeGetGraph)                                           \
    X(cuGraphClone)                                                            \
    X(cuGraphConditionalHandleCreate)                                          \
    X(cuGraphCreate)                                                           \
    X(cuGraphDebugDotPrint)                                                    \
    X(cuGraphDestroy)                                                          \
    X(cuGraphDestroyNode)                                                      \
    X(cuGraphEventRecordNodeGetEvent)                                          \
    X(cuGraphEventRecordNodeSetEvent)                                          \
    X(cuGraphEventWaitNodeGetEvent)                                            \
    X(cuGraphEventWaitNodeSetEvent)                                            \
    X(cuGraphExecBatchMemOpNodeSetParams)                                      \
    X(cuGraphExecChildGraphNodeSetParams)                                      \
    X(cuGraphExecDestroy)                                                      \
    X(cuGraphExecEventRecordNodeSetEvent)                                      \
    X(cuGraphExecEventWaitNodeSetEvent)                                        \
    X(cuGraphExecExternalSemaphoresSignalNodeSetParams)                        \
    X(cuGraphExecExternalSemaphoresWaitNodeSetParams)                          \
    X(cuGraphExecGetFlags)                                                     \
    X(cuGraphExecHostNodeSetParams)                                            \
    X(cuGraphExecKernelNodeSetParams)                                          \
    X(cuGraphExecKernelNodeSetParams_v2)                                       \
    X(cuGraphExecMemcpyNodeSetParams)                                          \
    X(cuGraphExecMemsetNodeSetParams)                                          \
    X(cuGraphExecNodeSetParams)                                                \
    X(cuGraphExecUpdate)                                                       \
    X(cuGraphExecUpdate_v2)                                                    \
    X(cuGraphExternalSemaphoresSignalNodeGetParams)                            \
    X(cuGraphExternalSemaphoresSignalNodeSetParams)                            \
    X(cuGraphExternalSemaphoresWaitNodeGetParams)                              \
    X(cuGraphExternalSemaphoresWaitNodeSetParams)                              \
    X(cuGraphGetEdges)                                                         \
    X(cuGraphGetEdges_v2)                                                      \
    X(cuGraphGetNodes)                                                         \
    X(cuGraphGetRootNodes)                                                     \
    X(cuGraphHostNodeGetParams)                                                \
    X(cuGraphHostNodeSetParams)                                                \
    X(cuGraphInstantiate)                                                      \
    X(cuGraphInstantiateWithFlags)                                             \
    X(cuGraphInstantiateWithParams)                                            \
    X(cuGraphInstantiateWithParams_ptsz)                                       \
    X(cuGraphInstantiate_v2)                                                   \
    X(cuGraphKernelNodeCopyAttributes)                                         \
    X(cuGraphKernelNodeGetAttribute)                                           \
    X(cuGraphKernelNodeGetParams)                                              \
    X(cuGraphKernelNodeGetParams_v2)                                           \
    X(cuGraphKernelNodeSetAttribute)                                           \
    X(cuGraphKernelNodeSetParams)                                              \
    X(cuGraphKernelNodeSetParams_v2)                                           \
    X(cuGraphLaunch)                                                           \
    X(cuGraphLaunch_ptsz)                                                      \
    X(cuGraphMemAllocNodeGetParams)                                            \
    X(cuGraphMemFreeNodeGetParams)                                             \
    X(cuGraphMemcpyNodeGetParams)                                              \
    X(cuGraphMemcpyNodeSetParams)                                              \
    X(cuGraphMemsetNodeGetParams)                                              \
    X(cuGraphMemsetNodeSetParams)                                              \
    X(cuGraphNodeFindInClone)                                                  \
    X(cuGraphNodeGetDependencies)                                              \
    X(cuGraphNodeGetDependencies_v2)                                           \
    X(cuGraphNodeGetDependentNodes)                                            \
    X(cuGraphNodeGetDependentNodes_v2)                                         \
    X(cuGraphNodeGetEnabled)                                                   \
    X(cuGraphNodeGetType)                                                      \
    X(cuGraphNodeSetEnabled)                                                   \
    X(cuGraphNodeSetParams)                                                    \
    X(cuGraphRemoveDependencies)                                               \
    X(cuGraphRemoveDependencies_v2)                                            \
    X(cuGraphUpload)                                                           \
    X(cuGraphUpload_ptsz)

#define CUDA_MOCK_ENTRIES_CAPTURE(X)                                           \
    X(cuStreamBeginCapture)                                                    \
    X(cuStreamBeginCaptureToGraph)                                             \
    X(cuStreamBeginCaptureToGraph_ptsz)                                        \
    X(cuStreamBeginCapture_ptsz)                                               \
    X(cuStreamBeginCapture_v2)                                                 \
    X(cuStreamBeginCapture_v2_ptsz)                                            \
    X(cuStreamEndCapture)                                                      \
    X(cuStreamEndCapture_ptsz)                                                 \
    X(cuStreamGetCaptureInfo)                                                  \
    X(cuStreamGetCaptureInfo_ptsz)                                             \
    X(cuStreamGetCaptureInfo_v2)                                               \
    X(cuStreamGetCaptureInfo_v2_ptsz)                                          \
    X(cuStreamGetCaptureInfo_v3)                                               \
    X(cuStreamGetCaptureInfo_v3_ptsz)                                          \
    X(cuStreamIsCapturing)                                                     \
    X(cuStreamIsCapturing_ptsz)                                                \
    X(cuStreamUpdateCaptureDependencies)                                       \
    X(cuStreamUpdateCaptureDependencies_ptsz)                                  \
    X(cuStreamUpdateCaptureDependencies_v2)                                    \
    X(cuStreamUpdateCaptureDependencies_v2_ptsz)                               \
    X(cuThreadExchangeStreamCaptureMode)                                       \
    X(cuGraphReleaseUserObject)                                                \
    X(cuGraphRetainUserObject)                                                 \
    X(cuUserObjectCreate)                                                      \
    X(cuUserObjectRelease)                                                     \
    X(cuUserObjectRetain)

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
    X(cuDevicePrimaryCtxReset)                                                 \
    X(cuDevicePrimaryCtxReset_v2)                                              \
    X(cuDevicePrimaryCtxSetFlags)                                              \
    X(cuDevicePrimaryCtxSetFlags_v2)                                           \
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
    X(cuStreamDestroy)                                                         \
    X(cuStreamDestroy_v2)                                                      \
    X(cuStreamSynchronize)                                                     \
    X(cuStreamSynchronize_ptsz)                                                \
    X(cuStreamQuery)                                                           \
    X(cuStreamQuery_ptsz)                                                      \
    X(cuStreamWaitEvent)                                                       \
    X(cuStreamWaitEvent_ptsz)                                                  \
    X(cuStreamGetCtx)                                                          \
    X(cuStreamGetCtx_ptsz)                                                     \
    X(cuStreamGetCtx_v2)                                                       \
    X(cuStreamGetCtx_v2_ptsz)                                                  \
    X(cuStreamGetFlags)                                                        \
    X(cuStreamGetFlags_ptsz)                                                   \
    X(cuStreamGetPriority)                                                     \
    X(cuStreamGetPriority_ptsz)                                                \
    X(cuStreamGetId)                                                           \
    X(cuStreamGetId_ptsz)                                                      \
    CUDA_MOCK_ENTRIES_HOST_FUNCS(X)                                            \
    CUDA_MOCK_ENTRIES_MANAGED(X)                                               \
    CUDA_MOCK_ENTRIES_ARRAYS(X)                                                \
    CUDA_MOCK_ENTRIES_GRAPHS(X)                                                \
    CUDA_MOCK_ENTRIES_CAPTURE(X)                                               \
    X(cuEventCreate)                                                           \
    X(cuEventRecord)                                                           \
    X(cuEventRecord_ptsz)                                                      \
    X(cuEventRecordWithFlags)                                                  \
    X(cuEventRecordWithFlags_ptsz)                                             \
    X(cuEventQuery)                                                            \
    X(cuEventSynchronize)                                                      \
    X(cuEventElapsedTime)                                                      \
    X(cuEventElapsedTime_v2)                                                   \
    X(cuEventDestroy)                                                          \
    X(cuEventDestroy_v2)                                                       \
    X(cuIpcGetEventHandle)                                                     \
    X(cuIpcOpenEventHandle)                                                    \
    X(cuMemcpyAsync)                                                           \
    X(cuMemcpyAsync_ptsz)                                                      \
    X(cuMemcpyHtoDAsync)                                                       \
    X(cuMemcpyHtoDAsync_v2)                                                    \
    X(cuMemcpyHtoDAsync_v2_ptsz)                                               \
    X(cuMemcpyDtoHAsync)                                                       \
    X(cuMemcpyDtoHAsync_v2)                                                    \
    X(cuMemcpyDtoHAsync_v2_ptsz)                                               \
    X(cuMemcpyDtoDAsync)                                                       \
    X(cuMemcpyDtoDAsync_v2)                                                    \
    X(cuMemcpyDtoDAsync_v2_ptsz)                                               \
    X(cuMemcpyPeer)                                                            \
    X(cuMemcpyPeer_ptds)                                                       \
    X(cuMemcpyPeerAsync)                                                       \
    X(cuMemcpyPeerAsync_ptsz)                                                  \
    X(cuMemcpy2D)                                                              \
    X(cuMemcpy2D_v2)                                                           \
    X(cuMemcpy2D_v2_ptds)                                                      \
    X(cuMemcpy2DUnaligned)                                                     \
    X(cuMemcpy2DUnaligned_v2)                                                  \
    X(cuMemcpy2DUnaligned_v2_ptds)                                             \
    X(cuMemcpy2DAsync)                                                         \
    X(cuMemcpy2DAsync_v2)                                                      \
    X(cuMemcpy2DAsync_v2_ptsz)                                                 \
    X(cuMemsetD16)                                                             \
    X(cuMemsetD16_v2)                                                          \
    X(cuMemsetD16_v2_ptds)                                                     \
    X(cuMemsetD32)                                                             \
    X(cuMemsetD32_v2)                                                          \
    X(cuMemsetD32_v2_ptds)                                                     \
    X(cuMemsetD2D8)                                                            \
    X(cuMemsetD2D8_v2)                                                         \
    X(cuMemsetD2D8_v2_ptds)                                                    \
    X(cuMemsetD2D16)                                                           \
    X(cuMemsetD2D16_v2)                                                        \
    X(cuMemsetD2D16_v2_ptds)                                                   \
    X(cuMemsetD2D32)                                                           \
    X(cuMemsetD2D32_v2)                                                        \
    X(cuMemsetD2D32_v2_ptds)                                                   \
    X(cuMemsetD8Async)                                                         \
    X(cuMemsetD8Async_ptsz)                                                    \
    X(cuMemsetD16Async)                                                        \
    X(cuMemsetD16Async_ptsz)                                                   \
    X(cuMemsetD32Async)                                                        \
    X(cuMemsetD32Async_ptsz)                                                   \
    X(cuMemsetD2D8Async)                                                       \
    X(cuMemsetD2D8Async_ptsz)                                                  \
    X(cuMemsetD2D16Async)                                                      \
    X(cuMemsetD2D16Async_ptsz)                                                 \
    X(cuMemsetD2D32Async)                                                      \
    X(cuMemsetD2D32Async_ptsz)                                                 \
    X(cuMemHostGetFlags)                                                       \
    X(cuMemHostGetDevicePointer)                                               \
    X(cuMemHostGetDevicePointer_v2)                                            \
    X(cuMemHostRegister)                                                       \
    X(cuMemHostRegister_v2)                                                    \
    X(cuMemHostUnregister)                                                     \
    X(cuMemAllocPitch)                                                         \
    X(cuMemAllocPitch_v2)                                                      \
    X(cuMemAllocAsync)                                                         \
    X(cuMemAllocAsync_ptsz)                                                    \
    X(cuMemFreeAsync)                                                          \
    X(cuMemFreeAsync_ptsz)                                                     \
    X(cuMemAllocFromPoolAsync)                                                 \
    X(cuMemAllocFromPoolAsync_ptsz)                                            \
    X(cuDeviceGetDefaultMemPool)                                               \
    X(cuDeviceGetMemPool)                                                      \
    X(cuDeviceSetMemPool)                                                      \
    X(cuMemPoolCreate)                                                         \
    X(cuMemPoolDestroy)                                                        \
    X(cuMemPoolSetAttribute)                                                   \
    X(cuMemPoolGetAttribute)                                                   \
    X(cuMemPoolTrimTo)                                                         \
    /* Modules and the JIT linker (refused) */                                 \
    X(cuModuleLoad)                                                            \
    X(cuModuleLoadData)                                                        \
    X(cuModuleLoadDataEx)                                                      \
    X(cuModuleLoadFatBinary)                                                   \
    X(cuModuleUnload)                                                          \
    X(cuModuleGetLoadingMode)                                                  \
    X(cuModuleGetFunction)                                                     \
    X(cuModuleGetFunctionCount)                                                \
    X(cuModuleEnumerateFunctions)                                              \
    X(cuModuleGetGlobal)                                                       \
    X(cuModuleGetGlobal_v2)                                                    \
    X(cuModuleGetTexRef)                                                       \
    X(cuModuleGetSurfRef)                                                      \
    X(cuLinkCreate)                                                            \
    X(cuLinkCreate_v2)                                                         \
    X(cuLinkAddData)                                                           \
    X(cuLinkAddData_v2)                                                        \
    X(cuLinkAddFile)                                                           \
    X(cuLinkAddFile_v2)                                                        \
    X(cuLinkComplete)                                                          \
    X(cuLinkDestroy)                                                           \
    /* Libraries and kernels (refused) */                                      \
    X(cuLibraryLoadData)                                                       \
    X(cuLibraryLoadFromFile)                                                   \
    X(cuLibraryUnload)                                                         \
    X(cuLibraryGetKernel)                                                      \
    X(cuLibraryGetKernelCount)                                                 \
    X(cuLibraryEnumerateKernels)                                               \
    X(cuLibraryGetModule)                                                      \
    X(cuLibraryGetGlobal)                                                      \
    X(cuLibraryGetManaged)                                                     \
    X(cuLibraryGetUnifiedFunction)                                             \
    X(cuKernelGetFunction)                                                     \
    X(cuKernelGetLibrary)                                                      \
    X(cuKernelGetAttribute)                                                    \
    X(cuKernelSetAttribute)                                                    \
    X(cuKernelSetCacheConfig)                                                  \
    X(cuKernelGetName)                                                         \
    X(cuKernelGetParamInfo)                                                    \
    /* Functions and launches (refused) */                                     \
    X(cuFuncGetAttribute)                                                      \
    X(cuFuncSetAttribute)                                                      \
    X(cuFuncSetCacheConfig)                                                    \
    X(cuFuncSetSharedMemConfig)                                                \
    X(cuFuncGetModule)                                                         \
    X(cuFuncGetName)                                                           \
    X(cuFuncGetParamInfo)                                                      \
    X(cuFuncIsLoaded)                                                          \
    X(cuFuncLoad)                                                              \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                             \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)                    \
    X(cuOccupancyMaxPotentialBlockSize)                                        \
    X(cuOccupancyMaxPotentialBlockSizeWithFlags)                               \
    X(cuOccupancyAvailableDynamicSMemPerBlock)                                 \
    X(cuOccupancyMaxPotentialClusterSize)                                      \
    X(cuOccupancyMaxActiveClusters)                                            \
    X(cuLaunchKernel)                                                          \
    X(cuLaunchKernel_ptsz)                                                     \
    X(cuLaunchKernelEx)                                                        \
    X(cuLaunchKernelEx_ptsz)                                                   \
    X(cuLaunchCooperativeKernel)                                               \
    X(cuLaunchCooperativeKernel_ptsz)                                          \
    X(cuLaunchCooperativeKernelMultiDevice)                                    \
    X(cuFuncSetBlockShape)                                                     \
    X(cuFuncSetSharedSize)                                                     \
    X(cuParamSetSize)                                                          \
    X(cuParamSeti)                                                             \
    X(cuParamSetf)                                                             \
    X(cuParamSetv)                                                             \
    X(cuParamSetTexRef)                                                        \
    X(cuLaunch)                                                                \
    X(cuLaunchGrid)                                                            \
    X(cuLaunchGridAsync)                                                       \
    /* Profiler control, export tables */                                      \
    X(cuProfilerStart)                                                         \
    X(cuProfilerStop)                                                          \
    X(cuProfilerInitialize)                                                    \
    X(cuGetExportTable)                                                        \
    /* Contexts: queries and settings */                                       \
    X(cuCtxSetFlags)                                                           \
    X(cuCtxGetId)                                                              \
    X(cuCtxGetCacheConfig)                                                     \
    X(cuCtxSetCacheConfig)                                                     \
    X(cuCtxGetSharedMemConfig)                                                 \
    X(cuCtxSetSharedMemConfig)                                                 \
    X(cuCtxResetPersistingL2Cache)                                             \
    X(cuCtxGetExecAffinity)                                                    \
    /* Devices: peer attributes, atomics, older queries */                     \
    X(cuDeviceGetP2PAttribute)                                                 \
    X(cuDeviceGetHostAtomicCapabilities)                                       \
    X(cuDeviceGetP2PAtomicCapabilities)                                        \
    X(cuDeviceComputeCapability)                                               \
    X(cuDeviceGetProperties)                                                   \
    X(cuDeviceGetExecAffinitySupport)                                          \
    X(cuDeviceGetTexture1DLinearMaxWidth)                                      \
    /* Streams: device, attributes */                                          \
    X(cuStreamGetDevice)                                                       \
    X(cuStreamGetDevice_ptsz)                                                  \
    X(cuStreamGetAttribute)                                                    \
    X(cuStreamGetAttribute_ptsz)                                               \
    X(cuStreamSetAttribute)                                                    \
    X(cuStreamSetAttribute_ptsz)                                               \
    X(cuStreamCopyAttributes)                                                  \
    X(cuStreamCopyAttributes_ptsz)                                             \
    /* Events of a whole context */                                            \
    X(cuCtxRecordEvent)                                                        \
    X(cuCtxWaitEvent)                                                          \
    /* Memory pools of a location, access, sharing (refused) */                \
    X(cuMemGetDefaultMemPool)                                                  \
    X(cuMemGetMemPool)                                                         \
    X(cuMemSetMemPool)                                                         \
    X(cuMemPoolSetAccess)                                                      \
    X(cuMemPoolGetAccess)                                                      \
    X(cuMemPoolExportToShareableHandle)                                        \
    X(cuMemPoolImportFromShareableHandle)                                      \
    X(cuMemPoolExportPointer)                                                  \
    X(cuMemPoolImportPointer)                                                  \
    /* Managed memory hints */                                                 \
    X(cuStreamAttachMemAsync)                                                  \
    X(cuStreamAttachMemAsync_ptsz)                                             \
    X(cuMemDiscardBatchAsync)                                                  \
    X(cuMemDiscardBatchAsync_ptsz)                                             \
    /* Batches of copies */                                                    \
    X(cuMemcpyBatchAsync)                                                      \
    X(cuMemcpyBatchAsync_ptsz)                                                 \
    X(cuMemcpyBatchAsync_v2)                                                   \
    X(cuMemcpyBatchAsync_v2_ptsz)                                              \
    /* Legacy names */                                                         \
    X(cuCtxAttach)                                                             \
    X(cuCtxDetach)                                                             \
    /* Textures and surfaces (refused) */                                      \
    X(cuTexObjectCreate)                                                       \
    X(cuTexObjectDestroy)                                                      \
    X(cuTexObjectGetResourceDesc)                                              \
    X(cuTexObjectGetTextureDesc)                                               \
    X(cuTexObjectGetResourceViewDesc)                                          \
    X(cuSurfObjectCreate)                                                      \
    X(cuSurfObjectDestroy)                                                     \
    X(cuSurfObjectGetResourceDesc)                                             \
    X(cuMipmappedArrayCreate)                                                  \
    X(cuMipmappedArrayDestroy)                                                 \
    X(cuMipmappedArrayGetLevel)                                                \
    X(cuMipmappedArrayGetSparseProperties)                                     \
    X(cuMipmappedArrayGetMemoryRequirements)                                   \
    X(cuTexRefCreate)                                                          \
    X(cuTexRefDestroy)                                                         \
    X(cuTexRefSetArray)                                                        \
    X(cuTexRefSetMipmappedArray)                                               \
    X(cuTexRefSetAddress_v2)                                                   \
    X(cuTexRefSetAddress)                                                      \
    X(cuTexRefSetAddress2D_v3)                                                 \
    X(cuTexRefSetAddress2D_v2)                                                 \
    X(cuTexRefSetAddress2D)                                                    \
    X(cuTexRefSetFormat)                                                       \
    X(cuTexRefSetAddressMode)                                                  \
    X(cuTexRefSetFilterMode)                                                   \
    X(cuTexRefSetMipmapFilterMode)                                             \
    X(cuTexRefSetMipmapLevelBias)                                              \
    X(cuTexRefSetMipmapLevelClamp)                                             \
    X(cuTexRefSetMaxAnisotropy)                                                \
    X(cuTexRefSetBorderColor)                                                  \
    X(cuTexRefSetFlags)                                                        \
    X(cuTexRefGetAddress_v2)                                                   \
    X(cuTexRefGetAddress)                                                      \
    X(cuTexRefGetArray)                                                        \
    X(cuTexRefGetMipmappedArray)                                               \
    X(cuTexRefGetAddressMode)                                                  \
    X(cuTexRefGetFilterMode)                                                   \
    X(cuTexRefGetFormat)                                                       \
    X(cuTexRefGetMipmapFilterMode)                                             \
    X(cuTexRefGetMipmapLevelBias)                                              \
    X(cuTexRefGetMipmapLevelClamp)                                             \
    X(cuTexRefGetMaxAnisotropy)                                                \
    X(cuTexRefGetBorderColor)                                                  \
    X(cuTexRefGetFlags)                                                        \
    X(cuSurfRefSetArray)                                                       \
    X(cuSurfRefGetArray)                                                       \
    /* Tensor maps (refused) */                                                \
    X(cuTensorMapEncodeTiled)                                                  \
    X(cuTensorMapEncodeIm2col)                                                 \
    X(cuTensorMapEncodeIm2colWide)                                             \
    X(cuTensorMapReplaceAddress)                                               \
    /* Graphics interoperability (refused) */                                  \
    X(cuGraphicsUnregisterResource)                                            \
    X(cuGraphicsSubResourceGetMappedArray)                                     \
    X(cuGraphicsResourceGetMappedMipmappedArray)                               \
    X(cuGraphicsResourceGetMappedPointer_v2)                                   \
    X(cuGraphicsResourceGetMappedPointer)                                      \
    X(cuGraphicsResourceSetMapFlags_v2)                                        \
    X(cuGraphicsResourceSetMapFlags)                                           \
    X(cuGraphicsMapResources)                                                  \
    X(cuGraphicsMapResources_ptsz)                                             \
    X(cuGraphicsUnmapResources)                                                \
    X(cuGraphicsUnmapResources_ptsz)                                           \
    /* cudaGL.h, cudaEGL.h, cudaVDPAU.h (refused) */                           \
    X(cuGraphicsGLRegisterBuffer)                                              \
    X(cuGraphicsGLRegisterImage)                                               \
    X(cuGLGetDevices_v2)                                                       \
    X(cuGLGetDevices)                                                          \
    X(cuGLCtxCreate_v2)                                                        \
    X(cuGLCtxCreate)                                                           \
    X(cuGLInit)                                                                \
    X(cuGLRegisterBufferObject)                                                \
    X(cuGLMapBufferObject_v2)                                                  \
    X(cuGLMapBufferObject_v2_ptds)                                             \
    X(cuGLMapBufferObject)                                                     \
    X(cuGLMapBufferObjectAsync_v2)                                             \
    X(cuGLMapBufferObjectAsync_v2_ptsz)                                        \
    X(cuGLMapBufferObjectAsync)                                                \
    X(cuGLUnmapBufferObject)                                                   \
    X(cuGLUnmapBufferObjectAsync)                                              \
    X(cuGLUnregisterBufferObject)                                              \
    X(cuGLSetBufferObjectMapFlags)                                             \
    X(cuGraphicsEGLRegisterImage)                                              \
    X(cuEGLStreamConsumerConnect)                                              \
    X(cuEGLStreamConsumerConnectWithFlags)                                     \
    X(cuEGLStreamProducerConnect)                                              \
    X(cuEGLStreamConsumerDisconnect)                                           \
    X(cuEGLStreamProducerDisconnect)                                           \
    X(cuEGLStreamConsumerAcquireFrame)                                         \
    X(cuEGLStreamConsumerReleaseFrame)                                         \
    X(cuEGLStreamProducerPresentFrame)                                         \
    X(cuEGLStreamProducerReturnFrame)                                          \
    X(cuGraphicsResourceGetMappedEglFrame)                                     \
    X(cuEventCreateFromEGLSync)                                                \
    X(cuVDPAUGetDevice)                                                        \
    X(cuVDPAUCtxCreate_v2)                                                     \
    X(cuVDPAUCtxCreate)                                                        \
    X(cuGraphicsVDPAURegisterVideoSurface)                                     \
    X(cuGraphicsVDPAURegisterOutputSurface)                                    \
    /* External memory and semaphores (refused) */                             \
    X(cuImportExternalMemory)                                                  \
    X(cuExternalMemoryGetMappedBuffer)                                         \
    X(cuExternalMemoryGetMappedMipmappedArray)                                 \
    X(cuDestroyExternalMemory)                                                 \
    X(cuImportExternalSemaphore)                                               \
    X(cuSignalExternalSemaphoresAsync)                                         \
    X(cuSignalExternalSemaphoresAsync_ptsz)                                    \
    X(cuWaitExternalSemaphoresAsync)                                           \
    X(cuWaitExternalSemaphoresAsync_ptsz)                                      \
    X(cuDestroyExternalSemaphore)                                              \
    X(cuDeviceGetNvSciSyncAttributes)                                          \
    X(cuDeviceGetLuid)                                                         \
    /* Green contexts and device resources */                                  \
    X(cuDeviceGetDevResource)                                                  \
    X(cuCtxGetDevResource)                                                     \
    X(cuDevSmResourceSplitByCount)                                             \
    X(cuDevResourceGenerateDesc)                                               \
    X(cuGreenCtxCreate)                                                        \
    X(cuGreenCtxDestroy)                                                       \
    X(cuCtxFromGreenCtx)                                                       \
    X(cuGreenCtxGetDevResource)                                                \
    X(cuGreenCtxRecordEvent)                                                   \
    X(cuGreenCtxWaitEvent)                                                     \
    X(cuGreenCtxStreamCreate)                                                  \
    X(cuGreenCtxGetId)                                                         \
    X(cuStreamGetGreenCtx)                                                     \
    /* Checkpoints (refused) */                                                \
    X(cuCheckpointProcessGetRestoreThreadId)                                   \
    X(cuCheckpointProcessGetState)                                             \
    X(cuCheckpointProcessLock)                                                 \
    X(cuCheckpointProcessCheckpoint)                                           \
    X(cuCheckpointProcessRestore)                                              \
    X(cuCheckpointProcessUnlock)                                               \
    /* Coredumps (refused) */                                                  \
    X(cuCoredumpGetAttribute)                                                  \
    X(cuCoredumpGetAttributeGlobal)                                            \
    X(cuCoredumpSetAttribute)                                                  \
    X(cuCoredumpSetAttributeGlobal)                                            \
    /* Multicast (refused) */                                                  \
    X(cuMulticastCreate)                                                       \
    X(cuMulticastGetGranularity)                                               \
    X(cuMulticastAddDevice)                                                    \
    X(cuMulticastBindMem)                                                      \
    X(cuMulticastBindAddr)                                                     \
    X(cuMulticastUnbind)                                                       \
    /* Driver logs and notifications (refused) */                              \
    X(cuLogsRegisterCallback)                                                  \
    X(cuLogsUnregisterCallback)                                                \
    X(cuLogsCurrent)                                                           \
    X(cuLogsDumpToFile)                                                        \
    X(cuLogsDumpToMemory)                                                      \
    X(cuDeviceRegisterAsyncNotification)                                       \
    X(cuDeviceUnregisterAsyncNotification)                                     \
    /* Stream memory operations (refused) */                                   \
    X(cuStreamWaitValue32)                                                     \
    X(cuStreamWaitValue32_ptsz)                                                \
    X(cuStreamWaitValue32_v2)                                                  \
    X(cuStreamWaitValue32_v2_ptsz)                                             \
    X(cuStreamWaitValue64)                                                     \
    X(cuStreamWaitValue64_ptsz)                                                \
    X(cuStreamWaitValue64_v2)                                                  \
    X(cuStreamWaitValue64_v2_ptsz)                                             \
    X(cuStreamWriteValue32)                                                    \
    X(cuStreamWriteValue32_ptsz)                                               \
    X(cuStreamWriteValue32_v2)                                                 \
    X(cuStreamWriteValue32_v2_ptsz)                                            \
    X(cuStreamWriteValue64)                                                    \
    X(cuStreamWriteValue64_ptsz)                                               \
    X(cuStreamWriteValue64_v2)                                                 \
    X(cuStreamWriteValue64_v2_ptsz)                                            \
    X(cuStreamBatchMemOp)                                                      \
    X(cuStreamBatchMemOp_ptsz)                                                 \
    X(cuStreamBatchMemOp_v2)                                                   \
    X(cuStreamBatchMemOp_v2_ptsz)                                              \
    /* Memory features not emulated (refused) */                               \
    X(cuMemGetHandleForAddressRange)                                           \
    X(cuMemBatchDecompressAsync)                                               \
    X(cuMemBatchDecompressAsync_ptsz)                                          \
    X(cuMemMapArrayAsync)                                                      \
    X(cuMemMapArrayAsync_ptsz)                                                 \
    X(cuFlushGPUDirectRDMAWrites)                                              \
    X(cuMemPrefetchBatchAsync)                                                 \
    X(cuMemPrefetchBatchAsync_ptsz)                                            \
    X(cuMemDiscardAndPrefetchBatchAsync)                                       \
    X(cuMemDiscardAndPrefetchBatchAsync_ptsz)

#define CUDA_MOCK_ENTRY_ENUM(name) CUDA_MOCK_EP_##name,
typedef enum cuda_mock_entry_t {
    CUDA_MOCK_ENTRIES(CUDA_MOCK_ENTRY_ENUM) CUDA_MOCK_EP_COUNT
} cuda_mock_entry_t;
#undef CUDA_MOCK_ENTRY_ENUM

// The kinds of driver object the core tracks for this driver.
typedef enum cuda_mock_object_kind_t {
    CUDA_MOCK_OBJECT_CONTEXT = 0,
    CUDA_MOCK_OBJECT_STREAM = 1,
    CUDA_MOCK_OBJECT_EVENT = 2,
    CUDA_MOCK_OBJECT_POOL = 3,
    CUDA_MOCK_OBJECT_HOST_REGISTRATION = 4,
    CUDA_MOCK_OBJECT_ARRAY = 5,
    CUDA_MOCK_OBJECT_GRAPH = 6,
    CUDA_MOCK_OBJECT_GRAPH_NODE = 7,
    CUDA_MOCK_OBJECT_GRAPH_EXEC = 8,
    CUDA_MOCK_OBJECT_USER_OBJECT = 9,
    CUDA_MOCK_OBJECT_GREEN_CTX = 10,
    CUDA_MOCK_OBJECT_KIND_COUNT
} cuda_mock_object_kind_t;

// Bits of the core's user flags of an allocation, beside the flags of the
// call that made it (cuMemHostAlloc's, cuMemAllocManaged's).
#define CUDA_MOCK_POOL_MEMORY 0x80000000u // from a memory pool
#define CUDA_MOCK_HOST_REGISTERED                                              \
    0x40000000u // a registration (cuda_mock_host.c)
// The reservation of a graph allocation node (cuda_mock_graph_mem.c): owner
// is its record; only the graph memory hook frees it.
#define CUDA_MOCK_GRAPH_MEMORY 0x20000000u

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

// ---------------------------------------------------------------------------
// Visible devices (cuda_mock_visible.c)

// CUDA_VISIBLE_DEVICES applied to the `configured` devices: the number of
// visible ones (the core's select_devices hook, called once by cuInit).
unsigned cuda_mock_visible_select(unsigned configured);
// The physical device (what UMF_GPU_MOCK_DEVICES counts) of device `dev`,
// and the device of a physical one (-1 when it is not visible).
unsigned cuda_mock_device_physical(CUdevice dev);
int cuda_mock_device_of_physical(unsigned physical);
// The UUID of a physical device, the same in every process: "umf-gpu-cuda"
// and the physical index in the last four bytes.
void cuda_mock_device_uuid(unsigned physical, CUuuid *uuid);

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
// Refusals (cuda_mock_refuse.c): what the emulated devices cannot do

// Logs "<call>: not supported ...: <why>"; CUDA_ERROR_NOT_SUPPORTED.
CUresult cuda_mock_refuse(const char *call, const char *why);

// A handle of a kind (`kind`: "function", ...) that no call of this driver
// can make: logs why it cannot exist; CUDA_ERROR_INVALID_HANDLE.
CUresult cuda_mock_refuse_handle(const char *call, const char *kind,
                                 uintptr_t handle, const char *why);

// Whether cuFuncSetAttribute and cuKernelSetAttribute may set `attrib`:
// those cuda.h lists as "Supported attributes"; "Attempting to set a value
// on a read-only attribute will result in an error (CUDA_ERROR_INVALID_VALUE)".
static inline bool cuda_mock_func_attribute_settable(CUfunction_attribute a) {
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        return true;
    default:
        return false;
    }
}

// cuModuleGetGlobal and cuLibraryGetGlobal/GetManaged: "One of the
// parameters dptr or bytes (not both) can be NULL".
static inline bool cuda_mock_global_outputs_ok(const void *dptr,
                                               const void *bytes) {
    return dptr != NULL || bytes != NULL;
}

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

// Per-context teardown hooks. A file that keeps objects of a context (its
// streams, events, memory ...) adds one hook, where it defines it:
//
//     static void my_ctx_teardown(const cuda_mock_ctx_t *ctx) { ... }
//     CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_STREAMS, my_ctx_teardown);
//
// When a context is destroyed (or its primary context's last reference
// goes), cuda_mock_context.c runs every hook, lowest order first, under its
// lock, after the context reads as destroyed. The hooks are a linker set
// (one ELF section, walked from __start_ to __stop_): nothing runs at load
// time, and no file but this header knows the others' hooks.
typedef struct cuda_mock_teardown_t {
    int order;
    void (*fn)(const cuda_mock_ctx_t *ctx);
} cuda_mock_teardown_t;

// The orders: what a hook of a higher order frees, a lower one may still
// need (work queued on streams runs on memory, so it goes first).
enum {
    CUDA_MOCK_TEARDOWN_QUEUES = 10,
    CUDA_MOCK_TEARDOWN_STREAMS = 20,
    CUDA_MOCK_TEARDOWN_EVENTS = 21,
    CUDA_MOCK_TEARDOWN_HOST = 30,
    CUDA_MOCK_TEARDOWN_ARRAYS = 40,
    CUDA_MOCK_TEARDOWN_RANGES = 45,
    CUDA_MOCK_TEARDOWN_MEMORY = 50,
};

#define CUDA_MOCK_CTX_TEARDOWN(order_, fn_)                                    \
    static const cuda_mock_teardown_t cuda_mock_teardown_##fn_                 \
        __attribute__((section("cuda_mock_teardown"), used,                    \
                       aligned(sizeof(void *)))) = {(order_), (fn_)}

// The live context `handle` names (any thread's): CUDA_ERROR_INVALID_CONTEXT
// for anything else, logged with `call`.
CUresult cuda_mock_ctx_live(CUcontext handle, const char *call,
                            cuda_mock_ctx_t **out);

// A reference to a context that tells later whether it is still the same
// live context (a destroyed one's slot may be reused).
typedef struct cuda_mock_ctx_ref_t {
    cuda_mock_ctx_t *ctx;
    uint32_t gen;
} cuda_mock_ctx_ref_t;
cuda_mock_ctx_ref_t cuda_mock_ctx_ref(cuda_mock_ctx_t *ctx);
bool cuda_mock_ctx_ref_alive(cuda_mock_ctx_ref_t ref);

// Green contexts' contexts (cuda_mock_green.c keeps the green handles).
// Creating one retains the primary context of `dev` and does not make it
// current; `green` is the handle cuda_mock_ctx_green answers for it.
// Destroying one tears it down (its objects' hooks run) and releases the
// primary context: CUDA_ERROR_CONTEXT_IS_DESTROYED when it was destroyed.
CUresult cuda_mock_ctx_green_create(CUdevice dev, CUgreenCtx green,
                                    const char *call, cuda_mock_ctx_t **out);
CUresult cuda_mock_ctx_green_destroy(cuda_mock_ctx_ref_t ref, const char *call);
// The green handle of a green context's context; NULL for any other.
CUgreenCtx cuda_mock_ctx_green(const cuda_mock_ctx_t *ctx);
// The context whose memory `ctx` shares: a green context's primary
// context, else `ctx` itself.
cuda_mock_ctx_t *cuda_mock_ctx_base(const cuda_mock_ctx_t *ctx);
// Whether `ref` is alive and is `ctx` or, for a primary context, one of its
// green contexts (what cuCtxSynchronize of a primary context waits for).
bool cuda_mock_ctx_ref_within(cuda_mock_ctx_ref_t ref,
                              const cuda_mock_ctx_t *ctx);

// ---------------------------------------------------------------------------
// Tables of driver objects (cuda_mock_handles.c)
//
// A table is one heap block, made at first use and never freed, of
// fixed-size slots; a handle is valid when it points at a live slot of
// its table, which is decided without touching memory that is not the
// table's. Every object starts with its slot header; a live object is in
// the core's object set (the leak report) under the table's kind.

typedef struct cuda_mock_slot_t {
    _Atomic uint32_t state; // free or live
    _Atomic uint32_t gen;   // bumped by each allocation of the slot
} cuda_mock_slot_t;

typedef struct cuda_mock_table_t {
    const char *what; // "stream", for log lines
    size_t slot_size;
    uint32_t capacity;
    unsigned object_kind;
    _Atomic(char *) base;
    _Atomic uint32_t high; // slots ever used: the bound of a walk
    uint32_t cursor;       // the next slot to try (under lock)
    pthread_mutex_t lock;
} cuda_mock_table_t;

#define CUDA_MOCK_TABLE(what_, type_, capacity_, kind_)                        \
    {                                                                          \
        .what = (what_), .slot_size = sizeof(type_), .capacity = (capacity_),  \
        .object_kind = (kind_), .lock = PTHREAD_MUTEX_INITIALIZER,             \
    }

// A live slot, zeroed past its header; CUDA_ERROR_OUT_OF_MEMORY when every
// slot is alive (logged).
CUresult cuda_mock_table_alloc(cuda_mock_table_t *t, void **out);
// The live slot `handle` names, or NULL.
void *cuda_mock_table_get(cuda_mock_table_t *t, const void *handle);
// Whether `handle` points at a slot of `t`, alive or not (a destroyed
// object's handle, told from one the table never made).
bool cuda_mock_table_holds(cuda_mock_table_t *t, const void *handle);
// Ends a live slot's life; false when it was not live (of two racing
// frees, one wins).
bool cuda_mock_table_free(cuda_mock_table_t *t, void *slot);
// Calls fn for every live slot.
void cuda_mock_table_foreach(cuda_mock_table_t *t,
                             void (*fn)(void *slot, void *arg), void *arg);

// ---------------------------------------------------------------------------
// Streams and events (cuda_mock_stream.c, cuda_mock_event.c)

// The context of the stream `h`: a created stream's (CUDA_ERROR_INVALID_
// HANDLE when it is not a live stream), or for NULL, CU_STREAM_LEGACY and
// CU_STREAM_PER_THREAD the current context (CUDA_ERROR_INVALID_CONTEXT
// when there is none).
CUresult cuda_mock_stream_resolve(CUstream h, const char *call,
                                  cuda_mock_ctx_t **ctx);
// CUDA_SUCCESS when `ev` is a live event, else CUDA_ERROR_INVALID_HANDLE.
CUresult cuda_mock_event_check(CUevent ev, const char *call);
// cuCtxRecordEvent for a live context (cuGreenCtxRecordEvent's too).
CUresult cuda_mock_event_record_ctx(cuda_mock_ctx_t *ctx, CUevent ev,
                                    const char *call);
// A stream of the live context `ctx` (not necessarily current), as
// cuStreamCreateWithPriority makes one (cuGreenCtxStreamCreate).
CUresult cuda_mock_stream_create_in(cuda_mock_ctx_t *ctx, CUstream *phStream,
                                    unsigned flags, int priority,
                                    const char *call);

// ---------------------------------------------------------------------------
// Work in stream order (cuda_mock_queue.c)
//
// Work on a stream runs when it is enqueued, in the calling thread, while
// nothing is pending anywhere (one atomic read says so). A host function
// (cuLaunchHostFunc, cuStreamAddCallback, a graph's host node) runs on the
// driver thread instead, and its stream then has a queue: later work on
// that stream joins the queue and runs on the driver thread after it, in
// order, and so does work that must wait for it (the legacy default
// stream's implicit synchronisation, cuStreamWaitEvent on a queued record,
// a graph launched again). Synchronising waits for the queue; a call that
// would have to wait from the driver thread itself (a host function that
// calls CUDA) gets CUDA_ERROR_NOT_PERMITTED instead of a deadlock.
// Everything below that names the order lock is under it.

struct cuda_mock_queue_t;
struct cuda_mock_capture_t;

// A point in one stream's work: passed once the queue's item `seq` ran.
typedef struct cuda_mock_mark_t {
    struct cuda_mock_queue_t *queue; // NULL: nothing pending
    uint64_t seq;
} cuda_mock_mark_t;

// What a created stream keeps for its order and its capture, in its slot.
typedef struct cuda_mock_stream_order_t {
    struct cuda_mock_queue_t *queue;     // made at its first queued work
    struct cuda_mock_capture_t *capture; // while it captures
    // The nodes the next node captured in this stream depends on, and
    // their edge data (always the default: zeroed).
    CUgraphNode *deps;
    CUgraphEdgeData *dep_data;
    size_t ndeps, deps_cap;
} cuda_mock_stream_order_t;

// What an event keeps for the order of its records, in its slot.
typedef struct cuda_mock_event_order_t {
    cuda_mock_mark_t record;       // its last record, while queued
    unsigned long long capture_id; // its last record was in that capture
    CUgraphNode *nodes;            // ... after these nodes
    size_t nnodes;
} cuda_mock_event_order_t;

// A stream as an entry point names it, resolved.
typedef struct cuda_mock_stream_ref_t {
    CUstream handle;
    cuda_mock_ctx_t *ctx;
    cuda_mock_stream_order_t *order; // NULL: a default stream of ctx
    bool blocking; // synchronizes with the legacy default stream
} cuda_mock_stream_ref_t;

// One operation of a stream (or of a graph's node).
typedef enum cuda_mock_op_kind_t {
    CUDA_MOCK_OP_EMPTY,    // nothing (an empty node, a disabled one)
    CUDA_MOCK_OP_COPY,     // rows between two sides (1D copies)
    CUDA_MOCK_OP_COPY3D,   // 2D and 3D copies, arrays (cuda_mock_copy3d.c)
    CUDA_MOCK_OP_FILL,     // a 1D or 2D fill
    CUDA_MOCK_OP_HOST,     // a host function, on the driver thread
    CUDA_MOCK_OP_CALLBACK, // a stream callback, on the driver thread
    CUDA_MOCK_OP_RECORD,   // an event record
    CUDA_MOCK_OP_WAIT,     // a wait for an event's last record
    CUDA_MOCK_OP_FREE,     // cuMemFreeAsync
    CUDA_MOCK_OP_PREFETCH, // cuMemPrefetchAsync (moves nothing)
    CUDA_MOCK_OP_GRAPH,    // cuGraphLaunch: the nodes' operations
    CUDA_MOCK_OP_GMEM,     // a graph allocation begins or ends (fn(mem, what))
} cuda_mock_op_kind_t;

typedef struct cuda_mock_op_t {
    cuda_mock_op_kind_t kind;
    const char *call; // the entry point, for log lines
    union {
        struct {
            uintptr_t dst, src;
            size_t dst_pitch, src_pitch, width, height;
            int dst_device, src_device;      // that write and read
            CUmemorytype dst_type, src_type; // HOST, DEVICE or UNIFIED
        } copy;
        struct {
            CUDA_MEMCPY3D_PEER p;
            int dst_device, src_device; // of the contexts (arrays: theirs)
        } copy3d;
        struct {
            uintptr_t dst;
            size_t pitch; // of rows, when height > 1
            uint32_t value;
            unsigned elem; // 1, 2 or 4 bytes
            size_t width, height;
            int device;
        } fill;
        struct {
            CUhostFn fn;
            void *data;
        } host;
        struct {
            CUstreamCallback fn;
            void *data;
        } callback;
        struct {
            CUevent event;
            uint32_t gen;   // the event's slot generation
            unsigned flags; // CU_EVENT_RECORD_* or CU_EVENT_WAIT_*
        } event;
        struct {
            CUdeviceptr ptr;
        } free;
        struct {
            CUdeviceptr ptr;
            size_t count;
            CUmemLocation loc;
        } prefetch;
        struct {
            CUgraphExec exec;
        } graph;
        struct {
            void (*fn)(void *mem, unsigned what);
            void *mem;
            unsigned what;
        } gmem;
    } u;
} cuda_mock_op_t;

// Streams with queued work or an unreported error of it, and captures (0:
// every stream is idle, and none captures).
extern _Atomic unsigned cuda_mock_order_busy;

static inline bool cuda_mock_order_idle(void) {
    return atomic_load_explicit(&cuda_mock_order_busy, memory_order_acquire) ==
           0;
}

// The lock of every queue, capture and mark.
extern pthread_mutex_t cuda_mock_order_lock;

// `h` resolved: a created stream (CUDA_ERROR_INVALID_HANDLE when it is
// not live), or a default stream of the current context
// (cuda_mock_stream.c).
CUresult cuda_mock_stream_get(CUstream h, const char *call,
                              cuda_mock_stream_ref_t *out);
// The order state of a live event, its context and its slot's generation;
// NULL (logged) if the handle is no live event (cuda_mock_event.c).
cuda_mock_event_order_t *cuda_mock_event_order_of(CUevent ev, const char *call,
                                                  cuda_mock_ctx_t **ctx,
                                                  uint32_t *gen);
// The same for the event of generation `gen`; NULL, silently, once it is
// gone (destroyed after work naming it was queued).
cuda_mock_event_order_t *cuda_mock_event_order_at(CUevent ev, uint32_t gen);
// Records the event of generation `gen` now: its time, and its state in
// every process for IPC events; nothing once it is gone.
void cuda_mock_event_record_now(CUevent ev, uint32_t gen);

// Runs `op` in the calling thread; complete when it returns.
CUresult cuda_mock_op_run(const cuda_mock_op_t *op);

// Enqueues `op` on stream `s`: captured while the stream captures, run at
// once while nothing is pending before it (and it needs no driver thread),
// else queued.
CUresult cuda_mock_order_submit(const cuda_mock_stream_ref_t *s,
                                const cuda_mock_op_t *op);
// A synchronous call (cuMemcpyHtoD_v2 ...): `op` on the default stream of
// `ctx`, complete when this returns (its result is the operation's).
CUresult cuda_mock_order_sync(cuda_mock_ctx_t *ctx, const cuda_mock_op_t *op);

// cuStreamSynchronize (`wait`) and cuStreamQuery: the first error of
// queued work not reported yet, CUDA_ERROR_NOT_READY for a query of
// pending work.
CUresult cuda_mock_order_stream_sync(const cuda_mock_stream_ref_t *s, bool wait,
                                     const char *call);
// cuCtxSynchronize: every stream of `ctx`.
CUresult cuda_mock_order_ctx_sync(cuda_mock_ctx_t *ctx, const char *call);
// cuEventSynchronize (`wait`) and cuEventQuery of event `ev`.
CUresult cuda_mock_order_event_sync(CUevent ev, bool wait, const char *call);
// CUDA_ERROR_NOT_READY while the last record of `ev` is queued
// (cuEventElapsedTime).
CUresult cuda_mock_order_event_done(CUevent ev, const char *call);
// An event's or stream's slot ends: what it held of the order goes.
void cuda_mock_order_event_gone(cuda_mock_event_order_t *e);
// The stream's queue runs on without it. A capturing stream is
// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (not destroyed, its capture
// invalidated) unless `force` (its context goes: it leaves the capture).
CUresult cuda_mock_order_stream_gone(cuda_mock_stream_order_t *o, bool force,
                                     const char *call);
// Before a context is destroyed, outside the context lock: waits for its
// streams' work (not from the driver thread).
void cuda_mock_order_ctx_drain(const cuda_mock_ctx_t *ctx);
// cuMemFree_v2 and cuMemFreeHost synchronize: waits for the queued work
// of the device that `p` belongs to.
CUresult cuda_mock_order_before_free_slow(const void *p, const char *call);
static inline CUresult cuda_mock_order_before_free(const void *p,
                                                   const char *call) {
    return cuda_mock_order_idle() ? CUDA_SUCCESS
                                  : cuda_mock_order_before_free_slow(p, call);
}
// A call that stream capture calls potentially unsafe (allocations ...):
// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED while the capture modes prohibit
// it in this thread.
CUresult cuda_mock_order_unsafe_slow(const char *call);
static inline CUresult cuda_mock_order_unsafe(const char *call) {
    return cuda_mock_order_idle() ? CUDA_SUCCESS
                                  : cuda_mock_order_unsafe_slow(call);
}
// Work on stream `s` that cannot be captured here (stream-ordered
// allocation ...): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, the capture
// invalidated, while the stream captures.
CUresult cuda_mock_order_refuse_in_capture(const cuda_mock_stream_ref_t *s,
                                           const char *call);
// A stream-ordered allocation or free on `s`, taken by stream capture when
// the stream captures (*captured; cuda_mock_capture_mem_locked).
CUresult cuda_mock_order_capture_mem(const cuda_mock_stream_ref_t *s,
                                     int device, size_t size, CUdeviceptr *dptr,
                                     bool *captured, const char *call);
// Runs fn(data) on the driver thread, in no stream (user object
// destructors).
CUresult cuda_mock_order_internal(CUhostFn fn, void *data, const char *call);
// Queues fn(data) after the work of mark `m` when that is still queued
// (true), and releases the mark.
bool cuda_mock_order_after(cuda_mock_mark_t *m, CUhostFn fn, void *data,
                           const char *call);

// ---------------------------------------------------------------------------
// Stream capture (cuda_mock_capture.c), for cuda_mock_queue.c: every call
// here is under the order lock.

// An operation on stream `s` that capture takes (it captures, or its use
// of the legacy stream or a captured event is capture's to decide): true,
// with the result in *res; false when it is not capture's.
bool cuda_mock_capture_submit_locked(const cuda_mock_stream_ref_t *s,
                                     const cuda_mock_op_t *op, CUresult *res);
// A synchronous operation of the legacy stream of `ctx`, a synchronize of
// stream `s`, of context `ctx`, a potentially unsafe call, work that cannot
// be captured: CUDA_SUCCESS, or the error capture gives (and the captures
// it invalidates).
CUresult cuda_mock_capture_sync_locked(const cuda_mock_ctx_t *ctx,
                                       const char *call);
CUresult cuda_mock_capture_stream_sync_locked(const cuda_mock_stream_ref_t *s,
                                              const char *call);
CUresult cuda_mock_capture_ctx_sync_locked(const cuda_mock_ctx_t *ctx,
                                           const char *call);
CUresult cuda_mock_capture_unsafe_locked(const char *call);
CUresult cuda_mock_capture_refuse_locked(const cuda_mock_stream_ref_t *s,
                                         const char *call);
// A stream-ordered allocation (`size` > 0 bytes of `device`, the address to
// *dptr) or free (of *dptr, `size` 0) on stream `s`: *captured when the
// stream captures, as a memory node of the capture's graph.
CUresult cuda_mock_capture_mem_locked(const cuda_mock_stream_ref_t *s,
                                      int device, size_t size,
                                      CUdeviceptr *dptr, bool *captured,
                                      const char *call);
// Whether the capture of this id is going on.
bool cuda_mock_capture_live(unsigned long long id);
void cuda_mock_capture_invalidate_locked(struct cuda_mock_capture_t *c);
// A stream leaves its capture (it goes with its context).
void cuda_mock_capture_leave_locked(cuda_mock_stream_order_t *o);

// ---------------------------------------------------------------------------
// Executable graphs (cuda_mock_graph_exec.c), for cuda_mock_queue.c

typedef CUresult (*cuda_mock_op_fn)(const cuda_mock_op_t *op, void *arg);
// Calls fn with the operation of every enabled node, in a topological
// order (child graphs inline); stops at the first failure.
CUresult cuda_mock_exec_walk(CUgraphExec exec, cuda_mock_op_fn fn, void *arg);
// Whether it has a host node (which runs on the driver thread).
bool cuda_mock_exec_needs_thread(CUgraphExec exec);
// Its last queued launch (under the order lock).
cuda_mock_mark_t *cuda_mock_exec_mark(CUgraphExec exec);

// ---------------------------------------------------------------------------
// The copy and fill engine (cuda_mock_copy.c)

// The sides of a copy that must be memory of the driver (device memory, or
// host memory it pinned); the others may be too (unified addressing).
#define CUDA_MOCK_DST_DEVICE 1u
#define CUDA_MOCK_SRC_DEVICE 2u

// Copies `height` rows of `width` bytes, `dst_pitch` and `src_pitch` bytes
// apart, after checking every row's range against the driver's memory
// (the bounds rule, and for mapped VMM memory the access of `dst_device`
// and `src_device`, the devices that write and read). Complete when it
// returns.
CUresult cuda_mock_copy_rows(int dst_device, int src_device, uintptr_t dst,
                             size_t dst_pitch, uintptr_t src, size_t src_pitch,
                             size_t width, size_t height, unsigned sides,
                             const char *call);

// The checks of cuda_mock_copy_rows alone, for work queued to run later.
CUresult cuda_mock_copy_rows_check(int dst_device, int src_device,
                                   uintptr_t dst, size_t dst_pitch,
                                   uintptr_t src, size_t src_pitch,
                                   size_t width, size_t height, unsigned sides,
                                   const char *call);

static inline CUresult cuda_mock_copy_bytes(int dst_device, int src_device,
                                            uintptr_t dst, uintptr_t src,
                                            size_t n, unsigned sides,
                                            const char *call) {
    return cuda_mock_copy_rows(dst_device, src_device, dst, n, src, n, n, 1,
                               sides, call);
}

// The operation of a copy of `height` rows of `width` bytes between two
// sides of the memory types given (HOST, DEVICE: must be driver memory,
// UNIFIED: either).
static inline cuda_mock_op_t
cuda_mock_copy_op(int dst_device, uintptr_t dst, size_t dst_pitch,
                  CUmemorytype dst_type, int src_device, uintptr_t src,
                  size_t src_pitch, CUmemorytype src_type, size_t width,
                  size_t height, const char *call) {
    cuda_mock_op_t op;
    op.kind = CUDA_MOCK_OP_COPY;
    op.call = call;
    op.u.copy.dst = dst;
    op.u.copy.src = src;
    op.u.copy.dst_pitch = dst_pitch;
    op.u.copy.src_pitch = src_pitch;
    op.u.copy.width = width;
    op.u.copy.height = height;
    op.u.copy.dst_device = dst_device;
    op.u.copy.src_device = src_device;
    op.u.copy.dst_type = dst_type;
    op.u.copy.src_type = src_type;
    return op;
}

// Fills `height` rows of `width` elements of `elem` (1, 2 or 4) bytes,
// `pitch` bytes apart, with the low `elem` bytes of `value`, in memory of
// the driver, for `device`.
CUresult cuda_mock_fill(int device, uintptr_t dst, size_t pitch, uint32_t value,
                        unsigned elem, size_t width, size_t height,
                        const char *call);

// The checks of cuda_mock_fill alone.
CUresult cuda_mock_fill_check(int device, uintptr_t dst, size_t pitch,
                              unsigned elem, size_t width, size_t height,
                              const char *call);

// 3D copies (cuda_mock_copy3d.c): a CUDA_MEMCPY3D_PEER checked as cuda.h
// documents, its sides resolved (arrays through their layout), each slice
// copied by the engine above; complete when it returns. _check: the same
// checks, nothing copied.
CUresult cuda_mock_copy3d_run(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                              int src_device, const char *call);
CUresult cuda_mock_copy3d_check(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                                int src_device, const char *call);
// The devices that write and read `p`: an array's own, else the defaults.
void cuda_mock_copy3d_devices(const CUDA_MEMCPY3D_PEER *p, int dst_default,
                              int src_default, int *dst, int *src);
// Enqueues `p` (contexts ignored): synchronously in the current context
// (`sync`), else on `stream`.
CUresult cuda_mock_copy3d_enqueue(const CUDA_MEMCPY3D_PEER *p, bool sync,
                                  CUstream stream, const char *call);

// ---------------------------------------------------------------------------
// CUDA arrays (cuda_mock_array.c) and the device model (cuda_mock_device.c)

// Where an array's elements are: rows of `width_bytes` (`pitch` apart),
// `rows` per slice, `slices` slices, in device memory of `device`.
typedef struct cuda_mock_array_layout_t {
    uintptr_t base;
    size_t pitch, width_bytes, rows, slices;
    unsigned elem; // bytes per element
    int device;
    bool one_dimensional;
} cuda_mock_array_layout_t;

// The layout of a live array; false (logged with `call`) otherwise.
bool cuda_mock_array_layout(CUarray a, const char *call,
                            cuda_mock_array_layout_t *out);

// The device model's value of a limit attribute (the same on every device).
int cuda_mock_device_limit(CUdevice_attribute attrib);

// ---------------------------------------------------------------------------
// Memory (cuda_mock_memory.c, cuda_mock_pool.c, cuda_mock_host.c)

// Frees device or managed memory at its base `p`, as cuMemFree_v2 does
// (pool memory settles its pool's accounts).
CUresult cuda_mock_mem_free_device(const void *p, const char *call);

// Graph memory (CUDA_MOCK_GRAPH_MEMORY): the hook that cuMemFree_v2 and
// cuMemFreeAsync call for it, set by the graph files when they make the
// first allocation node (NULL before: no such memory exists). With `op`
// NULL it frees now (cuMemFree_v2, after the device's queued work); else it
// fills *op, to be run in stream order (cuMemFreeAsync).
typedef CUresult (*cuda_mock_graph_mem_free_fn)(
    const umf_mock_alloc_info_t *info, cuda_mock_op_t *op, const char *call);
extern _Atomic(cuda_mock_graph_mem_free_fn) cuda_mock_graph_mem_free;

// Memory of a pool was freed (`info`: what umf_mock_free said of it).
void cuda_mock_pool_freed(const umf_mock_alloc_info_t *info);
// The pool that memory `info` came from.
CUmemoryPool cuda_mock_pool_of(const umf_mock_alloc_info_t *info);

// What a program said of its memory (cuda_mock_advise.c): advice and
// prefetch locations of managed memory, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS.
// Records exist for memory something was said of; they go when it is
// freed.
extern _Atomic size_t cuda_mock_range_records;
void cuda_mock_range_freed_slow(const umf_mock_alloc_info_t *info);
static inline void cuda_mock_range_freed(const umf_mock_alloc_info_t *info) {
    if (atomic_load_explicit(&cuda_mock_range_records, memory_order_relaxed) !=
        0) {
        cuda_mock_range_freed_slow(info);
    }
}
bool cuda_mock_range_sync_memops(const umf_mock_alloc_info_t *info);

// The registration holding `p` as an allocation's info (kind HOST, owner
// the registering context, user flags the registration's flags |
// CUDA_MOCK_HOST_REGISTERED); false if none holds it.
bool cuda_mock_host_lookup(const void *p, umf_mock_alloc_info_t *info);

#endif // UMF_GPU_CUDA_MOCK_INTERNAL_H
