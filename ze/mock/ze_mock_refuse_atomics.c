// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Refused: the atomic access attributes of memory (ze_mock_refuse.h).
// Kernels run on the CPU (ze_mock_kernel.c), whose atomics work on any
// memory of the emulated devices: there is no attribute to set, and
// zeDeviceGetMemoryAccessProperties claims none.

#include "ze_mock_refuse.h"

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
    return ze_mock_refuse(ZE_MOCK_FAMILY_ATOMICS,
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
    return ze_mock_refuse(ZE_MOCK_FAMILY_ATOMICS,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

void ze_mock_fill_mem_exp_atomics(ze_mock_mem_exp_dditable_t *t) {
    t->pfnSetAtomicAccessAttributeExp = mock_MemSetAtomicAccessAttributeExp;
    t->pfnGetAtomicAccessAttributeExp = mock_MemGetAtomicAccessAttributeExp;
}
