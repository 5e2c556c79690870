/* Reader for rocprofiler-sdk "rocpd" databases (rocprofv3's default
 * output). A file holds one process or, merged, several: each process's
 * tables carry its uuid as a suffix ("rocpd_region_<uuid>") and each is
 * read as an input of its own, from its own tables (the unsuffixed views
 * are not needed: in the LZ4 variant they call a function SQLite lacks). */
#ifndef RPDTOP_ROCPD_H
#define RPDTOP_ROCPD_H

#include <sqlite3.h>

#include "load/rocpd_detect.h"
#include "load/rpd.h" /* what to read: LOAD_OPS, LOAD_APIS */
#include "trace/trace.h"
#include "util/error.h"

/* Append each process of the file to t as an input. With LOAD_APIS alone
 * the inputs are t's already (a side trace): only API rows and links. */
int rocpd_read(struct trace *t, sqlite3 *db, const char *path, const struct rocpd_file *f, unsigned what,
	       struct rpd_error *err);

/* The span of each process's ops (spans[i] of f's part i; load/span.h),
 * read without them. */
int rocpd_span(sqlite3 *db, const char *path, const struct rocpd_file *f, struct op_span *spans,
	       struct rpd_error *err);

/* The name of a copy that a GPU took part in, as rpd names copies
 * (CopyHostToDevice): by its operation's name when that says a direction
 * (MEMORY_COPY_HOST_TO_DEVICE), else by which of its agents are GPUs. */
const char *rocpd_copy_type(const char *op, int from_gpu, int to_gpu);

#endif
