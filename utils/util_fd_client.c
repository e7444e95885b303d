// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The consumer's side of util_fd_socket.h: taking an exporter's fd from its
// fd server, and the choice between that and pidfd_getfd (umf_fd_take).
//
// Trust rule: whoever answers on the socket is an impostor until proven
// the exporter. A socket name proves nothing (any process may bind a name
// the exporter left, and an abstract name is visible to the whole network
// namespace), so before the consumer receives anything it proves, from
// what the kernel says about the peer, that the process serving the socket
// is the exporter that the record names, and alive:
// - the peer's pidfd (SO_PEERPIDFD, Linux 6.5+; else pidfd_open of the
//   SO_PEERCRED pid), which pins the process that listened;
// - its identity: the pidfd's pidfs inode (Linux 6.9+), unique for ever and
//   the same in every pid namespace, must be the recorded one; else the
//   SO_PEERCRED pid must be the recorded pid and its start time (from
//   /proc, read while the pidfd pins it) the recorded one;
// - then the pidfd must still name a live process, so the pid read was its
//   own all along.
// What cannot be proven (another pid namespace without pidfs, no /proc of
// ours) is refused (UNVERIFIED), never believed. And even the proven
// exporter's answer is checked: the fd must be the file the record names
// (st_dev and st_ino; a CUDA handle without room for the device gets it
// from umf_fd_memfd_dev, measured here), else it is closed.
//
// Errors say what happened: "the exporter has exited" (NO_PROCESS) only
// where its pidfd shows it; a server that dropped the request or did not
// answer in time is BUSY, after a few retries with a short backoff.

#include "util_fd_socket.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "util_fd_wire.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77 // Linux 6.5 (include/uapi/asm-generic/socket.h)
#endif

// Attempts at a server that drops the request and says so (it held too
// many clients), with a backoff that doubles from 1 ms: 1 + 2 + ... + 64 ms,
// well inside the client's timeout.
#define ATTEMPTS 8
// How long a connection that ended without an answer waits for the
// exporter's pidfd to show its exit (its sockets close a moment before).
#define EXIT_GRACE_MS 1000

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

// A failed identity check: `status` with what was expected and found.
static umf_fd_status_t sock_mismatch(umf_fd_failure_t *why,
                                     umf_fd_status_t status, const char *call,
                                     const umf_fd_socket_request_t *req,
                                     uint64_t expected, uint64_t found) {
    sock_fail(why, status, call, 0, req);
    if (why != NULL) {
        why->expected = expected;
        why->found = found;
    }
    return status;
}

static long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000L;
}

// The socket's send and receive timeouts (connect included): what is left.
static void set_timeouts(int s, long ms) {
    ms = ms < 1 ? 1 : ms;
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    (void)setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    (void)setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

// Whether the exporter of `req` is shown to have exited: no process has its
// pid, or the one that has is another process (its pidfd inode, or its
// start time read while a pidfd pins it), or its pidfd says it exited.
// False where it lives or this process cannot tell.
static bool exporter_gone(const umf_fd_socket_request_t *req) {
    const umf_fd_identity_t *id = &req->identity;
    int pidfd = umf_pidfd_open(req->pid);
    if (pidfd < 0) {
        return errno == ESRCH && umf_proc_is_ours();
    }
    bool gone = false;
    uint64_t ino = umf_pidfd_inode(pidfd);
    uint64_t start = 0;
    if (id->pidfs_ino != 0 && ino != 0) {
        gone = ino != id->pidfs_ino;
    } else if (id->start_time != 0 &&
               umf_proc_start_time(req->pid, &start) == 0) {
        gone = start != id->start_time;
    }
    gone = gone || umf_pidfd_exited(pidfd, 0);
    close(pidfd);
    return gone;
}

// Proves that the peer of the connected socket `s` is the exporter that
// `req` names, and alive (the trust rule above). OK and the peer's pidfd in
// *pidfd (-1 where the kernel gives none), or the failure.
static umf_fd_status_t authenticate(int s, const umf_fd_socket_request_t *req,
                                    int *pidfd, umf_fd_failure_t *why) {
    const umf_fd_identity_t *id = &req->identity;
    struct ucred cred;
    socklen_t len = sizeof(cred);
    *pidfd = -1;
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        return sock_fail(why, UMF_FD_OS_ERROR, "SO_PEERCRED", errno, req);
    }
    const char *via = "SO_PEERPIDFD";
    int p = -1;
    len = sizeof(p);
    if (getsockopt(s, SOL_SOCKET, SO_PEERPIDFD, &p, &len) != 0) {
        // Before Linux 6.5 (ENOPROTOOPT): a pidfd of the pid it listened
        // with; its identity proves that the pid is still its own.
        p = -1;
        via = "pidfd_open";
        if (cred.pid > 0) {
            p = umf_pidfd_open(cred.pid);
            if (p < 0 && errno == ESRCH) {
                return sock_fail(why, UMF_FD_NO_PROCESS, via, ESRCH, req);
            }
        }
    }
    umf_fd_status_t status = UMF_FD_OK;
    uint64_t ino = p >= 0 ? umf_pidfd_inode(p) : 0;
    uint64_t start = 0;
    int err = 0;
    if (id->pidfs_ino != 0 && ino != 0) {
        if (ino != id->pidfs_ino) {
            status = sock_mismatch(why, UMF_FD_WRONG_PEER, via, req,
                                   id->pidfs_ino, ino);
        }
    } else if (id->start_time == 0 || cred.pid <= 0 || !umf_proc_is_ours()) {
        status = sock_fail(why, UMF_FD_UNVERIFIED, via, 0, req);
    } else if (cred.pid != req->pid) {
        status = sock_mismatch(why, UMF_FD_WRONG_PEER, "SO_PEERCRED", req,
                               (uint64_t)req->pid, (uint64_t)cred.pid);
    } else if ((err = umf_proc_start_time(cred.pid, &start)) != 0) {
        status =
            sock_fail(why, err == ESRCH ? UMF_FD_NO_PROCESS : UMF_FD_OS_ERROR,
                      "/proc/<pid>/stat", err, req);
    } else if (start != id->start_time) {
        status = sock_mismatch(why, UMF_FD_WRONG_PEER, "/proc/<pid>/stat", req,
                               id->start_time, start);
    }
    // Alive after the proof: the pid was its own all along.
    if (status == UMF_FD_OK && p >= 0 && umf_pidfd_exited(p, 0)) {
        status = sock_fail(why, UMF_FD_NO_PROCESS, via, ESRCH, req);
    }
    if (status != UMF_FD_OK && p >= 0) {
        close(p);
        p = -1;
    }
    *pidfd = p;
    return status;
}

umf_fd_status_t umf_fd_socket_authenticate(int sock,
                                           const umf_fd_socket_request_t *req,
                                           umf_fd_failure_t *why) {
    umf_fd_failure_t failure;
    int pidfd = -1;
    umf_fd_status_t status = authenticate(sock, req, &pidfd, &failure);
    if (pidfd >= 0) {
        close(pidfd);
    }
    if (status != UMF_FD_OK && why != NULL) {
        *why = failure;
    }
    return status;
}

// A connection of the exporter's that ended without an answer: it exited
// (its sockets go a moment before its pidfd says so), or it dropped us.
static umf_fd_status_t ended(int pidfd, const umf_fd_socket_request_t *req,
                             long left_ms, umf_fd_failure_t *why) {
    long grace = left_ms < EXIT_GRACE_MS ? left_ms : EXIT_GRACE_MS;
    bool exited =
        pidfd >= 0 ? umf_pidfd_exited(pidfd, (int)grace) : exporter_gone(req);
    return sock_fail(why, exited ? UMF_FD_NO_PROCESS : UMF_FD_BUSY, "recvmsg",
                     exited ? ESRCH : ECONNRESET, req);
}

// What the server's reply says; *fd (the fd it carried, or -1) stays open
// only on OK.
static umf_fd_status_t read_reply(const umf_fd_wire_reply_t *rep, ssize_t n,
                                  const struct msghdr *msg, int fd,
                                  const umf_fd_socket_request_t *req,
                                  umf_fd_failure_t *why) {
    if ((size_t)n != sizeof(*rep) || rep->magic != UMF_FD_WIRE_MAGIC) {
        return sock_fail(why, UMF_FD_OS_ERROR, "fd server", EPROTO, req);
    }
    umf_fd_status_t status = UMF_FD_OK;
    switch ((umf_fd_wire_status_t)rep->status) {
    case UMF_FD_WIRE_OK:
        if (fd < 0) {
            bool full = (msg->msg_flags & MSG_CTRUNC) != 0;
            return sock_fail(why, full ? UMF_FD_NO_FDS : UMF_FD_OS_ERROR,
                             "recvmsg", full ? EMFILE : EPROTO, req);
        }
        break;
    case UMF_FD_WIRE_NOT_EXPORTER:
        return sock_fail(why, UMF_FD_NOT_EXPORTER, "fd server", 0, req);
    case UMF_FD_WIRE_REVOKED:
    case UMF_FD_WIRE_STOPPED:
        return sock_fail(why, UMF_FD_REVOKED, "fd server", 0, req);
    case UMF_FD_WIRE_FAILED: // it could not duplicate its fd: none left there
        return sock_fail(why, UMF_FD_OS_ERROR, "fd server", EMFILE, req);
    case UMF_FD_WIRE_BUSY:
        return sock_fail(why, UMF_FD_BUSY, "fd server", 0, req);
    case UMF_FD_WIRE_UID_REFUSED:
        return sock_mismatch(why, UMF_FD_UID_REFUSED, "fd server", req, 0,
                             rep->uid);
    default:
        return sock_fail(why, UMF_FD_OS_ERROR, "fd server", EPROTO, req);
    }
    // The proven exporter's answer, still checked: the file exported.
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_ino != req->identity.ino ||
        (uint64_t)st.st_dev != req->identity.dev) {
        status = sock_mismatch(why, UMF_FD_OTHER_FILE, "recvmsg", req,
                               req->identity.ino, (uint64_t)st.st_ino);
    }
    return status;
}

// One connection: connect, send the request, prove the peer, receive.
// BUSY: the caller may try again.
static umf_fd_status_t attempt(const struct sockaddr_un *addr, socklen_t len,
                               const umf_fd_wire_request_t *w,
                               const umf_fd_socket_request_t *req,
                               long deadline, int *local_fd,
                               umf_fd_failure_t *why) {
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s < 0) {
        int err = errno;
        return sock_fail(why,
                         err == EMFILE || err == ENFILE ? UMF_FD_NO_FDS
                                                        : UMF_FD_OS_ERROR,
                         "socket", err, req);
    }
    set_timeouts(s, deadline - now_ms());
    umf_fd_status_t status = UMF_FD_OK;
    int pidfd = -1, fd = -1;
    if (connect(s, (const struct sockaddr *)addr, len) != 0) {
        int err = errno;
        if (err == EAGAIN || err == EINPROGRESS || err == EINTR) {
            // Its backlog stayed full until the timeout (or a signal came).
            status = sock_fail(why, UMF_FD_BUSY, "connect",
                               err == EINTR ? EINTR : ETIMEDOUT, req);
        } else if (err == ECONNREFUSED || err == ENOENT) {
            // Nothing listens at the name.
            status = sock_fail(
                why, exporter_gone(req) ? UMF_FD_NO_PROCESS : UMF_FD_REVOKED,
                "connect", err, req);
        } else {
            status =
                sock_fail(why,
                          err == EMFILE || err == ENFILE  ? UMF_FD_NO_FDS
                          : err == EACCES || err == EPERM ? UMF_FD_PERMISSION
                                                          : UMF_FD_OS_ERROR,
                          "connect", err, req);
        }
        goto out;
    }
    // Sent before the proof, so that a server sees the request as soon as
    // it accepts: it is only what the record says. A server that already
    // dropped us (EPIPE) has left its reply to read.
    if (send(s, w, sizeof(*w), MSG_NOSIGNAL) != (ssize_t)sizeof(*w) &&
        errno != EPIPE && errno != ECONNRESET) {
        int err = errno;
        status = err == EAGAIN || err == EWOULDBLOCK
                     ? sock_fail(why, UMF_FD_BUSY, "sendmsg", ETIMEDOUT, req)
                     : sock_fail(why, UMF_FD_OS_ERROR, "sendmsg", err, req);
        goto out;
    }
    status = authenticate(s, req, &pidfd, why);
    if (status != UMF_FD_OK) {
        goto out; // nothing received: its fd, if any, goes with the socket
    }
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
    do {
        n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE))) {
        status = ended(pidfd, req, deadline - now_ms(), why);
    } else if (n < 0) {
        int err = errno;
        status = err == EAGAIN || err == EWOULDBLOCK
                     ? sock_fail(why, UMF_FD_BUSY, "recvmsg", ETIMEDOUT, req)
                     : sock_fail(why, UMF_FD_OS_ERROR, "recvmsg", err, req);
    } else {
        fd = umf_fd_wire_fds(&msg, 1);
        status = read_reply(&rep, n, &msg, fd, req, why);
    }
out:
    close(s);
    if (pidfd >= 0) {
        close(pidfd);
    }
    if (status == UMF_FD_OK) {
        *local_fd = fd;
    } else if (fd >= 0) {
        close(fd);
    }
    return status;
}

umf_fd_status_t umf_fd_socket_take(const umf_fd_socket_name_t *name,
                                   const umf_fd_socket_request_t *req,
                                   int *local_fd, umf_fd_failure_t *why) {
    static const umf_fd_socket_request_t none = {0};
    if (req == NULL || local_fd == NULL || req->pid <= 0 ||
        req->remote_fd < 0 || req->identity.ino == 0 ||
        req->identity.dev == 0) {
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
    long deadline = now_ms() + UMF_FD_CLIENT_TIMEOUT_MS;
    umf_fd_failure_t failure;
    umf_fd_status_t status = UMF_FD_OK;
    unsigned tries = 0;
    for (long backoff = 1;; backoff *= 2) {
        tries++;
        status = attempt(&addr, len, &w, req, deadline, local_fd, &failure);
        // Dropped by a busy server, which said so (the one BUSY without an
        // errno): again, while time is left. A timeout used the time up; a
        // live server that hung up unanswered would do it again.
        if (status != UMF_FD_BUSY || failure.os_error != 0 ||
            tries == ATTEMPTS || now_ms() + backoff >= deadline) {
            break;
        }
        struct timespec pause = {0, backoff * 1000000L};
        while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
        }
    }
    if (status == UMF_FD_BUSY) {
        failure.found = tries;
    }
    if (status != UMF_FD_OK && why != NULL) {
        *why = failure;
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
