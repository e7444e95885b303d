// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The provider contract, written once: every case runs for each provider
// kind (Level Zero, CUDA) and each ops table (ContractTable) the build has,
// so that any difference between the two providers, or between two tables
// of one provider, is a failing case.
//
// The parameter has two dimensions, kind x table. A table is one way to
// drive a provider's ops: the UMF 0.9 table through our core
// (umfMemoryProvider*, kContractTableUmf09), and the UMF 1.0-layout table
// (umf*MemoryProviderOps_1_0(), issue 19) through a stand-in UMF 1.x
// consumer (kContractTableUmf10). Cases are named .../LevelZero_Umf09,
// .../Cuda_Umf10 and so on. Adding a table:
//   1. define `extern const ContractTable kContractTable<Name>` in a file of
//      its own (provider_contract_table_<name>.cpp): each member calls that
//      table's op for the provider made by its create;
//   2. add it to contract_tables() in provider_contract_tables.cpp;
//   3. list the file in test_provider_contract's SOURCES.

#ifndef UMF_GPU_TEST_PROVIDER_CONTRACT_H
#define UMF_GPU_TEST_PROVIDER_CONTRACT_H 1

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "gpu_test.h"

// One way to call a provider's ops. `provider` is whatever create made.
struct ContractTable {
    const char *name; // a test-name part: letters and digits

    // Makes a provider of g's kind with `opts` (NULL: the defaults).
    umf_result_t (*create)(const umf_test_gpu_t *g,
                           const umf_test_provider_opts_t *opts,
                           void **provider);
    void (*destroy)(void *provider);

    umf_result_t (*alloc)(void *provider, size_t size, size_t alignment,
                          void **ptr);
    umf_result_t (*free)(void *provider, void *ptr, size_t size);
    void (*last_native_error)(void *provider, const char **message,
                              int32_t *code);
    umf_result_t (*recommended_page_size)(void *provider, size_t size,
                                          size_t *page);
    umf_result_t (*min_page_size)(void *provider, void *ptr, size_t *page);
    const char *(*name_of)(void *provider);
    umf_result_t (*purge_lazy)(void *provider, void *ptr, size_t size);
    umf_result_t (*purge_force)(void *provider, void *ptr, size_t size);
    umf_result_t (*merge)(void *provider, void *low, void *high, size_t total);
    umf_result_t (*split)(void *provider, void *ptr, size_t total,
                          size_t first);
    umf_result_t (*ipc_handle_size)(void *provider, size_t *size);
    umf_result_t (*get_ipc_handle)(void *provider, const void *ptr, size_t size,
                                   void *data);
    umf_result_t (*put_ipc_handle)(void *provider, void *data);
    umf_result_t (*open_ipc_handle)(void *provider, void *data, void **ptr);
    umf_result_t (*close_ipc_handle)(void *provider, void *ptr, size_t size);

    // The GPU extensions (umf/memory_provider_gpu.h).
    umf_result_t (*stats)(void *provider, umf_gpu_provider_stats_t *stats);
    umf_result_t (*properties)(void *provider, const void *ptr,
                               umf_gpu_allocation_properties_t *props);

    // UMF 1.x's control query stats.peak_memory.reset (umfCtlExec); NULL
    // where the table has no control queries (the 0.9 layout).
    umf_result_t (*reset_peak)(void *provider);
};

extern const ContractTable kContractTableUmf09;
extern const ContractTable kContractTableUmf10;

// The tables of this build.
std::vector<const ContractTable *> contract_tables();

struct ContractParam {
    umf_test_gpu_kind_t kind;
    const ContractTable *table;
    // CUDA: the umf_cuda_allocation_mode_t of the DEVICE providers made.
    int cuda_mode = 0;
};

// How GoogleTest shows a parameter (--gtest_list_tests): "Cuda_Umf09".
void PrintTo(const ContractParam &param, std::ostream *os);

// Every kind x table of this build, CUDA also in its VMM modes, and their
// test names ("Cuda_Umf09", "Cuda_Umf09_VmmFd").
std::vector<ContractParam> contract_params();
std::string
contract_param_name(const ::testing::TestParamInfo<ContractParam> &info);

// A provider made through a table, destroyed with the object. Each method
// is the table's op of the same name.
class ContractProvider {
  public:
    ContractProvider(const ContractTable *table, const umf_test_gpu_t *g,
                     const umf_test_provider_opts_t *opts);
    ~ContractProvider();
    ContractProvider(const ContractProvider &) = delete;
    ContractProvider &operator=(const ContractProvider &) = delete;

    umf_result_t create_result() const {
        return created_;
    }
    bool ok() const {
        return p_ != nullptr;
    }

    umf_result_t alloc(size_t size, size_t alignment, void **ptr) const {
        return t_->alloc(p_, size, alignment, ptr);
    }
    umf_result_t free(void *ptr, size_t size) const {
        return t_->free(p_, ptr, size);
    }
    void last_native_error(const char **message, int32_t *code) const {
        t_->last_native_error(p_, message, code);
    }
    umf_result_t recommended_page_size(size_t size, size_t *page) const {
        return t_->recommended_page_size(p_, size, page);
    }
    umf_result_t min_page_size(void *ptr, size_t *page) const {
        return t_->min_page_size(p_, ptr, page);
    }
    const char *name() const {
        return t_->name_of(p_);
    }
    umf_result_t purge_lazy(void *ptr, size_t size) const {
        return t_->purge_lazy(p_, ptr, size);
    }
    umf_result_t purge_force(void *ptr, size_t size) const {
        return t_->purge_force(p_, ptr, size);
    }
    umf_result_t merge(void *low, void *high, size_t total) const {
        return t_->merge(p_, low, high, total);
    }
    umf_result_t split(void *ptr, size_t total, size_t first) const {
        return t_->split(p_, ptr, total, first);
    }
    umf_result_t ipc_handle_size(size_t *size) const {
        return t_->ipc_handle_size(p_, size);
    }
    umf_result_t get_ipc_handle(const void *ptr, size_t size,
                                void *data) const {
        return t_->get_ipc_handle(p_, ptr, size, data);
    }
    umf_result_t put_ipc_handle(void *data) const {
        return t_->put_ipc_handle(p_, data);
    }
    umf_result_t open_ipc_handle(void *data, void **ptr) const {
        return t_->open_ipc_handle(p_, data, ptr);
    }
    umf_result_t close_ipc_handle(void *ptr, size_t size) const {
        return t_->close_ipc_handle(p_, ptr, size);
    }
    umf_result_t stats(umf_gpu_provider_stats_t *stats) const {
        return t_->stats(p_, stats);
    }
    umf_result_t properties(const void *ptr,
                            umf_gpu_allocation_properties_t *props) const {
        return t_->properties(p_, ptr, props);
    }
    umf_result_t reset_peak() const {
        return t_->reset_peak(p_);
    }

    // Conveniences: the stats (zeros on failure, which is a test failure),
    // an allocation (nullptr on failure, a test failure too), IPC data.
    umf_gpu_provider_stats_t stats() const;
    void *alloc_or_null(size_t size, size_t alignment = 0) const;
    std::vector<unsigned char> ipc_data(const void *ptr, size_t size) const;

  private:
    const ContractTable *t_;
    void *p_ = nullptr;
    umf_result_t created_;
};

// The fixture: the kind's driver (a fatal failure when it is unusable), the
// table, providers made with make() that live until the test ends, and the
// check that the test left no driver allocation or IPC mapping behind.
class ProviderContract : public ::testing::TestWithParam<ContractParam> {
  protected:
    void SetUp() override;
    void TearDown() override;

    // A provider of the kind (a failed create is a test failure; check
    // ok()). opts NULL: DEVICE memory on device 0 of the harness's context.
    const ContractProvider &
    make(const umf_test_provider_opts_t *opts = nullptr);
    const ContractProvider &make(umf_usm_memory_type_t type);
    // `given` with the parameter's CUDA mode where it makes DEVICE memory.
    umf_test_provider_opts_t opts(const umf_test_provider_opts_t &given) const;

    // Driver copies in the harness's context.
    bool fill(void *dst, size_t size, unsigned seed) const {
        return umf_test_gpu_fill(g, nullptr, dst, size, seed);
    }
    bool check(const void *src, size_t size, unsigned seed) const {
        return umf_test_gpu_check(g, nullptr, src, size, seed);
    }

    bool cuda() const {
        return g->kind == UMF_TEST_GPU_CUDA;
    }

    const umf_test_gpu_t *g = nullptr;
    const ContractTable *table = nullptr;

  private:
    std::vector<std::unique_ptr<ContractProvider>> providers_;
    std::unique_ptr<GpuLeakCheck> leaks_;
};

#endif // UMF_GPU_TEST_PROVIDER_CONTRACT_H
