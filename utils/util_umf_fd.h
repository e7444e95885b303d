// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Duplicating another process's file descriptor into this one, with
// pidfd_open(2) and pidfd_getfd(2). This is how an IPC consumer gets the fd
// behind a GPU driver's IPC handle, which is only valid in the producer.
// The library's face of utils/util_fd.h: its results as umf_result_t, and
// its message (with the advice when the OS refuses) in the library's log.

#ifndef UMF_GPU_UTIL_UMF_FD_H
#define UMF_GPU_UTIL_UMF_FD_H 1

#include <sys/types.h>

#include <umf/base.h>

#include "util_fd.h"
#include "util_fd_socket.h"

// Duplicates `remote_fd` of process `pid` into this process, close-on-exec,
// and stores it in *local_fd, after proving with `identity` (may be NULL)
// that the process is the exporter and the fd the file it exported
// (util_fd.h). In the calling process itself it is a dup. *why (if not
// NULL) gets what failed; a failure is logged once, with what allows it.
//
// Results:
//   UMF_RESULT_SUCCESS
//   UMF_RESULT_ERROR_INVALID_ARGUMENT  bad arguments; no such process (ESRCH)
//                                      or another one with its pid; no such
//                                      fd in it (EBADF) or another file:
//                                      malformed or stale data
//   UMF_RESULT_ERROR_NOT_SUPPORTED     the kernel lacks pidfd (ENOSYS), or the
//                                      caller may not ptrace the producer
//                                      (EPERM, EACCES: ptrace rules, seccomp)
//   UMF_RESULT_ERROR_OUT_OF_RESOURCES  this process is out of fds
//   UMF_RESULT_ERROR_UNKNOWN           any other errno
umf_result_t umf_fd_duplicate_from(pid_t pid, int remote_fd,
                                   const umf_fd_identity_t *identity,
                                   int *local_fd, umf_fd_failure_t *why);

// The same for an fd that the exporter may also serve over its fd server
// (util_fd_socket.h: pidfd_getfd first, the socket as src->transfer says).
// Also:
//   UMF_RESULT_ERROR_NOT_SUPPORTED     the exporter's server refused this uid,
//                                      or serves nothing (serving disabled),
//                                      or this process cannot prove that the
//                                      process serving it is the exporter
//                                      (another pid namespace without pidfs)
//   UMF_RESULT_ERROR_INVALID_ARGUMENT  the server no longer exports the fd
//                                      (put, freed, its server stopped), or
//                                      another process than the exporter
//                                      serves its socket name
//   UMF_RESULT_ERROR_OUT_OF_RESOURCES  the server dropped the request or did
//                                      not answer in time, also after a few
//                                      retries (too many clients): the
//                                      exporter is alive; try again later
umf_result_t umf_fd_take_from(const umf_fd_source_t *src, int *local_fd,
                              umf_fd_failure_t *why);

// The result umf_fd_duplicate_from() gives for `status`.
umf_result_t umf_fd_result_of(umf_fd_status_t status);

#endif // UMF_GPU_UTIL_UMF_FD_H
