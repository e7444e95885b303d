// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "native_error.h"

#include <stdio.h>

#include "gpu_log.h"
#include "util_thread.h"
#include "util_umf_log.h"

typedef struct native_error_t {
    int32_t code;
    char message[UMF_NATIVE_ERROR_MESSAGE_MAX];
} native_error_t;

// The only per-thread state of native errors: one slot per kind, made at
// the thread's first failure (about 1 KiB, so not in static TLS: see
// utils/util_thread.h). A read is one pthread_getspecific.
static umf_thread_state_t last_errors = UMF_THREAD_STATE_INIT(
    sizeof(native_error_t) * UMF_GPU_PROVIDER_KIND_COUNT, NULL);

// If the library is unloaded, exiting threads must not call back into it.
__attribute__((destructor)) static void native_error_unload(void) {
    umf_thread_state_fini(&last_errors);
}

// What a thread reads before its first failure, and for an invalid kind.
static const native_error_t no_error = {0, ""};

static native_error_t *slot_to_set(umf_gpu_provider_kind_t kind) {
    unsigned index = umf_gpu_provider_kind_index(kind);
    if (index >= UMF_GPU_PROVIDER_KIND_COUNT) {
        return NULL;
    }
    native_error_t *slots = umf_thread_state_get(&last_errors);
    if (UMF_UNLIKELY(slots == NULL)) {
        UMF_LOG_ERROR("out of host memory for this thread's native errors: "
                      "the native error is not kept");
        return NULL;
    }
    return &slots[index];
}

void umf_native_error_set_v(umf_gpu_provider_kind_t kind, int32_t code,
                            const char *fmt, va_list args) {
    native_error_t *slot = slot_to_set(kind);
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
                               const char *fmt, va_list args) {
    char call[256];
    if (fmt == NULL || vsnprintf(call, sizeof(call), fmt, args) < 0) {
        call[0] = '\0';
    }
    bool has_detail = detail != NULL && detail[0] != '\0';
    char message[UMF_NATIVE_ERROR_MESSAGE_MAX];
    snprintf(message, sizeof(message), "%s failed: %s%s%s", call,
             result != NULL ? result : "(no description)",
             has_detail ? ": " : "", has_detail ? detail : "");
    umf_native_error_set(kind, code, "%s", message);
    UMF_GPU_LOG_RETURNED("%s provider: %s", umf_gpu_provider_kind_name(kind),
                         message);
}

umf_result_t umf_native_error_set_load_failure(umf_gpu_provider_kind_t kind,
                                               umf_result_t result,
                                               const umf_dl_load_error_t *err) {
    if (err != NULL) {
        umf_native_error_set(kind, err->code, "%s", err->message);
    }
    return result;
}

void umf_native_error_get(umf_gpu_provider_kind_t kind, const char **message,
                          int32_t *code) {
    unsigned index = umf_gpu_provider_kind_index(kind);
    const native_error_t *slots = umf_thread_state_peek(&last_errors);
    const native_error_t *slot =
        UMF_LIKELY(slots != NULL && index < UMF_GPU_PROVIDER_KIND_COUNT)
            ? &slots[index]
            : &no_error;
    if (message != NULL) {
        *message = slot->message;
    }
    if (code != NULL) {
        *code = slot->code;
    }
}
