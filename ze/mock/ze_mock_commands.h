// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Command lists, as the appends see them (ze_mock_commands.c makes them,
// ze_mock_append.c checks each command and hands it over).

#ifndef UMF_GPU_ZE_MOCK_COMMANDS_H
#define UMF_GPU_ZE_MOCK_COMMANDS_H 1

#include "ze_mock_engine.h"

typedef struct ze_mock_list_t ze_mock_list_t;

// The list of a live handle, or NULL.
ze_mock_list_t *ze_mock_list(ze_command_list_handle_t handle);
// The core device of the list (whose access mapped memory needs).
int ze_mock_list_device(const ze_mock_list_t *l);
// Adds a checked command (borrowed: the appending call's arguments): an
// immediate list submits it to its stream, a regular one records an owned
// copy (INVALID_ARGUMENT once closed).
ze_result_t ze_mock_list_add(ze_mock_list_t *l, const ze_mock_cmd_t *cmd);

#endif // UMF_GPU_ZE_MOCK_COMMANDS_H
