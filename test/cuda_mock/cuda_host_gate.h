// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A host function (cuLaunchHostFunc) that holds its stream until the test
// opens it, or 20 s pass, so that a failing case cannot hang the suite.

#ifndef UMF_GPU_CUDA_HOST_GATE_H
#define UMF_GPU_CUDA_HOST_GATE_H 1

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <cuda.h>

struct CudaHostGate {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    bool entered = false;

    static void CUDA_CB Fn(void *p) {
        CudaHostGate *g = static_cast<CudaHostGate *>(p);
        std::unique_lock<std::mutex> l(g->m);
        g->entered = true;
        g->cv.notify_all();
        g->cv.wait_for(l, std::chrono::seconds(20), [g] { return g->open; });
    }
    void Open() {
        std::lock_guard<std::mutex> l(m);
        open = true;
        cv.notify_all();
    }
    // Whether the function started (within 20 s).
    bool WaitEntered() {
        std::unique_lock<std::mutex> l(m);
        return cv.wait_for(l, std::chrono::seconds(20),
                           [this] { return entered; });
    }
};

#endif // UMF_GPU_CUDA_HOST_GATE_H
