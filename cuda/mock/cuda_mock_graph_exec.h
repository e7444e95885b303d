// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Executable graphs (cuda_mock_graph_exec.c), for cuda_mock_queue.c

#ifndef UMF_GPU_CUDA_MOCK_GRAPH_EXEC_H
#define UMF_GPU_CUDA_MOCK_GRAPH_EXEC_H 1

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

typedef CUresult (*cuda_mock_op_fn)(const cuda_mock_op_t *op, void *arg);
// Calls fn with the operation of every enabled node, in a topological
// order (child graphs inline); stops at the first failure.
CUresult cuda_mock_exec_walk(CUgraphExec exec, cuda_mock_op_fn fn, void *arg);
// Whether it has a host node (which runs on the driver thread).
bool cuda_mock_exec_needs_thread(CUgraphExec exec);
// Its last queued launch (under the order lock).
cuda_mock_mark_t *cuda_mock_exec_mark(CUgraphExec exec);

#endif // UMF_GPU_CUDA_MOCK_GRAPH_EXEC_H
