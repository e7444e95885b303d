// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernel engine of the emulated drivers: programs built from an
// intermediate language, their kernels, argument binding and launches, run
// on the host's CPU by an existing OpenCL implementation (pocl's CPU
// device, reached through ocl-icd's libOpenCL.so.1). Today's front end is
// SPIR-V (Level Zero's IL), translated to SPIR 1.2 bitcode by the
// llvm-spirv-14 tool, since Debian's pocl takes no SPIR-V; a CUDA PTX
// front end would be another umf_mock_program_build_* beside it, with the
// same kernels and launches. The drivers never see OpenCL.
//
// Everything is found at run time, at the first call that needs it:
// nothing is loaded for a process that runs no kernel. Without the backend
// or the translator every build fails with UMF_MOCK_BUILD_UNAVAILABLE and a
// log that says what to install. The device memory of the emulated drivers
// is host memory, so a device pointer is a kernel argument as it is.
//
// Variables (read once, at the first use): UMF_GPU_MOCK_KERNELS=off, no
// backend (as if pocl were missing); UMF_GPU_MOCK_LLVM_SPIRV, the
// translator's path (default: llvm-spirv-14 on PATH). pocl's own, such as
// POCL_CACHE_DIR (where built kernels are kept across processes) and
// POCL_MAX_PTHREAD_COUNT, reach pocl unchanged.
//
// Thread safety: every call may come from any thread. Launches run one at
// a time (the engine's lock is a leaf: taken under a driver's stream lock,
// never the other way round).

#ifndef UMF_GPU_MOCK_KERNEL_H
#define UMF_GPU_MOCK_KERNEL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mock_status.h"

// ---- The backend ------------------------------------------------------------

// Floating-point capabilities of umf_mock_kernel_limits_t.
enum {
    UMF_MOCK_FP_DENORM = 1u << 0,
    UMF_MOCK_FP_INF_NAN = 1u << 1,
    UMF_MOCK_FP_ROUND_TO_NEAREST = 1u << 2,
    UMF_MOCK_FP_ROUND_TO_ZERO = 1u << 3,
    UMF_MOCK_FP_ROUND_TO_INF = 1u << 4,
    UMF_MOCK_FP_FMA = 1u << 5,
    UMF_MOCK_FP_CORRECT_DIVIDE_SQRT = 1u << 6,
    UMF_MOCK_FP_SOFT_FLOAT = 1u << 7,
};

typedef struct umf_mock_kernel_limits_t {
    uint32_t max_group_size;    // work-items of a group, all dimensions
    uint32_t max_group_dims[3]; // per dimension
    uint64_t local_mem_size;    // bytes of local (shared) memory a group has
    uint32_t compute_units;
    bool fp64;              // double precision
    uint32_t fp32_flags;    // UMF_MOCK_FP_*
    uint32_t fp64_flags;    // UMF_MOCK_FP_*, 0 without fp64
    uint32_t max_args_size; // bytes of a kernel's arguments
    bool int64_atomics;     // 64-bit atomics on global and local memory
    uint32_t spirv_version; // highest SPIR-V the translator reads (0x10400)
    char device_name[128];
} umf_mock_kernel_limits_t;

// True when kernels can run: the backend and the translator were found
// (once per process), with what the backend runs in *limits (may be NULL).
// Else false with what is missing and what to install in why[why_size].
bool umf_mock_kernel_backend(umf_mock_kernel_limits_t *limits, char *why,
                             size_t why_size);

// ---- Programs ---------------------------------------------------------------

typedef enum umf_mock_build_t {
    UMF_MOCK_BUILD_OK = 0,
    UMF_MOCK_BUILD_UNAVAILABLE, // no backend or no translator
    UMF_MOCK_BUILD_INVALID,     // not SPIR-V / not one of our native binaries
    UMF_MOCK_BUILD_UNSUPPORTED, // asks for what the backend cannot run
    UMF_MOCK_BUILD_FAILED,      // the translator or the compiler refused it
    UMF_MOCK_BUILD_BAD_SPEC,    // a specialization constant it does not have
    UMF_MOCK_BUILD_NO_MEMORY,
} umf_mock_build_t;

typedef struct umf_mock_program_t umf_mock_program_t;

// Builds a program from a SPIR-V module of `size` bytes. `options`: build
// flags (may be NULL), the standard OpenCL ones passed on, the others
// ignored. `nspecs` specialization constants: SpecIds and pointers to
// their values (the size is the constant's type's, from the module).
// *log (malloc'ed, never NULL unless out of memory) gets the build log:
// the translator's and the compiler's own words on failure.
umf_mock_build_t
umf_mock_program_build_spirv(const void *il, size_t size, const char *options,
                             uint32_t nspecs, const uint32_t *spec_ids,
                             const void *const *spec_values,
                             umf_mock_program_t **out, char **log);
// The 16 bytes that name the format of umf_mock_program_native's binaries
// (Level Zero's nativeKernelSupported).
#define UMF_MOCK_NATIVE_FORMAT "umf-gpu-kernels1"
// Builds a program again from what umf_mock_program_native gave (of this
// or another process): UMF_MOCK_BUILD_INVALID for anything else.
umf_mock_build_t umf_mock_program_build_native(const void *binary, size_t size,
                                               umf_mock_program_t **out,
                                               char **log);

void umf_mock_program_ref(umf_mock_program_t *p);
void umf_mock_program_unref(umf_mock_program_t *p);

// The program's binary, as umf_mock_program_build_native takes it.
void umf_mock_program_native(const umf_mock_program_t *p, const void **binary,
                             size_t *size);
uint32_t umf_mock_program_kernel_count(const umf_mock_program_t *p);
const char *umf_mock_program_kernel_name(const umf_mock_program_t *p,
                                         uint32_t index);
// True when the program imports functions another program must provide.
bool umf_mock_program_imports(const umf_mock_program_t *p);
// True once the backend built the program: at once, or for one that
// imports, at its link. Kernels are made of built programs only.
bool umf_mock_program_built(const umf_mock_program_t *p);
// Links the `n` programs: each that imports takes what it imports from the
// one other program that exports it, and is built. A program is linked
// once; later links leave it. UMF_MOCK_BUILD_FAILED when an import of the
// set has no exporter or several (nothing is linked then), or the linker or
// the compiler refuses; UMF_MOCK_BUILD_UNAVAILABLE without the linker
// (llvm-link-14, or UMF_GPU_MOCK_LLVM_LINK). *log as for a build.
umf_mock_build_t umf_mock_program_link(umf_mock_program_t *const *programs,
                                       uint32_t n, char **log);

// ---- Kernels ----------------------------------------------------------------

typedef struct umf_mock_kernel_t umf_mock_kernel_t;

typedef struct umf_mock_kernel_info_t {
    uint32_t nargs;
    uint32_t required_group_size[3]; // zeros where the kernel sets none
    uint32_t max_group_size;         // for this kernel
    uint64_t private_mem_size;       // bytes a work-item uses
    uint64_t local_mem_size;         // bytes of its static local memory
} umf_mock_kernel_info_t;

// The kernel `name` of the program (which it holds): NOT_FOUND for a name
// the program lacks, OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_kernel_new(umf_mock_program_t *p, const char *name,
                                      umf_mock_kernel_t **out);
void umf_mock_kernel_ref(umf_mock_kernel_t *k);
void umf_mock_kernel_unref(umf_mock_kernel_t *k);
const char *umf_mock_kernel_name(const umf_mock_kernel_t *k);
const umf_mock_kernel_info_t *umf_mock_kernel_info(const umf_mock_kernel_t *k);

// ---- Arguments --------------------------------------------------------------

// The arguments of a kernel as set so far: a driver keeps one set per
// kernel handle, and each launch captures a copy (umf_mock_args_copy).
typedef struct umf_mock_args_t umf_mock_args_t;

umf_mock_args_t *umf_mock_args_new(const umf_mock_kernel_t *k);
umf_mock_args_t *umf_mock_args_copy(const umf_mock_args_t *a);
void umf_mock_args_free(umf_mock_args_t *a);
// Sets argument `index` from `size` bytes at `value`: a pointer argument
// takes sizeof(void *) bytes (value NULL: a null pointer), a local-memory
// one takes the size of its memory with value NULL, a value argument
// exactly its type's size. NOT_FOUND for an index past the last argument,
// UNSUPPORTED_SIZE for a size the argument cannot take, INVALID_ARGUMENT
// for a value given to local memory, OUT_OF_HOST_MEMORY.
umf_mock_status_t umf_mock_args_set(umf_mock_args_t *a,
                                    const umf_mock_kernel_t *k, uint32_t index,
                                    size_t size, const void *value);
// The first argument not set yet, or UINT32_MAX when all are.
uint32_t umf_mock_args_unset(const umf_mock_args_t *a);

// ---- Launches ---------------------------------------------------------------

typedef struct umf_mock_launch_dims_t {
    uint32_t groups[3];     // group counts
    uint32_t group_size[3]; // work-items of a group
    uint32_t offset[3];     // global offset of the first work-item
} umf_mock_launch_dims_t;

// Runs the kernel with the arguments over the dimensions, and returns when
// it finished. False, with the reason in why[why_size], when the backend
// refused the launch (nothing ran). A kernel that faults ends the process.
bool umf_mock_kernel_run(const umf_mock_kernel_t *k, const umf_mock_args_t *a,
                         const umf_mock_launch_dims_t *dims, char *why,
                         size_t why_size);

#endif // UMF_GPU_MOCK_KERNEL_H
