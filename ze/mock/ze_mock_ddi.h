// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The tables of entry points a newer Level Zero loader asks a driver to
// fill, as the published headers of API 1.14 lay them out (ze_ddi.h,
// zes_ddi.h). The driver is built with Debian's headers, API 1.4, which
// stop at the 1.4 layouts; this header declares what later versions
// append, written from the specification, version by version.
//
// A table only ever grows at its end, so each newer layout here is the 1.4
// table (member v1_4, the struct of the installed ze_ddi.h) followed by the
// entries each later version appended, in the published order, each group
// marked with the version it arrived in. Tables that are new after 1.4 are
// declared whole. A loader passes the API version it was built for, and
// its table has room for the entries of that version and older only: the
// getters (ze_mock_tables.c) copy no more than that many entries, as the
// ZE_MOCK_LAYOUT_* lists below count them, version by version.
//
// Argument types that the 1.4 headers lack are declared here under a
// ze_mock_ prefix when the driver reads them, and passed as void pointers
// (the same ABI) when it never looks inside.

#ifndef UMF_GPU_ZE_MOCK_DDI_H
#define UMF_GPU_ZE_MOCK_DDI_H 1

#include <stddef.h>
#include <stdint.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_api.h>
#include <level_zero/zes_ddi.h>

#define ZE_MOCK_API_VERSION(minor) ZE_MAKE_VERSION(1, minor)
#define ZE_MOCK_API_VERSION_1_6 ZE_MOCK_API_VERSION(6)
// The newest version whose tables are declared here: what the driver
// reports (zeDriverGetApiVersion) and fills at most.
#define ZE_MOCK_API_VERSION_NEWEST ZE_MOCK_API_VERSION(14)
// The newest version any table has an entry of: one entry of 1.15
// (zePhysicalMemGetProperties), which clients need and which needs nothing
// else of 1.15.
#define ZE_MOCK_API_VERSION_TABLES ZE_MOCK_API_VERSION(15)

// ---- Types of 1.5 and later that the driver reads --------------------------

// zeInitDrivers (1.10): which kinds of driver to initialize.
#define ZE_MOCK_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC 0x00020021
#define ZE_MOCK_INIT_DRIVER_TYPE_FLAG_GPU 0x1u
#define ZE_MOCK_INIT_DRIVER_TYPE_FLAG_NPU 0x2u
typedef struct ze_mock_init_driver_type_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint32_t flags; // ze_init_driver_type_flags_t
} ze_mock_init_driver_type_desc_t;

// zeCommandListAppendLaunchKernelWithArguments (1.14) takes it by value.
typedef struct ze_mock_group_size_t {
    uint32_t groupSizeX;
    uint32_t groupSizeY;
    uint32_t groupSizeZ;
} ze_mock_group_size_t;

// zePhysicalMemGetProperties (1.15): what a physical memory object is.
#define ZE_MOCK_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES 0x00020040
typedef struct ze_mock_physical_mem_properties_t {
    ze_structure_type_t stype;
    void *pNext;
    uint64_t id;   // [out] unique identifier of the object
    uint64_t size; // [out] its size in bytes
} ze_mock_physical_mem_properties_t;

// Handles of objects of 1.7 and later (ray tracing, external semaphores).
typedef struct ze_mock_rtas_builder_handle *ze_mock_rtas_builder_handle_t;
typedef struct ze_mock_rtas_parallel_operation_handle
    *ze_mock_rtas_parallel_operation_handle_t;
typedef struct ze_mock_external_semaphore_handle
    *ze_mock_external_semaphore_handle_t;
// ze_rtas_format_exp_t (1.7), ze_rtas_format_ext_t (1.13): enumerations.
typedef uint32_t ze_mock_rtas_format_t;

// ---- Function pointers of entries of 1.5 and later -------------------------

#define ZE_MOCK_PFN(name, ...)                                                 \
    typedef ze_result_t(ZE_APICALL *ze_mock_pfn##name##_t)(__VA_ARGS__)

// Global
ZE_MOCK_PFN(InitDrivers, uint32_t *, ze_driver_handle_t *,
            ze_mock_init_driver_type_desc_t *);
// Driver
ZE_MOCK_PFN(DriverGetLastErrorDescription, ze_driver_handle_t, const char **);
ZE_MOCK_PFN(DriverRTASFormatCompatibilityCheck, ze_driver_handle_t,
            ze_mock_rtas_format_t, ze_mock_rtas_format_t);
typedef ze_context_handle_t(ZE_APICALL *ze_mock_pfnDriverGetDefaultContext_t)(
    ze_driver_handle_t);
// Device
ZE_MOCK_PFN(DeviceGetRootDevice, ze_device_handle_t, ze_device_handle_t *);
ZE_MOCK_PFN(DeviceImportExternalSemaphoreExt, ze_device_handle_t,
            const void * /* ze_external_semaphore_ext_desc_t */,
            ze_mock_external_semaphore_handle_t *);
ZE_MOCK_PFN(DeviceReleaseExternalSemaphoreExt,
            ze_mock_external_semaphore_handle_t);
ZE_MOCK_PFN(DeviceGetVectorWidthPropertiesExt, ze_device_handle_t, uint32_t *,
            void * /* ze_device_vector_width_properties_ext_t */);
ZE_MOCK_PFN(DeviceSynchronize, ze_device_handle_t);
// Physical memory
ZE_MOCK_PFN(PhysicalMemGetProperties, ze_context_handle_t,
            ze_physical_mem_handle_t, ze_mock_physical_mem_properties_t *);
// Command queue
ZE_MOCK_PFN(CommandQueueGetOrdinal, ze_command_queue_handle_t, uint32_t *);
ZE_MOCK_PFN(CommandQueueGetIndex, ze_command_queue_handle_t, uint32_t *);
// Command list
ZE_MOCK_PFN(CommandListHostSynchronize, ze_command_list_handle_t, uint64_t);
ZE_MOCK_PFN(CommandListGetDeviceHandle, ze_command_list_handle_t,
            ze_device_handle_t *);
ZE_MOCK_PFN(CommandListGetContextHandle, ze_command_list_handle_t,
            ze_context_handle_t *);
ZE_MOCK_PFN(CommandListGetOrdinal, ze_command_list_handle_t, uint32_t *);
ZE_MOCK_PFN(CommandListImmediateGetIndex, ze_command_list_handle_t, uint32_t *);
ZE_MOCK_PFN(CommandListIsImmediate, ze_command_list_handle_t, ze_bool_t *);
ZE_MOCK_PFN(CommandListAppendExternalSemaphoresExt, ze_command_list_handle_t,
            uint32_t, ze_mock_external_semaphore_handle_t *,
            void * /* ze_external_semaphore_{signal,wait}_params_ext_t */,
            ze_event_handle_t, uint32_t, ze_event_handle_t *);
ZE_MOCK_PFN(CommandListAppendLaunchKernelWithParameters,
            ze_command_list_handle_t, ze_kernel_handle_t,
            const ze_group_count_t *, const void *, ze_event_handle_t, uint32_t,
            ze_event_handle_t *);
ZE_MOCK_PFN(CommandListAppendLaunchKernelWithArguments,
            ze_command_list_handle_t, ze_kernel_handle_t,
            const ze_group_count_t, const ze_mock_group_size_t, void **,
            const void *, ze_event_handle_t, uint32_t, ze_event_handle_t *);
// Command list, experimental (1.9)
ZE_MOCK_PFN(CommandListCreateCloneExp, ze_command_list_handle_t,
            ze_command_list_handle_t *);
ZE_MOCK_PFN(CommandListImmediateAppendCommandListsExp, ze_command_list_handle_t,
            uint32_t, ze_command_list_handle_t *, ze_event_handle_t, uint32_t,
            ze_event_handle_t *);
ZE_MOCK_PFN(CommandListGetNextCommandIdExp, ze_command_list_handle_t,
            const void * /* ze_mutable_command_id_exp_desc_t */, uint64_t *);
ZE_MOCK_PFN(CommandListUpdateMutableCommandsExp, ze_command_list_handle_t,
            const void * /* ze_mutable_commands_exp_desc_t */);
ZE_MOCK_PFN(CommandListUpdateMutableCommandSignalEventExp,
            ze_command_list_handle_t, uint64_t, ze_event_handle_t);
ZE_MOCK_PFN(CommandListUpdateMutableCommandWaitEventsExp,
            ze_command_list_handle_t, uint64_t, uint32_t, ze_event_handle_t *);
ZE_MOCK_PFN(CommandListGetNextCommandIdWithKernelsExp, ze_command_list_handle_t,
            const void *, uint32_t, ze_kernel_handle_t *, uint64_t *);
ZE_MOCK_PFN(CommandListUpdateMutableCommandKernelsExp, ze_command_list_handle_t,
            uint32_t, uint64_t *, ze_kernel_handle_t *);
// Image
ZE_MOCK_PFN(ImageViewCreateExt, ze_context_handle_t, ze_device_handle_t,
            const ze_image_desc_t *, ze_image_handle_t, ze_image_handle_t *);
ZE_MOCK_PFN(ImageGetDeviceOffsetExp, ze_image_handle_t, uint64_t *);
// Memory
ZE_MOCK_PFN(MemPutIpcHandle, ze_context_handle_t, ze_ipc_mem_handle_t);
ZE_MOCK_PFN(MemGetPitchFor2dImage, ze_context_handle_t, ze_device_handle_t,
            size_t, size_t, unsigned int, size_t *);
ZE_MOCK_PFN(MemGetIpcHandleFromFileDescriptorExp, ze_context_handle_t, uint64_t,
            ze_ipc_mem_handle_t *);
ZE_MOCK_PFN(MemGetFileDescriptorFromIpcHandleExp, ze_context_handle_t,
            ze_ipc_mem_handle_t, uint64_t *);
ZE_MOCK_PFN(MemSetAtomicAccessAttributeExp, ze_context_handle_t,
            ze_device_handle_t, const void *, size_t,
            uint32_t /* ze_memory_atomic_attr_exp_flags_t */);
ZE_MOCK_PFN(MemGetAtomicAccessAttributeExp, ze_context_handle_t,
            ze_device_handle_t, const void *, size_t, uint32_t *);
// Event pool
ZE_MOCK_PFN(EventPoolPutIpcHandle, ze_context_handle_t,
            ze_ipc_event_pool_handle_t);
ZE_MOCK_PFN(EventPoolGetContextHandle, ze_event_pool_handle_t,
            ze_context_handle_t *);
ZE_MOCK_PFN(EventPoolGetFlags, ze_event_pool_handle_t, ze_event_pool_flags_t *);
// Event
ZE_MOCK_PFN(
    EventQueryKernelTimestampsExt, ze_event_handle_t, ze_device_handle_t,
    uint32_t *,
    void * /* ze_event_query_kernel_timestamps_results_ext_properties_t */);
ZE_MOCK_PFN(EventGetEventPool, ze_event_handle_t, ze_event_pool_handle_t *);
ZE_MOCK_PFN(EventGetSignalScope, ze_event_handle_t, ze_event_scope_flags_t *);
ZE_MOCK_PFN(EventGetWaitScope, ze_event_handle_t, ze_event_scope_flags_t *);
// Kernel, experimental
ZE_MOCK_PFN(KernelGetBinaryExp, ze_kernel_handle_t, size_t *, uint8_t *);
ZE_MOCK_PFN(KernelGetAllocationPropertiesExp, ze_kernel_handle_t, uint32_t *,
            void * /* ze_kernel_allocation_exp_properties_t */);
// Ray tracing acceleration structures: the builder and the parallel
// operation (1.7 "Exp", 1.13 "Ext": the same arguments).
ZE_MOCK_PFN(RTASBuilderCreate, ze_driver_handle_t,
            const void * /* ze_rtas_builder_ex{p,t}_desc_t */,
            ze_mock_rtas_builder_handle_t *);
ZE_MOCK_PFN(RTASBuilderGetBuildProperties, ze_mock_rtas_builder_handle_t,
            const void * /* ze_rtas_builder_build_op_ex{p,t}_desc_t */,
            void * /* ze_rtas_builder_ex{p,t}_properties_t */);
ZE_MOCK_PFN(RTASBuilderBuild, ze_mock_rtas_builder_handle_t, const void *,
            void *, size_t, void *, size_t,
            ze_mock_rtas_parallel_operation_handle_t, void *,
            void * /* ze_rtas_aabb_ex{p,t}_t */, size_t *);
ZE_MOCK_PFN(RTASBuilderCommandListAppendCopyExt, ze_command_list_handle_t,
            void *, const void *, size_t, ze_event_handle_t, uint32_t,
            ze_event_handle_t *);
ZE_MOCK_PFN(RTASBuilderDestroy, ze_mock_rtas_builder_handle_t);
ZE_MOCK_PFN(RTASParallelOperationCreate, ze_driver_handle_t,
            ze_mock_rtas_parallel_operation_handle_t *);
ZE_MOCK_PFN(RTASParallelOperationGetProperties,
            ze_mock_rtas_parallel_operation_handle_t,
            void * /* ze_rtas_parallel_operation_ex{p,t}_properties_t */);
ZE_MOCK_PFN(RTASParallelOperationJoin,
            ze_mock_rtas_parallel_operation_handle_t);
ZE_MOCK_PFN(RTASParallelOperationDestroy,
            ze_mock_rtas_parallel_operation_handle_t);

// Sysman
typedef ze_result_t(ZE_APICALL *zes_mock_pfnInit_t)(uint32_t /* flags */);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDriverGet_t)(uint32_t *,
                                                         zes_driver_handle_t *);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDriverGetExtensionProperties_t)(
    zes_driver_handle_t, uint32_t *,
    void * /* zes_driver_extension_properties_t */);
typedef ze_result_t(
    ZE_APICALL *zes_mock_pfnDriverGetExtensionFunctionAddress_t)(
    zes_driver_handle_t, const char *, void **);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceGet_t)(zes_driver_handle_t,
                                                         uint32_t *,
                                                         zes_device_handle_t *);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceSetOverclockWaiver_t)(
    zes_device_handle_t);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceGetOverclockDomains_t)(
    zes_device_handle_t, uint32_t *);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceGetOverclockControls_t)(
    zes_device_handle_t, uint32_t /* zes_overclock_domain_t */, uint32_t *);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceResetOverclockSettings_t)(
    zes_device_handle_t, ze_bool_t);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceReadOverclockState_t)(
    zes_device_handle_t, uint32_t * /* zes_overclock_mode_t */, ze_bool_t *,
    ze_bool_t *, uint32_t * /* zes_pending_action_t */, ze_bool_t *);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceEnumOverclockDomains_t)(
    zes_device_handle_t, uint32_t *, void ** /* zes_overclock_handle_t */);
typedef ze_result_t(ZE_APICALL *zes_mock_pfnDeviceResetExt_t)(
    zes_device_handle_t, void * /* zes_reset_properties_t */);

// ---- The newer layouts -----------------------------------------------------

// zeGetGlobalProcAddrTable
typedef struct ze_mock_global_dditable_t {
    ze_global_dditable_t v1_4;
    // 1.10
    ze_mock_pfnInitDrivers_t pfnInitDrivers;
} ze_mock_global_dditable_t;

// zeGetDriverProcAddrTable
typedef struct ze_mock_driver_dditable_t {
    ze_driver_dditable_t v1_4;
    // 1.6
    ze_mock_pfnDriverGetLastErrorDescription_t pfnGetLastErrorDescription;
    // 1.13
    ze_mock_pfnDriverRTASFormatCompatibilityCheck_t
        pfnRTASFormatCompatibilityCheckExt;
    // 1.14
    ze_mock_pfnDriverGetDefaultContext_t pfnGetDefaultContext;
} ze_mock_driver_dditable_t;

// zeGetDriverExpProcAddrTable, new in 1.7
typedef struct ze_mock_driver_exp_dditable_t {
    ze_mock_pfnDriverRTASFormatCompatibilityCheck_t
        pfnRTASFormatCompatibilityCheckExp;
} ze_mock_driver_exp_dditable_t;

// zeGetDeviceProcAddrTable
typedef struct ze_mock_device_dditable_t {
    ze_device_dditable_t v1_4;
    // 1.7
    ze_mock_pfnDeviceGetRootDevice_t pfnGetRootDevice;
    // 1.12
    ze_mock_pfnDeviceImportExternalSemaphoreExt_t pfnImportExternalSemaphoreExt;
    ze_mock_pfnDeviceReleaseExternalSemaphoreExt_t
        pfnReleaseExternalSemaphoreExt;
    // 1.13
    ze_mock_pfnDeviceGetVectorWidthPropertiesExt_t
        pfnGetVectorWidthPropertiesExt;
    // 1.14
    ze_mock_pfnDeviceSynchronize_t pfnSynchronize;
} ze_mock_device_dditable_t;

// zeGetCommandQueueProcAddrTable
typedef struct ze_mock_command_queue_dditable_t {
    ze_command_queue_dditable_t v1_4;
    // 1.9
    ze_mock_pfnCommandQueueGetOrdinal_t pfnGetOrdinal;
    ze_mock_pfnCommandQueueGetIndex_t pfnGetIndex;
} ze_mock_command_queue_dditable_t;

// zeGetCommandListProcAddrTable
typedef struct ze_mock_command_list_dditable_t {
    ze_command_list_dditable_t v1_4;
    // 1.6
    ze_mock_pfnCommandListHostSynchronize_t pfnHostSynchronize;
    // 1.9
    ze_mock_pfnCommandListGetDeviceHandle_t pfnGetDeviceHandle;
    ze_mock_pfnCommandListGetContextHandle_t pfnGetContextHandle;
    ze_mock_pfnCommandListGetOrdinal_t pfnGetOrdinal;
    ze_mock_pfnCommandListImmediateGetIndex_t pfnImmediateGetIndex;
    ze_mock_pfnCommandListIsImmediate_t pfnIsImmediate;
    // 1.12
    ze_mock_pfnCommandListAppendExternalSemaphoresExt_t
        pfnAppendSignalExternalSemaphoreExt;
    ze_mock_pfnCommandListAppendExternalSemaphoresExt_t
        pfnAppendWaitExternalSemaphoreExt;
    // 1.14
    ze_mock_pfnCommandListAppendLaunchKernelWithParameters_t
        pfnAppendLaunchKernelWithParameters;
    ze_mock_pfnCommandListAppendLaunchKernelWithArguments_t
        pfnAppendLaunchKernelWithArguments;
} ze_mock_command_list_dditable_t;

// zeGetCommandListExpProcAddrTable, new in 1.9
typedef struct ze_mock_command_list_exp_dditable_t {
    // 1.9
    ze_mock_pfnCommandListCreateCloneExp_t pfnCreateCloneExp;
    ze_mock_pfnCommandListImmediateAppendCommandListsExp_t
        pfnImmediateAppendCommandListsExp;
    ze_mock_pfnCommandListGetNextCommandIdExp_t pfnGetNextCommandIdExp;
    ze_mock_pfnCommandListUpdateMutableCommandsExp_t
        pfnUpdateMutableCommandsExp;
    ze_mock_pfnCommandListUpdateMutableCommandSignalEventExp_t
        pfnUpdateMutableCommandSignalEventExp;
    ze_mock_pfnCommandListUpdateMutableCommandWaitEventsExp_t
        pfnUpdateMutableCommandWaitEventsExp;
    // 1.10
    ze_mock_pfnCommandListGetNextCommandIdWithKernelsExp_t
        pfnGetNextCommandIdWithKernelsExp;
    ze_mock_pfnCommandListUpdateMutableCommandKernelsExp_t
        pfnUpdateMutableCommandKernelsExp;
} ze_mock_command_list_exp_dditable_t;

// zeGetImageProcAddrTable
typedef struct ze_mock_image_dditable_t {
    ze_image_dditable_t v1_4;
    // 1.5
    ze_mock_pfnImageViewCreateExt_t pfnViewCreateExt;
} ze_mock_image_dditable_t;

// zeGetImageExpProcAddrTable
typedef struct ze_mock_image_exp_dditable_t {
    ze_image_exp_dditable_t v1_4;
    // 1.9
    ze_mock_pfnImageGetDeviceOffsetExp_t pfnGetDeviceOffsetExp;
} ze_mock_image_exp_dditable_t;

// zeGetMemProcAddrTable
typedef struct ze_mock_mem_dditable_t {
    ze_mem_dditable_t v1_4;
    // 1.6
    ze_mock_pfnMemPutIpcHandle_t pfnPutIpcHandle;
    // 1.9
    ze_mock_pfnMemGetPitchFor2dImage_t pfnGetPitchFor2dImage;
} ze_mock_mem_dditable_t;

// zeGetPhysicalMemProcAddrTable. Its 1.15 entry is the one entry past
// 1.14 here: the Unified Runtime's v2 adapter needs it (a loader of 1.15
// on fills it; older ones reach it by name, through
// zeDriverGetExtensionFunctionAddress).
typedef struct ze_mock_physical_mem_dditable_t {
    ze_physical_mem_dditable_t v1_4;
    // 1.15
    ze_mock_pfnPhysicalMemGetProperties_t pfnGetProperties;
} ze_mock_physical_mem_dditable_t;

// zeGetMemExpProcAddrTable, new in 1.6
typedef struct ze_mock_mem_exp_dditable_t {
    // 1.6
    ze_mock_pfnMemGetIpcHandleFromFileDescriptorExp_t
        pfnGetIpcHandleFromFileDescriptorExp;
    ze_mock_pfnMemGetFileDescriptorFromIpcHandleExp_t
        pfnGetFileDescriptorFromIpcHandleExp;
    // 1.7
    ze_mock_pfnMemSetAtomicAccessAttributeExp_t pfnSetAtomicAccessAttributeExp;
    ze_mock_pfnMemGetAtomicAccessAttributeExp_t pfnGetAtomicAccessAttributeExp;
} ze_mock_mem_exp_dditable_t;

// zeGetEventPoolProcAddrTable
typedef struct ze_mock_event_pool_dditable_t {
    ze_event_pool_dditable_t v1_4;
    // 1.6
    ze_mock_pfnEventPoolPutIpcHandle_t pfnPutIpcHandle;
    // 1.9
    ze_mock_pfnEventPoolGetContextHandle_t pfnGetContextHandle;
    ze_mock_pfnEventPoolGetFlags_t pfnGetFlags;
} ze_mock_event_pool_dditable_t;

// zeGetEventProcAddrTable
typedef struct ze_mock_event_dditable_t {
    ze_event_dditable_t v1_4;
    // 1.6
    ze_mock_pfnEventQueryKernelTimestampsExt_t pfnQueryKernelTimestampsExt;
    // 1.9
    ze_mock_pfnEventGetEventPool_t pfnGetEventPool;
    ze_mock_pfnEventGetSignalScope_t pfnGetSignalScope;
    ze_mock_pfnEventGetWaitScope_t pfnGetWaitScope;
} ze_mock_event_dditable_t;

// zeGetKernelExpProcAddrTable
typedef struct ze_mock_kernel_exp_dditable_t {
    ze_kernel_exp_dditable_t v1_4;
    // 1.11
    ze_mock_pfnKernelGetBinaryExp_t pfnGetBinaryExp;
    // 1.14
    ze_mock_pfnKernelGetAllocationPropertiesExp_t pfnGetAllocationPropertiesExp;
} ze_mock_kernel_exp_dditable_t;

// zeGetRTASBuilderExpProcAddrTable (1.7) and zeGetRTASBuilderProcAddrTable
// (1.13, whose entries are named *Ext and add the copy).
typedef struct ze_mock_rtas_builder_exp_dditable_t {
    ze_mock_pfnRTASBuilderCreate_t pfnCreateExp;
    ze_mock_pfnRTASBuilderGetBuildProperties_t pfnGetBuildPropertiesExp;
    ze_mock_pfnRTASBuilderBuild_t pfnBuildExp;
    ze_mock_pfnRTASBuilderDestroy_t pfnDestroyExp;
} ze_mock_rtas_builder_exp_dditable_t;

typedef struct ze_mock_rtas_builder_dditable_t {
    ze_mock_pfnRTASBuilderCreate_t pfnCreateExt;
    ze_mock_pfnRTASBuilderGetBuildProperties_t pfnGetBuildPropertiesExt;
    ze_mock_pfnRTASBuilderBuild_t pfnBuildExt;
    ze_mock_pfnRTASBuilderCommandListAppendCopyExt_t
        pfnCommandListAppendCopyExt;
    ze_mock_pfnRTASBuilderDestroy_t pfnDestroyExt;
} ze_mock_rtas_builder_dditable_t;

// zeGetRTASParallelOperationExpProcAddrTable (1.7) and
// zeGetRTASParallelOperationProcAddrTable (1.13).
typedef struct ze_mock_rtas_parallel_operation_dditable_t {
    ze_mock_pfnRTASParallelOperationCreate_t pfnCreate;
    ze_mock_pfnRTASParallelOperationGetProperties_t pfnGetProperties;
    ze_mock_pfnRTASParallelOperationJoin_t pfnJoin;
    ze_mock_pfnRTASParallelOperationDestroy_t pfnDestroy;
} ze_mock_rtas_parallel_operation_dditable_t;

// zesGetGlobalProcAddrTable, new in 1.5
typedef struct zes_mock_global_dditable_t {
    zes_mock_pfnInit_t pfnInit;
} zes_mock_global_dditable_t;

// zesGetDriverProcAddrTable
typedef struct zes_mock_driver_dditable_t {
    zes_driver_dditable_t v1_4;
    // 1.5
    zes_mock_pfnDriverGet_t pfnGet;
    // 1.8
    zes_mock_pfnDriverGetExtensionProperties_t pfnGetExtensionProperties;
    zes_mock_pfnDriverGetExtensionFunctionAddress_t
        pfnGetExtensionFunctionAddress;
} zes_mock_driver_dditable_t;

// zesGetDeviceProcAddrTable
typedef struct zes_mock_device_dditable_t {
    zes_device_dditable_t v1_4;
    // 1.5
    zes_mock_pfnDeviceGet_t pfnGet;
    zes_mock_pfnDeviceSetOverclockWaiver_t pfnSetOverclockWaiver;
    zes_mock_pfnDeviceGetOverclockDomains_t pfnGetOverclockDomains;
    zes_mock_pfnDeviceGetOverclockControls_t pfnGetOverclockControls;
    zes_mock_pfnDeviceResetOverclockSettings_t pfnResetOverclockSettings;
    zes_mock_pfnDeviceReadOverclockState_t pfnReadOverclockState;
    zes_mock_pfnDeviceEnumOverclockDomains_t pfnEnumOverclockDomains;
    // 1.7
    zes_mock_pfnDeviceResetExt_t pfnResetExt;
} zes_mock_device_dditable_t;

// ---- How many entries each version's table has -----------------------------
//
// X(minor, entries): from 1.minor on, the table has `entries` entries (up
// to the next line). The 1.4 headers' tables agree with the last line at
// or below 1.4 (checked in ze_mock_tables.c); the last line of each list
// is the whole layout above.

#define ZE_MOCK_LAYOUT_GLOBAL(X) X(0, 1) X(10, 2)
#define ZE_MOCK_LAYOUT_DRIVER(X) X(0, 5) X(1, 6) X(6, 7) X(13, 8) X(14, 9)
#define ZE_MOCK_LAYOUT_DRIVER_EXP(X) X(7, 1)
#define ZE_MOCK_LAYOUT_DEVICE(X)                                               \
    X(0, 14) X(1, 15) X(2, 17) X(3, 18) X(7, 19) X(12, 21) X(13, 22) X(14, 23)
#define ZE_MOCK_LAYOUT_DEVICE_EXP(X) X(4, 1)
#define ZE_MOCK_LAYOUT_CONTEXT(X) X(0, 8) X(1, 9)
#define ZE_MOCK_LAYOUT_COMMAND_QUEUE(X) X(0, 4) X(9, 6)
#define ZE_MOCK_LAYOUT_COMMAND_LIST(X)                                         \
    X(0, 26) X(3, 28) X(6, 29) X(9, 34) X(12, 36) X(14, 38)
#define ZE_MOCK_LAYOUT_COMMAND_LIST_EXP(X) X(9, 6) X(10, 8)
#define ZE_MOCK_LAYOUT_IMAGE(X) X(0, 3) X(3, 4) X(5, 5)
#define ZE_MOCK_LAYOUT_IMAGE_EXP(X) X(2, 2) X(9, 3)
#define ZE_MOCK_LAYOUT_MEM(X) X(0, 9) X(3, 10) X(6, 11) X(9, 12)
#define ZE_MOCK_LAYOUT_MEM_EXP(X) X(6, 2) X(7, 4)
#define ZE_MOCK_LAYOUT_FENCE(X) X(0, 5)
#define ZE_MOCK_LAYOUT_EVENT_POOL(X) X(0, 5) X(6, 6) X(9, 8)
#define ZE_MOCK_LAYOUT_EVENT(X) X(0, 7) X(6, 8) X(9, 11)
#define ZE_MOCK_LAYOUT_EVENT_EXP(X) X(2, 1)
#define ZE_MOCK_LAYOUT_MODULE(X) X(0, 8) X(3, 9)
#define ZE_MOCK_LAYOUT_MODULE_BUILD_LOG(X) X(0, 2)
#define ZE_MOCK_LAYOUT_KERNEL(X) X(0, 12)
#define ZE_MOCK_LAYOUT_KERNEL_EXP(X) X(1, 1) X(2, 2) X(11, 3) X(14, 4)
#define ZE_MOCK_LAYOUT_SAMPLER(X) X(0, 2)
#define ZE_MOCK_LAYOUT_PHYSICAL_MEM(X) X(0, 2) X(15, 3)
#define ZE_MOCK_LAYOUT_VIRTUAL_MEM(X) X(0, 7)
#define ZE_MOCK_LAYOUT_FABRIC_VERTEX_EXP(X) X(4, 4)
#define ZE_MOCK_LAYOUT_FABRIC_EDGE_EXP(X) X(4, 3)
#define ZE_MOCK_LAYOUT_RTAS_BUILDER_EXP(X) X(7, 4)
#define ZE_MOCK_LAYOUT_RTAS_PARALLEL_OPERATION_EXP(X) X(7, 4)
#define ZE_MOCK_LAYOUT_RTAS_BUILDER(X) X(13, 5)
#define ZE_MOCK_LAYOUT_RTAS_PARALLEL_OPERATION(X) X(13, 4)

// Sysman: zes_ddi.h 1.4, then what 1.5, 1.7 and 1.8 appended.
#define ZES_MOCK_LAYOUT_GLOBAL(X) X(5, 1)
#define ZES_MOCK_LAYOUT_DRIVER(X) X(0, 1) X(1, 2) X(5, 3) X(8, 5)
// zesDeviceGetCardPowerDomain (1.3) sits among entries of 1.0: the tables
// of 1.0 to 1.2 are no prefix of the later ones, so those loaders get no
// entry of it.
#define ZES_MOCK_LAYOUT_DEVICE(X) X(3, 25) X(4, 29) X(5, 36) X(7, 37)
#define ZES_MOCK_LAYOUT_SCHEDULER(X) X(0, 8)
#define ZES_MOCK_LAYOUT_PERFORMANCE_FACTOR(X) X(0, 3)
#define ZES_MOCK_LAYOUT_POWER(X) X(0, 6) X(4, 8)
#define ZES_MOCK_LAYOUT_FREQUENCY(X) X(0, 17)
#define ZES_MOCK_LAYOUT_ENGINE(X) X(0, 2)
#define ZES_MOCK_LAYOUT_STANDBY(X) X(0, 3)
#define ZES_MOCK_LAYOUT_FIRMWARE(X) X(0, 2)
#define ZES_MOCK_LAYOUT_MEMORY(X) X(0, 3)
#define ZES_MOCK_LAYOUT_FABRIC_PORT(X) X(0, 6)
#define ZES_MOCK_LAYOUT_TEMPERATURE(X) X(0, 4)
#define ZES_MOCK_LAYOUT_PSU(X) X(0, 2)
#define ZES_MOCK_LAYOUT_FAN(X) X(0, 6)
#define ZES_MOCK_LAYOUT_LED(X) X(0, 4)
#define ZES_MOCK_LAYOUT_RAS(X) X(0, 4)
#define ZES_MOCK_LAYOUT_DIAGNOSTICS(X) X(0, 3)

// The getters of the tables that are new after 1.4 (libze_mock.so exports
// them; the 1.4 headers declare the others).
#define ZE_MOCK_DECLARE_GETTER(getter, type)                                   \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version,       \
                                               type *table)
ZE_MOCK_DECLARE_GETTER(zeGetDriverExpProcAddrTable,
                       ze_mock_driver_exp_dditable_t);
ZE_MOCK_DECLARE_GETTER(zeGetCommandListExpProcAddrTable,
                       ze_mock_command_list_exp_dditable_t);
ZE_MOCK_DECLARE_GETTER(zeGetMemExpProcAddrTable, ze_mock_mem_exp_dditable_t);
ZE_MOCK_DECLARE_GETTER(zeGetRTASBuilderExpProcAddrTable,
                       ze_mock_rtas_builder_exp_dditable_t);
ZE_MOCK_DECLARE_GETTER(zeGetRTASParallelOperationExpProcAddrTable,
                       ze_mock_rtas_parallel_operation_dditable_t);
ZE_MOCK_DECLARE_GETTER(zeGetRTASBuilderProcAddrTable,
                       ze_mock_rtas_builder_dditable_t);
ZE_MOCK_DECLARE_GETTER(zeGetRTASParallelOperationProcAddrTable,
                       ze_mock_rtas_parallel_operation_dditable_t);
ZE_MOCK_DECLARE_GETTER(zesGetGlobalProcAddrTable, zes_mock_global_dditable_t);

// The names the 1.6 layouts had in this driver; ze_mock_events.c still
// fills the event pool's by it.
typedef ze_mock_event_pool_dditable_t ze_event_pool_dditable_1_6_t;

#endif // UMF_GPU_ZE_MOCK_DDI_H
