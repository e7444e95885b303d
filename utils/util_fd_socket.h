// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Passing exported file descriptors over a Unix-domain socket (SCM_RIGHTS),
// for consumers whose pidfd_getfd the OS refuses (container seccomp
// profiles, Yama, kernels before 5.6). One module for the library and the
// emulated drivers (each links its own hidden copy of utils/, so each runs
// its own server for the fds it exported). One file per side, each with its
// trust rule at its top: util_fd_server.c (the exporter's), util_fd_client.c
// (the consumer's); what they share: util_fd_wire.h (the protocol) and
// util_fd_settings.c (the environment and socket names).
//
// The exporter side, the fd server:
// - umf_fd_server_export() records an fd this process exported (a GPU
//   driver's IPC fd) with the allocation it belongs to and the file behind
//   it (st_dev/st_ino). It holds no fd of its own for an export, so serving
//   does not double an exporter's fds: for each request it duplicates the
//   recorded fd, sends the duplicate only if it is still that file, and
//   closes it. So it can never be made to send another file, even if the
//   exporter's fd number is closed and reused. Put (umf_fd_server_unexport)
//   and free (umf_fd_server_revoke) revoke the export; the exporter keeps
//   its fd open until it has revoked it.
// - The serving thread and its socket start at the first export, never at
//   load: a process that never exports pays nothing. It stops when the last
//   user detaches (umf_fd_server_detach: the last provider destroyed) and at
//   exit; the child of a fork inherits no server (no thread, no socket, no
//   export: they are dropped in the child).
// - Sockets are SOCK_SEQPACKET: one request is one message of a fixed
//   size, one per connection; the thread multiplexes every client with
//   poll() on non-blocking sockets, drops a client that sent nothing within
//   UMF_FD_SERVER_CLIENT_TIMEOUT_MS, holds at most UMF_FD_SERVER_MAX_CLIENTS
//   (a new one evicts the oldest), so a slow or hostile client cannot block
//   another. Fds a client passes in are closed unread.
// - Each peer's credentials (SO_PEERCRED) are checked against the export's
//   allow-list (default: this process's effective uid); the request must
//   name this process (pid and its pidfd inode or start time), the
//   allocation id, the fd number and the file's st_dev/st_ino as exported.
//
// The consumer side: umf_fd_socket_take() connects (abstract name or
// path), sends the request and receives the fd, with send and receive
// timeouts (UMF_FD_CLIENT_TIMEOUT_MS); a dead exporter is a quick error (the
// socket is gone, or the connection ends), never a hang.

#ifndef UMF_GPU_UTIL_FD_SOCKET_H
#define UMF_GPU_UTIL_FD_SOCKET_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util_fd.h"

#ifdef __cplusplus
extern "C" {
#endif

// Room for a socket name (the IPC record's socket_name has as much).
#define UMF_FD_SOCKET_NAME_MAX 80
// Most uids an export's allow-list holds.
#define UMF_FD_SERVER_MAX_UIDS 16
// Clients the server holds at once that sent nothing yet (a request that
// is waiting when the server accepts is answered at once, never held), and
// of those at most UMF_FD_SERVER_MAX_PER_PEER per peer process (SO_PEERCRED
// pid; peers in a pid namespace that hides them share one share). A client
// that sent no request within the timeout is dropped.
#define UMF_FD_SERVER_MAX_CLIENTS 64
#define UMF_FD_SERVER_MAX_PER_PEER 8
#define UMF_FD_SERVER_CLIENT_TIMEOUT_MS 2000
// Connections the kernel queues for the server: short, so that a consumer
// waits behind few others (a connect waits while it is full).
#define UMF_FD_SERVER_BACKLOG 128
// The consumer's send and receive timeouts (connect included).
#define UMF_FD_CLIENT_TIMEOUT_MS 5000

typedef enum umf_fd_socket_kind_t {
    UMF_FD_SOCKET_NONE = 0,     // not served
    UMF_FD_SOCKET_ABSTRACT = 1, // abstract namespace (this network namespace)
    UMF_FD_SOCKET_PATH = 2,     // a filesystem path
} umf_fd_socket_kind_t;

// Where an exporter serves its fds.
typedef struct umf_fd_socket_name_t {
    uint8_t kind; // umf_fd_socket_kind_t
    uint16_t len; // bytes of name used, no NUL
    char name[UMF_FD_SOCKET_NAME_MAX];
} umf_fd_socket_name_t;

// How fds move: chosen by a provider parameter, else the environment
// variable UMF_GPU_IPC_FD_TRANSFER ("auto", "socket", "pidfd").
typedef enum umf_fd_transfer_t {
    UMF_FD_TRANSFER_DEFAULT = 0, // the environment's, else AUTO
    UMF_FD_TRANSFER_AUTO = 1,    // pidfd_getfd, the socket when the OS refuses
                                 // it (EPERM, EACCES, ENOSYS); exports served
    UMF_FD_TRANSFER_SOCKET = 2,  // the socket only; exports served
    UMF_FD_TRANSFER_PIDFD = 3,   // pidfd_getfd only; exports not served
} umf_fd_transfer_t;

// What an exporter decides for its exports.
typedef struct umf_fd_serve_policy_t {
    umf_fd_transfer_t transfer; // PIDFD: not served (DEFAULT: environment)
    // NULL or "": the directory of UMF_GPU_IPC_SOCKET_DIR if set, else the
    // abstract namespace; else a directory for a filesystem socket.
    const char *socket_dir;
    // NULL: a random name; else the name is derived from this process and
    // `tag` (for a driver whose handle has no room for a name; see
    // umf_fd_socket_derived_name).
    const char *tag;
    size_t uid_count;     // 0: UMF_GPU_IPC_ALLOWED_UIDS if set, else geteuid()
    const uint32_t *uids; // uid_count allowed peer uids
} umf_fd_serve_policy_t;

// The transfer in effect for `t`: t itself, or UMF_GPU_IPC_FD_TRANSFER
// (read once), or AUTO.
umf_fd_transfer_t umf_fd_transfer_resolve(umf_fd_transfer_t t);

// Whether UMF_GPU_IPC_FD_TRANSFER, UMF_GPU_IPC_SOCKET_DIR and
// UMF_GPU_IPC_ALLOWED_UIDS are well formed; else false and *bad names the
// variable (for the caller's log line).
bool umf_fd_socket_env_ok(const char **bad);

// "auto", "socket", "pidfd" (DEFAULT resolved).
const char *umf_fd_transfer_name(umf_fd_transfer_t t);

// Exports fd `fd` (valid in this process) of allocation `alloc_id`, at
// `base` of `owner` (what umf_fd_server_revoke names), for consumers
// allowed by `policy`, and stores where it is served in *name (kind NONE
// when the policy serves nothing). Repeated exports of one (owner, base,
// fd) count references. Starts the server at the first. 0, or an errno
// value (EINVAL bad arguments or policy, ENAMETOOLONG a socket directory
// too long, EMFILE, ENOMEM, or what socket/bind failed with); nothing is
// exported then.
int umf_fd_server_export(uintptr_t owner, uint64_t base, uint64_t alloc_id,
                         int fd, const umf_fd_serve_policy_t *policy,
                         umf_fd_socket_name_t *name);

// Drops one reference of the export (put); the last revokes it.
void umf_fd_server_unexport(uintptr_t owner, uint64_t base, int fd);

// Revokes every export at `base` of `owner` (its memory is being freed).
// Cheap for a base that was never exported (one atomic load), however
// much else is.
void umf_fd_server_revoke(uintptr_t owner, uint64_t base);

// `owner` (a provider) is done: revokes all its exports, and, when it was
// the last owner that exported, stops the server (thread and sockets).
void umf_fd_server_detach(uintptr_t owner);

// Exports served now (for tests and leak checks).
size_t umf_fd_server_exports(void);

// Whether the serving thread runs (for tests: started on first export,
// stopped at the last detach, none in a fork child).
bool umf_fd_server_running(void);

// The abstract name umf_fd_server_export uses for a policy with `tag`, in
// process `pid` named by `ident` (its pidfd inode or start time): what a
// consumer computes from a driver's handle.
void umf_fd_socket_derived_name(pid_t pid, uint64_t ident, const char *tag,
                                bool path, umf_fd_socket_name_t *name);

// What a consumer asks for.
typedef struct umf_fd_socket_request_t {
    pid_t pid;     // the exporter, as it recorded itself
    int remote_fd; // its fd number
    uint64_t alloc_id;
    umf_fd_identity_t identity; // ino must be known (not 0)
} umf_fd_socket_request_t;

// Takes the fd of `req` from the server at `name`: on UMF_FD_OK a new
// close-on-exec fd in *local_fd, proven to be the exported file (st_dev,
// st_ino). Otherwise *why says what failed: NO_PROCESS (no server there:
// the exporter has exited, or the connection ended), UID_REFUSED,
// NOT_SERVED (serving disabled), REVOKED (not exported, or no longer),
// NOT_EXPORTER, OTHER_FILE, NO_FDS, OS_ERROR (ETIMEDOUT, ...).
umf_fd_status_t umf_fd_socket_take(const umf_fd_socket_name_t *name,
                                   const umf_fd_socket_request_t *req,
                                   int *local_fd, umf_fd_failure_t *why);

// The consumer's proof of the server, what umf_fd_socket_take makes on each
// connection before it receives anything: that the peer of the connected
// socket `sock` is the exporter that `req` names, and alive (the trust rule
// of util_fd_client.c). UMF_FD_OK, or WRONG_PEER, UNVERIFIED, NO_PROCESS,
// OS_ERROR with *why (may be NULL). For tests and the benchmark (its cost).
umf_fd_status_t umf_fd_socket_authenticate(int sock,
                                           const umf_fd_socket_request_t *req,
                                           umf_fd_failure_t *why);

// An fd to take from an exporter, and how.
typedef struct umf_fd_source_t {
    pid_t pid;     // the exporter
    int remote_fd; // its fd number
    uint64_t alloc_id;
    const umf_fd_identity_t *identity;  // NULL: none (then no socket)
    const umf_fd_socket_name_t *socket; // NULL or kind NONE: not served
    umf_fd_transfer_t transfer;         // the consumer's choice
} umf_fd_source_t;

// The one way to take an exporter's fd: pidfd_getfd (umf_fd_from_process),
// and, as the transfer says, the exporter's fd server instead (SOCKET) or
// after the OS refused pidfd_getfd with EPERM, EACCES or ENOSYS (AUTO). A
// fd of this process itself is a dup. Results as umf_fd_from_process and
// umf_fd_socket_take; a refusal with no server to fall back to keeps the
// OS's status and says why in why->note (serving disabled, or the fallback
// off here).
umf_fd_status_t umf_fd_take(const umf_fd_source_t *src, int *local_fd,
                            umf_fd_failure_t *why);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_UTIL_FD_SOCKET_H
