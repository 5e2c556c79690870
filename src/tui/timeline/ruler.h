/* The two lines above the lanes: the minimap of the whole trace (how busy
 * the GPUs are, where the view is) and the ruler (ticks, the time window,
 * the marks' letters). */
#ifndef RPDTOP_TIMELINE_RULER_H
#define RPDTOP_TIMELINE_RULER_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* The time window on the ruler: its columns highlighted, [ and ] at its
 * ends when they are in view. */
void tl_draw_window_marks(const struct timeline_pane *p, const struct window *w, int y, int x0);
/* The marks in view: their letters on the ruler, at their columns. */
void tl_draw_marks(const struct timeline_pane *p, int y, int x0);
/* The ruler: ticks at round times from the origin, with their labels. */
void tl_draw_ruler(struct timeline_pane *p, int y, int x0);
/* The middle of a minimap column's time, within the trace. */
int64_t tl_minimap_time(const struct timeline_pane *p, int c);
/* The whole trace in one line: how busy the GPUs are, and where the view is. */
void tl_draw_minimap(struct timeline_pane *p, int y, int x0);

#endif
