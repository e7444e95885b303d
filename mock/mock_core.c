// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The core's state, which every layer may read: whether it is ready, the
// configuration and the driver's description. Only the initialisation
// (mock_init.c) writes it, once.

#include "mock_core.h"

#include "mock_state.h"

static const umf_mock_driver_desc_t *driver;
static umf_mock_config_t config;
static _Atomic int ready;

void umf_mock_state_publish(const umf_mock_driver_desc_t *desc,
                            const umf_mock_config_t *cfg) {
    driver = desc;
    config = *cfg;
    atomic_store_explicit(&ready, 1, memory_order_release);
}

bool umf_mock_ready(void) {
    return atomic_load_explicit(&ready, memory_order_acquire) != 0;
}

const umf_mock_config_t *umf_mock_config(void) {
    return &config;
}

const umf_mock_driver_desc_t *umf_mock_driver(void) {
    return umf_mock_ready() ? driver : NULL;
}

const char *umf_mock_status_name(umf_mock_status_t status) {
    static const char *const names[] = {
        "OK",
        "INVALID_ARGUMENT",
        "NOT_FOUND",
        "NOT_BASE",
        "WRONG_KIND",
        "WRONG_OWNER",
        "UNSUPPORTED_SIZE",
        "UNSUPPORTED_ALIGNMENT",
        "OUT_OF_DEVICE_MEMORY",
        "OUT_OF_HOST_MEMORY",
        "NOT_SUPPORTED",
        "STALE_HANDLE",
        "ALREADY_MAPPED",
        "PERMISSION",
        "NO_PROCESS",
        "NOT_INITIALIZED",
        "OS",
        "BUSY",
    };
    return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status]
                                                               : "UNKNOWN";
}
