# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -P check_ffmpeg.cmake   (in the tests' environment: the emulated
#                                libcuda.so.1 on the library path)
#
# Debian's ffmpeg on the emulated libcuda, as a CI job of a video project
# would run it:
#   - a few frames of a generated pattern (lavfi testsrc) uploaded to the
#     device (hwupload_cuda) and downloaded again (hwdownload) must come
#     out byte for byte as the software path gives them (framemd5);
#   - the same run with a fault rule on cuMemcpy2DAsync_v2 must fail naming
#     it, so that the frames did travel through the driver's copies;
#   - a CUDA filter that needs a kernel (scale_cuda) must fail cleanly: a
#     non-zero exit, not a signal or a hang, with ffmpeg's report of the
#     driver's refusal (cuModuleLoadData, CUDA_ERROR_NOT_SUPPORTED).
# Skipped (SKIP: ...) where ffmpeg is not installed (tools/install-deps.sh).

find_program(FFMPEG ffmpeg)
if(NOT FFMPEG)
    message("SKIP: ffmpeg is not installed (Debian's ffmpeg: "
            "tools/install-deps.sh)")
    return()
endif()

set(pattern -f lavfi -i testsrc=size=128x96:rate=5 -frames:v 3)
set(hw -init_hw_device cuda=cu -filter_hw_device cu)
set(upload format=nv12,hwupload_cuda)
set(download hwdownload,format=nv12)

# Runs ffmpeg with `args`; its exit, stdout and stderr in <prefix>_rc,
# <prefix>_out, <prefix>_err.
function(run_ffmpeg prefix)
    execute_process(
        COMMAND ${FFMPEG} -nostdin -hide_banner -loglevel error ${ARGN}
        RESULT_VARIABLE rc
        OUTPUT_VARIABLE out
        ERROR_VARIABLE err
        TIMEOUT 60)
    set(${prefix}_rc "${rc}" PARENT_SCOPE)
    set(${prefix}_out "${out}" PARENT_SCOPE)
    set(${prefix}_err "${err}" PARENT_SCOPE)
endfunction()

# The frames' checksums of a framemd5 output (its comment lines left out).
function(frames out text)
    string(REGEX MATCHALL "[^\n]*[0-9a-f]+\n" lines "${text}")
    set(kept "")
    foreach(l ${lines})
        if(NOT l MATCHES "^#")
            string(APPEND kept "${l}")
        endif()
    endforeach()
    set(${out} "${kept}" PARENT_SCOPE)
endfunction()

set(problems "")

run_ffmpeg(sw ${pattern} -vf format=nv12 -f framemd5 -)
frames(sw_frames "${sw_out}")
if(NOT sw_rc STREQUAL "0" OR NOT sw_frames MATCHES "^([^\n]+\n)(.+\n)(.+\n)$")
    message(FATAL_ERROR "the software path failed (${sw_rc}): ${sw_err}")
endif()

run_ffmpeg(up ${hw} ${pattern} -vf ${upload},${download} -f framemd5 -)
message(STATUS "hwupload_cuda, hwdownload: ${up_rc}\n${up_out}${up_err}")
frames(up_frames "${up_out}")
if(NOT up_rc STREQUAL "0")
    list(APPEND problems "hwupload_cuda,hwdownload failed (${up_rc})")
elseif(NOT up_frames STREQUAL sw_frames)
    list(APPEND problems "the frames through the device differ from the "
         "software path's:\n${up_frames}\nnot\n${sw_frames}")
endif()

set(ENV{UMF_GPU_MOCK_FAULTS} "cuMemcpy2DAsync_v2:1+=CUDA_ERROR_ILLEGAL_ADDRESS")
run_ffmpeg(fault ${hw} ${pattern} -vf ${upload},${download} -f framemd5 -)
unset(ENV{UMF_GPU_MOCK_FAULTS})
foreach(want "cuMemcpy2DAsync" "CUDA_ERROR_ILLEGAL_ADDRESS")
    string(FIND "${fault_err}" "${want}" at)
    if(at EQUAL -1)
        list(APPEND problems "with a fault rule on cuMemcpy2DAsync_v2, "
             "ffmpeg does not report '${want}': the frames did not go "
             "through the emulated driver's copies (${fault_rc}): ${fault_err}")
    endif()
endforeach()

run_ffmpeg(scale ${hw} ${pattern} -vf ${upload},scale_cuda=64:48,${download}
           -f framemd5 -)
message(STATUS "scale_cuda: ${scale_rc}\n${scale_err}")
if(scale_rc STREQUAL "0")
    list(APPEND problems "scale_cuda ran without a kernel")
elseif(NOT scale_rc MATCHES "^[0-9]+$")
    list(APPEND problems "scale_cuda did not exit cleanly: ${scale_rc}")
endif()
foreach(want "cuModuleLoadData: not supported by the emulated driver"
             "cuModuleLoadData(cu_module, buf) failed"
             "CUDA_ERROR_NOT_SUPPORTED")
    string(FIND "${scale_err}" "${want}" at)
    if(at EQUAL -1)
        list(APPEND problems "scale_cuda's output lacks '${want}'")
    endif()
endforeach()
foreach(bad "Sanitizer" "runtime error:")
    string(FIND "${up_err}${scale_err}" "${bad}" at)
    if(NOT at EQUAL -1)
        list(APPEND problems "output has '${bad}'")
    endif()
endforeach()

if(problems)
    message(FATAL_ERROR "ffmpeg on the emulated libcuda: ${problems}")
endif()
message(STATUS "ffmpeg: the frames came back unchanged, scale_cuda refused "
               "(exit ${scale_rc})")
