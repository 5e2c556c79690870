/* A session: what the user is looking at. It owns the trace (or, to
 * compare two runs, two traces), the filter and the time window in force,
 * the selection they make of each trace, and a generation number that
 * changes whenever a selection does. Batch reports, the export and the
 * viewer all read the trace through a session, so "what is in view" is
 * decided in one place (session/select.h holds the rule). It reads and
 * writes nothing: a workspace (workspace/workspace.h) loads its traces and
 * brings in what is read of them later.
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
#include "trace/api_order.h"
#include "trace/trace.h"
#include "util/memreport.h"

#define SESSION_MAX_TRACES 2

/* One trace as the session shows it. */
struct session_view {
	struct trace trace;
	struct window window; /* the session's window on this trace's clock */
	char own_window[256]; /* a window of its own instead, or "": one trace's
			       * two windows compared (--against-window) */
	struct selection sel;
	struct api_order order; /* its API calls by thread and start, once read */
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

/* A session over a trace (loaded by workspace/workspace.h, or the
 * generated demo trace), which it takes over (*t is left empty); no
 * filter, no window. */
void session_open_trace(struct session *s, struct trace *t);
/* Take t over as another trace beside the first (a run to compare with);
 * the session holds fewer than SESSION_MAX_TRACES. */
void session_add_trace(struct session *s, struct trace *t);
/* Free the traces, selections and filters; nothing may read the traces
 * any more. */
void session_close(struct session *s);

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

/* Order each trace's calls by thread and start (struct session_view's
 * order) if they are not yet: the background read of API rows does it as
 * it reads, a read on this thread leaves it to those that need it. */
void session_order_calls(struct session *s);
/* Trace k's calls in order, made as they were read: kept as its view's
 * order when made for its rows as they are (o is emptied either way). */
void session_take_order(struct session *s, size_t k, struct api_order *o);

/* A job on another thread reads the traces: they must not change (API
 * rows moving in, workspace/workspace.h) until it lets go. */
void session_hold(struct session *s);
void session_release(struct session *s);

/* The earliest op in view with this name, or TRACE_NONE. */
uint32_t session_first_op_named(const struct session *s, uint32_t name);

#endif
