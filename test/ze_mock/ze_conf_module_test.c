// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: modules and build logs. zeModuleCreate checks its arguments
// as ze_api.h says; input that is no module fails with
// ZE_RESULT_ERROR_MODULE_BUILD_FAILURE (INVALID_NATIVE_BINARY for the
// native format), as Intel's driver answers, and a build log that says
// why. The argument clauses and the build log protocol run unchanged on a
// real GPU, with a module no compiler accepts. Modules that build are
// tested with real kernels in ze_mock_kernels_test.cpp.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "ze_test_util.h"

// Not SPIR-V: a real driver fails to build it too.
static const uint8_t not_spirv[] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};

static ze_module_desc_t module_desc(ze_module_format_t format) {
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                          NULL,
                          format,
                          sizeof(not_spirv),
                          not_spirv,
                          NULL,
                          NULL};
    return d;
}

// INVALID_NULL_HANDLE `nullptr == hContext`, `nullptr == hDevice`;
// INVALID_NULL_POINTER `nullptr == desc`, `nullptr == desc->pInputModule`,
// `nullptr == phModule`; INVALID_SIZE `0 == desc->inputSize`.
UMF_C_TEST(zeModuleCreate, ArgumentClauses) {
    ZE_TEST_SETUP(t);
    ze_module_desc_t d = module_desc(ZE_MODULE_FORMAT_IL_SPIRV);
    ze_module_handle_t m = NULL;
    if (!ze_test_validated()) {
        ze_test_teardown(&t); // a real driver may leave them to the layer
        return;
    }
    if (!ze_test_intercept()) {
        UMF_EXPECT_EQ(zeModuleCreate(NULL, t.devices[0], &d, &m, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        UMF_EXPECT_EQ(zeModuleCreate(t.ctx, NULL, &d, &m, NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    UMF_EXPECT_EQ(zeModuleCreate(t.ctx, t.devices[0], NULL, &m, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(zeModuleCreate(t.ctx, t.devices[0], &d, NULL, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_module_desc_t no_input = d;
    no_input.pInputModule = NULL;
    UMF_EXPECT_EQ(zeModuleCreate(t.ctx, t.devices[0], &no_input, &m, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_module_desc_t empty = d;
    empty.inputSize = 0;
    UMF_EXPECT_EQ(zeModuleCreate(t.ctx, t.devices[0], &empty, &m, NULL),
                  ZE_RESULT_ERROR_INVALID_SIZE);
    UMF_EXPECT(m == NULL);
    ze_test_teardown(&t);
}

// "A build log can optionally be returned to the caller. The caller is
// responsible for destroying build log using zeModuleBuildLogDestroy." A
// module that cannot be built fails with a documented result, and its log
// says why.
UMF_C_TEST(zeModuleCreate, FailedBuildComesWithABuildLog) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control_if_emulated();
    int64_t logs = ctl != NULL ? ctl->get_object_count("module build log") : 0;
    const ze_module_format_t formats[] = {ZE_MODULE_FORMAT_IL_SPIRV,
                                          ZE_MODULE_FORMAT_NATIVE};
    for (size_t i = 0; i < 2; i++) {
        ze_module_desc_t d = module_desc(formats[i]);
        ze_module_handle_t m = NULL;
        ze_module_build_log_handle_t log = NULL;
        // The loader's intercept mode hands out the log of a failed create
        // unwrapped: there it cannot be read through the loader.
        ze_result_t r = zeModuleCreate(t.ctx, t.devices[0], &d, &m,
                                       ze_test_intercept() ? NULL : &log);
        UMF_EXPECT(r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE ||
                   r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
        if (ctl != NULL) {
            UMF_EXPECT_EQ(r, i == 0 ? ZE_RESULT_ERROR_MODULE_BUILD_FAILURE
                                    : ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
            UMF_EXPECT(m == NULL);
            UMF_EXPECT_EQ(ctl->get_object_count("module build log"),
                          logs + (ze_test_intercept() ? 0 : 1));
        }
        if (r == ZE_RESULT_SUCCESS) {
            zeModuleDestroy(m);
        }
        if (log == NULL) {
            // The emulated driver always gives one.
            UMF_EXPECT(ctl == NULL || ze_test_intercept());
            continue;
        }
        // "The caller can pass nullptr for pBuildLog when querying only
        // for size."
        size_t size = 0;
        UMF_ASSERT_EQ(zeModuleBuildLogGetString(log, &size, NULL),
                      ZE_RESULT_SUCCESS);
        UMF_ASSERT(size >= 1);
        char *text = malloc(size);
        UMF_ASSERT(text != NULL);
        memset(text, 'x', size);
        UMF_EXPECT_EQ(zeModuleBuildLogGetString(log, &size, text),
                      ZE_RESULT_SUCCESS);
        UMF_EXPECT_EQ(text[size - 1], '\0');
        if (ctl != NULL) {
            // It names what the input is not.
            UMF_EXPECT(strstr(text, i == 0 ? "not a SPIR-V module"
                                           : "not a native binary") != NULL);
            // A smaller buffer gets what fits, terminated.
            char small[8];
            size_t n = sizeof(small);
            UMF_EXPECT_EQ(zeModuleBuildLogGetString(log, &n, small),
                          ZE_RESULT_SUCCESS);
            UMF_EXPECT_EQ(small[7], '\0');
            UMF_EXPECT(strncmp(small, text, 7) == 0);
        }
        free(text);
        if (ze_test_null_handles_checked()) {
            UMF_EXPECT_EQ(zeModuleBuildLogGetString(log, NULL, NULL),
                          ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        }
        UMF_EXPECT_EQ(zeModuleBuildLogDestroy(log), ZE_RESULT_SUCCESS);
        if (ctl != NULL) {
            UMF_EXPECT_EQ(ctl->get_object_count("module build log"), logs);
        }
    }
    if (ze_test_null_handles_checked()) {
        UMF_EXPECT_EQ(zeModuleBuildLogDestroy(NULL),
                      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    ze_test_teardown(&t);
}

// A build log the application forgot goes with its context.
UMF_C_TEST(zeModuleBuildLogDestroy, ForgottenLogGoesWithTheContext) {
    ZE_TEST_SETUP(t);
    const umf_test_mock_control_t *ctl = ze_test_control_if_emulated();
    if (ctl == NULL) {
        ze_test_teardown(&t);
        return;
    }
    int64_t logs = ctl->get_object_count("module build log");
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t ctx;
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &ctx), ZE_RESULT_SUCCESS);
    ze_module_desc_t d = module_desc(ZE_MODULE_FORMAT_IL_SPIRV);
    ze_module_handle_t m;
    ze_module_build_log_handle_t log;
    UMF_EXPECT_EQ(zeModuleCreate(ctx, t.devices[0], &d, &m, &log),
                  ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    UMF_EXPECT_EQ(ctl->get_object_count("module build log"), logs + 1);
    UMF_EXPECT_EQ(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ctl->get_object_count("module build log"), logs);
    ze_test_teardown(&t);
}
