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

#include "test_providers.h"

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
    umf_result_t res =
        umfMemoryProviderCreate(umf_test_null_provider_ops(), NULL, &h);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "umfMemoryProviderCreate: %d\n", (int)res);
        return 1;
    }
    const char *name = umfMemoryProviderGetName(h);
    printf("the provider's name through this program's core: %s\n",
           name != NULL ? name : "(NULL)");
    int rc = name != NULL && strcmp(name, "null") == 0 ? 0 : 1;
    umfMemoryProviderDestroy(h);
    if (rc == 0) {
        printf("symbol versions: the program stays with libumf_gpu\n");
    }
    return rc;
}
