// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "gpu_ipc_fd.h"

#include <stdio.h>
#include <string.h>

#include "util_umf_log.h"

_Static_assert(UMF_FD_SOCKET_NAME_MAX == UMF_IPC_SOCKET_NAME_MAX,
               "the IPC data holds any fd server name");
_Static_assert(
    (int)UMF_GPU_IPC_FD_TRANSFER_AUTO == (int)UMF_FD_TRANSFER_AUTO &&
        (int)UMF_GPU_IPC_FD_TRANSFER_SOCKET == (int)UMF_FD_TRANSFER_SOCKET &&
        (int)UMF_GPU_IPC_FD_TRANSFER_PIDFD == (int)UMF_FD_TRANSFER_PIDFD &&
        (int)UMF_GPU_IPC_FD_TRANSFER_DEFAULT == (int)UMF_FD_TRANSFER_DEFAULT,
    "one set of transfer values");

umf_result_t umf_gpu_ipc_fd_set_transfer(const char *function,
                                         umf_gpu_ipc_fd_params_t *p,
                                         umf_gpu_ipc_fd_transfer_t transfer) {
    if ((int)transfer < (int)UMF_GPU_IPC_FD_TRANSFER_DEFAULT ||
        (int)transfer > (int)UMF_GPU_IPC_FD_TRANSFER_PIDFD) {
        UMF_LOG_ERROR("%s: %d is not a umf_gpu_ipc_fd_transfer_t", function,
                      (int)transfer);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    p->transfer = (umf_fd_transfer_t)transfer;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_gpu_ipc_fd_set_uids(const char *function,
                                     umf_gpu_ipc_fd_params_t *p,
                                     const uint32_t *uids, size_t count) {
    if (count > UMF_FD_SERVER_MAX_UIDS || (count > 0 && uids == NULL)) {
        UMF_LOG_ERROR("%s: %s", function,
                      count > UMF_FD_SERVER_MAX_UIDS
                          ? "more than 16 uids"
                          : "NULL uids with a non-zero count");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    p->uid_count = count;
    if (count > 0) {
        memcpy(p->uids, uids, count * sizeof(uint32_t));
    }
    return UMF_RESULT_SUCCESS;
}

// The longest directory whose sockets' names fit the IPC data.
#define SOCKET_DIR_MAX 39

umf_result_t umf_gpu_ipc_fd_set_socket_dir(const char *function,
                                           umf_gpu_ipc_fd_params_t *p,
                                           const char *dir) {
    if (dir == NULL || dir[0] == '\0') {
        p->socket_dir[0] = '\0';
        return UMF_RESULT_SUCCESS;
    }
    if (dir[0] != '/' || strlen(dir) > SOCKET_DIR_MAX) {
        UMF_LOG_ERROR("%s: '%s' %s", function, dir,
                      dir[0] != '/' ? "is not an absolute path"
                                    : "is longer than 39 bytes");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    snprintf(p->socket_dir, sizeof(p->socket_dir), "%s", dir);
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_gpu_ipc_fd_check_env(const char *who) {
    const char *bad = NULL;
    if (!umf_fd_socket_env_ok(&bad)) {
        UMF_LOG_ERROR(
            "%s: the environment variable %s is malformed (see "
            "docs/configuration.md: UMF_GPU_IPC_FD_TRANSFER auto|socket|pidfd, "
            "UMF_GPU_IPC_SOCKET_DIR an absolute path of at most 39 "
            "bytes, UMF_GPU_IPC_ALLOWED_UIDS up to 16 uids "
            "separated by commas)",
            who, bad);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return UMF_RESULT_SUCCESS;
}

void umf_gpu_ipc_fd_export(umf_gpu_ipc_fd_exporter_t *x, const char *who,
                           int fd, umf_ipc_data_t *data) {
    umf_fd_serve_policy_t policy = {
        .transfer = x->params.transfer,
        .socket_dir = x->params.socket_dir,
        .tag = NULL,
        .uid_count = x->params.uid_count,
        .uids = x->params.uids,
    };
    umf_fd_socket_name_t name;
    atomic_store_explicit(&x->attached, true, memory_order_relaxed);
    int err = umf_fd_server_export((uintptr_t)x, data->base, data->alloc_id, fd,
                                   &policy, &name);
    if (err != 0) {
        UMF_LOG_WARN("%s get_ipc_handle: cannot serve the handle's fd over a "
                     "socket (%s); consumers need pidfd_getfd",
                     who, strerror(err));
        return;
    }
    if (name.kind == UMF_FD_SOCKET_NONE) {
        return; // serving disabled
    }
    data->socket_kind = name.kind;
    data->socket_len = name.len;
    memcpy(data->socket_name, name.name, name.len);
    data->checksum = umf_ipc_data_checksum(data);
}

void umf_gpu_ipc_fd_put(umf_gpu_ipc_fd_exporter_t *x,
                        const umf_ipc_data_t *data, int fd) {
    if (atomic_load_explicit(&x->attached, memory_order_relaxed) &&
        data->socket_kind != UMF_IPC_SOCKET_NONE) {
        umf_fd_server_unexport((uintptr_t)x, data->base, fd);
    }
}

void umf_gpu_ipc_fd_finalize(umf_gpu_ipc_fd_exporter_t *x) {
    if (atomic_load_explicit(&x->attached, memory_order_relaxed)) {
        umf_fd_server_detach((uintptr_t)x);
    }
}

void umf_gpu_ipc_fd_source(const umf_gpu_ipc_fd_exporter_t *x,
                           const umf_ipc_data_t *data, int remote_fd,
                           umf_fd_identity_t *identity,
                           umf_fd_socket_name_t *socket, umf_fd_source_t *src) {
    *identity =
        (umf_fd_identity_t){data->producer_start_time, data->producer_pidfs_ino,
                            data->fd_dev, data->fd_ino};
    memset(socket, 0, sizeof(*socket));
    socket->kind = data->socket_kind;
    socket->len = data->socket_len;
    memcpy(socket->name, data->socket_name, data->socket_len);
    *src = (umf_fd_source_t){
        .pid = (pid_t)data->producer_pid,
        .remote_fd = remote_fd,
        .alloc_id = data->alloc_id,
        .identity = identity,
        .socket = socket,
        .transfer = x->params.transfer,
    };
}
