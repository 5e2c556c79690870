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

/* A process of a file whose processes are not all of one node, or whose
 * node's GPUs are not numbered 0 to gpus - 1: its node and the node's GPUs
 * by number (their agents' type_index). Two processes may share a pid
 * when they are of different nodes. */
struct rocpd_process {
	int64_t pid;
	const char *node;    /* host name, NULL: the job's */
	const int64_t *gpus; /* the node's GPUs' numbers, NULL: 0 to job.gpus - 1 */
	size_t ngpus;
};

/* What the file says about where it was recorded. Every process lists
 * every agent of its node: its CPUs, then its GPUs. */
struct rocpd_job {
	const char *node; /* host name */
	unsigned gpus;
	const int64_t *pids; /* the processes (OS pids), each its own uuid */
	size_t nprocs;
	int64_t ppid;        /* the launcher that started them */
	const char *command; /* their command line */
	/* The processes given one by one (then pids, and node and gpus where
	 * a process says, are not used), or NULL. */
	const struct rocpd_process *procs;
	/* Dispatches carry graph_exec_id (the graph a replay ran, 0: none),
	 * a column of rocpd 3.0.2 and later. */
	int graphs;
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
	int region; /* a region even without a duration (a call, not a mark) */
};

/* hipMemcpyKind numbers. */
enum rocpd_copy_kind { ROCPD_H2H, ROCPD_H2D, ROCPD_D2H, ROCPD_D2D, ROCPD_P2P };

/* GPU work: a kernel dispatch (kernel_name set) or a memory copy. Queues
 * and streams are the process's, numbered from 0 in the order the caller
 * likes (-1: the default stream); the file names them "Queue N" and
 * "Stream N" in the order they first appear and keys them by handles. */
struct rocpd_gpu_row {
	int64_t pid, tid; /* the process and thread that enqueued it */
	int64_t gpu;      /* index among the node's GPUs (a host-to-host copy: any) */
	int64_t queue, stream;
	int64_t start, end;
	const char *kernel_name;  /* the symbol: mangled, with ".kd"; "" if unknown */
	const char *display_name; /* demangled */
	int copy_kind;            /* enum rocpd_copy_kind */
	int64_t size;
	int64_t grid[3], workgroup[3];
	int64_t launch;         /* id of the call that enqueued it, 0: none */
	const char *queue_name; /* the queue's name when it is new, NULL: "Queue N" */
	int64_t graph_exec;     /* job.graphs: the graph replayed, 0: none */
};

/* The names rocprofv3 keeps of a kernel known by name: its symbol (with
 * the descriptor's ".kd") and the name shown. A name that is no symbol
 * (demangled, with spaces or brackets) has no symbol name, written '',
 * for which readers take the display name; a mangled one is shown
 * demangled. Read back (the symbol without ".kd", else the display name)
 * either gives name. Both are the caller's to free. */
void rocpd_kernel_names(const char *name, char **symbol, char **display);

int rocpd_writer_open(struct rocpd_writer **w, const char *path, int force, const struct rocpd_job *job,
		      struct rpd_error *err);
int rocpd_writer_call(struct rocpd_writer *w, const struct rocpd_call_row *c);
int rocpd_writer_gpu(struct rocpd_writer *w, const struct rocpd_gpu_row *g);
/* The same for the process job.procs[proc] (c->pid and g->pid unused). */
int rocpd_writer_call_in(struct rocpd_writer *w, size_t proc, const struct rocpd_call_row *c);
int rocpd_writer_gpu_in(struct rocpd_writer *w, size_t proc, const struct rocpd_gpu_row *g);
/* A row of the first process's rocpd_metadata. */
int rocpd_writer_metadata(struct rocpd_writer *w, const char *tag, const char *value);
/* Finish: views, the checks (integrity, foreign keys), commit, and the
 * file moved into place. Frees w. */
int rocpd_writer_commit(struct rocpd_writer *w, struct rpd_error *err);
void rocpd_writer_abort(struct rocpd_writer *w);
const char *rocpd_writer_errmsg(const struct rocpd_writer *w);

#endif
