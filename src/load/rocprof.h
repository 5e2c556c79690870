/* Reader for rocprof's results.db (rocprof --hip-trace, --sys-trace, ROCm
 * 3 to 6), by the tables and columns each file has
 * (load/rocprof_detect.h).
 *
 * - GPU ops: the rows of OPS and COPY, on GPU dev-id and queue queue-id
 *   (the HSA queue the tracer recorded, as rpd's queueId; stream-id is
 *   rocprof's own numbering of the stream argument of the launching call
 *   and is not read). OPS rows are kernels named by Name (the kernel's
 *   name rocprof took from its launch), but for barriers (Name
 *   "<barrier packet>", quoted or not, or Barrier...), which are ops of
 *   type Barrier without a name. COPY rows are named by Name, as rpd names
 *   copies (CopyHostToDevice, ..., FillBuffer). Their ids are their places
 *   among the GPU ops of the file, from 1: OPS, then COPY, each in the
 *   order of its rows.
 * - Calls: the rows of HIP, HSA and KFD, named by Name, on thread tid of
 *   process pid. An op's launching call is the HIP call with its Index (the
 *   correlation id the tracer gave both) that starts first: within its
 *   process (pid) when the tables have __section (ROCm 5.1 on), else by
 *   Index alone (older layouts, whose pid named a timeline section).
 * - roctx: the rows of rocTX are UserMarker calls with their text (Name).
 * KERN is not read: its Index is the number of a kernel dispatch, no
 * correlation id, and no op's. Each table is read when it is there; the
 * API rows may be read after the ops (rocprof_read_apis). */
#ifndef RPDTOP_ROCPROF_H
#define RPDTOP_ROCPROF_H

#include <sqlite3.h>
#include <stdint.h>

#include "load/rocprof_detect.h"
#include "trace/op_span.h"
#include "trace/trace.h"
#include "util/error.h"

/* Append the file to t as an input, reading what (enum load_what): its
 * ops, and with LOAD_APIS its API rows and links. 0, or -1 with *err one
 * line naming the file. */
int rocprof_read(struct trace *t, sqlite3 *db, const char *path, const struct rocprof_file *f, unsigned what,
		 struct rpd_error *err);

/* The API rows and links of input (its ops read before without them). */
int rocprof_read_apis(struct trace *t, sqlite3 *db, uint32_t input, const struct rocprof_file *f,
		      struct rpd_error *err);

/* The span of the file's ops, read without keeping them. */
int rocprof_span(sqlite3 *db, const char *path, const struct rocprof_file *f, struct op_span *out,
		 struct rpd_error *err);

#endif
