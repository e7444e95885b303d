// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Measurements of the CUDA driver's own calls, beyond alloc+free: what a
// program pays on the emulated libcuda (or a real one) for
//   async_copy_htod / async_copy_dtoh   cuMemcpy{HtoD,DtoH}Async_v2 of 4 KiB,
//                                       4 MiB and (not with --quick) 256 MiB
//                                       from and to pinned host memory on a
//                                       stream, synchronized after each
//                                       copy; ratio: against memcpy of the
//                                       same size ("memcpy"); the bandwidth
//                                       is the size over the time
//   vmm_cycle                           cuMemCreate + cuMemMap + cuMemUnmap
//                                       + cuMemRelease of one granule (2 MiB
//                                       on NVIDIA GPUs) in a reservation
//   stream_alloc_free                   cuMemAllocAsync + cuMemFreeAsync of
//                                       4 KiB on a stream, synchronized;
//                                       ratio: against cuMemAlloc_v2 +
//                                       cuMemFree_v2 ("sync_alloc_free")
//   host_func_roundtrip                 cuLaunchHostFunc of an empty function
//                                       + cuStreamSynchronize
//   host_func_latency                   wall-clock time from the call of
//                                       cuLaunchHostFunc on an idle stream
//                                       to the start of the function (on
//                                       the driver's thread): median, p99 and
//                                       maximum of single launches
//   stream_memcpy_100 / graph_memcpy_100
//                                       100 device-to-device copies of 4 KiB
//                                       (disjoint) + cuStreamSynchronize:
//                                       cuMemcpyDtoDAsync_v2 each, against
//                                       one cuGraphLaunch of a graph of 100
//                                       chained memcpy nodes (instantiated
//                                       once); ratio: graph / stream
//   fill_alone / fresh_alloc_fill_free  cuMemsetD8_v2 of 100 MiB of an
//                                       existing allocation, against
//                                       cuMemAlloc_v2 + cuMemsetD8_v2 +
//                                       cuMemFree_v2 of 100 MiB; ratio:
//                                       fresh / alone
// Each is a distribution over the run's repetitions of ns per operation,
// on the run's clock (host_func_latency: of single operations, wall
// clock), written like every other result.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef UMF_GPU_BENCH_HAVE_CUDA

#include <cuda.h>

typedef struct calls_t {
    CUresult (*stream_create)(CUstream *, unsigned int);
    CUresult (*stream_destroy)(CUstream);
    CUresult (*stream_synchronize)(CUstream);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*mem_alloc_host)(void **, size_t);
    CUresult (*mem_free_host)(void *);
    CUresult (*htod_async)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*dtoh_async)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *,
                            CUmemAllocationGranularity_flags);
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t,
                       const CUmemAllocationProp *, unsigned long long);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                        unsigned long long);
    CUresult (*address_free)(CUdeviceptr, size_t);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                    unsigned long long);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*alloc_async)(CUdeviceptr *, size_t, CUstream);
    CUresult (*free_async)(CUdeviceptr, CUstream);
    CUresult (*launch_host_func)(CUstream, CUhostFn, void *);
    CUresult (*dtod_async)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*ctx_get_current)(CUcontext *);
    CUresult (*graph_create)(CUgraph *, unsigned int);
    CUresult (*graph_destroy)(CUgraph);
    CUresult (*graph_add_memcpy)(CUgraphNode *, CUgraph, const CUgraphNode *,
                                 size_t, const CUDA_MEMCPY3D *, CUcontext);
    CUresult (*graph_instantiate)(CUgraphExec *, CUgraph, unsigned long long);
    CUresult (*graph_launch)(CUgraphExec, CUstream);
    CUresult (*graph_exec_destroy)(CUgraphExec);
} calls_t;

// The largest copy.
#define COPY_MAX ((size_t)256 << 20)

// What one batch of n operations needs.
typedef struct op_t {
    const calls_t *cu;
    CUstream stream;
    CUdeviceptr dev;
    void *host;
    void *host2;
    size_t size;
    CUdeviceptr va; // vmm_cycle: the reservation
    int device;
    CUgraphExec graph; // *_memcpy_100: the graph of the copies
} op_t;

// The copies of stream_memcpy_100 and graph_memcpy_100.
#define GRAPH_COPIES 100
#define GRAPH_COPY_SIZE ((size_t)4 << 10)

typedef bool (*op_fn)(op_t *op, long n);

static bool htod(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        if (op->cu->htod_async(op->dev, op->host, op->size, op->stream) !=
                CUDA_SUCCESS ||
            op->cu->stream_synchronize(op->stream) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static bool dtoh(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        if (op->cu->dtoh_async(op->host, op->dev, op->size, op->stream) !=
                CUDA_SUCCESS ||
            op->cu->stream_synchronize(op->stream) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static bool host_memcpy(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        memcpy(op->host2, op->host, op->size);
        // Keep the copy from being optimised away.
        __asm__ volatile("" : : "r"(op->host2) : "memory");
    }
    return true;
}

static bool vmm_cycle(op_t *op, long n) {
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = op->device;
    for (long i = 0; i < n; i++) {
        CUmemGenericAllocationHandle h;
        if (op->cu->create(&h, op->size, &prop, 0) != CUDA_SUCCESS) {
            return false;
        }
        bool ok = op->cu->map(op->va, op->size, 0, h, 0) == CUDA_SUCCESS &&
                  op->cu->unmap(op->va, op->size) == CUDA_SUCCESS;
        if (op->cu->release(h) != CUDA_SUCCESS || !ok) {
            return false;
        }
    }
    return true;
}

static bool alloc_free_async(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        CUdeviceptr p;
        if (op->cu->alloc_async(&p, op->size, op->stream) != CUDA_SUCCESS ||
            op->cu->free_async(p, op->stream) != CUDA_SUCCESS ||
            op->cu->stream_synchronize(op->stream) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static void CUDA_CB nothing(void *arg) {
    (void)arg;
}

static bool host_func_roundtrip(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        if (op->cu->launch_host_func(op->stream, nothing, NULL) !=
                CUDA_SUCCESS ||
            op->cu->stream_synchronize(op->stream) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static void CUDA_CB stamp(void *arg) {
    *(double *)arg = bench_now(BENCH_CLOCK_WALL);
}

// Latencies of single launches, from the call to the function's start.
static bool host_func_latency(const bench_options_t *o, const char *mode,
                              op_t *op) {
    enum { WARMUP = 50, MAX_SAMPLES = 4000 };
    size_t n = o->quick ? 400 : MAX_SAMPLES;
    double *samples = malloc(n * sizeof(*samples));
    if (samples == NULL) {
        bench_fail("cuda", "out of memory for host_func_latency");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < WARMUP + n; i++) {
        double started = 0;
        double t0 = bench_now(BENCH_CLOCK_WALL);
        ok = op->cu->launch_host_func(op->stream, stamp, &started) ==
                 CUDA_SUCCESS &&
             op->cu->stream_synchronize(op->stream) == CUDA_SUCCESS;
        if (i >= WARMUP) {
            samples[i - WARMUP] = started - t0;
        }
    }
    if (ok) {
        bench_result_t r;
        bench_result_init(&r, "host_func_latency", "cuda", mode, -1, 1, 0);
        bench_summarize_tail(&r, samples, n);
        bench_write_result(&r);
    } else {
        bench_fail("cuda", "host_func_latency: a launch failed");
    }
    free(samples);
    return ok;
}

static bool stream_memcpy_100(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        for (size_t k = 0; k < GRAPH_COPIES; k++) {
            if (op->cu->dtod_async(
                    op->dev + (GRAPH_COPIES + k) * GRAPH_COPY_SIZE,
                    op->dev + k * GRAPH_COPY_SIZE, GRAPH_COPY_SIZE,
                    op->stream) != CUDA_SUCCESS) {
                return false;
            }
        }
        if (op->cu->stream_synchronize(op->stream) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static bool graph_memcpy_100(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        if (op->cu->graph_launch(op->graph, op->stream) != CUDA_SUCCESS ||
            op->cu->stream_synchronize(op->stream) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

// The graph of graph_memcpy_100: the same copies as chained memcpy nodes.
static bool make_copy_graph(op_t *op) {
    CUcontext ctx;
    CUgraph g;
    if (op->cu->ctx_get_current(&ctx) != CUDA_SUCCESS ||
        op->cu->graph_create(&g, 0) != CUDA_SUCCESS) {
        return false;
    }
    bool ok = true;
    CUgraphNode prev = NULL;
    for (size_t k = 0; ok && k < GRAPH_COPIES; k++) {
        CUDA_MEMCPY3D c = {0};
        c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        c.srcDevice = op->dev + k * GRAPH_COPY_SIZE;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = op->dev + (GRAPH_COPIES + k) * GRAPH_COPY_SIZE;
        c.WidthInBytes = GRAPH_COPY_SIZE;
        c.Height = 1;
        c.Depth = 1;
        CUgraphNode node;
        ok = op->cu->graph_add_memcpy(&node, g, prev != NULL ? &prev : NULL,
                                      prev != NULL ? 1 : 0, &c,
                                      ctx) == CUDA_SUCCESS;
        prev = node;
    }
    ok = ok && op->cu->graph_instantiate(&op->graph, g, 0) == CUDA_SUCCESS;
    (void)op->cu->graph_destroy(g);
    return ok;
}

static bool alloc_free_sync(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        CUdeviceptr p;
        if (op->cu->mem_alloc(&p, op->size) != CUDA_SUCCESS ||
            op->cu->mem_free(p) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

// The fill of fill_alone and fresh_alloc_fill_free.
#define FRESH_SIZE ((size_t)100 << 20)

static bool fill_alone(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        if (op->cu->memset_d8(op->dev, (unsigned char)i, op->size) !=
            CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

static bool fresh_alloc_fill_free(op_t *op, long n) {
    for (long i = 0; i < n; i++) {
        CUdeviceptr p;
        if (op->cu->mem_alloc(&p, op->size) != CUDA_SUCCESS) {
            return false;
        }
        bool ok =
            op->cu->memset_d8(p, (unsigned char)i, op->size) == CUDA_SUCCESS;
        if (op->cu->mem_free(p) != CUDA_SUCCESS || !ok) {
            return false;
        }
    }
    return true;
}

// Measures fn: a batch size that lasts about one repetition, the warm-up,
// then o->reps samples of ns per operation into r.
static bool measure(const bench_options_t *o, op_fn fn, op_t *op,
                    bench_result_t *r) {
    long n = 1;
    for (;;) {
        double t0 = bench_now(BENCH_CLOCK_WALL);
        if (!fn(op, n)) {
            return false;
        }
        double t = bench_now(BENCH_CLOCK_WALL) - t0;
        if (t >= o->rep_ns || n >= (1l << 24)) {
            break;
        }
        n = t < o->rep_ns / 16 ? n * 8 : n * 2;
    }
    double samples[BENCH_MAX_REPS];
    for (unsigned i = 0; i < o->warmup + o->reps; i++) {
        double t0 = bench_now(o->clock);
        if (!fn(op, n)) {
            return false;
        }
        double t = (bench_now(o->clock) - t0) / (double)n;
        if (i >= o->warmup) {
            samples[i - o->warmup] = t;
        }
    }
    bench_summarize(r, samples, o->reps);
    return true;
}

static bool resolve(bench_driver_t *d, calls_t *cu) {
    const bench_symbol_t syms[] = {
        {"cuStreamCreate", (void **)&cu->stream_create},
        {"cuStreamDestroy_v2", (void **)&cu->stream_destroy},
        {"cuStreamSynchronize", (void **)&cu->stream_synchronize},
        {"cuMemAlloc_v2", (void **)&cu->mem_alloc},
        {"cuMemFree_v2", (void **)&cu->mem_free},
        {"cuMemsetD8_v2", (void **)&cu->memset_d8},
        {"cuMemAllocHost_v2", (void **)&cu->mem_alloc_host},
        {"cuMemFreeHost", (void **)&cu->mem_free_host},
        {"cuMemcpyHtoDAsync_v2", (void **)&cu->htod_async},
        {"cuMemcpyDtoHAsync_v2", (void **)&cu->dtoh_async},
        {"cuMemGetAllocationGranularity", (void **)&cu->granularity},
        {"cuMemCreate", (void **)&cu->create},
        {"cuMemRelease", (void **)&cu->release},
        {"cuMemAddressReserve", (void **)&cu->reserve},
        {"cuMemAddressFree", (void **)&cu->address_free},
        {"cuMemMap", (void **)&cu->map},
        {"cuMemUnmap", (void **)&cu->unmap},
        {"cuMemAllocAsync", (void **)&cu->alloc_async},
        {"cuMemFreeAsync", (void **)&cu->free_async},
        {"cuLaunchHostFunc", (void **)&cu->launch_host_func},
        {"cuMemcpyDtoDAsync_v2", (void **)&cu->dtod_async},
        {"cuCtxGetCurrent", (void **)&cu->ctx_get_current},
        {"cuGraphCreate", (void **)&cu->graph_create},
        {"cuGraphDestroy", (void **)&cu->graph_destroy},
        {"cuGraphAddMemcpyNode", (void **)&cu->graph_add_memcpy},
        {"cuGraphInstantiateWithFlags", (void **)&cu->graph_instantiate},
        {"cuGraphLaunch", (void **)&cu->graph_launch},
        {"cuGraphExecDestroy", (void **)&cu->graph_exec_destroy},
    };
    return bench_cuda_resolve(d, syms, sizeof(syms) / sizeof(syms[0]));
}

// One result: `name` at `size`, its ratio against `base` (NULL: none).
static bool result(const bench_options_t *o, const char *mode, const char *name,
                   op_fn fn, op_t *op, const bench_result_t *base,
                   bench_result_t *out) {
    bench_result_init(out, name, "cuda", mode, (long long)op->size, 1, 0);
    if (!measure(o, fn, op, out)) {
        bench_fail("cuda", "%s of %zu bytes failed", name, op->size);
        return false;
    }
    if (base != NULL) {
        out->ratio = out->median_ns / base->median_ns;
    }
    bench_write_result(out);
    return true;
}

static bool copies(const bench_options_t *o, const char *mode, op_t *op) {
    static const size_t sizes[] = {4u << 10, 4u << 20, COPY_MAX};
    size_t n = sizeof(sizes) / sizeof(sizes[0]) - (o->quick ? 1 : 0);
    for (size_t i = 0; i < n; i++) {
        op->size = sizes[i];
        bench_result_t base, r;
        if (!result(o, mode, "memcpy", host_memcpy, op, NULL, &base) ||
            !result(o, mode, "async_copy_htod", htod, op, &base, &r) ||
            !result(o, mode, "async_copy_dtoh", dtoh, op, &base, &r)) {
            return false;
        }
    }
    return true;
}

static bool run_driver_calls(const bench_run_t *run) {
    if (run->backend->bit != BENCH_PROVIDER_CUDA) {
        return true; // the CUDA driver's calls only
    }
    const bench_options_t *o = run->o;
    bench_driver_t *d = run->driver;
    const char *mode = run->mode;
    calls_t cu;
    if (!resolve(d, &cu)) {
        return false;
    }
    op_t op = {.cu = &cu, .device = bench_cuda_device(d)};
    const size_t copy_max = o->quick ? 4u << 20 : COPY_MAX;
    bool ok = false;
    if (cu.stream_create(&op.stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
        bench_fail("cuda", "cuStreamCreate failed");
        return false;
    }
    if (cu.mem_alloc(&op.dev, copy_max) != CUDA_SUCCESS ||
        cu.mem_alloc_host(&op.host, copy_max) != CUDA_SUCCESS ||
        (op.host2 = malloc(copy_max)) == NULL) {
        bench_fail("cuda", "cannot allocate the copy buffers");
        goto out;
    }
    memset(op.host, 0x5a, copy_max);
    memset(op.host2, 0, copy_max);
    if (!copies(o, mode, &op)) {
        goto out;
    }

    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = op.device;
    size_t gran = 0;
    if (cu.granularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) !=
            CUDA_SUCCESS ||
        cu.reserve(&op.va, gran, 0, 0, 0) != CUDA_SUCCESS) {
        bench_fail("cuda", "cannot reserve address space for vmm_cycle");
        goto out;
    }
    op.size = gran;
    bench_result_t r, base;
    bool vmm = result(o, mode, "vmm_cycle", vmm_cycle, &op, NULL, &r);
    (void)cu.address_free(op.va, gran);
    if (!vmm) {
        goto out;
    }

    op.size = 4u << 10;
    if (!result(o, mode, "sync_alloc_free", alloc_free_sync, &op, NULL,
                &base) ||
        !result(o, mode, "stream_alloc_free", alloc_free_async, &op, &base,
                &r)) {
        goto out;
    }
    // fill_alone on an allocation of its own, freed before the fresh ones
    // (which can then take its place).
    CUdeviceptr copy_buffer = op.dev, filled = 0;
    if (cu.mem_alloc(&filled, FRESH_SIZE) != CUDA_SUCCESS) {
        bench_fail("cuda", "cannot allocate %zu bytes for fill_alone",
                   FRESH_SIZE);
        goto out;
    }
    op.dev = filled;
    op.size = FRESH_SIZE;
    bool fills = result(o, mode, "fill_alone", fill_alone, &op, NULL, &base);
    op.dev = copy_buffer;
    fills = cu.mem_free(filled) == CUDA_SUCCESS && fills &&
            result(o, mode, "fresh_alloc_fill_free", fresh_alloc_fill_free, &op,
                   &base, &r);
    if (!fills) {
        goto out;
    }
    op.size = 0;
    if (!result(o, mode, "host_func_roundtrip", host_func_roundtrip, &op, NULL,
                &r) ||
        !host_func_latency(o, mode, &op)) {
        goto out;
    }
    // 2 x 100 x 4 KiB of the copy buffer (at least 4 MiB).
    if (!make_copy_graph(&op)) {
        bench_fail("cuda", "cannot make the graph of graph_memcpy_100");
        goto out;
    }
    op.size = GRAPH_COPY_SIZE;
    bool graphs =
        result(o, mode, "stream_memcpy_100", stream_memcpy_100, &op, NULL,
               &base) &&
        result(o, mode, "graph_memcpy_100", graph_memcpy_100, &op, &base, &r);
    (void)cu.graph_exec_destroy(op.graph);
    if (!graphs) {
        goto out;
    }
    ok = true;
out:
    free(op.host2);
    if (op.host != NULL) {
        (void)cu.mem_free_host(op.host);
    }
    if (op.dev != 0) {
        (void)cu.mem_free(op.dev);
    }
    (void)cu.stream_destroy(op.stream);
    return ok;
}

const bench_measure_t bench_measure_cuda_driver = {
    .name = "the CUDA driver's own calls",
    .modes = BENCH_MODE_FULL,
    .run = run_driver_calls,
};

#else // a build without the CUDA headers

static bool no_driver_calls(const bench_run_t *run) {
    (void)run;
    return true;
}

const bench_measure_t bench_measure_cuda_driver = {
    .name = "the CUDA driver's own calls",
    .modes = BENCH_MODE_FULL,
    .run = no_driver_calls,
};

#endif
