// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Refused: external semaphores (Level Zero 1.12, ze_mock_refuse.h). The
// devices import no external object (zeDeviceGetExternalMemoryProperties
// reports no type), so no semaphore is imported and none of their handles
// exists.

#include "ze_mock_refuse.h"

static ze_result_t ZE_APICALL mock_DeviceImportExternalSemaphoreExt(
    ze_device_handle_t hDevice, const void *desc,
    ze_mock_external_semaphore_handle_t *phSemaphore) {
    ZE_MOCK_ENTER(zeDeviceImportExternalSemaphoreExt);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(desc);
    ZE_MOCK_CHECK_POINTER(phSemaphore);
    return ze_mock_refuse(ZE_MOCK_FAMILY_SEMAPHORES,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

ZE_MOCK_REFUSE_HANDLE(SEMAPHORES, "external semaphore",
                      DeviceReleaseExternalSemaphoreExt,
                      ze_mock_external_semaphore_handle_t hSemaphore)

void ze_mock_fill_device_semaphores(ze_mock_device_dditable_t *t) {
    t->pfnImportExternalSemaphoreExt = mock_DeviceImportExternalSemaphoreExt;
    t->pfnReleaseExternalSemaphoreExt = mock_DeviceReleaseExternalSemaphoreExt;
}

// The command list, the arrays, the wait events; then the semaphores,
// never ones.
static ze_result_t append(ze_command_list_handle_t hCommandList,
                          const void *phSemaphores, const void *params,
                          uint32_t numWaitEvents,
                          const ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    ZE_MOCK_CHECK_POINTER(phSemaphores);
    ZE_MOCK_CHECK_POINTER(params);
    ZE_MOCK_CHECK_WAIT_EVENTS(numWaitEvents, phWaitEvents);
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_SEMAPHORES,
                                 "external semaphore");
}

static ze_result_t ZE_APICALL mock_CommandListAppendSignalExternalSemaphoreExt(
    ze_command_list_handle_t hCommandList, uint32_t numSemaphores,
    ze_mock_external_semaphore_handle_t *phSemaphores, void *signalParams,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendSignalExternalSemaphoreExt);
    (void)numSemaphores, (void)hSignalEvent;
    return append(hCommandList, phSemaphores, signalParams, numWaitEvents,
                  phWaitEvents);
}

static ze_result_t ZE_APICALL mock_CommandListAppendWaitExternalSemaphoreExt(
    ze_command_list_handle_t hCommandList, uint32_t numSemaphores,
    ze_mock_external_semaphore_handle_t *phSemaphores, void *waitParams,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendWaitExternalSemaphoreExt);
    (void)numSemaphores, (void)hSignalEvent;
    return append(hCommandList, phSemaphores, waitParams, numWaitEvents,
                  phWaitEvents);
}

void ze_mock_fill_command_list_semaphores(ze_mock_command_list_dditable_t *t) {
    t->pfnAppendSignalExternalSemaphoreExt =
        mock_CommandListAppendSignalExternalSemaphoreExt;
    t->pfnAppendWaitExternalSemaphoreExt =
        mock_CommandListAppendWaitExternalSemaphoreExt;
}
