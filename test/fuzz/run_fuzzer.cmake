# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Runs a libFuzzer target for a bounded time in ctest and records its
# executions.
#   cmake -DFUZZER=<exe> -DSEEDS=<dir> -DWORK=<dir> -DSECONDS=<n>
#         -DSTATS=<file> -P run_fuzzer.cmake
# WORK receives the inputs the run found (the repository's seeds stay as
# they are); STATS gets "<target> <seconds> s <executions> executions".
# Fails when the fuzzer fails (a crash, a leak, a broken invariant) or ran
# nothing.

file(MAKE_DIRECTORY ${WORK})
get_filename_component(name ${FUZZER} NAME)
execute_process(
    COMMAND ${FUZZER} -max_total_time=${SECONDS} -print_final_stats=1
            -timeout=20 -rss_limit_mb=4096 ${WORK} ${SEEDS}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
string(REGEX MATCH "stat::number_of_executed_units: *([0-9]+)" m "${err}")
set(runs ${CMAKE_MATCH_1})
if(NOT rc EQUAL 0)
    message("${err}")
    message(FATAL_ERROR "${name}: the fuzzer failed (exit status ${rc}); "
                        "the input that broke it is in the working folder")
endif()
if(NOT runs OR runs EQUAL 0)
    message("${err}")
    message(FATAL_ERROR "${name}: no execution recorded")
endif()
file(WRITE ${STATS} "${name} ${SECONDS} s ${runs} executions\n")
message("fuzz ${name}: ${runs} executions in ${SECONDS} s")
