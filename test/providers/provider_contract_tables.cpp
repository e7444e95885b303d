// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract's tables and parameters (provider_contract.h), and the UMF
// 0.9 table: the provider's ops reached through the core, as a UMF 0.9
// consumer reaches them.

#include "provider_contract.h"

namespace {

umf_memory_provider_handle_t h(void *provider) {
    return static_cast<umf_memory_provider_handle_t>(provider);
}

umf_result_t create09(const umf_test_gpu_t *g,
                      const umf_test_provider_opts_t *opts, void **provider) {
    umf_memory_provider_handle_t out = nullptr;
    umf_result_t r = umf_test_gpu_provider(g, opts, &out);
    *provider = out;
    return r;
}

} // namespace

const ContractTable kContractTableUmf09 = {
    "Umf09",
    create09,
    [](void *p) { umfMemoryProviderDestroy(h(p)); },
    [](void *p, size_t size, size_t alignment, void **ptr) {
        return umfMemoryProviderAlloc(h(p), size, alignment, ptr);
    },
    [](void *p, void *ptr, size_t size) {
        return umfMemoryProviderFree(h(p), ptr, size);
    },
    [](void *p, const char **message, int32_t *code) {
        umfMemoryProviderGetLastNativeError(h(p), message, code);
    },
    [](void *p, size_t size, size_t *page) {
        return umfMemoryProviderGetRecommendedPageSize(h(p), size, page);
    },
    [](void *p, void *ptr, size_t *page) {
        return umfMemoryProviderGetMinPageSize(h(p), ptr, page);
    },
    [](void *p) { return umfMemoryProviderGetName(h(p)); },
    [](void *p, void *ptr, size_t size) {
        return umfMemoryProviderPurgeLazy(h(p), ptr, size);
    },
    [](void *p, void *ptr, size_t size) {
        return umfMemoryProviderPurgeForce(h(p), ptr, size);
    },
    [](void *p, void *low, void *high, size_t total) {
        return umfMemoryProviderAllocationMerge(h(p), low, high, total);
    },
    [](void *p, void *ptr, size_t total, size_t first) {
        return umfMemoryProviderAllocationSplit(h(p), ptr, total, first);
    },
    [](void *p, size_t *size) {
        return umfMemoryProviderGetIPCHandleSize(h(p), size);
    },
    [](void *p, const void *ptr, size_t size, void *data) {
        return umfMemoryProviderGetIPCHandle(h(p), ptr, size, data);
    },
    [](void *p, void *data) {
        return umfMemoryProviderPutIPCHandle(h(p), data);
    },
    [](void *p, void *data, void **ptr) {
        return umfMemoryProviderOpenIPCHandle(h(p), data, ptr);
    },
    [](void *p, void *ptr, size_t size) {
        return umfMemoryProviderCloseIPCHandle(h(p), ptr, size);
    },
    [](void *p, umf_gpu_provider_stats_t *stats) {
        return umfGpuMemoryProviderGetStats(h(p), stats);
    },
    [](void *p, const void *ptr, umf_gpu_allocation_properties_t *props) {
        return umfGpuMemoryProviderGetAllocationProperties(h(p), ptr, props);
    },
    nullptr, // no control queries in the 0.9 layout
};

std::vector<const ContractTable *> contract_tables() {
    return {&kContractTableUmf09, &kContractTableUmf10};
}

std::vector<ContractParam> contract_params() {
    std::vector<ContractParam> params;
    for (umf_test_gpu_kind_t kind : gpu_kinds()) {
        for (const ContractTable *table : contract_tables()) {
            params.push_back({kind, table});
            if (kind == UMF_TEST_GPU_CUDA) {
                params.push_back({kind, table, 1}); // VMM_POSIX_FD
                params.push_back({kind, table, 2}); // VMM_FABRIC
            }
        }
    }
    return params;
}

namespace {

std::string param_name(const ContractParam &param) {
    static const char *const modes[] = {"", "_VmmFd", "_VmmFabric"};
    return std::string(param.kind == UMF_TEST_GPU_CUDA ? "Cuda" : "LevelZero") +
           "_" + param.table->name + modes[param.cuda_mode];
}

} // namespace

void PrintTo(const ContractParam &param, std::ostream *os) {
    *os << param_name(param);
}

std::string
contract_param_name(const ::testing::TestParamInfo<ContractParam> &info) {
    return param_name(info.param);
}

ContractProvider::ContractProvider(const ContractTable *table,
                                   const umf_test_gpu_t *g,
                                   const umf_test_provider_opts_t *opts)
    : t_(table) {
    created_ = t_->create(g, opts, &p_);
    if (created_ != UMF_RESULT_SUCCESS) {
        p_ = nullptr;
    }
}

ContractProvider::~ContractProvider() {
    if (p_ != nullptr) {
        t_->destroy(p_);
    }
}

umf_gpu_provider_stats_t ContractProvider::stats() const {
    umf_gpu_provider_stats_t s = {};
    EXPECT_EQ(stats(&s), UMF_RESULT_SUCCESS);
    return s;
}

void *ContractProvider::alloc_or_null(size_t size, size_t alignment) const {
    void *p = nullptr;
    umf_result_t r = alloc(size, alignment, &p);
    EXPECT_EQ(r, UMF_RESULT_SUCCESS)
        << "alloc(" << size << ", " << alignment << ")";
    return r == UMF_RESULT_SUCCESS ? p : nullptr;
}

std::vector<unsigned char> ContractProvider::ipc_data(const void *ptr,
                                                      size_t size) const {
    size_t n = 0;
    EXPECT_EQ(ipc_handle_size(&n), UMF_RESULT_SUCCESS);
    std::vector<unsigned char> data(n);
    umf_result_t r = get_ipc_handle(ptr, size, data.data());
    EXPECT_EQ(r, UMF_RESULT_SUCCESS) << "get_ipc_handle";
    if (r != UMF_RESULT_SUCCESS) {
        data.clear();
    }
    return data;
}

void ProviderContract::SetUp() {
    g = umf_test_gpu(GetParam().kind);
    table = GetParam().table;
    GPU_REQUIRE(g);
    if (GetParam().cuda_mode != 0) {
        // A mode the device does not support is refused at create
        // (provider_cuda_vmm_test covers that): nothing to test here.
        umf_test_provider_opts_t o = opts({});
        ContractProvider probe(table, g, &o);
        if (probe.create_result() == UMF_RESULT_ERROR_NOT_SUPPORTED) {
            GTEST_SKIP() << "the device does not support the VMM mode "
                         << GetParam().cuda_mode;
        }
    }
    leaks_ = std::make_unique<GpuLeakCheck>(g);
}

umf_test_provider_opts_t
ProviderContract::opts(const umf_test_provider_opts_t &given) const {
    umf_test_provider_opts_t o = given;
    if (o.type == UMF_MEMORY_TYPE_UNKNOWN || o.type == UMF_MEMORY_TYPE_DEVICE) {
        o.cuda_mode = GetParam().cuda_mode;
    }
    return o;
}

void ProviderContract::TearDown() {
    providers_.clear();
    leaks_.reset();
}

const ContractProvider &
ProviderContract::make(const umf_test_provider_opts_t *given) {
    umf_test_provider_opts_t o =
        opts(given != nullptr ? *given : umf_test_provider_opts_t{});
    providers_.push_back(std::make_unique<ContractProvider>(table, g, &o));
    const ContractProvider &p = *providers_.back();
    EXPECT_EQ(p.create_result(), UMF_RESULT_SUCCESS)
        << g->title << " provider (" << table->name << ")";
    return p;
}

const ContractProvider &ProviderContract::make(umf_usm_memory_type_t type) {
    umf_test_provider_opts_t opts = {};
    opts.type = type;
    return make(&opts);
}
