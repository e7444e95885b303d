// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Legacy CUDA IPC between real processes: an exporter and an importer, each
// a fresh fork/exec of this binary, connected through the test (which
// relays the 64-byte handle and tells each side what to do). Data moves only
// through cuMemcpy* calls, as on a GPU. Each case runs in every memory mode
// of the emulated driver that supports IPC (arena, memfd); a real driver
// ignores the variable and runs the case twice.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

enum cmd_t : int32_t {
    CMD_HANDLE = 1, // to the importer: the handle (exporter: sends it)
    CMD_OPEN,       // importer: cuIpcOpenMemHandle_v2
    CMD_REOPEN,     // importer: open again; flag = 1 if same pointer
    CMD_CLOSE,      // importer: cuIpcCloseMemHandle
    CMD_CHECK,      // both: does the memory hold pattern `arg`?
    CMD_WRITE,      // both: write pattern `arg`
    CMD_FREE,       // exporter: cuMemFree_v2
    CMD_ALLOC_FILL, // exporter: allocate 8 more of the size, pattern arg
    CMD_ATTRS,      // importer: pointer attributes of the mapping
    CMD_LIVE,       // both: the emulated driver's live count `arg`
    CMD_EXIT,
};

struct msg_t {
    int32_t cmd;
    int32_t arg;
    int32_t result; // a CUresult, or 0/1 for checks
    int32_t flag;
    uint64_t size;
    unsigned char handle[CU_IPC_HANDLE_SIZE];
};

const size_t kSize = (1u << 20) + 123;

// The emulated driver's live count `what`, or -1 on another driver.
int32_t live_count(const cuda_test_driver_t *cu, int32_t what) {
    return cu->emulated() ? static_cast<int32_t>(cu->umfCudaMockGetLiveCount(
                                static_cast<umf_gpu_mock_live_t>(what)))
                          : -1;
}

// Makes device 0's primary context current.
bool child_context(const cuda_test_driver_t *cu, CUcontext *ctx) {
    return cu->cuDevicePrimaryCtxRetain(ctx, 0) == CUDA_SUCCESS &&
           cu->cuCtxSetCurrent(*ctx) == CUDA_SUCCESS;
}

UMF_TEST_CHILD(ipc_exporter) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_ASSERT(child_context(cu, &ctx));
    CUdeviceptr p = 0;
    CHILD_ASSERT(cu->cuMemAlloc_v2(&p, kSize) == CUDA_SUCCESS);
    CHILD_ASSERT(cuda_test_write_pattern(cu, p, kSize, 1) == CUDA_SUCCESS);
    msg_t m = {};
    CUipcMemHandle h, inner;
    CHILD_ASSERT(cu->cuIpcGetMemHandle(&h, p) == CUDA_SUCCESS);
    CHILD_ASSERT(cu->cuIpcGetMemHandle(&inner, p + 4096) == CUDA_SUCCESS);
    CHILD_ASSERT(std::memcmp(&h, &inner, sizeof(h)) == 0);
    m.cmd = CMD_HANDLE;
    m.size = kSize;
    std::memcpy(m.handle, &h, sizeof(h));
    CHILD_ASSERT(umf_test_send(sock, &m, sizeof(m)) == 0);
    std::vector<CUdeviceptr> more;
    bool freed = false;
    for (;;) {
        CHILD_ASSERT(umf_test_recv(sock, &m, sizeof(m)) == 0);
        switch (m.cmd) {
        case CMD_CHECK:
            m.result = cuda_test_check_pattern(cu, p, kSize, m.arg);
            break;
        case CMD_WRITE:
            m.result = cuda_test_write_pattern(cu, p, kSize, m.arg);
            break;
        case CMD_LIVE:
            m.result = live_count(cu, m.arg);
            break;
        case CMD_FREE:
            m.result = cu->cuMemFree_v2(p);
            freed = m.result == CUDA_SUCCESS;
            break;
        case CMD_ALLOC_FILL:
            m.result = CUDA_SUCCESS;
            for (int i = 0; i < 8 && m.result == CUDA_SUCCESS; i++) {
                CUdeviceptr q = 0;
                m.result = cu->cuMemAlloc_v2(&q, kSize);
                if (m.result == CUDA_SUCCESS) {
                    more.push_back(q);
                    m.result = cuda_test_write_pattern(cu, q, kSize, m.arg);
                }
            }
            break;
        case CMD_EXIT:
            for (CUdeviceptr q : more) {
                CHILD_ASSERT(cu->cuMemFree_v2(q) == CUDA_SUCCESS);
            }
            if (!freed) {
                CHILD_ASSERT(cu->cuMemFree_v2(p) == CUDA_SUCCESS);
            }
            CHILD_ASSERT(cu->cuCtxSetCurrent(nullptr) == CUDA_SUCCESS);
            CHILD_ASSERT(cu->cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
            return 0;
        default:
            std::fprintf(stderr, "exporter: unknown command %d\n", m.cmd);
            return 1;
        }
        CHILD_ASSERT(umf_test_send(sock, &m, sizeof(m)) == 0);
    }
}

UMF_TEST_CHILD(ipc_importer) {
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_ASSERT(child_context(cu, &ctx));
    CUipcMemHandle h = {};
    CUdeviceptr p = 0;
    size_t size = 0;
    int open_refs = 0;
    msg_t m;
    for (;;) {
        CHILD_ASSERT(umf_test_recv(sock, &m, sizeof(m)) == 0);
        switch (m.cmd) {
        case CMD_HANDLE:
            std::memcpy(&h, m.handle, sizeof(h));
            size = m.size;
            m.result = 0;
            break;
        case CMD_OPEN:
            m.result = cu->cuIpcOpenMemHandle_v2(
                &p, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
            open_refs += m.result == CUDA_SUCCESS;
            break;
        case CMD_REOPEN: {
            CUdeviceptr q = 0;
            m.result = cu->cuIpcOpenMemHandle_v2(
                &q, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
            m.flag = q == p;
            open_refs += m.result == CUDA_SUCCESS;
            break;
        }
        case CMD_LIVE:
            m.result = live_count(cu, m.arg);
            break;
        case CMD_CLOSE:
            m.result = cu->cuIpcCloseMemHandle(p);
            open_refs -= m.result == CUDA_SUCCESS;
            break;
        case CMD_CHECK:
            m.result = cuda_test_check_pattern(cu, p, size, m.arg);
            break;
        case CMD_WRITE:
            m.result = cuda_test_write_pattern(cu, p, size, m.arg);
            break;
        case CMD_ATTRS: {
            // The mapping is device memory of this process's context, and
            // interior pointers resolve to it.
            CUcontext owner = nullptr;
            unsigned type = 0;
            CUdeviceptr start = 0;
            m.result = cu->cuPointerGetAttribute(
                &owner, CU_POINTER_ATTRIBUTE_CONTEXT, p + 100);
            if (m.result == CUDA_SUCCESS) {
                m.result = cu->cuPointerGetAttribute(
                    &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 100);
            }
            if (m.result == CUDA_SUCCESS) {
                m.result = cu->cuPointerGetAttribute(
                    &start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p + 100);
            }
            m.flag = owner == ctx && type == CU_MEMORYTYPE_DEVICE && start == p;
            break;
        }
        case CMD_EXIT:
            CHILD_ASSERT(open_refs == 0);
            CHILD_ASSERT(cu->cuCtxSetCurrent(nullptr) == CUDA_SUCCESS);
            CHILD_ASSERT(cu->cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
            return 0;
        default:
            std::fprintf(stderr, "importer: unknown command %d\n", m.cmd);
            return 1;
        }
        CHILD_ASSERT(umf_test_send(sock, &m, sizeof(m)) == 0);
    }
}

// The test's side: an exporter and an importer in memory mode GetParam().
class CudaIpc : public CudaLoaded,
                public ::testing::WithParamInterface<const char *> {
  protected:
    umf_test_child_t exporter = {-1, -1}, importer = {-1, -1};

    void TearDown() override {
        if (exporter.pid > 0) {
            umf_test_child_kill(&exporter, SIGKILL);
        }
        if (importer.pid > 0) {
            umf_test_child_kill(&importer, SIGKILL);
        }
    }

    void Start(std::vector<std::string> importer_env = {}) {
        std::string mode = std::string("UMF_GPU_MOCK_MEMORY=") + GetParam();
        const char *eargs[] = {mode.c_str(), nullptr};
        ASSERT_EQ(umf_test_child_start(&exporter, "ipc_exporter", eargs), 0);
        importer_env.push_back(mode);
        std::vector<const char *> iargs;
        for (const std::string &e : importer_env) {
            iargs.push_back(e.c_str());
        }
        iargs.push_back(nullptr);
        ASSERT_EQ(umf_test_child_start(&importer, "ipc_importer", iargs.data()),
                  0);
        msg_t m;
        ASSERT_EQ(umf_test_recv(exporter.sock, &m, sizeof(m)), 0)
            << "the exporter died";
        ASSERT_EQ(m.cmd, CMD_HANDLE);
        ASSERT_EQ(m.size, kSize);
        msg_t r = Ask(importer, m);
        ASSERT_EQ(r.result, 0);
    }

    msg_t Ask(umf_test_child_t &c, msg_t m) {
        msg_t r = {};
        r.result = -1;
        if (umf_test_send(c.sock, &m, sizeof(m)) != 0 ||
            umf_test_recv(c.sock, &r, sizeof(r)) != 0) {
            ADD_FAILURE() << "child " << c.pid << " died";
            r.result = -1;
        }
        return r;
    }

    msg_t Ask(umf_test_child_t &c, cmd_t cmd, int arg = 0) {
        msg_t m = {};
        m.cmd = cmd;
        m.arg = arg;
        return Ask(c, m);
    }

    void Finish() {
        msg_t m = {};
        m.cmd = CMD_EXIT;
        EXPECT_EQ(umf_test_send(exporter.sock, &m, sizeof(m)), 0);
        EXPECT_EQ(umf_test_send(importer.sock, &m, sizeof(m)), 0);
        EXPECT_EQ(umf_test_child_wait(&exporter), 0) << "exporter";
        EXPECT_EQ(umf_test_child_wait(&importer), 0) << "importer";
    }
};

TEST_P(CudaIpc, DataMovesBothWaysAndReopenSharesTheMapping) {
    Start();
    ASSERT_EQ(Ask(importer, CMD_OPEN).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CHECK, 1).result, 1) << "exporter's data";
    msg_t a = Ask(importer, CMD_ATTRS);
    EXPECT_EQ(a.result, CUDA_SUCCESS);
    EXPECT_EQ(a.flag, 1);
    EXPECT_EQ(Ask(importer, CMD_WRITE, 2).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(exporter, CMD_CHECK, 2).result, 1) << "importer's data";
    EXPECT_EQ(Ask(exporter, CMD_WRITE, 3).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CHECK, 3).result, 1);

    // Opening again in the same context: the same pointer, one more
    // reference; each close drops one.
    msg_t r = Ask(importer, CMD_REOPEN);
    EXPECT_EQ(r.result, CUDA_SUCCESS);
    EXPECT_EQ(r.flag, 1) << "the same pointer";
    EXPECT_EQ(Ask(importer, CMD_CLOSE).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CHECK, 3).result, 1) << "still mapped";
    EXPECT_EQ(Ask(importer, CMD_CLOSE).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CLOSE).result, CUDA_ERROR_INVALID_VALUE)
        << "closed already";
    Finish();
}

TEST_P(CudaIpc, ReopenIsAlreadyMappedInTheOlderMode) {
    if (!cu->emulated()) {
        GTEST_SKIP() << cu->path
                     << ": UMF_GPU_MOCK_CUDA_IPC_REOPEN is a "
                        "setting of the emulated driver";
    }
    Start({"UMF_GPU_MOCK_CUDA_IPC_REOPEN=already_mapped"});
    ASSERT_EQ(Ask(importer, CMD_OPEN).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_REOPEN).result, CUDA_ERROR_ALREADY_MAPPED);
    EXPECT_EQ(Ask(importer, CMD_CHECK, 1).result, 1);
    EXPECT_EQ(Ask(importer, CMD_CLOSE).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CLOSE).result, CUDA_ERROR_INVALID_VALUE);
    Finish();
}

// On a real GPU, freeing exported memory before the importer closes it is
// undefined behaviour; the emulated driver keeps the importer's view valid,
// with its contents, and gives those pages to no new allocation meanwhile.
TEST_P(CudaIpc, MemoryStaysValidAfterTheExporterFrees) {
    if (!cu->emulated()) {
        GTEST_SKIP() << cu->path << ": undefined behaviour on a real driver";
    }
    Start();
    ASSERT_EQ(Ask(importer, CMD_OPEN).result, CUDA_SUCCESS);
    EXPECT_EQ(
        Ask(importer, CMD_LIVE, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS).result, 1);
    EXPECT_EQ(Ask(exporter, CMD_LIVE, UMF_GPU_MOCK_LIVE_IPC_HANDLES).result, 1);
    ASSERT_EQ(Ask(exporter, CMD_FREE).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(exporter, CMD_LIVE, UMF_GPU_MOCK_LIVE_IPC_HANDLES).result, 0);
    // The arena keeps the imported block out of new allocations; a memfd
    // of its own lives on in the importer's mapping.
    bool arena = std::string(GetParam()) == "arena";
    EXPECT_EQ(Ask(exporter, CMD_LIVE, UMF_GPU_MOCK_LIVE_QUARANTINED).result,
              arena ? 1 : 0);
    EXPECT_EQ(Ask(exporter, CMD_ALLOC_FILL, 4).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CHECK, 1).result, 1)
        << "the freed pages went to a new allocation";
    EXPECT_EQ(Ask(importer, CMD_WRITE, 5).result, CUDA_SUCCESS);
    EXPECT_EQ(Ask(importer, CMD_CHECK, 5).result, 1);
    EXPECT_EQ(Ask(importer, CMD_CLOSE).result, CUDA_SUCCESS);
    EXPECT_EQ(
        Ask(importer, CMD_LIVE, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS).result, 0);
    EXPECT_EQ(Ask(exporter, CMD_LIVE, UMF_GPU_MOCK_LIVE_QUARANTINED).result, 0)
        << "given back once no longer imported";
    // A new open of the freed allocation's handle fails.
    EXPECT_EQ(Ask(importer, CMD_OPEN).result, CUDA_ERROR_INVALID_HANDLE);
    Finish();
}

TEST_P(CudaIpc, OpenAfterTheExporterExitedFails) {
    if (!cu->emulated()) {
        GTEST_SKIP() << cu->path
                     << ": the error code is the emulated "
                        "driver's";
    }
    Start();
    msg_t m = {};
    m.cmd = CMD_EXIT;
    ASSERT_EQ(umf_test_send(exporter.sock, &m, sizeof(m)), 0);
    EXPECT_EQ(umf_test_child_wait(&exporter), 0);
    EXPECT_EQ(Ask(importer, CMD_OPEN).result, CUDA_ERROR_INVALID_HANDLE);
    ASSERT_EQ(umf_test_send(importer.sock, &m, sizeof(m)), 0);
    EXPECT_EQ(umf_test_child_wait(&importer), 0);
}

INSTANTIATE_TEST_SUITE_P(MemoryModes, CudaIpc,
                         ::testing::Values("arena", "memfd"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                             return std::string(i.param);
                         });

// ---------------------------------------------------------------------------
// Handles that are not: the emulated driver's answers.

class CudaIpcCtxTest : public CudaCtxTest {};

TEST_F(CudaIpcCtxTest, MalformedHandlesAreRefused) {
    CUDA_TEST_REQUIRE_EMULATED();
    CUdeviceptr p = 0, q = 0;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&p, 4096));
    CUipcMemHandle h;
    CU_ASSERT_OK(cu->cuIpcGetMemHandle(&h, p));
    CUipcMemHandle zero = {};
    EXPECT_EQ(cu->cuIpcOpenMemHandle_v2(&q, zero, 0), CUDA_ERROR_INVALID_VALUE);
    // Bytes 8-63: everything but the fd (and 4 bytes of padding).
    for (size_t i = 8; i < sizeof(h.reserved); i += 5) {
        CUipcMemHandle bad = h;
        bad.reserved[i] ^= 0x40;
        EXPECT_EQ(cu->cuIpcOpenMemHandle_v2(&q, bad, 0),
                  CUDA_ERROR_INVALID_VALUE)
            << "byte " << i;
    }
    CU_EXPECT_OK(cu->cuMemFree_v2(p));
}

UMF_TEST_CHILD(malloc_mode) {
    (void)sock;
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_ASSERT(child_context(cu, &ctx));
    CUdeviceptr p = 0;
    CHILD_ASSERT(cu->cuMemAlloc_v2(&p, 10000) == CUDA_SUCCESS);
    CHILD_ASSERT(p % 256 == 0);
    CHILD_ASSERT(cuda_test_write_pattern(cu, p, 10000, 7) == CUDA_SUCCESS);
    CHILD_ASSERT(cuda_test_check_pattern(cu, p, 10000, 7));
    unsigned capable = 1;
    CHILD_ASSERT(cu->cuPointerGetAttribute(
                     &capable, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
                     p) == CUDA_SUCCESS);
    CHILD_ASSERT(capable == 0);
    CUipcMemHandle h;
    CHILD_ASSERT(cu->cuIpcGetMemHandle(&h, p) == CUDA_ERROR_NOT_SUPPORTED);
    CHILD_ASSERT(cu->cuMemFree_v2(p) == CUDA_SUCCESS);
    CHILD_ASSERT(cu->cuCtxSetCurrent(nullptr) == CUDA_SUCCESS);
    CHILD_ASSERT(cu->cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    return 0;
}

TEST_F(CudaLoaded, MallocModeHasNoIpc) {
    CUDA_TEST_REQUIRE_EMULATED();
    int status = -1;
    ASSERT_TRUE(cuda_test_run_child(
        "malloc_mode", {"UMF_GPU_MOCK_MEMORY=malloc"}, &status, nullptr));
    EXPECT_EQ(status, 0);
}

} // namespace
