/* Reader for rocprofv3's JSON (rocprofv3 --output-format json), plain or
 * gzipped: {"rocprofiler-sdk-tool": [process, ...]}, one element per
 * process, the whole file one input.
 *
 * - GPU ops: buffer_records.kernel_dispatch records on the GPU of their
 *   agent (dispatch_info.agent_id.handle: the agent's
 *   logical_node_type_id, its index among the node's GPUs as rocpd
 *   numbers GPUs; else its logical_node_id) and the queue
 *   dispatch_info.queue_id.handle, named by their kernel symbol
 *   (kernel_symbols[].kernel_name without its ".kd", else its
 *   formatted_kernel_name), as the rocpd reader names kernels.
 *   memory_copy records are copies, named by their operation's name
 *   (MEMORY_COPY_HOST_TO_DEVICE) or their agents as rocpd copies are, on
 *   the GPU they went to (else came from), a lane per stream; a copy
 *   between agents that are no GPUs is a host copy. Ops are numbered in
 *   the order of the file, each process's copies after its dispatches.
 * - Calls: hip_api, hsa_api, rccl_api, rocdecode_api and rocjpeg_api
 *   records are API rows on their thread (metadata.pid, thread_id), named
 *   strings.buffer_records[kind].operations[operation]; an op's launching
 *   call is the call of its process with its correlation_id.internal.
 *   marker_api records (roctx) are UserMarker calls whose text is their
 *   message (strings.marker_api, by correlation id), else their name.
 * - Times: start_timestamp and end_timestamp, integer ns.
 * - Keys come in any order: ids (kernels, agents, names) are kept as they
 *   are read and resolved when their process ends; an id that names
 *   nothing is refused with one line.
 * - One pass reads the ops and the API rows together whenever the calls
 *   may be wanted (as load/kineto.h). */
#ifndef RPDTOP_ROCPROFV3_H
#define RPDTOP_ROCPROFV3_H

#include <stdint.h>

#include "trace/op_span.h"
#include "trace/trace.h"
#include "util/error.h"

/* Append the trace at path to t as an input, reading what (enum
 * load_what): the ops, and the API rows with them unless what says the
 * calls are never linked (LOAD_NO_OP_IDS without LOAD_APIS). 0, or -1
 * with *err one line naming the file (t then has none of its rows). */
int rocprofv3_read(struct trace *t, const char *path, unsigned what, struct rpd_error *err);

/* The API rows and links of input (its ops read before without them). */
int rocprofv3_read_apis(struct trace *t, uint32_t input, struct rpd_error *err);

/* The span of the trace's ops, read without keeping them. */
int rocprofv3_span(const char *path, struct op_span *out, struct rpd_error *err);

#endif
