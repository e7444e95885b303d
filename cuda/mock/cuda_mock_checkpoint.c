// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Checkpoint and restore of a process's GPU state (refused;
// cuda_mock_refuse.c). The emulated device memory is the process's own
// memory, which a CPU-side checkpointing tool saves and restores with the
// rest of the process; there is no separate device state to lock, save or
// restore, so after the argument checks (a process id, the out-pointers)
// every call answers CUDA_ERROR_NOT_SUPPORTED.

#include "cuda_mock_core.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define WHY "the emulated devices keep no state outside the process's memory"

static CUresult refuse(int pid, const char *call) {
    if (pid <= 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse(call, WHY);
}

CUDA_MOCK_API CUresult cuCheckpointProcessGetRestoreThreadId(int pid,
                                                             int *tid) {
    CUDA_MOCK_ENTER(cuCheckpointProcessGetRestoreThreadId);
    if (tid == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return refuse(pid, __func__);
}

CUDA_MOCK_API CUresult cuCheckpointProcessGetState(int pid,
                                                   CUprocessState *state) {
    CUDA_MOCK_ENTER(cuCheckpointProcessGetState);
    if (state == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return refuse(pid, __func__);
}

// The args of the four operations are optional.
CUDA_MOCK_API CUresult cuCheckpointProcessLock(int pid,
                                               CUcheckpointLockArgs *args) {
    CUDA_MOCK_ENTER(cuCheckpointProcessLock);
    return refuse(pid, __func__);
}

CUDA_MOCK_API CUresult
cuCheckpointProcessCheckpoint(int pid, CUcheckpointCheckpointArgs *args) {
    CUDA_MOCK_ENTER(cuCheckpointProcessCheckpoint);
    return refuse(pid, __func__);
}

CUDA_MOCK_API CUresult
cuCheckpointProcessRestore(int pid, CUcheckpointRestoreArgs *args) {
    CUDA_MOCK_ENTER(cuCheckpointProcessRestore);
    return refuse(pid, __func__);
}

CUDA_MOCK_API CUresult cuCheckpointProcessUnlock(int pid,
                                                 CUcheckpointUnlockArgs *args) {
    CUDA_MOCK_ENTER(cuCheckpointProcessUnlock);
    return refuse(pid, __func__);
}
