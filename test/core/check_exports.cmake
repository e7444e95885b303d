# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DLIB=<libumf_gpu.so> -DNM=<nm> [-DREQUIRED=name;name...]
#       -P check_exports.cmake
# Fails unless the library defines the core API (and every name in
# REQUIRED) and exports nothing but umf* functions, each under the version
# node of cmake/umf_gpu.map.

cmake_policy(SET CMP0057 NEW)
set(version_node UMF_GPU_0.1)
execute_process(
    COMMAND ${NM} -D --defined-only ${LIB}
    OUTPUT_VARIABLE out
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(count 0)
set(names "")
foreach(line ${lines})
    if(NOT line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.+)$")
        continue()
    endif()
    set(type ${CMAKE_MATCH_1})
    set(symbol ${CMAKE_MATCH_2})
    if(type STREQUAL "A" AND (symbol STREQUAL version_node
                              OR symbol STREQUAL "${version_node}@@${version_node}"))
        continue() # the version node's own definition (nm, llvm-nm)
    endif()
    if(NOT symbol MATCHES "^([^@]+)@@(.+)$")
        message(FATAL_ERROR "${LIB} exports '${symbol}' without a version "
                            "(expected @@${version_node})")
    endif()
    set(name ${CMAKE_MATCH_1})
    set(version ${CMAKE_MATCH_2})
    if(NOT name MATCHES "^umf[A-Z][A-Za-z0-9_]*$")
        message(FATAL_ERROR "${LIB} exports '${name}', which is not umf*")
    endif()
    if(NOT version STREQUAL version_node)
        message(FATAL_ERROR "${LIB} exports '${name}' under version "
                            "'${version}', not ${version_node}")
    endif()
    list(APPEND names ${name})
    math(EXPR count "${count} + 1")
endforeach()
# The core API and both providers' ops tables (0.9 and 1.0 layouts).
foreach(
    required
    umfMemoryProviderCreate
    umfMemoryProviderDestroy
    umfGetLastFailedMemoryProvider
    umfMemoryProviderOpenIPCHandle
    umfLevelZeroMemoryProviderOps
    umfCUDAMemoryProviderOps
    ${REQUIRED})
    if(NOT required IN_LIST names)
        message(FATAL_ERROR "${LIB} does not export ${required}")
    endif()
endforeach()
message(STATUS "${LIB}: ${count} exported symbols, all umf*, all "
               "@@${version_node}")
