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

const char *shade(double f);
/* The name of a lane's row: an op's, a call's, a roctx range's text. */
const char *row_name(struct app *app, const struct tl_lane *l, uint32_t row);
/* One lane: each column a bucket; runs of one op long enough carry its
 * name. The columns' facts are looked up once a frame (timeline_columns). */
void draw_lane(struct timeline_pane *p, struct app *app, const struct tl_lane *l, int y, int x0,
	       int selected);
/* The lane shown for the call that launched the op under the cursor (its
 * thread's when its row is folded), and where the call starts; nlanes when
 * there is none or it is not in view. Once a frame: a search per lane. */
size_t launch_lane(const struct timeline_pane *p, const struct trace *t, int64_t *at);
/* The launch's mark: a triangle at the call's start on its lane. */
void draw_launch_mark(const struct timeline_pane *p, int y, int x0, int64_t at);

#endif
