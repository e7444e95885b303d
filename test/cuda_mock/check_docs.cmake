# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DLIB=<libcuda.so.1> -DNM=<nm> -DDOC=<docs/emulated-cuda.md>
#       -DCC=<C compiler> -DCUDA_INCLUDE=<dir of cuda.h> [-DINTEROP=ON]
#       -P check_docs.cmake
#
# Three lists of the same functions, compared both ways:
#   - what cuda.h, cudaProfiler.h and the interop headers (cudaGL.h,
#     cudaEGL.h, cudaVDPAU.h) declare to a driver: the compiler
#     preprocesses them with __CUDA_API_VERSION_INTERNAL, as the driver is
#     built, so every name the headers map a function to (_v2, _v3, _ptds,
#     _ptsz) and every legacy name they declare is in it. INTEROP=OFF: the
#     driver was built without the GL, EGL and VDPAU headers (and so
#     without those functions), and the interop headers are left out;
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
set(headers -include cuda.h -include cudaProfiler.h)
if(INTEROP)
    # cudaVDPAU.h expects vdpau.h included before it.
    list(APPEND headers -include cudaGL.h -include cudaEGL.h -include
         vdpau/vdpau.h -include cudaVDPAU.h)
endif()
execute_process(
    COMMAND ${CC} -E -P -D__CUDA_API_VERSION_INTERNAL -I${CUDA_INCLUDE}
            ${headers} -x c /dev/null
    OUTPUT_VARIABLE text
    ERROR_VARIABLE err
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CC} cannot preprocess ${headers}: ${err}")
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
if(INTEROP)
    # The interop headers' own functions: at least one of each header.
    foreach(n cuGLGetDevices_v2 cuEGLStreamConsumerConnect cuVDPAUGetDevice)
        if(NOT n IN_LIST declared)
            message(FATAL_ERROR "${n} not declared by the interop headers")
        endif()
    endforeach()
else()
    message(STATUS "cudaGL.h, cudaEGL.h, cudaVDPAU.h not checked: the driver "
                   "was built without the GL, EGL and VDPAU headers")
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

if(NOT INTEROP)
    # The documentation names the interop functions all the same: left out
    # of the comparison (their names, as the headers' text has them).
    foreach(h cudaGL.h cudaEGL.h cudaVDPAU.h)
        file(READ ${CUDA_INCLUDE}/${h} interop_text)
        foreach(n ${documented})
            string(REGEX MATCH "[^A-Za-z0-9_]${n}[^A-Za-z0-9_]" hit
                         "${interop_text}")
            string(REGEX MATCH "^(.*)_v2(_ptds|_ptsz)?$" versioned "${n}")
            if(NOT hit AND versioned)
                string(REGEX MATCH "[^A-Za-z0-9_]${CMAKE_MATCH_1}[^A-Za-z0-9_]"
                             hit "${interop_text}")
            endif()
            if(hit AND NOT n IN_LIST declared)
                list(REMOVE_ITEM documented ${n})
            endif()
        endforeach()
    endforeach()
endif()

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
