# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Checks the documentation as a whole (cmake -DROOT=<source tree> -P this):
#  1. every relative link of README.md and docs/*.md resolves: the file (or
#     folder) exists, and a "#anchor" names a heading of the target page as
#     GitHub makes anchors (lower case, punctuation dropped, spaces to '-',
#     "-1", "-2" ... for repeated headings);
#  2. every environment variable the code reads is in docs/configuration.md,
#     written as `NAME`. A variable is read where C or C++ code passes a
#     literal name to getenv/secure_getenv or to the drivers' lookup
#     (`(env, ctx, "NAME"`), logger (UMF_LOGGER_INIT("NAME") or
#     driver_open("NAME"), where a macro *_ENV names it, and where a script
#     reads one with a default (${NAME:-...}); of tests and scripts, the
#     variables named UMF_GPU_*, ZE_*, ZES_* and CUDA_* (a person sets
#     those; the rest is plumbing between a test and its children).
# It fails with one line per problem that says what to add where.

cmake_minimum_required(VERSION 3.20)

if(NOT ROOT)
    message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P ${CMAKE_SCRIPT_MODE_FILE}")
endif()

set(problems "")

# ---- anchors ---------------------------------------------------------------

# The anchors of one Markdown page, into the variable named by out_var.
function(page_anchors page out_var)
    file(STRINGS "${page}" lines)
    set(anchors "")
    set(in_fence FALSE)
    foreach(line IN LISTS lines)
        if(line MATCHES "^[ ]*```")
            if(in_fence)
                set(in_fence FALSE)
            else()
                set(in_fence TRUE)
            endif()
            continue()
        endif()
        if(in_fence OR NOT line MATCHES "^#+[ ]+(.*)$")
            continue()
        endif()
        string(STRIP "${CMAKE_MATCH_1}" title)
        # Link text stays, its target goes: [text](url) -> text.
        string(REGEX REPLACE "\\[([^]]*)\\]\\([^)]*\\)" "\\1" title "${title}")
        string(TOLOWER "${title}" a)
        # GitHub keeps letters, digits, '-', '_' and spaces (ASCII here; the
        # pages' headings are ASCII but for the dashes, which it drops).
        string(REGEX REPLACE "[^a-z0-9 _-]" "" a "${a}")
        string(REPLACE " " "-" a "${a}")
        set(candidate "${a}")
        set(n 0)
        list(FIND anchors "${candidate}" seen)
        while(NOT seen EQUAL -1)
            math(EXPR n "${n} + 1")
            set(candidate "${a}-${n}")
            list(FIND anchors "${candidate}" seen)
        endwhile()
        list(APPEND anchors "${candidate}")
    endforeach()
    set(${out_var} "${anchors}" PARENT_SCOPE)
endfunction()

# ---- 1. links --------------------------------------------------------------

file(GLOB pages "${ROOT}/docs/*.md")
list(PREPEND pages "${ROOT}/README.md")
foreach(page IN LISTS pages)
    file(READ "${page}" text)
    # CMake lists split at ';' but not inside [ ]: mark each link's "](",
    # then drop the brackets and the semicolons.
    string(REPLACE "](" "<LINK>(" text "${text}")
    string(REGEX REPLACE "[][;]" " " text "${text}")
    # Code blocks and spans hold examples, not links.
    string(REGEX REPLACE "```[^`]*```" "" text "${text}")
    string(REGEX REPLACE "`[^`\n]*`" "" text "${text}")
    string(REGEX MATCHALL "<LINK>\\([^) ]+\\)" links "${text}")
    get_filename_component(dir "${page}" DIRECTORY)
    file(RELATIVE_PATH page_name "${ROOT}" "${page}")
    foreach(link IN LISTS links)
        string(REGEX REPLACE "^<LINK>\\((.*)\\)$" "\\1" target "${link}")
        if(target MATCHES "^[a-z]+:")
            continue() # https:, mailto: ...
        endif()
        set(anchor "")
        set(path "${target}")
        if(target MATCHES "^([^#]*)#(.*)$")
            set(path "${CMAKE_MATCH_1}")
            set(anchor "${CMAKE_MATCH_2}")
        endif()
        if(path STREQUAL "")
            set(file "${page}")
        else()
            get_filename_component(file "${dir}/${path}" ABSOLUTE)
        endif()
        if(NOT EXISTS "${file}")
            string(APPEND problems
                   "${page_name}: the link (${target}) names no file: fix the path or add ${path}\n")
            continue()
        endif()
        if(NOT anchor STREQUAL "")
            if(NOT file MATCHES "\\.md$")
                continue()
            endif()
            page_anchors("${file}" anchors)
            list(FIND anchors "${anchor}" found)
            if(found EQUAL -1)
                file(RELATIVE_PATH file_name "${ROOT}" "${file}")
                string(APPEND problems
                       "${page_name}: the link (${target}) names no heading of ${file_name}: "
                       "its headings make the anchors ${anchors}\n")
            endif()
        endif()
    endforeach()
endforeach()

# ---- 2. environment variables ----------------------------------------------

set(config "${ROOT}/docs/configuration.md")
file(READ "${config}" config_text)
file(GLOB_RECURSE sources
     "${ROOT}/src/*.[ch]" "${ROOT}/utils/*.[ch]" "${ROOT}/providers/*.[ch]"
     "${ROOT}/ze/*.[ch]" "${ROOT}/cuda/*.[ch]" "${ROOT}/mock/*.[ch]"
     "${ROOT}/tools/*.[ch]" "${ROOT}/bench/*.[ch]" "${ROOT}/examples/*.[ch]"
     "${ROOT}/test/*.c" "${ROOT}/test/*.h" "${ROOT}/test/*.cpp")
file(GLOB_RECURSE scripts "${ROOT}/tools/*.sh" "${ROOT}/test/*.sh"
     "${ROOT}/examples/*.sh")
list(APPEND scripts "${ROOT}/.ci/run")

set(name "[A-Z][A-Z0-9_]+")
set(readers
    "(secure_)?getenv\\(\"(${name})\"\\)"
    "\\(env, ctx, \"(${name})\""
    "UMF_LOGGER_INIT\\(\"(${name})\""
    "driver_open\\(\"(${name})\""
    "#define [A-Z0-9_]+_ENV \"(${name})\"")
set(variables "")
foreach(src IN LISTS sources scripts)
    file(READ "${src}" text)
    file(RELATIVE_PATH src_name "${ROOT}" "${src}")
    if(src IN_LIST scripts)
        set(patterns "\\$\\{(${name}):-")
    else()
        set(patterns ${readers})
    endif()
    foreach(re IN LISTS patterns)
        string(REGEX MATCHALL "${re}" hits "${text}")
        foreach(hit IN LISTS hits)
            # (one MATCHES an if: a failed one clears CMAKE_MATCH_1)
            if(hit MATCHES "\"(${name})\"")
                set(var "${CMAKE_MATCH_1}")
            elseif(hit MATCHES "\\{(${name}):-")
                set(var "${CMAKE_MATCH_1}")
            endif()
            # Tests and scripts also pass their own plumbing to children
            # (UMF_TEST_*, TMPDIR, ...): of theirs, the variables a person
            # sets are ours and the drivers' standard ones.
            if(NOT src_name MATCHES "^(src|utils|providers|ze|cuda|mock|bench|examples)/"
               AND NOT src_name MATCHES "^tools/.*\\.[ch]$"
               AND NOT var MATCHES "^(UMF_GPU_|ZE_|ZES_|CUDA_)")
                continue()
            endif()
            if(NOT var IN_LIST variables)
                list(APPEND variables "${var}")
                set(where_${var} "${src_name}")
            endif()
        endforeach()
    endforeach()
endforeach()
list(LENGTH variables count)
if(count LESS 10)
    string(APPEND problems
           "found only ${count} environment variables in the code (${variables}): "
           "the scan of this script no longer matches how the code reads them\n")
endif()
foreach(var IN LISTS variables)
    string(FIND "${config_text}" "`${var}`" at)
    if(at EQUAL -1)
        string(APPEND problems
               "${where_${var}} reads the environment variable ${var}: "
               "add a row for `${var}` to docs/configuration.md\n")
    endif()
endforeach()

if(NOT problems STREQUAL "")
    message(FATAL_ERROR "the documentation has problems:\n${problems}")
endif()
message(STATUS "docs: every link resolves; ${count} environment variables, all in docs/configuration.md")
