// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Level Zero side of the benchmark. The raw path calls the loader's
// entry points resolved with dlsym from the same loader the provider opens
// (UMF_GPU_ZE_LOADER, else libze_loader.so.1), so both paths go through
// the same loader trampoline into the same driver.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umf/providers/provider_level_zero.h>

#include "bench.h"
#include "driver_open.h"

#ifdef UMF_GPU_BENCH_HAVE_LEVEL_ZERO

#include <level_zero/ze_api.h>

#define ZE_LOADER_ENV "UMF_GPU_ZE_LOADER"
#define ZE_LOADER_DEFAULT "libze_loader.so.1"

struct bench_driver_t {
    void *lib;
    __typeof__(zeInit) *init;
    __typeof__(zeDriverGet) *driver_get;
    __typeof__(zeDeviceGet) *device_get;
    __typeof__(zeContextCreate) *context_create;
    __typeof__(zeContextDestroy) *context_destroy;
    __typeof__(zeMemAllocDevice) *alloc_device;
    __typeof__(zeMemFree) *mem_free;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_device_handle_t resident; // the second device, or the first
    ze_context_handle_t context;
    bool emulated;
    char describe[256];
};

// Whether a library named in ZE_ENABLE_ALT_DRIVERS that the loader loaded
// is this project's emulated driver (it exports the control API).
static bool alt_driver_is_emulated(void) {
    const char *list = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (list == NULL || list[0] == '\0') {
        return false;
    }
    char *copy = strdup(list), *save = NULL;
    bool found = false;
    for (char *path = copy ? strtok_r(copy, ",", &save) : NULL;
         path != NULL && !found; path = strtok_r(NULL, ",", &save)) {
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (h != NULL) {
            found = dlsym(h, "umfZeMockGetLiveCount") != NULL;
            dlclose(h);
        }
    }
    free(copy);
    return found;
}

static void ze_close(bench_driver_t *d) {
    if (d == NULL) {
        return;
    }
    if (d->context != NULL) {
        (void)d->context_destroy(d->context);
    }
    // The loader stays loaded: the provider's table points into it.
    free(d);
}

static bool ze_open(bench_driver_t **out, char *why, size_t why_len) {
    bench_driver_t *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        snprintf(why, why_len, "out of host memory");
        return false;
    }
    const driver_symbol_t syms[] = {
        {"zeInit", (void **)&d->init},
        {"zeDriverGet", (void **)&d->driver_get},
        {"zeDeviceGet", (void **)&d->device_get},
        {"zeContextCreate", (void **)&d->context_create},
        {"zeContextDestroy", (void **)&d->context_destroy},
        {"zeMemAllocDevice", (void **)&d->alloc_device},
        {"zeMemFree", (void **)&d->mem_free},
    };
    const char *path;
    d->lib =
        driver_open(ZE_LOADER_ENV, ZE_LOADER_DEFAULT, "the Level Zero loader",
                    syms, sizeof(syms) / sizeof(syms[0]), &path, why, why_len);
    if (d->lib == NULL) {
        goto err;
    }
    ze_result_t res = d->init(0);
    if (res != ZE_RESULT_SUCCESS) {
        snprintf(why, why_len, "zeInit(0) failed: 0x%x (no driver?)",
                 (unsigned)res);
        goto err;
    }
    uint32_t count = 1;
    if ((res = d->driver_get(&count, &d->driver)) != ZE_RESULT_SUCCESS ||
        count == 0) {
        snprintf(why, why_len, "zeDriverGet found no driver (0x%x)",
                 (unsigned)res);
        goto err;
    }
    ze_device_handle_t devices[2] = {NULL, NULL};
    count = 2;
    if ((res = d->device_get(d->driver, &count, devices)) !=
            ZE_RESULT_SUCCESS ||
        count == 0) {
        snprintf(why, why_len, "zeDeviceGet found no device (0x%x)",
                 (unsigned)res);
        goto err;
    }
    d->device = devices[0];
    d->resident = count > 1 ? devices[1] : devices[0];
    ze_context_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    if ((res = d->context_create(d->driver, &desc, &d->context)) !=
        ZE_RESULT_SUCCESS) {
        snprintf(why, why_len, "zeContextCreate failed: 0x%x", (unsigned)res);
        d->context = NULL;
        goto err;
    }
    d->emulated = alt_driver_is_emulated();
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    snprintf(d->describe, sizeof(d->describe), "%s",
             alt != NULL && alt[0] != '\0' ? alt : path);
    *out = d;
    return true;

err:
    ze_close(d);
    return false;
}

static bool ze_emulated(const bench_driver_t *d) {
    return d->emulated;
}

static const char *ze_describe(const bench_driver_t *d) {
    return d->describe;
}

static bool ze_thread_enter(bench_driver_t *d) {
    (void)d; // Level Zero has no current context
    return true;
}

static umf_result_t ze_provider_create(bench_driver_t *d,
                                       umf_memory_provider_handle_t *out) {
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    umf_result_t ret = umfLevelZeroMemoryProviderParamsCreate(&params);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    if ((ret = umfLevelZeroMemoryProviderParamsSetContext(
             params, d->context)) != UMF_RESULT_SUCCESS ||
        (ret = umfLevelZeroMemoryProviderParamsSetDevice(params, d->device)) !=
            UMF_RESULT_SUCCESS ||
        (ret = umfLevelZeroMemoryProviderParamsSetMemoryType(
             params, UMF_MEMORY_TYPE_DEVICE)) != UMF_RESULT_SUCCESS) {
        goto out;
    }
    ret = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params, out);
out:
    umfLevelZeroMemoryProviderParamsDestroy(params);
    return ret;
}

static bool ze_raw_pairs(bench_driver_t *d, size_t size, long n) {
    const ze_device_mem_alloc_desc_t desc = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
    };
    for (long i = 0; i < n; i++) {
        void *ptr = NULL;
        if (d->alloc_device(d->context, &desc, size, 0, d->device, &ptr) !=
                ZE_RESULT_SUCCESS ||
            d->mem_free(d->context, ptr) != ZE_RESULT_SUCCESS) {
            return false;
        }
    }
    return true;
}

static bool ze_raw_alloc(bench_driver_t *d, size_t size, void **ptr) {
    const ze_device_mem_alloc_desc_t desc = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
    };
    return d->alloc_device(d->context, &desc, size, 0, d->device, ptr) ==
           ZE_RESULT_SUCCESS;
}

static bool ze_raw_free(bench_driver_t *d, void *ptr) {
    return d->mem_free(d->context, ptr) == ZE_RESULT_SUCCESS;
}

static bool ze_raw_random(bench_driver_t *d, bench_random_t *r, long n) {
    const ze_device_mem_alloc_desc_t desc = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
    };
    for (long i = 0; i < n; i++) {
        size_t size;
        size_t k = bench_random_step(r, &size);
        ze_result_t res = d->mem_free(d->context, r->slots[k].ptr);
        r->slots[k].ptr = NULL;
        if (res != ZE_RESULT_SUCCESS ||
            d->alloc_device(d->context, &desc, size, 0, d->device,
                            &r->slots[k].ptr) != ZE_RESULT_SUCCESS) {
            r->slots[k].ptr = NULL;
            return false;
        }
        r->slots[k].size = size;
    }
    return true;
}

static umf_result_t ze_resident_change(bench_driver_t *d,
                                       umf_memory_provider_handle_t provider,
                                       bool adding) {
    return umfLevelZeroMemoryProviderResidentDeviceChange(provider, d->resident,
                                                          adding);
}

static const umf_memory_provider_ops_t *ze_ops(void) {
    return umfLevelZeroMemoryProviderOps();
}

bool bench_ze_driver_handles(bench_driver_t *d, void **loader, void **context,
                             void **device) {
    *loader = d->lib;
    *context = d->context;
    *device = d->device;
    return true;
}

const bench_backend_t bench_backend_ze = {
    .name = "ze",
    .title = "Level Zero DEVICE",
    .bit = BENCH_PROVIDER_ZE,
    .ops = ze_ops,
    .open = ze_open,
    .close = ze_close,
    .emulated = ze_emulated,
    .describe = ze_describe,
    .thread_enter = ze_thread_enter,
    .provider_create = ze_provider_create,
    .raw_pairs = ze_raw_pairs,
    .raw_alloc = ze_raw_alloc,
    .raw_free = ze_raw_free,
    .raw_random = ze_raw_random,
    .resident_change = ze_resident_change,
};

#else // a build without the Level Zero headers

static const umf_memory_provider_ops_t *no_ops(void) {
    return NULL;
}

const bench_backend_t bench_backend_ze = {
    .name = "ze",
    .title = "Level Zero DEVICE",
    .bit = BENCH_PROVIDER_ZE,
    .ops = no_ops,
};

#endif
