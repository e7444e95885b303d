// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernel engine of mock_kernel.h on pocl. The translator is a separate
// tool run with posix_spawn rather than libLLVMSPIRVLib linked in: the
// library is C++ and pulls a whole LLVM into every process that loads the
// driver, whether it runs a kernel or not, while the tool costs one short
// process per module build (a few ms beside pocl's seconds of compile).

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "mock_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mock_log.h"
#include "mock_spirv.h"
#include <dlfcn.h>

extern char **environ;

#define OPENCL_LIBRARY "libOpenCL.so.1"
#define TRANSLATOR "llvm-spirv-14"
#define LINKER "llvm-link-14"
#define INSTALL_HINT                                                           \
    "install the Debian packages pocl-opencl-icd, ocl-icd-libopencl1 and "     \
    "llvm-spirv-14 to run kernels on the CPU"

// ---- The OpenCL entry points used -------------------------------------------

#define CL_ENTRIES(X)                                                          \
    X(clGetPlatformIDs)                                                        \
    X(clGetPlatformInfo)                                                       \
    X(clGetDeviceIDs)                                                          \
    X(clGetDeviceInfo)                                                         \
    X(clCreateContext)                                                         \
    X(clCreateCommandQueueWithProperties)                                      \
    X(clCreateProgramWithBinary)                                               \
    X(clBuildProgram)                                                          \
    X(clGetProgramInfo)                                                        \
    X(clGetProgramBuildInfo)                                                   \
    X(clReleaseProgram)                                                        \
    X(clCreateKernel)                                                          \
    X(clReleaseKernel)                                                         \
    X(clGetKernelInfo)                                                         \
    X(clGetKernelArgInfo)                                                      \
    X(clGetKernelWorkGroupInfo)                                                \
    X(clSetKernelArg)                                                          \
    X(clSetKernelArgSVMPointer)                                                \
    X(clEnqueueNDRangeKernel)                                                  \
    X(clFinish)

#define CL_DECLARE(name) __typeof__(name) *name;
#define CL_SYMBOL(name) {#name, (void **)&cl.name},

static struct { CL_ENTRIES(CL_DECLARE) } cl;

static struct {
    pthread_once_t once;
    bool ok;
    char why[768];
    char translator[512];
    pthread_once_t linker_once;
    char linker[512]; // "" when not found
    umf_mock_kernel_limits_t limits;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    pthread_mutex_t lock; // launches and argument checks: one at a time
} be = {.once = PTHREAD_ONCE_INIT,
        .linker_once = PTHREAD_ONCE_INIT,
        .lock = PTHREAD_MUTEX_INITIALIZER};

static void say(char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t why_size, const char *fmt, ...) {
    if (why != NULL && why_size > 0) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(why, why_size, fmt, args);
        va_end(args);
    }
}

// A tool: the path in variable `env`, else `name` on PATH, into out[512].
// False with the reason in why[768].
static bool find_tool(const char *env, const char *name, char *out, char *why) {
    const char *set = getenv(env);
    if (set != NULL && set[0] != '\0') {
        if (access(set, X_OK) != 0) {
            say(why, 768, "%s=%s is not an executable: %s", env, set,
                strerror(errno));
            return false;
        }
        snprintf(out, 512, "%s", set);
        return true;
    }
    const char *path = getenv("PATH");
    if (path == NULL) {
        path = "/usr/bin:/bin";
    }
    while (*path != '\0') {
        size_t len = strcspn(path, ":");
        snprintf(out, 512, "%.*s/%s", (int)len, len > 0 ? path : ".", name);
        if (access(out, X_OK) == 0) {
            return true;
        }
        path += len + (path[len] == ':');
    }
    say(why, 768, "no %s on PATH (or set %s)", name, env);
    return false;
}

// The translator: UMF_GPU_MOCK_LLVM_SPIRV, else llvm-spirv-14 on PATH.
static bool find_translator(void) {
    if (find_tool("UMF_GPU_MOCK_LLVM_SPIRV", TRANSLATOR, be.translator,
                  be.why)) {
        return true;
    }
    size_t len = strlen(be.why);
    snprintf(be.why + len, sizeof(be.why) - len, ": %s", INSTALL_HINT);
    return false;
}

// The linker of modules that import each other's functions (at the first
// zeModuleDynamicLink that needs it): UMF_GPU_MOCK_LLVM_LINK, else
// llvm-link-14 on PATH (Debian's llvm-14).
static char linker_why[768];
static void find_linker(void) {
    if (!find_tool("UMF_GPU_MOCK_LLVM_LINK", LINKER, be.linker, linker_why)) {
        be.linker[0] = '\0';
    }
}

// pocl's CPU device among the platforms ocl-icd knows.
static bool find_device(void) {
    cl_platform_id platforms[16];
    cl_uint n = 0;
    if (cl.clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS || n == 0) {
        say(be.why, sizeof(be.why),
            "OpenCL finds no platform (no ICD in /etc/OpenCL/vendors): %s",
            INSTALL_HINT);
        return false;
    }
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        cl.clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name), name,
                             NULL);
        if (strstr(name, "Portable Computing Language") != NULL &&
            cl.clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &be.device,
                              NULL) == CL_SUCCESS) {
            return true;
        }
    }
    say(be.why, sizeof(be.why),
        "OpenCL has no pocl CPU device among its %u platforms: %s", n,
        INSTALL_HINT);
    return false;
}

static uint32_t fp_flags(cl_device_fp_config c) {
    static const struct {
        cl_device_fp_config cl;
        uint32_t flag;
    } map[] = {
        {CL_FP_DENORM, UMF_MOCK_FP_DENORM},
        {CL_FP_INF_NAN, UMF_MOCK_FP_INF_NAN},
        {CL_FP_ROUND_TO_NEAREST, UMF_MOCK_FP_ROUND_TO_NEAREST},
        {CL_FP_ROUND_TO_ZERO, UMF_MOCK_FP_ROUND_TO_ZERO},
        {CL_FP_ROUND_TO_INF, UMF_MOCK_FP_ROUND_TO_INF},
        {CL_FP_FMA, UMF_MOCK_FP_FMA},
        {CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, UMF_MOCK_FP_CORRECT_DIVIDE_SQRT},
        {CL_FP_SOFT_FLOAT, UMF_MOCK_FP_SOFT_FLOAT},
    };
    uint32_t f = 0;
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        f |= (c & map[i].cl) ? map[i].flag : 0;
    }
    return f;
}

static void read_limits(void) {
    umf_mock_kernel_limits_t *l = &be.limits;
    size_t group = 0, dims[3] = {0, 0, 0};
    cl_ulong local = 0;
    cl_uint units = 0;
    cl_device_fp_config fp64 = 0, fp32 = 0;
    size_t args = 0;
    char ext[4096] = "";
    cl.clGetDeviceInfo(be.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(group),
                       &group, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(dims),
                       dims, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local),
                       &local, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units),
                       &units, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp64),
                       &fp64, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(fp32),
                       &fp32, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(args),
                       &args, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL);
    cl.clGetDeviceInfo(be.device, CL_DEVICE_NAME, sizeof(l->device_name),
                       l->device_name, NULL);
    l->max_group_size = group > UINT32_MAX ? UINT32_MAX : (uint32_t)group;
    for (int i = 0; i < 3; i++) {
        l->max_group_dims[i] =
            dims[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)dims[i];
    }
    l->local_mem_size = local;
    l->compute_units = units;
    l->fp64 = fp64 != 0;
    l->fp32_flags = fp_flags(fp32);
    l->fp64_flags = fp_flags(fp64);
    l->max_args_size = args > UINT32_MAX ? UINT32_MAX : (uint32_t)args;
    l->int64_atomics = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
    l->spirv_version = 0x00010400; // what llvm-spirv 14 reads at most
}

static void load_backend(void) {
    const char *want = getenv("UMF_GPU_MOCK_KERNELS");
    if (want != NULL && strcmp(want, "off") == 0) {
        say(be.why, sizeof(be.why),
            "UMF_GPU_MOCK_KERNELS=off: the CPU backend is not loaded");
        return;
    }
    if (!find_translator()) {
        return;
    }
    // dlopen here and not through utils/util_dl.c: that one is the
    // library's (it logs as umf-gpu and speaks umf_result_t), and the
    // drivers depend on nothing of the library.
    void *lib = dlopen(OPENCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        const char *reason = dlerror();
        say(be.why, sizeof(be.why), "cannot load %s (%s): %s", OPENCL_LIBRARY,
            reason != NULL ? reason : "unknown error", INSTALL_HINT);
        return;
    }
    static const struct {
        const char *name;
        void **slot;
    } symbols[] = {CL_ENTRIES(CL_SYMBOL)};
    for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
        if ((*symbols[i].slot = dlsym(lib, symbols[i].name)) == NULL) {
            say(be.why, sizeof(be.why),
                "%s lacks %s (OpenCL 2.0 or later "
                "is needed): %s",
                OPENCL_LIBRARY, symbols[i].name, INSTALL_HINT);
            return; // the library stays loaded: nothing else is needed
        }
    }
    if (!find_device()) {
        return;
    }
    cl_int err = CL_SUCCESS;
    be.context = cl.clCreateContext(NULL, 1, &be.device, NULL, NULL, &err);
    if (be.context == NULL) {
        say(be.why, sizeof(be.why), "pocl made no context (OpenCL error %d)",
            err);
        return;
    }
    be.queue = cl.clCreateCommandQueueWithProperties(be.context, be.device,
                                                     NULL, &err);
    if (be.queue == NULL) {
        say(be.why, sizeof(be.why), "pocl made no queue (OpenCL error %d)",
            err);
        return;
    }
    read_limits();
    be.ok = true;
    UMF_MOCK_LOG_INFO("kernels run on %s through %s, SPIR-V translated by %s",
                      be.limits.device_name, OPENCL_LIBRARY, be.translator);
}

bool umf_mock_kernel_backend(umf_mock_kernel_limits_t *limits, char *why,
                             size_t why_size) {
    pthread_once(&be.once, load_backend);
    if (!be.ok) {
        say(why, why_size, "%s", be.why);
        return false;
    }
    if (limits != NULL) {
        *limits = be.limits;
    }
    return true;
}

// ---- Programs ---------------------------------------------------------------

struct umf_mock_program_t {
    _Atomic unsigned refs;
    // Built by pocl: at once, or for a module that imports, when
    // umf_mock_program_link links it (under be.lock; `built` then says so).
    cl_program program;
    _Atomic bool built;
    umf_mock_spirv_t scan;
    uint32_t nkernels;
    const char **names; // into scan.kernels
    char *flags;        // pocl's build flags
    // The bitcode of a module that imports or exports, for the link.
    char *bc;
    size_t bc_size;
    unsigned char *native; // see native_header_t
    size_t native_size;
};

// A native binary: this header, the build options (NUL-terminated), the
// specialization-constant arguments of the translator (NUL-terminated),
// then the SPIR-V. Rebuilding from it runs the same translation and
// build, which pocl's cache (POCL_CACHE_DIR) makes cheap.
#define NATIVE_MAGIC "UMFGPUK1"
typedef struct native_header_t {
    char magic[8];
    uint32_t options_size;
    uint32_t specs_size;
    uint64_t spirv_size;
} native_header_t;

// A growing log.
typedef struct text_t {
    char *s;
    size_t len;
    bool failed;
} text_t;

static void text_add(text_t *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void text_add(text_t *t, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    if (n < 0) {
        return;
    }
    char *grown = realloc(t->s, t->len + (size_t)n + 1);
    if (grown == NULL) {
        t->failed = true;
        return;
    }
    t->s = grown;
    va_start(args, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, args);
    va_end(args);
    t->len += (size_t)n;
}

static char *text_take(text_t *t) {
    if (t->s == NULL) {
        text_add(t, "%s", "");
    }
    return t->s;
}

static bool write_file(const char *path, const void *data, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return false;
    }
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            close(fd);
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return close(fd) == 0;
}

// The whole file, malloc'ed and NUL-terminated; NULL when unreadable.
static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rbe");
    if (f == NULL) {
        return NULL;
    }
    char *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap * 2 + 8192;
            char *grown = realloc(data, cap);
            if (grown == NULL) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t n = fread(data + len, 1, 4096, f);
        len += n;
        if (n < 4096) {
            break;
        }
    }
    fclose(f);
    data[len] = '\0';
    *size = len;
    return data;
}

// The translator's --spec-const argument for the values given, or "" for
// none; BAD_SPEC for a SpecId the module lacks.
static umf_mock_build_t spec_args(const umf_mock_spirv_t *scan, uint32_t n,
                                  const uint32_t *ids,
                                  const void *const *values, text_t *out,
                                  text_t *log) {
    for (uint32_t i = 0; i < n; i++) {
        const umf_mock_spec_info_t *s = umf_mock_spirv_spec(scan, ids[i]);
        if (s == NULL || values[i] == NULL) {
            text_add(log,
                     "the module has no specialization constant of SpecId %u"
                     "%s\n",
                     ids[i], s != NULL ? " with a value" : "");
            return UMF_MOCK_BUILD_BAD_SPEC;
        }
        char value[64];
        if (s->kind == UMF_MOCK_SPEC_BOOL) {
            snprintf(value, sizeof(value), "i1:%u",
                     *(const uint8_t *)values[i] != 0);
        } else if (s->kind == UMF_MOCK_SPEC_FLOAT && s->bits == 32) {
            float f;
            memcpy(&f, values[i], sizeof(f));
            snprintf(value, sizeof(value), "f32:%.9g", (double)f);
        } else if (s->kind == UMF_MOCK_SPEC_FLOAT && s->bits == 64) {
            double d;
            memcpy(&d, values[i], sizeof(d));
            snprintf(value, sizeof(value), "f64:%.17g", d);
        } else if (s->kind == UMF_MOCK_SPEC_INT && s->bits <= 64) {
            uint64_t v = 0;
            memcpy(&v, values[i], s->bits / 8); // little-endian host
            snprintf(value, sizeof(value), "i%u:%llu", s->bits,
                     (unsigned long long)v);
        } else {
            text_add(log,
                     "SpecId %u has a type (%u bits) the translator "
                     "cannot specialize\n",
                     ids[i], s->bits);
            return UMF_MOCK_BUILD_BAD_SPEC;
        }
        text_add(out, "%s%u:%s", out->len > 0 ? " " : "", ids[i], value);
    }
    return out->failed ? UMF_MOCK_BUILD_NO_MEMORY : UMF_MOCK_BUILD_OK;
}

// Runs the translator on the SPIR-V: the bitcode (malloc'ed) or NULL, with
// its own words in the log.
// Runs `tool` with `argv`, its output into the file `err`: true when it
// exits 0; else its words go to the log, after `what`.
static bool run_tool(const char *tool, char *const argv[], const char *err,
                     const char *what, text_t *log) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, err, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        text_add(log, "cannot run %s: %s\n", tool, strerror(rc));
        return false;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            text_add(log, "waiting for %s: %s\n", tool, strerror(errno));
            return false;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return true;
    }
    size_t words_size = 0;
    char *words = read_file(err, &words_size);
    text_add(log, "%s (%s):\n%s", what, tool,
             words != NULL ? words : "(no output)\n");
    free(words);
    return false;
}

// A directory of its own for a tool's files, in TMPDIR: false, logged.
static bool tool_dir(char dir[512], text_t *log) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, 512, "%s/umf-gpu-spirv-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        text_add(log, "cannot make a directory for the SPIR-V tools: %s\n",
                 strerror(errno));
        return false;
    }
    return true;
}

static char *translate(const void *il, size_t size, const char *specs,
                       size_t *bc_size, text_t *log) {
    char dir[512], in[600], out[600], err[600];
    if (!tool_dir(dir, log)) {
        return NULL;
    }
    snprintf(in, sizeof(in), "%s/in.spv", dir);
    snprintf(out, sizeof(out), "%s/out.bc", dir);
    snprintf(err, sizeof(err), "%s/log", dir);
    char *bc = NULL;
    char spec_opt[4096];
    if (!write_file(in, il, size)) {
        text_add(log, "cannot write %s: %s\n", in, strerror(errno));
        goto out;
    }
    snprintf(spec_opt, sizeof(spec_opt), "--spec-const=%s", specs);
    char *argv[] = {be.translator, "-r", in,
                    "-o",          out,  specs[0] != '\0' ? spec_opt : NULL,
                    NULL};
    if (!run_tool(be.translator, argv, err,
                  "the SPIR-V translator refused the module", log)) {
        goto out;
    }
    bc = read_file(out, bc_size);
    if (bc == NULL) {
        text_add(log, "the translator left no bitcode in %s\n", out);
    }
out:
    unlink(in);
    unlink(out);
    unlink(err);
    rmdir(dir);
    return bc;
}

// The build flags that mean something to the CPU compiler: the standard
// OpenCL ones, Level Zero's -ze-opt-disable as -cl-opt-disable. The others
// (-ze-*, -cl-intel-*: Intel's GPU compiler's) are ignored, and said so.
static void cl_options(const char *options, text_t *out, text_t *log) {
    text_add(out, "-cl-kernel-arg-info");
    static const char *const passed[] = {
        "-cl-opt-disable",
        "-cl-mad-enable",
        "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only",
        "-cl-fast-relaxed-math",
        "-cl-denorms-are-zero",
        "-cl-fp32-correctly-rounded-divide-sqrt",
        "-cl-uniform-work-group-size",
        "-cl-single-precision-constant",
        "-g",
    };
    for (const char *p = options != NULL ? options : ""; *p != '\0';) {
        p += strspn(p, " \t\n");
        size_t len = strcspn(p, " \t\n");
        if (len == 0) {
            break;
        }
        bool known = false;
        for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++) {
            if (strlen(passed[i]) == len && strncmp(p, passed[i], len) == 0) {
                text_add(out, " %s", passed[i]);
                known = true;
            }
        }
        if (!known && len == 15 && strncmp(p, "-ze-opt-disable", len) == 0) {
            text_add(out, " -cl-opt-disable");
            known = true;
        }
        if (!known) {
            text_add(log,
                     "build flag %.*s ignored: it means nothing to the "
                     "CPU backend\n",
                     (int)len, p);
        }
        p += len;
    }
}

// The kernels' names, as the module's entry points give them.
static bool set_names(umf_mock_program_t *p) {
    const umf_mock_names_t *k = &p->scan.kernels;
    uint32_t n = 0;
    for (size_t at = 0; at < k->size; at += strlen(k->s + at) + 1) {
        n++;
    }
    p->names = calloc(n + 1, sizeof(*p->names));
    if (p->names == NULL) {
        return false;
    }
    for (size_t at = 0; at < k->size; at += strlen(k->s + at) + 1) {
        p->names[p->nkernels++] = k->s + at;
    }
    return true;
}

// pocl builds `bc` (the module's, or the linked one) with the program's
// flags; its words go to the log.
static umf_mock_build_t compile(umf_mock_program_t *p, const char *bc,
                                size_t bc_size, text_t *log) {
    const unsigned char *bin = (const unsigned char *)bc;
    cl_int bin_status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program = cl.clCreateProgramWithBinary(
        be.context, 1, &be.device, &bc_size, &bin, &bin_status, &err);
    if (program == NULL) {
        text_add(log, "pocl refused the translated bitcode (OpenCL error %d)\n",
                 err);
        return UMF_MOCK_BUILD_FAILED;
    }
    err = cl.clBuildProgram(program, 1, &be.device, p->flags, NULL, NULL);
    size_t len = 0;
    cl.clGetProgramBuildInfo(program, be.device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                             &len);
    if (len > 1) {
        char *words = malloc(len);
        if (words != NULL &&
            cl.clGetProgramBuildInfo(program, be.device, CL_PROGRAM_BUILD_LOG,
                                     len, words, NULL) == CL_SUCCESS) {
            text_add(log, "%s%s", words,
                     words[strlen(words) - 1] == '\n' ? "" : "\n");
        }
        free(words);
    }
    if (err != CL_SUCCESS) {
        text_add(log,
                 "pocl could not build the module (OpenCL error %d, "
                 "flags \"%s\")\n",
                 err, p->flags);
        cl.clReleaseProgram(program);
        return UMF_MOCK_BUILD_FAILED;
    }
    p->program = program;
    atomic_store_explicit(&p->built, true, memory_order_release);
    return UMF_MOCK_BUILD_OK;
}

static bool keep_native(umf_mock_program_t *p, const char *options,
                        const char *specs, const void *il, size_t size) {
    native_header_t h;
    memcpy(h.magic, NATIVE_MAGIC, sizeof(h.magic));
    h.options_size = (uint32_t)strlen(options) + 1;
    h.specs_size = (uint32_t)strlen(specs) + 1;
    h.spirv_size = size;
    p->native_size = sizeof(h) + h.options_size + h.specs_size + size;
    p->native = malloc(p->native_size);
    if (p->native == NULL) {
        return false;
    }
    unsigned char *at = p->native;
    memcpy(at, &h, sizeof(h));
    memcpy(at += sizeof(h), options, h.options_size);
    memcpy(at += h.options_size, specs, h.specs_size);
    memcpy(at + h.specs_size, il, size);
    return true;
}

// Translation and build, with the specialization given as the
// translator's argument text.
static umf_mock_build_t build(const void *il, size_t size, const char *options,
                              umf_mock_spirv_t *scan, const char *specs,
                              umf_mock_program_t **out, text_t *log) {
    if (scan->globals.size > 0) {
        // pocl gives each kernel its own copy of such a variable: the
        // kernels of the module could not share it, nor the host read it.
        text_add(log,
                 "umf-gpu emulated driver: the module has program-scope "
                 "variables in global memory (%s%s), which the CPU backend "
                 "(pocl) keeps once per kernel rather than once per module; "
                 "pass the data as a kernel argument instead\n",
                 scan->globals.s,
                 strlen(scan->globals.s) + 1 < scan->globals.size ? ", ..."
                                                                  : "");
        umf_mock_spirv_free(scan);
        return log->failed ? UMF_MOCK_BUILD_NO_MEMORY
                           : UMF_MOCK_BUILD_UNSUPPORTED;
    }
    size_t bc_size = 0;
    char *bc = translate(il, size, specs, &bc_size, log);
    if (bc == NULL) {
        umf_mock_spirv_free(scan);
        return log->failed ? UMF_MOCK_BUILD_NO_MEMORY : UMF_MOCK_BUILD_FAILED;
    }
    umf_mock_program_t *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        free(bc);
        umf_mock_spirv_free(scan);
        return UMF_MOCK_BUILD_NO_MEMORY;
    }
    atomic_init(&p->refs, 1);
    atomic_init(&p->built, false);
    p->scan = *scan;
    memset(scan, 0, sizeof(*scan));
    text_t flags = {0};
    cl_options(options, &flags, log);
    p->flags = text_take(&flags);
    umf_mock_build_t result = UMF_MOCK_BUILD_NO_MEMORY;
    if (flags.failed || !set_names(p) ||
        !keep_native(p, options != NULL ? options : "", specs, il, size)) {
        goto fail;
    }
    // A module that imports is built when it is linked.
    if (p->scan.imports.size == 0 &&
        (result = compile(p, bc, bc_size, log)) != UMF_MOCK_BUILD_OK) {
        goto fail;
    }
    if (p->scan.imports.size > 0 || p->scan.exports.size > 0) {
        p->bc = bc;
        p->bc_size = bc_size;
    } else {
        free(bc);
    }
    *out = p;
    return UMF_MOCK_BUILD_OK;
fail:
    free(bc);
    umf_mock_program_unref(p);
    return result;
}

static umf_mock_build_t finish(umf_mock_build_t result, text_t *log,
                               char **log_out) {
    if (log->failed) {
        free(log->s);
        *log_out = NULL;
        return UMF_MOCK_BUILD_NO_MEMORY;
    }
    *log_out = text_take(log);
    return result;
}

umf_mock_build_t
umf_mock_program_build_spirv(const void *il, size_t size, const char *options,
                             uint32_t nspecs, const uint32_t *spec_ids,
                             const void *const *spec_values,
                             umf_mock_program_t **out, char **log_out) {
    text_t log = {0}, specs = {0};
    *out = NULL;
    char why[768];
    // What the input is comes first: junk is refused as junk, with or
    // without a backend.
    umf_mock_spirv_t scan;
    if (!umf_mock_spirv_scan(il, size, &scan, why, sizeof(why))) {
        text_add(&log, "%s\n", why);
        return finish(strncmp(why, "the module", 10) == 0
                          ? UMF_MOCK_BUILD_UNSUPPORTED
                          : UMF_MOCK_BUILD_INVALID,
                      &log, log_out);
    }
    if (!umf_mock_kernel_backend(NULL, why, sizeof(why))) {
        umf_mock_spirv_free(&scan);
        text_add(&log, "umf-gpu emulated driver: kernels cannot run here: %s\n",
                 why);
        return finish(UMF_MOCK_BUILD_UNAVAILABLE, &log, log_out);
    }
    umf_mock_build_t r =
        spec_args(&scan, nspecs, spec_ids, spec_values, &specs, &log);
    if (r == UMF_MOCK_BUILD_OK) {
        r = build(il, size, options, &scan, specs.s != NULL ? specs.s : "", out,
                  &log);
    } else {
        umf_mock_spirv_free(&scan);
    }
    free(specs.s);
    return finish(r, &log, log_out);
}

umf_mock_build_t umf_mock_program_build_native(const void *binary, size_t size,
                                               umf_mock_program_t **out,
                                               char **log_out) {
    text_t log = {0};
    *out = NULL;
    native_header_t h;
    const char *bytes = binary;
    if (size < sizeof(h)) {
        text_add(&log,
                 "not a native binary of the umf-gpu emulated driver "
                 "(%zu bytes)\n",
                 size);
        return finish(UMF_MOCK_BUILD_INVALID, &log, log_out);
    }
    memcpy(&h, binary, sizeof(h));
    size_t rest = size - sizeof(h);
    const char *options = bytes + sizeof(h);
    const char *specs = options + (h.options_size <= rest ? h.options_size : 0);
    if (memcmp(h.magic, NATIVE_MAGIC, sizeof(h.magic)) != 0 ||
        h.options_size == 0 || h.specs_size == 0 || h.options_size > rest ||
        h.specs_size > rest - h.options_size ||
        h.spirv_size != rest - h.options_size - h.specs_size ||
        options[h.options_size - 1] != '\0' ||
        specs[h.specs_size - 1] != '\0' ||
        // What spec_args writes ("7:i32:99 8:f32:1.5e+10"), nothing the
        // translator could take as another option.
        strspn(specs, "0123456789abcdefinINFA:.+- ") != h.specs_size - 1) {
        text_add(&log,
                 "not a native binary of the umf-gpu emulated driver "
                 "(zeModuleGetNativeBinary's): its header does not "
                 "match its %zu bytes\n",
                 size);
        return finish(UMF_MOCK_BUILD_INVALID, &log, log_out);
    }
    char why[768];
    if (!umf_mock_kernel_backend(NULL, why, sizeof(why))) {
        text_add(&log, "umf-gpu emulated driver: kernels cannot run here: %s\n",
                 why);
        return finish(UMF_MOCK_BUILD_UNAVAILABLE, &log, log_out);
    }
    const char *il = specs + h.specs_size;
    umf_mock_spirv_t scan;
    if (!umf_mock_spirv_scan(il, h.spirv_size, &scan, why, sizeof(why))) {
        text_add(&log, "%s\n", why);
        return finish(UMF_MOCK_BUILD_INVALID, &log, log_out);
    }
    return finish(build(il, h.spirv_size, options, &scan, specs, out, &log),
                  &log, log_out);
}

// The module of `programs` that exports `name` for program `self`: NULL
// with the reason logged when none or several do.
static const umf_mock_program_t *exporter(umf_mock_program_t *const *programs,
                                          uint32_t n, uint32_t self,
                                          const char *name, text_t *log) {
    const umf_mock_program_t *found = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (i == self ||
            !umf_mock_names_has(&programs[i]->scan.exports, name)) {
            continue;
        }
        if (found != NULL) {
            text_add(log,
                     "module %u: its import %s is exported by more than one "
                     "module (an ambiguous dependency)\n",
                     self, name);
            return NULL;
        }
        found = programs[i];
    }
    if (found == NULL) {
        text_add(log, "module %u: unresolved import %s\n", self, name);
    }
    return found;
}

// Links program `self` with the modules that export what it imports
// (llvm-link, only what is needed of them), then builds it.
static umf_mock_build_t link_one(umf_mock_program_t *const *programs,
                                 uint32_t n, uint32_t self, text_t *log) {
    umf_mock_program_t *p = programs[self];
    char dir[512];
    if (!tool_dir(dir, log)) {
        return UMF_MOCK_BUILD_FAILED;
    }
    // The files: the module's bitcode first, then every module of the
    // link that exports something (llvm-link takes only what is needed).
    size_t nfiles = 0;
    char(*files)[600] = calloc(n + 2, sizeof(*files));
    char **argv = calloc(n + 6, sizeof(*argv));
    umf_mock_build_t r = UMF_MOCK_BUILD_NO_MEMORY;
    size_t linked_size = 0;
    char *linked = NULL;
    if (files == NULL || argv == NULL) {
        goto out;
    }
    size_t argc = 0;
    argv[argc++] = be.linker;
    r = UMF_MOCK_BUILD_FAILED;
    for (uint32_t i = 0; i <= n; i++) {
        const umf_mock_program_t *q = i == 0 ? p : programs[i - 1];
        if (i > 0 && (q == p || q->scan.exports.size == 0)) {
            continue;
        }
        snprintf(files[nfiles], sizeof(files[0]), "%s/%zu.bc", dir, nfiles);
        if (!write_file(files[nfiles], q->bc, q->bc_size)) {
            text_add(log, "cannot write %s: %s\n", files[nfiles],
                     strerror(errno));
            nfiles++;
            goto out;
        }
        argv[argc++] = files[nfiles++];
        if (i == 0) {
            argv[argc++] = "--only-needed";
        }
    }
    snprintf(files[nfiles], sizeof(files[0]), "%s/linked.bc", dir);
    char err[600];
    snprintf(err, sizeof(err), "%s/log", dir);
    argv[argc++] = "-o";
    argv[argc++] = files[nfiles++];
    if (run_tool(be.linker, argv, err, "the bitcode linker refused the modules",
                 log) &&
        (linked = read_file(files[nfiles - 1], &linked_size)) != NULL) {
        r = compile(p, linked, linked_size, log);
    }
    unlink(err);
out:
    for (size_t i = 0; i < nfiles; i++) {
        unlink(files[i]);
    }
    rmdir(dir);
    free(linked);
    free(files);
    free(argv);
    return r;
}

umf_mock_build_t umf_mock_program_link(umf_mock_program_t *const *programs,
                                       uint32_t n, char **log_out) {
    text_t log = {0};
    // Every import of the set must be met by exactly one other module, the
    // imports of modules linked before included: no partial link.
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        const umf_mock_names_t *im = &programs[i]->scan.imports;
        for (size_t at = 0; at < im->size; at += strlen(im->s + at) + 1) {
            ok = exporter(programs, n, i, im->s + at, &log) != NULL && ok;
        }
    }
    if (!ok) {
        return finish(UMF_MOCK_BUILD_FAILED, &log, log_out);
    }
    pthread_once(&be.linker_once, find_linker);
    umf_mock_build_t r = UMF_MOCK_BUILD_OK;
    pthread_mutex_lock(&be.lock);
    for (uint32_t i = 0; i < n && r == UMF_MOCK_BUILD_OK; i++) {
        if (umf_mock_program_built(programs[i])) {
            continue; // linked once, or never needed it
        }
        if (be.linker[0] == '\0') {
            text_add(&log, "umf-gpu emulated driver: %s: install llvm-14\n",
                     linker_why);
            r = UMF_MOCK_BUILD_UNAVAILABLE;
            break;
        }
        r = link_one(programs, n, i, &log);
    }
    pthread_mutex_unlock(&be.lock);
    return finish(r, &log, log_out);
}

void umf_mock_program_ref(umf_mock_program_t *p) {
    atomic_fetch_add(&p->refs, 1);
}

void umf_mock_program_unref(umf_mock_program_t *p) {
    if (p == NULL || atomic_fetch_sub(&p->refs, 1) != 1) {
        return;
    }
    if (p->program != NULL) {
        cl.clReleaseProgram(p->program);
    }
    umf_mock_spirv_free(&p->scan);
    free(p->names);
    free(p->flags);
    free(p->bc);
    free(p->native);
    free(p);
}

void umf_mock_program_native(const umf_mock_program_t *p, const void **binary,
                             size_t *size) {
    *binary = p->native;
    *size = p->native_size;
}

uint32_t umf_mock_program_kernel_count(const umf_mock_program_t *p) {
    return p->nkernels;
}

const char *umf_mock_program_kernel_name(const umf_mock_program_t *p,
                                         uint32_t index) {
    return index < p->nkernels ? p->names[index] : NULL;
}

bool umf_mock_program_imports(const umf_mock_program_t *p) {
    return p->scan.imports.size > 0;
}

bool umf_mock_program_built(const umf_mock_program_t *p) {
    return atomic_load_explicit(&p->built, memory_order_acquire);
}

// ---- Kernels ----------------------------------------------------------------

typedef enum arg_kind_t { ARG_VALUE, ARG_POINTER, ARG_LOCAL } arg_kind_t;

struct umf_mock_kernel_t {
    _Atomic unsigned refs;
    umf_mock_program_t *program;
    cl_kernel kernel; // its arguments are set under be.lock
    char *name;
    umf_mock_kernel_info_t info;
    arg_kind_t *kinds;
};

umf_mock_status_t umf_mock_kernel_new(umf_mock_program_t *p, const char *name,
                                      umf_mock_kernel_t **out) {
    bool known = false;
    for (uint32_t i = 0; i < p->nkernels && !known; i++) {
        known = strcmp(p->names[i], name) == 0;
    }
    if (!known) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    if (!umf_mock_program_built(p)) {
        return UMF_MOCK_ERR_INVALID_ARGUMENT; // it waits for its link
    }
    umf_mock_kernel_t *k = calloc(1, sizeof(*k));
    if (k == NULL || (k->name = strdup(name)) == NULL) {
        free(k);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    atomic_init(&k->refs, 1);
    cl_int err = CL_SUCCESS;
    k->kernel = cl.clCreateKernel(p->program, name, &err);
    if (k->kernel == NULL) {
        UMF_MOCK_LOG_ERROR("pocl made no kernel %s (OpenCL error %d)", name,
                           err);
        free(k->name);
        free(k);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    umf_mock_kernel_info_t *info = &k->info;
    cl_uint nargs = 0;
    size_t req[3] = {0, 0, 0}, group = 0;
    cl_ulong priv = 0, local = 0;
    cl.clGetKernelInfo(k->kernel, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs,
                       NULL);
    cl.clGetKernelWorkGroupInfo(k->kernel, be.device,
                                CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(req),
                                req, NULL);
    cl.clGetKernelWorkGroupInfo(k->kernel, be.device, CL_KERNEL_WORK_GROUP_SIZE,
                                sizeof(group), &group, NULL);
    cl.clGetKernelWorkGroupInfo(k->kernel, be.device,
                                CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv,
                                NULL);
    cl.clGetKernelWorkGroupInfo(k->kernel, be.device, CL_KERNEL_LOCAL_MEM_SIZE,
                                sizeof(local), &local, NULL);
    info->nargs = nargs;
    for (int i = 0; i < 3; i++) {
        info->required_group_size[i] = (uint32_t)req[i];
    }
    info->max_group_size = group > 0 && group < be.limits.max_group_size
                               ? (uint32_t)group
                               : be.limits.max_group_size;
    info->private_mem_size = priv;
    info->local_mem_size = local;
    k->kinds = calloc(nargs + 1, sizeof(*k->kinds));
    if (k->kinds == NULL) {
        cl.clReleaseKernel(k->kernel);
        free(k->name);
        free(k);
        return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
    }
    for (cl_uint i = 0; i < nargs; i++) {
        cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        cl.clGetKernelArgInfo(k->kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                              sizeof(q), &q, NULL);
        k->kinds[i] = q == CL_KERNEL_ARG_ADDRESS_LOCAL     ? ARG_LOCAL
                      : q == CL_KERNEL_ARG_ADDRESS_PRIVATE ? ARG_VALUE
                                                           : ARG_POINTER;
    }
    umf_mock_program_ref(p);
    k->program = p;
    *out = k;
    return UMF_MOCK_OK;
}

void umf_mock_kernel_ref(umf_mock_kernel_t *k) {
    atomic_fetch_add(&k->refs, 1);
}

void umf_mock_kernel_unref(umf_mock_kernel_t *k) {
    if (k == NULL || atomic_fetch_sub(&k->refs, 1) != 1) {
        return;
    }
    cl.clReleaseKernel(k->kernel);
    umf_mock_program_unref(k->program);
    free(k->kinds);
    free(k->name);
    free(k);
}

const char *umf_mock_kernel_name(const umf_mock_kernel_t *k) {
    return k->name;
}

const umf_mock_kernel_info_t *umf_mock_kernel_info(const umf_mock_kernel_t *k) {
    return &k->info;
}

// ---- Arguments --------------------------------------------------------------

typedef struct arg_t {
    bool set;
    size_t size;
    void *ptr;            // ARG_POINTER
    unsigned char *value; // ARG_VALUE, malloc'ed
} arg_t;

struct umf_mock_args_t {
    uint32_t n;
    arg_t a[];
};

umf_mock_args_t *umf_mock_args_new(const umf_mock_kernel_t *k) {
    umf_mock_args_t *a =
        calloc(1, sizeof(*a) + k->info.nargs * sizeof(a->a[0]));
    if (a != NULL) {
        a->n = k->info.nargs;
    }
    return a;
}

void umf_mock_args_free(umf_mock_args_t *a) {
    if (a == NULL) {
        return;
    }
    for (uint32_t i = 0; i < a->n; i++) {
        free(a->a[i].value);
    }
    free(a);
}

umf_mock_args_t *umf_mock_args_copy(const umf_mock_args_t *a) {
    umf_mock_args_t *c = malloc(sizeof(*c) + a->n * sizeof(a->a[0]));
    if (c == NULL) {
        return NULL;
    }
    memcpy(c, a, sizeof(*c) + a->n * sizeof(a->a[0]));
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->a[i].value == NULL) {
            continue;
        }
        if ((c->a[i].value = malloc(a->a[i].size)) == NULL) {
            while (i-- > 0) {
                free(c->a[i].value);
            }
            free(c);
            return NULL;
        }
        memcpy(c->a[i].value, a->a[i].value, a->a[i].size);
    }
    return c;
}

umf_mock_status_t umf_mock_args_set(umf_mock_args_t *a,
                                    const umf_mock_kernel_t *k, uint32_t index,
                                    size_t size, const void *value) {
    if (index >= a->n) {
        return UMF_MOCK_ERR_NOT_FOUND;
    }
    arg_t *arg = &a->a[index];
    switch (k->kinds[index]) {
    case ARG_POINTER:
        if (size != sizeof(void *)) {
            return UMF_MOCK_ERR_UNSUPPORTED_SIZE;
        }
        arg->ptr = NULL;
        if (value != NULL) {
            memcpy(&arg->ptr, value, sizeof(void *));
        }
        break;
    case ARG_LOCAL:
        if (size == 0) {
            return UMF_MOCK_ERR_UNSUPPORTED_SIZE;
        }
        if (value != NULL) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
        break;
    case ARG_VALUE: {
        if (value == NULL) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
        // pocl checks the size against the argument's type.
        pthread_mutex_lock(&be.lock);
        cl_int err = cl.clSetKernelArg(k->kernel, index, size, value);
        pthread_mutex_unlock(&be.lock);
        if (err == CL_INVALID_ARG_SIZE) {
            return UMF_MOCK_ERR_UNSUPPORTED_SIZE;
        }
        if (err != CL_SUCCESS) {
            return UMF_MOCK_ERR_INVALID_ARGUMENT;
        }
        unsigned char *copy = malloc(size);
        if (copy == NULL) {
            return UMF_MOCK_ERR_OUT_OF_HOST_MEMORY;
        }
        memcpy(copy, value, size);
        free(arg->value);
        arg->value = copy;
        break;
    }
    }
    arg->size = size;
    arg->set = true;
    return UMF_MOCK_OK;
}

uint32_t umf_mock_args_unset(const umf_mock_args_t *a) {
    for (uint32_t i = 0; i < a->n; i++) {
        if (!a->a[i].set) {
            return i;
        }
    }
    return UINT32_MAX;
}

// ---- Launches ---------------------------------------------------------------

static cl_int bind(const umf_mock_kernel_t *k, const umf_mock_args_t *a) {
    for (uint32_t i = 0; i < a->n; i++) {
        const arg_t *arg = &a->a[i];
        cl_int err =
            k->kinds[i] == ARG_POINTER
                ? cl.clSetKernelArgSVMPointer(k->kernel, i, arg->ptr)
            : k->kinds[i] == ARG_LOCAL
                ? cl.clSetKernelArg(k->kernel, i, arg->size, NULL)
                : cl.clSetKernelArg(k->kernel, i, arg->size, arg->value);
        if (err != CL_SUCCESS) {
            return err;
        }
    }
    return CL_SUCCESS;
}

bool umf_mock_kernel_run(const umf_mock_kernel_t *k, const umf_mock_args_t *a,
                         const umf_mock_launch_dims_t *d, char *why,
                         size_t why_size) {
    size_t global[3], local[3], offset[3];
    for (int i = 0; i < 3; i++) {
        if (d->groups[i] == 0) {
            return true; // no work-item: nothing runs
        }
        local[i] = d->group_size[i];
        global[i] = (size_t)d->groups[i] * d->group_size[i];
        offset[i] = d->offset[i];
    }
    pthread_mutex_lock(&be.lock);
    cl_int err = bind(k, a);
    if (err == CL_SUCCESS) {
        err = cl.clEnqueueNDRangeKernel(be.queue, k->kernel, 3, offset, global,
                                        local, 0, NULL, NULL);
    }
    cl_int done = err == CL_SUCCESS ? cl.clFinish(be.queue) : CL_SUCCESS;
    pthread_mutex_unlock(&be.lock);
    if (err != CL_SUCCESS || done != CL_SUCCESS) {
        say(why, why_size, "pocl refused to run kernel %s (OpenCL error %d)",
            k->name, err != CL_SUCCESS ? err : done);
        return false;
    }
    return true;
}
