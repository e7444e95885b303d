// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Sysman (zes*), what runtimes read of it: the driver and its devices,
// their properties, PCI address and memory modules (ze_mock_sysman.c), and
// every other entry refused as a device without that sensor or control
// answers (ze_mock_sysman_refuse.c). Sysman devices are the core devices
// (zes_device_handle_t is ze_device_handle_t): zesDeviceGet returns what
// zeDeviceGet does, and with ZES_ENABLE_SYSMAN=1 at zeInit (the 1.4 way)
// the core handles take sysman calls.

#ifndef UMF_GPU_ZE_MOCK_SYSMAN_H
#define UMF_GPU_ZE_MOCK_SYSMAN_H 1

#include "ze_mock_refuse.h"

// True once zesInit succeeded, or zeInit with ZES_ENABLE_SYSMAN=1.
bool ze_mock_sysman_initialized(void);
// zeInit succeeded: sysman is ready too if ZES_ENABLE_SYSMAN=1 (what
// ze_mock_tables.c registers with ze_mock_core_ready_register).
void ze_mock_sysman_core_init(void);

// Counts the call, applies fault rules and refuses calls before sysman is
// initialized.
#define ZES_MOCK_ENTER(name)                                                   \
    do {                                                                       \
        int64_t zes_mock_fault_;                                               \
        if (umf_mock_enter(ZE_MOCK_E_##name, &zes_mock_fault_)) {              \
            umf_mock_failure_explain("injected by a fault rule");              \
            return ZE_MOCK_FAIL(zes_mock_fault_);                              \
        }                                                                      \
        if (!ze_mock_sysman_initialized()) {                                   \
            ZE_MOCK_EXPLAIN("sysman is not initialized: call zesInit, or set " \
                            "ZES_ENABLE_SYSMAN=1 before zeInit");              \
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED);                \
        }                                                                      \
    } while (0)

// A sysman entry point zes<name> (zes_mock_<name>) taking a handle of a
// `kind` of sensor or control the devices lack (ze_mock_refuse.h).
#define ZES_MOCK_REFUSE_HANDLE(kind, name, ...)                                \
    ZE_MOCK_REFUSE_HANDLE_AS(ZES_MOCK_ENTER, SYSMAN, kind, zes##name,          \
                             zes_mock_##name, __VA_ARGS__)

// Table fillers.
void zes_mock_fill_global(zes_mock_global_dditable_t *t);
void zes_mock_fill_driver(zes_mock_driver_dditable_t *t);
void zes_mock_fill_device(zes_mock_device_dditable_t *t);
void zes_mock_fill_memory(zes_memory_dditable_t *t);
void zes_mock_fill_scheduler(zes_scheduler_dditable_t *t);
void zes_mock_fill_performance_factor(zes_performance_factor_dditable_t *t);
void zes_mock_fill_power(zes_power_dditable_t *t);
void zes_mock_fill_frequency(zes_frequency_dditable_t *t);
void zes_mock_fill_engine(zes_engine_dditable_t *t);
void zes_mock_fill_standby(zes_standby_dditable_t *t);
void zes_mock_fill_firmware(zes_firmware_dditable_t *t);
void zes_mock_fill_fabric_port(zes_fabric_port_dditable_t *t);
void zes_mock_fill_temperature(zes_temperature_dditable_t *t);
void zes_mock_fill_psu(zes_psu_dditable_t *t);
void zes_mock_fill_fan(zes_fan_dditable_t *t);
void zes_mock_fill_led(zes_led_dditable_t *t);
void zes_mock_fill_ras(zes_ras_dditable_t *t);
void zes_mock_fill_diagnostics(zes_diagnostics_dditable_t *t);

#endif // UMF_GPU_ZE_MOCK_SYSMAN_H
