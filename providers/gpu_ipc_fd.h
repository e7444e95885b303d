// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fd transfer settings of a GPU provider (umf_gpu_ipc_fd_transfer_t, the
// allowed uids, the socket directory), checked the same way for both
// providers, and the exporter's side of the fd server for a provider whose
// IPC handles carry an fd (utils/util_fd_socket.h): register the handle's fd
// at get_ipc_handle and name the server in the IPC data, drop it at put,
// revoke it at free, detach at finalize. A provider that never exports
// touches none of it.

#ifndef UMF_GPU_GPU_IPC_FD_H
#define UMF_GPU_GPU_IPC_FD_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <umf/base.h>
#include <umf/memory_provider_gpu.h>

#include "ipc_data.h"
#include "util_fd_socket.h"

typedef struct umf_gpu_ipc_fd_params_t {
    umf_fd_transfer_t transfer;              // DEFAULT: the environment's
    char socket_dir[UMF_FD_SOCKET_NAME_MAX]; // "": the environment's
    size_t uid_count;                        // 0: the default allow-list
    uint32_t uids[UMF_FD_SERVER_MAX_UIDS];
} umf_gpu_ipc_fd_params_t;

// The parameter setters' checks and stores; `function` names the public
// function in the log line of a refusal (UMF_RESULT_ERROR_INVALID_ARGUMENT).
umf_result_t umf_gpu_ipc_fd_set_transfer(const char *function,
                                         umf_gpu_ipc_fd_params_t *p,
                                         umf_gpu_ipc_fd_transfer_t transfer);
umf_result_t umf_gpu_ipc_fd_set_uids(const char *function,
                                     umf_gpu_ipc_fd_params_t *p,
                                     const uint32_t *uids, size_t count);
umf_result_t umf_gpu_ipc_fd_set_socket_dir(const char *function,
                                           umf_gpu_ipc_fd_params_t *p,
                                           const char *dir);

// At initialize: UMF_RESULT_ERROR_INVALID_ARGUMENT (logged, naming the
// variable) when UMF_GPU_IPC_FD_TRANSFER, UMF_GPU_IPC_SOCKET_DIR or
// UMF_GPU_IPC_ALLOWED_UIDS is malformed.
umf_result_t umf_gpu_ipc_fd_check_env(const char *who);

// The exporter's state in a provider.
typedef struct umf_gpu_ipc_fd_exporter_t {
    atomic_bool attached; // exported through the server at least once (read
                          // at every free)
    umf_gpu_ipc_fd_params_t params;
} umf_gpu_ipc_fd_exporter_t;

// get_ipc_handle: serves `fd` (the handle's, valid here) of the allocation
// in `data` (already filled) and names the server in it, checksum renewed.
// A server that cannot start leaves the data unserved (pidfd_getfd only),
// with a warning: sharing still works where the OS allows pidfd_getfd.
void umf_gpu_ipc_fd_export(umf_gpu_ipc_fd_exporter_t *x, const char *who,
                           int fd, umf_ipc_data_t *data);

// put_ipc_handle of `data`, whose handle's fd is `fd`.
void umf_gpu_ipc_fd_put(umf_gpu_ipc_fd_exporter_t *x,
                        const umf_ipc_data_t *data, int fd);

// Before the driver frees the allocation at `base`: its fds go unserved.
static inline void umf_gpu_ipc_fd_on_free(umf_gpu_ipc_fd_exporter_t *x,
                                          const void *base) {
    if (__builtin_expect(
            atomic_load_explicit(&x->attached, memory_order_relaxed), 0)) {
        umf_fd_server_revoke((uintptr_t)x, (uint64_t)(uintptr_t)base);
    }
}

// finalize: everything of the provider unserved; the last provider that
// exported stops the server.
void umf_gpu_ipc_fd_finalize(umf_gpu_ipc_fd_exporter_t *x);

// The consumer's source for the handle fd `remote_fd` named by `data`.
void umf_gpu_ipc_fd_source(const umf_gpu_ipc_fd_exporter_t *x,
                           const umf_ipc_data_t *data, int remote_fd,
                           umf_fd_identity_t *identity,
                           umf_fd_socket_name_t *socket, umf_fd_source_t *src);

#endif // UMF_GPU_GPU_IPC_FD_H
