# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Finds the driver API headers. The library links to no driver (it opens them
# at run time), so only header targets are made here:
#   umf_gpu::ze_headers    Level Zero, from pkg-config 'level-zero' (libze-dev)
#   umf_gpu::cuda_headers  CUDA driver API, from find_package(CUDAToolkit)
# and UMF_GPU_HAVE_LEVEL_ZERO / UMF_GPU_HAVE_CUDA say which were found.

# Says why a provider is left out: an error with
# UMF_GPU_REQUIRE_ALL_PROVIDERS, else a warning.
function(umf_gpu_provider_missing)
    if(UMF_GPU_REQUIRE_ALL_PROVIDERS)
        message(FATAL_ERROR ${ARGV})
    endif()
    message(WARNING ${ARGV})
endfunction()

set(UMF_GPU_HAVE_LEVEL_ZERO OFF)
set(UMF_GPU_HAVE_CUDA OFF)

if(UMF_GPU_BUILD_LEVEL_ZERO)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
        pkg_check_modules(UMF_GPU_LEVEL_ZERO QUIET level-zero)
    endif()
    if(UMF_GPU_LEVEL_ZERO_FOUND)
        find_path(
            UMF_GPU_ZE_API_H level_zero/ze_api.h
            HINTS ${UMF_GPU_LEVEL_ZERO_INCLUDE_DIRS}
                  ${UMF_GPU_LEVEL_ZERO_INCLUDEDIR})
    endif()
    if(UMF_GPU_LEVEL_ZERO_FOUND AND UMF_GPU_ZE_API_H)
        set(UMF_GPU_HAVE_LEVEL_ZERO ON)
        add_library(umf_gpu_ze_headers INTERFACE)
        add_library(umf_gpu::ze_headers ALIAS umf_gpu_ze_headers)
        target_include_directories(umf_gpu_ze_headers SYSTEM
                                   INTERFACE ${UMF_GPU_ZE_API_H})
        find_library(UMF_GPU_ZE_LOADER_LIBRARY NAMES ze_loader
                     HINTS ${UMF_GPU_LEVEL_ZERO_LIBRARY_DIRS})
        message(STATUS "Level Zero ${UMF_GPU_LEVEL_ZERO_VERSION} headers: "
                       "${UMF_GPU_ZE_API_H}")
    else()
        set(msg
            "Level Zero headers not found (pkg-config module 'level-zero', "
            "Debian package libze-dev): the Level Zero provider and the "
            "emulated Level Zero driver are left out, and the provider's "
            "functions return UMF_RESULT_ERROR_NOT_SUPPORTED.")
        umf_gpu_provider_missing(${msg})
    endif()
endif()

if(UMF_GPU_BUILD_CUDA)
    if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
        set(CUDAToolkit_ROOT /usr/local/cuda)
    endif()
    find_package(CUDAToolkit QUIET)
    if(CUDAToolkit_FOUND AND EXISTS "${CUDAToolkit_INCLUDE_DIRS}/cuda.h")
        set(UMF_GPU_HAVE_CUDA ON)
        add_library(umf_gpu_cuda_headers INTERFACE)
        add_library(umf_gpu::cuda_headers ALIAS umf_gpu_cuda_headers)
        target_include_directories(umf_gpu_cuda_headers SYSTEM
                                   INTERFACE ${CUDAToolkit_INCLUDE_DIRS})
        message(STATUS "CUDA ${CUDAToolkit_VERSION} driver API headers: "
                       "${CUDAToolkit_INCLUDE_DIRS}")
    else()
        set(msg
            "CUDA driver API headers (cuda.h) not found; set CUDAToolkit_ROOT "
            "to the toolkit (e.g. /usr/local/cuda): the CUDA provider and the "
            "emulated libcuda are left out, and the provider's functions "
            "return UMF_RESULT_ERROR_NOT_SUPPORTED.")
        umf_gpu_provider_missing(${msg})
    endif()
endif()
