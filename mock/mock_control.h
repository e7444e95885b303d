// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The control API (include/umf/gpu_mock.h), implemented once. A driver
// exports it under its prefix with one line:
//
//   UMF_MOCK_DEFINE_CONTROL_API(umfZeMock, &ze_mock_desc)
//
// Every function initialises the core first (with the driver's description),
// so tests may call them before the driver's own init entry point.

#ifndef UMF_GPU_MOCK_CONTROL_H
#define UMF_GPU_MOCK_CONTROL_H 1

#include <stdint.h>

#include <umf/gpu_mock.h>

#include "mock_core.h"

int umf_mock_control_inject_faults(const umf_mock_driver_desc_t *desc,
                                   const char *rules);
void umf_mock_control_clear_faults(const umf_mock_driver_desc_t *desc);
int64_t umf_mock_control_get_call_count(const umf_mock_driver_desc_t *desc,
                                        const char *entry);
void umf_mock_control_reset_call_counts(const umf_mock_driver_desc_t *desc);
int64_t umf_mock_control_get_live_count(const umf_mock_driver_desc_t *desc,
                                        umf_gpu_mock_live_t what);
int64_t umf_mock_control_get_object_count(const umf_mock_driver_desc_t *desc,
                                          const char *kind);
int64_t umf_mock_control_write_leak_report(const umf_mock_driver_desc_t *desc,
                                           int fd);

#define UMF_MOCK_EXPORT __attribute__((visibility("default")))

#define UMF_MOCK_DEFINE_CONTROL_API(prefix, desc)                              \
    UMF_MOCK_EXPORT int prefix##InjectFaults(const char *rules) {              \
        return umf_mock_control_inject_faults((desc), rules);                  \
    }                                                                          \
    UMF_MOCK_EXPORT void prefix##ClearFaults(void) {                           \
        umf_mock_control_clear_faults((desc));                                 \
    }                                                                          \
    UMF_MOCK_EXPORT int64_t prefix##GetCallCount(const char *entry) {          \
        return umf_mock_control_get_call_count((desc), entry);                 \
    }                                                                          \
    UMF_MOCK_EXPORT void prefix##ResetCallCounts(void) {                       \
        umf_mock_control_reset_call_counts((desc));                            \
    }                                                                          \
    UMF_MOCK_EXPORT int64_t prefix##GetLiveCount(umf_gpu_mock_live_t what) {   \
        return umf_mock_control_get_live_count((desc), what);                  \
    }                                                                          \
    UMF_MOCK_EXPORT int64_t prefix##GetObjectCount(const char *kind) {         \
        return umf_mock_control_get_object_count((desc), kind);                \
    }                                                                          \
    UMF_MOCK_EXPORT int64_t prefix##WriteLeakReport(int fd) {                  \
        return umf_mock_control_write_leak_report((desc), fd);                 \
    }

#endif // UMF_GPU_MOCK_CONTROL_H
