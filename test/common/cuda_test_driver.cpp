// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "cuda_test_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

static cuda_test_driver_t driver;
static bool loaded;

const cuda_test_driver_t *cuda_test_driver_load(std::string *why) {
    if (loaded) {
        return &driver;
    }
    const char *env = std::getenv("UMF_GPU_CUDA_LIB");
    driver.path = env != nullptr && env[0] != '\0' ? env : "libcuda.so.1";
    // Never closed: the driver lives as long as the process, as in an
    // application (its leak report runs at exit).
    driver.lib = dlopen(driver.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (driver.lib == nullptr) {
        *why = "dlopen(" + driver.path + ") failed: " + dlerror();
        return nullptr;
    }
#define CUDA_TEST_RESOLVE(name)                                                \
    driver.name =                                                              \
        reinterpret_cast<decltype(driver.name)>(dlsym(driver.lib, #name));     \
    if (driver.name == nullptr) {                                              \
        *why = driver.path + " lacks " #name;                                  \
        return nullptr;                                                        \
    }
    CUDA_TEST_ENTRY_POINTS(CUDA_TEST_RESOLVE)
    CUDA_TEST_RESOLVE(cuCtxCreate_v2)
#undef CUDA_TEST_RESOLVE
#define CUDA_TEST_RESOLVE_OPTIONAL(name)                                       \
    driver.name =                                                              \
        reinterpret_cast<decltype(driver.name)>(dlsym(driver.lib, #name));
    CUDA_TEST_MOCK_CONTROL(CUDA_TEST_RESOLVE_OPTIONAL)
    CUDA_TEST_RESOLVE_OPTIONAL(cuCtxGetDevice_v2)
    CUDA_TEST_RESOLVE_OPTIONAL(cuCtxSynchronize_v2)
    CUDA_TEST_RESOLVE_OPTIONAL(cuEventElapsedTime_v2)
    driver.cuDeviceGetUuid_v1 =
        reinterpret_cast<decltype(driver.cuDeviceGetUuid_v1)>(
            dlsym(driver.lib, "cuDeviceGetUuid"));
    if (driver.cuDeviceGetUuid_v1 == nullptr) {
        *why = driver.path + " lacks cuDeviceGetUuid";
        return nullptr;
    }
    if (driver.cuEventElapsedTime_v2 == nullptr) {
        driver.cuEventElapsedTime_v2 =
            reinterpret_cast<decltype(driver.cuEventElapsedTime_v2)>(
                dlsym(driver.lib, "cuEventElapsedTime"));
        if (driver.cuEventElapsedTime_v2 == nullptr) {
            *why = driver.path + " lacks cuEventElapsedTime";
            return nullptr;
        }
    }
#undef CUDA_TEST_RESOLVE_OPTIONAL
    loaded = true;
    return &driver;
}

void *cuda_test_driver_symbol(const char *name) {
    return loaded ? dlsym(driver.lib, name) : nullptr;
}

std::string cuda_test_result(CUresult r) {
    const char *name = nullptr;
    if (loaded && driver.cuGetErrorName(r, &name) != CUDA_SUCCESS) {
        name = nullptr;
    }
    return std::string(name != nullptr ? name : "CUresult") + " (" +
           std::to_string(static_cast<int>(r)) + ")";
}

bool cuda_test_apply_env(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        const char *eq = std::strchr(argv[i], '=');
        if (eq == nullptr || eq == argv[i]) {
            return false;
        }
        std::string name(argv[i], static_cast<size_t>(eq - argv[i]));
        if (setenv(name.c_str(), eq + 1, 1) != 0) {
            return false;
        }
    }
    return true;
}
