// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_control.h"

#include <string.h>

#include "mock_leaks.h"

int umf_mock_control_inject_faults(const umf_mock_driver_desc_t *desc,
                                   const char *rules) {
    char err[256];
    if (umf_mock_init(desc) != UMF_MOCK_OK) {
        return -1;
    }
    if (rules == NULL) {
        UMF_MOCK_LOG_ERROR("fault rules: NULL");
        return -1;
    }
    if (!umf_mock_faults_add(rules, false, err, sizeof(err))) {
        UMF_MOCK_LOG_ERROR("%s", err);
        return -1;
    }
    return 0;
}

void umf_mock_control_clear_faults(const umf_mock_driver_desc_t *desc) {
    if (umf_mock_init(desc) == UMF_MOCK_OK) {
        umf_mock_faults_clear();
    }
}

int64_t umf_mock_control_get_call_count(const umf_mock_driver_desc_t *desc,
                                        const char *entry) {
    if (umf_mock_init(desc) != UMF_MOCK_OK) {
        return -1;
    }
    int index = umf_mock_fault_entry_index(entry);
    return index < 0 ? -1 : umf_mock_call_count((unsigned)index);
}

void umf_mock_control_reset_call_counts(const umf_mock_driver_desc_t *desc) {
    if (umf_mock_init(desc) == UMF_MOCK_OK) {
        umf_mock_call_counts_reset();
    }
}

int64_t umf_mock_control_get_live_count(const umf_mock_driver_desc_t *desc,
                                        umf_gpu_mock_live_t what) {
    if (umf_mock_init(desc) != UMF_MOCK_OK) {
        return -1;
    }
    switch (what) {
    case UMF_GPU_MOCK_LIVE_ALLOCATIONS:
        return umf_mock_counter_sum(UMF_MOCK_MAX_ENTRIES +
                                    UMF_MOCK_STAT_ALLOCATIONS);
    case UMF_GPU_MOCK_LIVE_IPC_HANDLES:
        return umf_mock_counter_sum(UMF_MOCK_MAX_ENTRIES +
                                    UMF_MOCK_STAT_IPC_HANDLES);
    case UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS:
        return umf_mock_counter_sum(UMF_MOCK_MAX_ENTRIES +
                                    UMF_MOCK_STAT_IMPORTS);
    case UMF_GPU_MOCK_LIVE_QUARANTINED:
        return (int64_t)umf_mock_quarantined();
    case UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY:
        return (int64_t)umf_mock_vmm_count(UMF_MOCK_VMM_PHYS);
    case UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS:
        return (int64_t)umf_mock_vmm_count(UMF_MOCK_VMM_RESERVATIONS);
    case UMF_GPU_MOCK_LIVE_MAPPINGS:
        return (int64_t)umf_mock_vmm_count(UMF_MOCK_VMM_MAPPINGS);
    }
    return -1;
}

int64_t umf_mock_control_get_object_count(const umf_mock_driver_desc_t *desc,
                                          const char *kind) {
    if (umf_mock_init(desc) != UMF_MOCK_OK || kind == NULL) {
        return -1;
    }
    for (unsigned i = 0; i < desc->object_kind_count; i++) {
        if (strcmp(desc->object_kinds[i], kind) == 0) {
            return (int64_t)umf_mock_object_count(i);
        }
    }
    return -1;
}

int64_t umf_mock_control_write_leak_report(const umf_mock_driver_desc_t *desc,
                                           int fd) {
    if (umf_mock_init(desc) != UMF_MOCK_OK) {
        return -1;
    }
    return umf_mock_leak_report(fd);
}
