# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Run by ctest (a TEST_INCLUDE_FILES entry that umf_gpu_add_test(EACH_CASE)
# generates): lists the GoogleTest cases of one test executable and adds
# each as its own ctest test, <NAME>/<case> (<NAME>/<suite>.<case> when the
# executable has more than one suite), run as `EXE --gtest_filter=<suite>.<case>`.
# The listing runs in the tests' own environment, so that cases registered
# at run time from what the drivers report are listed as they will run.
#
# Inputs: NAME, EXE, CMAKE (the cmake program), ENV, LABELS, TIMEOUT.

if(NOT EXISTS "${EXE}")
    # Not built (yet): one test that says so when it runs.
    add_test("${NAME}" "${EXE}")
    return()
endif()

execute_process(
    COMMAND "${CMAKE}" -E env ${ENV} "${EXE}" --gtest_list_tests
    OUTPUT_VARIABLE listing
    ERROR_VARIABLE listing_errors
    RESULT_VARIABLE rc
    TIMEOUT 120)

# A case's parameter text (after '#') may hold anything, ';' included: drop
# it before the listing becomes a list; the names themselves are plain.
string(REGEX REPLACE "[ ]+#[^\n]*" "" listing "${listing}")
string(REPLACE ";" "" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")

set(cases)
set(suites)
set(suite "")
foreach(line IN LISTS lines)
    if(line MATCHES "^([A-Za-z0-9_/]+)\\.$")
        set(suite "${CMAKE_MATCH_1}")
        list(APPEND suites "${suite}")
    elseif(line MATCHES "^  ([A-Za-z0-9_/.]+)$" AND suite)
        list(APPEND cases "${suite}.${CMAKE_MATCH_1}")
    endif()
endforeach()
list(LENGTH suites suite_count)

if(NOT rc EQUAL 0 OR NOT cases)
    # The listing failed: one test that runs the whole executable, which
    # fails the same way and shows why, rather than no test at all.
    add_test("${NAME}" "${EXE}")
    set_tests_properties("${NAME}" PROPERTIES ENVIRONMENT "${ENV}" LABELS
                                              "${LABELS}" TIMEOUT "${TIMEOUT}")
    return()
endif()

foreach(full IN LISTS cases)
    string(FIND "${full}" "." dot)
    math(EXPR after "${dot} + 1")
    string(SUBSTRING "${full}" ${after} -1 case)
    if(suite_count GREATER 1)
        set(test "${NAME}/${full}")
    else()
        set(test "${NAME}/${case}")
    endif()
    add_test("${test}" "${EXE}" "--gtest_filter=${full}")
    set_tests_properties(
        "${test}" PROPERTIES ENVIRONMENT "${ENV}" LABELS "${LABELS}"
                             TIMEOUT "${TIMEOUT}")
endforeach()
