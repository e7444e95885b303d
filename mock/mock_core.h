// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The device-memory emulation shared by the emulated drivers (Level Zero:
// ze/mock/, CUDA: cuda/mock/). Each driver links this static library and
// gets its own copy of its state, so both drivers can live in one process.
// A driver:
//
//   1. describes itself once, in a static umf_mock_driver_desc_t: its name
//      for log lines, its entry points (an enum of the driver indexes
//      `entries`) and result names for fault rules, and the kinds of object
//      it tracks (contexts, ...);
//   2. calls umf_mock_init(&desc) from its init entry point (zeInit, cuInit);
//   3. starts every entry point with umf_mock_enter(ENTRY, &fault), which
//      counts the call and says whether a fault rule makes it fail;
//   4. allocates, frees and queries with mock_memory.h, exports and imports
//      with mock_ipc.h, tracks its objects with mock_objects.h, keeps event
//      state (shareable between processes) with mock_events.h, and releases
//      what a context owned with mock_owner.h;
//   5. exports its control API with UMF_MOCK_DEFINE_CONTROL_API
//      (mock_control.h), and nothing else but its own entry points
//      (a version script).
//
// The leak report runs when the driver is unloaded or the process exits
// (UMF_GPU_MOCK_LEAKS), and under strict mode ends the process with status
// 86 when something leaked.

#ifndef UMF_GPU_MOCK_CORE_H
#define UMF_GPU_MOCK_CORE_H 1

#include <stdbool.h>
#include <stdint.h>

#include "mock_config.h"
#include "mock_events.h"
#include "mock_faults.h"
#include "mock_ipc.h"
#include "mock_log.h"
#include "mock_memory.h"
#include "mock_objects.h"
#include "mock_owner.h"
#include "mock_range.h"
#include "mock_status.h"
#include "mock_thread.h"
#include "mock_vmm.h"

typedef struct umf_mock_driver_desc_t {
    const char *name; // in log lines and the leak report, e.g. "ze-mock"
    umf_mock_fault_names_t faults;
    const char *const *object_kinds; // kind index -> name, e.g. "context"
    unsigned object_kind_count;      // at most UMF_MOCK_OBJECT_CORE_FIRST
    // Optional: how many of the `configured` devices (UMF_GPU_MOCK_DEVICES)
    // the driver shows, at most `configured` (the CUDA driver applies
    // CUDA_VISIBLE_DEVICES). Called once, before the memory is set up; the
    // core's devices are then the driver's, numbered as the driver numbers
    // them.
    unsigned (*select_devices)(unsigned configured);
    // Called first when the driver is unloaded or the process exits, before
    // the leak report: stops the driver's own threads. May be NULL.
    void (*unload)(void);
} umf_mock_driver_desc_t;

// Reads the configuration (mock_config.h) and sets everything up, once;
// later calls return the first call's result. NOT_INITIALIZED when a
// variable is malformed (logged, naming it).
umf_mock_status_t umf_mock_init(const umf_mock_driver_desc_t *desc);

// True after a successful umf_mock_init().
bool umf_mock_ready(void);

// The configuration; valid after a successful umf_mock_init().
const umf_mock_config_t *umf_mock_config(void);

// The driver's description given to umf_mock_init(), or NULL before.
const umf_mock_driver_desc_t *umf_mock_driver(void);

// Counts a call of entry point `entry`; true when a fault rule makes it fail
// with *fault. Lock-free unless fault rules are set.
static inline bool umf_mock_enter(unsigned entry, int64_t *fault) {
    umf_mock_thread_t *t = umf_mock_thread();
    if (__builtin_expect(t != NULL, 1) && entry < UMF_MOCK_MAX_ENTRIES) {
        umf_mock_thread_count(t, entry, 1);
        t->call_entry = entry;
        t->call_seq++;
    }
    return umf_mock_fault_check(entry, fault);
}

#endif // UMF_GPU_MOCK_CORE_H
