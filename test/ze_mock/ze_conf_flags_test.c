// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: every ZE_RESULT_ERROR_INVALID_ENUMERATION clause of ze_api.h
// ("`0x7 < desc->flags`", "`::ZE_MEMORY_ADVICE_BIAS_UNCACHED < advice`")
// for what the emulated driver implements. One table below probes each
// clause: every valid bit (and the largest valid value) is accepted, the
// first value past the limit and the top bit are INVALID_ENUMERATION. The
// table is checked against the header itself, read at run time, both ways:
// each clause of the header is probed here or named as not emulated, and
// each mask here is the header's. A header of another version with a new
// flag or clause makes this test fail until the driver follows.
//
// On a real GPU the driver may leave the invalid values to the validation
// layer: there only the valid values are checked, unless the layer is on.

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_test_util.h"

#ifndef UMF_GPU_ZE_API_H_PATH
#error "the build names the ze_api.h the driver was built with"
#endif

// ---- The clauses of the header ---------------------------------------------

typedef struct clause_t {
    char function[64];
    char limit[96]; // "0x7" or "ZE_MEMORY_ADVICE_BIAS_UNCACHED"
    char expr[64];  // "desc->flags"
} clause_t;

typedef struct clauses_t {
    clause_t *items;
    size_t count;
} clauses_t;

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 65536) {
            cap = cap ? 2 * cap : 1 << 20;
            char *n = realloc(text, cap + 1);
            if (n == NULL) {
                free(text);
                fclose(f);
                return NULL;
            }
            text = n;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    text[len] = '\0';
    return text;
}

// Appends the clauses of the INVALID_ENUMERATION entry that starts at
// `entry`, for `function`.
static bool add_clauses(clauses_t *out, const char *function, const char *entry,
                        const char *end) {
    const char *line = strchr(entry, '\n');
    while (line != NULL && line < end) {
        line++;
        const char *tick = strstr(line, "///         + `");
        if (tick != line) {
            break; // the next result code, or the end of the comment
        }
        const char *a = line + strlen("///         + `");
        const char *lt = strstr(a, " < ");
        const char *close = strchr(a, '`');
        if (lt == NULL || close == NULL || lt > close) {
            return false;
        }
        clause_t *c = realloc(out->items, (out->count + 1) * sizeof(*c));
        if (c == NULL) {
            return false;
        }
        out->items = c;
        c = &out->items[out->count++];
        memset(c, 0, sizeof(*c));
        snprintf(c->function, sizeof(c->function), "%s", function);
        const char *limit = a[0] == ':' && a[1] == ':' ? a + 2 : a;
        snprintf(c->limit, sizeof(c->limit), "%.*s", (int)(lt - limit), limit);
        snprintf(c->expr, sizeof(c->expr), "%.*s", (int)(close - lt - 3),
                 lt + 3);
        line = strchr(line, '\n');
    }
    return true;
}

// Every clause of every function of the header.
static bool parse_header(const char *text, clauses_t *out) {
    static const char decl[] = "ZE_APIEXPORT ze_result_t ZE_APICALL\n";
    const char *block = text; // where the current function's comment starts
    for (const char *p = strstr(text, decl); p != NULL;
         block = p, p = strstr(p + 1, decl)) {
        const char *name = p + strlen(decl);
        const char *paren = strchr(name, '(');
        if (paren == NULL || paren - name >= 64) {
            return false;
        }
        char function[64];
        snprintf(function, sizeof(function), "%.*s", (int)(paren - name), name);
        const char *comment = block;
        for (const char *q = strstr(block, "/// @brief"); q != NULL && q < p;
             q = strstr(q + 1, "/// @brief")) {
            comment = q; // the last comment before the declaration
        }
        for (const char *e =
                 strstr(comment, "ZE_RESULT_ERROR_INVALID_ENUMERATION");
             e != NULL && e < p;
             e = strstr(e + 1, "ZE_RESULT_ERROR_INVALID_ENUMERATION")) {
            if (!add_clauses(out, function, e, p)) {
                return false;
            }
        }
    }
    return out->count > 0;
}

// The value of enumerator `name` in the header: "NAME = 2," or
// "NAME = ZE_BIT(3),"; false when it is not found.
static bool enum_value(const char *text, const char *name, uint64_t *value) {
    char pattern[128];
    snprintf(pattern, sizeof(pattern), "    %s = ", name);
    const char *p = strstr(text, pattern);
    if (p == NULL) {
        return false;
    }
    p += strlen(pattern);
    char *end;
    if (strncmp(p, "ZE_BIT(", 7) == 0) {
        unsigned long bit = strtoul(p + 7, &end, 10);
        *value = 1ull << bit;
        return *end == ')';
    }
    errno = 0;
    *value = strtoull(p, &end, 0);
    return errno == 0 && end != p;
}

// ---- The probes ------------------------------------------------------------

// Calls the function with the field of the clause set to `value` and every
// other argument valid; frees what a success made.
typedef ze_result_t (*probe_fn)(ze_test_t *t, uint32_t value);

static ze_result_t probe_context_flags(ze_test_t *t, uint32_t v) {
    ze_context_desc_t d = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, v};
    ze_context_handle_t c;
    ze_result_t r = zeContextCreate(t->driver, &d, &c);
    if (r == ZE_RESULT_SUCCESS) {
        zeContextDestroy(c);
    }
    return r;
}

static ze_result_t probe_context_ex_flags(ze_test_t *t, uint32_t v) {
    ze_context_desc_t d = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, v};
    ze_context_handle_t c;
    ze_result_t r = zeContextCreateEx(t->driver, &d, 1, t->devices, &c);
    if (r == ZE_RESULT_SUCCESS) {
        zeContextDestroy(c);
    }
    return r;
}

typedef enum queue_field_t {
    QUEUE_FLAGS,
    QUEUE_MODE,
    QUEUE_PRIORITY
} queue_field_t;

// A valid queue descriptor with one field set to `v`.
static ze_command_queue_desc_t queue_desc(queue_field_t field, uint32_t v) {
    ze_command_queue_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                 NULL,
                                 0,
                                 0,
                                 0,
                                 ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                 ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    if (field == QUEUE_FLAGS) {
        d.flags = v;
    } else if (field == QUEUE_MODE) {
        d.mode = (ze_command_queue_mode_t)v;
    } else {
        d.priority = (ze_command_queue_priority_t)v;
    }
    return d;
}

static ze_result_t queue_create(ze_test_t *t, ze_command_queue_desc_t d) {
    ze_command_queue_handle_t q;
    ze_result_t r = zeCommandQueueCreate(t->ctx, t->devices[0], &d, &q);
    if (r == ZE_RESULT_SUCCESS) {
        zeCommandQueueDestroy(q);
    }
    return r;
}

static ze_result_t immediate_create(ze_test_t *t, ze_command_queue_desc_t d) {
    ze_command_list_handle_t l;
    ze_result_t r = zeCommandListCreateImmediate(t->ctx, t->devices[0], &d, &l);
    if (r == ZE_RESULT_SUCCESS) {
        zeCommandListDestroy(l);
    }
    return r;
}

static ze_result_t probe_queue_flags(ze_test_t *t, uint32_t v) {
    return queue_create(t, queue_desc(QUEUE_FLAGS, v));
}

static ze_result_t probe_queue_mode(ze_test_t *t, uint32_t v) {
    return queue_create(t, queue_desc(QUEUE_MODE, v));
}

static ze_result_t probe_queue_priority(ze_test_t *t, uint32_t v) {
    return queue_create(t, queue_desc(QUEUE_PRIORITY, v));
}

static ze_result_t probe_immediate_flags(ze_test_t *t, uint32_t v) {
    return immediate_create(t, queue_desc(QUEUE_FLAGS, v));
}

static ze_result_t probe_immediate_mode(ze_test_t *t, uint32_t v) {
    return immediate_create(t, queue_desc(QUEUE_MODE, v));
}

static ze_result_t probe_immediate_priority(ze_test_t *t, uint32_t v) {
    return immediate_create(t, queue_desc(QUEUE_PRIORITY, v));
}

static ze_result_t probe_list_flags(ze_test_t *t, uint32_t v) {
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                v};
    ze_command_list_handle_t l;
    ze_result_t r = zeCommandListCreate(t->ctx, t->devices[0], &d, &l);
    if (r == ZE_RESULT_SUCCESS) {
        zeCommandListDestroy(l);
    }
    return r;
}

static ze_result_t probe_mem_advice(ze_test_t *t, uint32_t v) {
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL,
                                   0};
    void *p;
    ze_result_t r =
        zeMemAllocShared(t->ctx, &dd, &hd, 4096, 0, t->devices[0], &p);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    r = zeCommandListAppendMemAdvise(t->list, t->devices[0], p, 4096,
                                     (ze_memory_advice_t)v);
    zeMemFree(t->ctx, p);
    return r;
}

static ze_result_t probe_event_pool_flags(ze_test_t *t, uint32_t v) {
    ze_event_pool_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL, v, 1};
    ze_event_pool_handle_t pool;
    ze_result_t r = zeEventPoolCreate(t->ctx, &d, 1, t->devices, &pool);
    if (r == ZE_RESULT_SUCCESS) {
        zeEventPoolDestroy(pool);
    }
    return r;
}

static ze_result_t event_create(ze_test_t *t, uint32_t signal, uint32_t wait) {
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    ze_result_t r = zeEventPoolCreate(t->ctx, &pd, 0, NULL, &pool);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    ze_event_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, signal, wait};
    ze_event_handle_t e;
    r = zeEventCreate(pool, &d, &e);
    if (r == ZE_RESULT_SUCCESS) {
        zeEventDestroy(e);
    }
    zeEventPoolDestroy(pool);
    return r;
}

static ze_result_t probe_event_signal(ze_test_t *t, uint32_t v) {
    return event_create(t, v, 0);
}

static ze_result_t probe_event_wait(ze_test_t *t, uint32_t v) {
    return event_create(t, 0, v);
}

static ze_result_t probe_fence_flags(ze_test_t *t, uint32_t v) {
    ze_command_queue_desc_t qd = queue_desc(QUEUE_FLAGS, 0);
    ze_command_queue_handle_t q;
    ze_result_t r = zeCommandQueueCreate(t->ctx, t->devices[0], &qd, &q);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    ze_fence_desc_t d = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, v};
    ze_fence_handle_t f;
    r = zeFenceCreate(q, &d, &f);
    if (r == ZE_RESULT_SUCCESS) {
        zeFenceDestroy(f);
    }
    zeCommandQueueDestroy(q);
    return r;
}

static ze_result_t alloc_shared(ze_test_t *t, uint32_t dflags,
                                uint32_t hflags) {
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, dflags, 0};
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL,
                                   hflags};
    void *p;
    ze_result_t r =
        zeMemAllocShared(t->ctx, &dd, &hd, 64, 0, t->devices[0], &p);
    if (r == ZE_RESULT_SUCCESS) {
        zeMemFree(t->ctx, p);
    }
    return r;
}

static ze_result_t probe_shared_device_flags(ze_test_t *t, uint32_t v) {
    return alloc_shared(t, v, 0);
}

static ze_result_t probe_shared_host_flags(ze_test_t *t, uint32_t v) {
    return alloc_shared(t, 0, v);
}

static ze_result_t probe_device_flags(ze_test_t *t, uint32_t v) {
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, v, 0};
    void *p;
    ze_result_t r = zeMemAllocDevice(t->ctx, &dd, 64, 0, t->devices[0], &p);
    if (r == ZE_RESULT_SUCCESS) {
        zeMemFree(t->ctx, p);
    }
    return r;
}

static ze_result_t probe_host_flags(ze_test_t *t, uint32_t v) {
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL,
                                   v};
    void *p;
    ze_result_t r = zeMemAllocHost(t->ctx, &hd, 64, 0, &p);
    if (r == ZE_RESULT_SUCCESS) {
        zeMemFree(t->ctx, p);
    }
    return r;
}

static ze_result_t probe_ipc_open_flags(ze_test_t *t, uint32_t v) {
    // A real handle where the driver gives one; otherwise bytes that are
    // none, which refuse valid flags for another reason.
    void *dev = ze_test_alloc_device(t, 64, 0);
    ze_ipc_mem_handle_t h;
    memset(&h, 0, sizeof(h));
    if (dev != NULL &&
        zeMemGetIpcHandle(t->ctx, dev, &h) != ZE_RESULT_SUCCESS) {
        memset(&h, 0, sizeof(h));
    }
    void *p;
    ze_result_t r = zeMemOpenIpcHandle(t->ctx, t->devices[0], h, v, &p);
    if (r == ZE_RESULT_SUCCESS) {
        zeMemCloseIpcHandle(t->ctx, p);
    }
    if (dev != NULL) {
        zeMemFree(t->ctx, dev);
    }
    return r;
}

static ze_result_t probe_free_policy(ze_test_t *t, uint32_t v) {
    void *dev = ze_test_alloc_device(t, 64, 0);
    if (dev == NULL) {
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    ze_memory_free_ext_desc_t d = {ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
                                   v};
    ze_result_t r = zeMemFreeExt(t->ctx, &d, dev);
    if (r != ZE_RESULT_SUCCESS) {
        zeMemFree(t->ctx, dev);
    }
    return r;
}

static ze_result_t probe_module_format(ze_test_t *t, uint32_t v) {
    static const uint8_t spirv[] = {0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0};
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                          NULL,
                          (ze_module_format_t)v,
                          sizeof(spirv),
                          spirv,
                          NULL,
                          NULL};
    ze_module_handle_t m;
    ze_result_t r = zeModuleCreate(t->ctx, t->devices[0], &d, &m, NULL);
    if (r == ZE_RESULT_SUCCESS) {
        zeModuleDestroy(m);
    }
    return r;
}

static ze_result_t probe_physical_flags(ze_test_t *t, uint32_t v) {
    size_t page;
    ze_result_t r =
        zeVirtualMemQueryPageSize(t->ctx, t->devices[0], 4096, &page);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    ze_physical_mem_desc_t d = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, v,
                                page};
    ze_physical_mem_handle_t ph;
    r = zePhysicalMemCreate(t->ctx, t->devices[0], &d, &ph);
    if (r == ZE_RESULT_SUCCESS) {
        zePhysicalMemDestroy(t->ctx, ph);
    }
    return r;
}

// A page of physical memory mapped at a reservation, for the access
// probes; calls `fn` on it and undoes everything.
static ze_result_t
with_mapped_page(ze_test_t *t, uint32_t v,
                 ze_result_t (*fn)(ze_test_t *t, void *va, size_t page,
                                   ze_physical_mem_handle_t ph, uint32_t v)) {
    size_t page;
    ze_result_t r =
        zeVirtualMemQueryPageSize(t->ctx, t->devices[0], 4096, &page);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    ze_physical_mem_desc_t d = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0,
                                page};
    ze_physical_mem_handle_t ph;
    void *va;
    if ((r = zePhysicalMemCreate(t->ctx, t->devices[0], &d, &ph)) !=
        ZE_RESULT_SUCCESS) {
        return r;
    }
    // Not a NULL start: the validation layer refuses that (spec clause).
    if ((r = zeVirtualMemReserve(t->ctx, (const void *)(uintptr_t)page, page,
                                 &va)) == ZE_RESULT_SUCCESS) {
        r = fn(t, va, page, ph, v);
        zeVirtualMemFree(t->ctx, va, page);
    }
    zePhysicalMemDestroy(t->ctx, ph);
    return r;
}

static ze_result_t map_with(ze_test_t *t, void *va, size_t page,
                            ze_physical_mem_handle_t ph, uint32_t v) {
    ze_result_t r = zeVirtualMemMap(t->ctx, va, page, ph, 0,
                                    (ze_memory_access_attribute_t)v);
    if (r == ZE_RESULT_SUCCESS) {
        zeVirtualMemUnmap(t->ctx, va, page);
    }
    return r;
}

static ze_result_t set_access(ze_test_t *t, void *va, size_t page,
                              ze_physical_mem_handle_t ph, uint32_t v) {
    ze_result_t r = zeVirtualMemMap(t->ctx, va, page, ph, 0,
                                    ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    if (r != ZE_RESULT_SUCCESS) {
        return r;
    }
    r = zeVirtualMemSetAccessAttribute(t->ctx, va, page,
                                       (ze_memory_access_attribute_t)v);
    zeVirtualMemUnmap(t->ctx, va, page);
    return r;
}

static ze_result_t probe_map_access(ze_test_t *t, uint32_t v) {
    return with_mapped_page(t, v, map_with);
}

static ze_result_t probe_set_access(ze_test_t *t, uint32_t v) {
    return with_mapped_page(t, v, set_access);
}

// zeInit in a fresh process: the loader initialises its drivers once per
// process and keeps that first answer. The child calls nothing else (after
// a failed zeInit the Debian loader has unloaded the driver, and a later
// call would jump into it).
UMF_TEST_CHILD(ze_conf_init_flags) {
    if (argc < 1) {
        return 10;
    }
    ze_result_t r = zeInit((ze_init_flags_t)strtoul(argv[0], NULL, 0));
    char text[16];
    int n = snprintf(text, sizeof(text), "0x%x", (unsigned)r);
    return umf_test_send(sock, text, (size_t)n) ? 11 : 0;
}

static ze_result_t probe_init_flags(ze_test_t *t, uint32_t v) {
    (void)t;
    char flags[16];
    snprintf(flags, sizeof(flags), "0x%x", v);
    const char *args[] = {flags, NULL};
    char *out = NULL;
    int status = umf_test_child_output("ze_conf_init_flags", args, &out);
    ze_result_t r = ZE_RESULT_ERROR_UNKNOWN;
    char *end = NULL;
    unsigned long got = out != NULL ? strtoul(out, &end, 16) : 0;
    if (status == 0 && end != NULL && end != out && *end == '\0') {
        r = (ze_result_t)got;
    } else {
        umf_c_test_fail(__FILE__, __LINE__, "zeInit(%s): child status %d",
                        flags, status);
    }
    free(out);
    return r;
}

// Images and samplers: accepted or refused for another reason (an emulated
// device has no image format and no sampler), never for a valid value.
static ze_result_t image_probe(ze_test_t *t, uint32_t flags, uint32_t type,
                               bool create) {
    ze_image_desc_t d = {
        ZE_STRUCTURE_TYPE_IMAGE_DESC,
        NULL,
        flags,
        (ze_image_type_t)type,
        {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT,
         ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_0,
         ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1},
        16,
        type == ZE_IMAGE_TYPE_1D || type == ZE_IMAGE_TYPE_1DARRAY ||
                type == ZE_IMAGE_TYPE_BUFFER
            ? 1
            : 16,
        type == ZE_IMAGE_TYPE_3D ? 16 : 1,
        type == ZE_IMAGE_TYPE_1DARRAY || type == ZE_IMAGE_TYPE_2DARRAY ? 2 : 0,
        0};
    if (!create) {
        ze_image_properties_t props = {ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES, NULL,
                                       0};
        return zeImageGetProperties(t->devices[0], &d, &props);
    }
    ze_image_handle_t image;
    ze_result_t r = zeImageCreate(t->ctx, t->devices[0], &d, &image);
    if (r == ZE_RESULT_SUCCESS) {
        zeImageDestroy(image);
    }
    return r;
}

static ze_result_t probe_image_props_flags(ze_test_t *t, uint32_t v) {
    return image_probe(t, v, ZE_IMAGE_TYPE_2D, false);
}

static ze_result_t probe_image_props_type(ze_test_t *t, uint32_t v) {
    return image_probe(t, 0, v, false);
}

static ze_result_t probe_image_flags(ze_test_t *t, uint32_t v) {
    return image_probe(t, v, ZE_IMAGE_TYPE_2D, true);
}

static ze_result_t probe_image_type(ze_test_t *t, uint32_t v) {
    return image_probe(t, 0, v, true);
}

static ze_result_t sampler_probe(ze_test_t *t, uint32_t address,
                                 uint32_t filter) {
    ze_sampler_desc_t d = {ZE_STRUCTURE_TYPE_SAMPLER_DESC, NULL,
                           (ze_sampler_address_mode_t)address,
                           (ze_sampler_filter_mode_t)filter, 0};
    ze_sampler_handle_t s;
    ze_result_t r = zeSamplerCreate(t->ctx, t->devices[0], &d, &s);
    if (r == ZE_RESULT_SUCCESS) {
        zeSamplerDestroy(s);
    }
    return r;
}

static ze_result_t probe_sampler_address(ze_test_t *t, uint32_t v) {
    return sampler_probe(t, v, ZE_SAMPLER_FILTER_MODE_NEAREST);
}

static ze_result_t probe_sampler_filter(ze_test_t *t, uint32_t v) {
    return sampler_probe(t, ZE_SAMPLER_ADDRESS_MODE_NONE, v);
}

typedef struct probe_t {
    const char *function, *expr;
    const char *limit; // as in the header
    probe_fn probe;
} probe_t;

static const probe_t probes[] = {
    {"zeInit", "flags", "0x3", probe_init_flags},
    {"zeContextCreate", "desc->flags", "0x1", probe_context_flags},
    {"zeContextCreateEx", "desc->flags", "0x1", probe_context_ex_flags},
    {"zeCommandQueueCreate", "desc->flags", "0x1", probe_queue_flags},
    {"zeCommandQueueCreate", "desc->mode", "ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS",
     probe_queue_mode},
    {"zeCommandQueueCreate", "desc->priority",
     "ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH", probe_queue_priority},
    {"zeCommandListCreate", "desc->flags", "0x7", probe_list_flags},
    {"zeCommandListCreateImmediate", "altdesc->flags", "0x1",
     probe_immediate_flags},
    {"zeCommandListCreateImmediate", "altdesc->mode",
     "ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS", probe_immediate_mode},
    {"zeCommandListCreateImmediate", "altdesc->priority",
     "ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH", probe_immediate_priority},
    {"zeCommandListAppendMemAdvise", "advice", "ZE_MEMORY_ADVICE_BIAS_UNCACHED",
     probe_mem_advice},
    {"zeEventPoolCreate", "desc->flags", "0x7", probe_event_pool_flags},
    {"zeEventCreate", "desc->signal", "0x7", probe_event_signal},
    {"zeEventCreate", "desc->wait", "0x7", probe_event_wait},
    {"zeFenceCreate", "desc->flags", "0x1", probe_fence_flags},
    {"zeMemAllocShared", "device_desc->flags", "0x7",
     probe_shared_device_flags},
    {"zeMemAllocShared", "host_desc->flags", "0xf", probe_shared_host_flags},
    {"zeMemAllocDevice", "device_desc->flags", "0x7", probe_device_flags},
    {"zeMemAllocHost", "host_desc->flags", "0xf", probe_host_flags},
    {"zeMemOpenIpcHandle", "flags", "0x3", probe_ipc_open_flags},
    {"zeModuleCreate", "desc->format", "ZE_MODULE_FORMAT_NATIVE",
     probe_module_format},
    {"zePhysicalMemCreate", "desc->flags", "0x1", probe_physical_flags},
    {"zeVirtualMemMap", "access", "ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY",
     probe_map_access},
    {"zeVirtualMemSetAccessAttribute", "access",
     "ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY", probe_set_access},
    {"zeMemFreeExt", "pMemFreeDesc->freePolicy", "0x3", probe_free_policy},
    {"zeImageGetProperties", "desc->flags", "0x3", probe_image_props_flags},
    {"zeImageGetProperties", "desc->type", "ZE_IMAGE_TYPE_BUFFER",
     probe_image_props_type},
    {"zeImageCreate", "desc->flags", "0x3", probe_image_flags},
    {"zeImageCreate", "desc->type", "ZE_IMAGE_TYPE_BUFFER", probe_image_type},
    {"zeSamplerCreate", "desc->addressMode", "ZE_SAMPLER_ADDRESS_MODE_MIRROR",
     probe_sampler_address},
    {"zeSamplerCreate", "desc->filterMode", "ZE_SAMPLER_FILTER_MODE_LINEAR",
     probe_sampler_filter},
};

// Limits that grew after 1.4, as the newest specification the driver
// follows has them: the driver accepts what they allow, and a header of
// that version says them.
static const struct {
    const char *function, *expr, *current;
} newer_limits[] = {
    // 1.7: ZE_COMMAND_QUEUE_FLAG_IN_ORDER.
    {"zeCommandQueueCreate", "desc->flags", "0x3"},
    {"zeCommandListCreateImmediate", "altdesc->flags", "0x3"},
    // 1.7: ZE_COMMAND_LIST_FLAG_IN_ORDER; 1.9: ..._EXP_CLONEABLE.
    {"zeCommandListCreate", "desc->flags", "0x1f"},
    // 1.6: ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP.
    {"zeEventPoolCreate", "desc->flags", "0xf"},
};

// The newer limit of a probe, or NULL.
static const char *newer_limit(const probe_t *p) {
    for (size_t i = 0; i < sizeof(newer_limits) / sizeof(newer_limits[0]);
         i++) {
        if (strcmp(newer_limits[i].function, p->function) == 0 &&
            strcmp(newer_limits[i].expr, p->expr) == 0) {
            return newer_limits[i].current;
        }
    }
    return NULL;
}

// Functions with INVALID_ENUMERATION clauses that no probe reaches: a
// handle of theirs comes first, and the emulated driver never has one (no
// module, so no kernel; no image); the linkage inspection, which the
// loader's intercept mode sends to the driver of the first module (there
// is none); and the cache region, whose limit the header spells
// `::ZE_CACHE_EXT_REGION_::ZE_CACHE_NON_RESERVED_REGION`. The two last are
// tested in ze_conf_newer_test.c.
static const char *const not_probed[] = {
    "zeModuleInspectLinkageExt", "zeKernelCreate",
    "zeKernelSetIndirectAccess", "zeKernelSetCacheConfig",
    "zeDeviceSetCacheAdviceExt", "zeImageViewCreateExp",
    "zeKernelSchedulingHintExp",
};

static bool is_not_probed(const char *function) {
    for (size_t i = 0; i < sizeof(not_probed) / sizeof(not_probed[0]); i++) {
        if (strcmp(not_probed[i], function) == 0) {
            return true;
        }
    }
    return false;
}

static const probe_t *probe_of(const clause_t *c) {
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
        if (strcmp(probes[i].function, c->function) == 0 &&
            strcmp(probes[i].expr, c->expr) == 0) {
            return &probes[i];
        }
    }
    return NULL;
}

static char *header_text(void) {
    const char *path = getenv("UMF_GPU_ZE_API_H");
    return read_file(path != NULL ? path : UMF_GPU_ZE_API_H_PATH);
}

UMF_C_TEST(ZeConfFlags, TableMatchesEveryClauseOfTheHeader) {
    char *text = header_text();
    UMF_ASSERT(text != NULL);
    clauses_t cl = {NULL, 0};
    UMF_EXPECT(parse_header(text, &cl));
    size_t matched = 0;
    for (size_t i = 0; i < cl.count; i++) {
        const clause_t *c = &cl.items[i];
        const probe_t *p = probe_of(c);
        if (p == NULL) {
            UMF_C_CHECK_(is_not_probed(c->function), (void)0,
                         "%s: clause `%s < %s` is neither probed nor named "
                         "as not emulated",
                         c->function, c->limit, c->expr);
            continue;
        }
        matched++;
        const char *newer = newer_limit(p);
        UMF_C_CHECK_(strcmp(p->limit, c->limit) == 0 ||
                         (newer != NULL && strcmp(newer, c->limit) == 0),
                     (void)0, "%s: `%s < %s` in the header, %s in the table",
                     c->function, c->limit, c->expr, p->limit);
    }
    // And every probe is a clause of the header, every function named as
    // not emulated has some.
    UMF_EXPECT_EQ(matched, sizeof(probes) / sizeof(probes[0]));
    for (size_t k = 0; k < sizeof(not_probed) / sizeof(not_probed[0]); k++) {
        bool found = false;
        for (size_t i = 0; i < cl.count && !found; i++) {
            found = strcmp(cl.items[i].function, not_probed[k]) == 0;
        }
        UMF_C_CHECK_(found, (void)0, "%s: no clause in the header",
                     not_probed[k]);
    }
    free(cl.items);
    free(text);
}

// The limit of a probe as a number: the newest one the driver follows,
// but the header's under the validation layer, which refuses what its
// header does not know before the driver sees it.
static bool limit_value(const char *text, const probe_t *p, uint64_t *v) {
    const char *limit = newer_limit(p) != NULL && !ze_test_validation_layer()
                            ? newer_limit(p)
                            : p->limit;
    if (strncmp(limit, "0x", 2) == 0) {
        *v = strtoull(limit, NULL, 16);
        return true;
    }
    return enum_value(text, limit, v);
}

UMF_C_TEST(ZeConfFlags, ValidValuesAcceptedValuesPastTheLimitRefused) {
    ZE_TEST_SETUP(t);
    char *text = header_text();
    UMF_ASSERT(text != NULL);
    bool check_invalid = ze_test_validated();
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
        const probe_t *p = &probes[i];
        uint64_t limit;
        if (!limit_value(text, p, &limit) || limit >= 0x80000000u) {
            umf_c_test_fail(__FILE__, __LINE__, "%s: no value for %s",
                            p->function, p->limit);
            continue;
        }
        bool is_mask = strncmp(p->limit, "0x", 2) == 0;
        // Valid: 0, each bit of a mask (or each value of an enumeration up
        // to its limit), and the limit itself.
        for (uint64_t v = 0; v <= limit;
             v = is_mask ? (v ? v << 1 : 1) : v + 1) {
            if (is_mask && v > limit) {
                break;
            }
            ze_result_t r = p->probe(&t, (uint32_t)v);
            UMF_C_CHECK_(r != ZE_RESULT_ERROR_INVALID_ENUMERATION, (void)0,
                         "%s(%s = 0x%llx): refused a valid value", p->function,
                         p->expr, (unsigned long long)v);
        }
        UMF_C_CHECK_(p->probe(&t, (uint32_t)limit) !=
                         ZE_RESULT_ERROR_INVALID_ENUMERATION,
                     (void)0, "%s(%s = 0x%llx): refused the limit", p->function,
                     p->expr, (unsigned long long)limit);
        if (!check_invalid) {
            continue;
        }
        const uint32_t invalid[] = {(uint32_t)limit + 1, 0x80000000u,
                                    (uint32_t)(limit + 1) | (uint32_t)limit};
        for (size_t k = 0; k < sizeof(invalid) / sizeof(invalid[0]); k++) {
            ze_result_t r = p->probe(&t, invalid[k]);
            UMF_C_CHECK_(r == ZE_RESULT_ERROR_INVALID_ENUMERATION, (void)0,
                         "%s(%s = 0x%x): 0x%x, not INVALID_ENUMERATION",
                         p->function, p->expr, invalid[k], r);
        }
    }
    free(text);
    ze_test_teardown(&t);
}
