# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The OpenMP offload toolchain of the example examples/openmp_offload.c:
# Debian's clang with LLVM's offload runtime (libomp-14-dev: libomptarget
# and its CUDA plugin) and the CUDA toolkit's ptxas and nvlink, which clang
# calls for the device code. The example is not built with the project's
# compiler (gcc, often): umf_gpu_openmp_offload_compile() builds it with this
# clang, with the sanitizer flags of the build, so that it can load the
# sanitized emulated libcuda.
#
#   UMF_GPU_OPENMP_OFFLOAD        ON where a test program compiled and linked
#   UMF_GPU_OPENMP_OFFLOAD_WHY    why not, otherwise
#
# A missing toolchain is an error with UMF_GPU_REQUIRE_ALL_PROVIDERS (CI
# must run the example), else the example's tests skip, saying why.

set(UMF_GPU_OPENMP_OFFLOAD OFF)
set(UMF_GPU_OPENMP_OFFLOAD_WHY "")

find_program(UMF_GPU_OFFLOAD_CLANG NAMES clang-14 clang
             DOC "clang with OpenMP offload to nvptx64 (Debian's clang-14)")

if(NOT UMF_GPU_HAVE_CUDA)
    set(UMF_GPU_OPENMP_OFFLOAD_WHY "no CUDA toolkit")
elseif(NOT UMF_GPU_OFFLOAD_CLANG)
    set(UMF_GPU_OPENMP_OFFLOAD_WHY "no clang (install clang-14)")
else()
    # The toolkit's root, for --cuda-path (clang runs its ptxas and nvlink).
    get_filename_component(umf_gpu_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
    set(UMF_GPU_OPENMP_OFFLOAD_FLAGS
        -fopenmp -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_75
        --cuda-path=${umf_gpu_cuda_root} -Wno-unknown-cuda-version
        ${UMF_GPU_SANITIZER_FLAGS})
    set(probe_dir ${CMAKE_BINARY_DIR}/CMakeFiles/openmp-offload-probe)
    file(MAKE_DIRECTORY ${probe_dir})
    file(
        WRITE ${probe_dir}/probe.c
        "#include <omp.h>\nint main(void) {\n    int x = 0;\n"
        "#pragma omp target map(tofrom : x)\n    x = 1;\n"
        "    return omp_get_num_devices() < 0 ? x : 0;\n}\n")
    execute_process(
        COMMAND ${UMF_GPU_OFFLOAD_CLANG} ${UMF_GPU_OPENMP_OFFLOAD_FLAGS}
                probe.c -o probe
        WORKING_DIRECTORY ${probe_dir}
        RESULT_VARIABLE rc
        OUTPUT_VARIABLE out
        ERROR_VARIABLE out)
    if(rc EQUAL 0)
        set(UMF_GPU_OPENMP_OFFLOAD ON)
        message(STATUS "OpenMP offload: ${UMF_GPU_OFFLOAD_CLANG} "
                       "(-fopenmp-targets=nvptx64, ${umf_gpu_cuda_root})")
    else()
        string(REGEX REPLACE "\n.*" "" first "${out}")
        set(UMF_GPU_OPENMP_OFFLOAD_WHY
            "${UMF_GPU_OFFLOAD_CLANG} cannot build an OpenMP offload program "
            "(install libomp-14-dev; the CUDA toolkit needs ptxas and nvlink): "
            "${first}")
    endif()
endif()

if(NOT UMF_GPU_OPENMP_OFFLOAD)
    if(UMF_GPU_REQUIRE_ALL_PROVIDERS AND UMF_GPU_BUILD_TESTS
       AND UMF_GPU_BUILD_MOCKS)
        message(FATAL_ERROR "OpenMP offload example: "
                            "${UMF_GPU_OPENMP_OFFLOAD_WHY}")
    endif()
    message(WARNING "OpenMP offload example left out: "
                    "${UMF_GPU_OPENMP_OFFLOAD_WHY}")
endif()

# umf_gpu_openmp_offload_compile(<target> <source>): builds
# <bin>/<target> from <source> with the offload clang, as target <target>.
function(umf_gpu_openmp_offload_compile target source)
    set(exe ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${target})
    add_custom_command(
        OUTPUT ${exe}
        COMMAND ${UMF_GPU_OFFLOAD_CLANG} ${UMF_GPU_OPENMP_OFFLOAD_FLAGS} -O2
                -Wall -Wextra -Werror ${source} -o ${exe}
        DEPENDS ${source}
        COMMENT "Building OpenMP offload program ${target}"
        VERBATIM)
    add_custom_target(${target} ALL DEPENDS ${exe})
    set_target_properties(${target} PROPERTIES OUTPUT_FILE ${exe})
endfunction()
