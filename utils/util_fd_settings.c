// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fd server's settings (util_fd_settings.h): the environment, read once
// per process, and socket names. No socket is touched here.

#include "util_fd_settings.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- The environment (read once per process) --------------------------------

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static umf_fd_transfer_t env_transfer = UMF_FD_TRANSFER_AUTO;
static char env_dir[UMF_FD_SOCKET_NAME_MAX];
static uint32_t env_uids[UMF_FD_SERVER_MAX_UIDS];
static size_t env_uid_count;
static const char *env_bad; // the malformed variable, or NULL

static bool parse_uids(const char *s, uint32_t *uids, size_t *count) {
    size_t n = 0;
    while (*s != '\0') {
        char *end = NULL;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || errno != 0 || v > UINT32_MAX - 1 ||
            n == UMF_FD_SERVER_MAX_UIDS || (*end != ',' && *end != '\0')) {
            return false;
        }
        uids[n++] = (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    *count = n;
    return n > 0;
}

static void read_env(void) {
    const char *t = getenv("UMF_GPU_IPC_FD_TRANSFER");
    if (t != NULL && *t != '\0') {
        if (strcmp(t, "auto") == 0) {
            env_transfer = UMF_FD_TRANSFER_AUTO;
        } else if (strcmp(t, "socket") == 0) {
            env_transfer = UMF_FD_TRANSFER_SOCKET;
        } else if (strcmp(t, "pidfd") == 0) {
            env_transfer = UMF_FD_TRANSFER_PIDFD;
        } else {
            env_bad = "UMF_GPU_IPC_FD_TRANSFER";
        }
    }
    const char *d = getenv("UMF_GPU_IPC_SOCKET_DIR");
    if (d != NULL && *d != '\0') {
        if (d[0] != '/' || strlen(d) > UMF_FD_DIR_MAX) {
            env_bad = "UMF_GPU_IPC_SOCKET_DIR";
        } else {
            snprintf(env_dir, sizeof(env_dir), "%s", d);
        }
    }
    const char *u = getenv("UMF_GPU_IPC_ALLOWED_UIDS");
    if (u != NULL && *u != '\0' && !parse_uids(u, env_uids, &env_uid_count)) {
        env_uid_count = 0;
        env_bad = "UMF_GPU_IPC_ALLOWED_UIDS";
    }
}

umf_fd_transfer_t umf_fd_transfer_resolve(umf_fd_transfer_t t) {
    if (t != UMF_FD_TRANSFER_DEFAULT) {
        return t;
    }
    pthread_once(&env_once, read_env);
    return env_transfer;
}

bool umf_fd_socket_env_ok(const char **bad) {
    pthread_once(&env_once, read_env);
    if (bad != NULL) {
        *bad = env_bad;
    }
    return env_bad == NULL;
}

const char *umf_fd_env_socket_dir(void) {
    pthread_once(&env_once, read_env);
    return env_dir;
}

size_t umf_fd_env_uids(const uint32_t **uids) {
    pthread_once(&env_once, read_env);
    *uids = env_uids;
    return env_uid_count;
}

const char *umf_fd_transfer_name(umf_fd_transfer_t t) {
    switch (umf_fd_transfer_resolve(t)) {
    case UMF_FD_TRANSFER_SOCKET:
        return "socket";
    case UMF_FD_TRANSFER_PIDFD:
        return "pidfd";
    default:
        return "auto";
    }
}

// ---- Names ------------------------------------------------------------------

void umf_fd_socket_set_name(umf_fd_socket_name_t *n, uint8_t kind,
                            const char *s) {
    memset(n, 0, sizeof(*n));
    size_t len = strlen(s);
    if (len > UMF_FD_SOCKET_NAME_MAX) {
        len = UMF_FD_SOCKET_NAME_MAX; // cannot be: callers check
    }
    n->kind = kind;
    n->len = (uint16_t)len;
    memcpy(n->name, s, len);
}

void umf_fd_socket_derived_name(pid_t pid, uint64_t ident, const char *tag,
                                bool path, umf_fd_socket_name_t *name) {
    char s[256];
    pthread_once(&env_once, read_env);
    snprintf(s, sizeof(s), "%s%s" UMF_FD_NAME_PREFIX "%ld.%016llx.%.8s",
             path ? env_dir : "", path ? "/" : "", (long)pid,
             (unsigned long long)ident, tag != NULL ? tag : "");
    umf_fd_socket_set_name(
        name, path ? UMF_FD_SOCKET_PATH : UMF_FD_SOCKET_ABSTRACT, s);
}
