// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The registration point of the benchmark's measurements: every run child
// runs the measurements listed here, in this order, in the memory modes
// each names (bench.h, bench_measure_t). To add one, define its
// bench_measure_t in a bench/ file of its own, declare it in bench.h and add
// one line below.

#include "bench.h"

static bool run_ipc(const bench_run_t *run) {
    return bench_ipc_producer(run->o, run->backend, run->driver, run->provider,
                              run->mode);
}

const bench_measure_t bench_measure_ipc = {
    .name = "IPC",
    .modes = BENCH_MODE_FULL | BENCH_MODE_MEMFD,
    .run = run_ipc,
};

const bench_measure_t *const bench_measures[] = {
    &bench_measure_pairs,     // alloc_free_*: 64 B, 4 KiB, 2 MiB
    &bench_measure_threads,   // alloc_free_*: 64 B on 2 threads
    &bench_measure_random,    // random_*: the random pattern at scale
    &bench_measure_error,     // native_error
    &bench_measure_residency, // residency_*: Level Zero resident devices
    &bench_measure_ipc,       // ipc_*
    // memcpy, async_copy_*, vmm_cycle, *_alloc_free, host_func_*,
    // *_memcpy_100: the CUDA driver's own calls
    &bench_measure_cuda_driver,
    // vmm_alloc_free_*, ipc_* in the modes vmm_fd and vmm_fab: the CUDA
    // provider's VMM modes
    &bench_measure_cuda_vmm,
    // vmm_cycle, event_pool_ipc_*: the Level Zero driver's own calls
    &bench_measure_ze_driver,
    // fill_*, copy_immediate_*, copy_queue_*, deferred_*: Level Zero
    // commands
    &bench_measure_ze_commands,
    // module_build_*, launch_*, vadd_*: Level Zero kernels
    &bench_measure_ze_kernels,
    &bench_measure_trust, // ipc_fd_*: the fd transfer and its checks
    // ipc_fd_socket_*, ipc_fd_flood_*: the fd server, its proof, floods
    &bench_measure_fd_server,
    NULL,
};
