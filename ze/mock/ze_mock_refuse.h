// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the emulated devices cannot do, refused by family, one file per
// family (ze_mock_refuse_*.c, ze_mock_sysman_refuse.c). Each refused entry
// point checks its arguments as ze_api.h (zes_api.h) documents them, in
// the documented order and with the documented results, so that a program
// learns of a bad argument as it would from a real driver; then it refuses
// through ze_mock_refuse with a documented result, and the calling
// thread's last-error description (zeDriverGetLastErrorDescription) says
// "<entry point>: <result>: <the family's reason>".
//
// Objects of these families are never made (no module is ever built, so
// no kernel; no image, sampler, external semaphore, acceleration structure
// builder, fabric vertex, or sysman handle of a missing sensor exists).
// So a handle of one is never valid, NULL or not: an entry point that
// takes one answers ZE_RESULT_ERROR_INVALID_NULL_HANDLE, its first check
// in ze_api.h, and looks at no other argument.

#ifndef UMF_GPU_ZE_MOCK_REFUSE_H
#define UMF_GPU_ZE_MOCK_REFUSE_H 1

#include "ze_mock_internal.h"

typedef enum ze_mock_family_t {
    ZE_MOCK_FAMILY_ATOMICS,    // atomic access attributes of memory
    ZE_MOCK_FAMILY_IMAGES,     // images, samplers, image copies and
                               // residency, bindless image pitches
    ZE_MOCK_FAMILY_RTAS,       // ray tracing acceleration structures
    ZE_MOCK_FAMILY_SEMAPHORES, // external semaphores
    ZE_MOCK_FAMILY_FABRIC,     // fabric vertices and edges (there is none)
    ZE_MOCK_FAMILY_SYSMAN,     // sensors and controls the devices lack
    ZE_MOCK_FAMILY_COUNT
} ze_mock_family_t;

// Refuses the current call with `result`, explained by the family.
ze_result_t ze_mock_refuse(ze_mock_family_t family, ze_result_t result);

// Refuses the current call for its handle of a `kind` of object of the
// family, which the driver never makes: ZE_RESULT_ERROR_INVALID_NULL_HANDLE.
ze_result_t ze_mock_refuse_handle(ze_mock_family_t family, const char *kind);

// An entry point `fn` (API name `api`, counted by `enter`) whose first
// argument is a handle of a `kind` of object that never exists: it counts
// the call and refuses it. Its other arguments are never looked at, as the
// first check already fails, hence unused.
#define ZE_MOCK_REFUSE_HANDLE_AS(enter, family, kind, api, fn, ...)            \
    _Pragma("GCC diagnostic push") _Pragma(                                    \
        "GCC diagnostic ignored \"-Wunused-parameter\"") static ze_result_t    \
        ZE_APICALL                                                             \
        fn(__VA_ARGS__) {                                                      \
        enter(api);                                                            \
        return ze_mock_refuse_handle(ZE_MOCK_FAMILY_##family, kind);           \
    }                                                                          \
    _Pragma("GCC diagnostic pop")
// The same for the core entry point ze<name>, defined as mock_<name>.
#define ZE_MOCK_REFUSE_HANDLE(family, kind, name, ...)                         \
    ZE_MOCK_REFUSE_HANDLE_AS(ZE_MOCK_ENTER, family, kind, ze##name,            \
                             mock_##name, __VA_ARGS__)

// Argument checks of ze_api.h's clauses, in their order.
#define ZE_MOCK_CHECK_POINTER(p)                                               \
    do {                                                                       \
        if ((p) == NULL) {                                                     \
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);         \
        }                                                                      \
    } while (0)
// `(nullptr == phWaitEvents) && (0 < numWaitEvents)`
#define ZE_MOCK_CHECK_WAIT_EVENTS(num, ph)                                     \
    do {                                                                       \
        if ((ph) == NULL && (num) > 0) {                                       \
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_SIZE);                 \
        }                                                                      \
    } while (0)
// The handle of a live command list (any ze_mock_object_t starts with its
// type's magic).
#define ZE_MOCK_CHECK_COMMAND_LIST(h)                                          \
    do {                                                                       \
        if (!ze_mock_has_magic((h), ZE_MOCK_MAGIC_LIST)) {                     \
            return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);          \
        }                                                                      \
    } while (0)

// Table fillers of the families (ze_mock_tables.c puts them together with
// the files that emulate the rest of each table).
void ze_mock_fill_mem_exp_atomics(ze_mock_mem_exp_dditable_t *t);
void ze_mock_fill_image(ze_mock_image_dditable_t *t);
void ze_mock_fill_image_exp(ze_mock_image_exp_dditable_t *t);
void ze_mock_fill_sampler(ze_sampler_dditable_t *t);
void ze_mock_fill_command_list_images(ze_mock_command_list_dditable_t *t);
void ze_mock_fill_context_images(ze_context_dditable_t *t);
void ze_mock_fill_mem_images(ze_mock_mem_dditable_t *t);
void ze_mock_fill_driver_rtas(ze_mock_driver_dditable_t *t);
void ze_mock_fill_driver_exp(ze_mock_driver_exp_dditable_t *t);
void ze_mock_fill_rtas_builder_exp(ze_mock_rtas_builder_exp_dditable_t *t);
void ze_mock_fill_rtas_builder(ze_mock_rtas_builder_dditable_t *t);
void ze_mock_fill_rtas_parallel_operation_exp(
    ze_mock_rtas_parallel_operation_dditable_t *t);
void ze_mock_fill_rtas_parallel_operation(
    ze_mock_rtas_parallel_operation_dditable_t *t);
void ze_mock_fill_device_semaphores(ze_mock_device_dditable_t *t);
void ze_mock_fill_command_list_semaphores(ze_mock_command_list_dditable_t *t);
void ze_mock_fill_device_exp(ze_device_exp_dditable_t *t);
void ze_mock_fill_fabric_vertex_exp(ze_fabric_vertex_exp_dditable_t *t);
void ze_mock_fill_fabric_edge_exp(ze_fabric_edge_exp_dditable_t *t);

#endif // UMF_GPU_ZE_MOCK_REFUSE_H
