// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract's UMF 1.0 table (issue 19): the provider made by the kind's
// umf*MemoryProviderOps_1_0() table and every op called through that table
// by the stand-in UMF 1.x consumer (test/ops_1_0/core_1_0.h), as a current
// UMF core calls them.
//
// The GPU extensions (stats, allocation properties) take a handle of our
// core, which a 1.x consumer does not have. The contract still needs the
// provider's counters after every case, so they are read from the provider
// state behind the 1.0 pointer (umf_gpu_ops_1_0_provider_state), with the
// same functions the extensions use; allocated and peak bytes are also
// asked through the table's ext_ctl, and must agree.

#include <string>

#include <umf/providers/provider_ops_1_0.h>

extern "C" {
#include "core_1_0.h"
#include "gpu_provider.h"
#include "gpu_stats.h"
#include "ops_1_0.h"
}
#include "provider_contract.h"

namespace {

c10_provider_t *c(void *provider) {
    return static_cast<c10_provider_t *>(provider);
}

const void *table_of(umf_test_gpu_kind_t kind) {
    return kind == UMF_TEST_GPU_CUDA
               ? static_cast<const void *>(umfCUDAMemoryProviderOps_1_0())
               : static_cast<const void *>(umfLevelZeroMemoryProviderOps_1_0());
}

umf_result_t create10(const umf_test_gpu_t *g,
                      const umf_test_provider_opts_t *opts, void **provider) {
    c10_provider_t *out = nullptr;
    umf_result_t r = umf_test_gpu_provider_with(
        g, opts,
        [](const umf_test_gpu_t *kind, const void *params, void *arg) {
            return c10_create(table_of(kind->kind), params,
                              static_cast<c10_provider_t **>(arg));
        },
        &out);
    *provider = out;
    return r;
}

// The class and state of the provider behind a 1.0 pointer.
const umf_gpu_provider_class_t *inner(void *provider, void **state) {
    const umf_memory_provider_ops_t *ops = nullptr;
    *state = nullptr;
    if (umf_gpu_ops_1_0_provider_state(c10_state(c(provider)), &ops, state) !=
        UMF_RESULT_SUCCESS) {
        return nullptr;
    }
    return umf_gpu_provider_class_of_ops(ops);
}

// A size_t statistic through ext_ctl, as UMF's core routes
// "umf.provider.by_handle.<handle>.<name>".
umf_result_t ctl_size(void *provider, const char *name, size_t *value) {
    std::string path = std::string("umf.provider.by_handle.{}.") + name;
    return c10_ctl(path.c_str(), value, sizeof(*value), 0, c(provider));
}

umf_result_t stats10(void *provider, umf_gpu_provider_stats_t *stats) {
    void *state = nullptr;
    const umf_gpu_provider_class_t *cls = inner(provider, &state);
    if (cls == nullptr || stats == nullptr) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_gpu_stats_read(cls->stats(state), stats);
    size_t allocated = 0, peak = 0;
    if (ctl_size(provider, "stats.allocated_memory", &allocated) !=
            UMF_RESULT_SUCCESS ||
        ctl_size(provider, "stats.peak_memory", &peak) != UMF_RESULT_SUCCESS) {
        ADD_FAILURE() << "ext_ctl refused a stats query";
        return UMF_RESULT_ERROR_UNKNOWN;
    }
    EXPECT_EQ(allocated, stats->allocated_bytes)
        << "ext_ctl stats.allocated_memory";
    EXPECT_EQ(peak, stats->peak_bytes) << "ext_ctl stats.peak_memory";
    return UMF_RESULT_SUCCESS;
}

umf_result_t properties10(void *provider, const void *ptr,
                          umf_gpu_allocation_properties_t *props) {
    void *state = nullptr;
    const umf_gpu_provider_class_t *cls = inner(provider, &state);
    if (cls == nullptr || ptr == nullptr || props == nullptr) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return cls->get_allocation_properties(state, ptr, props);
}

} // namespace

const ContractTable kContractTableUmf10 = {
    "Umf10",
    create10,
    [](void *p) {
        EXPECT_EQ(c10_destroy(c(p)), UMF_RESULT_SUCCESS) << "finalize";
    },
    [](void *p, size_t size, size_t alignment, void **ptr) {
        return c10_alloc(c(p), size, alignment, ptr);
    },
    [](void *p, void *ptr, size_t size) { return c10_free(c(p), ptr, size); },
    [](void *p, const char **message, int32_t *code) {
        EXPECT_EQ(c10_last_native_error(c(p), message, code),
                  UMF_RESULT_SUCCESS)
            << "get_last_native_error";
    },
    [](void *p, size_t size, size_t *page) {
        return c10_recommended_page_size(c(p), size, page);
    },
    [](void *p, void *ptr, size_t *page) {
        return c10_min_page_size(c(p), ptr, page);
    },
    [](void *p) -> const char * {
        const char *name = nullptr;
        EXPECT_EQ(c10_name(c(p), &name), UMF_RESULT_SUCCESS) << "get_name";
        return name;
    },
    [](void *p, void *ptr, size_t size) {
        return c10_purge_lazy(c(p), ptr, size);
    },
    [](void *p, void *ptr, size_t size) {
        return c10_purge_force(c(p), ptr, size);
    },
    [](void *p, void *low, void *high, size_t total) {
        return c10_merge(c(p), low, high, total);
    },
    [](void *p, void *ptr, size_t total, size_t first) {
        return c10_split(c(p), ptr, total, first);
    },
    [](void *p, size_t *size) { return c10_ipc_handle_size(c(p), size); },
    [](void *p, const void *ptr, size_t size, void *data) {
        return c10_ipc_get(c(p), ptr, size, data);
    },
    [](void *p, void *data) { return c10_ipc_put(c(p), data); },
    [](void *p, void *data, void **ptr) {
        return c10_ipc_open(c(p), data, ptr);
    },
    [](void *p, void *ptr, size_t size) {
        return c10_ipc_close(c(p), ptr, size);
    },
    stats10,
    properties10,
    [](void *p) {
        // umfCtlExec(name, NULL, 0) of UMF 1.x: a runnable query.
        return c10_ctl("umf.provider.by_handle.{}.stats.peak_memory.reset",
                       nullptr, 0, UMF_GPU_CTL_QUERY_RUNNABLE, c(p));
    },
};
