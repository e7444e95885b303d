// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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
    }
    return status;
}

umf_fd_status_t umf_fd_from_process(pid_t pid, int remote_fd, int *local_fd,
                                    umf_fd_failure_t *why) {
    if (pid <= 0 || remote_fd < 0 || local_fd == NULL) {
        return fail(why, NULL, 0, pid, remote_fd);
    }
    int saved_errno = errno;
    umf_fd_status_t status = UMF_FD_OK;
    int fd;
    if (pid == getpid()) {
        fd = fcntl(remote_fd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0) {
            status = fail(why, "fcntl(F_DUPFD_CLOEXEC)", errno, pid, remote_fd);
        }
    } else {
        int pidfd = sys_pidfd_open(pid);
        if (pidfd < 0) {
            fd = -1;
            status = fail(why, "pidfd_open", errno, pid, remote_fd);
        } else {
            fd = sys_pidfd_getfd(pidfd, remote_fd);
            if (fd < 0) {
                status = fail(why, "pidfd_getfd", errno, pid, remote_fd);
            }
            close(pidfd);
        }
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
    default:
        what = "cannot take the fd";
        break;
    }
    if (why->status == UMF_FD_PERMISSION) {
        // The one advice text: the rule, what Yama adds, and where this
        // machine stands.
        long self = (long)getpid();
        int scope = yama_ptrace_scope();
        char here[16] = "not on";
        if (scope >= 0) {
            snprintf(here, sizeof(here), "%d", scope);
        }
        snprintf(buf, size,
                 "%s(pid %ld, fd %d): %s; %s: the same user and an exporter "
                 "that is dumpable (not setuid, no prctl(PR_SET_DUMPABLE, 0)), "
                 "or CAP_SYS_PTRACE in this process (pid %ld); where Yama's "
                 "ptrace_scope is 1 the exporter must also allow this process "
                 "with prctl(PR_SET_PTRACER, %ld or PR_SET_PTRACER_ANY), 2 "
                 "needs CAP_SYS_PTRACE, 3 forbids it (Yama here: %s)",
                 why->call, (long)why->pid, why->remote_fd, reason, what, self,
                 self, here);
    } else {
        snprintf(buf, size, "%s(pid %ld, fd %d): %s; %s", why->call,
                 (long)why->pid, why->remote_fd, reason, what);
    }
    return buf;
}

const char *umf_fd_status_name(umf_fd_status_t status) {
    static const char *const names[] = {
        "OK",         "INVALID_ARGUMENT", "NO_PROCESS", "NO_SUCH_FD",
        "PERMISSION", "NOT_SUPPORTED",    "NO_FDS",     "OS_ERROR",
    };
    return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status]
                                                               : "UNKNOWN";
}

// Whether /proc shows this process's pid namespace: its "self" names our pid.
static bool proc_is_ours(void) {
    char link[32];
    ssize_t n = readlink("/proc/self", link, sizeof(link) - 1);
    if (n <= 0) {
        return false;
    }
    link[n] = '\0';
    return strtol(link, NULL, 10) == (long)getpid();
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
