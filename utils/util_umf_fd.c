// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_umf_fd.h"

#include "util_umf_log.h"

umf_result_t umf_fd_result_of(umf_fd_status_t status) {
    switch (status) {
    case UMF_FD_OK:
        return UMF_RESULT_SUCCESS;
    case UMF_FD_INVALID_ARGUMENT:
    case UMF_FD_NO_PROCESS:
    case UMF_FD_NO_SUCH_FD:
    case UMF_FD_NOT_EXPORTER:
    case UMF_FD_OTHER_FILE:
    case UMF_FD_REVOKED:
    case UMF_FD_WRONG_PEER:
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    case UMF_FD_PERMISSION:
    case UMF_FD_NOT_SUPPORTED:
    case UMF_FD_UID_REFUSED:
    case UMF_FD_NOT_SERVED:
    case UMF_FD_UNVERIFIED:
        return UMF_RESULT_ERROR_NOT_SUPPORTED;
    case UMF_FD_NO_FDS:
    case UMF_FD_BUSY:
        return UMF_RESULT_ERROR_OUT_OF_RESOURCES;
    default:
        return UMF_RESULT_ERROR_UNKNOWN;
    }
}

umf_result_t umf_fd_take_from(const umf_fd_source_t *src, int *local_fd,
                              umf_fd_failure_t *why) {
    umf_fd_failure_t failure = {0};
    umf_fd_status_t status = umf_fd_take(src, local_fd, &failure);
    if (status != UMF_FD_OK && status != UMF_FD_INVALID_ARGUMENT) {
        char message[768];
        UMF_LOG_ERROR(
            "%s", umf_fd_failure_describe(&failure, message, sizeof(message)));
    }
    if (why != NULL) {
        *why = failure;
    }
    return umf_fd_result_of(status);
}

umf_result_t umf_fd_duplicate_from(pid_t pid, int remote_fd,
                                   const umf_fd_identity_t *identity,
                                   int *local_fd, umf_fd_failure_t *why) {
    umf_fd_source_t src = {pid,      remote_fd, 0,
                           identity, NULL,      UMF_FD_TRANSFER_DEFAULT};
    return umf_fd_take_from(&src, local_fd, why);
}
