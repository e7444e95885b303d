// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Initialisation and unloading of the core: the top of mock/, which sets up
// every layer in order and connects what they give back at a thread's exit
// (mock_thread.h), so that no layer calls one above it.

#include "mock_core.h"

#include <pthread.h>
#include <stdlib.h>

#include "mock_arena.h"
#include "mock_leaks.h"
#include "mock_registry.h"
#include "mock_state.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const umf_mock_driver_desc_t *pending; // for init_once_fn
static umf_mock_status_t init_status = UMF_MOCK_ERR_NOT_INITIALIZED;

static const char *env_lookup(void *ctx, const char *name) {
    (void)ctx;
    return getenv(name);
}

static void init_once_fn(void) {
    const umf_mock_driver_desc_t *desc = pending;
    umf_mock_config_t config;
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
    // Each thread's share of the arenas, the registry and the device quota
    // goes back when it exits, in this order.
    if (!umf_mock_thread_on_exit(umf_mock_arena_thread_exit) ||
        !umf_mock_thread_on_exit(umf_mock_registry_thread_exit) ||
        !umf_mock_thread_on_exit(umf_mock_memory_thread_exit) ||
        umf_mock_threads_setup() != 0) {
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
    init_status = UMF_MOCK_OK;
    umf_mock_state_publish(desc, &config);
    UMF_MOCK_LOG_INFO("%u devices of %llu bytes, %s memory, leaks %s",
                      config.devices, (unsigned long long)config.device_mem,
                      umf_mock_memory_mode_name(config.memory),
                      config.leaks == UMF_MOCK_LEAKS_OFF      ? "off"
                      : config.leaks == UMF_MOCK_LEAKS_REPORT ? "report"
                                                              : "strict");
}

umf_mock_status_t umf_mock_init(const umf_mock_driver_desc_t *desc) {
    if (umf_mock_ready()) {
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

__attribute__((destructor)) static void core_unload(void) {
    const umf_mock_driver_desc_t *d = umf_mock_driver();
    if (d != NULL && d->unload != NULL) {
        d->unload();
    }
    umf_mock_leaks_at_exit();
    umf_mock_threads_teardown();
}
