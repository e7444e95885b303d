// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Fault injection: make chosen calls of a driver's entry points fail.
//
//   rules  := rule { ";" rule }          (empty rules are ignored)
//   rule   := entry ":" when "=" result  (blanks around tokens are ignored)
//   when   := N      only the Nth call (N >= 1)
//           | N "+"  the Nth call and every later one
//           | "p" P  P percent of the calls, P from 0 to 100 with up to
//                    three decimals, drawn from a generator seeded by
//                    UMF_GPU_MOCK_SEED
//   result := a result name of the driver (ZE_RESULT_ERROR_..., CUDA_ERROR_...)
//           | a number, decimal or 0x hex, 1 to 2^31-1
//
// e.g. "zeMemAllocDevice:3=ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
//       zeMemFree:p50=0x78000001".
//
// A rule counts the calls of its entry from the moment it is added; the
// first matching rule of an entry decides. Entry names start with a driver's
// prefix ("ze", "cu"); the UMF_GPU_MOCK_FAULTS variable serves both drivers,
// so a driver skips (after checking their syntax) the rules whose entry has
// the other driver's prefix.
//
// The parser is a pure function of its arguments (no global state, no
// allocation), so that it can be fuzzed on its own.

#ifndef UMF_GPU_MOCK_FAULTS_H
#define UMF_GPU_MOCK_FAULTS_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UMF_MOCK_MAX_FAULT_RULES 64
#define UMF_MOCK_MAX_ENTRIES 512

typedef struct umf_mock_name_value_t {
    const char *name;
    int64_t value;
} umf_mock_name_value_t;

// What a driver's rules may name.
typedef struct umf_mock_fault_names_t {
    const char *prefix;         // this driver's entry prefix: "ze" or "cu"
    const char *const *entries; // entry index -> name
    size_t entry_count;         // at most UMF_MOCK_MAX_ENTRIES
    const umf_mock_name_value_t *results;
    size_t result_count;
} umf_mock_fault_names_t;

typedef enum umf_mock_fault_when_t {
    UMF_MOCK_FAULT_NTH = 0,     // only call number n
    UMF_MOCK_FAULT_FROM = 1,    // call number n and every later call
    UMF_MOCK_FAULT_PERCENT = 2, // n / 1000 percent of the calls
} umf_mock_fault_when_t;

typedef struct umf_mock_fault_rule_t {
    uint32_t entry; // index into names->entries
    umf_mock_fault_when_t when;
    uint64_t n;     // call number, or thousandths of a percent (0..100000)
    int64_t result; // what the failing call returns
} umf_mock_fault_rule_t;

// Parses `spec` into at most `max_rules` rules and stores their number in
// *count. `skip_foreign`: rules of the other driver are checked and skipped
// (the environment); when false they are an error (the control API). On
// error returns false, writes a message naming the offending position to
// err (if err_len > 0) and leaves *count at the rules parsed before it.
bool umf_mock_fault_parse(const char *spec, const umf_mock_fault_names_t *names,
                          bool skip_foreign, umf_mock_fault_rule_t *rules,
                          size_t max_rules, size_t *count, char *err,
                          size_t err_len);

// The rule engine: one per driver (each driver has its own copy of the
// core). umf_mock_faults_setup() is called once by umf_mock_init().
void umf_mock_faults_setup(const umf_mock_fault_names_t *names, uint64_t seed);

// Adds the rules of `spec`, all or none. False (and a logged reason) on a
// malformed spec.
bool umf_mock_faults_add(const char *spec, bool skip_foreign, char *err,
                         size_t err_len);
void umf_mock_faults_clear(void);

// Number of rules in force; read on every call, so kept apart.
extern _Atomic unsigned umf_mock_fault_rule_count;

// Slow path of umf_mock_fault_check(): advances the rules of `entry`.
bool umf_mock_faults_eval(unsigned entry, int64_t *result);

// True when this call of `entry` must fail with *result.
static inline bool umf_mock_fault_check(unsigned entry, int64_t *result) {
    if (__builtin_expect(atomic_load_explicit(&umf_mock_fault_rule_count,
                                              memory_order_relaxed) == 0,
                         1)) {
        return false;
    }
    return umf_mock_faults_eval(entry, result);
}

// Name of entry `entry`, or NULL.
const char *umf_mock_fault_entry_name(unsigned entry);
// Index of the entry called `name`, or -1.
int umf_mock_fault_entry_index(const char *name);

#endif // UMF_GPU_MOCK_FAULTS_H
