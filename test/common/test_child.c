// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "test_child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROLE_FLAG "--umf-test-child="
#define CHILD_SOCK_FD 3
#define MAX_ROLES 128
#define MAX_ARGS 64

static struct {
    const char *name;
    umf_test_child_fn fn;
} roles[MAX_ROLES];
static int role_count;
static atomic_int failures;

extern char **environ;

void umf_test_child_fail(const char *file, int line, const char *fmt, ...) {
    char what[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof(what), fmt, args);
    va_end(args);
    // One write per failure, so that lines of several threads do not mix.
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    atomic_fetch_add(&failures, 1);
}

int umf_test_child_failures(void) {
    return atomic_load(&failures);
}

void umf_test_child_register(const char *name, umf_test_child_fn fn) {
    if (role_count == MAX_ROLES) {
        fprintf(stderr, "too many UMF_TEST_CHILD roles (max %d)\n", MAX_ROLES);
        abort();
    }
    roles[role_count].name = name;
    roles[role_count].fn = fn;
    role_count++;
}

bool umf_test_child_dispatch(int argc, char **argv, int *status) {
    if (argc < 2 || strncmp(argv[1], ROLE_FLAG, strlen(ROLE_FLAG)) != 0) {
        return false;
    }
    const char *name = argv[1] + strlen(ROLE_FLAG);
    for (int i = 0; i < role_count; i++) {
        if (strcmp(roles[i].name, name) == 0) {
            *status = roles[i].fn(CHILD_SOCK_FD, argc - 2, argv + 2);
            close(CHILD_SOCK_FD);
            int failed = umf_test_child_failures();
            if (failed > 0) {
                fprintf(stderr, "child role %s: %d checks failed\n", name,
                        failed);
                if (*status == 0) {
                    *status = 1;
                }
            }
            return true;
        }
    }
    fprintf(stderr, "unknown child role '%s'\n", name);
    *status = 127;
    return true;
}

// NAME's length in an environment entry or assignment ("NAME=value" or
// "NAME").
static size_t env_name_len(const char *entry) {
    const char *eq = strchr(entry, '=');
    return eq != NULL ? (size_t)(eq - entry) : strlen(entry);
}

static bool env_overridden(const char *entry, const char *const *env) {
    size_t len = env_name_len(entry);
    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        if (env_name_len(env[i]) == len && strncmp(entry, env[i], len) == 0) {
            return true;
        }
    }
    return false;
}

// The child's environment: the parent's, less the names `env` sets or
// removes, plus its assignments. NULL (errno set) when out of memory.
static char **child_environment(const char *const *env) {
    size_t count = 0, added = 0;
    while (environ != NULL && environ[count] != NULL) {
        count++;
    }
    while (env != NULL && env[added] != NULL) {
        added++;
    }
    char **envp = malloc((count + added + 1) * sizeof(*envp));
    if (envp == NULL) {
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (!env_overridden(environ[i], env)) {
            envp[n++] = environ[i];
        }
    }
    for (size_t i = 0; i < added; i++) {
        if (strchr(env[i], '=') != NULL) {
            envp[n++] = (char *)env[i];
        }
    }
    envp[n] = NULL;
    return envp;
}

int umf_test_child_start_env(umf_test_child_t *child, const char *name,
                             const char *const *args, const char *const *env) {
    char role[256];
    if (child == NULL || name == NULL ||
        snprintf(role, sizeof(role), ROLE_FLAG "%s", name) >=
            (int)sizeof(role)) {
        errno = EINVAL;
        return -1;
    }
    char *argv[MAX_ARGS + 3];
    int argc = 0;
    argv[argc++] = (char *)"umf-test-child";
    argv[argc++] = role;
    for (int i = 0; args != NULL && args[i] != NULL; i++) {
        if (argc == MAX_ARGS + 2) {
            errno = E2BIG;
            return -1;
        }
        argv[argc++] = (char *)args[i];
    }
    argv[argc] = NULL;
    char **envp = child_environment(env);
    if (envp == NULL) {
        return -1;
    }

    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        int err = errno;
        free(envp);
        errno = err;
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(sv[0]);
        close(sv[1]);
        free(envp);
        errno = err;
        return -1;
    }
    if (pid == 0) {
        // Only async-signal-safe calls until exec.
        if (sv[1] == CHILD_SOCK_FD) {
            fcntl(CHILD_SOCK_FD, F_SETFD, 0);
        } else if (dup2(sv[1], CHILD_SOCK_FD) < 0) {
            _exit(126);
        }
        execve("/proc/self/exe", argv, envp);
        _exit(126);
    }
    free(envp);
    close(sv[1]);
    child->pid = pid;
    child->sock = sv[0];
    return 0;
}

int umf_test_child_start(umf_test_child_t *child, const char *name,
                         const char *const *args) {
    return umf_test_child_start_env(child, name, args, NULL);
}

int umf_test_child_wait(umf_test_child_t *child) {
    if (child == NULL || child->pid <= 0) {
        errno = EINVAL;
        return -1;
    }
    if (child->sock >= 0) {
        close(child->sock);
        child->sock = -1;
    }
    int status;
    pid_t r;
    do {
        r = waitpid(child->pid, &status, 0);
    } while (r < 0 && errno == EINTR);
    child->pid = -1;
    if (r < 0) {
        return -1;
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return -1;
}

int umf_test_child_kill(umf_test_child_t *child, int sig) {
    if (child == NULL || child->pid <= 0) {
        errno = EINVAL;
        return -1;
    }
    kill(child->pid, sig);
    return umf_test_child_wait(child);
}

int umf_test_send(int sock, const void *buf, size_t len) {
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

int umf_test_recv(int sock, void *buf, size_t len) {
    char *p = buf;
    while (len > 0) {
        ssize_t n = recv(sock, p, len, 0);
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

int umf_test_send_fd(int sock, int fd) {
    char byte = 'F';
    return umf_test_send_fd_with(sock, &byte, 1, fd);
}

int umf_test_send_fd_with(int sock, const void *buf, size_t len, int fd) {
    struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.buf,
                         .msg_controllen = sizeof(control.buf)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    ssize_t n;
    do {
        n = sendmsg(sock, &msg, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n == (ssize_t)len ? 0 : -1;
}

long umf_test_recv_msg(int sock, void *buf, size_t len, int flags, int *fd) {
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(4 * sizeof(int))];
    } control;
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.buf,
                         .msg_controllen = sizeof(control.buf)};
    ssize_t n;
    do {
        n = recvmsg(sock, &msg, flags | MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (fd != NULL) {
        *fd = -1;
    }
    for (struct cmsghdr *c = n >= 0 ? CMSG_FIRSTHDR(&msg) : NULL; c != NULL;
         c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
            continue;
        }
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int got;
            memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (fd != NULL && *fd < 0) {
                *fd = got;
            } else {
                close(got);
            }
        }
    }
    return (long)n;
}

int umf_test_recv_fd(int sock) {
    char byte;
    int fd = -1;
    long n = umf_test_recv_msg(sock, &byte, 1, 0, &fd);
    if (n != 1 && fd >= 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

int umf_test_count_open_fds(void) {
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) {
        return -1;
    }
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] != '.') {
            count++;
        }
    }
    closedir(dir);
    return count - 1; // the directory's own fd
}

int umf_test_count_open_fds_settled(int want, int ms) {
    int fds = umf_test_count_open_fds();
    for (int i = 0; fds != want && i < ms; i++) {
        usleep(1000);
        fds = umf_test_count_open_fds();
    }
    return fds;
}

int umf_test_count_mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL) {
        return -1;
    }
    int count = 0, c;
    while ((c = fgetc(f)) != EOF) {
        count += c == '\n';
    }
    fclose(f);
    return count;
}

int umf_test_count_driver_mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL) {
        return -1;
    }
    int n = 0;
    char line[4096];
    while (fgets(line, sizeof(line), f) != NULL) {
        n += strstr(line, "/memfd:umf-gpu-mock") != NULL;
    }
    fclose(f);
    return n;
}

char *umf_test_read_all(int fd) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (len + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        len += (size_t)n;
    }
    if (buf != NULL) {
        buf[len] = '\0';
    }
    return buf;
}

int umf_test_child_run(const char *role, const char *const *args,
                       const char *const *env, char **output) {
    umf_test_child_t child;
    if (output != NULL) {
        *output = NULL;
    }
    if (umf_test_child_start_env(&child, role, args, env) != 0) {
        return -1;
    }
    char *text = umf_test_read_all(child.sock);
    if (output != NULL) {
        *output = text;
    } else {
        free(text);
    }
    return umf_test_child_wait(&child);
}

int umf_test_child_output(const char *role, const char *const *args,
                          char **output) {
    return umf_test_child_run(role, args, NULL, output);
}

int umf_test_drop_ptrace_capability(void) {
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[2];
    memset(caps, 0, sizeof(caps));
    if (syscall(SYS_capget, &hdr, caps) != 0) {
        return -1;
    }
    caps[CAP_SYS_PTRACE / 32].effective &= ~(1u << (CAP_SYS_PTRACE % 32));
    caps[CAP_SYS_PTRACE / 32].permitted &= ~(1u << (CAP_SYS_PTRACE % 32));
    return syscall(SYS_capset, &hdr, caps) == 0 ? 0 : -1;
}

#if defined(__x86_64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int umf_test_refuse_syscall(long nr, int err) {
    return umf_test_refuse_syscall_arg(nr, -1, 0, err);
}

int umf_test_refuse_syscall_arg(long nr, int arg, unsigned value, int err) {
#ifdef TEST_AUDIT_ARCH
    // The low 32 bits of argument `arg` (little-endian: its first word).
    unsigned arg_at = (unsigned)offsetof(struct seccomp_data, args) +
                      (arg >= 0 ? (unsigned)arg : 0) * 8u;
    // Without an argument, the comparison of it is skipped (jumps 0).
    unsigned char skip = arg >= 0 ? 0 : 2;
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, skip, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg_at),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1),
        BPF_STMT(BPF_RET | BPF_K,
                 SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof(code) / sizeof(code[0])),
                              code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return -1;
    }
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0 ? 0
                                                                        : -1;
#else
    (void)nr, (void)arg, (void)value, (void)err;
    errno = ENOSYS;
    return -1;
#endif
}
