// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tests of the core's utilities: logging, library loading, and duplicating
// another process's file descriptor.

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <gnu/libc-version.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern "C" {
#include "util_common.h"
#include "util_dl.h"
#include "util_umf_fd.h"
#include "util_umf_log.h"
}

#include "test_child.h"

namespace {

// ------------------------------------------------------------------ logging

// argv[0]: the UMF_GPU_LOG value ("-" for unset). Writes one line per level
// to stderr, which is the socket.
UMF_TEST_CHILD(log_levels) {
    (void)argc;
    if (strcmp(argv[0], "-") == 0) {
        unsetenv("UMF_GPU_LOG");
    } else {
        setenv("UMF_GPU_LOG", argv[0], 1);
    }
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 1;
    }
    UMF_LOG_ERROR("error line %d", 1);
    UMF_LOG_WARN("warn line %d", 2);
    UMF_LOG_INFO("info line %d", 3);
    UMF_LOG_DEBUG("debug line %d", 4);
    return 0;
}

std::string logsAt(const char *level) {
    umf_test_child_t child;
    const char *args[] = {level, nullptr};
    if (umf_test_child_start(&child, "log_levels", args) != 0) {
        ADD_FAILURE() << "cannot start child: " << strerror(errno);
        return "";
    }
    std::string out = umf_test_read_all_string(child.sock);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
    return out;
}

TEST(Log, DefaultIsErrorOnly) {
    std::string out = logsAt("-");
    EXPECT_NE(out.find("error line 1"), std::string::npos) << out;
    EXPECT_EQ(out.find("warn line"), std::string::npos) << out;
    EXPECT_EQ(out.find("info line"), std::string::npos) << out;
}

TEST(Log, EachLevelIncludesTheOnesAbove) {
    const struct {
        const char *value;
        int lines;
    } cases[] = {{"error", 1}, {"warn", 2},  {"info", 3},
                 {"debug", 4}, {"DEBUG", 4}, {"off", 0}};
    const char *needles[] = {"error line 1", "warn line 2", "info line 3",
                             "debug line 4"};
    for (const auto &c : cases) {
        std::string out = logsAt(c.value);
        for (int i = 0; i < 4; i++) {
            EXPECT_EQ(out.find(needles[i]) != std::string::npos, i < c.lines)
                << "UMF_GPU_LOG=" << c.value << ": " << out;
        }
    }
}

TEST(Log, LineHasTimestampLevelAndSourceFile) {
    std::string out = logsAt("warn");
    // 2026-11-29T18:30:37.123456Z umf-gpu[pid] WARN utils_test.cpp:NN: ...
    size_t warn = out.find(" WARN utils_test.cpp:");
    ASSERT_NE(warn, std::string::npos) << out;
    size_t line_start = out.rfind('\n', warn);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    std::string line =
        out.substr(line_start, out.find('\n', warn) - line_start);
    ASSERT_GE(line.size(), 28u) << line;
    EXPECT_EQ(line[4], '-') << line;
    EXPECT_EQ(line[10], 'T') << line;
    EXPECT_EQ(line[26], 'Z') << line;
    EXPECT_NE(line.find(" umf-gpu["), std::string::npos) << line;
    EXPECT_NE(line.find("warn line 2"), std::string::npos) << line;
}

TEST(Log, UnknownValueWarnsAndFallsBackToError) {
    std::string out = logsAt("verbose");
    EXPECT_NE(out.find("UMF_GPU_LOG='verbose'"), std::string::npos) << out;
    EXPECT_NE(out.find("error line 1"), std::string::npos) << out;
    EXPECT_EQ(out.find("warn line 2"), std::string::npos) << out;
}

TEST(Log, LongMessagesAreTruncatedToOneLine) {
    std::string big(5000, 'x');
    testing::internal::CaptureStderr();
    umf_log_write(UMF_LOG_LEVEL_ERROR, "f.c", 1, "%s", big.c_str());
    std::string out = testing::internal::GetCapturedStderr();
    ASSERT_FALSE(out.empty());
    EXPECT_LE(out.size(), 1024u);
    EXPECT_EQ(out.back(), '\n');
    EXPECT_EQ(out.find('\n'), out.size() - 1);
}

// ------------------------------------------------------------------ dlopen

TEST(Dl, MissingLibraryIsNullAndSaysWhy) {
    char why[256] = "";
    EXPECT_EQ(umf_dl_open("libumf-gpu-no-such-library.so.9", why, sizeof(why)),
              nullptr);
    // The path and dlerror's words.
    EXPECT_NE(strstr(why, "cannot load libumf-gpu-no-such-library.so.9: "),
              nullptr)
        << why;
    EXPECT_NE(strstr(why, "No such file"), nullptr) << why;
    EXPECT_EQ(umf_dl_open(nullptr, why, sizeof(why)), nullptr);
    EXPECT_STREQ(why, "no library path given");
    EXPECT_EQ(umf_dl_open("", nullptr, 0), nullptr);
}

TEST(Dl, ResolvesRequiredAndOptionalSymbols) {
    void *lib = umf_dl_open("libc.so.6", nullptr, 0);
    ASSERT_NE(lib, nullptr);
    // gnu_get_libc_version, because sanitizers replace malloc and friends.
    void *version_addr = nullptr, *missing = &version_addr;
    umf_dl_symbol_t ok[] = {
        {"gnu_get_libc_version", &version_addr, true},
        {"umf_gpu_no_such_symbol", &missing, false},
    };
    EXPECT_EQ(umf_dl_resolve(lib, "libc.so.6", ok, 2, nullptr, 0),
              UMF_RESULT_SUCCESS);
    ASSERT_NE(version_addr, nullptr);
    EXPECT_STREQ(((const char *(*)(void))version_addr)(),
                 gnu_get_libc_version());
    EXPECT_EQ(missing, nullptr);

    void *required_missing = &version_addr, *second = &version_addr;
    umf_dl_symbol_t bad[] = {
        {"gnu_get_libc_version", &version_addr, true},
        {"umf_gpu_no_such_symbol", &required_missing, true},
        {"umf_gpu_nor_this_one", &second, true},
    };
    char why[256] = "";
    EXPECT_EQ(umf_dl_resolve(lib, "libc.so.6", bad, 3, why, sizeof(why)),
              UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
    // The library, every missing entry point, and dlerror's words.
    EXPECT_NE(strstr(why, "libc.so.6 lacks the entry point "
                          "umf_gpu_no_such_symbol: "),
              nullptr)
        << why;
    EXPECT_NE(strstr(why, "undefined symbol: umf_gpu_no_such_symbol; also "
                          "missing: umf_gpu_nor_this_one"),
              nullptr)
        << why;
    EXPECT_EQ(required_missing, nullptr);
    EXPECT_EQ(second, nullptr);

    EXPECT_EQ(umf_dl_resolve(nullptr, "x", ok, 2, nullptr, 0),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    umf_dl_close(lib);
    umf_dl_close(nullptr);
}

TEST(Dl, LoadErrorKeepsTheCodeAndLogsTheMessage) {
    umf_dl_load_error_t err = {};
    testing::internal::CaptureStderr();
    umf_dl_load_error_set(&err, 42, "cannot load %s: %s", "x.so", "gone");
    std::string log = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.code, 42);
    EXPECT_STREQ(err.message, "cannot load x.so: gone");
    EXPECT_NE(log.find("ERROR"), std::string::npos) << log;
    EXPECT_NE(log.find("cannot load x.so: gone"), std::string::npos) << log;
}

// ---------------------------------------------------------- fd duplication

const char kPayload[] = "written by the child";

// Opens a memfd holding kPayload, sends its fd number (closed first when
// argv[0] is "closed"), and waits for one byte before exiting.
UMF_TEST_CHILD(fd_holder) {
    bool closed = argc > 0 && strcmp(argv[0], "closed") == 0;
    int fd = memfd_create("umf-test", MFD_CLOEXEC);
    if (fd < 0 || write(fd, kPayload, sizeof(kPayload)) != sizeof(kPayload)) {
        return 1;
    }
    if (closed) {
        close(fd);
    }
    if (umf_test_send(sock, &fd, sizeof(fd)) != 0) {
        return 2;
    }
    char done;
    return umf_test_recv(sock, &done, 1) == 0 ? 0 : 3;
}

UMF_TEST_CHILD(exit_now) {
    (void)sock, (void)argc, (void)argv;
    return 0;
}

TEST(FdDuplicate, TakesAnotherProcessFd) {
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "fd_holder", nullptr), 0);
    int remote_fd = -1;
    ASSERT_EQ(umf_test_recv(child.sock, &remote_fd, sizeof(remote_fd)), 0);

    int local_fd = -1;
    umf_fd_failure_t why = {};
    ASSERT_EQ(
        umf_fd_duplicate_from(child.pid, remote_fd, nullptr, &local_fd, &why),
        UMF_RESULT_SUCCESS);

    char buf[sizeof(kPayload)] = {};
    EXPECT_EQ(pread(local_fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
    EXPECT_STREQ(buf, kPayload);
    close(local_fd);

    ASSERT_EQ(umf_test_send(child.sock, "x", 1), 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
}

TEST(FdDuplicate, ClosedFdIsInvalidArgument) {
    umf_test_child_t child;
    const char *args[] = {"closed", nullptr};
    ASSERT_EQ(umf_test_child_start(&child, "fd_holder", args), 0);
    int remote_fd = -1;
    ASSERT_EQ(umf_test_recv(child.sock, &remote_fd, sizeof(remote_fd)), 0);

    int local_fd = -1;
    umf_fd_failure_t why = {};
    testing::internal::CaptureStderr();
    EXPECT_EQ(
        umf_fd_duplicate_from(child.pid, remote_fd, nullptr, &local_fd, &why),
        UMF_RESULT_ERROR_INVALID_ARGUMENT);
    std::string log = testing::internal::GetCapturedStderr();
    EXPECT_EQ(why.os_error, EBADF);
    EXPECT_EQ(local_fd, -1);
    EXPECT_NE(log.find("no such open fd"), std::string::npos) << log;

    ASSERT_EQ(umf_test_send(child.sock, "x", 1), 0);
    EXPECT_EQ(umf_test_child_wait(&child), 0);
}

TEST(FdDuplicate, DeadProcessIsInvalidArgument) {
    umf_test_child_t child;
    ASSERT_EQ(umf_test_child_start(&child, "exit_now", nullptr), 0);
    pid_t pid = child.pid;
    ASSERT_EQ(umf_test_child_wait(&child), 0); // reaped: the pid is gone

    int local_fd = -1;
    umf_fd_failure_t why = {};
    testing::internal::CaptureStderr();
    EXPECT_EQ(umf_fd_duplicate_from(pid, 0, nullptr, &local_fd, &why),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    std::string log = testing::internal::GetCapturedStderr();
    EXPECT_EQ(why.os_error, ESRCH);
    EXPECT_NE(log.find("no such process"), std::string::npos) << log;
}

TEST(FdDuplicate, OwnProcessIsADup) {
    int fd = memfd_create("umf-test-self", MFD_CLOEXEC);
    ASSERT_GE(fd, 0);
    int local_fd = -1;
    ASSERT_EQ(umf_fd_duplicate_from(getpid(), fd, nullptr, &local_fd, nullptr),
              UMF_RESULT_SUCCESS);
    EXPECT_NE(local_fd, fd);
    close(local_fd);
    close(fd);
}

TEST(FdDuplicate, RejectsBadArguments) {
    int local_fd = -1;
    EXPECT_EQ(umf_fd_duplicate_from(0, 0, nullptr, &local_fd, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_fd_duplicate_from(-1, 0, nullptr, &local_fd, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_fd_duplicate_from(getpid(), -1, nullptr, &local_fd, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_fd_duplicate_from(getpid(), 0, nullptr, nullptr, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// ------------------------------------------------------------ small helpers

TEST(Common, PowerOfTwoAndAlignment) {
    EXPECT_FALSE(umf_is_pow2(0));
    EXPECT_TRUE(umf_is_pow2(1));
    EXPECT_TRUE(umf_is_pow2((size_t)1 << 63));
    EXPECT_FALSE(umf_is_pow2(6));
    EXPECT_EQ(umf_align_up(5, 4), 8u);
    EXPECT_EQ(umf_align_up(8, 4), 8u);
    size_t out = 0;
    EXPECT_FALSE(umf_align_up_checked(SIZE_MAX - 2, 4096, &out));
    EXPECT_TRUE(umf_align_up_checked(4095, 4096, &out));
    EXPECT_EQ(out, 4096u);
    EXPECT_TRUE(umf_is_aligned(4096, 4096));
    EXPECT_FALSE(umf_is_aligned(4097, 2));
}

} // namespace
