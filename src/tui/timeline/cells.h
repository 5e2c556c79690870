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
struct view;

const char *shade(double f);
/* The name of a lane's row: an op's, a call's, a roctx range's text. */
const char *row_name(struct app *app, const struct tl_lane *l, uint32_t row);
void timeline_draw(struct view *v, struct app *app, int y, int height, int width);

#endif
