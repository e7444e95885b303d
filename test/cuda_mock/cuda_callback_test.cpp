// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Host functions in stream order, as cuda.h documents cuLaunchHostFunc and
// cuStreamAddCallback: a host function runs once the work enqueued before
// it completed, "will block later work in the stream until it is
// finished", gets its stream and a status (callbacks), and what waits for
// it (synchronize, query, events, the legacy default stream's implicit
// synchronisation) sees it pending until it returned. Host functions here
// block on a gate the test opens, so that "pending" is observable on any
// driver, and data moves only with the driver's copies (through pinned
// host memory, which host functions may touch). The CudaHostFunc cases run
// unchanged on a real libcuda.so.1; the CudaHostFuncEmulated ones check
// what only the emulated driver promises (its answer to a host function
// that calls CUDA, queued work after fork, context destruction). Latency
// is measured by the benchmark (bench/bench_cuda_driver.c), not here.

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda_host_gate.h"
#include "cuda_test_fixture.h"
#include "test_tsan.h"

namespace {

using namespace std::chrono_literals;

using Gate = CudaHostGate;

// Records the order in which host functions ran.
struct Log {
    std::mutex m;
    std::vector<int> order;
    void Add(int v) {
        std::lock_guard<std::mutex> l(m);
        order.push_back(v);
    }
    std::vector<int> Get() {
        std::lock_guard<std::mutex> l(m);
        return order;
    }
};

struct Tagged {
    Log *log;
    int tag;
    static void CUDA_CB Fn(void *p) {
        Tagged *t = static_cast<Tagged *>(p);
        t->log->Add(t->tag);
    }
};

class CudaHostFunc : public CudaCtxTest {
  protected:
    decltype(&::cuLaunchHostFunc) launch_host_func = nullptr;
    decltype(&::cuStreamAddCallback) add_callback = nullptr;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        launch_host_func = reinterpret_cast<decltype(launch_host_func)>(
            cuda_test_driver_symbol("cuLaunchHostFunc"));
        add_callback = reinterpret_cast<decltype(add_callback)>(
            cuda_test_driver_symbol("cuStreamAddCallback"));
        ASSERT_NE(launch_host_func, nullptr);
        ASSERT_NE(add_callback, nullptr);
    }

    // Pinned host memory: host functions may read and write it, and
    // asynchronous copies use it.
    unsigned char *Pinned(size_t n) {
        void *p = nullptr;
        EXPECT_EQ(cu->cuMemAllocHost_v2(&p, n), CUDA_SUCCESS);
        return static_cast<unsigned char *>(p);
    }
};

// Copies into pinned memory a host function reads, and copies out of what
// it wrote: work before it has completed when it runs, work after it waits
// until it returned.
struct Relay {
    unsigned char *in, *out;
    size_t n;
    bool saw_input = false;
    static void CUDA_CB Fn(void *p) {
        Relay *r = static_cast<Relay *>(p);
        r->saw_input = true;
        for (size_t i = 0; i < r->n; i++) {
            r->saw_input = r->saw_input && r->in[i] == 0x5a;
            r->out[i] = static_cast<unsigned char>(r->in[i] ^ 0xff);
        }
    }
};

TEST_F(CudaHostFunc, RunsAfterEarlierWorkAndBeforeLaterWork) {
    const size_t n = 1 << 16;
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    unsigned char *in = Pinned(n), *out = Pinned(n);
    std::memset(out, 0, n);
    Gate gate;
    Relay relay{in, out, n};
    CU_ASSERT_OK(launch_host_func(s, Gate::Fn, &gate));
    CU_ASSERT_OK(cu->cuMemsetD8Async(a, 0x5a, n, s));
    CU_ASSERT_OK(cu->cuMemcpyDtoHAsync_v2(in, a, n, s));
    CU_ASSERT_OK(launch_host_func(s, Relay::Fn, &relay));
    CU_ASSERT_OK(cu->cuMemcpyHtoDAsync_v2(b, out, n, s));
    ASSERT_TRUE(gate.WaitEntered());
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_ERROR_NOT_READY)
        << "a host function blocks later work in its stream";
    gate.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CU_EXPECT_OK(cu->cuStreamQuery(s));
    EXPECT_TRUE(relay.saw_input) << "the work before it had completed";
    std::vector<unsigned char> back(n);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(back.data(), b, n));
    EXPECT_EQ(back, std::vector<unsigned char>(n, 0xa5))
        << "the work after it copied what it wrote";
    CU_EXPECT_OK(cu->cuMemFreeHost(in));
    CU_EXPECT_OK(cu->cuMemFreeHost(out));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

struct CallbackSeen {
    std::atomic<CUstream> stream{nullptr};
    std::atomic<CUresult> status{CUDA_ERROR_UNKNOWN};
    std::atomic<int> calls{0};
    static void CUDA_CB Fn(CUstream s, CUresult status, void *p) {
        CallbackSeen *c = static_cast<CallbackSeen *>(p);
        c->stream = s;
        c->status = status;
        c->calls++;
    }
};

TEST_F(CudaHostFunc, CallbackGetsItsStreamAndStatus) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CallbackSeen seen;
    CU_ASSERT_OK(add_callback(s, CallbackSeen::Fn, &seen, 0));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(seen.calls, 1) << "exactly once";
    EXPECT_EQ(seen.stream.load(), s);
    EXPECT_EQ(seen.status, CUDA_SUCCESS);
    // Argument errors.
    EXPECT_EQ(add_callback(s, CallbackSeen::Fn, &seen, 1),
              CUDA_ERROR_INVALID_VALUE)
        << "flags must be 0";
    EXPECT_EQ(add_callback(s, nullptr, &seen, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(launch_host_func(s, nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    EXPECT_EQ(seen.calls, 1);
}

TEST_F(CudaHostFunc, OnTheDefaultStreams) {
    Log log;
    Tagged t1{&log, 1}, t2{&log, 2}, t3{&log, 3};
    CU_ASSERT_OK(launch_host_func(nullptr, Tagged::Fn, &t1));
    CU_ASSERT_OK(launch_host_func(CU_STREAM_LEGACY, Tagged::Fn, &t2));
    CU_ASSERT_OK(launch_host_func(CU_STREAM_PER_THREAD, Tagged::Fn, &t3));
    CU_ASSERT_OK(cu->cuCtxSynchronize());
    std::vector<int> got = log.Get();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], 1);
    EXPECT_EQ(got[1], 2) << "the legacy stream keeps its order";
}

TEST_F(CudaHostFunc, ManyRunInOrder) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    Log log;
    std::vector<Tagged> tags(500);
    for (size_t i = 0; i < tags.size(); i++) {
        tags[i] = {&log, static_cast<int>(i)};
        if (i % 2 == 0) {
            CU_ASSERT_OK(launch_host_func(s, Tagged::Fn, &tags[i]));
        } else {
            CU_ASSERT_OK(add_callback(
                s, [](CUstream, CUresult, void *p) { Tagged::Fn(p); }, &tags[i],
                0));
        }
    }
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    std::vector<int> got = log.Get();
    ASSERT_EQ(got.size(), tags.size());
    for (size_t i = 0; i < got.size(); i++) {
        ASSERT_EQ(got[i], static_cast<int>(i));
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaHostFunc, OtherStreamsAreNotHeldBack) {
    CUstream blocked, other;
    CU_ASSERT_OK(cu->cuStreamCreate(&blocked, CU_STREAM_NON_BLOCKING));
    CU_ASSERT_OK(cu->cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    Gate gate;
    CU_ASSERT_OK(launch_host_func(blocked, Gate::Fn, &gate));
    ASSERT_TRUE(gate.WaitEntered());
    CU_ASSERT_OK(cu->cuMemsetD8Async(d, 7, 4096, other));
    CU_EXPECT_OK(cu->cuStreamSynchronize(other));
    EXPECT_EQ(cu->cuStreamQuery(blocked), CUDA_ERROR_NOT_READY);
    unsigned char back = 0;
    CU_EXPECT_OK(cu->cuMemcpyDtoHAsync_v2(&back, d + 4095, 1, other));
    CU_EXPECT_OK(cu->cuStreamSynchronize(other));
    EXPECT_EQ(back, 7);
    gate.Open();
    CU_EXPECT_OK(cu->cuStreamSynchronize(blocked));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(blocked));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(other));
}

// The legacy default stream waits for the blocking streams, and they for
// it; non-blocking streams for neither.
TEST_F(CudaHostFunc, LegacyStreamSynchronizesWithBlockingStreams) {
    CUstream blocking, nonblocking;
    CU_ASSERT_OK(cu->cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
    CU_ASSERT_OK(cu->cuStreamCreate(&nonblocking, CU_STREAM_NON_BLOCKING));
    const size_t n = 4096;
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, n));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(d, 0, n));
    unsigned char *pinned = Pinned(n);
    std::memset(pinned, 1, n);

    // A blocking stream's host function holds back the legacy stream.
    Gate gate;
    CU_ASSERT_OK(launch_host_func(blocking, Gate::Fn, &gate));
    ASSERT_TRUE(gate.WaitEntered());
    CU_ASSERT_OK(cu->cuMemcpyHtoDAsync_v2(d, pinned, n, CU_STREAM_LEGACY));
    EXPECT_EQ(cu->cuStreamQuery(CU_STREAM_LEGACY), CUDA_ERROR_NOT_READY);
    // A non-blocking stream runs on.
    CU_ASSERT_OK(cu->cuMemsetD8Async(d, 9, 1, nonblocking));
    CU_EXPECT_OK(cu->cuStreamSynchronize(nonblocking));
    gate.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(CU_STREAM_LEGACY));
    std::vector<unsigned char> back(n);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(back.data(), d, n));
    EXPECT_EQ(back, std::vector<unsigned char>(n, 1))
        << "the legacy copy ran after the non-blocking fill";

    // The legacy stream's host function holds back a blocking stream, not
    // a non-blocking one.
    Gate second;
    CU_ASSERT_OK(launch_host_func(CU_STREAM_LEGACY, Gate::Fn, &second));
    ASSERT_TRUE(second.WaitEntered());
    CU_ASSERT_OK(cu->cuMemsetD8Async(d, 2, n, blocking));
    EXPECT_EQ(cu->cuStreamQuery(blocking), CUDA_ERROR_NOT_READY);
    CU_ASSERT_OK(cu->cuMemsetD8Async(d + 1, 3, 1, nonblocking));
    CU_EXPECT_OK(cu->cuStreamSynchronize(nonblocking));
    second.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(blocking));
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(back.data(), d, n));
    EXPECT_EQ(back[0], 2);
    EXPECT_EQ(back[1], 2) << "the blocking fill ran after the other";

    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(blocking));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(nonblocking));
}

TEST_F(CudaHostFunc, EventsOfQueuedWorkArePending) {
    CUstream a, b;
    CU_ASSERT_OK(cu->cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    CU_ASSERT_OK(cu->cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    CUevent before, after;
    CU_ASSERT_OK(cu->cuEventCreate(&before, 0));
    CU_ASSERT_OK(cu->cuEventCreate(&after, 0));
    const size_t n = 4096;
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, n));
    unsigned char *pinned = Pinned(n);
    std::memset(pinned, 0, n);

    CU_ASSERT_OK(cu->cuEventRecord(before, a));
    Gate gate;
    CU_ASSERT_OK(launch_host_func(a, Gate::Fn, &gate));
    CU_ASSERT_OK(cu->cuMemsetD8Async(d, 0x33, n, a));
    CU_ASSERT_OK(cu->cuEventRecord(after, a));
    ASSERT_TRUE(gate.WaitEntered());
    CU_EXPECT_OK(cu->cuEventSynchronize(before));
    EXPECT_EQ(cu->cuEventQuery(after), CUDA_ERROR_NOT_READY);
    float ms = 0;
    EXPECT_EQ(cu->cuEventElapsedTime_v2(&ms, before, after),
              CUDA_ERROR_NOT_READY);
    // Stream b's copy waits for `after`.
    CU_ASSERT_OK(cu->cuStreamWaitEvent(b, after, 0));
    CU_ASSERT_OK(cu->cuMemcpyDtoHAsync_v2(pinned, d, n, b));
    EXPECT_EQ(cu->cuStreamQuery(b), CUDA_ERROR_NOT_READY);
    gate.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(b));
    CU_EXPECT_OK(cu->cuEventQuery(after));
    EXPECT_EQ(std::vector<unsigned char>(pinned, pinned + n),
              std::vector<unsigned char>(n, 0x33));
    CU_EXPECT_OK(cu->cuEventElapsedTime_v2(&ms, before, after));
    EXPECT_GE(ms, 0.0f);

    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(before));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(after));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(a));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(b));
}

struct Slow {
    std::atomic<bool> done{false};
    static void CUDA_CB Fn(void *p) {
        std::this_thread::sleep_for(30ms);
        static_cast<Slow *>(p)->done = true;
    }
};

TEST_F(CudaHostFunc, SynchronizingWaitsForIt) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUevent e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, CU_EVENT_BLOCKING_SYNC));
    Slow a, b, c;
    CU_ASSERT_OK(launch_host_func(s, Slow::Fn, &a));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_TRUE(a.done);
    CU_ASSERT_OK(launch_host_func(s, Slow::Fn, &b));
    CU_ASSERT_OK(cu->cuEventRecord(e, s));
    CU_ASSERT_OK(cu->cuEventSynchronize(e));
    EXPECT_TRUE(b.done);
    CU_ASSERT_OK(launch_host_func(s, Slow::Fn, &c));
    CU_ASSERT_OK(cu->cuCtxSynchronize());
    EXPECT_TRUE(c.done);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

// A synchronous copy is work of the legacy default stream: it waits for a
// blocking stream's host function.
TEST_F(CudaHostFunc, SynchronousCopyWaitsForBlockingStreams) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_DEFAULT));
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 64));
    unsigned char *pinned = Pinned(64);
    std::memset(pinned, 0, 64);
    struct Writer {
        unsigned char *p;
        static void CUDA_CB Fn(void *arg) {
            std::this_thread::sleep_for(20ms);
            std::memset(static_cast<Writer *>(arg)->p, 0x77, 64);
        }
    } w{pinned};
    CU_ASSERT_OK(launch_host_func(s, Writer::Fn, &w));
    CU_ASSERT_OK(cu->cuMemcpyHtoD_v2(d, pinned, 64));
    unsigned char back[64] = {};
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(back, d, 64));
    EXPECT_EQ(back[0], 0x77);
    EXPECT_EQ(back[63], 0x77);
    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaHostFunc, DestroyedStreamsWorkStillRuns) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    Gate gate;
    Log log;
    Tagged t{&log, 42};
    CU_ASSERT_OK(launch_host_func(s, Gate::Fn, &gate));
    CU_ASSERT_OK(launch_host_func(s, Tagged::Fn, &t));
    ASSERT_TRUE(gate.WaitEntered());
    CU_ASSERT_OK(cu->cuStreamDestroy_v2(s));
    gate.Open();
    CU_ASSERT_OK(cu->cuCtxSynchronize());
    EXPECT_EQ(log.Get(), std::vector<int>{42});
}

TEST_F(CudaHostFunc, ManyThreadsManyStreams) {
    const int threads = 4, per_thread = 200;
    std::vector<std::thread> ts;
    std::atomic<int> failures{0};
    std::vector<Log> logs(threads);
    for (int t = 0; t < threads; t++) {
        ts.emplace_back([&, t] {
            if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
                failures++;
                return;
            }
            CUstream s;
            if (cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) !=
                CUDA_SUCCESS) {
                failures++;
                return;
            }
            std::vector<Tagged> tags(per_thread);
            for (int i = 0; i < per_thread; i++) {
                tags[i] = {&logs[t], i};
                if (launch_host_func(s, Tagged::Fn, &tags[i]) != CUDA_SUCCESS) {
                    failures++;
                }
            }
            if (cu->cuStreamSynchronize(s) != CUDA_SUCCESS ||
                cu->cuStreamDestroy_v2(s) != CUDA_SUCCESS) {
                failures++;
            }
        });
    }
    for (auto &t : ts) {
        t.join();
    }
    EXPECT_EQ(failures, 0);
    for (auto &l : logs) {
        std::vector<int> got = l.Get();
        ASSERT_EQ(got.size(), static_cast<size_t>(per_thread));
        for (int i = 0; i < per_thread; i++) {
            ASSERT_EQ(got[i], i);
        }
    }
}

TEST_F(CudaHostFunc, BadStreams) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuStreamDestroy_v2(s));
    Log log;
    Tagged t{&log, 1};
    EXPECT_EQ(launch_host_func(s, Tagged::Fn, &t), CUDA_ERROR_INVALID_HANDLE);
    CallbackSeen seen;
    EXPECT_EQ(add_callback(s, CallbackSeen::Fn, &seen, 0),
              CUDA_ERROR_INVALID_HANDLE);
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(launch_host_func(nullptr, Tagged::Fn, &t),
              CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(top));
    EXPECT_TRUE(log.Get().empty());
}

// ---------------------------------------------------------------------------
// The emulated driver's own promises

using CudaHostFuncEmulated = CudaEmulatedOnly<CudaHostFunc>;

struct CallsCuda {
    const cuda_test_driver_t *cu;
    CUstream s;
    CUresult sync = CUDA_ERROR_UNKNOWN, ctx_sync = CUDA_ERROR_UNKNOWN,
             copy = CUDA_ERROR_UNKNOWN, count = CUDA_ERROR_UNKNOWN;
    static void CUDA_CB Fn(void *p) {
        CallsCuda *c = static_cast<CallsCuda *>(p);
        c->sync = c->cu->cuStreamSynchronize(c->s);
        int n = 0;
        c->count = c->cu->cuDeviceGetCount(&n);
        char byte = 0;
        CUcontext ctx = nullptr;
        c->cu->cuStreamGetCtx(c->s, &ctx);
        if (ctx != nullptr && c->cu->cuCtxPushCurrent_v2(ctx) == CUDA_SUCCESS) {
            c->ctx_sync = c->cu->cuCtxSynchronize();
            CUdeviceptr d = 0;
            if (c->cu->cuMemAlloc_v2(&d, 1) == CUDA_SUCCESS) {
                c->copy = c->cu->cuMemcpyHtoD_v2(d, &byte, 1);
                // The free would synchronize: refused too; freed after.
                CUresult f = c->cu->cuMemFree_v2(d);
                if (f != CUDA_SUCCESS) {
                    c->d_left = d;
                }
            }
            c->cu->cuCtxPopCurrent_v2(&ctx);
        }
    }
    CUdeviceptr d_left = 0;
};

TEST_F(CudaHostFuncEmulated, HostFunctionCallingCudaGetsNotPermitted) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_DEFAULT));
    CallsCuda c{cu, s};
    CU_ASSERT_OK(launch_host_func(s, CallsCuda::Fn, &c));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(c.sync, CUDA_ERROR_NOT_PERMITTED)
        << "waiting for its own stream would never end";
    EXPECT_EQ(c.ctx_sync, CUDA_ERROR_NOT_PERMITTED);
    EXPECT_EQ(c.copy, CUDA_ERROR_NOT_PERMITTED)
        << "a synchronous copy waits for the blocking stream";
    EXPECT_EQ(c.count, CUDA_SUCCESS) << "a call that need not wait works";
    if (c.d_left != 0) {
        CU_EXPECT_OK(cu->cuMemFree_v2(c.d_left));
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaHostFuncEmulated, QueuedFailureIsTheCallbacksStatus) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAllocAsync(&p, 4096, s));
    Gate gate;
    CU_ASSERT_OK(launch_host_func(s, Gate::Fn, &gate));
    // Both frees are accepted when queued; the second fails when it runs.
    CU_ASSERT_OK(cu->cuMemFreeAsync(p, s));
    CU_ASSERT_OK(cu->cuMemFreeAsync(p, s));
    CallbackSeen seen;
    CU_ASSERT_OK(add_callback(s, CallbackSeen::Fn, &seen, 0));
    gate.Open();
    EXPECT_EQ(cu->cuStreamSynchronize(s), CUDA_ERROR_INVALID_VALUE)
        << "the first error of queued work";
    CU_EXPECT_OK(cu->cuStreamSynchronize(s)) << "reported once";
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.status, CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaHostFuncEmulated, ContextDestroyWaitsForItsWork) {
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    Slow slow;
    CallbackSeen seen;
    CU_ASSERT_OK(launch_host_func(s, Slow::Fn, &slow));
    CU_ASSERT_OK(add_callback(s, CallbackSeen::Fn, &seen, 0));
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_TRUE(slow.done);
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.status, CUDA_SUCCESS);
}

// A host function destroys its own stream's context: nothing waits for
// itself; the work queued behind it is cancelled (its callbacks say so).
struct DestroysContext {
    const cuda_test_driver_t *cu;
    CUcontext ctx;
    std::atomic<CUresult> result{CUDA_ERROR_UNKNOWN};
    static void CUDA_CB Fn(void *p) {
        DestroysContext *d = static_cast<DestroysContext *>(p);
        d->result = d->cu->cuCtxDestroy_v2(d->ctx);
    }
};

TEST_F(CudaHostFuncEmulated, HostFunctionDestroyingItsContext) {
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    // Not current here: another thread destroys it.
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    ASSERT_EQ(top, c);
    DestroysContext destroys{cu, c};
    CallbackSeen seen;
    Gate gate; // all is queued before the context goes
    CU_ASSERT_OK(launch_host_func(s, Gate::Fn, &gate));
    CU_ASSERT_OK(launch_host_func(s, DestroysContext::Fn, &destroys));
    CU_ASSERT_OK(cu->cuMemsetD8Async(d, 1, 4096, s));
    CU_ASSERT_OK(add_callback(s, CallbackSeen::Fn, &seen, 0));
    gate.Open();
    // Wait without the stream (it goes with its context).
    for (int i = 0; i < 2000 && seen.calls == 0; i++) {
        std::this_thread::sleep_for(5ms);
    }
    EXPECT_EQ(destroys.result.load(), CUDA_SUCCESS);
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.status, CUDA_ERROR_CONTEXT_IS_DESTROYED);
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(CudaHostFuncEmulated, ForkChildRunsNoParentWorkAndTheParentGoesOn) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    Gate gate;
    Log log;
    Tagged parents{&log, 1};
    CU_ASSERT_OK(launch_host_func(s, Gate::Fn, &gate));
    CU_ASSERT_OK(launch_host_func(s, Tagged::Fn, &parents));
    ASSERT_TRUE(gate.WaitEntered());
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // CUDA cannot be used after fork (cuda_api_test.cpp's CudaFork), and
        // the parent's queued host function does not run here either.
        bool ok = cu->cuStreamQuery(s) == CUDA_ERROR_NOT_INITIALIZED &&
                  cu->cuStreamSynchronize(s) == CUDA_ERROR_NOT_INITIALIZED;
        std::this_thread::sleep_for(20ms);
        _exit(ok && log.Get().empty() ? 0 : 1);
    }
    int status = -1;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    gate.Open();
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(log.Get(), std::vector<int>{1});
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaHostFuncEmulated, IdleAgainWhenTheQueueRanDry) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    Log log;
    Tagged t{&log, 1};
    CU_ASSERT_OK(launch_host_func(s, Tagged::Fn, &t));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    // Nothing queued: work runs at enqueue again.
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 64));
    CU_ASSERT_OK(cu->cuMemsetD8Async(d, 1, 64, s));
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_SUCCESS);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

} // namespace
