// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kind-independent part of the harness: one environment per kind, made
// once, and the calls that go to the kind's backend.

#include "gpu_harness.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_harness_backend.h"

namespace {

struct Slot {
    std::once_flag once;
    umf_test_gpu_t gpu;
    std::string why; // owns gpu.why's text
    bool up = false; // bring_up succeeded and nothing was released yet
};

Slot g_slots[UMF_TEST_GPU_KIND_COUNT];

const umf_test_gpu_backend_t *backend_of(umf_test_gpu_kind_t kind) {
#if UMF_TEST_HAVE_LEVEL_ZERO
    if (kind == UMF_TEST_GPU_LEVEL_ZERO) {
        return &umf_test_ze_backend;
    }
#endif
#if UMF_TEST_HAVE_CUDA
    if (kind == UMF_TEST_GPU_CUDA) {
        return &umf_test_cuda_backend;
    }
#endif
    (void)kind;
    return nullptr;
}

// At exit, before the emulated drivers write their leak reports (they were
// loaded, and their reports registered, before this handler).
void release_at_exit() {
    umf_test_gpu_release_all();
}

void bring_up(Slot &s, umf_test_gpu_kind_t kind) {
    umf_test_gpu_t &g = s.gpu;
    g = umf_test_gpu_t();
    g.kind = kind;
    g.name = umf_test_gpu_kind_name(kind);
    g.title = kind == UMF_TEST_GPU_CUDA ? "CUDA" : "Level Zero";
    const umf_test_gpu_backend_t *b = backend_of(kind);
    if (b == nullptr) {
        s.why = std::string(g.title) + " is not in this build";
    } else {
        s.why = b->bring_up(&g);
    }
    s.up = s.why.empty();
    g.why = s.up ? nullptr : s.why.c_str();
    static std::once_flag at_exit;
    if (s.up) {
        std::call_once(at_exit, [] { std::atexit(release_at_exit); });
    }
    const umf_test_gpu_mock_t &m = g.mock;
    g.emulated = s.up && m.inject != nullptr && m.clear != nullptr &&
                 m.calls != nullptr && m.reset_calls != nullptr &&
                 m.live != nullptr && m.object_count != nullptr &&
                 m.leak_report != nullptr;
    if (!g.emulated) {
        g.mock = umf_test_gpu_mock_t();
    }
}

bool usable(const umf_test_gpu_t *g) {
    return g != nullptr && g->why == nullptr;
}

} // namespace

extern "C" {

const umf_test_gpu_t *umf_test_gpu(umf_test_gpu_kind_t kind) {
    // An invalid kind is taken as Level Zero rather than read out of bounds.
    size_t i = static_cast<size_t>(kind) < UMF_TEST_GPU_KIND_COUNT
                   ? static_cast<size_t>(kind)
                   : 0;
    Slot &s = g_slots[i];
    std::call_once(s.once,
                   [&] { bring_up(s, static_cast<umf_test_gpu_kind_t>(i)); });
    return &s.gpu;
}

int umf_test_gpu_kinds(umf_test_gpu_kind_t kinds[UMF_TEST_GPU_KIND_COUNT]) {
    int n = 0;
    for (umf_test_gpu_kind_t k : {UMF_TEST_GPU_LEVEL_ZERO, UMF_TEST_GPU_CUDA}) {
        if (backend_of(k) != nullptr) {
            kinds[n++] = k;
        }
    }
    return n;
}

const char *umf_test_gpu_kind_name(umf_test_gpu_kind_t kind) {
    return kind == UMF_TEST_GPU_CUDA ? "cuda" : "level_zero";
}

void umf_test_gpu_release_all(void) {
    for (size_t i = 0; i < UMF_TEST_GPU_KIND_COUNT; i++) {
        Slot &s = g_slots[i];
        // A kind never brought up has nothing to release; bring it up as
        // released, so that a later umf_test_gpu() does not make it anew.
        std::call_once(s.once, [&] {
            s.gpu = umf_test_gpu_t();
            s.gpu.kind = static_cast<umf_test_gpu_kind_t>(i);
            s.gpu.name = umf_test_gpu_kind_name(s.gpu.kind);
        });
        if (s.up) {
            backend_of(s.gpu.kind)->release(&s.gpu);
            s.up = false;
        }
        s.why = "released";
        s.gpu.why = s.why.c_str();
        s.gpu.context = nullptr;
    }
}

void *umf_test_gpu_context_create(const umf_test_gpu_t *g, int device) {
    if (!usable(g) || device < 0 || device >= g->device_count) {
        return nullptr;
    }
    return backend_of(g->kind)->context_create(g, device);
}

bool umf_test_gpu_context_destroy(const umf_test_gpu_t *g, void *context) {
    return usable(g) && context != nullptr &&
           backend_of(g->kind)->context_destroy(g, context);
}

umf_result_t umf_test_gpu_provider_with(const umf_test_gpu_t *g,
                                        const umf_test_provider_opts_t *opts,
                                        umf_test_gpu_create_fn create,
                                        void *arg) {
    if (!usable(g)) {
        return UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
    }
    umf_test_provider_opts_t o =
        opts != nullptr ? *opts : umf_test_provider_opts_t();
    if (o.type == UMF_MEMORY_TYPE_UNKNOWN) {
        o.type = UMF_MEMORY_TYPE_DEVICE;
    }
    if (o.context == nullptr) {
        o.context = g->context;
    }
    return backend_of(g->kind)->provider(g, o, create, arg);
}

umf_result_t umf_test_gpu_provider(const umf_test_gpu_t *g,
                                   const umf_test_provider_opts_t *opts,
                                   umf_memory_provider_handle_t *out) {
    *out = nullptr;
    return umf_test_gpu_provider_with(
        g, opts,
        [](const umf_test_gpu_t *kind, const void *params, void *arg) {
            // The 0.9 table takes its parameters as void *; ours only read.
            return umfMemoryProviderCreate(
                kind->ops, const_cast<void *>(params),
                static_cast<umf_memory_provider_handle_t *>(arg));
        },
        out);
}

void umf_test_gpu_native_error(const umf_test_gpu_t *g, const char **message,
                               int32_t *code) {
    if (g->ops == nullptr || umfGpuMemoryProviderOpsGetLastNativeError(
                                 g->ops, message, code) != UMF_RESULT_SUCCESS) {
        *message = nullptr;
        *code = 0;
    }
}

bool umf_test_gpu_copy(const umf_test_gpu_t *g, void *context, void *dst,
                       const void *src, size_t size) {
    if (!usable(g)) {
        return false;
    }
    return backend_of(g->kind)->copy(g, context ? context : g->context, dst,
                                     src, size);
}

bool umf_test_gpu_driver_alloc(const umf_test_gpu_t *g, void *context,
                               size_t size, void **ptr) {
    *ptr = nullptr;
    return usable(g) && backend_of(g->kind)->driver_alloc(
                            g, context ? context : g->context, size, ptr);
}

bool umf_test_gpu_driver_free(const umf_test_gpu_t *g, void *context,
                              void *ptr) {
    return usable(g) && backend_of(g->kind)->driver_free(
                            g, context ? context : g->context, ptr);
}

void umf_test_pattern(void *dst, size_t size, unsigned seed) {
    unsigned char *p = static_cast<unsigned char *>(dst);
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < size; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = static_cast<unsigned char>(x >> 24);
    }
}

bool umf_test_gpu_fill(const umf_test_gpu_t *g, void *context, void *dst,
                       size_t size, unsigned seed) {
    std::vector<unsigned char> v(size);
    umf_test_pattern(v.data(), size, seed);
    return umf_test_gpu_copy(g, context, dst, v.data(), size);
}

bool umf_test_gpu_check(const umf_test_gpu_t *g, void *context, const void *src,
                        size_t size, unsigned seed) {
    std::vector<unsigned char> want(size), got(size);
    umf_test_pattern(want.data(), size, seed);
    return umf_test_gpu_copy(g, context, got.data(), src, size) && got == want;
}

int64_t umf_test_gpu_live(const umf_test_gpu_t *g, umf_gpu_mock_live_t what) {
    return g->mock.live != nullptr ? g->mock.live(what) : -1;
}

int64_t umf_test_gpu_calls(const umf_test_gpu_t *g, const char *entry) {
    return g->mock.calls != nullptr ? g->mock.calls(entry) : -1;
}

} // extern "C"

umf_test_gpu_mock_t
umf_test_gpu_mock_resolve(const char *prefix,
                          const std::function<void *(const char *)> &lookup) {
    umf_test_gpu_mock_t m = {};
    auto get = [&](auto &slot, const char *what) {
        std::string name = std::string(prefix) + what;
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
            lookup(name.c_str()));
    };
    get(m.inject, "InjectFaults");
    get(m.clear, "ClearFaults");
    get(m.calls, "GetCallCount");
    get(m.reset_calls, "ResetCallCounts");
    get(m.live, "GetLiveCount");
    get(m.object_count, "GetObjectCount");
    get(m.leak_report, "WriteLeakReport");
    return m;
}

void *umf_test_gpu_loaded_symbol(const char *path, const char *name) {
    void *lib = path != nullptr && path[0] != '\0'
                    ? dlopen(path, RTLD_NOW | RTLD_NOLOAD)
                    : nullptr;
    if (lib == nullptr) {
        return nullptr;
    }
    void *sym = dlsym(lib, name);
    dlclose(lib); // the process keeps the library loaded
    return sym;
}
