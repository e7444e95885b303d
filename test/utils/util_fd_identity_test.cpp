// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Proving who an fd is taken from (utils/util_fd.h): process start times,
// the start time and file identity checked by umf_fd_from_process (a
// mismatch refuses the fd and leaks none), the process's own pid with
// another start time, /proc of another pid namespace (not read; needs
// root), and telling that the process has no fd left.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_child.h"
#include "util_fd.h"

namespace {

// What an exporter records about itself and its fd.
struct Exported {
    int fd;
    umf_fd_identity_t identity;
};

// Holds a memfd and sends it with its identity; exits after one byte.
UMF_TEST_CHILD(identity_holder) {
    (void)argc, (void)argv;
    Exported e = {};
    e.fd = memfd_create("umf-util-identity", MFD_CLOEXEC);
    struct stat st;
    if (e.fd < 0 || fstat(e.fd, &st) != 0) {
        return 1;
    }
    e.identity = {umf_proc_self_start_time(), umf_proc_self_pidfs_ino(),
                  (uint64_t)st.st_dev, (uint64_t)st.st_ino};
    if (e.identity.start_time == 0 || umf_test_send(sock, &e, sizeof(e)) != 0) {
        return 2;
    }
    char done;
    return umf_test_recv(sock, &done, 1) == 0 ? 0 : 3;
}

UMF_TEST_CHILD(exit_at_once) {
    (void)sock, (void)argc, (void)argv;
    return 0;
}

// Field 22 of /proc/self/stat, read independently of the library.
uint64_t StartTimeFromProc() {
    FILE *f = fopen("/proc/self/stat", "r");
    if (f == nullptr) {
        return 0;
    }
    char buf[1024] = {};
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    unsigned long long v = 0;
    // After ')': state, then fields 4..21, then starttime.
    if (p == nullptr ||
        sscanf(p + 2,
               "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
               "%*d %*d %*d %*d %*d %*d %llu",
               &v) != 1) {
        return 0;
    }
    return v;
}

TEST(UtilFdIdentity, StartTimeNamesAProcess) {
    uint64_t self = 0;
    ASSERT_EQ(umf_proc_start_time(getpid(), &self), 0);
    EXPECT_EQ(self, StartTimeFromProc());
    EXPECT_EQ(umf_proc_self_start_time(), self);

    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "identity_holder", nullptr), 0);
    Exported e;
    ASSERT_EQ(umf_test_recv(child.sock, &e, sizeof(e)), 0);
    uint64_t theirs = 0;
    ASSERT_EQ(umf_proc_start_time(child.pid, &theirs), 0);
    EXPECT_EQ(theirs, e.identity.start_time);
    EXPECT_GE(theirs, self);
    ASSERT_EQ(umf_test_send(child.sock, "x", 1), 0);
    pid_t gone = child.pid;
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    uint64_t t = 0;
    EXPECT_EQ(umf_proc_start_time(gone, &t), ESRCH);
    EXPECT_EQ(umf_proc_start_time(0, &t), EINVAL);
    EXPECT_EQ(umf_proc_start_time(getpid(), nullptr), EINVAL);
}

class UtilFdIdentityHolder : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(umf_test_child_start(&child_, "identity_holder", nullptr), 0);
        ASSERT_EQ(umf_test_recv(child_.sock, &e_, sizeof(e_)), 0);
        fds_ = umf_test_count_open_fds();
    }
    void TearDown() override {
        EXPECT_EQ(umf_test_count_open_fds(), fds_) << "an fd leaked";
        (void)umf_test_send(child_.sock, "x", 1);
        EXPECT_EQ(umf_test_child_wait(&child_), 0);
    }
    umf_fd_status_t Take(const umf_fd_identity_t &id, umf_fd_failure_t *why) {
        int local = -1;
        umf_fd_status_t s =
            umf_fd_from_process(child_.pid, e_.fd, &id, &local, why);
        if (s == UMF_FD_OK) {
            struct stat st;
            EXPECT_EQ(fstat(local, &st), 0);
            EXPECT_EQ((uint64_t)st.st_ino, e_.identity.ino);
            close(local);
        } else {
            EXPECT_EQ(local, -1);
        }
        return s;
    }
    umf_test_child_t child_{};
    Exported e_{};
    int fds_ = -1;
};

TEST_F(UtilFdIdentityHolder, TheExportersOwnIdentityIsAccepted) {
    umf_fd_failure_t why;
    EXPECT_EQ(Take(e_.identity, &why), UMF_FD_OK);
    // Unknown fields are not checked.
    EXPECT_EQ(Take(umf_fd_identity_t{0, 0, 0, 0}, &why), UMF_FD_OK);
    EXPECT_EQ(Take(umf_fd_identity_t{e_.identity.start_time, 0, 0, 0}, &why),
              UMF_FD_OK);
    EXPECT_EQ(Take(umf_fd_identity_t{0, e_.identity.pidfs_ino, 0, 0}, &why),
              UMF_FD_OK);
    EXPECT_EQ(Take(umf_fd_identity_t{0, 0, 0, e_.identity.ino}, &why),
              UMF_FD_OK);
}

TEST_F(UtilFdIdentityHolder, AnotherPidfdInodeIsNotTheExporter) {
    if (e_.identity.pidfs_ino == 0) {
        GTEST_SKIP() << "pidfds without inodes of their own (Linux < 6.9)";
    }
    umf_fd_identity_t id = e_.identity;
    id.pidfs_ino += 1; // the exporter was an earlier process with this pid
    id.start_time = 0;
    umf_fd_failure_t why;
    ASSERT_EQ(Take(id, &why), UMF_FD_NOT_EXPORTER);
    EXPECT_EQ(why.expected, id.pidfs_ino);
    EXPECT_EQ(why.found, e_.identity.pidfs_ino);
    char buf[512];
    std::string text = umf_fd_failure_describe(&why, buf, sizeof(buf));
    EXPECT_NE(text.find("exporter has exited"), std::string::npos) << text;
    EXPECT_NE(text.find("pidfd inode"), std::string::npos) << text;
}

// Without a pidfd inode (older kernels), by start time.
TEST_F(UtilFdIdentityHolder, AnotherStartTimeIsNotTheExporter) {
    umf_fd_identity_t id = e_.identity;
    id.pidfs_ino = 0;
    id.start_time += 1; // the exporter was an earlier process with this pid
    umf_fd_failure_t why;
    ASSERT_EQ(Take(id, &why), UMF_FD_NOT_EXPORTER);
    EXPECT_EQ(why.status, UMF_FD_NOT_EXPORTER);
    EXPECT_EQ(why.expected, id.start_time);
    EXPECT_EQ(why.found, e_.identity.start_time);
    char buf[512];
    std::string text = umf_fd_failure_describe(&why, buf, sizeof(buf));
    EXPECT_NE(text.find("exporter has exited"), std::string::npos) << text;
    EXPECT_STREQ(umf_fd_status_name(UMF_FD_NOT_EXPORTER), "NOT_EXPORTER");
}

TEST_F(UtilFdIdentityHolder, AnotherFileIsRefusedAndClosed) {
    umf_fd_failure_t why;
    umf_fd_identity_t id = e_.identity;
    id.ino += 1;
    ASSERT_EQ(Take(id, &why), UMF_FD_OTHER_FILE);
    EXPECT_EQ(why.expected, id.ino);
    EXPECT_EQ(why.found, e_.identity.ino);
    char buf[512];
    std::string text = umf_fd_failure_describe(&why, buf, sizeof(buf));
    EXPECT_NE(text.find("another file than the one exported"),
              std::string::npos)
        << text;
    id = e_.identity;
    id.dev += 1;
    EXPECT_EQ(Take(id, &why), UMF_FD_OTHER_FILE);
    EXPECT_STREQ(umf_fd_status_name(UMF_FD_OTHER_FILE), "OTHER_FILE");
}

TEST(UtilFdIdentity, OwnPidWithAnotherStartTimeIsNotTheExporter) {
    int fd = memfd_create("umf-util-self", MFD_CLOEXEC);
    ASSERT_GE(fd, 0);
    struct stat st;
    ASSERT_EQ(fstat(fd, &st), 0);
    umf_fd_identity_t id = {umf_proc_self_start_time(),
                            umf_proc_self_pidfs_ino(), (uint64_t)st.st_dev,
                            (uint64_t)st.st_ino};
    int local = -1;
    ASSERT_EQ(umf_fd_from_process(getpid(), fd, &id, &local, nullptr),
              UMF_FD_OK);
    close(local);
    umf_fd_identity_t by_time = id;
    by_time.pidfs_ino = 0;
    by_time.start_time -= 1;
    umf_fd_failure_t why;
    EXPECT_EQ(umf_fd_from_process(getpid(), fd, &by_time, &local, &why),
              UMF_FD_NOT_EXPORTER);
    if (id.pidfs_ino != 0) {
        umf_fd_identity_t by_inode = id;
        by_inode.pidfs_ino += 1;
        EXPECT_EQ(umf_fd_from_process(getpid(), fd, &by_inode, &local, &why),
                  UMF_FD_NOT_EXPORTER);
    }
    close(fd);
}

// In a new pid namespace without a /proc of its own, /proc names other
// processes: the start time is not read there (and the file check is all
// that holds). With its own /proc mounted, it is read again.
UMF_TEST_CHILD(pidns_probe) {
    (void)sock, (void)argc, (void)argv;
    if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0) {
        return 77; // not allowed here
    }
    pid_t pid = fork();
    if (pid < 0) {
        return 10;
    }
    if (pid == 0) {
        // pid 1 of the new namespace, with the old /proc.
        uint64_t t = 0;
        if (getpid() != 1 || umf_proc_start_time(1, &t) != ENOENT ||
            umf_proc_self_start_time() != 0) {
            _exit(11);
        }
        if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
            mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  nullptr) != 0) {
            _exit(12);
        }
        // What a process learned of /proc is kept; a new one learns anew.
        pid_t again = fork();
        if (again == 0) {
            _exit(umf_proc_start_time(getpid(), &t) == 0 && t != 0 &&
                          umf_proc_self_start_time() == t
                      ? 0
                      : 13);
        }
        int st = 0;
        _exit(again > 0 && waitpid(again, &st, 0) == again && WIFEXITED(st)
                  ? WEXITSTATUS(st)
                  : 16);
    }
    int status = 0;
    int result = waitpid(pid, &status, 0) != pid ? 14
                 : WIFEXITED(status)             ? WEXITSTATUS(status)
                                                 : 15;
    // The namespace died with its first process: a leak checker at exit
    // could not make its helper task in it any more.
    fflush(nullptr);
    _exit(result);
}

TEST(UtilFdIdentity, ProcOfAnotherPidNamespaceIsNotRead) {
    if (geteuid() != 0) {
        GTEST_SKIP() << "needs root (unshare(CLONE_NEWPID | CLONE_NEWNS)); "
                        "CI runs as root";
    }
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "pidns_probe", nullptr), 0);
    int status = umf_test_child_wait(&child);
    if (status == 77) {
        GTEST_SKIP() << "unshare(CLONE_NEWPID | CLONE_NEWNS) is refused here";
    }
    EXPECT_EQ(status, 0);
}

// Lowers its fd limit to what it has open, then asks.
UMF_TEST_CHILD(no_fds_left) {
    (void)sock, (void)argc, (void)argv;
    if (umf_fd_limit_reached()) {
        return 1;
    }
    struct rlimit saved = {};
    if (getrlimit(RLIMIT_NOFILE, &saved) != 0) {
        return 2;
    }
    struct rlimit lim = {(rlim_t)umf_test_count_open_fds(), saved.rlim_max};
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) {
        return 2;
    }
    // The limit is on fd numbers: fill the holes below it.
    while (fcntl(sock, F_DUPFD_CLOEXEC, 0) >= 0) {
    }
    bool reached = umf_fd_limit_reached();
    // The sanitizers' runtime needs fds at exit.
    if (setrlimit(RLIMIT_NOFILE, &saved) != 0) {
        return 4;
    }
    return reached ? 0 : 3;
}

TEST(UtilFdIdentity, TellsWhenNoFdIsLeft) {
    EXPECT_FALSE(umf_fd_limit_reached());
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "no_fds_left", nullptr), 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
}

} // namespace
