/* The application: the trace, the panes and the views over them, the
 * title, tab and status lines. Key handlers return ACT_* flags; only the
 * main loop (tui.c) acts on them. */
#ifndef RPDTOP_APP_H
#define RPDTOP_APP_H

#include <stddef.h>

#include "analysis/filter.h"
#include "analysis/select.h"
#include "analysis/window.h"
#include "load/background.h"
#include "present/names.h"
#include "trace/trace.h"
#include "tui/prompt.h"
#include "tui/view.h"

#define APP_MAX_PANES 4
#define APP_MAX_DEPTH 4
/* Smallest screen with a usable layout. */
#define APP_MIN_COLS 40
#define APP_MIN_ROWS 10

struct app {
	const struct trace *trace;
	struct trace *loadable; /* the same trace, for its API rows */
	struct bg_apis *bg;     /* its API rows being read meanwhile */
	struct name_cache names;
	struct view panes[APP_MAX_PANES];
	size_t npanes, active;
	struct view stack[APP_MAX_DEPTH]; /* views pushed over the panes */
	int depth;
	char message[256];
	int message_error;
	struct prompt prompt; /* the status line, when open */
	struct filter filter; /* in force in every pane */
	struct window window;
	struct selection sel;           /* what the filter and window keep */
	unsigned generation;            /* changes with the selection */
	uint32_t jump_op;               /* for the timeline to show, or TRACE_NONE */
	void (*flush)(struct app *app); /* draw now, before a long task */
	int sync;                       /* a script: wait for background work */
};

/* pane and name_style as the settings file gives them. */
void app_init(struct app *app, struct trace *t, size_t pane, unsigned name_style);
/* Read the API rows on a thread of their own from now on. */
void app_start_apis(struct app *app);
/* The API rows are wanted (the timeline's CPU lanes): take them if read,
 * read them now if nothing reads them; while they are being read, return
 * at once (the pane shows what it has and is redrawn when they come). */
void app_need_apis(struct app *app);
/* Between events: take the API rows if their reading ended. Returns
 * ACT_REDRAW then. */
unsigned app_poll(struct app *app);
/* Is anything being done in the background (API rows, a pane's work)? */
int app_busy(struct app *app);
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
/* Rebuild the selection after the filter or window changed. */
void app_select(struct app *app);
/* Open the prompt for a filter (add: stack another rule) or a window. */
unsigned app_prompt_filter(struct app *app, int add);
unsigned app_prompt_window(struct app *app);
/* Ask for a file name and export what the selection keeps. */
unsigned app_prompt_export(struct app *app);
/* Remove the last filter rule. */
unsigned app_pop_filter(struct app *app);

/* Switch to the timeline with the op under its cursor. */
unsigned app_show_in_timeline(struct app *app, uint32_t op);

/* The name of a string as the current name style shows it. */
const char *app_name(struct app *app, uint32_t id);

#endif
