// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Stream capture, as cuda.h documents it: the work enqueued on a capturing
// stream becomes nodes of a graph instead of running, the fork and join of
// streams through events, what a capture reports (cuStreamIsCapturing,
// cuStreamGetCaptureInfo), what invalidates it, the capture modes of
// cuThreadExchangeStreamCaptureMode, capture into an existing graph and
// changed dependency sets. The graphs are launched and their data checked
// with copies. The CudaCapture cases run unchanged on a real libcuda.so.1;
// CudaCaptureEmulated checks the emulation's exact codes and refusals.

#include <atomic>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

class CudaCapture : public CudaCtxTest {
  protected:
#define CAPTURE_CALLS(X)                                                       \
    X(cuStreamBeginCapture_v2)                                                 \
    X(cuStreamBeginCaptureToGraph)                                             \
    X(cuStreamEndCapture)                                                      \
    X(cuStreamIsCapturing)                                                     \
    X(cuStreamGetCaptureInfo_v3)                                               \
    X(cuStreamUpdateCaptureDependencies_v2)                                    \
    X(cuThreadExchangeStreamCaptureMode)                                       \
    X(cuEventRecordWithFlags)                                                  \
    X(cuLaunchHostFunc)                                                        \
    X(cuStreamAddCallback)                                                     \
    X(cuGraphCreate)                                                           \
    X(cuGraphDestroy)                                                          \
    X(cuGraphGetNodes)                                                         \
    X(cuGraphGetEdges_v2)                                                      \
    X(cuGraphNodeGetType)                                                      \
    X(cuGraphAddEmptyNode)                                                     \
    X(cuGraphInstantiateWithFlags)                                             \
    X(cuGraphLaunch)                                                           \
    X(cuGraphExecDestroy)
    CAPTURE_CALLS(CUDA_TEST_SYMBOL_MEMBER)

    CUstream s = nullptr;
    const size_t n = 4096;
    CUdeviceptr a = 0, b = 0;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        CAPTURE_CALLS(CUDA_TEST_SYMBOL_RESOLVE)
        CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_DEFAULT));
        CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
        CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
        CU_ASSERT_OK(cu->cuMemsetD8_v2(a, 0, n));
        CU_ASSERT_OK(cu->cuMemsetD8_v2(b, 0, n));
    }

    void TearDown() override {
        if (s != nullptr) {
            EXPECT_EQ(cu->cuStreamDestroy_v2(s), CUDA_SUCCESS);
        }
        if (a != 0) {
            EXPECT_EQ(cu->cuMemFree_v2(a), CUDA_SUCCESS);
            EXPECT_EQ(cu->cuMemFree_v2(b), CUDA_SUCCESS);
        }
        CudaCtxTest::TearDown();
    }

    CUstreamCaptureStatus Status(CUstream st) {
        CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
        EXPECT_EQ(cuStreamIsCapturing(st, &status), CUDA_SUCCESS);
        return status;
    }

    size_t Nodes(CUgraph g) {
        size_t count = 0;
        EXPECT_EQ(cuGraphGetNodes(g, nullptr, &count), CUDA_SUCCESS);
        return count;
    }

    size_t Edges(CUgraph g) {
        size_t count = 0;
        EXPECT_EQ(cuGraphGetEdges_v2(g, nullptr, nullptr, nullptr, &count),
                  CUDA_SUCCESS);
        return count;
    }

    void LaunchAndDestroy(CUgraph g) {
        CUgraphExec e = nullptr;
        ASSERT_EQ(cuGraphInstantiateWithFlags(&e, g, 0), CUDA_SUCCESS);
        ASSERT_EQ(cuGraphLaunch(e, s), CUDA_SUCCESS);
        ASSERT_EQ(cu->cuStreamSynchronize(s), CUDA_SUCCESS);
        EXPECT_EQ(cuGraphExecDestroy(e), CUDA_SUCCESS);
        EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
    }

    std::vector<unsigned char> Read(CUdeviceptr p) {
        std::vector<unsigned char> v(n);
        EXPECT_EQ(cu->cuMemcpyDtoH_v2(v.data(), p, n), CUDA_SUCCESS);
        return v;
    }
};

struct Counter {
    std::atomic<int> calls{0};
    static void CUDA_CB Fn(void *p) {
        static_cast<Counter *>(p)->calls++;
    }
};

TEST_F(CudaCapture, CapturedWorkRunsWhenTheGraphIsLaunched) {
    void *pinned;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&pinned, n));
    std::memset(pinned, 0, n);
    Counter counter;
    EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_NONE);
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 0x3c, n, s));
    CU_ASSERT_OK(cu->cuMemcpyDtoDAsync_v2(b, a, n, s));
    CU_ASSERT_OK(cu->cuMemcpyDtoHAsync_v2(pinned, b, n, s));
    CU_ASSERT_OK(cuLaunchHostFunc(s, Counter::Fn, &counter));
    CUstreamCaptureStatus status;
    cuuint64_t id = 0;
    CUgraph into = nullptr;
    const CUgraphNode *deps = nullptr;
    const CUgraphEdgeData *data = nullptr;
    size_t ndeps = 0;
    CU_ASSERT_OK(cuStreamGetCaptureInfo_v3(s, &status, &id, &into, &deps, &data,
                                           &ndeps));
    EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    EXPECT_NE(id, 0u);
    ASSERT_EQ(ndeps, 1u) << "the last captured node";
    CUgraphNodeType type;
    CU_ASSERT_OK(cuGraphNodeGetType(deps[0], &type));
    EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_HOST);
    EXPECT_EQ(data[0].type, CU_GRAPH_DEPENDENCY_TYPE_DEFAULT);
    CUgraph g = nullptr;
    CU_ASSERT_OK(cuStreamEndCapture(s, &g));
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g, into);
    EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_NONE);
    EXPECT_EQ(Nodes(g), 4u);
    EXPECT_EQ(Edges(g), 3u) << "a chain, in stream order";
    // Nothing ran while capturing.
    EXPECT_EQ(static_cast<unsigned char *>(pinned)[0], 0);
    EXPECT_EQ(counter.calls, 0);
    EXPECT_EQ(Read(b)[0], 0);
    LaunchAndDestroy(g);
    EXPECT_EQ(counter.calls, 1);
    EXPECT_EQ(
        std::vector<unsigned char>(static_cast<unsigned char *>(pinned),
                                   static_cast<unsigned char *>(pinned) + n),
        std::vector<unsigned char>(n, 0x3c));
    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
}

TEST_F(CudaCapture, ForkAndJoinThroughEvents) {
    CUstream side;
    CU_ASSERT_OK(cu->cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));
    CUevent fork, join;
    CU_ASSERT_OK(cu->cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 1, n, s));
    CU_ASSERT_OK(cu->cuEventRecord(fork, s));
    CU_ASSERT_OK(cu->cuStreamWaitEvent(side, fork, 0));
    EXPECT_EQ(Status(side), CU_STREAM_CAPTURE_STATUS_ACTIVE)
        << "the waiting stream joined the capture";
    CU_ASSERT_OK(cu->cuMemsetD8Async(b, 2, n, side));
    CU_ASSERT_OK(cu->cuMemsetD8Async(a + n / 2, 3, n / 2, s));
    CU_ASSERT_OK(cu->cuEventRecord(join, side));
    CU_ASSERT_OK(cu->cuStreamWaitEvent(s, join, 0));
    CU_ASSERT_OK(cu->cuMemcpyDtoDAsync_v2(b + n / 2, a, n / 4, s));
    CUgraph g = nullptr;
    CU_ASSERT_OK(cuStreamEndCapture(s, &g));
    EXPECT_EQ(Status(side), CU_STREAM_CAPTURE_STATUS_NONE);
    EXPECT_EQ(Nodes(g), 4u);
    // memset a -> memset b (side), memset a -> memset a/2, both -> copy.
    EXPECT_EQ(Edges(g), 4u);
    EXPECT_EQ(cu->cuEventQuery(fork), CUDA_SUCCESS)
        << "outside the capture the event is an event again";
    LaunchAndDestroy(g);
    std::vector<unsigned char> va = Read(a), vb = Read(b);
    EXPECT_EQ(va[0], 1);
    EXPECT_EQ(va[n - 1], 3);
    EXPECT_EQ(vb[0], 2);
    EXPECT_EQ(vb[n / 2], 1) << "the copy came after both branches";
    CU_EXPECT_OK(cu->cuEventDestroy_v2(fork));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(join));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(side));
}

TEST_F(CudaCapture, AForkNotJoinedBackFailsTheCapture) {
    CUstream side;
    CU_ASSERT_OK(cu->cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));
    CUevent fork;
    CU_ASSERT_OK(cu->cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CU_ASSERT_OK(cu->cuEventRecord(fork, s));
    CU_ASSERT_OK(cu->cuStreamWaitEvent(side, fork, 0));
    CU_ASSERT_OK(cu->cuMemsetD8Async(b, 2, n, side));
    CUgraph g = reinterpret_cast<CUgraph>(1);
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    EXPECT_EQ(Status(side), CU_STREAM_CAPTURE_STATUS_NONE);
    EXPECT_EQ(Read(b)[0], 0) << "nothing ran";
    CU_EXPECT_OK(cu->cuEventDestroy_v2(fork));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(side));
}

TEST_F(CudaCapture, ForbiddenCallsInvalidateTheCapture) {
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 1, n, s));
    EXPECT_EQ(cu->cuStreamSynchronize(s),
              CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    EXPECT_NE(cu->cuMemsetD8Async(a, 2, n, s), CUDA_SUCCESS);
    CUgraph g = reinterpret_cast<CUgraph>(1);
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(g, nullptr);
    EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_NONE);
    // The stream works again.
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 4, n, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(Read(a)[0], 4);
}

TEST_F(CudaCapture, TheLegacyStreamWhileABlockingStreamCaptures) {
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    CUstreamCaptureStatus status;
    EXPECT_EQ(cuStreamIsCapturing(CU_STREAM_LEGACY, &status),
              CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_ACTIVE)
        << "a query does not invalidate it";
    EXPECT_EQ(cu->cuMemsetD8Async(a, 1, n, CU_STREAM_LEGACY),
              CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    CUgraph g;
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(Read(a)[0], 0);
}

TEST_F(CudaCapture, CaptureModesOfUnsafeCalls) {
    CUdeviceptr p = 0;
    // A global capture prohibits an allocation in its own thread...
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_EQ(cu->cuMemAlloc_v2(&p, 64), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUgraph g;
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    // ... unless the thread is relaxed.
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    CU_ASSERT_OK(cuThreadExchangeStreamCaptureMode(&mode));
    EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_GLOBAL) << "the default";
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    CU_ASSERT_OK(cuThreadExchangeStreamCaptureMode(&mode));
    EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_RELAXED);
    // Another thread (in the global mode) is prohibited too by a global
    // capture, not by a thread-local one.
    CUresult other = CUDA_ERROR_UNKNOWN;
    std::thread([&] {
        cu->cuCtxSetCurrent(ctx);
        CUdeviceptr q = 0;
        other = cu->cuMemAlloc_v2(&q, 64);
        if (other == CUDA_SUCCESS) {
            cu->cuMemFree_v2(q);
        }
    }).join();
    EXPECT_EQ(other, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CU_ASSERT_OK(
        cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    std::thread([&] {
        cu->cuCtxSetCurrent(ctx);
        CUdeviceptr q = 0;
        other = cu->cuMemAlloc_v2(&q, 64);
        if (other == CUDA_SUCCESS) {
            cu->cuMemFree_v2(q);
        }
    }).join();
    EXPECT_EQ(other, CUDA_SUCCESS);
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 1, n, s));
    CU_ASSERT_OK(cuStreamEndCapture(s, &g));
    CU_EXPECT_OK(cuGraphDestroy(g));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

TEST_F(CudaCapture, EndCaptureIsTheOriginsFromItsThread) {
    CUstream other;
    CU_ASSERT_OK(cu->cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CUgraph g;
    EXPECT_NE(cuStreamEndCapture(s, &g), CUDA_SUCCESS) << "not capturing";
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_NE(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL),
              CUDA_SUCCESS)
        << "capturing already";
    CUresult from_other_thread = CUDA_ERROR_UNKNOWN;
    std::thread([&] {
        CUgraph x;
        from_other_thread = cuStreamEndCapture(s, &x);
    }).join();
    EXPECT_EQ(from_other_thread, CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
    CU_ASSERT_OK(cuStreamEndCapture(s, &g));
    EXPECT_EQ(Nodes(g), 0u);
    CU_EXPECT_OK(cuGraphDestroy(g));
    // A relaxed capture may end in another thread.
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 9, n, s));
    std::thread([&] {
        CUgraph x = nullptr;
        from_other_thread = cuStreamEndCapture(s, &x);
        if (x != nullptr) {
            cuGraphDestroy(x);
        }
    }).join();
    EXPECT_EQ(from_other_thread, CUDA_SUCCESS);
    EXPECT_NE(cuStreamBeginCapture_v2(CU_STREAM_LEGACY,
                                      CU_STREAM_CAPTURE_MODE_GLOBAL),
              CUDA_SUCCESS)
        << "the legacy stream cannot capture";
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(other));
}

TEST_F(CudaCapture, IntoAnExistingGraphAndChangedDependencies) {
    CUgraph g;
    CU_ASSERT_OK(cuGraphCreate(&g, 0));
    CUgraphNode first;
    CU_ASSERT_OK(cuGraphAddEmptyNode(&first, g, nullptr, 0));
    CU_ASSERT_OK(cuStreamBeginCaptureToGraph(s, g, &first, nullptr, 1,
                                             CU_STREAM_CAPTURE_MODE_GLOBAL));
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 5, n, s));
    // A root node next: the set emptied.
    CU_ASSERT_OK(cuStreamUpdateCaptureDependencies_v2(
        s, nullptr, nullptr, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES));
    CU_ASSERT_OK(cu->cuMemsetD8Async(b, 6, n, s));
    // Then one after both: the first memset added back.
    std::vector<CUgraphNode> nodes(3);
    size_t count = 3;
    CU_ASSERT_OK(cuGraphGetNodes(g, nodes.data(), &count));
    ASSERT_EQ(count, 3u);
    CUgraphNode memset_a = nodes[1];
    CU_ASSERT_OK(cuStreamUpdateCaptureDependencies_v2(
        s, &memset_a, nullptr, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
    CUstreamCaptureStatus status;
    const CUgraphNode *deps;
    size_t ndeps;
    CU_ASSERT_OK(cuStreamGetCaptureInfo_v3(s, &status, nullptr, nullptr, &deps,
                                           nullptr, &ndeps));
    EXPECT_EQ(ndeps, 2u);
    CU_ASSERT_OK(cu->cuMemcpyDtoDAsync_v2(b, a, 16, s));
    CUgraph out;
    CU_ASSERT_OK(cuStreamEndCapture(s, &out));
    EXPECT_EQ(out, g);
    EXPECT_EQ(Nodes(g), 4u);
    // first -> memset a; memset a, memset b -> copy.
    EXPECT_EQ(Edges(g), 3u);
    LaunchAndDestroy(g);
    std::vector<unsigned char> vb = Read(b);
    EXPECT_EQ(vb[0], 5);
    EXPECT_EQ(vb[16], 6);
}

TEST_F(CudaCapture, EventsInACapture) {
    CUevent e, outside;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    CU_ASSERT_OK(cu->cuEventCreate(&outside, 0));
    CU_ASSERT_OK(cu->cuEventRecord(outside, s));
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CU_ASSERT_OK(cu->cuEventRecord(e, s));
    EXPECT_EQ(cu->cuEventQuery(e), CUDA_ERROR_CAPTURED_EVENT)
        << "last recorded in a capturing stream";
    // External records and waits are nodes.
    CU_ASSERT_OK(cuEventRecordWithFlags(e, s, CU_EVENT_RECORD_EXTERNAL));
    CU_ASSERT_OK(cu->cuStreamWaitEvent(s, outside, CU_EVENT_WAIT_EXTERNAL));
    CUgraph g;
    CU_ASSERT_OK(cuStreamEndCapture(s, &g));
    ASSERT_EQ(Nodes(g), 2u);
    std::vector<CUgraphNode> nodes(2);
    size_t count = 2;
    CU_ASSERT_OK(cuGraphGetNodes(g, nodes.data(), &count));
    CUgraphNodeType t0, t1;
    CU_ASSERT_OK(cuGraphNodeGetType(nodes[0], &t0));
    CU_ASSERT_OK(cuGraphNodeGetType(nodes[1], &t1));
    EXPECT_EQ(t0, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    EXPECT_EQ(t1, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    LaunchAndDestroy(g);
    CU_EXPECT_OK(cu->cuEventQuery(e));
    // A plain wait on an event of outside the capture crosses its boundary.
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_NE(cu->cuStreamWaitEvent(s, outside, 0), CUDA_SUCCESS);
    EXPECT_NE(cuStreamEndCapture(s, &g), CUDA_SUCCESS);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(outside));
}

// Two threads capture into one graph through a fork and a join.
TEST_F(CudaCapture, TwoThreadsCaptureIntoOneGraph) {
    CUstream side;
    CU_ASSERT_OK(cu->cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));
    CUevent fork, join;
    CU_ASSERT_OK(cu->cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    CU_ASSERT_OK(cu->cuEventRecord(fork, s));
    CU_ASSERT_OK(cu->cuStreamWaitEvent(side, fork, 0));
    std::atomic<int> failures{0};
    std::thread t([&] {
        for (int i = 0; i < 50; i++) {
            if (cu->cuMemsetD8Async(b + i, static_cast<unsigned char>(i), 1,
                                    side) != CUDA_SUCCESS) {
                failures++;
            }
        }
        if (cu->cuEventRecord(join, side) != CUDA_SUCCESS) {
            failures++;
        }
    });
    for (int i = 0; i < 50; i++) {
        CU_EXPECT_OK(
            cu->cuMemsetD8Async(a + i, static_cast<unsigned char>(i), 1, s));
    }
    t.join();
    EXPECT_EQ(failures, 0);
    CU_ASSERT_OK(cu->cuStreamWaitEvent(s, join, 0));
    CUgraph g;
    CU_ASSERT_OK(cuStreamEndCapture(s, &g));
    EXPECT_EQ(Nodes(g), 100u);
    LaunchAndDestroy(g);
    std::vector<unsigned char> va = Read(a), vb = Read(b);
    EXPECT_EQ(va[49], 49);
    EXPECT_EQ(vb[49], 49);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(fork));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(join));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(side));
}

// ---------------------------------------------------------------------------
// The emulation's exact codes and refusals

using CudaCaptureEmulated = CudaEmulatedOnly<CudaCapture>;

TEST_F(CudaCaptureEmulated, WhatCannotBeCaptured) {
    struct {
        const char *what;
        std::function<CUresult()> call;
    } cases[] = {
        {"a stream callback",
         [&] {
             return cuStreamAddCallback(
                 s, [](CUstream, CUresult, void *) {}, nullptr, 0);
         }},
    };
    for (auto &c : cases) {
        CU_ASSERT_OK(
            cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
        EXPECT_EQ(c.call(), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED) << c.what;
        EXPECT_EQ(Status(s), CU_STREAM_CAPTURE_STATUS_INVALIDATED) << c.what;
        CUgraph g;
        EXPECT_EQ(cuStreamEndCapture(s, &g),
                  CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    }
    // Default streams do not capture here; a capturing stream is not
    // destroyed.
    EXPECT_EQ(cuStreamBeginCapture_v2(CU_STREAM_PER_THREAD,
                                      CU_STREAM_CAPTURE_MODE_GLOBAL),
              CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    EXPECT_EQ(cuStreamBeginCapture_v2(s, static_cast<CUstreamCaptureMode>(7)),
              CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_EQ(cu->cuStreamDestroy_v2(s), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUgraph g;
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_ILLEGAL_STATE);
    // A wait on an event of outside the capture.
    CUevent outside;
    CU_ASSERT_OK(cu->cuEventCreate(&outside, 0));
    CU_ASSERT_OK(cu->cuEventRecord(outside, s));
    CU_ASSERT_OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_EQ(cu->cuStreamWaitEvent(s, outside, 0),
              CUDA_ERROR_STREAM_CAPTURE_ISOLATION);
    EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(outside));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph"), 0)
        << "the graphs of invalidated captures are gone";
}

TEST_F(CudaCaptureEmulated, ACaptureGoesWithItsContext) {
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUstream cs;
    CU_ASSERT_OK(cu->cuStreamCreate(&cs, 0));
    CU_ASSERT_OK(cuStreamBeginCapture_v2(cs, CU_STREAM_CAPTURE_MODE_RELAXED));
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("graph"), 0);
    // Work runs at once again: no capture is left.
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 8, n, s));
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_SUCCESS);
}

} // namespace
