# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Every public header compiles alone, twice included (include guards), as
# C99 and as C++11, with -Wall -Wextra -Wpedantic -Werror. One ctest test per
# header and language, so a new header is checked without listing it here.

file(
    GLOB_RECURSE umf_gpu_public_headers CONFIGURE_DEPENDS
    RELATIVE ${PROJECT_SOURCE_DIR}/include
    ${PROJECT_SOURCE_DIR}/include/umf/*.h)

set(header_dir ${CMAKE_CURRENT_BINARY_DIR}/header_checks)
set(strict -Wall -Wextra -Wpedantic -Werror -fsyntax-only
           -I${PROJECT_SOURCE_DIR}/include)

function(umf_gpu_header_check name body)
    foreach(lang c99 c++11)
        if(lang STREQUAL "c99")
            set(ext c)
            set(compiler ${CMAKE_C_COMPILER})
        else()
            set(ext cpp)
            set(compiler ${CMAKE_CXX_COMPILER})
        endif()
        set(src ${header_dir}/${name}.${ext})
        file(WRITE ${src} "${body}\nint main(void) { return 0; }\n")
        add_test(NAME header_${name}_${lang}
                 COMMAND ${compiler} -std=${lang} ${strict} ${ARGN} ${src})
        set_tests_properties(header_${name}_${lang} PROPERTIES LABELS
                                                               "unit;headers")
    endforeach()
endfunction()

foreach(header ${umf_gpu_public_headers})
    string(MAKE_C_IDENTIFIER ${header} name)
    umf_gpu_header_check(
        ${name} "#include <${header}>\n#include <${header}>\n")
endforeach()

# The Level Zero provider's header declares the two handle types it needs
# the way ze_api.h does, so the two may be included in either order. (C99
# forbids repeating a typedef, so this pair is checked as C11 and C++11.)
if(UMF_GPU_HAVE_LEVEL_ZERO)
    foreach(order ze_first provider_first)
        if(order STREQUAL "ze_first")
            set(body "#include <level_zero/ze_api.h>\n"
                     "#include <umf/providers/provider_level_zero.h>\n")
        else()
            set(body "#include <umf/providers/provider_level_zero.h>\n"
                     "#include <level_zero/ze_api.h>\n")
        endif()
        string(JOIN "" body ${body})
        foreach(lang c11 c++11)
            if(lang STREQUAL "c11")
                set(src ${header_dir}/ze_${order}.c)
                set(compiler ${CMAKE_C_COMPILER})
            else()
                set(src ${header_dir}/ze_${order}.cpp)
                set(compiler ${CMAKE_CXX_COMPILER})
            endif()
            file(WRITE ${src} "${body}int main(void) { return 0; }\n")
            add_test(NAME header_level_zero_${order}_${lang}
                     COMMAND ${compiler} -std=${lang} -Wall -Wextra -Werror
                             -fsyntax-only -I${PROJECT_SOURCE_DIR}/include
                             -I${UMF_GPU_ZE_API_H} ${src})
            set_tests_properties(header_level_zero_${order}_${lang}
                                 PROPERTIES LABELS "unit;headers")
        endforeach()
    endforeach()
endif()
