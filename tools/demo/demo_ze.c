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
    ze_pfnModuleCreate_t zeModuleCreate;
    ze_pfnModuleDestroy_t zeModuleDestroy;
    ze_pfnModuleBuildLogGetString_t zeModuleBuildLogGetString;
    ze_pfnModuleBuildLogDestroy_t zeModuleBuildLogDestroy;
    ze_pfnKernelCreate_t zeKernelCreate;
    ze_pfnKernelDestroy_t zeKernelDestroy;
    ze_pfnKernelSetArgumentValue_t zeKernelSetArgumentValue;
    ze_pfnKernelSetGroupSize_t zeKernelSetGroupSize;
    ze_pfnKernelSuggestGroupSize_t zeKernelSuggestGroupSize;
    ze_pfnCommandListAppendLaunchKernel_t zeCommandListAppendLaunchKernel;

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
        ENTRY(zeModuleCreate),
        ENTRY(zeModuleDestroy),
        ENTRY(zeModuleBuildLogGetString),
        ENTRY(zeModuleBuildLogDestroy),
        ENTRY(zeKernelCreate),
        ENTRY(zeKernelDestroy),
        ENTRY(zeKernelSetArgumentValue),
        ENTRY(zeKernelSetGroupSize),
        ENTRY(zeKernelSuggestGroupSize),
        ENTRY(zeCommandListAppendLaunchKernel),
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

#ifdef UMF_GPU_HAVE_DEMO_KERNEL_SPIRV
#include "demo_kernel_spirv.h"

// The module of demo_kernel.cl, or NULL with the reason (its build log's
// first line) in why.
static ze_module_handle_t pattern_module(demo_why_t *why) {
    ze_module_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
                             .format = ZE_MODULE_FORMAT_IL_SPIRV,
                             .inputSize = sizeof(demo_kernel_spirv),
                             .pInputModule = demo_kernel_spirv};
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    ze_result_t res =
        ze.zeModuleCreate(ze.context, ze.device, &desc, &module, &log);
    char text[256] = "";
    size_t size = sizeof(text);
    if (res != ZE_RESULT_SUCCESS && log != NULL &&
        ze.zeModuleBuildLogGetString(log, &size, text) == ZE_RESULT_SUCCESS) {
        text[strcspn(text, "\n")] = '\0';
    }
    if (log != NULL) {
        ze.zeModuleBuildLogDestroy(log);
    }
    if (res != ZE_RESULT_SUCCESS) {
        demo_why(why, "zeModuleCreate failed: ze_result_t 0x%x: %s",
                 (unsigned)res, text);
        return NULL;
    }
    return module;
}

static int ze_pattern_kernel(void *dst, size_t size, uint32_t seed,
                             demo_why_t *why) {
    ze_module_handle_t module = pattern_module(why);
    if (module == NULL) {
        return 1; // no kernel runs here: the consumer copies
    }
    ze_kernel_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC,
                             .pKernelName = "demo_pattern"};
    ze_kernel_handle_t kernel = NULL;
    uint32_t gx = 1, gy = 1, gz = 1;
    const char *call = "zeKernelCreate";
    ze_result_t res =
        size <= UINT32_MAX ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_SIZE;
    if (res == ZE_RESULT_SUCCESS) {
        res = ze.zeKernelCreate(module, &desc, &kernel);
    }
    if (res == ZE_RESULT_SUCCESS) {
        call = "zeKernelSetArgumentValue";
        res = ze.zeKernelSetArgumentValue(kernel, 0, sizeof(dst), &dst);
    }
    if (res == ZE_RESULT_SUCCESS) {
        res = ze.zeKernelSetArgumentValue(kernel, 1, sizeof(seed), &seed);
    }
    if (res == ZE_RESULT_SUCCESS) {
        call = "zeKernelSuggestGroupSize";
        res = ze.zeKernelSuggestGroupSize(kernel, (uint32_t)size, 1, 1, &gx,
                                          &gy, &gz);
    }
    if (res == ZE_RESULT_SUCCESS) {
        call = "zeKernelSetGroupSize";
        res = ze.zeKernelSetGroupSize(kernel, gx, gy, gz);
    }
    if (res == ZE_RESULT_SUCCESS) {
        // A synchronous immediate list: done when the call returns.
        call = "zeCommandListAppendLaunchKernel";
        ze_group_count_t groups = {(uint32_t)size / gx, 1, 1};
        res = ze.zeCommandListAppendLaunchKernel(ze.list, kernel, &groups, NULL,
                                                 0, NULL);
    }
    int ret = res == ZE_RESULT_SUCCESS ? 0 : ze_failed(why, call, res);
    if (kernel != NULL) {
        ze.zeKernelDestroy(kernel);
    }
    ze.zeModuleDestroy(module);
    return ret;
}
#endif

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
#ifdef UMF_GPU_HAVE_DEMO_KERNEL_SPIRV
    .pattern_kernel = ze_pattern_kernel,
#endif
    .close = ze_close,
};
