// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_failure.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mock_core.h"

struct umf_mock_failure_t {
    uint64_t reason_call; // the call `reason` belongs to
    char reason[256];
    char text[512];
};

static struct umf_mock_failure_t *failure_of(umf_mock_thread_t *t) {
    if (t != NULL && t->failure == NULL) {
        t->failure = calloc(1, sizeof(*t->failure));
    }
    return t != NULL ? t->failure : NULL;
}

void umf_mock_failure_explain(const char *fmt, ...) {
    umf_mock_thread_t *t = umf_mock_thread();
    struct umf_mock_failure_t *f = failure_of(t);
    if (f == NULL) {
        return;
    }
    va_list args;
    va_start(args, fmt);
    vsnprintf(f->reason, sizeof(f->reason), fmt, args);
    va_end(args);
    f->reason_call = t->call_seq;
}

static const char *result_name(int64_t result) {
    const umf_mock_driver_desc_t *d = umf_mock_driver();
    for (size_t i = 0; d != NULL && i < d->faults.result_count; i++) {
        if (d->faults.results[i].value == result) {
            return d->faults.results[i].name;
        }
    }
    return NULL;
}

int64_t umf_mock_failure_record(int64_t result) {
    umf_mock_thread_t *t = umf_mock_thread();
    struct umf_mock_failure_t *f = failure_of(t);
    if (f == NULL) {
        return result;
    }
    const umf_mock_driver_desc_t *d = umf_mock_driver();
    const char *entry = d != NULL && t->call_entry < d->faults.entry_count
                            ? d->faults.entries[t->call_entry]
                            : "call";
    const char *name = result_name(result);
    char code[32];
    if (name == NULL) {
        snprintf(code, sizeof(code), "0x%" PRIx64, (uint64_t)result);
        name = code;
    }
    if (f->reason_call == t->call_seq && f->reason[0] != '\0') {
        snprintf(f->text, sizeof(f->text), "%s: %s: %s", entry, name,
                 f->reason);
    } else {
        snprintf(f->text, sizeof(f->text), "%s: %s", entry, name);
    }
    return result;
}

const char *umf_mock_failure_text(void) {
    umf_mock_thread_t *t = umf_mock_thread();
    return t != NULL && t->failure != NULL ? t->failure->text : "";
}
