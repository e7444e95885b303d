// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An impostor's file for IPC attack tests (issue 27): a regular file named
// as an attacker likes, made on a tmpfs of its own, in a mount namespace of
// its own (and a user namespace of its own, which an unprivileged process
// may make where the kernel allows it), the tmpfs then detached, so that
// /proc/<pid>/fd reads "/<name>" and nothing reachable names the file.
//
// An attacker also gives it the exported file's inode number, by making and
// dropping inodes on its tmpfs (which numbers them one after another) until
// the next one has it. The tests do the equivalent the other way round:
// they give the handle the impostor file's inode number (and recompute its
// checksum, which anyone who forges a handle can): the consumer compares the
// two either way, and the tests stay fast wherever the exported memfds'
// numbers are (in the millions on a machine that ran the suite a while:
// minutes of making inodes).

#ifndef UMF_GPU_TEST_FOREIGN_FILE_H
#define UMF_GPU_TEST_FOREIGN_FILE_H 1

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Makes the file, named `name` (no '/'), of `size` bytes (sparse), in a
// child process, and stores a close-on-exec fd of it in *fd. 0; or -1 with
// errno set and the reason in why (NUL-terminated): EPERM where neither
// root nor an unprivileged user namespace can make a mount namespace here
// (a test skips then, saying why).
int umf_test_foreign_file(const char *name, uint64_t size, int *fd, char *why,
                          size_t why_len);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_TEST_FOREIGN_FILE_H
