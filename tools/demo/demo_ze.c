// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The demo's Level Zero side. It opens the Level Zero loader the way the
// library does (UMF_GPU_ZE_LOADER, else libze_loader.so.1), so both drive
// one loader instance, and the loader loads the driver:
// ZE_ENABLE_ALT_DRIVERS=<path> names the emulated one (the demo sets it),
// otherwise the loader finds the installed drivers.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include <umf/providers/provider_level_zero.h>

#include "demo.h"
#include "driver_open.h"

#define LOADER_ENV "UMF_GPU_ZE_LOADER"
#define LOADER_DEFAULT "libze_loader.so.1"
#define ALT_DRIVERS_ENV "ZE_ENABLE_ALT_DRIVERS"

static struct {
    void *lib;
    ze_pfnInit_t zeInit;
    ze_pfnDriverGet_t zeDriverGet;
    ze_pfnDriverGetProperties_t zeDriverGetProperties;
    ze_pfnDeviceGet_t zeDeviceGet;
    ze_pfnDeviceGetProperties_t zeDeviceGetProperties;
    ze_pfnContextCreate_t zeContextCreate;
    ze_pfnContextDestroy_t zeContextDestroy;
    ze_pfnCommandListCreateImmediate_t zeCommandListCreateImmediate;
    ze_pfnCommandListAppendMemoryCopy_t zeCommandListAppendMemoryCopy;
    ze_pfnCommandListDestroy_t zeCommandListDestroy;

    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_command_list_handle_t list; // immediate, synchronous: for the copies
} ze;

static int ze_failed(demo_why_t *why, const char *call, ze_result_t res) {
    return demo_why(why, "%s failed: ze_result_t 0x%x", call, (unsigned)res);
}

static int ze_open(char *info, size_t info_len, char *device, size_t device_len,
                   demo_why_t *why) {
    const driver_symbol_t entries[] = {
#define ENTRY(f) {#f, (void **)&ze.f}
        ENTRY(zeInit),
        ENTRY(zeDriverGet),
        ENTRY(zeDriverGetProperties),
        ENTRY(zeDeviceGet),
        ENTRY(zeDeviceGetProperties),
        ENTRY(zeContextCreate),
        ENTRY(zeContextDestroy),
        ENTRY(zeCommandListCreateImmediate),
        ENTRY(zeCommandListAppendMemoryCopy),
        ENTRY(zeCommandListDestroy),
#undef ENTRY
    };
    const char *loader;
    char reason[512];
    // Kept open for the life of the process, as the library keeps it.
    ze.lib = driver_open(LOADER_ENV, LOADER_DEFAULT,
                         "the Level Zero loader (Debian package libze1)",
                         entries, sizeof(entries) / sizeof(entries[0]), &loader,
                         reason, sizeof(reason));
    if (ze.lib == NULL) {
        return demo_why(why, "%s", reason);
    }
    const char *alt = getenv(ALT_DRIVERS_ENV);
    ze_result_t res = ze.zeInit(0);
    if (res != ZE_RESULT_SUCCESS) {
        if (alt != NULL) {
            return demo_why(why,
                            "zeInit(0) failed: ze_result_t 0x%x: the loader "
                            "could not use the driver %s names (%s)",
                            (unsigned)res, ALT_DRIVERS_ENV, alt);
        }
        return demo_why(why,
                        "zeInit(0) failed: ze_result_t 0x%x: the loader %s "
                        "found no installed Level Zero driver",
                        (unsigned)res, loader);
    }
    uint32_t count = 1;
    res = ze.zeDriverGet(&count, &ze.driver);
    if (res != ZE_RESULT_SUCCESS) {
        return ze_failed(why, "zeDriverGet", res);
    }
    if (count == 0) {
        return demo_why(why, "zeDriverGet: no Level Zero driver");
    }
    count = 1;
    res = ze.zeDeviceGet(ze.driver, &count, &ze.device);
    if (res != ZE_RESULT_SUCCESS) {
        return ze_failed(why, "zeDeviceGet", res);
    }
    if (count == 0) {
        return demo_why(why, "zeDeviceGet: the driver has no device");
    }
    ze_device_properties_t props = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    res = ze.zeDeviceGetProperties(ze.device, &props);
    if (res != ZE_RESULT_SUCCESS) {
        return ze_failed(why, "zeDeviceGetProperties", res);
    }
    snprintf(device, device_len, "%s", props.name);
    ze_driver_properties_t driver = {.stype =
                                         ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    res = ze.zeDriverGetProperties(ze.driver, &driver);
    if (res != ZE_RESULT_SUCCESS) {
        return ze_failed(why, "zeDriverGetProperties", res);
    }
    snprintf(info, info_len, "%s through the loader %s, driver version 0x%x",
             alt != NULL ? alt : "the installed driver", loader,
             (unsigned)driver.driverVersion);

    ze_context_desc_t ctx_desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    res = ze.zeContextCreate(ze.driver, &ctx_desc, &ze.context);
    if (res != ZE_RESULT_SUCCESS) {
        return ze_failed(why, "zeContextCreate", res);
    }
    ze_command_queue_desc_t queue = {
        .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
        .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
        .priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
    };
    res = ze.zeCommandListCreateImmediate(ze.context, ze.device, &queue,
                                          &ze.list);
    if (res != ZE_RESULT_SUCCESS) {
        ze_failed(why, "zeCommandListCreateImmediate", res);
        ze.zeContextDestroy(ze.context);
        ze.context = NULL;
        return -1;
    }
    return 0;
}

static bool ze_is_emulated(void) {
    // The emulated driver exports its control API; a real one does not.
    const char *alt = getenv(ALT_DRIVERS_ENV);
    if (alt == NULL || alt[0] == '\0') {
        return false;
    }
    void *drv = dlopen(alt, RTLD_NOW | RTLD_NOLOAD);
    if (drv == NULL) {
        return false;
    }
    bool emulated = dlsym(drv, "umfZeMockGetCallCount") != NULL;
    dlclose(drv); // drops the reference RTLD_NOLOAD took
    return emulated;
}

static int ze_create_provider(umf_memory_provider_handle_t *out,
                              demo_why_t *why) {
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfLevelZeroMemoryProviderParamsCreate(&params);
    if (res != UMF_RESULT_SUCCESS) {
        return demo_why_umf(why, "umfLevelZeroMemoryProviderParamsCreate", res,
                            NULL, umfLevelZeroMemoryProviderOps());
    }
    const char *call = "umfLevelZeroMemoryProviderParamsSetContext";
    res = umfLevelZeroMemoryProviderParamsSetContext(params, ze.context);
    if (res == UMF_RESULT_SUCCESS) {
        call = "umfLevelZeroMemoryProviderParamsSetDevice";
        res = umfLevelZeroMemoryProviderParamsSetDevice(params, ze.device);
    }
    if (res == UMF_RESULT_SUCCESS) {
        call = "umfLevelZeroMemoryProviderParamsSetMemoryType(DEVICE)";
        res = umfLevelZeroMemoryProviderParamsSetMemoryType(
            params, UMF_MEMORY_TYPE_DEVICE);
    }
    if (res == UMF_RESULT_SUCCESS) {
        call = "umfMemoryProviderCreate(Level Zero)";
        res = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params,
                                      out);
    }
    umfLevelZeroMemoryProviderParamsDestroy(params);
    if (res != UMF_RESULT_SUCCESS) {
        return demo_why_umf(why, call, res, NULL,
                            umfLevelZeroMemoryProviderOps());
    }
    return 0;
}

static int copy(void *dst, const void *src, size_t size, const char *what,
                demo_why_t *why) {
    ze_result_t res = ze.zeCommandListAppendMemoryCopy(ze.list, dst, src, size,
                                                       NULL, 0, NULL);
    if (res != ZE_RESULT_SUCCESS) {
        return demo_why(why,
                        "zeCommandListAppendMemoryCopy(%s, size=%zu) failed: "
                        "ze_result_t 0x%x",
                        what, size, (unsigned)res);
    }
    return 0;
}

static int ze_to_device(void *dst, const void *src, size_t size,
                        demo_why_t *why) {
    return copy(dst, src, size, "host to device", why);
}

static int ze_to_host(void *dst, const void *src, size_t size,
                      demo_why_t *why) {
    return copy(dst, src, size, "device to host", why);
}

static int ze_close(demo_why_t *why) {
    int ret = 0;
    if (ze.list != NULL) {
        ze_result_t res = ze.zeCommandListDestroy(ze.list);
        if (res != ZE_RESULT_SUCCESS) {
            ret = ze_failed(why, "zeCommandListDestroy", res);
        }
        ze.list = NULL;
    }
    if (ze.context != NULL) {
        ze_result_t res = ze.zeContextDestroy(ze.context);
        if (res != ZE_RESULT_SUCCESS && ret == 0) {
            ret = ze_failed(why, "zeContextDestroy", res);
        }
        ze.context = NULL;
    }
    return ret;
}

const demo_driver_t demo_ze_driver = {
    .name = "Level Zero",
    .key = "level-zero",
    .env = ALT_DRIVERS_ENV,
    .entry = "zeCommandListAppendMemoryCopy",
    .ops = umfLevelZeroMemoryProviderOps,
    .emulated_path = demo_emulated_ze_path,
    .open = ze_open,
    .is_emulated = ze_is_emulated,
    .create_provider = ze_create_provider,
    .to_device = ze_to_device,
    .to_host = ze_to_host,
    .close = ze_close,
};
