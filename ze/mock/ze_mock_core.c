// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The bottom of the driver, which every API family uses and which calls
// none: the one driver handle, the devices zeDeviceGet returns (those
// ZE_AFFINITY_MASK exposes, ze_mock_affinity.c), and whether zeInit
// succeeded. What else has to happen when it does, a family registers
// (ze_mock_core_ready_register).

#include <pthread.h>
#include <stdlib.h>

#include "ze_mock_internal.h"

typedef struct ze_mock_driver_t {
    uint32_t magic;
} ze_mock_driver_t;

static ze_mock_driver_t the_driver = {ZE_MOCK_MAGIC_DRIVER};
// The devices zeDeviceGet returns, in order; each knows its core device.
static ze_mock_device_t devices[UMF_MOCK_MAX_DEVICES];
static unsigned device_count;
// Their sub-devices, in one array: a handle is checked without reading it.
static ze_mock_device_t
    subdevices[UMF_MOCK_MAX_DEVICES * ZE_MOCK_MAX_SUBDEVICES];
static unsigned subdevice_count;
// The position in devices[] of each core device, or -1 when it is hidden.
static int exposed_as[UMF_MOCK_MAX_DEVICES];
static _Atomic int initialized;

bool ze_mock_initialized(void) {
    return atomic_load_explicit(&initialized, memory_order_acquire) != 0;
}

// The element of `array` (`count` used) that `handle` is, or NULL.
static ze_mock_device_t *device_in(ze_mock_device_t *array, unsigned count,
                                   ze_device_handle_t handle) {
    uintptr_t h = (uintptr_t)handle, first = (uintptr_t)array;
    if (h < first || (h - first) % sizeof(array[0]) != 0 ||
        (h - first) / sizeof(array[0]) >= count) {
        return NULL;
    }
    return &array[(h - first) / sizeof(array[0])];
}

ze_mock_device_t *ze_mock_device(ze_device_handle_t handle) {
    ze_mock_device_t *d = device_in(devices, device_count, handle);
    return d != NULL ? d : device_in(subdevices, subdevice_count, handle);
}

unsigned ze_mock_device_count(void) {
    return device_count;
}

ze_device_handle_t ze_mock_device_at(unsigned position) {
    return (ze_device_handle_t)&devices[position];
}

ze_device_handle_t ze_mock_device_handle(int core_device) {
    if (core_device < 0 || core_device >= UMF_MOCK_MAX_DEVICES ||
        (unsigned)core_device >= umf_mock_device_count() ||
        exposed_as[core_device] < 0) {
        return NULL;
    }
    return ze_mock_device_at((unsigned)exposed_as[core_device]);
}

ze_device_handle_t ze_mock_device_handle_sub(int core_device, int sub) {
    ze_mock_device_t *d =
        (ze_mock_device_t *)ze_mock_device_handle(core_device);
    if (d == NULL || sub < 0) {
        return (ze_device_handle_t)d;
    }
    for (unsigned i = 0; i < d->sub_count; i++) {
        if (d->subs[i]->sub == sub) {
            return (ze_device_handle_t)d->subs[i];
        }
    }
    return (ze_device_handle_t)d; // the device, or the sub-device exposed
}

uint64_t ze_mock_device_memory(const ze_mock_device_t *dev) {
    uint64_t total = umf_mock_device_total(dev->index);
    unsigned subs = umf_mock_subdevice_count();
    return dev->sub >= 0 && subs > 0 ? total / subs : total;
}

uint64_t ze_mock_device_max_alloc(const ze_mock_device_t *dev) {
    return (ze_mock_device_memory(dev) / 2) &
           ~((uint64_t)umf_mock_page_size - 1);
}

bool ze_mock_is_driver(ze_driver_handle_t h) {
    return (ze_mock_driver_t *)h == &the_driver;
}

// ---- The devices ----------------------------------------------------------

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static ze_mock_device_t *add_subdevice(ze_mock_device_t *root, unsigned sub) {
    ze_mock_device_t *s = &subdevices[subdevice_count++];
    s->magic = ZE_MOCK_MAGIC_DEVICE;
    s->index = root->index;
    s->sub = (int)sub;
    s->root = root;
    root->subs[root->sub_count++] = s;
    return s;
}

// The devices ZE_AFFINITY_MASK exposes: a device named whole has all its
// sub-devices, one named by several sub-devices those; one named by one
// sub-device alone is that sub-device, as a device of its own.
static void make_devices(void) {
    const char *mask = getenv("ZE_AFFINITY_MASK");
    unsigned subs = umf_mock_subdevice_count();
    ze_mock_affinity_t picked[UMF_MOCK_MAX_DEVICES];
    unsigned n =
        ze_mock_affinity_devices(mask, umf_mock_device_count(), subs, picked);
    for (unsigned i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        exposed_as[i] = -1;
    }
    for (unsigned i = 0; i < n; i++) {
        ze_mock_device_t *d = &devices[i];
        d->magic = ZE_MOCK_MAGIC_DEVICE;
        d->index = picked[i].device;
        d->sub = -1;
        uint32_t set = picked[i].whole
                           ? (subs > 0 ? (uint32_t)((1ull << subs) - 1) : 0)
                           : picked[i].subs;
        if (!picked[i].whole && (set & (set - 1)) == 0) {
            d->sub = __builtin_ctz(set); // one sub-device alone
            set = 0;
        }
        for (unsigned m = 0; m < subs; m++) {
            if (set & ((uint32_t)1 << m)) {
                add_subdevice(d, m);
            }
        }
        exposed_as[picked[i].device] = (int)i;
    }
    device_count = n;
    if (mask != NULL && mask[0] != '\0') {
        UMF_MOCK_LOG_INFO("ZE_AFFINITY_MASK=%s: %u of %u devices, %u "
                          "sub-devices",
                          mask, n, umf_mock_device_count(), subdevice_count);
    }
}

void ze_mock_make_devices(void) {
    pthread_once(&devices_once, make_devices);
}

// What zeInit (or zeInitDrivers) that succeeds runs, registered by an API
// family (sysman) when the global table is filled, before zeInit can be
// called.
static _Atomic(ze_mock_ready_fn) ready_hook;

void ze_mock_core_ready_register(ze_mock_ready_fn fn) {
    atomic_store(&ready_hook, fn);
}

void ze_mock_core_ready(void) {
    ze_mock_make_devices();
    ze_mock_ready_fn hook = atomic_load(&ready_hook);
    if (hook != NULL) {
        hook();
    }
    atomic_store_explicit(&initialized, 1, memory_order_release);
}

// ---- The answers of zeDriverGet and zeDeviceGet ----------------------------

ze_result_t ze_mock_driver_list(uint32_t *pCount,
                                ze_driver_handle_t *phDrivers) {
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, 1, &n);
    if (r == ZE_RESULT_SUCCESS && n > 0 && phDrivers != NULL) {
        phDrivers[0] = (ze_driver_handle_t)&the_driver;
    }
    return r;
}

ze_result_t ze_mock_device_list(uint32_t *pCount,
                                ze_device_handle_t *phDevices) {
    uint32_t n;
    ze_result_t r = ze_mock_count(pCount, device_count, &n);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && phDevices != NULL && i < n;
         i++) {
        phDevices[i] = ze_mock_device_at(i);
    }
    return r;
}
