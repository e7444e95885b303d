// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one way a family of what the emulated devices cannot do refuses
// (ze_mock_refuse.h): the reason, logged once per call as a warning and
// kept as the thread's last-error description.

#include "ze_mock_refuse.h"

static const char *const reasons[ZE_MOCK_FAMILY_COUNT] = {
    [ZE_MOCK_FAMILY_ATOMICS] =
        "kernels run on the CPU, whose atomics work on all memory of the "
        "emulated devices: there are no atomic access attributes to set",
    [ZE_MOCK_FAMILY_IMAGES] = "the emulated devices have no images or "
                              "samplers (zeDeviceGetImageProperties reports "
                              "none)",
    [ZE_MOCK_FAMILY_RTAS] = "the emulated devices build no ray tracing "
                            "acceleration structures",
    [ZE_MOCK_FAMILY_SEMAPHORES] =
        "the emulated devices import no external semaphores (they share "
        "memory and events through IPC handles only)",
    [ZE_MOCK_FAMILY_FABRIC] = "the emulated devices are connected by no "
                              "fabric: there are no fabric vertices or edges",
    [ZE_MOCK_FAMILY_SYSMAN] = "the emulated device has no such sensor or "
                              "control",
};

ze_result_t ze_mock_refuse(ze_mock_family_t family, ze_result_t result) {
    ZE_MOCK_EXPLAIN("%s", reasons[family]);
    return ZE_MOCK_FAIL(result);
}

ze_result_t ze_mock_refuse_handle(ze_mock_family_t family, const char *kind) {
    ZE_MOCK_EXPLAIN("not a %s of this driver: %s", kind, reasons[family]);
    return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}
