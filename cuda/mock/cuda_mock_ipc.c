// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Legacy CUDA IPC: cuIpcGetMemHandle, cuIpcOpenMemHandle_v2,
// cuIpcCloseMemHandle, with the real driver's semantics:
//
// - A CUipcMemHandle is 64 self-contained bytes (the core's layout,
//   mock_ipc.h: the exporter's pid, its fd, the offset and size of the
//   memory in the file behind it, the allocation id, a magic number and a
//   checksum). Another process opens it with no help from its caller: the
//   driver takes the fd from the exporter itself (pidfd_getfd, or, where the
//   OS refuses it, over the exporter's fd server: util_fd_socket.h, at a
//   name derived from the exporter's pid and identity) and maps it.
// - Opening a handle in the process that made it fails with
//   CUDA_ERROR_INVALID_CONTEXT.
// - Opening it again in the same context returns the same pointer and counts
//   a reference (UMF_GPU_MOCK_CUDA_IPC_REOPEN=already_mapped: fails with
//   CUDA_ERROR_ALREADY_MAPPED, as drivers before CUDA 11 did); each
//   cuIpcCloseMemHandle drops one. "Again" means the same handle, compared
//   field by field: a handle of another exporter with the same pid (a
//   recycled pid) and allocation id is another export and another mapping.
// - The OS refusing the fd transfer (ptrace rules, seccomp) is
//   CUDA_ERROR_NOT_PERMITTED.
// - The importer's mapping stays valid, with its contents, after the
//   exporter frees the allocation, until the importer closes it.

#include "cuda_mock_core.h"

#include <unistd.h>

// What the real driver answers for a pointer that is not the start of a
// device allocation or is not device memory:
// - Interior pointer: success, and the handle of the whole allocation, the
//   same bytes as for its base; the importer gets the base (measured on a
//   GPU in openucx/ucx issue #11724: "cuIpcGetMemHandle(base + offset):
//   CUDA_SUCCESS ... opaque handles are identical"; pytorch/tensorpipe pull
//   request #248: "cudaIpcGetMemHandle() returns a handle to the base
//   address of the allocation"). Programs pass the offset on themselves.
// - Managed memory: CUDA_ERROR_INVALID_VALUE (cupy/cupy issue #9306:
//   ipcGetMemHandle of cudaMallocManaged memory fails with
//   cudaErrorInvalidValue); pinned host memory and memory the driver does
//   not know likewise: cuda.h documents cuIpcGetMemHandle for memory from
//   cuMemAlloc only, and CUDA_ERROR_INVALID_VALUE is its answer for a bad
//   pointer.
CUDA_MOCK_API CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle,
                                         CUdeviceptr dptr) {
    CUDA_MOCK_ENTER(cuIpcGetMemHandle);
    if (pHandle == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    const void *p = (const void *)(uintptr_t)dptr;
    umf_mock_alloc_info_t info;
    if (umf_mock_lookup(p, &info) != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuIpcGetMemHandle(%p): not memory of this driver",
                           p);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (info.kind != UMF_MOCK_KIND_DEVICE ||
        (info.user_flags & (CUDA_MOCK_POOL_MEMORY | CUDA_MOCK_GRAPH_MEMORY)) !=
            0) {
        UMF_MOCK_LOG_ERROR("cuIpcGetMemHandle(%p): %s memory cannot be "
                           "exported, only memory from cuMemAlloc",
                           p,
                           info.kind == UMF_MOCK_KIND_HOST     ? "pinned host"
                           : info.kind == UMF_MOCK_KIND_SHARED ? "managed"
                           : (info.user_flags & CUDA_MOCK_GRAPH_MEMORY) != 0
                               ? "graph (allocation node)"
                           : info.kind == UMF_MOCK_KIND_DEVICE
                               ? "stream-ordered (memory pool)"
                           : info.kind == UMF_MOCK_KIND_MAPPED ? "VMM"
                                                               : "imported");
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_ipc_desc_t desc;
    umf_mock_status_t status = umf_mock_ipc_export(p, false, &desc, NULL);
    if (status != UMF_MOCK_OK) {
        if (status == UMF_MOCK_ERR_NOT_SUPPORTED) {
            UMF_MOCK_LOG_ERROR("cuIpcGetMemHandle(%p): the malloc memory mode "
                               "(UMF_GPU_MOCK_MEMORY=malloc) has no IPC",
                               p);
        }
        return cuda_mock_result_of(status);
    }
    // For importers whose pidfd_getfd the OS refuses: the fd server.
    umf_mock_ipc_serve(&desc, (uint64_t)(uintptr_t)info.base);
    _Static_assert(sizeof(pHandle->reserved) == UMF_MOCK_IPC_HANDLE_BYTES,
                   "CUipcMemHandle is not 64 bytes");
    umf_mock_ipc_pack(&desc, (unsigned char *)pHandle->reserved);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr,
                                             CUipcMemHandle handle,
                                             unsigned int Flags) {
    CUDA_MOCK_ENTER(cuIpcOpenMemHandle_v2);
    if (pdptr == NULL ||
        (Flags & ~(unsigned)CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    umf_mock_ipc_desc_t desc;
    if (umf_mock_ipc_unpack((const unsigned char *)handle.reserved, &desc) !=
        UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuIpcOpenMemHandle_v2: not an IPC handle of this "
                           "driver (malformed or truncated)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (desc.pid == (int)getpid()) {
        UMF_MOCK_LOG_ERROR("cuIpcOpenMemHandle_v2: the handle was made in this "
                           "process; CUDA refuses to open it here (use the "
                           "exported pointer itself)");
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    int fd;
    // pidfd_getfd, or the exporter's fd server (UMF_GPU_IPC_FD_TRANSFER).
    umf_mock_status_t status = umf_mock_ipc_take_fd(&desc, &fd);
    if (status != UMF_MOCK_OK) {
        // The core logged why (the exporter is gone, ptrace rules ...).
        return cuda_mock_result_of(status);
    }
    desc.fd = fd;
    void *p;
    status =
        umf_mock_ipc_import(&desc, cuda_mock_ctx_device(ctx), (uintptr_t)ctx,
                            cuda_mock_ipc_reopen_mode(), &p);
    close(fd); // the import maps it and keeps no reference to the fd
    if (status != UMF_MOCK_OK) {
        if (status == UMF_MOCK_ERR_ALREADY_MAPPED) {
            UMF_MOCK_LOG_INFO("cuIpcOpenMemHandle_v2: the handle is open in "
                              "this context already "
                              "(UMF_GPU_MOCK_CUDA_IPC_REOPEN=already_mapped)");
        }
        return cuda_mock_result_of(status);
    }
    *pdptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuIpcCloseMemHandle(CUdeviceptr dptr) {
    CUDA_MOCK_ENTER(cuIpcCloseMemHandle);
    const void *p = (const void *)(uintptr_t)dptr;
    umf_mock_status_t status = umf_mock_ipc_close(p, 0, NULL);
    if (status != UMF_MOCK_OK) {
        UMF_MOCK_LOG_ERROR("cuIpcCloseMemHandle(%p): %s", p,
                           status == UMF_MOCK_ERR_NOT_FOUND
                               ? "not memory of this driver, or closed already"
                           : status == UMF_MOCK_ERR_NOT_BASE
                               ? "inside a mapping, not its start"
                           : status == UMF_MOCK_ERR_WRONG_KIND
                               ? "not memory opened by cuIpcOpenMemHandle"
                               : umf_mock_status_name(status));
        return cuda_mock_result_of(status);
    }
    return CUDA_SUCCESS;
}
