#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Installs the Debian 12 packages that umf-gpu needs to build and to run its
# tests. Run it as root, or as a user who may sudo.
#
# The CUDA driver API headers (cuda.h) are not a Debian package: they come
# from the CUDA toolkit, looked for at /usr/local/cuda (or CUDAToolkit_ROOT).
# Without them the build leaves the CUDA provider out and says so.
set -euo pipefail

packages=(
    build-essential # gcc, g++, make: the normal build
    cmake           # 3.25 in Debian 12
    ninja-build
    pkg-config      # finds Level Zero through level-zero.pc
    clang           # the sanitizer builds and the fuzz targets
    libclang-rt-14-dev # clang's sanitizer and libFuzzer runtimes
    libomp-14-dev   # LLVM's OpenMP offload runtime and its CUDA plugin, and
    clang-tools-14  # clang's offload wrappers: examples/openmp_offload.c
    llvm            # llvm-symbolizer, for readable sanitizer reports; its
    llvm-14         # llvm-link-14 links kernels' modules (mock/mock_kernel.c)
    libgtest-dev    # GoogleTest
    libze-dev       # the Level Zero loader's headers and library
    libze1          # the Level Zero loader
    openmpi-bin     # mpirun, and libopenmpi-dev: examples/mpi_share.c
    libopenmpi-dev
    python3         # tools/file_cycles.py (the layers test), the benchmark's JSON check
    libgl-dev       # GL/gl.h, EGL/eglext.h and vdpau/vdpau.h: the interop
    libegl-dev      # headers' exports of the emulated libcuda
    libvdpau-dev    # (cuda_mock_interop.c)
    opencl-c-headers # CL/cl.h: the emulated drivers' kernel engine (mock/mock_kernel.c)
    pocl-opencl-icd # the kernels' CPU backend, found at run time through
    ocl-icd-libopencl1 # libOpenCL.so.1; and the SPIR-V translator and
    llvm-spirv-14   # clang-14, which build the test kernels (test/kernels)
    clang-14
    ffmpeg          # test/programs: Debian's ffmpeg on the emulated libcuda
    hashcat         # test/programs: Debian's hashcat on the emulated libcuda
    git
)

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${packages[@]}"
