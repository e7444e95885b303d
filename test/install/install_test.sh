#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The install test: `cmake --install` of a build into a temporary prefix,
# then an outside project built against that prefix in two ways, CMake
# (find_package(umf_gpu CONFIG)) and pkg-config (umf-gpu.pc), and run on the
# emulated drivers installed in the prefix, found by the installed
# umf-gpu-mock-env. The installed umf-gpu-demo runs as well.
#
#   install_test.sh --build DIR --source DIR --cmake PATH --generator NAME
#                   --cc PATH --pkg-config PATH --libdir DIR --docdir DIR
#                   [--nm PATH] [--level-zero] [--cuda] [--cuda-root DIR]
#                   [--rebuild] [--keep]
#
# --libdir and --docdir are the build's CMAKE_INSTALL_LIBDIR and
# CMAKE_INSTALL_DOCDIR; --level-zero / --cuda say which providers the build
# has. --rebuild first configures and builds the source afresh in the
# temporary folder, with that --libdir and without tests and benchmarks,
# and installs that build instead (for a libdir such as
# lib/x86_64-linux-gnu). --keep leaves the temporary folder for a look.
set -u

build= source= cmake= generator= cc= pkgconfig= libdir= docdir= nm=
with_ze=OFF with_cuda=OFF cuda_root= keep= rebuild=
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift ;;
    --source) source=$2; shift ;;
    --cmake) cmake=$2; shift ;;
    --generator) generator=$2; shift ;;
    --cc) cc=$2; shift ;;
    --pkg-config) pkgconfig=$2; shift ;;
    --libdir) libdir=$2; shift ;;
    --docdir) docdir=$2; shift ;;
    --nm) nm=$2; shift ;;
    --cuda-root) cuda_root=$2; shift ;;
    --level-zero) with_ze=ON ;;
    --cuda) with_cuda=ON ;;
    --rebuild) rebuild=1 ;;
    --keep) keep=1 ;;
    *) echo "install_test.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
for v in source cmake generator cc libdir docdir; do
    eval "value=\$$v"
    if [ -z "$value" ]; then
        echo "install_test.sh: --$v is required" >&2
        exit 2
    fi
done

# Only what the prefix's umf-gpu-mock-env prints may point at drivers.
unset ZE_ENABLE_ALT_DRIVERS UMF_GPU_CUDA_LIB UMF_GPU_ZE_LOADER

work=$(mktemp -d "${TMPDIR:-/tmp}/umf-gpu-install.XXXXXX") || exit 1
# The prefix as the programs see themselves (symbolic links resolved).
work=$(cd "$work" && pwd -P)
if [ -z "$keep" ]; then
    trap 'rm -rf "$work"' EXIT
else
    echo "keeping $work"
fi
prefix=$work/prefix
failures=0
cuda_arg=
[ -n "$cuda_root" ] && cuda_arg=-DCUDAToolkit_ROOT=$cuda_root

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# step <name> <command...>: runs it with its output in the log, shown on
# failure.
step() {
    name=$1
    shift
    log=$work/$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_').log
    if "$@" >"$log" 2>&1; then
        echo "ok    $name"
        return 0
    fi
    echo "FAIL  $name: $*" >&2
    cat "$log" >&2
    failures=$((failures + 1))
    return 1
}

# 1. Install (a fresh build with --rebuild).
if [ -n "$rebuild" ]; then
    build=$work/build
    # shellcheck disable=SC2086
    step "configure with CMAKE_INSTALL_LIBDIR=$libdir" "$cmake" \
        -S "$source" -B "$build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
        -DCMAKE_INSTALL_LIBDIR="$libdir" -DUMF_GPU_BUILD_TESTS=OFF \
        -DUMF_GPU_BUILD_BENCHMARKS=OFF -DUMF_GPU_WERROR=ON $cuda_arg &&
        step "build with CMAKE_INSTALL_LIBDIR=$libdir" "$cmake" --build \
            "$build" -j 2 || exit 1
elif [ -z "$build" ]; then
    echo "install_test.sh: --build or --rebuild is required" >&2
    exit 2
fi
step "cmake --install" "$cmake" --install "$build" --prefix "$prefix" ||
    exit 1

# 2. What must be in the prefix.
expect() {
    for f in "$@"; do
        [ -e "$prefix/$f" ] || fail "not installed: $f"
    done
}
expect include/umf/base.h include/umf/memory_provider.h \
    include/umf/memory_provider_ops.h include/umf/memory_provider_gpu.h \
    include/umf/gpu_mock.h include/umf/providers/provider_level_zero.h \
    include/umf/providers/provider_cuda.h \
    include/umf/providers/provider_ops_1_0.h \
    "$libdir/libumf_gpu.so" "$libdir/libumf_gpu.so.0" "$libdir/libumf_gpu.a" \
    "$libdir/cmake/umf_gpu/umf_gpu-config.cmake" \
    "$libdir/cmake/umf_gpu/umf_gpu-config-version.cmake" \
    "$libdir/cmake/umf_gpu/umf_gpu-targets.cmake" \
    "$libdir/pkgconfig/umf-gpu.pc" \
    bin/umf-gpu-mock-env bin/umf-gpu-demo \
    "$docdir/examples/level_zero_alloc.c" "$docdir/examples/cuda_alloc.c" \
    "$docdir/examples/ipc_two_processes.c" "$docdir/examples/native_error.c" \
    "$docdir/examples/cuda_vmm_two_processes.c" "$docdir/examples/mpi_share.c" \
    "$docdir/examples/ci_emulated.sh" \
    "$docdir/README.md" "$docdir/docs/configuration.md" \
    "$docdir/docs/differences.md" "$docdir/docs/performance.md"
[ "$with_ze" = ON ] && expect "$libdir/libze_mock.so"
[ "$with_cuda" = ON ] && expect "$libdir/mock-cuda/libcuda.so.1"
# Both providers' tables in both layouts, versioned, nothing but umf*.
if [ -n "$nm" ]; then
    step "exported symbols" "$cmake" "-DLIB=$prefix/$libdir/libumf_gpu.so.0" \
        "-DNM=$nm" \
        "-DREQUIRED=umfLevelZeroMemoryProviderOps_1_0;umfCUDAMemoryProviderOps_1_0" \
        -P "$source/test/core/check_exports.cmake"
fi
so=$(readlink "$prefix/$libdir/libumf_gpu.so.0")
case $so in
libumf_gpu.so.0.*) ;;
*) fail "libumf_gpu.so.0 -> '$so', not a versioned file" ;;
esac

# 3. The installed umf-gpu-mock-env names the drivers of the prefix.
if step "umf-gpu-mock-env" "$prefix/bin/umf-gpu-mock-env"; then
    mock_env=$(cat "$log")
    [ "$with_ze" = ON ] && { echo "$mock_env" | grep -qF \
        "ZE_ENABLE_ALT_DRIVERS='$prefix/$libdir/libze_mock.so'" ||
        fail "umf-gpu-mock-env: no ZE_ENABLE_ALT_DRIVERS in the prefix: $mock_env"; }
    [ "$with_cuda" = ON ] && { echo "$mock_env" | grep -qF \
        "UMF_GPU_CUDA_LIB='$prefix/$libdir/mock-cuda/libcuda.so.1'" ||
        fail "umf-gpu-mock-env: no UMF_GPU_CUDA_LIB in the prefix: $mock_env"; }
fi

# 4. The outside project through CMake.
programs=
if step "configure with find_package(umf_gpu)" "$cmake" \
    -S "$source/test/install/consumer" -B "$work/cmake-build" \
    -G "$generator" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
    -DEXAMPLES_DIR="$prefix/$docdir/examples" -DWITH_LEVEL_ZERO=$with_ze \
    -DWITH_CUDA=$with_cuda $cuda_arg &&
    step "build with find_package(umf_gpu)" "$cmake" --build \
        "$work/cmake-build"; then
    grep -qF "from $prefix/$libdir/cmake/umf_gpu" \
        "$work/configure_with_find_package_umf_gpu_.log" ||
        fail "find_package(umf_gpu) did not find the prefix's package"
    [ "$with_ze" = ON ] && programs="$programs cmake-build/level_zero_alloc cmake-build/ipc_two_processes_static"
    [ "$with_cuda" = ON ] && programs="$programs cmake-build/cuda_alloc cmake-build/native_error_static cmake-build/cuda_vmm_two_processes"
fi

# 5. The outside project through pkg-config.
if [ -n "$pkgconfig" ]; then
    export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
    if step "pkg-config umf-gpu" "$pkgconfig" --cflags --libs umf-gpu; then
        flags=$(cat "$log")
        # The .pc file finds the prefix from its own folder.
        pc_prefix=$("$pkgconfig" --variable=prefix umf-gpu)
        [ "$(cd "$pc_prefix" 2>/dev/null && pwd -P)" = "$prefix" ] ||
            fail "umf-gpu.pc: prefix '$pc_prefix' is not $prefix"
        rpath="-Wl,-rpath,$prefix/$libdir"
        examples=$prefix/$docdir/examples
        if [ "$with_ze" = ON ]; then
            # shellcheck disable=SC2046,SC2086
            step "cc level_zero_alloc.c with pkg-config" "$cc" \
                "$examples/level_zero_alloc.c" -o "$work/pc_level_zero_alloc" \
                $flags $("$pkgconfig" --cflags --libs level-zero) $rpath &&
                programs="$programs pc_level_zero_alloc"
        fi
        if [ "$with_cuda" = ON ]; then
            # Linked with the emulated libcuda.so of the prefix, as a CI
            # without the CUDA toolkit's libraries would.
            # shellcheck disable=SC2086
            step "cc cuda_alloc.c with pkg-config" "$cc" \
                "$examples/cuda_alloc.c" -o "$work/pc_cuda_alloc" $flags \
                -I"${cuda_root:-/usr/local/cuda}/include" \
                -L"$prefix/$libdir/mock-cuda" -lcuda $rpath &&
                programs="$programs pc_cuda_alloc"
        fi
    fi
else
    fail "no pkg-config program: the pkg-config build was not tried"
fi

# 6. Run them on the prefix's emulated drivers, failing on leaks; then the
#    installed demo, which finds those drivers by itself.
for p in $programs; do
    step "run $p on the installed emulated drivers" sh -c \
        'eval "$("$1/bin/umf-gpu-mock-env")" && UMF_GPU_MOCK_LEAKS=strict "$2"' \
        sh "$prefix" "$work/$p"
done
if step "installed umf-gpu-demo" env UMF_GPU_MOCK_LEAKS=strict \
    "$prefix/bin/umf-gpu-demo" --size 64K; then
    [ "$with_ze" = ON ] && { grep -qF "$prefix/$libdir/libze_mock.so" "$log" ||
        fail "the installed demo did not use the prefix's Level Zero driver"; }
    [ "$with_cuda" = ON ] && { grep -qF "$prefix/$libdir/mock-cuda/libcuda.so.1" "$log" ||
        fail "the installed demo did not use the prefix's libcuda.so.1"; }
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "install test passed"
