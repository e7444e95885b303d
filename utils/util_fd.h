// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Taking a file descriptor of another process into this one, as an IPC
// consumer must for the fd behind a GPU driver's IPC handle, which is only
// valid in the exporting process: pidfd_open(2), then pidfd_getfd(2). In
// the calling process itself it is a plain duplicate.
//
// This is the one implementation, shared by the library and the emulated
// drivers (utils/, the internal utility library: it knows nothing of either
// and does not log). It returns what happened; umf_fd_failure_describe()
// turns a failure into the one message, with the one advice text, that the
// caller logs with its own logger.

#ifndef UMF_GPU_UTIL_FD_H
#define UMF_GPU_UTIL_FD_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum umf_fd_status_t {
    UMF_FD_OK = 0,
    UMF_FD_INVALID_ARGUMENT, // pid <= 0, remote_fd < 0 or a NULL local_fd
    UMF_FD_NO_PROCESS,       // ESRCH: the exporting process has exited
    UMF_FD_NO_SUCH_FD,       // EBADF: it has no such open fd
    UMF_FD_PERMISSION,       // EPERM, EACCES: no ptrace access to it
    UMF_FD_NOT_SUPPORTED,    // ENOSYS: the kernel lacks pidfd (Linux < 5.6)
    UMF_FD_NO_FDS,           // EMFILE, ENFILE: out of file descriptors
    UMF_FD_OS_ERROR,         // any other errno
    UMF_FD_NOT_EXPORTER,     // the process behind the pid started at another
                             // time than the exporter: the exporter exited,
                             // and its pid was reused
    UMF_FD_OTHER_FILE,       // the fd is another file than the one exported:
                             // the exporter exited (and its pid and fd
                             // number were reused) or released the handle
    // The exporter's fd server (util_fd_socket.h):
    UMF_FD_UID_REFUSED, // it does not serve this process's uid
    UMF_FD_NOT_SERVED,  // it serves no fds over a socket (serving disabled)
    UMF_FD_REVOKED,     // it does not export that fd (any more): put or
                        // freed, or its server stopped (nothing listens at
                        // the name while the exporter lives)
    UMF_FD_WRONG_PEER,  // the process that serves the socket is not the
                        // exporter (another process took the name)
    UMF_FD_UNVERIFIED,  // the process that serves the socket cannot be
                        // proven to be the exporter here (another pid
                        // namespace on a kernel without pidfs, no /proc)
    UMF_FD_BUSY,        // the server dropped the request (too many clients)
                        // or did not answer in time, also after retries:
                        // the exporter is alive; try again later
} umf_fd_status_t;

// What the exporter recorded at export, for the consumer to prove that the
// process behind the pid is the exporter and that the fd it took is the
// file exported. A field that is 0 is unknown and not checked.
typedef struct umf_fd_identity_t {
    uint64_t start_time; // umf_proc_start_time() of the exporter
    uint64_t pidfs_ino;  // umf_proc_self_pidfs_ino() of the exporter
    uint64_t dev;        // st_dev of the exported file
    uint64_t ino;        // st_ino of the exported file
} umf_fd_identity_t;

// What went wrong, for the message and for callers that map it further.
typedef struct umf_fd_failure_t {
    umf_fd_status_t status;
    int os_error;     // errno of the failing call (0 for INVALID_ARGUMENT)
    const char *call; // "pidfd_open", "pidfd_getfd", "fcntl(F_DUPFD_CLOEXEC)",
                      // "arguments", or the fd server's: "connect",
                      // "sendmsg", "recvmsg", "fd server", "SO_PEERPIDFD",
                      // "SO_PEERCRED"
    pid_t pid;        // the exporter, as asked
    int remote_fd;    // its fd, as asked
    uint64_t expected, found; // NOT_EXPORTER, WRONG_PEER: pidfd inodes
                              // (call "pidfd_open", "SO_PEERPIDFD") or start
                              // times (else), WRONG_PEER also pids (call
                              // "SO_PEERCRED"); OTHER_FILE: inode numbers;
                              // UID_REFUSED: found = our uid; BUSY: found =
                              // the attempts made
    const char *note;         // NULL, or what the message adds (how the socket
                              // fallback went, a static string)
} umf_fd_failure_t;

// Stores in *local_fd a new close-on-exec fd of this process for fd
// `remote_fd` of process `pid` and returns UMF_FD_OK. Otherwise returns the
// failure's status, leaves *local_fd alone, and fills *why (if not NULL).
// Keeps errno as it was.
//
// With `identity` (may be NULL), it also proves who it takes the fd from,
// right after pidfd_open, whose pidfd pins the process: where the kernel
// names processes by their pidfd's inode (pidfs, Linux 6.9+) the pidfd's
// inode must be the exporter's, which no other process ever has; else the
// start time of the process behind the pid must be the exporter's (read
// from /proc, then the pidfd polled: a process that is still alive held the
// pid during the read, so the check cannot race with the pid's reuse),
// where /proc shows this pid namespace. After pidfd_getfd the fd must be
// the exported file (st_dev, st_ino), else it is closed again; that check
// holds in any namespace.
umf_fd_status_t umf_fd_from_process(pid_t pid, int remote_fd,
                                    const umf_fd_identity_t *identity,
                                    int *local_fd, umf_fd_failure_t *why);

// Writes one line about *why into buf (NUL-terminated, cut to size): the
// call, the process and fd, the OS's reason and, where the OS refused, what
// allows it (for a ptrace refusal, the current Yama ptrace_scope and what
// each setting needs). Returns buf.
const char *umf_fd_failure_describe(const umf_fd_failure_t *why, char *buf,
                                    size_t size);

// What allows this process to take another process's fd, after a refusal
// (PERMISSION): the rule that applies here (a seccomp filter in this
// process, or the ptrace rules with Yama's current setting) and what each
// needs. Also for a driver that takes the memory itself and reports only
// that it was not permitted. Returns buf.
const char *umf_fd_permission_advice(char *buf, size_t size);

// "OK", "NO_PROCESS", ... for messages and tests.
const char *umf_fd_status_name(umf_fd_status_t status);

// The start time of process `pid` in clock ticks after boot (field 22 of
// /proc/<pid>/stat): with the pid, it names a process, since a pid is
// reused only by a later process. Read only where /proc shows this
// process's own pid namespace (else the same number names another
// process). 0 and *ticks set, or an errno value: ESRCH (no such process),
// ENOENT (no /proc of this pid namespace), EIO (unreadable).
int umf_proc_start_time(pid_t pid, uint64_t *ticks);

// Whether this process has no file descriptor left (EMFILE or ENFILE when it
// asks for one): what a failed transfer or mapping most likely ran into.
bool umf_fd_limit_reached(void);

// The inode of a pidfd of this process where pidfds live in pidfs (Linux
// 6.9+), which names this process and no other, ever; 0 on older kernels.
// Read once (and again in the child of a fork).
uint64_t umf_proc_self_pidfs_ino(void);

// This process's umf_proc_start_time(), read once (and again in the child
// of a fork); 0 when it cannot be read.
uint64_t umf_proc_self_start_time(void);

// ---- Proving who a process is, for the fd server's client ----------------

// A new close-on-exec pidfd of process `pid` (pidfd_open(2)), or -1 with
// errno set (ESRCH: no such process; ENOSYS: a kernel before 5.3, or a
// seccomp filter).
int umf_pidfd_open(pid_t pid);

// The inode of `pidfd` where it lives in pidfs (Linux 6.9+): the process's
// identity, the same in every pid namespace and never reused; 0 elsewhere.
uint64_t umf_pidfd_inode(int pidfd);

// Whether the process of `pidfd` has exited, waiting at most `timeout_ms`
// for it (0: only looks).
bool umf_pidfd_exited(int pidfd, int timeout_ms);

// Whether /proc shows this process's own pid namespace (so that a pid
// read there names the process a pid of ours names).
bool umf_proc_is_ours(void);

// The st_dev of the memfds this kernel makes (memfd_create(2) puts every
// one on one internal tmpfs mount, whatever the caller's namespaces):
// measured by this process itself, once, at the first call (never at load),
// so that a consumer whose handle has no room for a device knows the one an
// exported memfd must have, without believing the exporter or whoever
// answers for it. 0 when it cannot be measured now (no fd left; asked again
// at the next call).
uint64_t umf_fd_memfd_dev(void);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_UTIL_FD_H
