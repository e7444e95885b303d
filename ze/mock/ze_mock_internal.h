// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The emulated Level Zero driver: what its files share. The driver keeps
// device memory in host memory through the shared core (mock/), and is
// reached only through the Level Zero loader, which asks it for tables of
// entry points (ze_mock_tables.c). Its entry points are static functions
// named mock_* in the file of their area, never the API names: those would
// bind back to the loader's own exports.
//
// The core, which calls no API family (what it needs of one, the family
// registers: ze_mock_object_kind_register, ze_mock_core_ready_register):
//   ze_mock_core.c      the driver handle, the devices, zeInit's state
//   ze_mock_affinity.c  ZE_AFFINITY_MASK
//   ze_mock_results.c   result names (fault rules) and the one table that
//                       maps the core's results to ze_result_t
//   ze_mock_context.c   contexts (and what destroying one releases),
//                       the object registry, residency
//   ze_mock_bell.c      the bell of the driver's thread, the device timer
//   ze_mock_events.c    event pools, events, event pool IPC
//   ze_mock_engine.c    commands, streams, the driver's thread
//                       (ze_mock_engine.h)
//   ze_mock_desc.c      the driver's description for mock/
// The API families above it. A few use a helper of another family that
// never calls them back: the appends and the kernel launches add commands
// to ze_mock_commands.c's lists, ze_mock_memory.c hands the IPC of mapped
// memory to ze_mock_vmm.c, sysman answers with ze_mock_device.c's
// properties.
//   ze_mock_driver.c    zeInit, driver queries
//   ze_mock_device.c    the devices' queries
//   ze_mock_memory.c    allocation, queries, IPC
//   ze_mock_vmm.c       virtual and physical memory, IPC of mapped memory
//   ze_mock_commands.c  command queues and lists, fences
//   ze_mock_append.c    the zeCommandListAppend* entry points
//   ze_mock_module.c    build logs (ze_mock_kernel.c: modules, kernels)
//   ze_mock_extensions.c the functions given by name
//   ze_mock_sysman.c    sysman (ze_mock_sysman.h)
// On top, ze_mock_tables.c: the zeGet*ProcAddrTable functions, the
// control API.

#ifndef UMF_GPU_ZE_MOCK_INTERNAL_H
#define UMF_GPU_ZE_MOCK_INTERNAL_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include "mock_core.h"
#include "mock_failure.h"
#include "ze_mock_ddi.h"

// Every entry point the driver implements, for call counts and fault rules.
#define ZE_MOCK_ENTRIES(X)                                                     \
    X(zeInit)                                                                  \
    X(zeDriverGet)                                                             \
    X(zeDriverGetApiVersion)                                                   \
    X(zeDriverGetProperties)                                                   \
    X(zeDriverGetIpcProperties)                                                \
    X(zeDriverGetExtensionProperties)                                          \
    X(zeDriverGetExtensionFunctionAddress)                                     \
    X(zeDriverGetLastErrorDescription)                                         \
    X(zeDeviceGet)                                                             \
    X(zeDeviceGetSubDevices)                                                   \
    X(zeDeviceGetProperties)                                                   \
    X(zeDeviceGetComputeProperties)                                            \
    X(zeDeviceGetCommandQueueGroupProperties)                                  \
    X(zeDeviceGetMemoryProperties)                                             \
    X(zeDeviceGetMemoryAccessProperties)                                       \
    X(zeDeviceGetP2PProperties)                                                \
    X(zeDeviceCanAccessPeer)                                                   \
    X(zeDeviceGetStatus)                                                       \
    X(zeDeviceGetModuleProperties)                                             \
    X(zeDeviceGetCacheProperties)                                              \
    X(zeDeviceGetImageProperties)                                              \
    X(zeDeviceGetExternalMemoryProperties)                                     \
    X(zeDeviceGetGlobalTimestamps)                                             \
    X(zeContextCreate)                                                         \
    X(zeContextCreateEx)                                                       \
    X(zeContextDestroy)                                                        \
    X(zeContextGetStatus)                                                      \
    X(zeContextMakeMemoryResident)                                             \
    X(zeContextEvictMemory)                                                    \
    X(zeMemAllocDevice)                                                        \
    X(zeMemAllocHost)                                                          \
    X(zeMemAllocShared)                                                        \
    X(zeMemFree)                                                               \
    X(zeMemFreeExt)                                                            \
    X(zeMemGetAllocProperties)                                                 \
    X(zeMemGetAddressRange)                                                    \
    X(zeMemGetIpcHandle)                                                       \
    X(zeMemOpenIpcHandle)                                                      \
    X(zeMemCloseIpcHandle)                                                     \
    X(zeMemPutIpcHandle)                                                       \
    X(zeMemGetIpcHandleFromFileDescriptorExp)                                  \
    X(zeMemGetFileDescriptorFromIpcHandleExp)                                  \
    X(zeVirtualMemQueryPageSize)                                               \
    X(zeVirtualMemReserve)                                                     \
    X(zeVirtualMemFree)                                                        \
    X(zeVirtualMemMap)                                                         \
    X(zeVirtualMemUnmap)                                                       \
    X(zeVirtualMemSetAccessAttribute)                                          \
    X(zeVirtualMemGetAccessAttribute)                                          \
    X(zePhysicalMemCreate)                                                     \
    X(zePhysicalMemDestroy)                                                    \
    X(zeCommandQueueCreate)                                                    \
    X(zeCommandQueueDestroy)                                                   \
    X(zeCommandQueueExecuteCommandLists)                                       \
    X(zeCommandQueueSynchronize)                                               \
    X(zeCommandListCreate)                                                     \
    X(zeCommandListCreateImmediate)                                            \
    X(zeCommandListDestroy)                                                    \
    X(zeCommandListClose)                                                      \
    X(zeCommandListReset)                                                      \
    X(zeCommandListAppendBarrier)                                              \
    X(zeCommandListAppendMemoryCopy)                                           \
    X(zeCommandListAppendMemoryFill)                                           \
    X(zeCommandListAppendMemoryPrefetch)                                       \
    X(zeCommandListAppendMemAdvise)                                            \
    X(zeCommandListAppendSignalEvent)                                          \
    X(zeCommandListAppendWaitOnEvents)                                         \
    X(zeCommandListAppendEventReset)                                           \
    X(zeEventPoolCreate)                                                       \
    X(zeEventPoolDestroy)                                                      \
    X(zeEventPoolGetIpcHandle)                                                 \
    X(zeEventPoolOpenIpcHandle)                                                \
    X(zeEventPoolCloseIpcHandle)                                               \
    X(zeEventPoolPutIpcHandle)                                                 \
    X(zeEventCreate)                                                           \
    X(zeEventDestroy)                                                          \
    X(zeEventHostSignal)                                                       \
    X(zeEventHostSynchronize)                                                  \
    X(zeEventQueryStatus)                                                      \
    X(zeEventHostReset)                                                        \
    X(zeFenceCreate)                                                           \
    X(zeFenceDestroy)                                                          \
    X(zeFenceHostSynchronize)                                                  \
    X(zeFenceQueryStatus)                                                      \
    X(zeFenceReset)                                                            \
    X(zeCommandQueueGetOrdinal)                                                \
    X(zeCommandQueueGetIndex)                                                  \
    X(zeCommandListAppendMemoryCopyRegion)                                     \
    X(zeCommandListAppendMemoryCopyFromContext)                                \
    X(zeCommandListAppendMemoryRangesBarrier)                                  \
    X(zeCommandListAppendWriteGlobalTimestamp)                                 \
    X(zeCommandListAppendQueryKernelTimestamps)                                \
    X(zeCommandListHostSynchronize)                                            \
    X(zeCommandListGetDeviceHandle)                                            \
    X(zeCommandListGetContextHandle)                                           \
    X(zeCommandListGetOrdinal)                                                 \
    X(zeCommandListImmediateGetIndex)                                          \
    X(zeCommandListIsImmediate)                                                \
    X(zeCommandListImmediateAppendCommandListsExp)                             \
    X(zeCommandListCreateCloneExp)                                             \
    X(zeContextSystemBarrier)                                                  \
    X(zeEventQueryKernelTimestamp)                                             \
    X(zeEventQueryTimestampsExp)                                               \
    X(zeEventQueryKernelTimestampsExt)                                         \
    X(zeEventGetEventPool)                                                     \
    X(zeEventGetSignalScope)                                                   \
    X(zeEventGetWaitScope)                                                     \
    X(zeEventPoolGetContextHandle)                                             \
    X(zeEventPoolGetFlags)                                                     \
    X(zeDeviceSynchronize)                                                     \
    X(zeCommandListGetNextCommandIdExp)                                        \
    X(zeCommandListGetNextCommandIdWithKernelsExp)                             \
    X(zeCommandListUpdateMutableCommandsExp)                                   \
    X(zeCommandListUpdateMutableCommandSignalEventExp)                         \
    X(zeCommandListUpdateMutableCommandWaitEventsExp)                          \
    X(zeCommandListUpdateMutableCommandKernelsExp)                             \
    X(zeModuleCreate)                                                          \
    X(zeModuleBuildLogDestroy)                                                 \
    X(zeModuleBuildLogGetString)

#include "ze_mock_entries.h"

typedef enum ze_mock_entry_t {
#define ZE_MOCK_ENUM(name) ZE_MOCK_E_##name,
    ZE_MOCK_ENTRIES(ZE_MOCK_ENUM) ZE_MOCK_ENTRIES_NEWER(ZE_MOCK_ENUM)
#undef ZE_MOCK_ENUM
        ZE_MOCK_ENTRY_COUNT
} ze_mock_entry_t;

// Kinds of driver object tracked for the leak report (the core's object
// kinds; names in ze_mock_tables.c).
typedef enum ze_mock_object_kind_t {
    ZE_MOCK_OBJ_CONTEXT = 0,
    ZE_MOCK_OBJ_COMMAND_QUEUE,
    ZE_MOCK_OBJ_COMMAND_LIST,
    ZE_MOCK_OBJ_EVENT_POOL,
    ZE_MOCK_OBJ_EVENT,
    ZE_MOCK_OBJ_FENCE,
    ZE_MOCK_OBJ_IMPORTED_EVENT_POOL,
    ZE_MOCK_OBJ_BUILD_LOG,
    ZE_MOCK_OBJ_MODULE,
    ZE_MOCK_OBJ_KERNEL,
    ZE_MOCK_OBJ_KIND_COUNT
} ze_mock_object_kind_t;

// The driver's description for the core (ze_mock_tables.c).
extern const umf_mock_driver_desc_t ze_mock_desc;

// Handles: every object starts with a magic number of its type, checked on
// each call (a NULL handle is INVALID_NULL_HANDLE); destroy calls check
// the object registry first, so a destroyed handle is refused unread.
#define ZE_MOCK_MAGIC_DRIVER 0x7a65d001u
#define ZE_MOCK_MAGIC_DEVICE 0x7a65d002u
#define ZE_MOCK_MAGIC_CONTEXT 0x7a65d003u
#define ZE_MOCK_MAGIC_QUEUE 0x7a65d004u
#define ZE_MOCK_MAGIC_LIST 0x7a65d005u
#define ZE_MOCK_MAGIC_EVENT_POOL 0x7a65d006u
#define ZE_MOCK_MAGIC_EVENT 0x7a65d007u
#define ZE_MOCK_MAGIC_FENCE 0x7a65d008u
#define ZE_MOCK_MAGIC_BUILD_LOG 0x7a65d009u
#define ZE_MOCK_MAGIC_MODULE 0x7a65d00au
#define ZE_MOCK_MAGIC_KERNEL 0x7a65d00bu

// Devices and their sub-devices (UMF_GPU_MOCK_SUBDEVICES per device). A
// sub-device is part of its device: its memory is charged to the same core
// device, `index`. ZE_AFFINITY_MASK=N.M alone exposes sub-device M of
// device N as a device of its own (no root, no sub-devices).
#define ZE_MOCK_MAX_SUBDEVICES UMF_MOCK_MAX_SUBDEVICES
typedef struct ze_mock_device_t {
    uint32_t magic;
    unsigned index;                // the core device (mock/)
    int sub;                       // which sub-device it is; -1: whole
    struct ze_mock_device_t *root; // the device it is a sub-device of
    unsigned sub_count;            // its sub-devices (zeDeviceGetSubDevices)
    struct ze_mock_device_t *subs[ZE_MOCK_MAX_SUBDEVICES];
} ze_mock_device_t;

typedef struct ze_mock_context_t {
    uint32_t magic;
} ze_mock_context_t;

// The start of every object a context owns (queues, lists, fences, event
// pools, events): zeContextDestroy releases those still alive.
typedef struct ze_mock_object_t {
    uint32_t magic;
    ze_mock_context_t *ctx;
} ze_mock_object_t;

// A zeroed object of `size` bytes (starting with a ze_mock_object_t) of
// `ctx`, not registered yet; NULL when out of memory. The caller fills it,
// then publishes it: other threads (a context release, a pool's close)
// walk the registered objects and read their fields.
void *ze_mock_object_new(size_t size, uint32_t magic, ze_mock_context_t *ctx);
// Registers a filled object as `kind`; false when out of memory (the
// caller frees it).
bool ze_mock_object_publish(void *obj, ze_mock_object_kind_t kind);
// Unregisters an object; false if it was not live (destroyed, foreign).
// The caller frees it.
bool ze_mock_object_drop(void *obj, ze_mock_object_kind_t kind);
// How a context release frees the objects of a kind (whose registration
// is gone), registered by the API family that owns the kind when its
// tables are filled, before any object of it exists: the core never calls
// into a family.
void ze_mock_object_kind_register(ze_mock_object_kind_t kind,
                                  void (*release)(void *obj));
// What a context release frees of a family beside its objects (virtual
// memory: ze_mock_vmm.c), after them; returns how many things it freed.
// Registered as the kinds are.
typedef size_t (*ze_mock_context_release_fn)(ze_mock_context_t *ctx);
void ze_mock_context_release_register(ze_mock_context_release_fn release);

// The live objects of `kind` for which match(obj, arg) holds, in an array
// the caller frees (NULL when none; when out of memory, those found).
void **ze_mock_objects_collect(ze_mock_object_kind_t kind,
                               bool (*match)(const void *obj, const void *arg),
                               const void *arg, size_t *count);

// True when `handle` is an object of the type of `magic` (it reads the
// magic, as every entry point does with the handles it is given).
static inline bool ze_mock_has_magic(const void *handle, uint32_t magic) {
    return handle != NULL && *(const uint32_t *)handle == magic;
}

// Events (ze_mock_events.c); what commands use of them is in
// ze_mock_engine.h.
typedef struct ze_mock_event_t ze_mock_event_t;

// True once zeInit succeeded.
bool ze_mock_initialized(void);

// True for the one driver handle zeDriverGet returns.
bool ze_mock_is_driver(ze_driver_handle_t handle);
// The answers of zeDriverGet and zeDeviceGet (and their sysman and 1.10
// twins): the driver, the devices ZE_AFFINITY_MASK exposes.
ze_result_t ze_mock_driver_list(uint32_t *pCount,
                                ze_driver_handle_t *phDrivers);
ze_result_t ze_mock_device_list(uint32_t *pCount,
                                ze_device_handle_t *phDevices);
// What ze_driver_properties_t.driverVersion says.
#define ZE_MOCK_DRIVER_VERSION 0x00010000u

// Reads the configuration, once (rules of UMF_GPU_MOCK_FAULTS apply to the
// very call that does), and counts the call of `entry`, which a rule may
// fail: its result. zeInit, zeInitDrivers and zesInit start with it.
ze_result_t ze_mock_initialize(ze_mock_entry_t entry);
// Makes the devices ZE_AFFINITY_MASK exposes, once (ze_mock_core.c).
void ze_mock_make_devices(void);
// zeInit or zeInitDrivers succeeded: makes the devices, runs what a family
// registered for it, and the core API is ready (ze_mock_initialized).
void ze_mock_core_ready(void);
// What ze_mock_core_ready runs beside (one function: sysman's), registered
// when the global table is filled, before zeInit can be called.
typedef void (*ze_mock_ready_fn)(void);
void ze_mock_core_ready_register(ze_mock_ready_fn fn);
// The functions zeDriverGetExtensionFunctionAddress gives by name
// (ze_mock_extensions.c); NULL for any other name.
void *ze_mock_extension_function(const char *name);
// Adds (or replaces) a function of that set, of an API family above the
// core; the family registers when the driver's tables are filled.
void ze_mock_extension_function_register(const char *name, void (*fn)(void));
// zexCounterBasedEventCreate2 (ze_mock_counter_event.c), by name: Intel's
// zex_counter_based_event_desc_t.
typedef struct ze_mock_counter_based_event_desc_t {
    ze_structure_type_t stype; // ZEX_STRUCTURE_COUNTER_BASED_EVENT_DESC
    const void *pNext;
    uint32_t flags; // zex_counter_based_event_exp_flags_t
    ze_event_scope_flags_t signalScope, waitScope;
} ze_mock_counter_based_event_desc_t;
// Registers zexCounterBasedEventCreate2 by name (ze_mock_tables.c calls it
// when it fills the driver's table).
void ze_mock_counter_events_register(void);
// An event alone in a pool of its own that goes with it, process-local
// (ze_mock_events.c); `counter_based` marks it so (ze_mock_event_arm).
// INVALID_ENUMERATION for scopes or pool flags it does not know.
ze_result_t ze_mock_event_create_alone(ze_mock_context_t *ctx,
                                       ze_event_pool_flags_t pool_flags,
                                       ze_event_scope_flags_t signal,
                                       ze_event_scope_flags_t wait,
                                       bool counter_based,
                                       ze_event_handle_t *phEvent);
// The device of a handle, or NULL when it is not one of ours. Its index is
// the core's device (what ZE_AFFINITY_MASK names); handles are numbered by
// the mask, from 0.
ze_mock_device_t *ze_mock_device(ze_device_handle_t handle);
// The devices zeDeviceGet returns: how many, and the one at `position`.
unsigned ze_mock_device_count(void);
ze_device_handle_t ze_mock_device_at(unsigned position);
// The handle of core device `core_device`; NULL when the mask hides it.
ze_device_handle_t ze_mock_device_handle(int core_device);
// The handle of sub-device `sub` of core device `core_device` (-1: the
// device), or of the device that holds it when the sub-device has no
// handle of its own; NULL when the mask hides both.
ze_device_handle_t ze_mock_device_handle_sub(int core_device, int sub);
// The memory of a device: the core device's, shared evenly by its
// sub-devices; and the largest single allocation on it.
uint64_t ze_mock_device_memory(const ze_mock_device_t *dev);
uint64_t ze_mock_device_max_alloc(const ze_mock_device_t *dev);
// zeDeviceGetProperties of a device (ze_mock_device.c).
ze_result_t ze_mock_device_properties(const ze_mock_device_t *dev,
                                      ze_device_properties_t *p);
// Its PCI address (zeDevicePciGetPropertiesExt, zesDevicePciGetProperties).
void ze_mock_device_pci_address(const ze_mock_device_t *dev, uint32_t *domain,
                                uint32_t *bus, uint32_t *device,
                                uint32_t *function);
// Declares `var`, the device of `handle`; returns INVALID_NULL_HANDLE from
// the calling entry point when it is none.
#define ZE_MOCK_DEVICE_OR_FAIL(var, handle)                                    \
    ze_mock_device_t *var = ze_mock_device(handle);                            \
    if (var == NULL) {                                                         \
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);              \
    }

// What ZE_AFFINITY_MASK `mask` (NULL: all) exposes of each of `devices`
// core devices with `subdevices` sub-devices each: the devices it names,
// in order, each whole or a set of its sub-devices (bit M: sub-device M);
// returns how many (ze_mock_affinity.c).
typedef struct ze_mock_affinity_t {
    unsigned device;
    bool whole;
    uint32_t subs; // when not whole
} ze_mock_affinity_t;
unsigned ze_mock_affinity_devices(const char *mask, unsigned devices,
                                  unsigned subdevices,
                                  ze_mock_affinity_t out[UMF_MOCK_MAX_DEVICES]);

// Fills the *pCount elements a caller asked for (or says how many there
// are), as every Level Zero "get" does.
static inline ze_result_t ze_mock_count(uint32_t *pCount, uint32_t available,
                                        uint32_t *filled) {
    *filled = 0;
    if (pCount == NULL) {
        return (ze_result_t)umf_mock_failure_record(
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    *filled = *pCount == 0 || *pCount > available ? available : *pCount;
    *pCount = *filled;
    return ZE_RESULT_SUCCESS;
}
// The context of a handle, or NULL.
ze_mock_context_t *ze_mock_context(ze_context_handle_t handle);
// Declares `var`, the context of `handle`; returns INVALID_NULL_HANDLE from
// the calling entry point when it is none.
#define ZE_MOCK_CONTEXT_OR_FAIL(var, handle)                                   \
    ze_mock_context_t *var = ze_mock_context(handle);                          \
    if (var == NULL) {                                                         \
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);              \
    }

// The one mapping of the core's results to ze_result_t.
ze_result_t ze_mock_result(umf_mock_status_t status);

// An entry point fails with `result`: the thread's last-error description
// (zeDriverGetLastErrorDescription) becomes it, with the reason given by
// ZE_MOCK_EXPLAIN during the same call.
#define ZE_MOCK_FAIL(result) ((ze_result_t)umf_mock_failure_record(result))
// Logs why the current call fails (a warning) and keeps it as the reason.
#define ZE_MOCK_EXPLAIN(...)                                                   \
    do {                                                                       \
        UMF_MOCK_LOG_WARN(__VA_ARGS__);                                        \
        umf_mock_failure_explain(__VA_ARGS__);                                 \
    } while (0)

// Counts the call, applies fault rules and refuses calls before zeInit.
#define ZE_MOCK_ENTER(name)                                                    \
    do {                                                                       \
        int64_t ze_mock_fault_;                                                \
        if (umf_mock_enter(ZE_MOCK_E_##name, &ze_mock_fault_)) {               \
            umf_mock_failure_explain("injected by a fault rule");              \
            return ZE_MOCK_FAIL(ze_mock_fault_);                               \
        }                                                                      \
        if (!ze_mock_initialized()) {                                          \
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_UNINITIALIZED);                \
        }                                                                      \
    } while (0)

// Table fillers, one per file and table; a filler of a newer layout
// (ze_mock_ddi.h) fills its 1.4 part too. ze_mock_tables.c puts together
// the tables that several files fill.
void ze_mock_fill_global(ze_mock_global_dditable_t *t);
void ze_mock_fill_driver(ze_mock_driver_dditable_t *t);
void ze_mock_fill_mem(ze_mock_mem_dditable_t *t);
void ze_mock_fill_mem_exp(ze_mock_mem_exp_dditable_t *t);
void ze_mock_fill_driver_context(ze_mock_driver_dditable_t *t);
void ze_mock_fill_module_build_log(ze_module_build_log_dditable_t *t);
// Modules, kernels and their launches on the kernel engine of mock/
// (ze_mock_kernel.c).
void ze_mock_fill_module(ze_module_dditable_t *t);
void ze_mock_fill_kernel(ze_kernel_dditable_t *t);
void ze_mock_fill_kernel_exp(ze_mock_kernel_exp_dditable_t *t);
void ze_mock_fill_command_list_launches(ze_mock_command_list_dditable_t *t);
// A build log with `text` (taken: malloc'ed, or NULL for a static one).
ze_module_build_log_handle_t
ze_mock_build_log_new(ze_mock_context_t *ctx, const char *text, char *owned);
void ze_mock_fill_device(ze_mock_device_dditable_t *t);
void ze_mock_fill_context(ze_context_dditable_t *t);
void ze_mock_fill_virtual_mem(ze_virtual_mem_dditable_t *t);
void ze_mock_fill_physical_mem(ze_mock_physical_mem_dditable_t *t);

// Virtual memory (ze_mock_vmm.c): the page size for a size (what
// zeVirtualMemQueryPageSize says), and the IPC of memory mapped from
// physical memory, whose handles are told apart by their magic.
size_t ze_mock_vmm_page_size(size_t size);
bool ze_mock_vmm_handle(const unsigned char handle[64]);
ze_result_t ze_mock_vmm_get_ipc_handle(const void *ptr,
                                       ze_ipc_mem_handle_t *handle);
ze_result_t ze_mock_vmm_open_ipc_handle(ze_mock_context_t *ctx,
                                        const unsigned char handle[64],
                                        void **pptr);
// True (closed) when `ptr` is mapped memory `ctx` opened from a handle.
bool ze_mock_vmm_close_ipc_handle(ze_mock_context_t *ctx, const void *ptr);
ze_result_t ze_mock_vmm_put_ipc_handle(const unsigned char handle[64]);
// The fd of such a handle; false when it is none.
bool ze_mock_vmm_handle_fd(const unsigned char handle[64], int *fd);
// The handle whose fd is `fd` (an export of this process); false if none.
bool ze_mock_vmm_handle_of_fd(int fd, ze_ipc_mem_handle_t *handle);
// Commands, events and fences (ze_mock_commands.c, ze_mock_append.c,
// ze_mock_events.c): the newest layouts, what a loader of any version gets
// is copied from them.
void ze_mock_fill_command_queue(ze_mock_command_queue_dditable_t *t);
void ze_mock_fill_command_list(ze_mock_command_list_dditable_t *t);
void ze_mock_fill_command_list_append(ze_mock_command_list_dditable_t *t);
void ze_mock_fill_command_list_exp(ze_mock_command_list_exp_dditable_t *t);
void ze_mock_fill_event_pool(ze_mock_event_pool_dditable_t *t);
void ze_mock_fill_event(ze_mock_event_dditable_t *t);
void ze_mock_fill_event_exp(ze_event_exp_dditable_t *t);
void ze_mock_fill_fence(ze_fence_dditable_t *t);
void ze_mock_fill_device_synchronize(ze_mock_device_dditable_t *t);
void ze_mock_fill_context_barrier(ze_context_dditable_t *t);

#endif // UMF_GPU_ZE_MOCK_INTERNAL_H
