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

# The sanitizers' run-time options for every test that ctest runs (the test
# suites and the benchmark's smoke run): leaks checked, any report fatal.
set(UMF_GPU_SANITIZER_TEST_ENV
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
    "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1")

# And for the tests that build kernels on the emulated Level Zero driver,
# whose CPU backend keeps what it compiles with until exit
# (test/kernels/lsan.supp); empty outside the ASan build.
set(UMF_GPU_KERNEL_TEST_ENV)
if(UMF_GPU_SANITIZE MATCHES "address")
    set(UMF_GPU_KERNEL_TEST_ENV
        "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/test/kernels/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
    )
endif()
