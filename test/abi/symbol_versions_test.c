// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A program linked against libumf_gpu keeps binding to it when another
// library with the same names is loaded first (ctest preloads the stand-in
// second core, other_core.c, whose names carry UMF's version node). Our
// exports carry the version node UMF_GPU_0.1 (cmake/umf_gpu.map), so the
// program's references, bound to that version at link time, skip the
// stand-in's definitions. Exit status 0 when they did.

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <umf/memory_provider.h>

// A provider that needs no driver; its name tells which core called it.
static umf_result_t probe_initialize(void *params, void **provider) {
    (void)params;
    *provider = NULL;
    return UMF_RESULT_SUCCESS;
}

static void probe_finalize(void *provider) {
    (void)provider;
}

static umf_result_t probe_alloc(void *provider, size_t size, size_t alignment,
                                void **ptr) {
    (void)provider, (void)size, (void)alignment, (void)ptr;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static umf_result_t probe_free(void *provider, void *ptr, size_t size) {
    (void)provider, (void)ptr, (void)size;
    return UMF_RESULT_ERROR_NOT_SUPPORTED;
}

static void probe_native_error(void *provider, const char **message,
                               int32_t *code) {
    (void)provider;
    *message = "";
    *code = 0;
}

static umf_result_t probe_page_size(void *provider, size_t size, size_t *page) {
    (void)provider, (void)size;
    *page = 4096;
    return UMF_RESULT_SUCCESS;
}

static umf_result_t probe_min_page_size(void *provider, void *ptr,
                                        size_t *page) {
    (void)provider, (void)ptr;
    *page = 4096;
    return UMF_RESULT_SUCCESS;
}

static const char *probe_name(void *provider) {
    (void)provider;
    return "probe";
}

static const umf_memory_provider_ops_t probe_ops = {
    .version = UMF_VERSION_CURRENT,
    .initialize = probe_initialize,
    .finalize = probe_finalize,
    .alloc = probe_alloc,
    .free = probe_free,
    .get_last_native_error = probe_native_error,
    .get_recommended_page_size = probe_page_size,
    .get_min_page_size = probe_min_page_size,
    .get_name = probe_name,
};

static const char *library_of(void *addr) {
    Dl_info info;
    return dladdr(addr, &info) != 0 && info.dli_fname != NULL ? info.dli_fname
                                                              : "(unknown)";
}

int main(void) {
    // The situation: the stand-in core comes first in the global scope, so
    // an unversioned lookup finds its definition.
    const char *first =
        library_of(dlsym(RTLD_DEFAULT, "umfMemoryProviderCreate"));
    printf("first umfMemoryProviderCreate in the process: %s\n", first);
    if (strstr(first, "other_core") == NULL) {
        fprintf(stderr, "the stand-in core is not loaded first (preload "
                        "it): nothing to test\n");
        return 1;
    }
    // The program's own references still reach libumf_gpu.
    const char *bound = library_of((void *)umfMemoryProviderCreate);
    printf("this program's umfMemoryProviderCreate: %s\n", bound);
    if (strstr(bound, "libumf_gpu") == NULL) {
        fprintf(stderr, "bound to the wrong library\n");
        return 1;
    }
    umf_memory_provider_handle_t h = NULL;
    umf_result_t res = umfMemoryProviderCreate(&probe_ops, NULL, &h);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "umfMemoryProviderCreate: %d\n", (int)res);
        return 1;
    }
    const char *name = umfMemoryProviderGetName(h);
    printf("the provider's name through this program's core: %s\n",
           name != NULL ? name : "(NULL)");
    int rc = name != NULL && strcmp(name, "probe") == 0 ? 0 : 1;
    umfMemoryProviderDestroy(h);
    if (rc == 0) {
        printf("symbol versions: the program stays with libumf_gpu\n");
    }
    return rc;
}
