# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DLIB=<libcuda.so.1> -DNM=<nm> -DDOC=<docs/emulated-cuda.md>
#       -P check_docs.cmake
# Fails unless the cu* functions the emulated libcuda exports (nm -D) and
# the names in the first column of the tables of docs/emulated-cuda.md are
# the same set: nothing exported goes undocumented, nothing documented is
# missing.

cmake_policy(SET CMP0057 NEW)
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

list(LENGTH exported n_exported)
if(n_exported LESS 100)
    message(FATAL_ERROR "only ${n_exported} cu* exports in ${LIB}")
endif()
set(missing "")
foreach(s ${exported})
    if(NOT s IN_LIST documented)
        list(APPEND missing ${s})
    endif()
endforeach()
set(stale "")
foreach(s ${documented})
    if(NOT s IN_LIST exported)
        list(APPEND stale ${s})
    endif()
endforeach()
list(REMOVE_DUPLICATES documented)
list(LENGTH documented n_documented)
if(missing OR stale)
    message(FATAL_ERROR
            "docs/emulated-cuda.md and the exports of ${LIB} differ:\n"
            "  exported, not documented: ${missing}\n"
            "  documented, not exported: ${stale}")
endif()
message(STATUS "${n_exported} cu* exports, all documented (${n_documented} names)")
