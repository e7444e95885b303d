// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For the API of a provider left out of the build: one log line naming the
// missing headers, and UMF_RESULT_ERROR_NOT_SUPPORTED.

#ifndef UMF_GPU_PROVIDER_UNAVAILABLE_H
#define UMF_GPU_PROVIDER_UNAVAILABLE_H 1

#include <umf/base.h>

#include "util_umf_log.h"

static inline umf_result_t umf_provider_unavailable(const char *function,
                                                    const char *provider,
                                                    const char *headers) {
    UMF_LOG_ERROR("%s: umf-gpu was built without the %s provider, because "
                  "its headers were missing; install %s and rebuild",
                  function, provider, headers);
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

#endif // UMF_GPU_PROVIDER_UNAVAILABLE_H
