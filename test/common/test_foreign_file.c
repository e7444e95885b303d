// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "test_foreign_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_child.h"

// Where the tmpfs goes, in the child's own mount namespace only.
#define MOUNT_POINT "/tmp"

typedef struct outcome_t {
    int err;
    char why[200];
} outcome_t;

__attribute__((format(printf, 3, 4))) static int failed(outcome_t *o, int err,
                                                        const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->why, sizeof(o->why), fmt, ap);
    va_end(ap);
    o->err = err;
    return -1;
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

// A mount namespace of this process's own, in a user namespace of its own
// where the kernel lets it (as an unprivileged attacker would make it),
// else (root) without one.
static int own_namespaces(outcome_t *o) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0) {
        char map[64];
        snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
        char gmap[64];
        snprintf(gmap, sizeof(gmap), "0 %u 1", (unsigned)gid);
        if (write_file("/proc/self/setgroups", "deny") != 0 ||
            write_file("/proc/self/uid_map", map) != 0 ||
            write_file("/proc/self/gid_map", gmap) != 0) {
            return failed(o, errno, "cannot map uid %u in a user namespace: %s",
                          (unsigned)uid, strerror(errno));
        }
    } else {
        int err = errno;
        if (uid != 0 || unshare(CLONE_NEWNS) != 0) {
            return failed(o, EPERM,
                          "needs root or an unprivileged user namespace "
                          "(unshare(CLONE_NEWUSER): %s)",
                          strerror(err));
        }
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("tmpfs", MOUNT_POINT, "tmpfs", 0, "mode=0700") != 0) {
        return failed(o, errno, "cannot mount a tmpfs of its own: %s",
                      strerror(errno));
    }
    return 0;
}

// The file, on the fresh tmpfs.
static int make_file(const char *name, uint64_t size, outcome_t *o) {
    char path[512];
    snprintf(path, sizeof(path), MOUNT_POINT "/%s", name);
    int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || ftruncate(fd, (off_t)size) != 0) {
        return failed(o, errno, "cannot make %s: %s", path, strerror(errno));
    }
    // Detached: the open file keeps it; its path is its mount's.
    if (umount2(MOUNT_POINT, MNT_DETACH) != 0) {
        close(fd);
        return failed(o, errno, "umount2: %s", strerror(errno));
    }
    return fd;
}

int umf_test_foreign_file(const char *name, uint64_t size, int *fd, char *why,
                          size_t why_len) {
    int sv[2];
    if (strchr(name, '/') != NULL) {
        snprintf(why, why_len, "a file name has no '/': %s", name);
        errno = EINVAL;
        return -1;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(why, why_len, "socketpair: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        // Only system calls here: the parent may have threads.
        close(sv[0]);
        outcome_t o = {0, ""};
        int f = own_namespaces(&o) == 0 ? make_file(name, size, &o) : -1;
        int ok = umf_test_send(sv[1], &o, sizeof(o)) == 0 &&
                 (f < 0 || umf_test_send_fd(sv[1], f) == 0);
        _exit(ok ? 0 : 1);
    }
    close(sv[1]);
    outcome_t o = {EIO, "the child did not answer"};
    int got = -1;
    if (pid < 0) {
        snprintf(o.why, sizeof(o.why), "fork: %s", strerror(errno));
    } else if (umf_test_recv(sv[0], &o, sizeof(o)) == 0 && o.err == 0) {
        got = umf_test_recv_fd(sv[0]);
        if (got < 0) {
            o.err = EIO;
            snprintf(o.why, sizeof(o.why), "the file did not come");
        }
    }
    close(sv[0]);
    if (pid > 0) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    if (got < 0) {
        snprintf(why, why_len, "%s", o.why);
        errno = o.err;
        return -1;
    }
    *fd = got;
    return 0;
}
