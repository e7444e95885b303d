# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DWORK=<scratch folder> -P check_hashcat.cmake   (in the tests'
#                                environment: the emulated libcuda.so.1)
#
# Debian's hashcat on the emulated libcuda:
#   - `hashcat -I` lists every emulated device (UMF_GPU_MOCK_DEVICES=3 of
#     UMF_GPU_MOCK_DEVICE_MEM=1G each, set here) by its name, with its
#     memory;
#   - a CUDA benchmark (-b -m 0 --backend-ignore-opencl, a short runtime)
#     stops cleanly at the driver's refusal to load code: a non-zero exit,
#     not a signal or a hang, naming the refused call.
# hashcat runs with HOME, its session and its caches in WORK, so that
# nothing of the user's is read or written. Skipped (SKIP: ...) where
# hashcat is not installed (tools/install-deps.sh).

find_program(HASHCAT hashcat)
if(NOT HASHCAT)
    message("SKIP: hashcat is not installed (Debian's hashcat: "
            "tools/install-deps.sh)")
    return()
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(ENV{HOME} ${WORK})
set(ENV{XDG_CACHE_HOME} ${WORK}/cache)
set(ENV{XDG_DATA_HOME} ${WORK}/data)
set(ENV{XDG_CONFIG_HOME} ${WORK}/config)
set(ENV{UMF_GPU_MOCK_DEVICES} 3)
set(ENV{UMF_GPU_MOCK_DEVICE_MEM} 1G)
set(problems "")

execute_process(
    COMMAND ${HASHCAT} -I
    WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 120)
message(STATUS "hashcat -I: ${rc}\n${out}${err}")
if(NOT rc STREQUAL "0")
    list(APPEND problems "hashcat -I failed (${rc})")
endif()
# Each device's block: its name, then its memory.
foreach(dev 0 1 2)
    if(NOT out MATCHES "Name[.]+: UMF GPU emulated CUDA device ${dev}\n[^\n]*\n[^\n]*\n  Memory[.]Total[.]+: 1024 MB\n")
        list(APPEND problems "hashcat -I does not list emulated device "
             "${dev} with 1024 MB")
    endif()
endforeach()
string(REGEX MATCHALL "UMF GPU emulated CUDA device" names "${out}")
list(LENGTH names n)
if(NOT n EQUAL 3)
    list(APPEND problems "hashcat -I lists ${n} emulated devices, not 3")
endif()

execute_process(
    COMMAND ${HASHCAT} -b -m 0 --backend-ignore-opencl --runtime=5
            --session=umf-gpu-test --potfile-disable --quiet -d 1
    WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 240)
message(STATUS "hashcat -b: ${rc}\n${out}${err}")
set(all "${out}${err}")
if(rc STREQUAL "0")
    list(APPEND problems "the benchmark ran without a kernel")
elseif(NOT rc MATCHES "^[0-9]+$")
    list(APPEND problems "the benchmark did not exit cleanly: ${rc}")
endif()
if(all MATCHES "(cuLink[A-Za-z_0-9]*|cuModuleLoad[A-Za-z_0-9]*): not supported by the emulated driver")
    set(refused ${CMAKE_MATCH_1})
    string(REGEX REPLACE "_v[0-9]+$" "" refused_base "${refused}")
    string(FIND "${all}" "${refused_base}(): operation not supported" at)
    if(at EQUAL -1)
        list(APPEND problems "hashcat does not report the refusal of "
             "${refused}")
    endif()
elseif(all MATCHES "[Nn][Vv][Rr][Tt][Cc]")
    # hashcat compiles its kernels with NVIDIA's NVRTC (the CUDA toolkit's
    # libnvrtc) before it hands them to the driver; without it, it stops
    # before the driver sees any code.
    message("SKIP: hashcat stopped before loading code (no NVRTC); "
            "hashcat -I checked")
    return()
else()
    list(APPEND problems "the benchmark does not stop at the driver's "
         "refusal to load code")
endif()
foreach(bad "Sanitizer" "runtime error:")
    string(FIND "${all}" "${bad}" at)
    if(NOT at EQUAL -1)
        list(APPEND problems "output has '${bad}'")
    endif()
endforeach()

if(problems)
    message(FATAL_ERROR "hashcat on the emulated libcuda: ${problems}")
endif()
message(STATUS "hashcat: 3 devices listed, the benchmark stopped at "
               "${refused} (exit ${rc})")
