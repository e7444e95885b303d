// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Resident device changes while other threads allocate and free, seen from
// the driver's side: the loader's tracing layer (ZE_ENABLE_TRACING_LAYER=1,
// set by CMake) reports every residency call the provider makes, from any
// thread, into a model of which devices each allocation is resident on. A
// change is stopped at a fixed call of its walk (so the interleaving is the
// same every run, whatever the timing); other threads allocate and free
// then; when it is done, every live allocation must be resident on exactly
// the devices of the new list. Runs unchanged on a real driver.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <level_zero/layers/zel_tracing_api.h>
#include <level_zero/layers/zel_tracing_register_cb.h>

extern "C" {
#include "ze/ze_loader.h"
}

#include "gpu_test_ze.h"

namespace {

// Which devices each allocation is resident on, as the driver was told.
struct Model {
    std::mutex lock;
    std::map<void *, std::set<ze_device_handle_t>> resident;
    // The changer thread stops at its `stop_at`-th residency call until
    // resumed.
    std::thread::id changer;
    int changer_calls = 0, stop_at = -1;
    bool stopped = false, resume = false;
    std::condition_variable cv;

    void maybe_stop(std::unique_lock<std::mutex> &g) {
        if (std::this_thread::get_id() != changer ||
            ++changer_calls != stop_at) {
            return;
        }
        stopped = true;
        cv.notify_all();
        cv.wait(g, [&] { return resume; });
    }
};

Model *model() {
    static Model m;
    return &m;
}

void ZE_APICALL on_resident(ze_context_make_memory_resident_params_t *params,
                            ze_result_t result, void *, void **) {
    Model *m = model();
    std::unique_lock<std::mutex> g(m->lock);
    if (result == ZE_RESULT_SUCCESS) {
        m->resident[*params->pptr].insert(*params->phDevice);
    }
    m->maybe_stop(g);
}

void ZE_APICALL on_evict(ze_context_evict_memory_params_t *params,
                         ze_result_t result, void *, void **) {
    Model *m = model();
    std::unique_lock<std::mutex> g(m->lock);
    if (result == ZE_RESULT_SUCCESS) {
        m->resident[*params->pptr].erase(*params->phDevice);
    }
    m->maybe_stop(g);
}

void ZE_APICALL on_free(ze_mem_free_params_t *params, ze_result_t result,
                        void *, void **) {
    if (result == ZE_RESULT_SUCCESS) {
        Model *m = model();
        std::lock_guard<std::mutex> g(m->lock);
        m->resident.erase(*params->pptr);
    }
}

// The tracer, through the loader the provider uses (already loaded).
class Tracer {
  public:
    Tracer() {
        void *loader =
            dlopen(UMF_ZE_LOADER_DEFAULT, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (loader == nullptr) {
            return;
        }
        auto create = reinterpret_cast<decltype(&zelTracerCreate)>(
            dlsym(loader, "zelTracerCreate"));
        auto enable = reinterpret_cast<decltype(&zelTracerSetEnabled)>(
            dlsym(loader, "zelTracerSetEnabled"));
        auto on_resident_reg = reinterpret_cast<
            decltype(&zelTracerContextMakeMemoryResidentRegisterCallback)>(
            dlsym(loader,
                  "zelTracerContextMakeMemoryResidentRegisterCallback"));
        auto on_evict_reg = reinterpret_cast<
            decltype(&zelTracerContextEvictMemoryRegisterCallback)>(
            dlsym(loader, "zelTracerContextEvictMemoryRegisterCallback"));
        auto on_free_reg =
            reinterpret_cast<decltype(&zelTracerMemFreeRegisterCallback)>(
                dlsym(loader, "zelTracerMemFreeRegisterCallback"));
        destroy_ = reinterpret_cast<decltype(&zelTracerDestroy)>(
            dlsym(loader, "zelTracerDestroy"));
        dlclose(loader);
        if (!create || !enable || !on_resident_reg || !on_evict_reg ||
            !on_free_reg || !destroy_) {
            return;
        }
        zel_tracer_desc_t desc = {ZEL_STRUCTURE_TYPE_TRACER_EXP_DESC, nullptr,
                                  model()};
        if (create(&desc, &tracer_) != ZE_RESULT_SUCCESS) {
            tracer_ = nullptr;
            return;
        }
        ok_ = on_resident_reg(tracer_, ZEL_REGISTER_EPILOGUE, on_resident) ==
                  ZE_RESULT_SUCCESS &&
              on_evict_reg(tracer_, ZEL_REGISTER_EPILOGUE, on_evict) ==
                  ZE_RESULT_SUCCESS &&
              on_free_reg(tracer_, ZEL_REGISTER_EPILOGUE, on_free) ==
                  ZE_RESULT_SUCCESS &&
              enable(tracer_, true) == ZE_RESULT_SUCCESS;
    }
    ~Tracer() {
        if (tracer_ != nullptr) {
            destroy_(tracer_);
        }
    }
    bool ok() const {
        return ok_;
    }

  private:
    zel_tracer_handle_t tracer_ = nullptr;
    decltype(&zelTracerDestroy) destroy_ = nullptr;
    bool ok_ = false;
};

class ZeResidencyDuringChurn : public ZeProviderTest {
  protected:
    // Every live allocation resident on exactly `devices`.
    void expect_resident(const std::set<void *> &live,
                         const std::set<ze_device_handle_t> &devices) {
        Model *m = model();
        std::lock_guard<std::mutex> g(m->lock);
        size_t wrong = 0;
        for (void *p : live) {
            auto it = m->resident.find(p);
            const std::set<ze_device_handle_t> none;
            if ((it != m->resident.end() ? it->second : none) != devices) {
                wrong++;
            }
        }
        EXPECT_EQ(wrong, 0u) << "of " << live.size() << " live allocations";
    }

    // Runs a change that stops at its `stop_at`-th residency call; while it
    // is stopped, `during` runs here. Returns the change's result.
    umf_result_t change_stopped(umf_memory_provider_handle_t h,
                                ze_device_handle_t device, bool adding,
                                int stop_at,
                                const std::function<void()> &during) {
        Model *m = model();
        {
            std::lock_guard<std::mutex> g(m->lock);
            m->changer_calls = 0;
            m->stop_at = stop_at;
            m->stopped = m->resume = false;
        }
        umf_result_t ret = UMF_RESULT_ERROR_UNKNOWN;
        std::thread changer([&] {
            {
                std::lock_guard<std::mutex> g(m->lock);
                m->changer = std::this_thread::get_id();
            }
            ret = umfLevelZeroMemoryProviderResidentDeviceChange(h, device,
                                                                 adding);
        });
        {
            std::unique_lock<std::mutex> g(m->lock);
            m->cv.wait(g, [&] { return m->stopped; });
        }
        during();
        {
            std::lock_guard<std::mutex> g(m->lock);
            m->resume = true;
            m->cv.notify_all();
        }
        changer.join();
        std::lock_guard<std::mutex> g(m->lock);
        m->changer = std::thread::id();
        return ret;
    }
};

TEST_F(ZeResidencyDuringChurn, EveryAllocationEndsWithTheNewResidency) {
    ZE_TEST_REQUIRE_ENV();
    ASSERT_GE(ze_devices().size(), 2u);
    Tracer tracer;
    if (!tracer.ok()) {
        GTEST_SKIP() << "needs the loader's tracing layer "
                        "(ZE_ENABLE_TRACING_LAYER=1)";
    }
    umf_memory_provider_handle_t h = provider();
    const size_t size = 4096;
    std::set<void *> live;
    std::mutex live_lock;
    auto alloc = [&](int n) {
        for (int i = 0; i < n; i++) {
            void *p = nullptr;
            ASSERT_EQ(umfMemoryProviderAlloc(h, size, 0, &p),
                      UMF_RESULT_SUCCESS);
            std::lock_guard<std::mutex> g(live_lock);
            live.insert(p);
        }
    };
    // Frees n of the allocations in `from` (taken out of `live`).
    auto free_some = [&](std::vector<void *> from) {
        for (void *p : from) {
            EXPECT_EQ(umfMemoryProviderFree(h, p, size), UMF_RESULT_SUCCESS);
        }
    };
    auto take = [&](size_t n, bool newest) {
        std::lock_guard<std::mutex> g(live_lock);
        std::vector<void *> out;
        while (out.size() < n && !live.empty()) {
            auto it = newest ? std::prev(live.end()) : live.begin();
            out.push_back(*it);
            live.erase(it);
        }
        return out;
    };
    alloc(2000);
    ze_device_handle_t other = dev(1);
    for (bool adding : {true, false}) {
        std::thread old_frees;
        ASSERT_EQ(change_stopped(h, other, adding, 700,
                                 [&] {
                                     // New allocations, and frees of some of
                                     // them, while the walk is stopped; and
                                     // frees of older ones (which may wait
                                     // for the walk's batch) from a thread
                                     // of their own.
                                     alloc(300);
                                     free_some(take(100, true));
                                     std::vector<void *> old = take(400, false);
                                     old_frees = std::thread(free_some, old);
                                 }),
                  UMF_RESULT_SUCCESS);
        old_frees.join();
        std::set<ze_device_handle_t> want;
        if (adding) {
            want.insert(other);
        }
        expect_resident(live, want);
    }
    free_some(take(live.size(), false));
}

} // namespace
