#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The test command: configures, builds and runs ctest in three builds,
#   build          gcc, RelWithDebInfo
#   build-asan     clang, AddressSanitizer + UndefinedBehaviorSanitizer
#   build-tsan     clang, ThreadSanitizer
# with warnings as errors. It fails if any build or test fails, or if a
# build ran no test. Usage: tools/run-tests.sh [normal] [asan] [tsan]
# (default: all three).
#
# Environment:
#   UMF_GPU_TEST_JOBS               parallel jobs (default: nproc)
#   UMF_GPU_REQUIRE_ALL_PROVIDERS   ON: fail when a provider's headers are
#                                   missing instead of leaving it out (CI)
#   UMF_GPU_CTEST_ARGS              extra ctest arguments, e.g. "-L unit"
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${UMF_GPU_TEST_JOBS:-$(nproc)}
require=${UMF_GPU_REQUIRE_ALL_PROVIDERS:-OFF}
read -r -a ctest_args <<<"${UMF_GPU_CTEST_ARGS:-}"

builds=("$@")
if [ ${#builds[@]} -eq 0 ]; then
    builds=(normal asan tsan)
fi

declare -A summary
failed=0

run_build() {
    local name=$1 dir=$2
    shift 2
    echo "=== umf-gpu: ${name} build in ${dir}"
    if ! cmake -S "$root" -B "$dir" -G Ninja -DUMF_GPU_WERROR=ON \
        -DUMF_GPU_REQUIRE_ALL_PROVIDERS="$require" "$@"; then
        summary[$name]="configure FAILED"
        return 1
    fi
    if ! cmake --build "$dir" -j "$jobs"; then
        summary[$name]="build FAILED"
        return 1
    fi
    local log="$dir/ctest-summary.log"
    (cd "$dir" && ctest --output-on-failure --no-tests=error -j "$jobs" \
        "${ctest_args[@]}") 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    summary[$name]=$(grep -E "tests passed|tests failed" "$log" | tail -n 1)
    [ -n "${summary[$name]}" ] || summary[$name]="no test summary (rc $rc)"
    return "$rc"
}

for b in "${builds[@]}"; do
    case "$b" in
    normal)
        run_build normal "$root/build" || failed=1
        ;;
    asan)
        run_build asan "$root/build-asan" -DCMAKE_C_COMPILER=clang \
            -DCMAKE_CXX_COMPILER=clang++ \
            "-DUMF_GPU_SANITIZE=address;undefined" || failed=1
        ;;
    tsan)
        run_build tsan "$root/build-tsan" -DCMAKE_C_COMPILER=clang \
            -DCMAKE_CXX_COMPILER=clang++ -DUMF_GPU_SANITIZE=thread ||
            failed=1
        ;;
    *)
        echo "unknown build '$b' (normal, asan, tsan)" >&2
        exit 2
        ;;
    esac
done

echo
echo "=== umf-gpu test summary"
for b in "${builds[@]}"; do
    printf '  %-7s %s\n' "$b" "${summary[$b]:-not run}"
done
if [ "$failed" -ne 0 ]; then
    echo "FAILED"
    exit 1
fi
echo "PASSED"
