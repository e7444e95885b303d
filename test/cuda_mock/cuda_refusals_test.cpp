// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The refusals of the module, library, kernel, function, launch, occupancy
// and linker families (issue 35 item 6), one table row per call and bad
// input, each with the result cuda.h 13.0 documents for it and, in a
// comment, the header's words.
//
// The rows run unchanged on a real driver, where the handles are real: a
// PTX module, a library and a link state made from the PTX below, so that
// the row's one bad input is the only one. On the emulated driver nothing
// can be loaded (docs/emulated-cuda.md, "Refused families"), so the handles
// are ones no call made; the driver checks the other arguments first, and
// the rows' answers are the same. Rows marked EMULATED hold on the emulated
// driver alone (a handle that cannot exist, a load refused, an order of
// checks the header does not state) and are skipped elsewhere.

#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "cuda_test_fixture.h"

// The deprecated calls (CUDA 1's launches, texture references) are among
// those tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

// One kernel `k` of one pointer parameter, doing nothing, and a global `g`:
// enough for a real driver to make every handle the rows need.
const char ptx[] = ".version 7.0\n"
                   ".target sm_75\n"
                   ".address_size 64\n"
                   ".visible .global .align 4 .u32 g;\n"
                   ".visible .entry k(.param .u64 p)\n"
                   "{\n"
                   "    ret;\n"
                   "}\n";

enum where_t { BOTH, EMULATED };

struct row_t {
    const char *call; // the entry point, then what is wrong
    CUresult want;
    where_t where;
    std::function<CUresult()> run;
};

class CudaRefusals : public CudaCtxTest {
  protected:
    CUmodule mod = nullptr;
    CUfunction fn = nullptr;
    CUlibrary lib = nullptr;
    CUkernel kern = nullptr;
    CUlinkState link = nullptr;
    int count = 0;

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        CU_ASSERT_OK(cu->cuDeviceGetCount(&count));
        if (cu->emulated()) {
            // Handles that no call of the driver made (it makes none).
            static int nothing;
            mod = reinterpret_cast<CUmodule>(&nothing);
            fn = reinterpret_cast<CUfunction>(&nothing);
            lib = reinterpret_cast<CUlibrary>(&nothing);
            kern = reinterpret_cast<CUkernel>(&nothing);
            link = reinterpret_cast<CUlinkState>(&nothing);
            return;
        }
        CU_ASSERT_OK(cu->cuModuleLoadData(&mod, ptx));
        CU_ASSERT_OK(cu->cuModuleGetFunction(&fn, mod, "k"));
        CU_ASSERT_OK(CU_SYM(cuLibraryLoadData)(&lib, ptx, nullptr, nullptr, 0,
                                               nullptr, nullptr, 0));
        CU_ASSERT_OK(CU_SYM(cuLibraryGetKernel)(&kern, lib, "k"));
        CU_ASSERT_OK(CU_SYM(cuLinkCreate)(0, nullptr, nullptr, &link));
    }

    void TearDown() override {
        if (!cu->emulated()) {
            if (link != nullptr) {
                CU_EXPECT_OK(CU_SYM(cuLinkDestroy)(link));
            }
            if (lib != nullptr) {
                CU_EXPECT_OK(CU_SYM(cuLibraryUnload)(lib));
            }
            if (mod != nullptr) {
                CU_EXPECT_OK(CU_SYM(cuModuleUnload)(mod));
            }
        }
        CudaCtxTest::TearDown();
    }

    // Runs the rows that hold on this driver; each code a row expects has a
    // name and a description (cuGetErrorName, cuGetErrorString).
    void run(const std::vector<row_t> &rows) {
        std::set<CUresult> codes;
        int ran = 0;
        for (const row_t &r : rows) {
            if (r.where == EMULATED && !cu->emulated()) {
                continue;
            }
            EXPECT_EQ(r.run(), r.want) << r.call;
            codes.insert(r.want);
            ++ran;
        }
        EXPECT_GT(ran, 0);
        for (CUresult c : codes) {
            const char *name = nullptr, *text = nullptr;
            CU_EXPECT_OK(cu->cuGetErrorName(c, &name));
            CU_EXPECT_OK(cu->cuGetErrorString(c, &text));
            ASSERT_NE(name, nullptr) << c;
            ASSERT_NE(text, nullptr) << c;
            EXPECT_NE(std::strlen(text), 0u) << name;
            EXPECT_EQ(cuda_test_result(c).find(name), 0u) << name; // its name
        }
    }
};

// ---------------------------------------------------------------------------
// Modules

TEST_F(CudaRefusals, Modules) {
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    CUfunction list[1];
    unsigned n = 0;
    CUdeviceptr dptr = 0;
    CUtexref tex = nullptr;
    CUsurfref surf = nullptr;
    auto load_data_ex = CU_SYM(cuModuleLoadDataEx);
    auto load_fat = CU_SYM(cuModuleLoadFatBinary);
    auto unload = CU_SYM(cuModuleUnload);
    auto loading_mode = CU_SYM(cuModuleGetLoadingMode);
    auto function_count = CU_SYM(cuModuleGetFunctionCount);
    auto enumerate = CU_SYM(cuModuleEnumerateFunctions);
    auto get_global = CU_SYM(cuModuleGetGlobal);
    auto get_tex = CU_SYM(cuModuleGetTexRef);
    auto get_surf = CU_SYM(cuModuleGetSurfRef);
    run({
        // Every out-pointer of the family: CUDA_ERROR_INVALID_VALUE, which
        // each call's \return lists.
        {"cuModuleLoad module NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return cu->cuModuleLoad(nullptr, "umf-gpu.cubin"); }},
        {"cuModuleLoadData module NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return cu->cuModuleLoadData(nullptr, ptx); }},
        {"cuModuleLoadDataEx module NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return load_data_ex(nullptr, ptx, 0, nullptr, nullptr); }},
        {"cuModuleLoadFatBinary module NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return load_fat(nullptr, ptx); }},
        {"cuModuleGetLoadingMode mode NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return loading_mode(nullptr); }},
        {"cuModuleGetFunction hfunc NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return cu->cuModuleGetFunction(nullptr, mod, "k"); }},
        {"cuModuleGetFunctionCount count NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return function_count(nullptr, mod); }},
        {"cuModuleEnumerateFunctions functions NULL", CUDA_ERROR_INVALID_VALUE,
         BOTH, [&] { return enumerate(nullptr, 1, mod); }},
        // "One of the parameters dptr or bytes (not both) can be NULL in
        // which case it is ignored."
        {"cuModuleGetGlobal dptr and bytes NULL", CUDA_ERROR_INVALID_VALUE,
         BOTH, [&] { return get_global(nullptr, nullptr, mod, "g"); }},
        {"cuModuleGetTexRef pTexRef NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return get_tex(nullptr, mod, "t"); }},
        {"cuModuleGetSurfRef pSurfRef NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return get_surf(nullptr, mod, "s"); }},
        // cuModuleLoadData lists CUDA_ERROR_INVALID_CONTEXT: a module is
        // loaded into the current context, and there is none.
        {"cuModuleLoadData no context", CUDA_ERROR_INVALID_CONTEXT, BOTH,
         [&] {
             CUcontext top = nullptr;
             EXPECT_EQ(cu->cuCtxPopCurrent_v2(&top), CUDA_SUCCESS);
             CUresult r = cu->cuModuleLoadData(&m, ptx);
             EXPECT_EQ(cu->cuCtxPushCurrent_v2(top), CUDA_SUCCESS);
             return r;
         }},
        // Names and option arrays: the header states no order against the
        // module, so these hold where the module cannot exist.
        {"cuModuleGetFunction name NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return cu->cuModuleGetFunction(&f, mod, nullptr); }},
        {"cuModuleGetGlobal name NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return get_global(&dptr, nullptr, mod, nullptr); }},
        {"cuModuleLoadDataEx options NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return load_data_ex(&m, ptx, 1, nullptr, nullptr); }},
        // No image can be loaded on devices that run no code: the emulated
        // driver's documented refusal (docs/emulated-cuda.md), though only
        // cuLibraryLoadData's \return lists CUDA_ERROR_NOT_SUPPORTED.
        {"cuModuleLoadData refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] {
             m = mod;
             CUresult r = cu->cuModuleLoadData(&m, ptx);
             EXPECT_EQ(m, nullptr) << "a refused load leaves no module";
             return r;
         }},
        {"cuModuleLoad refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] { return cu->cuModuleLoad(&m, "umf-gpu.cubin"); }},
        {"cuModuleLoadDataEx refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] { return load_data_ex(&m, ptx, 0, nullptr, nullptr); }},
        {"cuModuleLoadFatBinary refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] { return load_fat(&m, ptx); }},
        // A module that cannot exist: CUDA_ERROR_INVALID_HANDLE, as a driver
        // answers a handle it never made (the header names no code for one
        // here). NULL (what a refused load leaves): CUDA_ERROR_INVALID_VALUE,
        // since the results list no CUDA_ERROR_INVALID_HANDLE (the rule of
        // cuFuncGetName's "If either **name or hfunc is NULL").
        {"cuModuleUnload no module", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return unload(mod); }},
        {"cuModuleUnload NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return unload(nullptr); }},
        {"cuModuleGetFunction no module", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return cu->cuModuleGetFunction(&f, mod, "k"); }},
        {"cuModuleGetFunctionCount no module", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return function_count(&n, mod); }},
        {"cuModuleEnumerateFunctions no module", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return enumerate(list, 1, mod); }},
        {"cuModuleGetGlobal no module", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_global(&dptr, nullptr, mod, "g"); }},
        {"cuModuleGetTexRef no module", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_tex(&tex, mod, "t"); }},
        {"cuModuleGetSurfRef no module", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_surf(&surf, mod, "s"); }},
    });
}

// ---------------------------------------------------------------------------
// Libraries and kernels

TEST_F(CudaRefusals, LibrariesAndKernels) {
    CUlibrary l = nullptr;
    CUkernel k = nullptr;
    CUkernel list[1];
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    CUdeviceptr dptr = 0;
    size_t bytes = 0, offset = 0;
    void *fptr = nullptr;
    unsigned n = 0;
    int v = 0;
    const char *name = nullptr;
    auto load_data = CU_SYM(cuLibraryLoadData);
    auto load_file = CU_SYM(cuLibraryLoadFromFile);
    auto unload = CU_SYM(cuLibraryUnload);
    auto get_kernel = CU_SYM(cuLibraryGetKernel);
    auto kernel_count = CU_SYM(cuLibraryGetKernelCount);
    auto enumerate = CU_SYM(cuLibraryEnumerateKernels);
    auto get_module = CU_SYM(cuLibraryGetModule);
    auto get_global = CU_SYM(cuLibraryGetGlobal);
    auto get_managed = CU_SYM(cuLibraryGetManaged);
    auto unified = CU_SYM(cuLibraryGetUnifiedFunction);
    auto kernel_function = CU_SYM(cuKernelGetFunction);
    auto kernel_library = CU_SYM(cuKernelGetLibrary);
    auto get_attr = CU_SYM(cuKernelGetAttribute);
    auto set_attr = CU_SYM(cuKernelSetAttribute);
    auto cache = CU_SYM(cuKernelSetCacheConfig);
    auto kernel_name = CU_SYM(cuKernelGetName);
    auto param_info = CU_SYM(cuKernelGetParamInfo);
    run({
        {"cuLibraryLoadData library NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] {
             return load_data(nullptr, ptx, nullptr, nullptr, 0, nullptr,
                              nullptr, 0);
         }},
        {"cuLibraryLoadFromFile library NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] {
             return load_file(nullptr, "umf-gpu.cubin", nullptr, nullptr, 0,
                              nullptr, nullptr, 0);
         }},
        {"cuLibraryGetKernel pKernel NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return get_kernel(nullptr, lib, "k"); }},
        {"cuLibraryGetKernelCount count NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return kernel_count(nullptr, lib); }},
        {"cuLibraryEnumerateKernels kernels NULL", CUDA_ERROR_INVALID_VALUE,
         BOTH, [&] { return enumerate(nullptr, 1, lib); }},
        {"cuLibraryGetModule pMod NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return get_module(nullptr, lib); }},
        // "One of the parameters dptr or bytes (not both) can be NULL in
        // which case it is ignored."
        {"cuLibraryGetGlobal dptr and bytes NULL", CUDA_ERROR_INVALID_VALUE,
         BOTH, [&] { return get_global(nullptr, nullptr, lib, "g"); }},
        {"cuKernelGetFunction pFunc NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return kernel_function(nullptr, kern); }},
        {"cuKernelGetLibrary pLib NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return kernel_library(nullptr, kern); }},
        {"cuKernelGetAttribute pi NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] {
             return get_attr(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, kern, dev);
         }},
        // \return lists CUDA_ERROR_INVALID_DEVICE: a device past the last.
        {"cuKernelGetAttribute device", CUDA_ERROR_INVALID_DEVICE, BOTH,
         [&] { return get_attr(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, kern, count); }},
        // "Attempting to set a value on a read-only attribute will result
        // in an error (CUDA_ERROR_INVALID_VALUE)".
        {"cuKernelSetAttribute read-only", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return set_attr(CU_FUNC_ATTRIBUTE_NUM_REGS, 1, kern, dev); }},
        // "If either **name or hfunc is NULL, CUDA_ERROR_INVALID_VALUE is
        // returned."
        {"cuKernelGetName name NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return kernel_name(nullptr, kern); }},
        {"cuKernelGetName hfunc NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return kernel_name(&name, nullptr); }},
        // "paramSize can be set to NULL if only the parameter offset is
        // desired": paramOffset cannot.
        {"cuKernelGetParamInfo paramOffset NULL", CUDA_ERROR_INVALID_VALUE,
         BOTH, [&] { return param_info(kern, 0, nullptr, &bytes); }},
        // \return: CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, no other: a NULL
        // kernel is an invalid value, as for cuKernelGetName.
        {"cuKernelGetParamInfo kernel NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return param_info(nullptr, 0, &offset, nullptr); }},
        // The same sentence; a real library has no managed variable, and
        // the header states no order against CUDA_ERROR_NOT_FOUND.
        {"cuLibraryGetManaged dptr and bytes NULL", CUDA_ERROR_INVALID_VALUE,
         EMULATED, [&] { return get_managed(nullptr, nullptr, lib, "g"); }},
        {"cuLibraryGetUnifiedFunction fptr NULL", CUDA_ERROR_INVALID_VALUE,
         EMULATED, [&] { return unified(nullptr, lib, "k"); }},
        {"cuLibraryGetKernel name NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return get_kernel(&k, lib, nullptr); }},
        {"cuLibraryLoadData jitOptions NULL", CUDA_ERROR_INVALID_VALUE,
         EMULATED,
         [&] {
             return load_data(&l, ptx, nullptr, nullptr, 1, nullptr, nullptr,
                              0);
         }},
        {"cuKernelGetAttribute attribute", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return get_attr(&v, CU_FUNC_ATTRIBUTE_MAX, kern, dev); }},
        {"cuKernelSetCacheConfig config", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return cache(kern, static_cast<CUfunc_cache>(99), dev); }},
        // Refused: no library can be loaded (cuLibraryLoadData's \return
        // lists CUDA_ERROR_NOT_SUPPORTED), and none needs a context.
        {"cuLibraryLoadData refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] {
             l = lib;
             CUresult r =
                 load_data(&l, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0);
             EXPECT_EQ(l, nullptr) << "a refused load leaves no library";
             return r;
         }},
        {"cuLibraryLoadFromFile refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] {
             return load_file(&l, "umf-gpu.cubin", nullptr, nullptr, 0, nullptr,
                              nullptr, 0);
         }},
        // A library or kernel that cannot exist: CUDA_ERROR_INVALID_HANDLE
        // (listed by all but cuLibraryUnload, which names no code for one).
        {"cuLibraryUnload no library", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return unload(lib); }},
        {"cuLibraryGetKernel no library", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_kernel(&k, lib, "k"); }},
        {"cuLibraryGetKernelCount no library", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return kernel_count(&n, lib); }},
        {"cuLibraryEnumerateKernels no library", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return enumerate(list, 1, lib); }},
        {"cuLibraryGetModule no library", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_module(&m, lib); }},
        {"cuLibraryGetGlobal no library", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_global(nullptr, &bytes, lib, "g"); }},
        {"cuLibraryGetManaged no library", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_managed(&dptr, nullptr, lib, "g"); }},
        {"cuLibraryGetUnifiedFunction no library", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return unified(&fptr, lib, "k"); }},
        {"cuKernelGetFunction no kernel", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return kernel_function(&f, kern); }},
        {"cuKernelGetLibrary no kernel", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return kernel_library(&l, kern); }},
        {"cuKernelGetAttribute no kernel", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_attr(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, kern, dev); }},
        {"cuKernelSetAttribute no kernel", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return set_attr(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0,
                             kern, dev);
         }},
        {"cuKernelSetCacheConfig no kernel", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return cache(kern, CU_FUNC_CACHE_PREFER_NONE, dev); }},
        {"cuKernelGetName no kernel", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return kernel_name(&name, kern); }},
        {"cuKernelGetParamInfo no kernel", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return param_info(kern, 0, &offset, nullptr); }},
    });
}

// ---------------------------------------------------------------------------
// Functions and occupancy

TEST_F(CudaRefusals, FunctionsAndOccupancy) {
    CUmodule m = nullptr;
    size_t size = 0, offset = 0;
    int v = 0, grid = 0, block = 0;
    const char *name = nullptr;
    CUfunctionLoadingState state;
    CUlaunchConfig config = {};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = config.blockDimY = config.blockDimZ = 1;
    auto get_attr = CU_SYM(cuFuncGetAttribute);
    auto set_attr = CU_SYM(cuFuncSetAttribute);
    auto cache = CU_SYM(cuFuncSetCacheConfig);
    auto shared = CU_SYM(cuFuncSetSharedMemConfig);
    auto get_module = CU_SYM(cuFuncGetModule);
    auto func_name = CU_SYM(cuFuncGetName);
    auto param_info = CU_SYM(cuFuncGetParamInfo);
    auto is_loaded = CU_SYM(cuFuncIsLoaded);
    auto load = CU_SYM(cuFuncLoad);
    auto blocks = CU_SYM(cuOccupancyMaxActiveBlocksPerMultiprocessor);
    auto blocks_flags =
        CU_SYM(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags);
    auto block_size = CU_SYM(cuOccupancyMaxPotentialBlockSize);
    auto block_size_flags = CU_SYM(cuOccupancyMaxPotentialBlockSizeWithFlags);
    auto smem = CU_SYM(cuOccupancyAvailableDynamicSMemPerBlock);
    auto cluster_size = CU_SYM(cuOccupancyMaxPotentialClusterSize);
    auto clusters = CU_SYM(cuOccupancyMaxActiveClusters);
    run({
        {"cuFuncGetAttribute pi NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return get_attr(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, fn); }},
        // "Attempting to set a value on a read-only attribute will result
        // in an error (CUDA_ERROR_INVALID_VALUE)".
        {"cuFuncSetAttribute read-only", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return set_attr(fn, CU_FUNC_ATTRIBUTE_NUM_REGS, 1); }},
        {"cuFuncGetModule hmod NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return get_module(nullptr, fn); }},
        // "If either **name or hfunc is NULL, CUDA_ERROR_INVALID_VALUE is
        // returned."
        {"cuFuncGetName name NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return func_name(nullptr, fn); }},
        {"cuFuncGetName hfunc NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return func_name(&name, nullptr); }},
        // "paramSize can be set to NULL if only the parameter offset is
        // desired": paramOffset cannot.
        {"cuFuncGetParamInfo paramOffset NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return param_info(fn, 0, nullptr, &size); }},
        {"cuFuncIsLoaded state NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return is_loaded(nullptr, fn); }},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor numBlocks NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return blocks(nullptr, fn, 32, 0); }},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags numBlocks NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return blocks_flags(nullptr, fn, 32, 0, 0); }},
        {"cuOccupancyMaxPotentialBlockSize minGridSize NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return block_size(nullptr, &block, fn, nullptr, 0, 0); }},
        {"cuOccupancyMaxPotentialBlockSize blockSize NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return block_size(&grid, nullptr, fn, nullptr, 0, 0); }},
        {"cuOccupancyMaxPotentialBlockSizeWithFlags blockSize NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] {
             return block_size_flags(&grid, nullptr, fn, nullptr, 0, 0, 0);
         }},
        {"cuOccupancyAvailableDynamicSMemPerBlock dynamicSmemSize NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return smem(nullptr, fn, 1, 32); }},
        {"cuOccupancyMaxPotentialClusterSize clusterSize NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return cluster_size(nullptr, fn, &config); }},
        {"cuOccupancyMaxActiveClusters numClusters NULL",
         CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return clusters(nullptr, fn, &config); }},
        // Enumerations out of range and a missing configuration: the header
        // states no order against the function.
        {"cuFuncGetAttribute attribute", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return get_attr(&v, CU_FUNC_ATTRIBUTE_MAX, fn); }},
        {"cuFuncSetCacheConfig config", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return cache(fn, static_cast<CUfunc_cache>(99)); }},
        {"cuFuncSetSharedMemConfig config", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return shared(fn, static_cast<CUsharedconfig>(99)); }},
        {"cuOccupancyMaxPotentialClusterSize config NULL",
         CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return cluster_size(&v, fn, nullptr); }},
        {"cuOccupancyMaxActiveClusters config NULL", CUDA_ERROR_INVALID_VALUE,
         EMULATED, [&] { return clusters(&v, fn, nullptr); }},
        // \return: CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, no other: a NULL
        // function is an invalid value, as for cuFuncGetName.
        {"cuFuncGetParamInfo func NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return param_info(nullptr, 0, &offset, nullptr); }},
        // cuFuncGetAttribute lists CUDA_ERROR_INVALID_HANDLE: NULL is none.
        {"cuFuncGetAttribute hfunc NULL", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_attr(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, nullptr); }},
        // A function that cannot exist: CUDA_ERROR_INVALID_HANDLE.
        {"cuFuncGetAttribute no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_attr(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fn); }},
        {"cuFuncSetAttribute no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return set_attr(
                 fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0);
         }},
        {"cuFuncSetCacheConfig no function", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return cache(fn, CU_FUNC_CACHE_PREFER_NONE); }},
        {"cuFuncSetSharedMemConfig no function", CUDA_ERROR_INVALID_HANDLE,
         EMULATED,
         [&] { return shared(fn, CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE); }},
        {"cuFuncGetModule no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return get_module(&m, fn); }},
        {"cuFuncGetName no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return func_name(&name, fn); }},
        {"cuFuncGetParamInfo no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return param_info(fn, 0, &offset, &size); }},
        {"cuFuncIsLoaded no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return is_loaded(&state, fn); }},
        {"cuFuncLoad no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return load(fn); }},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return blocks(&v, fn, 32, 0); }},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return blocks_flags(&v, fn, 32, 0, 0); }},
        {"cuOccupancyMaxPotentialBlockSize no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return block_size(&grid, &block, fn, nullptr, 0, 0); }},
        {"cuOccupancyMaxPotentialBlockSizeWithFlags no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return block_size_flags(&grid, &block, fn, nullptr, 0, 0, 0); }},
        {"cuOccupancyAvailableDynamicSMemPerBlock no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return smem(&size, fn, 1, 32); }},
        {"cuOccupancyMaxPotentialClusterSize no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return cluster_size(&v, fn, &config); }},
        {"cuOccupancyMaxActiveClusters no function", CUDA_ERROR_INVALID_HANDLE,
         EMULATED, [&] { return clusters(&v, fn, &config); }},
    });
}

// ---------------------------------------------------------------------------
// Launches, those of CUDA 1 included

TEST_F(CudaRefusals, Launches) {
    CUdeviceptr arg = 0;
    void *params[] = {&arg};
    void *extra[] = {CU_LAUNCH_PARAM_END};
    float value = 1.0f;
    CUlaunchConfig config = {};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = config.blockDimY = config.blockDimZ = 1;
    CUlaunchAttribute cooperative = {};
    cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    cooperative.value.cooperative = 1;
    CUlaunchConfig coop_config = config;
    coop_config.attrs = &cooperative;
    coop_config.numAttrs = 1;
    CUDA_LAUNCH_PARAMS multi = {};
    // The per-thread stream names (_ptsz), which cuda.h declares to the
    // driver alone, take their twins' arguments.
    auto launch_ptsz =
        cuda_test_sym<decltype(&::cuLaunchKernel)>("cuLaunchKernel_ptsz");
    auto launch_ex = CU_SYM(cuLaunchKernelEx);
    auto launch_ex_ptsz =
        cuda_test_sym<decltype(&::cuLaunchKernelEx)>("cuLaunchKernelEx_ptsz");
    auto coop = CU_SYM(cuLaunchCooperativeKernel);
    auto coop_ptsz = cuda_test_sym<decltype(&::cuLaunchCooperativeKernel)>(
        "cuLaunchCooperativeKernel_ptsz");
    auto coop_multi = CU_SYM(cuLaunchCooperativeKernelMultiDevice);
    auto block_shape = CU_SYM(cuFuncSetBlockShape);
    auto shared_size = CU_SYM(cuFuncSetSharedSize);
    auto set_size = CU_SYM(cuParamSetSize);
    auto seti = CU_SYM(cuParamSeti);
    auto setf = CU_SYM(cuParamSetf);
    auto setv = CU_SYM(cuParamSetv);
    auto set_tex = CU_SYM(cuParamSetTexRef);
    auto launch1 = CU_SYM(cuLaunch);
    auto grid = CU_SYM(cuLaunchGrid);
    auto grid_async = CU_SYM(cuLaunchGridAsync);
    run({
        // "CUDA_ERROR_INVALID_VALUE will be returned if kernel parameters
        // are specified with both kernelParams and extra (i.e. both
        // kernelParams and extra are non-NULL)."
        {"cuLaunchKernel kernelParams and extra", CUDA_ERROR_INVALID_VALUE,
         BOTH,
         [&] {
             return cu->cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, params,
                                       extra);
         }},
        {"cuLaunchKernelEx kernelParams and extra", CUDA_ERROR_INVALID_VALUE,
         BOTH, [&] { return launch_ex(&config, fn, params, extra); }},
        // "CUDA_ERROR_INVALID_VALUE will be returned if extra is used for a
        // cooperative kernel."
        {"cuLaunchKernelEx cooperative extra", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return launch_ex(&coop_config, fn, nullptr, extra); }},
        {"cuLaunchKernelEx config NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return launch_ex(nullptr, fn, params, nullptr); }},
        {"cuLaunchCooperativeKernelMultiDevice list NULL",
         CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return coop_multi(nullptr, 1, 0); }},
        {"cuParamSetv ptr NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return setv(fn, 0, nullptr, 8); }},
        // A function that cannot exist, NULL included: every launch lists
        // CUDA_ERROR_INVALID_HANDLE but cuLaunch, cuLaunchGrid and the
        // cuParamSet* calls, which name no code for one.
        {"cuLaunchKernel no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return cu->cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, params,
                                       nullptr);
         }},
        {"cuLaunchKernel NULL", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return cu->cuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr,
                                       params, nullptr);
         }},
        {"cuLaunchKernel_ptsz no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return launch_ptsz(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, params,
                                nullptr);
         }},
        {"cuLaunchKernelEx no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return launch_ex(&config, fn, params, nullptr); }},
        {"cuLaunchKernelEx_ptsz no function", CUDA_ERROR_INVALID_HANDLE,
         EMULATED,
         [&] { return launch_ex_ptsz(&config, fn, params, nullptr); }},
        {"cuLaunchCooperativeKernel no function", CUDA_ERROR_INVALID_HANDLE,
         EMULATED,
         [&] { return coop(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, params); }},
        {"cuLaunchCooperativeKernel_ptsz no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return coop_ptsz(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, params); }},
        {"cuLaunchCooperativeKernelMultiDevice no function",
         CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             multi.function = fn;
             return coop_multi(&multi, 1, 0);
         }},
        {"cuFuncSetBlockShape no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return block_shape(fn, 1, 1, 1); }},
        {"cuFuncSetSharedSize no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return shared_size(fn, 0); }},
        {"cuParamSetSize no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return set_size(fn, 8); }},
        {"cuParamSeti no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return seti(fn, 0, 1); }},
        {"cuParamSetf no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return setf(fn, 0, value); }},
        {"cuParamSetv no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return setv(fn, 0, &arg, sizeof arg); }},
        {"cuParamSetTexRef no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return set_tex(fn, CU_PARAM_TR_DEFAULT, nullptr); }},
        {"cuLaunch no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return launch1(fn); }},
        {"cuLaunchGrid no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return grid(fn, 1, 1); }},
        {"cuLaunchGridAsync no function", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return grid_async(fn, 1, 1, nullptr); }},
    });
}

// ---------------------------------------------------------------------------
// The JIT linker

TEST_F(CudaRefusals, Linker) {
    CUlinkState s = nullptr;
    CUjit_option option = CU_JIT_MAX_REGISTERS;
    void *cubin = nullptr;
    size_t size = 0;
    auto create = CU_SYM(cuLinkCreate);
    auto add_data = CU_SYM(cuLinkAddData);
    auto add_file = CU_SYM(cuLinkAddFile);
    auto complete = CU_SYM(cuLinkComplete);
    auto destroy = CU_SYM(cuLinkDestroy);
    void *data = const_cast<char *>(ptx);
    run({
        {"cuLinkCreate stateOut NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] { return create(0, nullptr, nullptr, nullptr); }},
        {"cuLinkAddData data NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] {
             return add_data(link, CU_JIT_INPUT_PTX, nullptr, 0, "x", 0,
                             nullptr, nullptr);
         }},
        {"cuLinkAddFile path NULL", CUDA_ERROR_INVALID_VALUE, BOTH,
         [&] {
             return add_file(link, CU_JIT_INPUT_PTX, nullptr, 0, nullptr,
                             nullptr);
         }},
        {"cuLinkCreate optionValues NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return create(1, &option, nullptr, &s); }},
        // cuLinkComplete's \return names no CUDA_ERROR_INVALID_VALUE; the
        // emulated driver answers a NULL cubinOut with it all the same.
        {"cuLinkComplete cubinOut NULL", CUDA_ERROR_INVALID_VALUE, EMULATED,
         [&] { return complete(link, nullptr, &size); }},
        // Refused: nothing can be linked (cuLinkCreate's \return lists no
        // code for it; the emulated driver's documented refusal).
        {"cuLinkCreate refused", CUDA_ERROR_NOT_SUPPORTED, EMULATED,
         [&] {
             s = link;
             CUresult r = create(0, nullptr, nullptr, &s);
             EXPECT_EQ(s, nullptr) << "a refused link leaves no state";
             return r;
         }},
        // A link state that cannot exist: each call lists
        // CUDA_ERROR_INVALID_HANDLE.
        {"cuLinkAddData no state", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return add_data(link, CU_JIT_INPUT_PTX, data, sizeof ptx, "x", 0,
                             nullptr, nullptr);
         }},
        {"cuLinkAddFile no state", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] {
             return add_file(link, CU_JIT_INPUT_PTX, "umf-gpu.ptx", 0, nullptr,
                             nullptr);
         }},
        {"cuLinkComplete no state", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return complete(link, &cubin, &size); }},
        {"cuLinkDestroy no state", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return destroy(link); }},
        {"cuLinkDestroy NULL", CUDA_ERROR_INVALID_HANDLE, EMULATED,
         [&] { return destroy(nullptr); }},
    });
}

} // namespace
