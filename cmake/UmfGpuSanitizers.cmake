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

# In the ASan build, the kernel backend (pocl) is off except in the tests
# that build kernels: LLVM 14's LeakSanitizer crashes at exit in some
# processes that loaded it ("Tracer caught signal 11" reading a dynamic TLS
# block of bogus address), seen in two variants of the Level Zero
# conformance suite. Those tests check the driver without a backend there,
# and with it in the other builds. The kernel tests take
# UMF_GPU_KERNEL_TEST_ENV: the backend on, and LSan suppressions of what pocl
# and LLVM keep until exit (test/kernels/lsan.supp); empty outside ASan.
set(UMF_GPU_KERNEL_TEST_ENV)
if(UMF_GPU_SANITIZE MATCHES "address")
    list(APPEND UMF_GPU_SANITIZER_TEST_ENV "UMF_GPU_MOCK_KERNELS=off")
    set(UMF_GPU_KERNEL_TEST_ENV
        "UMF_GPU_MOCK_KERNELS=on"
        "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/test/kernels/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
    )
endif()
