// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Measurements of the Level Zero driver itself, no provider involved:
// - vmm_cycle: zeVirtualMemReserve, zeVirtualMemMap (of a physical
//   memory object made once), zeVirtualMemUnmap and zeVirtualMemFree of a
//   2 MiB range, per cycle;
// - event_pool_ipc_open / _close: zeEventPoolOpenIpcHandle and
//   zeEventPoolCloseIpcHandle of an IPC event pool's handle, per call. They
//   run in the exporting process, whose fd the handle holds; a consumer in
//   another process first takes its own copy of the fd (pidfd_getfd or
//   SCM_RIGHTS), which is not counted here.
// A driver without the entry points (the loader answers
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) skips the measurement, saying so.

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#ifdef UMF_GPU_BENCH_HAVE_LEVEL_ZERO

#include <level_zero/ze_api.h>

#define VMM_SIZE (2u << 20)
// Calls per repetition.
#define CALLS_QUICK 16
#define CALLS_FULL 128

typedef struct ze_fns_t {
    __typeof__(zeEventPoolCreate) *pool_create;
    __typeof__(zeEventPoolDestroy) *pool_destroy;
    __typeof__(zeEventPoolGetIpcHandle) *pool_get_ipc;
    __typeof__(zeEventPoolOpenIpcHandle) *pool_open_ipc;
    __typeof__(zeEventPoolCloseIpcHandle) *pool_close_ipc;
    __typeof__(zeVirtualMemQueryPageSize) *page_size;
    __typeof__(zeVirtualMemReserve) *reserve;
    __typeof__(zeVirtualMemFree) *va_free;
    __typeof__(zeVirtualMemMap) *map;
    __typeof__(zeVirtualMemUnmap) *unmap;
    __typeof__(zePhysicalMemCreate) *phys_create;
    __typeof__(zePhysicalMemDestroy) *phys_destroy;
} ze_fns_t;

typedef struct measure_t {
    const bench_options_t *o;
    const ze_fns_t *f;
    ze_context_handle_t ctx;
    ze_device_handle_t dev;
    const char *mode;
    unsigned calls;
} measure_t;

static bool resolve(void *lib, ze_fns_t *f) {
    const bench_symbol_t syms[] = {
        {"zeEventPoolCreate", (void **)&f->pool_create},
        {"zeEventPoolDestroy", (void **)&f->pool_destroy},
        {"zeEventPoolGetIpcHandle", (void **)&f->pool_get_ipc},
        {"zeEventPoolOpenIpcHandle", (void **)&f->pool_open_ipc},
        {"zeEventPoolCloseIpcHandle", (void **)&f->pool_close_ipc},
        {"zeVirtualMemQueryPageSize", (void **)&f->page_size},
        {"zeVirtualMemReserve", (void **)&f->reserve},
        {"zeVirtualMemFree", (void **)&f->va_free},
        {"zeVirtualMemMap", (void **)&f->map},
        {"zeVirtualMemUnmap", (void **)&f->unmap},
        {"zePhysicalMemCreate", (void **)&f->phys_create},
        {"zePhysicalMemDestroy", (void **)&f->phys_destroy},
    };
    return bench_resolve(lib, syms, sizeof(syms) / sizeof(syms[0]), "ze");
}

static void report(const measure_t *m, const char *name, long long size,
                   double *samples) {
    bench_result_t r;
    bench_result_init(&r, name, "ze", m->mode, size, 1, 0);
    bench_summarize(&r, samples, m->o->reps);
    bench_write_result(&r);
}

// ---- Virtual memory -------------------------------------------------------

// One repetition: `calls` cycles; the ns of one.
static bool vmm_cycles(const measure_t *m, ze_physical_mem_handle_t phys,
                       double *ns) {
    const ze_fns_t *f = m->f;
    double t0 = bench_now(m->o->clock);
    for (unsigned i = 0; i < m->calls; i++) {
        void *va = NULL;
        ze_result_t r = f->reserve(m->ctx, NULL, VMM_SIZE, &va);
        if (r == ZE_RESULT_SUCCESS) {
            r = f->map(m->ctx, va, VMM_SIZE, phys, 0,
                       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
            if (r == ZE_RESULT_SUCCESS) {
                r = f->unmap(m->ctx, va, VMM_SIZE);
            }
            ze_result_t freed = f->va_free(m->ctx, va, VMM_SIZE);
            r = r != ZE_RESULT_SUCCESS ? r : freed;
        }
        if (r != ZE_RESULT_SUCCESS) {
            bench_fail("ze", "virtual memory cycle: 0x%x", (unsigned)r);
            return false;
        }
    }
    *ns = (bench_now(m->o->clock) - t0) / m->calls;
    return true;
}

static bool measure_vmm(const measure_t *m) {
    const ze_fns_t *f = m->f;
    size_t page = 0;
    ze_result_t r = f->page_size(m->ctx, m->dev, VMM_SIZE, &page);
    ze_physical_mem_desc_t pd = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0,
                                 VMM_SIZE};
    ze_physical_mem_handle_t phys = NULL;
    if (r == ZE_RESULT_SUCCESS && VMM_SIZE % page == 0) {
        r = f->phys_create(m->ctx, m->dev, &pd, &phys);
    }
    if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) {
        fprintf(stderr, "umf-gpu-bench: ze: no virtual memory in this "
                        "driver: vmm_cycle skipped\n");
        return true;
    }
    if (r != ZE_RESULT_SUCCESS) {
        bench_fail("ze", "physical memory for the virtual memory cycle: 0x%x",
                   (unsigned)r);
        return false;
    }
    double samples[BENCH_MAX_REPS];
    bool ok = true;
    for (unsigned rep = 0; ok && rep < m->o->warmup + m->o->reps; rep++) {
        double ns;
        ok = vmm_cycles(m, phys, &ns);
        if (ok && rep >= m->o->warmup) {
            samples[rep - m->o->warmup] = ns;
        }
    }
    f->phys_destroy(m->ctx, phys);
    if (ok) {
        report(m, "vmm_cycle", VMM_SIZE, samples);
    }
    return ok;
}

// ---- Event pool IPC -------------------------------------------------------

static bool measure_event_pool_open(const measure_t *m) {
    const ze_fns_t *f = m->f;
    ze_event_pool_desc_t pd = {
        ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
        ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 64};
    ze_event_pool_handle_t pool;
    ze_ipc_event_pool_handle_t h;
    ze_result_t r = f->pool_create(m->ctx, &pd, 0, NULL, &pool);
    if (r == ZE_RESULT_SUCCESS &&
        (r = f->pool_get_ipc(pool, &h)) != ZE_RESULT_SUCCESS) {
        f->pool_destroy(pool);
    }
    if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) {
        fprintf(stderr, "umf-gpu-bench: ze: no event pool IPC in this "
                        "driver: event_pool_ipc_open skipped\n");
        return true;
    }
    if (r != ZE_RESULT_SUCCESS) {
        bench_fail("ze", "an IPC event pool: 0x%x", (unsigned)r);
        return false;
    }
    ze_event_pool_handle_t *opened = calloc(m->calls, sizeof(*opened));
    double open_ns[BENCH_MAX_REPS], close_ns[BENCH_MAX_REPS];
    bool ok = opened != NULL;
    for (unsigned rep = 0; ok && rep < m->o->warmup + m->o->reps; rep++) {
        double t0 = bench_now(m->o->clock);
        unsigned n = 0;
        while (n < m->calls &&
               f->pool_open_ipc(m->ctx, h, &opened[n]) == ZE_RESULT_SUCCESS) {
            n++;
        }
        double t1 = bench_now(m->o->clock);
        for (unsigned i = 0; i < n; i++) {
            ok &= f->pool_close_ipc(opened[i]) == ZE_RESULT_SUCCESS;
        }
        double t2 = bench_now(m->o->clock);
        if (n < m->calls || !ok) {
            bench_fail("ze", "zeEventPoolOpenIpcHandle / Close failed");
            ok = false;
        } else if (rep >= m->o->warmup) {
            open_ns[rep - m->o->warmup] = (t1 - t0) / n;
            close_ns[rep - m->o->warmup] = (t2 - t1) / n;
        }
    }
    free(opened);
    f->pool_destroy(pool);
    if (ok) {
        report(m, "event_pool_ipc_open", -1, open_ns);
        report(m, "event_pool_ipc_close", -1, close_ns);
    }
    return ok;
}

static bool run_ze_driver(const bench_run_t *run) {
    void *lib, *context, *device;
    if (run->backend != &bench_backend_ze ||
        !bench_ze_driver_handles(run->driver, &lib, &context, &device)) {
        return true; // not a Level Zero run
    }
    ze_fns_t f;
    if (!resolve(lib, &f)) {
        return false;
    }
    const bench_options_t *o = run->o;
    measure_t m = {o,
                   &f,
                   (ze_context_handle_t)context,
                   (ze_device_handle_t)device,
                   run->mode,
                   o->quick ? CALLS_QUICK : CALLS_FULL};
    return measure_vmm(&m) && measure_event_pool_open(&m);
}

#else // a build without the Level Zero headers

static bool run_ze_driver(const bench_run_t *run) {
    (void)run;
    return true;
}

#endif

const bench_measure_t bench_measure_ze_driver = {
    .name = "Level Zero driver calls",
    .modes = BENCH_MODE_FULL,
    .run = run_ze_driver,
};
