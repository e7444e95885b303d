// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance of the entry points past the emulated driver's API 1.4 core:
// the 1.2 to 1.4 extensions (PCI properties, cache reservation, fabric)
// through the Debian loader, as applications reach them; those of 1.6 to
// 1.14 through the driver's table getters at the newest version, as a
// newer loader hands them out (ze_conf_hooks_test.c does the same for the
// 1.6 memory and IPC entries); and the functions the driver gives by name.
// What a real driver answers differently (it has caches, images, kernels,
// a fabric) is checked on the emulated driver only.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

#define NEWEST ZE_MOCK_API_VERSION_NEWEST

// The driver's own table of `getter` at the newest version; false, and
// the test returns, where calls cannot go to the driver directly.
#define DIRECT_TABLE(type, var, getter)                                        \
    type var;                                                                  \
    memset(&var, 0, sizeof(var));                                              \
    if (!ze_test_direct_tables()) {                                            \
        ze_test_teardown(&t);                                                  \
        return;                                                                \
    }                                                                          \
    UMF_ASSERT(ze_test_driver_table(getter, NEWEST, &var))

// The thread's last-error description (1.6), from the driver's table.
static const char *last_error(ze_test_t *t) {
    ze_mock_driver_dditable_t d;
    memset(&d, 0, sizeof(d));
    const char *text = NULL;
    if (!ze_test_driver_table("zeGetDriverProcAddrTable", NEWEST, &d) ||
        d.pfnGetLastErrorDescription(t->driver, &text) != ZE_RESULT_SUCCESS) {
        return "";
    }
    return text;
}

#define EXPECT_TEXT(t, ...)                                                    \
    do {                                                                       \
        const char *const words_[] = {__VA_ARGS__};                            \
        const char *text_ = last_error(t);                                     \
        for (size_t i_ = 0; i_ < sizeof(words_) / sizeof(words_[0]); i_++) {   \
            UMF_C_CHECK_(strstr(text_, words_[i_]) != NULL, (void)0,           \
                         "\"%s\" lacks \"%s\"", text_, words_[i_]);            \
        }                                                                      \
    } while (0)

// ---- 1.4 and older, through the loader
// ----------------------------------------

UMF_C_TEST(zeDriverGetApiVersion, SaysTheNewestVersionItsTablesAnswer) {
    ZE_TEST_SETUP(t);
    ze_api_version_t v;
    UMF_ASSERT_EQ(zeDriverGetApiVersion(t.driver, &v), ZE_RESULT_SUCCESS);
    UMF_EXPECT(ZE_MAJOR_VERSION(v) == 1 && ZE_MINOR_VERSION(v) >= 4);
    if (ze_test_control_if_emulated() != NULL) {
        UMF_EXPECT_EQ(v, NEWEST);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDevicePciGetPropertiesExt, AnAddressOfItsOwnPerDevice) {
    ZE_TEST_SETUP(t);
    ze_pci_ext_properties_t p[ZE_TEST_MAX_DEVICES];
    for (uint32_t i = 0; i < t.device_count; i++) {
        memset(&p[i], 0, sizeof(p[i]));
        p[i].stype = ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES;
        UMF_ASSERT_EQ(zeDevicePciGetPropertiesExt(t.devices[i], &p[i]),
                      ZE_RESULT_SUCCESS);
        for (uint32_t j = 0; j < i; j++) {
            UMF_EXPECT(p[i].address.domain != p[j].address.domain ||
                       p[i].address.bus != p[j].address.bus ||
                       p[i].address.device != p[j].address.device ||
                       p[i].address.function != p[j].address.function);
        }
    }
    if (ze_test_control_if_emulated() != NULL) {
        // No link: its speed is unknown, -1 as the structure documents.
        UMF_EXPECT_EQ(p[0].maxSpeed.genVersion, -1);
        UMF_EXPECT_EQ(p[0].maxSpeed.width, -1);
        UMF_EXPECT_EQ(p[0].maxSpeed.maxBandwidth, -1);
    }
    if (ze_test_validated()) {
        UMF_EXPECT_EQ(zeDevicePciGetPropertiesExt(t.devices[0], NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDeviceReserveCacheExt, NothingToReserveInACacheWithoutControl) {
    if (ze_test_control_if_emulated() == NULL) {
        return; // a real device may have a reservable cache
    }
    ZE_TEST_SETUP(t);
    ze_device_cache_properties_t c = {ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES,
                                      NULL, 0, 0};
    uint32_t n = 1;
    UMF_ASSERT_EQ(zeDeviceGetCacheProperties(t.devices[0], &n, &c),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT((c.flags & ZE_DEVICE_CACHE_PROPERTY_FLAG_USER_CONTROL) == 0);
    // Removing a reservation (size 0): there is none, done.
    UMF_EXPECT_EQ(zeDeviceReserveCacheExt(t.devices[0], 0, 0),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeDeviceReserveCacheExt(t.devices[0], 0, 4096),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(zeDeviceReserveCacheExt(t.devices[0], 1, 4096),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDeviceSetCacheAdviceExt, RegionsUpToTheNonReservedOne) {
    ZE_TEST_SETUP(t);
    void *p = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(p != NULL);
    UMF_EXPECT_EQ(
        zeDeviceSetCacheAdviceExt(t.devices[0], p, 4096,
                                  ZE_CACHE_EXT_REGION_ZE_CACHE_REGION_DEFAULT),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeDeviceSetCacheAdviceExt(
                      t.devices[0], p, 4096,
                      ZE_CACHE_EXT_REGION_ZE_CACHE_NON_RESERVED_REGION),
                  ZE_RESULT_SUCCESS);
    if (ze_test_control_if_emulated() != NULL) {
        // Nothing is reserved (zeDeviceReserveCacheExt): no reserved region.
        UMF_EXPECT_EQ(zeDeviceSetCacheAdviceExt(
                          t.devices[0], p, 4096,
                          ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION),
                      ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    if (ze_test_validated()) {
        // `::ZE_CACHE_EXT_REGION_::ZE_CACHE_NON_RESERVED_REGION <
        // cacheRegion`, and `nullptr == ptr`.
        const uint32_t bad[] = {
            ZE_CACHE_EXT_REGION_ZE_CACHE_NON_RESERVED_REGION + 1, 0x80000000u};
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            UMF_EXPECT_EQ(
                zeDeviceSetCacheAdviceExt(t.devices[0], p, 4096,
                                          (ze_cache_ext_region_t)bad[i]),
                ZE_RESULT_ERROR_INVALID_ENUMERATION);
        }
        UMF_EXPECT_EQ(zeDeviceSetCacheAdviceExt(
                          t.devices[0], NULL, 4096,
                          ZE_CACHE_EXT_REGION_ZE_CACHE_REGION_DEFAULT),
                      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    zeMemFree(t.ctx, p);
    ze_test_teardown(&t);
}

// No fabric connects the emulated devices: no vertex, and a device is none.
UMF_C_TEST(zeFabricVertexGetExp, NoVertexWithoutAFabric) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    ZE_TEST_SETUP(t);
    uint32_t n = 5;
    ze_fabric_vertex_handle_t v[5];
    UMF_EXPECT_EQ(zeFabricVertexGetExp(t.driver, &n, v), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    UMF_EXPECT_EQ(zeDeviceGetFabricVertexExp(t.devices[0], v),
                  ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX);
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeFabricVertexGetPropertiesExp(NULL, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeFabricEdgeGetExp(NULL, NULL, &n, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// ---- Refused: arguments first, then a documented result
// ------------------------

UMF_C_TEST(zeImageCreate, NoImageFormatOnTheEmulatedDevice) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    ZE_TEST_SETUP(t);
    ze_image_desc_t d = ze_test_image_2d();
    ze_image_handle_t image = NULL;
    UMF_EXPECT_EQ(zeImageCreate(t.ctx, t.devices[0], &d, &image),
                  ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    if (ze_test_direct_tables()) {
        EXPECT_TEXT(&t, "zeImageCreate",
                    "ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT", "images");
    }
    ze_image_properties_t props = {ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES, NULL, 0};
    UMF_EXPECT_EQ(zeImageGetProperties(t.devices[0], &d, &props),
                  ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    // The pointers before the refusal.
    UMF_EXPECT_EQ(zeImageCreate(t.ctx, t.devices[0], NULL, &image),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(zeImageCreate(t.ctx, t.devices[0], &d, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeSamplerCreate, NoSamplerOnTheEmulatedDevice) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    ZE_TEST_SETUP(t);
    ze_sampler_desc_t d = {ZE_STRUCTURE_TYPE_SAMPLER_DESC, NULL,
                           ZE_SAMPLER_ADDRESS_MODE_CLAMP,
                           ZE_SAMPLER_FILTER_MODE_NEAREST, 0};
    ze_sampler_handle_t s;
    UMF_EXPECT_EQ(zeSamplerCreate(t.ctx, t.devices[0], &d, &s),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (ze_test_direct_tables()) {
        EXPECT_TEXT(&t, "zeSamplerCreate", "samplers");
    }
    ze_test_teardown(&t);
}

// A handle the driver never made is refused, as the first check of each
// entry point, never followed.
UMF_C_TEST(zeKernelCreate, ForgedModuleAndKernelHandles) {
    if (!ze_test_direct_tables()) {
        return; // the loader's intercept mode reads the handles itself
    }
    ZE_TEST_SETUP(t);
    ze_module_handle_t no_module = (ze_module_handle_t)(uintptr_t)0x1000;
    ze_kernel_handle_t no_kernel = (ze_kernel_handle_t)(uintptr_t)0x2000;
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "k"};
    ze_kernel_handle_t k;
    UMF_EXPECT_EQ(zeKernelCreate(no_module, &kd, &k),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    EXPECT_TEXT(&t, "is not a live module");
    UMF_EXPECT_EQ(zeKernelSetGroupSize(no_kernel, 1, 1, 1),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    EXPECT_TEXT(&t, "is not a live kernel");
    UMF_EXPECT_EQ(zeModuleDestroy(no_module),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(zeKernelDestroy(no_kernel),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ze_group_count_t g = {1, 1, 1};
    UMF_EXPECT_EQ(
        zeCommandListAppendLaunchKernel(t.list, no_kernel, &g, NULL, 0, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    EXPECT_TEXT(&t, "is not a live kernel");
    // The command list comes first.
    UMF_EXPECT_EQ(
        zeCommandListAppendLaunchKernel((ze_command_list_handle_t)t.ctx,
                                        no_kernel, &g, NULL, 0, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    // `nullptr == phKernels`, then `(nullptr == phWaitEvents) && (0 <
    // numWaitEvents)`, before the kernels.
    uint32_t count = 1;
    UMF_EXPECT_EQ(zeCommandListAppendLaunchMultipleKernelsIndirect(
                      t.list, 1, NULL, &count, &g, NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(zeCommandListAppendLaunchMultipleKernelsIndirect(
                      t.list, 1, &no_kernel, &count, &g, NULL, 1, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(zeCommandListAppendLaunchMultipleKernelsIndirect(
                      t.list, 1, &no_kernel, &count, &g, NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    // `0x7 < pInspectDesc->flags`, before the modules.
    ze_linkage_inspection_ext_desc_t insp = {
        ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, NULL, 0x8};
    ze_module_build_log_handle_t log;
    UMF_EXPECT_EQ(zeModuleInspectLinkageExt(&insp, 1, &no_module, &log),
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
    insp.flags = ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS;
    UMF_EXPECT_EQ(zeModuleInspectLinkageExt(&insp, 1, &no_module, &log),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeCommandListAppendImageCopy, NoImageHandle) {
    if (!ze_test_direct_tables()) {
        return;
    }
    ZE_TEST_SETUP(t);
    ze_image_handle_t no_image = (ze_image_handle_t)(uintptr_t)0x3000;
    UMF_EXPECT_EQ(
        zeCommandListAppendImageCopy(t.list, no_image, no_image, NULL, 0, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    EXPECT_TEXT(&t, "zeCommandListAppendImageCopy", "not a image");
    UMF_EXPECT_EQ(zeContextMakeImageResident(t.ctx, t.devices[0], no_image),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(zeImageDestroy(no_image),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ze_test_teardown(&t);
}

// ---- By name (zeDriverGetExtensionFunctionAddress)
// -----------------------------

typedef ze_result_t(ZE_APICALL *import_fn)(ze_driver_handle_t, void *, size_t);
typedef ze_result_t(ZE_APICALL *release_fn)(ze_driver_handle_t, void *);
typedef ze_result_t(ZE_APICALL *base_fn)(ze_driver_handle_t, void *, void **);
typedef ze_result_t(ZE_APICALL *ipc_handles_fn)(ze_context_handle_t,
                                                const void *, uint32_t *,
                                                ze_ipc_mem_handle_t *);
typedef ze_result_t(ZE_APICALL *version_fn)(ze_driver_handle_t, char *,
                                            size_t *);

static void *by_name(ze_test_t *t, const char *name) {
    void *p = NULL;
    return zeDriverGetExtensionFunctionAddress(t->driver, name, &p) ==
                   ZE_RESULT_SUCCESS
               ? p
               : NULL;
}

UMF_C_TEST(zeDriverGetExtensionFunctionAddress, TheFunctionsRuntimesLookUp) {
    if (!ze_test_direct_tables()) {
        return; // the functions take the driver's own handles
    }
    ZE_TEST_SETUP(t);
    void *p = (void *)&t;
    UMF_EXPECT_EQ(
        zeDriverGetExtensionFunctionAddress(t.driver, "zexNoSuchThing", &p),
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT(p == NULL);
    // Counter-based events (ze_conf_counter_events_test.c).
    UMF_EXPECT(by_name(&t, "zexCounterBasedEventCreate2") != NULL);

    // Host memory imported, found by an address inside it, released.
    import_fn import = (import_fn)by_name(&t, "zexDriverImportExternalPointer");
    release_fn release =
        (release_fn)by_name(&t, "zexDriverReleaseImportedPointer");
    base_fn base = (base_fn)by_name(&t, "zexDriverGetHostPointerBaseAddress");
    UMF_ASSERT(import != NULL && release != NULL && base != NULL);
    char *buf = malloc(8192);
    UMF_ASSERT(buf != NULL);
    void *b = buf;
    UMF_EXPECT_EQ(base(t.driver, buf + 10, &b), ZE_RESULT_SUCCESS);
    UMF_EXPECT(b == NULL); // not imported yet
    UMF_EXPECT_EQ(import(t.driver, buf, 4096), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(import(t.driver, buf + 100, 16),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // overlaps
    UMF_EXPECT_EQ(base(t.driver, buf + 10, &b), ZE_RESULT_SUCCESS);
    UMF_EXPECT(b == buf);
    UMF_EXPECT_EQ(base(t.driver, buf + 4096, &b), ZE_RESULT_SUCCESS);
    UMF_EXPECT(b == NULL);
    UMF_EXPECT_EQ(release(t.driver, buf + 10),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT); // not its start
    UMF_EXPECT_EQ(release(t.driver, buf), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(release(t.driver, buf), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(import(t.driver, buf, 0), ZE_RESULT_ERROR_INVALID_SIZE);
    free(buf);

    // One IPC handle per allocation.
    ipc_handles_fn handles = (ipc_handles_fn)by_name(&t, "zexMemGetIpcHandles");
    UMF_ASSERT(handles != NULL);
    if (ze_test_ipc_capable()) {
        void *dev = ze_test_alloc_device(&t, 4096, 0);
        UMF_ASSERT(dev != NULL);
        uint32_t n = 0;
        UMF_EXPECT_EQ(handles(t.ctx, dev, &n, NULL), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(n, 1);
        ze_ipc_mem_handle_t h, same;
        UMF_EXPECT_EQ(handles(t.ctx, dev, &n, &h), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(zeMemGetIpcHandle(t.ctx, dev, &same), ZE_RESULT_SUCCESS);
        UMF_EXPECT(memcmp(&h, &same, sizeof(h)) == 0);
        zeMemFree(t.ctx, dev);
    }

    version_fn version =
        (version_fn)by_name(&t, "zeIntelGetDriverVersionString");
    UMF_ASSERT(version != NULL);
    size_t size = 0;
    UMF_EXPECT_EQ(version(t.driver, NULL, &size), ZE_RESULT_SUCCESS);
    char text[64] = {0};
    UMF_ASSERT(size > 1 && size <= sizeof(text));
    UMF_EXPECT_EQ(version(t.driver, text, &size), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(strlen(text) + 1, size);
    UMF_EXPECT(strchr(text, '.') != NULL); // major.minor.patch
    ze_test_teardown(&t);
}

// ---- 1.5 to 1.14, through the getters
// ------------------------------------------

UMF_C_TEST(zeInitDrivers, TheGpuDriverForTheGpuFlag) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_global_dditable_t, g, "zeGetGlobalProcAddrTable");
    ze_mock_init_driver_type_desc_t d = {
        ZE_MOCK_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL,
        ZE_MOCK_INIT_DRIVER_TYPE_FLAG_GPU};
    uint32_t n = 0;
    UMF_EXPECT_EQ(g.pfnInitDrivers(&n, NULL, &d), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    ze_driver_handle_t drivers[2] = {NULL, NULL};
    n = 2;
    UMF_EXPECT_EQ(g.pfnInitDrivers(&n, drivers, &d), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    UMF_EXPECT(drivers[0] == t.driver);
    d.flags = UINT32_MAX; // every kind
    n = 0;
    UMF_EXPECT_EQ(g.pfnInitDrivers(&n, NULL, &d), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 1);
    d.flags = ZE_MOCK_INIT_DRIVER_TYPE_FLAG_NPU; // not this one
    UMF_EXPECT_EQ(g.pfnInitDrivers(&n, NULL, &d),
                  ZE_RESULT_ERROR_UNINITIALIZED);
    UMF_EXPECT_EQ(n, 0);
    // `0x0 == desc->flags`; `nullptr == pCount`, `nullptr == desc`.
    d.flags = 0;
    UMF_EXPECT_EQ(g.pfnInitDrivers(&n, NULL, &d),
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
    d.flags = ZE_MOCK_INIT_DRIVER_TYPE_FLAG_GPU;
    UMF_EXPECT_EQ(g.pfnInitDrivers(NULL, NULL, &d),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(g.pfnInitDrivers(&n, NULL, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDeviceGetRootDevice, NoneForADevice) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_device_dditable_t, d, "zeGetDeviceProcAddrTable");
    ze_device_handle_t root = t.devices[0];
    UMF_EXPECT_EQ(d.pfnGetRootDevice(t.devices[0], &root), ZE_RESULT_SUCCESS);
    UMF_EXPECT(root == NULL);
    UMF_EXPECT_EQ(d.pfnGetRootDevice(t.devices[0], NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(d.pfnGetRootDevice(NULL, &root),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    // No vector widths without kernels (1.13).
    uint32_t n = 3;
    UMF_EXPECT_EQ(d.pfnGetVectorWidthPropertiesExt(t.devices[0], &n, NULL),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(n, 0);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDriverGetDefaultContext, OneContextForTheDriversLife) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_driver_dditable_t, d, "zeGetDriverProcAddrTable");
    ze_context_handle_t ctx = d.pfnGetDefaultContext(t.driver);
    UMF_ASSERT(ctx != NULL);
    UMF_EXPECT(d.pfnGetDefaultContext(t.driver) == ctx);
    UMF_EXPECT(d.pfnGetDefaultContext(NULL) == NULL);
    UMF_EXPECT_EQ(zeContextGetStatus(ctx), ZE_RESULT_SUCCESS);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *p;
    UMF_ASSERT_EQ(zeMemAllocDevice(ctx, &dd, 4096, 0, t.devices[0], &p),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    EXPECT_TEXT(&t, "zeContextDestroy", "default context");
    UMF_EXPECT_EQ(zeContextGetStatus(ctx), ZE_RESULT_SUCCESS); // still there
    ze_test_teardown(&t);
}

// 1.15: "unique identifier for the physical memory object" and its size,
// from the table of a 1.15 loader (a 1.14 one has no room for it) and by
// name for older loaders; INVALID_NULL_HANDLE `nullptr == hContext`,
// `nullptr == hPhysicalMem`, INVALID_NULL_POINTER `nullptr ==
// pMemProperties`.
UMF_C_TEST(zePhysicalMemGetProperties, IdAndSizeOfEachObject) {
    ZE_TEST_SETUP(t);
    if (!ze_test_direct_tables()) {
        ze_test_teardown(&t);
        return;
    }
    ze_mock_physical_mem_dditable_t pm;
    memset(&pm, 0, sizeof(pm));
    UMF_ASSERT(ze_test_driver_table("zeGetPhysicalMemProcAddrTable",
                                    ZE_MOCK_API_VERSION(14), &pm));
    UMF_EXPECT(pm.v1_4.pfnCreate != NULL);
    UMF_EXPECT(pm.pfnGetProperties == NULL); // past a 1.14 table's end
    UMF_ASSERT(ze_test_driver_table("zeGetPhysicalMemProcAddrTable",
                                    ZE_MOCK_API_VERSION(15), &pm));
    ze_mock_pfnPhysicalMemGetProperties_t get = pm.pfnGetProperties;
    UMF_ASSERT(get != NULL);
    void *named = by_name(&t, "zePhysicalMemGetProperties");
    UMF_EXPECT(named != NULL && memcmp(&named, &get, sizeof(named)) == 0);

    size_t page = 0;
    UMF_ASSERT_EQ(zeVirtualMemQueryPageSize(t.ctx, t.devices[0], 4096, &page),
                  ZE_RESULT_SUCCESS);
    ze_physical_mem_handle_t ph[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        ze_physical_mem_desc_t d = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL,
                                    0, (size_t)(i + 1) * page};
        UMF_ASSERT_EQ(zePhysicalMemCreate(t.ctx, t.devices[0], &d, &ph[i]),
                      ZE_RESULT_SUCCESS);
    }
    ze_mock_physical_mem_properties_t p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = (ze_mock_physical_mem_properties_t){
            (ze_structure_type_t)ZE_MOCK_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES,
            NULL, 0, 0};
        UMF_EXPECT_EQ(get(t.ctx, ph[i], &p[i]), ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(p[i].size, (uint64_t)(i + 1) * page);
    }
    UMF_EXPECT(p[0].id != p[1].id);
    // The same object, asked again: the same id; mapped, too.
    ze_mock_physical_mem_properties_t again = p[0];
    again.id = 0;
    void *va = NULL;
    // (Not a NULL start: the validation layer refuses it.)
    UMF_ASSERT_EQ(
        zeVirtualMemReserve(t.ctx, (const void *)(uintptr_t)page, page, &va),
        ZE_RESULT_SUCCESS);
    UMF_ASSERT_EQ(zeVirtualMemMap(t.ctx, va, page, ph[0], 0,
                                  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(get(t.ctx, ph[0], &again), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(again.id, p[0].id);
    UMF_EXPECT_EQ(again.size, page);
    UMF_EXPECT_EQ(zeVirtualMemUnmap(t.ctx, va, page), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeVirtualMemFree(t.ctx, va, page), ZE_RESULT_SUCCESS);
    // The clauses, and a destroyed object.
    UMF_EXPECT_EQ(get(NULL, ph[0], &again),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(get(t.ctx, NULL, &again),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(get(t.ctx, ph[0], NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    for (int i = 0; i < 2; i++) {
        UMF_EXPECT_EQ(zePhysicalMemDestroy(t.ctx, ph[i]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(get(t.ctx, ph[1], &again),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeRTASBuilderCreateExt, NoRayTracingButTheCopyIsOne) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_rtas_builder_dditable_t, b,
                 "zeGetRTASBuilderProcAddrTable");
    ze_mock_rtas_builder_exp_dditable_t bx;
    ze_mock_rtas_parallel_operation_dditable_t po;
    ze_mock_driver_exp_dditable_t dx;
    UMF_ASSERT(
        ze_test_driver_table("zeGetRTASBuilderExpProcAddrTable", NEWEST, &bx));
    UMF_ASSERT(ze_test_driver_table("zeGetRTASParallelOperationProcAddrTable",
                                    NEWEST, &po));
    UMF_ASSERT(
        ze_test_driver_table("zeGetDriverExpProcAddrTable", NEWEST, &dx));
    char desc[64] = {0};
    ze_mock_rtas_builder_handle_t builder;
    UMF_EXPECT_EQ(b.pfnCreateExt(t.driver, desc, &builder),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    EXPECT_TEXT(&t, "zeRTASBuilderCreateExt", "ray tracing");
    UMF_EXPECT_EQ(bx.pfnCreateExp(t.driver, desc, &builder),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(b.pfnCreateExt(t.driver, NULL, &builder),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(b.pfnCreateExt(NULL, desc, &builder),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(b.pfnDestroyExt(NULL), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ze_mock_rtas_parallel_operation_handle_t op;
    UMF_EXPECT_EQ(po.pfnCreate(t.driver, &op),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(dx.pfnRTASFormatCompatibilityCheckExp(t.driver, 1, 1),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    // The copy of an acceleration structure's bytes is a memory copy.
    void *src = ze_test_alloc_device(&t, 4096, 0);
    void *dst = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(src != NULL && dst != NULL);
    UMF_ASSERT(ze_test_fill_byte(&t, src, 0x5a, 4096));
    UMF_EXPECT_EQ(
        b.pfnCommandListAppendCopyExt(t.list, dst, src, 4096, NULL, 0, NULL),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, dst, 0x5a, 4096));
    zeMemFree(t.ctx, src);
    zeMemFree(t.ctx, dst);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeDeviceImportExternalSemaphoreExt, NoExternalSemaphore) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_device_dditable_t, d, "zeGetDeviceProcAddrTable");
    ze_mock_command_list_dditable_t l;
    UMF_ASSERT(
        ze_test_driver_table("zeGetCommandListProcAddrTable", NEWEST, &l));
    char desc[64] = {0};
    ze_mock_external_semaphore_handle_t sem;
    UMF_EXPECT_EQ(d.pfnImportExternalSemaphoreExt(t.devices[0], desc, &sem),
                  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(d.pfnImportExternalSemaphoreExt(t.devices[0], NULL, &sem),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(d.pfnReleaseExternalSemaphoreExt(NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    char params[64] = {0};
    sem = (ze_mock_external_semaphore_handle_t)(uintptr_t)0x4000;
    UMF_EXPECT_EQ(l.pfnAppendSignalExternalSemaphoreExt(t.list, 1, NULL, params,
                                                        NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(l.pfnAppendWaitExternalSemaphoreExt(t.list, 1, &sem, params,
                                                      NULL, 1, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT_EQ(l.pfnAppendWaitExternalSemaphoreExt(t.list, 1, &sem, params,
                                                      NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    EXPECT_TEXT(&t, "zeCommandListAppendWaitExternalSemaphoreExt",
                "external semaphore");
    ze_test_teardown(&t);
}

UMF_C_TEST(zeCommandListAppendLaunchKernelWithArguments, NoKernel) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_command_list_dditable_t, l,
                 "zeGetCommandListProcAddrTable");
    ze_mock_kernel_exp_dditable_t k;
    UMF_ASSERT(ze_test_driver_table("zeGetKernelExpProcAddrTable", NEWEST, &k));
    ze_group_count_t counts = {1, 1, 1};
    ze_mock_group_size_t sizes = {1, 1, 1};
    void *args[1] = {NULL};
    UMF_EXPECT_EQ(l.pfnAppendLaunchKernelWithArguments(
                      t.list, NULL, counts, sizes, args, NULL, NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(l.pfnAppendLaunchKernelWithParameters(NULL, NULL, &counts,
                                                        NULL, NULL, 0, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    size_t size = 0;
    UMF_EXPECT_EQ(k.pfnGetBinaryExp(NULL, &size, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    uint32_t n = 0;
    UMF_EXPECT_EQ(k.pfnGetAllocationPropertiesExp(NULL, &n, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeMemSetAtomicAccessAttributeExp, NoAtomicsWithoutKernels) {
    ZE_TEST_SETUP(t);
    DIRECT_TABLE(ze_mock_mem_exp_dditable_t, x, "zeGetMemExpProcAddrTable");
    ze_mock_mem_dditable_t m;
    UMF_ASSERT(ze_test_driver_table("zeGetMemProcAddrTable", NEWEST, &m));
    void *p = ze_test_alloc_device(&t, 4096, 0);
    UMF_ASSERT(p != NULL);
    // `0x7f < attr`, then the refusal.
    UMF_EXPECT_EQ(
        x.pfnSetAtomicAccessAttributeExp(t.ctx, t.devices[0], p, 4096, 0x80),
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
    UMF_EXPECT_EQ(
        x.pfnSetAtomicAccessAttributeExp(t.ctx, t.devices[0], p, 4096, 0x1),
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    EXPECT_TEXT(&t, "zeMemSetAtomicAccessAttributeExp", "kernels");
    uint32_t attr;
    UMF_EXPECT_EQ(
        x.pfnGetAtomicAccessAttributeExp(t.ctx, t.devices[0], p, 4096, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(
        x.pfnGetAtomicAccessAttributeExp(t.ctx, t.devices[0], p, 4096, &attr),
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    // The 1.9 pitch of a bindless image: no images.
    size_t pitch;
    UMF_EXPECT_EQ(
        m.pfnGetPitchFor2dImage(t.ctx, t.devices[0], 64, 64, 4, &pitch),
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    UMF_EXPECT_EQ(m.pfnGetPitchFor2dImage(t.ctx, t.devices[0], 64, 64, 4, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    zeMemFree(t.ctx, p);
    ze_test_teardown(&t);
}
