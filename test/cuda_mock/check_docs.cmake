# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DLIB=<libcuda.so.1> -DNM=<nm> -DDOC=<docs/emulated-cuda.md>
#       -DCC=<C compiler> -DCUDA_INCLUDE=<dir of cuda.h> -P check_docs.cmake
#
# Three lists of the same functions, compared both ways:
#   - what cuda.h and cudaProfiler.h declare to a driver: the compiler
#     preprocesses them with __CUDA_API_VERSION_INTERNAL, as the driver is
#     built, so every name the headers map a function to (_v2, _v3, _ptds,
#     _ptsz) and every legacy name they declare is in it;
#   - the cu* functions the emulated libcuda exports (nm -D);
#   - the names in the first column of the tables of docs/emulated-cuda.md.
# Nothing declared may be missing from the driver, nothing exported may be
# undeclared, and the documentation names exactly the exports.

cmake_policy(SET CMP0057 NEW)

function(difference out a b)
    set(d "")
    foreach(s ${${a}})
        if(NOT s IN_LIST ${b})
            list(APPEND d ${s})
        endif()
    endforeach()
    set(${out} "${d}" PARENT_SCOPE)
endfunction()

# Declared.
execute_process(
    COMMAND ${CC} -E -P -D__CUDA_API_VERSION_INTERNAL -I${CUDA_INCLUDE}
            -include cuda.h -include cudaProfiler.h -x c /dev/null
    OUTPUT_VARIABLE text
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CC} cannot preprocess ${CUDA_INCLUDE}/cuda.h")
endif()
string(REGEX MATCHALL "CUresult[ \t\r\n]+cu[A-Za-z0-9_]+[ \t\r\n]*\\(" decls
             "${text}")
set(declared "")
foreach(d ${decls})
    string(REGEX REPLACE "CUresult[ \t\r\n]+(cu[A-Za-z0-9_]+).*" "\\1" d
                         "${d}")
    list(APPEND declared ${d})
endforeach()
list(REMOVE_DUPLICATES declared)
list(LENGTH declared n_declared)
if(n_declared LESS 600)
    message(FATAL_ERROR "only ${n_declared} functions in ${CUDA_INCLUDE}/cuda.h")
endif()

# Exported.
execute_process(
    COMMAND ${NM} -D --defined-only ${LIB}
    OUTPUT_VARIABLE out
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(exported "")
foreach(line ${lines})
    if(line MATCHES "^[0-9a-f]+ [A-Za-z] (cu[A-Za-z0-9_]+)(@.*)?$")
        list(APPEND exported ${CMAKE_MATCH_1})
    endif()
endforeach()

# Documented.
file(STRINGS ${DOC} rows REGEX "^\\| `cu")
set(documented "")
foreach(row ${rows})
    # The first cell: between the first two bars.
    string(REGEX MATCH "^\\|([^|]*)\\|" cell "${row}")
    string(REGEX MATCHALL "`cu[A-Za-z0-9_]+`" names "${CMAKE_MATCH_1}")
    foreach(n ${names})
        string(REPLACE "`" "" n "${n}")
        list(APPEND documented ${n})
    endforeach()
endforeach()
list(REMOVE_DUPLICATES documented)

difference(not_exported declared exported)
difference(not_declared exported declared)
difference(not_documented exported documented)
difference(stale documented exported)
if(not_exported OR not_declared OR not_documented OR stale)
    message(
        FATAL_ERROR
            "cuda.h, the exports of ${LIB} and docs/emulated-cuda.md differ:\n"
            "  declared, not exported: ${not_exported}\n"
            "  exported, not declared: ${not_declared}\n"
            "  exported, not documented: ${not_documented}\n"
            "  documented, not exported: ${stale}")
endif()
list(LENGTH exported n_exported)
message(STATUS "${n_declared} functions declared, ${n_exported} cu* "
               "exports, all documented")
