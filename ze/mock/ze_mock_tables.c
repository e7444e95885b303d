// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the driver exports: the zeGet*ProcAddrTable functions the loader
// asks for, and the control API (umfZeMock*, include/umf/gpu_mock.h).
// The loader's zeInit fails unless every getter it looks up exists and
// succeeds, so the driver exports all of them.
//
// A loader passes the API version it was built for, and its table has room
// for the entries of that version and older only. Each getter fills the
// whole layout the driver knows (ze_mock_ddi.h, API 1.14) in a table of its
// own, then copies as many entries as the requested version's table has
// (the ZE_MOCK_LAYOUT_* lists): a 1.4 loader (Debian's 1.8.12) gets the 1.4
// tables, a newer one what its version appended too, up to 1.14, and a
// table that is newer than the request is left untouched.

#include <string.h>

#include <level_zero/zet_ddi.h>

#include "mock_control.h"
#include "ze_mock_sysman.h"

UMF_MOCK_DEFINE_CONTROL_API(umfZeMock, &ze_mock_desc)

// Any 1.x loader may ask; it gets what its version has room for.
static ze_result_t check_request(ze_api_version_t version, const void *table) {
    if (table == NULL) {
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    }
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT)) {
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    }
    return ZE_RESULT_SUCCESS;
}

typedef struct layout_step_t {
    unsigned minor;   // from API 1.minor on
    unsigned entries; // the table has this many entries
} layout_step_t;

typedef void (*entry_t)(void);

// How many entries the table of `version` has, of a layout's steps.
static size_t entries_for(const layout_step_t *steps, size_t n,
                          ze_api_version_t version) {
    size_t entries = 0;
    for (size_t i = 0; i < n; i++) {
        if (ZE_MINOR_VERSION(version) >= steps[i].minor) {
            entries = steps[i].entries;
        }
    }
    return entries;
}

// The entries of a layout list, as constants: the last step's count, and
// the count at 1.4 (the steps ascend, so each later step at or below 1.4
// replaces the earlier one and none after it counts).
#define LAYOUT_STEP(minor, entries) {minor, entries},
#define LAYOUT_LAST(minor, entries) *0 + (entries)
#define LAYOUT_AT_1_4(minor, entries)                                          \
    *((minor) > 4) + ((minor) <= 4) * (entries)

static ze_result_t copy_table(void *table, const void *full,
                              const layout_step_t *steps, size_t n,
                              ze_api_version_t version) {
    ze_result_t r = check_request(version, table);
    if (r == ZE_RESULT_SUCCESS) {
        memcpy(table, full, entries_for(steps, n, version) * sizeof(entry_t));
    }
    return r;
}

// A getter of the table `api_type` (the caller's, of its version), whose
// whole layout is `full_type`, filled by fill(full_type *).
#define ZE_MOCK_GETTER_OF(getter, api_type, full_type, LAYOUT, fill)           \
    _Static_assert(sizeof(full_type) ==                                        \
                       (0 LAYOUT(LAYOUT_LAST)) * sizeof(entry_t),              \
                   #full_type ": the layout list counts every entry");         \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version,       \
                                               api_type *table) {              \
        static const layout_step_t steps[] = {LAYOUT(LAYOUT_STEP)};            \
        full_type full;                                                        \
        memset(&full, 0, sizeof(full));                                        \
        fill(&full);                                                           \
        return copy_table(table, &full, steps,                                 \
                          sizeof(steps) / sizeof(steps[0]), version);          \
    }

// A table of the 1.4 headers (`api_type`), and one they lack.
#define ZE_MOCK_GETTER(getter, api_type, full_type, LAYOUT, fill)              \
    _Static_assert(sizeof(api_type) ==                                         \
                       (0 LAYOUT(LAYOUT_AT_1_4)) * sizeof(entry_t),            \
                   #api_type ": the layout list agrees with the 1.4 headers"); \
    ZE_MOCK_GETTER_OF(getter, api_type, full_type, LAYOUT, fill)
#define ZE_MOCK_GETTER_NEW(getter, full_type, LAYOUT, fill)                    \
    ZE_MOCK_GETTER_OF(getter, full_type, full_type, LAYOUT, fill)

// ---- Tables several files fill ----------------------------------------------

static void fill_global(ze_mock_global_dditable_t *t) {
    ze_mock_fill_global(t); // ze_mock_driver.c: zeInit
    // With ZES_ENABLE_SYSMAN=1, zeInit initializes sysman too.
    ze_mock_core_ready_register(ze_mock_sysman_core_init);
}

static void fill_driver(ze_mock_driver_dditable_t *t) {
    ze_mock_fill_driver(t);            // ze_mock_driver.c
    ze_mock_fill_driver_context(t);    // ze_mock_context.c: the default one
    ze_mock_fill_driver_rtas(t);       // refused
    ze_mock_counter_events_register(); // by name: ze_mock_counter_event.c
}

static void fill_device(ze_mock_device_dditable_t *t) {
    ze_mock_fill_device(t);             // ze_mock_device.c
    ze_mock_fill_device_synchronize(t); // ze_mock_commands.c
    ze_mock_fill_device_semaphores(t);  // refused
}

static void fill_context(ze_context_dditable_t *t) {
    ze_mock_fill_context(t);         // ze_mock_context.c
    ze_mock_fill_context_barrier(t); // ze_mock_append.c
    ze_mock_fill_context_images(t);  // refused
}

static void fill_command_queue(ze_mock_command_queue_dditable_t *t) {
    ze_mock_fill_command_queue(t); // ze_mock_commands.c
}

static void fill_command_list(ze_mock_command_list_dditable_t *t) {
    ze_mock_fill_command_list(t);            // ze_mock_commands.c
    ze_mock_fill_command_list_append(t);     // ze_mock_append.c
    ze_mock_fill_command_list_launches(t);   // ze_mock_kernel.c
    ze_mock_fill_command_list_images(t);     // refused
    ze_mock_fill_command_list_semaphores(t); // refused
}

static void fill_command_list_exp(ze_mock_command_list_exp_dditable_t *t) {
    ze_mock_fill_command_list_exp(t); // ze_mock_commands.c
}

static void fill_mem(ze_mock_mem_dditable_t *t) {
    ze_mock_fill_mem(t);        // ze_mock_memory.c
    ze_mock_fill_mem_images(t); // refused
}

static void fill_mem_exp(ze_mock_mem_exp_dditable_t *t) {
    ze_mock_fill_mem_exp(t);         // ze_mock_memory.c
    ze_mock_fill_mem_exp_atomics(t); // refused
}

static void fill_event_pool(ze_mock_event_pool_dditable_t *t) {
    ze_mock_fill_event_pool(t); // ze_mock_events.c
}

static void fill_event(ze_mock_event_dditable_t *t) {
    ze_mock_fill_event(t); // ze_mock_events.c
}

static void fill_event_exp(ze_event_exp_dditable_t *t) {
    ze_mock_fill_event_exp(t); // ze_mock_events.c
}

// ---- Core tables
// --------------------------------------------------------------

ZE_MOCK_GETTER(zeGetGlobalProcAddrTable, ze_global_dditable_t,
               ze_mock_global_dditable_t, ZE_MOCK_LAYOUT_GLOBAL, fill_global)
ZE_MOCK_GETTER(zeGetDriverProcAddrTable, ze_driver_dditable_t,
               ze_mock_driver_dditable_t, ZE_MOCK_LAYOUT_DRIVER, fill_driver)
ZE_MOCK_GETTER_NEW(zeGetDriverExpProcAddrTable, ze_mock_driver_exp_dditable_t,
                   ZE_MOCK_LAYOUT_DRIVER_EXP, ze_mock_fill_driver_exp)
ZE_MOCK_GETTER(zeGetDeviceProcAddrTable, ze_device_dditable_t,
               ze_mock_device_dditable_t, ZE_MOCK_LAYOUT_DEVICE, fill_device)
ZE_MOCK_GETTER(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t,
               ze_device_exp_dditable_t, ZE_MOCK_LAYOUT_DEVICE_EXP,
               ze_mock_fill_device_exp)
ZE_MOCK_GETTER(zeGetContextProcAddrTable, ze_context_dditable_t,
               ze_context_dditable_t, ZE_MOCK_LAYOUT_CONTEXT, fill_context)
ZE_MOCK_GETTER(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t,
               ze_mock_command_queue_dditable_t, ZE_MOCK_LAYOUT_COMMAND_QUEUE,
               fill_command_queue)
ZE_MOCK_GETTER(zeGetCommandListProcAddrTable, ze_command_list_dditable_t,
               ze_mock_command_list_dditable_t, ZE_MOCK_LAYOUT_COMMAND_LIST,
               fill_command_list)
ZE_MOCK_GETTER_NEW(zeGetCommandListExpProcAddrTable,
                   ze_mock_command_list_exp_dditable_t,
                   ZE_MOCK_LAYOUT_COMMAND_LIST_EXP, fill_command_list_exp)
ZE_MOCK_GETTER(zeGetImageProcAddrTable, ze_image_dditable_t,
               ze_mock_image_dditable_t, ZE_MOCK_LAYOUT_IMAGE,
               ze_mock_fill_image)
ZE_MOCK_GETTER(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t,
               ze_mock_image_exp_dditable_t, ZE_MOCK_LAYOUT_IMAGE_EXP,
               ze_mock_fill_image_exp)
ZE_MOCK_GETTER(zeGetMemProcAddrTable, ze_mem_dditable_t, ze_mock_mem_dditable_t,
               ZE_MOCK_LAYOUT_MEM, fill_mem)
ZE_MOCK_GETTER_NEW(zeGetMemExpProcAddrTable, ze_mock_mem_exp_dditable_t,
                   ZE_MOCK_LAYOUT_MEM_EXP, fill_mem_exp)
ZE_MOCK_GETTER(zeGetFenceProcAddrTable, ze_fence_dditable_t,
               ze_fence_dditable_t, ZE_MOCK_LAYOUT_FENCE, ze_mock_fill_fence)
ZE_MOCK_GETTER(zeGetEventPoolProcAddrTable, ze_event_pool_dditable_t,
               ze_mock_event_pool_dditable_t, ZE_MOCK_LAYOUT_EVENT_POOL,
               fill_event_pool)
ZE_MOCK_GETTER(zeGetEventProcAddrTable, ze_event_dditable_t,
               ze_mock_event_dditable_t, ZE_MOCK_LAYOUT_EVENT, fill_event)
ZE_MOCK_GETTER(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t,
               ze_event_exp_dditable_t, ZE_MOCK_LAYOUT_EVENT_EXP,
               fill_event_exp)
ZE_MOCK_GETTER(zeGetModuleProcAddrTable, ze_module_dditable_t,
               ze_module_dditable_t, ZE_MOCK_LAYOUT_MODULE,
               ze_mock_fill_module) // ze_mock_kernel.c
ZE_MOCK_GETTER(zeGetModuleBuildLogProcAddrTable, ze_module_build_log_dditable_t,
               ze_module_build_log_dditable_t, ZE_MOCK_LAYOUT_MODULE_BUILD_LOG,
               ze_mock_fill_module_build_log)
ZE_MOCK_GETTER(zeGetKernelProcAddrTable, ze_kernel_dditable_t,
               ze_kernel_dditable_t, ZE_MOCK_LAYOUT_KERNEL,
               ze_mock_fill_kernel) // ze_mock_kernel.c
ZE_MOCK_GETTER(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t,
               ze_mock_kernel_exp_dditable_t, ZE_MOCK_LAYOUT_KERNEL_EXP,
               ze_mock_fill_kernel_exp) // ze_mock_kernel.c
ZE_MOCK_GETTER(zeGetSamplerProcAddrTable, ze_sampler_dditable_t,
               ze_sampler_dditable_t, ZE_MOCK_LAYOUT_SAMPLER,
               ze_mock_fill_sampler)
ZE_MOCK_GETTER(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t,
               ze_mock_physical_mem_dditable_t, ZE_MOCK_LAYOUT_PHYSICAL_MEM,
               ze_mock_fill_physical_mem)
ZE_MOCK_GETTER(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t,
               ze_virtual_mem_dditable_t, ZE_MOCK_LAYOUT_VIRTUAL_MEM,
               ze_mock_fill_virtual_mem)
ZE_MOCK_GETTER(zeGetFabricVertexExpProcAddrTable,
               ze_fabric_vertex_exp_dditable_t, ze_fabric_vertex_exp_dditable_t,
               ZE_MOCK_LAYOUT_FABRIC_VERTEX_EXP, ze_mock_fill_fabric_vertex_exp)
ZE_MOCK_GETTER(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t,
               ze_fabric_edge_exp_dditable_t, ZE_MOCK_LAYOUT_FABRIC_EDGE_EXP,
               ze_mock_fill_fabric_edge_exp)
ZE_MOCK_GETTER_NEW(zeGetRTASBuilderExpProcAddrTable,
                   ze_mock_rtas_builder_exp_dditable_t,
                   ZE_MOCK_LAYOUT_RTAS_BUILDER_EXP,
                   ze_mock_fill_rtas_builder_exp)
ZE_MOCK_GETTER_NEW(zeGetRTASParallelOperationExpProcAddrTable,
                   ze_mock_rtas_parallel_operation_dditable_t,
                   ZE_MOCK_LAYOUT_RTAS_PARALLEL_OPERATION_EXP,
                   ze_mock_fill_rtas_parallel_operation_exp)
ZE_MOCK_GETTER_NEW(zeGetRTASBuilderProcAddrTable,
                   ze_mock_rtas_builder_dditable_t, ZE_MOCK_LAYOUT_RTAS_BUILDER,
                   ze_mock_fill_rtas_builder)
ZE_MOCK_GETTER_NEW(zeGetRTASParallelOperationProcAddrTable,
                   ze_mock_rtas_parallel_operation_dditable_t,
                   ZE_MOCK_LAYOUT_RTAS_PARALLEL_OPERATION,
                   ze_mock_fill_rtas_parallel_operation)

// ---- Sysman
// ---------------------------------------------------------------------

ZE_MOCK_GETTER_NEW(zesGetGlobalProcAddrTable, zes_mock_global_dditable_t,
                   ZES_MOCK_LAYOUT_GLOBAL, zes_mock_fill_global)
ZE_MOCK_GETTER(zesGetDriverProcAddrTable, zes_driver_dditable_t,
               zes_mock_driver_dditable_t, ZES_MOCK_LAYOUT_DRIVER,
               zes_mock_fill_driver)
ZE_MOCK_GETTER(zesGetDeviceProcAddrTable, zes_device_dditable_t,
               zes_mock_device_dditable_t, ZES_MOCK_LAYOUT_DEVICE,
               zes_mock_fill_device)
ZE_MOCK_GETTER(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t,
               zes_scheduler_dditable_t, ZES_MOCK_LAYOUT_SCHEDULER,
               zes_mock_fill_scheduler)
ZE_MOCK_GETTER(zesGetPerformanceFactorProcAddrTable,
               zes_performance_factor_dditable_t,
               zes_performance_factor_dditable_t,
               ZES_MOCK_LAYOUT_PERFORMANCE_FACTOR,
               zes_mock_fill_performance_factor)
ZE_MOCK_GETTER(zesGetPowerProcAddrTable, zes_power_dditable_t,
               zes_power_dditable_t, ZES_MOCK_LAYOUT_POWER, zes_mock_fill_power)
ZE_MOCK_GETTER(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t,
               zes_frequency_dditable_t, ZES_MOCK_LAYOUT_FREQUENCY,
               zes_mock_fill_frequency)
ZE_MOCK_GETTER(zesGetEngineProcAddrTable, zes_engine_dditable_t,
               zes_engine_dditable_t, ZES_MOCK_LAYOUT_ENGINE,
               zes_mock_fill_engine)
ZE_MOCK_GETTER(zesGetStandbyProcAddrTable, zes_standby_dditable_t,
               zes_standby_dditable_t, ZES_MOCK_LAYOUT_STANDBY,
               zes_mock_fill_standby)
ZE_MOCK_GETTER(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t,
               zes_firmware_dditable_t, ZES_MOCK_LAYOUT_FIRMWARE,
               zes_mock_fill_firmware)
ZE_MOCK_GETTER(zesGetMemoryProcAddrTable, zes_memory_dditable_t,
               zes_memory_dditable_t, ZES_MOCK_LAYOUT_MEMORY,
               zes_mock_fill_memory)
ZE_MOCK_GETTER(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t,
               zes_fabric_port_dditable_t, ZES_MOCK_LAYOUT_FABRIC_PORT,
               zes_mock_fill_fabric_port)
ZE_MOCK_GETTER(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t,
               zes_temperature_dditable_t, ZES_MOCK_LAYOUT_TEMPERATURE,
               zes_mock_fill_temperature)
ZE_MOCK_GETTER(zesGetPsuProcAddrTable, zes_psu_dditable_t, zes_psu_dditable_t,
               ZES_MOCK_LAYOUT_PSU, zes_mock_fill_psu)
ZE_MOCK_GETTER(zesGetFanProcAddrTable, zes_fan_dditable_t, zes_fan_dditable_t,
               ZES_MOCK_LAYOUT_FAN, zes_mock_fill_fan)
ZE_MOCK_GETTER(zesGetLedProcAddrTable, zes_led_dditable_t, zes_led_dditable_t,
               ZES_MOCK_LAYOUT_LED, zes_mock_fill_led)
ZE_MOCK_GETTER(zesGetRasProcAddrTable, zes_ras_dditable_t, zes_ras_dditable_t,
               ZES_MOCK_LAYOUT_RAS, zes_mock_fill_ras)
ZE_MOCK_GETTER(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t,
               zes_diagnostics_dditable_t, ZES_MOCK_LAYOUT_DIAGNOSTICS,
               zes_mock_fill_diagnostics)

// ---- Tools (not emulated)
// ------------------------------------------------------
//
// The loader requires these getters; the tools API (metrics, debug,
// tracing, program instrumentation) is not emulated, and the loader (or
// its validation layer) reports its calls as unsupported.

#define ZE_MOCK_EMPTY_TABLE(getter, type)                                      \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version,       \
                                               type *table) {                  \
        return check_request(version, table);                                  \
    }

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
