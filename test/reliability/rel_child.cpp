// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "rel_child.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "mock_bytes.h"

void rel_reseal_mock_handle(unsigned char *h) {
    // Bytes 4-19 and 24-63; the sum at 20.
    uint32_t sum = umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 4, 16),
                                  h + 24, 40);
    std::memcpy(h + 20, &sum, sizeof(sum));
}

void rel_reseal_mock_event_handle(unsigned char *h) {
    // Bytes 8-31 and 36-63; the sum at 32.
    uint32_t sum = umf_mock_fnv1a(umf_mock_fnv1a(UMF_MOCK_FNV_START, h + 8, 24),
                                  h + 36, 28);
    std::memcpy(h + 32, &sum, sizeof(sum));
}

// argv: kind (0 Level Zero, 1 CUDA), count. Sends count, then each
// RelIpcData; keeps the allocations until the parent closes the socket.
// For CUDA, the odd-numbered allocations come from a provider in the VMM
// POSIX fd mode, so that consumers open both kinds of CUDA IPC data.
UMF_TEST_CHILD(rel_producer) {
    if (argc < 2) {
        return 100;
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    int count = std::atoi(argv[1]);
    if (g->why != nullptr) {
        std::fprintf(stderr, "producer: %s\n", g->why);
        return 101;
    }
    umf_memory_provider_handle_t h = gpu_provider_or_null(g);
    umf_test_provider_opts_t vmm_opts = {};
    vmm_opts.cuda_mode = 1; // UMF_CUDA_ALLOCATION_MODE_VMM_POSIX_FD
    umf_memory_provider_handle_t vmm =
        g->kind == UMF_TEST_GPU_CUDA
            ? gpu_provider_or_null(g, UMF_MEMORY_TYPE_DEVICE, vmm_opts)
            : h;
    if (h == nullptr || vmm == nullptr) {
        return 102;
    }
    // The provider of allocation i.
    auto of = [&](int i) { return i % 2 == 1 ? vmm : h; };
    std::vector<void *> ptrs(static_cast<size_t>(count));
    std::vector<RelIpcData> data(static_cast<size_t>(count));
    size_t size = 0;
    umfMemoryProviderGetIPCHandleSize(h, &size);
    int status = 0;
    for (int i = 0; i < count && status == 0; i++) {
        RelIpcData &d = data[static_cast<size_t>(i)];
        std::memset(&d, 0, sizeof(d));
        d.size = size;
        if (size > sizeof(d.bytes) ||
            umfMemoryProviderAlloc(of(i), kRelSharedSize, 0,
                                   &ptrs[static_cast<size_t>(i)]) !=
                UMF_RESULT_SUCCESS ||
            !umf_test_gpu_fill(g, nullptr, ptrs[static_cast<size_t>(i)],
                               kRelSharedSize, rel_shared_seed(i)) ||
            umfMemoryProviderGetIPCHandle(of(i), ptrs[static_cast<size_t>(i)],
                                          kRelSharedSize,
                                          d.bytes) != UMF_RESULT_SUCCESS) {
            status = 103;
        }
    }
    int32_t n = status == 0 ? count : -1;
    if (umf_test_send(sock, &n, sizeof(n)) != 0 ||
        (status == 0 && umf_test_send(sock, data.data(),
                                      sizeof(RelIpcData) * data.size()) != 0)) {
        status = status ? status : 104;
    }
    char byte;
    while (status == 0 && umf_test_recv(sock, &byte, 1) == 0) {
    }
    // The data must still be what the consumers read.
    for (int i = 0; i < count && status == 0; i++) {
        if (!umf_test_gpu_check(g, nullptr, ptrs[static_cast<size_t>(i)],
                                kRelSharedSize, rel_shared_seed(i))) {
            status = 105;
        }
    }
    for (int i = 0; i < count; i++) {
        if (ptrs[static_cast<size_t>(i)] != nullptr) {
            umfMemoryProviderPutIPCHandle(of(i),
                                          data[static_cast<size_t>(i)].bytes);
            umfMemoryProviderFree(of(i), ptrs[static_cast<size_t>(i)],
                                  kRelSharedSize);
        }
    }
    if (vmm != h) {
        umfMemoryProviderDestroy(vmm);
    }
    umfMemoryProviderDestroy(h);
    umf_test_gpu_release_all();
    return status;
}

bool rel_start_producer(umf_test_gpu_kind_t kind, int count,
                        umf_test_child_t *child, std::vector<RelIpcData> *data,
                        std::string *why) {
    std::string k = std::to_string(static_cast<int>(kind));
    std::string c = std::to_string(count);
    const char *args[] = {k.c_str(), c.c_str(), nullptr};
    if (umf_test_child_start(child, "rel_producer", args) != 0) {
        *why = "cannot start the producer";
        return false;
    }
    int32_t n = 0;
    if (umf_test_recv(child->sock, &n, sizeof(n)) != 0 || n != count) {
        *why = "the producer failed (status " +
               std::to_string(umf_test_child_wait(child)) + ")";
        return false;
    }
    data->resize(static_cast<size_t>(count));
    if (umf_test_recv(child->sock, data->data(),
                      sizeof(RelIpcData) * data->size()) != 0) {
        *why = "the producer's data did not arrive";
        umf_test_child_wait(child);
        return false;
    }
    return true;
}

uint64_t rel_seed() {
    static uint64_t seed = [] {
        const char *env = std::getenv("UMF_GPU_REL_SEED");
        uint64_t s =
            env != nullptr && env[0] != '\0'
                ? std::strtoull(env, nullptr, 0)
                : static_cast<uint64_t>(std::chrono::steady_clock::now()
                                            .time_since_epoch()
                                            .count());
        std::printf("reliability seed: UMF_GPU_REL_SEED=%llu\n",
                    static_cast<unsigned long long>(s));
        std::fflush(stdout);
        // Child processes draw from the same seed.
        setenv("UMF_GPU_REL_SEED", std::to_string(s).c_str(), 1);
        return s;
    }();
    return seed;
}
