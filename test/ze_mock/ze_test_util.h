// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the emulated Level Zero driver's tests share. They reach the driver
// only through the real loader (linked), as an application does, and move
// data only with command-list copies, never by touching device pointers.

#ifndef UMF_GPU_TEST_ZE_UTIL_H
#define UMF_GPU_TEST_ZE_UTIL_H 1

#include <stdbool.h>
#include <stddef.h>

#include <level_zero/ze_api.h>

#include "mock_control_client.h"

#define ZE_TEST_MAX_DEVICES 8

typedef struct ze_test_t {
    ze_driver_handle_t driver;
    uint32_t device_count;
    ze_device_handle_t devices[ZE_TEST_MAX_DEVICES];
    ze_context_handle_t ctx;
    ze_command_list_handle_t list; // immediate, on device 0
} ze_test_t;

// zeInit (once per process), the driver and its devices, a new context and
// an immediate command list. False, with a test failure, if any fails.
bool ze_test_setup(ze_test_t *t);
// Declares `t` and sets it up in a test body; returns from it on failure.
#define ZE_TEST_SETUP(t)                                                       \
    ze_test_t t;                                                               \
    if (!ze_test_setup(&t)) {                                                  \
        return;                                                                \
    }

// Destroys what ze_test_setup made.
void ze_test_teardown(ze_test_t *t);

// The driver's control API; NULL (with a test failure) if unavailable.
const umf_test_mock_control_t *ze_test_control(void);
// The same without a failure: NULL on a real driver. Tests written to run
// unchanged on a GPU check what only the emulated driver can tell (live
// counts, call counts) when this is not NULL.
const umf_test_mock_control_t *ze_test_control_if_emulated(void);

// Runs in the loader's intercept mode, where the loader itself reads every
// handle (so tests pass no NULL handles there).
bool ze_test_intercept(void);
// The loader's validation layer checks parameters
// (ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1).
bool ze_test_validation_layer(void);
// The [Validation] clauses of ze_api.h (NULL handles and pointers, zero
// sizes) hold where someone checks them: the emulated driver does, and so
// does the validation layer; a real driver may leave them to the layer, and
// crash on a NULL. Tests that run unchanged on a GPU check them only then.
bool ze_test_validated(void);
// The same for NULL handles, which tests also never pass in the intercept
// mode.
bool ze_test_null_handles_checked(void);
// The memory mode the driver runs in (UMF_GPU_MOCK_MEMORY).
bool ze_test_ipc_capable(void);
bool ze_test_arena(void);

// In a consumer: takes the exporter's fd in the first bytes of an IPC
// handle (memory or event pool) from process `pid` with pidfd_getfd, as an
// application passes it with SCM_RIGHTS, and puts this process's copy
// there. Returns that fd (the caller closes it), or -1.
int ze_test_take_handle_fd(char data[64], int pid);

// The emulated driver's own tables, asked for directly as a newer loader
// asks (the Debian loader is API 1.4): the driver's exported symbol `name`
// (a table getter), or NULL where it has none.
void *ze_test_driver_symbol(const char *name);
// Fills `table` from the driver's getter `getter` at `version`; false when
// there is none or it fails.
bool ze_test_driver_table(const char *getter, ze_api_version_t version,
                          void *table);
// Calls through the driver's own tables take the handles the test has: on
// the emulated driver, not in the loader's intercept mode (where handles
// are the loader's).
bool ze_test_direct_tables(void);

// An immediate list on device 0 in `mode`, with queue flags `flags`; NULL
// (a test failure) when it cannot be made.
ze_command_list_handle_t
ze_test_immediate(ze_test_t *t, ze_command_queue_mode_t mode, uint32_t flags);
// A host-visible event pool (and `flags`) of `count` events, e[i] at index
// i; NULL (a test failure) when one cannot be made.
ze_event_pool_handle_t ze_test_events(ze_test_t *t, uint32_t count,
                                      ze_event_pool_flags_t flags,
                                      ze_event_handle_t *e);
// Destroys the events (those not NULL) and the pool.
void ze_test_events_free(ze_event_pool_handle_t pool, uint32_t count,
                         ze_event_handle_t *e);

// Copies through t's immediate list.
ze_result_t ze_test_copy(ze_test_t *t, void *dst, const void *src, size_t size);

// A device allocation of `size` on device `dev`, or NULL (test failure).
void *ze_test_alloc_device(ze_test_t *t, size_t size, unsigned dev);

// Fills `size` bytes of `dst` (device memory) with `byte`, through a copy.
bool ze_test_fill_byte(ze_test_t *t, void *dst, unsigned char byte,
                       size_t size);
// True when all `size` bytes at `src` (device memory) are `byte`.
bool ze_test_all_bytes(ze_test_t *t, const void *src, unsigned char byte,
                       size_t size);

// A 64x64 2D RGBA8 (unorm) image descriptor.
ze_image_desc_t ze_test_image_2d(void);

#endif // UMF_GPU_TEST_ZE_UTIL_H
