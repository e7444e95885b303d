// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every table getter of the emulated driver fills every slot, at API 1.4
// (what the Debian loader asks) and at the newest version it declares
// (ze/mock/ze_mock_ddi.h, what a current loader asks), and writes nothing
// past the end of the table the version has room for. The getters and
// their tables come from the headers themselves, read at run time: the
// installed ze_ddi.h and zes_ddi.h (every zeGet*ProcAddrTable and
// zesGet*ProcAddrTable they declare, with their 1.4 tables) and
// ze_mock_ddi.h (the newer layouts and the tables new since 1.4), so a
// table or a slot that a header adds is walked without a change here.
// Only the emulated driver is asked (a real one is not the subject).

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

#ifndef UMF_GPU_ZE_DDI_H_PATH
#error "the build names the ze_ddi.h, zes_ddi.h and ze_mock_ddi.h to read"
#endif

// ---- The headers
// -------------------------------------------------------------

#define MAX_STRUCTS 128
#define MAX_SLOTS 96
#define MAX_GETTERS 96

typedef struct table_t {
    char name[80]; // the typedef name
    unsigned count;
    char slots[MAX_SLOTS][64];
} table_t;

typedef struct getter_t {
    char name[80];
    char type[80]; // the table type it takes
} getter_t;

typedef struct headers_t {
    table_t tables[MAX_STRUCTS];
    unsigned table_count;
    getter_t getters[MAX_GETTERS];
    unsigned getter_count;
    getter_t newer[MAX_GETTERS]; // ZE_MOCK_DECLARE_GETTER
    unsigned newer_count;
} headers_t;

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        text = n > 0 ? malloc((size_t)n + 1) : NULL;
        if (text != NULL && (fseek(f, 0, SEEK_SET) != 0 ||
                             fread(text, 1, (size_t)n, f) != (size_t)n)) {
            free(text);
            text = NULL;
        } else if (text != NULL) {
            text[n] = '\0';
        }
    }
    fclose(f);
    return text;
}

static const table_t *find_table(const headers_t *h, const char *name) {
    for (unsigned i = 0; i < h->table_count; i++) {
        if (strcmp(h->tables[i].name, name) == 0) {
            return &h->tables[i];
        }
    }
    return NULL;
}

// The identifier that ends just before `end` (skipping spaces, `*`).
static void word_before(const char *start, const char *end, char *out,
                        size_t len) {
    const char *e = end;
    while (e > start && (e[-1] == ' ' || e[-1] == '*' || e[-1] == '\n')) {
        e--;
    }
    const char *b = e;
    while (b > start &&
           (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
            (b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= '0' && b[-1] <= '9'))) {
        b--;
    }
    snprintf(out, len, "%.*s", (int)(e - b), b);
}

// Every "typedef struct ... { <slots> } <name>_dditable_t;" whose members
// are all entries (pfn...) or the 1.4 table a newer layout starts with
// (v1_4, whose slots it takes).
static void parse_tables(headers_t *h, const char *text) {
    for (const char *p = strstr(text, "typedef struct "); p != NULL;
         p = strstr(p + 1, "typedef struct ")) {
        const char *open = strchr(p, '{'),
                   *close = open ? strchr(open, '}') : NULL;
        const char *semi = close ? strchr(close, ';') : NULL;
        if (semi == NULL || h->table_count == MAX_STRUCTS) {
            return;
        }
        table_t t = {{0}, 0, {{0}}};
        word_before(close, semi, t.name, sizeof(t.name));
        size_t n = strlen(t.name);
        if (n < 11 || strcmp(t.name + n - 11, "_dditable_t") != 0) {
            continue;
        }
        bool entries_only = true;
        for (const char *m = strchr(open, ';'); m != NULL && m < close;
             m = strchr(m + 1, ';')) {
            char member[64], type[80];
            word_before(open, m, member, sizeof(member));
            const char *line = m;
            while (line > open && line[-1] != '\n' && line[-1] != '{') {
                line--;
            }
            word_before(line, m - strlen(member), type, sizeof(type));
            if (strcmp(member, "v1_4") == 0) {
                const table_t *base = find_table(h, type);
                for (unsigned i = 0; base != NULL && i < base->count; i++) {
                    snprintf(t.slots[t.count++], sizeof(t.slots[0]), "%s",
                             base->slots[i]);
                }
                entries_only = entries_only && base != NULL;
            } else if (strncmp(member, "pfn", 3) == 0 && t.count < MAX_SLOTS) {
                snprintf(t.slots[t.count++], sizeof(t.slots[0]), "%s", member);
            } else {
                entries_only = false;
            }
        }
        if (entries_only && t.count > 0) {
            h->tables[h->table_count++] = t;
        }
    }
}

// The getters the installed headers declare: "\nzeGetXProcAddrTable(" and
// the table type of its second argument.
static void parse_getters(headers_t *h, const char *text, const char *prefix) {
    size_t plen = strlen(prefix);
    for (const char *p = strstr(text, prefix); p != NULL;
         p = strstr(p + plen, prefix)) {
        const char *paren = strchr(p, '(');
        const char *tbl = paren ? strstr(paren, "_dditable_t*") : NULL;
        if (tbl == NULL || h->getter_count == MAX_GETTERS) {
            return;
        }
        getter_t g;
        snprintf(g.name, sizeof(g.name), "%.*s", (int)(paren - p - 1), p + 1);
        if (strstr(g.name, "ProcAddrTable") == NULL ||
            strchr(g.name, ' ') != NULL || paren[1] != '\n') {
            continue; // a mention, not the declaration
        }
        word_before(paren, tbl + strlen("_dditable_t"), g.type, sizeof(g.type));
        h->getters[h->getter_count++] = g;
    }
}

// ZE_MOCK_DECLARE_GETTER(getter, type) of ze_mock_ddi.h.
static void parse_newer_getters(headers_t *h, const char *text) {
    const char *key = "ZE_MOCK_DECLARE_GETTER(";
    for (const char *p = strstr(text, key); p != NULL; p = strstr(p + 1, key)) {
        const char *a = p + strlen(key), *comma = strchr(a, ','),
                   *end = comma ? strchr(comma, ')') : NULL;
        if (end == NULL || h->newer_count == MAX_GETTERS) {
            return;
        }
        if (strncmp(a, "getter", 6) == 0) {
            continue; // the macro's own definition
        }
        getter_t g;
        snprintf(g.name, sizeof(g.name), "%.*s", (int)(comma - a), a);
        word_before(comma, end, g.type, sizeof(g.type));
        h->newer[h->newer_count++] = g;
    }
}

static bool read_headers(headers_t *h) {
    memset(h, 0, sizeof(*h));
    char *ze = read_text(UMF_GPU_ZE_DDI_H_PATH);
    char *zes = read_text(UMF_GPU_ZES_DDI_H_PATH);
    char *mock = read_text(UMF_GPU_ZE_MOCK_DDI_H_PATH);
    bool ok = ze != NULL && zes != NULL && mock != NULL;
    if (ok) {
        parse_tables(h, ze);
        parse_tables(h, zes);
        parse_tables(h, mock); // after: its newer layouts take the 1.4 ones
        parse_getters(h, ze, "\nzeGet");
        parse_getters(h, zes, "\nzesGet");
        parse_newer_getters(h, mock);
    }
    free(ze);
    free(zes);
    free(mock);
    return ok;
}

// The headers, read; NULL when they cannot be.
static headers_t *headers_new(void) {
    headers_t *h = malloc(sizeof(*h));
    if (h != NULL && !read_headers(h)) {
        free(h);
        h = NULL;
    }
    return h;
}

// The newest layout of a 1.4 table: ze_mock_X for ze_X, zes_mock_X for
// zes_X, or the 1.4 one when no version extends it.
static const table_t *newest_of(const headers_t *h, const char *type) {
    char name[96];
    if (strncmp(type, "zes_", 4) == 0) {
        snprintf(name, sizeof(name), "zes_mock_%s", type + 4);
    } else {
        snprintf(name, sizeof(name), "ze_mock_%s", type + 3);
    }
    const table_t *t = find_table(h, name);
    return t != NULL ? t : find_table(h, type);
}

// ---- The walk
// ------------------------------------------------------------------

typedef void (*slot_t)(void);

// Asks `getter` for `version` with a table of `room` slots and a canary
// after them; checks that the `filled` first slots are set
// and that nothing after them was written.
static void walk(const char *getter, ze_api_version_t version, const table_t *t,
                 unsigned filled) {
    enum { CANARY = 8 };
    slot_t slots[MAX_SLOTS + CANARY];
    const slot_t canary = (slot_t)(uintptr_t)0x5ca1ab1e;
    for (unsigned i = 0; i < MAX_SLOTS + CANARY; i++) {
        slots[i] = canary;
    }
    for (unsigned i = 0; i < filled; i++) {
        slots[i] = NULL; // as a loader passes its table: zeroed
    }
    UMF_C_CHECK_(ze_test_driver_table(getter, version, slots), return,
                 "%s(1.%u): no such getter, or it failed", getter,
                 ZE_MINOR_VERSION(version));
    for (unsigned i = 0; i < filled; i++) {
        UMF_C_CHECK_(slots[i] != NULL, (void)0, "%s(1.%u): %s is empty", getter,
                     ZE_MINOR_VERSION(version), t->slots[i]);
    }
    for (unsigned i = filled; i < MAX_SLOTS + CANARY; i++) {
        UMF_C_CHECK_(slots[i] == canary, break,
                     "%s(1.%u): wrote slot %u, past the %u its table has",
                     getter, ZE_MINOR_VERSION(version), i, filled);
    }
}

#define NEWEST ZE_MOCK_API_VERSION_NEWEST

UMF_C_TEST(ZeTables, EveryGetterFillsEverySlotAt14AndAtTheNewest) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    ZE_TEST_SETUP(t);
    headers_t *h = headers_new();
    UMF_ASSERT(h != NULL);
    // The headers say what there is: Debian's declare 23 core and 17
    // sysman getters, ze_mock_ddi.h 8 more.
    UMF_EXPECT(h->getter_count >= 23 + 17);
    UMF_EXPECT(h->newer_count >= 8);
    unsigned slots14 = 0, slots_newest = 0;
    for (unsigned i = 0; i < h->getter_count; i++) {
        const getter_t *g = &h->getters[i];
        const table_t *t14 = find_table(h, g->type);
        UMF_C_CHECK_(t14 != NULL, continue, "%s: no table %s in the header",
                     g->name, g->type);
        const table_t *tn = newest_of(h, g->type);
        walk(g->name, ZE_API_VERSION_1_4, tn, t14->count);
        walk(g->name, ZE_MOCK_API_VERSION_TABLES, tn, tn->count);
        slots14 += t14->count;
        slots_newest += tn->count;
    }
    // Tables new since 1.4: nothing for a 1.4 loader, everything for the
    // newest.
    for (unsigned i = 0; i < h->newer_count; i++) {
        const getter_t *g = &h->newer[i];
        const table_t *tn = find_table(h, g->type);
        UMF_C_CHECK_(tn != NULL, continue, "%s: no table %s in ze_mock_ddi.h",
                     g->name, g->type);
        walk(g->name, ZE_API_VERSION_1_4, tn, 0);
        walk(g->name, ZE_MOCK_API_VERSION_TABLES, tn, tn->count);
        slots_newest += tn->count;
    }
    // Debian's ze_ddi.h has 144 core slots, its zes_ddi.h 106.
    UMF_EXPECT(slots14 >= 144 + 106);
    UMF_EXPECT(slots_newest > slots14);
    free(h);
    ze_test_teardown(&t);
}

// A loader of a version between gets the slots of that version: 1.6 has
// zeDriverGetLastErrorDescription (the 7th driver slot) but not the 1.13
// one after it; 1.9 has the command queue's two queries, 1.4 not.
UMF_C_TEST(ZeTables, AVersionBetweenGetsItsOwnSlots) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    ZE_TEST_SETUP(t);
    headers_t *h = headers_new();
    UMF_ASSERT(h != NULL);
    const table_t *driver = newest_of(h, "ze_driver_dditable_t");
    const table_t *queue = newest_of(h, "ze_command_queue_dditable_t");
    UMF_ASSERT(driver != NULL && queue != NULL);
    walk("zeGetDriverProcAddrTable", ZE_MAKE_VERSION(1, 6), driver, 7);
    walk("zeGetDriverProcAddrTable", ZE_MAKE_VERSION(1, 13), driver, 8);
    walk("zeGetCommandQueueProcAddrTable", ZE_MAKE_VERSION(1, 8), queue, 4);
    walk("zeGetCommandQueueProcAddrTable", ZE_MAKE_VERSION(1, 9), queue, 6);
    // A later version than the driver knows gets what it knows.
    walk("zeGetDriverProcAddrTable", ZE_MAKE_VERSION(1, 40), driver,
         driver->count);
    free(h);
    ze_test_teardown(&t);
}
