// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The functions zeDriverGetExtensionFunctionAddress gives by name: those
// of Intel's driver that runtimes look up at start-up (the Unified
// Runtime's Level Zero adapters) and that mean something on emulated
// devices. Any other name is refused (ZE_RESULT_ERROR_INVALID_ARGUMENT,
// *ppFunctionAddress NULL), which runtimes take as "not supported".
//
//   zexDriverImportExternalPointer      host memory made visible to the
//   zexDriverReleaseImportedPointer     devices: it already is (they work
//   zexDriverGetHostPointerBaseAddress  on host memory); the driver keeps
//                                       the ranges to answer for them
//   zexMemGetIpcHandles                 one IPC handle per allocation
//   zexMemOpenIpcHandles                (zeMemGetIpcHandle, zeMemOpen-)
//   zeIntelGetDriverVersionString       "major.minor.patch"
//   zeDriverGetDefaultContext           the 1.14 entry point, by name
//   zePhysicalMemGetProperties          the 1.15 entry point, by name (for
//                                       loaders older than 1.15)
//   zexCounterBasedEventCreate2         counter-based events
//                                       (ze_mock_events.c)

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ze_mock_internal.h"

// ---- Imported host memory ---------------------------------------------------

typedef struct import_t {
    char *base;
    size_t size;
} import_t;

static pthread_mutex_t imports_lock = PTHREAD_MUTEX_INITIALIZER;
static import_t *imports;
static size_t import_count, import_cap;

// The import holding [p, p + size), or -1; called locked.
static long import_of(const char *p, size_t size) {
    for (size_t i = 0; i < import_count; i++) {
        if (p >= imports[i].base &&
            (size_t)(p - imports[i].base) < imports[i].size &&
            size <= imports[i].size - (size_t)(p - imports[i].base)) {
            return (long)i;
        }
    }
    return -1;
}

static bool overlaps(const char *p, size_t size) {
    for (size_t i = 0; i < import_count; i++) {
        if (p < imports[i].base + imports[i].size &&
            imports[i].base < p + size) {
            return true;
        }
    }
    return false;
}

static ze_result_t ZE_APICALL zexDriverImportExternalPointer(
    ze_driver_handle_t hDriver, void *ptr, size_t size) {
    ZE_MOCK_ENTER(zexDriverImportExternalPointer);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (size == 0 || (uintptr_t)ptr + size < (uintptr_t)ptr) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    ze_result_t r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&imports_lock);
    if (overlaps(ptr, size)) {
        ZE_MOCK_EXPLAIN("[%p, +%zu) overlaps memory imported before", ptr,
                        size);
        r = ZE_RESULT_ERROR_INVALID_ARGUMENT;
    } else if (import_count == import_cap) {
        size_t cap = import_cap ? 2 * import_cap : 16;
        import_t *n = realloc(imports, cap * sizeof(*n));
        if (n == NULL) {
            r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        } else {
            imports = n;
            import_cap = cap;
        }
    }
    if (r == ZE_RESULT_SUCCESS) {
        imports[import_count++] = (import_t){ptr, size};
    }
    pthread_mutex_unlock(&imports_lock);
    return r == ZE_RESULT_SUCCESS ? r : ZE_MOCK_FAIL(r);
}

static ze_result_t ZE_APICALL
zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void *ptr) {
    ZE_MOCK_ENTER(zexDriverReleaseImportedPointer);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    bool found = false;
    pthread_mutex_lock(&imports_lock);
    for (size_t i = 0; i < import_count && !found; i++) {
        if (imports[i].base == ptr) {
            imports[i] = imports[--import_count];
            found = true;
        }
    }
    if (import_count == 0) {
        free(imports);
        imports = NULL;
        import_cap = 0;
    }
    pthread_mutex_unlock(&imports_lock);
    if (!found) {
        ZE_MOCK_EXPLAIN("%p is not the start of imported memory", ptr);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return ZE_RESULT_SUCCESS;
}

// The start of the imported range holding `ptr`; NULL when none does.
static ze_result_t ZE_APICALL zexDriverGetHostPointerBaseAddress(
    ze_driver_handle_t hDriver, void *ptr, void **baseAddress) {
    ZE_MOCK_ENTER(zexDriverGetHostPointerBaseAddress);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (ptr == NULL || baseAddress == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    pthread_mutex_lock(&imports_lock);
    long i = import_of(ptr, 1);
    *baseAddress = i >= 0 ? imports[i].base : NULL;
    pthread_mutex_unlock(&imports_lock);
    return ZE_RESULT_SUCCESS;
}

// ---- IPC handles of an allocation (one each) --------------------------------

static ze_mem_dditable_t mem_table(void) {
    ze_mock_mem_dditable_t t;
    memset(&t, 0, sizeof(t));
    ze_mock_fill_mem(&t);
    return t.v1_4;
}

static ze_result_t ZE_APICALL
zexMemGetIpcHandles(ze_context_handle_t hContext, const void *ptr,
                    uint32_t *numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles) {
    ZE_MOCK_ENTER(zexMemGetIpcHandles);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    if (ptr == NULL || numIpcHandles == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (*numIpcHandles == 0 || pIpcHandles == NULL) {
        *numIpcHandles = 1;
        return ZE_RESULT_SUCCESS;
    }
    *numIpcHandles = 1;
    return mem_table().pfnGetIpcHandle(hContext, ptr, pIpcHandles);
}

static ze_result_t ZE_APICALL
zexMemOpenIpcHandles(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                     uint32_t numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles,
                     ze_ipc_memory_flags_t flags, void **pptr) {
    ZE_MOCK_ENTER(zexMemOpenIpcHandles);
    if (pIpcHandles == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    if (numIpcHandles != 1) {
        ZE_MOCK_EXPLAIN("%u handles: an allocation of this driver has one",
                        numIpcHandles);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    return mem_table().pfnOpenIpcHandle(hContext, hDevice, pIpcHandles[0],
                                        flags, pptr);
}

// ---- Driver version
// ------------------------------------------------------------

static ze_result_t ZE_APICALL zeIntelGetDriverVersionString(
    ze_driver_handle_t hDriver, char *pDriverVersion, size_t *pVersionSize) {
    ZE_MOCK_ENTER(zeIntelGetDriverVersionString);
    if (!ze_mock_is_driver(hDriver)) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (pVersionSize == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    char version[32];
    int n = snprintf(
        version, sizeof(version), "%u.%u.%u", ZE_MOCK_DRIVER_VERSION >> 24,
        (ZE_MOCK_DRIVER_VERSION >> 16) & 0xff, ZE_MOCK_DRIVER_VERSION & 0xffff);
    size_t need = (size_t)n + 1;
    if (*pVersionSize == 0 || pDriverVersion == NULL) {
        *pVersionSize = need;
        return ZE_RESULT_SUCCESS;
    }
    if (*pVersionSize < need) {
        ZE_MOCK_EXPLAIN("the version string needs %zu bytes", need);
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);
    }
    memcpy(pDriverVersion, version, need);
    *pVersionSize = need;
    return ZE_RESULT_SUCCESS;
}

// ---- By name
// ---------------------------------------------------------------------

// Those of API families above the core, registered by the family when the
// driver's tables are filled (so before any program can ask for them):
// the core never calls into the family.
#define REGISTERED_MAX 8

static pthread_mutex_t registered_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    const char *name;
    void (*fn)(void);
} registered[REGISTERED_MAX];
static size_t registered_count;

void ze_mock_extension_function_register(const char *name, void (*fn)(void)) {
    pthread_mutex_lock(&registered_lock);
    size_t i = 0;
    while (i < registered_count && strcmp(registered[i].name, name) != 0) {
        i++;
    }
    if (i < REGISTERED_MAX) {
        registered[i].name = name;
        registered[i].fn = fn;
        if (i == registered_count) {
            registered_count++;
        }
    }
    pthread_mutex_unlock(&registered_lock);
    if (i == REGISTERED_MAX) {
        // A build-time limit: only the driver's own files register.
        UMF_MOCK_LOG_ERROR(
            "more than %d functions by name registered; %s is not",
            REGISTERED_MAX, name);
    }
}

static void *registered_function(const char *name) {
    void *p = NULL;
    pthread_mutex_lock(&registered_lock);
    for (size_t i = 0; i < registered_count && p == NULL; i++) {
        if (strcmp(registered[i].name, name) == 0) {
            memcpy(&p, &registered[i].fn, sizeof(p));
        }
    }
    pthread_mutex_unlock(&registered_lock);
    return p;
}

void *ze_mock_extension_function(const char *name) {
    ze_mock_driver_dditable_t driver;
    memset(&driver, 0, sizeof(driver));
    ze_mock_fill_driver_context(&driver);
    ze_mock_physical_mem_dditable_t physical_mem;
    memset(&physical_mem, 0, sizeof(physical_mem));
    ze_mock_fill_physical_mem(&physical_mem);
    const struct {
        const char *name;
        void (*fn)(void);
    } functions[] = {
        {"zexDriverImportExternalPointer",
         (void (*)(void))zexDriverImportExternalPointer},
        {"zexDriverReleaseImportedPointer",
         (void (*)(void))zexDriverReleaseImportedPointer},
        {"zexDriverGetHostPointerBaseAddress",
         (void (*)(void))zexDriverGetHostPointerBaseAddress},
        {"zexMemGetIpcHandles", (void (*)(void))zexMemGetIpcHandles},
        {"zexMemOpenIpcHandles", (void (*)(void))zexMemOpenIpcHandles},
        {"zeIntelGetDriverVersionString",
         (void (*)(void))zeIntelGetDriverVersionString},
        {"zeDriverGetDefaultContext",
         (void (*)(void))driver.pfnGetDefaultContext},
        {"zePhysicalMemGetProperties",
         (void (*)(void))physical_mem.pfnGetProperties},
    };
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {
        if (strcmp(name, functions[i].name) == 0) {
            void *p;
            memcpy(&p, &functions[i].fn, sizeof(p));
            return p;
        }
    }
    return registered_function(name);
}
