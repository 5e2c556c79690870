/* A view is what fills the screen between the tabs and the status line:
 * a pane (profile, kernels, busy) or a view pushed over it (details, help).
 * Each view file ends with its ops table. */
#ifndef RPDTOP_VIEW_H
#define RPDTOP_VIEW_H

#include <curses.h>
#include <stddef.h>

#include "tui/request.h"
#include "util/memreport.h"

struct app;
struct view;

struct view_ops {
	const char *name;  /* for messages and tests */
	const char *title; /* tab or header label, N_() */
	/* Draw into rows y .. y + height - 1 of the screen, width columns. */
	void (*draw)(struct view *v, struct app *app, int y, int height, int width);
	/* Act on a request; returns ACT_* flags. */
	unsigned (*request)(struct view *v, struct app *app, enum request req);
	/* A mouse press at (row, col) inside the view, row 0 = its first row. */
	unsigned (*click)(struct view *v, struct app *app, int row, int col, int button);
	void (*free)(struct view *v);
	/* Optional: what the view adds to the status line (the timeline's
	 * span), written into buf. */
	void (*status)(struct view *v, struct app *app, char *buf, size_t size);
	/* Optional: work of its own on another thread (enum view_busy). */
	int (*busy)(struct view *v);
	/* Optional: start that work before the view is shown (the trace is
	 * complete: its API rows have come). */
	void (*prepare)(struct view *v, struct app *app);
	/* Optional: work between events, before the screen is drawn: what
	 * needs reading (an input queried) is read here, never while drawing.
	 * Returns ACT_* flags. */
	unsigned (*idle)(struct view *v, struct app *app);
	/* Optional: a mouse button let go at (row, col), as click's (the end
	 * of a drag). */
	unsigned (*release)(struct view *v, struct app *app, int row, int col, int button);
	/* Optional: add what it holds in memory (--debug-memory). */
	void (*memory)(struct view *v, struct mem_report *r);
	/* Optional: does it hold what a person made and quitting loses (the
	 * timeline's marks and range)? */
	int (*keeps)(struct view *v);
};

enum view_busy {
	VIEW_IDLE,
	VIEW_WORKING,
	VIEW_DONE, /* finished: the next draw shows it */
};

struct view {
	const struct view_ops *ops;
	void *data;
};

#endif
