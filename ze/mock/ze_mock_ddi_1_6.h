// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The tables a Level Zero 1.6 loader (loader v1.10.0 and later) asks a
// driver to fill, for the entry points 1.6 added for memory and IPC. The
// headers this driver is built with (API 1.4) lack them, so their layout
// is declared here, as the published 1.6 headers (ze_ddi.h) define it:
// each 1.6 table is its 1.4 table followed by the entries 1.6 appended; the
// experimental memory table is new in 1.6. A loader passes the API version
// it was built for, and the driver fills the 1.6 entries only when that
// version is 1.6 or later: an older loader's table has no room for them.
//
//   ze_driver_dditable_t      + pfnGetLastErrorDescription
//   ze_mem_dditable_t         + pfnPutIpcHandle
//   ze_event_pool_dditable_t  + pfnPutIpcHandle
//   ze_mem_exp_dditable_t       pfnGetIpcHandleFromFileDescriptorExp,
//                               pfnGetFileDescriptorFromIpcHandleExp
//                               (zeGetMemExpProcAddrTable)

#ifndef UMF_GPU_ZE_MOCK_DDI_1_6_H
#define UMF_GPU_ZE_MOCK_DDI_1_6_H 1

#include <stddef.h>
#include <stdint.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#define ZE_MOCK_API_VERSION_1_6 ZE_MAKE_VERSION(1, 6)

typedef ze_result_t(ZE_APICALL *ze_mock_pfnDriverGetLastErrorDescription_t)(
    ze_driver_handle_t hDriver, const char **ppString);
typedef ze_result_t(ZE_APICALL *ze_mock_pfnMemPutIpcHandle_t)(
    ze_context_handle_t hContext, ze_ipc_mem_handle_t handle);
typedef ze_result_t(ZE_APICALL *ze_mock_pfnEventPoolPutIpcHandle_t)(
    ze_context_handle_t hContext, ze_ipc_event_pool_handle_t hIpc);
typedef ze_result_t(
    ZE_APICALL *ze_mock_pfnMemGetIpcHandleFromFileDescriptorExp_t)(
    ze_context_handle_t hContext, uint64_t handle,
    ze_ipc_mem_handle_t *pIpcHandle);
typedef ze_result_t(
    ZE_APICALL *ze_mock_pfnMemGetFileDescriptorFromIpcHandleExp_t)(
    ze_context_handle_t hContext, ze_ipc_mem_handle_t ipcHandle,
    uint64_t *pHandle);

typedef struct ze_driver_dditable_1_6_t {
    ze_driver_dditable_t v1_4;
    ze_mock_pfnDriverGetLastErrorDescription_t pfnGetLastErrorDescription;
} ze_driver_dditable_1_6_t;

typedef struct ze_mem_dditable_1_6_t {
    ze_mem_dditable_t v1_4;
    ze_mock_pfnMemPutIpcHandle_t pfnPutIpcHandle;
} ze_mem_dditable_1_6_t;

typedef struct ze_event_pool_dditable_1_6_t {
    ze_event_pool_dditable_t v1_4;
    ze_mock_pfnEventPoolPutIpcHandle_t pfnPutIpcHandle;
} ze_event_pool_dditable_1_6_t;

typedef struct ze_mem_exp_dditable_1_6_t {
    ze_mock_pfnMemGetIpcHandleFromFileDescriptorExp_t
        pfnGetIpcHandleFromFileDescriptorExp;
    ze_mock_pfnMemGetFileDescriptorFromIpcHandleExp_t
        pfnGetFileDescriptorFromIpcHandleExp;
} ze_mem_exp_dditable_1_6_t;

typedef ze_result_t(ZE_APICALL *ze_mock_pfnGetMemExpProcAddrTable_t)(
    ze_api_version_t version, ze_mem_exp_dditable_1_6_t *table);

// The driver's getter of the new table (libze_mock.so exports it).
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemExpProcAddrTable(
    ze_api_version_t version, ze_mem_exp_dditable_1_6_t *table);

// The published layouts: the new entries right after the 1.4 ones.
_Static_assert(offsetof(ze_driver_dditable_1_6_t, pfnGetLastErrorDescription) ==
                   6 * sizeof(void (*)(void)),
               "the 1.6 driver table: 6 entries of 1.1, then the new one");
_Static_assert(offsetof(ze_mem_dditable_1_6_t, pfnPutIpcHandle) ==
                   10 * sizeof(void (*)(void)),
               "the 1.6 memory table: 10 entries of 1.3, then the new one");
_Static_assert(offsetof(ze_event_pool_dditable_1_6_t, pfnPutIpcHandle) ==
                   5 * sizeof(void (*)(void)),
               "the 1.6 event pool table: 5 entries of 1.0, then the new one");

#endif // UMF_GPU_ZE_MOCK_DDI_1_6_H
