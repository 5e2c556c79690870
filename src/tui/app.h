/* The application as its views see it: the workspace (the inputs read,
 * and read from in the background) and its session (trace, filter, window
 * and selection), the panes and the views over them, the status message.
 * Key handlers return ACT_* flags; only the main loop (tui.c) acts on them:
 * a handler that changes the filter or window returns ACT_RESELECT, and
 * the loop remakes the selection once. The frame around the panes (their
 * making, requests, drawing) is in frame.h. */
#ifndef RPDTOP_APP_H
#define RPDTOP_APP_H

#include <stddef.h>

#include "analysis/params.h"
#include "display/names.h"
#include "session/session.h"
#include "trace/trace.h"
#include "tui/prompt.h"
#include "tui/view.h"
#include "workspace/workspace.h"

struct export_job;

enum { ANNOUNCE_NONE, ANNOUNCE_PASS, ANNOUNCE_WINDOW };

#define APP_MAX_PANES 8
#define APP_MAX_DEPTH 4
/* Smallest screen with a usable layout. */
#define APP_MIN_COLS 40
#define APP_MIN_ROWS 10

struct app {
	struct workspace *ws;
	struct session *session;   /* the workspace's, for short */
	const struct trace *trace; /* the session's, for short */
	struct name_cache names;
	struct view panes[APP_MAX_PANES];
	size_t npanes, active;
	struct view stack[APP_MAX_DEPTH]; /* views pushed over the panes */
	int depth;
	char message[256];
	int message_error;
	int message_progress;            /* the message tells how a task goes: newer news replaces it */
	struct prompt prompt;            /* the status line, when open */
	int announce;                    /* say what the next selection keeps (ANNOUNCE_*) */
	int apis_asked;                  /* the API rows were read (or tried) here */
	int prepared;                    /* the panes' indexes were begun for them */
	int quit_asked;                  /* q once: the next q quits */
	int closed_message;              /* the key being handled closed a message */
	uint32_t jump_op;                /* for the timeline to show, or TRACE_NONE */
	uint32_t jump_call;              /* an API call for it to show, or TRACE_NONE */
	int jump_walk;                   /* n and N then walk the instances of its name */
	uint32_t jump_queue;             /* a time on this queue's lane for it to show, or TRACE_NONE */
	int64_t jump_time, jump_span;    /* that time, and a view span around it */
	struct analysis_params analysis; /* the gap threshold (x changes it), the patterns... */
	struct export_job *export;       /* an export being written, or NULL */
	char export_path[1024];          /* where it goes */
	int export_waiting;              /* it waits for the API rows to move in */
	int export_force;                /* it may replace the file */
	void (*flush)(struct app *app);  /* draw now, before a long task */
	int sync;                        /* a script: wait for background work at once */
	int held;                        /* a script: take background results only at :wait */
	long findings;                   /* the Findings pane's count, -1 before it is known */
	unsigned findings_generation;    /* of the selection it was made for */
};

/* What the filter and window keep, and its generation (panes recompute
 * when it changes). */
static inline const struct selection *app_sel(const struct app *app)
{
	return session_sel(app->session);
}

/* The trace's calls by thread and start, made now if they are not yet:
 * one order for every view (the API and Markers panes, the timeline). */
const struct api_order *app_order(struct app *app);

static inline unsigned app_generation(const struct app *app)
{
	return app->session->generation;
}

/* Read the API rows on a thread of their own from now on. */
void app_start_apis(struct app *app);
/* When the trace has every API row already (a cache file, a trace read
 * in one pass), begin the panes' own indexes, once. */
void app_prepare_whole(struct app *app);
/* The API rows are wanted (the timeline's CPU lanes): take them if read,
 * read them now if nothing reads them; while they are being read, return
 * at once (the pane shows what it has and is redrawn when they come). */
void app_need_apis(struct app *app);
/* The view on top: the last pushed, else the active pane. */
struct view *app_top_view(struct app *app);
/* Show pane i, closing the views over the panes. */
unsigned app_show_pane(struct app *app, size_t i);
void app_free_view(struct view *v);
/* The most any pane is busy with (enum view_busy). */
int app_panes_busy(struct app *app);
/* The API rows moved in (rc 1) or could not be read (rc -1, err): say
 * so, and let the panes build their indexes. */
void app_took_apis(struct app *app, int rc, const struct rpd_error *err);

/* Push a view over the current one (details, help). */
void app_push(struct app *app, struct view v);
/* Show a line in the status bar until the next key. */
void app_message(struct app *app, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Switch to the timeline with the op under its cursor. */
unsigned app_show_in_timeline(struct app *app, uint32_t op);
/* The same for an API call (on its thread's lane). */
unsigned app_show_call_in_timeline(struct app *app, uint32_t api);
/* An instance of a name shown from a table's row of that name (an op, or
 * a call with SEARCH_CALL): the same, and in the timeline n and N then
 * walk the name's instances, as a search for it, until another search. */
unsigned app_walk_in_timeline(struct app *app, uint32_t ref);

/* The same for a time on a queue's lane (a gap's start), the view span
 * at least span. */
unsigned app_show_time_in_timeline(struct app *app, uint32_t queue, int64_t time, int64_t span);

/* The name of a string as the current name style shows it. */
const char *app_name(struct app *app, uint32_t id);

#endif
