// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Measurements of Level Zero kernels (bench_kernels.cl), no provider
// involved; on the emulated driver they run on the CPU through pocl
// (docs/level-zero.md, "Kernels"). Wall time throughout: the kernels run
// on the driver's threads.
// - module_build_first: zeModuleCreate of a module no one built before,
//   once per run: the translation and the compile. pocl keeps what it
//   builds in POCL_CACHE_DIR, which this measurement points at an empty
//   directory of its own (removed at the end) before pocl is loaded: the
//   driver loads it at the device's module properties, read first and not
//   timed;
// - module_build_cached: zeModuleCreate of a module built before in this
//   process (pocl's cache has it), per build; ratio: first / cached;
// - launch_first: the first launch of a kernel of a freshly built module
//   (pocl compiles a kernel for its group size there), once per run;
// - launch_empty: zeCommandListAppendLaunchKernel of an empty kernel, one
//   work-item, on a synchronous in-order immediate list, per launch;
// - vadd_4MiB: a vector add of 1 Mi floats (8 MiB read, 4 MiB written) on
//   that list, per launch, with its ratio against copy_12MiB, a device copy
//   of the same 12 MiB on that list: the kernel's bandwidth against the
//   driver's copy.
// Where no module builds (no CPU backend, or a build without the SPIR-V
// tools) the measurements are skipped, saying so.

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#if defined(UMF_GPU_BENCH_HAVE_LEVEL_ZERO) &&                                  \
    defined(UMF_GPU_HAVE_BENCH_KERNELS_SPIRV)

#include <level_zero/ze_api.h>

#include "bench_kernels_spirv.h"

#define FLOATS (1u << 20)
#define VADD_BYTES (3u * FLOATS * sizeof(float))
#define GROUP 256u
#define LAUNCHES_QUICK 32
#define LAUNCHES_FULL 256

typedef struct fns_t {
    __typeof__(zeMemAllocDevice) *alloc;
    __typeof__(zeMemFree) *mem_free;
    __typeof__(zeCommandListCreateImmediate) *create_immediate;
    __typeof__(zeCommandListDestroy) *destroy_list;
    __typeof__(zeCommandListAppendMemoryCopy) *copy;
    __typeof__(zeCommandListAppendLaunchKernel) *launch;
    __typeof__(zeModuleCreate) *module_create;
    __typeof__(zeModuleDestroy) *module_destroy;
    __typeof__(zeModuleBuildLogGetString) *log_string;
    __typeof__(zeModuleBuildLogDestroy) *log_destroy;
    __typeof__(zeKernelCreate) *kernel_create;
    __typeof__(zeKernelDestroy) *kernel_destroy;
    __typeof__(zeKernelSetGroupSize) *group_size;
    __typeof__(zeKernelSetArgumentValue) *set_arg;
    __typeof__(zeDeviceGetModuleProperties) *module_props;
} fns_t;

typedef struct ctx_t {
    const bench_options_t *o;
    const fns_t *f;
    ze_context_handle_t ctx;
    ze_device_handle_t dev;
    const char *mode;
    ze_command_list_handle_t imm; // immediate, synchronous
} ctx_t;

static bool resolve(void *lib, fns_t *f) {
    const bench_symbol_t syms[] = {
        {"zeMemAllocDevice", (void **)&f->alloc},
        {"zeMemFree", (void **)&f->mem_free},
        {"zeCommandListCreateImmediate", (void **)&f->create_immediate},
        {"zeCommandListDestroy", (void **)&f->destroy_list},
        {"zeCommandListAppendMemoryCopy", (void **)&f->copy},
        {"zeCommandListAppendLaunchKernel", (void **)&f->launch},
        {"zeModuleCreate", (void **)&f->module_create},
        {"zeModuleDestroy", (void **)&f->module_destroy},
        {"zeModuleBuildLogGetString", (void **)&f->log_string},
        {"zeModuleBuildLogDestroy", (void **)&f->log_destroy},
        {"zeKernelCreate", (void **)&f->kernel_create},
        {"zeKernelDestroy", (void **)&f->kernel_destroy},
        {"zeKernelSetGroupSize", (void **)&f->group_size},
        {"zeKernelSetArgumentValue", (void **)&f->set_arg},
        {"zeDeviceGetModuleProperties", (void **)&f->module_props},
    };
    return bench_resolve(lib, syms, sizeof(syms) / sizeof(syms[0]), "ze");
}

// zeModuleCreate of `size` bytes of SPIR-V; on failure the first line of
// the build log in why[why_size].
static ze_result_t build(const ctx_t *c, const void *il, size_t size,
                         ze_module_handle_t *m, char *why, size_t why_size) {
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                          NULL,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          size,
                          il,
                          NULL,
                          NULL};
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r = c->f->module_create(c->ctx, c->dev, &d, m, &log);
    if (r != ZE_RESULT_SUCCESS && log != NULL && why_size > 0) {
        size_t n = why_size;
        why[0] = '\0';
        if (c->f->log_string(log, &n, why) == ZE_RESULT_SUCCESS) {
            why[strcspn(why, "\n")] = '\0';
        }
    }
    if (log != NULL) {
        c->f->log_destroy(log);
    }
    return r;
}

// Writes the result; its ratio is against `base` where given (base over
// it where `inverse`).
static void report(const ctx_t *c, const char *name, long long size,
                   double *samples, size_t n, const bench_result_t *base,
                   bool inverse, bench_result_t *out) {
    bench_result_init(out, name, "ze", c->mode, size, 1, 0);
    bench_summarize(out, samples, n);
    if (size > 0 && out->median_ns > 0) {
        out->throughput = 1e9 / out->median_ns; // operations per second
    }
    if (base != NULL) {
        out->ratio = inverse ? base->median_ns / out->median_ns
                             : out->median_ns / base->median_ns;
    }
    bench_write_result(out);
}

// The kernel `name` of `m` with `nargs` pointer arguments, group size g.
static ze_kernel_handle_t kernel(const ctx_t *c, ze_module_handle_t m,
                                 const char *name, uint32_t g,
                                 void *const *args, uint32_t nargs) {
    ze_kernel_desc_t d = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, name};
    ze_kernel_handle_t k = NULL;
    ze_result_t r = c->f->kernel_create(m, &d, &k);
    if (r == ZE_RESULT_SUCCESS) {
        r = c->f->group_size(k, g, 1, 1);
    }
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && i < nargs; i++) {
        r = c->f->set_arg(k, i, sizeof(void *), &args[i]);
    }
    if (r != ZE_RESULT_SUCCESS) {
        bench_fail("ze", "kernel %s: 0x%x", name, (unsigned)r);
        if (k != NULL) {
            c->f->kernel_destroy(k);
        }
        return NULL;
    }
    return k;
}

// The first build and the first launch, once; then the cached builds.
static bool measure_builds(const ctx_t *c, ze_module_handle_t *out) {
    const void *il = bench_kernels_spirv;
    size_t size = sizeof(bench_kernels_spirv);
    char why[256] = "";
    ze_module_handle_t m = NULL;
    double t0 = bench_now(BENCH_CLOCK_WALL);
    ze_result_t r = build(c, il, size, &m, why, sizeof(why));
    double first = bench_now(BENCH_CLOCK_WALL) - t0;
    if (r != ZE_RESULT_SUCCESS) {
        fprintf(stderr,
                "umf-gpu-bench: ze: no module builds here (%s): kernel "
                "measurements skipped\n",
                why);
        return true;
    }
    bench_result_t first_build, cached, launch;
    report(c, "module_build_first", -1, &first, 1, NULL, false, &first_build);
    ze_kernel_handle_t k = kernel(c, m, "empty", 1, NULL, 0);
    bool ok = k != NULL;
    if (ok) {
        ze_group_count_t g = {1, 1, 1};
        t0 = bench_now(BENCH_CLOCK_WALL);
        ok = c->f->launch(c->imm, k, &g, NULL, 0, NULL) == ZE_RESULT_SUCCESS;
        double ns = bench_now(BENCH_CLOCK_WALL) - t0;
        c->f->kernel_destroy(k);
        if (ok) {
            report(c, "launch_first", -1, &ns, 1, NULL, false, &launch);
        }
    }
    c->f->module_destroy(m);
    double samples[BENCH_MAX_REPS];
    unsigned reps = c->o->reps;
    for (unsigned rep = 0; ok && rep < c->o->warmup + reps; rep++) {
        t0 = bench_now(BENCH_CLOCK_WALL);
        ok = build(c, il, size, &m, why, sizeof(why)) == ZE_RESULT_SUCCESS;
        if (ok && rep >= c->o->warmup) {
            samples[rep - c->o->warmup] = bench_now(BENCH_CLOCK_WALL) - t0;
        }
        if (ok && rep + 1 < c->o->warmup + reps) {
            c->f->module_destroy(m);
        }
    }
    if (!ok) {
        bench_fail("ze", "a module built once does not build again: %s", why);
        return false;
    }
    report(c, "module_build_cached", -1, samples, reps, &first_build, true,
           &cached);
    *out = m;
    return true;
}

// `calls` launches (or copies) per repetition.
static bool measure_launches(const ctx_t *c, ze_module_handle_t m) {
    const fns_t *f = c->f;
    unsigned calls = c->o->quick ? LAUNCHES_QUICK : LAUNCHES_FULL;
    void *buf[3] = {NULL, NULL, NULL};
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (int i = 0; i < 3 && r == ZE_RESULT_SUCCESS; i++) {
        r = f->alloc(c->ctx, &dd, FLOATS * sizeof(float), 64, c->dev, &buf[i]);
    }
    void *copy_src = NULL, *copy_dst = NULL;
    if (r == ZE_RESULT_SUCCESS) {
        r = f->alloc(c->ctx, &dd, VADD_BYTES, 64, c->dev, &copy_src);
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = f->alloc(c->ctx, &dd, VADD_BYTES, 64, c->dev, &copy_dst);
    }
    ze_kernel_handle_t empty = NULL, vadd = NULL;
    bool ok = r == ZE_RESULT_SUCCESS;
    if (!ok) {
        bench_fail("ze", "device memory for the kernels: 0x%x", (unsigned)r);
    }
    ok = ok && (empty = kernel(c, m, "empty", 1, NULL, 0)) != NULL &&
         (vadd = kernel(c, m, "vadd", GROUP, buf, 3)) != NULL;
    // The first launch of each compiles it for its group size: not timed.
    static const ze_group_count_t one = {1, 1, 1};
    const ze_group_count_t groups = {FLOATS / GROUP, 1, 1};
    ok = ok &&
         f->launch(c->imm, empty, &one, NULL, 0, NULL) == ZE_RESULT_SUCCESS &&
         f->launch(c->imm, vadd, &groups, NULL, 0, NULL) == ZE_RESULT_SUCCESS;
    const char *names[3] = {"launch_empty", "copy_12MiB", "vadd_4MiB"};
    bench_result_t res[3];
    for (int which = 0; ok && which < 3; which++) {
        double samples[BENCH_MAX_REPS];
        unsigned n = which == 0 ? calls : calls / 8 + 1;
        for (unsigned rep = 0; ok && rep < c->o->warmup + c->o->reps; rep++) {
            // Wall time: pocl's threads run the kernels, not this one.
            double t0 = bench_now(BENCH_CLOCK_WALL);
            for (unsigned i = 0; ok && i < n; i++) {
                r = which == 0 ? f->launch(c->imm, empty, &one, NULL, 0, NULL)
                    : which == 1
                        ? f->copy(c->imm, copy_dst, copy_src, VADD_BYTES, NULL,
                                  0, NULL)
                        : f->launch(c->imm, vadd, &groups, NULL, 0, NULL);
                ok = r == ZE_RESULT_SUCCESS;
            }
            if (rep >= c->o->warmup) {
                samples[rep - c->o->warmup] =
                    (bench_now(BENCH_CLOCK_WALL) - t0) / n;
            }
        }
        if (!ok) {
            bench_fail("ze", "%s: 0x%x", names[which], (unsigned)r);
            break;
        }
        report(c, names[which], which == 0 ? -1 : (long long)VADD_BYTES,
               samples, c->o->reps, which == 2 ? &res[1] : NULL, false,
               &res[which]);
    }
    if (empty != NULL) {
        f->kernel_destroy(empty);
    }
    if (vadd != NULL) {
        f->kernel_destroy(vadd);
    }
    for (int i = 0; i < 3; i++) {
        if (buf[i] != NULL) {
            f->mem_free(c->ctx, buf[i]);
        }
    }
    if (copy_src != NULL) {
        f->mem_free(c->ctx, copy_src);
    }
    if (copy_dst != NULL) {
        f->mem_free(c->ctx, copy_dst);
    }
    return ok;
}

static int remove_entry(const char *path, const struct stat *st, int type,
                        struct FTW *ftw) {
    (void)st, (void)type, (void)ftw;
    if (remove(path) != 0) {
        fprintf(stderr, "umf-gpu-bench: cannot remove %s: %s\n", path,
                strerror(errno));
    }
    return 0; // the rest still goes
}

static bool run_ze_kernels(const bench_run_t *run) {
    void *lib, *context, *device;
    if (run->backend != &bench_backend_ze ||
        !bench_ze_driver_handles(run->driver, &lib, &context, &device)) {
        return true; // not a Level Zero run
    }
    fns_t f;
    if (!resolve(lib, &f)) {
        return false;
    }
    ctx_t c = {run->o,
               &f,
               (ze_context_handle_t)context,
               (ze_device_handle_t)device,
               run->mode,
               NULL};
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_result_t r = f.create_immediate(c.ctx, c.dev, &qd, &c.imm);
    if (r != ZE_RESULT_SUCCESS) {
        bench_fail("ze", "an immediate list: 0x%x", (unsigned)r);
        return false;
    }
    char cache[] = "/tmp/umf-gpu-bench-pocl-XXXXXX";
    if (mkdtemp(cache) == NULL || setenv("POCL_CACHE_DIR", cache, 1) != 0) {
        bench_fail("ze", "a directory for pocl's cache: %s", strerror(errno));
        f.destroy_list(c.imm);
        return false;
    }
    ze_device_module_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    ze_module_handle_t m = NULL;
    bool ok = true;
    if (f.module_props(c.dev, &mp) != ZE_RESULT_SUCCESS ||
        mp.spirvVersionSupported == 0) {
        fprintf(stderr, "umf-gpu-bench: ze: the device takes no SPIR-V: "
                        "kernel measurements skipped\n");
    } else {
        ok = measure_builds(&c, &m);
    }
    if (ok && m != NULL) {
        ok = measure_launches(&c, m);
        f.module_destroy(m);
    }
    f.destroy_list(c.imm);
    nftw(cache, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    return ok;
}

#else // no Level Zero headers, or no SPIR-V tools at build time

static bool run_ze_kernels(const bench_run_t *run) {
#ifdef UMF_GPU_BENCH_HAVE_LEVEL_ZERO
    if (run->backend == &bench_backend_ze) {
        fprintf(stderr, "umf-gpu-bench: ze: built without clang-14 and "
                        "llvm-spirv-14: kernel measurements skipped\n");
    }
#else
    (void)run;
#endif
    return true;
}

#endif

const bench_measure_t bench_measure_ze_kernels = {
    .name = "Level Zero kernels",
    .modes = BENCH_MODE_FULL,
    .run = run_ze_kernels,
};
