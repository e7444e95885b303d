// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The consumer's side of util_fd_socket.h: taking an exporter's fd from its
// fd server, and the choice between that and pidfd_getfd (umf_fd_take).
//
// Trust rule: whoever answers on the socket is not believed: an fd it
// sends is kept only when it is the file the consumer's record names
// (st_dev and st_ino), and closed otherwise.

#include "util_fd_socket.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "util_fd_wire.h"

// ---- The consumer -----------------------------------------------------------

static umf_fd_status_t sock_fail(umf_fd_failure_t *why, umf_fd_status_t status,
                                 const char *call, int err,
                                 const umf_fd_socket_request_t *req) {
    if (why != NULL) {
        memset(why, 0, sizeof(*why));
        why->status = status;
        why->os_error = err;
        why->call = call;
        why->pid = req->pid;
        why->remote_fd = req->remote_fd;
    }
    return status;
}

static umf_fd_status_t status_of_errno(int err) {
    switch (err) {
    case ECONNREFUSED:
    case ENOENT:
    case ECONNRESET:
    case EPIPE:
        return UMF_FD_NO_PROCESS;
    case EMFILE:
    case ENFILE:
        return UMF_FD_NO_FDS;
    case EACCES:
    case EPERM:
        return UMF_FD_PERMISSION;
    default:
        return UMF_FD_OS_ERROR;
    }
}

umf_fd_status_t umf_fd_socket_take(const umf_fd_socket_name_t *name,
                                   const umf_fd_socket_request_t *req,
                                   int *local_fd, umf_fd_failure_t *why) {
    static const umf_fd_socket_request_t none = {0};
    if (req == NULL || local_fd == NULL || req->pid <= 0 ||
        req->remote_fd < 0 || req->identity.ino == 0) {
        return sock_fail(why, UMF_FD_INVALID_ARGUMENT, "arguments", 0,
                         req != NULL ? req : &none);
    }
    struct sockaddr_un addr;
    socklen_t len = 0;
    if (name == NULL || name->kind == UMF_FD_SOCKET_NONE) {
        return sock_fail(why, UMF_FD_NOT_SERVED, "fd server", 0, req);
    }
    if ((len = umf_fd_wire_addr(name, &addr)) == 0) {
        return sock_fail(why, UMF_FD_INVALID_ARGUMENT, "arguments", 0, req);
    }
    int saved_errno = errno;
    umf_fd_status_t status = UMF_FD_OK;
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s < 0) {
        status = sock_fail(why, status_of_errno(errno), "socket", errno, req);
        errno = saved_errno;
        return status;
    }
    struct timeval tv = {UMF_FD_CLIENT_TIMEOUT_MS / 1000,
                         (UMF_FD_CLIENT_TIMEOUT_MS % 1000) * 1000};
    (void)setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    (void)setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    umf_fd_wire_request_t w = {
        .magic = UMF_FD_WIRE_MAGIC,
        .version = UMF_FD_WIRE_VERSION,
        .size = sizeof(w),
        .pid = (int32_t)req->pid,
        .fd = req->remote_fd,
        .alloc_id = req->alloc_id,
        .start_time = req->identity.start_time,
        .pidfs_ino = req->identity.pidfs_ino,
        .dev = req->identity.dev,
        .ino = req->identity.ino,
    };
    umf_fd_wire_reply_t rep;
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(4 * sizeof(int))];
    } control;
    struct iovec iov = {&rep, sizeof(rep)};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    ssize_t n;
    int fd = -1;
    if (connect(s, (struct sockaddr *)&addr, len) != 0) {
        int err = errno == EAGAIN ? ETIMEDOUT : errno;
        status = sock_fail(why, status_of_errno(err), "connect", err, req);
        goto out;
    }
    if (send(s, &w, sizeof(w), MSG_NOSIGNAL) != (ssize_t)sizeof(w)) {
        int err = errno == EAGAIN ? ETIMEDOUT : errno;
        status = sock_fail(why, status_of_errno(err), "sendmsg", err, req);
        goto out;
    }
    do {
        n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        // The end of the connection: the exporter exited (or dropped us).
        int err = n == 0                                    ? ECONNRESET
                  : errno == EAGAIN || errno == EWOULDBLOCK ? ETIMEDOUT
                                                            : errno;
        status = sock_fail(why, status_of_errno(err), "recvmsg", err, req);
        goto out;
    }
    fd = umf_fd_wire_fds(&msg, 1);
    if ((size_t)n != sizeof(rep) || rep.magic != UMF_FD_WIRE_MAGIC) {
        status = sock_fail(why, UMF_FD_OS_ERROR, "fd server", EPROTO, req);
        goto out;
    }
    switch ((umf_fd_wire_status_t)rep.status) {
    case UMF_FD_WIRE_OK:
        if (fd < 0) {
            bool full = (msg.msg_flags & MSG_CTRUNC) != 0;
            status = sock_fail(why, full ? UMF_FD_NO_FDS : UMF_FD_OS_ERROR,
                               "recvmsg", full ? EMFILE : EPROTO, req);
        }
        break;
    case UMF_FD_WIRE_NOT_EXPORTER:
        status = sock_fail(why, UMF_FD_NOT_EXPORTER, "fd server", 0, req);
        break;
    case UMF_FD_WIRE_REVOKED:
        status = sock_fail(why, UMF_FD_REVOKED, "fd server", 0, req);
        break;
    case UMF_FD_WIRE_FAILED: // it could not duplicate its fd: none left there
        status = sock_fail(why, UMF_FD_OS_ERROR, "fd server", EMFILE, req);
        break;
    case UMF_FD_WIRE_UID_REFUSED:
        status = sock_fail(why, UMF_FD_UID_REFUSED, "fd server", 0, req);
        if (why != NULL) {
            why->found = rep.uid;
        }
        break;
    default:
        status = sock_fail(why, UMF_FD_OS_ERROR, "fd server", EPROTO, req);
        break;
    }
    if (status == UMF_FD_OK) {
        // Whoever answered, the fd must be the file exported.
        struct stat st;
        if (fstat(fd, &st) != 0 || (uint64_t)st.st_ino != req->identity.ino ||
            (req->identity.dev != 0 &&
             (uint64_t)st.st_dev != req->identity.dev)) {
            status = sock_fail(why, UMF_FD_OTHER_FILE, "recvmsg", 0, req);
            if (why != NULL) {
                why->expected = req->identity.ino;
                why->found = (uint64_t)st.st_ino;
            }
        }
    }
out:
    close(s);
    if (status == UMF_FD_OK) {
        *local_fd = fd;
    } else if (fd >= 0) {
        close(fd);
    }
    errno = saved_errno;
    return status;
}

// ---- Choosing the way -------------------------------------------------------

umf_fd_status_t umf_fd_take(const umf_fd_source_t *src, int *local_fd,
                            umf_fd_failure_t *why) {
    if (src == NULL) {
        return umf_fd_from_process(0, -1, NULL, local_fd, why);
    }
    umf_fd_transfer_t t = umf_fd_transfer_resolve(src->transfer);
    bool served = src->socket != NULL &&
                  src->socket->kind != UMF_FD_SOCKET_NONE &&
                  src->identity != NULL && src->identity->ino != 0;
    bool local = src->pid == getpid();
    umf_fd_status_t status = UMF_FD_OK;
    if (t != UMF_FD_TRANSFER_SOCKET || local) {
        status = umf_fd_from_process(src->pid, src->remote_fd, src->identity,
                                     local_fd, why);
        bool refused =
            status == UMF_FD_PERMISSION || status == UMF_FD_NOT_SUPPORTED;
        if (!refused || local) {
            return status;
        }
        if (t == UMF_FD_TRANSFER_PIDFD) {
            if (why != NULL) {
                why->note = "the fd server fallback is off here "
                            "(UMF_GPU_IPC_FD_TRANSFER or the provider "
                            "parameter says pidfd)";
            }
            return status;
        }
        if (!served) {
            if (why != NULL) {
                why->note = "and the exporter serves no fds over a socket "
                            "(serving disabled there: its fd transfer is "
                            "pidfd)";
            }
            return status;
        }
    } else if (!served) {
        umf_fd_failure_t f = {0};
        f.status = UMF_FD_NOT_SERVED;
        f.call = "fd server";
        f.pid = src->pid;
        f.remote_fd = src->remote_fd;
        if (why != NULL) {
            *why = f;
        }
        return UMF_FD_NOT_SERVED;
    }
    umf_fd_socket_request_t req = {src->pid, src->remote_fd, src->alloc_id,
                                   *src->identity};
    status = umf_fd_socket_take(src->socket, &req, local_fd, why);
    if (status != UMF_FD_OK && why != NULL && t == UMF_FD_TRANSFER_AUTO) {
        why->note = "through the exporter's fd server, after pidfd_getfd "
                    "was refused";
    }
    return status;
}
