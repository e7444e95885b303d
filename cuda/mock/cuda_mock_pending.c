// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// PENDING: the entry points of issue 25's part B (stream callbacks, host
// functions, CUDA arrays and their copies, 3D copies, managed memory advice
// and prefetches, pointer attributes that are set, graphs, stream capture,
// user objects, graph memory), which another branch emulates. Until then
// each one exists, counts its calls, takes fault rules, wants cuInit, and
// refuses with CUDA_ERROR_NOT_SUPPORTED and a log line naming it, so that
// no client finds a symbol missing. The lead replaces this file with part
// B's implementations when merging (and drops its block of
// CUDA_MOCK_ENTRIES and its rows of docs/emulated-cuda.md with it).

#include "cuda_mock_internal.h"

// Nothing is checked but cuInit: the arguments are part B's to check.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "not emulated yet (issue 25, part B)"

#define PENDING(name, params)                                                  \
    CUDA_MOCK_API CUresult name params {                                       \
        CUDA_MOCK_ENTER(name);                                                 \
        return cuda_mock_refuse(#name, WHY);                                   \
    }

PENDING(cuArray3DCreate,
        (CUarray * pHandle, const CUDA_ARRAY3D_DESCRIPTOR_v1 *pAllocateArray))
PENDING(cuArray3DCreate_v2,
        (CUarray * pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray))
PENDING(cuArray3DGetDescriptor,
        (CUDA_ARRAY3D_DESCRIPTOR_v1 * pArrayDescriptor, CUarray hArray))
PENDING(cuArray3DGetDescriptor_v2,
        (CUDA_ARRAY3D_DESCRIPTOR * pArrayDescriptor, CUarray hArray))
PENDING(cuArrayCreate,
        (CUarray * pHandle, const CUDA_ARRAY_DESCRIPTOR_v1 *pAllocateArray))
PENDING(cuArrayCreate_v2,
        (CUarray * pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray))
PENDING(cuArrayDestroy, (CUarray hArray))
PENDING(cuArrayGetDescriptor,
        (CUDA_ARRAY_DESCRIPTOR_v1 * pArrayDescriptor, CUarray hArray))
PENDING(cuArrayGetDescriptor_v2,
        (CUDA_ARRAY_DESCRIPTOR * pArrayDescriptor, CUarray hArray))
PENDING(cuArrayGetMemoryRequirements,
        (CUDA_ARRAY_MEMORY_REQUIREMENTS * memoryRequirements, CUarray array,
         CUdevice device))
PENDING(cuArrayGetPlane,
        (CUarray * pPlaneArray, CUarray hArray, unsigned int planeIdx))
PENDING(cuArrayGetSparseProperties,
        (CUDA_ARRAY_SPARSE_PROPERTIES * sparseProperties, CUarray array))
PENDING(cuDeviceGetGraphMemAttribute,
        (CUdevice device, CUgraphMem_attribute attr, void *value))
PENDING(cuDeviceGraphMemTrim, (CUdevice device))
PENDING(cuDeviceSetGraphMemAttribute,
        (CUdevice device, CUgraphMem_attribute attr, void *value))
PENDING(cuGraphAddBatchMemOpNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams))
PENDING(cuGraphAddChildGraphNode, (CUgraphNode * phGraphNode, CUgraph hGraph,
                                   const CUgraphNode *dependencies,
                                   size_t numDependencies, CUgraph childGraph))
PENDING(cuGraphAddDependencies, (CUgraph hGraph, const CUgraphNode *from,
                                 const CUgraphNode *to, size_t numDependencies))
PENDING(cuGraphAddDependencies_v2,
        (CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
         const CUgraphEdgeData *edgeData, size_t numDependencies))
PENDING(cuGraphAddEmptyNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies))
PENDING(cuGraphAddEventRecordNode, (CUgraphNode * phGraphNode, CUgraph hGraph,
                                    const CUgraphNode *dependencies,
                                    size_t numDependencies, CUevent event))
PENDING(cuGraphAddEventWaitNode, (CUgraphNode * phGraphNode, CUgraph hGraph,
                                  const CUgraphNode *dependencies,
                                  size_t numDependencies, CUevent event))
PENDING(cuGraphAddExternalSemaphoresSignalNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams))
PENDING(cuGraphAddExternalSemaphoresWaitNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams))
PENDING(cuGraphAddHostNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_HOST_NODE_PARAMS *nodeParams))
PENDING(cuGraphAddKernelNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams))
PENDING(cuGraphAddKernelNode_v2,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_KERNEL_NODE_PARAMS *nodeParams))
PENDING(cuGraphAddMemAllocNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams))
PENDING(cuGraphAddMemFreeNode, (CUgraphNode * phGraphNode, CUgraph hGraph,
                                const CUgraphNode *dependencies,
                                size_t numDependencies, CUdeviceptr dptr))
PENDING(cuGraphAddMemcpyNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_MEMCPY3D *copyParams, CUcontext ctx))
PENDING(cuGraphAddMemsetNode,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, size_t numDependencies,
         const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx))
PENDING(cuGraphAddNode, (CUgraphNode * phGraphNode, CUgraph hGraph,
                         const CUgraphNode *dependencies,
                         size_t numDependencies, CUgraphNodeParams *nodeParams))
PENDING(cuGraphAddNode_v2,
        (CUgraphNode * phGraphNode, CUgraph hGraph,
         const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData,
         size_t numDependencies, CUgraphNodeParams *nodeParams))
PENDING(cuGraphBatchMemOpNodeGetParams,
        (CUgraphNode hNode, CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams_out))
PENDING(cuGraphBatchMemOpNodeSetParams,
        (CUgraphNode hNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams))
PENDING(cuGraphChildGraphNodeGetGraph, (CUgraphNode hNode, CUgraph *phGraph))
PENDING(cuGraphClone, (CUgraph * phGraphClone, CUgraph originalGraph))
PENDING(cuGraphConditionalHandleCreate,
        (CUgraphConditionalHandle * pHandle_out, CUgraph hGraph, CUcontext ctx,
         unsigned int defaultLaunchValue, unsigned int flags))
PENDING(cuGraphCreate, (CUgraph * phGraph, unsigned int flags))
PENDING(cuGraphDebugDotPrint,
        (CUgraph hGraph, const char *path, unsigned int flags))
PENDING(cuGraphDestroy, (CUgraph hGraph))
PENDING(cuGraphDestroyNode, (CUgraphNode hNode))
PENDING(cuGraphEventRecordNodeGetEvent, (CUgraphNode hNode, CUevent *event_out))
PENDING(cuGraphEventRecordNodeSetEvent, (CUgraphNode hNode, CUevent event))
PENDING(cuGraphEventWaitNodeGetEvent, (CUgraphNode hNode, CUevent *event_out))
PENDING(cuGraphEventWaitNodeSetEvent, (CUgraphNode hNode, CUevent event))
PENDING(cuGraphExecBatchMemOpNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams))
PENDING(cuGraphExecChildGraphNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph))
PENDING(cuGraphExecDestroy, (CUgraphExec hGraphExec))
PENDING(cuGraphExecEventRecordNodeSetEvent,
        (CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event))
PENDING(cuGraphExecEventWaitNodeSetEvent,
        (CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event))
PENDING(cuGraphExecExternalSemaphoresSignalNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams))
PENDING(cuGraphExecExternalSemaphoresWaitNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams))
PENDING(cuGraphExecGetFlags, (CUgraphExec hGraphExec, cuuint64_t *flags))
PENDING(cuGraphExecHostNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_HOST_NODE_PARAMS *nodeParams))
PENDING(cuGraphExecKernelNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams))
PENDING(cuGraphExecKernelNodeSetParams_v2,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_KERNEL_NODE_PARAMS *nodeParams))
PENDING(cuGraphExecMemcpyNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_MEMCPY3D *copyParams, CUcontext ctx))
PENDING(cuGraphExecMemsetNodeSetParams,
        (CUgraphExec hGraphExec, CUgraphNode hNode,
         const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx))
PENDING(cuGraphExecNodeSetParams, (CUgraphExec hGraphExec, CUgraphNode hNode,
                                   CUgraphNodeParams *nodeParams))
PENDING(cuGraphExecUpdate,
        (CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
         CUgraphExecUpdateResult *updateResult_out))
PENDING(cuGraphExecUpdate_v2, (CUgraphExec hGraphExec, CUgraph hGraph,
                               CUgraphExecUpdateResultInfo *resultInfo))
PENDING(cuGraphExternalSemaphoresSignalNodeGetParams,
        (CUgraphNode hNode, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *params_out))
PENDING(cuGraphExternalSemaphoresSignalNodeSetParams,
        (CUgraphNode hNode, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams))
PENDING(cuGraphExternalSemaphoresWaitNodeGetParams,
        (CUgraphNode hNode, CUDA_EXT_SEM_WAIT_NODE_PARAMS *params_out))
PENDING(cuGraphExternalSemaphoresWaitNodeSetParams,
        (CUgraphNode hNode, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams))
PENDING(cuGraphGetEdges,
        (CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges))
PENDING(cuGraphGetEdges_v2, (CUgraph hGraph, CUgraphNode *from, CUgraphNode *to,
                             CUgraphEdgeData *edgeData, size_t *numEdges))
PENDING(cuGraphGetNodes, (CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes))
PENDING(cuGraphGetRootNodes,
        (CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes))
PENDING(cuGraphHostNodeGetParams,
        (CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams))
PENDING(cuGraphHostNodeSetParams,
        (CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams))
PENDING(cuGraphInstantiate,
        (CUgraphExec * phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
         char *logBuffer, size_t bufferSize))
PENDING(cuGraphInstantiateWithFlags,
        (CUgraphExec * phGraphExec, CUgraph hGraph, unsigned long long flags))
PENDING(cuGraphInstantiateWithParams,
        (CUgraphExec * phGraphExec, CUgraph hGraph,
         CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams))
PENDING(cuGraphInstantiateWithParams_ptsz,
        (CUgraphExec * phGraphExec, CUgraph hGraph,
         CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams))
PENDING(cuGraphInstantiate_v2,
        (CUgraphExec * phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
         char *logBuffer, size_t bufferSize))
PENDING(cuGraphKernelNodeCopyAttributes, (CUgraphNode dst, CUgraphNode src))
PENDING(cuGraphKernelNodeGetAttribute,
        (CUgraphNode hNode, CUkernelNodeAttrID attr,
         CUkernelNodeAttrValue *value_out))
PENDING(cuGraphKernelNodeGetParams,
        (CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams))
PENDING(cuGraphKernelNodeGetParams_v2,
        (CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams))
PENDING(cuGraphKernelNodeSetAttribute,
        (CUgraphNode hNode, CUkernelNodeAttrID attr,
         const CUkernelNodeAttrValue *value))
PENDING(cuGraphKernelNodeSetParams,
        (CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams))
PENDING(cuGraphKernelNodeSetParams_v2,
        (CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams))
PENDING(cuGraphLaunch, (CUgraphExec hGraph, CUstream hStream))
PENDING(cuGraphLaunch_ptsz, (CUgraphExec hGraphExec, CUstream hStream))
PENDING(cuGraphMemAllocNodeGetParams,
        (CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out))
PENDING(cuGraphMemFreeNodeGetParams, (CUgraphNode hNode, CUdeviceptr *dptr_out))
PENDING(cuGraphMemcpyNodeGetParams,
        (CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams))
PENDING(cuGraphMemcpyNodeSetParams,
        (CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams))
PENDING(cuGraphMemsetNodeGetParams,
        (CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams))
PENDING(cuGraphMemsetNodeSetParams,
        (CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams))
PENDING(cuGraphNodeFindInClone,
        (CUgraphNode * phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph))
PENDING(cuGraphNodeGetDependencies,
        (CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies))
PENDING(cuGraphNodeGetDependencies_v2,
        (CUgraphNode hNode, CUgraphNode *dependencies,
         CUgraphEdgeData *edgeData, size_t *numDependencies))
PENDING(cuGraphNodeGetDependentNodes,
        (CUgraphNode hNode, CUgraphNode *dependentNodes,
         size_t *numDependentNodes))
PENDING(cuGraphNodeGetDependentNodes_v2,
        (CUgraphNode hNode, CUgraphNode *dependentNodes,
         CUgraphEdgeData *edgeData, size_t *numDependentNodes))
PENDING(cuGraphNodeGetEnabled,
        (CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled))
PENDING(cuGraphNodeGetType, (CUgraphNode hNode, CUgraphNodeType *type))
PENDING(cuGraphNodeSetEnabled,
        (CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled))
PENDING(cuGraphNodeSetParams,
        (CUgraphNode hNode, CUgraphNodeParams *nodeParams))
PENDING(cuGraphReleaseUserObject,
        (CUgraph graph, CUuserObject object, unsigned int count))
PENDING(cuGraphRemoveDependencies,
        (CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
         size_t numDependencies))
PENDING(cuGraphRemoveDependencies_v2,
        (CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
         const CUgraphEdgeData *edgeData, size_t numDependencies))
PENDING(cuGraphRetainUserObject, (CUgraph graph, CUuserObject object,
                                  unsigned int count, unsigned int flags))
PENDING(cuGraphUpload, (CUgraphExec hGraph, CUstream hStream))
PENDING(cuGraphUpload_ptsz, (CUgraphExec hGraphExec, CUstream hStream))
PENDING(cuLaunchHostFunc, (CUstream hStream, CUhostFn fn, void *userData))
PENDING(cuLaunchHostFunc_ptsz, (CUstream hStream, CUhostFn fn, void *userData))
PENDING(cuMemAdvise, (CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                      CUdevice device))
PENDING(cuMemAdvise_v2, (CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                         CUmemLocation location))
PENDING(cuMemPrefetchAsync, (CUdeviceptr devPtr, size_t count,
                             CUdevice dstDevice, CUstream hStream))
PENDING(cuMemPrefetchAsync_ptsz, (CUdeviceptr devPtr, size_t count,
                                  CUdevice dstDevice, CUstream hStream))
PENDING(cuMemPrefetchAsync_v2,
        (CUdeviceptr devPtr, size_t count, CUmemLocation location,
         unsigned int flags, CUstream hStream))
PENDING(cuMemPrefetchAsync_v2_ptsz,
        (CUdeviceptr devPtr, size_t count, CUmemLocation location,
         unsigned int flags, CUstream hStream))
PENDING(cuMemRangeGetAttribute,
        (void *data, size_t dataSize, CUmem_range_attribute attribute,
         CUdeviceptr devPtr, size_t count))
PENDING(cuMemRangeGetAttributes,
        (void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
         size_t numAttributes, CUdeviceptr devPtr, size_t count))
PENDING(cuMemcpy3D, (const CUDA_MEMCPY3D_v1 *pCopy))
PENDING(cuMemcpy3DAsync, (const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream))
PENDING(cuMemcpy3DAsync_v2, (const CUDA_MEMCPY3D *pCopy, CUstream hStream))
PENDING(cuMemcpy3DAsync_v2_ptsz, (const CUDA_MEMCPY3D *pCopy, CUstream hStream))
PENDING(cuMemcpy3DBatchAsync,
        (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
         unsigned long long flags, CUstream hStream))
PENDING(cuMemcpy3DBatchAsync_ptsz,
        (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
         unsigned long long flags, CUstream hStream))
PENDING(cuMemcpy3DBatchAsync_v2, (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                  unsigned long long flags, CUstream hStream))
PENDING(cuMemcpy3DBatchAsync_v2_ptsz,
        (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
         unsigned long long flags, CUstream hStream))
PENDING(cuMemcpy3DPeer, (const CUDA_MEMCPY3D_PEER *pCopy))
PENDING(cuMemcpy3DPeerAsync,
        (const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream))
PENDING(cuMemcpy3DPeerAsync_ptsz,
        (const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream))
PENDING(cuMemcpy3DPeer_ptds, (const CUDA_MEMCPY3D_PEER *pCopy))
PENDING(cuMemcpy3D_v2, (const CUDA_MEMCPY3D *pCopy))
PENDING(cuMemcpy3D_v2_ptds, (const CUDA_MEMCPY3D *pCopy))
PENDING(cuMemcpyAtoA,
        (CUarray dstArray, unsigned int dstOffset, CUarray srcArray,
         unsigned int srcOffset, unsigned int ByteCount))
PENDING(cuMemcpyAtoA_v2, (CUarray dstArray, size_t dstOffset, CUarray srcArray,
                          size_t srcOffset, size_t ByteCount))
PENDING(cuMemcpyAtoA_v2_ptds,
        (CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
         size_t ByteCount))
PENDING(cuMemcpyAtoD, (CUdeviceptr_v1 dstDevice, CUarray srcArray,
                       unsigned int srcOffset, unsigned int ByteCount))
PENDING(cuMemcpyAtoD_v2, (CUdeviceptr dstDevice, CUarray srcArray,
                          size_t srcOffset, size_t ByteCount))
PENDING(cuMemcpyAtoD_v2_ptds, (CUdeviceptr dstDevice, CUarray srcArray,
                               size_t srcOffset, size_t ByteCount))
PENDING(cuMemcpyAtoH, (void *dstHost, CUarray srcArray, unsigned int srcOffset,
                       unsigned int ByteCount))
PENDING(cuMemcpyAtoHAsync,
        (void *dstHost, CUarray srcArray, unsigned int srcOffset,
         unsigned int ByteCount, CUstream hStream))
PENDING(cuMemcpyAtoHAsync_v2,
        (void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
         CUstream hStream))
PENDING(cuMemcpyAtoHAsync_v2_ptsz,
        (void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
         CUstream hStream))
PENDING(cuMemcpyAtoH_v2,
        (void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount))
PENDING(cuMemcpyAtoH_v2_ptds,
        (void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount))
PENDING(cuMemcpyDtoA, (CUarray dstArray, unsigned int dstOffset,
                       CUdeviceptr_v1 srcDevice, unsigned int ByteCount))
PENDING(cuMemcpyDtoA_v2, (CUarray dstArray, size_t dstOffset,
                          CUdeviceptr srcDevice, size_t ByteCount))
PENDING(cuMemcpyDtoA_v2_ptds, (CUarray dstArray, size_t dstOffset,
                               CUdeviceptr srcDevice, size_t ByteCount))
PENDING(cuMemcpyHtoA, (CUarray dstArray, unsigned int dstOffset,
                       const void *srcHost, unsigned int ByteCount))
PENDING(cuMemcpyHtoAAsync,
        (CUarray dstArray, unsigned int dstOffset, const void *srcHost,
         unsigned int ByteCount, CUstream hStream))
PENDING(cuMemcpyHtoAAsync_v2,
        (CUarray dstArray, size_t dstOffset, const void *srcHost,
         size_t ByteCount, CUstream hStream))
PENDING(cuMemcpyHtoAAsync_v2_ptsz,
        (CUarray dstArray, size_t dstOffset, const void *srcHost,
         size_t ByteCount, CUstream hStream))
PENDING(cuMemcpyHtoA_v2, (CUarray dstArray, size_t dstOffset,
                          const void *srcHost, size_t ByteCount))
PENDING(cuMemcpyHtoA_v2_ptds, (CUarray dstArray, size_t dstOffset,
                               const void *srcHost, size_t ByteCount))
PENDING(cuPointerSetAttribute,
        (const void *value, CUpointer_attribute attribute, CUdeviceptr ptr))
PENDING(cuStreamAddCallback, (CUstream hStream, CUstreamCallback callback,
                              void *userData, unsigned int flags))
PENDING(cuStreamAddCallback_ptsz, (CUstream hStream, CUstreamCallback callback,
                                   void *userData, unsigned int flags))
PENDING(cuStreamBeginCapture, (CUstream hStream))
PENDING(cuStreamBeginCaptureToGraph,
        (CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
         const CUgraphEdgeData *dependencyData, size_t numDependencies,
         CUstreamCaptureMode mode))
PENDING(cuStreamBeginCaptureToGraph_ptsz,
        (CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
         const CUgraphEdgeData *dependencyData, size_t numDependencies,
         CUstreamCaptureMode mode))
PENDING(cuStreamBeginCapture_ptsz, (CUstream hStream))
PENDING(cuStreamBeginCapture_v2, (CUstream hStream, CUstreamCaptureMode mode))
PENDING(cuStreamBeginCapture_v2_ptsz,
        (CUstream hStream, CUstreamCaptureMode mode))
PENDING(cuStreamEndCapture, (CUstream hStream, CUgraph *phGraph))
PENDING(cuStreamEndCapture_ptsz, (CUstream hStream, CUgraph *phGraph))
PENDING(cuStreamGetCaptureInfo,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
         cuuint64_t *id_out))
PENDING(cuStreamGetCaptureInfo_ptsz,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
         cuuint64_t *id_out))
PENDING(cuStreamGetCaptureInfo_v2,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
         cuuint64_t *id_out, CUgraph *graph_out,
         const CUgraphNode **dependencies_out, size_t *numDependencies_out))
PENDING(cuStreamGetCaptureInfo_v2_ptsz,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
         cuuint64_t *id_out, CUgraph *graph_out,
         const CUgraphNode **dependencies_out, size_t *numDependencies_out))
PENDING(cuStreamGetCaptureInfo_v3,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
         cuuint64_t *id_out, CUgraph *graph_out,
         const CUgraphNode **dependencies_out,
         const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out))
PENDING(cuStreamGetCaptureInfo_v3_ptsz,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
         cuuint64_t *id_out, CUgraph *graph_out,
         const CUgraphNode **dependencies_out,
         const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out))
PENDING(cuStreamIsCapturing,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus))
PENDING(cuStreamIsCapturing_ptsz,
        (CUstream hStream, CUstreamCaptureStatus *captureStatus))
PENDING(cuStreamUpdateCaptureDependencies,
        (CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
         unsigned int flags))
PENDING(cuStreamUpdateCaptureDependencies_ptsz,
        (CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
         unsigned int flags))
PENDING(cuStreamUpdateCaptureDependencies_v2,
        (CUstream hStream, CUgraphNode *dependencies,
         const CUgraphEdgeData *dependencyData, size_t numDependencies,
         unsigned int flags))
PENDING(cuStreamUpdateCaptureDependencies_v2_ptsz,
        (CUstream hStream, CUgraphNode *dependencies,
         const CUgraphEdgeData *dependencyData, size_t numDependencies,
         unsigned int flags))
PENDING(cuThreadExchangeStreamCaptureMode, (CUstreamCaptureMode * mode))
PENDING(cuUserObjectCreate,
        (CUuserObject * object_out, void *ptr, CUhostFn destroy,
         unsigned int initialRefcount, unsigned int flags))
PENDING(cuUserObjectRelease, (CUuserObject object, unsigned int count))
PENDING(cuUserObjectRetain, (CUuserObject object, unsigned int count))
