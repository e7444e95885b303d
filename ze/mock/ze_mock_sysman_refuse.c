// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Refused: the sysman sensors and controls the emulated devices lack
// (ze_mock_sysman.h, ze_mock_refuse.h). Their enumerations give no handle
// (ze_mock_sysman.c: zesDeviceEnum* answer 0), so none of these tables'
// handles exists: every entry, whose first argument is one, refuses it.

#include "ze_mock_sysman.h"

// Schedulers

ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerGetProperties,
                       zes_sched_handle_t hScheduler,
                       zes_sched_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerGetCurrentMode,
                       zes_sched_handle_t hScheduler, zes_sched_mode_t *pMode)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerGetTimeoutModeProperties,
                       zes_sched_handle_t hScheduler, ze_bool_t getDefaults,
                       zes_sched_timeout_properties_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerGetTimesliceModeProperties,
                       zes_sched_handle_t hScheduler, ze_bool_t getDefaults,
                       zes_sched_timeslice_properties_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerSetTimeoutMode,
                       zes_sched_handle_t hScheduler,
                       zes_sched_timeout_properties_t *pProperties,
                       ze_bool_t *pNeedReload)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerSetTimesliceMode,
                       zes_sched_handle_t hScheduler,
                       zes_sched_timeslice_properties_t *pProperties,
                       ze_bool_t *pNeedReload)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerSetExclusiveMode,
                       zes_sched_handle_t hScheduler, ze_bool_t *pNeedReload)
ZES_MOCK_REFUSE_HANDLE("scheduler", SchedulerSetComputeUnitDebugMode,
                       zes_sched_handle_t hScheduler, ze_bool_t *pNeedReload)

// Performance factor domains

ZES_MOCK_REFUSE_HANDLE("performance factor domain",
                       PerformanceFactorGetProperties, zes_perf_handle_t hPerf,
                       zes_perf_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("performance factor domain", PerformanceFactorGetConfig,
                       zes_perf_handle_t hPerf, double *pFactor)
ZES_MOCK_REFUSE_HANDLE("performance factor domain", PerformanceFactorSetConfig,
                       zes_perf_handle_t hPerf, double factor)

// Power domains

ZES_MOCK_REFUSE_HANDLE("power domain", PowerGetProperties,
                       zes_pwr_handle_t hPower,
                       zes_power_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerGetEnergyCounter,
                       zes_pwr_handle_t hPower,
                       zes_power_energy_counter_t *pEnergy)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerGetLimits, zes_pwr_handle_t hPower,
                       zes_power_sustained_limit_t *pSustained,
                       zes_power_burst_limit_t *pBurst,
                       zes_power_peak_limit_t *pPeak)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerSetLimits, zes_pwr_handle_t hPower,
                       const zes_power_sustained_limit_t *pSustained,
                       const zes_power_burst_limit_t *pBurst,
                       const zes_power_peak_limit_t *pPeak)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerGetEnergyThreshold,
                       zes_pwr_handle_t hPower,
                       zes_energy_threshold_t *pThreshold)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerSetEnergyThreshold,
                       zes_pwr_handle_t hPower, double threshold)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerGetLimitsExt,
                       zes_pwr_handle_t hPower, uint32_t *pCount,
                       zes_power_limit_ext_desc_t *pSustained)
ZES_MOCK_REFUSE_HANDLE("power domain", PowerSetLimitsExt,
                       zes_pwr_handle_t hPower, uint32_t *pCount,
                       zes_power_limit_ext_desc_t *pSustained)

// Frequency domains

ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyGetProperties,
                       zes_freq_handle_t hFrequency,
                       zes_freq_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyGetAvailableClocks,
                       zes_freq_handle_t hFrequency, uint32_t *pCount,
                       double *phFrequency)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyGetRange,
                       zes_freq_handle_t hFrequency, zes_freq_range_t *pLimits)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencySetRange,
                       zes_freq_handle_t hFrequency,
                       const zes_freq_range_t *pLimits)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyGetState,
                       zes_freq_handle_t hFrequency, zes_freq_state_t *pState)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyGetThrottleTime,
                       zes_freq_handle_t hFrequency,
                       zes_freq_throttle_time_t *pThrottleTime)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcGetCapabilities,
                       zes_freq_handle_t hFrequency,
                       zes_oc_capabilities_t *pOcCapabilities)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcGetFrequencyTarget,
                       zes_freq_handle_t hFrequency,
                       double *pCurrentOcFrequency)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcSetFrequencyTarget,
                       zes_freq_handle_t hFrequency, double CurrentOcFrequency)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcGetVoltageTarget,
                       zes_freq_handle_t hFrequency,
                       double *pCurrentVoltageTarget,
                       double *pCurrentVoltageOffset)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcSetVoltageTarget,
                       zes_freq_handle_t hFrequency,
                       double CurrentVoltageTarget, double CurrentVoltageOffset)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcSetMode,
                       zes_freq_handle_t hFrequency,
                       zes_oc_mode_t CurrentOcMode)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcGetMode,
                       zes_freq_handle_t hFrequency,
                       zes_oc_mode_t *pCurrentOcMode)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcGetIccMax,
                       zes_freq_handle_t hFrequency, double *pOcIccMax)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcSetIccMax,
                       zes_freq_handle_t hFrequency, double ocIccMax)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcGetTjMax,
                       zes_freq_handle_t hFrequency, double *pOcTjMax)
ZES_MOCK_REFUSE_HANDLE("frequency domain", FrequencyOcSetTjMax,
                       zes_freq_handle_t hFrequency, double ocTjMax)

// Engine groups

ZES_MOCK_REFUSE_HANDLE("engine group", EngineGetProperties,
                       zes_engine_handle_t hEngine,
                       zes_engine_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("engine group", EngineGetActivity,
                       zes_engine_handle_t hEngine, zes_engine_stats_t *pStats)

// Standby domains

ZES_MOCK_REFUSE_HANDLE("standby domain", StandbyGetProperties,
                       zes_standby_handle_t hStandby,
                       zes_standby_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("standby domain", StandbyGetMode,
                       zes_standby_handle_t hStandby,
                       zes_standby_promo_mode_t *pMode)
ZES_MOCK_REFUSE_HANDLE("standby domain", StandbySetMode,
                       zes_standby_handle_t hStandby,
                       zes_standby_promo_mode_t mode)

// Firmwares

ZES_MOCK_REFUSE_HANDLE("firmware", FirmwareGetProperties,
                       zes_firmware_handle_t hFirmware,
                       zes_firmware_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("firmware", FirmwareFlash,
                       zes_firmware_handle_t hFirmware, void *pImage,
                       uint32_t size)

// Fabric ports

ZES_MOCK_REFUSE_HANDLE("fabric port", FabricPortGetProperties,
                       zes_fabric_port_handle_t hPort,
                       zes_fabric_port_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("fabric port", FabricPortGetLinkType,
                       zes_fabric_port_handle_t hPort,
                       zes_fabric_link_type_t *pLinkType)
ZES_MOCK_REFUSE_HANDLE("fabric port", FabricPortGetConfig,
                       zes_fabric_port_handle_t hPort,
                       zes_fabric_port_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("fabric port", FabricPortSetConfig,
                       zes_fabric_port_handle_t hPort,
                       const zes_fabric_port_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("fabric port", FabricPortGetState,
                       zes_fabric_port_handle_t hPort,
                       zes_fabric_port_state_t *pState)
ZES_MOCK_REFUSE_HANDLE("fabric port", FabricPortGetThroughput,
                       zes_fabric_port_handle_t hPort,
                       zes_fabric_port_throughput_t *pThroughput)

// Temperature sensors

ZES_MOCK_REFUSE_HANDLE("temperature sensor", TemperatureGetProperties,
                       zes_temp_handle_t hTemperature,
                       zes_temp_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("temperature sensor", TemperatureGetConfig,
                       zes_temp_handle_t hTemperature,
                       zes_temp_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("temperature sensor", TemperatureSetConfig,
                       zes_temp_handle_t hTemperature,
                       const zes_temp_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("temperature sensor", TemperatureGetState,
                       zes_temp_handle_t hTemperature, double *pTemperature)

// Power supplys

ZES_MOCK_REFUSE_HANDLE("power supply", PsuGetProperties, zes_psu_handle_t hPsu,
                       zes_psu_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("power supply", PsuGetState, zes_psu_handle_t hPsu,
                       zes_psu_state_t *pState)

// Fans

ZES_MOCK_REFUSE_HANDLE("fan", FanGetProperties, zes_fan_handle_t hFan,
                       zes_fan_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("fan", FanGetConfig, zes_fan_handle_t hFan,
                       zes_fan_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("fan", FanSetDefaultMode, zes_fan_handle_t hFan)
ZES_MOCK_REFUSE_HANDLE("fan", FanSetFixedSpeedMode, zes_fan_handle_t hFan,
                       const zes_fan_speed_t *speed)
ZES_MOCK_REFUSE_HANDLE("fan", FanSetSpeedTableMode, zes_fan_handle_t hFan,
                       const zes_fan_speed_table_t *speedTable)
ZES_MOCK_REFUSE_HANDLE("fan", FanGetState, zes_fan_handle_t hFan,
                       zes_fan_speed_units_t units, int32_t *pSpeed)

// LEDs

ZES_MOCK_REFUSE_HANDLE("LED", LedGetProperties, zes_led_handle_t hLed,
                       zes_led_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("LED", LedGetState, zes_led_handle_t hLed,
                       zes_led_state_t *pState)
ZES_MOCK_REFUSE_HANDLE("LED", LedSetState, zes_led_handle_t hLed,
                       ze_bool_t enable)
ZES_MOCK_REFUSE_HANDLE("LED", LedSetColor, zes_led_handle_t hLed,
                       const zes_led_color_t *pColor)

// RAS error sets

ZES_MOCK_REFUSE_HANDLE("RAS error set", RasGetProperties, zes_ras_handle_t hRas,
                       zes_ras_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("RAS error set", RasGetConfig, zes_ras_handle_t hRas,
                       zes_ras_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("RAS error set", RasSetConfig, zes_ras_handle_t hRas,
                       const zes_ras_config_t *pConfig)
ZES_MOCK_REFUSE_HANDLE("RAS error set", RasGetState, zes_ras_handle_t hRas,
                       ze_bool_t clear, zes_ras_state_t *pState)

// Diagnostics test suites

ZES_MOCK_REFUSE_HANDLE("diagnostics test suite", DiagnosticsGetProperties,
                       zes_diag_handle_t hDiagnostics,
                       zes_diag_properties_t *pProperties)
ZES_MOCK_REFUSE_HANDLE("diagnostics test suite", DiagnosticsGetTests,
                       zes_diag_handle_t hDiagnostics, uint32_t *pCount,
                       zes_diag_test_t *pTests)
ZES_MOCK_REFUSE_HANDLE("diagnostics test suite", DiagnosticsRunTests,
                       zes_diag_handle_t hDiagnostics, uint32_t startIndex,
                       uint32_t endIndex, zes_diag_result_t *pResult)

void zes_mock_fill_scheduler(zes_scheduler_dditable_t *t) {
    t->pfnGetProperties = zes_mock_SchedulerGetProperties;
    t->pfnGetCurrentMode = zes_mock_SchedulerGetCurrentMode;
    t->pfnGetTimeoutModeProperties = zes_mock_SchedulerGetTimeoutModeProperties;
    t->pfnGetTimesliceModeProperties =
        zes_mock_SchedulerGetTimesliceModeProperties;
    t->pfnSetTimeoutMode = zes_mock_SchedulerSetTimeoutMode;
    t->pfnSetTimesliceMode = zes_mock_SchedulerSetTimesliceMode;
    t->pfnSetExclusiveMode = zes_mock_SchedulerSetExclusiveMode;
    t->pfnSetComputeUnitDebugMode = zes_mock_SchedulerSetComputeUnitDebugMode;
}

void zes_mock_fill_performance_factor(zes_performance_factor_dditable_t *t) {
    t->pfnGetProperties = zes_mock_PerformanceFactorGetProperties;
    t->pfnGetConfig = zes_mock_PerformanceFactorGetConfig;
    t->pfnSetConfig = zes_mock_PerformanceFactorSetConfig;
}

void zes_mock_fill_power(zes_power_dditable_t *t) {
    t->pfnGetProperties = zes_mock_PowerGetProperties;
    t->pfnGetEnergyCounter = zes_mock_PowerGetEnergyCounter;
    t->pfnGetLimits = zes_mock_PowerGetLimits;
    t->pfnSetLimits = zes_mock_PowerSetLimits;
    t->pfnGetEnergyThreshold = zes_mock_PowerGetEnergyThreshold;
    t->pfnSetEnergyThreshold = zes_mock_PowerSetEnergyThreshold;
    t->pfnGetLimitsExt = zes_mock_PowerGetLimitsExt;
    t->pfnSetLimitsExt = zes_mock_PowerSetLimitsExt;
}

void zes_mock_fill_frequency(zes_frequency_dditable_t *t) {
    t->pfnGetProperties = zes_mock_FrequencyGetProperties;
    t->pfnGetAvailableClocks = zes_mock_FrequencyGetAvailableClocks;
    t->pfnGetRange = zes_mock_FrequencyGetRange;
    t->pfnSetRange = zes_mock_FrequencySetRange;
    t->pfnGetState = zes_mock_FrequencyGetState;
    t->pfnGetThrottleTime = zes_mock_FrequencyGetThrottleTime;
    t->pfnOcGetCapabilities = zes_mock_FrequencyOcGetCapabilities;
    t->pfnOcGetFrequencyTarget = zes_mock_FrequencyOcGetFrequencyTarget;
    t->pfnOcSetFrequencyTarget = zes_mock_FrequencyOcSetFrequencyTarget;
    t->pfnOcGetVoltageTarget = zes_mock_FrequencyOcGetVoltageTarget;
    t->pfnOcSetVoltageTarget = zes_mock_FrequencyOcSetVoltageTarget;
    t->pfnOcSetMode = zes_mock_FrequencyOcSetMode;
    t->pfnOcGetMode = zes_mock_FrequencyOcGetMode;
    t->pfnOcGetIccMax = zes_mock_FrequencyOcGetIccMax;
    t->pfnOcSetIccMax = zes_mock_FrequencyOcSetIccMax;
    t->pfnOcGetTjMax = zes_mock_FrequencyOcGetTjMax;
    t->pfnOcSetTjMax = zes_mock_FrequencyOcSetTjMax;
}

void zes_mock_fill_engine(zes_engine_dditable_t *t) {
    t->pfnGetProperties = zes_mock_EngineGetProperties;
    t->pfnGetActivity = zes_mock_EngineGetActivity;
}

void zes_mock_fill_standby(zes_standby_dditable_t *t) {
    t->pfnGetProperties = zes_mock_StandbyGetProperties;
    t->pfnGetMode = zes_mock_StandbyGetMode;
    t->pfnSetMode = zes_mock_StandbySetMode;
}

void zes_mock_fill_firmware(zes_firmware_dditable_t *t) {
    t->pfnGetProperties = zes_mock_FirmwareGetProperties;
    t->pfnFlash = zes_mock_FirmwareFlash;
}

void zes_mock_fill_fabric_port(zes_fabric_port_dditable_t *t) {
    t->pfnGetProperties = zes_mock_FabricPortGetProperties;
    t->pfnGetLinkType = zes_mock_FabricPortGetLinkType;
    t->pfnGetConfig = zes_mock_FabricPortGetConfig;
    t->pfnSetConfig = zes_mock_FabricPortSetConfig;
    t->pfnGetState = zes_mock_FabricPortGetState;
    t->pfnGetThroughput = zes_mock_FabricPortGetThroughput;
}

void zes_mock_fill_temperature(zes_temperature_dditable_t *t) {
    t->pfnGetProperties = zes_mock_TemperatureGetProperties;
    t->pfnGetConfig = zes_mock_TemperatureGetConfig;
    t->pfnSetConfig = zes_mock_TemperatureSetConfig;
    t->pfnGetState = zes_mock_TemperatureGetState;
}

void zes_mock_fill_psu(zes_psu_dditable_t *t) {
    t->pfnGetProperties = zes_mock_PsuGetProperties;
    t->pfnGetState = zes_mock_PsuGetState;
}

void zes_mock_fill_fan(zes_fan_dditable_t *t) {
    t->pfnGetProperties = zes_mock_FanGetProperties;
    t->pfnGetConfig = zes_mock_FanGetConfig;
    t->pfnSetDefaultMode = zes_mock_FanSetDefaultMode;
    t->pfnSetFixedSpeedMode = zes_mock_FanSetFixedSpeedMode;
    t->pfnSetSpeedTableMode = zes_mock_FanSetSpeedTableMode;
    t->pfnGetState = zes_mock_FanGetState;
}

void zes_mock_fill_led(zes_led_dditable_t *t) {
    t->pfnGetProperties = zes_mock_LedGetProperties;
    t->pfnGetState = zes_mock_LedGetState;
    t->pfnSetState = zes_mock_LedSetState;
    t->pfnSetColor = zes_mock_LedSetColor;
}

void zes_mock_fill_ras(zes_ras_dditable_t *t) {
    t->pfnGetProperties = zes_mock_RasGetProperties;
    t->pfnGetConfig = zes_mock_RasGetConfig;
    t->pfnSetConfig = zes_mock_RasSetConfig;
    t->pfnGetState = zes_mock_RasGetState;
}

void zes_mock_fill_diagnostics(zes_diagnostics_dditable_t *t) {
    t->pfnGetProperties = zes_mock_DiagnosticsGetProperties;
    t->pfnGetTests = zes_mock_DiagnosticsGetTests;
    t->pfnRunTests = zes_mock_DiagnosticsRunTests;
}
