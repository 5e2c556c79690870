/* The detail line under the lanes: the event under the cursor (its times,
 * launch latency, lane, launch sizes, a copy's bytes, its launch), a
 * counter's value, or the gap the cursor is in; the launch sizes are read
 * between keys. */
#ifndef RPDTOP_TIMELINE_DETAIL_H
#define RPDTOP_TIMELINE_DETAIL_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* A kernel's launch sizes are read from its input once per kernel the
 * cursor stops on: between keys, never while drawing. */
void tl_read_dims(struct timeline_pane *p, struct app *app);
/* Find the place in its graph replay of the op under the cursor; 1 when
 * something new was found. */
int tl_read_place(struct timeline_pane *p, struct app *app);
/* The event under the cursor, in one line: its name, then its facts most
 * important first (times, launch latency, lane, sizes or bytes, the
 * launching call); a line too narrow for them all leaves out the last
 * whole, and a long name gives way down to 40 columns, losing its
 * middle. */
void tl_draw_detail(struct timeline_pane *p, struct app *app, int y, int width);

#endif
