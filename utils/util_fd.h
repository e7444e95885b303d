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
} umf_fd_status_t;

// What went wrong, for the message and for callers that map it further.
typedef struct umf_fd_failure_t {
    umf_fd_status_t status;
    int os_error;     // errno of the failing call (0 for INVALID_ARGUMENT)
    const char *call; // "pidfd_open", "pidfd_getfd", "fcntl(F_DUPFD_CLOEXEC)"
                      // or "arguments"
    pid_t pid;        // the exporter, as asked
    int remote_fd;    // its fd, as asked
} umf_fd_failure_t;

// Stores in *local_fd a new close-on-exec fd of this process for fd
// `remote_fd` of process `pid` and returns UMF_FD_OK. Otherwise returns the
// failure's status, leaves *local_fd alone, and fills *why (if not NULL).
// Keeps errno as it was.
umf_fd_status_t umf_fd_from_process(pid_t pid, int remote_fd, int *local_fd,
                                    umf_fd_failure_t *why);

// Writes one line about *why into buf (NUL-terminated, cut to size): the
// call, the process and fd, the OS's reason and, where the OS refused, what
// allows it (for a ptrace refusal, the current Yama ptrace_scope and what
// each setting needs). Returns buf.
const char *umf_fd_failure_describe(const umf_fd_failure_t *why, char *buf,
                                    size_t size);

// "OK", "NO_PROCESS", ... for messages and tests.
const char *umf_fd_status_name(umf_fd_status_t status);

// The start time of process `pid` in clock ticks after boot (field 22 of
// /proc/<pid>/stat): with the pid, it names a process, since a pid is
// reused only by a later process. Read only where /proc shows this
// process's own pid namespace (else the same number names another
// process). 0 and *ticks set, or an errno value: ESRCH (no such process),
// ENOENT (no /proc of this pid namespace), EIO (unreadable).
int umf_proc_start_time(pid_t pid, uint64_t *ticks);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_UTIL_FD_H
