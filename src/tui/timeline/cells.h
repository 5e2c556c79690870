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

/* How busy a cell is, f from 0 to 1, as a shade (a block or ASCII). */
const char *tl_shade(double f);
/* The name of a lane's row: an op's, a call's, a roctx range's text. */
const char *tl_row_name(struct app *app, const struct tl_lane *l, uint32_t row);
/* The whole pane in rows y .. y + height - 1 (view.h draw). */
void tl_draw(struct timeline_pane *p, struct app *app, int y, int height, int width);

#endif
