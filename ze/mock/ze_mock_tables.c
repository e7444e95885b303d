// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the driver exports: the zeGet*ProcAddrTable functions the loader
// asks for, and the control API (umfZeMock*, include/umf/gpu_mock.h).
// The loader's zeInit fails unless every getter it looks up exists and
// succeeds, so the driver exports all of them; those of areas it does not
// emulate leave their tables as they are (NULL entries), and the loader
// (or its validation layer) reports such calls as unsupported.
//
// A loader passes the API version it was built for. A 1.6 or later one
// (loader v1.10.0 and later) gets the entry points 1.6 added for memory and
// IPC too (ze_mock_ddi_1_6.h): its tables have room for them, an older
// loader's do not, so they are filled only for 1.6 and later. The tables
// that only newer loaders ask for exist as getters too, empty where the
// driver emulates nothing of them.

#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include "mock_control.h"
#include "ze_mock_internal.h"

UMF_MOCK_DEFINE_CONTROL_API(umfZeMock, &ze_mock_desc)

// Any 1.x loader may ask; the tables hold what the 1.x headers define.
static ze_result_t check_request(ze_api_version_t version, const void *table) {
    if (table == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT)) {
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    }
    return ZE_RESULT_SUCCESS;
}

#define ZE_MOCK_TABLE(getter, type, fill)                                      \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version,       \
                                               type *table) {                  \
        ze_result_t r = check_request(version, table);                         \
        if (r == ZE_RESULT_SUCCESS) {                                          \
            fill(table);                                                       \
        }                                                                      \
        return r;                                                              \
    }

// A table that 1.6 extends: the 1.4 part always, the rest from 1.6 on.
#define ZE_MOCK_TABLE_1_6(getter, type, type_1_6, fill, fill_1_6)              \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version,       \
                                               type *table) {                  \
        ze_result_t r = check_request(version, table);                         \
        if (r == ZE_RESULT_SUCCESS) {                                          \
            fill(table);                                                       \
            if (version >= ZE_MOCK_API_VERSION_1_6) {                          \
                fill_1_6((type_1_6 *)table);                                   \
            }                                                                  \
        }                                                                      \
        return r;                                                              \
    }

#define ZE_MOCK_EMPTY_TABLE(getter, type)                                      \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version,       \
                                               type *table) {                  \
        return check_request(version, table);                                  \
    }

ZE_MOCK_TABLE(zeGetGlobalProcAddrTable, ze_global_dditable_t,
              ze_mock_fill_global)
ZE_MOCK_TABLE_1_6(zeGetDriverProcAddrTable, ze_driver_dditable_t,
                  ze_driver_dditable_1_6_t, ze_mock_fill_driver,
                  ze_mock_fill_driver_1_6)
ZE_MOCK_TABLE(zeGetDeviceProcAddrTable, ze_device_dditable_t,
              ze_mock_fill_device)
ZE_MOCK_TABLE(zeGetContextProcAddrTable, ze_context_dditable_t,
              ze_mock_fill_context)
ZE_MOCK_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t,
              ze_mock_fill_command_queue)
ZE_MOCK_TABLE(zeGetCommandListProcAddrTable, ze_command_list_dditable_t,
              ze_mock_fill_command_list)
ZE_MOCK_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t, ze_mock_fill_fence)
ZE_MOCK_TABLE_1_6(zeGetEventPoolProcAddrTable, ze_event_pool_dditable_t,
                  ze_event_pool_dditable_1_6_t, ze_mock_fill_event_pool,
                  ze_mock_fill_event_pool_1_6)
ZE_MOCK_TABLE(zeGetEventProcAddrTable, ze_event_dditable_t, ze_mock_fill_event)
ZE_MOCK_TABLE_1_6(zeGetMemProcAddrTable, ze_mem_dditable_t,
                  ze_mem_dditable_1_6_t, ze_mock_fill_mem, ze_mock_fill_mem_1_6)

// New in 1.6: asked for by 1.6 and later loaders only.
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemExpProcAddrTable(
    ze_api_version_t version, ze_mem_exp_dditable_1_6_t *table) {
    ze_result_t r = check_request(version, table);
    if (r == ZE_RESULT_SUCCESS && version >= ZE_MOCK_API_VERSION_1_6) {
        ze_mock_fill_mem_exp_1_6(table);
    }
    return r;
}
ZE_MOCK_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t,
              ze_mock_fill_virtual_mem)

ZE_MOCK_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
ZE_MOCK_EMPTY_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t)
ZE_MOCK_EMPTY_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
ZE_MOCK_EMPTY_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
ZE_MOCK_TABLE(zeGetModuleProcAddrTable, ze_module_dditable_t,
              ze_mock_fill_module)
ZE_MOCK_TABLE(zeGetModuleBuildLogProcAddrTable, ze_module_build_log_dditable_t,
              ze_mock_fill_module_build_log)
ZE_MOCK_EMPTY_TABLE(zeGetKernelProcAddrTable, ze_kernel_dditable_t)
ZE_MOCK_EMPTY_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t)
ZE_MOCK_EMPTY_TABLE(zeGetSamplerProcAddrTable, ze_sampler_dditable_t)
ZE_MOCK_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t,
              ze_mock_fill_physical_mem)
ZE_MOCK_EMPTY_TABLE(zeGetFabricVertexExpProcAddrTable,
                    ze_fabric_vertex_exp_dditable_t)
ZE_MOCK_EMPTY_TABLE(zeGetFabricEdgeExpProcAddrTable,
                    ze_fabric_edge_exp_dditable_t)
// Tables of later versions (1.7: driver and ray tracing extensions; 1.9:
// command list extensions), of which nothing is emulated; their layouts do
// not matter to a getter that fills nothing.
ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDriverExpProcAddrTable(ze_api_version_t, void *);
ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetRTASBuilderExpProcAddrTable(ze_api_version_t, void *);
ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetRTASParallelOperationExpProcAddrTable(ze_api_version_t, void *);
ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandListExpProcAddrTable(ze_api_version_t, void *);
ZE_MOCK_EMPTY_TABLE(zeGetDriverExpProcAddrTable, void)
ZE_MOCK_EMPTY_TABLE(zeGetRTASBuilderExpProcAddrTable, void)
ZE_MOCK_EMPTY_TABLE(zeGetRTASParallelOperationExpProcAddrTable, void)
ZE_MOCK_EMPTY_TABLE(zeGetCommandListExpProcAddrTable, void)

ZE_MOCK_EMPTY_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetMetricGroupExpProcAddrTable,
                    zet_metric_group_exp_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetMetricStreamerProcAddrTable,
                    zet_metric_streamer_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetMetricQueryPoolProcAddrTable,
                    zet_metric_query_pool_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)
ZE_MOCK_EMPTY_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)

ZE_MOCK_EMPTY_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetPerformanceFactorProcAddrTable,
                    zes_performance_factor_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
ZE_MOCK_EMPTY_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
