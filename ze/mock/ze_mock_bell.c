// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the events use of the engine, below both (ze_mock_engine.h): the
// bell that wakes the driver's thread when something a waiting command may
// wait for changed in this process, and the device timer. The engine
// (ze_mock_engine.c) rings the bell and sleeps on it; the events
// (ze_mock_events.c) ring it through ze_mock_engine_notify.

#include <time.h>

#include "ze_mock_engine.h"

// Rung to wake the driver's thread; `watching`: it has streams to watch,
// so that every signal in this process rings it.
static _Atomic uint32_t bell;
static _Atomic int watching;

void ze_mock_bell_ring(void) {
    umf_mock_bell_ring(&bell);
}

void ze_mock_engine_notify(void) {
    // Ordered after the signal that calls it (seq_cst), against the
    // thread's store of `watching` and its looks at the events: either the
    // thread sees the signal or this sees the thread watching.
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&watching, memory_order_relaxed)) {
        ze_mock_bell_ring();
    }
}

uint32_t ze_mock_bell_watch(void) {
    atomic_store_explicit(&watching, 1, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
    return atomic_load_explicit(&bell, memory_order_seq_cst);
}

void ze_mock_bell_unwatch(void) {
    atomic_store_explicit(&watching, 0, memory_order_relaxed);
}

void ze_mock_bell_sleep(uint32_t seen, const umf_mock_event_ref_t *slots,
                        size_t count) {
    umf_mock_bell_sleep(&bell, seen, slots, count, UINT64_MAX);
}

uint64_t ze_mock_timer_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
