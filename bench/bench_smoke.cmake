# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The benchmark's smoke test (ctest, label bench): one --quick run, then
# checks on what it wrote, never on the timings. Invoked as
#   cmake -DBENCH=<umf-gpu-bench> -DJSON=<file> [-DPYTHON3=<python3>]
#         -DPROVIDERS=<ze ON|OFF>,<cuda ON|OFF> -DMOCKS=<ON|OFF> -P this
# Checks: exit status 0; the JSON parses (CMake's own parser, and
# python3 -m json.tool where python3 exists); every measurement has the
# documented fields; with the emulated drivers built, every built provider
# has results in both memory modes, and every kind of measurement is there.

cmake_minimum_required(VERSION 3.25) # string(JSON), IN_LIST

file(REMOVE "${JSON}")
execute_process(
    COMMAND "${BENCH}" --quick --json "${JSON}"
    RESULT_VARIABLE status
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
message("${out}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "umf-gpu-bench --quick exited with ${status}:\n${err}")
endif()
if(NOT out MATCHES "\nsummary ")
    message(FATAL_ERROR "the table has no summary lines")
endif()

file(READ "${JSON}" doc)
string(JSON count ERROR_VARIABLE json_err LENGTH "${doc}" measurements)
if(json_err)
    message(FATAL_ERROR "${JSON} does not parse: ${json_err}")
endif()
if(count EQUAL 0)
    message(FATAL_ERROR "${JSON} holds no measurement")
endif()
string(JSON reps ERROR_VARIABLE json_err GET "${doc}" parameters repetitions)
if(json_err)
    message(FATAL_ERROR "${JSON} has no parameters.repetitions: ${json_err}")
endif()

if(PYTHON3)
    execute_process(
        COMMAND "${PYTHON3}" -m json.tool "${JSON}"
        RESULT_VARIABLE status
        OUTPUT_QUIET
        ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "python3 -m json.tool rejects ${JSON}: ${err}")
    endif()
endif()

set(seen "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
    foreach(key name provider mode size threads live median_ns p10_ns p90_ns)
        string(JSON type ERROR_VARIABLE json_err TYPE "${doc}" measurements ${i}
               ${key})
        if(json_err)
            message(FATAL_ERROR "measurement ${i} lacks '${key}': ${json_err}")
        endif()
    endforeach()
    string(JSON name GET "${doc}" measurements ${i} name)
    string(JSON provider GET "${doc}" measurements ${i} provider)
    string(JSON mode GET "${doc}" measurements ${i} mode)
    list(APPEND seen "${provider}/${mode}/${name}")
endforeach()

if(MOCKS)
    string(REPLACE "," ";" built "${PROVIDERS}")
    list(GET built 0 have_ze)
    list(GET built 1 have_cuda)
    set(providers "")
    if(have_ze)
        list(APPEND providers ze)
    endif()
    if(have_cuda)
        list(APPEND providers cuda)
    endif()
    set(arena_names
        machine_reference
        alloc_free_provider
        alloc_free_raw
        alloc_free_added
        random_provider
        random_raw
        random_added
        random_miss
        native_error
        ipc_get_put
        ipc_get_put_again
        ipc_open_first
        ipc_open_cached
        ipc_open_first_socket
        ipc_open_cached_socket
        ipc_close_ref
        ipc_close_last
        ipc_fd_take
        ipc_fd_take_checked_proc
        ipc_fd_socket_take
        ipc_fd_socket_auth
        ipc_fd_flood_none
        ipc_fd_flood_hold
        ipc_fd_flood_malformed)
    set(memfd_names machine_reference alloc_free_provider alloc_free_raw
                    alloc_free_added
                    ipc_open_first ipc_open_cached ipc_open_first_socket
                    ipc_open_cached_socket)
    # Level Zero has resident devices; each driver's own calls are measured
    # (bench_cuda_driver.c, bench_ze_driver.c).
    set(ze_arena_names
        residency_idle
        residency_stall
        residency_change
        vmm_cycle
        event_pool_ipc_open
        event_pool_ipc_close
        fill_1B
        fill_4B
        fill_16B
        copy_immediate_64B
        copy_immediate_4MiB
        copy_queue_64B
        copy_queue_4MiB
        fill_alone
        fresh_alloc_fill_free
        deferred_signal_to_run
        deferred_round_trip)
    # Kernels, where they can run (bench_ze_kernels.c says when they cannot).
    if(NOT err MATCHES "kernel measurements skipped")
        list(APPEND ze_arena_names module_build_first module_build_cached
             launch_first launch_empty copy_12MiB vadd_4MiB)
    endif()
    set(cuda_arena_names
        memcpy
        async_copy_htod
        async_copy_dtoh
        vmm_cycle
        sync_alloc_free
        stream_alloc_free
        fill_alone
        fresh_alloc_fill_free
        host_func_roundtrip
        host_func_latency
        stream_memcpy_100
        graph_memcpy_100)
    # The CUDA provider's VMM modes (bench_cuda_vmm.c, in the arena run).
    if("cuda" IN_LIST providers)
        foreach(mode vmm_fd vmm_fab)
            foreach(name vmm_alloc_free_provider vmm_alloc_free_raw
                         vmm_alloc_free_added ipc_open_first ipc_open_cached)
                if(NOT "cuda/${mode}/${name}" IN_LIST seen)
                    message(FATAL_ERROR "no ${name} for cuda in the ${mode} "
                                        "mode in ${JSON}")
                endif()
            endforeach()
        endforeach()
    endif()
    foreach(provider ${providers})
        foreach(mode arena memfd)
            foreach(name ${${mode}_names} ${${provider}_${mode}_names})
                if(NOT "${provider}/${mode}/${name}" IN_LIST seen)
                    message(FATAL_ERROR "no ${name} for ${provider} in the "
                                        "${mode} mode in ${JSON}")
                endif()
            endforeach()
        endforeach()
    endforeach()
endif()
message(STATUS "umf-gpu-bench --quick: ${count} measurements, JSON valid")
