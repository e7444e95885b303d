// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "native_error.h"

#include <stdio.h>

#include "log.h"

typedef struct native_error_t {
    int32_t code;
    char message[UMF_NATIVE_ERROR_MESSAGE_MAX];
} native_error_t;

// The only thread-local state of native errors: one slot per kind.
static _Thread_local native_error_t last_error[UMF_GPU_PROVIDER_KIND_COUNT];

// What an out-of-range kind reads: nothing ever failed.
static const native_error_t no_error = {0, ""};

static native_error_t *slot_of(umf_gpu_provider_kind_t kind) {
    unsigned index = umf_gpu_provider_kind_index(kind);
    return index < UMF_GPU_PROVIDER_KIND_COUNT ? &last_error[index] : NULL;
}

void umf_native_error_set_v(umf_gpu_provider_kind_t kind, int32_t code,
                            const char *fmt, va_list args) {
    native_error_t *slot = slot_of(kind);
    if (slot == NULL) {
        return;
    }
    slot->code = code;
    if (fmt == NULL ||
        vsnprintf(slot->message, sizeof(slot->message), fmt, args) < 0) {
        slot->message[0] = '\0';
    }
}

void umf_native_error_set(umf_gpu_provider_kind_t kind, int32_t code,
                          const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    umf_native_error_set_v(kind, code, fmt, args);
    va_end(args);
}

void umf_native_error_report_v(umf_gpu_provider_kind_t kind, int32_t code,
                               const char *result, const char *detail,
                               bool warn, const char *fmt, va_list args) {
    char call[256];
    if (fmt == NULL || vsnprintf(call, sizeof(call), fmt, args) < 0) {
        call[0] = '\0';
    }
    bool has_detail = detail != NULL && detail[0] != '\0';
    umf_native_error_set(kind, code, "%s failed: %s%s%s", call,
                         result != NULL ? result : "(no description)",
                         has_detail ? ": " : "", has_detail ? detail : "");
    const char *message = NULL;
    umf_native_error_get(kind, &message, NULL);
    if (warn) {
        UMF_LOG_WARN("%s provider: %s", umf_gpu_provider_kind_name(kind),
                     message);
    } else {
        UMF_LOG_ERROR("%s provider: %s", umf_gpu_provider_kind_name(kind),
                      message);
    }
}

void umf_native_error_get(umf_gpu_provider_kind_t kind, const char **message,
                          int32_t *code) {
    const native_error_t *slot = slot_of(kind);
    if (slot == NULL) {
        slot = &no_error;
    }
    if (message != NULL) {
        *message = slot->message;
    }
    if (code != NULL) {
        *code = slot->code;
    }
}
