// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// GPU coredump settings, kept and read back as cuda.h documents them. A GPU
// coredump is written when a kernel raises an exception; the emulated
// devices run no kernels, so no dump is ever written, but programs and
// debuggers set and read these settings at start-up and expect them back.
//
// The process-wide settings start at the header's defaults; a context reads
// them until it sets one of its own (cuCoredumpSetAttribute), which it keeps
// until it is destroyed. ENABLE_USER_TRIGGER and PIPE are process-wide only
// ("cannot be set on a per-context basis"): CUDA_ERROR_NOT_PERMITTED. A NULL
// value asks for the size the attribute takes. Not emulated: the CUDA-GDB
// environment variables that would take precedence, and the context flags
// CU_CTX_COREDUMP_ENABLE / CU_CTX_USER_COREDUMP_ENABLE as defaults.

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_mock_core.h"

#define PATH_CHARS 1024 // "up to 1023 characters" and the NUL

typedef struct settings_t {
    bool flag[CU_COREDUMP_FILE]; // the four bool attributes, by value
    int generation_flags;
    char file[PATH_CHARS], pipe[PATH_CHARS];
    unsigned set; // the attributes this context set (bit per attribute)
} settings_t;

typedef struct local_t {
    struct local_t *next;
    const cuda_mock_ctx_t *ctx; // removed by the teardown hook before reuse
    settings_t s;
} local_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static settings_t global; // under `lock`, once `global_ready`
static bool global_ready;
static local_t *locals; // under `lock`

static const int all_generation_flags =
    CU_COREDUMP_SKIP_NONRELOCATED_ELF_IMAGES | CU_COREDUMP_SKIP_GLOBAL_MEMORY |
    CU_COREDUMP_SKIP_SHARED_MEMORY | CU_COREDUMP_SKIP_LOCAL_MEMORY |
    CU_COREDUMP_SKIP_ABORT | CU_COREDUMP_SKIP_CONSTBANK_MEMORY;

// The header's defaults: all false but TRIGGER_HOST, core.cuda.HOSTNAME.PID
// and corepipe.cuda.HOSTNAME.PID.
static void global_defaults(void) {
    if (global_ready) {
        return;
    }
    char host[HOST_NAME_MAX + 1] = "localhost";
    if (gethostname(host, sizeof(host)) != 0) {
        strcpy(host, "localhost");
    }
    host[HOST_NAME_MAX] = '\0';
    memset(&global, 0, sizeof(global));
    global.flag[CU_COREDUMP_TRIGGER_HOST] = true;
    snprintf(global.file, sizeof(global.file), "core.cuda.%s.%d", host,
             (int)getpid());
    snprintf(global.pipe, sizeof(global.pipe), "corepipe.cuda.%s.%d", host,
             (int)getpid());
    global_ready = true;
}

// The size `attrib` takes.
static size_t attrib_size(CUcoredumpSettings attrib) {
    switch (attrib) {
    case CU_COREDUMP_FILE:
    case CU_COREDUMP_PIPE:
        return PATH_CHARS;
    case CU_COREDUMP_GENERATION_FLAGS:
        return sizeof(int);
    default:
        return sizeof(bool);
    }
}

// What a read of `attrib` in `ctx` (NULL: process-wide) finds, under `lock`.
static const settings_t *view(const cuda_mock_ctx_t *ctx,
                              CUcoredumpSettings attrib) {
    for (local_t *l = locals; ctx != NULL && l != NULL; l = l->next) {
        if (l->ctx == ctx && (l->s.set & (1u << attrib))) {
            return &l->s;
        }
    }
    return &global;
}

static CUresult get(CUcoredumpSettings attrib, void *value, size_t *size,
                    const cuda_mock_ctx_t *ctx) {
    size_t need = attrib_size(attrib);
    if (value == NULL) {
        *size = need;
        return CUDA_SUCCESS;
    }
    if (*size < need) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&lock);
    global_defaults();
    const settings_t *s = view(ctx, attrib);
    switch (attrib) {
    case CU_COREDUMP_FILE:
        memcpy(value, s->file, PATH_CHARS);
        break;
    case CU_COREDUMP_PIPE:
        memcpy(value, s->pipe, PATH_CHARS);
        break;
    case CU_COREDUMP_GENERATION_FLAGS:
        memcpy(value, &s->generation_flags, sizeof(int));
        break;
    default:
        memcpy(value, &s->flag[attrib], sizeof(bool));
        break;
    }
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

// Checks a value for `attrib` and writes it into `s`.
static CUresult put(settings_t *s, CUcoredumpSettings attrib, const void *value,
                    size_t size) {
    if (attrib == CU_COREDUMP_FILE || attrib == CU_COREDUMP_PIPE) {
        const char *text = value;
        size_t len = strnlen(text, size < PATH_CHARS ? size : PATH_CHARS);
        if (len == 0 || len >= PATH_CHARS || len >= size) {
            return CUDA_ERROR_INVALID_VALUE; // empty, too long, unterminated
        }
        char *dst = attrib == CU_COREDUMP_FILE ? s->file : s->pipe;
        memcpy(dst, text, len + 1);
    } else if (attrib == CU_COREDUMP_GENERATION_FLAGS) {
        int flags;
        if (size != sizeof(int)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(&flags, value, sizeof(int));
        if (flags & ~all_generation_flags) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        s->generation_flags = flags;
    } else {
        unsigned char b;
        if (size != sizeof(bool)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(&b, value, 1);
        s->flag[attrib] = b != 0;
    }
    s->set |= 1u << attrib;
    return CUDA_SUCCESS;
}

static CUresult set(CUcoredumpSettings attrib, const void *value, size_t *size,
                    cuda_mock_ctx_t *ctx) {
    if (value == NULL) {
        *size = attrib_size(attrib);
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&lock);
    global_defaults();
    CUresult res;
    if (ctx == NULL) {
        res = put(&global, attrib, value, *size);
    } else {
        local_t *l = locals;
        while (l != NULL && l->ctx != ctx) {
            l = l->next;
        }
        if (l == NULL) {
            l = calloc(1, sizeof(*l));
            if (l == NULL) {
                pthread_mutex_unlock(&lock);
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
            l->ctx = ctx;
            l->next = locals;
            locals = l;
        }
        res = put(&l->s, attrib, value, *size);
    }
    pthread_mutex_unlock(&lock);
    return res;
}

// A destroyed context's own settings go with it.
static void coredump_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    pthread_mutex_lock(&lock);
    for (local_t **p = &locals; *p != NULL;) {
        local_t *l = *p;
        if (l->ctx == ctx) {
            *p = l->next;
            free(l);
        } else {
            p = &l->next;
        }
    }
    pthread_mutex_unlock(&lock);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_HOST, coredump_ctx_teardown);

// The checks every call makes: an attribute of CUcoredumpSettings and a
// size; for the per-context calls, a current context.
static CUresult check(CUcoredumpSettings attrib, const size_t *size,
                      bool in_context, cuda_mock_ctx_t **ctx) {
    if (size == NULL || (int)attrib < 1 || attrib >= CU_COREDUMP_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *ctx = NULL;
    return in_context ? cuda_mock_ctx_current(ctx) : CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuCoredumpGetAttribute(CUcoredumpSettings attrib,
                                              void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpGetAttribute);
    cuda_mock_ctx_t *ctx;
    CUresult res = check(attrib, size, true, &ctx);
    return res != CUDA_SUCCESS ? res : get(attrib, value, size, ctx);
}

CUDA_MOCK_API CUresult cuCoredumpGetAttributeGlobal(CUcoredumpSettings attrib,
                                                    void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpGetAttributeGlobal);
    cuda_mock_ctx_t *ctx;
    CUresult res = check(attrib, size, false, &ctx);
    return res != CUDA_SUCCESS ? res : get(attrib, value, size, NULL);
}

CUDA_MOCK_API CUresult cuCoredumpSetAttribute(CUcoredumpSettings attrib,
                                              void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpSetAttribute);
    cuda_mock_ctx_t *ctx;
    CUresult res = check(attrib, size, true, &ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (attrib == CU_COREDUMP_ENABLE_USER_TRIGGER ||
        attrib == CU_COREDUMP_PIPE) {
        UMF_MOCK_LOG_INFO("%s: ENABLE_USER_TRIGGER and PIPE are set for the "
                          "whole process only (cuCoredumpSetAttributeGlobal)",
                          __func__);
        return CUDA_ERROR_NOT_PERMITTED;
    }
    return set(attrib, value, size, ctx);
}

CUDA_MOCK_API CUresult cuCoredumpSetAttributeGlobal(CUcoredumpSettings attrib,
                                                    void *value, size_t *size) {
    CUDA_MOCK_ENTER(cuCoredumpSetAttributeGlobal);
    cuda_mock_ctx_t *ctx;
    CUresult res = check(attrib, size, false, &ctx);
    return res != CUDA_SUCCESS ? res : set(attrib, value, size, NULL);
}
