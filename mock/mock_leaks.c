// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "mock_leaks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mock_core.h"
#include "mock_log.h"

// Lines listed per kind; the rest is counted.
#define LIST_MAX 32

// What is listed up to LIST_MAX times: allocations, IPC handles, imports,
// VMM mappings, physical memory, reservations, then each object kind.
enum {
    LIST_ALLOCATIONS,
    LIST_HANDLES,
    LIST_IMPORTS,
    LIST_MAPPINGS,
    LIST_PHYS,
    LIST_RESERVATIONS,
    LIST_OBJECTS,
    LISTS = LIST_OBJECTS + UMF_MOCK_MAX_OBJECT_KINDS
};

typedef struct report_t {
    int fd;
    bool write; // false: only count
    bool failed;
    int64_t allocations, handles, imports, objects;
    int64_t phys, reservations, mappings; // VMM (mock_vmm.h)
    int64_t listed[LISTS];
} report_t;

static void line(report_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// One line of the report, in the drivers' log format (util_log.h), whatever
// the log level: the user asked for the report.
static void line(report_t *r, const char *fmt, ...) {
    if (!r->write || r->failed) {
        return;
    }
    char message[448];
    va_list args;
    va_start(args, fmt);
    if (vsnprintf(message, sizeof(message), fmt, args) < 0) {
        message[0] = '\0';
    }
    va_end(args);
    if (umf_logger_emit(&umf_mock_logger, r->fd, UMF_LOG_LEVEL_WARN,
                        __FILE_NAME__, __LINE__, "leak: %s", message) != 0) {
        r->failed = true;
    }
}

static bool take(report_t *r, unsigned slot) {
    return r->listed[slot]++ < LIST_MAX;
}

static const char *kind_name(uint64_t kind) {
    switch (kind) {
    case UMF_MOCK_KIND_DEVICE:
        return "device memory";
    case UMF_MOCK_KIND_HOST:
        return "host memory";
    case UMF_MOCK_KIND_SHARED:
        return "shared memory";
    default:
        return "memory";
    }
}

static void on_record(const umf_mock_rec_data_t *d, void *ctx) {
    report_t *r = ctx;
    if (d->kind == UMF_MOCK_KIND_MAPPED) {
        r->mappings++;
        if (take(r, LIST_MAPPINGS)) {
            line(r,
                 "mapping of %" PRIu64 " bytes at 0x%" PRIx64
                 " of physical memory #%" PRIu64 " on device %" PRId64
                 ", never unmapped",
                 d->size, d->base, d->peer_id, d->device);
        }
        return;
    }
    if (d->kind == UMF_MOCK_KIND_IMPORTED) {
        r->imports++;
        if (take(r, LIST_IMPORTS)) {
            line(r,
                 "imported mapping #%" PRIu64 ": %" PRIu64
                 " bytes at 0x%" PRIx64 " of allocation #%" PRIu64
                 " of process %" PRId64 ", never closed",
                 d->id, d->size, d->base, d->peer_id, d->peer_pid);
        }
        return;
    }
    r->allocations++;
    if (take(r, LIST_ALLOCATIONS)) {
        if (d->device >= 0) {
            line(r,
                 "allocation #%" PRIu64 ": %" PRIu64
                 " bytes of %s at 0x%" PRIx64 " on device %" PRId64
                 ", never freed",
                 d->id, d->size, kind_name(d->kind), d->base, d->device);
        } else {
            line(r,
                 "allocation #%" PRIu64 ": %" PRIu64
                 " bytes of %s at 0x%" PRIx64 ", never freed",
                 d->id, d->size, kind_name(d->kind), d->base);
        }
    }
    if (d->export_fd >= 0) {
        r->handles++;
        if (take(r, LIST_HANDLES)) {
            line(r, "IPC handle (fd %" PRId64 ") of allocation #%" PRIu64,
                 d->export_fd, d->id);
        }
    }
}

static void on_object(unsigned kind, const void *handle, void *ctx) {
    report_t *r = ctx;
    const umf_mock_driver_desc_t *desc = umf_mock_driver();
    if (kind >= UMF_MOCK_OBJECT_CORE_FIRST) {
        return; // reported by their module
    }
    r->objects++;
    if (take(r, LIST_OBJECTS + kind)) {
        line(r, "%s %p, never destroyed",
             desc != NULL && kind < desc->object_kind_count
                 ? desc->object_kinds[kind]
                 : "object",
             handle);
    }
}

static void on_vmm(const umf_mock_vmm_leak_t *leak, void *ctx) {
    report_t *r = ctx;
    if (leak->reservation) {
        r->reservations++;
        if (take(r, LIST_RESERVATIONS)) {
            line(r,
                 "address reservation of %" PRIu64 " bytes at 0x%" PRIxPTR
                 ", never freed",
                 leak->size, leak->base);
        }
        return;
    }
    r->phys++;
    if (take(r, LIST_PHYS)) {
        line(r,
             "physical memory #%" PRIu64 ": %" PRIu64
             " bytes on device %d%s, never released",
             leak->id, leak->size, leak->device,
             leak->imported ? " (imported)" : "");
    }
}

static int64_t total_of(const report_t *r) {
    return r->allocations + r->imports + r->objects + r->phys +
           r->reservations + r->mappings;
}

static void walk(report_t *r) {
    umf_mock_registry_foreach(on_record, r);
    umf_mock_object_foreach(on_object, r);
    umf_mock_vmm_foreach_leak(on_vmm, r);
}

static void summary(report_t *r) {
    int64_t total = total_of(r);
    for (unsigned i = 0; i < LISTS; i++) {
        if (r->listed[i] > LIST_MAX) {
            line(r, "... and %" PRId64 " more like the above",
                 r->listed[i] - LIST_MAX);
        }
    }
    line(r,
         "%" PRId64 " leaked: %" PRId64 " allocations (%" PRId64
         " with an open IPC handle), %" PRId64 " imported mappings, %" PRId64
         " driver objects, %" PRId64 " physical memory handles, %" PRId64
         " address reservations, %" PRId64 " mappings",
         total, r->allocations, r->handles, r->imports, r->objects, r->phys,
         r->reservations, r->mappings);
}

static int64_t run(int fd, bool write) {
    report_t counting = {.fd = fd, .write = false};
    walk(&counting);
    int64_t total = total_of(&counting);
    if (total == 0 || !write) {
        return total;
    }
    report_t r = {.fd = fd, .write = true};
    walk(&r);
    summary(&r);
    return r.failed ? -1 : total;
}

int64_t umf_mock_leak_report(int fd) {
    if (!umf_mock_ready()) {
        return 0;
    }
    return run(fd, true);
}

static _Atomic bool disowned;

void umf_mock_leaks_disown(void) {
    atomic_store_explicit(&disowned, true, memory_order_relaxed);
}

void umf_mock_leaks_at_exit(void) {
    if (!umf_mock_ready() ||
        atomic_load_explicit(&disowned, memory_order_relaxed)) {
        return;
    }
    const umf_mock_config_t *cfg = umf_mock_config();
    if (cfg->leaks == UMF_MOCK_LEAKS_OFF) {
        return;
    }
    int64_t leaked = run(STDERR_FILENO, true);
    if (leaked != 0 && cfg->leaks == UMF_MOCK_LEAKS_STRICT) {
        (void)umf_logger_emit(&umf_mock_logger, STDERR_FILENO,
                              UMF_LOG_LEVEL_ERROR, __FILE_NAME__, __LINE__,
                              "UMF_GPU_MOCK_LEAKS=strict: exiting with status "
                              "%d",
                              UMF_MOCK_LEAK_EXIT_STATUS);
        fflush(NULL);
        _exit(UMF_MOCK_LEAK_EXIT_STATUS);
    }
}
