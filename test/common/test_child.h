// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Child processes for multi-process tests. A test binary names child roles
// with UMF_TEST_CHILD; umf_test_child_start() runs the same binary again
// (fork + exec of /proc/self/exe, so the child is a fresh process, not a
// copy of the parent) in that role, connected to the parent by a socket.
//
//   UMF_TEST_CHILD(consumer) {          // int consumer(int sock, int argc,
//       char buf[64];                   //              char **argv)
//       if (umf_test_recv(sock, buf, sizeof(buf))) return 1;
//       ...
//       return 0;                       // the child's exit status
//   }
//
//   umf_test_child_t c;
//   ASSERT_EQ(umf_test_child_start(&c, "consumer", NULL), 0);
//   umf_test_send(c.sock, data, sizeof(data));
//   EXPECT_EQ(umf_test_child_wait(&c), 0);
//
// A child reports its failures one way: CHILD_EXPECT* print where and what
// failed on stderr (which the child shares with the parent) and count;
// CHILD_ASSERT* do the same and return 1 from the enclosing function (a
// role body, or any function returning int). A role that returns 0 after a
// failed check exits with status 1, so the parent sees every failure in the
// exit status. The count is process-wide and thread-safe, so the checks
// also serve threads of a GoogleTest process (umf_test_child_failures()).

#ifndef UMF_GPU_TEST_CHILD_H
#define UMF_GPU_TEST_CHILD_H 1

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*umf_test_child_fn)(int sock, int argc, char **argv);

// Records a failed check: prints "file:line: check failed: <message>" on
// stderr and counts it.
void umf_test_child_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// Failed checks of this process so far (all threads).
int umf_test_child_failures(void);

#define CHILD_CHECK_(cond, on_fail, ...)                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            umf_test_child_fail(__FILE__, __LINE__, __VA_ARGS__);              \
            on_fail;                                                           \
        }                                                                      \
    } while (0)

#define CHILD_CMP_(a, b, on_fail)                                              \
    do {                                                                       \
        long long child_a_ = (long long)(a), child_b_ = (long long)(b);        \
        CHILD_CHECK_(child_a_ == child_b_, on_fail, "%s == %s: %lld vs %lld",  \
                     #a, #b, child_a_, child_b_);                              \
    } while (0)

#define CHILD_EXPECT(cond) CHILD_CHECK_(cond, (void)0, "%s", #cond)
#define CHILD_EXPECT_EQ(a, b) CHILD_CMP_(a, b, (void)0)
#define CHILD_ASSERT(cond) CHILD_CHECK_(cond, return 1, "%s", #cond)
#define CHILD_ASSERT_EQ(a, b) CHILD_CMP_(a, b, return 1)

void umf_test_child_register(const char *name, umf_test_child_fn fn);

#define UMF_TEST_CHILD(name)                                                   \
    static int umf_test_child_##name(int sock, int argc, char **argv);         \
    __attribute__((constructor)) static void umf_test_child_register_##name(   \
        void) {                                                                \
        umf_test_child_register(#name, umf_test_child_##name);                 \
    }                                                                          \
    static int umf_test_child_##name(int sock, int argc, char **argv)

typedef struct umf_test_child_t {
    pid_t pid;
    int sock; // the parent's end of the socket pair
} umf_test_child_t;

// Starts this executable as child role `name`, passing the NULL-terminated
// `args` (may be NULL) as its argv after the role. 0, or -1 with errno set.
int umf_test_child_start(umf_test_child_t *child, const char *name,
                         const char *const *args);

// The same, with the NULL-terminated "NAME=value" assignments of `env` (may
// be NULL) added to the child's environment (replacing the parent's value of
// NAME), and "NAME" alone removing NAME from it. The parent's own
// environment does not change.
int umf_test_child_start_env(umf_test_child_t *child, const char *name,
                             const char *const *args, const char *const *env);

// Waits for the child and closes the socket. Returns the exit status, 128 +
// the signal number if a signal killed it, or -1 on error.
int umf_test_child_wait(umf_test_child_t *child);

// Sends `sig` to the child, then waits as umf_test_child_wait().
int umf_test_child_kill(umf_test_child_t *child, int sig);

// Sends or receives exactly `len` bytes. 0, or -1 on error or end of stream.
int umf_test_send(int sock, const void *buf, size_t len);
int umf_test_recv(int sock, void *buf, size_t len);

// Passes file descriptor `fd` over the Unix socket `sock` (SCM_RIGHTS, with
// one byte of data), or receives one (close-on-exec). 0 / the descriptor,
// or -1 on error.
int umf_test_send_fd(int sock, int fd);
int umf_test_recv_fd(int sock);
// Sends `len` bytes of `buf` (one message) with file descriptor `fd`.
int umf_test_send_fd_with(int sock, const void *buf, size_t len, int fd);
// Receives one message of at most `len` bytes into `buf`, with `flags` for
// recvmsg (MSG_DONTWAIT ...): its length, or -1 with errno set. The first
// fd it carried goes to *fd (close-on-exec; -1: none), or is closed where
// fd is NULL; any others are closed.
long umf_test_recv_msg(int sock, void *buf, size_t len, int flags, int *fd);

// Everything readable from `fd` until its end (retrying after signals),
// NUL-terminated; the caller frees. NULL when out of memory.
char *umf_test_read_all(int fd);

// Runs child role `role` with `args` (NULL-terminated, may be NULL), stores
// what it sent until it ended in *output (caller frees; may be NULL on
// return) and returns its exit status as umf_test_child_wait() does; -1 if
// it could not start.
int umf_test_child_output(const char *role, const char *const *args,
                          char **output);

// The same with `env` as in umf_test_child_start_env(); `output` may be
// NULL, then what the child sends is read and dropped.
int umf_test_child_run(const char *role, const char *const *args,
                       const char *const *env, char **output);

// Called by main: if argv names a child role, runs it and stores its exit
// status in *status, returning true.
bool umf_test_child_dispatch(int argc, char **argv, int *status);

// Number of open file descriptors of this process (from /proc/self/fd), or
// -1 on error.
int umf_test_count_open_fds(void);

// The open fds once they are `want`, or after about `ms` milliseconds what
// they are then. For an fd another thread closes after answering (the fd
// server's end of a connection): a transient one goes, a leaked one stays.
int umf_test_count_open_fds_settled(int want, int ms);

// Number of mappings of this process (lines of /proc/self/maps), or -1.
int umf_test_count_mappings(void);

// Number of mappings of the emulated drivers' memory files (allocations,
// imports, import slots: what an IPC cycle could leak), or -1. Unlike
// umf_test_count_mappings() it leaves out anonymous mappings, which
// ThreadSanitizer makes as a thread's trace grows.
int umf_test_count_driver_mappings(void);

// Drops CAP_SYS_PTRACE from this process (effective and permitted), so that
// the ptrace rules apply to it even as root. 0, or -1 with errno set.
int umf_test_drop_ptrace_capability(void);

// Installs a seccomp filter in this process (after PR_SET_NO_NEW_PRIVS) that
// makes system call `nr` fail with errno `err` and lets every other call
// through, as container runtimes' profiles refuse pidfd_getfd. It cannot be
// undone: for child processes. 0, or -1 with errno set.
int umf_test_refuse_syscall(long nr, int err);

// The same, only where argument `arg` (0-based; its low 32 bits) of call
// `nr` is `value`: e.g. getsockopt(..., SO_PEERPIDFD, ...) as a kernel before
// Linux 6.5 refuses it. A negative `arg` refuses every call `nr`.
int umf_test_refuse_syscall_arg(long nr, int arg, unsigned value, int err);

#ifdef __cplusplus
}

#include <cstdlib>
#include <string>

// umf_test_read_all() as a std::string ("" when out of memory).
inline std::string umf_test_read_all_string(int fd) {
    char *text = umf_test_read_all(fd);
    std::string out = text != nullptr ? text : "";
    std::free(text);
    return out;
}
#endif

#endif // UMF_GPU_TEST_CHILD_H
