// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graph memory nodes, as cuda.h documents them (cuGraphAddMemAllocNode,
// cuGraphAddMemFreeNode, their getters, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_
// FREE_ON_LAUNCH, cuDeviceGraphMemTrim and the CU_GRAPH_MEM_ATTR_*
// attributes): the address is returned when the node is added and is
// fixed; the memory is allocated when the node runs and freed by a free
// node, cuMemFreeAsync or cuMemFree, or the next launch of an auto-freeing
// executable graph; a launch whose allocation is still unfreed fails; the
// restrictions on graphs with memory nodes. Data is checked with copies.
// The CudaGraphMem cases run unchanged on a real libcuda.so.1;
// CudaGraphMemEmulated checks the emulation's exact codes and accounts.

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cuda_host_gate.h"
#include "cuda_test_fixture.h"

namespace {

class CudaGraphMem : public CudaCtxTest {
  protected:
#define GMEM_CALLS(X)                                                          \
    X(cuGraphCreate)                                                           \
    X(cuGraphDestroy)                                                          \
    X(cuGraphAddMemAllocNode)                                                  \
    X(cuGraphAddMemFreeNode)                                                   \
    X(cuGraphMemAllocNodeGetParams)                                            \
    X(cuGraphMemFreeNodeGetParams)                                             \
    X(cuGraphAddMemsetNode)                                                    \
    X(cuGraphAddMemcpyNode)                                                    \
    X(cuGraphAddEmptyNode)                                                     \
    X(cuGraphAddChildGraphNode)                                                \
    X(cuGraphAddNode_v2)                                                       \
    X(cuGraphChildGraphNodeGetGraph)                                           \
    X(cuGraphNodeGetType)                                                      \
    X(cuGraphDestroyNode)                                                      \
    X(cuGraphRemoveDependencies_v2)                                            \
    X(cuGraphClone)                                                            \
    X(cuGraphInstantiateWithFlags)                                             \
    X(cuGraphLaunch)                                                           \
    X(cuGraphExecDestroy)                                                      \
    X(cuDeviceGraphMemTrim)                                                    \
    X(cuDeviceGetGraphMemAttribute)                                            \
    X(cuDeviceSetGraphMemAttribute)                                            \
    X(cuStreamBeginCapture_v2)                                                 \
    X(cuStreamEndCapture)                                                      \
    X(cuGraphGetNodes)                                                         \
    X(cuGraphMemsetNodeSetParams)                                              \
    X(cuGraphExecUpdate_v2)                                                    \
    X(cuGraphDebugDotPrint)                                                    \
    X(cuLaunchHostFunc)
    GMEM_CALLS(CUDA_TEST_SYMBOL_MEMBER)

    CUstream stream = nullptr;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        GMEM_CALLS(CUDA_TEST_SYMBOL_RESOLVE)
        CU_ASSERT_OK(cu->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    }

    void TearDown() override {
        if (stream != nullptr) {
            EXPECT_EQ(cu->cuStreamDestroy_v2(stream), CUDA_SUCCESS);
        }
        CudaCtxTest::TearDown();
    }

    // Device memory of `dev` for `n` bytes, as cuda.h's parameters say.
    CUDA_MEM_ALLOC_NODE_PARAMS AllocParams(size_t n) const {
        CUDA_MEM_ALLOC_NODE_PARAMS p = {};
        p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
        p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        p.poolProps.location.id = dev;
        p.bytesize = n;
        return p;
    }

    static CUDA_MEMSET_NODE_PARAMS Memset(CUdeviceptr dst, unsigned value,
                                          size_t n) {
        CUDA_MEMSET_NODE_PARAMS m = {};
        m.dst = dst;
        m.value = value;
        m.elementSize = 1;
        m.width = n;
        m.height = 1;
        return m;
    }

    static CUDA_MEMCPY3D DtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
        CUDA_MEMCPY3D c = {};
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = dst;
        c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        c.srcDevice = src;
        c.WidthInBytes = n;
        c.Height = 1;
        c.Depth = 1;
        return c;
    }

    // Whether all `n` bytes at device address `p` are `value` (read with a
    // copy on the stream, after the work before it).
    bool Holds(CUdeviceptr p, unsigned char value, size_t n) {
        std::vector<unsigned char> v(n, static_cast<unsigned char>(~value));
        EXPECT_EQ(cu->cuMemcpyDtoHAsync_v2(v.data(), p, n, stream),
                  CUDA_SUCCESS);
        EXPECT_EQ(cu->cuStreamSynchronize(stream), CUDA_SUCCESS);
        for (size_t i = 0; i < n; i++) {
            if (v[i] != value) {
                ADD_FAILURE() << "byte " << i << " is " << int(v[i]);
                return false;
            }
        }
        return true;
    }

    cuuint64_t Attr(CUgraphMem_attribute a) {
        cuuint64_t v = ~cuuint64_t{0};
        EXPECT_EQ(cuDeviceGetGraphMemAttribute(dev, a, &v), CUDA_SUCCESS);
        return v;
    }

    // A graph with an allocation node of `n` bytes followed by a memset to
    // `value`; the address to *dptr, the memset node to *set.
    CUgraph AllocAndSet(size_t n, unsigned value, CUdeviceptr *dptr,
                        CUgraphNode *set) {
        CUgraph g = nullptr;
        EXPECT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
        CUgraphNode alloc;
        CUDA_MEM_ALLOC_NODE_PARAMS p = AllocParams(n);
        EXPECT_EQ(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &p),
                  CUDA_SUCCESS);
        *dptr = p.dptr;
        CUDA_MEMSET_NODE_PARAMS m = Memset(p.dptr, value, n);
        EXPECT_EQ(cuGraphAddMemsetNode(set, g, &alloc, 1, &m, ctx),
                  CUDA_SUCCESS);
        return g;
    }
};

const size_t kSize = 64 * 1024;

TEST_F(CudaGraphMem, AllocSetCopyFreeInOneGraph) {
    CUdeviceptr out;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&out, kSize));
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode alloc, set, copy, release;
    CUDA_MEM_ALLOC_NODE_PARAMS p = AllocParams(kSize);
    CU_ASSERT_OK(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &p));
    ASSERT_NE(p.dptr, 0u) << "the address is returned when the node is added";
    CUDA_MEMSET_NODE_PARAMS m = Memset(p.dptr, 0x5a, kSize);
    CU_ASSERT_OK(cuGraphAddMemsetNode(&set, g, &alloc, 1, &m, ctx));
    CUDA_MEMCPY3D c = DtoD(out, p.dptr, kSize);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx));
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, g, &copy, 1, p.dptr));

    CUgraphNodeType type;
    CU_ASSERT_OK(cuGraphNodeGetType(alloc, &type));
    EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    CU_ASSERT_OK(cuGraphNodeGetType(release, &type));
    EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEM_FREE);
    CUDA_MEM_ALLOC_NODE_PARAMS got = {};
    CU_ASSERT_OK(cuGraphMemAllocNodeGetParams(alloc, &got));
    EXPECT_EQ(got.dptr, p.dptr);
    EXPECT_EQ(got.bytesize, kSize);
    EXPECT_EQ(got.poolProps.location.type, CU_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(got.poolProps.location.id, dev);
    EXPECT_EQ(got.accessDescCount, 0u);
    CUdeviceptr freed = 0;
    CU_ASSERT_OK(cuGraphMemFreeNodeGetParams(release, &freed));
    EXPECT_EQ(freed, p.dptr);
    EXPECT_EQ(cuGraphMemAllocNodeGetParams(set, &got), CUDA_ERROR_INVALID_VALUE)
        << "not an allocation node";
    EXPECT_EQ(cuGraphMemFreeNodeGetParams(alloc, &freed),
              CUDA_ERROR_INVALID_VALUE)
        << "not a free node";
    EXPECT_EQ(cuGraphMemAllocNodeGetParams(alloc, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphMemFreeNodeGetParams(release, nullptr),
              CUDA_ERROR_INVALID_VALUE);

    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    // Freed in the graph: every launch allocates and frees again.
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_OK(cu->cuMemsetD8Async(out, 0, kSize, stream));
        CU_ASSERT_OK(cuGraphLaunch(e, stream)) << "launch " << i;
        EXPECT_TRUE(Holds(out, 0x5a, kSize));
    }
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(out));
}

TEST_F(CudaGraphMem, UnfreedMemoryOutlivesTheLaunchUntilFreed) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 0x21, &dptr, &set);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    // "it can be accessed ... by stream operations ordered after the
    // graph's execution but before the allocation is freed"
    EXPECT_TRUE(Holds(dptr, 0x21, kSize));
    CU_EXPECT_OK(cu->cuMemsetD8Async(dptr, 0x33, kSize, stream));
    EXPECT_TRUE(Holds(dptr, 0x33, kSize));
    // "If any allocations created by hGraphExec remain unfreed (from a
    // previous launch) ... the launch will fail with
    // CUDA_ERROR_INVALID_VALUE."
    EXPECT_EQ(cuGraphLaunch(e, stream), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    EXPECT_TRUE(Holds(dptr, 0x21, kSize)) << "the same address again";
    // cuMemFree frees it too.
    CU_ASSERT_OK(cu->cuMemFree_v2(dptr));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    // Graph destruction does not free it: still usable, then freed.
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    EXPECT_TRUE(Holds(dptr, 0x21, kSize));
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
}

TEST_F(CudaGraphMem, AutoFreeOnLaunchFreesBeforeEachRelaunch) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 0x44, &dptr, &set);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(
        &e, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_OK(cuGraphLaunch(e, stream)) << "launch " << i;
        EXPECT_TRUE(Holds(dptr, 0x44, kSize));
    }
    // The last launch's allocation is the program's to free.
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    // "This flag cannot be used in conjunction with
    // CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH."
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode empty;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&empty, g, nullptr, 0));
    EXPECT_NE(cuGraphInstantiateWithFlags(
                  &e, g,
                  CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                      CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH),
              CUDA_SUCCESS);
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMem, FreedByAnotherGraph) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph owner = AllocAndSet(kSize, 0x66, &dptr, &set);
    CUgraph other;
    CU_ASSERT_OK(cuGraphCreate(&other, 0));
    CUgraphNode release;
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, other, nullptr, 0, dptr));
    // "If the allocation is freed in another graph, a free node can no
    // longer be added to the owning graph."
    CUgraphNode again;
    EXPECT_EQ(cuGraphAddMemFreeNode(&again, owner, &set, 1, dptr),
              CUDA_ERROR_INVALID_VALUE);
    CUgraphExec eo, ef;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&eo, owner, 0));
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&ef, other, 0));
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_OK(cuGraphLaunch(eo, stream));
        EXPECT_TRUE(Holds(dptr, 0x66, kSize));
        CU_ASSERT_OK(cuGraphLaunch(ef, stream)) << "frees it";
    }
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(ef));
    CU_EXPECT_OK(cuGraphExecDestroy(eo));
    CU_EXPECT_OK(cuGraphDestroy(other));
    CU_EXPECT_OK(cuGraphDestroy(owner));
}

TEST_F(CudaGraphMem, FreeNodeRules) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 1, &dptr, &set);
    CUgraphNode node;
    // "an address that was not returned by an allocation node", "an
    // invalid address"
    CUdeviceptr plain;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&plain, 4096));
    EXPECT_EQ(cuGraphAddMemFreeNode(&node, g, &set, 1, plain),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphAddMemFreeNode(&node, g, &set, 1, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphAddMemFreeNode(&node, g, &set, 1, dptr + 16),
              CUDA_ERROR_INVALID_VALUE);
    // "an allocation twice in the same graph"
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&node, g, &set, 1, dptr));
    CUgraphNode twice;
    EXPECT_EQ(cuGraphAddMemFreeNode(&twice, g, &node, 1, dptr),
              CUDA_ERROR_INVALID_VALUE);
    // "If the allocation is freed in the same graph, a free node cannot be
    // added to another graph."
    CUgraph other;
    CU_ASSERT_OK(cuGraphCreate(&other, 0));
    EXPECT_EQ(cuGraphAddMemFreeNode(&twice, other, nullptr, 0, dptr),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cuGraphDestroy(other));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(plain));
}

TEST_F(CudaGraphMem, GraphsWithMemoryNodesAreRestricted) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 2, &dptr, &set);
    CUgraphNode release;
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, g, &set, 1, dptr));
    CUgraphNode nodes[2] = {nullptr, nullptr};
    // "Nodes and edges of the graph cannot be deleted."
    EXPECT_NE(cuGraphDestroyNode(set), CUDA_SUCCESS);
    CUgraphNode from = set, to = release;
    EXPECT_NE(cuGraphRemoveDependencies_v2(g, &from, &to, nullptr, 1),
              CUDA_SUCCESS);
    // "The graph cannot be cloned."
    CUgraph clone = nullptr;
    EXPECT_NE(cuGraphClone(&clone, g), CUDA_SUCCESS);
    // "The graph can only be used in a child node if the ownership is moved
    // to the parent."
    CUgraph parent;
    CU_ASSERT_OK(cuGraphCreate(&parent, 0));
    EXPECT_NE(cuGraphAddChildGraphNode(&nodes[0], parent, nullptr, 0, g),
              CUDA_SUCCESS);
    // "Only one instantiation of the graph may exist at any point in time."
    CUgraphExec e, second = nullptr;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    EXPECT_NE(cuGraphInstantiateWithFlags(&second, g, 0), CUDA_SUCCESS);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0))
        << "again once the first is destroyed";
    CU_EXPECT_OK(cuGraphExecDestroy(e));

    // Moved into a parent, it runs there.
    CUgraphNodeParams child = {};
    child.type = CU_GRAPH_NODE_TYPE_GRAPH;
    child.graph.graph = g;
    child.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
    CU_ASSERT_OK(
        cuGraphAddNode_v2(&nodes[0], parent, nullptr, nullptr, 0, &child));
    // "Allocation and free nodes cannot be added to the returned graph."
    CUgraph embedded;
    CU_ASSERT_OK(cuGraphChildGraphNodeGetGraph(nodes[0], &embedded));
    CUDA_MEM_ALLOC_NODE_PARAMS p = AllocParams(4096);
    EXPECT_NE(cuGraphAddMemAllocNode(&nodes[1], embedded, nullptr, 0, &p),
              CUDA_SUCCESS);
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, parent, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cuGraphLaunch(e, stream)) << "freed inside";
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(parent));
}

TEST_F(CudaGraphMem, GenericAddNodeReturnsTheAddress) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNodeParams np = {};
    np.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    CUDA_MEM_ALLOC_NODE_PARAMS a = AllocParams(kSize);
    np.alloc.poolProps = a.poolProps;
    np.alloc.bytesize = kSize;
    CUgraphNode alloc, release;
    CU_ASSERT_OK(cuGraphAddNode_v2(&alloc, g, nullptr, nullptr, 0, &np));
    ASSERT_NE(np.alloc.dptr, 0u);
    CUgraphNodeParams fp = {};
    fp.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
    fp.free.dptr = np.alloc.dptr;
    CU_ASSERT_OK(cuGraphAddNode_v2(&release, g, &alloc, nullptr, 1, &fp));
    CUdeviceptr freed = 0;
    CU_ASSERT_OK(cuGraphMemFreeNodeGetParams(release, &freed));
    EXPECT_EQ(freed, np.alloc.dptr);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMem, BadParametersAreRefused) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode node;
    CUDA_MEM_ALLOC_NODE_PARAMS p = AllocParams(kSize);
    EXPECT_EQ(cuGraphAddMemAllocNode(&node, g, nullptr, 0, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphAddMemAllocNode(nullptr, g, nullptr, 0, &p),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphAddMemAllocNode(&node, nullptr, nullptr, 0, &p),
              CUDA_ERROR_INVALID_VALUE);
    p.bytesize = 0;
    EXPECT_NE(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p), CUDA_SUCCESS);
    p = AllocParams(kSize);
    p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
    EXPECT_NE(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p), CUDA_SUCCESS);
    p = AllocParams(kSize);
    p.poolProps.location.id = 1 << 20;
    EXPECT_NE(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p), CUDA_SUCCESS);
    // "handleTypes must be CU_MEM_HANDLE_TYPE_NONE. IPC is not supported."
    p = AllocParams(kSize);
    p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    EXPECT_NE(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p), CUDA_SUCCESS);
    // accessDescCount: "Must not exceed the number of GPUs."
    int count = 0;
    CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
    std::vector<CUmemAccessDesc> access(static_cast<size_t>(count) + 1);
    for (auto &d : access) {
        d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        d.location.id = dev;
        d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    p = AllocParams(kSize);
    p.accessDescs = access.data();
    p.accessDescCount = access.size();
    EXPECT_NE(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p), CUDA_SUCCESS);
    // One descriptor, the owner's read-write access: accepted and kept.
    p.accessDescCount = 1;
    CU_ASSERT_OK(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p));
    access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_NONE; // the node has its own
    CUDA_MEM_ALLOC_NODE_PARAMS got = {};
    CU_ASSERT_OK(cuGraphMemAllocNodeGetParams(node, &got));
    ASSERT_EQ(got.accessDescCount, 1u);
    ASSERT_NE(got.accessDescs, nullptr);
    EXPECT_NE(got.accessDescs, access.data());
    EXPECT_EQ(got.accessDescs[0].flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    EXPECT_EQ(got.accessDescs[0].location.id, dev);
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMem, AttributesFollowTheAllocations) {
    CU_ASSERT_OK(cuDeviceGraphMemTrim(dev));
    cuuint64_t zero = 0;
    CU_ASSERT_OK(cuDeviceSetGraphMemAttribute(
        dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
    CU_ASSERT_OK(cuDeviceSetGraphMemAttribute(
        dev, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &zero));
    cuuint64_t used0 = Attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT);
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 3, &dptr, &set);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    EXPECT_GE(Attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), used0 + kSize);
    EXPECT_GE(Attr(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH), used0 + kSize);
    EXPECT_GE(Attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT), kSize);
    EXPECT_GE(Attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH), kSize);
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    EXPECT_EQ(Attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), used0);
    EXPECT_GE(Attr(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH), used0 + kSize)
        << "the high watermark stays until reset";
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_ASSERT_OK(cuDeviceGraphMemTrim(dev));
    EXPECT_EQ(Attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), used0);
    // "High watermark can only be reset to zero"; the current amounts are
    // read-only.
    cuuint64_t one = 1;
    EXPECT_NE(cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,
                                           &one),
              CUDA_SUCCESS);
    EXPECT_NE(cuDeviceSetGraphMemAttribute(
                  dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &zero),
              CUDA_SUCCESS);
    EXPECT_EQ(cuDeviceGraphMemTrim(-1), CUDA_ERROR_INVALID_DEVICE);
    cuuint64_t v;
    EXPECT_EQ(cuDeviceGetGraphMemAttribute(
                  1 << 20, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v),
              CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaGraphMem, QueuedLaunchesOutliveTheirExecutableGraph) {
    // The stream is held by a host function, so the launches and the free
    // are queued; the executable graph and its graph go before they run.
    CUdeviceptr out;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&out, kSize));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(out, 0, kSize));
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 0x3c, &dptr, &set);
    CUgraphNode copy;
    CUDA_MEMCPY3D c = DtoD(out, dptr, kSize);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx));
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(
        &e, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
    CudaHostGate gate;
    CU_ASSERT_OK(cuLaunchHostFunc(stream, CudaHostGate::Fn, &gate));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    // Read while the queued work is held.
    (void)Attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT);
    gate.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    std::vector<unsigned char> v(kSize);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(v.data(), out, kSize));
    EXPECT_EQ(v[0], 0x3c);
    EXPECT_EQ(v[kSize - 1], 0x3c);
    CU_EXPECT_OK(cu->cuMemFree_v2(out));
}

TEST_F(CudaGraphMem, GraphsOfSeveralThreads) {
    // Each thread its own graph, stream and buffer; the accounts and the
    // driver's graph memory are shared.
    const int threads = 4, launches = 20;
    std::vector<std::thread> pool;
    std::vector<int> ok(threads, 0);
    for (int t = 0; t < threads; t++) {
        pool.emplace_back([&, t] {
            if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
                return;
            }
            CUstream s;
            if (cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) !=
                CUDA_SUCCESS) {
                return;
            }
            CUdeviceptr dptr, out;
            CUgraphNode set;
            CUgraph g = AllocAndSet(4096, 0x10 + t, &dptr, &set);
            bool good = cu->cuMemAlloc_v2(&out, 4096) == CUDA_SUCCESS;
            CUgraphNode copy, release;
            CUDA_MEMCPY3D c = DtoD(out, dptr, 4096);
            good = good &&
                   cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx) ==
                       CUDA_SUCCESS &&
                   cuGraphAddMemFreeNode(&release, g, &copy, 1, dptr) ==
                       CUDA_SUCCESS;
            CUgraphExec e = nullptr;
            good =
                good && cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_SUCCESS;
            for (int i = 0; good && i < launches; i++) {
                good = cuGraphLaunch(e, s) == CUDA_SUCCESS;
                cuuint64_t v;
                good = good && cuDeviceGetGraphMemAttribute(
                                   dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
                                   &v) == CUDA_SUCCESS;
            }
            good = good && cu->cuStreamSynchronize(s) == CUDA_SUCCESS;
            unsigned char b = 0;
            good = good &&
                   cu->cuMemcpyDtoH_v2(&b, out + 4095, 1) == CUDA_SUCCESS &&
                   b == 0x10 + t;
            if (e != nullptr) {
                good = cuGraphExecDestroy(e) == CUDA_SUCCESS && good;
            }
            good = cuGraphDestroy(g) == CUDA_SUCCESS && good;
            good = cu->cuMemFree_v2(out) == CUDA_SUCCESS && good;
            good = cu->cuStreamDestroy_v2(s) == CUDA_SUCCESS && good;
            ok[t] = good ? 1 : 0;
        });
    }
    for (auto &th : pool) {
        th.join();
    }
    for (int t = 0; t < threads; t++) {
        EXPECT_EQ(ok[t], 1) << "thread " << t;
    }
}

TEST_F(CudaGraphMem, CapturedStreamOrderedAllocationsAreMemoryNodes) {
    // cuMemAllocAsync: "During stream capture, this function results in the
    // creation of an allocation node"; cuMemFreeAsync: "results in the
    // creation of a free node".
    CUdeviceptr out;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&out, kSize));
    CU_ASSERT_OK(
        cuStreamBeginCapture_v2(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr p = 0, kept = 0;
    CU_ASSERT_OK(cu->cuMemAllocAsync(&p, kSize, stream));
    ASSERT_NE(p, 0u);
    CU_ASSERT_OK(cu->cuMemsetD8Async(p, 0x2d, kSize, stream));
    CU_ASSERT_OK(cu->cuMemcpyDtoDAsync_v2(out, p, kSize, stream));
    CU_ASSERT_OK(cu->cuMemFreeAsync(p, stream));
    CUmemoryPool pool;
    CU_ASSERT_OK(cu->cuDeviceGetDefaultMemPool(&pool, dev));
    CU_ASSERT_OK(cu->cuMemAllocFromPoolAsync(&kept, 4096, pool, stream));
    CUgraph g = nullptr;
    CU_ASSERT_OK(cuStreamEndCapture(stream, &g));
    ASSERT_NE(g, nullptr);
    size_t n = 0;
    CU_ASSERT_OK(cuGraphGetNodes(g, nullptr, &n));
    ASSERT_EQ(n, 5u);
    std::vector<CUgraphNode> nodes(n);
    CU_ASSERT_OK(cuGraphGetNodes(g, nodes.data(), &n));
    const CUgraphNodeType want[] = {
        CU_GRAPH_NODE_TYPE_MEM_ALLOC, CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_MEMCPY, CU_GRAPH_NODE_TYPE_MEM_FREE,
        CU_GRAPH_NODE_TYPE_MEM_ALLOC};
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t;
        CU_ASSERT_OK(cuGraphNodeGetType(nodes[i], &t));
        EXPECT_EQ(t, want[i]) << "node " << i;
    }
    CUDA_MEM_ALLOC_NODE_PARAMS got = {};
    CU_ASSERT_OK(cuGraphMemAllocNodeGetParams(nodes[0], &got));
    EXPECT_EQ(got.dptr, p);
    EXPECT_EQ(got.bytesize, kSize);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    EXPECT_TRUE(Holds(out, 0x2d, kSize));
    // `kept` is not freed in the graph: the program frees it.
    EXPECT_EQ(cuGraphLaunch(e, stream), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuMemFreeAsync(kept, stream));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuMemFreeAsync(kept, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(out));
}

// ---------------------------------------------------------------------------
// The emulation's exact codes and accounts

using CudaGraphMemEmulated = CudaEmulatedOnly<CudaGraphMem>;

TEST_F(CudaGraphMemEmulated, ExactCodesOfBadParameters) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode node;
    CUDA_MEM_ALLOC_NODE_PARAMS p = AllocParams(0);
    EXPECT_EQ(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p),
              CUDA_ERROR_INVALID_VALUE);
    p = AllocParams(kSize);
    p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    EXPECT_EQ(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p),
              CUDA_ERROR_INVALID_VALUE);
    p = AllocParams(kSize);
    p.poolProps.location.type = CU_MEM_LOCATION_TYPE_HOST;
    EXPECT_EQ(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p),
              CUDA_ERROR_NOT_SUPPORTED);
    CUmemAccessDesc d = {};
    d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = dev;
    d.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    p = AllocParams(kSize);
    p.accessDescs = &d;
    p.accessDescCount = 1;
    EXPECT_EQ(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p),
              CUDA_ERROR_INVALID_VALUE)
        << "the owner keeps read-write access";
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph node"), 0);
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocations_before)
        << "nothing reserved by a refused node";
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMemEmulated, TheAddressIsReservedForTheNodesLife) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    cuuint64_t reserved0 = Attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT);
    CUgraphNode node;
    CUDA_MEM_ALLOC_NODE_PARAMS p = AllocParams(kSize);
    CU_ASSERT_OK(cuGraphAddMemAllocNode(&node, g, nullptr, 0, &p));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocations_before + 1);
    EXPECT_EQ(Attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT), reserved0 + kSize);
    // Not allocated before a launch: not freeable, not counted as used.
    EXPECT_EQ(cu->cuMemFreeAsync(p.dptr, stream), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemFree_v2(p.dptr), CUDA_ERROR_INVALID_VALUE);
    // Graph memory cannot be exported.
    CUipcMemHandle h;
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    EXPECT_EQ(cu->cuIpcGetMemHandle(&h, p.dptr), CUDA_ERROR_INVALID_VALUE);
    // Like stream-ordered memory, it belongs to no context.
    // (cuPointerGetAttributes zeroes what has no value.)
    CUcontext owner = ctx;
    CUpointer_attribute which = CU_POINTER_ATTRIBUTE_CONTEXT;
    void *where = &owner;
    EXPECT_EQ(cu->cuPointerGetAttributes(1, &which, &where, p.dptr),
              CUDA_SUCCESS);
    EXPECT_EQ(owner, nullptr);
    int ordinal = -1;
    EXPECT_EQ(cu->cuPointerGetAttribute(
                  &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p.dptr),
              CUDA_SUCCESS);
    EXPECT_EQ(ordinal, dev);
    EXPECT_EQ(cu->cuMemFreeAsync(p.dptr + 64, stream), CUDA_ERROR_INVALID_VALUE)
        << "inside the allocation";
    CU_ASSERT_OK(cu->cuMemFree_v2(p.dptr));
    EXPECT_EQ(cu->cuMemFree_v2(p.dptr), CUDA_ERROR_INVALID_VALUE)
        << "freed already";
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuDeviceGraphMemTrim(dev));
    EXPECT_EQ(Attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT), reserved0 + kSize)
        << "the node still holds its address";
    CU_EXPECT_OK(cuGraphDestroy(g));
    EXPECT_EQ(Attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT), reserved0);
}

TEST_F(CudaGraphMemEmulated, MemoryFreedInItsGraphCannotBeFreedOutside) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 9, &dptr, &set);
    CUgraphNode release;
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, g, &set, 1, dptr));
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    EXPECT_EQ(cu->cuMemFreeAsync(dptr, stream), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphDestroyNode(set), CUDA_ERROR_INVALID_VALUE);
    CUgraph clone;
    EXPECT_EQ(cuGraphClone(&clone, g), CUDA_ERROR_INVALID_VALUE);
    CUgraphExec second;
    EXPECT_EQ(cuGraphInstantiateWithFlags(&second, g, 0),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMemEmulated, AForeignFreeOfUnallocatedMemoryIsRefused) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph owner = AllocAndSet(kSize, 5, &dptr, &set);
    CUgraph other;
    CU_ASSERT_OK(cuGraphCreate(&other, 0));
    CUgraphNode release;
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, other, nullptr, 0, dptr));
    CUgraphExec ef;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&ef, other, 0));
    EXPECT_EQ(cuGraphLaunch(ef, stream), CUDA_ERROR_INVALID_VALUE)
        << "its graph was never launched";
    CU_EXPECT_OK(cuGraphExecDestroy(ef));
    // The free node's graph may go first: the owner frees it no more.
    CU_EXPECT_OK(cuGraphDestroy(other));
    CU_EXPECT_OK(cuGraphDestroy(owner));
}

TEST_F(CudaGraphMemEmulated, LaunchIntoACaptureIsRefused) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 5, &dptr, &set);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_ASSERT_OK(
        cuStreamBeginCapture_v2(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
    EXPECT_EQ(cuGraphLaunch(e, stream), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUgraph captured = nullptr;
    EXPECT_EQ(cuStreamEndCapture(stream, &captured),
              CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    if (captured != nullptr) {
        CU_EXPECT_OK(cuGraphDestroy(captured));
    }
    // Nothing was allocated: it launches.
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMemEmulated, AnExecutableGraphOutlivingItsGraphKeepsTheMemory) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 0x77, &dptr, &set);
    CUgraphNode release;
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, g, &set, 1, dptr));
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(&e, g, 0));
    CU_EXPECT_OK(cuGraphDestroy(g));
    EXPECT_EQ(cu->umfCudaMockGetLiveCount(UMF_GPU_MOCK_LIVE_ALLOCATIONS),
              allocations_before + 1);
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
}

TEST_F(CudaGraphMemEmulated, UpdatesKeepTheAllocationNodes) {
    CUdeviceptr dptr;
    CUgraphNode set;
    CUgraph g = AllocAndSet(kSize, 0x11, &dptr, &set);
    CUgraphExec e;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(
        &e, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    EXPECT_TRUE(Holds(dptr, 0x11, kSize));
    // The same graph, a memset's value changed: updated.
    CUDA_MEMSET_NODE_PARAMS m = Memset(dptr, 0x12, kSize);
    CU_ASSERT_OK(cuGraphMemsetNodeSetParams(set, &m));
    CUgraphExecUpdateResultInfo info = {};
    CU_ASSERT_OK(cuGraphExecUpdate_v2(e, g, &info));
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    EXPECT_TRUE(Holds(dptr, 0x12, kSize));
    // Another graph's allocation node is another allocation.
    CUdeviceptr other_ptr;
    CUgraphNode other_set;
    CUgraph other = AllocAndSet(kSize, 0x11, &other_ptr, &other_set);
    EXPECT_EQ(cuGraphExecUpdate_v2(e, other, &info),
              CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED);
    CU_ASSERT_OK(cu->cuMemFreeAsync(dptr, stream));
    CU_ASSERT_OK(cu->cuStreamSynchronize(stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(other));
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraphMemEmulated, DotPrintShowsMemoryNodes) {
    CUdeviceptr dptr;
    CUgraphNode set, release;
    CUgraph g = AllocAndSet(kSize, 1, &dptr, &set);
    CU_ASSERT_OK(cuGraphAddMemFreeNode(&release, g, &set, 1, dptr));
    char path[] = "/tmp/umf-gpu-graph-mem-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    CU_ASSERT_OK(cuGraphDebugDotPrint(
        g, path,
        CU_GRAPH_DEBUG_DOT_FLAGS_MEM_ALLOC_NODE_PARAMS |
            CU_GRAPH_DEBUG_DOT_FLAGS_MEM_FREE_NODE_PARAMS));
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    unlink(path);
    EXPECT_NE(text.str().find("MEM_ALLOC"), std::string::npos);
    EXPECT_NE(text.str().find("MEM_FREE"), std::string::npos);
    EXPECT_NE(text.str().find(std::to_string(kSize) + " bytes"),
              std::string::npos);
    CU_EXPECT_OK(cuGraphDestroy(g));
}

} // namespace
