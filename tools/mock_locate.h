// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Finds the emulated GPU drivers of this build or installation relative to
// the running program; umf-gpu-mock-env and umf-gpu-demo share it.
//
//   build tree      <build>/bin/<program>
//                   <build>/lib/libze_mock.so
//                   <build>/lib/mock-cuda/libcuda.so.1
//   install prefix  <prefix>/<bindir>/<program>
//                   <prefix>/<libdir>/libze_mock.so
//                   <prefix>/<libdir>/mock-cuda/libcuda.so.1
//
// The folders searched, relative to the program's folder, are fixed by the
// build (MOCK_LOCATE_LIBDIRS): the install layout's <bindir> -> <libdir>
// first (e.g. ../lib/x86_64-linux-gnu), then the build tree's ../lib.

#ifndef UMF_GPU_TOOLS_MOCK_LOCATE_H
#define UMF_GPU_TOOLS_MOCK_LOCATE_H 1

#include <limits.h>

#define MOCK_LOCATE_ZE_LIBRARY "libze_mock.so"
#define MOCK_LOCATE_CUDA_FOLDER "mock-cuda"
#define MOCK_LOCATE_CUDA_LIBRARY "libcuda.so.1"

typedef struct mock_locate_t {
    char self[PATH_MAX];     // the running program, absolute
    char self_dir[PATH_MAX]; // its folder
    char ze[PATH_MAX];       // the emulated Level Zero driver, "" if none
    char cuda[PATH_MAX];     // the emulated libcuda.so.1, "" if none
    char cuda_dir[PATH_MAX]; // the folder of `cuda`, "" if none
} mock_locate_t;

// Fills *where. Returns 0, or -1 with errno set when the program's own
// location cannot be read (then nothing is found either).
int mock_locate(mock_locate_t *where);

// The folders searched, relative to the program's folder, ':'-separated
// (for messages).
const char *mock_locate_searched(void);

#endif // UMF_GPU_TOOLS_MOCK_LOCATE_H
