# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# UMF_GPU_SANITIZE applies to every target of the build: the library, the
# emulated drivers, the tests and the tools, so that memory passed between
# them is checked on both sides.

set(UMF_GPU_SANITIZER_FLAGS "")
if(UMF_GPU_SANITIZE STREQUAL "address;undefined"
   OR UMF_GPU_SANITIZE STREQUAL "undefined;address")
    set(UMF_GPU_SANITIZER_FLAGS -fsanitize=address,undefined
                                -fno-sanitize-recover=all)
elseif(UMF_GPU_SANITIZE STREQUAL "thread")
    set(UMF_GPU_SANITIZER_FLAGS -fsanitize=thread)
elseif(NOT UMF_GPU_SANITIZE STREQUAL "")
    message(
        FATAL_ERROR
            "UMF_GPU_SANITIZE='${UMF_GPU_SANITIZE}' is not one of "
            "'address;undefined', 'thread' or empty")
endif()

if(UMF_GPU_SANITIZER_FLAGS)
    add_compile_options(${UMF_GPU_SANITIZER_FLAGS} -fno-omit-frame-pointer -g)
    add_link_options(${UMF_GPU_SANITIZER_FLAGS})
    add_compile_definitions(UMF_GPU_SANITIZED=1)
endif()
