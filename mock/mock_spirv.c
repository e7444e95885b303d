// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The SPIR-V scan of mock_spirv.h. Opcodes, capabilities and enumerants
// are the SPIR-V specification's (1.6, section 3); only those the scan
// looks at are named. Every read is bounded by the instruction's own word
// count, and that by the input.

#include "mock_spirv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPIRV_MAGIC 0x07230203u
#define HEADER_WORDS 5

enum {
    OP_NAME = 5,
    OP_ENTRY_POINT = 15,
    OP_CAPABILITY = 17,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_IMAGE = 25,
    OP_TYPE_SAMPLER = 26,
    OP_TYPE_SAMPLED_IMAGE = 27,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_FUNCTION = 54,
    OP_FUNCTION_PARAMETER = 55,
    OP_FUNCTION_END = 56,
    OP_FUNCTION_CALL = 57,
    OP_VARIABLE = 59,
    OP_LOAD = 61,
    OP_ACCESS_CHAIN = 65,
    OP_IN_BOUNDS_ACCESS_CHAIN = 66,
    OP_PTR_ACCESS_CHAIN = 67,
    OP_IN_BOUNDS_PTR_ACCESS_CHAIN = 70,
    OP_DECORATE = 71,
    OP_COPY_OBJECT = 83,
    OP_CONVERT_U_TO_PTR = 120,
    OP_PTR_CAST_TO_GENERIC = 121,
    OP_GENERIC_CAST_TO_PTR = 122,
    OP_GENERIC_CAST_TO_PTR_EXPLICIT = 123,
    OP_BITCAST = 124,
    OP_SELECT = 169,
    OP_ATOMIC_LOAD = 227,
    OP_ATOMIC_STORE = 228,
    OP_ATOMIC_XOR = 242,
    OP_PHI = 245,
    OP_GROUP_ALL = 261,
    OP_GROUP_SMAX = 270,
    OP_ATOMIC_FLAG_TEST_AND_SET = 318,
    OP_ATOMIC_FLAG_CLEAR = 319,
    OP_ATOMIC_FMIN_EXT = 5614,
    OP_ATOMIC_FMAX_EXT = 5615,
    OP_ATOMIC_FADD_EXT = 6035,
};

enum {
    DECORATION_SPEC_ID = 1,
    DECORATION_BUILTIN = 11,
    DECORATION_LINKAGE = 41,
    LINKAGE_IMPORT = 1,
    EXECUTION_MODEL_KERNEL = 6,
    STORAGE_CROSS_WORKGROUP = 5,
    STORAGE_GENERIC = 8,
    SCOPE_SUBGROUP = 3,
};

// Capabilities the CPU backend (pocl 3.1) cannot run, by name.
static const struct {
    uint32_t cap;
    const char *name;
} refused_caps[] = {
    {9, "Float16 (fp16 arithmetic)"},
    {13, "ImageBasic (images)"},
    {14, "ImageReadWrite (images)"},
    {15, "ImageMipmap (images)"},
    {19, "DeviceEnqueue (device-side enqueue)"},
    {20, "LiteralSampler (samplers)"},
    {43, "Sampled1D (images)"},
    {44, "Image1D (images)"},
    {46, "SampledBuffer (images)"},
    {47, "ImageBuffer (images)"},
    {58, "SubgroupDispatch (subgroups)"},
    {61, "GroupNonUniform (subgroups)"},
    {62, "GroupNonUniformVote (subgroups)"},
    {63, "GroupNonUniformArithmetic (subgroups)"},
    {64, "GroupNonUniformBallot (subgroups)"},
    {65, "GroupNonUniformShuffle (subgroups)"},
    {66, "GroupNonUniformShuffleRelative (subgroups)"},
    {67, "GroupNonUniformClustered (subgroups)"},
    {4423, "SubgroupBallotKHR (subgroups)"},
    {4431, "SubgroupVoteKHR (subgroups)"},
    {5568, "SubgroupShuffleINTEL (subgroups)"},
    {5569, "SubgroupBufferBlockIOINTEL (subgroups)"},
    {5570, "SubgroupImageBlockIOINTEL (subgroups)"},
    {5579, "SubgroupImageMediaBlockIOINTEL (subgroups)"},
    {5603, "FunctionPointersINTEL (function pointers)"},
    {5604, "IndirectReferencesINTEL (function pointers)"},
};

static bool say(char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool say(char *why, size_t why_size, const char *fmt, ...) {
    if (why != NULL && why_size > 0) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(why, why_size, fmt, args);
        va_end(args);
    }
    return false;
}

// What the scan keeps per id (the header's bound caps the ids).
typedef struct id_info_t {
    uint32_t type;    // result type of the instruction that made it
    uint32_t storage; // 1 + storage class, for an OpTypePointer
    uint32_t value;   // first word of an OpConstant
    uint8_t kind;     // OpTypeBool/Int/Float: its opcode
    uint8_t width;
    bool constant;
    bool builtin; // decorated BuiltIn (imported by name, not from a module)
    bool half;    // a 16-bit float type, or a vector of them
} id_info_t;

// A literal string at words[0..n): its length within them, or -1 when
// no NUL ends it there.
static long literal_length(const uint32_t *words, size_t n) {
    const char *s = (const char *)words;
    size_t len = strnlen(s, n * 4);
    return len < n * 4 ? (long)len : -1;
}

static bool has_result_type(uint32_t op) {
    switch (op) {
    case OP_FUNCTION_PARAMETER:
    case OP_FUNCTION_CALL:
    case OP_VARIABLE:
    case OP_LOAD:
    case OP_ACCESS_CHAIN:
    case OP_IN_BOUNDS_ACCESS_CHAIN:
    case OP_PTR_ACCESS_CHAIN:
    case OP_IN_BOUNDS_PTR_ACCESS_CHAIN:
    case OP_COPY_OBJECT:
    case OP_CONVERT_U_TO_PTR:
    case OP_PTR_CAST_TO_GENERIC:
    case OP_GENERIC_CAST_TO_PTR:
    case OP_GENERIC_CAST_TO_PTR_EXPLICIT:
    case OP_BITCAST:
    case OP_SELECT:
    case OP_PHI:
    case OP_CONSTANT:
        return true;
    default:
        return false;
    }
}

// The word index of the pointer operand of an atomic instruction, or 0.
static size_t atomic_pointer_word(uint32_t op) {
    if (op == OP_ATOMIC_STORE || op == OP_ATOMIC_FLAG_CLEAR) {
        return 1;
    }
    if ((op >= OP_ATOMIC_LOAD && op <= OP_ATOMIC_XOR) ||
        op == OP_ATOMIC_FLAG_TEST_AND_SET || op == OP_ATOMIC_FMIN_EXT ||
        op == OP_ATOMIC_FMAX_EXT || op == OP_ATOMIC_FADD_EXT) {
        return 3;
    }
    return 0;
}

static bool add_spec(umf_mock_spirv_t *s, uint32_t id) {
    umf_mock_spec_info_t *grown =
        realloc(s->specs, (s->nspecs + 1) * sizeof(*s->specs));
    if (grown == NULL) {
        return false;
    }
    s->specs = grown;
    memset(&s->specs[s->nspecs], 0, sizeof(*s->specs));
    s->specs[s->nspecs].id = id;
    s->specs[s->nspecs].bits = 0; // its type comes with the OpSpecConstant
    s->nspecs++;
    return true;
}

static bool add_name(umf_mock_names_t *names, const char *name) {
    size_t len = strlen(name) + 1;
    char *grown = realloc(names->s, names->size + len);
    if (grown == NULL) {
        return false;
    }
    memcpy(grown + names->size, name, len);
    names->s = grown;
    names->size += len;
    return true;
}

bool umf_mock_names_has(const umf_mock_names_t *names, const char *name) {
    for (size_t at = 0; at < names->size; at += strlen(names->s + at) + 1) {
        if (strcmp(names->s + at, name) == 0) {
            return true;
        }
    }
    return false;
}

typedef struct scan_t {
    const uint32_t *w;
    size_t nwords;
    uint32_t bound;
    id_info_t *ids;
    uint32_t *spec_of; // id -> 1 + index in specs, for SpecId targets
    bool *global;      // id -> a module-scope CrossWorkgroup variable
} scan_t;

static bool id_ok(const scan_t *sc, uint32_t id) {
    return id > 0 && id < sc->bound;
}

// The refusals first: none of them depends on what comes later, but the
// pointer types an atomic uses come before it (SPIR-V's layout rules).
static bool check_instruction(scan_t *sc, const uint32_t *in, uint32_t n,
                              char *why, size_t why_size) {
    uint32_t op = in[0] & 0xffffu;
    if (op == OP_CAPABILITY && n >= 2) {
        for (size_t i = 0; i < sizeof(refused_caps) / sizeof(refused_caps[0]);
             i++) {
            if (refused_caps[i].cap == in[1]) {
                return say(why, why_size,
                           "the module needs the SPIR-V capability %s, which "
                           "the CPU backend (pocl) cannot run",
                           refused_caps[i].name);
            }
        }
    }
    if (op == 23 /* OpTypeVector */ && n >= 3 && id_ok(sc, in[1]) &&
        id_ok(sc, in[2])) {
        sc->ids[in[1]].half = sc->ids[in[2]].half;
    }
    if (op == OP_TYPE_FLOAT && n >= 3 && in[2] == 16 && id_ok(sc, in[1])) {
        sc->ids[in[1]].half = true;
    }
    // A half value starts as a constant, a load, a conversion or a
    // parameter: the translator declares Float16Buffer alone for fp16
    // arithmetic, so the values, not the capability, tell it.
    if ((op == 1 /* OpUndef */ || op == 43 /* OpConstant */ ||
         op == 50 /* OpSpecConstant */ || op == 55 /* OpFunctionParameter */ ||
         op == 61 /* OpLoad */ || op == 111 /* OpConvertSToF */ ||
         op == 112 /* OpConvertUToF */ || op == 115 /* OpFConvert */ ||
         op == 124 /* OpBitcast */) &&
        n >= 2 && id_ok(sc, in[1]) && sc->ids[in[1]].half) {
        return say(why, why_size,
                   "the module computes with 16-bit floats (Float16, fp16 "
                   "arithmetic: opcode %u), which the CPU backend (pocl) "
                   "cannot run",
                   op);
    }
    if (op == OP_TYPE_IMAGE || op == OP_TYPE_SAMPLER ||
        op == OP_TYPE_SAMPLED_IMAGE) {
        return say(why, why_size,
                   "the module uses images or samplers (%s), which the "
                   "CPU backend (pocl) cannot link",
                   op == OP_TYPE_SAMPLER ? "OpTypeSampler" : "OpTypeImage");
    }
    if (op == OP_DECORATE && n >= 4 && in[2] == DECORATION_BUILTIN &&
        in[3] >= 36 && in[3] <= 41) {
        return say(why, why_size,
                   "the module reads a subgroup built-in (BuiltIn %u), and "
                   "the CPU backend (pocl) has no subgroups",
                   in[3]);
    }
    if (op >= OP_GROUP_ALL && op <= OP_GROUP_SMAX && n >= 4 &&
        id_ok(sc, in[3]) && sc->ids[in[3]].constant &&
        sc->ids[in[3]].value == SCOPE_SUBGROUP) {
        return say(why, why_size,
                   "the module uses a subgroup collective (opcode %u), and "
                   "the CPU backend (pocl) has no subgroups",
                   op);
    }
    size_t at = atomic_pointer_word(op);
    if (at > 0 && at < n && id_ok(sc, in[at])) {
        uint32_t type = sc->ids[in[at]].type;
        if (id_ok(sc, type) &&
            sc->ids[type].storage == 1 + (uint32_t)STORAGE_GENERIC) {
            return say(why, why_size,
                       "the module makes an atomic access (opcode %u) through "
                       "a generic-address-space pointer, which the CPU "
                       "backend (pocl) cannot run: give the atomic a global "
                       "or local pointer",
                       op);
        }
    }
    return true;
}

// Records what later instructions and the caller need.
static bool note_instruction(scan_t *sc, umf_mock_spirv_t *out,
                             const uint32_t *in, uint32_t n, bool in_function,
                             char *why, size_t why_size) {
    uint32_t op = in[0] & 0xffffu;
    if (has_result_type(op) && n >= 3 && id_ok(sc, in[2])) {
        sc->ids[in[2]].type = in[1];
    }
    switch (op) {
    case OP_TYPE_BOOL:
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
        if (n >= 2 && id_ok(sc, in[1])) {
            sc->ids[in[1]].kind = (uint8_t)op;
            sc->ids[in[1]].width =
                op == OP_TYPE_BOOL ? 8 : (n >= 3 ? (uint8_t)in[2] : 0);
        }
        break;
    case OP_TYPE_POINTER:
        if (n >= 3 && id_ok(sc, in[1])) {
            sc->ids[in[1]].storage = 1 + in[2];
        }
        break;
    case OP_CONSTANT:
        if (n >= 4 && id_ok(sc, in[2])) {
            sc->ids[in[2]].constant = true;
            sc->ids[in[2]].value = in[3];
        }
        break;
    case OP_DECORATE:
        if (n >= 4 && in[2] == DECORATION_SPEC_ID && id_ok(sc, in[1])) {
            if (!add_spec(out, in[3])) {
                return say(why, why_size, "out of host memory");
            }
            sc->spec_of[in[1]] = (uint32_t)out->nspecs;
        } else if (n >= 4 && in[2] == DECORATION_BUILTIN && id_ok(sc, in[1])) {
            sc->ids[in[1]].builtin = true; // see collect_names
        }
        break;
    case OP_SPEC_CONSTANT_TRUE:
    case OP_SPEC_CONSTANT_FALSE:
    case OP_SPEC_CONSTANT:
        if (n >= 3 && id_ok(sc, in[2]) && sc->spec_of[in[2]] > 0 &&
            id_ok(sc, in[1])) {
            umf_mock_spec_info_t *spec = &out->specs[sc->spec_of[in[2]] - 1];
            const id_info_t *type = &sc->ids[in[1]];
            spec->kind = type->kind == OP_TYPE_FLOAT ? UMF_MOCK_SPEC_FLOAT
                         : type->kind == OP_TYPE_INT ? UMF_MOCK_SPEC_INT
                                                     : UMF_MOCK_SPEC_BOOL;
            spec->bits = type->width;
        }
        break;
    case OP_VARIABLE:
        if (!in_function && n >= 4 && in[3] == STORAGE_CROSS_WORKGROUP &&
            id_ok(sc, in[2])) {
            sc->global[in[2]] = true;
        }
        break;
    default:
        break;
    }
    return true;
}

// The names a second pass finds, once every id is known: the
// program-scope variables (OpName comes before the variables), the kernels,
// and the linkage names of what is imported (built-ins left out: the
// translator imports them by name, "__spirv_BuiltInGlobalInvocationId",
// from no module) and exported.
static bool collect_names(const scan_t *sc, umf_mock_spirv_t *out) {
    for (size_t i = HEADER_WORDS; i < sc->nwords;) {
        const uint32_t *in = &sc->w[i];
        uint32_t n = in[0] >> 16, op = in[0] & 0xffffu;
        umf_mock_names_t *list = NULL;
        const uint32_t *name = NULL;
        size_t room = 0;
        if (op == OP_NAME && n >= 3 && id_ok(sc, in[1]) && sc->global[in[1]]) {
            list = &out->globals, name = &in[2], room = n - 2;
        } else if (op == OP_ENTRY_POINT && n >= 4 &&
                   in[1] == EXECUTION_MODEL_KERNEL) {
            list = &out->kernels, name = &in[3], room = n - 3;
        } else if (op == OP_DECORATE && n >= 5 && in[2] == DECORATION_LINKAGE &&
                   id_ok(sc, in[1]) && !sc->ids[in[1]].builtin) {
            list = in[n - 1] == LINKAGE_IMPORT ? &out->imports : &out->exports;
            name = &in[3], room = n - 4;
        }
        if (list != NULL && literal_length(name, room) >= 0 &&
            !add_name(list, (const char *)name)) {
            return false;
        }
        i += n;
    }
    return true;
}

bool umf_mock_spirv_scan(const void *words, size_t size, umf_mock_spirv_t *out,
                         char *why, size_t why_size) {
    memset(out, 0, sizeof(*out));
    if (size < HEADER_WORDS * 4 || size % 4 != 0) {
        return say(why, why_size,
                   "the input (%zu bytes) is not a SPIR-V module: too short or "
                   "not a whole number of 32-bit words",
                   size);
    }
    scan_t sc = {.nwords = size / 4};
    uint32_t *copy = malloc(size); // aligned words, whatever the input's
    if (copy == NULL) {
        return say(why, why_size, "out of host memory");
    }
    memcpy(copy, words, size);
    sc.w = copy;
    bool ok = false;
    if (copy[0] != SPIRV_MAGIC) {
        say(why, why_size,
            "the input is not a SPIR-V module: its first word is 0x%08x, not "
            "the magic number 0x%08x (in this byte order)",
            copy[0], SPIRV_MAGIC);
        goto out;
    }
    out->version = copy[1];
    sc.bound = copy[3];
    if (sc.bound == 0 || sc.bound > sc.nwords + 64) {
        say(why, why_size,
            "the SPIR-V module is malformed: its id bound %u does not fit "
            "its %zu words",
            sc.bound, sc.nwords);
        goto out;
    }
    sc.ids = calloc(sc.bound, sizeof(*sc.ids));
    sc.spec_of = calloc(sc.bound, sizeof(*sc.spec_of));
    sc.global = calloc(sc.bound, sizeof(*sc.global));
    if (sc.ids == NULL || sc.spec_of == NULL || sc.global == NULL) {
        say(why, why_size, "out of host memory");
        goto out;
    }
    bool in_function = false;
    for (size_t i = HEADER_WORDS; i < sc.nwords;) {
        uint32_t n = copy[i] >> 16, op = copy[i] & 0xffffu;
        if (n == 0 || n > sc.nwords - i) {
            say(why, why_size,
                "the SPIR-V module is malformed: the instruction at word %zu "
                "(opcode %u) claims %u words, %zu are left",
                i, op, n, sc.nwords - i);
            goto out;
        }
        if (!check_instruction(&sc, &copy[i], n, why, why_size) ||
            !note_instruction(&sc, out, &copy[i], n, in_function, why,
                              why_size)) {
            goto out;
        }
        in_function = op == OP_FUNCTION       ? true
                      : op == OP_FUNCTION_END ? false
                                              : in_function;
        i += n;
    }
    for (size_t i = 0; i < out->nspecs; i++) {
        if (out->specs[i].bits == 0) {
            say(why, why_size,
                "the SPIR-V module is malformed: SpecId %u decorates no "
                "scalar specialization constant",
                out->specs[i].id);
            goto out;
        }
    }
    if (!collect_names(&sc, out)) {
        say(why, why_size, "out of host memory");
        goto out;
    }
    ok = true;
out:
    free(sc.global);
    free(sc.spec_of);
    free(sc.ids);
    free(copy);
    if (!ok) {
        umf_mock_spirv_free(out);
    }
    return ok;
}

void umf_mock_spirv_free(umf_mock_spirv_t *s) {
    free(s->specs);
    free(s->globals.s);
    free(s->imports.s);
    free(s->exports.s);
    free(s->kernels.s);
    memset(s, 0, sizeof(*s));
}

const umf_mock_spec_info_t *umf_mock_spirv_spec(const umf_mock_spirv_t *s,
                                                uint32_t id) {
    for (size_t i = 0; i < s->nspecs; i++) {
        if (s->specs[i].id == id) {
            return &s->specs[i];
        }
    }
    return NULL;
}
