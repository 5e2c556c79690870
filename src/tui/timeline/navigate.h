/* Moving in time and over the lanes: what is under the cursor, the view
 * kept inside the trace, zoom about the cursor, a step along a lane, the
 * trace's ends; the cursor put on a row or a saved position. */
#ifndef RPDTOP_TIMELINE_NAVIGATE_H
#define RPDTOP_TIMELINE_NAVIGATE_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* The time a column of the lanes stands for, 1 ns at least. */
int64_t tl_bucket(const struct timeline_pane *p);
/* The row of lane l under the cursor, l->n when none: a mark counts
 * anywhere in the cursor's column, where it is drawn. */
size_t tl_under_cursor(const struct timeline_pane *p, const struct tl_lane *l);
/* The API call under the cursor, or TRACE_NONE. */
uint32_t tl_call_under_cursor(const struct timeline_pane *p);
/* The GPU op under the cursor, or TRACE_NONE. */
uint32_t tl_op_under_cursor(const struct timeline_pane *p);
/* Keep the view inside the trace, and the cursor inside the view. */
void tl_clamp_view(struct timeline_pane *p);
/* Zoom by a factor (in thousandths) about the cursor: its time stays in
 * its column, so the event under it stays there too (unless the view
 * meets an end of the trace zooming out). */
void tl_zoom(struct timeline_pane *p, int64_t per_mille);
/* The cursor to the next (dir > 0) or previous event on its lane, the
 * view following; says so when there is none. */
void tl_step_event(struct timeline_pane *p, struct app *app, int dir);
/* The view on the event under the cursor (centred on one without a
 * duration). */
void tl_zoom_event(struct timeline_pane *p, struct app *app);
/* Where the cursor is: its lane and event, its time, the view. */
struct tl_pos tl_here(const struct timeline_pane *p);
/* A jump is about to leave the cursor's position: into the history. */
void tl_jumped_from(struct timeline_pane *p);
/* Back to a position: its lane (or where its event went), its time, and
 * its view (with view set) or the current one, moved when the time is
 * outside it. Returns 0 when its lane is hidden (the lane filter, CPU
 * lanes hidden) or gone: the time is gone to all the same. */
int tl_go_to(struct timeline_pane *p, struct app *app, const struct tl_pos *pos, int view);
/* Put the cursor on a row of a lane of this kind (a queue's op, a thread's
 * call at any depth); the view follows when the row is outside it.
 * Returns 0 when the row is not in the lanes, -1 when its lane is hidden
 * by the lane rules (CPU lanes hidden, the lane filter). */
int tl_goto_row(struct timeline_pane *p, int kind, uint32_t owner, uint32_t row, int64_t start);
/* The GPU of the cursor's lane, or TRACE_NONE on a CPU or counter lane. */
uint32_t tl_cursor_gpu(const struct timeline_pane *p, const struct trace *t);
/* Home and End: the trace's start or end, the view's span kept. */
void tl_to_end(struct timeline_pane *p, int end);
/* The view centred on a time, the cursor there. */
unsigned tl_centre_on(struct timeline_pane *p, int64_t at);

#endif
