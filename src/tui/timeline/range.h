/* A range of time marked on the timeline: the range request marks its
 * start at the cursor, the same request its end, and what is in it is
 * shown (view_range); a drag on the ruler marks one too. The ruler shows
 * it between < and >; while only its start is marked, up to the cursor. */
#ifndef RPDTOP_TIMELINE_RANGE_H
#define RPDTOP_TIMELINE_RANGE_H

#include <stdint.h>

struct app;

enum tl_range_state { TL_RANGE_NONE, TL_RANGE_STARTED, TL_RANGE_MARKED };

struct tl_range {
	enum tl_range_state state;
	int64_t start, end; /* STARTED: start; MARKED: [start, end) */
	int drag_col;       /* the ruler column a drag began at, -1: none */
};

void tl_range_init(struct tl_range *r);
/* The range request at a cursor at time cursor. */
unsigned tl_range_mark(struct tl_range *r, struct app *app, int64_t cursor);
/* Show what is in the marked range again. */
unsigned tl_range_show(const struct tl_range *r, struct app *app);
/* Drop the range; 0 when none was marked or begun. */
int tl_range_clear(struct tl_range *r, struct app *app);
/* Draw it on the ruler at row y, whose column c (of cols, from x0) is the
 * time bucket [view_start + c * dt, + dt). */
void tl_range_draw(const struct tl_range *r, int64_t cursor, int64_t view_start, int64_t dt, int cols, int y,
		   int x0);
/* A press on the ruler's column col; its release on column col (a drag
 * when it is another): the columns from one to the other, both whole,
 * become the range. */
void tl_range_press(struct tl_range *r, int col);
unsigned tl_range_release(struct tl_range *r, struct app *app, int col, int64_t view_start, int64_t dt);

#endif
