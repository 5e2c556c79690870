/* Reader for NVIDIA Nsight Systems SQLite exports (nsys export --type
 * sqlite), by the tables and columns each export has (load/nsys_detect.h).
 *
 * - GPU ops: the rows of CUPTI_ACTIVITY_KIND_KERNEL (named from StringIds
 *   by demangledName, else shortName), CUPTI_ACTIVITY_KIND_MEMCPY (named by
 *   copyKind as rpd names copies: CopyHostToDevice, CopyDeviceToHost,
 *   CopyDeviceToDevice, CopyHostToHost, CopyPeerToPeer; an array counts as
 *   the device) and CUPTI_ACTIVITY_KIND_MEMSET (FillBuffer), on GPU
 *   deviceId and queue streamId. Their ids are their places among the GPU
 *   ops of the file, from 1: kernels, copies, memsets, each in the order
 *   of its table (load/nsys_rows.h, which numbers the calls too).
 * - Calls: the rows of CUPTI_ACTIVITY_KIND_RUNTIME (named from StringIds by
 *   nameId, else by name) on the thread their globalTid packs (pid: bits
 *   24 to 47, tid: bits 0 to 23). An op's launching call is the call with
 *   its correlationId that starts first.
 * - NVTX: push/pop and start/end ranges of NVTX_EVENTS (eventType 59, 60)
 *   and marks (34, an instant) are UserMarker calls with their text (text,
 *   else textId in StringIds), as roctx ranges are; a range without an end
 *   is an instant. Other NVTX events (domains, thread names) are skipped.
 * - A copy's bytes and where it went (srcKind, dstKind) are its facts.
 * Each is read when its table is there; the API rows may be read after
 * the ops (nsys_read_apis). */
#ifndef RPDTOP_NSYS_H
#define RPDTOP_NSYS_H

#include <sqlite3.h>
#include <stdint.h>

#include "load/nsys_detect.h"
#include "trace/op_span.h"
#include "trace/trace.h"
#include "util/error.h"

/* Append the export to t as an input, reading what (enum load_what): its
 * ops, and with LOAD_APIS its API rows and links. 0, or -1 with *err one
 * line naming the file. */
int nsys_read(struct trace *t, sqlite3 *db, const char *path, const struct nsys_file *f, unsigned what,
	      struct rpd_error *err);

/* The API rows and links of input (its ops read before without them). */
int nsys_read_apis(struct trace *t, sqlite3 *db, uint32_t input, const struct nsys_file *f,
		   struct rpd_error *err);

/* The span of the export's ops, read without keeping them. */
int nsys_span(sqlite3 *db, const char *path, const struct nsys_file *f, struct op_span *out,
	      struct rpd_error *err);

#endif
