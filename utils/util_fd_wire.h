// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fd server's protocol, what its two sides (util_fd_server.c,
// util_fd_client.c) share: the two messages and the address of a socket
// name. One request message per connection, of exactly
// sizeof(umf_fd_wire_request_t); one reply message, carrying the fd
// (SCM_RIGHTS) when the status is OK. Both ends are one machine: host byte
// order. Internal to utils/ (and to tests that speak the protocol).

#ifndef UMF_GPU_UTIL_FD_WIRE_H
#define UMF_GPU_UTIL_FD_WIRE_H 1

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util_fd_socket.h"

#define UMF_FD_WIRE_MAGIC 0x44465055u // "UPFD"
#define UMF_FD_WIRE_VERSION 1u

typedef struct umf_fd_wire_request_t {
    uint32_t magic;
    uint16_t version;
    uint16_t size; // sizeof(umf_fd_wire_request_t)
    int32_t pid;   // the exporter, as it recorded itself
    int32_t fd;    // its fd number
    uint64_t alloc_id;
    uint64_t start_time, pidfs_ino; // the exporter's identity
    uint64_t dev, ino;              // the exported file's
} umf_fd_wire_request_t;

typedef enum umf_fd_wire_status_t {
    UMF_FD_WIRE_OK = 0,
    UMF_FD_WIRE_MALFORMED = 1,
    UMF_FD_WIRE_NOT_EXPORTER = 2, // the request names another process
    UMF_FD_WIRE_REVOKED = 3,      // no such export (any more)
    UMF_FD_WIRE_UID_REFUSED = 4,
    UMF_FD_WIRE_FAILED = 5,  // it could not duplicate the fd (none left)
    UMF_FD_WIRE_BUSY = 6,    // dropped unanswered: too many clients held, or
                             // none of its request within the timeout; the
                             // client may try again
    UMF_FD_WIRE_STOPPED = 7, // the server stops: nothing is exported any more
} umf_fd_wire_status_t;

typedef struct umf_fd_wire_reply_t {
    uint32_t magic;
    uint32_t status; // umf_fd_wire_status_t
    uint32_t uid;    // the peer uid the server saw
    uint32_t reserved;
} umf_fd_wire_reply_t;

// The sockaddr of `n`; its length, or 0 if it cannot be one.
static inline socklen_t umf_fd_wire_addr(const umf_fd_socket_name_t *n,
                                         struct sockaddr_un *addr) {
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    if (n->len == 0 || n->len > UMF_FD_SOCKET_NAME_MAX ||
        memchr(n->name, '\0', n->len) != NULL) {
        return 0;
    }
    if (n->kind == UMF_FD_SOCKET_ABSTRACT) {
        memcpy(addr->sun_path + 1, n->name, n->len); // sun_path[0] = 0
        return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n->len);
    }
    if (n->kind == UMF_FD_SOCKET_PATH && n->name[0] == '/') {
        memcpy(addr->sun_path, n->name, n->len);
        return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n->len + 1);
    }
    return 0;
}

// Closes every fd a received message carried but the first, which it
// returns when `keep_first` (else closes it too; -1 when there was none).
// Fds that did not fit the control buffer the kernel closed itself.
static inline int umf_fd_wire_fds(struct msghdr *msg, int keep_first) {
    int out = -1;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(msg); h != NULL;
         h = CMSG_NXTHDR(msg, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) {
            continue;
        }
        size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
            if (keep_first && out < 0) {
                out = fd;
            } else {
                close(fd);
            }
        }
    }
    return out;
}

#endif // UMF_GPU_UTIL_FD_WIRE_H
