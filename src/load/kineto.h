/* Reader for the PyTorch profiler's (Kineto's) Chrome-trace JSON, plain
 * or gzipped: the trace of torch.profiler on AMD and NVIDIA GPUs alike.
 *
 * - GPU ops: complete events ("ph": "X") of the categories kernel,
 *   gpu_memcpy and gpu_memset, on GPU args.device (else the event's pid)
 *   and queue args.stream (else its tid). A kernel is named by its event
 *   name; a copy by its direction as rpd names it (CopyHostToDevice from
 *   "Memcpy HtoD (...)", CopyDeviceToHost, CopyDeviceToDevice,
 *   CopyHostToHost, CopyPeerToPeer; an array counts as the device; a copy
 *   of another direction keeps its name); a memset is FillBuffer, as
 *   rocprof names it (an op that is neither kernel nor copy). Their ids
 *   are their places among the GPU ops of the file, from 1.
 * - Calls: complete events of cuda_runtime and cuda_driver (HIP's calls
 *   on ROCm too) are API rows on their pid/tid thread; an op's launching
 *   call is the call with its args.correlation (the first such call).
 * - CPU ranges: complete events of cpu_op, user_annotation and
 *   python_function are ranges with their name as their text, as roctx
 *   ranges are (UserMarker). gpu_user_annotation events are not read:
 *   they repeat a user annotation's text over the GPU time it took, and
 *   a step counted twice is no step.
 * - Times: ts and dur in microseconds to the nanosecond, exactly (see
 *   load/kineto_parse.h), plus baseTimeNanoseconds when the file has it.
 *   displayTimeUnit is only how a viewer shows times (the trace event
 *   format's ts are microseconds whatever it says): read, nothing more.
 * - Everything else (other categories and phases, flows, metadata events,
 *   deviceProperties, distributedInfo) is skipped.
 * - One pass reads the ops and the API rows together whenever the calls
 *   may be wanted (the load reads no calls only for reports that never
 *   link them). */
#ifndef RPDTOP_KINETO_H
#define RPDTOP_KINETO_H

#include <stdint.h>
#include <sys/stat.h>

#include "trace/op_span.h"
#include "trace/trace.h"
#include "util/error.h"

/* Append the trace at path to t as an input, reading what (enum
 * load_what): the ops, and the API rows with them unless what says the
 * calls are never linked (LOAD_NO_OP_IDS without LOAD_APIS). 0, or -1
 * with *err one line naming the file. */
int kineto_read(struct trace *t, const char *path, unsigned what, struct rpd_error *err);

/* The API rows and links of input (its ops read before without them). */
int kineto_read_apis(struct trace *t, uint32_t input, struct rpd_error *err);

/* The span of the trace's ops, read without keeping them. */
int kineto_span(const char *path, struct op_span *out, struct rpd_error *err);

/* The stamp of a file as stat found it. */
void kineto_stamp(const struct stat *st, struct trace_stamp *out);
/* Is the file as stamped? */
int kineto_stamp_same(const struct trace_stamp *a, const struct stat *st);

/* Read through read(ctx, path, err) in one go from a file that did not
 * change meanwhile: when it did, again(ctx) forgets what was read and it
 * is read again, a few times. */
int kineto_reading(const char *path, int (*read)(void *ctx, const char *path, struct rpd_error *err),
		   void (*again)(void *ctx), void *ctx, struct rpd_error *err);

#endif
