// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Taking another process's fd (utils/util_fd.h): success across processes
// and in the process itself, and each refusal the OS gives (no process, no
// such fd, no ptrace access, out of fds), with the message and its advice.

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_child.h"
#include "util_fd.h"

namespace {

const char kPayload[] = "held by the child";

// Holds a memfd with kPayload and sends its number; argv[0] "closed" closes
// it first, "nodump" makes the process non-dumpable (no ptrace access for
// processes without CAP_SYS_PTRACE). Exits after one byte from the parent.
UMF_TEST_CHILD(holder) {
    std::string mode = argc > 0 ? argv[0] : "";
    if (mode == "nodump" && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        return 1;
    }
    int fd = memfd_create("umf-util-fd-test", MFD_CLOEXEC);
    if (fd < 0 || write(fd, kPayload, sizeof(kPayload)) != sizeof(kPayload)) {
        return 2;
    }
    if (mode == "closed") {
        close(fd);
    }
    if (umf_test_send(sock, &fd, sizeof(fd)) != 0) {
        return 3;
    }
    char done;
    return umf_test_recv(sock, &done, 1) == 0 ? 0 : 4;
}

struct Holder {
    umf_test_child_t child{};
    int fd = -1;
    bool Start(const char *mode) {
        const char *args[] = {mode, nullptr};
        return umf_test_child_start(&child, "holder", args) == 0 &&
               umf_test_recv(child.sock, &fd, sizeof(fd)) == 0;
    }
    int Stop() {
        (void)umf_test_send(child.sock, "x", 1);
        return umf_test_child_wait(&child);
    }
};

std::string Describe(const umf_fd_failure_t &why) {
    char buf[1024];
    return umf_fd_failure_describe(&why, buf, sizeof(buf));
}

TEST(UtilFd, TakesAnotherProcessFd) {
    Holder h;
    ASSERT_TRUE(h.Start(""));
    int local = -1;
    umf_fd_failure_t why{};
    ASSERT_EQ(umf_fd_from_process(h.child.pid, h.fd, nullptr, &local, &why),
              UMF_FD_OK)
        << Describe(why);
    char buf[sizeof(kPayload)] = {};
    EXPECT_EQ(pread(local, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
    EXPECT_STREQ(buf, kPayload);
    EXPECT_EQ(fcntl(local, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    close(local);
    EXPECT_EQ(h.Stop(), 0);
}

TEST(UtilFd, OwnProcessIsACloseOnExecDuplicate) {
    int fd = memfd_create("umf-util-self", 0);
    ASSERT_GE(fd, 0);
    int local = -1;
    ASSERT_EQ(umf_fd_from_process(getpid(), fd, nullptr, &local, nullptr),
              UMF_FD_OK);
    EXPECT_NE(local, fd);
    EXPECT_EQ(fcntl(local, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    close(local);
    close(fd);
}

TEST(UtilFd, ClosedFdIsNoSuchFd) {
    Holder h;
    ASSERT_TRUE(h.Start("closed"));
    int local = -7;
    umf_fd_failure_t why{};
    errno = 1234;
    EXPECT_EQ(umf_fd_from_process(h.child.pid, h.fd, nullptr, &local, &why),
              UMF_FD_NO_SUCH_FD);
    EXPECT_EQ(errno, 1234) << "errno is kept";
    EXPECT_EQ(local, -7) << "untouched on failure";
    EXPECT_EQ(why.status, UMF_FD_NO_SUCH_FD);
    EXPECT_EQ(why.os_error, EBADF);
    EXPECT_STREQ(why.call, "pidfd_getfd");
    EXPECT_EQ(why.pid, h.child.pid);
    EXPECT_EQ(why.remote_fd, h.fd);
    std::string text = Describe(why);
    EXPECT_NE(text.find("pidfd_getfd(pid " + std::to_string(h.child.pid) +
                        ", fd " + std::to_string(h.fd) + ")"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("no such open fd"), std::string::npos) << text;
    EXPECT_EQ(h.Stop(), 0);
}

UMF_TEST_CHILD(exits) {
    (void)sock, (void)argc, (void)argv;
    return 0;
}

TEST(UtilFd, ExitedProcessIsNoProcess) {
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "exits", nullptr), 0);
    pid_t pid = child.pid;
    ASSERT_EQ(umf_test_child_wait(&child), 0); // reaped: the pid is free
    int local = -1;
    umf_fd_failure_t why{};
    EXPECT_EQ(umf_fd_from_process(pid, 0, nullptr, &local, &why),
              UMF_FD_NO_PROCESS);
    EXPECT_EQ(why.os_error, ESRCH);
    EXPECT_STREQ(why.call, "pidfd_open");
    EXPECT_NE(Describe(why).find("has exited"), std::string::npos);
}

// argv: the holder's pid and fd. Drops CAP_SYS_PTRACE, tries to take the
// fd of the non-dumpable holder and sends the status, errno and message.
UMF_TEST_CHILD(taker_without_ptrace) {
    if (argc < 2) {
        return 100;
    }
    if (umf_test_drop_ptrace_capability() != 0) {
        return 102;
    }
    int local = -1;
    umf_fd_failure_t why{};
    int status = umf_fd_from_process((pid_t)atoi(argv[0]), atoi(argv[1]),
                                     nullptr, &local, &why);
    if (status == UMF_FD_OK) {
        close(local);
    }
    char text[1024];
    umf_fd_failure_describe(&why, text, sizeof(text));
    std::string out = std::to_string(status) + " " +
                      std::to_string(why.os_error) + " " + text;
    return umf_test_send(sock, out.c_str(), out.size()) == 0 ? 0 : 103;
}

TEST(UtilFd, NoPtraceAccessIsPermissionWithTheAdvice) {
    Holder h;
    ASSERT_TRUE(h.Start("nodump"));
    std::string pid = std::to_string(h.child.pid), fd = std::to_string(h.fd);
    const char *args[] = {pid.c_str(), fd.c_str(), nullptr};
    char *out = nullptr;
    ASSERT_EQ(umf_test_child_output("taker_without_ptrace", args, &out), 0);
    std::string text = out != nullptr ? out : "";
    free(out);
    EXPECT_EQ(text.rfind(std::to_string(UMF_FD_PERMISSION) + " " +
                             std::to_string(EPERM) + " pidfd_getfd(pid " + pid +
                             ", fd " + fd + ")",
                         0),
              0u)
        << text;
    for (const char *needle :
         {"ptrace access", "dumpable", "CAP_SYS_PTRACE", "PR_SET_PTRACER",
          "PR_SET_PTRACER_ANY", "ptrace_scope", "Yama here: "}) {
        EXPECT_NE(text.find(needle), std::string::npos)
            << needle << ": " << text;
    }
    EXPECT_EQ(h.Stop(), 0);
}

// argv[0]: a pid to take fd 0 of. With no fd left, sends the status and
// errno of taking it, then of taking this process's own fd 0.
UMF_TEST_CHILD(taker_without_fds) {
    if (argc < 1) {
        return 100;
    }
    int highest = dup(0);
    if (highest < 0) {
        return 101;
    }
    struct rlimit saved = {};
    if (getrlimit(RLIMIT_NOFILE, &saved) != 0) {
        return 102;
    }
    struct rlimit lim = {(rlim_t)highest + 1, saved.rlim_max};
    // fds 0..highest are open: no new one fits under the limit.
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) {
        return 102;
    }
    std::string out;
    for (pid_t pid : {(pid_t)atoi(argv[0]), getpid()}) {
        int local = -1;
        umf_fd_failure_t why{};
        int status = umf_fd_from_process(pid, 0, nullptr, &local, &why);
        out += std::to_string(status) + " " + std::to_string(why.os_error) +
               " " + why.call + ";";
    }
    // The sanitizers' runtime needs fds at exit.
    if (setrlimit(RLIMIT_NOFILE, &saved) != 0) {
        return 104;
    }
    return umf_test_send(sock, out.c_str(), out.size()) == 0 ? 0 : 103;
}

TEST(UtilFd, NoFdLeftIsNoFds) {
    std::string parent = std::to_string(getpid());
    const char *args[] = {parent.c_str(), nullptr};
    char *out = nullptr;
    ASSERT_EQ(umf_test_child_output("taker_without_fds", args, &out), 0);
    std::string text = out != nullptr ? out : "";
    free(out);
    std::string no_fds =
        std::to_string(UMF_FD_NO_FDS) + " " + std::to_string(EMFILE) + " ";
    EXPECT_EQ(text,
              no_fds + "pidfd_open;" + no_fds + "fcntl(F_DUPFD_CLOEXEC);");
}

TEST(UtilFd, BadArgumentsAreRefusedBeforeAnyCall) {
    int local = -5;
    umf_fd_failure_t why{};
    EXPECT_EQ(umf_fd_from_process(0, 0, nullptr, &local, &why),
              UMF_FD_INVALID_ARGUMENT);
    EXPECT_STREQ(why.call, "arguments");
    EXPECT_EQ(why.os_error, 0);
    EXPECT_EQ(umf_fd_from_process(-1, 0, nullptr, &local, nullptr),
              UMF_FD_INVALID_ARGUMENT);
    EXPECT_EQ(umf_fd_from_process(getpid(), -1, nullptr, &local, nullptr),
              UMF_FD_INVALID_ARGUMENT);
    EXPECT_EQ(umf_fd_from_process(getpid(), 0, nullptr, nullptr, nullptr),
              UMF_FD_INVALID_ARGUMENT);
    EXPECT_EQ(local, -5);
}

TEST(UtilFd, MessagesNameTheCallAndWhatToDo) {
    umf_fd_failure_t nosys = {
        UMF_FD_NOT_SUPPORTED, ENOSYS, "pidfd_open", 42, 7, 0, 0, nullptr};
    std::string text = Describe(nosys);
    EXPECT_EQ(text.rfind("pidfd_open(pid 42, fd 7): ", 0), 0u) << text;
    EXPECT_NE(text.find(strerror(ENOSYS)), std::string::npos) << text;
    EXPECT_NE(text.find("Linux 5.6"), std::string::npos) << text;

    char small[16];
    EXPECT_EQ(umf_fd_failure_describe(&nosys, small, sizeof(small)), small);
    EXPECT_EQ(strlen(small), sizeof(small) - 1) << "cut, NUL-terminated";
    EXPECT_EQ(umf_fd_failure_describe(&nosys, nullptr, 8), nullptr);

    EXPECT_STREQ(umf_fd_status_name(UMF_FD_OK), "OK");
    EXPECT_STREQ(umf_fd_status_name(UMF_FD_PERMISSION), "PERMISSION");
    EXPECT_STREQ(umf_fd_status_name(UMF_FD_OS_ERROR), "OS_ERROR");
    EXPECT_STREQ(umf_fd_status_name((umf_fd_status_t)99), "UNKNOWN");
}

} // namespace
