# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Compiler warnings for everything this project compiles. UMF_GPU_WERROR turns
# them into errors; the test command and CI always set it.

function(umf_gpu_target_warnings target)
    target_compile_options(
        ${target}
        PRIVATE -Wall
                -Wextra
                -Wformat=2
                -Wundef
                -Wvla
                $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>
                $<$<COMPILE_LANGUAGE:C>:-Wmissing-prototypes>
                $<$<BOOL:${UMF_GPU_WERROR}>:-Werror>)
endfunction()
