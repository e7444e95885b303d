// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What both sides of the fd server (util_fd_server.c, util_fd_client.c)
// read from the environment, once per process, and how its socket names
// are made. Internal to utils/; the public part is util_fd_socket.h
// (umf_fd_transfer_resolve, umf_fd_socket_env_ok, umf_fd_socket_derived_name).

#ifndef UMF_GPU_UTIL_FD_SETTINGS_H
#define UMF_GPU_UTIL_FD_SETTINGS_H 1

#include <stddef.h>
#include <stdint.h>

#include "util_fd_socket.h"

// Every socket name starts so: "umf-gpu-fd.<pid>.<16 hex>[.<tag>]".
#define UMF_FD_NAME_PREFIX "umf-gpu-fd."
#define UMF_FD_NAME_SUFFIX_MAX 40
// Longest directory: its name, "/" and the socket's own name must fit.
#define UMF_FD_DIR_MAX (UMF_FD_SOCKET_NAME_MAX - 1 - UMF_FD_NAME_SUFFIX_MAX)

// UMF_GPU_IPC_SOCKET_DIR, or "" (abstract names).
const char *umf_fd_env_socket_dir(void);

// UMF_GPU_IPC_ALLOWED_UIDS: their count (0: not set) and *uids.
size_t umf_fd_env_uids(const uint32_t **uids);

// *n := the name `s` of kind `kind` (callers check that it fits).
void umf_fd_socket_set_name(umf_fd_socket_name_t *n, uint8_t kind,
                            const char *s);

#endif // UMF_GPU_UTIL_FD_SETTINGS_H
