# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Kernels written in OpenCL C, built to SPIR-V at build time with clang-14
# and llvm-spirv-14 (Debian's), as the emulated Level Zero driver runs them
# (docs/level-zero.md, "Kernels"). UMF_GPU_HAVE_SPIRV_TOOLS says whether
# the tools are there; without them nothing is built and the users of the
# kernels say so (tests skip, the demo copies, the benchmark leaves its
# kernel rows out).
#
# umf_gpu_spirv(SOURCE <file.cl> OUTPUT <file.spv>): a custom command.
# umf_gpu_spirv_header(TARGET <target> SOURCE <file.cl> VAR <name>): the
#   module as `static const unsigned char <name>[]` in <name>.h, in the
#   target's binary directory (on its include path), and the definition
#   UMF_GPU_HAVE_<NAME> on the target.

find_program(UMF_GPU_CLANG14 clang-14)
find_program(UMF_GPU_LLVM_SPIRV14 llvm-spirv-14)
if(UMF_GPU_CLANG14 AND UMF_GPU_LLVM_SPIRV14)
    set(UMF_GPU_HAVE_SPIRV_TOOLS TRUE)
else()
    set(UMF_GPU_HAVE_SPIRV_TOOLS FALSE)
    message(STATUS "umf-gpu: clang-14 or llvm-spirv-14 missing: no test "
                   "kernels (install them with tools/install-deps.sh)")
endif()

function(umf_gpu_spirv)
    cmake_parse_arguments(S "" "SOURCE;OUTPUT" "" ${ARGN})
    get_filename_component(dir ${S_OUTPUT} DIRECTORY)
    get_filename_component(name ${S_OUTPUT} NAME_WE)
    add_custom_command(
        OUTPUT ${S_OUTPUT}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
        COMMAND ${UMF_GPU_CLANG14} -cl-std=CL2.0 -target spir64 -emit-llvm -c
                ${S_SOURCE} -o ${dir}/${name}.bc
        COMMAND ${UMF_GPU_LLVM_SPIRV14} ${dir}/${name}.bc -o ${S_OUTPUT}
        DEPENDS ${S_SOURCE}
        COMMENT "SPIR-V of ${name}.cl")
endfunction()

function(umf_gpu_spirv_header)
    cmake_parse_arguments(S "" "TARGET;SOURCE;VAR" "" ${ARGN})
    if(NOT UMF_GPU_HAVE_SPIRV_TOOLS)
        return()
    endif()
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/spirv)
    umf_gpu_spirv(SOURCE ${S_SOURCE} OUTPUT ${dir}/${S_VAR}.spv)
    add_custom_command(
        OUTPUT ${dir}/${S_VAR}.h
        COMMAND
            ${CMAKE_COMMAND} -DIN=${dir}/${S_VAR}.spv -DOUT=${dir}/${S_VAR}.h
            -DVAR=${S_VAR} -DSOURCE=${S_SOURCE} -P
            ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
        DEPENDS ${dir}/${S_VAR}.spv ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
        COMMENT "SPIR-V of ${S_VAR} as a C array")
    target_sources(${S_TARGET} PRIVATE ${dir}/${S_VAR}.h)
    target_include_directories(${S_TARGET} PRIVATE ${dir})
    string(TOUPPER ${S_VAR} upper)
    target_compile_definitions(${S_TARGET} PRIVATE UMF_GPU_HAVE_${upper})
endfunction()
