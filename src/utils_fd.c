// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "utils_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

#include "log.h"

static umf_result_t map_errno(int err, pid_t pid, int remote_fd,
                              const char *call) {
    switch (err) {
    case ESRCH:
        UMF_LOG_ERROR("%s(pid=%ld): no such process; the producer of the IPC "
                      "handle has exited",
                      call, (long)pid);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    case EBADF:
        UMF_LOG_ERROR("%s(pid=%ld, fd=%d): the producer has no such open fd; "
                      "the IPC handle was released or is malformed",
                      call, (long)pid, remote_fd);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    case EPERM:
    case EACCES:
        UMF_LOG_ERROR(
            "%s(pid=%ld, fd=%d): %s. Taking an fd from another process needs "
            "ptrace permission over it: run both as the same user, and where "
            "Yama is on (/proc/sys/kernel/yama/ptrace_scope = 1) let the "
            "producer allow it with prctl(PR_SET_PTRACER, consumer_pid or "
            "PR_SET_PTRACER_ANY), or give the consumer CAP_SYS_PTRACE",
            call, (long)pid, remote_fd, strerror(err));
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    case ENOSYS:
        UMF_LOG_ERROR("%s: the kernel lacks pidfd support (Linux 5.6 or newer "
                      "is needed for cross-process IPC)",
                      call);
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    case EMFILE:
    case ENFILE:
        UMF_LOG_ERROR("%s(pid=%ld, fd=%d): out of file descriptors", call,
                      (long)pid, remote_fd);
        return UMF_RESULT_ERROR_OUT_OF_RESOURCES;
    default:
        UMF_LOG_ERROR("%s(pid=%ld, fd=%d) failed: %s", call, (long)pid,
                      remote_fd, strerror(err));
        return UMF_RESULT_ERROR_UNKNOWN;
    }
}

umf_result_t umf_fd_duplicate_from(pid_t pid, int remote_fd, int *local_fd,
                                   int *os_error) {
    if (os_error != NULL) {
        *os_error = 0;
    }
    if (pid <= 0 || remote_fd < 0 || local_fd == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }

    int fd, err;
    const char *call;
    if (pid == getpid()) {
        call = "fcntl(F_DUPFD_CLOEXEC)";
        fd = fcntl(remote_fd, F_DUPFD_CLOEXEC, 0);
    } else {
        call = "pidfd_open";
        int pidfd = pidfd_open(pid, 0);
        if (pidfd < 0) {
            fd = -1;
        } else {
            call = "pidfd_getfd";
            fd = pidfd_getfd(pidfd, remote_fd, 0);
            err = errno;
            close(pidfd);
            errno = err;
        }
    }
    if (fd < 0) {
        err = errno;
        if (os_error != NULL) {
            *os_error = err;
        }
        return map_errno(err, pid, remote_fd, call);
    }
    *local_fd = fd;
    return UMF_RESULT_SUCCESS;
}
