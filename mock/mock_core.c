// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Initialisation and unloading of the core.

#include "mock_core.h"

#include <pthread.h>
#include <stdlib.h>

#include "mock_leaks.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const umf_mock_driver_desc_t *driver;
static const umf_mock_driver_desc_t *pending; // for init_once_fn
static umf_mock_config_t config;
static umf_mock_status_t init_status = UMF_MOCK_ERR_NOT_INITIALIZED;
static _Atomic int ready;

static const char *env_lookup(void *ctx, const char *name) {
    (void)ctx;
    return getenv(name);
}

static void init_once_fn(void) {
    const umf_mock_driver_desc_t *desc = pending;
    char err[256];
    umf_mock_registry_setup();
    if (desc->faults.entry_count > UMF_MOCK_MAX_ENTRIES ||
        desc->object_kind_count > UMF_MOCK_OBJECT_CORE_FIRST) {
        UMF_MOCK_LOG_ERROR("driver description out of the core's limits");
        return;
    }
    if (!umf_mock_config_load(&config, env_lookup, NULL, err, sizeof(err))) {
        UMF_MOCK_LOG_ERROR("%s", err);
        return;
    }
    if (desc->select_devices != NULL) {
        unsigned shown = desc->select_devices(config.devices);
        config.devices = shown < config.devices ? shown : config.devices;
    }
    if (umf_mock_threads_setup() != 0) {
        UMF_MOCK_LOG_ERROR("cannot create the thread-exit hook");
        return;
    }
    umf_mock_faults_setup(&desc->faults, config.seed);
    if (!umf_mock_faults_add(config.faults, true, err, sizeof(err))) {
        UMF_MOCK_LOG_ERROR("UMF_GPU_MOCK_FAULTS: %s", err);
        return;
    }
    if (umf_mock_memory_setup(&config) != UMF_MOCK_OK) {
        return;
    }
    driver = desc;
    init_status = UMF_MOCK_OK;
    atomic_store_explicit(&ready, 1, memory_order_release);
    UMF_MOCK_LOG_INFO("%u devices of %llu bytes, %s memory, leaks %s",
                      config.devices, (unsigned long long)config.device_mem,
                      umf_mock_memory_mode_name(config.memory),
                      config.leaks == UMF_MOCK_LEAKS_OFF      ? "off"
                      : config.leaks == UMF_MOCK_LEAKS_REPORT ? "report"
                                                              : "strict");
}

umf_mock_status_t umf_mock_init(const umf_mock_driver_desc_t *desc) {
    if (atomic_load_explicit(&ready, memory_order_acquire)) {
        return UMF_MOCK_OK;
    }
    if (desc == NULL) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT;
    }
    // Each driver has its own copy of the core, so `desc` is always the
    // same one; the once-function reads it from here.
    static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&pending_lock);
    pending = desc;
    pthread_once(&init_once, init_once_fn);
    pthread_mutex_unlock(&pending_lock);
    return init_status;
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

__attribute__((destructor)) static void core_unload(void) {
    const umf_mock_driver_desc_t *d = umf_mock_driver();
    if (d != NULL && d->unload != NULL) {
        d->unload();
    }
    umf_mock_leaks_at_exit();
    umf_mock_threads_teardown();
}
