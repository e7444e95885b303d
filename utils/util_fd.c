// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

static int sys_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

static int sys_pidfd_getfd(int pidfd, int fd) {
#ifdef SYS_pidfd_getfd
    // The new fd is close-on-exec (pidfd_getfd(2) always sets it).
    return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
#else
    (void)pidfd, (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

static umf_fd_status_t status_of(int err) {
    switch (err) {
    case ESRCH:
        return UMF_FD_NO_PROCESS;
    case EBADF:
        return UMF_FD_NO_SUCH_FD;
    case EPERM:
    case EACCES:
        return UMF_FD_PERMISSION;
    case ENOSYS:
        return UMF_FD_NOT_SUPPORTED;
    case EMFILE:
    case ENFILE:
        return UMF_FD_NO_FDS;
    default:
        return UMF_FD_OS_ERROR;
    }
}

static umf_fd_status_t fail(umf_fd_failure_t *why, const char *call, int err,
                            pid_t pid, int remote_fd) {
    umf_fd_status_t status =
        call == NULL ? UMF_FD_INVALID_ARGUMENT : status_of(err);
    if (why != NULL) {
        why->status = status;
        why->os_error = err;
        why->call = call != NULL ? call : "arguments";
        why->pid = pid;
        why->remote_fd = remote_fd;
        why->expected = why->found = 0;
        why->note = NULL;
    }
    return status;
}

// A failed identity check: `status`, with what was expected and found.
static umf_fd_status_t mismatch(umf_fd_failure_t *why, umf_fd_status_t status,
                                const char *call, pid_t pid, int remote_fd,
                                uint64_t expected, uint64_t found) {
    if (why != NULL) {
        why->status = status;
        why->os_error = 0;
        why->call = call;
        why->pid = pid;
        why->remote_fd = remote_fd;
        why->expected = expected;
        why->found = found;
        why->note = NULL;
    }
    return status;
}

int umf_pidfd_open(pid_t pid) {
    return sys_pidfd_open(pid);
}

bool umf_pidfd_exited(int pidfd, int timeout_ms) {
    // Readable once the process has exited. EINTR looks again, with the
    // whole timeout: a rare signal only makes the wait longer.
    struct pollfd p = {.fd = pidfd, .events = POLLIN, .revents = 0};
    int n;
    do {
        n = poll(&p, 1, timeout_ms);
    } while (n < 0 && errno == EINTR);
    return n > 0 && (p.revents & (POLLIN | POLLHUP)) != 0;
}

// The process check, with `pidfd` pinning the process behind `pid`: by the
// pidfd's inode where the exporter recorded one, else by start time.
static umf_fd_status_t check_process(int pidfd, pid_t pid, int remote_fd,
                                     const umf_fd_identity_t *identity,
                                     umf_fd_failure_t *why) {
    if (identity->pidfs_ino != 0) {
        struct stat st;
        if (fstat(pidfd, &st) != 0) {
            return fail(why, "fstat(pidfd)", errno, pid, remote_fd);
        }
        if ((uint64_t)st.st_ino != identity->pidfs_ino) {
            return mismatch(why, UMF_FD_NOT_EXPORTER, "pidfd_open", pid,
                            remote_fd, identity->pidfs_ino,
                            (uint64_t)st.st_ino);
        }
        return UMF_FD_OK;
    }
    if (identity->start_time == 0) {
        return UMF_FD_OK;
    }
    uint64_t start_time = identity->start_time;
    uint64_t now = 0;
    int err = umf_proc_start_time(pid, &now);
    if (err == ENOENT || err == EIO) {
        return UMF_FD_OK; // no /proc of ours: the file check has to do
    }
    // Read before the poll: if the pidfd's process is still alive, the pid
    // was its own all along, so what was read was its start time.
    if (err == ESRCH || (pidfd >= 0 && umf_pidfd_exited(pidfd, 0))) {
        return fail(why, "pidfd_open", ESRCH, pid, remote_fd);
    }
    if (err != 0) {
        return fail(why, "/proc/<pid>/stat", err, pid, remote_fd);
    }
    if (now != start_time) {
        return mismatch(why, UMF_FD_NOT_EXPORTER, "/proc/<pid>/stat", pid,
                        remote_fd, start_time, now);
    }
    return UMF_FD_OK;
}

// The file check on the fd taken; closes it on a mismatch.
static umf_fd_status_t check_file(int fd, pid_t pid, int remote_fd,
                                  const umf_fd_identity_t *identity,
                                  umf_fd_failure_t *why) {
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return fail(why, "fstat", err, pid, remote_fd);
    }
    if ((identity->ino != 0 && (uint64_t)st.st_ino != identity->ino) ||
        (identity->dev != 0 && (uint64_t)st.st_dev != identity->dev)) {
        close(fd);
        return mismatch(why, UMF_FD_OTHER_FILE, "pidfd_getfd", pid, remote_fd,
                        identity->ino, (uint64_t)st.st_ino);
    }
    return UMF_FD_OK;
}

// Takes the fd from another process: pidfd_open, the process check,
// pidfd_getfd. The fd in *fd, or a failure.
static umf_fd_status_t take_remote(pid_t pid, int remote_fd,
                                   const umf_fd_identity_t *identity, int *fd,
                                   umf_fd_failure_t *why) {
    int pidfd = sys_pidfd_open(pid);
    if (pidfd < 0) {
        return fail(why, "pidfd_open", errno, pid, remote_fd);
    }
    umf_fd_status_t status =
        identity != NULL ? check_process(pidfd, pid, remote_fd, identity, why)
                         : UMF_FD_OK;
    if (status == UMF_FD_OK) {
        *fd = sys_pidfd_getfd(pidfd, remote_fd);
        if (*fd < 0) {
            status = fail(why, "pidfd_getfd", errno, pid, remote_fd);
        }
    }
    close(pidfd);
    return status;
}

umf_fd_status_t umf_fd_from_process(pid_t pid, int remote_fd,
                                    const umf_fd_identity_t *identity,
                                    int *local_fd, umf_fd_failure_t *why) {
    if (pid <= 0 || remote_fd < 0 || local_fd == NULL) {
        return fail(why, NULL, 0, pid, remote_fd);
    }
    int saved_errno = errno;
    umf_fd_status_t status = UMF_FD_OK;
    int fd = -1;
    if (pid == getpid()) {
        // An exporter with this pid but another start time was an earlier
        // process: the fd number would name one of ours.
        uint64_t self_ino = umf_proc_self_pidfs_ino();
        uint64_t self = umf_proc_self_start_time();
        if (identity != NULL && identity->pidfs_ino != 0 && self_ino != 0 &&
            self_ino != identity->pidfs_ino) {
            status = mismatch(why, UMF_FD_NOT_EXPORTER, "pidfd_open", pid,
                              remote_fd, identity->pidfs_ino, self_ino);
        } else if (identity != NULL && identity->pidfs_ino == 0 &&
                   identity->start_time != 0 && self != 0 &&
                   self != identity->start_time) {
            status = mismatch(why, UMF_FD_NOT_EXPORTER, "/proc/self/stat", pid,
                              remote_fd, identity->start_time, self);
        } else {
            fd = fcntl(remote_fd, F_DUPFD_CLOEXEC, 0);
            if (fd < 0) {
                status =
                    fail(why, "fcntl(F_DUPFD_CLOEXEC)", errno, pid, remote_fd);
            }
        }
    } else {
        status = take_remote(pid, remote_fd, identity, &fd, why);
    }
    if (status == UMF_FD_OK && identity != NULL) {
        status = check_file(fd, pid, remote_fd, identity, why);
    }
    if (status == UMF_FD_OK) {
        *local_fd = fd;
    }
    errno = saved_errno;
    return status;
}

// /proc/sys/kernel/yama/ptrace_scope, or -1 where Yama is not on.
static int yama_ptrace_scope(void) {
    int fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    char c = 0;
    ssize_t n = read(fd, &c, 1);
    close(fd);
    return n == 1 && c >= '0' && c <= '9' ? c - '0' : -1;
}

// Whether a seccomp filter is installed in this process ("Seccomp: 2" in
// /proc/self/status), as container runtimes install one.
static bool seccomp_filtered(void) {
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0) {
        return false;
    }
    buf[n] = '\0';
    const char *line = strstr(buf, "\nSeccomp:");
    return line != NULL && atoi(line + strlen("\nSeccomp:")) == 2;
}

const char *umf_fd_permission_advice(char *buf, size_t size) {
    if (buf == NULL || size == 0) {
        return buf;
    }
    long self = (long)getpid();
    if (seccomp_filtered()) {
        snprintf(buf, size,
                 "a seccomp filter in this process (pid %ld) refuses it, as "
                 "container runtimes' default profiles refuse pidfd_getfd "
                 "without CAP_SYS_PTRACE: allow pidfd_getfd in the profile, "
                 "or give this process CAP_SYS_PTRACE",
                 self);
        return buf;
    }
    // The rule, what Yama adds, and where this machine stands.
    int scope = yama_ptrace_scope();
    char here[16] = "not on";
    if (scope >= 0) {
        snprintf(here, sizeof(here), "%d", scope);
    }
    snprintf(buf, size,
             "taking an fd from another process needs ptrace access to it: "
             "the same user and a dumpable exporter (not setuid, no "
             "prctl(PR_SET_DUMPABLE, 0)), or CAP_SYS_PTRACE in this process "
             "(pid %ld); Yama's ptrace_scope 1 also needs the exporter's "
             "prctl(PR_SET_PTRACER, %ld or PR_SET_PTRACER_ANY), 2 needs "
             "CAP_SYS_PTRACE, 3 forbids it (Yama here: %s)",
             self, self, here);
    return buf;
}

// What a failed identity check compared, by the call that found it: pidfd
// inodes, pids, or start times.
static void identity_reason(const umf_fd_failure_t *why, char *reason,
                            size_t size) {
    const char *what = strcmp(why->call, "SO_PEERCRED") == 0 ? "pid"
                       : strcmp(why->call, "pidfd_open") == 0 ||
                               strcmp(why->call, "SO_PEERPIDFD") == 0
                           ? "pidfd inode"
                           : "start time";
    snprintf(reason, size, "%s %llu, the exporter's %llu", what,
             (unsigned long long)why->found, (unsigned long long)why->expected);
}

const char *umf_fd_failure_describe(const umf_fd_failure_t *why, char *buf,
                                    size_t size) {
    if (buf == NULL || size == 0) {
        return buf;
    }
    if (why == NULL) {
        snprintf(buf, size, "no failure");
        return buf;
    }
    char reason[128];
    if (why->os_error != 0) {
        snprintf(reason, sizeof(reason), "%s", strerror(why->os_error));
    } else {
        snprintf(reason, sizeof(reason), "invalid argument");
    }
    const char *what;
    switch (why->status) {
    case UMF_FD_INVALID_ARGUMENT:
        what = "a process id > 0, an fd >= 0 and an out-pointer are needed";
        break;
    case UMF_FD_NO_PROCESS:
        what = "no such process: the exporting process has exited";
        break;
    case UMF_FD_NO_SUCH_FD:
        what = "the exporting process has no such open fd: the handle was "
               "released there, or is malformed";
        break;
    case UMF_FD_PERMISSION:
        what = "taking an fd from another process needs ptrace access to it";
        break;
    case UMF_FD_NOT_SUPPORTED:
        what = "the kernel lacks pidfd_open/pidfd_getfd (Linux 5.6 or newer "
               "is needed to share memory between processes)";
        break;
    case UMF_FD_NO_FDS:
        what = "out of file descriptors";
        break;
    case UMF_FD_NOT_EXPORTER:
        what = "the exporter has exited: the process with its pid now is "
               "another one";
        identity_reason(why, reason, sizeof(reason));
        break;
    case UMF_FD_OTHER_FILE:
        what = "the fd is another file than the one exported: the exporter "
               "has exited (its pid and fd number reused) or released the "
               "handle";
        snprintf(reason, sizeof(reason), "inode %llu, exported: %llu",
                 (unsigned long long)why->found,
                 (unsigned long long)why->expected);
        break;
    case UMF_FD_UID_REFUSED:
        what = "the exporter's fd server does not serve this uid: the "
               "exporter allows its own uid only, unless its allow-list (a "
               "provider parameter, or UMF_GPU_IPC_ALLOWED_UIDS) names more";
        snprintf(reason, sizeof(reason), "uid %llu not allowed",
                 (unsigned long long)why->found);
        break;
    case UMF_FD_NOT_SERVED:
        what = "the exporter serves no fds over a socket (serving disabled: "
               "its fd transfer is 'pidfd', UMF_GPU_IPC_FD_TRANSFER or the "
               "provider parameter)";
        snprintf(reason, sizeof(reason), "serving disabled");
        break;
    case UMF_FD_REVOKED:
        what = "the exporter's fd server does not export that fd (any more): "
               "the handle was put or the allocation freed, or the server "
               "stopped (the providers that exported were destroyed)";
        snprintf(reason, sizeof(reason), "not exported");
        break;
    case UMF_FD_WRONG_PEER:
        what = "the process that serves the exporter's socket is not the "
               "exporter: the exporter has exited and another process took "
               "its socket name; no fd was taken from it";
        identity_reason(why, reason, sizeof(reason));
        break;
    case UMF_FD_UNVERIFIED:
        what = "cannot prove that the process serving the exporter's socket "
               "is the exporter: it is in another pid namespace (or /proc "
               "shows another one) and the kernel has no pidfs (Linux 6.9+), "
               "whose pidfd inodes name a process in every namespace; share "
               "a pid namespace with the exporter, or let pidfd_getfd work";
        snprintf(reason, sizeof(reason), "server not authenticated");
        break;
    case UMF_FD_BUSY:
        what = "the exporter's fd server dropped the request or did not "
               "answer in time (too many clients at once, or the exporter is "
               "stopped); the exporter is alive: try again later";
        snprintf(reason, sizeof(reason), "%s after %llu attempts",
                 why->os_error == ETIMEDOUT ? "timed out" : "dropped",
                 (unsigned long long)why->found);
        break;
    default:
        what = "cannot take the fd";
        break;
    }
    const char *sep = why->note != NULL ? "; " : "";
    const char *note = why->note != NULL ? why->note : "";
    if (why->status == UMF_FD_PERMISSION) {
        char advice[400];
        snprintf(buf, size, "%s(pid %ld, fd %d): %s; %s%s%s", why->call,
                 (long)why->pid, why->remote_fd, reason,
                 umf_fd_permission_advice(advice, sizeof(advice)), sep, note);
    } else {
        snprintf(buf, size, "%s(pid %ld, fd %d): %s; %s%s%s", why->call,
                 (long)why->pid, why->remote_fd, reason, what, sep, note);
    }
    return buf;
}

const char *umf_fd_status_name(umf_fd_status_t status) {
    static const char *const names[] = {
        "OK",           "INVALID_ARGUMENT", "NO_PROCESS",  "NO_SUCH_FD",
        "PERMISSION",   "NOT_SUPPORTED",    "NO_FDS",      "OS_ERROR",
        "NOT_EXPORTER", "OTHER_FILE",       "UID_REFUSED", "NOT_SERVED",
        "REVOKED",      "WRONG_PEER",       "UNVERIFIED",  "BUSY",
    };
    return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status]
                                                               : "UNKNOWN";
}

// What this process learns about itself once (and again in the child of a
// fork, which is another process): 0 until read, UINT64_MAX read and
// unknown (or false).
static _Atomic uint64_t self_start_time, self_pidfs_ino, self_proc_ours;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

static void forget_self(void) {
    atomic_store_explicit(&self_start_time, 0, memory_order_relaxed);
    atomic_store_explicit(&self_pidfs_ino, 0, memory_order_relaxed);
    atomic_store_explicit(&self_proc_ours, 0, memory_order_relaxed);
}

static void register_forget(void) {
    (void)pthread_atfork(NULL, NULL, forget_self);
}

// The value kept in *slot, or read(): what a process learns once.
static uint64_t learn_once(_Atomic uint64_t *slot, uint64_t (*read)(void)) {
    uint64_t v = atomic_load_explicit(slot, memory_order_relaxed);
    if (v == 0) {
        pthread_once(&self_once, register_forget);
        v = read();
        v = v != 0 ? v : UINT64_MAX;
        atomic_store_explicit(slot, v, memory_order_relaxed);
    }
    return v != UINT64_MAX ? v : 0;
}

// Whether /proc shows this process's pid namespace: its "self" names our pid.
static uint64_t read_proc_ours(void) {
    char link[32];
    ssize_t n = readlink("/proc/self", link, sizeof(link) - 1);
    if (n <= 0) {
        return 0;
    }
    link[n] = '\0';
    return strtol(link, NULL, 10) == (long)getpid();
}

static bool proc_is_ours(void) {
    return learn_once(&self_proc_ours, read_proc_ours) != 0;
}

bool umf_proc_is_ours(void) {
    return proc_is_ours();
}

int umf_proc_start_time(pid_t pid, uint64_t *ticks) {
    if (pid <= 0 || ticks == NULL) {
        return EINVAL;
    }
    if (!proc_is_ours()) {
        return ENOENT;
    }
    char path[48], buf[1024];
    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return errno == ENOENT ? ESRCH : errno;
    }
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    int err = errno;
    close(fd);
    if (n <= 0) {
        return n == 0 ? ESRCH : err; // ESRCH: it exited while we read
    }
    buf[n] = '\0';
    // "pid (comm) state ppid ...": comm may hold anything, ')' included, so
    // the fields start after the last ')'. Field 3 follows it; starttime is
    // field 22.
    char *p = strrchr(buf, ')');
    if (p == NULL) {
        return EIO;
    }
    p++;
    for (int field = 3; field < 22; field++) {
        p = strchr(p + 1, ' ');
        if (p == NULL) {
            return EIO;
        }
    }
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(p + 1, &end, 10);
    if (end == p + 1 || errno != 0) {
        return EIO;
    }
    *ticks = (uint64_t)v;
    return 0;
}

static uint64_t read_self_start_time(void) {
    uint64_t t = 0;
    return umf_proc_start_time(getpid(), &t) == 0 ? t : 0;
}

uint64_t umf_proc_self_start_time(void) {
    return learn_once(&self_start_time, read_self_start_time);
}

// The magic number of pidfs (include/uapi/linux/magic.h, Linux 6.9).
#define PIDFS_MAGIC_NUMBER 0x50494446

uint64_t umf_pidfd_inode(int pidfd) {
    struct statfs fs;
    struct stat st;
    if (fstatfs(pidfd, &fs) == 0 && fs.f_type == PIDFS_MAGIC_NUMBER &&
        fstat(pidfd, &st) == 0) {
        return (uint64_t)st.st_ino;
    }
    return 0;
}

static uint64_t read_self_pidfs_ino(void) {
    int pidfd = sys_pidfd_open(getpid());
    if (pidfd < 0) {
        return 0;
    }
    uint64_t ino = umf_pidfd_inode(pidfd);
    close(pidfd);
    return ino;
}

uint64_t umf_proc_self_pidfs_ino(void) {
    return learn_once(&self_pidfs_ino, read_self_pidfs_ino);
}

// Measured once: every memfd of a boot is on one mount, so the answer never
// changes (not after a fork, not in another namespace). 0 until measured.
static _Atomic uint64_t memfd_dev;

uint64_t umf_fd_memfd_dev(void) {
    uint64_t dev = atomic_load_explicit(&memfd_dev, memory_order_relaxed);
    if (dev != 0) {
        return dev;
    }
    int saved_errno = errno;
    int fd = memfd_create("umf-gpu-memfd-dev", MFD_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0) {
        dev = (uint64_t)st.st_dev;
        atomic_store_explicit(&memfd_dev, dev, memory_order_relaxed);
    }
    if (fd >= 0) {
        close(fd);
    }
    errno = saved_errno;
    return dev;
}

bool umf_fd_limit_reached(void) {
    int saved_errno = errno;
    int fd = eventfd(0, EFD_CLOEXEC); // an fd that needs no file system
    bool out = fd < 0 && (errno == EMFILE || errno == ENFILE);
    if (fd >= 0) {
        close(fd);
    }
    errno = saved_errno;
    return out;
}
