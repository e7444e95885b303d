// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Refused: what needs a kernel (ze_mock_refuse.h). No module is ever
// built (ze_mock_module.c), so no module or kernel handle exists: the
// module and kernel tables past zeModuleCreate, the kernel launches of
// command lists, and the atomic access attributes (only kernels make
// atomic accesses; zeDeviceGetMemoryAccessProperties claims none).

#include "ze_mock_refuse.h"

// Modules -------------------------------------------------------------------

ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", ModuleDestroy,
                      ze_module_handle_t hModule)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", ModuleGetNativeBinary,
                      ze_module_handle_t hModule, size_t *pSize,
                      uint8_t *pModuleNativeBinary)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", ModuleGetGlobalPointer,
                      ze_module_handle_t hModule, const char *pGlobalName,
                      size_t *pSize, void **pptr)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", ModuleGetKernelNames,
                      ze_module_handle_t hModule, uint32_t *pCount,
                      const char **pNames)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", ModuleGetProperties,
                      ze_module_handle_t hModule,
                      ze_module_properties_t *pModuleProperties)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", ModuleGetFunctionPointer,
                      ze_module_handle_t hModule, const char *pFunctionName,
                      void **pfnFunction)

static ze_result_t ZE_APICALL
mock_ModuleDynamicLink(uint32_t numModules, ze_module_handle_t *phModules,
                       ze_module_build_log_handle_t *phLinkLog) {
    ZE_MOCK_ENTER(zeModuleDynamicLink);
    (void)numModules;
    (void)phLinkLog;
    ZE_MOCK_CHECK_POINTER(phModules);
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_KERNELS, "module");
}

static ze_result_t ZE_APICALL mock_ModuleInspectLinkageExt(
    ze_linkage_inspection_ext_desc_t *pInspectDesc, uint32_t numModules,
    ze_module_handle_t *phModules, ze_module_build_log_handle_t *phLog) {
    ZE_MOCK_ENTER(zeModuleInspectLinkageExt);
    (void)numModules;
    ZE_MOCK_CHECK_POINTER(pInspectDesc);
    ZE_MOCK_CHECK_POINTER(phModules);
    ZE_MOCK_CHECK_POINTER(phLog);
    if (pInspectDesc->flags > 0x7) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_KERNELS, "module");
}

void ze_mock_fill_module_kernels(ze_module_dditable_t *t) {
    t->pfnDestroy = mock_ModuleDestroy;
    t->pfnDynamicLink = mock_ModuleDynamicLink;
    t->pfnGetNativeBinary = mock_ModuleGetNativeBinary;
    t->pfnGetGlobalPointer = mock_ModuleGetGlobalPointer;
    t->pfnGetKernelNames = mock_ModuleGetKernelNames;
    t->pfnGetProperties = mock_ModuleGetProperties;
    t->pfnGetFunctionPointer = mock_ModuleGetFunctionPointer;
    t->pfnInspectLinkageExt = mock_ModuleInspectLinkageExt;
}

// Kernels ---------------------------------------------------------------------

ZE_MOCK_REFUSE_HANDLE(KERNELS, "module", KernelCreate,
                      ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
                      ze_kernel_handle_t *phKernel)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelDestroy,
                      ze_kernel_handle_t hKernel)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSetCacheConfig,
                      ze_kernel_handle_t hKernel, ze_cache_config_flags_t flags)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSetGroupSize,
                      ze_kernel_handle_t hKernel, uint32_t groupSizeX,
                      uint32_t groupSizeY, uint32_t groupSizeZ)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSuggestGroupSize,
                      ze_kernel_handle_t hKernel, uint32_t globalSizeX,
                      uint32_t globalSizeY, uint32_t globalSizeZ,
                      uint32_t *groupSizeX, uint32_t *groupSizeY,
                      uint32_t *groupSizeZ)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSuggestMaxCooperativeGroupCount,
                      ze_kernel_handle_t hKernel, uint32_t *totalGroupCount)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSetArgumentValue,
                      ze_kernel_handle_t hKernel, uint32_t argIndex,
                      size_t argSize, const void *pArgValue)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSetIndirectAccess,
                      ze_kernel_handle_t hKernel,
                      ze_kernel_indirect_access_flags_t flags)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelGetIndirectAccess,
                      ze_kernel_handle_t hKernel,
                      ze_kernel_indirect_access_flags_t *pFlags)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelGetSourceAttributes,
                      ze_kernel_handle_t hKernel, uint32_t *pSize,
                      char **pString)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelGetProperties,
                      ze_kernel_handle_t hKernel,
                      ze_kernel_properties_t *pKernelProperties)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelGetName,
                      ze_kernel_handle_t hKernel, size_t *pSize, char *pName)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSetGlobalOffsetExp,
                      ze_kernel_handle_t hKernel, uint32_t offsetX,
                      uint32_t offsetY, uint32_t offsetZ)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelSchedulingHintExp,
                      ze_kernel_handle_t hKernel,
                      ze_scheduling_hint_exp_desc_t *pHint)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelGetBinaryExp,
                      ze_kernel_handle_t hKernel, size_t *pSize,
                      uint8_t *pKernelBinary)
ZE_MOCK_REFUSE_HANDLE(KERNELS, "kernel", KernelGetAllocationPropertiesExp,
                      ze_kernel_handle_t hKernel, uint32_t *pCount,
                      void *pAllocationProperties)

void ze_mock_fill_kernel(ze_kernel_dditable_t *t) {
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

// Launches
// ----------------------------------------------------------------------
//
// The command list is checked first, then the kernel, which is never one.

static ze_result_t launch(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_KERNELS, "kernel");
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernel);
    (void)hKernel, (void)pLaunchFuncArgs, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return launch(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchCooperativeKernel);
    (void)hKernel, (void)pLaunchFuncArgs, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return launch(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernelIndirect);
    (void)hKernel, (void)pLaunchArgumentsBuffer, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return launch(hCommandList);
}

static ze_result_t ZE_APICALL
mock_CommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels,
    ze_kernel_handle_t *phKernels, const uint32_t *pCountBuffer,
    const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchMultipleKernelsIndirect);
    (void)hSignalEvent;
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    ZE_MOCK_CHECK_POINTER(phKernels);
    ZE_MOCK_CHECK_POINTER(pCountBuffer);
    ZE_MOCK_CHECK_POINTER(pLaunchArgumentsBuffer);
    ZE_MOCK_CHECK_WAIT_EVENTS(numWaitEvents, phWaitEvents);
    return numKernels > 0
               ? ze_mock_refuse_handle(ZE_MOCK_FAMILY_KERNELS, "kernel")
               : ze_mock_refuse(ZE_MOCK_FAMILY_KERNELS,
                                ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// Level Zero 1.14.
static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernelWithParameters(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pGroupCounts, const void *pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernelWithParameters);
    (void)hKernel, (void)pGroupCounts, (void)pNext, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return launch(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendLaunchKernelWithArguments(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts, const ze_mock_group_size_t groupSizes,
    void **pArguments, const void *pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendLaunchKernelWithArguments);
    (void)hKernel, (void)groupCounts, (void)groupSizes, (void)pArguments;
    (void)pNext, (void)hSignalEvent, (void)numWaitEvents, (void)phWaitEvents;
    return launch(hCommandList);
}

void ze_mock_fill_command_list_kernels(ze_mock_command_list_dditable_t *t) {
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

// Atomic access attributes (1.7)
// ----------------------------------------------------

// The ze_memory_atomic_attr_exp_flag_t bits: 7 of them.
#define ATOMIC_ATTR_FLAGS 0x7fu

static ze_result_t ZE_APICALL mock_MemSetAtomicAccessAttributeExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const void *ptr,
    size_t size, uint32_t attr) {
    ZE_MOCK_ENTER(zeMemSetAtomicAccessAttributeExp);
    (void)size;
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    ZE_MOCK_CHECK_POINTER(ptr);
    if (attr & ~ATOMIC_ATTR_FLAGS) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ze_mock_refuse(ZE_MOCK_FAMILY_KERNELS,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

static ze_result_t ZE_APICALL mock_MemGetAtomicAccessAttributeExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const void *ptr,
    size_t size, uint32_t *pAttr) {
    ZE_MOCK_ENTER(zeMemGetAtomicAccessAttributeExp);
    (void)size;
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    ZE_MOCK_CHECK_POINTER(ptr);
    ZE_MOCK_CHECK_POINTER(pAttr);
    return ze_mock_refuse(ZE_MOCK_FAMILY_KERNELS,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

void ze_mock_fill_mem_exp_kernels(ze_mock_mem_exp_dditable_t *t) {
    t->pfnSetAtomicAccessAttributeExp = mock_MemSetAtomicAccessAttributeExp;
    t->pfnGetAtomicAccessAttributeExp = mock_MemGetAtomicAccessAttributeExp;
}
