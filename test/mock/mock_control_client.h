// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For tests of the emulated drivers: the control API (include/umf/gpu_mock.h)
// of a driver the process already loaded, found with dlopen(RTLD_NOLOAD) and
// dlsym. Header-only, for the Level Zero and the CUDA driver's tests alike:
//
//   umf_test_mock_control_t ctl;
//   if (umf_test_mock_control_load(&ctl, getenv("ZE_ENABLE_ALT_DRIVERS"),
//                                  "umfZeMock") != 0) { ...not loaded... }
//   ctl.inject_faults("zeMemFree:1=ZE_RESULT_ERROR_UNKNOWN");

#ifndef UMF_GPU_TEST_MOCK_CONTROL_CLIENT_H
#define UMF_GPU_TEST_MOCK_CONTROL_CLIENT_H 1

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <umf/gpu_mock.h>

typedef struct umf_test_mock_control_t {
    void *library; // the dlopen reference; dlclose it when done
    umf_gpu_mock_inject_faults_fn inject_faults;
    umf_gpu_mock_clear_faults_fn clear_faults;
    umf_gpu_mock_get_call_count_fn get_call_count;
    umf_gpu_mock_reset_call_counts_fn reset_call_counts;
    umf_gpu_mock_get_live_count_fn get_live_count;
    umf_gpu_mock_get_object_count_fn get_object_count;
    umf_gpu_mock_write_leak_report_fn write_leak_report;
} umf_test_mock_control_t;

static inline void *umf_test_mock_control_sym_(void *lib, const char *prefix,
                                               const char *name) {
    char full[128];
    snprintf(full, sizeof(full), "%s%s", prefix, name);
    return dlsym(lib, full);
}

// Fills *ctl from the driver at `path` (already loaded); 0, or -1 when the
// driver is not loaded or lacks a function.
static inline int umf_test_mock_control_load(umf_test_mock_control_t *ctl,
                                             const char *path,
                                             const char *prefix) {
    memset(ctl, 0, sizeof(*ctl));
    if (path == NULL ||
        (ctl->library = dlopen(path, RTLD_NOW | RTLD_NOLOAD)) == NULL) {
        return -1;
    }
#define UMF_TEST_MOCK_SYM_(field, type, name)                                  \
    ctl->field = (type)umf_test_mock_control_sym_(ctl->library, prefix, name)
    UMF_TEST_MOCK_SYM_(inject_faults, umf_gpu_mock_inject_faults_fn,
                       "InjectFaults");
    UMF_TEST_MOCK_SYM_(clear_faults, umf_gpu_mock_clear_faults_fn,
                       "ClearFaults");
    UMF_TEST_MOCK_SYM_(get_call_count, umf_gpu_mock_get_call_count_fn,
                       "GetCallCount");
    UMF_TEST_MOCK_SYM_(reset_call_counts, umf_gpu_mock_reset_call_counts_fn,
                       "ResetCallCounts");
    UMF_TEST_MOCK_SYM_(get_live_count, umf_gpu_mock_get_live_count_fn,
                       "GetLiveCount");
    UMF_TEST_MOCK_SYM_(get_object_count, umf_gpu_mock_get_object_count_fn,
                       "GetObjectCount");
    UMF_TEST_MOCK_SYM_(write_leak_report, umf_gpu_mock_write_leak_report_fn,
                       "WriteLeakReport");
#undef UMF_TEST_MOCK_SYM_
    if (!ctl->inject_faults || !ctl->clear_faults || !ctl->get_call_count ||
        !ctl->reset_call_counts || !ctl->get_live_count ||
        !ctl->get_object_count || !ctl->write_leak_report) {
        dlclose(ctl->library);
        memset(ctl, 0, sizeof(*ctl));
        return -1;
    }
    return 0;
}

#endif // UMF_GPU_TEST_MOCK_CONTROL_CLIENT_H
