// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "rel_child.h"

#include <cstdlib>
#include <cstring>

std::atomic<int> g_rel_failures{0};

// argv: kind (0 Level Zero, 1 CUDA), count. Sends count, then each
// RelIpcData; keeps the allocations until the parent closes the socket.
UMF_TEST_CHILD(rel_producer) {
    if (argc < 2) {
        return 100;
    }
    RelGpu *g = rel_gpu(static_cast<RelKind>(std::atoi(argv[0])));
    int count = std::atoi(argv[1]);
    if (!g->why.empty()) {
        std::fprintf(stderr, "producer: %s\n", g->why.c_str());
        return 101;
    }
    umf_memory_provider_handle_t h = g->make_or_null();
    if (h == nullptr) {
        return 102;
    }
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
            umfMemoryProviderAlloc(h, kRelSharedSize, 0,
                                   &ptrs[static_cast<size_t>(i)]) !=
                UMF_RESULT_SUCCESS ||
            !g->fill(ptrs[static_cast<size_t>(i)], kRelSharedSize,
                     rel_shared_seed(i)) ||
            umfMemoryProviderGetIPCHandle(h, ptrs[static_cast<size_t>(i)],
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
        if (!g->check(ptrs[static_cast<size_t>(i)], kRelSharedSize,
                      rel_shared_seed(i))) {
            status = 105;
        }
    }
    for (int i = 0; i < count; i++) {
        if (ptrs[static_cast<size_t>(i)] != nullptr) {
            umfMemoryProviderPutIPCHandle(h,
                                          data[static_cast<size_t>(i)].bytes);
            umfMemoryProviderFree(h, ptrs[static_cast<size_t>(i)],
                                  kRelSharedSize);
        }
    }
    umfMemoryProviderDestroy(h);
    rel_gpu_release_all();
    return status;
}

bool rel_start_producer(RelKind kind, int count, umf_test_child_t *child,
                        std::vector<RelIpcData> *data, std::string *why) {
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
