// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Modules, kernels and kernel launches on the kernel engine of mock/
// (mock_kernel.h), which runs them on the CPU: this file maps Level Zero's
// calls and results to it and never sees OpenCL. A launch captures the
// kernel's arguments and group size when it is appended (Level Zero's
// rule) and runs as a command of the list's stream, in order with copies,
// barriers and events (ze_mock_engine.c). What the CPU backend cannot do
// is refused with UNSUPPORTED_FEATURE and a reason, for live handles.

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mock_kernel.h"
#include "mock_objects.h"
#include "ze_mock_commands.h"
#include "ze_mock_refuse.h"

typedef struct module_t {
    ze_mock_object_t obj;
    umf_mock_program_t *program;
} module_t;

typedef struct kernel_t {
    ze_mock_object_t obj;
    umf_mock_kernel_t *kernel;
    umf_mock_args_t *args;
    uint32_t group_size[3];
    uint32_t offset[3];
    ze_kernel_indirect_access_flags_t indirect;
} kernel_t;

// Handles are looked up before they are read: a forged one is refused, not
// followed.
static module_t *module_of(ze_module_handle_t h) {
    return h != NULL && umf_mock_object_contains(ZE_MOCK_OBJ_MODULE, h)
               ? (module_t *)h
               : NULL;
}

static kernel_t *kernel_of(ze_kernel_handle_t h) {
    return h != NULL && umf_mock_object_contains(ZE_MOCK_OBJ_KERNEL, h)
               ? (kernel_t *)h
               : NULL;
}

static ze_result_t no_such(const char *kind, const void *h) {
    ZE_MOCK_EXPLAIN("%p is not a live %s of this driver", h, kind);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

#define MODULE_OR_FAIL(var, h)                                                 \
    module_t *var = module_of(h);                                              \
    if (var == NULL) {                                                         \
        return no_such("module", (h));                                         \
    }
#define KERNEL_OR_FAIL(var, h)                                                 \
    kernel_t *var = kernel_of(h);                                              \
    if (var == NULL) {                                                         \
        return no_such("kernel", (h));                                         \
    }

// What the CPU backend cannot do, for a live module or kernel.
static ze_result_t unsupported(const char *what) {
    ZE_MOCK_EXPLAIN("%s: the emulated devices run kernels on the CPU through "
                    "pocl, which cannot do it",
                    what);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// ---- Modules ----------------------------------------------------------------

static ze_result_t ZE_APICALL
mock_ModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                  const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                  ze_module_build_log_handle_t *phBuildLog) {
    ZE_MOCK_ENTER(zeModuleCreate);
    ze_mock_context_t *ctx = ze_mock_context(hContext);
    if (ctx == NULL || ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (desc == NULL || desc->pInputModule == NULL || phModule == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc->format > ZE_MODULE_FORMAT_NATIVE) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->inputSize == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    const ze_module_constants_t *c = desc->pConstants;
    if (c != NULL && c->numConstants > 0 &&
        (c->pConstantIds == NULL || c->pConstantValues == NULL)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *phModule = NULL;
    if (phBuildLog != NULL) {
        *phBuildLog = NULL;
    }
    for (const ze_base_desc_t *x = desc->pNext; x != NULL; x = x->pNext) {
        if (x->stype == ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC) {
            // Each module is built alone (see zeModuleDynamicLink).
            return unsupported("a module of several SPIR-V modules "
                               "(ze_module_program_exp_desc_t)");
        }
    }
    umf_mock_program_t *program = NULL;
    char *log = NULL;
    umf_mock_build_t r =
        desc->format == ZE_MODULE_FORMAT_NATIVE
            ? umf_mock_program_build_native(desc->pInputModule, desc->inputSize,
                                            &program, &log)
            : umf_mock_program_build_spirv(
                  desc->pInputModule, desc->inputSize, desc->pBuildFlags,
                  c != NULL ? c->numConstants : 0,
                  c != NULL ? c->pConstantIds : NULL,
                  c != NULL ? c->pConstantValues : NULL, &program, &log);
    module_t *m = NULL;
    if (r == UMF_MOCK_BUILD_OK) {
        m = ze_mock_object_new(sizeof(*m), ZE_MOCK_MAGIC_MODULE, ctx);
        if (m != NULL) {
            m->program = program;
            if (!ze_mock_object_publish(m, ZE_MOCK_OBJ_MODULE)) {
                free(m);
                m = NULL;
            }
        }
        if (m == NULL) {
            umf_mock_program_unref(program);
            r = UMF_MOCK_BUILD_NO_MEMORY;
        }
    }
    if (r != UMF_MOCK_BUILD_OK && log != NULL && log[0] != '\0') {
        ZE_MOCK_EXPLAIN("%s", log);
    }
    if (phBuildLog != NULL) {
        *phBuildLog = ze_mock_build_log_new(ctx, log != NULL ? log : "", log);
    } else {
        free(log);
    }
    switch (r) {
    case UMF_MOCK_BUILD_OK:
        *phModule = (ze_module_handle_t)m;
        return ZE_RESULT_SUCCESS;
    case UMF_MOCK_BUILD_NO_MEMORY:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    case UMF_MOCK_BUILD_INVALID:
        return ZE_MOCK_FAIL(desc->format == ZE_MODULE_FORMAT_NATIVE
                                ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                                : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    default:
        return ZE_MOCK_FAIL(desc->format == ZE_MODULE_FORMAT_NATIVE
                                ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                                : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    }
}

static void module_release(void *obj) {
    module_t *m = obj;
    umf_mock_program_unref(m->program);
    free(m);
}

static ze_result_t ZE_APICALL mock_ModuleDestroy(ze_module_handle_t hModule) {
    ZE_MOCK_ENTER(zeModuleDestroy);
    MODULE_OR_FAIL(m, hModule);
    if (!ze_mock_object_drop(m, ZE_MOCK_OBJ_MODULE)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    module_release(m); // its kernels hold the program
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_ModuleGetKernelNames(
    ze_module_handle_t hModule, uint32_t *pCount, const char **pNames) {
    ZE_MOCK_ENTER(zeModuleGetKernelNames);
    MODULE_OR_FAIL(m, hModule);
    ZE_MOCK_CHECK_POINTER(pCount);
    uint32_t n = umf_mock_program_kernel_count(m->program);
    if (*pCount == 0 || pNames == NULL) {
        *pCount = n;
        return ZE_RESULT_SUCCESS;
    }
    if (*pCount > n) {
        *pCount = n;
    }
    for (uint32_t i = 0; i < *pCount; i++) {
        pNames[i] = umf_mock_program_kernel_name(m->program, i);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_ModuleGetProperties(
    ze_module_handle_t hModule, ze_module_properties_t *p) {
    ZE_MOCK_ENTER(zeModuleGetProperties);
    MODULE_OR_FAIL(m, hModule);
    ZE_MOCK_CHECK_POINTER(p);
    p->flags = umf_mock_program_imports(m->program)
                   ? ZE_MODULE_PROPERTY_FLAG_IMPORTS
                   : 0;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_ModuleGetNativeBinary(
    ze_module_handle_t hModule, size_t *pSize, uint8_t *pModuleNativeBinary) {
    ZE_MOCK_ENTER(zeModuleGetNativeBinary);
    MODULE_OR_FAIL(m, hModule);
    ZE_MOCK_CHECK_POINTER(pSize);
    const void *bin;
    size_t size;
    umf_mock_program_native(m->program, &bin, &size);
    if (pModuleNativeBinary == NULL) {
        *pSize = size;
        return ZE_RESULT_SUCCESS;
    }
    if (*pSize < size) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    memcpy(pModuleNativeBinary, bin, size);
    *pSize = size;
    return ZE_RESULT_SUCCESS;
}

// A module with program-scope variables is refused at build (pocl keeps
// them once per kernel), so no module has one to give.
static ze_result_t ZE_APICALL
mock_ModuleGetGlobalPointer(ze_module_handle_t hModule, const char *pGlobalName,
                            size_t *pSize, void **pptr) {
    ZE_MOCK_ENTER(zeModuleGetGlobalPointer);
    MODULE_OR_FAIL(m, hModule);
    ZE_MOCK_CHECK_POINTER(pGlobalName);
    (void)m, (void)pSize, (void)pptr;
    ZE_MOCK_EXPLAIN("zeModuleGetGlobalPointer(%.64s): the module has no "
                    "program-scope variable (modules with one are refused "
                    "at zeModuleCreate: the CPU backend keeps them once per "
                    "kernel)",
                    pGlobalName);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
}

// "All module import requirements must be satisfied via linking before
// kernel objects can be created from them": each module that imports
// takes what it imports from the one other module of the set that exports
// it (the kernel engine links their bitcode), once.
static ze_result_t ZE_APICALL
mock_ModuleDynamicLink(uint32_t numModules, ze_module_handle_t *phModules,
                       ze_module_build_log_handle_t *phLinkLog) {
    ZE_MOCK_ENTER(zeModuleDynamicLink);
    ZE_MOCK_CHECK_POINTER(phModules);
    if (phLinkLog != NULL) {
        *phLinkLog = NULL;
    }
    for (uint32_t i = 0; i < numModules; i++) {
        MODULE_OR_FAIL(m, phModules[i]);
        (void)m;
    }
    umf_mock_program_t **programs = calloc(numModules + 1, sizeof(*programs));
    if (programs == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    for (uint32_t i = 0; i < numModules; i++) {
        programs[i] = module_of(phModules[i])->program;
    }
    char *log = NULL;
    umf_mock_build_t r = umf_mock_program_link(programs, numModules, &log);
    free(programs);
    if (r != UMF_MOCK_BUILD_OK && log != NULL && log[0] != '\0') {
        ZE_MOCK_EXPLAIN("%s", log);
    }
    if (phLinkLog != NULL && numModules > 0) {
        *phLinkLog = ze_mock_build_log_new(module_of(phModules[0])->obj.ctx,
                                           log != NULL ? log : "", log);
    } else {
        free(log);
    }
    switch (r) {
    case UMF_MOCK_BUILD_OK:
        return ZE_RESULT_SUCCESS;
    case UMF_MOCK_BUILD_NO_MEMORY:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    default:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    }
}

// Function pointers: pocl has none.
static ze_result_t ZE_APICALL mock_ModuleGetFunctionPointer(
    ze_module_handle_t hModule, const char *pFunctionName, void **pfnFunction) {
    ZE_MOCK_ENTER(zeModuleGetFunctionPointer);
    MODULE_OR_FAIL(m, hModule);
    ZE_MOCK_CHECK_POINTER(pFunctionName);
    ZE_MOCK_CHECK_POINTER(pfnFunction);
    (void)m;
    return unsupported("function pointers");
}

static ze_result_t ZE_APICALL mock_ModuleInspectLinkageExt(
    ze_linkage_inspection_ext_desc_t *pInspectDesc, uint32_t numModules,
    ze_module_handle_t *phModules, ze_module_build_log_handle_t *phLog) {
    ZE_MOCK_ENTER(zeModuleInspectLinkageExt);
    ZE_MOCK_CHECK_POINTER(pInspectDesc);
    ZE_MOCK_CHECK_POINTER(phModules);
    ZE_MOCK_CHECK_POINTER(phLog);
    if (pInspectDesc->flags > 0x7) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    for (uint32_t i = 0; i < numModules; i++) {
        MODULE_OR_FAIL(m, phModules[i]);
        (void)m;
    }
    return unsupported("linkage inspection");
}

void ze_mock_fill_module(ze_module_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_MODULE, module_release);
    t->pfnCreate = mock_ModuleCreate;
    t->pfnDestroy = mock_ModuleDestroy;
    t->pfnDynamicLink = mock_ModuleDynamicLink;
    t->pfnGetNativeBinary = mock_ModuleGetNativeBinary;
    t->pfnGetGlobalPointer = mock_ModuleGetGlobalPointer;
    t->pfnGetKernelNames = mock_ModuleGetKernelNames;
    t->pfnGetProperties = mock_ModuleGetProperties;
    t->pfnGetFunctionPointer = mock_ModuleGetFunctionPointer;
    t->pfnInspectLinkageExt = mock_ModuleInspectLinkageExt;
}

// ---- Kernels ----------------------------------------------------------------

static void kernel_release(void *obj) {
    kernel_t *k = obj;
    umf_mock_args_free(k->args);
    umf_mock_kernel_unref(k->kernel);
    free(k);
}

static ze_result_t ZE_APICALL mock_KernelCreate(ze_module_handle_t hModule,
                                                const ze_kernel_desc_t *desc,
                                                ze_kernel_handle_t *phKernel) {
    ZE_MOCK_ENTER(zeKernelCreate);
    MODULE_OR_FAIL(m, hModule);
    ZE_MOCK_CHECK_POINTER(desc);
    ZE_MOCK_CHECK_POINTER(desc->pKernelName);
    ZE_MOCK_CHECK_POINTER(phKernel);
    if (desc->flags > 0x3) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    *phKernel = NULL;
    if (!umf_mock_program_built(m->program)) {
        ZE_MOCK_EXPLAIN("zeKernelCreate(%.64s): the module imports functions "
                        "of other modules: link it first "
                        "(zeModuleDynamicLink)",
                        desc->pKernelName);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
    }
    umf_mock_kernel_t *uk = NULL;
    umf_mock_status_t s =
        umf_mock_kernel_new(m->program, desc->pKernelName, &uk);
    if (s == UMF_MOCK_ERR_NOT_FOUND) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    }
    if (s != UMF_MOCK_OK) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    kernel_t *k =
        ze_mock_object_new(sizeof(*k), ZE_MOCK_MAGIC_KERNEL, m->obj.ctx);
    if (k == NULL || (k->args = umf_mock_args_new(uk)) == NULL) {
        free(k);
        umf_mock_kernel_unref(uk);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    k->kernel = uk;
    const uint32_t *req = umf_mock_kernel_info(uk)->required_group_size;
    for (int i = 0; i < 3; i++) {
        k->group_size[i] = req[0] != 0 ? req[i] : 1;
    }
    if (!ze_mock_object_publish(k, ZE_MOCK_OBJ_KERNEL)) {
        kernel_release(k);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    *phKernel = (ze_kernel_handle_t)k;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelDestroy(ze_kernel_handle_t hKernel) {
    ZE_MOCK_ENTER(zeKernelDestroy);
    KERNEL_OR_FAIL(k, hKernel);
    if (!ze_mock_object_drop(k, ZE_MOCK_OBJ_KERNEL)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    kernel_release(k); // launches hold what they need
    return ZE_RESULT_SUCCESS;
}

// A group size the kernel can run: INVALID_GROUP_SIZE_DIMENSION else.
static ze_result_t check_group_size(const kernel_t *k, const uint32_t g[3]) {
    umf_mock_kernel_limits_t lim;
    (void)umf_mock_kernel_backend(&lim, NULL, 0); // a kernel means it is up
    const umf_mock_kernel_info_t *info = umf_mock_kernel_info(k->kernel);
    uint64_t total = (uint64_t)g[0] * g[1] * g[2];
    bool ok = total > 0 && total <= info->max_group_size;
    for (int i = 0; i < 3 && ok; i++) {
        ok = g[i] <= lim.max_group_dims[i] &&
             (info->required_group_size[0] == 0 ||
              g[i] == info->required_group_size[i]);
    }
    if (!ok) {
        ZE_MOCK_EXPLAIN("group size %ux%ux%u: kernel %s takes at most %u "
                        "work-items a group%s",
                        g[0], g[1], g[2], umf_mock_kernel_name(k->kernel),
                        info->max_group_size,
                        info->required_group_size[0] != 0
                            ? ", and only its required group size"
                            : "");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelSetGroupSize(
    ze_kernel_handle_t hKernel, uint32_t x, uint32_t y, uint32_t z) {
    ZE_MOCK_ENTER(zeKernelSetGroupSize);
    KERNEL_OR_FAIL(k, hKernel);
    const uint32_t g[3] = {x, y, z};
    ze_result_t r = check_group_size(k, g);
    if (r == ZE_RESULT_SUCCESS) {
        memcpy(k->group_size, g, sizeof(g));
    }
    return r;
}

// The largest divisor of `global` not above `cap`.
static uint32_t divisor_below(uint32_t global, uint32_t cap) {
    for (uint32_t d = cap < global ? cap : global; d > 1; d--) {
        if (global % d == 0) {
            return d;
        }
    }
    return 1;
}

static ze_result_t ZE_APICALL mock_KernelSuggestGroupSize(
    ze_kernel_handle_t hKernel, uint32_t globalSizeX, uint32_t globalSizeY,
    uint32_t globalSizeZ, uint32_t *groupSizeX, uint32_t *groupSizeY,
    uint32_t *groupSizeZ) {
    ZE_MOCK_ENTER(zeKernelSuggestGroupSize);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(groupSizeX);
    ZE_MOCK_CHECK_POINTER(groupSizeY);
    ZE_MOCK_CHECK_POINTER(groupSizeZ);
    if (globalSizeX == 0 || globalSizeY == 0 || globalSizeZ == 0) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION);
    }
    const umf_mock_kernel_info_t *info = umf_mock_kernel_info(k->kernel);
    if (info->required_group_size[0] != 0) {
        *groupSizeX = info->required_group_size[0];
        *groupSizeY = info->required_group_size[1];
        *groupSizeZ = info->required_group_size[2];
        return ZE_RESULT_SUCCESS;
    }
    // Divisors of the global size, so that the groups cover it exactly.
    uint32_t left = info->max_group_size;
    *groupSizeX = divisor_below(globalSizeX, left);
    left /= *groupSizeX;
    *groupSizeY = divisor_below(globalSizeY, left);
    left /= *groupSizeY;
    *groupSizeZ = divisor_below(globalSizeZ, left);
    return ZE_RESULT_SUCCESS;
}

// Every group runs in turn on the CPU, so every group of a cooperative
// launch is resident as the spec means it: no limit below the counts'.
static ze_result_t ZE_APICALL mock_KernelSuggestMaxCooperativeGroupCount(
    ze_kernel_handle_t hKernel, uint32_t *totalGroupCount) {
    ZE_MOCK_ENTER(zeKernelSuggestMaxCooperativeGroupCount);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(totalGroupCount);
    umf_mock_kernel_limits_t lim;
    (void)umf_mock_kernel_backend(&lim, NULL, 0);
    (void)k;
    // Groups of a cooperative launch must all make progress together (a
    // grid barrier): pocl runs as many at once as it has compute units.
    *totalGroupCount = lim.compute_units > 0 ? lim.compute_units : 1;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_KernelSetArgumentValue(ze_kernel_handle_t hKernel, uint32_t argIndex,
                            size_t argSize, const void *pArgValue) {
    ZE_MOCK_ENTER(zeKernelSetArgumentValue);
    KERNEL_OR_FAIL(k, hKernel);
    switch (
        umf_mock_args_set(k->args, k->kernel, argIndex, argSize, pArgValue)) {
    case UMF_MOCK_OK:
        return ZE_RESULT_SUCCESS;
    case UMF_MOCK_ERR_NOT_FOUND:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    case UMF_MOCK_ERR_UNSUPPORTED_SIZE:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    case UMF_MOCK_ERR_OUT_OF_HOST_MEMORY:
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    default:
        ZE_MOCK_EXPLAIN("argument %u of kernel %s: %s", argIndex,
                        umf_mock_kernel_name(k->kernel),
                        pArgValue == NULL ? "a value argument needs a value"
                                          : "local memory takes no value");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
}

static ze_result_t ZE_APICALL mock_KernelSetIndirectAccess(
    ze_kernel_handle_t hKernel, ze_kernel_indirect_access_flags_t flags) {
    ZE_MOCK_ENTER(zeKernelSetIndirectAccess);
    KERNEL_OR_FAIL(k, hKernel);
    if (flags > 0x7) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    k->indirect = flags; // all memory is host memory: every access works
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelGetIndirectAccess(
    ze_kernel_handle_t hKernel, ze_kernel_indirect_access_flags_t *pFlags) {
    ZE_MOCK_ENTER(zeKernelGetIndirectAccess);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(pFlags);
    *pFlags = k->indirect;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelGetSourceAttributes(
    ze_kernel_handle_t hKernel, uint32_t *pSize, char **pString) {
    ZE_MOCK_ENTER(zeKernelGetSourceAttributes);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(pSize);
    // The attributes as OpenCL C writes them; reqd_work_group_size is the
    // one the engine knows.
    char text[96] = "";
    const uint32_t *r = umf_mock_kernel_info(k->kernel)->required_group_size;
    if (r[0] != 0) {
        snprintf(text, sizeof(text), "reqd_work_group_size(%u,%u,%u)", r[0],
                 r[1], r[2]);
    }
    size_t need = strlen(text) + 1;
    if (pString == NULL) {
        *pSize = (uint32_t)need;
        return ZE_RESULT_SUCCESS;
    }
    if (*pString == NULL || *pSize < need) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    memcpy(*pString, text, need);
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelSetCacheConfig(
    ze_kernel_handle_t hKernel, ze_cache_config_flags_t flags) {
    ZE_MOCK_ENTER(zeKernelSetCacheConfig);
    KERNEL_OR_FAIL(k, hKernel);
    (void)k;
    if (flags > 0x3) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ZE_RESULT_SUCCESS; // a hint; the CPU's caches are its own
}

static ze_result_t ZE_APICALL mock_KernelGetProperties(
    ze_kernel_handle_t hKernel, ze_kernel_properties_t *p) {
    ZE_MOCK_ENTER(zeKernelGetProperties);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(p);
    const umf_mock_kernel_info_t *info = umf_mock_kernel_info(k->kernel);
    p->numKernelArgs = info->nargs;
    p->requiredGroupSizeX = info->required_group_size[0];
    p->requiredGroupSizeY = info->required_group_size[1];
    p->requiredGroupSizeZ = info->required_group_size[2];
    p->requiredNumSubGroups = 0;
    p->requiredSubgroupSize = 0;
    p->maxSubgroupSize = 1; // no subgroups: each work-item is its own
    p->maxNumSubgroups = info->max_group_size;
    p->localMemSize = (uint32_t)info->local_mem_size;
    p->privateMemSize = (uint32_t)info->private_mem_size;
    p->spillMemSize = 0;
    memset(&p->uuid, 0, sizeof(p->uuid));
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelGetName(ze_kernel_handle_t hKernel,
                                                 size_t *pSize, char *pName) {
    ZE_MOCK_ENTER(zeKernelGetName);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(pSize);
    const char *name = umf_mock_kernel_name(k->kernel);
    size_t need = strlen(name) + 1;
    if (pName == NULL) {
        *pSize = need;
        return ZE_RESULT_SUCCESS;
    }
    size_t n = *pSize < need ? *pSize : need;
    if (n > 0) {
        memcpy(pName, name, n - 1);
        pName[n - 1] = '\0';
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
mock_KernelSetGlobalOffsetExp(ze_kernel_handle_t hKernel, uint32_t offsetX,
                              uint32_t offsetY, uint32_t offsetZ) {
    ZE_MOCK_ENTER(zeKernelSetGlobalOffsetExp);
    KERNEL_OR_FAIL(k, hKernel);
    k->offset[0] = offsetX;
    k->offset[1] = offsetY;
    k->offset[2] = offsetZ;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL mock_KernelSchedulingHintExp(
    ze_kernel_handle_t hKernel, ze_scheduling_hint_exp_desc_t *pHint) {
    ZE_MOCK_ENTER(zeKernelSchedulingHintExp);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(pHint);
    (void)k;
    return unsupported("scheduling hints (the CPU threads' arbitration)");
}

static ze_result_t ZE_APICALL mock_KernelGetBinaryExp(
    ze_kernel_handle_t hKernel, size_t *pSize, uint8_t *pKernelBinary) {
    ZE_MOCK_ENTER(zeKernelGetBinaryExp);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(pSize);
    (void)k, (void)pKernelBinary;
    return unsupported("a kernel's own binary (zeModuleGetNativeBinary "
                       "gives the module's)");
}

static ze_result_t ZE_APICALL mock_KernelGetAllocationPropertiesExp(
    ze_kernel_handle_t hKernel, uint32_t *pCount, void *pAllocationProperties) {
    ZE_MOCK_ENTER(zeKernelGetAllocationPropertiesExp);
    KERNEL_OR_FAIL(k, hKernel);
    ZE_MOCK_CHECK_POINTER(pCount);
    (void)k, (void)pAllocationProperties;
    return unsupported("a kernel's internal allocations (it has none)");
}

void ze_mock_fill_kernel(ze_kernel_dditable_t *t) {
    ze_mock_object_kind_register(ZE_MOCK_OBJ_KERNEL, kernel_release);
    t->pfnCreate = mock_KernelCreate;
    t->pfnDestroy = mock_KernelDestroy;
    t->pfnSetCacheConfig = mock_KernelSetCacheConfig;
    t->pfnSetGroupSize = mock_KernelSetGroupSize;
    t->pfnSuggestGroupSize = mock_KernelSuggestGroupSize;
    t->pfnSuggestMaxCooperativeGroupCount =
        mock_KernelSuggestMaxCooperativeGroupCount;
    t->pfnSetArgumentValue = mock_KernelSetArgumentValue;
    t->pfnSetIndirectAccess = mock_KernelSetIndirectAccess;
    t->pfnGetIndirectAccess = mock_KernelGetIndirectAccess;
    t->pfnGetSourceAttributes = mock_KernelGetSourceAttributes;
    t->pfnGetProperties = mock_KernelGetProperties;
    t->pfnGetName = mock_KernelGetName;
}

void ze_mock_fill_kernel_exp(ze_mock_kernel_exp_dditable_t *t) {
    t->v1_4.pfnSetGlobalOffsetExp = mock_KernelSetGlobalOffsetExp;
    t->v1_4.pfnSchedulingHintExp = mock_KernelSchedulingHintExp;
    t->pfnGetBinaryExp = mock_KernelGetBinaryExp;
    t->pfnGetAllocationPropertiesExp = mock_KernelGetAllocationPropertiesExp;
}

// ---- Launches ---------------------------------------------------------------

// One kernel of a launch, as it was when appended.
typedef struct launch_item_t {
    umf_mock_kernel_t *kernel;
    umf_mock_args_t *args;
    umf_mock_launch_dims_t dims;
} launch_item_t;

typedef struct launch_t {
    _Atomic unsigned refs;
    uint32_t count;
    const uint32_t *count_at;          // or NULL: `count` kernels
    const ze_group_count_t *groups_at; // or NULL: the dims' groups
    launch_item_t items[];
} launch_t;

static void launch_hold(void *arg) {
    launch_t *l = arg;
    atomic_fetch_add(&l->refs, 1);
}

static void launch_release(void *arg) {
    launch_t *l = arg;
    if (l == NULL || atomic_fetch_sub(&l->refs, 1) != 1) {
        return;
    }
    for (uint32_t i = 0; i < l->count; i++) {
        umf_mock_args_free(l->items[i].args);
        umf_mock_kernel_unref(l->items[i].kernel);
    }
    free(l);
}

// Runs on the list's stream; a launch the backend refuses is logged, and
// the kernels after it do not run.
static void launch_run(void *arg, const char *call) {
    const launch_t *l = arg;
    uint32_t n = l->count;
    if (l->count_at != NULL) {
        uint32_t at = *l->count_at; // read when the command runs
        n = at < n ? at : n;
    }
    for (uint32_t i = 0; i < n; i++) {
        umf_mock_launch_dims_t d = l->items[i].dims;
        if (l->groups_at != NULL) {
            d.groups[0] = l->groups_at[i].groupCountX;
            d.groups[1] = l->groups_at[i].groupCountY;
            d.groups[2] = l->groups_at[i].groupCountZ;
        }
        char why[256];
        if (!umf_mock_kernel_run(l->items[i].kernel, l->items[i].args, &d, why,
                                 sizeof(why))) {
            UMF_MOCK_LOG_ERROR("%s: %s", call, why);
            return;
        }
    }
}

static const ze_mock_call_ops_t launch_ops = {
    .run = launch_run, .hold = launch_hold, .release = launch_release};

// Captures kernel `h` (its arguments, group size and offset now).
static ze_result_t capture(launch_item_t *item, ze_kernel_handle_t h,
                           const ze_group_count_t *groups) {
    KERNEL_OR_FAIL(k, h);
    uint32_t unset = umf_mock_args_unset(k->args);
    if (unset != UINT32_MAX) {
        ZE_MOCK_EXPLAIN("kernel %s is launched before its argument %u is set",
                        umf_mock_kernel_name(k->kernel), unset);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if ((item->args = umf_mock_args_copy(k->args)) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    umf_mock_kernel_ref(k->kernel);
    item->kernel = k->kernel;
    memcpy(item->dims.group_size, k->group_size, sizeof(k->group_size));
    memcpy(item->dims.offset, k->offset, sizeof(k->offset));
    if (groups != NULL) {
        item->dims.groups[0] = groups->groupCountX;
        item->dims.groups[1] = groups->groupCountY;
        item->dims.groups[2] = groups->groupCountZ;
    }
    return ZE_RESULT_SUCCESS;
}

// Appends a launch of `n` kernels; groups: direct counts (one per kernel,
// or NULL with `groups_at` read at run time).
static ze_result_t append(ze_command_list_handle_t hCommandList, uint32_t n,
                          const ze_kernel_handle_t *kernels,
                          const ze_group_count_t *groups,
                          const ze_group_count_t *groups_at,
                          const uint32_t *count_at, ze_event_handle_t hSignal,
                          uint32_t numWait, ze_event_handle_t *phWait,
                          const char *call) {
    ze_mock_list_t *list = ze_mock_list(hCommandList);
    if (list == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ZE_MOCK_CHECK_WAIT_EVENTS(numWait, phWait);
    launch_t *l = calloc(1, sizeof(*l) + n * sizeof(l->items[0]));
    if (l == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    atomic_init(&l->refs, 1);
    l->groups_at = groups_at;
    l->count_at = count_at;
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (uint32_t i = 0; i < n && r == ZE_RESULT_SUCCESS; i++) {
        r = capture(&l->items[i], kernels[i], groups);
        l->count = r == ZE_RESULT_SUCCESS ? i + 1 : i;
    }
    ze_mock_cmd_t c;
    memset(&c, 0, sizeof(c));
    c.kind = ZE_MOCK_CMD_CALL;
    c.device = ze_mock_list_device(list);
    c.call = call;
    c.u.call.ops = &launch_ops;
    c.u.call.arg = l;
    if (r == ZE_RESULT_SUCCESS) {
        r = ze_mock_cmd_set_events(&c, hSignal, numWait, phWait);
    }
    if (r == ZE_RESULT_SUCCESS) {
        r = ze_mock_list_add(list, &c); // holds its own reference
    }
    launch_release(l);
    return r;
}

// A launch of one kernel: the command list first, then the kernel, then its
// group counts (`direct`, or `indirect`, read when it runs).
static ze_result_t append_one(ze_command_list_handle_t hCommandList,
                              ze_kernel_handle_t hKernel,
                              const ze_group_count_t *direct,
                              const ze_group_count_t *indirect,
                              ze_event_handle_t hSignal, uint32_t numWait,
                              ze_event_handle_t *phWait, const char *call) {
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    KERNEL_OR_FAIL(k, hKernel);
    (void)k;
    if (direct == NULL && indirect == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    return append(hCommandList, 1, &hKernel, direct, indirect, NULL, hSignal,
                  numWait, phWait, call);
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernel);
    return append_one(hCommandList, hKernel, pLaunchFuncArgs, NULL,
                      hSignalEvent, numWaitEvents, phWaitEvents,
                      "zeCommandListAppendLaunchKernel");
}

// Every group runs in turn on the CPU: a cooperative launch is as any.
static ze_result_t ZE_APICALL mock_CommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchCooperativeKernel);
    return append_one(hCommandList, hKernel, pLaunchFuncArgs, NULL,
                      hSignalEvent, numWaitEvents, phWaitEvents,
                      "zeCommandListAppendLaunchCooperativeKernel");
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernelIndirect);
    return append_one(hCommandList, hKernel, NULL, pLaunchArgumentsBuffer,
                      hSignalEvent, numWaitEvents, phWaitEvents,
                      "zeCommandListAppendLaunchKernelIndirect");
}

static ze_result_t ZE_APICALL
mock_CommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels,
    ze_kernel_handle_t *phKernels, const uint32_t *pCountBuffer,
    const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchMultipleKernelsIndirect);
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    ZE_MOCK_CHECK_POINTER(phKernels);
    ZE_MOCK_CHECK_POINTER(pCountBuffer);
    ZE_MOCK_CHECK_POINTER(pLaunchArgumentsBuffer);
    return append(hCommandList, numKernels, phKernels, NULL,
                  pLaunchArgumentsBuffer, pCountBuffer, hSignalEvent,
                  numWaitEvents, phWaitEvents,
                  "zeCommandListAppendLaunchMultipleKernelsIndirect");
}

// Level Zero 1.14's launches with a pNext chain or an argument array.
static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernelWithParameters(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pGroupCounts, const void *pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernelWithParameters);
    if (pNext != NULL && pGroupCounts != NULL &&
        ze_mock_list(hCommandList) != NULL && kernel_of(hKernel) != NULL) {
        return unsupported("launch parameters in a pNext chain");
    }
    return append_one(hCommandList, hKernel, pGroupCounts, NULL, hSignalEvent,
                      numWaitEvents, phWaitEvents,
                      "zeCommandListAppendLaunchKernelWithParameters");
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernelWithArguments(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts, const ze_mock_group_size_t groupSizes,
    void **pArguments, const void *pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernelWithArguments);
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    KERNEL_OR_FAIL(k, hKernel);
    (void)k, (void)groupCounts, (void)groupSizes, (void)pArguments;
    (void)pNext, (void)hSignalEvent;
    ZE_MOCK_CHECK_WAIT_EVENTS(numWaitEvents, phWaitEvents);
    return unsupported("launches with an argument array (set the arguments "
                       "with zeKernelSetArgumentValue)");
}

void ze_mock_fill_command_list_launches(ze_mock_command_list_dditable_t *t) {
    t->v1_4.pfnAppendLaunchKernel = mock_CommandListAppendLaunchKernel;
    t->v1_4.pfnAppendLaunchCooperativeKernel =
        mock_CommandListAppendLaunchCooperativeKernel;
    t->v1_4.pfnAppendLaunchKernelIndirect =
        mock_CommandListAppendLaunchKernelIndirect;
    t->v1_4.pfnAppendLaunchMultipleKernelsIndirect =
        mock_CommandListAppendLaunchMultipleKernelsIndirect;
    t->pfnAppendLaunchKernelWithParameters =
        mock_CommandListAppendLaunchKernelWithParameters;
    t->pfnAppendLaunchKernelWithArguments =
        mock_CommandListAppendLaunchKernelWithArguments;
}
