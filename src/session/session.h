/* A session: what the user is looking at. It owns the trace (or, to
 * compare two runs, two traces), the filter and the time window in force,
 * the selection they make of each trace, and a generation number that
 * changes whenever a selection does. Batch reports, the export and the
 * viewer all read the trace through a session, so "what is in view" is
 * decided in one place (session/select.h holds the rule).
 *
 * Changing the filter or the window only marks the selections stale;
 * session_refresh() remakes them, once, when the caller is done changing
 * things. */
#ifndef RPDTOP_SESSION_H
#define RPDTOP_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "session/filter.h"
#include "session/select.h"
#include "session/window.h"
#include "trace/api_need.h"
#include "trace/launch_dims.h"
#include "trace/probe.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/memreport.h"

#define SESSION_MAX_TRACES 2

struct bg_apis;
struct cache_entry;
struct cache_job;
struct load_skipped;

struct session_options {
	const char *const *paths; /* files or directories of them */
	size_t npaths;
	int skip_bad, same_node, progress;
	int op_ids;         /* keep op ids: API rows or an export will be linked to ops */
	enum api_need apis; /* read now, with the ops */
	int apis_later;     /* the viewer: every API row is read after the ops */
	int allow_empty;    /* inputs without GPU ops are no error (one group of many) */
	/* With skip_bad: the inputs skipped told here (load/load.h), not on
	 * stderr (one group of many: the batch run says them all). */
	struct load_skipped *skipped;
};

/* One trace as the session shows it. */
struct session_view {
	struct trace trace;
	struct window window; /* the session's window on this trace's clock */
	char own_window[256]; /* a window of its own instead, or "": one trace's
			       * two windows compared (--against-window) */
	struct selection sel;
	struct api_order order;      /* its API calls by thread and start, once read */
	struct bg_apis *bg;          /* its API rows, being read on another thread */
	struct cache_entry *cache;   /* what its cache file is to hold, when written */
	struct cache_job *cache_job; /* its cache file, being written on another thread */
};

enum session_apis {
	SESSION_APIS_NONE,    /* none to read (read already, or the inputs have none) */
	SESSION_APIS_READING, /* being read in the background */
};

struct session {
	struct session_view views[SESSION_MAX_TRACES];
	size_t ntraces;
	struct filter filter;
	struct filter gpus, inputs; /* the place filters (--gpu, --input): a rule or none */
	/* The window as given: text parsed against each trace's span, or a
	 * span on the first trace's clock kept as offsets from its start. */
	char window_text[256];
	int window_set;
	int64_t window_from, window_to;
	unsigned generation; /* changes with every new selection */
	int stale;           /* the filter or window changed since */
	int readers;         /* jobs reading the traces on other threads */
};

/* Load the inputs as the session's first trace, with
 * no filter and no window. -1 with *err set (nothing to free then). */
int session_open(struct session *s, const struct session_options *o, struct rpd_error *err);
/* A session over a trace built otherwise (the generated demo trace),
 * which it takes over (*t is left empty). */
void session_open_trace(struct session *s, struct trace *t);
/* Load another trace beside the first (a run to compare with). */
int session_add_trace(struct session *s, const struct session_options *o, struct rpd_error *err);
/* Free everything; waits for API rows still being read and for cache
 * files being written. */
void session_close(struct session *s);
/* Write the cache files of the traces as loaded (load/cache.h), at once
 * (the batch modes, after their output); 0, or -1 with *err saying why
 * one could not be written. */
int session_save_cache(struct session *s, struct rpd_error *err);

/* The k-th trace and its selection (k = 0: the trace). */
static inline const struct trace *session_trace_at(const struct session *s, size_t k)
{
	return &s->views[k].trace;
}

static inline const struct selection *session_sel_at(const struct session *s, size_t k)
{
	return &s->views[k].sel;
}

static inline const struct trace *session_trace(const struct session *s)
{
	return session_trace_at(s, 0);
}

static inline const struct selection *session_sel(const struct session *s)
{
	return session_sel_at(s, 0);
}

static inline const struct window *session_window(const struct session *s)
{
	return &s->views[0].window;
}

/* Replace the filter by these rules ("pattern" or "!pattern"), or add one
 * rule to those in force. A bad pattern returns -1 with PCRE2's message
 * in err and leaves the filter as it was. */
int session_set_filter(struct session *s, const char *const *rules, size_t n, char *err, size_t errsize);
int session_add_filter(struct session *s, const char *rule, char *err, size_t errsize);
/* Drop the last rule; 0 when there was none. */
int session_pop_filter(struct session *s);
/* Keep only the GPUs whose label (as busy shows it: 2, node/2, file:2)
 * or number matches gpu (a pattern of digits alone is a number: ^2$),
 * and the inputs whose file name, path or node matches input; NULL or ""
 * keeps all. -1 with PCRE2's message in err,
 * the place filters unchanged. */
int session_set_places(struct session *s, const char *gpu, const char *input, char *err, size_t errsize);
/* The window as START:END (see window_parse), or none for NULL or "".
 * -1 with the reason in err, the window unchanged. */
int session_set_window(struct session *s, const char *text, char *err, size_t errsize);
/* Give trace k a window of its own (START:END, checked against its span),
 * which the session's window no longer changes. */
int session_set_own_window(struct session *s, size_t k, const char *text, char *err, size_t errsize);
/* The window [start, end) on the first trace's clock. */
void session_set_window_ns(struct session *s, int64_t start, int64_t end);
void session_clear_window(struct session *s);

/* What the session holds in memory: its traces, selections and orders
 * of calls (--debug-memory), and the size of its inputs' files. */
void session_memory(const struct session *s, struct mem_report *r);
uint64_t session_input_bytes(const struct session *s);

/* Remake the selections after changes; returns 1 when they were remade. */
int session_refresh(struct session *s);

/* Is anything left out (a filter, a place filter or a window)? */
static inline int session_filtered(const struct session *s)
{
	return s->filter.n > 0 || s->gpus.n > 0 || s->inputs.n > 0 || s->views[0].window.active;
}

/* The filter ("/gemm/ & !/nccl/") and the window ("+1.00 s .. +2.00 s")
 * for people; "" for none. */
void session_describe(const struct session *s, char *filter, size_t fsize, char *window, size_t wsize);
/* The place filters for people ("on GPU /2/ of input /rank3/"), "" for
 * none. */
void session_describe_places(const struct session *s, char *buf, size_t size);

/* API rows. The viewer shows the ops first and reads the API rows on
 * another thread; they move into the trace when no job reads it. */
void session_read_apis(struct session *s);
enum session_apis session_apis(const struct session *s);
/* Has the background read ended (session_take_apis will not wait)? */
int session_apis_ready(const struct session *s);
/* Move the API rows in when read (waiting for them with wait), and
 * remake the selections. 1 when they moved in, 0 when not yet (or a job
 * reads the trace), -1 with *err when they could not be read (the trace
 * then keeps none). */
int session_take_apis(struct session *s, int wait, struct rpd_error *err);
/* Read the API rows now, on this thread, if nothing reads them yet. */
int session_load_apis(struct session *s, struct rpd_error *err);
/* Order each trace's calls by thread and start (struct session_view's
 * order) if they are not yet: the background read does it as it reads,
 * session_load_apis leaves it to those that need it. */
void session_order_calls(struct session *s);
/* What the host did at moments of the first trace (trace_probe_calls). */
int session_probe_calls(struct session *s, struct call_probe *p, size_t n, struct rpd_error *err);
/* Before an export: with a filter or window (and always for rocpd
 * inputs) the calls to keep are the selection's, so the API rows must be
 * in: read or waited for. Returns 0 ready, -1 on an error, 1 when they
 * are read but cannot move in yet (a job reads the trace): ask again. */
int session_ready_for_export(struct session *s, struct rpd_error *err);

/* A job on another thread reads the traces: they must not change (API
 * rows moving in) until it lets go. */
void session_hold(struct session *s);
void session_release(struct session *s);

/* The earliest op in view with this name, or TRACE_NONE. */
uint32_t session_first_op_named(const struct session *s, uint32_t name);
/* What a kernel was launched with, read from its input now. */
int session_launch_dims(const struct session *s, uint32_t op, struct launch_dims *out);

#endif
