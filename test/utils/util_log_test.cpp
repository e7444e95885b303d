// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one logger (utils/util_log.h): each user's variable and default level,
// the line format, the component name, cutting, and reading the variable
// once. Each case runs in a child whose stderr is the socket, so that the
// variable is read fresh.

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "test_child.h"
#include "util_log.h"

namespace {

// Two loggers as the library and a driver make them: different variables,
// different defaults.
umf_logger_t lib_logger =
    UMF_LOGGER_INIT("UMF_TEST_LIB_LOG", UMF_LOG_LEVEL_ERROR, nullptr);
umf_logger_t drv_logger =
    UMF_LOGGER_INIT("UMF_TEST_DRV_LOG", UMF_LOG_LEVEL_WARN, "test-drv");

// argv: VAR=value settings ("VAR=" unsets VAR). Logs one line per level to
// each logger.
UMF_TEST_CHILD(two_loggers) {
    for (int i = 0; i < argc; i++) {
        std::string kv = argv[i];
        size_t eq = kv.find('=');
        if (eq == std::string::npos) {
            return 100;
        }
        std::string name = kv.substr(0, eq), value = kv.substr(eq + 1);
        if (value.empty()) {
            unsetenv(name.c_str());
        } else {
            setenv(name.c_str(), value.c_str(), 1);
        }
    }
    if (dup2(sock, STDERR_FILENO) < 0) {
        return 101;
    }
    const char *names[] = {"error", "warn", "info", "debug"};
    for (int level = 0; level < 4; level++) {
        UMF_LOGGER_LOG(&lib_logger, (umf_log_level_t)level, "lib %s line",
                       names[level]);
        UMF_LOGGER_LOG(&drv_logger, (umf_log_level_t)level, "drv %s line",
                       names[level]);
    }
    return 0;
}

std::string RunLoggers(std::initializer_list<const char *> settings) {
    std::vector<const char *> args(settings);
    args.push_back(nullptr);
    char *out = nullptr;
    int status = umf_test_child_output("two_loggers", args.data(), &out);
    EXPECT_EQ(status, 0);
    std::string text = out != nullptr ? out : "";
    free(out);
    return text;
}

bool Has(const std::string &text, const char *needle) {
    return text.find(needle) != std::string::npos;
}

TEST(UtilLog, EachLoggerHasItsOwnDefault) {
    std::string out = RunLoggers({"UMF_TEST_LIB_LOG=", "UMF_TEST_DRV_LOG="});
    EXPECT_TRUE(Has(out, "lib error line")) << out;
    EXPECT_FALSE(Has(out, "lib warn line")) << out;
    EXPECT_TRUE(Has(out, "drv error line")) << out;
    EXPECT_TRUE(Has(out, "drv warn line")) << out;
    EXPECT_FALSE(Has(out, "drv info line")) << out;
}

TEST(UtilLog, EachLoggerReadsOnlyItsOwnVariable) {
    std::string out =
        RunLoggers({"UMF_TEST_LIB_LOG=debug", "UMF_TEST_DRV_LOG=off"});
    EXPECT_TRUE(Has(out, "lib debug line")) << out;
    EXPECT_FALSE(Has(out, "drv ")) << out;
    out = RunLoggers({"UMF_TEST_LIB_LOG=OFF", "UMF_TEST_DRV_LOG=Info"});
    EXPECT_FALSE(Has(out, "lib ")) << out;
    EXPECT_TRUE(Has(out, "drv info line")) << out;
    EXPECT_FALSE(Has(out, "drv debug line")) << out;
}

TEST(UtilLog, OneLineFormatForEveryLogger) {
    std::string out =
        RunLoggers({"UMF_TEST_LIB_LOG=warn", "UMF_TEST_DRV_LOG=warn"});
    pid_t pid = -1;
    for (const char *who : {"umf-gpu[", "umf-gpu/test-drv["}) {
        size_t at = out.find(std::string(" ") + who);
        ASSERT_NE(at, std::string::npos) << who << ": " << out;
        size_t start = out.rfind('\n', at);
        start = start == std::string::npos ? 0 : start + 1;
        std::string line = out.substr(start, out.find('\n', at) - start);
        // 2026-11-29T18:30:37.123456Z umf-gpu[pid] ERROR file.cpp:NN: msg
        ASSERT_GE(line.size(), 28u) << line;
        EXPECT_EQ(line[4], '-') << line;
        EXPECT_EQ(line[10], 'T') << line;
        EXPECT_EQ(line[26], 'Z') << line;
        EXPECT_EQ(at, start + 27) << line;
        long p = strtol(out.c_str() + at + 1 + strlen(who), nullptr, 10);
        EXPECT_GT(p, 0) << line;
        if (pid < 0) {
            pid = (pid_t)p;
        }
        EXPECT_EQ(p, pid) << "both lines come from the same child";
        EXPECT_NE(line.find("] ERROR util_log_test.cpp:"), std::string::npos)
            << line;
    }
}

TEST(UtilLog, UnknownValueIsReportedOnceAndTheDefaultUsed) {
    std::string out =
        RunLoggers({"UMF_TEST_LIB_LOG=verbose", "UMF_TEST_DRV_LOG=loud"});
    EXPECT_TRUE(Has(out, "UMF_TEST_LIB_LOG='verbose' is not one of")) << out;
    EXPECT_TRUE(Has(out, "using error")) << out;
    EXPECT_TRUE(Has(out, "UMF_TEST_DRV_LOG='loud' is not one of")) << out;
    EXPECT_TRUE(Has(out, "using warn")) << out;
    EXPECT_EQ(out.find("'verbose'"), out.rfind("'verbose'")) << out;
    EXPECT_TRUE(Has(out, "lib error line")) << out;
    EXPECT_FALSE(Has(out, "lib warn line")) << out;
    EXPECT_TRUE(Has(out, "drv warn line")) << out;
}

TEST(UtilLog, LongMessageIsCutToOneLine) {
    umf_logger_t logger =
        UMF_LOGGER_INIT("UMF_TEST_UNSET_LOG", UMF_LOG_LEVEL_ERROR, "x");
    std::string big(5000, 'x');
    testing::internal::CaptureStderr();
    umf_logger_write(&logger, UMF_LOG_LEVEL_ERROR, "f.c", 1, "%s", big.c_str());
    std::string out = testing::internal::GetCapturedStderr();
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.size(), (size_t)UMF_LOG_LINE_MAX - 1);
    EXPECT_EQ(out.back(), '\n');
    EXPECT_EQ(out.find('\n'), out.size() - 1);
}

TEST(UtilLog, ComponentCanBeRenamedAndLevelsOutOfRangeAreIgnored) {
    umf_logger_t logger =
        UMF_LOGGER_INIT("UMF_TEST_UNSET_LOG", UMF_LOG_LEVEL_DEBUG, nullptr);
    EXPECT_EQ(umf_logger_component(&logger), nullptr);
    umf_logger_set_component(&logger, "renamed");
    EXPECT_STREQ(umf_logger_component(&logger), "renamed");
    testing::internal::CaptureStderr();
    umf_logger_write(&logger, UMF_LOG_LEVEL_INFO, "f.c", 7, "hello %d", 42);
    umf_logger_write(&logger, (umf_log_level_t)9, "f.c", 8, "never");
    std::string out = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(Has(out, " umf-gpu/renamed[")) << out;
    EXPECT_TRUE(Has(out, "] INFO f.c:7: hello 42\n")) << out;
    EXPECT_FALSE(Has(out, "never")) << out;
    EXPECT_EQ(umf_logger_threshold(&logger), UMF_LOG_LEVEL_DEBUG);
}

TEST(UtilLog, EmitWritesTheSameLineToAnFdWhateverTheLevel) {
    umf_logger_t quiet =
        UMF_LOGGER_INIT("UMF_TEST_UNSET_LOG", UMF_LOG_THRESHOLD_OFF, "rep");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    EXPECT_EQ(umf_logger_emit(&quiet, fds[1], UMF_LOG_LEVEL_WARN, "r.c", 3,
                              "leak: %d bytes", 12345),
              0)
        << "a report is written even with the log off";
    close(fds[1]);
    std::string out = umf_test_read_all_string(fds[0]);
    close(fds[0]);
    EXPECT_EQ(out.find('\n'), out.size() - 1) << out;
    EXPECT_TRUE(Has(out, " umf-gpu/rep[")) << out;
    EXPECT_TRUE(Has(out, "] WARN r.c:3: leak: 12345 bytes\n")) << out;
    EXPECT_EQ(umf_logger_emit(&quiet, -1, UMF_LOG_LEVEL_ERROR, "r.c", 4, "x"),
              -1)
        << "a write that fails";
}

} // namespace
