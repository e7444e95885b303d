// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A stand-in for a second UMF core in the process (UMF's own libumf): the
// core API under the same names, with a handle layout of its own, and a
// version node of its own (other_core.map, "UMF_1.0", as UMF versions its
// exports). Minimal, but a real core: it checks the table's version and
// mandatory ops, and its wrappers dispatch to the provider.
//
// Its handle starts with a copy of the ops table, as umf-gpu's does, but
// keeps a tag where umf-gpu's keeps the provider's private pointer: code
// that read such a handle as umf-gpu's would take the tag, a non-canonical
// address, for the provider's state, and crash.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <umf/memory_provider.h>

#define API __attribute__((visibility("default")))

// Not a valid user-space address on x86-64.
#define TAG 0x0badc0de0badc0deull

struct umf_memory_provider_t {
    umf_memory_provider_ops_t ops;
    uint64_t tag;
    void *priv;
    char name[64];
};

static _Thread_local umf_memory_provider_handle_t last_failed;

static umf_result_t checked(umf_memory_provider_handle_t h, umf_result_t r) {
    if (r != UMF_RESULT_SUCCESS) {
        last_failed = h;
    }
    return r;
}

API umf_result_t umfMemoryProviderCreate(const umf_memory_provider_ops_t *ops,
                                         void *params,
                                         umf_memory_provider_handle_t *out) {
    if (ops == NULL || out == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (ops->version != UMF_VERSION_CURRENT) {
        return UMF_RESULT_ERROR_NOT_SUPPORTED; // what UMF answers
    }
    if (ops->initialize == NULL || ops->finalize == NULL ||
        ops->alloc == NULL || ops->free == NULL || ops->get_name == NULL ||
        ops->get_last_native_error == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_memory_provider_handle_t h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    h->ops = *ops;
    h->tag = TAG;
    umf_result_t r = ops->initialize(params, &h->priv);
    if (r != UMF_RESULT_SUCCESS) {
        free(h);
        return r;
    }
    *out = h;
    return UMF_RESULT_SUCCESS;
}

API void umfMemoryProviderDestroy(umf_memory_provider_handle_t h) {
    if (h != NULL) {
        h->ops.finalize(h->priv);
        if (last_failed == h) {
            last_failed = NULL;
        }
        free(h);
    }
}

API umf_result_t umfMemoryProviderAlloc(umf_memory_provider_handle_t h,
                                        size_t size, size_t alignment,
                                        void **ptr) {
    if (h == NULL || ptr == NULL) {
        return checked(h, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(h, h->ops.alloc(h->priv, size, alignment, ptr));
}

API umf_result_t umfMemoryProviderFree(umf_memory_provider_handle_t h,
                                       void *ptr, size_t size) {
    if (h == NULL || ptr == NULL) {
        return checked(h, UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return checked(h, h->ops.free(h->priv, ptr, size));
}

API void umfMemoryProviderGetLastNativeError(umf_memory_provider_handle_t h,
                                             const char **message,
                                             int32_t *error) {
    if (h != NULL && message != NULL && error != NULL) {
        h->ops.get_last_native_error(h->priv, message, error);
    }
}

// Tells its handles apart from umf-gpu's: "other-core:" + the provider's.
API const char *umfMemoryProviderGetName(umf_memory_provider_handle_t h) {
    if (h == NULL) {
        return NULL;
    }
    const char *name = h->ops.get_name(h->priv);
    strcpy(h->name, "other-core:");
    strncat(h->name, name != NULL ? name : "", sizeof(h->name) - 12);
    return h->name;
}

API umf_memory_provider_handle_t umfGetLastFailedMemoryProvider(void) {
    return last_failed;
}
