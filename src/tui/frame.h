/* The frame around the panes: the panes made, requests handed to the top
 * view and then to the application, the screen drawn, background work
 * taken between events. The main loop (tui.c) drives it. */
#ifndef RPDTOP_FRAME_H
#define RPDTOP_FRAME_H

#include "tui/app.h"

/* pane and name_style as the settings file gives them. */
void app_init(struct app *app, struct workspace *w, size_t pane, unsigned name_style);
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
/* A mouse button let go at screen (row, col). */
unsigned app_release(struct app *app, int row, int col, int button);
/* Draw the whole screen into curses' buffer. */
void app_draw(struct app *app);

#endif
