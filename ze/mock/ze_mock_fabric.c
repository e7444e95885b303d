// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fabric topology (Level Zero 1.4, experimental): the emulated
// devices are connected by no fabric, so the driver has no fabric vertex
// (zeFabricVertexGetExp: 0 of them), no device is one
// (ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX, as the specification defines
// for such a device), and with no vertex there is no edge: every vertex or
// edge handle is refused (ze_mock_refuse.h).

#include "ze_mock_refuse.h"

static ze_result_t ZE_APICALL
mock_FabricVertexGetExp(ze_driver_handle_t hDriver, uint32_t *pCount,
                        ze_fabric_vertex_handle_t *phVertices) {
    ZE_MOCK_ENTER(zeFabricVertexGetExp);
    (void)phVertices;
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    uint32_t n;
    return ze_mock_count(pCount, 0, &n);
}

static ze_result_t ZE_APICALL mock_DeviceGetFabricVertexExp(
    ze_device_handle_t hDevice, ze_fabric_vertex_handle_t *phVertex) {
    ZE_MOCK_ENTER(zeDeviceGetFabricVertexExp);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(phVertex);
    return ze_mock_refuse(ZE_MOCK_FAMILY_FABRIC,
                          ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX);
}

ZE_MOCK_REFUSE_HANDLE(FABRIC, "fabric vertex", FabricVertexGetSubVerticesExp,
                      ze_fabric_vertex_handle_t hVertex, uint32_t *pCount,
                      ze_fabric_vertex_handle_t *phSubvertices)
ZE_MOCK_REFUSE_HANDLE(FABRIC, "fabric vertex", FabricVertexGetPropertiesExp,
                      ze_fabric_vertex_handle_t hVertex,
                      ze_fabric_vertex_exp_properties_t *pVertexProperties)
ZE_MOCK_REFUSE_HANDLE(FABRIC, "fabric vertex", FabricVertexGetDeviceExp,
                      ze_fabric_vertex_handle_t hVertex,
                      ze_device_handle_t *phDevice)
ZE_MOCK_REFUSE_HANDLE(FABRIC, "fabric vertex", FabricEdgeGetExp,
                      ze_fabric_vertex_handle_t hVertexA,
                      ze_fabric_vertex_handle_t hVertexB, uint32_t *pCount,
                      ze_fabric_edge_handle_t *phEdges)
ZE_MOCK_REFUSE_HANDLE(FABRIC, "fabric edge", FabricEdgeGetVerticesExp,
                      ze_fabric_edge_handle_t hEdge,
                      ze_fabric_vertex_handle_t *phVertexA,
                      ze_fabric_vertex_handle_t *phVertexB)
ZE_MOCK_REFUSE_HANDLE(FABRIC, "fabric edge", FabricEdgeGetPropertiesExp,
                      ze_fabric_edge_handle_t hEdge,
                      ze_fabric_edge_exp_properties_t *pEdgeProperties)

void ze_mock_fill_device_exp(ze_device_exp_dditable_t *t) {
    t->pfnGetFabricVertexExp = mock_DeviceGetFabricVertexExp;
}

void ze_mock_fill_fabric_vertex_exp(ze_fabric_vertex_exp_dditable_t *t) {
    t->pfnGetExp = mock_FabricVertexGetExp;
    t->pfnGetSubVerticesExp = mock_FabricVertexGetSubVerticesExp;
    t->pfnGetPropertiesExp = mock_FabricVertexGetPropertiesExp;
    t->pfnGetDeviceExp = mock_FabricVertexGetDeviceExp;
}

void ze_mock_fill_fabric_edge_exp(ze_fabric_edge_exp_dditable_t *t) {
    t->pfnGetExp = mock_FabricEdgeGetExp;
    t->pfnGetVerticesExp = mock_FabricEdgeGetVerticesExp;
    t->pfnGetPropertiesExp = mock_FabricEdgeGetPropertiesExp;
}
