# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DLIB=<libumf_gpu.so> -DNM=<nm> -P check_exports.cmake
# Fails unless the library defines the core API and exports nothing but
# umf* functions.

execute_process(
    COMMAND ${NM} -D --defined-only ${LIB}
    OUTPUT_VARIABLE out
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(count 0)
foreach(line ${lines})
    if(line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.+)$")
        set(name ${CMAKE_MATCH_2})
        if(NOT name MATCHES "^umf[A-Z][A-Za-z0-9_]*$")
            message(FATAL_ERROR "${LIB} exports '${name}', which is not umf*")
        endif()
        math(EXPR count "${count} + 1")
    endif()
endforeach()
foreach(required umfMemoryProviderCreate umfMemoryProviderDestroy
                 umfGetLastFailedMemoryProvider umfMemoryProviderOpenIPCHandle)
    if(NOT out MATCHES "${required}")
        message(FATAL_ERROR "${LIB} does not export ${required}")
    endif()
endforeach()
message(STATUS "${LIB}: ${count} exported symbols, all umf*")
