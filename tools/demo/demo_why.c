// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Failure texts of the demo: what failed and why, with the provider's own
// words where it has some.

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include <umf/memory_provider_gpu.h>

#include "demo.h"

int demo_why(demo_why_t *why, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    if (vsnprintf(why->text, sizeof(why->text), fmt, args) < 0) {
        snprintf(why->text, sizeof(why->text), "(no description)");
    }
    va_end(args);
    return -1;
}

const char *demo_result_name(umf_result_t res) {
    switch (res) {
    case UMF_RESULT_SUCCESS:
        return "UMF_RESULT_SUCCESS";
    case UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY:
        return "UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY";
    case UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC:
        return "UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC";
    case UMF_RESULT_ERROR_INVALID_ARGUMENT:
        return "UMF_RESULT_ERROR_INVALID_ARGUMENT";
    case UMF_RESULT_ERROR_INVALID_ALIGNMENT:
        return "UMF_RESULT_ERROR_INVALID_ALIGNMENT";
    case UMF_RESULT_ERROR_NOT_SUPPORTED:
        return "UMF_RESULT_ERROR_NOT_SUPPORTED";
    case UMF_RESULT_ERROR_USER_SPECIFIC:
        return "UMF_RESULT_ERROR_USER_SPECIFIC";
    case UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE:
        return "UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE";
    case UMF_RESULT_ERROR_OUT_OF_RESOURCES:
        return "UMF_RESULT_ERROR_OUT_OF_RESOURCES";
    case UMF_RESULT_ERROR_UNKNOWN:
        return "UMF_RESULT_ERROR_UNKNOWN";
    }
    return "an unknown umf_result_t";
}

// CUDA's results read best in decimal (CUDA_ERROR_OUT_OF_MEMORY is 2),
// Level Zero's in hex (0x70000002).
static const char *code_text(int32_t code, char number[32]) {
    if (code >= 0 && code < 0x10000) {
        snprintf(number, 32, "%d", (int)code);
    } else {
        snprintf(number, 32, "0x%x", (unsigned)code);
    }
    return number;
}

int demo_why_umf(demo_why_t *why, const char *call, umf_result_t res,
                 umf_memory_provider_handle_t provider,
                 const umf_memory_provider_ops_t *ops) {
    // The native error is the calling thread's. The ops contract makes it
    // meaningful after UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC; our
    // providers also store it for the driver failures they map to other
    // results (say, a driver's invalid-argument result), so it is shown
    // whenever there is one.
    const char *message = NULL;
    int32_t code = 0;
    if (provider != NULL) {
        umfMemoryProviderGetLastNativeError(provider, &message, &code);
    } else if (ops != NULL) {
        // No handle after a failed create: the ops table names the kind.
        (void)umfGpuMemoryProviderOpsGetLastNativeError(ops, &message, &code);
    }
    bool native = message != NULL && message[0] != '\0';
    char number[32];
    if (res == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC) {
        return demo_why(why, "%s returned %s; native error %s: %s", call,
                        demo_result_name(res), code_text(code, number),
                        native ? message : "(the provider gave no message)");
    }
    if (native) {
        return demo_why(why,
                        "%s returned %s (%d); the provider's last native "
                        "error: %s: %s",
                        call, demo_result_name(res), (int)res,
                        code_text(code, number), message);
    }
    return demo_why(why, "%s returned %s (%d)%s", call, demo_result_name(res),
                    (int)res,
                    res == UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE
                        ? " (the library could not use the driver; its log "
                          "line above says what is missing)"
                        : "");
}
