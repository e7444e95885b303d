// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Streams, events, copies on streams and between contexts, fills and 2D
// copies, as cuda.h documents them: each entry point's success path and
// its documented errors (NULL and destroyed handles, wrong contexts,
// invalid flags, out-of-range sizes). Data moves only through the driver's
// copy calls. The CudaStream* cases run unchanged on a real libcuda.so.1
// (they wait for completion where a GPU would run asynchronously);
// CudaStreamEmulated checks what only the emulated driver promises.

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include <sys/syscall.h>

#include "cuda_test_fixture.h"
#include "mock_bytes.h"

namespace {

class CudaStream : public CudaCtxTest {
  protected:
    int count = 0;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (!HasFatalFailure()) {
            CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
        }
    }

    std::vector<unsigned char> read(CUdeviceptr p, size_t n) {
        std::vector<unsigned char> v(n);
        EXPECT_EQ(cu->cuMemcpyDtoH_v2(v.data(), p, n), CUDA_SUCCESS);
        return v;
    }
};

// ---------------------------------------------------------------------------
// Streams

TEST_F(CudaStream, CreateQueryDestroy) {
    CUstream s = nullptr;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_DEFAULT));
    EXPECT_NE(s, nullptr);
    CU_EXPECT_OK(cu->cuStreamQuery(s));
    CU_EXPECT_OK(cu->cuStreamSynchronize(s));
    unsigned flags = 99;
    CU_EXPECT_OK(cu->cuStreamGetFlags(s, &flags));
    EXPECT_EQ(flags, static_cast<unsigned>(CU_STREAM_DEFAULT));
    CUcontext c = nullptr;
    CU_EXPECT_OK(cu->cuStreamGetCtx(s, &c));
    EXPECT_EQ(c, ctx);
    int prio = 99;
    CU_EXPECT_OK(cu->cuStreamGetPriority(s, &prio));
    EXPECT_EQ(prio, 0);
    auto get_id =
        reinterpret_cast<CUresult (*)(CUstream, unsigned long long *)>(
            cuda_test_driver_symbol("cuStreamGetId"));
    if (get_id != nullptr) { // CUDA 12
        unsigned long long id = 0, other = 0;
        CU_EXPECT_OK(get_id(s, &id));
        CUstream s2;
        CU_ASSERT_OK(cu->cuStreamCreate(&s2, 0));
        CU_EXPECT_OK(get_id(s2, &other));
        EXPECT_NE(id, other) << "a unique id per stream";
        CU_EXPECT_OK(cu->cuStreamDestroy_v2(s2));
        EXPECT_EQ(get_id(s, nullptr), CUDA_ERROR_INVALID_VALUE);
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));

    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_EXPECT_OK(cu->cuStreamGetFlags(s, &flags));
    EXPECT_EQ(flags, static_cast<unsigned>(CU_STREAM_NON_BLOCKING));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaStream, CreateErrors) {
    CUstream s;
    EXPECT_EQ(cu->cuStreamCreate(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuStreamCreate(&s, 0x10), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuStreamCreateWithPriority(nullptr, 0, 0),
              CUDA_ERROR_INVALID_VALUE);
    // No current context.
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(cu->cuStreamCreate(&s, 0), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(top));
}

TEST_F(CudaStream, PrioritiesAreClampedToTheRange) {
    int least = 99, greatest = 99;
    CU_ASSERT_OK(cu->cuCtxGetStreamPriorityRange(&least, &greatest));
    EXPECT_LE(greatest, least) << "lower numbers are greater priorities";
    // Both are optional.
    CU_EXPECT_OK(cu->cuCtxGetStreamPriorityRange(nullptr, &greatest));
    CU_EXPECT_OK(cu->cuCtxGetStreamPriorityRange(&least, nullptr));
    struct {
        int asked, got;
    } cases[] = {{least, least},
                 {greatest, greatest},
                 {greatest - 100, greatest},
                 {least + 100, least}};
    for (auto c : cases) {
        CUstream s;
        CU_ASSERT_OK(cu->cuStreamCreateWithPriority(&s, 0, c.asked));
        int prio = 99;
        CU_EXPECT_OK(cu->cuStreamGetPriority(s, &prio));
        EXPECT_EQ(prio, c.got) << "asked for " << c.asked;
        CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    }
}

TEST_F(CudaStream, DefaultStreamHandles) {
    for (CUstream s : {static_cast<CUstream>(nullptr), CU_STREAM_LEGACY,
                       CU_STREAM_PER_THREAD}) {
        CU_EXPECT_OK(cu->cuStreamQuery(s));
        CU_EXPECT_OK(cu->cuStreamSynchronize(s));
        CUcontext c = nullptr;
        CU_EXPECT_OK(cu->cuStreamGetCtx(s, &c));
        EXPECT_EQ(c, ctx) << "the current context's";
        int prio = 99;
        CU_EXPECT_OK(cu->cuStreamGetPriority(s, &prio));
        EXPECT_EQ(prio, 0);
    }
    // Without a current context there is no default stream.
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    CUcontext c;
    EXPECT_EQ(cu->cuStreamGetCtx(nullptr, &c), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuStreamGetCtx(CU_STREAM_PER_THREAD, &c),
              CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(top));
    EXPECT_EQ(cu->cuStreamGetCtx(nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaStream, StreamQueriesArgumentErrors) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    EXPECT_EQ(cu->cuStreamGetFlags(s, nullptr), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuStreamGetPriority(s, nullptr), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaStream, StreamOfAnotherContextKeepsItsContext) {
    CUcontext other;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&other, 0, dev));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUcontext c = nullptr;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&c));
    EXPECT_EQ(c, other);
    // The primary context is current again; the stream stays other's.
    CU_EXPECT_OK(cu->cuStreamGetCtx(s, &c));
    EXPECT_EQ(c, other);
    // A copy on it works from here: a memory copy may use a stream of
    // another context.
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    unsigned char buf[64] = {1, 2, 3};
    CU_EXPECT_OK(cu->cuMemcpyHtoDAsync_v2(p, buf, sizeof(buf), s));
    CU_EXPECT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(read(p, 3)[2], 3);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(other));
}

// ---------------------------------------------------------------------------
// Events

TEST_F(CudaStream, EventCreateRecordQuerySynchronize) {
    for (unsigned flags : {static_cast<unsigned>(CU_EVENT_DEFAULT),
                           static_cast<unsigned>(CU_EVENT_DISABLE_TIMING),
                           static_cast<unsigned>(CU_EVENT_BLOCKING_SYNC),
                           static_cast<unsigned>(CU_EVENT_INTERPROCESS |
                                                 CU_EVENT_DISABLE_TIMING)}) {
        CUevent e = nullptr;
        CU_ASSERT_OK(cu->cuEventCreate(&e, flags)) << flags;
        // Before any record: an empty set of work, complete.
        CU_EXPECT_OK(cu->cuEventQuery(e));
        CU_EXPECT_OK(cu->cuEventSynchronize(e));
        CU_EXPECT_OK(cu->cuEventRecord(e, nullptr));
        CU_EXPECT_OK(cu->cuEventSynchronize(e));
        CU_EXPECT_OK(cu->cuEventQuery(e));
        CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
    }
    auto record_with_flags =
        reinterpret_cast<CUresult (*)(CUevent, CUstream, unsigned)>(
            cuda_test_driver_symbol("cuEventRecordWithFlags"));
    ASSERT_NE(record_with_flags, nullptr);
    CUevent e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    CU_EXPECT_OK(record_with_flags(e, nullptr, CU_EVENT_RECORD_DEFAULT));
    CU_EXPECT_OK(cu->cuEventSynchronize(e));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
}

TEST_F(CudaStream, EventCreateErrors) {
    CUevent e;
    EXPECT_EQ(cu->cuEventCreate(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuEventCreate(&e, 0x100), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuEventCreate(&e, CU_EVENT_INTERPROCESS),
              CUDA_ERROR_INVALID_VALUE)
        << "CU_EVENT_INTERPROCESS must come with CU_EVENT_DISABLE_TIMING";
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(cu->cuEventCreate(&e, 0), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(top));
}

TEST_F(CudaStream, ElapsedTimeBetweenRecordsOnAStream) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUevent a, b;
    CU_ASSERT_OK(cu->cuEventCreate(&a, CU_EVENT_DEFAULT));
    CU_ASSERT_OK(cu->cuEventCreate(&b, CU_EVENT_DEFAULT));
    float ms = -1;
    // Not recorded yet.
    EXPECT_EQ(cu->cuEventElapsedTime(&ms, a, b), CUDA_ERROR_INVALID_HANDLE);
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 1 << 20));
    CU_ASSERT_OK(cu->cuEventRecord(a, s));
    CU_ASSERT_OK(cu->cuMemsetD8Async(p, 7, 1 << 20, s));
    CU_ASSERT_OK(cu->cuEventRecord(b, s));
    CU_ASSERT_OK(cu->cuEventSynchronize(b));
    CU_ASSERT_OK(cu->cuEventElapsedTime(&ms, a, b));
    EXPECT_GE(ms, 0.0f);
    EXPECT_EQ(cu->cuEventElapsedTime(nullptr, a, b), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(a));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(b));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaStream, ElapsedTimeIsRefusedWithoutTiming) {
    CUevent timed, untimed;
    CU_ASSERT_OK(cu->cuEventCreate(&timed, CU_EVENT_DEFAULT));
    CU_ASSERT_OK(cu->cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuEventRecord(timed, nullptr));
    CU_ASSERT_OK(cu->cuEventRecord(untimed, nullptr));
    CU_ASSERT_OK(cu->cuCtxSynchronize());
    float ms;
    EXPECT_EQ(cu->cuEventElapsedTime(&ms, timed, untimed),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuEventElapsedTime(&ms, untimed, timed),
              CUDA_ERROR_INVALID_HANDLE);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(timed));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(untimed));
}

TEST_F(CudaStream, RecordNeedsEventAndStreamOfOneContext) {
    CUevent e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CUcontext other;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&other, 0, dev));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    // "hEvent and hStream must be from the same context otherwise
    // CUDA_ERROR_INVALID_HANDLE is returned."
    EXPECT_EQ(cu->cuEventRecord(e, s), CUDA_ERROR_INVALID_HANDLE);
    // A stream may wait on an event of another context.
    CU_EXPECT_OK(cu->cuStreamWaitEvent(s, e, 0));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuCtxDestroy_v2(other));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
}

TEST_F(CudaStream, WaitEventOrdersTwoStreams) {
    CUstream producer, consumer;
    CU_ASSERT_OK(cu->cuStreamCreate(&producer, CU_STREAM_NON_BLOCKING));
    CU_ASSERT_OK(cu->cuStreamCreate(&consumer, CU_STREAM_NON_BLOCKING));
    CUevent ready;
    CU_ASSERT_OK(cu->cuEventCreate(&ready, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 4096));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, 4096));
    CU_ASSERT_OK(cu->cuMemsetD32Async(a, 0xdeadbeef, 1024, producer));
    CU_ASSERT_OK(cu->cuEventRecord(ready, producer));
    CU_ASSERT_OK(cu->cuStreamWaitEvent(consumer, ready, CU_EVENT_WAIT_DEFAULT));
    CU_ASSERT_OK(cu->cuMemcpyDtoDAsync_v2(b, a, 4096, consumer));
    CU_ASSERT_OK(cu->cuStreamSynchronize(consumer));
    std::vector<unsigned char> v = read(b, 4096);
    uint32_t word;
    std::memcpy(&word, v.data() + 4092, 4);
    EXPECT_EQ(word, 0xdeadbeefu);
    EXPECT_EQ(cu->cuStreamWaitEvent(consumer, nullptr, 0),
              CUDA_ERROR_INVALID_HANDLE)
        << "the event may not be NULL";
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(ready));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(producer));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(consumer));
}

// ---------------------------------------------------------------------------
// Interprocess events

// Opens the event handle it receives, waits on it in a stream, records it
// itself, and says so.
UMF_TEST_CHILD(event_importer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    CUipcEventHandle h;
    CHILD_ASSERT(umf_test_recv(sock, &h, sizeof(h)) == 0);
    CUevent e = nullptr;
    CHILD_CU(cu->cuIpcOpenEventHandle(&e, h));
    CHILD_CU(cu->cuEventSynchronize(e));
    CHILD_CU(cu->cuEventQuery(e));
    CUstream s;
    CHILD_CU(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHILD_CU(cu->cuStreamWaitEvent(s, e, 0));
    CHILD_CU(cu->cuEventRecord(e, s));
    CHILD_CU(cu->cuStreamSynchronize(s));
    // An opened event behaves as one made with CU_EVENT_DISABLE_TIMING.
    float ms;
    CHILD_ASSERT(cu->cuEventElapsedTime_v2(&ms, e, e) ==
                 CUDA_ERROR_INVALID_HANDLE);
    CHILD_CU(cu->cuEventDestroy_v2(e));
    CHILD_CU(cu->cuStreamDestroy_v2(s));
    char done = 'D';
    CHILD_ASSERT(umf_test_send(sock, &done, 1) == 0);
    CHILD_CU(cu->cuCtxPopCurrent_v2(&ctx));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

TEST_F(CudaStream, InterprocessEventBetweenTwoProcesses) {
    CUevent e;
    CU_ASSERT_OK(
        cu->cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuEventRecord(e, nullptr));
    CUipcEventHandle h;
    std::memset(&h, 0, sizeof(h));
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, e));
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "event_importer", nullptr), 0);
    EXPECT_EQ(umf_test_send(child.sock, &h, sizeof(h)), 0);
    char done = 0;
    EXPECT_EQ(umf_test_recv(child.sock, &done, 1), 0);
    EXPECT_EQ(done, 'D');
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    // The importer's record is complete here too.
    CU_EXPECT_OK(cu->cuEventSynchronize(e));
    CU_EXPECT_OK(cu->cuEventQuery(e));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
}

// Refuses pidfd_getfd in this process (as container runtimes do), then
// opens the event handle it receives and sends the CUresult, and whether a
// record made in the exporter before the handle was sent is seen.
UMF_TEST_CHILD(event_importer_refused) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CHILD_ASSERT(umf_test_refuse_syscall(SYS_pidfd_getfd, EPERM) == 0);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    CUipcEventHandle h;
    CHILD_ASSERT(umf_test_recv(sock, &h, sizeof(h)) == 0);
    int fds = umf_test_count_open_fds();
    CUevent e = nullptr;
    int result[2] = {(int)cu->cuIpcOpenEventHandle(&e, h), 0};
    if (result[0] == CUDA_SUCCESS) {
        result[1] = cu->cuEventQuery(e) == CUDA_SUCCESS;
        CHILD_CU(cu->cuEventDestroy_v2(e));
    }
    // Taken or refused, no fd stays behind.
    CHILD_ASSERT(umf_test_count_open_fds() == fds);
    CHILD_ASSERT(umf_test_send(sock, result, sizeof(result)) == 0);
    CHILD_CU(cu->cuCtxPopCurrent_v2(&ctx));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

// What event_importer_refused made of `h`, with the child's environment
// `env` (NAME=value, or nullptr).
static std::pair<int, int> OpenRefused(const CUipcEventHandle &h,
                                       const char *env) {
    const char *args[] = {env, nullptr};
    umf_test_child_t child;
    int result[2] = {-1, 0};
    if (umf_test_child_start(&child, "event_importer_refused", args) != 0) {
        ADD_FAILURE() << "the child did not start";
        return {-1, 0};
    }
    EXPECT_EQ(umf_test_send(child.sock, &h, sizeof(h)), 0);
    EXPECT_EQ(umf_test_recv(child.sock, result, sizeof(result)), 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    return {result[0], result[1]};
}

// As for memory handles (issue 17): the exporter serves the pool's fd over
// its fd server, and an importer whose pidfd_getfd the OS refuses takes it
// there, unless it asked for pidfd_getfd only.
TEST_F(CudaStream, InterprocessEventWhenPidfdGetfdIsRefused) {
    CUDA_TEST_REQUIRE_EMULATED(); // its fd server
    CUevent e;
    CU_ASSERT_OK(
        cu->cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuEventRecord(e, nullptr));
    CUipcEventHandle h;
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, e));
    EXPECT_EQ(OpenRefused(h, nullptr), std::make_pair((int)CUDA_SUCCESS, 1));
    EXPECT_EQ(OpenRefused(h, "UMF_GPU_IPC_FD_TRANSFER=pidfd"),
              std::make_pair((int)CUDA_ERROR_NOT_PERMITTED, 0));
    EXPECT_EQ(OpenRefused(h, "UMF_GPU_IPC_FD_TRANSFER=socket"),
              std::make_pair((int)CUDA_SUCCESS, 1));
    // A destroyed event's pool is served no more.
    CU_ASSERT_OK(cu->cuEventDestroy_v2(e));
    EXPECT_EQ(OpenRefused(h, nullptr).first, (int)CUDA_ERROR_INVALID_HANDLE);
}

// Bytes 36-43 of a handle name the exporter (its pidfd inode or start
// time): a handle whose exporter is another process (its pid reused) is
// refused, not opened on that process's fd.
TEST_F(CudaStream, AnEventHandleOfAnotherExporterIsRefused) {
    CUDA_TEST_REQUIRE_EMULATED(); // its fd server
    CUevent e;
    CU_ASSERT_OK(
        cu->cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, e));
    unsigned char *b = reinterpret_cast<unsigned char *>(h.reserved);
    b[36] ^= 1;
    umf_mock_put32(b + 32,
                   umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, b + 8, 24),
                                  b + 36, 28));
    EXPECT_EQ(OpenRefused(h, "UMF_GPU_IPC_FD_TRANSFER=socket").first,
              (int)CUDA_ERROR_INVALID_HANDLE);
    // pidfd_getfd refused and the socket's answer the same.
    EXPECT_EQ(OpenRefused(h, nullptr).first, (int)CUDA_ERROR_INVALID_HANDLE);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
}

TEST_F(CudaStream, InterprocessEventErrors) {
    CUevent plain;
    CU_ASSERT_OK(cu->cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    EXPECT_NE(cu->cuIpcGetEventHandle(&h, plain), CUDA_SUCCESS)
        << "the event must be made with CU_EVENT_INTERPROCESS";
    CUevent ipc;
    CU_ASSERT_OK(cu->cuEventCreate(&ipc, CU_EVENT_INTERPROCESS |
                                             CU_EVENT_DISABLE_TIMING));
    EXPECT_EQ(cu->cuIpcGetEventHandle(nullptr, ipc), CUDA_ERROR_INVALID_VALUE);
    // Garbage is no handle.
    CUipcEventHandle junk;
    std::memset(&junk, 0x5a, sizeof(junk));
    CUevent opened;
    EXPECT_NE(cu->cuIpcOpenEventHandle(&opened, junk), CUDA_SUCCESS);
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, ipc));
    EXPECT_EQ(cu->cuIpcOpenEventHandle(nullptr, h), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(ipc));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(plain));
}

// ---------------------------------------------------------------------------
// Copies on streams

TEST_F(CudaStream, AsyncCopiesInEveryDirection) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    const size_t n = 100000;
    std::vector<unsigned char> in(n), out(n, 0);
    for (size_t i = 0; i < n; i++) {
        in[i] = static_cast<unsigned char>(i * 7);
    }
    CUdeviceptr a, b;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, n));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&b, n));
    void *pinned = nullptr;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&pinned, n));
    std::memcpy(pinned, in.data(), n);
    CU_ASSERT_OK(
        cu->cuMemcpyHtoDAsync_v2(a, pinned, n, s)); // from pinned memory
    CU_ASSERT_OK(cu->cuMemcpyDtoDAsync_v2(b, a, n, s));
    CU_ASSERT_OK(cu->cuMemcpyAsync(a, b, n / 2, s)); // unified addressing
    CU_ASSERT_OK(cu->cuMemcpyDtoHAsync_v2(out.data(), b, n, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(out, in);
    // On the default streams too.
    std::fill(out.begin(), out.end(), 0);
    CU_ASSERT_OK(cu->cuMemcpyDtoHAsync_v2(out.data(), a, n, nullptr));
    CU_ASSERT_OK(cu->cuMemcpyAsync((CUdeviceptr)(uintptr_t)pinned, a, n,
                                   CU_STREAM_PER_THREAD));
    CU_ASSERT_OK(cu->cuStreamSynchronize(CU_STREAM_PER_THREAD));
    CU_ASSERT_OK(cu->cuCtxSynchronize());
    EXPECT_EQ(out, in);
    EXPECT_EQ(std::memcmp(pinned, in.data(), n), 0);
    // Zero bytes: nothing to do.
    CU_EXPECT_OK(cu->cuMemcpyHtoDAsync_v2(a, in.data(), 0, s));
    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
    CU_EXPECT_OK(cu->cuMemFree_v2(b));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaStream, AsyncCopyErrors) {
    CUdeviceptr a;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&a, 4096));
    char buf[16];
    // Not device memory where the call wants it.
    EXPECT_EQ(cu->cuMemcpyDtoHAsync_v2(buf, (CUdeviceptr)(uintptr_t)buf,
                                       sizeof(buf), nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemcpyHtoDAsync_v2(0, buf, sizeof(buf), nullptr),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(a));
}

// ---------------------------------------------------------------------------
// Copies between contexts

TEST_F(CudaStream, PeerCopiesBetweenDevices) {
    if (count < 2) {
        GTEST_SKIP() << "one device";
    }
    CUcontext other;
    CU_ASSERT_OK(cu->cuDevicePrimaryCtxRetain(&other, 1));
    CUdeviceptr here, there;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&here, 8192));
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(other));
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&there, 8192));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(there, 0x3c, 8192));
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&c));
    // No peer access needed: the driver stages the copy.
    CU_ASSERT_OK(cu->cuMemcpyPeer(here, ctx, there, other, 8192));
    EXPECT_EQ(read(here, 8192)[8191], 0x3c);
    CU_ASSERT_OK(cu->cuMemsetD8_v2(here, 0x4d, 100));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuMemcpyPeerAsync(there, other, here, ctx, 100, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CU_ASSERT_OK(cu->cuMemcpyPeer(here + 4096, ctx, there, other, 100));
    EXPECT_EQ(read(here + 4096, 100)[99], 0x4d);
    // Invalid contexts.
    EXPECT_EQ(cu->cuMemcpyPeer(here, nullptr, there, other, 100),
              CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cu->cuMemcpyPeer(here, ctx, there, nullptr, 100),
              CUDA_ERROR_INVALID_CONTEXT);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(here));
    CU_EXPECT_OK(cu->cuMemFree_v2(there));
    CU_EXPECT_OK(cu->cuDevicePrimaryCtxRelease_v2(1));
}

// ---------------------------------------------------------------------------
// Fills

TEST_F(CudaStream, Fills8And16And32) {
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(p, 0x11, 4096));
    CU_ASSERT_OK(cu->cuMemsetD16_v2(p + 2, 0xa1b2, 3));
    CU_ASSERT_OK(cu->cuMemsetD32_v2(p + 16, 0x01020304, 2));
    std::vector<unsigned char> v = read(p, 32);
    uint16_t h;
    std::memcpy(&h, &v[2], 2);
    EXPECT_EQ(h, 0xa1b2);
    std::memcpy(&h, &v[6], 2);
    EXPECT_EQ(h, 0xa1b2);
    EXPECT_EQ(v[8], 0x11) << "three 16-bit values, no more";
    uint32_t w;
    std::memcpy(&w, &v[20], 4);
    EXPECT_EQ(w, 0x01020304u);
    EXPECT_EQ(v[24], 0x11);
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuMemsetD8Async(p, 0x22, 10, s));
    CU_ASSERT_OK(cu->cuMemsetD16Async(p + 10, 0x3344, 1, s));
    CU_ASSERT_OK(cu->cuMemsetD32Async(p + 12, 0x55667788, 1, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    v = read(p, 16);
    EXPECT_EQ(v[9], 0x22);
    std::memcpy(&h, &v[10], 2);
    EXPECT_EQ(h, 0x3344);
    std::memcpy(&w, &v[12], 4);
    EXPECT_EQ(w, 0x55667788u);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

TEST_F(CudaStream, FillErrors) {
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    // "The dstDevice pointer must be two (four) byte aligned."
    EXPECT_EQ(cu->cuMemsetD16_v2(p + 1, 0, 4), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD32_v2(p + 2, 0, 4), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD32Async(p + 2, 0, 4, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    // Not memory of the driver.
    char host[16];
    EXPECT_EQ(cu->cuMemsetD8_v2((CUdeviceptr)(uintptr_t)host, 0, 16),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

TEST_F(CudaStream, Fills2D) {
    const size_t pitch = 512, rows = 4;
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, pitch * rows));
    CU_ASSERT_OK(cu->cuMemsetD8_v2(p, 0, pitch * rows));
    CU_ASSERT_OK(cu->cuMemsetD2D8_v2(p, pitch, 0x77, 10, rows));
    CU_ASSERT_OK(cu->cuMemsetD2D16_v2(p + 16, pitch, 0x1234, 4, rows));
    CU_ASSERT_OK(cu->cuMemsetD2D32_v2(p + 32, pitch, 0xcafebabe, 2, rows));
    std::vector<unsigned char> v = read(p, pitch * rows);
    for (size_t r = 0; r < rows; r++) {
        const unsigned char *row = &v[r * pitch];
        EXPECT_EQ(row[9], 0x77) << r;
        EXPECT_EQ(row[10], 0) << r;
        uint16_t h;
        std::memcpy(&h, row + 22, 2);
        EXPECT_EQ(h, 0x1234) << r;
        EXPECT_EQ(row[24], 0) << r;
        uint32_t w;
        std::memcpy(&w, row + 36, 4);
        EXPECT_EQ(w, 0xcafebabeu) << r;
        EXPECT_EQ(row[40], 0) << r;
    }
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuMemsetD2D8Async(p + 100, pitch, 1, 2, rows, s));
    CU_ASSERT_OK(cu->cuMemsetD2D16Async(p + 104, pitch, 2, 1, rows, s));
    CU_ASSERT_OK(cu->cuMemsetD2D32Async(p + 108, pitch, 3, 1, rows, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    v = read(p, pitch * rows);
    EXPECT_EQ(v[3 * pitch + 101], 1);
    EXPECT_EQ(v[3 * pitch + 104], 2);
    EXPECT_EQ(v[3 * pitch + 108], 3);
    // Errors: misaligned pitch, rows past the allocation.
    EXPECT_EQ(cu->cuMemsetD2D32_v2(p, pitch + 2, 0, 1, 2),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuMemsetD2D8_v2(p, pitch, 0, 10, rows + 1),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

// ---------------------------------------------------------------------------
// 2D copies

TEST_F(CudaStream, Copy2DHostToDeviceToHost) {
    const size_t width = 40, height = 5, hpitch = 64, dpitch = 512;
    std::vector<unsigned char> host(hpitch * height), back(hpitch * height, 0);
    for (size_t i = 0; i < host.size(); i++) {
        host[i] = static_cast<unsigned char>(i + 1);
    }
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, dpitch * height));
    CUDA_MEMCPY2D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host.data();
    c.srcPitch = hpitch;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = d;
    c.dstPitch = dpitch;
    c.WidthInBytes = width;
    c.Height = height;
    CU_ASSERT_OK(cu->cuMemcpy2D_v2(&c));
    // Back, with an X and Y offset into the device rows, on a stream.
    CUDA_MEMCPY2D r = {};
    r.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    r.srcDevice = d;
    r.srcPitch = dpitch;
    r.srcXInBytes = 8;
    r.srcY = 1;
    r.dstMemoryType = CU_MEMORYTYPE_HOST;
    r.dstHost = back.data();
    r.dstPitch = hpitch;
    r.WidthInBytes = width - 8;
    r.Height = height - 1;
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuMemcpy2DAsync_v2(&r, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    for (size_t row = 0; row < height - 1; row++) {
        for (size_t x = 0; x < width - 8; x++) {
            ASSERT_EQ(back[row * hpitch + x], host[(row + 1) * hpitch + x + 8])
                << row << "," << x;
        }
    }
    // Unaligned: device to device, odd pitches, unified addressing.
    CUdeviceptr d2;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d2, 1000));
    CUDA_MEMCPY2D u = {};
    u.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    u.srcDevice = d + 1;
    u.srcPitch = dpitch;
    u.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    u.dstDevice = d2 + 3;
    u.dstPitch = 77;
    u.WidthInBytes = 33;
    u.Height = 3;
    CU_ASSERT_OK(cu->cuMemcpy2DUnaligned_v2(&u));
    std::vector<unsigned char> v(1000);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(v.data(), d2, v.size()));
    EXPECT_EQ(v[3 + 2 * 77 + 32], host[2 * hpitch + 1 + 32]);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cu->cuMemFree_v2(d2));
}

TEST_F(CudaStream, Copy2DErrors) {
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, 4096));
    std::vector<unsigned char> host(4096);
    CUDA_MEMCPY2D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host.data();
    c.srcPitch = 64;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = d;
    c.dstPitch = 64;
    c.WidthInBytes = 64;
    c.Height = 2;
    CU_ASSERT_OK(cu->cuMemcpy2D_v2(&c));
    EXPECT_EQ(cu->cuMemcpy2D_v2(nullptr), CUDA_ERROR_INVALID_VALUE);
    CUDA_MEMCPY2D bad = c;
    bad.srcPitch = 32; // smaller than WidthInBytes
    EXPECT_EQ(cu->cuMemcpy2D_v2(&bad), CUDA_ERROR_INVALID_VALUE);
    bad = c;
    bad.dstXInBytes = 8; // dstPitch < WidthInBytes + dstXInBytes
    EXPECT_EQ(cu->cuMemcpy2D_v2(&bad), CUDA_ERROR_INVALID_VALUE);
    bad = c;
    bad.Height = 100; // rows past the device allocation
    bad.srcPitch = bad.dstPitch = 64;
    std::vector<unsigned char> big(64 * 100);
    bad.srcHost = big.data();
    EXPECT_EQ(cu->cuMemcpy2D_v2(&bad), CUDA_ERROR_INVALID_VALUE);
    bad = c;
    bad.dstMemoryType = static_cast<CUmemorytype>(99);
    EXPECT_EQ(cu->cuMemcpy2D_v2(&bad), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
}

// ---------------------------------------------------------------------------
// Threads: streams of one context used from several threads at once.

TEST_F(CudaStream, StreamsFromSeveralThreads) {
    const int threads = 4, rounds = 50;
    std::vector<std::thread> ts;
    std::vector<int> failures(threads, 0);
    for (int t = 0; t < threads; t++) {
        ts.emplace_back([&, t] {
            if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
                failures[t]++;
                return;
            }
            for (int r = 0; r < rounds; r++) {
                CUstream s;
                CUevent e;
                CUdeviceptr p;
                uint32_t out = 0, want = static_cast<uint32_t>(t * 1000 + r);
                if (cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) !=
                        CUDA_SUCCESS ||
                    cu->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING) !=
                        CUDA_SUCCESS ||
                    cu->cuMemAlloc_v2(&p, 4) != CUDA_SUCCESS) {
                    failures[t]++;
                    return;
                }
                if (cu->cuMemsetD32Async(p, want, 1, s) != CUDA_SUCCESS ||
                    cu->cuEventRecord(e, s) != CUDA_SUCCESS ||
                    cu->cuEventSynchronize(e) != CUDA_SUCCESS ||
                    cu->cuMemcpyDtoHAsync_v2(&out, p, 4, s) != CUDA_SUCCESS ||
                    cu->cuStreamSynchronize(s) != CUDA_SUCCESS || out != want) {
                    failures[t]++;
                }
                if (cu->cuMemFree_v2(p) != CUDA_SUCCESS ||
                    cu->cuEventDestroy_v2(e) != CUDA_SUCCESS ||
                    cu->cuStreamDestroy_v2(s) != CUDA_SUCCESS) {
                    failures[t]++;
                }
            }
            cu->cuCtxSetCurrent(nullptr);
        });
    }
    for (auto &t : ts) {
        t.join();
    }
    for (int t = 0; t < threads; t++) {
        EXPECT_EQ(failures[t], 0) << "thread " << t;
    }
}

// ---------------------------------------------------------------------------
// The emulated driver's own promises

using CudaStreamEmulated = CudaEmulatedOnly<CudaStream>;

TEST_F(CudaStreamEmulated, DestroyedHandlesAreErrorsNeverCrashes) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuStreamDestroy_v2(s));
    EXPECT_EQ(cu->cuStreamDestroy_v2(s), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
    unsigned flags;
    EXPECT_EQ(cu->cuStreamGetFlags(s, &flags), CUDA_ERROR_INVALID_HANDLE);
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 64));
    char buf[64];
    EXPECT_EQ(cu->cuMemcpyHtoDAsync_v2(p, buf, 64, s),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuMemsetD8Async(p, 0, 64, s), CUDA_ERROR_INVALID_HANDLE);
    // Made-up handles.
    int junk[16] = {};
    CUstream fake = reinterpret_cast<CUstream>(junk);
    EXPECT_EQ(cu->cuStreamQuery(fake), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuStreamDestroy_v2(nullptr), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuStreamDestroy_v2(CU_STREAM_PER_THREAD),
              CUDA_ERROR_INVALID_HANDLE);
    CUevent e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    CU_ASSERT_OK(cu->cuEventDestroy_v2(e));
    EXPECT_EQ(cu->cuEventDestroy_v2(e), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuEventQuery(e), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuEventRecord(e, nullptr), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuEventSynchronize(reinterpret_cast<CUevent>(junk)),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuStreamWaitEvent(nullptr, e, 0), CUDA_ERROR_INVALID_HANDLE);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

TEST_F(CudaStreamEmulated, StreamsAndEventsGoWithTheirContext) {
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    CUstream s;
    CUevent e;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("stream"), 1);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("event"), 1);
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("stream"), 0);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("event"), 0);
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cu->cuEventQuery(e), CUDA_ERROR_INVALID_HANDLE);
}

// With no host function queued anywhere, work runs when it is enqueued.
TEST_F(CudaStreamEmulated, WorkIsCompleteWhenEnqueued) {
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 1 << 20));
    CU_ASSERT_OK(cu->cuMemsetD8Async(p, 1, 1 << 20, s));
    // No synchronize: the emulated device ran it already.
    EXPECT_EQ(cu->cuStreamQuery(s), CUDA_SUCCESS);
    CUevent e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    CU_ASSERT_OK(cu->cuEventRecord(e, s));
    EXPECT_EQ(cu->cuEventQuery(e), CUDA_SUCCESS);
    // Outside a capture an external wait is a plain wait; other flags are
    // not flags.
    CU_EXPECT_OK(cu->cuStreamWaitEvent(s, e, CU_EVENT_WAIT_EXTERNAL));
    EXPECT_EQ(cu->cuStreamWaitEvent(s, e, 0x80), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

TEST_F(CudaStreamEmulated, InterprocessEventExactCodes) {
    CUevent plain, ipc, opened;
    CU_ASSERT_OK(cu->cuEventCreate(&plain, 0));
    CU_ASSERT_OK(cu->cuEventCreate(&ipc, CU_EVENT_INTERPROCESS |
                                             CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    EXPECT_EQ(cu->cuIpcGetEventHandle(&h, plain), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cu->cuIpcGetEventHandle(&h, nullptr), CUDA_ERROR_INVALID_HANDLE);
    CUipcEventHandle junk;
    std::memset(&junk, 0x5a, sizeof(junk));
    EXPECT_EQ(cu->cuIpcOpenEventHandle(&opened, junk),
              CUDA_ERROR_INVALID_VALUE);
    // In the same process: an event on the same shared state.
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, ipc));
    CU_ASSERT_OK(cu->cuIpcOpenEventHandle(&opened, h));
    EXPECT_EQ(cu->cuIpcGetEventHandle(&h, opened), CUDA_ERROR_INVALID_VALUE)
        << "an opened event is not an interprocess one";
    CU_EXPECT_OK(cu->cuEventRecord(opened, nullptr));
    CU_EXPECT_OK(cu->cuEventQuery(ipc));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(opened));
    // A handle whose event is gone.
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, ipc));
    CU_ASSERT_OK(cu->cuEventDestroy_v2(ipc));
    EXPECT_EQ(cu->cuIpcOpenEventHandle(&opened, h), CUDA_ERROR_INVALID_HANDLE);
    // A handle whose bits were changed after packing.
    CU_ASSERT_OK(cu->cuEventCreate(&ipc, CU_EVENT_INTERPROCESS |
                                             CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_OK(cu->cuIpcGetEventHandle(&h, ipc));
    h.reserved[40] ^= 1;
    EXPECT_EQ(cu->cuIpcOpenEventHandle(&opened, h), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuEventDestroy_v2(ipc));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(plain));
}

TEST_F(CudaStreamEmulated, FaultRulesByName) {
    cu->umfCudaMockResetCallCounts();
    ASSERT_EQ(cu->umfCudaMockInjectFaults(
                  "cuStreamCreate:1=CUDA_ERROR_OUT_OF_MEMORY;"
                  "cuEventRecord:1=CUDA_ERROR_LAUNCH_FAILED;"
                  "cuMemcpyHtoDAsync_v2:1=CUDA_ERROR_ILLEGAL_ADDRESS;"
                  "cuMemsetD32_v2:1=CUDA_ERROR_INVALID_VALUE"),
              0);
    CUstream s;
    EXPECT_EQ(cu->cuStreamCreate(&s, 0), CUDA_ERROR_OUT_OF_MEMORY);
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CUevent e;
    CU_ASSERT_OK(cu->cuEventCreate(&e, 0));
    EXPECT_EQ(cu->cuEventRecord(e, s), CUDA_ERROR_LAUNCH_FAILED);
    CU_EXPECT_OK(cu->cuEventRecord(e, s));
    CUdeviceptr p;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 16));
    char buf[16] = {};
    EXPECT_EQ(cu->cuMemcpyHtoDAsync_v2(p, buf, 16, s),
              CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT_EQ(cu->cuMemsetD32_v2(p, 0, 4), CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemsetD32_v2(p, 0, 4));
    cu->umfCudaMockClearFaults();
    EXPECT_EQ(cu->umfCudaMockGetCallCount("cuStreamCreate"), 2);
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
    CU_EXPECT_OK(cu->cuEventDestroy_v2(e));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
}

} // namespace
