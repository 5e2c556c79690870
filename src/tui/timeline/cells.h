/* The lanes drawn: one row per lane shown, each column a time bucket with
 * the op that fills it (its name on a long run), how busy it is in
 * shades, or the mark of an event without a duration; a counter's bars;
 * the mark of the call that launched the op under the cursor. */
#ifndef RPDTOP_TIMELINE_CELLS_H
#define RPDTOP_TIMELINE_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* The whole pane in rows y .. y + height - 1 (view.h draw). */
void tl_draw(struct timeline_pane *p, struct app *app, int y, int height, int width);

#endif
