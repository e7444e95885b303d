#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The real-GPU check: builds umf-gpu on a machine with an NVIDIA GPU and no
# network, runs the CUDA driver-semantics tests (devices, contexts, primary
# context reset and flags, CUDA_VISIBLE_DEVICES, memory, IPC, virtual memory
# management with a POSIX fd shared between two processes, streams, events
# and interprocess events, stream callbacks and host functions, managed
# memory advice and prefetch, CUDA arrays and 2D/3D copies, graphs of
# copies and memsets, stream capture, async and 2D copies, fills, host
# memory, peers, the stream-ordered allocator, queries, cuGetProcAddress_v2
# and every function of cuda.h), a program linked with -lcuda, the VMM
# example, the OpenMP offload example's device memory part (where the
# machine has Debian's clang-14 and libomp-14-dev: LLVM's CUDA plugin needs
# libLLVM, too large to carry), the fd server's consumer authentication on
# that machine's kernel, and the CUDA provider tests against the real
# libcuda.so.1 (UMF_GPU_CUDA_LIB); puts the real driver's answers to the
# questions the emulation relies on next to the emulated driver's
# (umf-gpu-cuda-facts); runs the benchmark's CUDA part, and writes a short
# report.
#
#   tools/device-check.sh --prepare   here, once: copies Debian's GoogleTest
#                                     sources (/usr/src/googletest, from
#                                     libgtest-dev) into .device-check/,
#                                     which git ignores, so that they travel
#   tools/device-check.sh --dry-run   here: the whole check against the
#                                     emulated libcuda.so.1 of this build
#   tools/device-check.sh             on the GPU machine
#
# With the session's device tool, one call does everything:
#   run(command="tools/device-check.sh", carry=[".device-check"],
#       timeout_s=540)
# Results go to $OUT (or .device-check/out): report.md, tests.log,
# facts-driver.txt, facts-emulated.txt,
# bench.txt, bench.json, build.log.
#
# Tests that only the emulated driver can pass (fault injection, the leak
# report, memory limits) skip themselves on a real driver, with the reason
# in tests.log.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/.device-check
gtest_src=$work/googletest
build=$work/build
out=${OUT:-$work/out}
mode=real

case "${1:-}" in
--prepare)
    rm -rf "$gtest_src"
    mkdir -p "$work"
    cp -r /usr/src/googletest "$gtest_src" || exit 1
    echo "GoogleTest sources copied to $gtest_src ($(du -sh "$gtest_src" | cut -f1))"
    exit 0
    ;;
--dry-run) mode=dry-run ;;
"") ;;
*)
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac

mkdir -p "$out"
report=$out/report.md
: >"$report"
say() { echo "$*" | tee -a "$report"; }

if [ ! -f "$gtest_src/CMakeLists.txt" ]; then
    say "GoogleTest sources missing: run tools/device-check.sh --prepare here first and carry .device-check"
    exit 1
fi

say "# umf-gpu device check ($mode), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say ""
say "- commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if command -v nvidia-smi >/dev/null 2>&1; then
    say "- GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)"
else
    say "- GPU: nvidia-smi not found"
fi
say "- CPUs: $(nproc)"

# --------------------------------------------------------------- the build
jobs=$(nproc)
# The CUDA driver-semantics suites (they run unchanged on a real driver; what
# only the emulated driver promises skips itself there), the programs that
# link libcuda.so.1 as applications do, and the provider's suites.
driver_tests=(test_cuda_api test_cuda_ipc test_cuda_vmm test_cuda_stream
    test_cuda_callback test_cuda_managed test_cuda_array test_cuda_graph
    test_cuda_capture test_cuda_host test_cuda_query test_cuda_primary
    test_cuda_visible test_cuda_coverage test_cuda_threads test_cuda_emulated)
linked_programs=(test_cuda_link example_cuda_vmm_two_processes)
# The fd server's consumer authentication, driver-independent: on that
# machine's kernel (SO_PEERPIDFD, pidfs or neither).
util_tests=(test_utils)
provider_tests=(test_provider_cuda_driver test_provider_cuda
    test_provider_cuda_ipc test_provider_cuda_threads test_provider_cuda_faults
    test_provider_contract)
targets=("${driver_tests[@]}" "${linked_programs[@]}" "${util_tests[@]}"
    "${provider_tests[@]}" umf-gpu-bench umf-gpu-cuda-facts umf_gpu_cuda_mock)
start=$(date +%s)
{
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DUMF_GPU_BUILD_LEVEL_ZERO=OFF -DUMF_GPU_REQUIRE_ALL_PROVIDERS=OFF \
        -DUMF_GPU_GTEST_SOURCE_DIR="$gtest_src" &&
        cmake --build "$build" -j "$jobs" --target "${targets[@]}"
} >"$out/build.log" 2>&1
rc=$?
# The OpenMP offload example, where its toolchain is on this machine (the
# configure step says why not, and the target is then missing).
omp_exe=$build/bin/example_openmp_offload
if [ $rc -eq 0 ]; then
    cmake --build "$build" --target example_openmp_offload >>"$out/build.log" 2>&1 ||
        rm -f "$omp_exe"
fi
say "- build: $([ $rc -eq 0 ] && echo ok || echo FAILED) in $(($(date +%s) - start)) s (build.log)"
if [ $rc -ne 0 ]; then
    tail -n 40 "$out/build.log"
    exit 1
fi

# -------------------------------------------------------------- the driver
if [ "$mode" = dry-run ]; then
    cuda_lib=$build/lib/mock-cuda/libcuda.so.1
else
    cuda_lib=${UMF_GPU_REAL_CUDA_LIB:-}
    if [ -z "$cuda_lib" ]; then
        cuda_lib=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / {print $NF; exit}')
    fi
    for candidate in /usr/local/nvidia/lib64/libcuda.so.1 \
        /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1; do
        [ -n "$cuda_lib" ] && break
        [ -e "$candidate" ] && cuda_lib=$candidate
    done
fi
if [ -z "$cuda_lib" ] || [ ! -e "$cuda_lib" ]; then
    say "- libcuda.so.1: NOT FOUND"
    exit 1
fi
say "- libcuda.so.1: $cuda_lib"
say ""

# Only the named driver: nothing of the emulated drivers' environment.
unset LD_LIBRARY_PATH ZE_ENABLE_ALT_DRIVERS
export UMF_GPU_CUDA_LIB=$cuda_lib

# --------------------------------------------------------------- the tests
say "## Tests against $([ "$mode" = dry-run ] && echo "the emulated" || echo "the real") driver"
say ""
say "| suite | result | passed | failed | skipped |"
say "| --- | --- | --- | --- | --- |"
failed=0
: >"$out/tests.log"
for t in "${driver_tests[@]}" "${linked_programs[@]}" "${util_tests[@]}" \
    "${provider_tests[@]}"; do
    log=$work/$t.log
    case " ${linked_programs[*]} " in
    *" $t "*)
        # Linked with -lcuda: the dynamic linker takes libcuda.so.1 from
        # the named driver's folder, as an application's would.
        LD_LIBRARY_PATH=$(dirname "$cuda_lib") timeout 240 "$build/bin/$t" \
            >"$log" 2>&1
        ;;
    *)
        timeout 240 "$build/bin/$t" >"$log" 2>&1
        ;;
    esac
    rc=$?
    {
        echo "===== $t (exit $rc)"
        cat "$log"
    } >>"$out/tests.log"
    passed=$(grep -c '^\[       OK \]' "$log")
    if ! grep -q '^\[==========\]' "$log"; then
        passed=- # not a GoogleTest program: its exit status says
    fi
    nfailed=$(grep -c '^\[  FAILED  \] .*(' "$log")
    skipped=$(grep -c '^\[  SKIPPED \] .*(' "$log")
    result=ok
    if [ $rc -ne 0 ]; then
        result="FAILED (exit $rc)"
        failed=1
    fi
    say "| $t | $result | $passed | $nfailed | $skipped |"
done
# The OpenMP offload example's device memory part (no target region: its
# image is built for sm_75). LLVM's CUDA plugin opens "libcuda.so", which a
# folder of its own points at the driver under test.
omp_lib=$work/omp-libcuda
mkdir -p "$omp_lib"
ln -sf "$cuda_lib" "$omp_lib/libcuda.so"
if [ -x "$omp_exe" ]; then
    for run in all one; do
        log=$work/openmp-$run.log
        if [ $run = all ]; then
            LD_LIBRARY_PATH=$omp_lib timeout 120 "$omp_exe" >"$log" 2>&1
        else
            CUDA_VISIBLE_DEVICES=0 LD_LIBRARY_PATH=$omp_lib timeout 120 \
                "$omp_exe" 1 >"$log" 2>&1
        fi
        rc=$?
        {
            echo "===== example_openmp_offload ($run devices, exit $rc)"
            cat "$log"
        } >>"$out/tests.log"
        [ $rc -eq 0 ] || failed=1
        say "| example_openmp_offload ($run) | $([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc)") | - | - | - |"
    done
else
    say "| example_openmp_offload | skipped: no OpenMP offload toolchain here (clang-14, libomp-14-dev; see build.log) | - | - | - |"
fi
say ""
if grep -q '^\[  FAILED  \] .*(' "$out/tests.log"; then
    say "Failed tests:"
    grep '^\[  FAILED  \] .*(' "$out/tests.log" | sed 's/^/    /' | tee -a "$report"
    say ""
fi

# ------------------------------------------------------------- the facts
# What the emulated driver (built here) answers next to what the driver
# under test answers, question by question (tools/cuda_facts.c).
say "## What the driver answers, against the emulated libcuda"
say ""
facts=$build/bin/umf-gpu-cuda-facts
UMF_GPU_CUDA_LIB=$cuda_lib timeout 60 "$facts" >"$out/facts-driver.txt" 2>"$out/facts-driver.log"
rc_real=$?
UMF_GPU_CUDA_LIB=$build/lib/mock-cuda/libcuda.so.1 UMF_GPU_MOCK_LOG=off \
    timeout 60 "$facts" >"$out/facts-emulated.txt" 2>"$out/facts-emulated.log"
rc_emu=$?
if [ $rc_real -ne 0 ] || [ $rc_emu -ne 0 ]; then
    say "umf-gpu-cuda-facts failed (driver: exit $rc_real, emulated: exit $rc_emu; facts-*.log)"
    failed=1
fi
say "| question | driver | emulated | |"
say "| --- | --- | --- | --- |"
while IFS= read -r line; do
    key=${line:0:28}
    mine=$(grep -F -- "$key" "$out/facts-emulated.txt" | head -n 1)
    a=$(echo "${line:29}" | sed 's/ *$//')
    b=$(echo "${mine:29}" | sed 's/ *$//')
    say "| $(echo "$key" | sed 's/ *$//') | $a | $b | $([ "$a" = "$b" ] && echo same || echo DIFFERENT) |"
done <"$out/facts-driver.txt"
say ""

# ----------------------------------------------------------- the benchmark
say "## Benchmark (CUDA)"
say ""
timeout 240 "$build/bin/umf-gpu-bench" --provider cuda --json "$out/bench.json" \
    >"$out/bench.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || failed=1
say '```'
tail -n 40 "$out/bench.txt" | tee -a "$report"
say '```'
say ""
say "Result: $([ $failed -eq 0 ] && echo PASSED || echo FAILED)"
exit $failed
