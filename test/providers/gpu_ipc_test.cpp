// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The IPC steps both providers share: the checks of put and open, and
// opening through the cache with the mapper that fits the data's origin.

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include <gtest/gtest.h>

extern "C" {
#include "gpu_ipc.h"
}

namespace {

constexpr umf_gpu_provider_kind_t kZe = UMF_GPU_PROVIDER_KIND_LEVEL_ZERO;
constexpr umf_gpu_provider_kind_t kCuda = UMF_GPU_PROVIDER_KIND_CUDA;

struct Mappers {
    int local = 0, remote = 0, unmapped = 0;
    bool freed = false; // the local allocation is gone
    char own[256];
};
Mappers *g_m;

umf_result_t checkLocal(void *arg, umf_ipc_cache_mapping_t *m) {
    auto *x = static_cast<Mappers *>(arg);
    x->local++;
    if (x->freed) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    m->base = x->own;
    m->size = sizeof(x->own);
    return UMF_RESULT_SUCCESS;
}

umf_result_t mapRemote(void *arg, umf_ipc_cache_mapping_t *m) {
    static_cast<Mappers *>(arg)->remote++;
    m->size = sizeof(Mappers::own);
    m->base = std::malloc(m->size);
    return m->base ? UMF_RESULT_SUCCESS : UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

umf_result_t unmapRemote(const umf_ipc_cache_key_t *,
                         const umf_ipc_cache_mapping_t *m) {
    g_m->unmapped++;
    std::free(m->base);
    return UMF_RESULT_SUCCESS;
}

const umf_gpu_ipc_mappers_t kMappers = {checkLocal, mapRemote, unmapRemote};

class GpuIpc : public ::testing::Test {
  protected:
    void SetUp() override {
        g_m = &m;
        ASSERT_EQ(umf_gpu_stats_init(&stats), UMF_RESULT_SUCCESS);
        uint8_t handle[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        ASSERT_EQ(umf_ipc_data_init(&local, kZe, UMF_MEMORY_TYPE_DEVICE, 42,
                                    reinterpret_cast<uintptr_t>(m.own),
                                    sizeof(m.own), 16, handle, sizeof(handle),
                                    -1),
                  UMF_RESULT_SUCCESS);
        // The same data as if another process (here: our parent) had made
        // it.
        remote = local;
        remote.producer_pid = static_cast<int32_t>(getppid());
        remote.instance_id ^= 0x5a5a;
        remote.checksum = umf_ipc_data_checksum(&remote);
    }
    void TearDown() override {
        umf_gpu_stats_fini(&stats);
    }
    umf_gpu_provider_stats_t read() {
        umf_gpu_provider_stats_t s;
        umf_gpu_stats_read(&stats, &s);
        return s;
    }
    Mappers m;
    umf_gpu_stats_t stats;
    umf_ipc_data_t local, remote;
    int ctx = 0;
};

TEST_F(GpuIpc, HandleSize) {
    size_t size = 0;
    EXPECT_EQ(umf_gpu_ipc_handle_size(&size), UMF_RESULT_SUCCESS);
    EXPECT_EQ(size, sizeof(umf_ipc_data_t));
    EXPECT_EQ(umf_gpu_ipc_handle_size(nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(GpuIpc, PutTakesOnlyThisProcesssData) {
    umf_ipc_data_t out;
    EXPECT_EQ(umf_gpu_ipc_check_put(kZe, &local, &out), UMF_RESULT_SUCCESS);
    EXPECT_EQ(out.alloc_id, 42u);
    EXPECT_EQ(umf_gpu_ipc_check_put(kZe, &remote, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_gpu_ipc_check_put(kCuda, &local, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_gpu_ipc_check_put(kZe, nullptr, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(GpuIpc, OpenChecksTheHandleSize) {
    umf_ipc_data_t out;
    void *p = nullptr;
    EXPECT_EQ(umf_gpu_ipc_check_open(kZe, &remote, &p, 8, &out),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_gpu_ipc_check_open(kZe, &remote, &p, 64, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_gpu_ipc_check_open(kZe, nullptr, &p, 8, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_gpu_ipc_check_open(kZe, &remote, nullptr, 8, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(GpuIpc, LocalDataOpensTheProducersOwnMemory) {
    void *p = nullptr, *q = nullptr;
    ASSERT_EQ(umf_gpu_ipc_open(kZe, &stats, &ctx, &local, &kMappers, &m, &p),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(p, m.own + 16);
    ASSERT_EQ(umf_gpu_ipc_open(kZe, &stats, &ctx, &local, &kMappers, &m, &q),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(q, p);
    EXPECT_EQ(m.local, 2) << "every local open asks the driver";
    EXPECT_EQ(m.remote, 0);
    umf_gpu_provider_stats_t s = read();
    EXPECT_EQ(s.ipc_handles_open, 2u);
    EXPECT_EQ(s.ipc_cache_hits, 1u);
    EXPECT_EQ(s.ipc_cache_misses, 1u);
    EXPECT_EQ(umf_gpu_ipc_close(kZe, &stats, &ctx, p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_gpu_ipc_close(kZe, &stats, &ctx, q), UMF_RESULT_SUCCESS);
    EXPECT_EQ(m.unmapped, 0) << "the producer's memory is not unmapped";
    EXPECT_EQ(read().ipc_handles_open, 0u);
    EXPECT_EQ(umf_gpu_ipc_close(kZe, &stats, &ctx, q),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_gpu_ipc_close(kZe, &stats, &ctx, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(read().ipc_handles_open, 0u) << "failed closes count nothing";
}

// The exporter's own open of data whose allocation was freed since an
// earlier open: refused on what would be a cache hit.
TEST_F(GpuIpc, ALocalOpenOfAFreedAllocationIsRefusedEvenOnAHit) {
    void *p = nullptr, *q = nullptr;
    ASSERT_EQ(umf_gpu_ipc_open(kZe, &stats, &ctx, &local, &kMappers, &m, &p),
              UMF_RESULT_SUCCESS);
    m.freed = true;
    EXPECT_EQ(umf_gpu_ipc_open(kZe, &stats, &ctx, &local, &kMappers, &m, &q),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(read().ipc_handles_open, 1u);
    EXPECT_EQ(umf_gpu_ipc_close(kZe, &stats, &ctx, p), UMF_RESULT_SUCCESS);
}

// Data that claims more than the allocation holds is refused, local or
// remote.
TEST_F(GpuIpc, DataClaimingMoreThanTheAllocationIsRefused) {
    umf_ipc_data_t big[2] = {local, remote};
    for (umf_ipc_data_t &d : big) {
        d.size = 2 * sizeof(m.own);
        d.offset = sizeof(m.own) + 16;
        d.checksum = umf_ipc_data_checksum(&d);
        void *p = nullptr;
        EXPECT_EQ(umf_gpu_ipc_open(kZe, &stats, &ctx, &d, &kMappers, &m, &p),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    EXPECT_EQ(m.unmapped, 1) << "the remote mapping is undone";
    EXPECT_EQ(read().ipc_handles_open, 0u);
}

TEST_F(GpuIpc, RemoteDataIsMappedAndUnmapped) {
    void *p = nullptr;
    ASSERT_EQ(umf_gpu_ipc_open(kZe, &stats, &ctx, &remote, &kMappers, &m, &p),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(m.remote, 1);
    EXPECT_NE(p, m.own + 16);
    EXPECT_EQ(umf_gpu_ipc_close(kZe, &stats, &ctx, p), UMF_RESULT_SUCCESS);
    EXPECT_EQ(m.unmapped, 1);
}

} // namespace
