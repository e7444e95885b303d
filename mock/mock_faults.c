// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_faults.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mock_log.h"

// Entry prefixes of all emulated drivers; a rule must start with one.
static const char *const known_prefixes[] = {"ze", "cu"};

typedef struct cursor_t {
    const char *start;
    const char *p;
    char *err;
    size_t err_len;
} cursor_t;

static bool fail(cursor_t *c, const char *what) {
    if (c->err != NULL && c->err_len > 0) {
        snprintf(c->err, c->err_len, "fault rules: %s at offset %zu", what,
                 (size_t)(c->p - c->start));
    }
    return false;
}

static void skip_blanks(cursor_t *c) {
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r') {
        c->p++;
    }
}

static bool is_ident_char(char ch, bool first) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
           (!first && ch >= '0' && ch <= '9');
}

// An identifier: its start and length (0 when none).
static size_t read_ident(cursor_t *c, const char **ident) {
    *ident = c->p;
    if (!is_ident_char(*c->p, true)) {
        return 0;
    }
    while (is_ident_char(*c->p, false)) {
        c->p++;
    }
    return (size_t)(c->p - *ident);
}

static bool digit_value(char ch, unsigned base, unsigned *d) {
    if (ch >= '0' && ch <= '9') {
        *d = (unsigned)(ch - '0');
    } else if (base == 16 && ch >= 'a' && ch <= 'f') {
        *d = (unsigned)(ch - 'a' + 10);
    } else if (base == 16 && ch >= 'A' && ch <= 'F') {
        *d = (unsigned)(ch - 'A' + 10);
    } else {
        return false;
    }
    return true;
}

// An unsigned number no greater than max; hex after 0x when allow_hex.
static bool read_number(cursor_t *c, bool allow_hex, uint64_t max,
                        uint64_t *out) {
    unsigned base = 10, d;
    if (allow_hex && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')) {
        base = 16;
        c->p += 2;
    }
    if (!digit_value(*c->p, base, &d)) {
        return fail(c, "expected a number");
    }
    uint64_t v = 0;
    while (digit_value(*c->p, base, &d)) {
        if (v > (max - d) / base) {
            return fail(c, "number out of range");
        }
        v = v * base + d;
        c->p++;
    }
    *out = v;
    return true;
}

static bool starts_with(const char *s, size_t len, const char *prefix) {
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static bool name_is(const char *s, size_t len, const char *name) {
    return name != NULL && strlen(name) == len && memcmp(s, name, len) == 0;
}

static bool parse_when(cursor_t *c, umf_mock_fault_rule_t *rule) {
    if (*c->p == 'p' || *c->p == 'P') {
        c->p++;
        uint64_t whole, frac = 0;
        if (!read_number(c, false, 100, &whole)) {
            return false;
        }
        if (*c->p == '.') {
            c->p++;
            unsigned digits = 0, d;
            if (!digit_value(*c->p, 10, &d)) {
                return fail(c, "expected decimals after '.'");
            }
            while (digit_value(*c->p, 10, &d)) {
                if (++digits > 3) {
                    return fail(c, "more than three decimals in a percentage");
                }
                frac = frac * 10 + d;
                c->p++;
            }
            for (; digits < 3; digits++) {
                frac *= 10;
            }
        }
        if (whole * 1000 + frac > 100000) {
            return fail(c, "percentage above 100");
        }
        rule->when = UMF_MOCK_FAULT_PERCENT;
        rule->n = whole * 1000 + frac;
        return true;
    }
    if (!read_number(c, false, UINT64_MAX, &rule->n)) {
        return false;
    }
    if (rule->n == 0) {
        return fail(c, "calls are counted from 1");
    }
    rule->when = UMF_MOCK_FAULT_NTH;
    if (*c->p == '+') {
        c->p++;
        rule->when = UMF_MOCK_FAULT_FROM;
    }
    return true;
}

static bool parse_result(cursor_t *c, const umf_mock_fault_names_t *names,
                         bool foreign, int64_t *result) {
    const char *ident;
    size_t len = read_ident(c, &ident);
    if (len > 0) {
        if (foreign) {
            *result = 0;
            return true; // the other driver's names; syntax checked
        }
        for (size_t i = 0; i < names->result_count; i++) {
            if (name_is(ident, len, names->results[i].name)) {
                if (names->results[i].value == 0) {
                    c->p = ident;
                    return fail(c, "the success result is not a fault");
                }
                *result = names->results[i].value;
                return true;
            }
        }
        c->p = ident;
        return fail(c, "unknown result name");
    }
    uint64_t v;
    const char *at = c->p;
    if (!read_number(c, true, INT32_MAX, &v)) {
        return false;
    }
    if (v == 0) {
        c->p = at;
        return fail(c, "result 0 is success, not a fault");
    }
    *result = (int64_t)v;
    return true;
}

bool umf_mock_fault_parse(const char *spec, const umf_mock_fault_names_t *names,
                          bool skip_foreign, umf_mock_fault_rule_t *rules,
                          size_t max_rules, size_t *count, char *err,
                          size_t err_len) {
    cursor_t cur = {spec, spec, err, err_len};
    cursor_t *c = &cur;
    if (count == NULL || names == NULL || names->prefix == NULL ||
        (rules == NULL && max_rules > 0)) {
        if (err != NULL && err_len > 0) {
            snprintf(err, err_len, "fault rules: invalid arguments");
        }
        return false;
    }
    *count = 0;
    if (spec == NULL) {
        return true;
    }
    for (;;) {
        skip_blanks(c);
        if (*c->p == '\0') {
            return true;
        }
        if (*c->p == ';') {
            c->p++;
            continue;
        }
        umf_mock_fault_rule_t rule = {0};
        const char *ident;
        size_t len = read_ident(c, &ident);
        if (len == 0) {
            return fail(c, "expected an entry point name");
        }
        bool known = false, foreign = false;
        for (size_t i = 0; i < sizeof(known_prefixes) / sizeof(char *); i++) {
            if (starts_with(ident, len, known_prefixes[i])) {
                known = true;
                foreign = !starts_with(ident, len, names->prefix);
            }
        }
        if (!known || (foreign && !skip_foreign)) {
            c->p = ident;
            return fail(c, known ? "entry point of another driver"
                                 : "not an entry point name (ze... or cu...)");
        }
        if (!foreign) {
            size_t i = 0;
            while (i < names->entry_count &&
                   !name_is(ident, len, names->entries[i])) {
                i++;
            }
            if (i == names->entry_count) {
                c->p = ident;
                return fail(c, "unknown entry point");
            }
            rule.entry = (uint32_t)i;
        }
        skip_blanks(c);
        if (*c->p != ':') {
            return fail(c, "expected ':' after the entry point");
        }
        c->p++;
        skip_blanks(c);
        if (!parse_when(c, &rule)) {
            return false;
        }
        skip_blanks(c);
        if (*c->p != '=') {
            return fail(c, "expected '=' before the result");
        }
        c->p++;
        skip_blanks(c);
        if (!parse_result(c, names, foreign, &rule.result)) {
            return false;
        }
        skip_blanks(c);
        if (*c->p != ';' && *c->p != '\0') {
            return fail(c, "expected ';' or the end after a rule");
        }
        if (!foreign) {
            if (*count == max_rules) {
                return fail(c, "too many rules");
            }
            rules[(*count)++] = rule;
        }
    }
}

// ---- The engine ----------------------------------------------------------

typedef struct active_rule_t {
    umf_mock_fault_rule_t rule;
    uint64_t calls; // calls of rule.entry since the rule was added
    uint64_t rng;   // generator state of a percentage rule
} active_rule_t;

_Atomic unsigned umf_mock_fault_rule_count;

static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static const umf_mock_fault_names_t *engine_names;
static uint64_t engine_seed;
static uint64_t rules_added; // rules ever added: each gets its own stream
static active_rule_t active[UMF_MOCK_MAX_FAULT_RULES];
static size_t active_count;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void umf_mock_faults_setup(const umf_mock_fault_names_t *names, uint64_t seed) {
    pthread_mutex_lock(&engine_lock);
    engine_names = names;
    engine_seed = seed;
    pthread_mutex_unlock(&engine_lock);
}

bool umf_mock_faults_add(const char *spec, bool skip_foreign, char *err,
                         size_t err_len) {
    umf_mock_fault_rule_t parsed[UMF_MOCK_MAX_FAULT_RULES];
    size_t count = 0;
    pthread_mutex_lock(&engine_lock);
    bool ok = engine_names != NULL &&
              umf_mock_fault_parse(spec, engine_names, skip_foreign, parsed,
                                   UMF_MOCK_MAX_FAULT_RULES - active_count,
                                   &count, err, err_len);
    if (ok) {
        for (size_t i = 0; i < count; i++) {
            active_rule_t *a = &active[active_count++];
            a->rule = parsed[i];
            a->calls = 0;
            a->rng = engine_seed ^ (0x5851f42d4c957f2dull * ++rules_added);
            UMF_MOCK_LOG_INFO(
                "fault rule added: %s call %s%llu -> %lld",
                engine_names->entries[a->rule.entry],
                a->rule.when == UMF_MOCK_FAULT_PERCENT ? "p" : "#",
                (unsigned long long)a->rule.n, (long long)a->rule.result);
        }
        atomic_store_explicit(&umf_mock_fault_rule_count,
                              (unsigned)active_count, memory_order_relaxed);
    } else if (engine_names == NULL && err != NULL && err_len > 0) {
        snprintf(err, err_len, "fault rules: driver not initialised");
    }
    pthread_mutex_unlock(&engine_lock);
    return ok;
}

void umf_mock_faults_clear(void) {
    pthread_mutex_lock(&engine_lock);
    active_count = 0;
    atomic_store_explicit(&umf_mock_fault_rule_count, 0u, memory_order_relaxed);
    pthread_mutex_unlock(&engine_lock);
}

bool umf_mock_faults_eval(unsigned entry, int64_t *result) {
    bool hit = false;
    pthread_mutex_lock(&engine_lock);
    for (size_t i = 0; i < active_count; i++) {
        active_rule_t *a = &active[i];
        if (a->rule.entry != entry) {
            continue;
        }
        a->calls++;
        bool match;
        switch (a->rule.when) {
        case UMF_MOCK_FAULT_NTH:
            match = a->calls == a->rule.n;
            break;
        case UMF_MOCK_FAULT_FROM:
            match = a->calls >= a->rule.n;
            break;
        default:
            match = splitmix64(&a->rng) % 100000 < a->rule.n;
            break;
        }
        if (match && !hit) {
            hit = true;
            *result = a->rule.result;
        }
    }
    const char *name = hit ? engine_names->entries[entry] : NULL;
    pthread_mutex_unlock(&engine_lock);
    if (hit) {
        UMF_MOCK_LOG_INFO("injected fault: %s returns %lld", name,
                          (long long)*result);
    }
    return hit;
}

const char *umf_mock_fault_entry_name(unsigned entry) {
    const umf_mock_fault_names_t *names = engine_names;
    return names != NULL && entry < names->entry_count ? names->entries[entry]
                                                       : NULL;
}

int umf_mock_fault_entry_index(const char *name) {
    const umf_mock_fault_names_t *names = engine_names;
    if (names == NULL || name == NULL) {
        return -1;
    }
    for (size_t i = 0; i < names->entry_count; i++) {
        if (strcmp(names->entries[i], name) == 0) {
            return (int)i;
        }
    }
    return -1;
}
