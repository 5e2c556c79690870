/* A workspace: a session and the reading and writing around it. It opens
 * the inputs into the session's traces, reads their API rows on other
 * threads and moves them in, writes the cache files of what was read, and
 * asks the inputs what a trace in memory does not hold (what the host did
 * at given moments, a kernel's launch sizes). The session itself does no
 * I/O: the viewer and the batch modes ask the workspace for anything read
 * or written, and its session for what is in view.
 *
 * The workspace owns its session: workspace_close closes it too. */
#ifndef RPDTOP_WORKSPACE_H
#define RPDTOP_WORKSPACE_H

#include <stddef.h>
#include <stdint.h>

#include "session/session.h"
#include "trace/api_need.h"
#include "trace/launch_dims.h"
#include "trace/probe.h"
#include "trace/trace.h"
#include "util/error.h"

struct bg_apis;
struct cache_entry;
struct cache_job;
struct load_skipped;

struct workspace_options {
	const char *const *paths; /* files or directories of them */
	size_t npaths;
	int skip_bad, same_node, progress;
	int op_ids;         /* keep op ids: API rows or an export will be linked to ops */
	enum api_need apis; /* read now, with the ops */
	int apis_later;     /* the viewer: every API row is read after the ops */
	int allow_empty;    /* inputs without GPU ops are no error (one group of many) */
	int order_calls;    /* the calls read now will be wanted in order (session_order_calls) */
	int ops_unused;     /* no op is read after, when the calls alone are (API_NEED_CALLS) */
	/* With skip_bad: the inputs skipped told here (load/load.h), not on
	 * stderr (one group of many: the batch run says them all). */
	struct load_skipped *skipped;
};

/* An input's file as it was when read: what says that it is the same
 * file (its device and inode), and its size then. */
struct workspace_stamp {
	int ok; /* it could be looked at */
	uint64_t dev, ino;
	int64_t size;
};

/* What is being read or written of the session's trace k. */
struct workspace_io {
	struct workspace_stamp *stamps; /* each input's, as read (t->inputs' order) */
	size_t nstamps;
	struct bg_apis *bg;          /* its API rows, being read on another thread */
	struct cache_entry *cache;   /* what its cache file is to hold, when written */
	struct cache_job *cache_job; /* its cache file, being written on another thread */
};

struct workspace {
	struct session session;
	struct workspace_io io[SESSION_MAX_TRACES];
};

enum workspace_apis {
	WORKSPACE_APIS_NONE,    /* none to read (read already, or the inputs have none) */
	WORKSPACE_APIS_READING, /* being read in the background */
};

/* Load the inputs as the session's first trace, with no filter and no
 * window. -1 with *err set (nothing to close then). */
int workspace_open(struct workspace *w, const struct workspace_options *o, struct rpd_error *err);
/* A workspace over a trace built otherwise (the generated demo trace),
 * which its session takes over (*t is left empty). */
void workspace_open_trace(struct workspace *w, struct trace *t);
/* Load another trace beside the first (a run to compare with). */
int workspace_add_trace(struct workspace *w, const struct workspace_options *o, struct rpd_error *err);
/* 0 when every input of trace k is the file it was when read: the same
 * device and inode, no shorter (a profiler may still be adding to it);
 * else -1 with *err naming the first that is not (replaced, cut short or
 * gone since). */
int workspace_inputs_unchanged(const struct workspace *w, size_t k, struct rpd_error *err);
/* Close the session; waits for API rows still being read and for cache
 * files being written. */
void workspace_close(struct workspace *w);
/* Write the cache files of the traces as loaded (load/cache.h), at once
 * (the batch modes, after their output); 0, or -1 with *err saying why
 * one could not be written. */
int workspace_save_cache(struct workspace *w, struct rpd_error *err);

/* API rows. The viewer shows the ops first and reads the API rows on
 * another thread; they move into the traces when no job reads them
 * (session_hold). */
void workspace_read_apis(struct workspace *w);
enum workspace_apis workspace_apis(const struct workspace *w);
/* Has the background read ended (workspace_take_apis will not wait)? */
int workspace_apis_ready(const struct workspace *w);
/* Move the API rows in when read (waiting for them with wait), and
 * remake the selections. 1 when they moved in, 0 when not yet (or a job
 * reads the traces), -1 with *err when they could not be read (the trace
 * then keeps none). */
int workspace_take_apis(struct workspace *w, int wait, struct rpd_error *err);
/* Read the API rows now, on this thread, if nothing reads them yet. */
int workspace_load_apis(struct workspace *w, struct rpd_error *err);
/* Before an export: the inputs must be the files that were read
 * (workspace_inputs_unchanged), and with a filter or window (and always
 * for rocpd inputs) the calls to keep are the selection's, so the API
 * rows must be in: read or waited for. Returns 0 ready, -1 on an error, 1
 * when they are read but cannot move in yet (a job reads the trace): ask
 * again. */
int workspace_ready_for_export(struct workspace *w, struct rpd_error *err);

/* What the host did at moments of the first trace (trace_probe_calls). */
int workspace_probe_calls(struct workspace *w, struct call_probe *p, size_t n, struct rpd_error *err);
/* What a kernel of the first trace was launched with, read from its
 * input now. */
int workspace_launch_dims(const struct workspace *w, uint32_t op, struct launch_dims *out);

#endif
