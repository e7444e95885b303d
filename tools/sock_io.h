// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Exact-length transfers over a stream socket, for the programs that hand IPC
// data to a child process (umf-gpu-demo, umf-gpu-bench).

#ifndef UMF_GPU_TOOLS_SOCK_IO_H
#define UMF_GPU_TOOLS_SOCK_IO_H 1

#include <stddef.h>

// Sends or receives exactly `len` bytes, retrying after signals and partial
// transfers. 0, or -1 on an error (errno set) or when the other side closed
// the socket (errno 0).
int sock_send_all(int sock, const void *buf, size_t len);
int sock_recv_all(int sock, void *buf, size_t len);

#endif // UMF_GPU_TOOLS_SOCK_IO_H
