#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Checks what umf-gpu-demo reports, beyond its exit status on a good run:
#   demo_test.sh <umf-gpu-demo> <expected summary> [level-zero] [cuda]
# The expected summary is the last line of a default run, e.g.
# "umf-gpu-demo: Level Zero passed, CUDA passed"; the providers named after
# it are built, and a fault is injected into each.
set -u

demo=$1
expected=$2
shift 2
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    echo "--- stdout" >&2
    cat "$out" >&2
    echo "--- stderr" >&2
    cat "$err" >&2
    failures=$((failures + 1))
}

# run <expected status> <demo arguments...>, with the output in $out, $err
run() {
    want=$1
    shift
    status=0
    "$demo" "$@" >"$out" 2>"$err" || status=$?
    if [ "$status" -ne "$want" ]; then
        fail "umf-gpu-demo $*: exit status $status, expected $want"
        return 1
    fi
}

# The default run: every provider built passes, on the emulated drivers.
if run 0 --size 64K; then
    last=$(tail -n 1 "$out")
    [ "$last" = "$expected" ] || fail "summary '$last', expected '$expected'"
    grep -q "emulated driver" "$out" || fail "no 'emulated driver' line"
    grep -q "FAILED" "$out" && fail "a step FAILED in a passing run"
fi

# --driver auto: real drivers where present, else the emulated ones; both
# pass.
run 0 --driver auto --size 4K

# Failures name the side, the step and the driver's own error.
for provider in "$@"; do
    case $provider in
    level-zero)
        # A failure in the consumer: it cannot open the IPC handle.
        rules='zeMemOpenIpcHandle:1=ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY'
        what='Level Zero provider FAILED at consumer step "open IPC handle"'
        native='ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY'
        ;;
    cuda)
        # A failure in the producer: device memory runs out.
        rules='cuMemAlloc_v2:1=CUDA_ERROR_OUT_OF_MEMORY'
        what='CUDA provider FAILED at producer step "allocate device buffer"'
        native='CUDA_ERROR_OUT_OF_MEMORY'
        ;;
    *)
        echo "unknown provider $provider" >&2
        exit 2
        ;;
    esac
    if UMF_GPU_MOCK_FAULTS=$rules UMF_GPU_LOG=off run 1 --provider "$provider"; then
        grep -qF "$what" "$err" || fail "stderr lacks: $what"
        grep -qF "$native" "$err" || fail "stderr lacks the native error $native"
        grep -qF "  ${what#* provider }" "$out" ||
            fail "the report lacks: ${what#* provider }"
    fi
done

# --help documents the choices; bad arguments are refused with status 2.
if run 0 --help; then
    for word in "--driver emulated" "--driver real" "--driver auto" \
        "--provider" "--size" "Exit status"; do
        grep -qF -- "$word" "$out" || fail "--help does not mention '$word'"
    done
fi
run 2 --driver nope && grep -qF "usage:" "$err"
run 2 --size 0
run 2 --size 12Q
run 2 --provider opencl
run 2 --consumer cuda
run 2 extra

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "all checks passed"
