// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// zexCounterBasedEventCreate2, Intel's counter-based events (extension
// ZEX_counter_based_event 1.0, reached by name through
// zeDriverGetExtensionFunctionAddress). This file checks the descriptor as
// zex_event.h describes it and makes the event with the event core
// (ze_mock_events.c): an event alone in a pool of its own that goes with
// it, marked counter-based. What the mark means lives in the core, where
// events are signalled: only in-order lists signal one, each submission of
// a command that signals it takes it (ze_mock_event_arm), the host never
// signals or resets it. Not shared between processes: the IPC flag is
// refused, since Intel's own IPC entry points for these events
// (zexCounterBasedEventGetIpcHandle and the rest) are not emulated.

#include "ze_mock_engine.h"
#include "ze_mock_internal.h"

// zex_event.h's values.
#define ZEX_STRUCTURE_COUNTER_BASED_EVENT_DESC ((ze_structure_type_t)0x0003001C)
#define ZEX_COUNTER_BASED_EVENT_FLAG_IMMEDIATE (1u << 0)
#define ZEX_COUNTER_BASED_EVENT_FLAG_NON_IMMEDIATE (1u << 1)
#define ZEX_COUNTER_BASED_EVENT_FLAG_HOST_VISIBLE (1u << 2)
#define ZEX_COUNTER_BASED_EVENT_FLAG_IPC (1u << 3)
#define ZEX_COUNTER_BASED_EVENT_FLAG_KERNEL_TIMESTAMP (1u << 4)
#define ZEX_COUNTER_BASED_EVENT_FLAG_KERNEL_MAPPED_TIMESTAMP (1u << 5)
#define ZEX_COUNTER_BASED_EVENT_FLAGS 0x3fu

// A NULL descriptor is Intel's default one (zex_event.h's
// defaultIntelCounterBasedEventDesc), as Intel's driver takes it.
static const ze_mock_counter_based_event_desc_t default_desc = {
    ZEX_STRUCTURE_COUNTER_BASED_EVENT_DESC, NULL,
    ZEX_COUNTER_BASED_EVENT_FLAG_IMMEDIATE |
        ZEX_COUNTER_BASED_EVENT_FLAG_NON_IMMEDIATE |
        ZEX_COUNTER_BASED_EVENT_FLAG_HOST_VISIBLE,
    ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};

static ze_result_t ZE_APICALL counter_based_event_create(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_mock_counter_based_event_desc_t *desc,
    ze_event_handle_t *phEvent) {
    ZE_MOCK_ENTER(zexCounterBasedEventCreate2);
    ze_mock_context_t *ctx = ze_mock_context(hContext);
    if (ctx == NULL || ze_mock_device(hDevice) == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (phEvent == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (desc == NULL) {
        desc = &default_desc;
    }
    if (desc->stype != ZEX_STRUCTURE_COUNTER_BASED_EVENT_DESC) {
        ZE_MOCK_EXPLAIN("zexCounterBasedEventCreate2: stype 0x%x, not "
                        "ZEX_STRUCTURE_COUNTER_BASED_EVENT_DESC",
                        (unsigned)desc->stype);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    if (desc->flags & ~ZEX_COUNTER_BASED_EVENT_FLAGS) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    if (desc->flags & ZEX_COUNTER_BASED_EVENT_FLAG_IPC) {
        ZE_MOCK_EXPLAIN("zexCounterBasedEventCreate2: counter-based events "
                        "are not shared between processes here (use an "
                        "event pool made with ZE_EVENT_POOL_FLAG_IPC)");
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    ze_event_pool_flags_t pool_flags =
        ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
        ((desc->flags & ZEX_COUNTER_BASED_EVENT_FLAG_KERNEL_TIMESTAMP)
             ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP
             : 0) |
        ((desc->flags & ZEX_COUNTER_BASED_EVENT_FLAG_KERNEL_MAPPED_TIMESTAMP)
             ? ZE_MOCK_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP
             : 0);
    ze_result_t r = ze_mock_event_create_alone(
        ctx, pool_flags, desc->signalScope, desc->waitScope, true, phEvent);
    if (r == ZE_RESULT_SUCCESS) {
        // "After creation, a CB Event is initially marked as completed"
        // (Intel's counter-based events guide): generation 0, signalled.
        ze_mock_event_signal(ze_mock_event(*phEvent), 0, 0, 0);
    }
    return r;
}

void ze_mock_counter_events_register(void) {
    ze_mock_extension_function_register(
        "zexCounterBasedEventCreate2",
        (void (*)(void))counter_based_event_create);
}
