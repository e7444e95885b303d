// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "sock_io.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>

int sock_send_all(int sock, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(sock, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int sock_recv_all(int sock, void *buf, size_t len) {
    char *p = buf;
    while (len > 0) {
        ssize_t n = recv(sock, p, len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n == 0) {
            errno = 0; // the other side closed
        }
        if (n <= 0) {
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}
