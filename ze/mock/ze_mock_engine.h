// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How the emulated Level Zero driver runs commands (ze_mock_engine.c).
//
// Every command queue and every immediate command list has a stream: the
// commands submitted to it, run one after another in submission order. A
// command runs at once, in the thread that submits it, when the stream
// has nothing pending and every event the command waits for is signalled;
// otherwise it and everything submitted after it wait in the stream, and
// the driver's thread runs them when their events are signalled (by the
// host, by another queue or list, by another process for an IPC pool). A
// command whose wait can never end (no event handle, command or process
// can signal the event any more) loses its stream: it and the commands
// behind it are dropped, and whoever waits for them learns it (the
// stream's `lost` state, ZE_RESULT_ERROR_DEVICE_LOST or NOT_READY).
//
// The driver's thread starts at the first command that has to wait, and
// runs until the driver is unloaded. In the child of a fork it is gone:
// the child starts its own at its first command that waits, and a stream
// the parent's thread served is handed to it when the child next submits
// to or synchronizes with it.
//
// Lock order: a stream's lock, then an event pool's lock (events), then
// the engine's own; none is held while waiting for another thread.

#ifndef UMF_GPU_ZE_MOCK_ENGINE_H
#define UMF_GPU_ZE_MOCK_ENGINE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mock_events.h"
#include "mock_fill.h"
#include "mock_memory.h"
#include "ze_mock_internal.h"

// ---- Level Zero after 1.4, as the specification (1.12) has it ---------------

// ze_command_queue_flag_t (1.7): commands of an immediate list run in
// order (they do here in any case).
#define ZE_MOCK_COMMAND_QUEUE_FLAG_IN_ORDER (1u << 1)
// ze_command_list_flag_t: IN_ORDER (1.7), EXP_CLONEABLE (1.9).
#define ZE_MOCK_COMMAND_LIST_FLAG_IN_ORDER (1u << 3)
#define ZE_MOCK_COMMAND_LIST_FLAG_EXP_CLONEABLE (1u << 4)
// ze_event_pool_flag_t (1.6): kernel timestamps in the host's time domain.
#define ZE_MOCK_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP (1u << 3)

// zeEventQueryKernelTimestampsExt (1.6): where the results go.
typedef struct ze_mock_synchronized_timestamp_data_t {
    uint64_t kernelStart;
    uint64_t kernelEnd;
} ze_mock_synchronized_timestamp_data_t;
typedef struct ze_mock_synchronized_timestamp_result_t {
    ze_mock_synchronized_timestamp_data_t global;
    ze_mock_synchronized_timestamp_data_t context;
} ze_mock_synchronized_timestamp_result_t;
#define ZE_MOCK_STRUCTURE_TYPE_KERNEL_TIMESTAMPS_RESULTS 0x10012
typedef struct ze_mock_kernel_timestamps_results_t {
    ze_structure_type_t stype;
    void *pNext;
    ze_kernel_timestamp_result_t *pKernelTimestampsBuffer;
    ze_mock_synchronized_timestamp_result_t *pSynchronizedTimestampsBuffer;
} ze_mock_kernel_timestamps_results_t;

// ---- Events, as commands use them (ze_mock_events.c) ------------------------

// The event of a live handle, or NULL.
ze_mock_event_t *ze_mock_event(ze_event_handle_t handle);
// Signals the event; `start` and `end` (device timer ticks) are its kernel
// timestamps when its pool keeps them. `gen`: the submission that signals
// a counter-based event (ze_mock_event_arm), which a later one supersedes;
// 0 for other events.
void ze_mock_event_signal(ze_mock_event_t *event, uint64_t gen, uint64_t start,
                          uint64_t end);
// Counter-based events (Intel's zexCounterBasedEventCreate2): "a signaled
// counter-based event always represents the completion of the last call to
// which it was passed as signal event". A command that signals one, when
// submitted (appended to an immediate list, or its regular list executed),
// takes the event: it is not signalled again until that command runs. The
// submission's number, or 0 for another event.
uint64_t ze_mock_event_arm(ze_mock_event_t *event);
bool ze_mock_event_counter_based(const ze_mock_event_t *event);
void ze_mock_event_reset(ze_mock_event_t *event);
bool ze_mock_event_signaled(const ze_mock_event_t *event);
// True when the event's pool keeps kernel timestamps.
bool ze_mock_event_timestamped(const ze_mock_event_t *event);
// Its kernel timestamps (false while it is not signalled).
bool ze_mock_event_timestamps(const ze_mock_event_t *event, uint64_t *start,
                              uint64_t *end);
// A command holds the events it uses: their memory (and their pool's)
// stays after their handles are destroyed. A command that signals an event
// keeps it waitable (an event nothing can signal any more is dead); one
// that waits in a stream to signal it keeps host threads waiting for it.
enum {
    ZE_MOCK_HOLD_SIGNALS = 1u, // the command signals the event
    ZE_MOCK_HOLD_QUEUED = 2u,  // the command waits in a stream to run
};
void ze_mock_event_hold(ze_mock_event_t *event, unsigned how);
// `abandoned`: the command never ran (its stream's work was dropped): a
// host thread waiting for the event stops once no queued signaller is left.
void ze_mock_event_unhold(ze_mock_event_t *event, unsigned how, bool abandoned);
// True when nothing can signal the unsignalled event any more: no handle
// of it (or of an event at its index of the pool) is alive in this
// process, no command would signal it, and no other process shares it.
bool ze_mock_event_dead(ze_mock_event_t *event);
// Where the driver's thread sleeps for an event of a shared pool, which
// another process may signal; false for a private pool (signals of this
// process ring the engine's bell).
bool ze_mock_event_slot(const ze_mock_event_t *event,
                        umf_mock_event_ref_t *slot);

// ---- Commands ---------------------------------------------------------------

typedef enum ze_mock_cmd_kind_t {
    ZE_MOCK_CMD_BARRIER, // waits, signals: barriers, waits, signals
    ZE_MOCK_CMD_COPY,
    ZE_MOCK_CMD_COPY_REGION,
    ZE_MOCK_CMD_FILL,
    ZE_MOCK_CMD_RESET,            // resets `event`
    ZE_MOCK_CMD_WRITE_TIMESTAMP,  // the global timestamp to dst
    ZE_MOCK_CMD_QUERY_TIMESTAMPS, // kernel timestamps of events to dst
    ZE_MOCK_CMD_FENCE,            // internal: signals a fence
    ZE_MOCK_CMD_CALL,             // an API family's own work (u.call)
} ze_mock_cmd_kind_t;

// A range of memory a command reads or writes. `known`: it was memory of
// the driver when the command was appended (allocation or mapping `id`),
// so it must still be the same memory when the command runs later: freed
// memory, or memory made in its place since, is never written.
typedef struct ze_mock_range_t {
    const void *ptr;
    size_t size;
    umf_mock_use_t use;
    bool known;
    uint64_t id;
} ze_mock_range_t;

struct ze_mock_fence_t;
// The work of a ZE_MOCK_CMD_CALL command, which an API family above the
// engine appends (kernel launches: ze_mock_kernel.c): the engine runs it in
// order with the other commands through these functions, so that it never
// calls into the family. `arg` is shared by the copies of the command,
// each holding it once.
typedef struct ze_mock_call_ops_t {
    void (*run)(void *arg, const char *call); // logs its own failures
    void (*hold)(void *arg);
    void (*release)(void *arg);
} ze_mock_call_ops_t;

typedef struct ze_mock_cmd_t {
    ze_mock_cmd_kind_t kind;
    // An owned command (recorded in a list, or queued: waiting in a
    // stream) holds its events and its arrays; a borrowed one (being
    // appended) points at the caller's.
    bool owned;
    bool queued;
    int device;       // of the list: whose access mapped memory needs
    const char *call; // the entry point, for messages
    uint32_t waits;
    ze_mock_event_t **wait;
    ze_mock_event_t *signal; // or NULL
    // A counter-based signal event's submission (ze_mock_event_arm): the
    // command signals it only while no later submission took it.
    uint64_t signal_gen;
    ze_mock_event_t *event; // RESET
    ze_mock_range_t ranges[2];
    union {
        struct {
            void *dst;
            const void *src;
            size_t size;
        } copy;
        struct {
            char *dst;
            const char *src;
            size_t width, height, depth;
            size_t dst_pitch, dst_slice, src_pitch, src_slice;
        } region;
        struct {
            void *dst;
            size_t size;
            size_t pattern_size;
            unsigned char pattern[UMF_MOCK_FILL_MAX_PATTERN];
        } fill;
        struct {
            uint64_t *dst;
        } timestamp;
        struct {
            uint32_t count;
            ze_mock_event_t **events;
            char *dst;
            size_t *offsets; // or NULL: one result after another
        } query;
        struct {
            struct ze_mock_fence_t *fence;
        } fence;
        struct {
            const ze_mock_call_ops_t *ops;
            void *arg;
        } call;
    } u;
} ze_mock_cmd_t;

// Checks the signal and wait events of a command (INVALID_NULL_HANDLE for
// one that is no event, INVALID_SIZE for a missing wait list) and fills
// them in, borrowed.
ze_result_t ze_mock_cmd_set_events(ze_mock_cmd_t *cmd,
                                   ze_event_handle_t hSignal, uint32_t numWait,
                                   ze_event_handle_t *phWait);
// Makes `*out` an owned copy of `cmd` (which may be borrowed or owned):
// its arrays copied, its events held, `queued` in a stream or recorded in
// a list. False when out of memory.
bool ze_mock_cmd_keep(const ze_mock_cmd_t *cmd, ze_mock_cmd_t *out,
                      bool queued);
// Releases what an owned command holds; `abandoned`: it never ran, so an
// event it would have signalled is abandoned.
void ze_mock_cmd_drop(ze_mock_cmd_t *cmd, bool abandoned);

// The device timer: nanoseconds of CLOCK_MONOTONIC_RAW, what
// zeDeviceGetGlobalTimestamps reads (one tick per nanosecond;
// ze_mock_bell.c).
uint64_t ze_mock_timer_now(void);

// ---- Streams ----------------------------------------------------------------

typedef struct ze_mock_stream_t ze_mock_stream_t;

// A stream of device `device`; `sync`: ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
// every submission returns when it ran. NULL when out of memory.
ze_mock_stream_t *ze_mock_stream_new(int device, bool sync);
void ze_mock_stream_ref(ze_mock_stream_t *s);
void ze_mock_stream_unref(ze_mock_stream_t *s);
// The core device of the stream.
int ze_mock_stream_device(const ze_mock_stream_t *s);

// Submits `count` commands (of `lists` groups: one list each, or one
// command), in order, and a fence to signal after them (or NULL). Those
// that can run now run in the calling thread; the others wait, as owned
// copies. DEVICE_LOST for a stream whose commands were lost, or when a
// command finds its memory gone (the stream is lost then too),
// OUT_OF_HOST_MEMORY.
ze_result_t ze_mock_stream_submit(ze_mock_stream_t *s,
                                  const ze_mock_cmd_t *const *groups,
                                  const size_t *counts, size_t ngroups,
                                  struct ze_mock_fence_t *fence);

// Waits until everything submitted so far ran, at most `timeout_ns`:
// SUCCESS, NOT_READY (timeout, or lost with a finite one), DEVICE_LOST
// (lost, with UINT64_MAX).
ze_result_t ze_mock_stream_synchronize(ze_mock_stream_t *s,
                                       uint64_t timeout_ns);

// Drops what waits in the stream (the commands never run) and forgets
// that it was lost: for zeCommandListReset of an immediate list, and the
// destroys (the stream takes nothing more after `close`). Returns how many
// commands were dropped.
size_t ze_mock_stream_clear(ze_mock_stream_t *s, bool close);

// ---- Fences -----------------------------------------------------------------

// A fence, signalled by the fence command of a submission (under its
// stream's lock).
typedef struct ze_mock_fence_t {
    ze_mock_object_t obj;
    ze_mock_stream_t *stream; // its queue's, held
    bool signaled;
    bool abandoned; // its submission was dropped: it never signals
} ze_mock_fence_t;

// Sets or clears the fence's state under its stream's lock.
void ze_mock_fence_set(ze_mock_fence_t *f, bool signaled);
// Waits for the fence: SUCCESS, NOT_READY, DEVICE_LOST as for a stream.
ze_result_t ze_mock_fence_wait(ze_mock_fence_t *f, uint64_t timeout_ns);
// Forgets the fence in the fence commands still waiting in its stream.
void ze_mock_fence_forget(ze_mock_fence_t *f);

// ---- Queries
// -----------------------------------------------------------------

// The queries of 1.9 (what a list, queue, event or pool was made with):
// INVALID_NULL_HANDLE unless `obj` is a live object of `magic`,
// INVALID_NULL_POINTER for no `out`, else the `size` bytes at `offset` of
// the object there.
static inline ze_result_t ze_mock_query(const void *obj, uint32_t magic,
                                        void *out, size_t offset, size_t size) {
    const ze_mock_object_t *o = (const ze_mock_object_t *)obj;
    if (o == NULL || o->magic != magic) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    }
    if (out == NULL) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    }
    memcpy(out, (const char *)obj + offset, size);
    return ZE_RESULT_SUCCESS;
}
// The query of `field` of object `handle` of `type`; the field must be as
// big as what `out` points at.
#define ZE_MOCK_QUERY(type, magic, handle, out, field)                         \
    ((void)sizeof(                                                             \
         char[sizeof(((type *)0)->field) == sizeof(*(out)) ? 1 : -1]),         \
     ze_mock_query((handle), (magic), (out), offsetof(type, field),            \
                   sizeof(*(out))))

// ---- The engine -------------------------------------------------------------

// Something a waiting command may wait for changed in this process (an
// event was signalled or became dead): the driver's thread looks again.
// Cheap when it has nothing waiting (ze_mock_bell.c, which the events use
// and the engine sleeps on: below both).
void ze_mock_engine_notify(void);
// The bell itself, for the engine: rings it (new work, a stream to let
// go); the driver's thread watches (every ze_mock_engine_notify rings from
// then on) and returns what the bell says, stops watching when it has no
// stream left, and sleeps until the bell differs from what it saw or one
// of `count` slots of shared pools is signalled.
void ze_mock_bell_ring(void);
uint32_t ze_mock_bell_watch(void);
void ze_mock_bell_unwatch(void);
void ze_mock_bell_sleep(uint32_t seen, const umf_mock_event_ref_t *slots,
                        size_t count);
// Stops the driver's thread, for the driver's unload (mock_core.h).
void ze_mock_engine_unload(void);

#endif // UMF_GPU_ZE_MOCK_ENGINE_H
