#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Example: a CI job that tests a GPU program on a machine without a GPU, on
# umf-gpu's emulated drivers.
#
#   ci_emulated.sh <path of umf-gpu-mock-env> <program> [arguments...]
#   e.g. ci_emulated.sh /opt/umf-gpu/bin/umf-gpu-mock-env ./my_gpu_tests
#
# The program runs twice:
#   1. as it is: it must succeed and leave nothing alive in the driver;
#   2. with the driver's first device allocation failing: it must fail
#      cleanly, with an exit status of its own (no crash, no leak).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 <umf-gpu-mock-env> <program> [arguments...]" >&2
    exit 2
fi
mock_env=$1
shift

# Points the Level Zero loader at the emulated driver (ZE_ENABLE_ALT_DRIVERS)
# and CUDA users at the emulated libcuda.so.1 (UMF_GPU_CUDA_LIB for umf-gpu,
# LD_LIBRARY_PATH for programs linked with -lcuda).
eval "$("$mock_env")"

# Two emulated devices of 1 GiB each. With strict leak checking, a program
# that exits with device memory, IPC handles or contexts still alive gets
# exit status 86 and a report of them on stderr.
export UMF_GPU_MOCK_DEVICES=2 UMF_GPU_MOCK_DEVICE_MEM=1G
export UMF_GPU_MOCK_LEAKS=strict

echo "== $* on the emulated drivers"
"$@"

# Fault injection: the first zeMemAllocDevice / cuMemAlloc_v2 call of the
# process returns out-of-memory. Each driver takes the rules for its own
# entry points.
echo "== $* with the first device allocation failing"
status=0
UMF_GPU_MOCK_FAULTS='zeMemAllocDevice:1=ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;cuMemAlloc_v2:1=CUDA_ERROR_OUT_OF_MEMORY' \
    "$@" || status=$?
if [ "$status" -eq 0 ]; then
    echo "FAIL: the program did not notice the failed allocation" >&2
    exit 1
elif [ "$status" -eq 86 ]; then
    echo "FAIL: the program leaked on its error path (report above)" >&2
    exit 1
elif [ "$status" -ge 126 ]; then
    echo "FAIL: the program crashed or could not run (status $status)" >&2
    exit 1
fi
echo "== ok: it failed cleanly (status $status)"
