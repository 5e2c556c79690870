/* The two lines above the lanes: the minimap of the whole trace (how busy
 * the GPUs are, where the view is) and the ruler (ticks, the time window,
 * the marks' letters). */
#ifndef RPDTOP_TIMELINE_RULER_H
#define RPDTOP_TIMELINE_RULER_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* Rows y and y + 1: the minimap, and the ruler with the time window, the
 * marks and the marked range on it; the lanes start at column x0. */
void tl_draw_ruler_lines(struct timeline_pane *p, struct app *app, int y, int x0);
/* The middle of a minimap column's time, within the trace. */
int64_t tl_minimap_time(const struct timeline_pane *p, int c);

#endif
