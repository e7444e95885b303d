// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the kernel engine needs to know of a SPIR-V module before it hands
// the module to the translator and the backend (mock_kernel.c): that it is
// SPIR-V at all, what it asks for that the CPU backend cannot run (named
// in words for the build log), the types of its specialization constants
// (Level Zero passes their values without sizes), its program-scope
// variables and whether it imports functions from other modules. A walk
// over the instruction words, bounded by the input's size: the input is a
// caller's bytes and may be anything.

#ifndef UMF_GPU_MOCK_SPIRV_H
#define UMF_GPU_MOCK_SPIRV_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A specialization constant: its SpecId and how its value is read.
typedef enum umf_mock_spec_kind_t {
    UMF_MOCK_SPEC_BOOL,
    UMF_MOCK_SPEC_INT,
    UMF_MOCK_SPEC_FLOAT,
} umf_mock_spec_kind_t;

typedef struct umf_mock_spec_info_t {
    uint32_t id;
    umf_mock_spec_kind_t kind;
    uint32_t bits; // 8 for a bool (read as one byte), else the type's width
} umf_mock_spec_info_t;

// Names, each NUL-terminated, one after another (malloc'ed, or NULL).
typedef struct umf_mock_names_t {
    char *s;
    size_t size; // bytes of s
} umf_mock_names_t;

// True when `name` is one of `names`.
bool umf_mock_names_has(const umf_mock_names_t *names, const char *name);

typedef struct umf_mock_spirv_t {
    uint32_t version; // the header's: 0x00010200 for 1.2
    size_t nspecs;
    umf_mock_spec_info_t *specs; // malloc'ed
    // The module-scope variables in CrossWorkgroup storage.
    umf_mock_names_t globals;
    // What the module takes from others (Import linkage, built-in
    // variables left out) and gives them (Export linkage), and its kernels
    // (its OpEntryPoint Kernel names).
    umf_mock_names_t imports, exports, kernels;
} umf_mock_spirv_t;

// Scans `words` (size bytes). False, with the reason in why[why_size],
// for what is not a SPIR-V module or asks for what the backend cannot run
// (images, samplers, fp16 arithmetic, subgroups, function pointers,
// atomics through generic-address-space pointers). Else fills *out;
// release it with umf_mock_spirv_free.
bool umf_mock_spirv_scan(const void *words, size_t size, umf_mock_spirv_t *out,
                         char *why, size_t why_size);
void umf_mock_spirv_free(umf_mock_spirv_t *s);

// The scanned constant of SpecId `id`, or NULL.
const umf_mock_spec_info_t *umf_mock_spirv_spec(const umf_mock_spirv_t *s,
                                                uint32_t id);

#endif // UMF_GPU_MOCK_SPIRV_H
