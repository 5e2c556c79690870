/* Writing a rocprofiler-sdk rocpd database (schema version 3) as
 * rocprofv3 writes it, safely as dbwriter does. Each process gets its own
 * uuid and tables; a file of several processes is laid out as rocpd merge
 * lays out several processes' files (every table suffixed by its process's
 * uuid, the unsuffixed rocpd_* views a UNION ALL over them). */
#ifndef RPDTOP_ROCPD_WRITER_H
#define RPDTOP_ROCPD_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

struct rocpd_writer;

/* What the file says about where it was recorded. Every process lists
 * every agent of the node: its CPUs, then gpus GPUs. */
struct rocpd_job {
	const char *node; /* host name */
	unsigned gpus;
	const int64_t *pids; /* the processes (OS pids), each its own uuid */
	size_t nprocs;
	int64_t ppid;        /* the launcher that started them */
	const char *command; /* their command line */
};

/* An argument of a call, as the tracer records it. */
struct rocpd_arg_row {
	int position;
	const char *type, *name, *value;
};

/* A call on a CPU thread. With a duration it is a region, without one
 * (start == end, as for roctxMarkA) a sample on the thread's track of its
 * category, its name not kept. id is the tracer's correlation id: the
 * region's (or sample's) id and its event's stack id. */
struct rocpd_call_row {
	int64_t id, pid, tid, start, end;
	const char *name;     /* hipLaunchKernel, roctxThreadRangeA, ... */
	const char *category; /* HIP_RUNTIME_API_EXT, MARKER_CORE_RANGE_API, ... */
	const char *message;  /* a roctx call's text, or NULL */
	const struct rocpd_arg_row *args;
	size_t nargs;
};

/* hipMemcpyKind numbers. */
enum rocpd_copy_kind { ROCPD_H2H, ROCPD_H2D, ROCPD_D2H, ROCPD_D2D };

/* GPU work: a kernel dispatch (kernel_name set) or a memory copy. Queues
 * and streams are the process's, numbered from 0 in the order the caller
 * likes (-1: the default stream); the file names them "Queue N" and
 * "Stream N" in the order they first appear and keys them by handles. */
struct rocpd_gpu_row {
	int64_t pid, tid; /* the process and thread that enqueued it */
	int64_t gpu;      /* index among the node's GPUs */
	int64_t queue, stream;
	int64_t start, end;
	const char *kernel_name;  /* the symbol: mangled, with ".kd"; "" if unknown */
	const char *display_name; /* demangled */
	int copy_kind;            /* enum rocpd_copy_kind */
	int64_t size;
	int64_t grid[3], workgroup[3];
	int64_t launch; /* id of the call that enqueued it, 0: none */
};

int rocpd_writer_open(struct rocpd_writer **w, const char *path, int force, const struct rocpd_job *job,
		      struct rpd_error *err);
int rocpd_writer_call(struct rocpd_writer *w, const struct rocpd_call_row *c);
int rocpd_writer_gpu(struct rocpd_writer *w, const struct rocpd_gpu_row *g);
/* Finish: views, the checks (integrity, foreign keys), commit, and the
 * file moved into place. Frees w. */
int rocpd_writer_commit(struct rocpd_writer *w, struct rpd_error *err);
void rocpd_writer_abort(struct rocpd_writer *w);
const char *rocpd_writer_errmsg(const struct rocpd_writer *w);

#endif
