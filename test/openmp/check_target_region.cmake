# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DEXE=<examples/openmp_offload built> -P check_target_region.cmake
#
# Runs `<EXE> --target`, a target region, which needs a kernel. The emulated
# devices run none, so the OpenMP runtime must stop the program with its own
# error naming the driver's refusal: a non-zero exit (LLVM's runtime aborts
# when a target region cannot run, "offloading is mandatory"), within the
# time limit (no hang), with the driver's log line and the runtime's report
# of the same failure, and no sanitizer report. The check is this script,
# so that the program's abort is not the test harness's. On a real GPU
# (tools/device-check.sh) the region runs on the device, and the script
# says so and passes; a region that ran on the host fails it.

execute_process(
    COMMAND ${EXE} --target
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 60)
message(STATUS "exit: ${rc}\nstdout:\n${out}\nstderr:\n${err}")

set(problems "")
if(out MATCHES "the target region ran on the device")
    # A real GPU ran it (tools/device-check.sh): nothing to refuse there.
    message(STATUS "the target region ran on a device: not the emulated "
                   "driver, whose refusal this checks")
    return()
endif()
if(rc STREQUAL "0")
    list(APPEND problems "the target region ran")
elseif(rc MATCHES "timeout")
    list(APPEND problems "the program hung")
endif()
foreach(
    want
    # The driver's refusal, in its log line.
    "cuModuleLoadDataEx: not supported by the emulated driver"
    # The runtime's report of it: the call and cuGetErrorString's text.
    "Error returned from cuModuleLoadDataEx"
    "operation not supported"
    "Libomptarget")
    string(FIND "${err}" "${want}" at)
    if(at EQUAL -1)
        list(APPEND problems "stderr lacks '${want}'")
    endif()
endforeach()
foreach(bad "target region ran" "Sanitizer" "runtime error:")
    string(FIND "${out}${err}" "${bad}" at)
    if(NOT at EQUAL -1)
        list(APPEND problems "output has '${bad}'")
    endif()
endforeach()
if(problems)
    message(FATAL_ERROR "target region on the emulated devices: ${problems}")
endif()
message(STATUS "the target region failed as it must: ${rc}")
