// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GoogleTest side of the C shim.

#include "c_test.h"

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_harness.h"

namespace {

struct CTestInfo {
    std::string suite, name, file;
    int line;
    umf_c_test_fn fn;
};

std::vector<CTestInfo> &registry() {
    static std::vector<CTestInfo> tests; // safe from constructors of any TU
    return tests;
}

class CTest : public testing::Test {
  public:
    explicit CTest(umf_c_test_fn fn) : fn_(fn) {}
    void TestBody() override {
        fn_();
    }

  private:
    umf_c_test_fn fn_;
};

} // namespace

extern "C" void umf_c_test_register(const char *suite, const char *name,
                                    umf_c_test_fn fn, const char *file,
                                    int line) {
    registry().push_back({suite, name, file, line, fn});
}

extern "C" void umf_c_test_fail(const char *file, int line, const char *fmt,
                                ...) {
    char msg[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);
    ADD_FAILURE_AT(file, line) << msg;
}

void umf_test_register_c_tests() {
    for (const CTestInfo &t : registry()) {
        umf_c_test_fn fn = t.fn;
        testing::RegisterTest(
            t.suite.c_str(), t.name.c_str(), nullptr, nullptr, t.file.c_str(),
            t.line, [fn]() -> testing::Test * { return new CTest(fn); });
    }
}
