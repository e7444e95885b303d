// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA graphs without kernels, as cuda.h documents them: memcpy, memset,
// host, child graph, empty, event record and event wait nodes; the graph's
// nodes and edges and their queries; clones; instantiation, launch (in
// stream order, after the previous launch of the same executable graph),
// updates of an executable graph from a graph and node by node, enabling
// nodes; user objects; graph memory attributes. Every launch's data is
// checked with copies. The CudaGraph cases run unchanged on a real
// libcuda.so.1; CudaGraphEmulated checks the emulation's refusals (kernel
// nodes and the other kinds not emulated) and exact codes.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "cuda_host_gate.h"
#include "cuda_test_fixture.h"

namespace {

using namespace std::chrono_literals;

class CudaGraph : public CudaCtxTest {
  protected:
#define GRAPH_CALLS(X)                                                         \
    X(cuGraphCreate)                                                           \
    X(cuGraphDestroy)                                                          \
    X(cuGraphAddMemcpyNode)                                                    \
    X(cuGraphAddMemsetNode)                                                    \
    X(cuGraphAddHostNode)                                                      \
    X(cuGraphAddChildGraphNode)                                                \
    X(cuGraphAddEmptyNode)                                                     \
    X(cuGraphAddEventRecordNode)                                               \
    X(cuGraphAddEventWaitNode)                                                 \
    X(cuGraphAddNode_v2)                                                       \
    X(cuGraphNodeSetParams)                                                    \
    X(cuGraphMemcpyNodeGetParams)                                              \
    X(cuGraphMemcpyNodeSetParams)                                              \
    X(cuGraphMemsetNodeGetParams)                                              \
    X(cuGraphMemsetNodeSetParams)                                              \
    X(cuGraphHostNodeGetParams)                                                \
    X(cuGraphHostNodeSetParams)                                                \
    X(cuGraphChildGraphNodeGetGraph)                                           \
    X(cuGraphEventRecordNodeGetEvent)                                          \
    X(cuGraphEventWaitNodeSetEvent)                                            \
    X(cuGraphClone)                                                            \
    X(cuGraphNodeFindInClone)                                                  \
    X(cuGraphNodeGetType)                                                      \
    X(cuGraphGetNodes)                                                         \
    X(cuGraphGetRootNodes)                                                     \
    X(cuGraphGetEdges_v2)                                                      \
    X(cuGraphNodeGetDependencies_v2)                                           \
    X(cuGraphNodeGetDependentNodes_v2)                                         \
    X(cuGraphAddDependencies_v2)                                               \
    X(cuGraphRemoveDependencies_v2)                                            \
    X(cuGraphDestroyNode)                                                      \
    X(cuGraphInstantiateWithFlags)                                             \
    X(cuGraphInstantiateWithParams)                                            \
    X(cuGraphLaunch)                                                           \
    X(cuGraphUpload)                                                           \
    X(cuGraphExecDestroy)                                                      \
    X(cuGraphExecGetFlags)                                                     \
    X(cuGraphExecUpdate_v2)                                                    \
    X(cuGraphExecMemsetNodeSetParams)                                          \
    X(cuGraphExecMemcpyNodeSetParams)                                          \
    X(cuGraphExecHostNodeSetParams)                                            \
    X(cuGraphExecChildGraphNodeSetParams)                                      \
    X(cuGraphNodeSetEnabled)                                                   \
    X(cuGraphNodeGetEnabled)                                                   \
    X(cuGraphDebugDotPrint)                                                    \
    X(cuUserObjectCreate)                                                      \
    X(cuUserObjectRelease)                                                     \
    X(cuGraphRetainUserObject)                                                 \
    X(cuGraphReleaseUserObject)                                                \
    X(cuDeviceGraphMemTrim)                                                    \
    X(cuDeviceGetGraphMemAttribute)                                            \
    X(cuDeviceSetGraphMemAttribute)                                            \
    X(cuLaunchHostFunc)
    GRAPH_CALLS(CUDA_TEST_SYMBOL_MEMBER)

    CUstream stream = nullptr;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        GRAPH_CALLS(CUDA_TEST_SYMBOL_RESOLVE)
        CU_ASSERT_OK(cu->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    }

    void TearDown() override {
        if (stream != nullptr) {
            EXPECT_EQ(cu->cuStreamDestroy_v2(stream), CUDA_SUCCESS);
        }
        CudaCtxTest::TearDown();
    }

    static CUDA_MEMCPY3D Copy1D(CUmemorytype dst_type, void *dst_host,
                                CUdeviceptr dst, CUmemorytype src_type,
                                const void *src_host, CUdeviceptr src,
                                size_t n) {
        CUDA_MEMCPY3D c = {};
        c.dstMemoryType = dst_type;
        c.dstHost = dst_host;
        c.dstDevice = dst;
        c.srcMemoryType = src_type;
        c.srcHost = src_host;
        c.srcDevice = src;
        c.WidthInBytes = n;
        c.Height = 1;
        c.Depth = 1;
        return c;
    }
    static CUDA_MEMCPY3D DtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
        return Copy1D(CU_MEMORYTYPE_DEVICE, nullptr, dst, CU_MEMORYTYPE_DEVICE,
                      nullptr, src, n);
    }
    static CUDA_MEMCPY3D DtoH(void *dst, CUdeviceptr src, size_t n) {
        return Copy1D(CU_MEMORYTYPE_HOST, dst, 0, CU_MEMORYTYPE_DEVICE, nullptr,
                      src, n);
    }
    static CUDA_MEMCPY3D HtoD(CUdeviceptr dst, const void *src, size_t n) {
        return Copy1D(CU_MEMORYTYPE_DEVICE, nullptr, dst, CU_MEMORYTYPE_HOST,
                      src, 0, n);
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

    std::vector<unsigned char> Read(CUdeviceptr p, size_t n) {
        std::vector<unsigned char> v(n);
        EXPECT_EQ(cu->cuMemcpyDtoH_v2(v.data(), p, n), CUDA_SUCCESS);
        return v;
    }

    CUgraphExec Instantiate(CUgraph g) {
        CUgraphExec e = nullptr;
        EXPECT_EQ(cuGraphInstantiateWithFlags(&e, g, 0), CUDA_SUCCESS);
        return e;
    }

    void Run(CUgraphExec e) {
        ASSERT_EQ(cuGraphLaunch(e, stream), CUDA_SUCCESS);
        ASSERT_EQ(cu->cuStreamSynchronize(stream), CUDA_SUCCESS);
    }

    size_t Count(CUgraph g) {
        size_t n = 0;
        EXPECT_EQ(cuGraphGetNodes(g, nullptr, &n), CUDA_SUCCESS);
        return n;
    }
};

using Gate = CudaHostGate;

TEST_F(CudaGraph, MemsetThenCopiesRunInOrder) {
    const size_t n = 4096;
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    void *pinned;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&pinned, n));
    std::memset(pinned, 0, n);
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode set, copy, down;
    CUDA_MEMSET_NODE_PARAMS m = Memset(a, 0x42, n);
    CU_ASSERT_OK(cuGraphAddMemsetNode(&set, g, nullptr, 0, &m, ctx));
    CUDA_MEMCPY3D c = DtoD(b, a, n);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx));
    CUDA_MEMCPY3D d = DtoH(pinned, b, n);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&down, g, &copy, 1, &d, ctx));
    // Nothing ran before a launch.
    EXPECT_EQ(static_cast<unsigned char *>(pinned)[0], 0);
    CUgraphExec e = Instantiate(g);
    ASSERT_NE(e, nullptr);
    Run(e);
    EXPECT_EQ(
        std::vector<unsigned char>(static_cast<unsigned char *>(pinned),
                                   static_cast<unsigned char *>(pinned) + n),
        std::vector<unsigned char>(n, 0x42));
    // Again, on another value set in the graph after instantiation: the
    // executable graph keeps what it was made with.
    m.value = 0x17;
    CU_ASSERT_OK(cuGraphMemsetNodeSetParams(set, &m));
    std::memset(pinned, 0, n);
    Run(e);
    EXPECT_EQ(static_cast<unsigned char *>(pinned)[n - 1], 0x42);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    // A new instantiation takes the new value.
    e = Instantiate(g);
    Run(e);
    EXPECT_EQ(static_cast<unsigned char *>(pinned)[n - 1], 0x17);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaGraph, HostAndChildAndEmptyNodes) {
    const size_t n = 256;
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    void *in, *out;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&in, n));
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&out, n));
    struct Flip {
        unsigned char *in, *out;
        size_t n;
        static void CUDA_CB Fn(void *p) {
            Flip *f = static_cast<Flip *>(p);
            for (size_t i = 0; i < f->n; i++) {
                f->out[i] = static_cast<unsigned char>(~f->in[i]);
            }
        }
    } flip{static_cast<unsigned char *>(in), static_cast<unsigned char *>(out),
           n};
    // child: a := 0x0f; parent: child, then a -> in, host flips in -> out,
    // out -> b; an empty node joins a second memset of b's last byte... no:
    // the empty node joins the child and a memset of nothing else.
    CUgraph child;
    CU_ASSERT_OK(cuGraphCreate(&child, 0));
    CUgraphNode cm;
    CUDA_MEMSET_NODE_PARAMS m = Memset(a, 0x0f, n);
    CU_ASSERT_OK(cuGraphAddMemsetNode(&cm, child, nullptr, 0, &m, ctx));
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode kid, empty, down, host, up;
    CU_ASSERT_OK(cuGraphAddChildGraphNode(&kid, g, nullptr, 0, child));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&empty, g, &kid, 1));
    CUDA_MEMCPY3D d = DtoH(in, a, n);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&down, g, &empty, 1, &d, ctx));
    CUDA_HOST_NODE_PARAMS hp = {Flip::Fn, &flip};
    CU_ASSERT_OK(cuGraphAddHostNode(&host, g, &down, 1, &hp));
    CUDA_MEMCPY3D u = HtoD(b, out, n);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&up, g, &host, 1, &u, ctx));
    // The child was cloned: changing it changes nothing in g.
    m.value = 0x99;
    CU_ASSERT_OK(cuGraphMemsetNodeSetParams(cm, &m));
    CU_EXPECT_OK(cuGraphDestroy(child));
    CUgraph embedded;
    CU_ASSERT_OK(cuGraphChildGraphNodeGetGraph(kid, &embedded));
    EXPECT_EQ(Count(embedded), 1u);
    CUgraphExec e = Instantiate(g);
    ASSERT_NE(e, nullptr);
    Run(e);
    EXPECT_EQ(Read(b, n), std::vector<unsigned char>(n, 0xf0));
    CUDA_HOST_NODE_PARAMS back = {};
    CU_ASSERT_OK(cuGraphHostNodeGetParams(host, &back));
    EXPECT_EQ(back.fn, hp.fn);
    EXPECT_EQ(back.userData, hp.userData);
    CUgraphNodeType type;
    CU_ASSERT_OK(cuGraphNodeGetType(kid, &type));
    EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_GRAPH);
    CU_ASSERT_OK(cuGraphNodeGetType(empty, &type));
    EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_EMPTY);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFreeHost(in));
    CU_EXPECT_OK(cu->cuMemFreeHost(out));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaGraph, NodesEdgesAndTheirQueries) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode a, b, c, d;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&a, g, nullptr, 0));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&b, g, &a, 1));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&c, g, &a, 1));
    CUgraphNode bc[] = {b, c};
    CU_ASSERT_OK(cuGraphAddEmptyNode(&d, g, bc, 2));
    EXPECT_EQ(Count(g), 4u);
    CUgraphNode nodes[6];
    size_t num = 6;
    CU_ASSERT_OK(cuGraphGetNodes(g, nodes, &num));
    ASSERT_EQ(num, 4u) << "the number written";
    EXPECT_EQ(nodes[4], nullptr) << "the rest NULL";
    size_t roots = 0;
    CU_ASSERT_OK(cuGraphGetRootNodes(g, nullptr, &roots));
    EXPECT_EQ(roots, 1u);
    CUgraphNode root = nullptr;
    CU_ASSERT_OK(cuGraphGetRootNodes(g, &root, &roots));
    EXPECT_EQ(root, a);
    size_t edges = 0;
    CU_ASSERT_OK(cuGraphGetEdges_v2(g, nullptr, nullptr, nullptr, &edges));
    EXPECT_EQ(edges, 4u);
    std::vector<CUgraphNode> from(4), to(4);
    std::vector<CUgraphEdgeData> data(4);
    std::memset(data.data(), 0xff, 4 * sizeof(CUgraphEdgeData));
    CU_ASSERT_OK(
        cuGraphGetEdges_v2(g, from.data(), to.data(), data.data(), &edges));
    EXPECT_EQ(edges, 4u);
    EXPECT_EQ(data[0].type, CU_GRAPH_DEPENDENCY_TYPE_DEFAULT);
    EXPECT_EQ(data[3].from_port, 0);
    size_t deps = 0;
    CU_ASSERT_OK(cuGraphNodeGetDependencies_v2(d, nullptr, nullptr, &deps));
    EXPECT_EQ(deps, 2u);
    size_t dependents = 0;
    CU_ASSERT_OK(
        cuGraphNodeGetDependentNodes_v2(a, nullptr, nullptr, &dependents));
    EXPECT_EQ(dependents, 2u);
    // Edges: an existing one cannot be added, a missing one not removed.
    EXPECT_EQ(cuGraphAddDependencies_v2(g, &a, &b, nullptr, 1),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphRemoveDependencies_v2(g, &a, &d, nullptr, 1),
              CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cuGraphAddDependencies_v2(g, &a, &d, nullptr, 1));
    CU_ASSERT_OK(cuGraphNodeGetDependencies_v2(d, nullptr, nullptr, &deps));
    EXPECT_EQ(deps, 3u);
    CU_ASSERT_OK(cuGraphRemoveDependencies_v2(g, &a, &d, nullptr, 1));
    CU_ASSERT_OK(cuGraphNodeGetDependencies_v2(d, nullptr, nullptr, &deps));
    EXPECT_EQ(deps, 2u);
    // Edge data other than the default is for kernel nodes.
    CUgraphEdgeData programmatic = {};
    programmatic.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
    EXPECT_EQ(cuGraphAddDependencies_v2(g, &a, &d, &programmatic, 1),
              CUDA_ERROR_INVALID_VALUE);
    // A node of another graph is no dependency here.
    CUgraph other;
    CU_ASSERT_OK(cuGraphCreate(&other, 0));
    CUgraphNode x;
    EXPECT_EQ(cuGraphAddEmptyNode(&x, other, &a, 1), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cuGraphDestroy(other));
    // Destroying a node severs its edges.
    CU_ASSERT_OK(cuGraphDestroyNode(b));
    EXPECT_EQ(Count(g), 3u);
    CU_ASSERT_OK(cuGraphNodeGetDependencies_v2(d, nullptr, nullptr, &deps));
    EXPECT_EQ(deps, 1u);
    CU_ASSERT_OK(
        cuGraphNodeGetDependentNodes_v2(a, nullptr, nullptr, &dependents));
    EXPECT_EQ(dependents, 1u);
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraph, CloneIsIndependentAndFindsItsNodes) {
    const size_t n = 64;
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode set, after;
    CUDA_MEMSET_NODE_PARAMS m = Memset(a, 5, n);
    CU_ASSERT_OK(cuGraphAddMemsetNode(&set, g, nullptr, 0, &m, ctx));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&after, g, &set, 1));
    CUgraph clone;
    CU_ASSERT_OK(cuGraphClone(&clone, g));
    EXPECT_EQ(Count(clone), 2u);
    CUgraphNode found;
    CU_ASSERT_OK(cuGraphNodeFindInClone(&found, set, clone));
    EXPECT_NE(found, set);
    CUDA_MEMSET_NODE_PARAMS got = {};
    CU_ASSERT_OK(cuGraphMemsetNodeGetParams(found, &got));
    EXPECT_EQ(got.value, 5u);
    EXPECT_EQ(got.dst, a);
    m.value = 6;
    CU_ASSERT_OK(cuGraphMemsetNodeSetParams(set, &m));
    CU_ASSERT_OK(cuGraphMemsetNodeGetParams(found, &got));
    EXPECT_EQ(got.value, 5u) << "the clone keeps its own parameters";
    CUgraphExec e = Instantiate(clone);
    Run(e);
    EXPECT_EQ(Read(a, n), std::vector<unsigned char>(n, 5));
    EXPECT_EQ(cuGraphNodeFindInClone(&found, set, g), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(clone));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

TEST_F(CudaGraph, GenericAddNodeAndSetParams) {
    const size_t n = 128;
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNodeParams p = {};
    p.type = CU_GRAPH_NODE_TYPE_MEMSET;
    p.memset.dst = a;
    p.memset.value = 0x21;
    p.memset.elementSize = 4;
    p.memset.width = n / 4;
    p.memset.height = 1;
    p.memset.ctx = ctx;
    CUgraphNode node;
    CU_ASSERT_OK(cuGraphAddNode_v2(&node, g, nullptr, nullptr, 0, &p));
    CUgraphExec e = Instantiate(g);
    Run(e);
    EXPECT_EQ(Read(a, n)[n - 1], 0);
    EXPECT_EQ(Read(a, n)[0], 0x21) << "32-bit elements of 0x21";
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    p.memset.value = 0x01010101;
    CU_ASSERT_OK(cuGraphNodeSetParams(node, &p));
    e = Instantiate(g);
    Run(e);
    EXPECT_EQ(Read(a, n), std::vector<unsigned char>(n, 1));
    // A node of another type is not set by these parameters.
    p.type = CU_GRAPH_NODE_TYPE_EMPTY;
    EXPECT_NE(cuGraphNodeSetParams(node, &p), CUDA_SUCCESS);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

TEST_F(CudaGraph, ExecUpdateFromATopologicallyIdenticalGraph) {
    const size_t n = 512;
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    auto make = [&](unsigned value, CUdeviceptr dst) {
        CUgraph g;
        EXPECT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
        CUgraphNode set, copy;
        CUDA_MEMSET_NODE_PARAMS m = Memset(a, value, n);
        EXPECT_EQ(cuGraphAddMemsetNode(&set, g, nullptr, 0, &m, ctx),
                  CUDA_SUCCESS);
        CUDA_MEMCPY3D c = DtoD(dst, a, n);
        EXPECT_EQ(cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx),
                  CUDA_SUCCESS);
        return g;
    };
    CUgraph g1 = make(1, b), g2 = make(2, b);
    CUgraphExec e = Instantiate(g1);
    Run(e);
    EXPECT_EQ(Read(b, n)[0], 1);
    CUgraphExecUpdateResultInfo info = {};
    CU_ASSERT_OK(cuGraphExecUpdate_v2(e, g2, &info));
    EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
    Run(e);
    EXPECT_EQ(Read(b, n)[n - 1], 2);
    // Another topology: refused, and the executable graph is unchanged.
    CUgraph g3 = make(3, b);
    CUgraphNode extra;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&extra, g3, nullptr, 0));
    EXPECT_EQ(cuGraphExecUpdate_v2(e, g3, &info),
              CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
    Run(e);
    EXPECT_EQ(Read(b, n)[0], 2);
    // Another node type.
    CUgraph g4;
    CU_ASSERT_OK(cuGraphCreate(&g4, 0));
    CUgraphNode e1, e2;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&e1, g4, nullptr, 0));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&e2, g4, &e1, 1));
    EXPECT_EQ(cuGraphExecUpdate_v2(e, g4, &info),
              CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED);
    EXPECT_EQ(info.errorNode, e1);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    for (CUgraph g : {g1, g2, g3, g4}) {
        CU_EXPECT_OK(cuGraphDestroy(g));
    }
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

struct Counter {
    std::atomic<int> calls{0};
    static void CUDA_CB Fn(void *p) {
        static_cast<Counter *>(p)->calls++;
    }
};

TEST_F(CudaGraph, ExecNodeSettersAndEnabling) {
    const size_t n = 256;
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(b, 0, n));
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode set, copy, host;
    CUDA_MEMSET_NODE_PARAMS m = Memset(a, 1, n);
    CU_ASSERT_OK(cuGraphAddMemsetNode(&set, g, nullptr, 0, &m, ctx));
    CUDA_MEMCPY3D c = DtoD(b, a, n);
    CU_ASSERT_OK(cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx));
    Counter first, second;
    CUDA_HOST_NODE_PARAMS hp = {Counter::Fn, &first};
    CU_ASSERT_OK(cuGraphAddHostNode(&host, g, &copy, 1, &hp));
    CUgraphExec e = Instantiate(g);
    Run(e);
    EXPECT_EQ(first.calls, 1);
    // The memset's value, the copy's length and the host function's data.
    m.value = 7;
    CU_ASSERT_OK(cuGraphExecMemsetNodeSetParams(e, set, &m, ctx));
    CUDA_MEMCPY3D half = DtoD(b, a, n / 2);
    CU_ASSERT_OK(cuGraphExecMemcpyNodeSetParams(e, copy, &half, ctx));
    hp.userData = &second;
    CU_ASSERT_OK(cuGraphExecHostNodeSetParams(e, host, &hp));
    Run(e);
    std::vector<unsigned char> got = Read(b, n);
    EXPECT_EQ(got[0], 7);
    EXPECT_EQ(got[n - 1], 1) << "only half was copied";
    EXPECT_EQ(first.calls, 1);
    EXPECT_EQ(second.calls, 1);
    // The graph's own nodes kept their parameters.
    CUDA_MEMSET_NODE_PARAMS kept = {};
    CU_ASSERT_OK(cuGraphMemsetNodeGetParams(set, &kept));
    EXPECT_EQ(kept.value, 1u);
    // A disabled memset is an empty node.
    unsigned enabled = 9;
    CU_ASSERT_OK(cuGraphNodeGetEnabled(e, set, &enabled));
    EXPECT_EQ(enabled, 1u);
    CU_ASSERT_OK(cuGraphNodeSetEnabled(e, set, 0));
    CU_ASSERT_OK(cuGraphNodeGetEnabled(e, set, &enabled));
    EXPECT_EQ(enabled, 0u);
    CU_ASSERT_OK(cu->cuMemsetD8_v2(a, 3, n));
    Run(e);
    EXPECT_EQ(Read(b, n)[0], 3) << "the memset did not run";
    EXPECT_NE(cuGraphNodeSetEnabled(e, host, 0), CUDA_SUCCESS)
        << "only memcpy and memset nodes (and kernels) can be disabled";
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
}

TEST_F(CudaGraph, ChildGraphParametersInAnExecutableGraph) {
    const size_t n = 64;
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    auto child_of = [&](unsigned value) {
        CUgraph c;
        EXPECT_EQ(cuGraphCreate(&c, 0), CUDA_SUCCESS);
        CUgraphNode s;
        CUDA_MEMSET_NODE_PARAMS m = Memset(a, value, n);
        EXPECT_EQ(cuGraphAddMemsetNode(&s, c, nullptr, 0, &m, ctx),
                  CUDA_SUCCESS);
        return c;
    };
    CUgraph c1 = child_of(1), c2 = child_of(2);
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode kid;
    CU_ASSERT_OK(cuGraphAddChildGraphNode(&kid, g, nullptr, 0, c1));
    CUgraphExec e = Instantiate(g);
    Run(e);
    EXPECT_EQ(Read(a, n)[0], 1);
    CU_ASSERT_OK(cuGraphExecChildGraphNodeSetParams(e, kid, c2));
    Run(e);
    EXPECT_EQ(Read(a, n)[0], 2);
    CUgraph empty;
    CU_ASSERT_OK(cuGraphCreate(&empty, 0));
    EXPECT_NE(cuGraphExecChildGraphNodeSetParams(e, kid, empty), CUDA_SUCCESS)
        << "another topology";
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    for (CUgraph x : {c1, c2, g, empty}) {
        CU_EXPECT_OK(cuGraphDestroy(x));
    }
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

TEST_F(CudaGraph, EventRecordAndWaitNodes) {
    const size_t n = 1024;
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(a, 0, n));
    CUevent ev, done;
    CU_ASSERT_OK(cu->cuEventCreate(&ev, 0));
    CU_ASSERT_OK(cu->cuEventCreate(&done, 0));
    // The graph waits for `ev`, fills, then records `done`.
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode wait, set, rec;
    CU_ASSERT_OK(cuGraphAddEventWaitNode(&wait, g, nullptr, 0, ev));
    CUDA_MEMSET_NODE_PARAMS m = Memset(a, 0x66, n);
    CU_ASSERT_OK(cuGraphAddMemsetNode(&set, g, &wait, 1, &m, ctx));
    CU_ASSERT_OK(cuGraphAddEventRecordNode(&rec, g, &set, 1, done));
    CUevent got = nullptr;
    CU_ASSERT_OK(cuGraphEventRecordNodeGetEvent(rec, &got));
    EXPECT_EQ(got, done);
    CUgraphExec e = Instantiate(g);
    // `ev` is recorded behind a blocked host function on another stream.
    CUstream other;
    CU_ASSERT_OK(cu->cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    Gate gate;
    CU_ASSERT_OK(cuLaunchHostFunc(other, Gate::Fn, &gate));
    CU_ASSERT_OK(cu->cuEventRecord(ev, other));
    ASSERT_TRUE(gate.WaitEntered());
    CU_ASSERT_OK(cuGraphLaunch(e, stream));
    EXPECT_EQ(cu->cuStreamQuery(stream), CUDA_ERROR_NOT_READY);
    EXPECT_EQ(cu->cuEventQuery(done), CUDA_ERROR_NOT_READY);
    gate.Open();
    CU_ASSERT_OK(cu->cuEventSynchronize(done));
    EXPECT_EQ(Read(a, n), std::vector<unsigned char>(n, 0x66));
    CU_EXPECT_OK(cu->cuStreamSynchronize(other));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(other));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(ev));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(done));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

TEST_F(CudaGraph, ALaunchWaitsForThePreviousLaunch) {
    Counter counter;
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode host;
    CUDA_HOST_NODE_PARAMS hp = {Counter::Fn, &counter};
    CU_ASSERT_OK(cuGraphAddHostNode(&host, g, nullptr, 0, &hp));
    CUgraphExec e = Instantiate(g);
    CUstream first, second;
    CU_ASSERT_OK(cu->cuStreamCreate(&first, CU_STREAM_NON_BLOCKING));
    CU_ASSERT_OK(cu->cuStreamCreate(&second, CU_STREAM_NON_BLOCKING));
    Gate gate;
    CU_ASSERT_OK(cuLaunchHostFunc(first, Gate::Fn, &gate));
    CU_ASSERT_OK(cuGraphLaunch(e, first));
    ASSERT_TRUE(gate.WaitEntered());
    CU_ASSERT_OK(cuGraphLaunch(e, second));
    EXPECT_EQ(cu->cuStreamQuery(second), CUDA_ERROR_NOT_READY)
        << "\"ordered behind ... any previous launches of hGraphExec\"";
    EXPECT_EQ(counter.calls, 0);
    gate.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(second));
    EXPECT_EQ(counter.calls, 2);
    CU_EXPECT_OK(cu->cuStreamSynchronize(first));
    // Destroying an executable graph with a queued launch: the launch runs.
    Gate again;
    CU_ASSERT_OK(cuLaunchHostFunc(first, Gate::Fn, &again));
    CU_ASSERT_OK(cuGraphLaunch(e, first));
    ASSERT_TRUE(again.WaitEntered());
    CU_ASSERT_OK(cuGraphExecDestroy(e));
    again.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(first));
    EXPECT_EQ(counter.calls, 3);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(first));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(second));
    CU_EXPECT_OK(cuGraphDestroy(g));
}

struct Destroyed {
    std::mutex m;
    std::condition_variable cv;
    int calls = 0;
    static void CUDA_CB Fn(void *p) {
        Destroyed *d = static_cast<Destroyed *>(p);
        std::lock_guard<std::mutex> l(d->m);
        d->calls++;
        d->cv.notify_all();
    }
    int Wait(int n) {
        std::unique_lock<std::mutex> l(m);
        cv.wait_for(l, 10s, [&] { return calls >= n; });
        return calls;
    }
    int Now() {
        std::lock_guard<std::mutex> l(m);
        return calls;
    }
};

TEST_F(CudaGraph, UserObjectsLiveAsLongAsTheirReferences) {
    Destroyed d;
    CUuserObject obj;
    CU_ASSERT_OK(cuUserObjectCreate(&obj, &d, Destroyed::Fn, 1,
                                    CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    // The graph takes the caller's reference.
    CU_ASSERT_OK(cuGraphRetainUserObject(g, obj, 1, CU_GRAPH_USER_OBJECT_MOVE));
    CUgraphNode node;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&node, g, nullptr, 0));
    CUgraphExec e = Instantiate(g);
    CU_ASSERT_OK(cuGraphDestroy(g));
    EXPECT_EQ(d.Now(), 0) << "the executable graph holds a reference";
    CU_ASSERT_OK(cuGraphExecDestroy(e));
    EXPECT_EQ(d.Wait(1), 1) << "the destructor runs once";
    // A graph's own references: released by it, more than it has refused.
    Destroyed d2;
    CU_ASSERT_OK(cuUserObjectCreate(&obj, &d2, Destroyed::Fn, 1,
                                    CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CU_ASSERT_OK(cuGraphRetainUserObject(g, obj, 2, 0));
    EXPECT_NE(cuGraphReleaseUserObject(g, obj, 3), CUDA_SUCCESS);
    CU_ASSERT_OK(cuGraphReleaseUserObject(g, obj, 2));
    EXPECT_EQ(d2.Now(), 0);
    CU_ASSERT_OK(cuUserObjectRelease(obj, 1));
    EXPECT_EQ(d2.Wait(1), 1);
    CU_EXPECT_OK(cuGraphDestroy(g));
    EXPECT_EQ(cuUserObjectCreate(&obj, &d2, Destroyed::Fn, 1, 0),
              CUDA_ERROR_INVALID_VALUE)
        << "CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is required";
}

TEST_F(CudaGraph, InstantiateErrorsAndFlags) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode a, b;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&a, g, nullptr, 0));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&b, g, &a, 1));
    CUgraphExec e = nullptr;
    CU_ASSERT_OK(cuGraphInstantiateWithFlags(
        &e, g, CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY));
    cuuint64_t flags = 0;
    CU_ASSERT_OK(cuGraphExecGetFlags(e, &flags));
    EXPECT_EQ(flags, static_cast<cuuint64_t>(
                         CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY));
    CU_EXPECT_OK(cuGraphUpload(e, stream));
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    EXPECT_NE(cuGraphInstantiateWithFlags(&e, g, 0x1000), CUDA_SUCCESS);
    CUDA_GRAPH_INSTANTIATE_PARAMS params = {};
    params.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
    params.hUploadStream = stream;
    CU_ASSERT_OK(cuGraphInstantiateWithParams(&e, g, &params));
    EXPECT_EQ(params.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
    CU_EXPECT_OK(cuGraphExecDestroy(e));
    // A cycle cannot be instantiated.
    CU_ASSERT_OK(cuGraphAddDependencies_v2(g, &b, &a, nullptr, 1));
    params.flags = 0;
    EXPECT_NE(cuGraphInstantiateWithParams(&e, g, &params), CUDA_SUCCESS);
    EXPECT_EQ(params.result_out, CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE);
    CU_EXPECT_OK(cuGraphDestroy(g));
    EXPECT_NE(cuGraphCreate(&g, 1), CUDA_SUCCESS) << "flags must be 0";
    EXPECT_NE(cuGraphCreate(nullptr, 0), CUDA_SUCCESS);
}

TEST_F(CudaGraph, GraphMemoryAttributesAndDotPrint) {
    cuuint64_t v = 99;
    CU_ASSERT_OK(cuDeviceGetGraphMemAttribute(
        dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v));
    EXPECT_EQ(v, 0u) << "no graph of this test allocates memory";
    CU_ASSERT_OK(cuDeviceGraphMemTrim(dev));
    v = 0;
    CU_EXPECT_OK(
        cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v));
    EXPECT_NE(cuDeviceSetGraphMemAttribute(
                  dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v),
              CUDA_SUCCESS)
        << "the current amount is read-only";
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode a, b;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&a, g, nullptr, 0));
    CU_ASSERT_OK(cuGraphAddEmptyNode(&b, g, &a, 1));
    char path[] = "/tmp/umf-gpu-graph-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    CU_ASSERT_OK(
        cuGraphDebugDotPrint(g, path, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("digraph"), std::string::npos);
    EXPECT_NE(text.str().find("->"), std::string::npos);
    unlink(path);
    CU_EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(CudaGraph, ParameterErrors) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode node;
    CUDA_MEMSET_NODE_PARAMS m = Memset(0, 0, 16);
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 64));
    m.dst = a;
    m.elementSize = 3;
    EXPECT_EQ(cuGraphAddMemsetNode(&node, g, nullptr, 0, &m, ctx),
              CUDA_ERROR_INVALID_VALUE)
        << "element size 1, 2 or 4";
    m.elementSize = 1;
    EXPECT_EQ(cuGraphAddMemsetNode(nullptr, g, nullptr, 0, &m, ctx),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphAddMemsetNode(&node, g, nullptr, 0, nullptr, ctx),
              CUDA_ERROR_INVALID_VALUE);
    CUDA_HOST_NODE_PARAMS hp = {nullptr, nullptr};
    EXPECT_EQ(cuGraphAddHostNode(&node, g, nullptr, 0, &hp),
              CUDA_ERROR_INVALID_VALUE);
    CUgraphNode dup[2];
    CU_ASSERT_OK(cuGraphAddEmptyNode(&dup[0], g, nullptr, 0));
    dup[1] = dup[0];
    EXPECT_EQ(cuGraphAddEmptyNode(&node, g, dup, 2), CUDA_ERROR_INVALID_VALUE)
        << "no duplicate dependencies";
    CUDA_MEMSET_NODE_PARAMS got;
    EXPECT_EQ(cuGraphMemsetNodeGetParams(dup[0], &got),
              CUDA_ERROR_INVALID_VALUE)
        << "not a memset node";
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

// ---------------------------------------------------------------------------
// The emulation's refusals and exact codes

using CudaGraphEmulated = CudaEmulatedOnly<CudaGraph>;

TEST_F(CudaGraphEmulated, KernelAndOtherUnemulatedNodesAreRefused) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode node;
    auto add_kernel = reinterpret_cast<decltype(&::cuGraphAddKernelNode_v2)>(
        cuda_test_driver_symbol("cuGraphAddKernelNode_v2"));
    ASSERT_NE(add_kernel, nullptr);
    CUDA_KERNEL_NODE_PARAMS kp = {};
    EXPECT_EQ(add_kernel(&node, g, nullptr, 0, &kp), CUDA_ERROR_NOT_SUPPORTED);
    CUgraphNodeParams p = {};
    for (CUgraphNodeType t :
         {CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
          CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP,
          CU_GRAPH_NODE_TYPE_CONDITIONAL}) {
        p.type = t;
        EXPECT_EQ(cuGraphAddNode_v2(&node, g, nullptr, nullptr, 0, &p),
                  CUDA_ERROR_NOT_SUPPORTED)
            << "type " << t;
    }
    // Memory nodes are emulated (cuda_graph_mem_test.cpp): zeroed
    // parameters name no pinned device memory.
    auto alloc_node = reinterpret_cast<decltype(&::cuGraphAddMemAllocNode)>(
        cuda_test_driver_symbol("cuGraphAddMemAllocNode"));
    CUDA_MEM_ALLOC_NODE_PARAMS ap = {};
    EXPECT_EQ(alloc_node(&node, g, nullptr, 0, &ap), CUDA_ERROR_INVALID_VALUE);
    auto cond = reinterpret_cast<decltype(&::cuGraphConditionalHandleCreate)>(
        cuda_test_driver_symbol("cuGraphConditionalHandleCreate"));
    // A conditional handle is made (only setting it needs a kernel), one of
    // its own each time; bad flags, graphs and pointers are refused.
    CUgraphConditionalHandle h = 0, h2 = 0;
    CU_EXPECT_OK(cond(&h, g, ctx, 0, 0));
    CU_EXPECT_OK(cond(&h2, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
    EXPECT_NE(h, h2);
    EXPECT_EQ(cond(&h, g, ctx, 0, 2), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cond(nullptr, g, ctx, 0, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cond(&h, nullptr, ctx, 0, 0), CUDA_ERROR_INVALID_VALUE);
    // No kernel node exists, so its getters refuse every node.
    CU_ASSERT_OK(cuGraphAddEmptyNode(&node, g, nullptr, 0));
    auto kget = reinterpret_cast<decltype(&::cuGraphKernelNodeGetParams_v2)>(
        cuda_test_driver_symbol("cuGraphKernelNodeGetParams_v2"));
    EXPECT_EQ(kget(node, &kp), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph node"), 1);
    CU_EXPECT_OK(cuGraphDestroy(g));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph node"), 0);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph"), 0);
}

TEST_F(CudaGraphEmulated, DestroyedHandlesAreErrors) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode node;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&node, g, nullptr, 0));
    CUgraphExec e = Instantiate(g);
    CU_ASSERT_OK(cuGraphExecDestroy(e));
    EXPECT_EQ(cuGraphLaunch(e, stream), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuGraphExecDestroy(e), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cuGraphDestroy(g));
    EXPECT_EQ(cuGraphDestroy(g), CUDA_ERROR_INVALID_VALUE);
    CUgraphNodeType type;
    EXPECT_EQ(cuGraphNodeGetType(node, &type), CUDA_ERROR_INVALID_VALUE);
    int junk[32] = {};
    EXPECT_EQ(cuGraphDestroy(reinterpret_cast<CUgraph>(junk)),
              CUDA_ERROR_INVALID_VALUE);
    // A child graph belongs to its node.
    CUgraph parent, child, embedded;
    CU_ASSERT_OK(cuGraphCreate(&parent, 0));
    CU_ASSERT_OK(cuGraphCreate(&child, 0));
    CU_ASSERT_OK(cuGraphAddChildGraphNode(&node, parent, nullptr, 0, child));
    CU_ASSERT_OK(cuGraphChildGraphNodeGetGraph(node, &embedded));
    EXPECT_EQ(cuGraphDestroy(embedded), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cuGraphDestroy(child));
    CU_EXPECT_OK(cuGraphDestroy(parent));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph"), 0);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("executable graph"), 0);
}

} // namespace
