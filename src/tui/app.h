/* The application: the session (trace, filter, window and selection), the
 * panes and the views over them, the title, tab and status lines. Key
 * handlers return ACT_* flags; only the main loop (tui.c) acts on them:
 * a handler that changes the filter or window returns ACT_RESELECT, and
 * the loop remakes the selection once. */
#ifndef RPDTOP_APP_H
#define RPDTOP_APP_H

#include <stddef.h>

#include "present/names.h"
#include "session/session.h"
#include "trace/trace.h"
#include "tui/prompt.h"
#include "tui/view.h"

struct export_job;

enum { ANNOUNCE_NONE, ANNOUNCE_PASS, ANNOUNCE_WINDOW };

#define APP_MAX_PANES 4
#define APP_MAX_DEPTH 4
/* Smallest screen with a usable layout. */
#define APP_MIN_COLS 40
#define APP_MIN_ROWS 10

struct app {
	struct session *session;
	const struct trace *trace; /* the session's, for short */
	struct name_cache names;
	struct view panes[APP_MAX_PANES];
	size_t npanes, active;
	struct view stack[APP_MAX_DEPTH]; /* views pushed over the panes */
	int depth;
	char message[256];
	int message_error;
	int message_progress;           /* the message tells how a task goes: newer news replaces it */
	struct prompt prompt;           /* the status line, when open */
	int announce;                   /* say what the next selection keeps (ANNOUNCE_*) */
	int apis_asked;                 /* the API rows were read (or tried) here */
	int quit_asked;                 /* quit once while an export ran */
	uint32_t jump_op;               /* for the timeline to show, or TRACE_NONE */
	struct export_job *export;      /* an export being written, or NULL */
	char export_path[1024];         /* where it goes */
	void (*flush)(struct app *app); /* draw now, before a long task */
	int sync;                       /* a script: wait for background work at once */
	int held;                       /* a script: take background results only at :wait */
};

/* What the filter and window keep, and its generation (panes recompute
 * when it changes). */
static inline const struct selection *app_sel(const struct app *app)
{
	return session_sel(app->session);
}

static inline unsigned app_generation(const struct app *app)
{
	return app->session->generation;
}

/* pane and name_style as the settings file gives them. */
void app_init(struct app *app, struct session *s, size_t pane, unsigned name_style);
/* Read the API rows on a thread of their own from now on. */
void app_start_apis(struct app *app);
/* The API rows are wanted (the timeline's CPU lanes): take them if read,
 * read them now if nothing reads them; while they are being read, return
 * at once (the pane shows what it has and is redrawn when they come). */
void app_need_apis(struct app *app);
/* Between events: take the API rows if their reading ended. Returns
 * ACT_REDRAW then. */
unsigned app_poll(struct app *app);
/* Before drawing: the shown view's work between events (view.h idle). */
unsigned app_idle(struct app *app);
/* Is anything being done in the background (API rows, a pane's work)? */
int app_busy(struct app *app);
/* Wait until nothing is (a script's :wait), taking every result. */
void app_wait(struct app *app);
void app_free(struct app *app);

/* Handle a request: the top view first, then the application. */
unsigned app_request(struct app *app, enum request req);
/* A mouse press at screen (row, col). */
unsigned app_click(struct app *app, int row, int col, int button);
/* Draw the whole screen into curses' buffer. */
void app_draw(struct app *app);

/* Push a view over the current one (details, help). */
void app_push(struct app *app, struct view v);
/* Show a line in the status bar until the next key. */
void app_message(struct app *app, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Remake the selection after handlers changed the filter or window (the
 * loop does this for ACT_RESELECT); says what it keeps when asked to. */
void app_reselect(struct app *app);
/* Open the prompt for a filter (add: stack another rule) or a window. */
unsigned app_prompt_filter(struct app *app, int add);
unsigned app_prompt_window(struct app *app);
/* Ask for a file name and export what the selection keeps, on another
 * thread; C-c stops it. */
unsigned app_prompt_export(struct app *app);
/* Between events: how the export goes, and its end. */
unsigned app_export_poll(struct app *app);
/* A key while an export runs: C-c stops it; returns 1 when it was taken. */
int app_export_key(struct app *app, const char *key);
/* Stop an export still running and wait for it (quitting). */
void app_export_end(struct app *app);
/* Remove the last filter rule. */
unsigned app_pop_filter(struct app *app);
/* The window [start, end) (none when end <= start), from the timeline. */
unsigned app_set_window_ns(struct app *app, int64_t start, int64_t end);

/* Switch to the timeline with the op under its cursor. */
unsigned app_show_in_timeline(struct app *app, uint32_t op);

/* The name of a string as the current name style shows it. */
const char *app_name(struct app *app, uint32_t id);

#endif
