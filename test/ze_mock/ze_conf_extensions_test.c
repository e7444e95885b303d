// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// zeDriverGetExtensionProperties and what the driver does agree, both ways:
// "Retrieves extension properties" of "the extensions supported by the
// driver". Every extension of ze_api.h (and the newer ones runtimes look
// for) has a probe that uses what the extension defines (its functions,
// the structures it chains) on valid input; it works, or it is refused.
// A listed extension must work, and a working one must be listed. Where a
// probe needs the driver's own tables (entries newer than Debian's 1.4
// loader), it runs only with the emulated driver outside the loader's
// intercept mode; elsewhere that extension is not checked.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

// The structure types of descriptors newer than Debian's headers are not
// written here: these probes run on the emulated driver only (its own
// tables), which reads no stype of them.
#define STYPE_NEWER ((ze_structure_type_t)0)
// ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE (1.9).
#define CLONEABLE (1u << 4)

typedef enum probe_t {
    PROBE_WORKS,   // it does what the extension says
    PROBE_REFUSED, // its functions refuse, or its structures stay unset
    PROBE_UNKNOWN, // cannot be told here (no direct tables)
} probe_t;

static probe_t works_if(bool works) {
    return works ? PROBE_WORKS : PROBE_REFUSED;
}

// A result of a call on valid input: success works, anything else refuses.
static probe_t works_on(ze_result_t r) {
    return works_if(r == ZE_RESULT_SUCCESS);
}

// What an extension's function answers for bad input, when the extension
// works: the header's result, not UNSUPPORTED_FEATURE (checked where the
// emulated driver answers: a real one may leave it to the validation
// layer).
#define EXPECT_BAD_INPUT(call, want)                                           \
    do {                                                                       \
        if (ze_test_control_if_emulated() != NULL) {                           \
            UMF_EXPECT_EQ((call), (want));                                     \
        }                                                                      \
    } while (0)

// ---- Probes -----------------------------------------------------------------

// The driver's own table of `getter` at the newest version (of `size`
// bytes, zeroed first); false where calls cannot go to the driver directly.
static bool direct_table(const char *getter, void *table, size_t size) {
    memset(table, 0, size);
    return ze_test_direct_tables() &&
           ze_test_driver_table(getter, ZE_MOCK_API_VERSION_NEWEST, table);
}

static probe_t relaxed_allocation_limits(ze_test_t *t) {
    ze_relaxed_allocation_limits_exp_desc_t relaxed = {
        ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL,
        ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE};
    ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                    &relaxed, 0, 0};
    void *p = NULL;
    ze_result_t r = zeMemAllocDevice(t->ctx, &d, 4096, 0, t->devices[0], &p);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeMemFree(t->ctx, p), ZE_RESULT_SUCCESS);
    }
    return works_on(r);
}

static probe_t memory_free_policies(ze_test_t *t) {
    ze_driver_memory_free_ext_properties_t fp = {
        ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL, 0};
    ze_driver_properties_t dp = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
                                 .pNext = &fp};
    UMF_EXPECT_EQ(zeDriverGetProperties(t->driver, &dp), ZE_RESULT_SUCCESS);
    void *p = ze_test_alloc_device(t, 4096, 0);
    if (p == NULL) {
        return PROBE_REFUSED;
    }
    ze_memory_free_ext_desc_t fd = {
        ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
        ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
    EXPECT_BAD_INPUT(zeMemFreeExt(t->ctx, NULL, p),
                     ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_result_t r = zeMemFreeExt(t->ctx, &fd, p);
    if (r != ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeMemFree(t->ctx, p), ZE_RESULT_SUCCESS);
    }
    return works_if(r == ZE_RESULT_SUCCESS &&
                    (fp.freePolicies &
                     ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE) != 0);
}

// A signalled timestamp event, or NULL.
static ze_event_handle_t timestamp_event(ze_test_t *t,
                                         ze_event_pool_handle_t *pool) {
    ze_event_handle_t e = NULL;
    *pool = ze_test_events(t, 1, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, &e);
    if (*pool == NULL) {
        return NULL;
    }
    char *d = ze_test_alloc_device(t, 64, 0);
    const unsigned char byte = 7;
    if (d == NULL ||
        zeCommandListAppendMemoryFill(t->list, d, &byte, 1, 64, e, 0, NULL) !=
            ZE_RESULT_SUCCESS ||
        zeEventHostSynchronize(e, UINT64_MAX) != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "a timestamped fill");
    }
    if (d != NULL) {
        UMF_EXPECT_EQ(zeMemFree(t->ctx, d), ZE_RESULT_SUCCESS);
    }
    return e;
}

static probe_t event_query_timestamps(ze_test_t *t) {
    ze_event_pool_handle_t pool;
    ze_event_handle_t e = timestamp_event(t, &pool);
    if (e == NULL) {
        return PROBE_REFUSED;
    }
    uint32_t n = 0;
    EXPECT_BAD_INPUT(zeEventQueryTimestampsExp(e, t->devices[0], NULL, NULL),
                     ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_result_t r = zeEventQueryTimestampsExp(e, t->devices[0], &n, NULL);
    ze_test_events_free(pool, 1, &e);
    return works_if(r == ZE_RESULT_SUCCESS && n >= 1);
}

static probe_t event_query_kernel_timestamps(ze_test_t *t) {
    ze_mock_event_dditable_t et;
    if (!direct_table("zeGetEventProcAddrTable", &et, sizeof(et))) {
        return PROBE_UNKNOWN;
    }
    ze_event_pool_handle_t pool;
    ze_event_handle_t e = timestamp_event(t, &pool);
    if (e == NULL) {
        return PROBE_REFUSED;
    }
    uint32_t n = 0;
    ze_result_t r = et.pfnQueryKernelTimestampsExt(e, t->devices[0], &n, NULL);
    ze_test_events_free(pool, 1, &e);
    return works_if(r == ZE_RESULT_SUCCESS && n >= 1);
}

// The command list exp table (1.9), or false.
static bool list_exp(ze_mock_command_list_exp_dditable_t *tb) {
    return direct_table("zeGetCommandListExpProcAddrTable", tb, sizeof(*tb));
}

// A closed regular list on device 0 with `flags`, or NULL.
static ze_command_list_handle_t closed_list(ze_test_t *t, uint32_t flags) {
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                flags};
    ze_command_list_handle_t l = NULL;
    if (zeCommandListCreate(t->ctx, t->devices[0], &d, &l) !=
            ZE_RESULT_SUCCESS ||
        zeCommandListClose(l) != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "a closed command list");
    }
    return l;
}

static probe_t immediate_command_list_append(ze_test_t *t) {
    ze_mock_command_list_exp_dditable_t tb;
    if (!list_exp(&tb)) {
        return PROBE_UNKNOWN;
    }
    ze_command_list_handle_t l = closed_list(t, 0);
    if (l == NULL) {
        return PROBE_REFUSED;
    }
    EXPECT_BAD_INPUT(
        tb.pfnImmediateAppendCommandListsExp(t->list, 1, NULL, NULL, 0, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_event_handle_t e = NULL;
    ze_event_pool_handle_t pool = ze_test_events(t, 1, 0, &e);
    ze_result_t r =
        tb.pfnImmediateAppendCommandListsExp(t->list, 1, &l, e, 0, NULL);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeEventHostSynchronize(e, UINT64_MAX), ZE_RESULT_SUCCESS);
    }
    ze_test_events_free(pool, 1, &e);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    return works_on(r);
}

static probe_t command_list_clone(ze_test_t *t) {
    ze_mock_command_list_exp_dditable_t tb;
    // (The 1.4 validation layer refuses the 1.9 flag the list needs.)
    if (!list_exp(&tb) || ze_test_validation_layer()) {
        return PROBE_UNKNOWN;
    }
    ze_command_list_handle_t l = closed_list(t, CLONEABLE);
    if (l == NULL) {
        return PROBE_REFUSED;
    }
    ze_command_list_handle_t clone = NULL;
    EXPECT_BAD_INPUT(tb.pfnCreateCloneExp(l, NULL),
                     ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_result_t r = tb.pfnCreateCloneExp(l, &clone);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeCommandListDestroy(clone), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    return works_on(r);
}

static probe_t mutable_command_list(ze_test_t *t) {
    ze_mock_command_list_exp_dditable_t tb;
    if (!list_exp(&tb)) {
        return PROBE_UNKNOWN;
    }
    // ze_mutable_command_id_exp_desc_t (1.9): stype, pNext, flags (the
    // kernel arguments, 1 << 0).
    struct {
        ze_structure_type_t stype;
        const void *pNext;
        uint32_t flags;
    } desc = {STYPE_NEWER, NULL, 1};
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0,
                                0};
    ze_command_list_handle_t l = NULL;
    if (zeCommandListCreate(t->ctx, t->devices[0], &d, &l) !=
        ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "a command list");
        return PROBE_REFUSED;
    }
    uint64_t id = 0;
    ze_result_t r = tb.pfnGetNextCommandIdExp(l, &desc, &id);
    UMF_EXPECT_EQ(zeCommandListDestroy(l), ZE_RESULT_SUCCESS);
    return works_on(r);
}

static probe_t pci_properties(ze_test_t *t) {
    ze_pci_ext_properties_t p = {.stype = ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES};
    ze_result_t r = zeDevicePciGetPropertiesExt(t->devices[0], &p);
    EXPECT_BAD_INPUT(zeDevicePciGetPropertiesExt(t->devices[0], NULL),
                     ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    return works_if(r == ZE_RESULT_SUCCESS && p.maxSpeed.width != 0);
}

static probe_t device_memory_properties(ze_test_t *t) {
    ze_device_memory_ext_properties_t ext = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_EXT_PROPERTIES};
    ze_device_memory_properties_t mp = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, .pNext = &ext};
    uint32_t n = 1;
    ze_result_t r = zeDeviceGetMemoryProperties(t->devices[0], &n, &mp);
    return works_if(r == ZE_RESULT_SUCCESS && n == 1 && ext.physicalSize != 0);
}

static probe_t fabric(ze_test_t *t) {
    uint32_t n = UINT32_MAX;
    EXPECT_BAD_INPUT(zeFabricVertexGetExp(t->driver, NULL, NULL),
                     ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_result_t r = zeFabricVertexGetExp(t->driver, &n, NULL);
    if (r != ZE_RESULT_SUCCESS) {
        return PROBE_REFUSED;
    }
    ze_fabric_vertex_handle_t v = NULL;
    ze_result_t dr = zeDeviceGetFabricVertexExp(t->devices[0], &v);
    // No vertices: no device is one, as the extension defines; else the
    // device's vertex.
    return works_if(n == 0 ? dr == ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX
                           : dr == ZE_RESULT_SUCCESS && v != NULL);
}

static probe_t cache_reservation(ze_test_t *t) {
    return works_on(zeDeviceReserveCacheExt(t->devices[0], 0, 4096));
}

// A property structure chained on zeDeviceGetProperties: works when the
// driver writes it (the bytes after stype and pNext change from a fill).
static probe_t device_property(ze_test_t *t, ze_structure_type_t stype,
                               size_t size) {
    unsigned char *ext = malloc(size);
    if (ext == NULL) {
        return PROBE_UNKNOWN;
    }
    const size_t head = sizeof(ze_base_properties_t); // stype, pNext
    memset(ext, 0xa5, size);
    ze_base_properties_t base = {stype, NULL};
    memcpy(ext, &base, head);
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
                                .pNext = ext};
    bool written = false;
    if (zeDeviceGetProperties(t->devices[0], &p) == ZE_RESULT_SUCCESS) {
        for (size_t i = head; i < size && !written; i++) {
            written = ext[i] != 0xa5;
        }
    }
    free(ext);
    return works_if(written);
}

static probe_t float_atomics(ze_test_t *t) {
    return device_property(t, ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES,
                           sizeof(ze_float_atomic_ext_properties_t));
}

static probe_t raytracing(ze_test_t *t) {
    return device_property(t,
                           ZE_STRUCTURE_TYPE_DEVICE_RAYTRACING_EXT_PROPERTIES,
                           sizeof(ze_device_raytracing_ext_properties_t));
}

static probe_t eu_count(ze_test_t *t) {
    return device_property(t, ZE_STRUCTURE_TYPE_EU_COUNT_EXT,
                           sizeof(ze_eu_count_ext_t));
}

static probe_t device_luid(ze_test_t *t) {
    return device_property(t, ZE_STRUCTURE_TYPE_DEVICE_LUID_EXT_PROPERTIES,
                           sizeof(ze_device_luid_ext_properties_t));
}

static probe_t bandwidth_properties(ze_test_t *t) {
    ze_device_p2p_bandwidth_exp_properties_t bw;
    memset(&bw, 0, sizeof(bw));
    bw.stype = ZE_STRUCTURE_TYPE_DEVICE_P2P_BANDWIDTH_EXP_PROPERTIES;
    ze_device_p2p_properties_t p = {ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES,
                                    &bw, 0};
    ze_result_t r = zeDeviceGetP2PProperties(
        t->devices[0], t->devices[t->device_count > 1 ? 1 : 0], &p);
    return works_if(r == ZE_RESULT_SUCCESS && bw.logicalBandwidth != 0);
}

// Counter-based events: Intel's zexCounterBasedEventCreate2, by name.
static probe_t counter_based_event(ze_test_t *t) {
    if (!ze_test_direct_tables()) {
        return PROBE_UNKNOWN; // it takes the driver's own handles
    }
    typedef ze_result_t(ZE_APICALL *
                        create_fn)(ze_context_handle_t, ze_device_handle_t,
                                   const void *, ze_event_handle_t *);
    void *fn = NULL;
    if (zeDriverGetExtensionFunctionAddress(t->driver,
                                            "zexCounterBasedEventCreate2",
                                            &fn) != ZE_RESULT_SUCCESS) {
        return PROBE_REFUSED;
    }
    // zex_counter_based_event_desc_t: stype, pNext, flags (IMMEDIATE),
    // signal and wait scopes.
    struct {
        ze_structure_type_t stype;
        const void *pNext;
        uint32_t flags;
        ze_event_scope_flags_t signal, wait;
    } d = {(ze_structure_type_t)0x0003001C, NULL, 1, 0, 0};
    ze_event_handle_t e = NULL;
    ze_result_t r = ((create_fn)fn)(t->ctx, t->devices[0], &d, &e);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
    }
    return works_on(r);
}

// Modules and kernels: whatever extends them needs a kernel first. This
// one, "__kernel void empty(void) {}", is what clang-14 -cl-std=CL2.0
// -target spir64 and llvm-spirv-14 make of it. It may not build on a real
// GPU (a driver may want newer SPIR-V): checked on the emulated driver
// only, and only where its kernels run (pocl and llvm-spirv-14 present).
static const uint32_t empty_kernel[] = {
    0x07230203, 0x00010000, 0x0006000e, 0x00000009, 0x00000000, 0x00020011,
    0x00000004, 0x00020011, 0x00000005, 0x00020011, 0x00000006, 0x0005000b,
    0x00000001, 0x6e65704f, 0x732e4c43, 0x00006474, 0x0003000e, 0x00000002,
    0x00000002, 0x0005000f, 0x00000006, 0x00000006, 0x74706d65, 0x00000079,
    0x00030003, 0x00000003, 0x00030d40, 0x00040005, 0x00000004, 0x74706d65,
    0x00000079, 0x00060047, 0x00000004, 0x00000029, 0x74706d65, 0x00000079,
    0x00000000, 0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002,
    0x00050036, 0x00000002, 0x00000004, 0x00000004, 0x00000003, 0x000200f8,
    0x00000005, 0x000100fd, 0x00010038, 0x00050036, 0x00000002, 0x00000006,
    0x00000004, 0x00000003, 0x000200f8, 0x00000007, 0x00040039, 0x00000002,
    0x00000008, 0x00000004, 0x000100fd, 0x00010038};

static ze_module_desc_t empty_module_desc(const void *pNext) {
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                          pNext,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          sizeof(empty_kernel),
                          (const uint8_t *)empty_kernel,
                          NULL,
                          NULL};
    return d;
}

// The empty kernel's module, or NULL where no module builds.
static ze_module_handle_t empty_module(ze_test_t *t) {
    if (ze_test_control_if_emulated() == NULL) {
        return NULL;
    }
    ze_module_desc_t d = empty_module_desc(NULL);
    ze_module_handle_t m = NULL;
    return zeModuleCreate(t->ctx, t->devices[0], &d, &m, NULL) ==
                   ZE_RESULT_SUCCESS
               ? m
               : NULL;
}

// Runs `use` on the empty kernel: PROBE_UNKNOWN off the emulated driver,
// and where no module builds (no CPU backend here): the extensions'
// functions exist for kernels that cannot be made.
static probe_t on_kernel(ze_test_t *t, ze_result_t (*use)(ze_module_handle_t,
                                                          ze_kernel_handle_t)) {
    if (ze_test_control_if_emulated() == NULL) {
        return PROBE_UNKNOWN;
    }
    ze_module_handle_t m = empty_module(t);
    if (m == NULL) {
        return PROBE_UNKNOWN;
    }
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "empty"};
    ze_kernel_handle_t k = NULL;
    UMF_EXPECT_EQ(zeKernelCreate(m, &kd, &k), ZE_RESULT_SUCCESS);
    ze_result_t r = k != NULL ? use(m, k) : ZE_RESULT_ERROR_UNKNOWN;
    if (k != NULL) {
        UMF_EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
    return works_on(r);
}

static ze_result_t set_global_offset(ze_module_handle_t m,
                                     ze_kernel_handle_t k) {
    (void)m;
    return zeKernelSetGlobalOffsetExp(k, 1, 2, 3);
}

static probe_t global_offset(ze_test_t *t) {
    return on_kernel(t, set_global_offset);
}

static ze_result_t scheduling_hint(ze_module_handle_t m, ze_kernel_handle_t k) {
    (void)m;
    ze_scheduling_hint_exp_desc_t h = {
        ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_DESC, NULL,
        ZE_SCHEDULING_HINT_EXP_FLAG_ROUND_ROBIN};
    return zeKernelSchedulingHintExp(k, &h);
}

static probe_t scheduling_hints(ze_test_t *t) {
    return on_kernel(t, scheduling_hint);
}

static ze_result_t inspect_linkage(ze_module_handle_t m, ze_kernel_handle_t k) {
    (void)k;
    ze_linkage_inspection_ext_desc_t d = {
        ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, NULL,
        ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS};
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r = zeModuleInspectLinkageExt(&d, 1, &m, &log);
    if (log != NULL) {
        UMF_EXPECT_EQ(zeModuleBuildLogDestroy(log), ZE_RESULT_SUCCESS);
    }
    return r;
}

// The loader's intercept mode routes the inspection by its first module's
// handle and calls through a table it does not fill (docs/level-zero.md,
// "The newer entries"): not probed there.
static probe_t linkage_inspection(ze_test_t *t) {
    if (ze_test_intercept()) {
        return PROBE_UNKNOWN;
    }
    return on_kernel(t, inspect_linkage);
}

// One module made of several SPIR-V modules (here one).
static probe_t module_program(ze_test_t *t) {
    if (ze_test_control_if_emulated() == NULL) {
        return PROBE_UNKNOWN;
    }
    const size_t size = sizeof(empty_kernel);
    const uint8_t *input = (const uint8_t *)empty_kernel;
    ze_module_program_exp_desc_t p = {ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC,
                                      NULL,
                                      1,
                                      &size,
                                      &input,
                                      NULL,
                                      NULL};
    ze_module_desc_t d = empty_module_desc(&p);
    ze_module_handle_t m = NULL;
    ze_result_t r = zeModuleCreate(t->ctx, t->devices[0], &d, &m, NULL);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
    }
    return works_on(r);
}

// What the compiler accepts in a kernel (LinkOnceODR linkage, the
// subgroup built-ins): told by building such a kernel, which this test
// does not carry. The kernel tests check that subgroups are refused.
static probe_t kernel_language(ze_test_t *t) {
    (void)t;
    return PROBE_UNKNOWN;
}

// Images: whatever extends them needs an image first (on the emulated
// driver only, as kernels above: a real one may lack the format).
static probe_t images(ze_test_t *t) {
    if (ze_test_control_if_emulated() == NULL) {
        return PROBE_UNKNOWN;
    }
    ze_image_desc_t d = ze_test_image_2d();
    ze_image_handle_t im = NULL;
    ze_result_t r = zeImageCreate(t->ctx, t->devices[0], &d, &im);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(zeImageDestroy(im), ZE_RESULT_SUCCESS);
    }
    return works_on(r);
}

static probe_t vector_widths(ze_test_t *t) {
    ze_mock_device_dditable_t dt;
    if (!direct_table("zeGetDeviceProcAddrTable", &dt, sizeof(dt))) {
        return PROBE_UNKNOWN;
    }
    uint32_t n = 0;
    ze_result_t r = dt.pfnGetVectorWidthPropertiesExt(t->devices[0], &n, NULL);
    return works_if(r == ZE_RESULT_SUCCESS && n != 0);
}

static probe_t external_semaphores(ze_test_t *t) {
    ze_mock_device_dditable_t dt;
    if (!direct_table("zeGetDeviceProcAddrTable", &dt, sizeof(dt))) {
        return PROBE_UNKNOWN;
    }
    // ze_external_semaphore_ext_desc_t (1.12): stype, pNext, flags (an
    // opaque fd, 1 << 0), with no fd chained: the driver must refuse or
    // import, never answer UNSUPPORTED_FEATURE for a working extension.
    struct {
        ze_structure_type_t stype;
        const void *pNext;
        uint32_t flags;
    } desc = {STYPE_NEWER, NULL, 1};
    ze_mock_external_semaphore_handle_t s = NULL;
    ze_result_t r = dt.pfnImportExternalSemaphoreExt(t->devices[0], &desc, &s);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(dt.pfnReleaseExternalSemaphoreExt(s), ZE_RESULT_SUCCESS);
    }
    return works_on(r);
}

static probe_t rtas_builder(ze_test_t *t) {
    ze_mock_rtas_builder_dditable_t bt;
    if (!direct_table("zeGetRTASBuilderProcAddrTable", &bt, sizeof(bt))) {
        return PROBE_UNKNOWN;
    }
    // ze_rtas_builder_ext_desc_t (1.13): stype, pNext, builderVersion.
    struct {
        ze_structure_type_t stype;
        const void *pNext;
        uint32_t version;
    } desc = {STYPE_NEWER, NULL, ZE_MAKE_VERSION(1, 0)};
    ze_mock_rtas_builder_handle_t b = NULL;
    ze_result_t r = bt.pfnCreateExt(t->driver, &desc, &b);
    if (r == ZE_RESULT_SUCCESS) {
        UMF_EXPECT_EQ(bt.pfnDestroyExt(b), ZE_RESULT_SUCCESS);
    }
    return works_on(r);
}

// ---- The walk ---------------------------------------------------------------

typedef struct extension_t {
    const char *name;
    uint32_t version; // what the driver says when it lists the name
    probe_t (*probe)(ze_test_t *);
} extension_t;

static const extension_t extensions[] = {
    // Listed: they work.
    {ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME,
     ZE_RELAXED_ALLOCATION_LIMITS_EXP_VERSION_CURRENT,
     relaxed_allocation_limits},
    {ZE_MEMORY_FREE_POLICIES_EXT_NAME,
     ZE_MEMORY_FREE_POLICIES_EXT_VERSION_CURRENT, memory_free_policies},
    {ZE_EVENT_QUERY_TIMESTAMPS_EXP_NAME,
     ZE_EVENT_QUERY_TIMESTAMPS_EXP_VERSION_CURRENT, event_query_timestamps},
    {"ZE_extension_event_query_kernel_timestamps", ZE_MAKE_VERSION(1, 0),
     event_query_kernel_timestamps},
    {"ZE_experimental_immediate_command_list_append", ZE_MAKE_VERSION(1, 0),
     immediate_command_list_append},
    {"ZE_experimental_command_list_clone", ZE_MAKE_VERSION(1, 0),
     command_list_clone},
    {ZE_PCI_PROPERTIES_EXT_NAME, ZE_PCI_PROPERTIES_EXT_VERSION_CURRENT,
     pci_properties},
    {ZE_DEVICE_MEMORY_PROPERTIES_EXT_NAME,
     ZE_DEVICE_MEMORY_PROPERTIES_EXT_VERSION_CURRENT, device_memory_properties},
    {ZE_FABRIC_EXP_NAME, ZE_MAKE_VERSION(1, 0), fabric},
    // Listed where kernels run (the CPU backend is installed).
    {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT,
     global_offset},
    {"ZEX_counter_based_event", ZE_MAKE_VERSION(1, 0), counter_based_event},
    // Refused here: unlisted.
    {ZE_CACHE_RESERVATION_EXT_NAME, 0, cache_reservation},
    {ZE_FLOAT_ATOMICS_EXT_NAME, 0, float_atomics},
    {ZE_RAYTRACING_EXT_NAME, 0, raytracing},
    {ZE_EU_COUNT_EXT_NAME, 0, eu_count},
    {ZE_DEVICE_LUID_EXT_NAME, 0, device_luid},
    {ZE_BANDWIDTH_PROPERTIES_EXP_NAME, 0, bandwidth_properties},
    {ZE_MODULE_PROGRAM_EXP_NAME, 0, module_program},
    {ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME, 0, scheduling_hints},
    {ZE_LINKONCE_ODR_EXT_NAME, 0, kernel_language},
    {ZE_SUBGROUPS_EXT_NAME, 0, kernel_language},
    {ZE_LINKAGE_INSPECTION_EXT_NAME, 0, linkage_inspection},
    {ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME, 0, images},
    {ZE_IMAGE_VIEW_EXP_NAME, 0, images},
    {ZE_IMAGE_VIEW_PLANAR_EXP_NAME, 0, images},
    {ZE_SRGB_EXT_NAME, 0, images},
    {ZE_IMAGE_COPY_EXT_NAME, 0, images},
    {ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_NAME, 0, images},
    {"ZE_experimental_bindless_image", 0, images},
    {"ZE_experimental_mutable_command_list", 0, mutable_command_list},
    {"ZE_extension_device_vector_width_properties", 0, vector_widths},
    {"ZE_extension_external_semaphores", 0, external_semaphores},
    {"ZE_extension_rtas", 0, rtas_builder},
    {"ZE_experimental_rtas_builder", 0, rtas_builder},
};

// Hints the driver takes and ignores (nothing to observe): unlisted, as
// the driver does nothing for them.
static const char *const ignored_hints[] = {
    ZE_CONTEXT_POWER_SAVING_HINT_EXP_NAME,
    ZE_MEMORY_COMPRESSION_HINTS_EXT_NAME,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const ze_driver_extension_properties_t *
listed(const ze_driver_extension_properties_t *list, uint32_t n,
       const char *name) {
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(list[i].name, name) == 0) {
            return &list[i];
        }
    }
    return NULL;
}

UMF_C_TEST(zeDriverGetExtensionProperties, ListsWhatWorksAndOnlyThat) {
    ZE_TEST_SETUP(t);
    uint32_t n = 0;
    UMF_ASSERT_EQ(zeDriverGetExtensionProperties(t.driver, &n, NULL),
                  ZE_RESULT_SUCCESS);
    ze_driver_extension_properties_t *list = calloc(n + 1, sizeof(*list));
    UMF_ASSERT(list != NULL);
    UMF_ASSERT_EQ(zeDriverGetExtensionProperties(t.driver, &n, list),
                  ZE_RESULT_SUCCESS);
    const bool emulated = ze_test_control_if_emulated() != NULL;
    unsigned checked = 0;
    for (size_t i = 0; i < COUNT(extensions); i++) {
        const extension_t *x = &extensions[i];
        probe_t p = x->probe(&t);
        if (p == PROBE_UNKNOWN) {
            continue;
        }
        checked++;
        const ze_driver_extension_properties_t *l = listed(list, n, x->name);
        UMF_C_CHECK_((p == PROBE_WORKS) == (l != NULL), continue,
                     "%s %s but is %slisted", x->name,
                     p == PROBE_WORKS ? "works" : "is refused",
                     l != NULL ? "" : "not ");
        if (emulated && l != NULL) {
            UMF_C_CHECK_(l->version == x->version, (void)0,
                         "%s: version 0x%x, not 0x%x", x->name, l->version,
                         x->version);
        }
    }
    for (size_t i = 0; i < COUNT(ignored_hints); i++) {
        if (emulated) {
            UMF_C_CHECK_(listed(list, n, ignored_hints[i]) == NULL, (void)0,
                         "%s: an ignored hint, listed", ignored_hints[i]);
        }
    }
    // Every name the emulated driver lists has a probe here.
    for (uint32_t i = 0; emulated && i < n; i++) {
        bool known = false;
        for (size_t k = 0; k < COUNT(extensions) && !known; k++) {
            known = strcmp(list[i].name, extensions[k].name) == 0;
        }
        UMF_C_CHECK_(known, (void)0, "%s is listed, and nothing tests it",
                     list[i].name);
    }
    UMF_EXPECT(checked >= 20);
    free(list);
    ze_test_teardown(&t);
}
